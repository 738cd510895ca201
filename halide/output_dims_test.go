package halide_test

import (
	"math/rand"
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// Func.Dim on the CPU path and the emulator: in the algorithm (of the
// output itself and of a producer), in Bound and in a Specialize
// condition, checked against plain Go at several sizes.
func TestOutputDims(t *testing.T) {
	for _, gpu := range []bool{false, true} {
		for _, sz := range [][2]int{{20, 3}, {8, 6}, {34, 9}} {
			x, y := halide.NewVar("x"), halide.NewVar("y")
			in := halide.NewImageParam("in", halide.Int32, 2)
			f := halide.NewFunc("f")
			g := halide.NewFunc("g")
			// g mirrors the input across the output's width.
			g.Define(x, y).Is(in.At(f.Width().Sub(1).Sub(x), y).Mul(f.Height()))
			f.Define(x, y).Is(g.At(x, y).Add(x.Mul(f.Dim(1).Extent())).Add(f.Dim(0).Min()))
			f.Bound(x, 0, f.Width().Div(2).Mul(2))
			xi, xo, yi, yo := halide.NewVar("xi"), halide.NewVar("xo"), halide.NewVar("yi"), halide.NewVar("yo")
			if gpu {
				f.GPUTile(x, y, xo, yo, xi, yi, 8, 4, halide.GuardWithIf)
				g.ComputeAt(f, xo).GPUThreads(x, y)
			} else {
				f.Specialize(f.Width().Ge(16)).VectorizeTail(x, 8, halide.GuardWithIf)
				g.ComputeAt(f, y)
			}
			w, h := sz[0], sz[1]
			buf := halide.NewBuffer[int32](w, h)
			rng := rand.New(rand.NewSource(int64(w)))
			buf.Fill(func([]int) int32 { return int32(rng.Intn(1000) - 500) })
			in.Set(buf)
			out := halide.NewBuffer[int32](w, h)
			if err := halide.NewPipeline(f).Realize(out); err != nil {
				t.Fatalf("gpu=%v %dx%d: %v", gpu, w, h, err)
			}
			for yy := 0; yy < h; yy++ {
				for xx := 0; xx < w; xx++ {
					want := buf.Get(w-1-xx, yy)*int32(h) + int32(xx*h)
					if got := out.Get(xx, yy); got != want {
						t.Fatalf("gpu=%v %dx%d: f(%d, %d) = %d, want %d", gpu, w, h, xx, yy, got, want)
					}
				}
			}
		}
	}
}
