package halide_test

import (
	"errors"
	"math"
	"math/rand"
	"strings"
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// WideningMul of operands of different signedness: only the widths are
// matched, and the result is signed when either operand is (Halide's
// widening_mul).
func TestWideningMulMixedSigns(t *testing.T) {
	const n = 256 * 3
	a := halide.NewBuffer[uint8](n)
	b := halide.NewBuffer[int8](n)
	c := halide.NewBuffer[int16](n)
	r := rand.New(rand.NewSource(7))
	for i := 0; i < n; i++ {
		a.Set(uint8(i), i) // every uint8, three times
		b.Set(int8(r.Intn(256)), i)
		c.Set(int16(r.Intn(1<<16)), i)
	}
	b.Set(-128, 255) // a = 255 against b = -128: -32640
	for _, target := range []string{"cpu", "emulator"} {
		x := halide.NewVar("x")
		cases := []struct {
			e    halide.Expr
			want func(i int) int64
			out  halide.Type
		}{
			{halide.WideningMul(a.At(x), b.At(x)), func(i int) int64 { return int64(a.Get(i)) * int64(b.Get(i)) }, halide.Int16},
			{halide.WideningMul(b.At(x), a.At(x)), func(i int) int64 { return int64(a.Get(i)) * int64(b.Get(i)) }, halide.Int16},
			// uint8 widened to 16 bits (match_bits), times int16: int32.
			{halide.WideningMul(a.At(x), c.At(x)), func(i int) int64 { return int64(a.Get(i)) * int64(c.Get(i)) }, halide.Int32},
		}
		for k, cs := range cases {
			if cs.e.Type() != cs.out {
				t.Fatalf("case %d: type %s, want %s", k, cs.e.Type(), cs.out)
			}
			f := halide.NewFunc("f")
			f.Define(x).Is(halide.Cast(halide.Int32, cs.e))
			if target == "emulator" {
				f.GPUTile1D(x, halide.NewVar("bx"), halide.NewVar("tx"), 8, halide.GuardWithIf)
			}
			out := halide.NewBuffer[int32](n)
			if err := halide.NewPipeline(f).Realize(out); err != nil {
				t.Fatal(err)
			}
			for i := 0; i < n; i++ {
				if got, want := int64(out.Get(i)), cs.want(i); got != want {
					t.Fatalf("%s case %d at %d: got %d, want %d", target, k, i, got, want)
				}
			}
		}
	}
}

// Trunc, Fract and the inverse hyperbolic functions on float32 and
// float64, on the CPU and the emulator. Trunc and Fract are exact (and
// Trunc keeps the sign of zero); the others are within the tolerance of
// the other math calls (math_builders_test.go).
func TestTruncFractAndInverseHyperbolic(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	vals := []float64{0, math.Copysign(0, -1), 0.25, -0.25, 0.5, -0.5, 1, -1, 2.75, -2.75, 1e9 + 0.5, -1e7 - 0.75,
		math.Inf(1), math.Inf(-1), math.NaN(), 0.999, -0.999, 1.5, 100}
	for len(vals) < 61 {
		vals = append(vals, (r.Float64()-0.5)*40)
	}
	type fcase struct {
		name  string
		build func(halide.Expr) halide.Expr
		want  func(float64) float64
		exact bool
	}
	cases := []fcase{
		{"Trunc", func(e halide.Expr) halide.Expr { return halide.Trunc(e) }, math.Trunc, true},
		{"Fract", func(e halide.Expr) halide.Expr { return halide.Fract(e) }, func(v float64) float64 { return v - math.Trunc(v) }, true},
		{"Asinh", func(e halide.Expr) halide.Expr { return halide.Asinh(e) }, math.Asinh, false},
		{"Acosh", func(e halide.Expr) halide.Expr { return halide.Acosh(e) }, math.Acosh, false},
		{"Atanh", func(e halide.Expr) halide.Expr { return halide.Atanh(e) }, math.Atanh, false},
	}
	for _, c := range cases {
		for _, f32 := range []bool{true, false} {
			for _, target := range []string{"cpu", "emulator"} {
				x := halide.NewVar("x")
				var in halide.Expr
				b32, b64 := halide.NewBuffer[float32](len(vals)), halide.NewBuffer[float64](len(vals))
				for i, v := range vals {
					b32.Set(float32(v), i)
					b64.Set(v, i)
				}
				if f32 {
					in = b32.At(x)
				} else {
					in = b64.At(x)
				}
				f := halide.NewFunc("f")
				f.Define(x).Is(halide.Cast(halide.Float64, c.build(in)))
				if target == "emulator" {
					f.GPUTile1D(x, halide.NewVar("bx"), halide.NewVar("tx"), 8, halide.GuardWithIf)
				}
				out := halide.NewBuffer[float64](len(vals))
				if err := halide.NewPipeline(f).Realize(out); err != nil {
					t.Fatal(err)
				}
				for i, v := range vals {
					if f32 {
						v = float64(float32(v))
					}
					want := c.want(v)
					if f32 {
						want = float64(float32(want))
					}
					got := out.Get(i)
					tol := tolF64
					if f32 {
						tol = tolF32
					}
					switch {
					case math.IsNaN(want) && math.IsNaN(got):
					case c.exact && (got != want || math.Signbit(got) != math.Signbit(want)):
						t.Errorf("%s f32=%v %s(%v) = %v, want %v", target, f32, c.name, v, got, want)
					case !c.exact && got != want && !(math.Abs(got-want) <= tol*math.Max(1, math.Abs(want))):
						t.Errorf("%s f32=%v %s(%v) = %v, want %v", target, f32, c.name, v, got, want)
					}
				}
			}
		}
	}
	// An integer is converted to Float32, as in Halide.
	if ty := halide.Trunc(halide.E(int32(3))).Type(); ty != halide.Float32 {
		t.Errorf("Trunc of an int32 has type %s, want float32", ty)
	}
	if ty := halide.Fract(halide.E(int32(3))).Type(); ty != halide.Float32 {
		t.Errorf("Fract of an int32 has type %s, want float32", ty)
	}
	// Likely and LikelyIfInnermost are the identity.
	if e := halide.Likely(halide.NewVar("x")); e.String() != halide.E(halide.NewVar("x")).String() {
		t.Errorf("Likely(x) = %s", e)
	}
}

// Operands the fixed-point intrinsics do not take are refused with an
// ErrType naming the function and what is legal.
func TestFixedPointTypeErrors(t *testing.T) {
	x := halide.NewVar("x")
	f32 := halide.Cast(halide.Float32, x)
	i64 := halide.Cast(halide.Int64, x)
	u8 := halide.Cast(halide.UInt8, x)
	cases := []struct {
		name  string
		e     halide.Expr
		legal string
	}{
		{"SaturatingAdd", halide.SaturatingAdd(f32, 1), "integer operands"},
		{"SaturatingSub", halide.SaturatingSub(x, f32), "integer operands"},
		{"HalvingAdd", halide.HalvingAdd(halide.E(x).Lt(1), x), "integer operands"},
		{"HalvingSub", halide.HalvingSub(f32, f32), "integer operands"},
		{"RoundingHalvingAdd", halide.RoundingHalvingAdd(f32, x), "integer operands"},
		{"WideningAdd", halide.WideningAdd(i64, i64), "8, 16 or 32 bits"},
		{"WideningSub", halide.WideningSub(f32, x), "8, 16 or 32 bits"},
		{"WideningMul", halide.WideningMul(i64, x), "8, 16 or 32 bits"},
		{"WideningShiftLeft", halide.WideningShiftLeft(i64, 1), "8, 16 or 32 bits"},
		{"WideningShiftRight", halide.WideningShiftRight(x, f32), "8, 16 or 32 bits"},
		{"RoundingShiftRight", halide.RoundingShiftRight(f32, 1), "integer operands"},
		{"RoundingShiftLeft", halide.RoundingShiftLeft(x, 1.5), "integer operands"},
		{"MulShiftRight", halide.MulShiftRight(i64, i64, 3), "8, 16 or 32 bits"},
		{"MulShiftRight", halide.MulShiftRight(x, x, x), "unsigned shift amount"},
		{"RoundingMulShiftRight", halide.RoundingMulShiftRight(u8, u8, -1), "not negative"},
		{"DivRoundToZero", halide.DivRoundToZero(f32, 2), "integer operands"},
		{"ModRoundToZero", halide.ModRoundToZero(x, f32), "integer operands"},
	}
	for _, c := range cases {
		var he *halide.Error
		err := c.e.Err()
		if !errors.As(err, &he) || he.Code != halide.ErrType {
			t.Errorf("%s: %v, want an ErrType", c.name, err)
			continue
		}
		if !strings.Contains(err.Error(), c.name) || !strings.Contains(he.Legal, c.legal) {
			t.Errorf("%s: %q does not name %s and %q", c.name, err, c.name, c.legal)
		}
	}
}

// The generated expressions stay narrow where Halide's do: a saturating
// add of int32 values is computed in int32, not widened to int64.
func TestFixedPointNoNeedlessWidening(t *testing.T) {
	x := halide.NewVar("x")
	for _, e := range []halide.Expr{halide.SaturatingAdd(x, x), halide.SaturatingSub(x, 3), halide.HalvingAdd(x, x),
		halide.RoundingHalvingAdd(x, 5), halide.RoundingShiftRight(x, 3), halide.DivRoundToZero(x, 7)} {
		if s := e.String(); strings.Contains(s, "int64") {
			t.Errorf("%s widens to int64", s)
		}
	}
}
