package cpu

import (
	"math"

	"github.com/gohalide/gohalide/ir"
)

// value is a compiled expression: i is set for integer and bool types, f for
// float types. konst marks a constant (value in ci or cf); slot >= 0 marks a
// plain read of a variable slot of the expression's own type.
type value struct {
	t     ir.Type
	i     intFn
	f     floatFn
	konst bool
	ci    int64
	cf    float64
	slot  int
}

func intConst(t ir.Type, v int64) value {
	return value{t: t, i: func(*frame) int64 { return v }, konst: true, ci: v, slot: -1}
}

func floatConst(t ir.Type, v float64) value {
	return value{t: t, f: func(*frame) float64 { return v }, konst: true, cf: v, slot: -1}
}

func intValue(t ir.Type, fn intFn) value     { return value{t: t, i: fn, slot: -1} }
func floatValue(t ir.Type, fn floatFn) value { return value{t: t, f: fn, slot: -1} }

// fold evaluates a constant expression built from constant operands.
func fold(v value) value {
	if v.t.IsFloat() {
		return floatConst(v.t, v.f(nil))
	}
	return intConst(v.t, v.i(nil))
}

func validType(t ir.Type) bool { return sliceChecker(t) != nil }

func (c *compiler) expr(e ir.Expr) value {
	if e == nil {
		c.fail("nil expression")
	}
	switch e := e.(type) {
	case *ir.IntImm:
		if !validType(e.T) || e.T.IsFloat() {
			c.fail("integer constant %d has type %v", e.V, e.T)
		}
		return intConst(e.T, e.T.Wrap(e.V))
	case *ir.FloatImm:
		if !e.T.IsFloat() {
			c.fail("float constant %v has type %v", e.V, e.T)
		}
		return floatConst(e.T, roundTo(e.T, e.V))
	case *ir.Var:
		return c.variable(e)
	case *ir.Cast:
		if !validType(e.T) {
			c.fail("cast to unsupported type %v", e.T)
		}
		return c.convert(c.expr(e.X), e.T)
	case *ir.Binary:
		return c.binary(e)
	case *ir.Not:
		x := c.expr(e.X)
		if x.t.IsFloat() {
			c.fail("operand of ! has type %v: %s", x.t, ir.ExprString(e))
		}
		xi := x.i
		r := intValue(ir.Bool, func(f *frame) int64 {
			if xi(f) == 0 {
				return 1
			}
			return 0
		})
		if x.konst {
			return fold(r)
		}
		return r
	case *ir.Select:
		return c.selectExpr(e)
	case *ir.Call:
		return c.call(e)
	case *ir.Load:
		return c.load(e)
	case *ir.Let:
		v, body, slot := bindLet(c, e.Name, e.Value, func() value { return c.expr(e.Body) })
		switch {
		case v.t.IsFloat() && body.t.IsFloat():
			vf, bf := v.f, body.f
			return floatValue(body.t, func(f *frame) float64 {
				f.floats[slot] = vf(f)
				return bf(f)
			})
		case v.t.IsFloat():
			vf, bi := v.f, body.i
			return intValue(body.t, func(f *frame) int64 {
				f.floats[slot] = vf(f)
				return bi(f)
			})
		case body.t.IsFloat():
			vi, bf := v.i, body.f
			return floatValue(body.t, func(f *frame) float64 {
				f.ints[slot] = vi(f)
				return bf(f)
			})
		default:
			vi, bi := v.i, body.i
			return intValue(body.t, func(f *frame) int64 {
				f.ints[slot] = vi(f)
				return bi(f)
			})
		}
	}
	c.fail("unsupported expression %T", e)
	return value{}
}

func roundTo(t ir.Type, v float64) float64 { return ir.RoundFloat(t, v) }

func (c *compiler) variable(e *ir.Var) value {
	if !validType(e.T) {
		c.fail("variable %s has unsupported type %v", e.Name, e.T)
	}
	b, ok := c.vars[e.Name]
	if !ok {
		p, ok := c.params[e.Name]
		if !ok {
			p = &paramSlot{Param: Param{e.Name, e.T}}
			if e.T.IsFloat() {
				p.slot = c.nFloats
				c.nFloats++
			} else {
				p.slot = c.nInts
				c.nInts++
			}
			c.params[e.Name] = p
		} else if p.T != e.T {
			c.fail("parameter %s is used with types %v and %v", e.Name, p.T, e.T)
		}
		b = &binding{t: p.T, slot: p.slot, param: p}
	}
	if b.t.IsFloat() != e.T.IsFloat() {
		c.fail("variable %s of type %v is used as %v", e.Name, b.t, e.T)
	}
	slot := b.slot
	var v value
	if b.t.IsFloat() {
		v = floatValue(b.t, func(f *frame) float64 { return f.floats[slot] })
	} else {
		v = intValue(b.t, func(f *frame) int64 { return f.ints[slot] })
	}
	if b.t != e.T {
		return c.convert(v, e.T)
	}
	v.slot = slot
	return v
}

