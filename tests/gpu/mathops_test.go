package gpu_test

import (
	"math"
	"math/bits"
	"math/rand"
	"testing"

	"github.com/gohalide/gohalide/cfamily"
	"github.com/gohalide/gohalide/halide"
)

// The trigonometric and hyperbolic functions, the float classifications,
// the bit counts and Reinterpret, on the CPU path and on the emulator (a
// GPU schedule), against plain-Go references written here; and the CUDA of
// a kernel using them all compiles with nvcc where nvcc exists. The float
// functions are computed in double precision and rounded to float32, so
// the reference is math's float64 function rounded the same way: the
// results must be identical.

func realizeOn(t *testing.T, e halide.Expr, n int, gpu bool) []float64 {
	t.Helper()
	x := halide.NewVar("x")
	f := halide.NewFunc("op")
	f.Define(x).Is(halide.Cast(halide.Float64, e))
	if gpu {
		f.GPUTile1D(x, halide.NewVar("bx"), halide.NewVar("tx"), 32, halide.GuardWithIf)
	}
	out := halide.NewBuffer[float64](n)
	if err := halide.NewPipeline(f).Realize(out); err != nil {
		t.Fatalf("%s (gpu %v): %v", e, gpu, err)
	}
	return out.Data()
}

func sameFloat(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }

func TestFloatMathOps(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	vals := []float32{0, float32(math.Copysign(0, -1)), 0.5, -0.5, 1, -1, 2, 3.14159, -100, 1e10, float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN())}
	for range 60 {
		vals = append(vals, float32(rng.NormFloat64()*3))
	}
	in := halide.NewImageParam("in", halide.Float32, 1)
	buf := halide.NewBuffer[float32](len(vals))
	copy(buf.Data(), vals)
	in.Set(buf)
	x := halide.NewVar("x")
	A := in.At(x)
	B := in.At(halide.Clamp(x.Add(7), 0, len(vals)-1))
	r32 := func(v float64) float64 { return float64(float32(v)) }
	b2f := func(b bool) float64 {
		if b {
			return 1
		}
		return 0
	}
	cases := []struct {
		name string
		e    halide.Expr
		ref  func(a, b float64) float64
	}{
		{"sin", halide.Sin(A), func(a, _ float64) float64 { return r32(math.Sin(a)) }},
		{"cos", halide.Cos(A), func(a, _ float64) float64 { return r32(math.Cos(a)) }},
		{"tan", halide.Tan(A), func(a, _ float64) float64 { return r32(math.Tan(a)) }},
		{"asin", halide.Asin(A), func(a, _ float64) float64 { return r32(math.Asin(a)) }},
		{"acos", halide.Acos(A), func(a, _ float64) float64 { return r32(math.Acos(a)) }},
		{"atan", halide.Atan(A), func(a, _ float64) float64 { return r32(math.Atan(a)) }},
		{"sinh", halide.Sinh(A), func(a, _ float64) float64 { return r32(math.Sinh(a)) }},
		{"cosh", halide.Cosh(A), func(a, _ float64) float64 { return r32(math.Cosh(a)) }},
		{"tanh", halide.Tanh(A), func(a, _ float64) float64 { return r32(math.Tanh(a)) }},
		{"atan2", halide.Atan2(A, B), func(a, b float64) float64 { return r32(math.Atan2(a, b)) }},
		{"asinh", halide.Asinh(A), func(a, _ float64) float64 { return r32(math.Asinh(a)) }},
		{"acosh", halide.Acosh(A), func(a, _ float64) float64 { return r32(math.Acosh(a)) }},
		{"atanh", halide.Atanh(A.Mul(0.25)), func(a, _ float64) float64 { return r32(math.Atanh(float64(float32(a * 0.25)))) }},
		{"trunc", halide.Trunc(A), func(a, _ float64) float64 { return math.Trunc(a) }},
		{"fract", halide.Fract(A), func(a, _ float64) float64 { return r32(a - math.Trunc(a)) }},
		{"is_nan", halide.Select(halide.IsNaN(A), 1, 0), func(a, _ float64) float64 { return b2f(math.IsNaN(a)) }},
		{"is_inf", halide.Select(halide.IsInf(A), 1, 0), func(a, _ float64) float64 { return b2f(math.IsInf(a, 0)) }},
		{"is_finite", halide.Select(halide.IsFinite(A), 1, 0), func(a, _ float64) float64 { return b2f(!math.IsInf(a, 0) && !math.IsNaN(a)) }},
		{"reinterpret", halide.Reinterpret(halide.UInt32, A), func(a, _ float64) float64 { return float64(math.Float32bits(float32(a))) }},
		{"reinterpret back", halide.Reinterpret(halide.Float32, halide.Reinterpret(halide.Int32, A).Add(1)), func(a, _ float64) float64 {
			return float64(math.Float32frombits(math.Float32bits(float32(a)) + 1))
		}},
	}
	for _, c := range cases {
		for _, gpu := range []bool{false, true} {
			got := realizeOn(t, c.e, len(vals), gpu)
			for i, v := range vals {
				j := min(i+7, len(vals)-1)
				if want := c.ref(float64(v), float64(vals[j])); !sameFloat(got[i], want) {
					t.Errorf("%s(%g) (gpu %v) = %g, want %g", c.name, v, gpu, got[i], want)
				}
			}
		}
	}
}

