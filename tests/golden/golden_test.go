// Package golden checks the loop nest and the lowered statement of a few
// small pipelines against golden files in testdata/*.txtar. Run
//
//	go test ./tests/golden -update
//
// to rewrite the files after an intended change, and review the diff.
//
// Each file is in txtar format: a comment (what the pipeline is) followed by
// the sections "loopnest" (Pipeline.LoopNest) and "stmt" (the lowered
// statement, fmt.Sprint of Pipeline.Lower's result), and for a GPU
// pipeline "cuda" (the CUDA source of its kernels, Lowered.CUDA). Every pipeline is also
// realized once and checked against a plain-Go reference, so that a golden
// file never records a schedule that computes wrong values.
package golden

import (
	"bytes"
	"flag"
	"fmt"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gohalide/gohalide/apps/algo"
	"github.com/gohalide/gohalide/halide"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// archive is a txtar archive: a comment and named sections.
type archive struct {
	comment string
	files   []section
}

type section struct {
	name string
	data string
}

// parseTxtar reads the txtar format: everything before the first line
// "-- name --" is the comment; each such line starts a section that runs to
// the next one.
func parseTxtar(data string) archive {
	var a archive
	cur := -1
	var b strings.Builder
	flush := func() {
		if cur < 0 {
			a.comment = b.String()
		} else {
			a.files[cur].data = b.String()
		}
		b.Reset()
	}
	for _, line := range strings.SplitAfter(data, "\n") {
		if line == "" {
			continue
		}
		if name, ok := marker(line); ok {
			flush()
			a.files = append(a.files, section{name: name})
			cur = len(a.files) - 1
			continue
		}
		b.WriteString(line)
	}
	flush()
	return a
}

// marker reports whether line is "-- name --" and returns the name.
func marker(line string) (string, bool) {
	line = strings.TrimRight(line, "\r\n")
	if !strings.HasPrefix(line, "-- ") || !strings.HasSuffix(line, " --") || len(line) < 7 {
		return "", false
	}
	return strings.TrimSpace(line[3 : len(line)-3]), true
}

// format writes a in the txtar format; every section ends with a newline.
func (a archive) format() []byte {
	var b bytes.Buffer
	b.WriteString(a.comment)
	if a.comment != "" && !strings.HasSuffix(a.comment, "\n") {
		b.WriteByte('\n')
	}
	for _, f := range a.files {
		fmt.Fprintf(&b, "-- %s --\n", f.name)
		b.WriteString(f.data)
		if f.data != "" && !strings.HasSuffix(f.data, "\n") {
			b.WriteByte('\n')
		}
	}
	return b.Bytes()
}

func (a archive) get(name string) (string, bool) {
	for _, f := range a.files {
		if f.name == name {
			return f.data, true
		}
	}
	return "", false
}

func TestTxtarRoundTrip(t *testing.T) {
	a := archive{comment: "a comment\non two lines\n", files: []section{
		{"loopnest", "produce f:\n  f(...) = ...\n"},
		{"stmt", "-- not a marker\n--x--\n"},
		{"empty", ""},
	}}
	got := parseTxtar(string(a.format()))
	if diff := cmp.Diff(a, got, cmp.AllowUnexported(archive{}, section{})); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
}

// golden is one pipeline: build returns its output Func and a check that
// realizes it and compares with a reference.
type golden struct {
	name    string
	comment string
	build   func() (*halide.Func, func(t *testing.T, p *halide.Pipeline))
	// cuda adds the section "cuda".
	cuda bool
}

var goldens = []golden{
	{"blur_guard", "2-D blur; blur_x computed at blur_y's y.yo; y split by 8 with GuardWithIf.", blurPipeline(halide.GuardWithIf), false},
	{"blur_shift", "2-D blur; blur_x computed at blur_y's y.yo; y split by 8 with ShiftInwards.", blurPipeline(halide.ShiftInwards), false},
	{"tiled_unroll", "Tiled 8x2 schedule, yi unrolled, a compute_root producer.", tiledUnroll, false},
	{"reduction_split_rvar", "Column sums over an RDom of Param extent; the RVar split by 4 (tail guarded) and made outermost.", reductionSplitRVar, false},
	{"tensor_product_a", "Tensor product (gather, product, scatter) with schedule A of Halide issue #8427 on the CPU:\nparallel loops for the GPU blocks, serial loops for the GPU threads, GatherWeight at Product's c1 in Stack.", tensorProductA, false},
	{"depthwise", "Depthwise 3x3 convolution with ConstantExterior padding and an inline Sum; tiled 4x4, c and b fused and parallel.", depthwise, false},
	{"tiled_prefetch", "tiled_unroll with prefetches: f prefetches sq at xo, the tile of xo + 1 (Clamp), and sq the\nrows of in at y, from x + 2 (GuardWithIf).", tiledPrefetch, false},
	{"gpu_prefetch", "A 2-D stencil in 8x8 GPU tiles, a serial loop of extent 1 inside the thread loops; each thread\nprefetches what that loop reads k iterations (columns) on, k a Param, clamped to the input.", gpuPrefetch, true},
	{"rowsum_block", "Row sums of a 2048 x 37 float32 array (apps/rowsum's block schedule): rfactor + GPUThreads on the RVar,\n256 threads per row, float4 loads; the update is an all-reduce (warp shuffles, a shared slot per warp).", rowSumBlock, true},
}

func TestGolden(t *testing.T) {
	for _, g := range goldens {
		t.Run(g.name, func(t *testing.T) {
			out, check := g.build()
			p := halide.NewPipeline(out).WithOptions(halide.Options{Verify: true})
			l, err := p.Lower()
			if err != nil {
				t.Fatal(err)
			}
			got := archive{comment: g.comment + "\n", files: []section{
				{"loopnest", l.LoopNest},
				{"stmt", fmt.Sprint(l)},
			}}
			if g.cuda {
				src, err := l.CUDA()
				if err != nil {
					t.Fatal(err)
				}
				got.files = append(got.files, section{"cuda", src})
			}
			path := filepath.Join("testdata", g.name+".txtar")
			if *update {
				if err := os.WriteFile(path, got.format(), 0o644); err != nil {
					t.Fatal(err)
				}
			} else {
				data, err := os.ReadFile(path)
				if err != nil {
					t.Fatalf("%v (run with -update to create it)", err)
				}
				want := parseTxtar(string(data))
				for _, s := range got.files {
					w, ok := want.get(s.name)
					if !ok {
						t.Errorf("%s: no section %q (run with -update)", path, s.name)
						continue
					}
					// Compare line by line, as the file stores them.
					if diff := cmp.Diff(lines(w), lines(s.data)); diff != "" {
						t.Errorf("%s: section %s differs (-want +got):\n%s", path, s.name, diff)
					}
				}
			}
			check(t, p)
		})
	}
}

// lines splits s into lines, ignoring a final newline.
func lines(s string) []string { return strings.Split(strings.TrimSuffix(s, "\n"), "\n") }

// near reports whether got is within a relative 1e-4 of want.
func near(got, want float64) bool { return math.Abs(got-want) <= 1e-4*(1+math.Abs(want)) }

func blurPipeline(tail halide.TailStrategy) func() (*halide.Func, func(*testing.T, *halide.Pipeline)) {
	return func() (*halide.Func, func(*testing.T, *halide.Pipeline)) {
		x, y := halide.NewVar("x"), halide.NewVar("y")
		yo, yi := halide.NewVar("yo"), halide.NewVar("yi")
		in := halide.NewImageParam("in", halide.Float32, 2)
		bx := halide.NewFunc("blur_x")
		bx.Define(x, y).Is(in.At(x.Sub(1), y).Add(in.At(x, y)).Add(in.At(x.Add(1), y)).Div(3))
		by := halide.NewFunc("blur_y")
		by.Define(x, y).Is(bx.At(x, y.Sub(1)).Add(bx.At(x, y)).Add(bx.At(x, y.Add(1))).Div(3))
		by.Split(y, yo, yi, 8, tail)
		bx.ComputeAt(by, yo)
		return by, func(t *testing.T, p *halide.Pipeline) {
			const w, h = 10, 13 // 13 rows: not a multiple of 8, so the tail matters
			ib := halide.NewBuffer[float32](w+2, h+2).SetMin(-1, -1)
			ib.Fill(func(c []int) float32 { return float32((c[0]*7+c[1]*3)%11) - 5 })
			in.Set(ib)
			ob := halide.NewBuffer[float32](w, h)
			if err := p.Realize(ob); err != nil {
				t.Fatal(err)
			}
			for yy := 0; yy < h; yy++ {
				for xx := 0; xx < w; xx++ {
					s := 0.0
					for dy := -1; dy <= 1; dy++ {
						r := 0.0
						for dx := -1; dx <= 1; dx++ {
							r += float64(ib.Get(xx+dx, yy+dy))
						}
						s += r / 3
					}
					if got := float64(ob.Get(xx, yy)); !near(got, s/3) {
						t.Fatalf("blur_y(%d, %d) = %v, want %v", xx, yy, got, s/3)
					}
				}
			}
		}
	}
}

func tiledUnroll() (*halide.Func, func(*testing.T, *halide.Pipeline)) { return tiledUnrollWith(false) }

func tiledPrefetch() (*halide.Func, func(*testing.T, *halide.Pipeline)) { return tiledUnrollWith(true) }

func tiledUnrollWith(prefetch bool) (*halide.Func, func(*testing.T, *halide.Pipeline)) {
	x, y := halide.NewVar("x"), halide.NewVar("y")
	xo, yo, xi, yi := halide.NewVar("xo"), halide.NewVar("yo"), halide.NewVar("xi"), halide.NewVar("yi")
	in := halide.NewImageParam("in", halide.Int32, 2)
	k := halide.NewParam[int32]("k")
	sq := halide.NewFunc("sq")
	sq.Define(x, y).Is(in.At(x, y).Mul(in.At(x, y)))
	f := halide.NewFunc("f")
	f.Define(x, y).Is(sq.At(x, y).Add(sq.At(y, x)).Add(k))
	f.Tile(x, y, xo, yo, xi, yi, 8, 2, halide.GuardWithIf).Unroll(yi)
	sq.ComputeRoot()
	if prefetch {
		f.Prefetch(sq, xo, xo, 1, halide.PrefetchClamp)
		sq.PrefetchImage(in, y, x, 2)
	}
	return f, func(t *testing.T, p *halide.Pipeline) {
		const n = 11
		ib := halide.NewBuffer[int32](n, n)
		ib.Fill(func(c []int) int32 { return int32(c[0] - 2*c[1]) })
		in.Set(ib)
		k.Set(5)
		ob := halide.NewBuffer[int32](n, n)
		if err := p.Realize(ob); err != nil {
			t.Fatal(err)
		}
		for yy := 0; yy < n; yy++ {
			for xx := 0; xx < n; xx++ {
				a, b := ib.Get(xx, yy), ib.Get(yy, xx)
				if want := a*a + b*b + 5; ob.Get(xx, yy) != want {
					t.Fatalf("f(%d, %d) = %d, want %d", xx, yy, ob.Get(xx, yy), want)
				}
			}
		}
	}
}

func reductionSplitRVar() (*halide.Func, func(*testing.T, *halide.Pipeline)) {
	x := halide.NewVar("x")
	ro, ri := halide.NewRVar("ro"), halide.NewRVar("ri")
	in := halide.NewImageParam("in", halide.Float32, 2)
	rows := halide.NewParam[int32]("rows")
	r := halide.NewRDom("r", halide.Range(0, rows))
	f := halide.NewFunc("colsum")
	f.Define(x).Is(0.0)
	f.Define(x).PlusEq(in.At(x, r))
	f.Update(0).Split(r.X(), ro, ri, 4).Reorder(ri, x, ro)
	return f, func(t *testing.T, p *halide.Pipeline) {
		const w, h = 5, 10 // 10 rows: a tail of 2
		ib := halide.NewBuffer[float32](w, h)
		ib.Fill(func(c []int) float32 { return float32(c[0] + 10*c[1]) })
		in.Set(ib)
		rows.Set(h)
		ob := halide.NewBuffer[float32](w)
		if err := p.Realize(ob); err != nil {
			t.Fatal(err)
		}
		for xx := 0; xx < w; xx++ {
			want := 0.0
			for yy := 0; yy < h; yy++ {
				want += float64(ib.Get(xx, yy))
			}
			if got := float64(ob.Get(xx)); !near(got, want) {
				t.Fatalf("colsum(%d) = %v, want %v", xx, got, want)
			}
		}
	}
}

// tensorProductA is the pipeline of tests/smoke/tp_test.go (Halide issue
// #8427) with schedule A of the issue (shared/reference/halide-8427.md
// §1.3) adapted to the CPU: gpu_blocks become parallel loops, gpu_threads
// serial ones, and GPUShared becomes Stack.
func tensorProductA() (*halide.Func, func(*testing.T, *halide.Pipeline)) {
	const C = 64 // the channel count (weight.dim(0).set_bounds(0, 64))
	maxPos := halide.NewParam[int32]("maxPos")
	outSize := halide.NewParam[int32]("outSize")
	imap := halide.NewImageParam("imap", halide.Int32, 2)
	omap := halide.NewImageParam("omap", halide.Int32, 2)
	weight := halide.NewImageParam("weight", halide.Float32, 3)
	input := halide.NewImageParam("input", halide.Float32, 2)
	weight.Dim(0).SetBounds(0, C)
	weight.Dim(1).SetBounds(0, 64)
	c, m, p, n, o := halide.NewVar("c"), halide.NewVar("m"), halide.NewVar("p"), halide.NewVar("n"), halide.NewVar("o")
	gi := halide.NewFunc("GatherInput")
	gi.Define(c, p, n).Is(input.At(c, halide.UnsafePromiseClamped(imap.At(p, n), 0, input.Dim(1).Max())))
	gw := halide.NewFunc("GatherWeight")
	gw.Define(c, m, n).Is(weight.At(c, m, n))
	rc := halide.NewRDom("rc", halide.Range(0, C))
	prod := halide.NewFunc("Product")
	prod.Define(m, p, n).Is(0.0)
	prod.Define(m, p, n).PlusEq(gi.At(rc, p, n).Mul(gw.At(rc, m, n)))
	r := halide.NewRDom("r", halide.Range(0, weight.Dim(2).Extent()), halide.Range(0, maxPos))
	out := halide.NewFunc("output")
	out.Define(m, o).Is(0.0)
	out.Define(m, halide.UnsafePromiseClamped(omap.At(r.Y(), r.X()), 0, outSize.Expr().Sub(1))).PlusEq(prod.At(m, r.Y(), r.X()))

	// Schedule A.
	p1, p0 := halide.NewRVar("p1"), halide.NewRVar("p0")
	m1, m0 := halide.NewVar("m1"), halide.NewVar("m0")
	c1, c0 := halide.NewRVar("c1"), halide.NewRVar("c0")
	out.Parallel(o) // gpu_blocks(o); gpu_threads(m) is the serial m loop
	out.Update(0).
		Atomic(). // allow_race_conditions in the issue; atomic stores here
		Split(r.Y(), r.Y(), p1, 128).
		Split(p1, p1, p0, 4).
		Split(m, m, m1, 32).
		Split(m1, m1, m0, 1).
		Reorder(p0, m0, m1, p1, m, r.Y(), r.X()).
		Parallel(m).Parallel(r.Y()) // gpu_blocks(m, r.y); gpu_threads(m1, p1) stay serial
	prod.ComputeAt(out, m1)
	prod.Update(0).Split(rc.X(), c1, c0, 16).Reorder(c0, p, c1)
	gw.ComputeAt(prod, c1).StoreIn(halide.Stack)

	return out, func(t *testing.T, pl *halide.Pipeline) {
		// Sizes: M = 64 (weight.dim(1).set_bounds(0, 64)); P = 150 pairs
		// (two blocks of 128 in r.y, the second partial); 3 kernel offsets.
		const M, N, P, IN, OUT = 64, 3, 150, 20, 17
		rnd := uint32(1)
		next := func() uint32 { rnd = rnd*1664525 + 1013904223; return rnd >> 8 }
		ib := halide.NewBuffer[float32](C, IN)
		ib.Fill(func([]int) float32 { return float32(next()%17) - 8 })
		wb := halide.NewBuffer[float32](C, M, N)
		wb.Fill(func([]int) float32 { return float32(next()%5) - 2 })
		im := halide.NewBuffer[int32](P, N)
		im.Fill(func([]int) int32 { return int32(next() % IN) })
		om := halide.NewBuffer[int32](P, N)
		om.Fill(func([]int) int32 { return int32(next() % OUT) })
		input.Set(ib)
		weight.Set(wb)
		imap.Set(im)
		omap.Set(om)
		maxPos.Set(P)
		outSize.Set(OUT)
		ob := halide.NewBuffer[float32](M, OUT)
		if err := pl.Realize(ob); err != nil {
			t.Fatal(err)
		}
		ref := make([]float64, M*OUT)
		for nn := 0; nn < N; nn++ {
			for pp := 0; pp < P; pp++ {
				for mm := 0; mm < M; mm++ {
					s := 0.0
					for cc := 0; cc < C; cc++ {
						s += float64(ib.Get(cc, int(im.Get(pp, nn)))) * float64(wb.Get(cc, mm, nn))
					}
					ref[mm+M*int(om.Get(pp, nn))] += s
				}
			}
		}
		for i, want := range ref {
			if got := float64(ob.Data()[i]); !near(got, want) {
				t.Fatalf("output[%d] = %v, want %v", i, got, want)
			}
		}
	}
}

func depthwise() (*halide.Func, func(*testing.T, *halide.Pipeline)) {
	const K = 3
	in := halide.NewImageParam("in", halide.Float32, 4) // x, y, c, b
	w := halide.NewImageParam("w", halide.Float32, 3)   // kx, ky, c
	x, y, c, b := halide.NewVar("x"), halide.NewVar("y"), halide.NewVar("c"), halide.NewVar("b")
	pad := halide.ConstantExterior(in, 0)
	r := halide.NewRDom("r", halide.Range(0, K), halide.Range(0, K))
	dw := halide.NewFunc("dw")
	dw.Define(x, y, c, b).Is(halide.Sum(pad.At(x.Add(r.X()).Sub(K/2), y.Add(r.Y()).Sub(K/2), c, b).Mul(w.At(r.X(), r.Y(), c))))
	xo, xi, yo, yi, cb := halide.NewVar("xo"), halide.NewVar("xi"), halide.NewVar("yo"), halide.NewVar("yi"), halide.NewVar("cb")
	dw.Tile(x, y, xo, yo, xi, yi, 4, 4, halide.GuardWithIf).Fuse(c, b, cb).Parallel(cb)
	return dw, func(t *testing.T, p *halide.Pipeline) {
		const B, C, H, W = 2, 3, 6, 7
		ib := halide.NewBuffer[float32](W, H, C, B)
		ib.Fill(func(q []int) float32 { return float32((q[0]*5+q[1]*3+q[2]*7+q[3])%9) - 4 })
		wb := halide.NewBuffer[float32](K, K, C)
		wb.Fill(func(q []int) float32 { return float32((q[0]+2*q[1]+q[2])%4) - 1.5 })
		in.Set(ib)
		w.Set(wb)
		ob := halide.NewBuffer[float32](W, H, C, B)
		if err := p.Realize(ob); err != nil {
			t.Fatal(err)
		}
		for bb := 0; bb < B; bb++ {
			for cc := 0; cc < C; cc++ {
				for yy := 0; yy < H; yy++ {
					for xx := 0; xx < W; xx++ {
						s := 0.0
						for ky := 0; ky < K; ky++ {
							for kx := 0; kx < K; kx++ {
								ix, iy := xx+kx-K/2, yy+ky-K/2
								if ix >= 0 && ix < W && iy >= 0 && iy < H {
									s += float64(ib.Get(ix, iy, cc, bb)) * float64(wb.Get(kx, ky, cc))
								}
							}
						}
						if got := float64(ob.Get(xx, yy, cc, bb)); !near(got, s) {
							t.Fatalf("dw(%d, %d, %d, %d) = %v, want %v", xx, yy, cc, bb, got, s)
						}
					}
				}
			}
		}
	}
}

func rowSumBlock() (*halide.Func, func(*testing.T, *halide.Pipeline)) {
	v := algo.NewRowSum(2048, 37)
	if err := v.GPUScheduleBlock(256, 4); err != nil {
		panic(err) // 256 * 4 divides 2048
	}
	return v.Out(), func(t *testing.T, p *halide.Pipeline) {
		v.Inputs(rand.New(rand.NewSource(3)))
		out, err := v.Run(p)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := v.Check(out); err != nil {
			t.Fatal(err)
		}
	}
}

// gpuPrefetch is out(x, y) = in(x, y) + 2 * in(x + 1, y + 1) in 8x8 GPU
// tiles, each thread prefetching the input its point reads k columns on
// (k a Param, 1 here), clamped to the input.
func gpuPrefetch() (*halide.Func, func(*testing.T, *halide.Pipeline)) {
	x, y := halide.NewVar("x"), halide.NewVar("y")
	bx, by, tx, ty := halide.NewVar("bx"), halide.NewVar("by"), halide.NewVar("tx"), halide.NewVar("ty")
	in := halide.NewImageParam("in", halide.Float32, 2)
	k := halide.NewParam[int32]("k")
	out := halide.NewFunc("out")
	out.Define(x, y).Is(in.At(x, y).Add(in.At(x.Add(1), y.Add(1)).Mul(2)))
	out.GPUTile(x, y, bx, by, tx, ty, 8, 8).Split(tx, tx, x, 1).PrefetchImage(in, tx, x, k, halide.PrefetchClamp)
	return out, func(t *testing.T, p *halide.Pipeline) {
		const w, h = 19, 11
		ib := halide.NewBuffer[float32](w+1, h+1)
		ib.Fill(func(c []int) float32 { return float32(c[0]*3+c[1]) + 0.5 })
		in.Set(ib)
		k.Set(1)
		ob := halide.NewBuffer[float32](w, h)
		if err := p.Realize(ob); err != nil {
			t.Fatal(err)
		}
		for yy := 0; yy < h; yy++ {
			for xx := 0; xx < w; xx++ {
				want := float64(ib.Get(xx, yy)) + 2*float64(ib.Get(xx+1, yy+1))
				if got := float64(ob.Get(xx, yy)); !near(got, want) {
					t.Fatalf("out(%d, %d) = %v, want %v", xx, yy, got, want)
				}
			}
		}
	}
}
