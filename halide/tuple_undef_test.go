package halide_test

import (
	"math/rand"
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// Undef values of a Tuple update (Halide's partial updates): a value that
// is Undef, or an expression of one, keeps its old value; an Undef arm of
// a Select inside a value stores the value only where the other arm is
// taken; on the CPU and, with a GPU schedule, on the emulator.
func TestTupleUndefValues(t *testing.T) {
	const n = 61
	rng := rand.New(rand.NewSource(3))
	in := halide.NewBuffer[int32](n)
	for i := range in.Data() {
		in.Data()[i] = rng.Int31n(2000) - 1000
	}
	for _, gpu := range []bool{false, true} {
		x := halide.NewVar("x")
		f := halide.NewFunc("f")
		u := halide.Undef(halide.Int32)
		f.Define(x).Is(halide.NewTuple(in.At(x), u))
		old := func() halide.Tuple { return f.AtTuple(x) }
		f.Define(x).Is(halide.NewTuple(old().Elem(0).Mul(3), old().Elem(1).Add(u)))
		f.Define(x).Is(halide.NewTuple(u, old().Elem(0).Sub(x)))
		f.Define(x).Is(halide.NewTuple(old().Elem(0).Add(halide.Select(in.At(x).Gt(0), halide.E(int32(7)), u)), u))
		if gpu {
			xo, xi := halide.NewVar("xo"), halide.NewVar("xi")
			for i := 0; i < 4; i++ {
				f.Stage(i).GPUTile1D(x, xo, xi, 16)
			}
		}
		a, b := halide.NewBuffer[int32](n), halide.NewBuffer[int32](n)
		p := halide.NewPipeline(f)
		if gpu {
			p = p.WithTarget(halide.Emulator)
		}
		if err := p.RealizeTuple(a, b); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < n; i++ {
			v := in.Get(i)
			wa, wb := 3*v, 3*v-int32(i)
			if v > 0 {
				wa += 7
			}
			if a.Get(i) != wa || b.Get(i) != wb {
				t.Fatalf("gpu=%v: f(%d) = (%d, %d), want (%d, %d)", gpu, i, a.Get(i), b.Get(i), wa, wb)
			}
		}
	}
}
