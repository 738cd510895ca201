package bounds

import (
	"math"

	"github.com/gohalide/gohalide/ir"
)

// binding is one name pushed over a scope. A lazy binding (value set)
// holds a let's value, whose interval in the env outer is worked out at the
// first lookup: most lets around a read do not take part in its box.
type binding struct {
	name  string
	iv    Interval
	next  *binding
	value ir.Expr
	outer env
	// src is a let's value, kept after the lookup, and mayNotRun says
	// whether the let is bound in code that may not run (env.mayNotRun).
	src       ir.Expr
	mayNotRun bool
}

// env is the scope the analysis works in: the caller's Scope, which is never
// written, with a persistent chain of bindings pushed over it, so that
// pushing a binding for a body costs one allocation and leaves the outer
// env untouched. In free mode (used for constant bounds) every variable that
// is not bound ranges over its whole type.
type env struct {
	base Scope
	top  *binding
	free bool
	// mayNotRun marks code that may not run wherever the ends of the boxes
	// found in it are evaluated: the body of a loop that may run no
	// iteration, a branch of a condition that varies (see boxWalker.result).
	mayNotRun bool
}

func (en env) with(name string, iv Interval) env {
	en.top = &binding{name: name, iv: iv, next: en.top}
	return en
}

// withLet is with(name, en.of(ir.Simplify(value))), worked out when name
// is first looked up.
func (en env) withLet(name string, value ir.Expr) env {
	en.top = &binding{name: name, next: en.top, value: value, outer: en, src: value, mayNotRun: en.mayNotRun}
	return en
}

// readsLetThatMayNotRun reports whether e reads, directly or through the
// values of other lets, a let bound in code that may not run.
func (en env) readsLetThatMayNotRun(e ir.Expr) bool {
	return readsLetThatMayNotRun(en.top, e, 0)
}

func readsLetThatMayNotRun(top *binding, e ir.Expr, depth int) bool {
	if depth > 64 {
		return true // too deep to tell: assume it does
	}
	found := false
	ir.WalkExpr(e, func(x ir.Expr) bool {
		v, ok := x.(*ir.Var)
		if found || !ok {
			return !found
		}
		for b := top; b != nil; b = b.next {
			if b.name != v.Name {
				continue
			}
			if b.mayNotRun || b.src != nil && readsLetThatMayNotRun(b.next, b.src, depth+1) {
				found = true
			}
			break
		}
		return !found
	})
	return found
}

func (en env) lookup(v *ir.Var) (Interval, bool) {
	for b := en.top; b != nil; b = b.next {
		if b.name == v.Name {
			if b.value != nil {
				b.iv = b.outer.of(ir.Simplify(b.value))
				b.value, b.outer = nil, env{}
			}
			return b.iv, true
		}
	}
	if iv, ok := en.base[v.Name]; ok {
		return iv, true
	}
	if en.free {
		return Interval{}, true
	}
	return Interval{}, false
}

// Of returns an interval holding every value e takes when the variables in s
// range over their intervals; variables not in s are symbolic constants, and
// the ends are expressed in them. Of simplifies e first, so correlated terms
// cancel before the interval arithmetic (x + r - x has the bounds of r).
//
// Of is sound but not always tight. Precision is lost where:
//   - a variable occurs more than once and the occurrences do not cancel
//     under simplification (x - x*2 with x in [0, 4] gives [-8, 4]);
//   - products and quotients of two non-constant intervals take the min and
//     max of their corner values (or give up when an end is infinite and the
//     signs are unknown), and very large ends are replaced by constant bounds;
//   - division by an interval that may hold zero or both signs gives
//     [-|a|, |a|]; modulo by a non-constant gives [0, max(b) - 1] or the
//     range spanned by b;
//   - select takes the union of its arms (each arm analysed with the
//     variables of a simple condition narrowed);
//   - values read from Funcs, images and buffers are unknown: the whole
//     range of 8- and 16-bit and bool types, [0, +inf] for wider unsigned
//     types, everything otherwise;
//   - arithmetic in types narrower than 32 bits that cannot be proven free
//     of wrap-around, and narrowing casts of values not proven in range,
//     give the whole range of the type (wider types are assumed not to
//     overflow, as in Halide);
//   - pow of non-constant arguments and unknown intrinsics give everything.
func Of(e ir.Expr, s Scope) Interval {
	if e == nil {
		return Interval{}
	}
	en := env{base: s}
	return en.of(ir.Simplify(e))
}

// ConstantUpperBound returns the smallest constant the analysis can prove to
// be at least every value of the integer expression e, with the variables in
// s ranging over their intervals and every other variable unbounded (within
// its type). For example min(M - v*8, 8) is at most 8 and x % 16 at most 15.
func ConstantUpperBound(e ir.Expr, s Scope) (int64, bool) {
	r := constantEnd(e, s, true)
	return r.Hi, r.HasHi
}

// ConstantLowerBound is the lower-end counterpart of ConstantUpperBound.
func ConstantLowerBound(e ir.Expr, s Scope) (int64, bool) {
	r := constantEnd(e, s, false)
	return r.Lo, r.HasLo
}

// constantEnd is the constant range of the upper end (or the lower end) of
// the interval of e, which ConstantUpperBound and ConstantLowerBound read.
func constantEnd(e ir.Expr, s Scope, upper bool) crange {
	if e == nil || e.Type().IsFloat() {
		return crange{}
	}
	en := env{base: s, free: true}
	end := func(x ir.Expr) ir.Expr {
		iv := en.of(x)
		if upper {
			return nonNil(iv.Max)
		}
		return nonNil(iv.Min)
	}
	se := ir.Simplify(e)
	r := linearRange(end(se))
	if se.Type() == ir.Int32 {
		// The expression's own linear form, where an interval walk loses
		// a correlation ((m + 1)/2 - m/2 is at most 1).
		r = r.Intersect(linearRange(se))
	}
	// A min/max next to terms that cancel one of its sides hides a
	// correlation (min(A, M) - A <= 0): separated, it may bound tighter.
	if sep := ir.SeparateMinMax(se); sep != se {
		r2 := linearRange(end(sep))
		if upper && r2.HasHi && (!r.HasHi || r2.Hi < r.Hi) || !upper && r2.HasLo && (!r.HasLo || r2.Lo > r.Lo) {
			r = r2
		}
	}
	return r
}

// linearRange is constRange, tightened by the simplifier's bounds of the
// linear form where the ends are symbolic: those see terms that cancel
// ((m + 1)/2 - m/2 is at most 1), which an interval walk does not. Only
// for int32 (indices and sizes): the simplifier's intervals saturate at the
// int64 range, where -2^63 / 1 would be bounded by -2^63 + 1 (the bounds
// soundness fuzzer, seed 11).
func linearRange(e ir.Expr) crange {
	r := constRange(e)
	if r.IsPoint() || e.Type() != ir.Int32 {
		return r
	}
	lo, hi, lok, hok := ir.ConstantBounds(e)
	return r.Intersect(crange{Lo: lo, Hi: hi, HasLo: lok, HasHi: hok})
}

// unknownInt stands in for an infinite end so constRange reports it as such.
var unknownInt ir.Expr = &ir.Var{T: ir.Int32, Name: "<inf>"}

func nonNil(e ir.Expr) ir.Expr {
	if e == nil {
		return unknownInt
	}
	return e
}

func (en env) of(e ir.Expr) Interval {
	if e != nil && e.Type().IsFloat() {
		return noNaN(en.of1(e))
	}
	return en.of1(e)
}

