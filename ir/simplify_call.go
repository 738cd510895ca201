package ir

import "math"

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
	return ContainsExpr(e, func(x Expr) bool {
		l, ok := x.(*Let)
		return ok && l.Name == v.Name && Uses(l.Body, name)
	})
}

// simpLet: a constant or Var value is substituted into the body (unless an
// inner Let would capture the Var); a binding the body does not use is
// dropped. Other values stay bound: substituting them could duplicate work.
func simpLet(e *Let, m *Memo) Expr {
	v := simpM(e.Value, m)
	if vr, ok := v.(*Var); ok && vr.Name == e.Name {
		return simpM(e.Body, m) // let x = x binds nothing new
	}
	if substitutable(v) {
		if vr, ok := v.(*Var); !ok || !captures(e.Body, e.Name, vr) {
			return simpM(Substitute(e.Body, map[string]Expr{e.Name: v}), m)
		}
	}
	b := simpM(e.Body, m)
	if !Uses(b, e.Name) {
		return b
	}
	// A Var value blocked by a capturing Let that simplification removed
	// can go in now; the second pass only sees a simplified body.
	if vr, ok := v.(*Var); ok && !captures(b, e.Name, vr) {
		return simpM(Substitute(b, map[string]Expr{e.Name: v}), m)
	}
	return edit(e, true, func(c *Let) { c.Value, c.Body = v, b })
}

// simpCall simplifies the arguments of a call and folds intrinsics on
// constants.
func simpCall(e *Call, m *Memo) Expr {
	args, changed := mapExprs(e.Args, func(x Expr) Expr { return simpM(x, m) })
	if e.Kind == CallIntrinsic {
		if r := foldIntrinsic(e.T, e.Name, args); r != nil {
			return r
		}
	}
	return edit(e, changed, func(c *Call) { c.Args = args })
}

// foldIntrinsic evaluates an intrinsic on constant arguments, or returns nil.
func foldIntrinsic(t Type, name string, args []Expr) Expr {
	switch name {
	case IntrinsicLikely, IntrinsicStrictFloat:
		// likely(x) stays a marker, except on a constant, which has
		// no branch left to mark (nor strict_float(x) an operation to
		// keep apart).
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
			// A promise that x lies in [x, x] says nothing more: x.
			if sameExpr(args[0], args[1]) && sameExpr(args[0], args[2]) {
				return args[0]
			}
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
		return foldMath(t, name, args)
	case IntrinsicBitAnd, IntrinsicBitOr, IntrinsicBitXor, IntrinsicBitNot, IntrinsicShiftLeft, IntrinsicShiftRight:
		return foldBitwise(t, name, args)
	case IntrinsicPopcount, IntrinsicCountLeadingZeros, IntrinsicCountTrailingZeros:
		if c, ok := args[0].(*IntImm); ok && len(args) == 1 && c.T == t && t.IsIntOrUInt() {
			return &IntImm{T: t, V: EvalBitCount(name, t, c.V)}
		}
	case IntrinsicIsNaN, IntrinsicIsInf, IntrinsicIsFinite:
		if c, ok := args[0].(*FloatImm); ok && len(args) == 1 {
			return boolConst(FloatClass[name](c.V))
		}
	case IntrinsicReinterpret:
		if len(args) == 1 && CanReinterpret(args[0].Type(), t) {
			var b uint64
			switch c := args[0].(type) {
			case *IntImm:
				b = BitsOf(c.T, c.V, 0)
			case *FloatImm:
				b = BitsOf(c.T, 0, c.V)
			default:
				return nil
			}
			i, f := FromBits(t, b)
			if t.IsFloat() {
				return &FloatImm{T: t, V: f}
			}
			return &IntImm{T: t, V: i}
		}
	default:
		if _, ok := unaryMath[name]; ok || FloatMath2[name] != nil {
			return foldMath(t, name, args)
		}
	}
	return nil
}

// unaryMath are the float math intrinsics of one argument, as the
// executor computes them (round is half to even): FloatMath1 and abs.
var unaryMath = func() map[string]func(float64) float64 {
	m := map[string]func(float64) float64{IntrinsicAbs: math.Abs}
	for k, f := range FloatMath1 {
		m[k] = f
	}
	return m
}()

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
	if f2, ok := FloatMath2[name]; ok {
		if len(args) != 2 {
			return nil
		}
		return Const(t, f2(v[0], v[1]))
	}
	f, ok := unaryMath[name]
	if !ok || len(args) != 1 {
		return nil
	}
	return Const(t, f(v[0]))
}

// foldBitwise evaluates a bitwise intrinsic on integer constants of its
// type (EvalBitwise), and drops a shift by a constant 0.
func foldBitwise(t Type, name string, args []Expr) Expr {
	if !t.IsIntOrUInt() || len(args) != intrinsicArgs[name] {
		return nil
	}
	var v [2]int64
	konst := true
	for i, a := range args {
		c, ok := a.(*IntImm)
		if a.Type() != t {
			return nil
		}
		konst = konst && ok
		if ok {
			v[i] = c.V
		}
	}
	if konst {
		return &IntImm{T: t, V: EvalBitwise(name, t, v[0], v[1])}
	}
	if (name == IntrinsicShiftLeft || name == IntrinsicShiftRight) && IsConstValue(args[1], 0) {
		return args[0]
	}
	return nil
}
