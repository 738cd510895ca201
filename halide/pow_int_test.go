package halide_test

import (
	"fmt"
	"math"
	"math/rand"
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// Pow of an integer by a constant integer exponent is, as in Halide, x
// multiplied by itself in x's type (wrapping), 1 for the exponent 0, and
// 1/x^-n by integer division for a negative one. Checked for every integer
// type from 8 to 64 bits and the exponents -2..5, on the CPU and on the
// GPU emulator, against Go's own arithmetic (which wraps the same way).

type powInt interface {
	int8 | int16 | int32 | int64 | uint8 | uint16 | uint32 | uint64
}

// goPow is x^n in T by Go's wrapping multiplication; for n < 0 it is
// 1 / x^-n with Halide's integer division (rounding down, and 0 for a
// zero divisor): 1 for x^-n = 1, -1 for -1, else 0.
func goPow[T powInt](x T, n int) T {
	if n < 0 {
		d := goPow(x, -n)
		switch {
		case d == 1:
			return 1
		case d == 0:
			return 0
		case d+1 == 0 && ^T(0) < 0: // -1 of a signed type
			return d
		}
		return 0
	}
	p := T(1)
	for i := 0; i < n; i++ {
		p *= x
	}
	return p
}

// powInputs are the edge values of T (0, ±1, ±2, the ends of the range)
// then random ones.
func powInputs[T powInt](n int, rng *rand.Rand) []T {
	var lo, hi T
	hi = ^T(0)
	if hi < 0 { // signed: -1 of all bits
		bits := 0
		for v := T(1); v != 0; v <<= 1 {
			bits++
		}
		hi = T(1)<<(bits-1) - 1
		lo = -hi - 1
	}
	vs := []T{0, 1, 2, 3, lo, hi, lo + 1, hi - 1}
	if lo < 0 {
		zero := T(0)
		vs = append(vs, zero-1, zero-2, zero-3)
	}
	for len(vs) < n {
		vs = append(vs, T(rng.Uint64()))
	}
	return vs
}

func testPowInt[T powInt](t *testing.T, ht halide.Type) {
	rng := rand.New(rand.NewSource(int64(ht.Bits)))
	in := halide.NewBuffer[T](37) // not a multiple of the emulator's block of 8
	vals := powInputs[T](37, rng)
	for i, v := range vals {
		in.Set(v, i)
	}
	for n := -2; n <= 5; n++ {
		for _, target := range []string{"cpu", "emulator"} {
			t.Run(fmt.Sprintf("%s_pow%d_%s", ht, n, target), func(t *testing.T) {
				x := halide.NewVar("x")
				e := halide.Pow(in.At(x), n)
				if e.Type() != ht {
					t.Fatalf("Pow(%s, %d) has type %s, want %s", ht, n, e.Type(), ht)
				}
				f := halide.NewFunc("f")
				f.Define(x).Is(e)
				if target == "emulator" {
					f.GPUTile1D(x, halide.NewVar("bx"), halide.NewVar("tx"), 8, halide.GuardWithIf)
				}
				out := halide.NewBuffer[T](len(vals))
				if err := halide.NewPipeline(f).Realize(out); err != nil {
					t.Fatal(err)
				}
				for i, v := range vals {
					if got, want := out.Get(i), goPow(v, n); got != want {
						t.Errorf("pow(%d, %d) = %d, want %d", v, n, got, want)
					}
				}
			})
		}
	}
}

func TestPowInteger(t *testing.T) {
	testPowInt[int8](t, halide.Int8)
	testPowInt[int16](t, halide.Int16)
	testPowInt[int32](t, halide.Int32)
	testPowInt[int64](t, halide.Int64)
	testPowInt[uint8](t, halide.UInt8)
	testPowInt[uint16](t, halide.UInt16)
	testPowInt[uint32](t, halide.UInt32)
	testPowInt[uint64](t, halide.UInt64)
}

// An integer base with an exponent that is not a constant is converted to
// float32, as is the exponent (Halide's pow_f32).
func TestPowIntegerVariableExponent(t *testing.T) {
	for _, target := range []string{"cpu", "emulator"} {
		t.Run(target, func(t *testing.T) {
			in := halide.NewBuffer[int16](20)
			for i := 0; i < 20; i++ {
				in.Set(int16(i-10), i)
			}
			x := halide.NewVar("x")
			e := halide.Pow(in.At(x), x.Mod(4))
			if e.Type() != halide.Float32 {
				t.Fatalf("Pow(int16, a Var) has type %s, want float32", e.Type())
			}
			f := halide.NewFunc("f")
			f.Define(x).Is(e)
			if target == "emulator" {
				f.GPUTile1D(x, halide.NewVar("bx"), halide.NewVar("tx"), 8, halide.GuardWithIf)
			}
			out := halide.NewBuffer[float32](20)
			if err := halide.NewPipeline(f).Realize(out); err != nil {
				t.Fatal(err)
			}
			for i := 0; i < 20; i++ {
				want := float32(math.Pow(float64(i-10), float64(i%4)))
				if got := out.Get(i); got != want {
					t.Errorf("pow(%d, %d) = %v, want %v", i-10, i%4, got, want)
				}
			}
		})
	}
}