func (en env) of1(e ir.Expr) Interval {
	switch e := e.(type) {
	case *ir.IntImm, *ir.FloatImm:
		return Point(e)
	case *ir.Var:
		if iv, ok := en.lookup(e); ok {
			return fill(e.T, iv)
		}
		return Point(e)
	case *ir.Cast:
		if e.X.Type().IsFloat() && !e.T.IsFloat() && en.fixedHere(e.X) {
			// A conversion of a float fixed where the bound is used (of
			// Params: gaussian_blur's radius int(ceil(sqrt(...) / p))) is
			// that value, NaN included: it converts alike there.
			return Point(e)
		}
		r := en.cast(e)
		if e.X.Type().IsFloat() && !e.T.IsFloat() && en.mayNaN(e.X) {
			// Intervals of floats do not bound NaN, which converts
			// to 0 (to true for bool).
			nan := zeroOf(e.T)
			if e.T.IsBool() {
				nan = ir.True
			}
			r = unionIv(fill(e.T, r), Point(nan))
		}
		return r
	case *ir.Binary:
		return en.binary(e)
	case *ir.Not:
		a := fill(ir.Bool, en.of(e.X))
		if isPt(a) {
			if a.Min == e.X {
				return Point(e)
			}
			return Point(mkNot(a.Min))
		}
		return Interval{mkNot(a.Max), mkNot(a.Min)}
	case *ir.Select:
		return en.sel(e)
	case *ir.Call:
		return en.call(e)
	case *ir.Load:
		return dataDependent(e.T)
	case *ir.Let:
		return en.with(e.Name, en.of(e.Value)).of(e.Body)
	}
	return Interval{}
}

// fixedHere reports whether e has one value wherever a bound is used:
// its variables are free (Params, buffer shapes) or points of the scope,
// and it reads no memory and binds nothing.
func (en env) fixedHere(e ir.Expr) bool {
	ok := true
	ir.WalkExpr(e, func(x ir.Expr) bool {
		switch x := x.(type) {
		case *ir.Var:
			if en.bound(x) {
				ok = false
			} else if iv, found := en.lookup(x); found && !(isPt(iv) && iv.Min == x) {
				ok = false
			}
		case *ir.Load, *ir.Let:
			ok = false
		case *ir.Call:
			ok = ok && x.Kind == ir.CallIntrinsic
		}
		return ok
	})
	return ok
}

func (en env) cast(e *ir.Cast) Interval {
	a := en.of(e.X)
	if isPt(a) {
		if a.Min == e.X {
			return Point(e)
		}
		return Point(mkCast(e.T, a.Min))
	}
	return castIv(e.X.Type(), e.T, a)
}

// mayNaN reports whether the float expression e may be NaN. Variables of
// the scope and free variables are numbers (finite); variables bound in en
// by a let may hold anything.
func (en env) mayNaN(e ir.Expr) bool {
	if !e.Type().IsFloat() {
		return false
	}
	switch e := e.(type) {
	case *ir.FloatImm:
		return math.IsNaN(e.V)
	case *ir.Var:
		return en.bound(e)
	case *ir.Cast:
		return en.mayNaN(e.X)
	case *ir.Binary:
		if en.mayNaN(e.A) || en.mayNaN(e.B) {
			return true
		}
		switch e.Op {
		case ir.Add, ir.Sub:
			// inf - inf
			return en.mayInf(e.A) && en.mayInf(e.B)
		case ir.Mul:
			// inf * 0
			return (en.mayInf(e.A) && !finiteNonzero(e.B)) || (en.mayInf(e.B) && !finiteNonzero(e.A))
		case ir.Div:
			// 0 / 0 and inf / inf; a finite nonzero numerator divided by
			// a number is a number (c / 0 is infinite).
			return !finiteNonzero(e.B) && !finiteNonzero(e.A)
		case ir.Min, ir.Max:
			return false
		}
		return true
	case *ir.Select, *ir.Call, *ir.Let:
		return en.mayThrough(e, nanKeepers, env.mayNaN)
	}
	return true
}

// mayInf reports whether the float expression e may be infinite (or NaN).
func (en env) mayInf(e ir.Expr) bool {
	switch e := e.(type) {
	case *ir.FloatImm:
		return math.IsInf(e.V, 0) || math.IsNaN(e.V)
	case *ir.Var:
		return en.bound(e)
	case *ir.Cast:
		from := e.X.Type()
		if !from.IsFloat() {
			// Every integer converts to a finite float, but for float16,
			// whose largest value is 65504.
			if c, ok := e.X.(*ir.IntImm); ok && e.T == ir.Float16 {
				return math.IsInf(ir.RoundFloat(e.T, float64(float32(c.V))), 0)
			}
			return e.T == ir.Float16 && (from.Bits > 16 || from == ir.UInt16)
		}
		if e.T.MaxFloat() < from.MaxFloat() {
			if c, ok := e.X.(*ir.FloatImm); ok {
				return math.IsInf(ir.RoundFloat(e.T, c.V), 0)
			}
			return true
		}
		return en.mayInf(e.X)
	case *ir.Binary:
		if e.Op == ir.Min || e.Op == ir.Max {
			return en.mayInf(e.A) || en.mayInf(e.B)
		}
		return true
	case *ir.Select, *ir.Call, *ir.Let:
		return en.mayThrough(e, infKeepers, env.mayInf)
	}
	return true
}

// The intrinsics that are NaN, or infinite, only where an argument is.
var (
	nanKeepers = map[string]bool{ir.IntrinsicLikely: true, ir.IntrinsicStrictFloat: true, ir.IntrinsicAbs: true, ir.IntrinsicFloor: true, ir.IntrinsicCeil: true,
		ir.IntrinsicRound: true, ir.IntrinsicTrunc: true, ir.IntrinsicExp: true, ir.IntrinsicPromiseClamped: true, ir.IntrinsicUnsafePromiseClamped: true}
	infKeepers = map[string]bool{ir.IntrinsicLikely: true, ir.IntrinsicStrictFloat: true, ir.IntrinsicAbs: true, ir.IntrinsicFloor: true, ir.IntrinsicCeil: true,
		ir.IntrinsicRound: true, ir.IntrinsicTrunc: true, ir.IntrinsicSqrt: true, ir.IntrinsicPromiseClamped: true, ir.IntrinsicUnsafePromiseClamped: true}
)

// mayThrough answers mayNaN or mayInf (may) for a select (from its arms),
// a call (an intrinsic in keepers from its arguments; any other may) and a
// let (from its body, with its variable able to hold anything).
func (en env) mayThrough(e ir.Expr, keepers map[string]bool, may func(env, ir.Expr) bool) bool {
	switch e := e.(type) {
	case *ir.Select:
		return may(en, e.True) || may(en, e.False)
	case *ir.Call:
		if e.Kind != ir.CallIntrinsic || !keepers[e.Name] {
			return true
		}
		for _, a := range e.Args {
			if may(en, a) {
				return true
			}
		}
		return false
	case *ir.Let:
		return may(en.with(e.Name, Interval{}), e.Body)
	}
	return true
}

// isFloatZero reports whether e is the float constant 0 (or -0).
func isFloatZero(e ir.Expr) bool {
	c, ok := e.(*ir.FloatImm)
	return ok && c.V == 0
}

