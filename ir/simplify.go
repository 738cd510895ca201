package ir

import "math"

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
//
// Both return the node they were given when it comes out the same (see
// same), as every mutator does: simplifying what is already simple
// allocates nothing and shares every subtree.
//
// The rules live in one file per kind of node: simplify_fold.go (constant
// folding, casts, arithmetic), simplify_linear.go (the linear form),
// simplify_divmod.go, simplify_minmax.go, simplify_cmp.go (comparisons and
// logic), simplify_call.go (lets and calls), simplify_bounds.go (the
// constant bounds the rules consult) and simplify_stmt.go (statements).

// Simplify returns an expression equal in value to e, in a simpler form.
func Simplify(e Expr) Expr { return simp(e) }

// SimplifyBinary returns a op b simplified, for operands that are already
// simplified (results of Simplify or SimplifyBinary). It applies the rules
// at the top only, without walking a and b again: bounds inference builds
// region ends as long min/max chains one operand at a time, where
// Simplify(Bin(op, a, b)) would re-walk the whole chain at every step.
func SimplifyBinary(op BinOp, a, b Expr) Expr {
	switch op {
	case Add, Sub, Mul:
		return mkArith(op, a, b)
	case Div:
		return mkDiv(a, b)
	case Mod:
		return mkMod(a, b)
	case Min, Max:
		return mkMinMax(op, a, b)
	case And, Or:
		return mkLogic(op, a, b)
	}
	return mkCmp(op, a, b)
}

// CanProve reports whether e simplifies to the constant true.
func CanProve(e Expr) bool {
	c, ok := Simplify(e).(*IntImm)
	return ok && c.T.IsBool() && c.V != 0
}

// sameExpr reports whether a and b are structurally identical, so that
// either may stand for the other. It is Equal, except that float constants
// must match bit for bit: Equal treats 0.0 and -0.0 alike, but min(0.0, -0.0)
// or select(c, x + 0.0, x + -0.0) must not pick one for the other.
func sameExpr(a, b Expr) bool { return equal(a, b, true) }

// algebraic reports whether t gets the full algebraic simplification.
func algebraic(t Type) bool { return t.Code == IntCode && t.Bits >= 32 }

// simp simplifies e and its children. It returns e itself when the result
// is the same expression (see same), so that simplifying what is already
// simple shares every node and the caller can tell nothing changed.
func simp(e Expr) Expr { return simpM(e, nil) }

// simpM is simp that reuses, through m (when not nil), the simplified
// form of the nodes m shares.
func simpM(e Expr, m *Memo) Expr {
	shared := false
	if m != nil {
		switch e.(type) {
		case nil, *IntImm, *FloatImm, *Var:
			return e // as simpNode does, without a look-up
		}
		r, ok := m.done[e]
		if r != nil {
			return r
		}
		shared = ok
	}
	r := simpNode(e, m)
	if r != e && same(e, r) {
		r = e
	}
	if shared {
		// The simplified form is shared too: a pass may simplify
		// a resolved expression again.
		m.done[e] = r
		if _, ok := m.done[r]; !ok {
			m.done[r] = nil
		}
	}
	return r
}

// same reports whether b is a rebuilt a: the same kind of node with the
// same fields, and children that are the same pointers or equal constants.
// Children are simplified before their parent and kept when unchanged, so
// comparing them by pointer suffices, except for the sums the linear form
// rebuilds at once (see sameChild). Vars, and Calls but for their
// arguments, are compared by pointer: simp returns them as they are.
func same(a, b Expr) bool {
	switch a := a.(type) {
	case *IntImm:
		b, ok := b.(*IntImm)
		return ok && *a == *b
	case *FloatImm:
		b, ok := b.(*FloatImm)
		return ok && a.T == b.T && math.Float64bits(a.V) == math.Float64bits(b.V)
	case *Cast:
		b, ok := b.(*Cast)
		return ok && a.T == b.T && sameChild(a.X, b.X)
	case *Binary:
		b, ok := b.(*Binary)
		return ok && a.Op == b.Op && sameChild(a.A, b.A) && sameChild(a.B, b.B)
	case *Not:
		b, ok := b.(*Not)
		return ok && sameChild(a.X, b.X)
	case *Select:
		b, ok := b.(*Select)
		return ok && sameChild(a.Cond, b.Cond) && sameChild(a.True, b.True) && sameChild(a.False, b.False)
	case *Load:
		b, ok := b.(*Load)
		return ok && a.T == b.T && a.Buf == b.Buf && sameChild(a.Index, b.Index)
	case *Let:
		b, ok := b.(*Let)
		return ok && a.Name == b.Name && sameChild(a.Value, b.Value) && sameChild(a.Body, b.Body)
	}
	return false
}

