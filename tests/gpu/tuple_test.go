package gpu_test

import "github.com/gohalide/gohalide/halide"

// tupleArgmax is out(x, y) = in(x, y) * max(y) + column(y), with the row
// argmax am a Tuple Func (column, max) computed per block of out: in
// shared memory by the block's threads together ("shared"), or in each
// thread's registers ("registers"). TestKernelsCompileWithNVCC compiles
// its kernels; TestGoldenCUDA keeps the shared one's CUDA (am.0 and am.1
// are two shared arrays).
func tupleArgmax(memory string) *halide.Func {
	x, y := halide.NewVar("x"), halide.NewVar("y")
	in := halide.NewImageParam("in", halide.Float32, 2)
	r := halide.NewRDom("r", halide.Range(0, in.Dim(0).Extent()))
	am := halide.NewFunc("am")
	am.Define(y).Is(halide.NewTuple(0, halide.Inf(halide.Float32).Neg()))
	old := am.AtTuple(y)
	am.Define(y).Is(halide.SelectTuple(in.At(r, y).Gt(old.Elem(1)), halide.NewTuple(r, in.At(r, y)), old))
	t := am.AtTuple(y)
	out := halide.NewFunc("out")
	out.Define(x, y).Is(in.At(x, y).Mul(t.Elem(1)).Add(halide.Cast(halide.Float32, t.Elem(0))))
	bx, by, tx, ty := halide.NewVar("bx"), halide.NewVar("by"), halide.NewVar("tx"), halide.NewVar("ty")
	out.GPUTile(x, y, bx, by, tx, ty, 32, 8)
	switch memory {
	case "shared":
		am.ComputeAt(out, bx).StoreIn(halide.GPUShared).GPUThreads(y)
		am.Update(0).GPUThreads(y)
	default:
		am.ComputeAt(out, tx).StoreIn(halide.Register)
	}
	return out
}