// finiteNonzero reports whether e is a finite nonzero float constant.
func finiteNonzero(e ir.Expr) bool {
	c, ok := e.(*ir.FloatImm)
	return ok && c.V != 0 && !math.IsInf(c.V, 0) && !math.IsNaN(c.V)
}

// uniform reports whether e reads no variable en binds or ranges (its
// scope's or its own): one value wherever en applies.
func (en env) uniform(e ir.Expr) bool {
	ok := true
	ir.WalkExpr(e, func(x ir.Expr) bool {
		if v, isVar := x.(*ir.Var); isVar {
			if _, inBase := en.base[v.Name]; inBase || en.bound(v) {
				ok = false
			}
		}
		return ok
	})
	return ok
}

// selectIv is the interval of select(cond, a value in t, a value in f) for
// a cond that is one value: its ends select between t's and f's (an
// unbounded end on either side stays unbounded).
func selectIv(cond ir.Expr, t, f Interval) Interval {
	end := func(a, b ir.Expr) ir.Expr {
		if a == nil || b == nil {
			return nil
		}
		if a == b {
			return a
		}
		return ir.Simplify(&ir.Select{Cond: cond, True: a, False: b})
	}
	return Interval{end(t.Min, f.Min), end(t.Max, f.Max)}
}

// bound reports whether v is bound in en itself (by a let, a loop or a
// narrowing), rather than in the caller's scope or free.
func (en env) bound(v *ir.Var) bool {
	for b := en.top; b != nil; b = b.next {
		if b.name == v.Name {
			return true
		}
	}
	return false
}

// dataDependent is the interval of a value read from memory.
func dataDependent(t ir.Type) Interval {
	if t.IsBool() || (t.IsIntOrUInt() && t.Bits <= 16) {
		return typeRange(t)
	}
	return unbounded(t)
}

func zeroOf(t ir.Type) ir.Expr { return ir.IntConst(t, 0) }
func oneOf(t ir.Type) ir.Expr  { return ir.IntConst(t, 1) }

// Sign tests on interval ends (nil ends are infinite and prove nothing).

func nonneg(e ir.Expr) bool {
	switch c := e.(type) {
	case nil:
		return false
	case *ir.FloatImm:
		return c.V >= 0
	}
	r := constRange(e)
	return r.HasLo && r.Lo >= 0
}

func positive(e ir.Expr) bool {
	switch c := e.(type) {
	case nil:
		return false
	case *ir.FloatImm:
		return c.V > 0
	}
	r := constRange(e)
	return r.HasLo && r.Lo > 0
}

func nonpos(e ir.Expr) bool {
	switch c := e.(type) {
	case nil:
		return false
	case *ir.FloatImm:
		return c.V <= 0
	}
	r := constRange(e)
	return r.HasHi && r.Hi <= 0
}

func negative(e ir.Expr) bool {
	switch c := e.(type) {
	case nil:
		return false
	case *ir.FloatImm:
		return c.V < 0
	}
	r := constRange(e)
	return r.HasHi && r.Hi < 0
}

// constSign returns the sign of a constant and whether e is one.
func constSign(e ir.Expr) (int, bool) {
	switch c := e.(type) {
	case *ir.IntImm:
		if c.T.IsUInt() && c.T.Bits == 64 && c.V < 0 {
			return 1, true
		}
		switch {
		case c.V > 0:
			return 1, true
		case c.V < 0:
			return -1, true
		}
		return 0, true
	case *ir.FloatImm:
		switch {
		case c.V > 0:
			return 1, true
		case c.V < 0:
			return -1, true
		case c.V == 0:
			return 0, true
		}
	}
	return 0, false
}

// noNaN makes infinite the float ends that may be NaN, which bounds
// nothing: the constant NaN (from inf - inf, 0 * inf, sqrt(-1)), and
// symbolic ends that divide or call a function (sqrt(-2 / p)).
func noNaN(iv Interval) Interval {
	if !nanFree(iv.Min) {
		iv.Min = nil
	}
	if !nanFree(iv.Max) {
		iv.Max = nil
	}
	return iv
}

func nanFree(e ir.Expr) bool {
	ok := true
	if e == nil {
		return true
	}
	ir.WalkExpr(e, func(x ir.Expr) bool {
		switch x := x.(type) {
		case *ir.FloatImm:
			ok = ok && !math.IsNaN(x.V)
		case *ir.Binary:
			// A finite nonzero constant divided by a number is a number
			// (1.0f / p, the reciprocal of a Param), and so is a number
			// divided by one.
			ok = ok && !(x.A.Type().IsFloat() && (x.Op == ir.Mod || x.Op == ir.Div && !finiteNonzero(x.A) && !finiteNonzero(x.B)))
		case *ir.Call:
			// floor, abs, exp, ... of numbers are numbers (nanKeepers);
			// their arguments are walked.
			ok = ok && (!x.Type().IsFloat() || x.Kind == ir.CallIntrinsic && nanKeepers[x.Name])
		case *ir.Load:
			ok = ok && !x.Type().IsFloat()
		}
		return ok
	})
	// A sum or product that overflows to infinity can meet another
	// infinity or a zero: (p * p) * 0.0 is NaN for a large p.
	return ok && !(env{}).mayNaN(e)
}

func (en env) binary(e *ir.Binary) Interval {
	var a, b Interval
	if exactArith(e) {
		a, b = en.exact(e.A), en.exact(e.B)
	} else {
		a, b = en.of(e.A), en.of(e.B)
	}
	// Points fold, except sums of signed 32/64-bit values, which
	// exactSum keeps exact (a folded point would wrap).
	// A float zero that is not e's own divisor may be +0 or -0 (intervals
	// do not keep the sign of zero), and x / 0 is +-inf by that sign.
	zeroDivisor := e.Op == ir.Div && isFloatZero(b.Min) && b.Min != e.B
	if isPt(a) && isPt(b) && !exactArith(e) && !zeroDivisor {
		if e.A.Type().IsFloat() && e.Type().IsBool() && (en.mayNaN(e.A) || en.mayNaN(e.B)) {
			// The points bound the numbers, not NaN, which makes the
			// comparison false (!= true).
			return Interval{ir.False, ir.True}
		}
		if a.Min == e.A && b.Min == e.B {
			return Point(e)
		}
		return Point(ptBin(e.Op, a.Min, b.Min))
	}
	t := e.A.Type()
	if wraps(t) && mayWrap(t, e.Op, a, b) {
		return typeRange(t)
	}
	switch e.Op {
	case ir.Add, ir.Sub, ir.Mul:
		if exactArith(e) {
			return en.divModSplit(e, fit(t, en.exactSum(e, a, b)))
		}
	}
	switch e.Op {
	case ir.Add:
		return fit(t, Interval{binNil(ir.Add, a.Min, b.Min), binNil(ir.Add, a.Max, b.Max)})
	case ir.Sub:
		return fit(t, Interval{binNil(ir.Sub, a.Min, b.Max), binNil(ir.Sub, a.Max, b.Min)})
	case ir.Mul:
		return fit(t, mulIv(a, b))
	case ir.Div:
		return fit(t, divIv(t, a, b))
	case ir.Mod:
		return fit(t, modIv(t, a, b))
	case ir.Min:
		return Interval{minLo(a.Min, b.Min), minHi(a.Max, b.Max)}
	case ir.Max:
		return Interval{maxLo(a.Min, b.Min), maxHi(a.Max, b.Max)}
	case ir.LT:
		return cmpIv(ir.LT, a, b)
	case ir.LE:
		return cmpIv(ir.LE, a, b)
	case ir.GT:
		return cmpIv(ir.LT, b, a)
	case ir.GE:
		return cmpIv(ir.LE, b, a)
	case ir.EQ:
		// Possibly equal unless the intervals are disjoint.
		return Interval{ir.False, joinCmps(ir.True, ir.And, ir.LE, a.Min, b.Max, b.Min, a.Max)}
	case ir.NE:
		// Surely unequal when the intervals are disjoint.
		return Interval{joinCmps(ir.False, ir.Or, ir.LT, a.Max, b.Min, b.Max, a.Min), ir.True}
	case ir.And, ir.Or:
		// Monotone in both operands (false < true).
		a, b = fill(ir.Bool, a), fill(ir.Bool, b)
		return Interval{mkBin(e.Op, a.Min, b.Min), mkBin(e.Op, a.Max, b.Max)}
	}
	return unbounded(e.Type())
}

