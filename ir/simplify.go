package ir

import (
	"math"
	"sync"
)

// The simplifier.
//
// Simplify rewrites an expression bottom-up: children are simplified first,
// then a "smart constructor" (mkCast, mkDiv, mkMinMax, mkCmp, ...) applies
// local rules to the already simplified operands. Smart constructors never
// re-simplify their operands, so every node is simplified once.
//
// The heart of it is the linear canonical form, used for the signed integer
// types of 32 and 64 bits (the "algebraic" types: like Halide, we assume their
// arithmetic does not overflow). A maximal tree of Add, Sub and
// Mul-by-constant nodes is collected into
//
//	k1*atom1 + k2*atom2 + ... + c
//
// where the atoms are the other (non-linear) subexpressions, each simplified
// once: Vars, Min/Max, Div, Mod, Select, Calls, Loads, Casts, Lets, products
// of two non-constants. Identical atoms (ir.Equal) are merged, in order of
// first appearance, so correlated terms cancel: (x*8 + y + 7) - (x*8 + y) is 7.
// The form is rebuilt as positive terms (atom*k, constant on the right), then
// negative terms subtracted, then the constant: ((x*8) + y) - 3.
//
// The same form answers questions the other rules ask: min(a, b), a < b and
// a == b look at the linear difference a - b, and when it is a constant (or
// a small interval computed by boundsOf) the answer is known. Div and Mod by
// a positive constant split the numerator's form into the part divisible by
// the constant and a remainder. A sum holding one min or max term absorbs the
// other terms into it when that makes one operand constant:
// min(x + 7, M) - x + 1 is min(M - x + 1, 8).
//
// Coefficients and constants are kept wrapped to the type's width; Add, Sub
// and Mul are exact modulo 2^bits, so the linear form itself is exact even
// under wrap-around. Only the rules that look at the ordering of values (Div,
// Mod, Min, Max, comparisons) rely on the no-overflow assumption.
//
// All other types (unsigned, 8 and 16 bits, bool, floats) only get constant
// folding and rules that are exact for every value (x + 0, x * 1, min(x, x),
// select(c, a, a), ...). Floats get no algebra at all: -0.0 and NaN make even
// x + 0 unsafe.
//
// Constant folding follows the executor (package cpu) exactly: integers wrap
// to their width, Div and Mod are EuclidDiv and EuclidMod (x/0 and x%0 are 0),
// unsigned values divide and compare as unsigned, float32 results are
// rounded after each operation, float Min and Max are math.Min and math.Max,
// round is half to even. Casts from float to int fold as FloatToInt
// defines them (truncate, saturate, NaN to 0).
//
// SimplifyStmt simplifies the expressions of a statement and removes the
// statements that do nothing; see its comment.

// Simplify returns an expression equal in value to e, in a simpler form.
func Simplify(e Expr) Expr { return simp(e) }

// CanProve reports whether e simplifies to the constant true.
func CanProve(e Expr) bool {
	c, ok := Simplify(e).(*IntImm)
	return ok && c.T.IsBool() && c.V != 0
}

// sameExpr reports whether a and b are structurally identical, so that
// either may stand for the other. It is Equal, except that float constants
// must match bit for bit: Equal treats 0.0 and -0.0 alike, but min(0.0, -0.0)
// or select(c, x + 0.0, x + -0.0) must not pick one for the other.
func sameExpr(a, b Expr) bool { return Equal(a, b) && sameFloatBits(a, b) }

// sameFloatBits compares the float constants of two Equal expressions bit
// for bit.
func sameFloatBits(a, b Expr) bool {
	if a == b {
		return true
	}
	switch a := a.(type) {
	case *FloatImm:
		b, ok := b.(*FloatImm)
		return ok && math.Float64bits(a.V) == math.Float64bits(b.V)
	case *Cast:
		b, ok := b.(*Cast)
		return ok && sameFloatBits(a.X, b.X)
	case *Binary:
		b, ok := b.(*Binary)
		return ok && sameFloatBits(a.A, b.A) && sameFloatBits(a.B, b.B)
	case *Not:
		b, ok := b.(*Not)
		return ok && sameFloatBits(a.X, b.X)
	case *Select:
		b, ok := b.(*Select)
		return ok && sameFloatBits(a.Cond, b.Cond) && sameFloatBits(a.True, b.True) && sameFloatBits(a.False, b.False)
	case *Call:
		b, ok := b.(*Call)
		if !ok || len(a.Args) != len(b.Args) {
			return false
		}
		for i := range a.Args {
			if !sameFloatBits(a.Args[i], b.Args[i]) {
				return false
			}
		}
	case *Load:
		b, ok := b.(*Load)
		return ok && sameFloatBits(a.Index, b.Index)
	case *Let:
		b, ok := b.(*Let)
		return ok && sameFloatBits(a.Value, b.Value) && sameFloatBits(a.Body, b.Body)
	}
	return true
}

// algebraic reports whether t gets the full algebraic simplification.
func algebraic(t Type) bool { return t.Code == IntCode && t.Bits >= 32 }

// simp simplifies e and its children.
func simp(e Expr) Expr {
	switch e := e.(type) {
	case *Cast:
		return mkCast(e.T, simp(e.X))
	case *Binary:
		return simpBinary(e)
	case *Not:
		return mkNot(simp(e.X))
	case *Select:
		// Only the arm that is taken needs simplifying when the
		// condition folds.
		c := simp(e.Cond)
		if v, ok := c.(*IntImm); ok {
			if v.V != 0 {
				return simp(e.True)
			}
			return simp(e.False)
		}
		return mkSelect(c, simp(e.True), simp(e.False))
	case *Call:
		return simpCall(e)
	case *Load:
		return MapExpr(e, simp)
	case *Let:
		return simpLet(e)
	}
	// nil, constants and Vars.
	return e
}

func simpBinary(e *Binary) Expr {
	switch e.Op {
	case Add, Sub, Mul:
		if algebraic(e.A.Type()) {
			// Collect the whole Add/Sub/Mul-by-constant tree at
			// once, simplifying only its atoms.
			l := newLinear(e.A.Type())
			defer l.release()
			l.addRaw(e, 1)
			if !l.inexact {
				return l.expr()
			}
			// A constant wrapped: the canonical form could overflow
			// where e does not (x - (-2^31) is not x + (-2^31) for
			// the rules that assume no overflow), so e keeps its
			// shape.
		}
		return mkArith(e.Op, simp(e.A), simp(e.B))
	case Div:
		return mkDiv(simp(e.A), simp(e.B))
	case Mod:
		return mkMod(simp(e.A), simp(e.B))
	case Min, Max:
		return mkMinMax(e.Op, simp(e.A), simp(e.B))
	case And, Or:
		// Short-circuit: when the left side decides, the right side
		// is not looked at.
		a := simp(e.A)
		if v, ok := a.(*IntImm); ok {
			if (v.V != 0) == (e.Op == Or) {
				return boolConst(v.V != 0)
			}
			return simp(e.B)
		}
		return mkLogic(e.Op, a, simp(e.B))
	}
	return mkCmp(e.Op, simp(e.A), simp(e.B))
}

// ---------------------------------------------------------------------------
// Constant folding.

func boolConst(b bool) Expr {
	if b {
		return True
	}
	return False
}

// isTrue and isFalse report whether e is the constant true or false.
func isTrue(e Expr) bool {
	c, ok := e.(*IntImm)
	return ok && c.V != 0
}

func isFalse(e Expr) bool {
	c, ok := e.(*IntImm)
	return ok && c.V == 0
}