func (c *compiler) selectExpr(e *ir.Select) value {
	cond := c.expr(e.Cond)
	if cond.t.IsFloat() {
		c.fail("select condition has type %v: %s", cond.t, ir.ExprString(e))
	}
	a, b := c.expr(e.True), c.expr(e.False)
	if a.t != b.t {
		c.fail("select arms have types %v and %v: %s", a.t, b.t, ir.ExprString(e))
	}
	if cond.konst {
		if cond.ci != 0 {
			return a
		}
		return b
	}
	ci := cond.i
	if a.t.IsFloat() {
		af, bf := a.f, b.f
		return floatValue(a.t, func(f *frame) float64 {
			if ci(f) != 0 {
				return af(f)
			}
			return bf(f)
		})
	}
	ai, bi := a.i, b.i
	return intValue(a.t, func(f *frame) int64 {
		if ci(f) != 0 {
			return ai(f)
		}
		return bi(f)
	})
}

func (c *compiler) load(e *ir.Load) value {
	if !validType(e.T) {
		c.fail("load of %s has unsupported type %v", e.Buf, e.T)
	}
	b := c.buffer(e.Buf, e.T, "load of")
	idx := c.watched(b, c.intExpr(e.Index, "index into "+e.Buf), false, c.atomicBuf == e.Buf)
	name, slot := e.Buf, b.slot
	ops := elements[e.T]
	if ops.loadInt != nil {
		return intValue(e.T, ops.loadInt(name, slot, idx))
	}
	return floatValue(e.T, ops.loadFloat(name, slot, idx))
}

// element is the set of Go types buffer elements are stored in.
type element interface {
	integer | float32 | float64
}

// loadElem returns a function that reads the element at idx of the buffer in
// slot (a []T), carried as an R: int64 for the integer types, float64 for
// the floats.
func loadElem[T element, R int64 | float64](name string, slot int, idx value) func(*frame) R {
	if idx.slot >= 0 {
		is := idx.slot
		return func(f *frame) R { return R(*elemAt[T](f, slot, f.ints[is], "load of", name)) }
	}
	idxf := idx.i
	return func(f *frame) R { return R(*elemAt[T](f, slot, idxf(f), "load of", name)) }
}

// elemAt is the element at i of the buffer in slot (a []T), for the access
// op ("load of" or "store to") to the buffer name, checked: an index out of
// bounds panics with an outOfBounds. It makes no call, so that the loads'
// and stores' closures inline it.
func elemAt[T any](f *frame, slot int, i int64, op, name string) *T {
	s, _ := f.bufs[slot].([]T)
	if uint64(i) >= uint64(len(s)) {
		panic(outOfBounds{op, name, i, len(s)})
	}
	return &s[i]
}

// outOfBounds is the panic of elemAt: an access op to the buffer name, of
// n elements, at the index i. toError makes it the *Error of oobError (the
// panic is not that *Error itself, whose message is formatted by a call).
type outOfBounds struct {
	op, name string
	i        int64
	n        int
}

// loadConv returns a function that reads the element at idx of the buffer
// in slot (a []T), converted by to into an R: the load of the types whose
// Go element is not a number (bool, the 16-bit floats' bits).
func loadConv[T any, R int64 | float64](name string, slot int, idx value, to func(T) R) func(*frame) R {
	idxf := idx.i
	return func(f *frame) R { return to(*elemAt[T](f, slot, idxf(f), "load of", name)) }
}

