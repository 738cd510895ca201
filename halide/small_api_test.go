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
