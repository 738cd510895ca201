package half

import (
	"math"
	"strconv"
)

// Float16 is an IEEE 754 binary16 value, held as its bits.
type Float16 uint16

// BFloat16 is a bfloat16 value (the high 16 bits of a float32), held as
// its bits.
type BFloat16 uint16

// Float16FromBits returns the Float16 whose bits are b.
func Float16FromBits(b uint16) Float16 { return Float16(b) }

// Bits returns the bits of h.
func (h Float16) Bits() uint16 { return uint16(h) }

// BFloat16FromBits returns the BFloat16 whose bits are b.
func BFloat16FromBits(b uint16) BFloat16 { return BFloat16(b) }

// Bits returns the bits of h.
func (h BFloat16) Bits() uint16 { return uint16(h) }

// Float16FromFloat32 rounds f to the nearest Float16, ties to even.
func Float16FromFloat32(f float32) Float16 {
	b := math.Float32bits(f)
	sign := uint16(b>>16) & 0x8000
	exp := int(b>>23) & 0xff
	frac := b & 0x7fffff
	switch {
	case exp == 0xff && frac != 0: // NaN: quiet, the payload's high bits
		return Float16(sign | 0x7e00 | uint16(frac>>13))
	case exp == 0xff: // infinity
		return Float16(sign | 0x7c00)
	case exp >= 127+16: // 2^16 and more: beyond 65504 + half an ulp
		return Float16(sign | 0x7c00)
	case exp >= 127-14: // a normal Float16 (or rounds up to infinity)
		h := uint32(exp-127+15)<<10 | frac>>13
		rem := frac & 0x1fff
		if rem > 0x1000 || rem == 0x1000 && h&1 != 0 {
			h++ // a carry out of the fraction bumps the exponent
		}
		return Float16(sign | uint16(h))
	case exp < 127-25: // below 2^-25, half the smallest subnormal
		return Float16(sign)
	}
	// A Float16 subnormal, in units of 2^-24: the 24-bit significand
	// m * 2^(exp-150) is m >> (126-exp) units (shift in [14, 24]).
	m := frac | 0x800000
	shift := uint(126 - exp)
	q := m >> shift
	rem, half := m&(1<<shift-1), uint32(1)<<(shift-1)
	if rem > half || rem == half && q&1 != 0 {
		q++ // may carry into the smallest normal, 0x0400
	}
	return Float16(sign | uint16(q))
}

// ToFloat32 returns h as a float32 (exactly; a NaN becomes quiet).
func (h Float16) ToFloat32() float32 {
	sign := uint32(h&0x8000) << 16
	exp := uint32(h>>10) & 0x1f
	frac := uint32(h) & 0x3ff
	switch {
	case exp == 0x1f && frac != 0: // NaN: quiet, with the payload
		return math.Float32frombits(sign | 0x7fc00000 | frac<<13)
	case exp == 0x1f:
		return math.Float32frombits(sign | 0x7f800000)
	case exp == 0 && frac == 0:
		return math.Float32frombits(sign)
	case exp == 0: // subnormal: frac * 2^-24, normalized
		e := uint32(127 - 14)
		for frac&0x400 == 0 {
			frac <<= 1
			e--
		}
		return math.Float32frombits(sign | e<<23 | (frac&0x3ff)<<13)
	}
	return math.Float32frombits(sign | (exp-15+127)<<23 | frac<<13)
}

// Float16FromFloat64 rounds f to float32 and then to the nearest Float16
// (Halide's conversion).
func Float16FromFloat64(f float64) Float16 { return Float16FromFloat32(float32(f)) }

// ToFloat64 returns h as a float64 (exactly).
func (h Float16) ToFloat64() float64 { return float64(h.ToFloat32()) }

// IsNaN reports whether h is a NaN.
func (h Float16) IsNaN() bool { return h&0x7c00 == 0x7c00 && h&0x3ff != 0 }

// String formats h as its float32 value is formatted (the shortest decimal
// that identifies it among float32s).
func (h Float16) String() string { return strconv.FormatFloat(float64(h.ToFloat32()), 'g', -1, 32) }

// BFloat16FromFloat32 rounds f to the nearest BFloat16, ties to even.
func BFloat16FromFloat32(f float32) BFloat16 {
	b := math.Float32bits(f)
	if b&0x7f800000 == 0x7f800000 && b&0x7fffff != 0 { // NaN: quiet, the payload's high bits
		return BFloat16(uint16(b>>16) | 0x0040)
	}
	// Add just under half an ulp, plus one for an odd result (ties to
	// even), then truncate; a carry bumps the exponent, up to infinity.
	b += 0x7fff + (b>>16)&1
	return BFloat16(b >> 16)
}

// ToFloat32 returns h as a float32 (exactly; a NaN becomes quiet).
func (h BFloat16) ToFloat32() float32 {
	if h.IsNaN() {
		return math.Float32frombits(uint32(h)<<16 | 0x400000)
	}
	return math.Float32frombits(uint32(h) << 16)
}

// BFloat16FromFloat64 rounds f to float32 and then to the nearest
// BFloat16 (Halide's conversion).
func BFloat16FromFloat64(f float64) BFloat16 { return BFloat16FromFloat32(float32(f)) }

// ToFloat64 returns h as a float64 (exactly).
func (h BFloat16) ToFloat64() float64 { return float64(h.ToFloat32()) }

// IsNaN reports whether h is a NaN.
func (h BFloat16) IsNaN() bool { return h&0x7f80 == 0x7f80 && h&0x7f != 0 }

// String formats h as its float32 value is formatted (the shortest decimal
// that identifies it among float32s).
func (h BFloat16) String() string { return strconv.FormatFloat(float64(h.ToFloat32()), 'g', -1, 32) }
