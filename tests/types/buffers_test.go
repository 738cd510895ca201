package types_test

import (
	"math"

	"github.com/gohalide/gohalide/halide"
)

// newBuf makes a 1-D buffer of type t holding xs.
func newBuf(t halide.Type, xs []v) halide.BufferRef {
	n := len(xs)
	switch t {
	case halide.Int8:
		return fill(halide.NewBuffer[int8](n), xs, func(x v) int8 { return int8(x.i) })
	case halide.Int16:
		return fill(halide.NewBuffer[int16](n), xs, func(x v) int16 { return int16(x.i) })
	case halide.Int32:
		return fill(halide.NewBuffer[int32](n), xs, func(x v) int32 { return int32(x.i) })
	case halide.Int64:
		return fill(halide.NewBuffer[int64](n), xs, func(x v) int64 { return x.i })
	case halide.UInt8:
		return fill(halide.NewBuffer[uint8](n), xs, func(x v) uint8 { return uint8(x.i) })
	case halide.UInt16:
		return fill(halide.NewBuffer[uint16](n), xs, func(x v) uint16 { return uint16(x.i) })
	case halide.UInt32:
		return fill(halide.NewBuffer[uint32](n), xs, func(x v) uint32 { return uint32(x.i) })
	case halide.UInt64:
		return fill(halide.NewBuffer[uint64](n), xs, func(x v) uint64 { return uint64(x.i) })
	case halide.Float16:
		return fill(halide.NewBuffer[halide.F16](n), xs, func(x v) halide.F16 { return halide.F16FromFloat32(float32(x.f)) })
	case halide.BFloat16:
		return fill(halide.NewBuffer[halide.BF16](n), xs, func(x v) halide.BF16 { return halide.BF16FromFloat32(float32(x.f)) })
	case halide.Float32:
		return fill(halide.NewBuffer[float32](n), xs, func(x v) float32 { return float32(x.f) })
	case halide.Float64:
		return fill(halide.NewBuffer[float64](n), xs, func(x v) float64 { return x.f })
	case halide.Bool:
		return fill(halide.NewBuffer[bool](n), xs, func(x v) bool { return x.i != 0 })
	}
	panic(t)
}

func fill[T halide.Number](b *halide.Buffer[T], xs []v, conv func(v) T) *halide.Buffer[T] {
	for i, x := range xs {
		b.Data()[i] = conv(x)
	}
	return b
}

// values reads a buffer back.
func values(b halide.BufferRef) []v {
	switch b := b.(type) {
	case *halide.Buffer[int8]:
		return read(b, func(x int8) v { return v{i: int64(x)} })
	case *halide.Buffer[int16]:
		return read(b, func(x int16) v { return v{i: int64(x)} })
	case *halide.Buffer[int32]:
		return read(b, func(x int32) v { return v{i: int64(x)} })
	case *halide.Buffer[int64]:
		return read(b, func(x int64) v { return v{i: x} })
	case *halide.Buffer[uint8]:
		return read(b, func(x uint8) v { return v{i: int64(x)} })
	case *halide.Buffer[uint16]:
		return read(b, func(x uint16) v { return v{i: int64(x)} })
	case *halide.Buffer[uint32]:
		return read(b, func(x uint32) v { return v{i: int64(x)} })
	case *halide.Buffer[uint64]:
		return read(b, func(x uint64) v { return v{i: int64(x)} })
	case *halide.Buffer[halide.F16]:
		return read(b, func(x halide.F16) v { return v{f: float64(x.ToFloat32())} })
	case *halide.Buffer[halide.BF16]:
		return read(b, func(x halide.BF16) v { return v{f: float64(x.ToFloat32())} })
	case *halide.Buffer[float32]:
		return read(b, func(x float32) v { return v{f: float64(x)} })
	case *halide.Buffer[float64]:
		return read(b, func(x float64) v { return v{f: x} })
	case *halide.Buffer[bool]:
		return read(b, func(x bool) v { return v{i: b2i(x)} })
	}
	panic("unknown buffer")
}

func read[T halide.Number](b *halide.Buffer[T], conv func(T) v) []v {
	out := make([]v, len(b.Data()))
	for i, x := range b.Data() {
		out[i] = conv(x)
	}
	return out
}

// samples are the test values of type t: its ends, zeros, small values
// of both signs, and for floats halves, infinities, NaN, values beyond the
// 16-bit ranges and subnormals, each a value of t.
func samples(t halide.Type) []v {
	if t == halide.Bool {
		return []v{{i: 0}, {i: 1}}
	}
	if t.IsFloat() {
		fs := []float64{0, math.Copysign(0, -1), 1, -1, 2, -3, 0.5, -2.5, 3.75, 7, 100.25, -1000, 65504, 65519, 65520, -70000,
			1e10, -3e9, 3e38, 1e-5, -6e-8, 1e-30, math.Inf(1), math.Inf(-1), math.NaN(), 0.1, 1.0 / 3, 255.5, 2147483648}
		out := make([]v, len(fs))
		for i, f := range fs {
			out[i] = v{f: roundTo(t, f)}
		}
		return out
	}
	is := []int64{0, 1, -1, 2, -2, 3, -3, 7, -7, 100, -128, 127, 255, 256, 65535, -32768, 1 << 31, -1 << 31, 1<<31 - 1, 1 << 40, -1 << 62,
		t.Min(), t.Max(), 0x5A5A5A5A5A5A5A5A}
	if t == halide.UInt64 {
		is = append(is, -1, math.MinInt64) // 2^64 - 1, 2^63
	}
	out := make([]v, len(is))
	for i, x := range is {
		out[i] = v{i: wrapBig(t, bigOf(halide.Int64, x))}
	}
	return out
}