func TestBitCountOps(t *testing.T) {
	rng := rand.New(rand.NewSource(12))
	for _, ty := range []halide.Type{halide.Int8, halide.UInt8, halide.Int16, halide.UInt16, halide.Int32, halide.UInt32} {
		vs := []int64{0, 1, -1, 2, ty.Max(), ty.Min(), 12345}
		for range 40 {
			vs = append(vs, int64(rng.Uint64()))
		}
		for i := range vs {
			vs[i] = ty.Wrap(vs[i])
		}
		in := halide.NewImageParam("in", halide.Int64, 1)
		buf := halide.NewBuffer[int64](len(vs))
		copy(buf.Data(), vs)
		in.Set(buf)
		x := halide.NewVar("x")
		A := halide.Cast(ty, in.At(x))
		ubits := func(v int64) uint64 { return uint64(v) & (1<<uint(ty.Bits) - 1) }
		cases := []struct {
			name string
			e    halide.Expr
			ref  func(v int64) int64
		}{
			{"popcount", halide.Popcount(A), func(v int64) int64 { return int64(bits.OnesCount64(ubits(v))) }},
			{"clz", halide.CountLeadingZeros(A), func(v int64) int64 { return int64(bits.LeadingZeros64(ubits(v)) - (64 - int(ty.Bits))) }},
			{"ctz", halide.CountTrailingZeros(A), func(v int64) int64 {
				if ubits(v) == 0 {
					return int64(ty.Bits)
				}
				return int64(bits.TrailingZeros64(ubits(v)))
			}},
		}
		for _, c := range cases {
			for _, gpu := range []bool{false, true} {
				got := realizeOn(t, c.e, len(vs), gpu)
				for i, v := range vs {
					if want := float64(c.ref(v)); got[i] != want {
						t.Errorf("%s %s(%d) (gpu %v) = %g, want %g", c.name, ty, v, gpu, got[i], want)
					}
				}
			}
		}
	}
}

// TestMathOpKernelsCompileWithNVCC compiles a kernel per type that uses the
// new float functions (Float32, Float64) or the bit counts and
// Reinterpret (each integer type).
func TestMathOpKernelsCompileWithNVCC(t *testing.T) {
	if _, ok := cfamily.NVCCPath(); !ok {
		t.Skip("nvcc not found: install the CUDA 11.8 toolkit with scripts/install-cuda-toolkit.sh to run this check")
	}
	types := []halide.Type{halide.Int8, halide.UInt8, halide.Int16, halide.UInt16, halide.Int32, halide.UInt32, halide.Int64, halide.UInt64, halide.Float32, halide.Float64}
	for _, ty := range types {
		t.Run(ty.String(), func(t *testing.T) {
			a := halide.NewImageParam("a", ty, 1)
			x := halide.NewVar("x")
			A := a.At(x)
			var e halide.Expr
			if ty.IsFloat() {
				e = halide.Sin(A).Add(halide.Cos(A)).Add(halide.Tan(A)).Add(halide.Asin(A)).Add(halide.Acos(A)).Add(halide.Atan(A)).
					Add(halide.Sinh(A)).Add(halide.Cosh(A)).Add(halide.Tanh(A)).Add(halide.Atan2(A, A.Add(1))).
					Add(halide.Asinh(A)).Add(halide.Acosh(A)).Add(halide.Atanh(A)).Add(halide.Trunc(A)).Add(halide.Fract(A)).
					Add(halide.Select(halide.IsNaN(A).Or(halide.IsInf(A)).Or(halide.IsFinite(A)), A, A.Mul(2)))
				it := halide.Int32
				if ty.Bits == 64 {
					it = halide.Int64
				}
				e = e.Add(halide.Reinterpret(ty, halide.Reinterpret(it, A).Add(1)))
			} else {
				e = halide.Popcount(A).Add(halide.CountLeadingZeros(A)).Add(halide.CountTrailingZeros(A))
				if ty.Bits >= 32 {
					ft := halide.Float32
					if ty.Bits == 64 {
						ft = halide.Float64
					}
					e = e.Add(halide.Reinterpret(ty, halide.Reinterpret(ft, A)))
				}
			}
			f := halide.NewFunc("mathops")
			f.Define(x).Is(halide.Cast(halide.Float64, e))
			f.GPUTile1D(x, halide.NewVar("bx"), halide.NewVar("tx"), 32, halide.GuardWithIf)
			l, err := halide.NewPipeline(f).Lower()
			if err != nil {
				t.Fatal(err)
			}
			// sin, cos and tan in double precision reduce a huge
			// argument (Payne-Hanek) in a local array: 48 bytes.
			checkKernelsNVCCStack(t, l.Kernels(), 64)
		})
	}
}
