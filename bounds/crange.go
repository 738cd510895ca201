package bounds

import (
	"math"

	"github.com/gohalide/gohalide/ir"
)

// crange is a range of integer constants; an end whose Has flag is false
// is infinite. It is the simplifier's own type: one type, and one
// Intersect, serve both.
type crange = ir.ConstRange

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
			return crange{Lo: 0, HasLo: true}
		}
		return ir.ConstPoint(e.V)
	case *ir.Binary:
		if e.Op.IsComparison() || e.Op == ir.And || e.Op == ir.Or {
			return crange{Lo: 0, Hi: 1, HasLo: true, HasHi: true}
		}
		r := binRange(e.Op, constRange(e.A), constRange(e.B))
		if t.IsUInt() && t.Bits == 64 && (e.Op == ir.Add || e.Op == ir.Sub || e.Op == ir.Mul) &&
			!(r.HasLo && r.HasHi && r.Lo >= 0 && r.Hi < math.MaxInt64) {
			// The sum may have wrapped around (or saturated).
			return typeDefault(t)
		}
		return fitRange(t, r)
	case *ir.Select:
		a, b := constRange(e.True), constRange(e.False)
		return crange{Lo: min(a.Lo, b.Lo), Hi: max(a.Hi, b.Hi), HasLo: a.HasLo && b.HasLo, HasHi: a.HasHi && b.HasHi}
	case *ir.Cast:
		from := e.X.Type()
		if from.IsFloat() {
			return typeDefault(t)
		}
		r := constRange(e.X)
		if r.HasLo && r.HasHi && inRange(t, r.Lo) && inRange(t, r.Hi) {
			return r
		}
		if representable(from, t) {
			return r
		}
		return typeDefault(t)
	case *ir.Call:
		if e.Kind == ir.CallIntrinsic {
			switch e.Name {
			case ir.IntrinsicLikely, ir.IntrinsicStrictFloat:
				if len(e.Args) == 1 {
					return constRange(e.Args[0])
				}
			case ir.IntrinsicAbs:
				if len(e.Args) == 1 && e.Args[0].Type() == t {
					r := constRange(e.Args[0])
					switch {
					case r.HasLo && r.Lo >= 0:
						return r
					case r.HasHi && r.Hi <= 0:
						return fitRange(t, crange{Lo: satSub(0, r.Hi), Hi: satSub(0, r.Lo), HasLo: true, HasHi: r.HasLo})
					case r.HasLo && r.HasHi:
						return fitRange(t, crange{Lo: 0, Hi: max(satSub(0, r.Lo), r.Hi), HasLo: true, HasHi: true})
					}
					return fitRange(t, crange{Lo: 0, HasLo: true})
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
					return crange{Lo: lo.Lo, Hi: hi.Hi, HasLo: lo.HasLo, HasHi: hi.HasHi}
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
		return crange{Lo: satAdd(a.Lo, b.Lo), Hi: satAdd(a.Hi, b.Hi), HasLo: a.HasLo && b.HasLo, HasHi: a.HasHi && b.HasHi}
	case ir.Sub:
		return crange{Lo: satSub(a.Lo, b.Hi), Hi: satSub(a.Hi, b.Lo), HasLo: a.HasLo && b.HasHi, HasHi: a.HasHi && b.HasLo}
	case ir.Mul:
		if b.IsPoint() {
			a, b = b, a
		}
		if a.IsPoint() {
			c := a.Lo
			switch {
			case c == 0:
				return ir.ConstPoint(0)
			case c > 0:
				return crange{Lo: satMul(b.Lo, c), Hi: satMul(b.Hi, c), HasLo: b.HasLo, HasHi: b.HasHi}
			default:
				return crange{Lo: satMul(b.Hi, c), Hi: satMul(b.Lo, c), HasLo: b.HasHi, HasHi: b.HasLo}
			}
		}
		if a.HasLo && a.HasHi && b.HasLo && b.HasHi {
			p := [4]int64{satMul(a.Lo, b.Lo), satMul(a.Lo, b.Hi), satMul(a.Hi, b.Lo), satMul(a.Hi, b.Hi)}
			return crange{Lo: min(p[0], p[1], p[2], p[3]), Hi: max(p[0], p[1], p[2], p[3]), HasLo: true, HasHi: true}
		}
		if a.HasLo && a.Lo >= 0 && b.HasLo && b.Lo >= 0 {
			return crange{Lo: satMul(a.Lo, b.Lo), Hi: satMul(a.Hi, b.Hi), HasLo: true, HasHi: a.HasHi && b.HasHi}
		}
		return crange{}
	case ir.Div:
		// Euclidean (ir.EuclidDiv): floor division for a positive
		// divisor; for a negative one a / b == -(a / -b).
		if b.IsPoint() {
			c := b.Lo
			switch {
			case c == 0:
				return ir.ConstPoint(0)
			case c == -1:
				return crange{Lo: satSub(0, a.Hi), Hi: satSub(0, a.Lo), HasLo: a.HasHi, HasHi: a.HasLo}
			case c > 0:
				return crange{Lo: ir.EuclidDiv(a.Lo, c), Hi: ir.EuclidDiv(a.Hi, c), HasLo: a.HasLo, HasHi: a.HasHi}
			default: // non-increasing in a
				return crange{Lo: ir.EuclidDiv(a.Hi, c), Hi: ir.EuclidDiv(a.Lo, c), HasLo: a.HasHi, HasHi: a.HasLo}
			}
		}
		if b.HasLo && b.Lo > 0 {
			return divPosRange(a, b)
		}
		if b.HasHi && b.Hi < 0 && b.Hi > math.MinInt64 {
			// -b is exact: b = MIN (2^63 does not fit) counts as
			// unbounded.
			nb := crange{Lo: -b.Hi, HasLo: true}
			if b.HasLo && b.Lo > math.MinInt64 {
				nb.Hi, nb.HasHi = -b.Lo, true
			}
			r := divPosRange(a, nb)
			return crange{Lo: satSub(0, r.Hi), Hi: satSub(0, r.Lo), HasLo: r.HasHi, HasHi: r.HasLo}
		}
		if a.HasLo && a.HasHi {
			// |a / b| <= |a| for any b (and a / 0 is 0).
			m := max(satSub(0, a.Lo), a.Hi, 0)
			return crange{Lo: min(-m, a.Lo), Hi: m, HasLo: true, HasHi: true} // a.Lo: MIN / 1
		}
		return crange{}
	case ir.Mod:
		// Euclidean (ir.EuclidMod): in [0, |b|) whatever the signs, at
		// most a for a >= 0, and 0 for b == 0.
		if b.IsPoint() {
			c := b.Lo
			switch {
			case c == 0 || c == -1 || c == 1:
				return ir.ConstPoint(0)
			case c > 0:
				if a.HasLo && a.HasHi && a.Lo >= 0 && a.Hi < c {
					return a
				}
				return crange{Lo: 0, Hi: c - 1, HasLo: true, HasHi: true}
			default:
				m := -(c + 1) // |c| - 1, also for c = MIN
				if a.HasLo && a.HasHi && a.Lo >= 0 && a.Hi <= m {
					return a
				}
				return crange{Lo: 0, Hi: m, HasLo: true, HasHi: true}
			}
		}
		r := crange{Lo: 0, HasLo: true}
		if b.HasLo && b.HasHi {
			// |b| - 1 over b's range, and 0 when b may be 0.
			r.Hi, r.HasHi = max(satSub(b.Hi, 1), -(min(b.Lo, 0)+1), 0), true
		}
		if a.HasLo && a.Lo >= 0 && a.HasHi && (!r.HasHi || a.Hi < r.Hi) {
			r.Hi, r.HasHi = a.Hi, true
		}
		return r
	case ir.Min:
		r := crange{Lo: min(a.Lo, b.Lo), HasLo: a.HasLo && b.HasLo}
		r.Hi, r.HasHi = knownEnd(true, a.Hi, a.HasHi, b.Hi, b.HasHi)
		return r
	case ir.Max:
		r := crange{Hi: max(a.Hi, b.Hi), HasHi: a.HasHi && b.HasHi}
		r.Lo, r.HasLo = knownEnd(false, a.Lo, a.HasLo, b.Lo, b.HasLo)
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
		return crange{Lo: 0, Hi: 1, HasLo: true, HasHi: true}
	case t.IsIntOrUInt() && t.Bits <= 32:
		if t.IsInt() && t.Bits == 32 {
			return crange{}
		}
		return crange{Lo: t.Min(), Hi: t.Max(), HasLo: true, HasHi: true}
	case t.IsUInt():
		return crange{Lo: 0, HasLo: true}
	}
	return crange{}
}

// fitRange mirrors fit for constant ranges.
func fitRange(t ir.Type, r crange) crange {
	if !t.IsIntOrUInt() {
		return r
	}
	if t.Bits <= 32 {
		if (r.HasLo && !inRange(t, r.Lo)) || (r.HasHi && !inRange(t, r.Hi)) {
			return typeDefault(t)
		}
		if t.Bits < 32 && (!r.HasLo || !r.HasHi) {
			return typeDefault(t)
		}
	}
	if t.IsUInt() && (!r.HasLo || r.Lo < 0) {
		r.Lo, r.HasLo = 0, true
	}
	return r
}

// divPosRange is the range of a / b for a divisor range b whose lower end is
// positive, where Euclidean division rounds down: non-decreasing in a, and
// for fixed a monotone in b (toward 0 or -1 as b grows).
func divPosRange(a, b crange) crange {
	var r crange
	if a.HasLo {
		r.HasLo = true
		switch {
		case a.Lo < 0:
			r.Lo = ir.EuclidDiv(a.Lo, b.Lo)
		case b.HasHi:
			r.Lo = ir.EuclidDiv(a.Lo, b.Hi)
		default:
			r.Lo = 0
		}
	}
	if a.HasHi {
		r.HasHi = true
		switch {
		case a.Hi >= 0:
			r.Hi = ir.EuclidDiv(a.Hi, b.Lo)
		case b.HasHi:
			r.Hi = ir.EuclidDiv(a.Hi, b.Hi)
		default:
			r.Hi = -1
		}
	}
	return r
}
