package errors_test

import (
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// The mistakes of the directives camera_pipe brought: Func.Dim (the output
// buffer's shape) of a Func that is not the pipeline's output or of a
// dimension it does not have, and GPUSingleThread on a stage with GPU loops
// or inside another kernel.

func TestErrOutputDim(t *testing.T) {
	runCases(t, []errCase{
		{
			name: "the Dim of a Func that is not the output",
			run: func() error {
				in := halide.NewImageParam("in", halide.Float32, 2)
				g := halide.NewFunc("g")
				g.Define(x, y).Is(in.At(x, y))
				f := halide.NewFunc("f")
				f.Define(x, y).Is(g.At(x, y).Mul(halide.Cast(halide.Float32, g.Width())))
				return lowerErr(f)
			},
			code: halide.ErrSchedule, fn: "g", directive: "dim",
			mentions: []string{"output is f", "output buffer shape of g"},
			legal:    []string{"Dim of the pipeline's output f", "ImageParam.Dim"},
		},
		{
			name: "a dimension the output does not have",
			run: func() error {
				in := halide.NewImageParam("in", halide.Float32, 2)
				f := halide.NewFunc("f")
				f.Define(x, y).Is(in.At(x, y))
				f.Bound(x, 0, f.Dim(2).Extent())
				return lowerErr(f)
			},
			code: halide.ErrArgCount, fn: "f", directive: "dim",
			mentions: []string{"f has 2 dimensions", "no dimension 2"},
			legal:    []string{"[0, 1]"},
		},
		{
			name: "a dimension named before the definition, past the Func's",
			run: func() error {
				in := halide.NewImageParam("in", halide.Float32, 1)
				f := halide.NewFunc("f")
				f.Define(x).Is(in.At(x).Add(halide.Cast(halide.Float32, f.Height())))
				return lowerErr(f)
			},
			code: halide.ErrArgCount, fn: "f", directive: "dim",
			mentions: []string{"f has 1 dimensions", "no dimension 1"},
		},
		{
			name: "a negative dimension",
			run: func() error {
				f := pointwise()
				f.Bound(x, 0, f.Dim(-1).Extent())
				return lowerErr(f)
			},
			code: halide.ErrArgCount, fn: "f", directive: "dim",
			mentions: []string{"no dimension -1"},
		},
	})
}

func TestErrGPUSingleThread(t *testing.T) {
	bx, by, tx, ty := gpuVars()
	runGPUCases(t, []errCase{
		{
			name: "on a stage with GPU loops",
			run: func() error {
				f := pointwise()
				f.GPUTile(x, y, bx, by, tx, ty, 8, 8).GPUSingleThread()
				return lowerErr(f)
			},
			code: halide.ErrSchedule, fn: "f", directive: "gpu_single_thread",
			mentions: []string{"already has the GPU thread loop x.tx"},
			legal:    []string{"not both"},
		},
		{
			name: "inside another kernel",
			run: func() error {
				m, f := producerConsumer()
				f.GPUTile(x, y, bx, by, tx, ty, 8, 8)
				m.ComputeAt(f, bx).GPUSingleThread()
				return lowerErr(f)
			},
			code: halide.ErrSchedule, fn: "m", directive: "gpu_single_thread",
			mentions: []string{"kernel of one thread", "inside the kernel of f"},
			legal:    []string{"compute m outside other kernels"},
		},
		{
			name: "inside another Func's thread loops",
			run: func() error {
				m, f := producerConsumer()
				f.GPUTile(x, y, bx, by, tx, ty, 8, 8)
				m.ComputeAt(f, tx).GPUSingleThread()
				return lowerErr(f)
			},
			code: halide.ErrSchedule, fn: "m", directive: "gpu_single_thread",
			mentions: []string{"kernel of one thread", "inside the kernel of f"},
		},
	})
}

// producerConsumer returns f(x, y) = m(x, y) with m(x, y) = 2 in(x, y).
func producerConsumer() (m, f *halide.Func) {
	in := halide.NewImageParam("in", halide.Float32, 2)
	m = halide.NewFunc("m")
	m.Define(x, y).Is(in.At(x, y).Mul(2))
	f = halide.NewFunc("f")
	f.Define(x, y).Is(m.At(x, y))
	return m, f
}
