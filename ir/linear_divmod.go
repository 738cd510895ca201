package ir

// DivModSplit rewrites a sum that holds both k*(A/c) and m*A, for a
// positive constant c and the terms of A appearing m times, as
//
//	(k + m*c)*(A/c) + m*(A%c) + the rest,
//
// using A = c*(A/c) + A%c (Euclidean division, 0 <= A%c < c). The two
// forms are equal as integers; the second one's terms vary apart less: in
// (x/4)*8 - x + 3 (a bitonic sorting network's partner index), the
// interval of (x/4)*8 and the interval of x, ranged apart, span twice the
// range of x, while 4*(x/4) - x%4 + 3 stays within it. The bounds
// analysis ranges both and keeps the tighter ends.
//
// e must be a signed 32- or 64-bit integer sum; ok is false where e holds
// no such pair, or where a coefficient or the constant would wrap.
func DivModSplit(e Expr) (Expr, bool) {
	t := e.Type()
	if !t.IsInt() || t.Bits < 32 || !hasDivAtom(e, 0) {
		return nil, false
	}
	l := linearOf(e)
	defer l.release()
	if l.inexact {
		return nil, false
	}
	changed := false
	for range 3 {
		if !l.splitOneDiv() {
			break
		}
		changed = true
	}
	if !changed || l.inexact {
		return nil, false
	}
	return l.build(), true
}

// hasDivAtom reports whether the Add/Sub/Mul-by-constant spine of e holds a
// division by a positive constant.
func hasDivAtom(e Expr, depth int) bool {
	b, ok := e.(*Binary)
	if !ok || depth > 64 {
		return false
	}
	switch b.Op {
	case Add, Sub:
		return hasDivAtom(b.A, depth+1) || hasDivAtom(b.B, depth+1)
	case Mul:
		if _, ok := constInt(b.B); ok {
			return hasDivAtom(b.A, depth+1)
		}
		if _, ok := constInt(b.A); ok {
			return hasDivAtom(b.B, depth+1)
		}
	case Div:
		c, ok := constInt(b.B)
		return ok && c > 1
	}
	return false
}

// splitOneDiv applies the rewrite of DivModSplit to the first term k*(A/c)
// of l whose A appears in the other terms, and reports whether it did.
func (l *linear) splitOneDiv() bool {
	for i, tm := range l.terms {
		d, ok := tm.x.(*Binary)
		if !ok || d.Op != Div {
			continue
		}
		c, ok := constInt(d.B)
		if !ok || c <= 1 {
			continue
		}
		la := linearOf(d.A)
		m, ok := l.multipleOf(la, i)
		if !ok {
			la.release()
			continue
		}
		// l - m*A + m*c*(A/c) + m*(A%c).
		for _, ta := range la.terms {
			l.addAtom(ta.x, l.mul(-m, ta.k))
		}
		l.addConst(l.mul(-m, la.c))
		l.terms[i].k = l.t.Wrap(tm.k + l.mul(m, c))
		if s, ok := addChecked(tm.k, m*c); !ok || s != l.terms[i].k {
			l.inexact = true
		}
		l.addAtom(bin(Mod, d.A, IntConst(l.t, c)), m)
		la.release()
		l.compact()
		return true
	}
	return false
}

// multipleOf returns m where every term of a appears in l (the term at
// index skip aside) with m times its coefficient, m != 0.
func (l *linear) multipleOf(a *linear, skip int) (int64, bool) {
	if len(a.terms) == 0 || a.inexact {
		return 0, false
	}
	coef := func(x Expr) int64 {
		for j, tm := range l.terms {
			if j != skip && sameExpr(tm.x, x) {
				return tm.k
			}
		}
		return 0
	}
	k0 := coef(a.terms[0].x)
	if k0 == 0 || k0%a.terms[0].k != 0 {
		return 0, false
	}
	m := k0 / a.terms[0].k
	for _, ta := range a.terms[1:] {
		if p, ok := mulChecked(m, ta.k); !ok || coef(ta.x) != p {
			return 0, false
		}
	}
	return m, true
}
