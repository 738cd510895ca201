package bounds

import (
	"math"

	"github.com/gohalide/gohalide/ir"
)

// crange is a range of integer constants; an end whose ok flag is false is
// infinite.
type crange struct {
	lo, hi   int64
	lok, hok bool
}

func cpoint(v int64) crange { return crange{v, v, true, true} }

func (r crange) isPoint() bool { return r.lok && r.hok && r.lo == r.hi }

// constRange is a fast structural bound of an integer or boolean expression
// in which every variable is unbounded (apart from the limits of its type).
// It neither simplifies nor allocates; it is what the interval arithmetic
// uses to prove signs and orderings of interval ends, which are already
// simplified. Float expressions get an infinite range.
func constRange(e ir.Expr) crange {
	t := e.Type()
	if t.IsFloat() {
		return crange{}
	}
	switch e := e.(type) {
	case *ir.IntImm:
		if t.IsUInt() && t.Bits == 64 && e.V < 0 {
			return crange{lo: 0, lok: true}
		}
		return cpoint(e.V)
	case *ir.Binary:
		if e.Op.IsComparison() || e.Op == ir.And || e.Op == ir.Or {
			return crange{0, 1, true, true}
		}
		r := binRange(e.Op, constRange(e.A), constRange(e.B))
		if t.IsUInt() && t.Bits == 64 && (e.Op == ir.Add || e.Op == ir.Sub || e.Op == ir.Mul) &&
			!(r.lok && r.hok && r.lo >= 0 && r.hi < math.MaxInt64) {
			// The sum may have wrapped around (or saturated).
			return typeDefault(t)
		}
		return fitRange(t, r)
	case *ir.Select:
		a, b := constRange(e.True), constRange(e.False)
		return crange{min(a.lo, b.lo), max(a.hi, b.hi), a.lok && b.lok, a.hok && b.hok}
	case *ir.Cast:
		from := e.X.Type()
		if from.IsFloat() {
			return typeDefault(t)
		}
		r := constRange(e.X)
		if r.lok && r.hok && inRange(t, r.lo) && inRange(t, r.hi) {
			return r
		}
		if representable(from, t) {
			return r
		}
		return typeDefault(t)
	case *ir.Call:
		if e.Kind == ir.CallIntrinsic {
			switch e.Name {
			case ir.IntrinsicLikely:
				if len(e.Args) == 1 {
					return constRange(e.Args[0])
				}
			case ir.IntrinsicAbs:
				if len(e.Args) == 1 && e.Args[0].Type() == t {
					r := constRange(e.Args[0])
					switch {
					case r.lok && r.lo >= 0:
						return r
					case r.hok && r.hi <= 0:
						return fitRange(t, crange{satSub(0, r.hi), satSub(0, r.lo), true, r.lok})
					case r.lok && r.hok:
						return fitRange(t, crange{0, max(satSub(0, r.lo), r.hi), true, true})
					}
					return fitRange(t, crange{lo: 0, lok: true})
				}
			case ir.IntrinsicPromiseClamped:
				if len(e.Args) == 3 {
					x, lo, hi := constRange(e.Args[0]), constRange(e.Args[1]), constRange(e.Args[2])
					// min(max(x, lo), hi)
					return binRange(ir.Min, binRange(ir.Max, x, lo), hi)
				}
			case ir.IntrinsicUnsafePromiseClamped:
				if len(e.Args) == 3 {
					lo, hi := constRange(e.Args[1]), constRange(e.Args[2])
					return crange{lo.lo, hi.hi, lo.lok, hi.hok}
				}
			}
		}
		return typeDefault(t)
	case *ir.Let:
		// The bound variable is treated as unbounded, which is sound.
		return constRange(e.Body)
	}
	return typeDefault(t)
}

