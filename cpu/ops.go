package cpu

import (
	"math"

	"github.com/gohalide/gohalide/ir"
)

// integer is the set of Go types integer arithmetic is done in. A value of
// IR type t is carried as int64; converting it to the Go type of t and back
// after an operation wraps the result exactly as ir.Type.Wrap does, and makes
// division, comparison and min/max unsigned for unsigned types.
type integer interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

func (c *compiler) binary(e *ir.Binary) value {
	a, b := c.expr(e.A), c.expr(e.B)
	if a.t != b.t {
		c.fail("operands of %v have types %v and %v: %s", e.Op, a.t, b.t, ir.ExprString(e))
	}
	t := a.t
	var r value
	switch {
	case e.Op == ir.And || e.Op == ir.Or:
		if t.IsFloat() {
			c.fail("operands of %v have type %v: %s", e.Op, t, ir.ExprString(e))
		}
		r = intValue(ir.Bool, logical(e.Op, a.i, b.i))
	case t.IsFloat():
		rt := t
		if e.Op.IsComparison() {
			rt = ir.Bool
			r = intValue(rt, floatCompare(e.Op, a, b))
		} else {
			var fn floatFn
			switch t.Bits {
			case 32:
				fn = floatArith[float32](e.Op, a, b)
			case 16:
				// In float32, rounded back to the 16-bit type.
				f32 := floatArith[float32](e.Op, a, b)
				fn = func(f *frame) float64 { return ir.RoundFloat(t, f32(f)) }
			default:
				fn = floatArith[float64](e.Op, a, b)
			}
			r = floatValue(rt, fn)
		}
	default:
		var fn intFn
		switch t {
		case ir.Bool:
			// Bools are 0/1: compare and min/max them as int64, and wrap
			// arithmetic results to 0/1.
			fn = intBinary[int64](e.Op, a, b)
			if !e.Op.IsComparison() && e.Op != ir.Min && e.Op != ir.Max {
				fn = wrapFn(ir.Bool, fn)
			}
		default:
			if bin := elements[t].binary; bin != nil {
				fn = bin(e.Op, a, b)
			} else {
				c.fail("operands of %v have unsupported type %v", e.Op, t)
			}
		}
		rt := t
		if e.Op.IsComparison() {
			rt = ir.Bool
		}
		r = intValue(rt, fn)
	}
	if a.konst && b.konst {
		return fold(r)
	}
	return r
}

func logical(op ir.BinOp, a, b intFn) intFn {
	if op == ir.And {
		return func(f *frame) int64 {
			if a(f) == 0 {
				return 0
			}
			return b2i(b(f) != 0)
		}
	}
	return func(f *frame) int64 {
		if a(f) != 0 {
			return 1
		}
		return b2i(b(f) != 0)
	}
}

func commutative(op ir.BinOp) bool {
	switch op {
	case ir.Add, ir.Mul, ir.Min, ir.Max, ir.EQ, ir.NE:
		return true
	}
	return op.IsComparison()
}

