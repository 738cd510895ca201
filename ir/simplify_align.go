package ir

// Facts about the variables a statement binds: SimplifyStmt's alignment
// and bounds of loop variables and lets.
//
// Simplify is context-free: it cannot tell that x, bound by
// "let x = xo*1000 + 7" inside "for (xo, 0, 5)", is 7 more than a multiple
// of 1000 and lies in [7, 4007], so x == 3 is false. SimplifyStmt records,
// for each loop variable with constant bounds and each let of a signed
// 32- or 64-bit integer, a fact: its modulus and remainder (the value is
// m*k + r for some integer k; m = 0 says it is the constant r) and its
// constant bounds where known (Halide's modulus_remainder and bounds of
// the simplifier's scope). Before an expression is simplified, a walk
// from the top decides the equalities those facts make false: a == b is
// false when the alignments of a and b differ (a - b is never a multiple
// of their common modulus) or their bounds do not meet, and a select on a
// decided condition is its one arm, so the other arm is never walked (an
// unrolled mux, select(x == 0, v0, select(x == 1, v1, ...)), at a
// constant remainder keeps the few values it can pick).
//
// The facts are exact under wrap-around: an Add, Sub or Mul whose result
// is not proven inside its type keeps, of its modulus, only the power of
// two that divides it (a wrap subtracts a multiple of 2^bits).

import "math/bits"

// fact is what is known of an integer value: v = m*k + r (0 <= r < m) for
// some k, or v = r when m = 0; and, when b.HasLo/b.HasHi, its bounds.
type fact struct {
	m, r int64
	b    interval
}

// unknownFact says nothing: every integer is 1*k + 0.
var unknownFact = fact{m: 1}

// alignDepth bounds how deep the alignment of an operand is worked out.
const alignDepth = 12

// mkFact normalizes r into [0, m).
func mkFact(m, r int64, b interval) fact {
	if m < 0 {
		m = -m
	}
	if m > 0 {
		r = EuclidMod(r, m)
	}
	if m == 0 {
		b = ConstPoint(r)
	}
	return fact{m, r, b}
}

// wrapped returns f for an arithmetic result of type t whose bounds in
// unbounded integers are b: when b is not proven inside t the value may
// have wrapped, and only the power of two in f's modulus survives.
func wrapped(f fact, t Type) fact {
	b := f.b
	if b.HasLo && b.HasHi && b.Lo >= t.Min() && b.Hi <= t.Max() {
		return f
	}
	f.b = interval{}
	if f.m == 0 {
		return unknownFact // a constant that may have wrapped: not worked out here
	}
	p := int64(1) << bits.TrailingZeros64(uint64(f.m))
	if t.Bits < 63 && p > int64(1)<<t.Bits {
		p = int64(1) << t.Bits
	}
	return mkFact(p, f.r, interval{})
}

// join is what is known of a value that is one of a or b (min, max,
// select): a common modulus that also divides the distance between the
// remainders.
func join(a, b fact) fact {
	m := GCD(GCD(a.m, b.m), a.r-b.r)
	bd := interval{min(a.b.Lo, b.b.Lo), max(a.b.Hi, b.b.Hi), a.b.HasLo && b.b.HasLo, a.b.HasHi && b.b.HasHi}
	if m == 0 {
		return mkFact(0, a.r, bd)
	}
	return mkFact(m, a.r, bd)
}

