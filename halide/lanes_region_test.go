package halide_test

import (
	"math/rand"
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// GPULanes on a Func computed at a block of a 32-wide tile (Halide's
// iir_blur and hist schedules): its lanes loop's extent is the region's,
// known only in the kernel, and the block's width bounds it. Values against
// plain Go on the emulator.
func TestGPULanesOfRegionInBlock(t *testing.T) {
	rng := rand.New(rand.NewSource(31))
	const w, h = 70, 45
	buf := halide.NewBuffer[float32](h, w)
	for i := range buf.Data() {
		buf.Data()[i] = rng.Float32()*8 - 4
	}
	// ShiftInwards (the default) gives f 32 rows; GuardWithIf gives the
	// last tile's 13, fewer lanes than the block has.
	for _, tail := range []halide.TailStrategy{halide.TailAuto, halide.GuardWithIf} {
		x, y, xi, yi := halide.NewVar("x"), halide.NewVar("y"), halide.NewVar("xi"), halide.NewVar("yi")
		in := halide.NewImageParam("in", halide.Float32, 2)
		in.Set(buf)
		f, g := halide.NewFunc("f"), halide.NewFunc("g")
		f.Define(x, y).Is(in.At(x, y).Mul(float32(2)))
		g.Define(x, y).Is(f.At(y, x))
		g.Tile(x, y, x, y, xi, yi, 32, 32, tail).GPUBlocks(y).GPULanes(xi)
		f.ComputeAt(g, y).GPULanes(x)
		out := halide.NewBuffer[float32](w, h)
		if err := halide.NewPipeline(g).WithTarget(halide.Emulator).Realize(out); err != nil {
			t.Fatal(err)
		}
		for yy := 0; yy < h; yy++ {
			for xx := 0; xx < w; xx++ {
				if got, want := out.Get(xx, yy), buf.Get(yy, xx)*2; got != want {
					t.Fatalf("tail %v: g(%d, %d) = %v, want %v", tail, xx, yy, got, want)
				}
			}
		}
	}
}
