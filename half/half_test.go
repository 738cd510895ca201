package half

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// The references below are written independently of half.go: values are
// decoded with math.Ldexp and rounded with math/big at the precision of
// the 16-bit type (big.ToNearestEven), with the subnormal range rounded
// as an integer count of the smallest subnormal.

// refDecode16 is the value of the binary16 bits b (NaNs are reported by ok).
func refDecode16(b uint16) (v float64, nan bool) {
	s, e, f := b>>15, int(b>>10)&31, float64(b&1023)
	switch {
	case e == 31 && f != 0:
		return 0, true
	case e == 31:
		v = math.Inf(1)
	case e == 0:
		v = math.Ldexp(f, -24)
	default:
		v = math.Ldexp(1+f/1024, e-15)
	}
	if s == 1 {
		v = -v
	}
	return v, false
}

// roundEvenInt rounds the non-negative a to an integer, ties to even.
func roundEvenInt(a *big.Float) *big.Int {
	i, _ := a.Int(nil) // truncates
	frac := new(big.Float).Sub(a, new(big.Float).SetInt(i))
	switch frac.Cmp(big.NewFloat(0.5)) {
	case 1:
		i.Add(i, big.NewInt(1))
	case 0:
		if i.Bit(0) == 1 {
			i.Add(i, big.NewInt(1))
		}
	}
	return i
}

// refRound returns the bits of x rounded to a binary format with expBits
// exponent bits and fracBits fraction bits (ties to even), for finite x.
func refRound(x float64, expBits, fracBits int) uint64 {
	sign := uint64(0)
	if math.Signbit(x) {
		sign = 1 << (expBits + fracBits)
	}
	a := new(big.Float).SetFloat64(math.Abs(x))
	bias := 1<<(expBits-1) - 1
	minExp := 1 - bias // of the smallest normal
	maxFinite := new(big.Float).SetMantExp(big.NewFloat(2-math.Ldexp(1, -fracBits)), bias)
	inf := sign | uint64(1<<expBits-1)<<fracBits
	if a.Cmp(new(big.Float).SetMantExp(big.NewFloat(1), minExp)) < 0 {
		// Subnormal range: a count of 2^(minExp-fracBits).
		q := roundEvenInt(new(big.Float).SetMantExp(a, fracBits-minExp))
		return sign | q.Uint64() // 1 << fracBits is the smallest normal
	}
	r := new(big.Float).SetPrec(uint(fracBits + 1)).SetMode(big.ToNearestEven).Set(a)
	if r.Cmp(maxFinite) > 0 {
		return inf
	}
	mant := new(big.Float)
	e := r.MantExp(mant) // r = mant * 2^e, mant in [0.5, 1)
	m, _ := new(big.Float).SetMantExp(mant, fracBits+1).Int64()
	return sign | uint64(e-1+bias)<<fracBits | uint64(m)&(1<<fracBits-1)
}

func TestFloat16ToFloat32Every(t *testing.T) {
	for b := 0; b < 1<<16; b++ {
		h := Float16(b)
		got := h.ToFloat32()
		want, nan := refDecode16(uint16(b))
		if nan {
			// Sign and payload move to the top of the float32 fraction.
			wantBits := uint32(b&0x8000)<<16 | 0x7fc00000 | uint32(b&0x3ff)<<13
			if math.Float32bits(got) != wantBits || !h.IsNaN() {
				t.Fatalf("%#04x: got %#08x, want NaN %#08x", b, math.Float32bits(got), wantBits)
			}
			continue
		}
		if math.Float32bits(got) != math.Float32bits(float32(want)) || h.IsNaN() {
			t.Fatalf("%#04x: got %v (%#08x), want %v", b, got, math.Float32bits(got), want)
		}
		// And back: every value of the type converts to itself.
		if back := Float16FromFloat32(got); back != h {
			t.Fatalf("%#04x: %v converts back to %#04x", b, got, uint16(back))
		}
	}
}

func TestBFloat16ToFloat32Every(t *testing.T) {
	for b := 0; b < 1<<16; b++ {
		h := BFloat16(b)
		got := h.ToFloat32()
		s, e, f := b>>15, b>>7&255, float64(b&127)
		var want float64
		switch {
		case e == 255 && f != 0:
			if want := uint32(b)<<16 | 0x400000; math.Float32bits(got) != want || !h.IsNaN() {
				t.Fatalf("%#04x: got %#08x, want the quiet NaN %#08x", b, math.Float32bits(got), want)
			}
			continue
		case e == 255:
			want = math.Inf(1)
		case e == 0:
			want = math.Ldexp(f, -133)
		default:
			want = math.Ldexp(1+f/128, e-127)
		}
		if s == 1 {
			want = -want
		}
		if math.Float32bits(got) != math.Float32bits(float32(want)) || h.IsNaN() {
			t.Fatalf("%#04x: got %v, want %v", b, got, want)
		}
		if back := BFloat16FromFloat32(got); back != h {
			t.Fatalf("%#04x: %v converts back to %#04x", b, got, uint16(back))
		}
	}
}

