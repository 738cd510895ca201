package types_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// The 16-bit float conversions, bit for bit, on the CPU and on the GPU
// emulator: every one of the 65536 bit patterns of Float16 and BFloat16
// to float32 (and to the other 16-bit type), and a spread of float32
// values to each (every value of the type, the ties between neighbours,
// one float32 ulp either side of each tie, float32 subnormals, the
// infinities, NaNs with payloads, and random bit patterns). The reference
// decodes with math.Ldexp and rounds with math/big (ref16); a NaN keeps
// its sign and (the high bits of) its payload and becomes quiet, as
// docs/design.md states.

// decode16 is the value of the bits b of a format with e exponent and m
// fraction bits, and whether it is a NaN.
func decode16(b uint16, e, m int) (float64, bool) {
	sign, exp, frac := b>>15, int(b>>m)&(1<<e-1), float64(b&(1<<m-1))
	bias := 1<<(e-1) - 1
	var x float64
	switch {
	case exp == 1<<e-1 && frac != 0:
		return math.NaN(), true
	case exp == 1<<e-1:
		x = math.Inf(1)
	case exp == 0:
		x = math.Ldexp(frac, 1-bias-m)
	default:
		x = math.Ldexp(1+math.Ldexp(frac, -m), exp-bias)
	}
	if sign == 1 {
		x = -x
	}
	return x, false
}

// nanTo16 is the bits a float32 NaN converts to: its sign, the quiet bit
// and the high bits of its payload.
func nanTo16(b uint32, bfloat bool) uint16 {
	if bfloat {
		return uint16(b>>16) | 0x0040
	}
	return uint16(b>>16)&0x8000 | 0x7e00 | uint16(b>>13)&0x3ff
}

// nanTo32 is the float32 bits of the 16-bit NaN b: quiet, with its sign
// and payload.
func nanTo32(b uint16, bfloat bool) uint32 {
	if bfloat {
		return uint32(b)<<16 | 0x400000
	}
	return uint32(b&0x8000)<<16 | 0x7fc00000 | uint32(b&0x3ff)<<13
}

type halfFormat struct {
	t      halide.Type
	e, m   int
	bfloat bool
}

var halfFormats = []halfFormat{{halide.Float16, 5, 10, false}, {halide.BFloat16, 8, 7, true}}

// halfBits makes a buffer of every bit pattern of the 16-bit type t.
func halfBits(t halide.Type) halide.BufferRef {
	if t == halide.Float16 {
		b := halide.NewBuffer[halide.F16](1 << 16)
		for i := range b.Data() {
			b.Data()[i] = halide.F16(i)
		}
		return b
	}
	b := halide.NewBuffer[halide.BF16](1 << 16)
	for i := range b.Data() {
		b.Data()[i] = halide.BF16(i)
	}
	return b
}

// bitsOf reads the bits of a 16-bit float buffer.
func bitsOf(b halide.BufferRef) []uint16 {
	var out []uint16
	switch b := b.(type) {
	case *halide.Buffer[halide.F16]:
		for _, x := range b.Data() {
			out = append(out, x.Bits())
		}
	case *halide.Buffer[halide.BF16]:
		for _, x := range b.Data() {
			out = append(out, x.Bits())
		}
	}
	return out
}

// convert realizes out(x) = Cast(to, in(x)) on the CPU and each GPU
// target.
func convert(t *testing.T, from, to halide.Type, in halide.BufferRef, mkOut func() halide.BufferRef) []halide.BufferRef {
	t.Helper()
	var outs []halide.BufferRef
	for k := 0; k <= len(gpuTargets); k++ {
		x := halide.NewVar("x")
		ip := halide.NewImageParam("in", from, 1)
		ip.Set(in)
		f := halide.NewFunc("f")
		f.Define(x).Is(halide.Cast(to, ip.At(x)))
		p := halide.NewPipeline(f)
		if k > 0 {
			f.GPUTile1D(x, halide.NewVar("bx"), halide.NewVar("tx"), 256, halide.GuardWithIf)
			p = p.WithTarget(gpuTargets[k-1])
		}
		out := mkOut()
		if err := p.Realize(out); err != nil {
			t.Fatalf("%v to %v (%s): %v", from, to, targetName(k), err)
		}
		outs = append(outs, out)
	}
	return outs
}

