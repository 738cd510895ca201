//go:build cuda

package cuda_test

import (
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// TestStrictFloatCUDA: a*b + c with a = b = 1 + 2^-12, c = -(1 + 2^-11)
// is 0 with each operation rounded and 2^-24 fused. Under StrictFloat the
// GPU must give 0, as the CPU does; without it the CUDA target may fuse
// (the value is logged, not asserted).
func TestStrictFloatCUDA(t *testing.T) {
	device(t)
	a := float32(1 + 1.0/4096)
	c := -float32(1 + 1.0/2048)
	for _, strict := range []bool{false, true} {
		in := halide.NewImageParam("in", halide.Float32, 1)
		buf := halide.NewBuffer[float32](64)
		for i := range buf.Data() {
			buf.Data()[i] = a
		}
		in.Set(buf)
		x, bx, tx := halide.NewVar("x"), halide.NewVar("bx"), halide.NewVar("tx")
		f := halide.NewFunc("f")
		v := in.At(x).Mul(in.At(x)).Add(c)
		if strict {
			v = halide.StrictFloat(v)
		}
		f.Define(x).Is(v)
		f.GPUTile1D(x, bx, tx, 32)
		out := halide.NewBuffer[float32](64)
		if err := halide.NewPipeline(f).WithTarget(halide.CUDA).Realize(out); err != nil {
			t.Fatal(err)
		}
		if strict && out.Get(7) != 0 {
			t.Errorf("StrictFloat(a*b + c) = %g on the GPU, want 0", out.Get(7))
		}
		t.Logf("strict %v: a*b + c = %g on the GPU", strict, out.Get(7))
	}
}
