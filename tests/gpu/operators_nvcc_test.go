package gpu_test

import (
	"testing"

	"github.com/gohalide/gohalide/cfamily"
	"github.com/gohalide/gohalide/halide"
)

// TestOperatorKernelsCompileWithNVCC compiles, with nvcc -arch=sm_90, a
// kernel per integer type that uses every bitwise operator, both shifts,
// Mux, Absd and saturating casts to every integer type, and one per float
// type with Absd, Lerp and the saturating casts: the CUDA the printer
// writes for them (and the shift helpers) is valid CUDA C++. The values
// are checked against the CPU on a GPU by tests/cuda (TestOperatorsCUDA).
func TestOperatorKernelsCompileWithNVCC(t *testing.T) {
	if _, ok := cfamily.NVCCPath(); !ok {
		t.Skip("nvcc not found: install the CUDA 11.8 toolkit with scripts/install-cuda-toolkit.sh to run this check")
	}
	types := []halide.Type{halide.Int8, halide.UInt8, halide.Int16, halide.UInt16, halide.Int32, halide.UInt32, halide.Int64, halide.UInt64}
	for _, ty := range append(types, halide.Float32, halide.Float64) {
		t.Run(ty.String(), func(t *testing.T) {
			a, b := halide.NewImageParam("a", ty, 1), halide.NewImageParam("b", ty, 1)
			x := halide.NewVar("x")
			A, B := a.At(x), b.At(x)
			var e halide.Expr
			if ty.IsFloat() {
				e = halide.Cast(halide.Float64, halide.Absd(A, B)).Add(halide.Cast(halide.Float64, halide.Lerp(A, B, 0.25)))
			} else {
				e = halide.Cast(halide.Float64, A.BitAnd(B).BitOr(halide.BitNot(A)).BitXor(A.Shl(B)).BitXor(B.Shr(A))).
					Add(halide.Cast(halide.Float64, halide.Absd(A, B))).
					Add(halide.Cast(halide.Float64, halide.Mux(B, A, 3, B))).
					Add(halide.Cast(halide.Float64, halide.SaturatingAdd(A, B).Add(halide.SaturatingSub(A, B)).Add(halide.HalvingAdd(A, B)).
						Add(halide.RoundingHalvingAdd(A, B)).Add(halide.RoundingShiftRight(A, B)).Add(halide.RoundingShiftLeft(A, B)).
						Add(halide.DivRoundToZero(A, B)).Add(halide.ModRoundToZero(A, B))))
				if ty.Bits < 64 {
					e = e.Add(halide.Cast(halide.Float64, halide.WideningMul(A, B).Add(halide.WideningAdd(A, B)))).
						Add(halide.Cast(halide.Float64, halide.RoundingMulShiftRight(A, B, int(ty.Bits)-1)))
				}
			}
			for _, to := range types {
				e = e.Add(halide.Cast(halide.Float64, halide.SaturatingCast(to, A)))
			}
			f := halide.NewFunc("ops")
			f.Define(x).Is(e)
			f.GPUTile1D(x, halide.NewVar("bx"), halide.NewVar("tx"), 32, halide.GuardWithIf)
			l, err := halide.NewPipeline(f).Lower()
			if err != nil {
				t.Fatal(err)
			}
			checkKernelsNVCC(t, l.Kernels())
		})
	}
}
