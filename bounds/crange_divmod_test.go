package bounds

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gohalide/gohalide/ir"
)

// binRange of Div and Mod holds the Euclidean quotient and remainder
// (ir.EuclidDiv, ir.EuclidMod) of every pair drawn from its operand ranges,
// for divisor ranges of every sign, open ends and the int64 extremes
// included. Exact arithmetic is assumed, so MIN / -1 (which wraps) is left
// out.
func TestBinRangeDivModEuclid(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	edges := []int64{math.MinInt64, math.MinInt64 + 1, -1000, -9, -2, -1, 0, 1, 2, 9, 1000, math.MaxInt64 - 1, math.MaxInt64}
	end := func() int64 {
		if rng.IntN(3) == 0 {
			return edges[rng.IntN(len(edges))]
		}
		return rng.Int64N(41) - 20
	}
	rangeOf := func() crange {
		lo, hi := end(), end()
		if rng.IntN(2) == 0 {
			hi = lo + rng.Int64N(5)
			if hi < lo {
				hi = lo
			}
		}
		if hi < lo {
			lo, hi = hi, lo
		}
		return crange{Lo: lo, Hi: hi, HasLo: rng.IntN(6) != 0, HasHi: rng.IntN(6) != 0}
	}
	sample := func(r crange) int64 {
		lo, hi := int64(math.MinInt64), int64(math.MaxInt64)
		if r.HasLo {
			lo = r.Lo
		}
		if r.HasHi {
			hi = r.Hi
		}
		switch rng.IntN(4) {
		case 0:
			return lo
		case 1:
			return hi
		}
		if span := uint64(hi) - uint64(lo); span < math.MaxUint64 {
			return lo + int64(rng.Uint64N(span+1))
		}
		return int64(rng.Uint64())
	}
	in := func(r crange, v int64) bool { return (!r.HasLo || r.Lo <= v) && (!r.HasHi || v <= r.Hi) }
	for range 200000 {
		a, b := rangeOf(), rangeOf()
		rd, rm := binRange(ir.Div, a, b), binRange(ir.Mod, a, b)
		for range 8 {
			x, y := sample(a), sample(b)
			if x == math.MinInt64 && y == -1 {
				continue
			}
			if q := ir.EuclidDiv(x, y); !in(rd, q) {
				t.Fatalf("%d / %d = %d not in %+v (a %+v, b %+v)", x, y, q, rd, a, b)
			}
			if m := ir.EuclidMod(x, y); !in(rm, m) {
				t.Fatalf("%d %% %d = %d not in %+v (a %+v, b %+v)", x, y, m, rm, a, b)
			}
		}
	}
}