// constInt returns the value of an integer constant of a non-float type.
func constInt(e Expr) (int64, bool) {
	if c, ok := e.(*IntImm); ok {
		return c.V, true
	}
	return 0, false
}

// ltInt compares two stored integer values of type t (unsigned types compare
// as unsigned).
func ltInt(t Type, a, b int64) bool {
	if t.IsUInt() {
		return uint64(a) < uint64(b)
	}
	return a < b
}

// cmpResult evaluates op on two values given as "a < b" and "a == b".
func cmpResult(op BinOp, lt, eq bool) bool {
	switch op {
	case EQ:
		return eq
	case NE:
		return !eq
	case LT:
		return lt
	case LE:
		return lt || eq
	case GT:
		return !lt && !eq
	case GE:
		return !lt
	}
	return false
}

// foldInt folds op on two integer or bool constants of type t.
func foldInt(op BinOp, t Type, a, b int64) (Expr, bool) {
	if op.IsComparison() {
		return boolConst(cmpResult(op, ltInt(t, a, b), a == b)), true
	}
	switch op {
	case And:
		return boolConst(a != 0 && b != 0), true
	case Or:
		return boolConst(a != 0 || b != 0), true
	}
	if !t.IsIntOrUInt() && op != Min && op != Max {
		return nil, false // no arithmetic on bools
	}
	var r int64
	switch op {
	case Add:
		r = a + b
	case Sub:
		r = a - b
	case Mul:
		r = a * b
	case Div:
		switch {
		case b == 0:
			r = 0
		case t.IsUInt():
			r = int64(uint64(a) / uint64(b))
		default:
			r = EuclidDiv(a, b)
		}
	case Mod:
		switch {
		case b == 0:
			r = 0
		case t.IsUInt():
			r = int64(uint64(a) % uint64(b))
		default:
			r = EuclidMod(a, b)
		}
	case Min:
		r = a
		if ltInt(t, b, a) {
			r = b
		}
	case Max:
		r = a
		if ltInt(t, a, b) {
			r = b
		}
	default:
		return nil, false
	}
	return IntConst(t, r), true
}

// foldFloat folds op on two float constants of type t, rounding float32
// results after the operation, as the executor does: float Mod is
// a - b*floor(a/b) computed in float64, Min and Max are math.Min and math.Max
// (NaN wins, -0.0 is below 0.0).
func foldFloat(op BinOp, t Type, a, b float64) (Expr, bool) {
	switch op {
	case Add:
		return Const(t, a+b), true
	case Sub:
		return Const(t, a-b), true
	case Mul:
		return Const(t, a*b), true
	case Div:
		return Const(t, a/b), true
	case Mod:
		return Const(t, a-b*math.Floor(a/b)), true
	case Min:
		return &FloatImm{t, math.Min(a, b)}, true
	case Max:
		return &FloatImm{t, math.Max(a, b)}, true
	case EQ:
		return boolConst(a == b), true
	case NE:
		return boolConst(a != b), true
	case LT:
		return boolConst(a < b), true
	case LE:
		return boolConst(a <= b), true
	case GT:
		return boolConst(a > b), true
	case GE:
		return boolConst(a >= b), true
	}
	return nil, false
}

// foldBinary folds op when both operands are constants.
func foldBinary(op BinOp, a, b Expr) (Expr, bool) {
	switch a := a.(type) {
	case *IntImm:
		if b, ok := b.(*IntImm); ok {
			return foldInt(op, a.T, a.V, b.V)
		}
	case *FloatImm:
		if b, ok := b.(*FloatImm); ok {
			return foldFloat(op, a.T, a.V, b.V)
		}
	}
	return nil, false
}

// mkCast converts x (simplified) to t: int->int wraps, float->int truncates
// toward zero then wraps, anything->bool is "nonzero".
func mkCast(t Type, x Expr) Expr {
	if x.Type() == t {
		return x
	}
	switch c := x.(type) {
	case *IntImm:
		if !t.IsFloat() {
			return IntConst(t, c.V)
		}
		// Convert directly to the target width: going through
		// float64 could round twice on the way to float32.
		unsigned64 := c.T.IsUInt() && c.T.Bits == 64
		switch {
		case t.Bits == 64 && unsigned64:
			return &FloatImm{t, float64(uint64(c.V))}
		case t.Bits == 64:
			return &FloatImm{t, float64(c.V)}
		case unsigned64:
			return &FloatImm{t, float64(float32(uint64(c.V)))}
		}
		return &FloatImm{t, float64(float32(c.V))}
	case *FloatImm:
		switch {
		case t.IsFloat():
			return Const(t, c.V)
		case t.IsBool():
			return boolConst(c.V != 0)
		}
		return IntConst(t, FloatToInt(c.V, t))
	case *Cast:
		// Widening an integer and narrowing it back is the identity:
		// int32(int64(x)) is x for an int32 x.
		in := c.X.Type()
		if in == t && t.IsIntOrUInt() && c.T.IsIntOrUInt() && c.T.Bits >= t.Bits {
			return c.X
		}
	}
	return &Cast{t, x}
}

// mkArith applies Add, Sub or Mul to simplified operands.
func mkArith(op BinOp, a, b Expr) Expr {
	t := a.Type()
	if algebraic(t) {
		l := newLinear(t)
		defer l.release()
		switch op {
		case Add:
			l.addSimp(a, 1)
			l.addSimp(b, 1)
		case Sub:
			l.addSimp(a, 1)
			l.addSimp(b, -1)
		default:
			l.addSimpMul(a, b, 1)
		}
		if !l.inexact {
			return l.expr()
		}
	}
	if r, ok := foldBinary(op, a, b); ok {
		return r
	}
	if t.IsIntOrUInt() {
		// Identities that hold for every integer value, wrapped or not.
		switch op {
		case Add:
			if IsConstValue(a, 0) {
				return b
			}
			if IsConstValue(b, 0) {
				return a
			}
		case Sub:
			if IsConstValue(b, 0) {
				return a
			}
			if sameExpr(a, b) {
				return IntConst(t, 0)
			}
		case Mul:
			if IsConstValue(a, 1) {
				return b
			}
			if IsConstValue(b, 1) {
				return a
			}
			if IsConstValue(a, 0) || IsConstValue(b, 0) {
				return IntConst(t, 0)
			}
			if IsConst(a) {
				a, b = b, a // constant on the right
			}
		}
	}
	if t.IsFloat() && op == Mul {
		// x * 1 is x for every float, NaN, infinities and -0 included
		// (x * 0 is not: inf * 0 is NaN and -1 * 0 is -0).
		if IsConstValue(a, 1) {
			return b
		}
		if IsConstValue(b, 1) {
			return a
		}
	}
	return &Binary{op, a, b}
}

// ---------------------------------------------------------------------------
// The linear form.

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
	l.t, l.c, l.inexact = t, 0, false
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
func (l *linear) addSimp(e Expr, k int64) {
	if k == 0 {
		return
	}
	switch e := e.(type) {
	case *IntImm:
		l.addConst(l.mul(k, e.V))
		return
	case *Binary:
		switch e.Op {
		case Add:
			l.addSimp(e.A, k)
			l.addSimp(e.B, k)
			return
		case Sub:
			l.addSimp(e.A, k)
			l.addSimp(e.B, l.mul(k, -1))
			return
		case Mul:
			if c, ok := constInt(e.B); ok {
				l.addSimp(e.A, l.mul(k, c))
				return
			}
			if c, ok := constInt(e.A); ok {
				l.addSimp(e.B, l.mul(k, c))
				return
			}
		}
	}
	l.addAtom(e, k)
}