// convert returns v converted to type t as a Cast does.
func (c *compiler) convert(v value, t ir.Type) value {
	if v.t == t {
		return v
	}
	s := v.t
	var r value
	switch {
	case s.IsFloat() && t.IsFloat():
		// float64 -> float32 rounds; float32 -> float64 is exact; to a
		// 16-bit float rounds (ir.RoundFloat), from one is exact.
		vf := v.f
		switch {
		case t.Bits == 64 || t.Bits == 32 && s.Bits < 32:
			r = floatValue(t, v.f)
		case t.Bits == 32:
			r = floatValue(t, func(f *frame) float64 { return float64(float32(vf(f))) })
		default:
			r = floatValue(t, func(f *frame) float64 { return ir.RoundFloat(t, vf(f)) })
		}
	case s.IsFloat():
		vf := v.f
		if t.IsBool() {
			r = intValue(t, func(f *frame) int64 {
				if vf(f) != 0 {
					return 1
				}
				return 0
			})
		} else {
			r = intValue(t, func(f *frame) int64 { return ir.FloatToInt(vf(f), t) })
		}
	case t.IsFloat():
		vi := v.i
		switch {
		case s.IsUInt() && s.Bits == 64 && t.Bits == 32:
			r = floatValue(t, func(f *frame) float64 { return float64(float32(uint64(vi(f)))) })
		case s.IsUInt() && s.Bits == 64 && t.Bits == 16:
			r = floatValue(t, func(f *frame) float64 { return ir.RoundFloat(t, float64(float32(uint64(vi(f))))) })
		case s.IsUInt() && s.Bits == 64:
			r = floatValue(t, func(f *frame) float64 { return float64(uint64(vi(f))) })
		case t.Bits == 32:
			r = floatValue(t, func(f *frame) float64 { return float64(float32(vi(f))) })
		case t.Bits == 16:
			// Through float32, as every target converts (ir.RoundFloat).
			r = floatValue(t, func(f *frame) float64 { return ir.RoundFloat(t, float64(float32(vi(f)))) })
		default:
			r = floatValue(t, func(f *frame) float64 { return float64(vi(f)) })
		}
	default:
		r = intValue(t, wrapFn(t, v.i))
	}
	if v.konst {
		return fold(r)
	}
	return r
}

// wrapFn returns x wrapped to the integer or bool type t.
func wrapFn(t ir.Type, x intFn) intFn {
	if t == ir.Bool {
		return func(f *frame) int64 {
			if x(f) != 0 {
				return 1
			}
			return 0
		}
	}
	if w := elements[t].wrap; w != nil && t.Bits < 64 {
		return w(x)
	}
	return x // int64, uint64: same bit pattern
}

func wrapT[T integer](x intFn) intFn {
	return func(f *frame) int64 { return int64(T(x(f))) }
}

func (c *compiler) call(e *ir.Call) value {
	if e.Kind == ir.CallIntrinsic {
		if fn, _, ok := ir.IsTraceStore(e); ok {
			return c.traceStore(fn, e)
		}
	}
	if msg := ir.CheckLoweredCall(e); msg != "" {
		c.fail("%s", msg)
	}
	if !validType(e.T) {
		c.fail("call to %s has unsupported type %v", e.Name, e.T)
	}
	switch e.Name {
	case ir.IntrinsicMaxOver:
		return c.maxOver(e)
	case ir.IntrinsicShuffleDown:
		return c.shuffle(e)
	case ir.IntrinsicLikely, ir.IntrinsicUnsafePromiseClamped, ir.IntrinsicStrictFloat:
		return c.convert(c.expr(e.Args[0]), e.T)
	case ir.IntrinsicPromiseClamped:
		x := e.Args[0]
		clamp := ir.MinE(ir.MaxE(x, e.Args[1]), e.Args[2])
		return c.convert(c.expr(clamp), e.T)
	case ir.IntrinsicBitAnd, ir.IntrinsicBitOr, ir.IntrinsicBitXor, ir.IntrinsicBitNot, ir.IntrinsicShiftLeft, ir.IntrinsicShiftRight:
		return c.bitwise(e)
	case ir.IntrinsicPopcount, ir.IntrinsicCountLeadingZeros, ir.IntrinsicCountTrailingZeros:
		x := c.expr(e.Args[0])
		if x.t != e.T || !x.t.IsIntOrUInt() {
			c.fail("operand of %s has type %v, the call %v; both must be the same integer type", e.Name, x.t, e.T)
		}
		xi, t, name := x.i, e.T, e.Name
		r := intValue(t, func(f *frame) int64 { return ir.EvalBitCount(name, t, xi(f)) })
		if x.konst {
			r = fold(r)
		}
		return r
	case ir.IntrinsicIsNaN, ir.IntrinsicIsInf, ir.IntrinsicIsFinite:
		x := c.expr(e.Args[0])
		if !x.t.IsFloat() {
			c.fail("operand of %s has type %v, not a float", e.Name, x.t)
		}
		xf, class := x.f, ir.FloatClass[e.Name]
		r := intValue(ir.Bool, func(f *frame) int64 {
			if class(xf(f)) {
				return 1
			}
			return 0
		})
		if x.konst {
			r = fold(r)
		}
		return r
	case ir.IntrinsicReinterpret:
		x := c.expr(e.Args[0])
		if !ir.CanReinterpret(x.t, e.T) {
			c.fail("reinterpret of %v as %v: the types must be integer or float types of one width", x.t, e.T)
		}
		from, to := x.t, e.T
		var bitsOf func(f *frame) uint64
		if from.IsFloat() {
			xf := x.f
			bitsOf = func(f *frame) uint64 { return ir.BitsOf(from, 0, xf(f)) }
		} else {
			xi := x.i
			bitsOf = func(f *frame) uint64 { return ir.BitsOf(from, xi(f), 0) }
		}
		var r value
		if to.IsFloat() {
			r = floatValue(to, func(f *frame) float64 { _, v := ir.FromBits(to, bitsOf(f)); return v })
		} else {
			r = intValue(to, func(f *frame) int64 { v, _ := ir.FromBits(to, bitsOf(f)); return v })
		}
		if x.konst {
			r = fold(r)
		}
		return r
	case ir.IntrinsicAbs:
		x := c.expr(e.Args[0])
		var r value
		switch {
		case x.t.IsFloat():
			xf := x.f
			r = floatValue(x.t, func(f *frame) float64 { return math.Abs(xf(f)) })
		case x.t.IsInt():
			xi := x.i
			r = intValue(ir.Int64, func(f *frame) int64 {
				v := xi(f)
				if v < 0 {
					return -v
				}
				return v
			})
		default:
			r = x
		}
		if x.konst {
			r = fold(r)
		}
		return c.convert(r, e.T)
	}
	// Float math: arguments converted to float64, result rounded to the type.
	args := make([]floatFn, len(e.Args))
	konst := true
	for i, a := range e.Args {
		v := c.expr(a)
		konst = konst && v.konst
		args[i] = c.convert(v, ir.Float64).f
	}
	x := args[0]
	var fn floatFn
	if g, ok := ir.FloatMath1[e.Name]; ok && len(args) == 1 {
		fn = func(f *frame) float64 { return g(x(f)) }
	} else if g, ok := ir.FloatMath2[e.Name]; ok && len(args) == 2 {
		y := args[1]
		fn = func(f *frame) float64 { return g(x(f), y(f)) }
	} else {
		c.fail("unknown float intrinsic %s of %d arguments", e.Name, len(args))
	}
	r := floatValue(ir.Float64, fn)
	if konst {
		r = fold(r)
	}
	return c.convert(r, e.T)
}