// intBinary compiles an integer operation in type T. Common forms with a
// constant right operand or variable operands get their own closures.
func intBinary[T integer](op ir.BinOp, a, b value) intFn {
	if a.konst && !b.konst && commutative(op) {
		a, b = b, a
		op = op.Swapped()
	}
	if b.konst {
		k := T(b.ci)
		if op == ir.Sub {
			op, k = ir.Add, -k
		}
		if a.slot >= 0 {
			if fn := intVarConst(op, a.slot, k); fn != nil {
				return fn
			}
		}
		if fn := intFnConst(op, a.i, k); fn != nil {
			return fn
		}
	}
	if a.slot >= 0 && b.slot >= 0 {
		if fn := intVarVar[T](op, a.slot, b.slot); fn != nil {
			return fn
		}
	}
	if a.slot >= 0 && b.slot < 0 && (op == ir.Add || op == ir.Mul) {
		a, b = b, a
	}
	if b.slot >= 0 {
		if fn := intFnVar[T](op, a.i, b.slot); fn != nil {
			return fn
		}
	}
	x, y := a.i, b.i
	if fn := arith[T](op, x, y); fn != nil {
		return fn
	}
	switch op {
	case ir.Div:
		return func(f *frame) int64 { return int64(ir.EuclidDiv(T(x(f)), T(y(f)))) }
	case ir.Mod:
		return func(f *frame) int64 { return int64(ir.EuclidMod(T(x(f)), T(y(f)))) }
	case ir.Min:
		return func(f *frame) int64 { return int64(min(T(x(f)), T(y(f)))) }
	case ir.Max:
		return func(f *frame) int64 { return int64(max(T(x(f)), T(y(f)))) }
	case ir.EQ:
		return func(f *frame) int64 { return b2i(x(f) == y(f)) }
	case ir.NE:
		return func(f *frame) int64 { return b2i(x(f) != y(f)) }
	case ir.LT:
		return func(f *frame) int64 { return b2i(T(x(f)) < T(y(f))) }
	case ir.LE:
		return func(f *frame) int64 { return b2i(T(x(f)) <= T(y(f))) }
	case ir.GT:
		return func(f *frame) int64 { return b2i(T(x(f)) > T(y(f))) }
	case ir.GE:
		return func(f *frame) int64 { return b2i(T(x(f)) >= T(y(f))) }
	}
	panic("cpu: unexpected integer operator " + op.String())
}

func intVarConst[T integer](op ir.BinOp, s int, k T) intFn {
	switch op {
	case ir.Add:
		return func(f *frame) int64 { return int64(T(f.ints[s]) + k) }
	case ir.Mul:
		return func(f *frame) int64 { return int64(T(f.ints[s]) * k) }
	case ir.LT:
		return func(f *frame) int64 { return b2i(T(f.ints[s]) < k) }
	case ir.GE:
		return func(f *frame) int64 { return b2i(T(f.ints[s]) >= k) }
	}
	return nil
}

func intFnConst[T integer](op ir.BinOp, x intFn, k T) intFn {
	switch op {
	case ir.Add:
		return func(f *frame) int64 { return int64(T(x(f)) + k) }
	case ir.Mul:
		return func(f *frame) int64 { return int64(T(x(f)) * k) }
	case ir.Div:
		// For a positive divisor Euclidean division (ir.EuclidDiv) rounds
		// down: the common case, without the helper's branches. Other
		// divisors go through ir.EuclidDiv below.
		if k > 0 {
			return func(f *frame) int64 {
				v := T(x(f))
				q := v / k
				if v < 0 && q*k != v {
					q--
				}
				return int64(q)
			}
		}
	case ir.Mod:
		if k > 0 {
			return func(f *frame) int64 {
				m := T(x(f)) % k
				if m < 0 {
					m += k
				}
				return int64(m)
			}
		}
	case ir.Min:
		return func(f *frame) int64 { return int64(min(T(x(f)), k)) }
	case ir.Max:
		return func(f *frame) int64 { return int64(max(T(x(f)), k)) }
	case ir.EQ:
		return func(f *frame) int64 { return b2i(T(x(f)) == k) }
	case ir.NE:
		return func(f *frame) int64 { return b2i(T(x(f)) != k) }
	case ir.LT:
		return func(f *frame) int64 { return b2i(T(x(f)) < k) }
	case ir.LE:
		return func(f *frame) int64 { return b2i(T(x(f)) <= k) }
	case ir.GT:
		return func(f *frame) int64 { return b2i(T(x(f)) > k) }
	case ir.GE:
		return func(f *frame) int64 { return b2i(T(x(f)) >= k) }
	}
	return nil
}

func intVarVar[T integer](op ir.BinOp, s1, s2 int) intFn {
	switch op {
	case ir.Add:
		return func(f *frame) int64 { return int64(T(f.ints[s1]) + T(f.ints[s2])) }
	case ir.Mul:
		return func(f *frame) int64 { return int64(T(f.ints[s1]) * T(f.ints[s2])) }
	case ir.Sub:
		return func(f *frame) int64 { return int64(T(f.ints[s1]) - T(f.ints[s2])) }
	}
	return nil
}

