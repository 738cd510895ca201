package differential_test

import (
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// prefetchPipe is out(x, y) = g(x, y) + in(x + 1, y) * g(x, y + 1), with
// g(x, y) = in(x, y) * 3 - in(x, y + 2) computed at the root, and an
// update out(x, y) += in(x + r, y) over r in [0, 3): a pure stage and an
// update, each reading a Func and the input.
type prefetchPipe struct {
	in     *halide.ImageParam
	g, out *halide.Func
	r      *halide.RDom
}

func newPrefetchPipe() *prefetchPipe {
	x, y := v("x"), v("y")
	p := &prefetchPipe{in: halide.NewImageParam("in", halide.Float32, 2), g: halide.NewFunc("g"), out: halide.NewFunc("out")}
	p.g.Define(x, y).Is(p.in.At(x, y).Mul(3).Sub(p.in.At(x, y.Add(2))))
	p.out.Define(x, y).Is(p.g.At(x, y).Add(p.in.At(x.Add(1), y).Mul(p.g.At(x, y.Add(1)))))
	p.r = halide.NewRDom("r", halide.Range(0, 3))
	p.out.Define(x, y).Is(p.out.At(x, y).Add(p.in.At(x.Add(p.r.X()), y)))
	p.g.ComputeRoot()
	return p
}

// realizePrefetch realizes the pipeline on a random input (values in
// [1, 2), never zero) and returns the output.
func realizePrefetch(t *testing.T, p *prefetchPipe, w, h int, seed int64) []float32 {
	t.Helper()
	rng := rand.New(rand.NewSource(seed))
	input := halide.NewBuffer[float32](w+3, h+3)
	input.Fill(func([]int) float32 { return 1 + rng.Float32() })
	p.in.Set(input)
	result := halide.NewBuffer[float32](w, h)
	pl := halide.NewPipeline(p.out).WithOptions(halide.Options{Verify: true})
	if err := pl.Realize(result); err != nil {
		t.Fatalf("Realize: %v", err)
	}
	return result.Data()
}

// TestPrefetchSameResult realizes schedules with and without prefetches
// (of the Func and of the input, every strategy, offsets that reach past
// the input, at and from different loops) on the CPU and, for the GPU
// schedules, the emulator: the outputs are the same, bit for bit.
func TestPrefetchSameResult(t *testing.T) {
	x, y, xo, xi, yo, yi := v("x"), v("y"), v("xo"), v("xi"), v("yo"), v("yi")
	bx, by, tx, ty := v("bx"), v("by"), v("tx"), v("ty")
	strategies := []halide.PrefetchBoundStrategy{halide.PrefetchGuardWithIf, halide.PrefetchClamp, halide.PrefetchNonFaulting}
	type schedule struct {
		name     string
		loops    func(p *prefetchPipe)
		prefetch func(p *prefetchPipe, s halide.PrefetchBoundStrategy)
	}
	cases := []schedule{
		{"rows", func(p *prefetchPipe) {}, func(p *prefetchPipe, s halide.PrefetchBoundStrategy) {
			p.out.Prefetch(p.g, y, y, 1, s).PrefetchImage(p.in, y, y, 2, s)
		}},
		{"row from column", func(p *prefetchPipe) {}, func(p *prefetchPipe, s halide.PrefetchBoundStrategy) {
			p.out.Prefetch(p.g, y, x, 4, s).PrefetchImage(p.in, x, x, 1, s)
		}},
		{"far offset", func(p *prefetchPipe) {}, func(p *prefetchPipe, s halide.PrefetchBoundStrategy) {
			p.out.PrefetchImage(p.in, y, y, 40, s).Prefetch(p.g, y, y, -3, s)
		}},
		{"tiles", func(p *prefetchPipe) {
			p.out.Tile(x, y, xo, yo, xi, yi, 8, 4).Vectorize(xi)
		}, func(p *prefetchPipe, s halide.PrefetchBoundStrategy) {
			p.out.Prefetch(p.g, xo, xo, 1, s).PrefetchImage(p.in, yo, yi, 2, s)
		}},
		{"update", func(p *prefetchPipe) {
			p.out.Update(0).Split(y, yo, yi, 4)
		}, func(p *prefetchPipe, s halide.PrefetchBoundStrategy) {
			p.out.Update(0).PrefetchImage(p.in, yo, yi, 1, s).PrefetchImage(p.in, yi, p.r.X(), 1, s)
		}},
		{"gpu", func(p *prefetchPipe) {
			p.g.GPUTile(x, y, bx, by, tx, ty, 8, 8)
			p.out.GPUTile(x, y, bx, by, tx, ty, 16, 4)
			p.out.Update(0).GPUTile(x, y, bx, by, tx, ty, 8, 8)
		}, func(p *prefetchPipe, s halide.PrefetchBoundStrategy) {
			p.out.Prefetch(p.g, tx, tx, 1, s).PrefetchImage(p.in, tx, tx, 3, s)
			p.out.Update(0).PrefetchImage(p.in, tx, p.r.X(), 1, s)
		}},
	}
	for i, c := range cases {
		for _, s := range strategies {
			t.Run(c.name+"/"+s.String(), func(t *testing.T) {
				seed := int64(7000 + i)
				plain := newPrefetchPipe()
				c.loops(plain)
				want := realizePrefetch(t, plain, 37, 29, seed)
				p := newPrefetchPipe()
				c.loops(p)
				c.prefetch(p, s)
				l, err := halide.NewPipeline(p.out).Lower()
				if err != nil {
					t.Fatal(err)
				}
				if !containsPrefetch(l.String()) {
					t.Errorf("the lowered statement has no prefetch:\n%s", l)
				}
				got := realizePrefetch(t, p, 37, 29, seed)
				if !slices.Equal(got, want) {
					t.Errorf("the output differs with the prefetches")
				}
			})
		}
	}
}

func containsPrefetch(s string) bool { return strings.Contains(s, "prefetch ") }

// TestPrefetchTupleAndOutput prefetches a Tuple Func (each of its values'
// buffers) and, from an update, the output itself, on the CPU and the
// emulator: the results are those without the prefetches.
func TestPrefetchTupleAndOutput(t *testing.T) {
	x, y, bx, by, tx, ty := v("x"), v("y"), v("bx"), v("by"), v("tx"), v("ty")
	build := func(gpu, prefetch bool) (*halide.Func, *halide.ImageParam) {
		in := halide.NewImageParam("in", halide.Float32, 2)
		tu := halide.NewFunc("tu")
		tu.Define(x, y).Is(halide.NewTuple(in.At(x, y).Mul(2), in.At(x.Add(1), y).Sub(1)))
		out := halide.NewFunc("out")
		out.Define(x, y).Is(tu.AtTuple(x, y).Elem(0).Add(tu.AtTuple(x, y.Add(1)).Elem(1)))
		out.Define(x, y).Is(out.At(x, y).Mul(out.At(x, y)).Add(1))
		tu.ComputeRoot()
		if gpu {
			tu.GPUTile(x, y, bx, by, tx, ty, 8, 8)
			out.GPUTile(x, y, bx, by, tx, ty, 8, 4)
			out.Update(0).GPUTile(x, y, bx, by, tx, ty, 8, 4)
		}
		if prefetch {
			at := y
			if gpu {
				at = tx
			}
			out.Prefetch(tu, at, at, 1, halide.PrefetchClamp)
			out.Update(0).Prefetch(out, at, at, 2)
		}
		return out, in
	}
	for _, gpu := range []bool{false, true} {
		rng := rand.New(rand.NewSource(31))
		input := halide.NewBuffer[float32](30, 20)
		input.Fill(func([]int) float32 { return 1 + rng.Float32() })
		var results [][]float32
		for _, pf := range []bool{false, true} {
			out, in := build(gpu, pf)
			in.Set(input)
			result := halide.NewBuffer[float32](28, 18)
			p := halide.NewPipeline(out).WithOptions(halide.Options{Verify: true})
			if err := p.Realize(result); err != nil {
				t.Fatalf("gpu %v, prefetch %v: %v", gpu, pf, err)
			}
			if pf {
				l, err := p.Lower()
				if err != nil {
					t.Fatal(err)
				}
				for _, want := range []string{"prefetch tu.0[", "prefetch tu.1[", "prefetch out["} {
					if !strings.Contains(l.String(), want) {
						t.Errorf("gpu %v: the lowered statement has no %q:\n%s", gpu, want, l)
					}
				}
			}
			results = append(results, result.Data())
		}
		if !slices.Equal(results[0], results[1]) {
			t.Errorf("gpu %v: the output differs with the prefetches", gpu)
		}
	}
}

// TestPrefetchBoundaryFunc prefetches a boundary condition (an anonymous
// Func the pipeline names in_repeat_edge) computed at the root: the
// prefetch follows the Func under its pipeline name.
func TestPrefetchBoundaryFunc(t *testing.T) {
	x, y := v("x"), v("y")
	build := func(prefetch bool) (*halide.Func, *halide.ImageParam) {
		in := halide.NewImageParam("in", halide.Float32, 2)
		padded := halide.RepeatEdge(in)
		out := halide.NewFunc("out")
		out.Define(x, y).Is(padded.At(x.Sub(1), y).Add(padded.At(x.Add(1), y.Add(1))))
		padded.ComputeRoot()
		if prefetch {
			out.Prefetch(padded, y, y, 1)
		}
		return out, in
	}
	rng := rand.New(rand.NewSource(5))
	input := halide.NewBuffer[float32](16, 12)
	input.Fill(func([]int) float32 { return 1 + rng.Float32() })
	var results [][]float32
	for _, pf := range []bool{false, true} {
		out, in := build(pf)
		in.Set(input)
		p := halide.NewPipeline(out).WithOptions(halide.Options{Verify: true})
		if pf {
			l, err := p.Lower()
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(l.String(), "prefetch in_repeat_edge[") {
				t.Errorf("the lowered statement has no prefetch of in_repeat_edge:\n%s", l)
			}
		}
		result := halide.NewBuffer[float32](16, 12)
		if err := p.Realize(result); err != nil {
			t.Fatal(err)
		}
		results = append(results, result.Data())
	}
	if !slices.Equal(results[0], results[1]) {
		t.Error("the output differs with the prefetch")
	}
}
