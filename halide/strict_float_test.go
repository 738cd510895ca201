package halide_test

import (
	"math"
	"strings"
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// TestStrictFloat: a*b + c where a fused multiply-add would differ from
// the product rounded and then the sum (a = b = 1 + 2^-12, c = -(1 +
// 2^-11): rounded, 0; fused, 2^-24). StrictFloat keeps the value on the
// CPU and the emulator (which always round each operation), and the
// kernel that holds it is printed without contraction (__fmul_rn), where
// a kernel without it multiplies with a plain *.
func TestStrictFloat(t *testing.T) {
	a := float32(1 + 1.0/4096)
	c := -float32(1 + 1.0/2048)
	in := halide.NewBuffer[float32](64)
	for i := range in.Data() {
		in.Data()[i] = a
	}
	build := func(strict bool) (*halide.Func, *halide.Lowered) {
		x, bx, tx := halide.NewVar("x"), halide.NewVar("bx"), halide.NewVar("tx")
		f := halide.NewFunc("f")
		v := in.At(x).Mul(in.At(x)).Add(c)
		if strict {
			v = halide.StrictFloat(v)
		}
		f.Define(x).Is(v)
		f.GPUTile1D(x, bx, tx, 32)
		l, err := halide.NewPipeline(f).Lower()
		if err != nil {
			t.Fatal(err)
		}
		return f, l
	}
	for _, strict := range []bool{false, true} {
		f, l := build(strict)
		src, err := l.CUDA()
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(src, "__fmul_rn("); got != strict {
			t.Errorf("strict %v: the CUDA source multiplies with __fmul_rn: %v, want %v", strict, got, strict)
		}
		out := halide.NewBuffer[float32](64)
		if err := f.Realize(out); err != nil {
			t.Fatal(err)
		}
		if out.Get(5) != 0 || math.Signbit(float64(out.Get(5))) {
			t.Errorf("strict %v: f(5) = %g on the emulator, want +0 (each operation rounded)", strict, out.Get(5))
		}
	}
	// No float operation: StrictFloat is the identity.
	x := halide.NewVar("x")
	if e := halide.StrictFloat(x.Add(1)); e.Node() != nil && strings.Contains(e.String(), "strict") {
		t.Errorf("StrictFloat(x + 1) = %v, want x + 1 unwrapped", e)
	}
}
