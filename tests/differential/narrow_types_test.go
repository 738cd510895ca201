package differential_test

// Regression tests for bounds inference in narrow types (issue 8, defect 7):
// the region a producer must cover is computed from the interval of the
// consumer's index expression, and in 8- and 16-bit types that interval must
// account for wrap-around, or the producer is computed over too small a
// region and the consumer reads values that were never written.

import (
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// Was: f(x) = g(int32(uint8(x) - p)) with p = 5 realized to all zeros. The
// index uint8(x) - p wraps (uint8(0 - 5) = 251), but bounds inference took
// its interval to be [0 - p, 4 - p] and g was computed over [-5, -1].
func TestNarrowTypesUInt8SubParamWraps(t *testing.T) {
	x := v("x")
	p := halide.NewParam[uint8]("p")
	g := halide.NewFunc("g")
	g.Define(x).Is(x.Mul(2))
	g.ComputeRoot()
	f := halide.NewFunc("f")
	f.Define(x).Is(g.At(halide.Cast(halide.Int32, halide.Cast(halide.UInt8, x).Sub(p.Expr()))))
	for _, pv := range []uint8{5, 0, 1, 200, 255} {
		p.Set(pv)
		out := halide.NewBuffer[int32](5)
		if err := halide.NewPipeline(f).Realize(out); err != nil {
			t.Fatalf("p = %d: Realize: %v", pv, err)
		}
		for xx := 0; xx < 5; xx++ {
			want := 2 * int32(uint8(xx)-pv) // the index wraps in uint8
			if got := out.Get(xx); got != want {
				t.Errorf("p = %d: f(%d) = %d, want %d", pv, xx, got, want)
			}
		}
	}
}
