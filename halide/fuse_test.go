package halide_test

import (
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// TestFuseNotAdjacent fuses loops that are not next to each other: as in
// Halide, outer moves to just outside inner first. f(x, y, z) fuses x with
// z (y between them) and the result is f's, in every order of the three.
func TestFuseNotAdjacent(t *testing.T) {
	x, y, z, xz := halide.NewVar("x"), halide.NewVar("y"), halide.NewVar("z"), halide.NewVar("xz")
	for _, order := range [][]halide.VarOrRVar{{x, y, z}, {z, y, x}, {y, x, z}} {
		f := halide.NewFunc("f")
		f.Define(x, y, z).Is(x.Mul(100).Add(y.Mul(10)).Add(z))
		f.Reorder(order...).Fuse(x, z, xz).Parallel(xz)
		out := halide.NewBuffer[int32](5, 3, 4)
		if err := halide.NewPipeline(f).Realize(out); err != nil {
			t.Fatalf("order %v: %v", order, err)
		}
		for k := range 4 {
			for j := range 3 {
				for i := range 5 {
					if want := int32(100*i + 10*j + k); out.Get(i, j, k) != want {
						t.Fatalf("order %v: f(%d, %d, %d) = %d, want %d", order, i, j, k, out.Get(i, j, k), want)
					}
				}
			}
		}
	}
}
