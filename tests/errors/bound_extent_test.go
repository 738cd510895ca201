package errors_test

import (
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// TestBoundExtent: a bound_extent smaller than what is read of the Func is
// an ErrOutOfBounds at Realize naming the Func, the directive and the
// region read; a non-integer extent is an ErrType of the directive.
func TestBoundExtent(t *testing.T) {
	runCases(t, []errCase{
		{
			name: "an extent smaller than the stencil's",
			run: func() error {
				xo, xi := halide.NewVar("xo"), halide.NewVar("xi")
				f, g := halide.NewFunc("f"), halide.NewFunc("g")
				f.Define(x).Is(x.Mul(x))
				g.Define(x).Is(f.At(x.Sub(1)).Add(f.At(x.Add(1))))
				g.Split(x, xo, xi, 4)
				f.ComputeAt(g, xo).BoundExtent(x, 5)
				return halide.NewPipeline(g).Realize(halide.NewBuffer[int32](8))
			},
			code: halide.ErrOutOfBounds, fn: "f", directive: "bound_extent",
			mentions: []string{"read over [-1, 4]", "5 points"},
			legal:    []string{"at least what is read"},
		},
		{
			name: "shared by the block's threads, each region bounded",
			run: func() error {
				bx, tx := halide.NewVar("bx"), halide.NewVar("tx")
				f, g := halide.NewFunc("f"), halide.NewFunc("g")
				f.Define(x).Is(x.Mul(x))
				g.Define(x).Is(f.At(x.Sub(1)).Add(f.At(x.Add(1))))
				g.GPUTile1D(x, bx, tx, 8, halide.GuardWithIf)
				f.ComputeAt(g, tx).StoreIn(halide.GPUShared).BoundExtent(x, 3)
				return halide.NewPipeline(g).WithTarget(halide.Emulator).Realize(halide.NewBuffer[int32](16))
			},
			code: halide.ErrSchedule, fn: "f", directive: "bound_extent",
			mentions: []string{"shared by the block's threads", "union"},
			legal:    []string{"block level"},
		},
		{
			name: "a float extent",
			run: func() error {
				f := halide.NewFunc("f")
				f.Define(x).Is(x)
				f.BoundExtent(x, 2.5)
				return lowerErr(f)
			},
			code: halide.ErrType, fn: "f", directive: "bound_extent",
			mentions: []string{"must be an integer"},
		},
	})
}