// divModSplit tightens iv, the interval of the sum e, by the interval of
// e's ir.DivModSplit form, where e has one: (x/4)*8 - x + 3 is
// 4*(x/4) - x%4 + 3, whose terms vary apart less. Each end keeps the
// tighter of the two where their difference has a known sign, else their
// max (min); a point (an exact end) is kept as it is.
func (en env) divModSplit(e *ir.Binary, iv Interval) Interval {
	if iv.Min != nil && iv.Max != nil && (iv.Min == iv.Max || ir.Equal(iv.Min, iv.Max)) {
		return iv
	}
	alt, ok := ir.DivModSplit(e)
	if !ok {
		return iv
	}
	av := fit(e.Type(), en.exact(alt))
	return Interval{tighterEnd(iv.Min, av.Min, false), tighterEnd(iv.Max, av.Max, true)}
}

// tighterEnd is the tighter of two lower (upper) ends a and b of one
// value: the larger (smaller) where the sign of b - a is known, else
// max(a, b) (min(a, b)); nil (infinite) gives way.
func tighterEnd(a, b ir.Expr, upper bool) ir.Expr {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	}
	d := ir.DiffBounds(b, a)
	switch {
	case d.HasHi && d.Hi <= 0: // b <= a
		if upper {
			return b
		}
		return a
	case d.HasLo && d.Lo >= 0: // b >= a
		if upper {
			return a
		}
		return b
	case upper:
		return minHi(a, b)
	}
	return maxLo(a, b)
}

// exactArith reports whether e is an Add, Sub or Mul of a signed 32- or
// 64-bit type, whose interval is computed from the exact intervals of its
// operands (see exact).
func exactArith(e ir.Expr) bool {
	b, ok := e.(*ir.Binary)
	if !ok || (b.Op != ir.Add && b.Op != ir.Sub && b.Op != ir.Mul) {
		return false
	}
	t := b.A.Type()
	return t.IsInt() && t.Bits >= 32
}

// exact is the interval of the exact (unwrapped) value of e: for a tree of
// Add, Sub and Mul of a signed 32- or 64-bit type, the ends are not fitted
// to the type at each node, only once at the root of the tree (by binary).
//
// The simplifier reassociates sums, exactly modulo 2^bits: b - (p - (b - c))
// becomes ((b + b) - p) - c, whose intermediate b + b may overflow where the
// original expression does not. The value of the whole sum is still exact
// when the original does not overflow, but fitting the intermediate b + b to
// the whole type (its values, once wrapped) and then going on with
// arithmetic that assumes no overflow is unsound: with b = -2^31 + 1 and
// c = b, the sum is b, below the lower end -2^31 - p - c.max that the type's
// limit gives. An end outside the type is kept as an out-of-range constant
// (or made infinite by mkBin when it is symbolic); an end that saturated at
// the int64 range is not exact and is made infinite.
func (en env) exact(e ir.Expr) Interval {
	if !exactArith(e) {
		return en.of(e)
	}
	b := e.(*ir.Binary)
	return en.exactSum(b, en.exact(b.A), en.exact(b.B))
}

// exactSum is the exact interval of the Add, Sub or Mul e, from the exact
// intervals of its operands.
func (en env) exactSum(e *ir.Binary, a, b Interval) Interval {
	if isPt(a) && isPt(b) {
		if a.Min == e.A && b.Min == e.B {
			return Point(e)
		}
		// Two constants fold exactly, as the ends below: the sum is of
		// a value the analysis takes not to overflow, and a simplified
		// form may hold an intermediate that would (SeparateMinMax
		// writes (max(s, c) - s) + a as a + max(0, c - s)); wrapped,
		// max(0, c - s) would be large where it is 0. An end outside
		// the type is widened by fit at the root.
		if r := fold(e.Op, a.Min, b.Min, false); r != nil {
			if _, ok := r.(*ir.IntImm); ok {
				return Point(r)
			}
		}
		// Otherwise a point is folded with wrap-around, exactly modulo
		// 2^bits.
		return Point(ptBin(e.Op, a.Min, b.Min))
	}
	var iv Interval
	switch e.Op {
	case ir.Add:
		iv = Interval{binNil(ir.Add, a.Min, b.Min), binNil(ir.Add, a.Max, b.Max)}
	case ir.Sub:
		iv = Interval{binNil(ir.Sub, a.Min, b.Max), binNil(ir.Sub, a.Max, b.Min)}
		if c, ok := en.sharedMinMaxDiff(e.A, e.B); ok {
			iv = c
		} else {
			iv = tightenEnds(iv, minMaxDiff(e.A, e.B), e.Type())
		}
	default:
		iv = mulIv(a, b)
	}
	for _, end := range []*ir.Expr{&iv.Min, &iv.Max} {
		if c, ok := (*end).(*ir.IntImm); ok && c.T.Bits == 64 && (c.V == math.MaxInt64 || c.V == math.MinInt64) {
			*end = nil
		}
	}
	return iv
}

// minMaxDiff bounds the exact difference of two mins (or two maxes) of
// the same signed 32- or 64-bit type by the differences of their operands
// (ir.DiffBounds): min(a1, a2) - min(b1, b2) lies in [min(a1 - b1,
// a2 - b2), max(a1 - b1, a2 - b2)], and so does the difference of the
// maxes. The ends are constants or unknown.
//
// This keeps the link between the two ends of a region clamped at the end
// of a loop (ShiftInwards: [min(t, m - 7), min(t + 24, m - 7) + 7]): its
// width, min(t + 24, m - 7) - min(t, m - 7) + 7, is in [7, 31] wherever t
// ranges, where the interval of each end ranged apart spans the loop.
func minMaxDiff(a, b ir.Expr) ir.ConstRange {
	ma, ok1 := a.(*ir.Binary)
	mb, ok2 := b.(*ir.Binary)
	if !ok1 || !ok2 || ma.Op != mb.Op || (ma.Op != ir.Min && ma.Op != ir.Max) {
		return ir.ConstRange{}
	}
	if t := ma.Type(); !t.IsInt() || t.Bits < 32 || mb.Type() != t {
		return ir.ConstRange{}
	}
	return ir.DiffBounds(a, b)
}

