//go:build cuda

package cuda_test

import (
	"math"
	"math/rand"
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// opInputs are operands of an integer type: its ends, small values of
// both signs, shift amounts around its width, and random bit patterns.
func opInputs(t halide.Type, rng *rand.Rand) []int64 {
	w := int64(t.Bits)
	vs := []int64{t.Min(), t.Max(), 0, 1, -1, 2, -2, 7, -100, w - 1, w, w + 1, -w, -w - 1, 2 * w}
	if t == halide.UInt64 {
		vs = append(vs, -1) // 2^64 - 1
	}
	for range 40 {
		vs = append(vs, int64(rng.Uint64()))
	}
	for i := range vs {
		vs[i] = t.Wrap(vs[i])
	}
	return vs
}

func putInts[T halide.Number](vs []int64, conv func(int64) T) *halide.Buffer[T] {
	b := halide.NewBuffer[T](len(vs))
	for i, v := range vs {
		b.Data()[i] = conv(v)
	}
	return b
}

func intBuf(t halide.Type, vs []int64) halide.BufferRef {
	switch t {
	case halide.Int8:
		return putInts(vs, func(v int64) int8 { return int8(v) })
	case halide.UInt8:
		return putInts(vs, func(v int64) uint8 { return uint8(v) })
	case halide.Int16:
		return putInts(vs, func(v int64) int16 { return int16(v) })
	case halide.UInt16:
		return putInts(vs, func(v int64) uint16 { return uint16(v) })
	case halide.Int32:
		return putInts(vs, func(v int64) int32 { return int32(v) })
	case halide.UInt32:
		return putInts(vs, func(v int64) uint32 { return uint32(v) })
	case halide.Int64:
		return putInts(vs, func(v int64) int64 { return v })
	}
	return putInts(vs, func(v int64) uint64 { return uint64(v) })
}

// realizeBits realizes out(x) = e over n points, on the CPU or on the GPU
// (CUDA, 1-D tiles of 32 threads), as float64 (exact for the values of
// 32 bits or fewer that it is given).
func realizeBits(t *testing.T, e halide.Expr, n int, gpu bool) []float64 {
	t.Helper()
	x := halide.NewVar("x")
	f := halide.NewFunc("op")
	f.Define(x).Is(halide.Cast(halide.Float64, e)) // exact for <= 32 bits; 64-bit cases use both halves
	p := halide.NewPipeline(f)
	if gpu {
		f.GPUTile1D(x, halide.NewVar("bx"), halide.NewVar("tx"), 32, halide.GuardWithIf)
		p = p.WithTarget(halide.CUDA)
	}
	out := halide.NewBuffer[float64](n)
	if err := p.Realize(out); err != nil {
		t.Fatalf("%s (gpu %v): %v", e, gpu, err)
	}
	return out.Data()
}

// TestOperatorsCUDA realizes the bitwise operators, shifts, Mux, Absd and
// the saturating casts over every integer type (and Absd, Lerp and the
// saturating casts of Float32 and Float64) on the GPU and on the CPU
// executor, and compares them: the CPU is checked against a plain-Go
// reference by tests/differential. 64-bit results are compared as their
// two 32-bit halves.
func TestOperatorsCUDA(t *testing.T) {
	device(t)
	rng := rand.New(rand.NewSource(5))
	types := []halide.Type{halide.Int8, halide.UInt8, halide.Int16, halide.UInt16, halide.Int32, halide.UInt32, halide.Int64, halide.UInt64}
	for _, ty := range types {
		base := opInputs(ty, rng)
		var a, b []int64
		for _, x := range base {
			for _, y := range base[:15] {
				a, b = append(a, x), append(b, y)
			}
		}
		ina, inb := halide.NewImageParam("a", ty, 1), halide.NewImageParam("b", ty, 1)
		ina.Set(intBuf(ty, a))
		inb.Set(intBuf(ty, b))
		x := halide.NewVar("x")
		A, B := ina.At(x), inb.At(x)
		cases := map[string]halide.Expr{
			"and": A.BitAnd(B), "or": A.BitOr(B), "xor": A.BitXor(B), "not": halide.BitNot(A),
			"shl": A.Shl(B), "shr": A.Shr(B), "absd": halide.Absd(A, B), "mux": halide.Mux(B, A, 5, 9),
			"sadd": halide.SaturatingAdd(A, B), "ssub": halide.SaturatingSub(A, B), "hadd": halide.HalvingAdd(A, B),
			"rhadd": halide.RoundingHalvingAdd(A, B), "hsub": halide.HalvingSub(A, B), "rhsub": halide.RoundingHalvingSub(A, B),
			"rshr": halide.RoundingShiftRight(A, B), "rshl": halide.RoundingShiftLeft(A, B),
			"rshr3": halide.RoundingShiftRight(A, 3), "divz": halide.DivRoundToZero(A, B), "modz": halide.ModRoundToZero(A, B),
		}
		if ty.Bits < 64 {
			u := halide.Type{Code: halide.UInt8.Code, Bits: ty.Bits}
			cases["wadd"], cases["wsub"], cases["wmul"] = halide.WideningAdd(A, B), halide.WideningSub(A, B), halide.WideningMul(A, B)
			cases["wshl"] = halide.WideningShiftLeft(A, B)
			cases["mulshr"] = halide.MulShiftRight(A, B, halide.Cast(u, B))
			cases["rmulshr"] = halide.RoundingMulShiftRight(A, B, int(ty.Bits)-1)
		}
		for _, to := range types {
			cases["sat_"+to.String()] = halide.SaturatingCast(to, A)
		}
		for name, e := range cases {
			halves := []halide.Expr{e}
			if e.Type().Bits == 64 {
				halves = []halide.Expr{halide.Cast(halide.UInt32, e), halide.Cast(halide.UInt32, e.Shr(32))}
			}
			for _, h := range halves {
				want := realizeBits(t, h, len(a), false)
				got := realizeBits(t, h, len(a), true)
				for i := range a {
					if got[i] != want[i] {
						t.Errorf("%s %s: a=%d b=%d: CUDA %g, CPU %g", name, ty, a[i], b[i], got[i], want[i])
						break
					}
				}
			}
		}
	}
	for _, ft := range []halide.Type{halide.Float32, halide.Float64} {
		vals := []float64{0, -0.5, 0.5, 1.5, -1.5, 127.5, 255.5, 256, -129, 65535.9, -32768.9, 2147483648, -2147483649, 4294967296,
			1e19, 2e19, -1e19, math.MaxFloat32, 1e39, math.Inf(1), math.Inf(-1), math.NaN(), 3.25}
		for range 40 {
			vals = append(vals, rng.NormFloat64()*1e4)
		}
		mk := func(vs []float64) halide.BufferRef {
			if ft == halide.Float32 {
				b := halide.NewBuffer[float32](len(vs))
				for i, v := range vs {
					b.Data()[i] = float32(v)
				}
				return b
			}
			b := halide.NewBuffer[float64](len(vs))
			copy(b.Data(), vs)
			return b
		}
		ws := make([]float64, len(vals))
		bs := make([]float64, len(vals))
		for i := range vals {
			ws[i] = []float64{0, 0.25, 1, -0.5, 0.75}[i%5]
			bs[i] = vals[(i*7+3)%len(vals)]
		}
		ina, inb, inw := halide.NewImageParam("a", ft, 1), halide.NewImageParam("b", ft, 1), halide.NewImageParam("w", ft, 1)
		ina.Set(mk(vals))
		inb.Set(mk(bs))
		inw.Set(mk(ws))
		x := halide.NewVar("x")
		A, B, W := ina.At(x), inb.At(x), inw.At(x)
		cases := map[string]halide.Expr{"absd": halide.Absd(A, B), "lerp": halide.Lerp(A, B, W)}
		if ft == halide.Float64 {
			cases["sat_float32"] = halide.SaturatingCast(halide.Float32, A)
		}
		for _, to := range types {
			e := halide.SaturatingCast(to, A)
			if to.Bits == 64 { // the two halves, each exact in a float64
				cases["sat_"+to.String()+"_lo"] = halide.Cast(halide.UInt32, e)
				cases["sat_"+to.String()+"_hi"] = halide.Cast(halide.UInt32, e.Shr(32))
				continue
			}
			cases["sat_"+to.String()] = e
		}
		for name, e := range cases {
			want := realizeBits(t, e, len(vals), false)
			got := realizeBits(t, e, len(vals), true)
			// The CUDA target lets nvcc fuse a multiply and an add (FMA):
			// a float lerp may differ from the CPU's in the last bits
			// (relative 4 ulps of its type); everything else is exact.
			tol := 0.0
			if name == "lerp" {
				tol = 4 * math.Pow(2, -23)
				if ft == halide.Float64 {
					tol = 4 * math.Pow(2, -52)
				}
			}
			for i := range vals {
				close := tol > 0 && math.Abs(got[i]-want[i]) <= tol*math.Max(math.Abs(want[i]), 1)
				if got[i] != want[i] && !close && !(math.IsNaN(got[i]) && math.IsNaN(want[i])) {
					t.Errorf("%s of %s: a=%g b=%g w=%g: CUDA %g, CPU %g", name, ft, vals[i], bs[i], ws[i], got[i], want[i])
					break
				}
			}
		}
	}
}