// addRaw adds k*e for an unsimplified e: the Add/Sub/Mul-by-constant spine
// is walked directly, and each atom is simplified once (and then taken apart
// with addSimp, as simplifying an atom can produce a linear expression).
func (l *linear) addRaw(e Expr, k int64) {
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
			l.addRaw(e.A, k)
			l.addRaw(e.B, k)
			return
		case Sub:
			l.addRaw(e.A, k)
			l.addRaw(e.B, l.mul(k, -1))
			return
		case Mul:
			if c, ok := constInt(e.B); ok {
				l.addRaw(e.A, l.mul(k, c))
				return
			}
			if c, ok := constInt(e.A); ok {
				l.addRaw(e.B, l.mul(k, c))
				return
			}
			l.addSimpMul(simp(e.A), simp(e.B), k)
			return
		}
	}
	l.addSimp(simp(e), k)
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
	l.addAtom(&Binary{Mul, a, b}, k)
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
	rest.addAtom(&Binary{Op: op, A: ina.build(), B: inb.build()}, 1)
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
		return &Binary{Mul, x, IntConst(t, k)}
	}
	var acc Expr
	for _, tm := range l.terms {
		if tm.k != 0 && !neg(tm.k) {
			if acc == nil {
				acc = scaled(tm.x, tm.k)
			} else {
				acc = &Binary{Add, acc, scaled(tm.x, tm.k)}
			}
		}
	}
	c := l.c
	for _, tm := range l.terms {
		if neg(tm.k) {
			if acc == nil {
				acc, c = IntConst(t, c), 0
			}
			acc = &Binary{Sub, acc, scaled(tm.x, t.Wrap(-tm.k))}
		}
	}
	switch {
	case acc == nil:
		return IntConst(t, c)
	case c == 0:
		return acc
	case neg(c):
		return &Binary{Sub, acc, IntConst(t, -c)}
	}
	return &Binary{Add, acc, IntConst(t, c)}
}

// diff returns the linear form of a - b (both simplified, algebraic type).
func diff(a, b Expr) *linear {
	l := newLinear(a.Type())
	l.addSimp(a, 1)
	l.addSimp(b, -1)
	l.compact()
	return l
}

// ---------------------------------------------------------------------------
// Div and Mod.

// mkDiv divides simplified operands.
func mkDiv(a, b Expr) Expr {
	if r, ok := foldBinary(Div, a, b); ok {
		return r
	}
	t := a.Type()
	if c, ok := constInt(b); ok && t.IsIntOrUInt() {
		switch {
		case c == 0:
			return IntConst(t, 0) // x/0 is 0
		case c == 1:
			return a
		case c > 0 && algebraic(t):
			return divLinear(a, c)
		case c < -1 && algebraic(t):
			// Euclidean division by a negative constant rounds up, so
			// the rewrites of divLinear do not hold; a numerator known
			// to lie within one multiple of c still divides to a
			// constant (the quotient is monotone).
			if bd := boundsOf(a, boundsDepth); bd.hasLo && bd.hasHi && EuclidDiv(bd.lo, c) == EuclidDiv(bd.hi, c) {
				return IntConst(t, EuclidDiv(bd.lo, c))
			}
		}
	}
	return &Binary{Div, a, b}
}

// divLinear simplifies a/c for c > 0, where Euclidean division is floor
// division (a negative divisor rounds up instead, and none of these rules
// apply to it; mkDiv leaves it alone). The numerator's form
// is split into c*Q + R, where Q holds the terms whose coefficients c
// divides, and the constant is split so that R's constant is in [0, c):
// floor((c*Q + R)/c) = Q + floor(R/c). A common factor g of R and c is
// cancelled too: floor(g*R'/(g*c')) = floor(R'/c').
func divLinear(a Expr, c int64) Expr {
	t := a.Type()
	l := linearOf(a)
	defer l.release()
	if l.inexact {
		// A constant wrapped taking a apart (x - (-2^63)): its linear
		// form is not a's value.
		return &Binary{Div, a, IntConst(t, c)}
	}
	q, r := newLinear(t), newLinear(t)
	defer q.release()
	defer r.release()
	for _, tm := range l.terms {
		if tm.k%c == 0 {
			q.addAtom(tm.x, tm.k/c)
		} else {
			r.addAtom(tm.x, tm.k)
		}
	}
	q.c = EuclidDiv(l.c, c)
	if len(r.terms) == 0 {
		return q.expr()
	}
	r.c = EuclidMod(l.c, c)
	g := GCD(c, r.c)
	for _, tm := range r.terms {
		g = GCD(g, tm.k)
	}
	if g > 1 {
		for i := range r.terms {
			r.terms[i].k /= g
		}
		r.c /= g
		c /= g
	}
	q.addSimp(divAtom(r.expr(), c), 1)
	return q.expr()
}

// divAtom is num/c for c > 1 once the linear parts are taken out.
func divAtom(num Expr, c int64) Expr {
	t := num.Type()
	if v, ok := constInt(num); ok {
		return IntConst(t, EuclidDiv(v, c))
	}
	// A numerator known to lie within one multiple of c divides to a
	// constant: (x % 8)/8 is 0.
	if bd := boundsOf(num, boundsDepth); bd.hasLo && bd.hasHi && EuclidDiv(bd.lo, c) == EuclidDiv(bd.hi, c) {
		return IntConst(t, EuclidDiv(bd.lo, c))
	}
	// (x/c1)/c2 is x/(c1*c2) for positive divisors.
	if d, ok := num.(*Binary); ok && d.Op == Div {
		if c1, ok := constInt(d.B); ok && c1 > 0 {
			if p, ok := mulChecked(c1, c); ok && p <= t.Max() {
				return divLinear(d.A, p) // d.A is smaller: this ends
			}
		}
	}
	return &Binary{Div, num, IntConst(t, c)}
}

// mkMod takes the Euclidean modulo of simplified operands.
func mkMod(a, b Expr) Expr {
	if r, ok := foldBinary(Mod, a, b); ok {
		return r
	}
	t := a.Type()
	if c, ok := constInt(b); ok && t.IsIntOrUInt() {
		switch {
		case c == 0 || c == 1:
			return IntConst(t, 0) // x%0 is 0, x%1 is 0
		case c > 0 && algebraic(t):
			return modLinear(a, c)
		}
	}
	return &Binary{Mod, a, b}
}

// modLinear simplifies a % c for c > 0: terms whose coefficients c divides
// vanish, larger coefficients are reduced (x*9 % 8 is x % 8), the constant
// is reduced into [0, c); a remainder already known to lie in [0, c) is the
// answer (so (x % 8) % 8 is x % 8), and (x % (c*k)) % c is x % c.
func modLinear(a Expr, c int64) Expr {
	t := a.Type()
	l := linearOf(a)
	defer l.release()
	if l.inexact {
		return &Binary{Mod, a, IntConst(t, c)} // see divLinear
	}
	r := newLinear(t)
	defer r.release()
	for _, tm := range l.terms {
		k := tm.k
		if k >= c || k <= -c {
			k %= c
		}
		r.addAtom(tm.x, k)
	}
	r.c = EuclidMod(l.c, c)
	if len(r.terms) == 0 {
		return IntConst(t, r.c)
	}
	num := r.expr()
	if bd := boundsOf(num, boundsDepth); bd.hasLo && bd.hasHi && bd.lo >= 0 && bd.hi < c {
		return num
	}
	if m, ok := num.(*Binary); ok && m.Op == Mod {
		if c1, ok := constInt(m.B); ok && c1 > 0 && c1%c == 0 {
			return modLinear(m.A, c)
		}
	}
	return &Binary{Mod, num, IntConst(t, c)}
}