// sharedMinMaxDiff is the exact interval of min(x, r) - min(y, r) (or of
// the maxes, the operands in either order) where x - y is a constant c:
// the mins move together until r stops them, so the difference is
// clamp(r - y, 0, c) (c >= 0; clamp(x - r, c, 0) for c < 0), and of the
// maxes clamp(x - r, 0, c) (clamp(r - y, c, 0)). The clamped difference
// is ranged in en, so the ends keep what x, y and r share: a region
// [min(t, m), min(t + 96, m) + 31] has a width of min(max(m - t, 0), 96)
// + 31, at least 127 where t stays 96 below m. ok is false where e.A and
// e.B are not of that form, or where r - y (x - r) does not fit the type
// exactly (see ir.ExactDiff).
func (en env) sharedMinMaxDiff(a, b ir.Expr) (Interval, bool) {
	ma, ok1 := a.(*ir.Binary)
	mb, ok2 := b.(*ir.Binary)
	if !ok1 || !ok2 || ma.Op != mb.Op || (ma.Op != ir.Min && ma.Op != ir.Max) {
		return Interval{}, false
	}
	t := ma.Type()
	if !t.IsInt() || t.Bits < 32 || mb.Type() != t {
		return Interval{}, false
	}
	for _, p := range [4][4]ir.Expr{{ma.A, ma.B, mb.A, mb.B}, {ma.A, ma.B, mb.B, mb.A}, {ma.B, ma.A, mb.A, mb.B}, {ma.B, ma.A, mb.B, mb.A}} {
		x, r, y, r2 := p[0], p[1], p[2], p[3]
		if !ir.Equal(r, r2) {
			continue
		}
		d := ir.DiffBounds(x, y)
		if !d.IsPoint() {
			continue
		}
		c := d.Lo
		// The difference clamped: up (r - y) or down (x - r).
		up := (ma.Op == ir.Min) == (c >= 0)
		var diff ir.Expr
		var ok bool
		if up {
			diff, ok = ir.ExactDiff(r, y)
		} else {
			diff, ok = ir.ExactDiff(x, r)
		}
		if !ok {
			continue
		}
		lo, hi := ir.IntConst(t, min(c, 0)), ir.IntConst(t, max(c, 0))
		iv := en.exact(diff)
		clamp := func(end, dflt ir.Expr) ir.Expr {
			if end == nil {
				return dflt
			}
			return minHi(maxLo(end, lo), hi)
		}
		return Interval{clamp(iv.Min, lo), clamp(iv.Max, hi)}, true
	}
	return Interval{}, false
}

// tightenEnds replaces an end of iv by the constant end of r where that is
// tighter, or where iv's end is not a constant (r bounds the same values:
// both ends hold, and a constant is the one later arithmetic keeps).
func tightenEnds(iv Interval, r ir.ConstRange, t ir.Type) Interval {
	if r.HasLo {
		if c, ok := iv.Min.(*ir.IntImm); !ok || c.V < r.Lo {
			iv.Min = ir.IntConst(t, r.Lo)
		}
	}
	if r.HasHi {
		if c, ok := iv.Max.(*ir.IntImm); !ok || c.V > r.Hi {
			iv.Max = ir.IntConst(t, r.Hi)
		}
	}
	return iv
}

// wraps reports whether the analysis treats arithmetic of type t as
// wrapping around: every integer type except the signed ones of 32 and 64
// bits, whose symbolic arithmetic, as in Halide, is assumed not to
// overflow.
func wraps(t ir.Type) bool { return t.IsIntOrUInt() && !(t.IsInt() && t.Bits >= 32) }

// mayWrap reports whether a op b, for values in the intervals a and b of
// type t, may leave the range of t (and so wrap around). It works on the
// constant ranges of the ends, with exact arithmetic: when the exact results
// all lie inside the type, so do the exact values of every interval end the
// arithmetic builds from a's and b's ends (corners, negations), and those
// ends, although evaluated with wrap-around, are exact. Mod never wraps, nor
// does unsigned division.
func mayWrap(t ir.Type, op ir.BinOp, a, b Interval) bool {
	switch op {
	case ir.Add, ir.Sub, ir.Mul:
	case ir.Div:
		if t.IsUInt() {
			return false
		}
	default:
		return false
	}
	ra, rb := ivRange(t, a), ivRange(t, b)
	if op == ir.Div && !(rb.HasLo && rb.Lo > t.Min()) {
		// divIv negates a negative divisor: -t.Min() wraps.
		return true
	}
	r := binRange(op, ra, rb)
	lo, hi := t.Min(), t.Max()
	if t.Bits == 64 {
		// binRange saturates at the int64 range: a saturated end is
		// not exact. (uint64 values from 2^63 up are not tracked.)
		lo, hi = max(lo, math.MinInt64+1), math.MaxInt64-1
	}
	return !(r.HasLo && r.HasHi && r.Lo >= lo && r.Hi <= hi)
}

// ivRange is a range of constants holding every value of the interval iv
// of type t: the constant bounds of its ends, or the limits of the type.
func ivRange(t ir.Type, iv Interval) crange {
	r := typeDefault(t)
	if iv.Min != nil {
		if c := constRange(iv.Min); c.HasLo {
			if r.HasLo {
				c.Lo = max(c.Lo, r.Lo)
			}
			r.Lo, r.HasLo = c.Lo, true
		}
	}
	if iv.Max != nil {
		if c := constRange(iv.Max); c.HasHi {
			if r.HasHi {
				c.Hi = min(c.Hi, r.Hi)
			}
			r.Hi, r.HasHi = c.Hi, true
		}
	}
	return r
}

// cmpIv is the interval of a < b (op LT) or a <= b (op LE): certainly true
// when a.max op b.min, possibly true when a.min op b.max.
func cmpIv(op ir.BinOp, a, b Interval) Interval {
	lo, hi := ir.False, ir.True
	// A float comparison with NaN is false, and the intervals do not
	// bound NaN: it is never certainly true.
	if a.Max != nil && b.Min != nil && !a.Max.Type().IsFloat() {
		lo = mkBin(op, a.Max, b.Min)
	}
	if a.Min != nil && b.Max != nil {
		hi = mkBin(op, a.Min, b.Max)
	}
	return Interval{lo, hi}
}

func mulIv(a, b Interval) Interval {
	if isPt(b) {
		if s, ok := constSign(b.Min); ok {
			return scaleIv(a, b.Min, s)
		}
	}
	if isPt(a) {
		if s, ok := constSign(a.Min); ok {
			return scaleIv(b, a.Min, s)
		}
	}
	mul := func(x, y ir.Expr) ir.Expr {
		if isFloatZero(x) && y != nil || isFloatZero(y) && x != nil {
			// 0 * y is 0, or NaN where y is infinite; intervals bound
			// the numbers (NaN is the caller's: of1, cmpIv), and 0
			// bounds them where the other factor meets infinity: for x
			// in [0, 1], x * inf is +inf or NaN, inside [0, +inf].
			return zeroOf(x.Type())
		}
		return binNil(ir.Mul, x, y)
	}
	aNN, aNP := nonneg(a.Min), nonpos(a.Max)
	bNN, bNP := nonneg(b.Min), nonpos(b.Max)
	var r Interval
	switch {
	case aNN && bNN:
		r = Interval{mul(a.Min, b.Min), mul(a.Max, b.Max)}
	case aNN && bNP:
		r = Interval{mul(a.Max, b.Min), mul(a.Min, b.Max)}
	case aNP && bNN:
		r = Interval{mul(a.Min, b.Max), mul(a.Max, b.Min)}
	case aNP && bNP:
		r = Interval{mul(a.Max, b.Max), mul(a.Min, b.Min)}
	case aNN:
		r = Interval{minLo(mul(a.Min, b.Min), mul(a.Max, b.Min)), maxHi(mul(a.Min, b.Max), mul(a.Max, b.Max))}
	case aNP:
		r = Interval{minLo(mul(a.Min, b.Max), mul(a.Max, b.Max)), maxHi(mul(a.Min, b.Min), mul(a.Max, b.Min))}
	case bNN:
		r = Interval{minLo(mul(a.Min, b.Min), mul(a.Min, b.Max)), maxHi(mul(a.Max, b.Min), mul(a.Max, b.Max))}
	case bNP:
		r = Interval{minLo(mul(a.Max, b.Min), mul(a.Max, b.Max)), maxHi(mul(a.Min, b.Min), mul(a.Min, b.Max))}
	case a.IsBounded() && b.IsBounded():
		p0, p1 := mul(a.Min, b.Min), mul(a.Min, b.Max)
		p2, p3 := mul(a.Max, b.Min), mul(a.Max, b.Max)
		r = Interval{minLo(minLo(p0, p1), minLo(p2, p3)), maxHi(maxHi(p0, p1), maxHi(p2, p3))}
	default:
		return Interval{}
	}
	return capIv(r)
}

