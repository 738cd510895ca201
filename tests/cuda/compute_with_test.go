//go:build cuda

package cuda_test

import (
	"fmt"
	"math/rand"
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// TestComputeWithInKernelCUDA fuses, inside a kernel, the thread loops of
// two Funcs computed at the block (harris's Ix.compute_with(Iy, x)), with
// a wrapper computed at the fused loop, vectorized by 2 and unrolled over
// a footprint whose extent is a constant only by its bound (harris's
// gray.in()), and with the Funcs named alike (a helper called twice); on
// the GPU, against plain Go, for each alignment.
func TestComputeWithInKernelCUDA(t *testing.T) {
	device(t)
	for _, a := range []halide.LoopAlignStrategy{halide.AlignAuto, halide.AlignStart, halide.AlignEnd, halide.NoAlign} {
		t.Run(fmt.Sprint(a), func(t *testing.T) {
			x, y := halide.NewVar("x"), halide.NewVar("y")
			xi, yi := halide.NewVar("xi"), halide.NewVar("yi")
			in := halide.NewImageParam("in", halide.Float32, 2)
			gray := halide.NewFunc("gray")
			gray.Define(x, y).Is(in.At(x, y).Mul(0.5))
			grad := func(dx, dy int) *halide.Func {
				f := halide.NewFunc("grad") // both named alike
				f.Define(x, y).Is(gray.At(x.Add(dx), y.Add(dy)).Sub(gray.At(x.Sub(dx), y.Sub(dy))))
				return f
			}
			ix, iy := grad(1, 0), grad(0, 1)
			out := halide.NewFunc("out")
			out.Define(x, y).Is(ix.At(x, y).Mul(ix.At(x, y)).Add(iy.At(x, y).Mul(iy.At(x.Add(1), y))))
			out.GPUTile(x, y, x, y, xi, yi, 30, 8).Unroll(xi, 2)
			gray.ComputeAt(out, x).GPUThreads(x, y)
			gray.In().ComputeAt(iy, x).Vectorize(x, 2).Unroll(x).Unroll(y)
			ix.ComputeAt(out, x).GPUThreads(x, y).Unroll(x, 2)
			iy.ComputeAt(out, x).GPUThreads(x, y).Unroll(x, 2)
			ix.ComputeWith(iy, x, halide.LoopAlign{Var: y, Strategy: a}, halide.LoopAlign{Var: x, Strategy: a})
			const w, h = 93, 37
			rng := rand.New(rand.NewSource(7400))
			ib := halide.NewBuffer[float32](w+4, h+4).SetMin(-2, -2)
			ib.Fill(func([]int) float32 { return rng.Float32() })
			in.Set(ib)
			ob := halide.NewBuffer[float32](w, h)
			if err := halide.NewPipeline(out).WithTarget(halide.CUDA).Realize(ob); err != nil {
				t.Fatal(err)
			}
			g := func(x, y int) float32 { return ib.Get(x, y) * 0.5 }
			gx := func(x, y int) float32 { return g(x+1, y) - g(x-1, y) }
			gy := func(x, y int) float32 { return g(x, y+1) - g(x, y-1) }
			for yy := 0; yy < h; yy++ {
				for xx := 0; xx < w; xx++ {
					want := gx(xx, yy)*gx(xx, yy) + gy(xx, yy)*gy(xx+1, yy)
					// Tolerance 1e-5 absolute: products of differences
					// of values below 0.5 (contraction may round once).
					if got := ob.Get(xx, yy); got-want > 1e-5 || want-got > 1e-5 {
						t.Fatalf("out(%d, %d) = %v, want %v", xx, yy, got, want)
					}
				}
			}
		})
	}
}
