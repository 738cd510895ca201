package ir

import "math"

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
		return bin(op, a, b)
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
		aBelow := bd.HasHi && bd.Hi <= 0 // a <= b always
		aAbove := bd.HasLo && bd.Lo >= 0 // a >= b always
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
				// -2^31) is not min(x, 2^31 - 1) + 1; nor c1 itself:
				// x - (-2^31) adds 2^31, which an int32 constant
				// cannot hold (soundness fuzzer, seed 121).
				if d, ok := addChecked(c2, -c1); ok && c1 != math.MinInt64 && t.Wrap(d) == d && t.Wrap(c1) == c1 {
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
	return bin(op, a, b)
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