// spread32 is float32 inputs for the rounding tests: every value of the
// 16-bit type with the given layout, the midpoints between neighbours
// (ties), one float32 ulp either side of each midpoint, the float32
// subnormals' ends, the infinities, zeros and random bit patterns.
func spread32(decode func(uint16) (float64, bool)) []float32 {
	var xs []float32
	prev := math.NaN()
	for b := 0; b < 0x8000; b++ {
		v, nan := decode(uint16(b))
		if nan || math.IsInf(v, 0) {
			continue
		}
		xs = append(xs, float32(v), -float32(v))
		if !math.IsNaN(prev) {
			mid := float32((prev + v) / 2) // exact: one bit more than the type
			for _, m := range []float32{mid, math.Nextafter32(mid, 0), math.Nextafter32(mid, float32(math.Inf(1)))} {
				xs = append(xs, m, -m)
			}
		}
		prev = v
	}
	xs = append(xs, float32(math.Inf(1)), float32(math.Inf(-1)), math.MaxFloat32, -math.MaxFloat32,
		math.SmallestNonzeroFloat32, -math.SmallestNonzeroFloat32, math.Float32frombits(0x007fffff), math.Float32frombits(0x00800000),
		65504, 65519.99, 65520, 65536, 1e10, 3.3895314e38, 3.4e38, float32(math.Copysign(0, -1)))
	r := rand.New(rand.NewPCG(1, 2))
	for range 200000 {
		xs = append(xs, math.Float32frombits(r.Uint32()))
	}
	return xs
}

func TestFloat16FromFloat32Spread(t *testing.T) {
	for _, x := range spread32(refDecode16) {
		got := Float16FromFloat32(x)
		if math.IsNaN(float64(x)) {
			b := math.Float32bits(x)
			want := uint16(b>>16)&0x8000 | 0x7e00 | uint16(b>>13)&0x3ff
			if uint16(got) != want {
				t.Fatalf("NaN %#08x: got %#04x, want %#04x", b, uint16(got), want)
			}
			continue
		}
		want := uint16(refRound(float64(x), 5, 10))
		if uint16(got) != want {
			t.Fatalf("%v (%#08x): got %#04x, want %#04x", x, math.Float32bits(x), uint16(got), want)
		}
	}
}

func TestBFloat16FromFloat32Spread(t *testing.T) {
	decode := func(b uint16) (float64, bool) {
		f := BFloat16(b).ToFloat32()
		return float64(f), math.IsNaN(float64(f))
	}
	for _, x := range spread32(decode) {
		got := BFloat16FromFloat32(x)
		if math.IsNaN(float64(x)) {
			b := math.Float32bits(x)
			want := uint16(b>>16) | 0x40
			if uint16(got) != want {
				t.Fatalf("NaN %#08x: got %#04x, want %#04x", b, uint16(got), want)
			}
			continue
		}
		want := uint16(refRound(float64(x), 8, 7))
		if uint16(got) != want {
			t.Fatalf("%v (%#08x): got %#04x, want %#04x", x, math.Float32bits(x), uint16(got), want)
		}
	}
}

func TestFromFloat64RoundsThroughFloat32(t *testing.T) {
	// 1 + 2^-11 is the tie between 1 and the next Float16; a float64 just
	// above it rounds to float32 1 + 2^-11 (the tie), and then to even: 1.
	x := 1 + math.Ldexp(1, -11) + math.Ldexp(1, -40)
	if got := Float16FromFloat64(x); got != 0x3c00 {
		t.Errorf("Float16FromFloat64(%v) = %#04x, want 0x3c00 (through float32)", x, uint16(got))
	}
	if got := BFloat16FromFloat64(1 + math.Ldexp(1, -8) + math.Ldexp(1, -40)); got != 0x3f80 {
		t.Errorf("BFloat16FromFloat64 = %#04x, want 0x3f80 (through float32)", uint16(got))
	}
}

func TestString(t *testing.T) {
	for _, c := range []struct {
		got, want string
	}{
		{Float16FromFloat32(0.1).String(), "0.099975586"},
		{Float16FromFloat32(65504).String(), "65504"},
		{Float16FromFloat32(1e6).String(), "+Inf"},
		{Float16FromBits(0x0001).String(), "5.9604645e-08"},
		{BFloat16FromFloat32(3.14159).String(), "3.140625"},
		{BFloat16FromFloat32(float32(math.NaN())).String(), "NaN"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}
