package lower_test

import (
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// A shared Func computed inside the thread loops is allocated over the
// union of its region across the block's threads. The allocation's min
// names the output's loop bounds (f.s0.x.max) as the region lets and the
// loops do, not their values (f.min.0 + f.extent.0 - 1): with two
// spellings of one value in a kernel, the CUDA compiler cannot see that
// the index of g's stores and loads (position - allocation min) is the
// same offset the threads compute, and works it out twice. In conv2d's
// tvm kernel that was a second division of block_id_z by the output's
// width, shared loads it could not prove 16-byte aligned, and 4 bytes
// spilled (ptxas, CUDA 11.8, sm_90).
func TestSharedBoundsNameKernelLets(t *testing.T) {
	x, xo, xi := halide.NewVar("x"), halide.NewVar("xo"), halide.NewVar("xi")
	in := halide.NewImageParam("in", halide.Float32, 1)
	g := halide.NewFunc("g")
	g.Define(x).Is(in.At(x).Mul(2))
	f := halide.NewFunc("f")
	f.Define(x).Is(g.At(x).Add(g.At(x.Add(1))))
	f.Split(x, xo, xi, 8, halide.ShiftInwards).GPUBlocks(xo).GPUThreads(xi)
	g.ComputeAt(f, xi).StoreIn(halide.GPUShared)
	s := after(t, f, "allocation_bounds")
	mustContain(t, s,
		"realize g([min(((f.s0.x.xo * 8) + f.s0.x.min), (f.s0.x.max - 7)), 9]) in GPUShared {",
		"let g.s0.x.min = min(((f.s0.x.xo * 8) + f.s0.x.min), (f.s0.x.max - 7))")
}
