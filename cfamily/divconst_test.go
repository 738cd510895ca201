package cfamily

import (
	"math"
	"math/big"
	"math/rand"
	"testing"
)

// rn24 rounds an exact big.Float to float32, ties to even.
func rn24(x *big.Float) float32 {
	f, _ := new(big.Float).SetPrec(24).SetMode(big.ToNearestEven).Set(x).Float32()
	return f
}

// divcExact is gh_divc_f32 computed with big.Float, every operation
// rounded once to float32: an implementation independent of
// divConstStep's float64 shortcuts.
func divcExact(x, c, rc float32) float32 {
	big64 := func(v float32) *big.Float { return new(big.Float).SetPrec(200).SetFloat64(float64(v)) }
	q := rn24(new(big.Float).SetPrec(200).Mul(big64(x), big64(rc)))
	p := new(big.Float).SetPrec(200).Mul(big64(-q), big64(c))
	rem := rn24(p.Add(p, big64(x)))
	s := new(big.Float).SetPrec(200).Mul(big64(rem), big64(rc))
	return rn24(s.Add(s, big64(q)))
}

// quoExact is x / c correctly rounded to float32.
func quoExact(x, c float32) float32 {
	return rn24(new(big.Float).SetPrec(200).Quo(new(big.Float).SetFloat64(float64(x)), new(big.Float).SetFloat64(float64(c))))
}

// Where divConstExact accepts a divisor for a range, gh_divc_f32 (computed
// independently, with big.Float) gives the correctly rounded quotient at
// every integer of the range checked here: all of them for the divisors
// that image pipelines use, a random sample for random divisors.
func TestDivConstExact(t *testing.T) {
	type rng struct{ lo, hi int64 }
	u8, u16, i16 := rng{0, 255}, rng{0, 65535}, rng{-32768, 32767}
	full := []float32{65535, 255, 1023, 4095, 3, 10, 0.3}
	r := rand.New(rand.NewSource(1))
	var random []float32
	for i := 0; i < 40; i++ {
		random = append(random, float32(math.Exp(r.Float64()*60-30))*float32(1-2*r.Intn(2)))
		random = append(random, float32(r.Intn(1<<20)+1))
	}
	accepted := 0
	check := func(c float32, g rng, sample bool) {
		rc, ok := divConstExact(c, g.lo, g.hi)
		if !ok {
			t.Logf("refused: x / %v for x in [%d, %d]", c, g.lo, g.hi)
			return
		}
		accepted++
		if want := quoExact(1, c); math.Float32bits(rc) != math.Float32bits(want) {
			t.Errorf("x / %v: reciprocal %v, want %v", c, rc, want)
		}
		for n := g.lo; n <= g.hi; n++ {
			if sample && r.Intn(64) != 0 && n != g.lo && n != g.hi {
				continue
			}
			x := float32(n)
			if got, want := divcExact(x, c, rc), quoExact(x, c); math.Float32bits(got) != math.Float32bits(want) {
				t.Fatalf("%v / %v: gh_divc_f32 gives %v (bits %#x), the division %v (bits %#x)", x, c, got, math.Float32bits(got), want, math.Float32bits(want))
			}
		}
	}
	for _, c := range full {
		check(c, u8, false)
		check(c, u16, false)
		check(-c, i16, true)
	}
	for _, c := range random {
		check(c, u16, true)
	}
	if _, ok := divConstExact(65535, 0, 65535); !ok {
		t.Errorf("x / 65535 for a uint16 x is not accepted")
	}
	if accepted < len(full)*3 {
		t.Errorf("only %d of the checks were accepted", accepted)
	}
	// Out of what it checks: a range too wide, a zero, infinite or NaN
	// divisor.
	for _, c := range []struct {
		c      float32
		lo, hi int64
	}{{3, 0, 1 << 16}, {0, 0, 10}, {float32(math.Inf(1)), 0, 10}, {float32(math.NaN()), 0, 10}, {3, 5, 4}} {
		if _, ok := divConstExact(c.c, c.lo, c.hi); ok {
			t.Errorf("x / %v over [%d, %d] accepted", c.c, c.lo, c.hi)
		}
	}
}
