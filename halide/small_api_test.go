package halide_test

import (
	"math"
	"math/rand"
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// Hypot, Func.Args and Stage.Unscheduled, which Halide code uses.
func TestHypotArgsUnscheduled(t *testing.T) {
	rng := rand.New(rand.NewSource(8))
	const n = 23
	in := halide.NewBuffer[float32](n, 2)
	for i := range in.Data() {
		in.Data()[i] = rng.Float32()*200 - 100
	}
	x, c := halide.NewVar("x"), halide.NewVar("c")
	f := halide.NewFunc("f")
	f.Define(x, c).Is(in.At(x, c))
	h := halide.NewFunc("h")
	h.Define(x).Is(halide.Hypot(f.At(x, 0), f.At(x, 1)).Add(halide.Hypot(x, 2)))
	if args := f.Args(); len(args) != 2 || args[0].Name() != "x" || args[1].Name() != "c" {
		t.Fatalf("f.Args() = %v, want [x c]", args)
	}
	f.ComputeRoot()
	h.Stage(0).Unscheduled()
	out := halide.NewBuffer[float32](n)
	if err := halide.NewPipeline(h).Realize(out); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < n; i++ {
		a, b := float64(in.Get(i, 0)), float64(in.Get(i, 1))
		want := math.Sqrt(a*a+b*b) + math.Sqrt(float64(i*i+4))
		if got := float64(out.Get(i)); math.Abs(got-want) > 1e-4*math.Max(1, want) {
			t.Fatalf("h(%d) = %g, want %g (relative tolerance 1e-4, float32)", i, got, want)
		}
	}
}

// The wrapper of an ImageParam is scheduled by its own Vars (x, y) or by
// Halide's names for them, the implicit Vars _0, _1: both give one loop
// nest, and the values are the input's.
func TestInputWrapperImplicitNames(t *testing.T) {
	rng := rand.New(rand.NewSource(9))
	in := halide.NewBuffer[float32](37, 21)
	for i := range in.Data() {
		in.Data()[i] = rng.Float32()*10 - 5
	}
	nest := func(implicit bool) (string, *halide.Buffer[float32]) {
		x, y, xi, yi := halide.NewVar("x"), halide.NewVar("y"), halide.NewVar("xi"), halide.NewVar("yi")
		im := halide.NewImageParam("im", halide.Float32, 2)
		im.Set(in)
		g := halide.NewFunc("g")
		g.Define(x, y).Is(im.At(x, y).Mul(float32(3)))
		g.Tile(x, y, x, y, xi, yi, 8, 4)
		w := im.In()
		w0, w1 := x, y
		if implicit {
			w0, w1 = halide.ImplicitVar(0), halide.ImplicitVar(1)
		}
		w.ComputeAt(g, x).Vectorize(w0, 4).Unroll(w1)
		p := halide.NewPipeline(g)
		s, err := p.LoopNest()
		if err != nil {
			t.Fatalf("implicit=%v: %v", implicit, err)
		}
		out := halide.NewBuffer[float32](37, 21)
		if err := p.Realize(out); err != nil {
			t.Fatalf("implicit=%v: %v", implicit, err)
		}
		return s, out
	}
	a, outA := nest(false)
	b, outB := nest(true)
	if a != b {
		t.Errorf("loop nests differ:\nby x, y:\n%s\nby _0, _1:\n%s", a, b)
	}
	for yy := 0; yy < 21; yy++ {
		for xx := 0; xx < 37; xx++ {
			want := in.Get(xx, yy) * 3
			if outA.Get(xx, yy) != want || outB.Get(xx, yy) != want {
				t.Fatalf("(%d, %d): %v and %v, want %v", xx, yy, outA.Get(xx, yy), outB.Get(xx, yy), want)
			}
		}
	}
}
