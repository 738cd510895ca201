package ir

import "sync"

// The linear form k1*atom1 + k2*atom2 + ... + c of the algebraic integer
// types, and the min/max terms a sum absorbs.

// term is coefficient k times the atom x.
type term struct {
	x Expr
	k int64
}

// linear is sum(k*x for terms) + c, in type t. Coefficients are wrapped to t.
// Terms are kept in order of first appearance; a term whose coefficient
// cancels to zero stays in place until compact.
type linear struct {
	t     Type
	terms []term
	c     int64
	// inexact is set when a coefficient or the constant wrapped around
	// while the form was built. The form is still equal to the
	// expression (Add, Sub and Mul are exact modulo 2^bits), but its
	// constant is not the exact one, so bounds, which decide orderings
	// (min, max, comparisons), do not use it.
	inexact bool
	// inline backs terms while there are few of them, so that a pooled
	// linear form usually needs no allocation at all.
	inline [6]term
	// memo is the Memo of the simplification that collects the form
	// (nil for none).
	memo *Memo
}

// Linear forms are short-lived scratch objects: they come from a pool and
// go back with release once the expression is rebuilt.
var linearPool = sync.Pool{New: func() any {
	l := &linear{}
	l.terms = l.inline[:0]
	return l
}}

func newLinear(t Type) *linear {
	l := linearPool.Get().(*linear)
	l.t, l.c, l.inexact, l.memo = t, 0, false, nil
	return l
}

// release returns l to the pool; l must not be used afterwards.
func (l *linear) release() {
	clear(l.inline[:])
	l.terms = l.inline[:0]
	linearPool.Put(l)
}

// linearOf returns the linear form of a simplified expression.
func linearOf(e Expr) *linear {
	l := newLinear(e.Type())
	l.addSimp(e, 1)
	l.compact()
	return l
}

// clone copies l, leaving out the term at index skip (-1 for none).
func (l *linear) clone(skip int) *linear {
	n := newLinear(l.t)
	n.c, n.inexact = l.c, l.inexact
	for i, tm := range l.terms {
		if i != skip {
			n.terms = append(n.terms, tm)
		}
	}
	return n
}

func (l *linear) addConst(v int64) {
	s, ok := addChecked(l.c, v)
	l.c = l.t.Wrap(l.c + v)
	if !ok || s != l.c {
		l.inexact = true
	}
}

// mul returns k*c wrapped to the type, noting when it wraps.
func (l *linear) mul(k, c int64) int64 {
	p, ok := mulChecked(k, c)
	r := l.t.Wrap(k * c)
	if !ok || p != r {
		l.inexact = true
	}
	return r
}

// addAtom adds k*x, merging x with an equal atom already present.
func (l *linear) addAtom(x Expr, k int64) {
	if w := l.t.Wrap(k); w != k {
		l.inexact = true
		k = w
	}
	if k == 0 {
		return
	}
	for i := range l.terms {
		if sameExpr(l.terms[i].x, x) {
			s, ok := addChecked(l.terms[i].k, k)
			l.terms[i].k = l.t.Wrap(l.terms[i].k + k)
			if !ok || s != l.terms[i].k {
				l.inexact = true
			}
			return
		}
	}
	l.terms = append(l.terms, term{x, k})
}

// addSimp adds k*e for a simplified e: its own linear structure is taken
// apart, nothing is re-simplified.
func (l *linear) addSimp(e Expr, k int64) { l.add(e, k, false) }

// addRaw adds k*e for an unsimplified e: the Add/Sub/Mul-by-constant spine
// is walked directly, and each atom is simplified once (and then taken apart
// with addSimp, as simplifying an atom can produce a linear expression).
func (l *linear) addRaw(e Expr, k int64) { l.add(e, k, true) }

// add is addRaw when raw is set, else addSimp.
func (l *linear) add(e Expr, k int64, raw bool) {
	if k == 0 {
		return // 0*e: e is pure, nothing to keep
	}
	switch e := e.(type) {
	case *IntImm:
		l.addConst(l.mul(k, e.V))
		return
	case *Binary:
		switch e.Op {
		case Add:
			l.add(e.A, k, raw)
			l.add(e.B, k, raw)
			return
		case Sub:
			l.add(e.A, k, raw)
			l.add(e.B, l.mul(k, -1), raw)
			return
		case Mul:
			if c, ok := constInt(e.B); ok {
				l.add(e.A, l.mul(k, c), raw)
				return
			}
			if c, ok := constInt(e.A); ok {
				l.add(e.B, l.mul(k, c), raw)
				return
			}
			if raw {
				l.addSimpMul(simpM(e.A, l.memo), simpM(e.B, l.memo), k)
				return
			}
		}
	}
	if raw {
		l.addSimp(simpM(e, l.memo), k)
		return
	}
	l.addAtom(e, k)
}

