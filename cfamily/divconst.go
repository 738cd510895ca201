package cfamily

// Division of a float by a constant without a division instruction, where
// it is proven to give the same bits. A float32 x / c compiles, under the
// CPU executor's rounding (no fast math), to CUDA's correctly rounded
// division: a reciprocal estimate, refinement, a range check and a call to
// a slow path, about a dozen instructions. Image pipelines divide by
// constants all the time (a uint16 pixel / 65535.0f), and there the
// division is most of a kernel's arithmetic.
//
// With rc = 1/c rounded to float32, the quotient q = x * rc is within
// about an ulp of x / c, and one correction step with two FMAs,
//
//	q' = fma(fma(-q, c, x), rc, q)
//
// (the inner FMA is the exact remainder x - q*c), gives the correctly
// rounded x / c for almost every x; not for all (Markstein's theorem needs
// a q within an ulp, which x * rc is not always). So it is used only where
// the emitter knows every value x can take: a conversion to float32 of an
// integer of at most 16 bits (a pixel, a count), at most 65536 values.
// divConstExact checks q' against the rounded quotient for each of them,
// bit for bit, and the emitter uses gh_divc_f32 only when every one
// matches; otherwise it keeps the division. The reference quotient is
// float32(float64(x) / float64(c)): double rounding through float64 is
// harmless for a quotient of float32s (53 >= 2*24 + 2). The FMAs are
// computed exactly: the remainder has fewer than 53 bits and must be a
// float32 (checked), and the last FMA is rounded once through float64
// unless its float64 value is exactly halfway between two float32s, where
// big.Float decides.

import (
	"math"
	"math/big"
	"sync"

	"github.com/gohalide/gohalide/ir"
)

// divConstKey is one proof: a divisor's bits and a range of integers.
type divConstKey struct {
	c      uint32
	lo, hi int64
}

// divConstProofs caches divConstExact's answers (rc's bits, or 0 for no).
var divConstProofs sync.Map

// divConstRange is the most integers divConstExact checks.
const divConstRange = 1 << 16

// divConstExact reports whether gh_divc_f32(x, c, rc) equals the correctly
// rounded float32 x / c, bit for bit, for x = float32(n) and every integer
// n in [lo, hi]; rc is the reciprocal it uses.
func divConstExact(c float32, lo, hi int64) (rc float32, ok bool) {
	if c == 0 || math.IsInf(float64(c), 0) || math.IsNaN(float64(c)) || hi < lo || hi-lo >= divConstRange ||
		lo < -1<<24 || hi > 1<<24 {
		return 0, false
	}
	key := divConstKey{math.Float32bits(c), lo, hi}
	if v, ok := divConstProofs.Load(key); ok {
		bits := v.(uint32)
		return math.Float32frombits(bits), bits != 0
	}
	rc, ok = proveDivConst(c, lo, hi)
	bits := uint32(0)
	if ok {
		bits = math.Float32bits(rc)
	}
	divConstProofs.Store(key, bits)
	return rc, ok
}

// proveDivConst is divConstExact without the cache.
func proveDivConst(c float32, lo, hi int64) (float32, bool) {
	r := new(big.Float).SetPrec(24).SetMode(big.ToNearestEven)
	r.Quo(big.NewFloat(1), big.NewFloat(float64(c)))
	rc, acc := r.Float32()
	if math.IsInf(float64(rc), 0) || rc == 0 || (acc != big.Exact && math.Abs(float64(rc)) < math.SmallestNonzeroFloat32*(1<<24)) {
		return 0, false // a reciprocal out of float32's normal range
	}
	for n := lo; n <= hi; n++ {
		x := float32(n)
		want := float32(float64(x) / float64(c))
		if got, ok := divConstStep(x, c, rc); !ok || math.Float32bits(got) != math.Float32bits(want) {
			return 0, false
		}
	}
	return rc, true
}

// divConstStep computes gh_divc_f32(x, c, rc) as the GPU does, each
// operation rounded once to float32; ok is false where that cannot be
// done exactly here (a remainder that is not a float32).
func divConstStep(x, c, rc float32) (float32, bool) {
	q := float32(float64(x) * float64(rc)) // the product is exact in float64
	rem := math.FMA(-float64(q), float64(c), float64(x))
	if float64(float32(rem)) != rem {
		return 0, false
	}
	s := math.FMA(rem, float64(rc), float64(q))
	if f := float32(s); float64(f) != s && halfwayFloat32(s) {
		// Rounded to float64 onto a float32 tie: round the exact value.
		e := new(big.Float).SetPrec(200).SetFloat64(rem)
		e.Mul(e, big.NewFloat(float64(rc)))
		e.Add(e, big.NewFloat(float64(q)))
		v, _ := new(big.Float).SetPrec(24).SetMode(big.ToNearestEven).Set(e).Float32()
		return v, true
	}
	return float32(s), true
}

// halfwayFloat32 reports whether s lies exactly halfway between two
// adjacent float32s.
func halfwayFloat32(s float64) bool {
	f := float32(s)
	g := math.Nextafter32(f, float32(math.Inf(1)))
	if float64(f) > s {
		g = math.Nextafter32(f, float32(math.Inf(-1)))
	}
	return (float64(f)+float64(g))/2 == s
}

// integerRange returns the values an integer expression can take, when
// its type is narrow enough for divConstExact (8 or 16 bits, or a bool);
// integer casts that keep every value (widening, or unsigned to a wider
// signed type) are looked through.
func integerRange(x ir.Expr) (lo, hi int64, ok bool) {
	for {
		c, isCast := x.(*ir.Cast)
		if !isCast || !keepsValues(c.X.Type(), c.T) {
			break
		}
		x = c.X
	}
	t := x.Type()
	switch {
	case t.IsBool():
		return 0, 1, true
	case t.IsIntOrUInt() && t.Bits <= 16:
		return t.Min(), t.Max(), true
	}
	return 0, 0, false
}

// keepsValues reports whether converting from an integer or bool type to
// integer type to keeps every value.
func keepsValues(from, to ir.Type) bool {
	switch {
	case !to.IsIntOrUInt():
		return false
	case from.IsBool():
		return true
	case from.IsUInt():
		return to.Bits > from.Bits || to.IsUInt() && to.Bits == from.Bits
	case from.IsInt():
		return to.IsInt() && to.Bits >= from.Bits
	}
	return false
}
