package ir

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
		return bin(op, a, b)
	}
	// x == x, x <= x are true; x != x, x < x are false.
	if sameExpr(a, b) {
		return boolConst(op == EQ || op == LE)
	}
	if algebraic(t) {
		return cmpLinear(op, a, b)
	}
	return bin(op, a, b)
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
		return bin(op, a, b)
	}
	if r := decideCmp(op, d.bounds(boundsDepth)); r != nil { // exact when d is a constant
		return r
	}
	if d.c == t.Min() {
		// -d.c, the constant moved to the right, wraps around.
		return bin(op, a, b)
	}
	pos, neg := newLinear(t), newLinear(t)
	defer pos.release()
	defer neg.release()
	for _, tm := range d.terms {
		if tm.k == t.Min() {
			return bin(op, a, b)
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
		return bin(op, a, b)
	}
	// Rebuilding a side may have pushed its terms into a min or max
	// (y + min(x, -7 - y) is min(x + y, -7)), whose bounds say more.
	if isMinMax(pe) || isMinMax(ne) {
		bd := boundsOf(pe, boundsDepth).add(boundsOf(ne, boundsDepth).scale(-1))
		if r := decideCmp(op, bd); r != nil {
			return r
		}
	}
	return bin(op, pe, ne)
}

// overflows adds k*end to the end *sum of a sum, which stays known (*known)
// while every term's end is (has), and reports whether that overflows.
func overflows(sum *int64, known *bool, has bool, end, k int64) bool {
	if *known = *known && has; !*known {
		return false
	}
	p, ok1 := mulChecked(end, k)
	s, ok2 := addChecked(*sum, p)
	*sum = s
	return !ok1 || !ok2
}

// mayLeaveType reports whether the bounds of its atoms show that the
// simplified sum e of an algebraic type can take a value outside its type
// (so that, evaluated with wrap-around, it is not its exact value). Atoms
// with unknown bounds are assumed, as everywhere, not to make it overflow
// on their own, but not next to an atom that reaches an end of the type
// (an extremeAtom, or bounds at the type's min or max): any value added to
// -1 << 31 with the wrong sign wraps, so z + (y << 31), a side that
// 1 - z < y << 31 would become, may leave the type at z = -1.
func mayLeaveType(e Expr) bool {
	l := linearOf(e)
	defer l.release()
	if l.inexact {
		return true
	}
	t := l.t
	lo, hi := l.c, l.c
	loOK, hiOK := true, true
	extreme, unknown := false, false
	for _, tm := range l.terms {
		b := boundsOf(tm.x, boundsDepth)
		if extremeAtom(tm.x) {
			b = typeInterval(tm.x.Type())
		}
		if (b.HasLo && b.Lo <= t.Min()) || (b.HasHi && b.Hi >= t.Max()) || modOfExtreme(tm.x) {
			extreme = true
		}
		if !b.HasLo || !b.HasHi {
			unknown = true
		}
		if tm.k < 0 {
			b.Lo, b.Hi, b.HasLo, b.HasHi = b.Hi, b.Lo, b.HasHi, b.HasLo
		}
		if overflows(&lo, &loOK, b.HasLo, b.Lo, tm.k) || overflows(&hi, &hiOK, b.HasHi, b.Hi, tm.k) {
			return true
		}
	}
	if extreme && unknown {
		return true
	}
	return (loOK && lo < t.Min()) || (hiOK && hi > t.Max())
}

// decideCmp returns the value of d op 0 when the interval bd of d decides
// it, or nil.
func decideCmp(op BinOp, bd interval) Expr {
	switch op {
	case LT:
		if bd.HasHi && bd.Hi < 0 {
			return True
		}
		if bd.HasLo && bd.Lo >= 0 {
			return False
		}
	case LE:
		if bd.HasHi && bd.Hi <= 0 {
			return True
		}
		if bd.HasLo && bd.Lo > 0 {
			return False
		}
	case EQ, NE:
		if bd.HasLo && bd.HasHi && bd.Lo == 0 && bd.Hi == 0 {
			return boolConst(op == EQ)
		}
		if (bd.HasLo && bd.Lo > 0) || (bd.HasHi && bd.Hi < 0) {
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
	return bin(op, a, b)
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

// extremeAtom reports whether e is an atom that reaches the ends of its
// type for ordinary operands: a float-to-int or narrowing cast (it
// saturates or wraps) or a bitwise intrinsic (-1 << 31 is -2^31). A
// rearranged comparison must not add a constant to one (1 + x < (-1 << 31)
// is not x < (-1 << 31) - 1, which wraps). Elsewhere the simplifier keeps
// such atoms' bounds unknown: its intervals are those of the values
// without wrapping, and known ends would let it decide int32(f) + 1 >
// -2^31, false where int32(f) saturates at 2^31 - 1.
//
// A read of data (a Load, or a call to a Func or an input before storage
// flattening) is such an atom too: the data may hold the type's ends (a
// Maximum over an empty RDom is -2^31), so x - y < m must not become
// x < y + m, which wraps there.
func extremeAtom(e Expr) bool {
	switch e := e.(type) {
	case *Load:
		return e.T.IsIntOrUInt()
	case *Call:
		if e.Kind == CallFunc || e.Kind == CallImage {
			return e.T.IsIntOrUInt()
		}
		return e.Kind == CallIntrinsic && IsBitwise(e.Name)
	case *Cast:
		s := e.X.Type()
		return e.T.IsIntOrUInt() && (s.IsFloat() || (s.IsIntOrUInt() && (s.Bits > e.T.Bits || (s.IsUInt() != e.T.IsUInt() && s.Bits == e.T.Bits))))
	}
	return false
}

// modOfExtreme reports whether e is x % m with m an extremeAtom: its value
// lies in [0, |m|), which reaches the type's max less one where m is the
// identity of an empty Minimum (2^31 - 1), so a sum that adds anything
// positive to it may wrap.
func modOfExtreme(e Expr) bool {
	b, ok := e.(*Binary)
	return ok && b.Op == Mod && extremeAtom(b.B)
}

// typeInterval is the range of integer type t as known ends, or unknown
// ends for a type whose range an int64 does not hold (uint64) or that is
// not an integer.
func typeInterval(t Type) interval {
	if !t.IsIntOrUInt() || (t.IsUInt() && t.Bits >= 64) {
		return interval{}
	}
	return interval{t.Min(), t.Max(), true, true}
}
