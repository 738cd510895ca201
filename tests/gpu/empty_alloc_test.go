package gpu_test

import (
	"strings"
	"testing"

	"github.com/gohalide/gohalide/cfamily"
	"github.com/gohalide/gohalide/halide"
)

// TestEmptyRegisterAllocationCUDA: progfuzz -seed 32, program 1069, on
// the H100: a boundary condition computed per thread that nothing reads
// once f3 (which ignores its arguments) is inlined got a register
// allocation of 0 elements, which the CUDA emitter failed on (it now
// declares one element). Such a Func is not computed at all now. The
// source must compile with nvcc where it is installed.
func TestEmptyRegisterAllocationCUDA(t *testing.T) {
	v := halide.NewVar
	x, y := halide.NewVar("x"), halide.NewVar("y")
	in0 := halide.NewImageParam("in0", halide.Float32, 1)
	f0, f1, f2, f3 := halide.NewFunc("f0"), halide.NewFunc("f1"), halide.NewFunc("f2"), halide.NewFunc("f3")
	b0 := halide.ConstantExterior(in0, halide.E(float32(-1)), halide.Range(-1, 1))
	f3.Define(x, y).Is(halide.E(int32(-1)))
	f2.Define(x, y).Is(halide.Mux(x, x, x, f3.At(x, halide.Cast(halide.Int32, b0.At(x)))))
	f1.Define(x, y).Is(halide.Cast(halide.Float32, f2.At(x, y)))
	f0.Define(x, y).Is(halide.Cast(halide.Int32, f1.At(x, y)))
	f1In := f1.In(f0)
	f0.GPUTile(x, y, v("xb1"), v("yb2"), v("xt3"), v("yt4"), 16, 1, halide.GuardWithIf)
	f1In.ComputeAtStage(f0.Stage(0), v("yt4"))
	f1In.Fuse(x, y, v("f5"))
	f2.ComputeAt(f1In, v("f5"))
	b0.ComputeAt(f2, x)
	l, err := halide.NewPipeline(f0).Lower()
	if err != nil {
		t.Fatal(err)
	}
	src, err := l.CUDA()
	if err != nil {
		t.Fatalf("CUDA: %v", err)
	}
	// f3 ignores its arguments, so once it is inlined nothing reads b0:
	// b0 is not computed at all (inline_functions drops it), where it
	// used to get a register allocation of 0 elements.
	if strings.Contains(src, "in0_constant_exterior") {
		t.Errorf("b0, which nothing reads, is still computed:\n%s", src)
	}
	if _, ok := cfamily.NVCCPath(); ok {
		checkKernelsNVCC(t, l.Kernels())
	}
}
