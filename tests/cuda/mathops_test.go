//go:build cuda

package cuda_test

import (
	"math"
	"math/rand"
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// TestMathOpsCUDA realizes the trigonometric and hyperbolic functions,
// the float classifications, Reinterpret and the bit counts on the GPU and
// on the CPU executor and compares them (the CPU is checked against plain
// Go by tests/gpu TestFloatMathOps and TestBitCountOps). Both compute the
// float functions in double precision and round to float32; CUDA's double
// functions are within 1 ulp of the correctly rounded value (Go's too), so
// a float32 result may differ in its last bit where the double lies near
// a float32 rounding boundary: at most 1 ulp is accepted there; the rest
// must be identical.
func TestMathOpsCUDA(t *testing.T) {
	device(t)
	rng := rand.New(rand.NewSource(9))
	vals := []float32{0, float32(math.Copysign(0, -1)), 0.5, -0.5, 1, -1, 3.14159, -100, 1e10, 1e30, float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN())}
	for range 200 {
		vals = append(vals, float32(rng.NormFloat64()*5))
	}
	in := halide.NewImageParam("in", halide.Float32, 1)
	buf := halide.NewBuffer[float32](len(vals))
	copy(buf.Data(), vals)
	in.Set(buf)
	x := halide.NewVar("x")
	A := in.At(x)
	B := in.At(halide.Clamp(x.Add(3), 0, len(vals)-1))
	float := map[string]halide.Expr{
		"sin": halide.Sin(A), "cos": halide.Cos(A), "tan": halide.Tan(A), "asin": halide.Asin(A), "acos": halide.Acos(A),
		"atan": halide.Atan(A), "sinh": halide.Sinh(A), "cosh": halide.Cosh(A), "tanh": halide.Tanh(A), "atan2": halide.Atan2(A, B),
		"asinh": halide.Asinh(A), "acosh": halide.Acosh(A), "atanh": halide.Atanh(A.Mul(0.1)),
	}
	exact := map[string]halide.Expr{
		"is_nan": halide.Select(halide.IsNaN(A), 1, 0), "is_inf": halide.Select(halide.IsInf(A), 1, 0),
		"is_finite":   halide.Select(halide.IsFinite(A), 1, 0),
		"reinterpret": halide.Reinterpret(halide.UInt32, A),
		"popcount":    halide.Popcount(halide.Reinterpret(halide.UInt32, A)),
		"clz":         halide.CountLeadingZeros(halide.Reinterpret(halide.Int32, A)),
		"ctz8":        halide.CountTrailingZeros(halide.Cast(halide.UInt8, halide.Reinterpret(halide.UInt32, A))),
		"clz16":       halide.CountLeadingZeros(halide.Cast(halide.Int16, halide.Reinterpret(halide.UInt32, A))),
		// The bits (-0 kept), but of a NaN only that it is one: CUDA's
		// truncf returns the canonical NaN 0x7fffffff, Go the operand.
		"trunc":   halide.Select(halide.IsNaN(halide.Trunc(A)), halide.Cast(halide.UInt32, 1), halide.Reinterpret(halide.UInt32, halide.Trunc(A))),
		"fract":   halide.Fract(A.Mul(7.25)),
		"trunc64": halide.Trunc(halide.Cast(halide.Float64, A).Mul(1.5)),
	}
	for name, e := range exact {
		want := realizeBits(t, e, len(vals), false)
		got := realizeBits(t, e, len(vals), true)
		for i := range vals {
			if got[i] != want[i] && !(math.IsNaN(got[i]) && math.IsNaN(want[i])) {
				t.Errorf("%s(%g): CUDA %g, CPU %g", name, vals[i], got[i], want[i])
			}
		}
	}
	for name, e := range float {
		want := realizeBits(t, e, len(vals), false)
		got := realizeBits(t, e, len(vals), true)
		off := 0
		for i := range vals {
			w, g := float32(want[i]), float32(got[i])
			if w == g || w != w && g != g {
				continue
			}
			if d := int64(math.Float32bits(w)) - int64(math.Float32bits(g)); d > 1 || d < -1 {
				t.Errorf("%s(%g): CUDA %g, CPU %g: more than 1 ulp apart", name, vals[i], g, w)
			}
			off++
		}
		t.Logf("%s: %d of %d results 1 ulp apart", name, off, len(vals))
	}
}
