package halide_test

import (
	"math/rand"
	"strings"
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// Two Funcs may share a name, as in Halide (a helper that makes a Func
// "blur" called twice): the pipeline names the first it visits (the output
// first) as the user did and a later one name_1, name_2, ...; a Func named
// as an input or a Param is renamed too. Directives name their Funcs by
// handle, so compute_at, store_at, compute_with and prefetch of one
// "blur" never reach the other. Checked on the CPU path and the GPU
// emulator against plain Go.

// blurStage is a helper as a Halide user writes one: each call makes Funcs
// named "blur" and "out", out computing blur at its rows.
func blurStage(in func(x, y halide.Expr) halide.Expr, k int32, gpu bool) *halide.Func {
	x, y := halide.NewVar("x"), halide.NewVar("y")
	blur := halide.NewFunc("blur")
	blur.Define(x, y).Is(in(halide.E(x), halide.E(y)).Add(in(x.Add(1), halide.E(y))).Mul(k))
	out := halide.NewFunc("out")
	out.Define(x, y).Is(blur.At(x, y).Add(blur.At(x, y.Add(1))))
	if gpu {
		xo, yo, xi, yi := halide.NewVar("xo"), halide.NewVar("yo"), halide.NewVar("xi"), halide.NewVar("yi")
		out.ComputeRoot().GPUTile(x, y, xo, yo, xi, yi, 8, 4, halide.GuardWithIf)
		blur.ComputeAt(out, xo).StoreIn(halide.GPUShared).GPUThreads(x, y)
	} else {
		out.ComputeRoot()
		blur.ComputeAt(out, y).StoreRoot()
	}
	return out
}

func TestUniqueNamesHelperTwice(t *testing.T) {
	const w, h = 19, 13
	rng := rand.New(rand.NewSource(11))
	buf := halide.NewBuffer[int32](w+2, h+2)
	buf.Fill(func([]int) int32 { return int32(rng.Intn(200) - 100) })
	ref := func(in func(x, y int) int32, k int32) func(x, y int) int32 {
		blur := func(x, y int) int32 { return (in(x, y) + in(x+1, y)) * k }
		return func(x, y int) int32 { return blur(x, y) + blur(x, y+1) }
	}
	want := ref(ref(func(x, y int) int32 { return buf.Get(x, y) }, 3), -2)
	for _, gpu := range []bool{false, true} {
		name := "cpu"
		if gpu {
			name = "gpu"
		}
		t.Run(name, func(t *testing.T) {
			in := halide.NewImageParam("in", halide.Int32, 2)
			in.Set(buf)
			first := blurStage(func(x, y halide.Expr) halide.Expr { return in.At(x, y) }, 3, gpu)
			second := blurStage(func(x, y halide.Expr) halide.Expr { return first.At(x, y) }, -2, gpu)
			p := halide.NewPipeline(second) // GPU kernels on the emulator
			nest, err := p.LoopNest()
			if err != nil {
				t.Fatal(err)
			}
			// The output keeps its name; the first call's Funcs are
			// out_1 and blur_1, each blur computed at its own out.
			for _, s := range []string{"produce out:", "produce out_1:", "produce blur:", "produce blur_1:"} {
				if !strings.Contains(nest, s) {
					t.Fatalf("the loop nest has no %q:\n%s", s, nest)
				}
			}
			if strings.Index(nest, "produce blur_1:") < strings.Index(nest, "produce out_1:") {
				t.Fatalf("blur_1 is not computed inside out_1:\n%s", nest)
			}
			res := halide.NewBuffer[int32](w, h-2)
			if err := p.WithOptions(halide.Options{Verify: true}).Realize(res); err != nil {
				t.Fatal(err)
			}
			for yy := 0; yy < h-2; yy++ {
				for xx := 0; xx < w-1; xx++ {
					if got, want := res.Get(xx, yy), want(xx, yy); got != want {
						t.Fatalf("out(%d, %d) = %d, want %d", xx, yy, got, want)
					}
				}
			}
		})
	}
}

// A Func named as an input or a Param, and two Funcs of one name with
// compute_with and a prefetch between them: the one the directive's handle
// names is the one fused and prefetched.
func TestUniqueNamesDirectivesByHandle(t *testing.T) {
	const w, h = 23, 9
	rng := rand.New(rand.NewSource(12))
	buf := halide.NewBuffer[int32](w+4, h)
	buf.Fill(func([]int) int32 { return int32(rng.Intn(2000) - 1000) })
	x, y := halide.NewVar("x"), halide.NewVar("y")
	in := halide.NewImageParam("g", halide.Int32, 2)
	in.Set(buf)
	kk := halide.NewParam[int32]("k")
	kk.Set(5)
	a := halide.NewFunc("g") // named as the input
	a.Define(x, y).Is(in.At(x, y).Mul(kk))
	b := halide.NewFunc("k") // named as the Param
	b.Define(x, y).Is(in.At(x.Add(2), y).Sub(kk))
	c := halide.NewFunc("k") // named as b and the Param
	c.Define(x, y).Is(a.At(x, y).Add(b.At(x.Add(1), y)))
	out := halide.NewFunc("g") // named as a and the input
	out.Define(x, y).Is(c.At(x, y).Mul(2).Add(a.At(x.Add(1), y)).Sub(b.At(x, y)))
	a.ComputeRoot()
	b.ComputeRoot()
	c.ComputeAt(out, y)
	b.ComputeWith(a, y)
	out.Prefetch(b, y, y, 1)
	p := halide.NewPipeline(out)
	// The output is g_2 (g: the input, g_1: a), c is k_2 (k: the Param,
	// k_1: b); k_1's rows are fused into g_1's loop over y.
	l, err := p.WithOptions(halide.Options{StopAfter: "compute_with"}).Lower()
	if err != nil {
		t.Fatal(err)
	}
	if s := l.String(); !strings.Contains(s, "let k_1.s0.y = g_1.s0.y") {
		t.Fatalf("k_1 is not computed with g_1:\n%s", s)
	}
	res := halide.NewBuffer[int32](w, h)
	if err := p.WithOptions(halide.Options{Verify: true}).Realize(res); err != nil {
		t.Fatal(err)
	}
	av := func(x, y int) int32 { return buf.Get(x, y) * 5 }
	bv := func(x, y int) int32 { return buf.Get(x+2, y) - 5 }
	for yy := 0; yy < h; yy++ {
		for xx := 0; xx < w; xx++ {
			want := (av(xx, yy)+bv(xx+1, yy))*2 + av(xx+1, yy) - bv(xx, yy)
			if got := res.Get(xx, yy); got != want {
				t.Fatalf("g(%d, %d) = %d, want %d", xx, yy, got, want)
			}
		}
	}
}

// Two outputs of one name, the second reading the first: the first is
// read back as an input of its own name.
func TestUniqueNamesOutputs(t *testing.T) {
	x := halide.NewVar("x")
	in := halide.NewBuffer[float32](8)
	rng := rand.New(rand.NewSource(13))
	in.Fill(func([]int) float32 { return rng.Float32() })
	f1 := halide.NewFunc("f")
	f1.Define(x).Is(in.At(x).Mul(float32(2)))
	f2 := halide.NewFunc("f")
	f2.Define(x).Is(f1.At(x).Add(float32(1)))
	f3 := halide.NewFunc("f")
	f3.Define(x).Is(f1.At(x).Mul(f2.At(x)))
	o1, o2, o3 := halide.NewBuffer[float32](8), halide.NewBuffer[float32](8), halide.NewBuffer[float32](8)
	if err := halide.NewPipeline(f1, f2, f3).RealizeTuple(o1, o2, o3); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 8; i++ {
		a := in.Get(i) * 2
		// Exact: one rounding each, in the same order.
		if o1.Get(i) != a || o2.Get(i) != a+1 || o3.Get(i) != a*(a+1) {
			t.Fatalf("at %d: %g %g %g, want %g %g %g", i, o1.Get(i), o2.Get(i), o3.Get(i), a, a+1, a*(a+1))
		}
	}
}

// rfactor of a sum whose update reads another Func of the sum's name:
// that read is a term of the sum, not the sum's own value.
func TestUniqueNamesRFactor(t *testing.T) {
	const n = 64
	x, u := halide.NewVar("x"), halide.NewVar("u")
	in := halide.NewBuffer[int32](n + 4)
	rng := rand.New(rand.NewSource(14))
	in.Fill(func([]int) int32 { return int32(rng.Intn(100) - 50) })
	g := halide.NewFunc("f")
	g.Define(x).Is(in.At(x).Mul(3))
	f := halide.NewFunc("f")
	r := halide.NewRDom("r", halide.Range(0, n))
	ro, ri := halide.NewRVar("ro"), halide.NewRVar("ri")
	f.Define(x).Is(int32(0))
	f.Define(x).PlusEq(g.At(x.Add(r)))
	g.ComputeRoot()
	intm := f.Update(0).Split(r, ro, ri, 8).RFactor(halide.RFactorPair{R: ro, V: u})
	intm.ComputeRoot()
	res := halide.NewBuffer[int32](4)
	if err := halide.NewPipeline(f).WithOptions(halide.Options{Verify: true}).Realize(res); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 4; i++ {
		var want int32
		for k := 0; k < n; k++ {
			want += in.Get(i+k) * 3
		}
		if got := res.Get(i); got != want {
			t.Fatalf("f(%d) = %d, want %d", i, got, want)
		}
	}
}

// An output named as its input is renamed, and so are the reads of its
// buffer's shape (Func.Dim) in its value, an RDom's extent and a
// specialization's condition.
func TestUniqueNamesOutputShape(t *testing.T) {
	x := halide.NewVar("x")
	rng := rand.New(rand.NewSource(15))
	for _, w := range []int{3, 9} {
		buf := halide.NewBuffer[int32](12)
		buf.Fill(func([]int) int32 { return int32(rng.Intn(100)) })
		in := halide.NewImageParam("in", halide.Int32, 1)
		in.Set(buf)
		out := halide.NewFunc("in")
		r := halide.NewRDom("r", halide.Range(0, out.Width()))
		out.Define(x).Is(out.Width().Mul(1000))
		out.Define(x).PlusEq(in.At(r))
		out.Update(0).Specialize(out.Width().Gt(4)).Unroll(r, 2)
		res := halide.NewBuffer[int32](w)
		if err := halide.NewPipeline(out).WithOptions(halide.Options{Verify: true}).Realize(res); err != nil {
			t.Fatal(err)
		}
		want := int32(w * 1000)
		for k := 0; k < w; k++ {
			want += buf.Get(k)
		}
		for i := 0; i < w; i++ {
			if got := res.Get(i); got != want {
				t.Fatalf("width %d: in(%d) = %d, want %d", w, i, got, want)
			}
		}
	}
}
