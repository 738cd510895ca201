package gpu_test

import (
	"strings"
	"testing"

	"github.com/gohalide/gohalide/cfamily"
	"github.com/gohalide/gohalide/halide"
)

// TestEmptyRegisterAllocationCUDA: a Func computed per thread over an
// empty region (a boundary condition whose region is one point, at a
// fused loop) has a register allocation of 0 elements; the CUDA emitter
// declares it with one (C has no arrays of 0) instead of failing with an
// internal error (progfuzz -seed 32, program 1069, on the H100). The
// source must also compile with nvcc where it is installed.
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
	if !strings.Contains(src, "// empty: 0 elements") {
		t.Errorf("no empty allocation declared with one element:\n%s", src)
	}
	if _, ok := cfamily.NVCCPath(); ok {
		checkKernelsNVCC(t, l.Kernels())
	}
}