// addSimpMul adds k*a*b for simplified a and b. A product of two
// non-constants is an atom; constant factors of single-term operands are
// pulled out into the coefficient ((x*2)*y is the atom x*y with k = 2).
func (l *linear) addSimpMul(a, b Expr, k int64) {
	if c, ok := constInt(a); ok {
		l.addSimp(b, l.mul(k, c))
		return
	}
	if c, ok := constInt(b); ok {
		l.addSimp(a, l.mul(k, c))
		return
	}
	if m, ok := a.(*Binary); ok && m.Op == Mul {
		if c, ok := constInt(m.B); ok {
			a, k = m.A, l.mul(k, c)
		}
	}
	if m, ok := b.(*Binary); ok && m.Op == Mul {
		if c, ok := constInt(m.B); ok {
			b, k = m.A, l.mul(k, c)
		}
	}
	l.addAtom(bin(Mul, a, b), k)
}

// compact drops the terms whose coefficients cancelled.
func (l *linear) compact() {
	out := l.terms[:0]
	for _, tm := range l.terms {
		if tm.k != 0 {
			out = append(out, tm)
		}
	}
	l.terms = out
}

// expr rebuilds the canonical expression of l, first trying to push the
// other terms into a single Min/Max term.
func (l *linear) expr() Expr {
	l.compact()
	if e := l.pushMinMax(); e != nil {
		return e
	}
	return l.build()
}

// pushMinMax: when the sum is T ± min(A, B) (or max) with exactly one Min/Max
// term, and A ± T or B ± T is a constant, the sum is rewritten as
// min(A + T, B + T) (for -min(A, B), max(T - A, T - B)). This is how
// min(x + 7, M) - x + 1 becomes min(M - x + 1, 8). It returns nil when the
// rule does not apply.
func (l *linear) pushMinMax() Expr {
	idx, k := l.soleMinMax()
	if idx < 0 {
		return nil
	}
	m := l.terms[idx].x.(*Binary)
	if !l.cancels(idx, m.A, k) && !l.cancels(idx, m.B, k) {
		return nil
	}
	op := m.Op
	if k == -1 {
		op = flipMinMax(op)
	}
	la := l.clone(idx)
	defer la.release()
	la.addSimp(m.A, k)
	lb := l.clone(idx)
	defer lb.release()
	lb.addSimp(m.B, k)
	if la.inexact || lb.inexact {
		// A constant wrapped: min(x, -2^31) - x - 1 is not
		// min(-1, 2^31 - 1 - x).
		return nil
	}
	return mkMinMax(op, la.expr(), lb.expr())
}

// SeparateMinMax rewrites each sum R + S ± min(A, B) (or max) of a
// simplified integer expression in which the terms S cancel those of A as
// R + min(A + S, B + S), A + S being a constant: min(A, M) - A + p + 1
// becomes min(M - A, 0) + p + 1. The value is the same (barring overflow,
// as for Simplify), but the correlated A and -A no longer stand apart, so
// interval bounds see that the sum is at most p + 1. It is not part of
// Simplify (whose form it would change back and forth); the bounds
// package applies it when looking for constant bounds.
func SeparateMinMax(e Expr) Expr {
	// Only where overflow does not happen (signed 32 and 64 bits, as
	// everywhere in bounds): in 8/16-bit and unsigned types the sum wraps,
	// and min(A, B) - A is not min(0, B - A).
	if e == nil {
		return e
	}
	e = MapExpr(e, SeparateMinMax)
	if e.Type() != Int32 {
		return e
	}
	b, ok := e.(*Binary)
	if ok && b.Op == Div {
		return divideMinMax(b)
	}
	if !ok || (b.Op != Add && b.Op != Sub && b.Op != Mul) {
		return e
	}
	for round := 0; round < 4; round++ {
		l := linearOf(e)
		var next Expr
		for i, tm := range l.terms {
			m, ok := tm.x.(*Binary)
			if !ok || (m.Op != Min && m.Op != Max) || (tm.k != 1 && tm.k != -1) || len(l.terms) < 2 {
				continue
			}
			if next = l.pushPartly(i, m, tm.k, m.A, m.B); next != nil {
				break
			}
			if next = l.pushPartly(i, m, tm.k, m.B, m.A); next != nil {
				break
			}
		}
		l.release()
		if next == nil {
			break
		}
		e = next
	}
	return e
}

// divideMinMax writes (R ± min(A, B)) / c, c > 0, as min((R ± A) / c,
// (R ± B) / c) (max for -min, and for max the other way round): division
// rounding down by a positive constant is monotonic, so it goes inside the
// min or max, where each side may divide exactly ((min(2x, 62) + 1) / 2
// is min(x, 31)) and SeparateMinMax at the sum around it can cancel x.
// d is not changed where the numerator is not such a sum.
func divideMinMax(d *Binary) Expr {
	c, ok := AsInt(d.B)
	if !ok || c <= 0 {
		return d
	}
	l := linearOf(d.A)
	defer l.release()
	idx := -1
	for i, tm := range l.terms {
		if m, ok := tm.x.(*Binary); ok && (m.Op == Min || m.Op == Max) && (tm.k == 1 || tm.k == -1) {
			if idx >= 0 {
				return d // two min/max terms
			}
			idx = i
		}
	}
	if idx < 0 || l.inexact {
		return d
	}
	m, k := l.terms[idx].x.(*Binary), l.terms[idx].k
	op := m.Op
	if k == -1 {
		op = flipMinMax(op)
	}
	la, lb := l.clone(idx), l.clone(idx)
	defer la.release()
	defer lb.release()
	la.addSimp(m.A, k)
	lb.addSimp(m.B, k)
	la.compact()
	lb.compact()
	if la.inexact || lb.inexact {
		return d
	}
	div := func(x *linear) Expr { return Simplify(bin(Div, x.build(), d.B)) }
	return bin(op, div(la), div(lb))
}