// GCD is the greatest common divisor of |a| and |b| (GCD(0, b) = |b|).
func GCD(a, b int64) int64 {
	if a < 0 {
		a = -a
	}
	if b < 0 {
		b = -b
	}
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// ---------------------------------------------------------------------------
// Min and Max.

// mkMinMax applies Min or Max to simplified operands.
func mkMinMax(op BinOp, a, b Expr) Expr {
	if r, ok := foldBinary(op, a, b); ok {
		return r
	}
	// min(x, x) is x.
	if sameExpr(a, b) {
		return a
	}
	t := a.Type()
	if t.IsFloat() {
		return &Binary{op, a, b}
	}
	// A constant operand goes on the right.
	if IsConst(a) {
		a, b = b, a
	}
	// If a - b is a constant (or lies in a known interval), one operand
	// is always the smaller: min(x + 3, x + 5) is x + 3.
	if algebraic(t) {
		d := diff(a, b)
		bd := d.bounds(boundsDepth)
		d.release()
		aBelow := bd.hasHi && bd.hi <= 0 // a <= b always
		aAbove := bd.hasLo && bd.lo >= 0 // a >= b always
		if (op == Min && aBelow) || (op == Max && aAbove) {
			return a
		}
		if (op == Min && aAbove) || (op == Max && aBelow) {
			return b
		}
	}
	// min(x + c1, c2) is min(x, c2 - c1) + c1: the constant moves out, so
	// that min(x + 63, 1023) - min(x, 960) cancels to 63.
	if algebraic(t) {
		if c2, ok := constInt(b); ok {
			if x, c1, ok := splitConst(a); ok {
				// Only when c2 - c1 does not overflow: min(x + 1,
				// -2^31) is not min(x, 2^31 - 1) + 1.
				if d, ok := addChecked(c2, -c1); ok && c1 != math.MinInt64 && t.Wrap(d) == d {
					return mkArith(Add, mkMinMax(op, x, IntConst(t, d)), IntConst(t, c1))
				}
			}
		}
	}
	if ia, ok := a.(*Binary); ok {
		// min(min(x, c1), c2) is min(x, min(c1, c2)).
		if ia.Op == op && IsConst(ia.B) && IsConst(b) {
			if c, ok := foldBinary(op, ia.B, b); ok {
				return mkMinMax(op, ia.A, c)
			}
		}
		// min(max(x, y), x) is x; min(min(x, y), x) is min(x, y).
		if ia.Op == flipMinMax(op) && (sameExpr(ia.A, b) || sameExpr(ia.B, b)) {
			return b
		}
		if ia.Op == op && (sameExpr(ia.A, b) || sameExpr(ia.B, b)) {
			return a
		}
	}
	if ib, ok := b.(*Binary); ok {
		// min(x, max(x, y)) is x; min(x, min(x, y)) is min(x, y).
		if ib.Op == flipMinMax(op) && (sameExpr(ib.A, a) || sameExpr(ib.B, a)) {
			return a
		}
		if ib.Op == op && (sameExpr(ib.A, a) || sameExpr(ib.B, a)) {
			return b
		}
	}
	// min(select(c, x, y), z) is min(x, z) = min(y, z) when those are the
	// same (a sliding window's first iteration and the others reaching
	// back to the same row: min(select(c, v - 1, v + 1), v - 1) is v - 1).
	for _, p := range [2][2]Expr{{a, b}, {b, a}} {
		if sel, ok := p[0].(*Select); ok && !isSelect(sel.True) && !isSelect(sel.False) {
			if !isSelect(p[1]) { // one level: the rule costs two calls, never 2^depth
				if x := mkMinMax(op, sel.True, p[1]); sameExpr(x, mkMinMax(op, sel.False, p[1])) {
					return x
				}
			}
		}
	}
	return &Binary{op, a, b}
}

func isSelect(e Expr) bool {
	_, ok := e.(*Select)
	return ok
}

// splitConst splits x + c (or x - c) with a nonzero constant c from the
// canonical linear form.
func splitConst(e Expr) (Expr, int64, bool) {
	b, ok := e.(*Binary)
	if !ok {
		return nil, 0, false
	}
	c, ok := constInt(b.B)
	if !ok || c == 0 {
		return nil, 0, false
	}
	switch b.Op {
	case Add:
		return b.A, c, true
	case Sub:
		return b.A, -c, true
	}
	return nil, 0, false
}

// ---------------------------------------------------------------------------
// Comparisons and logic.

// mkCmp compares simplified operands. a > b is written b < a and a >= b is
// b <= a.
func mkCmp(op BinOp, a, b Expr) Expr {
	switch op {
	case GT:
		op, a, b = LT, b, a
	case GE:
		op, a, b = LE, b, a
	}
	if r, ok := foldBinary(op, a, b); ok {
		return r
	}
	t := a.Type()
	if t.IsFloat() {
		return &Binary{op, a, b}
	}
	// x == x, x <= x are true; x != x, x < x are false.
	if sameExpr(a, b) {
		return boolConst(op == EQ || op == LE)
	}
	if algebraic(t) {
		return cmpLinear(op, a, b)
	}
	return &Binary{op, a, b}
}

// cmpLinear decides a op b from the linear difference d = a - b when it is a
// constant or lies in a known interval (x + 1 < x + 3, x % 8 < 8). Otherwise
// it cancels the common terms and writes the comparison as P op N + k, the
// positive terms of d on the left and the negative terms and constant on the
// right (x + y < x + 5 is y < 5; x + 1 < y is x < y - 1).
func cmpLinear(op BinOp, a, b Expr) Expr {
	t := a.Type()
	d := diff(a, b)
	defer d.release()
	if d.inexact {
		return &Binary{op, a, b}
	}
	if r := decideCmp(op, d.bounds(boundsDepth)); r != nil { // exact when d is a constant
		return r
	}
	if d.c == t.Min() {
		// -d.c, the constant moved to the right, wraps around.
		return &Binary{op, a, b}
	}
	pos, neg := newLinear(t), newLinear(t)
	defer pos.release()
	defer neg.release()
	for _, tm := range d.terms {
		if tm.k == t.Min() {
			return &Binary{op, a, b}
		}
		if tm.k > 0 {
			pos.addAtom(tm.x, tm.k)
		} else {
			neg.addAtom(tm.x, -tm.k)
		}
	}
	if len(pos.terms) == 0 {
		// k op N: the constant stays on the left.
		pos.c = d.c
	} else {
		neg.c = t.Wrap(-d.c)
	}
	pe, ne := pos.expr(), neg.expr()
	// Rebuilding a side may have left a constant outside a min or max
	// (min(y, 9) - 6): it moves to the other side, as for other terms.
	if x, c, ok := splitConst(pe); ok && isMinMax(x) && len(neg.terms) > 0 {
		pe, ne = x, mkArith(Sub, ne, IntConst(t, c))
	} else if x, c, ok := splitConst(ne); ok && isMinMax(x) && len(pos.terms) > 0 {
		pe, ne = mkArith(Sub, pe, IntConst(t, c)), x
	}
	// The sides are new sums: the original sides did not overflow, but
	// moving terms and the constant across can make one that does, which
	// would change the result of the comparison (at a = 1,
	// -2^31 + 1 < a - p is not p < a + (2^31 - 1)). When the bounds of
	// the atoms show that a new side can leave the type, the comparison
	// is left as it is.
	if mayLeaveType(pe) || mayLeaveType(ne) {
		return &Binary{op, a, b}
	}
	// Rebuilding a side may have pushed its terms into a min or max
	// (y + min(x, -7 - y) is min(x + y, -7)), whose bounds say more.
	if isMinMax(pe) || isMinMax(ne) {
		bd := boundsOf(pe, boundsDepth).add(boundsOf(ne, boundsDepth).scale(-1))
		if r := decideCmp(op, bd); r != nil {
			return r
		}
	}
	return &Binary{op, pe, ne}
}

// mayLeaveType reports whether the bounds of its atoms show that the
// simplified sum e of an algebraic type can take a value outside its type
// (so that, evaluated with wrap-around, it is not its exact value). Atoms
// with unknown bounds are assumed, as everywhere, not to make it overflow.
func mayLeaveType(e Expr) bool {
	l := linearOf(e)
	defer l.release()
	if l.inexact {
		return true
	}
	t := l.t
	lo, hi := l.c, l.c
	loOK, hiOK := true, true
	for _, tm := range l.terms {
		b := boundsOf(tm.x, boundsDepth)
		if tm.k < 0 {
			b.lo, b.hi, b.hasLo, b.hasHi = b.hi, b.lo, b.hasHi, b.hasLo
		}
		if loOK = loOK && b.hasLo; loOK {
			p, ok1 := mulChecked(b.lo, tm.k)
			s, ok2 := addChecked(lo, p)
			if !ok1 || !ok2 {
				return true
			}
			lo = s
		}
		if hiOK = hiOK && b.hasHi; hiOK {
			p, ok1 := mulChecked(b.hi, tm.k)
			s, ok2 := addChecked(hi, p)
			if !ok1 || !ok2 {
				return true
			}
			hi = s
		}
	}
	return (loOK && lo < t.Min()) || (hiOK && hi > t.Max())
}

// decideCmp returns the value of d op 0 when the interval bd of d decides
// it, or nil.
func decideCmp(op BinOp, bd interval) Expr {
	switch op {
	case LT:
		if bd.hasHi && bd.hi < 0 {
			return True
		}
		if bd.hasLo && bd.lo >= 0 {
			return False
		}
	case LE:
		if bd.hasHi && bd.hi <= 0 {
			return True
		}
		if bd.hasLo && bd.lo > 0 {
			return False
		}
	case EQ, NE:
		if bd.hasLo && bd.hasHi && bd.lo == 0 && bd.hi == 0 {
			return boolConst(op == EQ)
		}
		if (bd.hasLo && bd.lo > 0) || (bd.hasHi && bd.hi < 0) {
			return boolConst(op == NE)
		}
	}
	return nil
}

func isMinMax(e Expr) bool {
	b, ok := e.(*Binary)
	return ok && (b.Op == Min || b.Op == Max)
}

// mkNot negates a simplified bool. !(a < b) is b <= a for integers.
func mkNot(x Expr) Expr {
	switch x := x.(type) {
	case *IntImm:
		return boolConst(x.V == 0)
	case *Not:
		return x.X
	case *Binary:
		switch x.Op {
		case EQ:
			return mkCmp(NE, x.A, x.B)
		case NE:
			return mkCmp(EQ, x.A, x.B)
		}
		if x.Op.IsComparison() && !x.A.Type().IsFloat() {
			switch x.Op {
			case LT:
				return mkCmp(LE, x.B, x.A)
			case LE:
				return mkCmp(LT, x.B, x.A)
			case GT:
				return mkCmp(LE, x.A, x.B)
			case GE:
				return mkCmp(LT, x.A, x.B)
			}
		}
	}
	return &Not{x}
}

// mkLogic applies And or Or to simplified bools: x && true is x, x && false
// is false, x || false is x, x || true is true, x && x is x.
func mkLogic(op BinOp, a, b Expr) Expr {
	if r, ok := foldBinary(op, a, b); ok {
		return r
	}
	for _, p := range [2][2]Expr{{a, b}, {b, a}} {
		if c, ok := p[0].(*IntImm); ok {
			if (c.V != 0) == (op == And) {
				return p[1] // true && x, false || x
			}
			return boolConst(c.V != 0) // false && x, true || x
		}
	}
	if sameExpr(a, b) {
		return a
	}
	return &Binary{op, a, b}
}

// mkSelect builds select(c, t, f) from simplified parts.
func mkSelect(c, t, f Expr) Expr {
	if v, ok := c.(*IntImm); ok {
		if v.V != 0 {
			return t
		}
		return f
	}
	// select(c, a, a) is a.
	if sameExpr(t, f) {
		return t
	}
	// select(c, true, false) is c; select(c, false, true) is !c.
	if t.Type().IsBool() {
		if isTrue(t) && isFalse(f) {
			return c
		}
		if isFalse(t) && isTrue(f) {
			return mkNot(c)
		}
	}
	// select(!c, a, b) is select(c, b, a).
	if n, ok := c.(*Not); ok {
		return &Select{n.X, f, t}
	}
	return &Select{c, t, f}
}

// ---------------------------------------------------------------------------
// Let and Call.

// substitutable reports whether a let value may be substituted into its
// body: constants and variables cost nothing to repeat.
func substitutable(v Expr) bool {
	switch v.(type) {
	case *IntImm, *FloatImm, *Var:
		return true
	}
	return false
}

// captures reports whether substituting the variable v for name in e would
// put v under a Let that rebinds v.Name around a use of name.
func captures(e Expr, name string, v *Var) bool {
	found := false
	WalkExpr(e, func(x Expr) bool {
		if l, ok := x.(*Let); ok && l.Name == v.Name && Uses(l.Body, name) {
			found = true
		}
		return !found
	})
	return found
}

// simpLet: a constant or Var value is substituted into the body (unless an
// inner Let would capture the Var); a binding the body does not use is
// dropped. Other values stay bound: substituting them could duplicate work.
func simpLet(e *Let) Expr {
	v := simp(e.Value)
	if vr, ok := v.(*Var); ok && vr.Name == e.Name {
		return simp(e.Body) // let x = x binds nothing new
	}
	if substitutable(v) {
		if vr, ok := v.(*Var); !ok || !captures(e.Body, e.Name, vr) {
			return simp(Substitute(e.Body, map[string]Expr{e.Name: v}))
		}
	}
	b := simp(e.Body)
	if !Uses(b, e.Name) {
		return b
	}
	// A Var value blocked by a capturing Let that simplification removed
	// can go in now; the second pass only sees a simplified body.
	if vr, ok := v.(*Var); ok && !captures(b, e.Name, vr) {
		return simp(Substitute(b, map[string]Expr{e.Name: v}))
	}
	return &Let{e.Name, v, b}
}

// simpCall simplifies the arguments of a call and folds intrinsics on
// constants.
func simpCall(e *Call) Expr {
	args, changed := mapExprs(e.Args, simp)
	if e.Kind == CallIntrinsic {
		if r := foldIntrinsic(e.T, e.Name, args); r != nil {
			return r
		}
	}
	if !changed {
		return e
	}
	c := *e
	c.Args = args
	return &c
}

// foldIntrinsic evaluates an intrinsic on constant arguments, or returns nil.
func foldIntrinsic(t Type, name string, args []Expr) Expr {
	switch name {
	case IntrinsicLikely:
		// likely(x) stays a marker, except on a constant, which has
		// no branch left to mark.
		if len(args) == 1 && IsConst(args[0]) {
			return args[0]
		}
	case IntrinsicPromiseClamped:
		// promise_clamped(x, lo, hi) evaluates to min(max(x, lo), hi).
		if len(args) != 3 || args[0].Type() != t {
			return nil
		}
		if x, ok := foldBinary(Max, args[0], args[1]); ok {
			if x, ok := foldBinary(Min, x, args[2]); ok {
				return x
			}
		}
	case IntrinsicUnsafePromiseClamped:
		// unsafe_promise_clamped(x, lo, hi) evaluates to x: on a
		// constant that keeps the promise it is that constant (a broken
		// promise stays visible).
		if len(args) == 3 && args[0].Type() == t {
			x, ok := constInt(args[0])
			lo, ok1 := constInt(args[1])
			hi, ok2 := constInt(args[2])
			if ok && ok1 && ok2 && lo <= x && x <= hi {
				return args[0]
			}
		}
	case IntrinsicAbs:
		if len(args) == 1 && t.IsIntOrUInt() {
			if v, ok := constInt(args[0]); ok {
				if args[0].Type().IsInt() && v < 0 {
					v = -v
				}
				return IntConst(t, v)
			}
		}
		fallthrough
	case IntrinsicSqrt, IntrinsicExp, IntrinsicLog, IntrinsicFloor, IntrinsicCeil, IntrinsicRound, IntrinsicPow:
		return foldMath(t, name, args)
	}
	return nil
}

// foldMath evaluates a float math intrinsic on float constants, rounding to
// float32 for float32 results.
func foldMath(t Type, name string, args []Expr) Expr {
	if !t.IsFloat() || len(args) == 0 {
		return nil
	}
	var v [2]float64
	for i, a := range args {
		c, ok := a.(*FloatImm)
		if !ok || i >= 2 {
			return nil
		}
		v[i] = c.V
	}
	x := v[0]
	var r float64
	switch name {
	case IntrinsicAbs:
		r = math.Abs(x)
	case IntrinsicSqrt:
		r = math.Sqrt(x)
	case IntrinsicExp:
		r = math.Exp(x)
	case IntrinsicLog:
		r = math.Log(x)
	case IntrinsicFloor:
		r = math.Floor(x)
	case IntrinsicCeil:
		r = math.Ceil(x)
	case IntrinsicRound:
		r = math.RoundToEven(x) // halfway cases go to even
	case IntrinsicPow:
		if len(args) != 2 {
			return nil
		}
		r = math.Pow(x, v[1])
	default:
		return nil
	}
	if name != IntrinsicPow && len(args) != 1 {
		return nil
	}
	return Const(t, r)
}

// ---------------------------------------------------------------------------
// Bounds.

// boundsDepth limits how many non-linear levels boundsOf looks through, so
// that asking for bounds stays cheap.
const boundsDepth = 4

// interval is a range of values; an end is unknown unless its has flag is set.
type interval struct {
	lo, hi       int64
	hasLo, hasHi bool
}

func exact(v int64) interval { return interval{v, v, true, true} }

func addChecked(a, b int64) (int64, bool) {
	s := a + b
	if (a > 0 && b > 0 && s < 0) || (a < 0 && b < 0 && s >= 0) {
		return 0, false
	}
	return s, true
}

func mulChecked(a, b int64) (int64, bool) {
	if a == 0 || b == 0 {
		return 0, true
	}
	p := a * b
	if p/b != a || (a == -1 && b == math.MinInt64) || (b == -1 && a == math.MinInt64) {
		return 0, false
	}
	return p, true
}

func (a interval) add(b interval) interval {
	var r interval
	if a.hasLo && b.hasLo {
		r.lo, r.hasLo = addChecked(a.lo, b.lo)
	}
	if a.hasHi && b.hasHi {
		r.hi, r.hasHi = addChecked(a.hi, b.hi)
	}
	return r
}

func (a interval) scale(k int64) interval {
	var r interval
	if a.hasLo {
		r.lo, r.hasLo = mulChecked(a.lo, k)
	}
	if a.hasHi {
		r.hi, r.hasHi = mulChecked(a.hi, k)
	}
	if k < 0 {
		r.lo, r.hi, r.hasLo, r.hasHi = r.hi, r.lo, r.hasHi, r.hasLo
	}
	return r
}

// intersect keeps the tighter of each end.
func (a interval) intersect(b interval) interval {
	if b.hasLo && (!a.hasLo || b.lo > a.lo) {
		a.lo, a.hasLo = b.lo, true
	}
	if b.hasHi && (!a.hasHi || b.hi < a.hi) {
		a.hi, a.hasHi = b.hi, true
	}
	return a
}

// bounds is the interval of the linear form, from the bounds of its atoms.
// A sum T ± min(A, B) is bounded as min(T ± A, T ± B), which sees the
// correlation between T and the operands: x + min(-1 - x, y) <= -1.
func (l *linear) bounds(depth int) interval {
	if l.inexact {
		return interval{}
	}
	if idx, k := l.soleMinMax(); idx >= 0 && depth > 0 {
		m := l.terms[idx].x.(*Binary)
		op := m.Op
		if k == -1 {
			op = flipMinMax(op)
		}
		la := l.clone(idx)
		la.addSimp(m.A, k)
		ba := la.bounds(depth - 1)
		la.release()
		lb := l.clone(idx)
		lb.addSimp(m.B, k)
		bb := lb.bounds(depth - 1)
		lb.release()
		return minMaxInterval(op, ba, bb)
	}
	if i, j, d, c := l.divPair(); i >= 0 && depth > 0 {
		// k*(A/c) - k*(B/c) with A - B = d, a constant: with
		// B = q*c + r (0 <= r < c), A/c - B/c = (r + d)/c, which is
		// in [floor(d/c), ceil(d/c)] (((m + 1)/2 - m/2 is 0 or 1).
		rest := l.clone(-1)
		k := rest.terms[i].k
		rest.terms[i].k, rest.terms[j].k = 0, 0
		rest.compact()
		pair := interval{EuclidDiv(d, c), -EuclidDiv(-d, c), true, true}.scale(k)
		r := rest.bounds(depth - 1).add(pair)
		rest.release()
		return r.intersect(l.sumBounds(depth))
	}
	if i, m, n, c := l.correlatedDiv(); i >= 0 && depth > 0 {
		// k*(n/c) with k = m*c is m*(n - n%c), and n%c is in
		// [0, c-1]: the terms of n can then cancel with the others
		// (((e + 7)/8)*8 - e is in [0, 7]).
		rel := l.clone(i)
		rel.addSimp(n, m)
		r := rel.bounds(depth - 1).add(interval{0, c - 1, true, true}.scale(-m))
		rel.release()
		return r.intersect(l.sumBounds(depth))
	}
	return l.sumBounds(depth)
}

// divPair finds two terms k*(A/c) and -k*(B/c) of l, for a constant c > 0,
// whose numerators differ by a constant d = A - B. It returns their indices
// (or -1), d and c.
func (l *linear) divPair() (int, int, int64, int64) {
	for i, ti := range l.terms {
		a, ok := ti.x.(*Binary)
		if !ok || a.Op != Div || ti.k == 0 {
			continue
		}
		c, ok := constInt(a.B)
		if !ok || c <= 0 {
			continue
		}
		for j := i + 1; j < len(l.terms); j++ {
			tj := l.terms[j]
			b, ok := tj.x.(*Binary)
			if !ok || b.Op != Div || tj.k != -ti.k {
				continue
			}
			if c2, ok := constInt(b.B); !ok || c2 != c {
				continue
			}
			dl := diff(a.A, b.A)
			d, constant := dl.c, len(dl.terms) == 0 && !dl.inexact
			dl.release()
			if constant {
				return i, j, d, c
			}
		}
	}
	return -1, -1, 0, 0
}

// ConstantBounds returns constant bounds of the integer expression e of a
// signed 32- or 64-bit type, every variable unbounded, assuming no
// overflow (as Simplify does). Unlike an interval walk it sees correlated
// terms of the linear form: x + min(-1 - x, y) <= -1, ((e + 7)/8)*8 - e in
// [0, 7], (m + 1)/2 - m/2 in [0, 1].
func ConstantBounds(e Expr) (lo, hi int64, hasLo, hasHi bool) {
	if e == nil || !algebraic(e.Type()) {
		return 0, 0, false, false
	}
	se := simp(e)
	l := linearOf(se)
	r := l.bounds(8)
	l.release()
	return r.lo, r.hi, r.hasLo, r.hasHi
}

// correlatedDiv finds a term k*(n/c) of l, for a constant c > 0 dividing k,
// whose numerator n shares an atom with the other terms. It returns the
// term's index (or -1), k/c, n and c.
func (l *linear) correlatedDiv() (int, int64, Expr, int64) {
	for i, tm := range l.terms {
		d, ok := tm.x.(*Binary)
		if !ok || d.Op != Div {
			continue
		}
		c, ok := constInt(d.B)
		if !ok || c <= 0 || tm.k%c != 0 {
			continue
		}
		ln := linearOf(d.A)
		shared := false
		for _, tn := range ln.terms {
			for j, to := range l.terms {
				if j != i && to.k != 0 && sameExpr(tn.x, to.x) {
					shared = true
				}
			}
		}
		ln.release()
		if shared {
			return i, tm.k / c, d.A, c
		}
	}
	return -1, 0, nil, 0
}

// sumBounds adds up the bounds of the terms.
func (l *linear) sumBounds(depth int) interval {
	r := exact(l.c)
	for _, tm := range l.terms {
		if tm.k == 0 {
			continue
		}
		r = r.add(boundsOf(tm.x, depth).scale(tm.k))
		if !r.hasLo && !r.hasHi {
			break
		}
	}
	return r
}

// minMaxInterval is the interval of min(a, b) (or max) for a in ia and b in
// ib: the min is below either upper bound alone, and above both lower ones.
func minMaxInterval(op BinOp, ia, ib interval) interval {
	if op == Max {
		// max(a, b) = -min(-a, -b)
		ia, ib = ia.scale(-1), ib.scale(-1)
	}
	var r interval
	if ia.hasLo && ib.hasLo {
		r.lo, r.hasLo = min(ia.lo, ib.lo), true
	}
	switch {
	case ia.hasHi && ib.hasHi:
		r.hi, r.hasHi = min(ia.hi, ib.hi), true
	case ia.hasHi:
		r.hi, r.hasHi = ia.hi, true
	case ib.hasHi:
		r.hi, r.hasHi = ib.hi, true
	}
	if op == Max {
		r = r.scale(-1)
	}
	return r
}

// boundsOf returns an interval holding every value of the simplified
// expression e of an algebraic type (assuming no overflow), looking through
// at most depth non-linear nodes. Unknown ends are left unset.
func boundsOf(e Expr, depth int) interval {
	if depth <= 0 {
		return interval{}
	}
	switch e := e.(type) {
	case *IntImm:
		return exact(e.V)
	case *Binary:
		switch e.Op {
		case Add:
			return boundsOf(e.A, depth).add(boundsOf(e.B, depth))
		case Sub:
			return boundsOf(e.A, depth).add(boundsOf(e.B, depth).scale(-1))
		case Mul:
			if c, ok := constInt(e.B); ok {
				return boundsOf(e.A, depth).scale(c)
			}
			if c, ok := constInt(e.A); ok {
				return boundsOf(e.B, depth).scale(c)
			}
		case Div:
			if c, ok := constInt(e.B); ok && c > 0 {
				a := boundsOf(e.A, depth-1)
				a.lo, a.hi = EuclidDiv(a.lo, c), EuclidDiv(a.hi, c)
				return a
			}
			if c, ok := constInt(e.B); ok && c < -1 {
				// Non-increasing in the numerator (-1 is left out:
				// MIN / -1 wraps).
				a := boundsOf(e.A, depth-1)
				return interval{EuclidDiv(a.hi, c), EuclidDiv(a.lo, c), a.hasHi, a.hasLo}
			}
		case Mod:
			if c, ok := constInt(e.B); ok && c > 0 {
				return interval{0, c - 1, true, true}
			}
			if c, ok := constInt(e.B); ok && c < 0 {
				// Euclidean: in [0, |c|) for either sign (-(c+1) is
				// |c| - 1 without overflow).
				return interval{0, -(c + 1), true, true}
			}
		case Min, Max:
			return minMaxInterval(e.Op, boundsOf(e.A, depth-1), boundsOf(e.B, depth-1))
		}
	case *Select:
		a, b := boundsOf(e.True, depth-1), boundsOf(e.False, depth-1)
		return interval{min(a.lo, b.lo), max(a.hi, b.hi), a.hasLo && b.hasLo, a.hasHi && b.hasHi}
	case *Cast:
		s := e.X.Type()
		var r interval
		if s.IsIntOrUInt() || s.IsBool() {
			if s.Bits < e.T.Bits || (s.IsInt() && s.Bits <= e.T.Bits) {
				r = interval{s.Min(), s.Max(), true, true}
			}
			if algebraic(s) && s.Bits <= e.T.Bits {
				r = r.intersect(boundsOf(e.X, depth-1))
			}
		}
		return r
	case *Call:
		if e.Kind != CallIntrinsic {
			break
		}
		switch e.Name {
		case IntrinsicLikely:
			if len(e.Args) == 1 {
				return boundsOf(e.Args[0], depth-1)
			}
		case IntrinsicPromiseClamped:
			// min(max(x, lo), hi), also when lo > hi.
			if len(e.Args) == 3 && e.Args[1].Type() == e.T && e.Args[2].Type() == e.T {
				x := boundsOf(e.Args[0], depth-1)
				lo, hi := boundsOf(e.Args[1], depth-1), boundsOf(e.Args[2], depth-1)
				return minMaxInterval(Min, minMaxInterval(Max, x, lo), hi)
			}
		case IntrinsicUnsafePromiseClamped:
			if len(e.Args) == 3 {
				lo, ok1 := constInt(e.Args[1])
				hi, ok2 := constInt(e.Args[2])
				if ok1 && ok2 && lo <= hi && e.Args[1].Type() == e.T && e.Args[2].Type() == e.T {
					return interval{lo, hi, true, true}
				}
			}
		}
	case *Let:
		return boundsOf(e.Body, depth-1)
	}
	return interval{}
}

// ---------------------------------------------------------------------------
// Statements.

// SimplifyStmt simplifies every expression in s and removes statements that
// do nothing: loops with no iterations, ifs on constants, asserts that hold,
// lets of constants and Vars (substituted), lets that are not used. Loops of
// one iteration (not GPU loops) become lets. It returns nil when nothing is
// left. ProducerConsumer, Realize and Allocate nodes are kept, with an empty
// Block for a body that vanished.
func SimplifyStmt(s Stmt) Stmt {
	c := &stmtSimp{sub: map[string]Expr{}, binders: map[string]int{}, scope: map[string]int{}}
	countBinders(s, c.binders)
	return c.stmt(s)
}

// stmtSimp simplifies a statement. The lets of constants and Vars it
// substitutes are not substituted into their whole body before the body
// is simplified (which made a chain of n nested lets take n walks of the
// statement): they are pending in sub, and applied to each expression as
// it is simplified. binders counts the binders (For, LetStmt, Let) of each
// name in the whole statement and scope the enclosing ones, so that most
// substitutions are known safe without walking the body (see safe).
type stmtSimp struct {
	sub     map[string]Expr
	binders map[string]int
	scope   map[string]int
}

// countBinders adds the binders of each name in s to n.
func countBinders(s Stmt, n map[string]int) {
	WalkStmt(s, func(x Stmt) bool {
		switch x := x.(type) {
		case *For:
			n[x.Name]++
		case *LetStmt:
			n[x.Name]++
		}
		return true
	}, func(e Expr) bool {
		if l, ok := e.(*Let); ok {
			n[l.Name]++
		}
		return true
	})
}

// expr simplifies e with the pending substitutions applied.
func (c *stmtSimp) expr(e Expr) Expr {
	if e == nil {
		return nil
	}
	return simp(Substitute(e, c.sub))
}

// bind runs f with name bound by a binder of the statement: a pending
// substitution of an outer name is shadowed.
func (c *stmtSimp) bind(name string, f func()) {
	old, had := c.sub[name]
	delete(c.sub, name)
	c.scope[name]++
	f()
	c.scope[name]--
	delete(c.sub, name)
	if had {
		c.sub[name] = old
	}
}

func (c *stmtSimp) stmt(s Stmt) Stmt {
	switch s := s.(type) {
	case nil:
		return nil
	case *LetStmt:
		return c.letStmt(s.Name, c.expr(s.Value), s.Body)
	case *AssertStmt:
		cond := c.expr(s.Cond)
		if isTrue(cond) {
			return nil
		}
		args, _ := mapExprs(s.Args, c.expr)
		return &AssertStmt{cond, s.Message, args, s.Error}
	case *ProducerConsumer:
		return &ProducerConsumer{s.Func, s.Producer, nonNil(c.stmt(s.Body))}
	case *For:
		return c.loop(s)
	case *Block:
		out := make([]Stmt, 0, len(s.Stmts))
		for _, x := range s.Stmts {
			out = append(out, c.stmt(x))
		}
		return MakeBlock(out...)
	case *IfThenElse:
		cond := c.expr(s.Cond)
		if v, ok := cond.(*IntImm); ok {
			if v.V != 0 {
				return c.stmt(s.Then)
			}
			return c.stmt(s.Else)
		}
		then, els := c.stmt(s.Then), c.stmt(s.Else)
		switch {
		case then == nil && els == nil:
			return nil
		case then == nil:
			return &IfThenElse{mkNot(cond), els, nil}
		}
		return &IfThenElse{cond, then, els}
	case *Evaluate:
		x := c.expr(s.X)
		if IsConst(x) {
			return nil
		}
		return &Evaluate{x}
	case *Realize:
		bounds := make([]Range, len(s.Bounds))
		for i, r := range s.Bounds {
			bounds[i] = Range{c.expr(r.Min), c.expr(r.Extent)}
		}
		r := *s // a copy keeps every field
		r.Bounds, r.Body = bounds, nonNil(c.stmt(s.Body))
		return &r
	case *Allocate:
		ext, _ := mapExprs(s.Extents, c.expr)
		return &Allocate{Name: s.Name, T: s.T, Memory: s.Memory, Extents: ext, PerThread: s.PerThread, InGlobal: s.InGlobal, Body: nonNil(c.stmt(s.Body))}
	}
	// Provide and Store: only expressions to simplify.
	return MapStmt(s, c.stmt, c.expr)
}

// nonNil turns a vanished body into an empty Block.
func nonNil(s Stmt) Stmt {
	if s == nil {
		return &Block{}
	}
	return s
}

// loop removes loops with no iterations and turns loops with one
// (serial, parallel, vectorized, unrolled) into a let of the loop variable.
func (c *stmtSimp) loop(s *For) Stmt {
	mn, ext := c.expr(s.Min), c.expr(s.Extent)
	if k, ok := constInt(ext); ok {
		if k <= 0 {
			return nil
		}
		if k == 1 && s.Kind != GPUBlock && s.Kind != GPUThread {
			return c.letStmt(s.Name, mn, s.Body)
		}
	}
	var body Stmt
	c.bind(s.Name, func() { body = c.stmt(s.Body) })
	if body == nil {
		return nil
	}
	return &For{s.Name, mn, ext, s.Kind, body}
}

// safe reports whether substituting v (a constant or Var) for name in
// body is safe, as !stmtBinds(body, name, v), without walking body where
// the binder counts suffice: no other binder of name anywhere (so no For
// rebinds it), and v a constant, a Var bound nowhere, or a Var whose one
// binder encloses this let.
func (c *stmtSimp) safe(name string, v Expr, body Stmt) bool {
	if c.binders[name] <= 1 {
		vr, ok := v.(*Var)
		if !ok {
			return true
		}
		if n := c.binders[vr.Name]; n == 0 || (n == 1 && c.scope[vr.Name] > 0) {
			return true
		}
	}
	return !stmtBinds(body, name, v)
}

// letStmt builds "let name = v (simplified) in body (not simplified)": a
// constant or Var value is substituted, an unused binding dropped.
func (c *stmtSimp) letStmt(name string, v Expr, body Stmt) Stmt {
	if vr, ok := v.(*Var); ok && vr.Name == name {
		return c.stmt(body) // let x = x binds nothing new
	}
	if substitutable(v) && c.safe(name, v, body) {
		var out Stmt
		c.bind(name, func() {
			c.sub[name] = v
			out = c.stmt(body)
		})
		return out
	}
	var b Stmt
	c.bind(name, func() { b = c.stmt(body) })
	if b == nil {
		return nil
	}
	if !StmtUses(b, name) {
		return b
	}
	// As in simpLet: the binder that blocked substitution may be gone. b is
	// simplified, with every pending substitution applied.
	if substitutable(v) && !stmtBinds(b, name, v) {
		pending := c.sub
		c.sub = map[string]Expr{}
		out := c.stmt(SubstituteStmt(b, map[string]Expr{name: v}))
		c.sub = pending
		return out
	}
	return &LetStmt{name, v, b}
}

// stmtBinds reports whether substituting v for name in s could go wrong:
// a For loop in s rebinds name around a use of it (SubstituteStmt stops at
// a LetStmt of the same name, not at a For), or v is a Var that a binder
// inside s (For, LetStmt or Let) would capture around a use of name.
func stmtBinds(s Stmt, name string, v Expr) bool {
	vr, _ := v.(*Var)
	captured := func(binder string) bool { return vr != nil && binder == vr.Name }
	found := false
	WalkStmt(s, func(x Stmt) bool {
		if found {
			return false
		}
		switch x := x.(type) {
		case *For:
			found = (x.Name == name || captured(x.Name)) && StmtUses(x.Body, name)
		case *LetStmt:
			found = captured(x.Name) && StmtUses(x.Body, name)
		}
		return !found
	}, func(x Expr) bool {
		if vr != nil && !found {
			found = captures(x, name, vr)
		}
		return false // captures walked x already
	})
	return found
}
