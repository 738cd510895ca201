//go:build cuda

package cuda_test

import (
	"math/rand"
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// TestTupleArgmax realizes a Tuple output on the GPU: for each row of a
// random image, the column and the value of its maximum (the inline
// Argmax, whose Tuple Func is computed per block in shared memory by the
// block's threads, or per thread in registers), into two buffers, and
// compares them with a plain-Go reference (the first maximum wins).
func TestTupleArgmax(t *testing.T) {
	const w, h = 301, 67
	rng := rand.New(rand.NewSource(5))
	img := halide.NewBuffer[float32](w, h)
	for i := range img.Data() {
		img.Data()[i] = float32(rng.Intn(50))
	}
	for _, memory := range []string{"shared", "registers"} {
		t.Run(memory, func(t *testing.T) {
			y := halide.NewVar("y")
			r := halide.NewRDom("r", halide.Range(0, w))
			am := halide.NewFunc("am")
			am.Define(y).Is(halide.Argmax(img.At(r, y)))
			out := halide.NewFunc("out")
			out.Define(y).Is(am.AtTuple(y))
			yo, yi := halide.NewVar("yo"), halide.NewVar("yi")
			out.Split(y, yo, yi, 16).GPUBlocks(yo).GPUThreads(yi)
			if memory == "shared" {
				am.ComputeAt(out, yo).StoreIn(halide.GPUShared).GPUThreads(y)
			} else {
				am.ComputeAt(out, yi).StoreIn(halide.Register)
			}
			col, val := halide.NewBuffer[int32](h-3), halide.NewBuffer[float32](h-3)
			if err := halide.NewPipeline(out).WithTarget(halide.CUDA).RealizeTuple(col, val); err != nil {
				t.Fatal(err)
			}
			for j := 0; j < h-3; j++ {
				best, bestV := 0, img.Get(0, j)
				for i := 1; i < w; i++ {
					if v := img.Get(i, j); v > bestV {
						best, bestV = i, v
					}
				}
				if int(col.Get(j)) != best || val.Get(j) != bestV {
					t.Fatalf("row %d: (%d, %g), want (%d, %g)", j, col.Get(j), val.Get(j), best, bestV)
				}
			}
		})
	}
}
