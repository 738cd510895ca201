package ir

import (
	"fmt"
	"math"
)

// TypeCode is the kind of scalar a Type describes.
type TypeCode uint8

// The scalar kinds.
const (
	IntCode TypeCode = iota
	UIntCode
	FloatCode
	BoolCode
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
	Float32 = Type{FloatCode, 32}
	Float64 = Type{FloatCode, 64}
	Bool    = Type{BoolCode, 1}
)

// IsInt reports whether t is a signed integer type.
func (t Type) IsInt() bool { return t.Code == IntCode }

// IsUInt reports whether t is an unsigned integer type.
func (t Type) IsUInt() bool { return t.Code == UIntCode }

// IsIntOrUInt reports whether t is an integer type of either signedness.
func (t Type) IsIntOrUInt() bool { return t.Code == IntCode || t.Code == UIntCode }

// IsFloat reports whether t is a floating-point type.
func (t Type) IsFloat() bool { return t.Code == FloatCode }

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
	case IntCode:
		switch t.Bits {
		case 8:
			return int64(int8(v))
		case 16:
			return int64(int16(v))
		case 32:
			return int64(int32(v))
		}
	case UIntCode:
		switch t.Bits {
		case 8:
			return int64(uint8(v))
		case 16:
			return int64(uint16(v))
		case 32:
			return int64(uint32(v))
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