// scaleIv multiplies a by the constant c of sign s.
func scaleIv(a Interval, c ir.Expr, s int) Interval {
	switch {
	case s == 0 && !c.Type().IsFloat():
		return Point(c)
	case s >= 0:
		return Interval{binNil(ir.Mul, a.Min, c), binNil(ir.Mul, a.Max, c)}
	}
	return Interval{binNil(ir.Mul, a.Max, c), binNil(ir.Mul, a.Min, c)}
}

func negIv(t ir.Type, a Interval) Interval {
	z := zeroOf(t)
	return Interval{binNil(ir.Sub, z, a.Max), binNil(ir.Sub, z, a.Min)}
}

func divIv(t ir.Type, a, b Interval) Interval {
	if isPt(b) {
		if s, ok := constSign(b.Min); ok {
			c := b.Min
			switch {
			case s == 0 && t.IsFloat():
				return Interval{}
			case s == 0:
				return Point(c) // x / 0 is 0
			case s > 0:
				return Interval{binNil(ir.Div, a.Min, c), binNil(ir.Div, a.Max, c)}
			}
			return Interval{binNil(ir.Div, a.Max, c), binNil(ir.Div, a.Min, c)}
		}
	}
	switch {
	case t.IsFloat():
		return Interval{}
	case t.IsUInt():
		// Unsigned quotients lie between 0 and the dividend.
		return Interval{zeroOf(t), a.Max}
	case positive(b.Min):
		return capIv(divPos(t, a, b))
	case negative(b.Max) && ivRange(t, b).HasLo && ivRange(t, b).Lo > t.Min():
		// Euclidean division by a negative b is a / b == -(a / -b)
		// (-t.Min() would not fit). The quotient is negated, not a:
		// mayWrap has checked that the result fits.
		return capIv(negIv(t, divPos(t, a, negIv(t, b))))
	case isPt(b) && isVar(b.Min) && a.IsBounded() && (!wraps(t) || ivRange(t, a).HasLo && ivRange(t, a).Lo > t.Min()):
		// One divisor of unknown sign (a Param, a buffer's extent):
		// Euclidean division by it is monotone in the dividend
		// (non-decreasing for b > 0, non-increasing for b < 0, 0 for
		// b = 0), so the quotient lies between a's ends divided by it,
		// as in Halide (depthwise_separable_conv divides a channel by
		// the filter's extent). In the types that wrap, a's min must be
		// above the type's, so that t.Min() / -1 does not wrap; in
		// int32 and int64 a quotient t.Min() / -1 and the end that
		// divides the same t.Min() by it wrap alike. Only for a
		// variable: ends divided by a larger expression (a fused loop's
		// extent) cost the passes that prove things about them more than
		// the bound below gains.
		// The ends are written select(b > 0, a.min / b, a.max / b) and
		// select(b > 0, a.max / b, a.min / b), as Halide writes them,
		// not min and max of the two quotients: where b is known (a
		// specialization's cm == 1) they are a's own ends, and a region
		// keeps the link between its min and its max (a RoundUp split's
		// extent, max - min, stays a constant).
		lo, hi := mkBin(ir.Div, a.Min, b.Min), mkBin(ir.Div, a.Max, b.Min)
		if lo == nil || hi == nil {
			return Interval{}
		}
		pos := ir.Simplify(ir.LTE(zeroOf(t), b.Min))
		return Interval{ir.Simplify(&ir.Select{Cond: pos, True: lo, False: hi}), ir.Simplify(&ir.Select{Cond: pos, True: hi, False: lo})}
	case a.IsBounded() && negExact(t, a):
		// |a / b| <= |a| for every b, and a / 0 is 0 (-a must not
		// wrap).
		return Interval{minLo(a.Min, mkBin(ir.Sub, zeroOf(t), a.Max)), maxHi(a.Max, mkBin(ir.Sub, zeroOf(t), a.Min))}
	}
	return Interval{}
}

func isVar(e ir.Expr) bool {
	_, ok := e.(*ir.Var)
	return ok
}

// negExact reports whether negIv(t, a) is exact: 0 - c saturates for the
// constant end c = -2^63 (and 2^63 / 2 is not (2^63 - 1) / 2), and in the
// types that wrap (8/16 bits) the negated ends, evaluated in the type,
// wrap when a may hold the type's minimum.
func negExact(t ir.Type, a Interval) bool {
	if wraps(t) {
		r := ivRange(t, a)
		return r.HasLo && r.Lo > t.Min()
	}
	if t.Bits < 64 {
		return true
	}
	for _, e := range [2]ir.Expr{a.Min, a.Max} {
		if c, ok := e.(*ir.IntImm); ok && c.V == math.MinInt64 {
			return false
		}
	}
	return true
}

// divPos is division by an interval b whose min is positive, where
// Euclidean division rounds down (ir.EuclidDiv). For fixed b the quotient
// is non-decreasing in a, and for fixed a monotone in b, so the extremes
// are at the corners; b's max may be infinite, where the quotient tends to
// 0 (a >= 0) or -1 (a < 0).
func divPos(t ir.Type, a, b Interval) Interval {
	var r Interval
	div := func(x, y ir.Expr) ir.Expr { return binNil(ir.Div, x, y) }
	switch {
	case a.Min == nil:
	case nonneg(a.Min):
		if b.Max == nil {
			r.Min = zeroOf(t)
		} else {
			r.Min = div(a.Min, b.Max)
		}
	case negative(a.Min):
		r.Min = div(a.Min, b.Min)
	case b.Max == nil:
		r.Min = minLo(div(a.Min, b.Min), zeroOf(t))
	default:
		r.Min = minLo(div(a.Min, b.Min), div(a.Min, b.Max))
	}
	switch {
	case a.Max == nil:
	case nonneg(a.Max):
		r.Max = div(a.Max, b.Min)
	case negative(a.Max):
		if b.Max == nil {
			r.Max = ir.IntConst(t, -1)
		} else {
			r.Max = div(a.Max, b.Max)
		}
	case b.Max == nil:
		r.Max = maxHi(div(a.Max, b.Min), ir.IntConst(t, -1))
	default:
		r.Max = maxHi(div(a.Max, b.Min), div(a.Max, b.Max))
	}
	return r
}