// alignOf returns what facts tell of e, a signed 32- or 64-bit integer.
func alignOf(e Expr, facts map[string]fact, depth int) fact {
	if depth <= 0 || !algebraic(e.Type()) {
		return unknownFact
	}
	t := e.Type()
	switch e := e.(type) {
	case *IntImm:
		return mkFact(0, e.V, ConstPoint(e.V))
	case *Var:
		if f, ok := facts[e.Name]; ok {
			return f
		}
	case *Binary:
		switch e.Op {
		case Add, Sub:
			a, b := alignOf(e.A, facts, depth-1), alignOf(e.B, facts, depth-1)
			sign := int64(1)
			bb := b.b
			if e.Op == Sub {
				sign, bb = -1, b.b.scale(-1)
			}
			r, ok := addChecked(a.r, sign*b.r)
			if !ok {
				return unknownFact
			}
			return wrapped(mkFact(GCD(a.m, b.m), r, a.b.add(bb)), t)
		case Mul:
			x, c := e.A, e.B
			if IsConst(x) {
				x, c = c, x
			}
			k, ok := constInt(c)
			if !ok {
				return unknownFact
			}
			a := alignOf(x, facts, depth-1)
			m, ok1 := mulChecked(a.m, k)
			r, ok2 := mulChecked(a.r, k)
			if !ok1 || !ok2 {
				return unknownFact
			}
			return wrapped(mkFact(m, r, a.b.scale(k)), t)
		case Min, Max:
			a, b := alignOf(e.A, facts, depth-1), alignOf(e.B, facts, depth-1)
			f := join(a, b)
			f.b = minMaxInterval(e.Op, a.b, b.b)
			return f
		}
	case *Select:
		return join(alignOf(e.True, facts, depth-1), alignOf(e.False, facts, depth-1))
	}
	return unknownFact
}

// informative reports whether f says more than unknownFact.
func (f fact) informative() bool { return f.m != 1 || f.b.HasLo || f.b.HasHi }

// neverEqual reports whether a == b is false by the facts.
func neverEqual(a, b Expr, facts map[string]fact) bool {
	fa, fb := alignOf(a, facts, alignDepth), alignOf(b, facts, alignDepth)
	if (fa.b.HasHi && fb.b.HasLo && fa.b.Hi < fb.b.Lo) || (fb.b.HasHi && fa.b.HasLo && fb.b.Hi < fa.b.Lo) {
		return true
	}
	g := GCD(fa.m, fb.m)
	return g != 0 && EuclidMod(fa.r-fb.r, g) != 0
}

// decideByFacts returns e with the equalities the facts make false (and
// the inequalities true) folded, and selects on them reduced to the arm
// they pick, from the top down: a dropped arm is not walked. It returns e
// itself when nothing was decided.
//
// A node shared by several parents (an expression graph of selects) is
// walked once: done maps it to its result, which depends on the node and
// the facts alone.
func decideByFacts(e Expr, facts map[string]fact) Expr {
	done := map[Expr]Expr{}
	var walk, walk1 func(Expr) Expr
	walk = func(e Expr) Expr {
		switch e.(type) {
		case *Var, *IntImm, *FloatImm:
			return e
		}
		if r, ok := done[e]; ok {
			return r
		}
		r := walk1(e)
		done[e] = r
		return r
	}
	walk1 = func(e Expr) Expr {
		switch x := e.(type) {
		case *Select:
			// A chain of selects on decided equalities (an unrolled
			// mux) is followed without building the constants.
			for {
				b, ok := x.Cond.(*Binary)
				if !ok || (b.Op != EQ && b.Op != NE) || !algebraic(b.A.Type()) || !neverEqual(b.A, b.B, facts) {
					break
				}
				next := x.True
				if b.Op == EQ {
					next = x.False
				}
				s, ok := next.(*Select)
				if !ok {
					return walk(next)
				}
				x = s
			}
			c := walk(x.Cond)
			if v, ok := c.(*IntImm); ok {
				if v.V != 0 {
					return walk(x.True)
				}
				return walk(x.False)
			}
			t, f := walk(x.True), walk(x.False)
			return edit(x, c != x.Cond || t != x.True || f != x.False, func(s *Select) { s.Cond, s.True, s.False = c, t, f })
		case *Binary:
			if (x.Op == EQ || x.Op == NE) && algebraic(x.A.Type()) && neverEqual(x.A, x.B, facts) {
				return boolConst(x.Op == NE)
			}
		case *Let:
			if _, shadow := facts[x.Name]; shadow {
				v := walk(x.Value)
				inner := make(map[string]fact, len(facts))
				for k, f := range facts {
					inner[k] = f
				}
				delete(inner, x.Name)
				b := decideByFacts(x.Body, inner)
				return edit(x, v != x.Value || b != x.Body, func(l *Let) { l.Value, l.Body = v, b })
			}
		}
		return MapExpr(e, walk)
	}
	return walk(e)
}