func TestHalfToFloat32EveryBitPattern(t *testing.T) {
	for _, hf := range halfFormats {
		t.Run(hf.t.String(), func(t *testing.T) {
			outs := convert(t, hf.t, halide.Float32, halfBits(hf.t), func() halide.BufferRef { return halide.NewBuffer[float32](1 << 16) })
			for k, out := range outs {
				got := out.(*halide.Buffer[float32]).Data()
				bad := 0
				for b := 0; b < 1<<16; b++ {
					x, nan := decode16(uint16(b), hf.e, hf.m)
					want := math.Float32bits(float32(x))
					if nan {
						want = nanTo32(uint16(b), hf.bfloat)
					}
					if g := math.Float32bits(got[b]); g != want && bad < 5 {
						bad++
						t.Errorf("%s: %v(%#04x) = %#08x, want %#08x", targetName(k), hf.t, b, g, want)
					}
				}
			}
		})
	}
}

// spread is the float32 inputs of the rounding test for a format.
func spread(hf halfFormat) []float32 {
	var xs []float32
	prev := math.NaN()
	for b := 0; b < 0x8000; b++ {
		x, nan := decode16(uint16(b), hf.e, hf.m)
		if nan || math.IsInf(x, 0) {
			continue
		}
		xs = append(xs, float32(x), -float32(x))
		if !math.IsNaN(prev) {
			mid := float32((prev + x) / 2) // exact: the format has fewer bits than float32
			for _, m := range []float32{mid, math.Nextafter32(mid, 0), math.Nextafter32(mid, float32(math.Inf(1)))} {
				xs = append(xs, m, -m)
			}
		}
		prev = x
	}
	xs = append(xs, float32(math.Inf(1)), float32(math.Inf(-1)), math.MaxFloat32, -math.MaxFloat32,
		math.SmallestNonzeroFloat32, math.Float32frombits(0x007fffff), math.Float32frombits(0x80400001),
		math.Float32frombits(0x7fc00000), math.Float32frombits(0xffc00001), math.Float32frombits(0x7f800001), math.Float32frombits(0x7fbfffff),
		65504, 65519.996, 65520, 65536, 3.3895314e38, 3.3961775e38, 3.3961778e38)
	r := rand.New(rand.NewPCG(20, 991))
	for range 100000 {
		xs = append(xs, math.Float32frombits(r.Uint32()))
	}
	return xs
}

func TestFloat32ToHalfSpread(t *testing.T) {
	for _, hf := range halfFormats {
		t.Run(hf.t.String(), func(t *testing.T) {
			xs := spread(hf)
			in := halide.NewBuffer[float32](len(xs))
			copy(in.Data(), xs)
			outs := convert(t, halide.Float32, hf.t, in, func() halide.BufferRef { return newBuf(hf.t, make([]v, len(xs))) })
			for k, out := range outs {
				got := bitsOf(out)
				bad := 0
				for i, x := range xs {
					var want uint16
					if x != x {
						want = nanTo16(math.Float32bits(x), hf.bfloat)
					} else {
						want = encode16(ref16(x, hf.e, hf.m), hf.e, hf.m)
					}
					if got[i] != want && bad < 5 {
						bad++
						t.Errorf("%s: %v(%v = %#08x) = %#04x, want %#04x", targetName(k), hf.t, x, math.Float32bits(x), got[i], want)
					}
				}
			}
		})
	}
}

// encode16 is the bits of the value x of the format (x is one of its
// values, not a NaN): found by search over the decoded patterns.
func encode16(x float64, e, m int) uint16 {
	var sign uint16
	if math.Signbit(x) {
		sign, x = 0x8000, -x
	}
	lo, hi := 0, 1<<(e+m) // positive patterns, ordered by value up to infinity
	for lo < hi {
		mid := (lo + hi) / 2
		if d, _ := decode16(uint16(mid), e, m); d < x {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return sign | uint16(lo)
}

// TestHalfToHalfEveryBitPattern converts every Float16 to BFloat16 and
// back: through float32 (exact), then rounded to nearest even.
func TestHalfToHalfEveryBitPattern(t *testing.T) {
	for i, from := range halfFormats {
		to := halfFormats[1-i]
		t.Run(from.t.String(), func(t *testing.T) {
			outs := convert(t, from.t, to.t, halfBits(from.t), func() halide.BufferRef { return newBuf(to.t, make([]v, 1<<16)) })
			for k, out := range outs {
				got := bitsOf(out)
				bad := 0
				for b := 0; b < 1<<16; b++ {
					x, nan := decode16(uint16(b), from.e, from.m)
					var want uint16
					if nan {
						want = nanTo16(nanTo32(uint16(b), from.bfloat), to.bfloat)
					} else {
						want = encode16(ref16(float32(x), to.e, to.m), to.e, to.m)
					}
					if got[b] != want && bad < 5 {
						bad++
						t.Errorf("%s: %v(%v %#04x) = %#04x, want %#04x", targetName(k), to.t, from.t, b, got[b], want)
					}
				}
			}
		})
	}
}
