package halide_test

import (
	"errors"
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// TestNewInterleavedBuffer: an interleaved buffer has strides (c, w*c, 1)
// and pipelines read and write it through them, on the CPU and in GPU
// kernels (the emulator), as input and output.
func TestNewInterleavedBuffer(t *testing.T) {
	const W, H = 13, 5
	b := halide.NewInterleavedBuffer[int32](W, H, 3)
	if err := b.Err(); err != nil {
		t.Fatal(err)
	}
	want := []halide.BufDim{{Extent: W, Stride: 3}, {Extent: H, Stride: 3 * W}, {Extent: 3, Stride: 1}}
	for i, d := range b.Shape() {
		if d != want[i] {
			t.Fatalf("dimension %d is %+v, want %+v", i, d, want[i])
		}
	}
	b.Fill(func(p []int) int32 { return int32(1 + p[0] + 100*p[1] + 10000*p[2]) })
	// (1, 0, 2) is stored right after (1, 0, 1) and three after (0, 0, 2).
	if d := b.Data(); d[1*3+2] != b.Get(1, 0, 2) || d[0*3+2] != b.Get(0, 0, 2) {
		t.Fatal("element (x, y, c) is not at 3x + 3Wy + c")
	}
	for _, gpu := range []bool{false, true} {
		x, y, c := halide.NewVar("x"), halide.NewVar("y"), halide.NewVar("c")
		in := halide.NewImageParam("in", halide.Int32, 3)
		f := halide.NewFunc("f")
		f.Define(x, y, c).Is(in.At(x, y, c).Mul(2).Add(in.At(x, y, halide.E(2).Sub(c))))
		if gpu {
			xo, yo, xi, yi := halide.NewVar("xo"), halide.NewVar("yo"), halide.NewVar("xi"), halide.NewVar("yi")
			f.GPUTile(x, y, xo, yo, xi, yi, 4, 4)
		} else {
			f.Reorder(c, x, y).Vectorize(x, 4)
		}
		in.Set(b)
		out := halide.NewInterleavedBuffer[int32](W, H, 3)
		if err := halide.NewPipeline(f).WithTarget(halide.Emulator).Realize(out); err != nil {
			t.Fatal(err)
		}
		for ch := 0; ch < 3; ch++ {
			for j := 0; j < H; j++ {
				for i := 0; i < W; i++ {
					if got, w := out.Get(i, j, ch), 2*b.Get(i, j, ch)+b.Get(i, j, 2-ch); got != w {
						t.Fatalf("gpu=%v: f(%d, %d, %d) = %d, want %d", gpu, i, j, ch, got, w)
					}
				}
			}
		}
	}
	var he *halide.Error
	if err := halide.NewInterleavedBuffer[uint8](-1, 2, 3).Err(); !errors.As(err, &he) || he.Code != halide.ErrBufferShape {
		t.Fatalf("a negative width: %v, want an ErrBufferShape error", err)
	}
}