func intFnVar[T integer](op ir.BinOp, x intFn, s int) intFn {
	switch op {
	case ir.Add:
		return func(f *frame) int64 { return int64(T(x(f)) + T(f.ints[s])) }
	case ir.Mul:
		return func(f *frame) int64 { return int64(T(x(f)) * T(f.ints[s])) }
	case ir.Sub:
		return func(f *frame) int64 { return int64(T(x(f)) - T(f.ints[s])) }
	}
	return nil
}

// arith is x op y for Add, Sub and Mul, computed in T (an integer type
// wraps, float32 rounds) on operands carried as R: the general case of
// intBinary and floatArith, once their faster special cases are passed
// over. nil for another operator.
func arith[T integer | float32 | float64, R int64 | float64](op ir.BinOp, x, y func(*frame) R) func(*frame) R {
	switch op {
	case ir.Add:
		return func(f *frame) R { return R(T(x(f)) + T(y(f))) }
	case ir.Sub:
		return func(f *frame) R { return R(T(x(f)) - T(y(f))) }
	case ir.Mul:
		return func(f *frame) R { return R(T(x(f)) * T(y(f))) }
	}
	return nil
}

// floatArith compiles a float operation in type F (float32 results are
// rounded to float32 by the Go arithmetic itself).
func floatArith[F float32 | float64](op ir.BinOp, a, b value) floatFn {
	if a.konst && !b.konst && (op == ir.Add || op == ir.Mul) {
		a, b = b, a
	}
	if a.slot >= 0 && b.slot < 0 && (op == ir.Add || op == ir.Mul) {
		a, b = b, a
	}
	x, y := a.f, b.f
	if b.slot >= 0 {
		s := b.slot
		switch op {
		case ir.Add:
			return func(f *frame) float64 { return float64(F(x(f)) + F(f.floats[s])) }
		case ir.Sub:
			return func(f *frame) float64 { return float64(F(x(f)) - F(f.floats[s])) }
		case ir.Mul:
			return func(f *frame) float64 { return float64(F(x(f)) * F(f.floats[s])) }
		}
	}
	if b.konst {
		k := F(b.cf)
		switch op {
		case ir.Add:
			return func(f *frame) float64 { return float64(F(x(f)) + k) }
		case ir.Sub:
			return func(f *frame) float64 { return float64(F(x(f)) - k) }
		case ir.Mul:
			return func(f *frame) float64 { return float64(F(x(f)) * k) }
		case ir.Div:
			return func(f *frame) float64 { return float64(F(x(f)) / k) }
		}
	}
	if fn := arith[F](op, x, y); fn != nil {
		return fn
	}
	switch op {
	case ir.Div:
		return func(f *frame) float64 { return float64(F(x(f)) / F(y(f))) }
	case ir.Mod:
		return func(f *frame) float64 {
			p, q := x(f), y(f)
			return float64(F(p - float64(q*math.Floor(p/q))))
		}
	case ir.Min:
		return func(f *frame) float64 { return math.Min(x(f), y(f)) }
	case ir.Max:
		return func(f *frame) float64 { return math.Max(x(f), y(f)) }
	}
	panic("cpu: unexpected float operator " + op.String())
}

func floatCompare(op ir.BinOp, a, b value) intFn {
	x, y := a.f, b.f
	if b.konst {
		k := b.cf
		switch op {
		case ir.LT:
			return func(f *frame) int64 { return b2i(x(f) < k) }
		case ir.GT:
			return func(f *frame) int64 { return b2i(x(f) > k) }
		}
	}
	switch op {
	case ir.EQ:
		return func(f *frame) int64 { return b2i(x(f) == y(f)) }
	case ir.NE:
		return func(f *frame) int64 { return b2i(x(f) != y(f)) }
	case ir.LT:
		return func(f *frame) int64 { return b2i(x(f) < y(f)) }
	case ir.LE:
		return func(f *frame) int64 { return b2i(x(f) <= y(f)) }
	case ir.GT:
		return func(f *frame) int64 { return b2i(x(f) > y(f)) }
	case ir.GE:
		return func(f *frame) int64 { return b2i(x(f) >= y(f)) }
	}
	panic("cpu: unexpected float comparison " + op.String())
}
