package ir

import (
	"math"
	"testing"
)

// TestEvalBitwise checks the one definition of the bitwise intrinsics
// against values worked out by hand, and that the simplifier folds
// constants to the same values.
func TestEvalBitwise(t *testing.T) {
	cases := []struct {
		name string
		t    Type
		a, b int64
		want int64
	}{
		{IntrinsicBitAnd, Int32, -1, 12, 12},
		{IntrinsicBitAnd, UInt8, 0xf0, 0x3c, 0x30},
		{IntrinsicBitOr, Int8, -128, 1, -127},
		{IntrinsicBitXor, UInt16, 0xffff, 0x0f0f, 0xf0f0},
		{IntrinsicBitXor, Int16, -1, 5, -6},
		{IntrinsicBitNot, UInt8, 5, 0, 250},
		{IntrinsicBitNot, Int32, 0, 0, -1},
		{IntrinsicBitNot, UInt64, 0, 0, -1}, // 2^64 - 1 as a bit pattern
		{IntrinsicShiftLeft, Int32, 1, 31, math.MinInt32},
		{IntrinsicShiftLeft, Int32, 1, 32, 0},      // past the width: 0
		{IntrinsicShiftLeft, UInt8, 0xff, 4, 0xf0}, // wraps to the type
		{IntrinsicShiftLeft, Int8, 64, -3, 8},      // negative: right
		{IntrinsicShiftLeft, Int8, -64, -100, -1},  // right past the width: the sign
		{IntrinsicShiftRight, Int32, -7, 1, -4},    // arithmetic: floor(-7 / 2)
		{IntrinsicShiftRight, Int32, -7, 40, -1},   // past the width: the sign
		{IntrinsicShiftRight, Int32, 7, 40, 0},
		{IntrinsicShiftRight, UInt32, 0xffffffff, 31, 1},
		{IntrinsicShiftRight, UInt64, -1, 63, 1},          // logical for unsigned
		{IntrinsicShiftRight, UInt64, -1, -1, 0},          // 2^64 - 1 places: all of them
		{IntrinsicShiftRight, Int16, 3, -2, 12},           // negative: left
		{IntrinsicShiftRight, Int64, 1, math.MinInt64, 0}, // -MIN does not overflow
		{IntrinsicShiftLeft, Int64, 3, 0, 3},
	}
	for _, c := range cases {
		if got := EvalBitwise(c.name, c.t, c.a, c.b); got != c.want {
			t.Errorf("%s %v (%d, %d) = %d, want %d", c.name, c.t, c.a, c.b, got, c.want)
		}
		args := []Expr{&IntImm{c.t, c.a}, &IntImm{c.t, c.b}}
		if c.name == IntrinsicBitNot {
			args = args[:1]
		}
		got, ok := Simplify(Bitwise(c.name, args...)).(*IntImm)
		if !ok || got.V != c.want || got.T != c.t {
			t.Errorf("Simplify(%s %v (%d, %d)) = %v, want %d", c.name, c.t, c.a, c.b, got, c.want)
		}
	}
}
