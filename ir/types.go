package ir

import (
	"fmt"
	"math"

	"github.com/gohalide/gohalide/half"
)

// TypeCode is the kind of scalar a Type describes.
type TypeCode uint8

// The scalar kinds.
const (
	IntCode TypeCode = iota
	UIntCode
	FloatCode
	BoolCode
	// BFloatCode is bfloat16: a float32 with the low 16 fraction bits cut
	// off. IsFloat holds for it too (as Halide's is_float does).
	BFloatCode
)

// Type is a scalar type: a kind and a width in bits.
type Type struct {
	Code TypeCode
	Bits uint8
}

// The scalar types the language supports.
var (
	Int8    = Type{IntCode, 8}
	Int16   = Type{IntCode, 16}
	Int32   = Type{IntCode, 32}
	Int64   = Type{IntCode, 64}
	UInt8   = Type{UIntCode, 8}
	UInt16  = Type{UIntCode, 16}
	UInt32  = Type{UIntCode, 32}
	UInt64  = Type{UIntCode, 64}
	Float16 = Type{FloatCode, 16}
	// BFloat16 is bfloat16 (8 exponent bits and 7 fraction bits).
	BFloat16 = Type{BFloatCode, 16}
	Float32  = Type{FloatCode, 32}
	Float64  = Type{FloatCode, 64}
	Bool     = Type{BoolCode, 1}
)

// IsInt reports whether t is a signed integer type.
func (t Type) IsInt() bool { return t.Code == IntCode }

// IsUInt reports whether t is an unsigned integer type.
func (t Type) IsUInt() bool { return t.Code == UIntCode }

// IsIntOrUInt reports whether t is an integer type of either signedness.
func (t Type) IsIntOrUInt() bool { return t.Code == IntCode || t.Code == UIntCode }

// IsFloat reports whether t is a floating-point type (bfloat16 included).
func (t Type) IsFloat() bool { return t.Code == FloatCode || t.Code == BFloatCode }

// IsBFloat reports whether t is bfloat16.
func (t Type) IsBFloat() bool { return t.Code == BFloatCode }

// IsHalf reports whether t is one of the 16-bit float types, Float16 and
// BFloat16, which are stored as 16 bits and computed in float32.
func (t Type) IsHalf() bool { return t.IsFloat() && t.Bits == 16 }

// IsBool reports whether t is the boolean type.
func (t Type) IsBool() bool { return t.Code == BoolCode }

// Bytes is the storage size of one element of t.
func (t Type) Bytes() int {
	if t.Code == BoolCode {
		return 1
	}
	return int(t.Bits) / 8
}

func (t Type) String() string {
	switch t.Code {
	case IntCode:
		return fmt.Sprintf("int%d", t.Bits)
	case UIntCode:
		return fmt.Sprintf("uint%d", t.Bits)
	case FloatCode:
		return fmt.Sprintf("float%d", t.Bits)
	case BFloatCode:
		return fmt.Sprintf("bfloat%d", t.Bits)
	case BoolCode:
		return "bool"
	}
	return fmt.Sprintf("type(%d,%d)", t.Code, t.Bits)
}

// Min returns the smallest value of an integer type t as an int64
// (for uint64 this is 0).
func (t Type) Min() int64 {
	switch {
	case t.IsInt():
		return -1 << (t.Bits - 1)
	default:
		return 0
	}
}

// Max returns the largest value of an integer type t that fits in an int64.
func (t Type) Max() int64 {
	switch {
	case t.IsInt():
		return 1<<(t.Bits-1) - 1
	case t.IsUInt() && t.Bits < 64:
		return 1<<t.Bits - 1
	case t.IsBool():
		return 1
	}
	return 1<<63 - 1
}

