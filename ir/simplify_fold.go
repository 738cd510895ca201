package ir

import "math"

// Constant folding: the smart constructors of casts and arithmetic fold
// constants exactly as the executor (package cpu) computes them.

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

// foldInt folds op on two integer or bool constants of type t.
func foldInt(op BinOp, t Type, a, b int64) (Expr, bool) {
	if op.IsComparison() {
		return boolConst(op.Holds(ltInt(t, a, b), a == b)), true
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
		// A 16-bit float goes through float32, as it does on every
		// target (RoundFloat).
		unsigned64 := c.T.IsUInt() && c.T.Bits == 64
		switch {
		case t.Bits == 64 && unsigned64:
			return &FloatImm{t, float64(uint64(c.V))}
		case t.Bits == 64:
			return &FloatImm{t, float64(c.V)}
		case unsigned64:
			return Const(t, float64(float32(uint64(c.V))))
		}
		return Const(t, float64(float32(c.V)))
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
	return bin(op, a, b)
}