// binRange is interval arithmetic on constant ranges.
func binRange(op ir.BinOp, a, b crange) crange {
	switch op {
	case ir.Add:
		return crange{satAdd(a.lo, b.lo), satAdd(a.hi, b.hi), a.lok && b.lok, a.hok && b.hok}
	case ir.Sub:
		return crange{satSub(a.lo, b.hi), satSub(a.hi, b.lo), a.lok && b.hok, a.hok && b.lok}
	case ir.Mul:
		if b.isPoint() {
			a, b = b, a
		}
		if a.isPoint() {
			c := a.lo
			switch {
			case c == 0:
				return cpoint(0)
			case c > 0:
				return crange{satMul(b.lo, c), satMul(b.hi, c), b.lok, b.hok}
			default:
				return crange{satMul(b.hi, c), satMul(b.lo, c), b.hok, b.lok}
			}
		}
		if a.lok && a.hok && b.lok && b.hok {
			p := [4]int64{satMul(a.lo, b.lo), satMul(a.lo, b.hi), satMul(a.hi, b.lo), satMul(a.hi, b.hi)}
			return crange{min(p[0], p[1], p[2], p[3]), max(p[0], p[1], p[2], p[3]), true, true}
		}
		if a.lok && a.lo >= 0 && b.lok && b.lo >= 0 {
			return crange{satMul(a.lo, b.lo), satMul(a.hi, b.hi), true, a.hok && b.hok}
		}
		return crange{}
	case ir.Div:
		// Euclidean (ir.EuclidDiv): floor division for a positive
		// divisor; for a negative one a / b == -(a / -b).
		if b.isPoint() {
			c := b.lo
			switch {
			case c == 0:
				return cpoint(0)
			case c == -1:
				return crange{satSub(0, a.hi), satSub(0, a.lo), a.hok, a.lok}
			case c > 0:
				return crange{ir.EuclidDiv(a.lo, c), ir.EuclidDiv(a.hi, c), a.lok, a.hok}
			default: // non-increasing in a
				return crange{ir.EuclidDiv(a.hi, c), ir.EuclidDiv(a.lo, c), a.hok, a.lok}
			}
		}
		if b.lok && b.lo > 0 {
			return divPosRange(a, b)
		}
		if b.hok && b.hi < 0 && b.hi > math.MinInt64 {
			// -b is exact: b = MIN (2^63 does not fit) counts as
			// unbounded.
			nb := crange{lo: -b.hi, lok: true}
			if b.lok && b.lo > math.MinInt64 {
				nb.hi, nb.hok = -b.lo, true
			}
			r := divPosRange(a, nb)
			return crange{satSub(0, r.hi), satSub(0, r.lo), r.hok, r.lok}
		}
		if a.lok && a.hok {
			// |a / b| <= |a| for any b (and a / 0 is 0).
			m := max(satSub(0, a.lo), a.hi, 0)
			return crange{min(-m, a.lo), m, true, true} // a.lo: MIN / 1
		}
		return crange{}
	case ir.Mod:
		// Euclidean (ir.EuclidMod): in [0, |b|) whatever the signs, at
		// most a for a >= 0, and 0 for b == 0.
		if b.isPoint() {
			c := b.lo
			switch {
			case c == 0 || c == -1 || c == 1:
				return cpoint(0)
			case c > 0:
				if a.lok && a.hok && a.lo >= 0 && a.hi < c {
					return a
				}
				return crange{0, c - 1, true, true}
			default:
				m := -(c + 1) // |c| - 1, also for c = MIN
				if a.lok && a.hok && a.lo >= 0 && a.hi <= m {
					return a
				}
				return crange{0, m, true, true}
			}
		}
		r := crange{lo: 0, lok: true}
		if b.lok && b.hok {
			// |b| - 1 over b's range, and 0 when b may be 0.
			r.hi, r.hok = max(satSub(b.hi, 1), -(min(b.lo, 0)+1), 0), true
		}
		if a.lok && a.lo >= 0 && a.hok && (!r.hok || a.hi < r.hi) {
			r.hi, r.hok = a.hi, true
		}
		return r
	case ir.Min:
		r := crange{lo: min(a.lo, b.lo), lok: a.lok && b.lok}
		r.hi, r.hok = knownEnd(true, a.hi, a.hok, b.hi, b.hok)
		return r
	case ir.Max:
		r := crange{hi: max(a.hi, b.hi), hok: a.hok && b.hok}
		r.lo, r.lok = knownEnd(false, a.lo, a.lok, b.lo, b.lok)
		return r
	}
	return crange{}
}

// knownEnd is the upper end of a min (isMin) or the lower end of a max:
// an infinite end (ok false) gives way to the other.
func knownEnd(isMin bool, a int64, aok bool, b int64, bok bool) (int64, bool) {
	switch {
	case aok && bok && isMin:
		return min(a, b), true
	case aok && bok:
		return max(a, b), true
	case aok:
		return a, true
	case bok:
		return b, true
	}
	return 0, false
}

func inRange(t ir.Type, v int64) bool {
	if t.IsBool() {
		return v == 0 || v == 1
	}
	if !t.IsIntOrUInt() {
		return true
	}
	return v >= t.Min() && v <= t.Max()
}

// representable reports whether every value of type from is a value of
// type to.
func representable(from, to ir.Type) bool {
	switch {
	case from == to:
		return true
	case to.IsFloat():
		// float16 and bfloat16 do not hold each other's values.
		return from.IsFloat() && to.Bits >= from.Bits && !(to.Bits == from.Bits && to != from)
	case from.IsBool():
		return to.IsIntOrUInt() || to.IsBool()
	case to.IsBool():
		return false
	case from.IsFloat():
		return false
	case from.Code == to.Code:
		return to.Bits >= from.Bits
	case from.IsUInt() && to.IsInt():
		return to.Bits > from.Bits
	}
	return false
}

// typeDefault is the range of an unknown value of type t.
func typeDefault(t ir.Type) crange {
	switch {
	case t.IsBool():
		return crange{0, 1, true, true}
	case t.IsIntOrUInt() && t.Bits <= 32:
		if t.IsInt() && t.Bits == 32 {
			return crange{}
		}
		return crange{t.Min(), t.Max(), true, true}
	case t.IsUInt():
		return crange{lo: 0, lok: true}
	}
	return crange{}
}

// fitRange mirrors fit for constant ranges.
func fitRange(t ir.Type, r crange) crange {
	if !t.IsIntOrUInt() {
		return r
	}
	if t.Bits <= 32 {
		if (r.lok && !inRange(t, r.lo)) || (r.hok && !inRange(t, r.hi)) {
			return typeDefault(t)
		}
		if t.Bits < 32 && (!r.lok || !r.hok) {
			return typeDefault(t)
		}
	}
	if t.IsUInt() && (!r.lok || r.lo < 0) {
		r.lo, r.lok = 0, true
	}
	return r
}

// divPosRange is the range of a / b for a divisor range b whose lower end is
// positive, where Euclidean division rounds down: non-decreasing in a, and
// for fixed a monotone in b (toward 0 or -1 as b grows).
func divPosRange(a, b crange) crange {
	var r crange
	if a.lok {
		r.lok = true
		switch {
		case a.lo < 0:
			r.lo = ir.EuclidDiv(a.lo, b.lo)
		case b.hok:
			r.lo = ir.EuclidDiv(a.lo, b.hi)
		default:
			r.lo = 0
		}
	}
	if a.hok {
		r.hok = true
		switch {
		case a.hi >= 0:
			r.hi = ir.EuclidDiv(a.hi, b.lo)
		case b.hok:
			r.hi = ir.EuclidDiv(a.hi, b.hi)
		default:
			r.hi = -1
		}
	}
	return r
}
