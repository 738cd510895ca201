package differential_test

import (
	"math"
	"math/rand"
	"strings"
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// specPipeline is a small pipeline whose stages are specialized on an int
// Param w (the width of a window), a bool Param b and the input's width:
// g(x, y) = in(x, y) * 2 computed per row of f; f(x, y) = (b ? g + 1 : g)
// plus, in an update, the sum of in(x + r, y) for r in [0, w).
type specPipeline struct {
	in *halide.ImageParam
	w  *halide.Param[int32]
	b  *halide.Param[bool]
	// gain is a float Param no definition reads (a condition may test it).
	gain *halide.Param[float32]
	f    *halide.Func
	g    *halide.Func
	x    halide.Var
	y    halide.Var
	r    *halide.RDom
	xo   halide.Var
	xi   halide.Var
	yo   halide.Var
	yi   halide.Var
	out  *halide.Buffer[float32]
}

func newSpecPipeline() *specPipeline {
	p := &specPipeline{
		in: halide.NewImageParam("in", halide.Float32, 2),
		w:  halide.NewParam[int32]("w"),
		b:  halide.NewParam[bool]("b"), gain: halide.NewParam[float32]("gain"),
		f: halide.NewFunc("f"), g: halide.NewFunc("g"),
		x: halide.NewVar("x"), y: halide.NewVar("y"),
		xo: halide.NewVar("xo"), xi: halide.NewVar("xi"), yo: halide.NewVar("yo"), yi: halide.NewVar("yi"),
	}
	p.r = halide.NewRDom("r", halide.Range(0, p.w))
	x, y := p.x, p.y
	p.g.Define(x, y).Is(p.in.At(x, y).Mul(2))
	p.f.Define(x, y).Is(halide.Select(p.b, p.g.At(x, y).Add(1), p.g.At(x, y)))
	p.f.Define(x, y).PlusEq(p.in.At(x.Add(p.r), y))
	return p
}

// check realizes p for every value of w in ws and of b on random inputs
// of random sizes (not multiples of the split factors), against the
// plain-Go reference.
func (p *specPipeline) check(t *testing.T, ws []int32, seed int64) {
	t.Helper()
	pl := halide.NewPipeline(p.f).WithOptions(halide.Options{Verify: true})
	rng := rand.New(rand.NewSource(seed))
	for _, w := range ws {
		for _, b := range []bool{false, true} {
			nx, ny := 16+rng.Intn(13), 8+rng.Intn(7)
			ib := halide.NewBuffer[float32](nx+int(w)-1, ny)
			ib.Fill(func([]int) float32 { return rng.Float32() })
			p.in.Set(ib)
			p.w.Set(w)
			p.b.Set(b)
			p.gain.Set([]float32{0.25, 1}[rng.Intn(2)])
			out := halide.NewBuffer[float32](nx, ny)
			if err := pl.Realize(out); err != nil {
				t.Fatalf("w=%d b=%v: %v", w, b, err)
			}
			for yy := 0; yy < ny; yy++ {
				for xx := 0; xx < nx; xx++ {
					want := ib.Get(xx, yy) * 2
					if b {
						want++
					}
					for r := 0; r < int(w); r++ {
						want += ib.Get(xx+r, yy)
					}
					if got := out.Get(xx, yy); math.Abs(float64(got-want)) > 1e-4 {
						t.Fatalf("w=%d b=%v: f(%d, %d) = %v, want %v", w, b, xx, yy, got, want)
					}
				}
			}
		}
	}
}

// TestSpecializeCPU runs specialized schedules on the CPU, taking every
// case, and checks that the lowered statement has each case's loops.
func TestSpecializeCPU(t *testing.T) {
	cases := []struct {
		name  string
		sched func(p *specPipeline)
		// lowered: substrings the lowered statement must contain.
		lowered []string
	}{
		{"pure stage: two cases and the default", func(p *specPipeline) {
			p.f.Specialize(p.w.Expr().Eq(3)).Split(p.x, p.xo, p.xi, 4).Vectorize(p.xi)
			p.f.Specialize(p.b).Parallel(p.y)
			p.f.Split(p.x, p.xo, p.xi, 5)
			p.g.ComputeAtStage(p.f.Stage(0), p.y)
		}, []string{"if ((w == 3))", "vectorized (f.s0.x.xi, 0, 4)", "} else if (b) {", "parallel (f.s0.y,", "for (f.s0.x.xi, 0, 5)"}},
		{"update: w == 3 makes the RDom constant", func(p *specPipeline) {
			p.f.Update(0).Specialize(p.w.Expr().Eq(3)).Unroll(p.r.X())
			p.f.Update(0).Split(p.x, p.xo, p.xi, 4, halide.GuardWithIf)
			p.g.ComputeRoot()
		}, []string{"if ((w == 3))", "for (f.s1.r$x, 0, w)"}},
		{"nested cases, a case that inherits the schedule", func(p *specPipeline) {
			p.f.Split(p.y, p.yo, p.yi, 2)
			s := p.f.Specialize(p.b)
			s.Parallel(p.yo)
			s.Specialize(p.w.Expr().Eq(5)).Vectorize(p.x, 4)
			p.g.ComputeAtStage(p.f.Stage(0), p.yo)
		}, []string{"if (b) {", "if ((w == 5)) {", "parallel (f.s0.y.yo,"}},
		{"a condition on the input's shape", func(p *specPipeline) {
			p.f.Specialize(p.in.Dim(0).Extent().Ge(24)).Split(p.x, p.xo, p.xi, 8, halide.GuardWithIf)
			p.g.ComputeAtStage(p.f.Stage(0), p.y)
		}, []string{"if ((24 <= in.extent.0))", "for (f.s0.x.xo,"}},
		{"compute_at a var each case splits its own way", func(p *specPipeline) {
			// x is f.s0.x in the default and f.s0.x.x (the outer loop of
			// Vectorize's split) in the case: g is computed in both.
			p.f.Specialize(p.b).Vectorize(p.x, 4)
			p.g.ComputeAtStage(p.f.Stage(0), p.x)
		}, []string{"for (f.s0.x.x,", "for (f.s0.x,", "produce g {"}},
		{"a sliding window in every case", func(p *specPipeline) {
			p.f.Specialize(p.b).Vectorize(p.x, 4)
			p.g.StoreRoot().ComputeAtStage(p.f.Stage(0), p.y)
		}, []string{"if (b) {", "for (f.s0.x.x,"}},
		{"a float Param and nested equalities", func(p *specPipeline) {
			p.f.Specialize(p.gain.Expr().Eq(float32(1)).And(p.w.Expr().Eq(5))).Parallel(p.y)
			p.f.Update(0).Specialize(p.gain.Expr().Gt(float32(0.5))).Split(p.x, p.xo, p.xi, 3, halide.GuardWithIf)
			p.g.ComputeRoot()
		}, []string{"if (((gain == 1.0f) && (w == 5))) {", "if ((0.5f < gain)) {"}},
		{"a specialized producer left inline is computed where it is used", func(p *specPipeline) {
			p.g.Specialize(p.b).VectorizeTail(p.x, 4, halide.GuardWithIf)
		}, []string{"produce g {", "if (b) {", "vectorized (g.s0.x.x_v"}},
		{"the producer's stage specialized", func(p *specPipeline) {
			p.g.ComputeAtStage(p.f.Stage(0), p.y)
			p.g.Specialize(p.b).Vectorize(p.x, 4)
			p.g.Specialize(p.w.Expr().Eq(5)).Split(p.x, p.xo, p.xi, 3, halide.RoundUp)
		}, []string{"if (b) {", "vectorized (g.s0.x.x_v", "} else if ((w == 5)) {"}},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := newSpecPipeline()
			c.sched(p)
			l, err := halide.NewPipeline(p.f).Lower()
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range c.lowered {
				if !strings.Contains(l.String(), s) {
					t.Errorf("the lowered statement has no %q:\n%s", s, l)
				}
			}
			p.check(t, []int32{3, 5}, int64(7100+i))
		})
	}
}