// sameChild compares children for same: by pointer, constants by value,
// and the Add, Sub and Mul nodes of an algebraic sum, which the linear form
// builds anew from its (kept) atoms, node by node.
func sameChild(a, b Expr) bool {
	if a == b {
		return true
	}
	switch x := a.(type) {
	case *IntImm, *FloatImm:
		return same(a, b)
	case *Binary:
		if (x.Op == Add || x.Op == Sub || x.Op == Mul) && algebraic(x.Type()) {
			return same(a, b)
		}
	}
	return false
}

// simpNode simplifies e and its children, possibly into a new node equal
// to e.
func simpNode(e Expr, m *Memo) Expr {
	switch e := e.(type) {
	case *Cast:
		return mkCast(e.T, simpM(e.X, m))
	case *Binary:
		return simpBinary(e, m)
	case *Not:
		return mkNot(simpM(e.X, m))
	case *Select:
		// Only the arm that is taken needs simplifying when the
		// condition folds.
		c := simpM(e.Cond, m)
		if v, ok := c.(*IntImm); ok {
			if v.V != 0 {
				return simpM(e.True, m)
			}
			return simpM(e.False, m)
		}
		return mkSelect(c, simpM(e.True, m), simpM(e.False, m))
	case *Call:
		return simpCall(e, m)
	case *Load:
		return MapExpr(e, simp)
	case *Let:
		return simpLet(e, m)
	}
	// nil, constants and Vars.
	return e
}

func simpBinary(e *Binary, m *Memo) Expr {
	switch e.Op {
	case Add, Sub, Mul:
		if algebraic(e.A.Type()) {
			// Collect the whole Add/Sub/Mul-by-constant tree at
			// once, simplifying only its atoms.
			l := newLinear(e.A.Type())
			l.memo = m
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
		return mkArith(e.Op, simpM(e.A, m), simpM(e.B, m))
	case Div:
		return mkDiv(simpM(e.A, m), simpM(e.B, m))
	case Mod:
		return mkMod(simpM(e.A, m), simpM(e.B, m))
	case Min, Max:
		return mkMinMax(e.Op, simpM(e.A, m), simpM(e.B, m))
	case And, Or:
		// Short-circuit: when the left side decides, the right side
		// is not looked at.
		a := simpM(e.A, m)
		if v, ok := a.(*IntImm); ok {
			if (v.V != 0) == (e.Op == Or) {
				return boolConst(v.V != 0)
			}
			return simpM(e.B, m)
		}
		return mkLogic(e.Op, a, simpM(e.B, m))
	}
	return mkCmp(e.Op, simpM(e.A, m), simpM(e.B, m))
}

// Memo lets simplifications share the work on the nodes they have in
// common. A pass that substitutes the values of enclosing lets into many
// expressions and simplifies each (lower's letValues) puts the same
// value, the same node, into all of them; simplifying it again in each
// made the pass quadratic in practice (a register array's region min,
// hundreds of nodes, in every one of its indices). Simplify is
// context-free, so a node's simplified form is the same wherever it
// stands: a Memo keeps it for the nodes marked with Share, and its
// Simplify reuses it. The results are the ones Simplify gives, except that
// a shared node's simplified form is one node wherever it is used.
type Memo struct {
	// done holds the shared nodes: their simplified forms, nil until
	// one is known.
	done map[Expr]Expr
}

// NewMemo returns an empty Memo.
func NewMemo() *Memo { return &Memo{done: map[Expr]Expr{}} }

// Share marks e as a node that several expressions given to m.Simplify
// hold: its simplified form is kept.
func (m *Memo) Share(e Expr) {
	if _, ok := m.done[e]; !ok {
		m.done[e] = nil
	}
}

// Simplify is Simplify(e), reusing the simplified forms of shared nodes.
func (m *Memo) Simplify(e Expr) Expr { return simpM(e, m) }