// Wrap reduces an integer value to the range of the integer type t with
// two's-complement wrap-around, as the hardware does. Bool values become 0 or 1.
func (t Type) Wrap(v int64) int64 {
	switch t.Code {
	case IntCode, UIntCode:
		if b := t.Bits; b == 8 || b == 16 || b == 32 {
			// Keep the low b bits, extending the sign of an int.
			s := 64 - b
			if t.Code == IntCode {
				return v << s >> s
			}
			return int64(uint64(v) << s >> s)
		}
	case BoolCode:
		if v != 0 {
			return 1
		}
		return 0
	}
	return v
}

// MemoryType says where a Func's storage lives.
type MemoryType uint8

// The memory types. Auto lets the compiler choose (Stack for small constant
// sizes on the CPU, Heap otherwise).
const (
	Auto MemoryType = iota
	Heap
	Stack
	Register
	GPUShared
)

func (m MemoryType) String() string {
	switch m {
	case Auto:
		return "Auto"
	case Heap:
		return "Heap"
	case Stack:
		return "Stack"
	case Register:
		return "Register"
	case GPUShared:
		return "GPUShared"
	}
	return fmt.Sprintf("MemoryType(%d)", m)
}

// ForKind says how a loop's iterations run.
type ForKind uint8

// The loop kinds.
const (
	Serial ForKind = iota
	Parallel
	Vectorized
	Unrolled
	GPUBlock
	GPUThread
)

func (k ForKind) String() string {
	switch k {
	case Serial:
		return "for"
	case Parallel:
		return "parallel"
	case Vectorized:
		return "vectorized"
	case Unrolled:
		return "unrolled"
	case GPUBlock:
		return "gpu_block"
	case GPUThread:
		return "gpu_thread"
	}
	return fmt.Sprintf("ForKind(%d)", k)
}

// FloatToInt is the conversion of a float value to the integer type t on
// every target: truncate toward zero, NaN gives 0, and a value outside t's
// range saturates to its nearest end. The result is t's value as an int64
// (for uint64, its bit pattern). Saturation makes the conversion monotone,
// so the bounds of a cast are the casts of the bounds (Halide assumes the
// same by calling an overflowing conversion undefined).
func FloatToInt(v float64, t Type) int64 {
	switch {
	case v != v:
		return 0
	case t.IsBool():
		if v != 0 {
			return 1
		}
		return 0
	case t.IsUInt() && t.Bits == 64:
		if v <= 0 {
			return 0
		}
		if v >= 1<<64 {
			return -1 // 2^64 - 1
		}
		return int64(uint64(v))
	}
	v = math.Trunc(v)
	if lo := float64(t.Min()); v <= lo {
		return t.Min()
	}
	// float64(t.Max()) rounds 2^63 - 1 up to 2^63.
	if hi := float64(t.Max()); v >= hi {
		return t.Max()
	}
	return int64(v)
}

// MaxFloat is the largest finite value of the float type t: 65504 for
// float16, (2 - 2^-7) * 2^127 for bfloat16, the largest float32 and
// float64.
func (t Type) MaxFloat() float64 {
	switch {
	case t == Float16:
		return 65504
	case t == BFloat16:
		return math.Ldexp(2-math.Ldexp(1, -7), 127)
	case t.Bits == 32:
		return math.MaxFloat32
	}
	return math.MaxFloat64
}

// RoundFloat rounds v to the float type t, as a conversion to t does on
// every target: float64 keeps v; float32 rounds to nearest even; Float16
// and BFloat16 round to float32 first and then to the 16-bit type, to
// nearest even (half.Float16FromFloat64: Halide's conversion where the
// target has no 16-bit float arithmetic). Arithmetic on a float type
// rounds its exact (float64) result this way after every operation, so a
// 16-bit operation computes in float32 and rounds back: for Add, Sub, Mul,
// Div and sqrt of float32 operands the float64 result rounded to float32 is
// the float32 result.
func RoundFloat(t Type, v float64) float64 {
	switch {
	case t == Float16:
		return half.Float16FromFloat64(v).ToFloat64()
	case t == BFloat16:
		return half.BFloat16FromFloat64(v).ToFloat64()
	case t.Bits == 32:
		return float64(float32(v))
	}
	return v
}