// modIv is the interval of a % b for integers: Euclidean (ir.EuclidMod), so
// in [0, |b|) whatever the signs, at most a for a >= 0, and 0 for b == 0.
func modIv(t ir.Type, a, b Interval) Interval {
	if t.IsFloat() {
		return Interval{}
	}
	zero, one := zeroOf(t), oneOf(t)
	// a % b <= a for a >= 0 (unsigned values are).
	upToA := func(hi ir.Expr) Interval {
		if nonneg(a.Min) || t.IsUInt() {
			hi = minHi(hi, a.Max)
		}
		return Interval{zero, hi}
	}
	if isPt(b) {
		if c, ok := b.Min.(*ir.IntImm); ok && !(t.IsUInt() && t.Bits == 64 && c.V < 0) {
			if c.V == 0 {
				return Point(c) // x % 0 is 0
			}
			m := c.V - 1
			if c.V < 0 {
				m = -(c.V + 1) // |c| - 1, also for c = MIN
			}
			if nonneg(a.Min) {
				if r := constRange(nonNil(a.Max)); r.HasHi && r.Hi <= m {
					return a
				}
			}
			return upToA(ir.IntConst(t, m))
		}
	}
	if t.IsUInt() {
		// Below b unless b is 0 (then it is 0, and b - 1 wraps to the
		// type's maximum).
		if b.Max == nil {
			return upToA(nil)
		}
		return upToA(ptBin(ir.Sub, b.Max, one))
	}
	switch {
	case positive(b.Min):
		return upToA(binNil(ir.Sub, b.Max, one))
	case negative(b.Max):
		// |b| - 1 is -1 - b, largest at b's min.
		return upToA(binNil(ir.Sub, ir.IntConst(t, -1), b.Min))
	case b.IsBounded():
		// |b| - 1 at either end, or 0 (b == 0 gives 0). Not also
		// capped by a: the ends grow fast (fused loops divide by
		// extents whose sign is unknown here).
		return Interval{zero, maxHi(maxHi(mkBin(ir.Sub, b.Max, one), mkBin(ir.Sub, ir.IntConst(t, -1), b.Min)), zero)}
	}
	return upToA(nil)
}

func (en env) sel(e *ir.Select) Interval {
	c := en.of(e.Cond)
	if isTrue(c.Min) {
		return en.refine(e.Cond, true).of(e.True)
	}
	if isFalse(c.Max) {
		return en.refine(e.Cond, false).of(e.False)
	}
	t := en.refine(e.Cond, true).of(e.True)
	f := en.refine(e.Cond, false).of(e.False)
	if isPt(c) && isPt(t) && isPt(f) {
		if c.Min == e.Cond && t.Min == e.True && f.Min == e.False {
			return Point(e)
		}
		return Point(ir.Simplify(&ir.Select{Cond: c.Min, True: t.Min, False: f.Min}))
	}
	return unionIv(t, f)
}

func (en env) call(e *ir.Call) Interval {
	if e.Kind == ir.CallFunc {
		if iv, ok := en.base[FuncValue(e.Name, e.Index)]; ok {
			return iv
		}
	}
	if e.Kind != ir.CallIntrinsic {
		return dataDependent(e.T)
	}
	if (e.Name == ir.IntrinsicLikely || e.Name == ir.IntrinsicStrictFloat) && len(e.Args) == 1 {
		return en.of(e.Args[0])
	}
	args := make([]Interval, len(e.Args))
	allPts, same := true, true
	for i, a := range e.Args {
		args[i] = en.of(a)
		allPts = allPts && isPt(args[i])
		same = same && args[i].Min == a
	}
	if allPts {
		if same {
			return Point(e)
		}
		ends := make([]ir.Expr, len(args))
		for i, a := range args {
			ends[i] = a.Min
		}
		return Point(mkCall(e, ends...))
	}
	switch e.Name {
	case ir.IntrinsicPopcount, ir.IntrinsicCountLeadingZeros, ir.IntrinsicCountTrailingZeros:
		// A count of the type's bits (ir.EvalBitCount).
		if e.T.IsIntOrUInt() && e.T.Bits >= 8 {
			return Interval{ir.IntConst(e.T, 0), ir.IntConst(e.T, int64(e.T.Bits))}
		}
	case ir.IntrinsicAbs:
		if len(args) == 1 {
			return absIv(e, args[0])
		}
	case ir.IntrinsicSqrt, ir.IntrinsicExp, ir.IntrinsicLog,
		ir.IntrinsicFloor, ir.IntrinsicCeil, ir.IntrinsicRound, ir.IntrinsicTrunc:
		// Monotone non-decreasing: apply to the ends. sqrt and log
		// are NaN below 0 (NaN is not bounded by any interval), so
		// their lower end needs a non-negative argument.
		if len(args) == 1 && e.T.IsFloat() && e.Args[0].Type() == e.T {
			a := args[0]
			var r Interval
			switch {
			case e.Name == ir.IntrinsicSqrt && !nonneg(a.Min):
				r.Min = ir.Const(e.T, 0)
			case e.Name == ir.IntrinsicLog && !nonneg(a.Min):
			case a.Min != nil:
				r.Min = mkCall(e, a.Min)
			case e.Name == ir.IntrinsicExp:
				r.Min = ir.Const(e.T, 0)
			}
			if a.Max != nil {
				r.Max = mkCall(e, a.Max)
			}
			return noNaN(r)
		}
	case ir.IntrinsicPromiseClamped:
		if len(args) == 3 {
			// The value is clamp(x, lo, hi) = min(max(x, lo), hi): within
			// [lo, hi], and within x's interval wherever that overlaps it.
			x, lo, hi := args[0], args[1], args[2]
			return Interval{
				minLo(maxLo(x.Min, lo.Min), hi.Min),
				minHi(maxHi(x.Max, lo.Max), hi.Max),
			}
		}
	case ir.IntrinsicUnsafePromiseClamped:
		if len(args) == 3 {
			// The user promises x lies in [lo, hi]: trust it.
			return Interval{args[1].Min, args[2].Max}
		}
	case ir.IntrinsicBitAnd, ir.IntrinsicShiftRight:
		if len(args) == 2 && e.T.IsIntOrUInt() {
			return bitwiseIv(e, args[0], args[1])
		}
	}
	return unbounded(e.T)
}

// bitwiseIv bounds a & b and a >> b (ir.EvalBitwise); the other bitwise
// intrinsics are left to the type's range. a & b lies in [0, b] when b is
// not negative (the bits of b it keeps), and in [0, min(a, b)] when
// neither is. a >> k for a constant k >= 0 is floor(a / 2^k), which keeps
// a's order: the shifts of a's ends.
func bitwiseIv(e *ir.Call, a, b Interval) Interval {
	t := e.T
	nonNeg := func(x Interval) bool { return t.IsUInt() || nonneg(x.Min) }
	switch e.Name {
	case ir.IntrinsicBitAnd:
		switch {
		case nonNeg(a) && nonNeg(b):
			return fill(t, Interval{ir.IntConst(t, 0), minHi(a.Max, b.Max)})
		case nonNeg(b):
			return fill(t, Interval{ir.IntConst(t, 0), b.Max})
		case nonNeg(a):
			return fill(t, Interval{ir.IntConst(t, 0), a.Max})
		}
	case ir.IntrinsicShiftRight:
		if k, ok := e.Args[1].(*ir.IntImm); ok && (t.IsUInt() || k.V >= 0) {
			var r Interval
			if a.Min != nil {
				r.Min = ir.Simplify(ir.Bitwise(e.Name, a.Min, k))
			}
			if a.Max != nil {
				r.Max = ir.Simplify(ir.Bitwise(e.Name, a.Max, k))
			}
			return fill(t, r)
		}
	}
	return unbounded(t)
}

