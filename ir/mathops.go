package ir

import (
	"math"
	"math/bits"
)

// More math intrinsics: trigonometric and hyperbolic functions, the float
// classifications, bit counts and reinterpretation. Their one definition
// is here (the tables and functions below, which constant folding and the
// CPU executor call and the C-family printer reproduces).
//
//   - sin ... tanh, asinh, acosh, atanh and atan2 are the float64 functions of Go's math
//     package, the result rounded to the call's float type, as for exp
//     and log: the float32 forms are computed in double precision.
//   - is_nan, is_inf and is_finite take a float and are bool.
//   - popcount, count_leading_zeros and count_trailing_zeros take an
//     integer and have its type; the counts are of its bits (a zero has
//     as many leading and trailing zeros as the type has bits), as in
//     Halide.
//   - reinterpret(x) has the call's type, an integer or float type of as
//     many bits as x's: the same bits read as that type.

// The intrinsics.
const (
	IntrinsicSin   = "sin"
	IntrinsicCos   = "cos"
	IntrinsicTan   = "tan"
	IntrinsicAsin  = "asin"
	IntrinsicAcos  = "acos"
	IntrinsicAtan  = "atan"
	IntrinsicSinh  = "sinh"
	IntrinsicCosh  = "cosh"
	IntrinsicTanh  = "tanh"
	IntrinsicAtan2 = "atan2"
	IntrinsicAsinh = "asinh"
	IntrinsicAcosh = "acosh"
	IntrinsicAtanh = "atanh"

	// IntrinsicTrunc rounds toward zero (C's trunc), keeping -0, NaN
	// and the infinities.
	IntrinsicTrunc = "trunc"

	IntrinsicIsNaN    = "is_nan"
	IntrinsicIsInf    = "is_inf"
	IntrinsicIsFinite = "is_finite"

	IntrinsicPopcount           = "popcount"
	IntrinsicCountLeadingZeros  = "count_leading_zeros"
	IntrinsicCountTrailingZeros = "count_trailing_zeros"

	IntrinsicReinterpret = "reinterpret"
)

// FloatMath1 are the float math intrinsics of one float argument, as the
// executors compute them (in float64; the caller rounds to the call's
// type). It includes the older ones (sqrt, exp, log, floor, ceil, round).
var FloatMath1 = map[string]func(float64) float64{
	IntrinsicSqrt: math.Sqrt, IntrinsicExp: math.Exp, IntrinsicLog: math.Log,
	IntrinsicFloor: math.Floor, IntrinsicCeil: math.Ceil, IntrinsicRound: math.RoundToEven,
	IntrinsicSin: math.Sin, IntrinsicCos: math.Cos, IntrinsicTan: math.Tan,
	IntrinsicAsin: math.Asin, IntrinsicAcos: math.Acos, IntrinsicAtan: math.Atan,
	IntrinsicSinh: math.Sinh, IntrinsicCosh: math.Cosh, IntrinsicTanh: math.Tanh,
	IntrinsicAsinh: math.Asinh, IntrinsicAcosh: math.Acosh, IntrinsicAtanh: math.Atanh,
	IntrinsicTrunc: math.Trunc,
}

// FloatMath2 are the float math intrinsics of two float arguments.
var FloatMath2 = map[string]func(float64, float64) float64{
	IntrinsicPow: math.Pow, IntrinsicAtan2: math.Atan2,
}

// FloatClass are the float classifications: bool intrinsics of a float.
var FloatClass = map[string]func(float64) bool{
	IntrinsicIsNaN:    math.IsNaN,
	IntrinsicIsInf:    func(v float64) bool { return math.IsInf(v, 0) },
	IntrinsicIsFinite: func(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) },
}

// IsBitCount reports whether name is popcount or a leading or trailing
// zero count.
func IsBitCount(name string) bool {
	switch name {
	case IntrinsicPopcount, IntrinsicCountLeadingZeros, IntrinsicCountTrailingZeros:
		return true
	}
	return false
}

// EvalBitCount computes the bit count name of a, a value of integer type t
// carried as in EvalBitwise; the result is of type t.
func EvalBitCount(name string, t Type, a int64) int64 {
	u := uint64(a)
	if t.Bits < 64 {
		u &= 1<<uint(t.Bits) - 1
	}
	switch name {
	case IntrinsicPopcount:
		return int64(bits.OnesCount64(u))
	case IntrinsicCountLeadingZeros:
		return int64(bits.LeadingZeros64(u) - (64 - int(t.Bits)))
	case IntrinsicCountTrailingZeros:
		if u == 0 {
			return int64(t.Bits)
		}
		return int64(bits.TrailingZeros64(u))
	}
	panic("ir.EvalBitCount: not a bit count: " + name)
}

// CanReinterpret reports whether a value of type from can be read as type
// to: both integer or float types (not bool) of the same width.
func CanReinterpret(from, to Type) bool {
	return !from.IsBool() && !to.IsBool() && from.Bits == to.Bits && (from.Bits == 32 || from.Bits == 64 || !from.IsFloat() && !to.IsFloat())
}

// BitsOf returns the bits of a value of type t as the executors carry it
// (an integer as int64, its bit pattern for uint64; a float as float64),
// zero-extended to 64 bits.
func BitsOf(t Type, i int64, f float64) uint64 {
	switch {
	case t == Float32:
		return uint64(math.Float32bits(float32(f)))
	case t == Float64:
		return math.Float64bits(f)
	case t.Bits < 64:
		return uint64(i) & (1<<uint(t.Bits) - 1)
	}
	return uint64(i)
}

// FromBits returns the value of type t whose bits are b, carried as the
// executors carry it: an integer (wrapped to t) or a float.
func FromBits(t Type, b uint64) (int64, float64) {
	switch t {
	case Float32:
		return 0, float64(math.Float32frombits(uint32(b)))
	case Float64:
		return 0, math.Float64frombits(b)
	}
	return t.Wrap(int64(b)), 0
}