// maxOver compiles ir.IntrinsicMaxOver(v, min, extent, e): a loop over v
// keeping the largest e (0 over an empty range).
func (c *compiler) maxOver(e *ir.Call) value {
	v, ok := e.Args[0].(*ir.Var)
	if !ok || !e.T.IsIntOrUInt() || !v.T.IsInt() {
		c.fail("malformed %s: %s", e.Name, ir.ExprString(e))
	}
	lo := c.intExpr(e.Args[1], "min of "+e.Name).i
	ext := c.intExpr(e.Args[2], "extent of "+e.Name).i
	b, restore := c.bind(v.Name, v.T)
	body := c.intExpr(e.Args[3], "value of "+e.Name).i
	restore()
	slot := b.slot
	return intValue(e.T, func(f *frame) int64 {
		m, n := lo(f), ext(f)
		var best int64
		for i := int64(0); i < n; i++ {
			f.ints[slot] = m + i
			if x := body(f); i == 0 || x > best {
				best = x
			}
		}
		return best
	})
}

// traceStore compiles an ir.TraceStore: a call of Options.Trace with the
// value and coordinates (nothing without the hook); its value is 0.
func (c *compiler) traceStore(fn string, e *ir.Call) value {
	hook := c.opts.Trace
	if hook == nil {
		return intValue(e.T, func(*frame) int64 { return 0 })
	}
	v := c.expr(e.Args[0])
	coords := make([]func(*frame) int64, len(e.Args)-1)
	for i, a := range e.Args[1:] {
		coords[i] = c.intExpr(a, "coordinate of a traced store").i
	}
	toFloat := func(f *frame) float64 { return float64(v.i(f)) }
	if v.t.IsFloat() {
		toFloat = v.f
	}
	return intValue(e.T, func(f *frame) int64 {
		at := make([]int64, len(coords))
		for i, cf := range coords {
			at[i] = cf(f)
		}
		hook(fn, at, toFloat(f))
		return 0
	})
}

// bitwise compiles a bitwise intrinsic: ir.EvalBitwise on its operands,
// which have the call's integer type.
func (c *compiler) bitwise(e *ir.Call) value {
	t := e.T
	args := make([]intFn, 2)
	konst := true
	for i, a := range e.Args {
		v := c.expr(a)
		if v.t != t || !t.IsIntOrUInt() {
			c.fail("operand of %s has type %v, the call %v; both must be the same integer type: %s", e.Name, v.t, t, ir.ExprString(e))
		}
		konst = konst && v.konst
		args[i] = v.i
	}
	op, x, y := ir.BitwiseOp(e.Name), args[0], args[1]
	var r value
	if y == nil {
		r = intValue(t, func(f *frame) int64 { return op(t, x(f), 0) })
	} else {
		r = intValue(t, func(f *frame) int64 { return op(t, x(f), y(f)) })
	}
	if konst {
		r = fold(r)
	}
	return r
}