// mkCall rebuilds the intrinsic call e with new arguments, folding floor and
// ceil of constants.
func mkCall(e *ir.Call, args ...ir.Expr) ir.Expr {
	if len(args) == 1 {
		if c, ok := args[0].(*ir.FloatImm); ok && c.T == e.T {
			switch e.Name {
			case ir.IntrinsicFloor:
				return ir.Const(e.T, math.Floor(c.V))
			case ir.IntrinsicCeil:
				return ir.Const(e.T, math.Ceil(c.V))
			}
		}
	}
	c := *e
	c.Args = args
	return ir.Simplify(&c)
}

func absIv(e *ir.Call, a Interval) Interval {
	t := e.Args[0].Type()
	if lo, okLo := ir.AsInt(a.Min); okLo && t.IsInt() && e.T.IsUInt() && e.T.Bits == t.Bits {
		// A signed argument with constant ends and an unsigned result
		// of its width (Halide's abs): |x| <= 2^(bits-1) fits, exactly.
		if hi, okHi := ir.AsInt(a.Max); okHi && lo <= hi {
			abs := func(v int64) int64 {
				if v < 0 {
					return -v
				}
				return v
			}
			switch {
			case lo >= 0:
				return Interval{ir.IntConst(e.T, lo), ir.IntConst(e.T, hi)}
			case hi <= 0:
				return Interval{ir.IntConst(e.T, abs(hi)), ir.IntConst(e.T, abs(lo))}
			}
			return Interval{ir.IntConst(e.T, 0), ir.IntConst(e.T, max(abs(lo), hi))}
		}
	}
	var r Interval
	switch {
	case wraps(t) && t.IsInt() && mayWrap(t, ir.Sub, Point(zeroOf(t)), a):
		// |t.Min()| wraps to t.Min().
		r = typeRange(t)
	case t.IsUInt() || nonneg(a.Min):
		r = a
	case nonpos(a.Max):
		r = negIv(t, a)
	default:
		// An infinite end makes the upper end infinite.
		r = Interval{ir.IntConst(t, 0), maxHi(binNil(ir.Sub, zeroOf(t), a.Min), a.Max)}
	}
	r = fit(t, r)
	if e.T != t {
		return castIv(t, e.T, r)
	}
	return r
}

// castIv is the interval of a value of interval a cast from type from to to.
func castIv(from, to ir.Type, a Interval) Interval {
	castEnd := func(x ir.Expr) ir.Expr {
		if x == nil {
			return nil
		}
		return mkCast(to, x)
	}
	switch {
	case from == to:
		return a
	case to.IsBool():
		if positive(a.Min) || negative(a.Max) {
			return Point(ir.True)
		}
		return Interval{ir.False, ir.True}
	case to.IsFloat(), representable(from, to):
		// Conversions that keep every value (or round it monotonically).
		return fill(to, Interval{castEnd(a.Min), castEnd(a.Max)})
	}
	if from.IsFloat() {
		// Float to integer saturates (ir.FloatToInt), so it is monotone:
		// the casts of the ends bound it, and an infinite end is the
		// type's limit. The ends stay symbolic (int32(max(0.0f, s)) for
		// a product with a float Param), as in Halide. NaN is the
		// caller's (of1).
		r := typeRange(to)
		// A constant end that saturates is the type's limit, which is
		// infinite for int32 and int64 (see typeRange).
		inRange := func(x ir.Expr) bool {
			c, ok := x.(*ir.FloatImm)
			return !ok || (c.V > float64(to.Min())-1 && c.V < float64(to.Max())+1)
		}
		if a.Min != nil && inRange(a.Min) {
			r.Min = castEnd(a.Min)
		}
		if a.Max != nil && inRange(a.Max) {
			r.Max = castEnd(a.Max)
		}
		return r
	}
	// Narrowing integer casts wrap: the ends only when the values provably
	// fit.
	if a.Min != nil && a.Max != nil {
		lo, hi := constRange(a.Min), constRange(a.Max)
		if lo.HasLo && lo.Lo >= to.Min() && hi.HasHi && hi.Hi <= to.Max() {
			return fill(to, Interval{castEnd(a.Min), castEnd(a.Max)})
		}
	}
	return typeRange(to)
}

// refine returns en with the variables compared in cond narrowed to the
// values for which cond has the given truth value. It understands
// likely(c), !c, conjunctions (when true), disjunctions (when false) and
// comparisons between a variable in scope and another expression.
func (en env) refine(cond ir.Expr, truth bool) env {
	switch c := cond.(type) {
	case *ir.Call:
		if c.Kind == ir.CallIntrinsic && c.Name == ir.IntrinsicLikely && len(c.Args) == 1 {
			return en.refine(c.Args[0], truth)
		}
	case *ir.Not:
		return en.refine(c.X, !truth)
	case *ir.Binary:
		switch c.Op {
		case ir.And:
			if truth {
				return en.refine(c.A, true).refine(c.B, true)
			}
		case ir.Or:
			if !truth {
				return en.refine(c.A, false).refine(c.B, false)
			}
		case ir.LT, ir.LE, ir.GT, ir.GE, ir.EQ, ir.NE:
			op := c.Op
			if !truth {
				if c.A.Type().IsFloat() {
					return en // NaN makes the negation no comparison
				}
				op = op.Negated()
			}
			if v, ok := c.A.(*ir.Var); ok {
				en = en.tighten(v, op, c.B)
			}
			if v, ok := c.B.(*ir.Var); ok {
				en = en.tighten(v, op.Swapped(), c.A)
			}
		}
	}
	return en
}

// tighten narrows v, when it is in scope, to the values satisfying v op e.
func (en env) tighten(v *ir.Var, op ir.BinOp, e ir.Expr) env {
	old, ok := en.lookup(v)
	if !ok || ir.Uses(e, v.Name) {
		// A comparison of v with an expression of v itself (x < x/4*4 +
		// 2, a bitonic network's half of a chunk) narrows v to an end
		// written in v, min(x, x/4*4 + 1): no tighter where x ranges,
		// and an end whose terms no longer cancel with the other uses
		// of x (see ir.DivModSplit).
		return en
	}
	r := en.of(e)
	strict := !v.T.IsFloat()
	var lim Interval
	switch op {
	case ir.LE, ir.LT:
		lim.Max = r.Max
		if op == ir.LT && strict {
			lim.Max = binNil(ir.Sub, r.Max, oneOf(v.T))
		}
	case ir.GE, ir.GT:
		lim.Min = r.Min
		if op == ir.GT && strict {
			lim.Min = binNil(ir.Add, r.Min, oneOf(v.T))
		}
	case ir.EQ:
		lim = r
	default:
		return en
	}
	if lim.Min == nil && lim.Max == nil {
		return en
	}
	return en.with(v.Name, Intersect(fill(v.T, old), lim))
}

// joinCmps is cmp(x1, y1) join cmp(x2, y2), leaving out a comparison with
// an unknown (nil) bound, and unit when both are left out: EQ's and NE's
// test of whether two intervals overlap.
func joinCmps(unit ir.Expr, join, cmp ir.BinOp, x1, y1, x2, y2 ir.Expr) ir.Expr {
	r := unit
	if x1 != nil && y1 != nil {
		r = mkBin(cmp, x1, y1)
	}
	if x2 != nil && y2 != nil {
		r = mkBin(join, r, mkBin(cmp, x2, y2))
	}
	return r
}
