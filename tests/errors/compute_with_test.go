package errors_test

import (
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// The mistakes of ComputeWith: each gives an ErrSchedule at Lower naming
// the Func that was fused, the directive and what is legal.

// fusable returns out(x, y) = f(x, y) + g(x, y) + h(x, y) with f, g and h
// pointwise in in (h computed between them when computed at all).
func fusable() (out, f, g, h *halide.Func) {
	in := halide.NewImageParam("in", halide.Float32, 2)
	f, g, h = halide.NewFunc("f"), halide.NewFunc("g"), halide.NewFunc("h")
	f.Define(x, y).Is(in.At(x, y).Mul(2))
	g.Define(x, y).Is(in.At(x, y).Add(1))
	h.Define(x, y).Is(in.At(x, y).Sub(1))
	out = halide.NewFunc("out")
	out.Define(x, y).Is(f.At(x, y).Add(h.At(x, y)).Add(g.At(x, y)))
	return out, f, g, h
}

func TestErrComputeWith(t *testing.T) {
	bx, by, tx, ty := gpuVars()
	runCases(t, []errCase{
		{
			name: "computed at different levels",
			run: func() error {
				out, f, g, _ := fusable()
				f.ComputeRoot()
				g.ComputeAt(out, y).ComputeWith(f, y)
				return lowerErr(out)
			},
			code: halide.ErrSchedule, fn: "g", directive: "compute_with",
			mentions: []string{"at out.y", "at the root"},
			legal:    []string{"same loop"},
		},
		{
			name: "one reads the other",
			run: func() error {
				in := halide.NewImageParam("in", halide.Float32, 2)
				f, g := halide.NewFunc("f"), halide.NewFunc("g")
				f.Define(x, y).Is(in.At(x, y).Mul(2))
				g.Define(x, y).Is(f.At(x, y).Add(1))
				out := halide.NewFunc("out")
				out.Define(x, y).Is(g.At(x, y).Add(f.At(x, y)))
				f.ComputeRoot()
				g.ComputeRoot().ComputeWith(f, y)
				return lowerErr(out)
			},
			code: halide.ErrSchedule, fn: "g", directive: "compute_with",
			mentions: []string{"g reads f"},
			legal:    []string{"do not read each other"},
		},
		{
			name: "one reads the other through a Func computed inside it",
			run: func() error {
				// schedfuzz -seed 2022, schedule 3171: s2 reads s1,
				// computed at s2's rows, which reads p.
				in := halide.NewImageParam("in", halide.Float32, 2)
				p, s1, s2 := halide.NewFunc("p"), halide.NewFunc("s1"), halide.NewFunc("s2")
				p.Define(x, y).Is(in.At(x, y).Mul(2))
				s1.Define(x, y).Is(p.At(x, y.Add(1)))
				s2.Define(x, y).Is(s1.At(x, y).Add(1))
				out := halide.NewFunc("out")
				out.Define(x, y).Is(s2.At(x, y))
				s2.ComputeRoot()
				s1.ComputeAt(s2, y)
				p.ComputeRoot().ComputeWith(s2, y)
				return lowerErr(out)
			},
			code: halide.ErrSchedule, fn: "p", directive: "compute_with",
			mentions: []string{"through other Funcs"},
		},
		{
			name: "different loops down to the fused one",
			run: func() error {
				out, f, g, _ := fusable()
				f.ComputeRoot().Split(y, yo, yi, 4)
				g.ComputeRoot().ComputeWith(f, x)
				return lowerErr(out)
			},
			code: halide.ErrSchedule, fn: "g", directive: "compute_with",
			mentions: []string{"loops down to x differ", "y.yo"},
			legal:    []string{"same loops"},
		},
		{
			name: "a loop neither has",
			run: func() error {
				out, f, g, _ := fusable()
				f.ComputeRoot()
				g.ComputeRoot().ComputeWith(f, z)
				return lowerErr(out)
			},
			code: halide.ErrSchedule, fn: "g", directive: "compute_with",
			mentions: []string{"has no loop z"},
			legal:    []string{"a loop of both"},
		},
		{
			name: "a vector loop fused with a serial one",
			run: func() error {
				out, f, g, _ := fusable()
				f.ComputeRoot().Split(x, x, halide.NewVar("x_v"), 4)
				g.ComputeRoot().Vectorize(x, 4).ComputeWith(f, halide.NewVar("x_v"))
				return lowerErr(out)
			},
			code: halide.ErrSchedule, fn: "g", directive: "compute_with",
			mentions: []string{"fused loop x.x_v is vectorized"},
			legal:    []string{"vectorized (in both stages)"},
		},
		{
			// H100 progfuzz -seed 58001, program 29941 (a wrong value
			// on the emulator before): a shared Func computed inside
			// thread loops is produced by the block's threads together.
			name: "shared inside thread loops",
			run: func() error {
				out, f, g, _ := fusable()
				out.GPUTile(x, y, bx, by, tx, ty, 8, 8)
				f.ComputeAt(out, tx).StoreIn(halide.GPUShared)
				g.ComputeAt(out, tx).ComputeWith(f, y)
				return lowerErr(out)
			},
			code: halide.ErrSchedule, fn: "g", directive: "compute_with",
			mentions: []string{"f is stored in GPU shared memory and computed inside GPU thread loops"},
			legal:    []string{"StoreIn(Register)"},
		},
		{
			// progfuzz -seed 501, program 1246: the fused loop is one of
			// the Func's GPU block loops (an internal error of the IR
			// verifier before).
			name: "along a GPU block loop",
			run: func() error {
				out, f, g, _ := fusable()
				f.ComputeRoot().GPUBlocks(y)
				g.ComputeRoot().ComputeWith(f, y)
				return lowerErr(out)
			},
			code: halide.ErrSchedule, fn: "g", directive: "compute_with",
			mentions: []string{"f.s0.y is a GPU block loop and g.s0.y is serial"},
			legal:    []string{"the same kind for the loops down to y"},
		},
		{
			name: "stages of one Func share a split loop",
			run: func() error {
				out, f, g, _ := fusable()
				f.Define(x, y).PlusEq(1)
				f.ComputeRoot().Split(y, yo, yi, 4)
				f.Update(0).Split(y, yo, yi, 4)
				g.ComputeRoot().Split(y, yo, yi, 4)
				f.ComputeWith(g, yo)
				f.Update(0).ComputeWith(g, yo)
				return lowerErr(out)
			},
			code: halide.ErrSchedule, fn: "f", directive: "compute_with",
			mentions: []string{"share the fused loop y.yo, which is not one of f's pure dimensions"},
			legal:    []string{"pure dimension"},
		},
		{
			name: "stages that cannot keep their order",
			run: func() error {
				out, f, g, _ := fusable()
				f.Define(x, y).PlusEq(1)
				g.Define(x, y).PlusEq(2)
				f.ComputeRoot()
				g.ComputeRoot()
				f.ComputeWith(g.Update(0), y)
				g.ComputeWith(f.Update(0), y)
				return lowerErr(out)
			},
			code: halide.ErrSchedule, fn: "f", directive: "compute_with",
			mentions: []string{"cannot run in an order that keeps each Func's stages in order"},
			legal:    []string{"fuse the stages of a Func in their order"},
		},
		{
			name: "a cycle",
			run: func() error {
				out, f, g, _ := fusable()
				f.ComputeRoot()
				g.ComputeRoot().ComputeWith(f, y)
				f.ComputeWith(g, y)
				return lowerErr(out)
			},
			code: halide.ErrSchedule, fn: "f", directive: "compute_with",
			mentions: []string{"form a cycle"},
			legal:    []string{"form a tree"},
		},
		{
			name: "some of a kernel's block loops",
			run: func() error {
				out, f, g, _ := fusable()
				f.ComputeRoot().GPUTile(x, y, bx, by, tx, ty, 8, 8)
				g.ComputeRoot().GPUTile(x, y, bx, by, tx, ty, 8, 8).ComputeWith(f, by)
				return lowerErr(out)
			},
			code: halide.ErrSchedule, fn: "g", directive: "compute_with",
			mentions: []string{"GPU block loops are fused and some are not"},
			legal:    []string{"innermost GPU block loop"},
		},
		{
			name: "a stage with specializations",
			run: func() error {
				out, f, g, _ := fusable()
				p := halide.NewParam[bool]("p")
				f.ComputeRoot().Specialize(p.Expr())
				g.ComputeRoot().ComputeWith(f, y)
				return lowerErr(out)
			},
			code: halide.ErrSchedule, fn: "g", directive: "compute_with",
			mentions: []string{"f has specializations"},
			legal:    []string{"without specializations"},
		},
		{
			name: "an update that does not exist",
			run: func() error {
				out, f, g, _ := fusable()
				f.ComputeRoot()
				g.ComputeRoot().ComputeWith(f.Update(0), y)
				return lowerErr(out)
			},
			code: halide.ErrSchedule, fn: "f", directive: "Update",
			mentions: []string{"no update 0"},
		},
		{
			name: "with itself",
			run: func() error {
				out, f, _, _ := fusable()
				f.ComputeRoot().ComputeWith(f, y)
				return lowerErr(out)
			},
			code: halide.ErrSchedule, fn: "f", directive: "compute_with",
			mentions: []string{"with themselves"},
		},
		{
			name: "an alignment of a loop not fused",
			run: func() error {
				out, f, g, _ := fusable()
				f.ComputeRoot()
				g.ComputeRoot().ComputeWith(f, y, halide.LoopAlign{Var: x, Strategy: halide.AlignStart})
				return lowerErr(out)
			},
			code: halide.ErrSchedule, fn: "g", directive: "compute_with",
			mentions: []string{"alignment names x"},
			legal:    []string{"the fused loops: y"},
		},
		{
			name: "a nil Func",
			run: func() error {
				out, _, g, _ := fusable()
				g.ComputeRoot().ComputeWith(nil, y)
				return lowerErr(out)
			},
			code: halide.ErrNilObject, fn: "g", directive: "compute_with",
		},
	})
}
