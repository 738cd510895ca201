package errors_test

import (
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// TestWideIndex checks the indices whose range spans more than an int32
// extent holds: the region of the Func they read cannot be sized, and
// Lower says so (it used to wrap the extent 2^32 to 0 and allocate
// nothing). Each index's range is the whole of its type's after the cast.
func TestWideIndex(t *testing.T) {
	x := halide.NewVar("x")
	read := func(index func(in *halide.ImageParam) halide.Expr) func() error {
		return func() error {
			in := halide.NewImageParam("in", halide.UInt32, 1)
			f := halide.NewFunc("f")
			f.Define(x).Is(x)
			g := halide.NewFunc("g")
			g.Define(x).Is(f.At(index(in)))
			f.ComputeRoot()
			_, err := halide.NewPipeline(g).Lower()
			return err
		}
	}
	legal := []string{"clamp the index", "Bound the Func"}
	runCases(t, []errCase{
		{
			name:      "int32 of uint32",
			run:       read(func(in *halide.ImageParam) halide.Expr { return halide.Cast(halide.Int32, in.At(x)) }),
			code:      halide.ErrUnbounded,
			fn:        "f",
			directive: "bounds inference",
			mentions:  []string{"dimension 0 (x)", "[-2147483648, 2147483647]", "4294967296 points", "the index int32(in(g.s0.x))"},
			legal:     legal,
		},
		{
			name: "int32 of uint16 times 65536",
			run: read(func(in *halide.ImageParam) halide.Expr {
				return halide.Cast(halide.Int32, halide.Cast(halide.UInt16, in.At(x))).Mul(65536)
			}),
			code:      halide.ErrUnbounded,
			fn:        "f",
			directive: "bounds inference",
			mentions:  []string{"4294967296 points", "* 65536"},
			legal:     legal,
		},
		{
			name: "int32 of an unclamped float",
			run: read(func(in *halide.ImageParam) halide.Expr {
				return halide.Cast(halide.Int32, halide.Cast(halide.Float32, in.At(x)))
			}),
			code:      halide.ErrUnbounded,
			fn:        "f",
			directive: "bounds inference",
			// A float32 of a uint32 is at least 0; the cast saturates at
			// 2^31 - 1.
			mentions: []string{"[0, 2147483647]", "2147483648 points", "int32(float32(in(g.s0.x)))"},
			legal:    legal,
		},
	})
}