// pushPartly: when the terms of A (times k) are cancelled by some of the
// other terms S of the sum R + S ± min(A, B), the sum is R + min(A + S,
// B + S), where A + S is a constant. It returns nil when the rule does
// not apply.
func (l *linear) pushPartly(idx int, m *Binary, k int64, a, b Expr) Expr {
	la := linearOf(a)
	defer la.release()
	if len(la.terms) == 0 || la.inexact {
		return nil
	}
	used := make([]bool, len(l.terms))
	for _, ta := range la.terms {
		found := false
		for i, tm := range l.terms {
			if i != idx && !used[i] && l.t.Wrap(ta.k*k+tm.k) == 0 && sameExpr(ta.x, tm.x) {
				used[i], found = true, true
				break
			}
		}
		if !found {
			return nil
		}
	}
	op := m.Op
	if k == -1 {
		op = flipMinMax(op)
	}
	ina, inb, rest := newLinear(l.t), newLinear(l.t), newLinear(l.t)
	defer ina.release()
	defer inb.release()
	defer rest.release()
	ina.addSimp(a, k)
	inb.addSimp(b, k)
	rest.c = l.c
	for i, tm := range l.terms {
		switch {
		case i == idx:
		case used[i]:
			ina.addAtom(tm.x, tm.k)
			inb.addAtom(tm.x, tm.k)
		default:
			rest.terms = append(rest.terms, tm)
		}
	}
	ina.compact()
	inb.compact()
	if ina.inexact || inb.inexact || l.inexact {
		return nil
	}
	rest.addAtom(bin(op, ina.build(), inb.build()), 1)
	rest.compact()
	return rest.build()
}

// soleMinMax finds the single Min or Max term of l with coefficient ±1
// next to other terms or a constant. It returns -1 when there is none, or
// more than one Min/Max term.
func (l *linear) soleMinMax() (idx int, k int64) {
	idx = -1
	for i, tm := range l.terms {
		if b, ok := tm.x.(*Binary); ok && tm.k != 0 && (b.Op == Min || b.Op == Max) {
			if idx >= 0 {
				return -1, 0 // more than one
			}
			idx = i
		}
	}
	// Only a min/max next to other terms is pushed into: a lone min/max
	// plus a constant stays as it is (mkMinMax moves constants out of
	// min(x + c1, c2), and pushing them back in would undo it).
	if idx < 0 || len(l.terms) == 1 {
		return -1, 0
	}
	k = l.terms[idx].k
	if k != 1 && k != -1 {
		return -1, 0
	}
	return idx, k
}

// cancels reports whether k*e plus the terms of l other than skip leaves
// only a constant.
func (l *linear) cancels(skip int, e Expr, k int64) bool {
	le := linearOf(e)
	defer le.release()
	if len(le.terms) != len(l.terms)-1 {
		return false
	}
	for i, tm := range l.terms {
		if i == skip {
			continue
		}
		found := false
		for _, te := range le.terms {
			if l.t.Wrap(te.k*k+tm.k) == 0 && sameExpr(te.x, tm.x) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

func flipMinMax(op BinOp) BinOp {
	if op == Min {
		return Max
	}
	return Min
}

// build writes l as positive terms (in order), then the negative terms
// subtracted, then the constant added or subtracted. With no positive term
// the constant comes first: 3 - x.
func (l *linear) build() Expr {
	t := l.t
	neg := func(k int64) bool { return k < 0 && k != t.Min() }
	scaled := func(x Expr, k int64) Expr {
		if k == 1 {
			return x
		}
		return bin(Mul, x, IntConst(t, k))
	}
	var acc Expr
	for _, tm := range l.terms {
		if tm.k != 0 && !neg(tm.k) {
			if acc == nil {
				acc = scaled(tm.x, tm.k)
			} else {
				acc = bin(Add, acc, scaled(tm.x, tm.k))
			}
		}
	}
	c := l.c
	for _, tm := range l.terms {
		if neg(tm.k) {
			if acc == nil {
				acc, c = IntConst(t, c), 0
			}
			acc = bin(Sub, acc, scaled(tm.x, t.Wrap(-tm.k)))
		}
	}
	switch {
	case acc == nil:
		return IntConst(t, c)
	case c == 0:
		return acc
	case neg(c):
		return bin(Sub, acc, IntConst(t, -c))
	}
	return bin(Add, acc, IntConst(t, c))
}

// diff returns the linear form of a - b (both simplified, algebraic type).
func diff(a, b Expr) *linear {
	l := newLinear(a.Type())
	l.addSimp(a, 1)
	l.addSimp(b, -1)
	l.compact()
	return l
}
