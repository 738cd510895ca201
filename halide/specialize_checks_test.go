package halide_test

import (
	"errors"
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// The buffer checks of a specialized pipeline are those of the case that
// runs: an input read over 100 points by one case only needs 100 points
// when that case runs, and still does then. A chain of three cases on a
// Param, each reading its own part of the input, on the CPU and on the
// GPU emulator; the input is sized for the case that runs.
func TestSpecializeChecksPerCase(t *testing.T) {
	for _, gpu := range []bool{false, true} {
		name := map[bool]string{false: "cpu", true: "gpu"}[gpu]
		t.Run(name, func(t *testing.T) {
			im := halide.NewImageParam("im", halide.Int32, 1)
			p := halide.NewParam[int32]("p")
			f := halide.NewFunc("f")
			x, xo, xi := halide.NewVar("x"), halide.NewVar("xo"), halide.NewVar("xi")
			// Case 1 reads im over [0, 10), case 2 over [20, 30) (they
			// fix p, so the other selects are decided), the default (p
			// neither 1 nor 2) over [40, 70): it does not know p > 5.
			f.Define(x).Is(halide.Select(p.Expr().Eq(1), im.At(x),
				halide.Select(p.Expr().Eq(2), im.At(x.Add(20)),
					halide.Select(p.Expr().Gt(5), im.At(x.Add(60)), im.At(x.Add(40))))))
			f.Specialize(p.Expr().Eq(1))
			f.Specialize(p.Expr().Eq(2))
			if gpu {
				f.GPUTile1D(x, xo, xi, 4)
			}
			for _, c := range []struct {
				p        int32
				min, ext int // the input buffer
				ok       bool
			}{
				{1, 0, 10, true}, {2, 20, 10, true}, {0, 40, 30, true}, {9, 40, 30, true},
				{1, 20, 10, false}, {2, 0, 25, false}, {0, 0, 40, false}, {9, 40, 10, false},
			} {
				p.Set(c.p)
				in := spRandom(int64(c.p)+100, c.ext)
				in.SetMin(c.min)
				im.Set(in)
				out := halide.NewBuffer[int32](10)
				err := halide.NewPipeline(f).Realize(out)
				if !c.ok {
					var he *halide.Error
					if !errors.As(err, &he) || he.Code != halide.ErrOutOfBounds {
						t.Fatalf("p = %d, input [%d, %d): want ErrOutOfBounds, got %v", c.p, c.min, c.min+c.ext, err)
					}
					continue
				}
				if err != nil {
					t.Fatalf("p = %d, input [%d, %d): %v", c.p, c.min, c.min+c.ext, err)
				}
				off := map[int32]int{1: 0, 2: 20, 0: 40, 9: 60}[c.p] - c.min
				spCheck1(t, "f", out, func(x int) int32 { return in.Get(c.min + x + off) })
			}
		})
	}
}
