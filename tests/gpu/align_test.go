package gpu_test

import (
	"math/rand"
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// alignedStencil is out(x, y) = g(x - 1, y) + 2*g(x + 2, y), g = 3*in + x
// (in repeated at its edges), out tiled on the GPU by 8 x 4, and g, aligned
// in x by AlignBounds(x, 4, 1) (or AlignExtent(x, 4)), computed per block
// in shared memory by the block's threads ("block") or per thread, the
// block's threads computing the aligned union of their needs together
// ("thread"). TestKernelsCompileWithNVCC compiles its kernels.
func alignedStencil(level string, extentOnly bool, in halide.Source) *halide.Func {
	x, y := halide.NewVar("x"), halide.NewVar("y")
	e := halide.RepeatEdge(in)
	g := halide.NewFunc("g")
	g.Define(x, y).Is(e.At(x, y).Mul(3).Add(x))
	out := halide.NewFunc("out")
	out.Define(x, y).Is(g.At(x.Sub(1), y).Add(g.At(x.Add(2), y).Mul(2)))
	bx, by, tx, ty := halide.NewVar("bx"), halide.NewVar("by"), halide.NewVar("tx"), halide.NewVar("ty")
	out.GPUTile(x, y, bx, by, tx, ty, 8, 4)
	if level == "block" {
		g.ComputeAt(out, bx).StoreIn(halide.GPUShared).GPUThreads(x, y)
	} else {
		g.ComputeAt(out, tx).StoreIn(halide.GPUShared)
	}
	if extentOnly {
		g.AlignExtent(x, 4)
	} else {
		g.AlignBounds(x, 4, 1)
	}
	return out
}

// tupleElemUpdates is f(x, y) = (in(x, y), float32(in(x, y)) / 8) with
// updates of one value at a time (Definer.Elem), each stage tiled on the
// GPU.
func tupleElemUpdates(in halide.Source) *halide.Func {
	x, y := halide.NewVar("x"), halide.NewVar("y")
	bx, by, tx, ty := halide.NewVar("bx"), halide.NewVar("by"), halide.NewVar("tx"), halide.NewVar("ty")
	v := halide.RepeatEdge(in).At(x, y)
	f := halide.NewFunc("f")
	f.Define(x, y).Is(halide.NewTuple(v, halide.Cast(halide.Float32, v).Div(float32(8))))
	f.Define(x, y).Elem(0).PlusEq(x.Mul(y))
	f.Define(x, y).Elem(1).MaxEq(halide.Cast(halide.Float32, y))
	f.Define(x, y).Elem(0).Is(halide.SelectTuple(halide.NewTuple(x.Lt(y), x.Gt(3)),
		halide.NewTuple(f.AtTuple(x, y).Elem(0).Mul(2), f.AtTuple(x, y).Elem(1)),
		halide.NewTuple(f.AtTuple(x, y).Elem(0), float32(0))).Elem(0))
	f.GPUTile(x, y, bx, by, tx, ty, 8, 4)
	for i := 0; i < 3; i++ {
		f.Update(i).GPUTile(x, y, bx, by, tx, ty, 8, 4)
	}
	return f
}

func randomInt32(seed int64, w, h int) *halide.Buffer[int32] {
	rng := rand.New(rand.NewSource(seed))
	b := halide.NewBuffer[int32](w, h)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			b.Set(int32(rng.Intn(2000)-1000), x, y)
		}
	}
	return b
}

// TestAlignBoundsGPUTarget runs alignedStencil on the test target (the
// emulator; CUDA with -tags cuda) against plain Go.
func TestAlignBoundsGPUTarget(t *testing.T) {
	const w, h = 37, 10
	in := randomInt32(1, w, h)
	for _, level := range []string{"block", "thread"} {
		for _, extentOnly := range []bool{false, true} {
			name := level + "/align_bounds"
			if extentOnly {
				name = level + "/align_extent"
			}
			t.Run(name, func(t *testing.T) {
				out := halide.NewBuffer[int32](w, h)
				if err := portedPipeline(alignedStencil(level, extentOnly, in)).Realize(out); err != nil {
					t.Fatal(err)
				}
				g := func(x, y int) int32 { return 3*in.Get(min(max(x, 0), w-1), y) + int32(x) }
				for y := 0; y < h; y++ {
					for x := 0; x < w; x++ {
						if got, want := out.Get(x, y), g(x-1, y)+2*g(x+2, y); got != want {
							t.Fatalf("out(%d, %d) = %d, want %d", x, y, got, want)
						}
					}
				}
			})
		}
	}
}

// TestTupleElemGPUTarget runs tupleElemUpdates on the test target against
// plain Go.
func TestTupleElemGPUTarget(t *testing.T) {
	const w, h = 21, 11
	in := randomInt32(2, w, h)
	a, b := halide.NewBuffer[int32](w, h), halide.NewBuffer[float32](w, h)
	if err := portedPipeline(tupleElemUpdates(in)).RealizeTuple(a, b); err != nil {
		t.Fatal(err)
	}
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			v0, v1 := in.Get(x, y), float32(in.Get(x, y))/8
			v0 += int32(x * y)
			v1 = max(v1, float32(y))
			if x < y {
				v0 *= 2
			}
			if a.Get(x, y) != v0 || b.Get(x, y) != v1 {
				t.Fatalf("f(%d, %d) = (%d, %g), want (%d, %g)", x, y, a.Get(x, y), b.Get(x, y), v0, v1)
			}
		}
	}
}
