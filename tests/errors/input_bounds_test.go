package errors_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// TestInputOutOfBounds: an input buffer smaller than what the pipeline
// reads is an ErrOutOfBounds error at Realize (before, an ErrRuntime
// "assertion failed" with four bare numbers), on the CPU and on the GPU
// emulator alike (the check runs on the host before any kernel). It names
// the Func that reads the input, the input, the dimension, the range read
// and the buffer's range, and says what would do: a larger input or a
// boundary condition.
func TestInputOutOfBounds(t *testing.T) {
	for _, target := range []string{"cpu", "emulator"} {
		t.Run(target, func(t *testing.T) {
			in := halide.NewImageParam("img", halide.Float32, 2)
			f := halide.NewFunc("sharpen")
			// sharpen(x, y) reads img(x, y) and img(x, y+2): an output of
			// 16 x 16 needs rows 0 to 17 of img.
			f.Define(x, y).Is(in.At(x, y).Sub(in.At(x, y.Add(2))))
			if target == "emulator" {
				bx, by, tx, ty := halide.NewVar("bx"), halide.NewVar("by"), halide.NewVar("tx"), halide.NewVar("ty")
				f.GPUTile(x, y, bx, by, tx, ty, 8, 8)
			}
			in.Set(halide.NewBuffer[float32](16, 16))
			err := f.Realize(halide.NewBuffer[float32](16, 16))
			he := check(t, err, halide.ErrOutOfBounds, "sharpen", "Realize",
				// Rows 0..17 needed; the buffer holds rows 0..15.
				"Func sharpen reads input img over [0, 17] in dimension 1, but the buffer covers [0, 15]")
			if he == nil {
				return
			}
			if !errors.Is(err, halide.ErrOutOfBounds) || !errors.Is(err, halide.ErrRuntime) {
				t.Errorf("errors.Is(err, ErrOutOfBounds) = %v, errors.Is(err, ErrRuntime) = %v; want both", errors.Is(err, halide.ErrOutOfBounds), errors.Is(err, halide.ErrRuntime))
			}
			for _, hint := range []string{"pass an input that covers", "halide.RepeatEdge(img)", "halide.ConstantExterior(img, v)"} {
				if !strings.Contains(he.Legal, hint) {
					t.Errorf("Legal %q does not mention %q", he.Legal, hint)
				}
			}
		})
	}
}

// TestInputOutOfBoundsMessage shows the whole message, and that the hint
// works: the same pipeline through RepeatEdge realizes.
func TestInputOutOfBoundsMessage(t *testing.T) {
	in := halide.NewImageParam("img", halide.Float32, 1)
	f := halide.NewFunc("f")
	f.Define(x).Is(in.At(x.Sub(1)))
	in.Set(halide.NewBuffer[float32](8))
	err := f.Realize(halide.NewBuffer[float32](8))
	const want = "out_of_bounds: Func f: Realize: Func f reads input img over [-1, 6] in dimension 0, but the buffer covers [0, 7]" +
		" (legal: pass an input that covers what the pipeline reads in every dimension, or read img through a boundary condition" +
		" (halide.RepeatEdge(img), halide.ConstantExterior(img, v), ...), which is defined everywhere;" +
		" a split with a ShiftInwards or RoundUp tail can read past what the output needs, GuardWithIf does not)"
	if err == nil || err.Error() != want {
		t.Errorf("Realize error:\n got %v\nwant %s", err, want)
	}

	g := halide.NewFunc("g")
	g.Define(x).Is(halide.RepeatEdge(in).At(x.Sub(1)))
	out := halide.NewBuffer[float32](8)
	if err := g.Realize(out); err != nil {
		t.Errorf("with RepeatEdge: %v", err)
	}
}
