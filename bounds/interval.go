package bounds

import (
	"math"
	"strconv"
	"strings"

	"github.com/gohalide/gohalide/ir"
)

// Interval is the inclusive range [Min, Max]. A nil Min is -infinity and a
// nil Max is +infinity.
type Interval struct {
	Min, Max ir.Expr
}

// Scope maps variable names to the intervals they range over. Variables not
// in a scope are symbolic constants. Functions of this package never modify
// a Scope they are given.
type Scope map[string]Interval

// FuncValue is the key under which a Scope bounds the values of a Func:
// with Scope[FuncValue(f, i)] set, every call of f (its value i, 0 for a
// Func of one value) lies in that interval, whatever its arguments
// (Halide's function value bounds: a histogram's bin index computed by
// another Func is bounded by that Func's definition). The key is not a
// variable name, so it never shadows one.
func FuncValue(f string, i int) string { return "\x00" + f + "#" + strconv.Itoa(i) }

// Point returns the interval [e, e].
func Point(e ir.Expr) Interval { return Interval{e, e} }

// Everything returns the interval (-infinity, +infinity).
func Everything() Interval { return Interval{} }

// HasLower reports whether i has a finite lower end.
func (i Interval) HasLower() bool { return i.Min != nil }

// HasUpper reports whether i has a finite upper end.
func (i Interval) HasUpper() bool { return i.Max != nil }

// IsBounded reports whether both ends of i are finite.
func (i Interval) IsBounded() bool { return i.Min != nil && i.Max != nil }

// IsEverything reports whether both ends of i are infinite.
func (i Interval) IsEverything() bool { return i.Min == nil && i.Max == nil }

// IsPoint reports whether i is a single value: both ends finite and
// structurally equal.
func (i Interval) IsPoint() bool {
	return i.Min != nil && i.Max != nil && (i.Min == i.Max || ir.Equal(i.Min, i.Max))
}

// String returns "[min, max]", with -inf and +inf for infinite ends.
func (i Interval) String() string {
	var b strings.Builder
	b.WriteString("[")
	if i.Min == nil {
		b.WriteString("-inf")
	} else {
		b.WriteString(ir.ExprString(i.Min))
	}
	b.WriteString(", ")
	if i.Max == nil {
		b.WriteString("+inf")
	} else {
		b.WriteString(ir.ExprString(i.Max))
	}
	b.WriteString("]")
	return b.String()
}

// Union returns the smallest interval holding both intervals a and b (ends
// built with min and max and simplified), or, for boxes, the per-dimension
// union of a and b (see Box).
func Union[T Interval | Box](a, b T) T {
	switch a := any(a).(type) {
	case Interval:
		return any(unionIv(a, any(b).(Interval))).(T)
	case Box:
		return any(unionBox(a, any(b).(Box))).(T)
	}
	panic("unreachable")
}

func unionIv(a, b Interval) Interval {
	return Interval{minLo(a.Min, b.Min), maxHi(a.Max, b.Max)}
}

// Intersect returns the interval of values in both a and b. An infinite end
// of one side gives way to the other side's end.
func Intersect(a, b Interval) Interval {
	return Interval{maxLo(a.Min, b.Min), minHi(a.Max, b.Max)}
}

// isPt is a cheap IsPoint: the same node, or equal constants.
func isPt(i Interval) bool {
	if i.Min == nil || i.Max == nil {
		return false
	}
	if i.Min == i.Max {
		return true
	}
	switch a := i.Min.(type) {
	case *ir.IntImm:
		b, ok := i.Max.(*ir.IntImm)
		return ok && a.T == b.T && a.V == b.V
	case *ir.FloatImm:
		b, ok := i.Max.(*ir.FloatImm)
		return ok && a.T == b.T && a.V == b.V
	}
	return false
}

// The nil-aware min and max of interval ends. For a lower end nil is
// -infinity, for an upper end +infinity.

func minLo(a, b ir.Expr) ir.Expr { return infWins(ir.Min, a, b) }
func maxLo(a, b ir.Expr) ir.Expr { return infLoses(ir.Max, a, b) }
func minHi(a, b ir.Expr) ir.Expr { return infLoses(ir.Min, a, b) }
func maxHi(a, b ir.Expr) ir.Expr { return infWins(ir.Max, a, b) }

// infWins is a op b where an infinite end (nil) is the answer: the min of
// lower ends, the max of upper ends.
func infWins(op ir.BinOp, a, b ir.Expr) ir.Expr {
	if a == nil || b == nil {
		return nil
	}
	return mkBin(op, a, b)
}

// infLoses is a op b where an infinite end (nil) gives way to the other.
func infLoses(op ir.BinOp, a, b ir.Expr) ir.Expr {
	if a == nil {
		return b
	}
	if b == nil {
		return a
	}
	return mkBin(op, a, b)
}

// binNil is mkBin that yields nil (infinite) when an operand is nil.
func binNil(op ir.BinOp, a, b ir.Expr) ir.Expr {
	if a == nil || b == nil {
		return nil
	}
	return mkBin(op, a, b)
}

// mkBin builds the interval end a op b: constants are folded without
// wrap-around (saturating at the int64 range, so that an out-of-range result
// is visible to fit), trivial identities are applied, and anything else is
// simplified. For Add, Sub and Mul of the signed 32- and 64-bit types, whose
// symbolic arithmetic is assumed not to overflow but whose constants the
// simplifier folds with wrap-around, it returns nil (an infinite end) when
// folding the constant terms of a and b would overflow: (n + 2^31 - 1) + 1
// is not n - 2^31.
func mkBin(op ir.BinOp, a, b ir.Expr) ir.Expr {
	op = boolOp(op, a)
	if r := fold(op, a, b, false); r != nil {
		return r
	}
	if t := a.Type(); t.IsInt() && t.Bits >= 32 && offsetOverflows(t, op, a, b) {
		return nil
	}
	if op == ir.Min || op == ir.Max {
		if r, ok := minMaxOutOfRange(op, a, b); ok {
			return r
		}
	}
	return ir.SimplifyBinary(op, a, b)
}

// minMaxOutOfRange is min(a, b) or max(a, b) where one of them is an
// exact constant end outside the type (see exact), which the simplifier
// would wrap: the constant where it wins (above the type for max, below
// it for min), the other operand where it loses. ok is false when neither
// operand is such a constant.
func minMaxOutOfRange(op ir.BinOp, a, b ir.Expr) (r ir.Expr, ok bool) {
	for _, pair := range [2][2]ir.Expr{{a, b}, {b, a}} {
		c, isConst := pair[0].(*ir.IntImm)
		if !isConst || inTypeRange(c) {
			continue
		}
		if above := c.V > c.T.Max(); above == (op == ir.Max) {
			return c, true
		}
		return pair[1], true
	}
	return nil, false
}

// offsetOverflows reports whether a op b (Add, Sub, or Mul by a constant)
// combines the constant terms of a and b into a value outside type t.
func offsetOverflows(t ir.Type, op ir.BinOp, a, b ir.Expr) bool {
	if op != ir.Add && op != ir.Sub && op != ir.Mul {
		// Comparisons, min and max make no new constant.
		return false
	}
	for _, x := range [2]ir.Expr{a, b} {
		if c, ok := x.(*ir.IntImm); ok && !inTypeRange(c) {
			// An exact end outside the type (see exact) cannot be
			// written in a symbolic end.
			return true
		}
	}
	ca, aok := constOffset(a)
	cb, bok := constOffset(b)
	if !aok || !bok {
		return true
	}
	var r int64
	switch op {
	case ir.Add:
		r = satAdd(ca, cb)
	case ir.Sub:
		r = satSub(ca, cb)
	case ir.Mul:
		if k, ok := b.(*ir.IntImm); ok {
			r = satMul(ca, k.V)
		} else if k, ok := a.(*ir.IntImm); ok {
			r = satMul(cb, k.V)
		}
	}
	_, ac := ir.AsInt(a)
	if _, bc := ir.AsInt(b); !ac || !bc {
		// A symbolic end whose constant term is near the type's limit
		// (v + (2^31 - 1), from the identity of an empty Minimum) wraps
		// for most values of its symbols, which the analysis cannot rule
		// out: the end is not kept.
		lim := int64(1) << (t.Bits - 2)
		if r > lim || r < -lim {
			return true
		}
		// So are the constants inside a select, min or max of an end,
		// into whose arms the simplifier takes the other side's
		// constant: (select(c, 2^63 - 2, -4) - m) * 15 has the constant
		// term 0 but becomes select(c, -30, -60) - m * 15, wrapped.
		ma, mb := nestedConstMax(a), nestedConstMax(b)
		if ma > 0 || mb > 0 {
			ka, kb := max(ma, absSat(ca)), max(mb, absSat(cb))
			var m int64
			if op == ir.Mul {
				m = satMul(ka, kb)
			} else {
				m = satAdd(ka, kb)
			}
			if m > lim {
				return true
			}
		}
	}
	return !inRange(t, r) || r == math.MaxInt64 || r == math.MinInt64
}

// nestedConstMax is the largest magnitude (saturated) of the integer
// constants inside the selects, mins and maxes of e, 0 if there is none.
func nestedConstMax(e ir.Expr) int64 {
	var m int64
	var walk func(x ir.Expr, nested bool)
	walk = func(x ir.Expr, nested bool) {
		switch x := x.(type) {
		case *ir.IntImm:
			if nested {
				m = max(m, absSat(x.V))
			}
			return
		case *ir.Select:
			nested = true
		case *ir.Binary:
			nested = nested || x.Op == ir.Min || x.Op == ir.Max
		}
		ir.VisitExpr(x, func(y ir.Expr) { walk(y, nested) })
	}
	walk(e, false)
	return m
}

// absSat is |v|, saturated at the int64 range.
func absSat(v int64) int64 {
	if v == math.MinInt64 {
		return math.MaxInt64
	}
	return max(v, -v)
}

// constOffset returns the constant term of e in the simplifier's canonical
// form, which writes it last (x + c, x - c) or, with no positive term,
// first (c - x - y), and false when it cannot be negated exactly.
func constOffset(e ir.Expr) (int64, bool) {
	switch e := e.(type) {
	case *ir.IntImm:
		return e.V, true
	case *ir.Binary:
		if c, ok := e.B.(*ir.IntImm); ok {
			switch e.Op {
			case ir.Add:
				return c.V, true
			case ir.Sub:
				return -c.V, c.V != math.MinInt64
			}
		}
		if e.Op == ir.Add || e.Op == ir.Sub {
			return constOffset(e.A)
		}
	}
	return 0, true
}

// ptBin builds a op b for a point interval: constants are folded with the
// type's own wrap-around, so the result is exactly the value of the
// expression.
func ptBin(op ir.BinOp, a, b ir.Expr) ir.Expr {
	op = boolOp(op, a)
	if r := fold(op, a, b, true); r != nil {
		return r
	}
	return ir.SimplifyBinary(op, a, b)
}

// boolOp maps min and max of booleans to && and ||.
func boolOp(op ir.BinOp, a ir.Expr) ir.BinOp {
	if a.Type().IsBool() {
		switch op {
		case ir.Min:
			return ir.And
		case ir.Max:
			return ir.Or
		}
	}
	return op
}

func boolImm(b bool) ir.Expr {
	if b {
		return ir.True
	}
	return ir.False
}

func isTrue(e ir.Expr) bool {
	c, ok := e.(*ir.IntImm)
	return ok && c.T.IsBool() && c.V != 0
}

func isFalse(e ir.Expr) bool {
	c, ok := e.(*ir.IntImm)
	return ok && c.T.IsBool() && c.V == 0
}

func satAdd(a, b int64) int64 {
	s := a + b
	if a > 0 && b > 0 && s < 0 {
		return math.MaxInt64
	}
	if a < 0 && b < 0 && s >= 0 {
		return math.MinInt64
	}
	return s
}

func satSub(a, b int64) int64 {
	d := a - b
	if b < 0 && d < a {
		return math.MaxInt64
	}
	if b > 0 && d > a {
		return math.MinInt64
	}
	return d
}

func satMul(a, b int64) int64 {
	if a == 0 || b == 0 {
		return 0
	}
	p := a * b
	if p/b != a || (a == -1 && b == math.MinInt64) || (b == -1 && a == math.MinInt64) {
		if (a < 0) != (b < 0) {
			return math.MinInt64
		}
		return math.MaxInt64
	}
	return p
}

// fold evaluates a op b when it can without building a node: both constants,
// or an identity such as x + 0. With wrap, integer results wrap around as the
// type does; without, they are computed exactly (saturating at the int64
// range). It returns nil when it cannot fold.
func fold(op ir.BinOp, a, b ir.Expr, wrap bool) ir.Expr {
	switch x := a.(type) {
	case *ir.IntImm:
		if y, ok := b.(*ir.IntImm); ok {
			return foldInt(op, x, y, wrap)
		}
	case *ir.FloatImm:
		if y, ok := b.(*ir.FloatImm); ok {
			return foldFloat(op, x, y)
		}
	}
	if a.Type().IsFloat() {
		return nil
	}
	// Integer and boolean identities.
	ca, aok := a.(*ir.IntImm)
	cb, bok := b.(*ir.IntImm)
	switch op {
	case ir.Add:
		return unitOrZero(a, b, isIntZero, nil)
	case ir.Sub:
		if bok && cb.V == 0 {
			return a
		}
		if a == b {
			return ir.IntConst(a.Type(), 0)
		}
	case ir.Mul:
		return unitOrZero(a, b, isIntOne, isIntZero)
	case ir.Div:
		if bok && cb.V == 1 {
			return a
		}
		if aok && ca.V == 0 {
			return a // 0 / x is 0, also for x == 0
		}
	case ir.Mod:
		// (For uint64, V == -1 is 2^64 - 1, not -1.)
		if (aok && ca.V == 0) || (bok && (cb.V == 1 || (cb.V == -1 && !cb.T.IsUInt()))) {
			return ir.IntConst(a.Type(), 0)
		}
	case ir.Min, ir.Max:
		if a == b {
			return a
		}
		ra, rb := constRange(a), constRange(b)
		aLE := ra.HasHi && rb.HasLo && ra.Hi <= rb.Lo // a <= b always
		bLE := rb.HasHi && ra.HasLo && rb.Hi <= ra.Lo // b <= a always
		switch {
		case op == ir.Min && aLE, op == ir.Max && bLE:
			return a
		case op == ir.Min && bLE, op == ir.Max && aLE:
			return b
		}
	case ir.And:
		return unitOrZero(b, a, isTrue, isFalse)
	case ir.Or:
		return unitOrZero(b, a, isFalse, isTrue)
	}
	return nil
}

// unitOrZero folds x op y, or y op x, for an operator whose identity, on
// either side, is the constant isUnit tells (Add's 0, Mul's 1, And's
// true, Or's false) and whose absorbing element is the one isZero tells
// (Mul's 0, And's false, Or's true; nil for none): in that order, y a
// unit is x, x a unit is y, y a zero is y, x a zero is x. nil when none
// holds.
func unitOrZero(x, y ir.Expr, isUnit, isZero func(ir.Expr) bool) ir.Expr {
	switch {
	case isUnit(y):
		return x
	case isUnit(x):
		return y
	case isZero == nil:
		return nil
	case isZero(y):
		return y
	case isZero(x):
		return x
	}
	return nil
}

func isIntZero(e ir.Expr) bool { return isIntConst(e, 0) }
func isIntOne(e ir.Expr) bool  { return isIntConst(e, 1) }

// isIntConst reports whether e is the integer constant v.
func isIntConst(e ir.Expr, v int64) bool {
	c, ok := e.(*ir.IntImm)
	return ok && c.V == v
}

func foldInt(op ir.BinOp, x, y *ir.IntImm, wrap bool) ir.Expr {
	t := x.T
	a, b := x.V, y.V
	if t.IsUInt() && t.Bits == 64 && (a < 0 || b < 0) {
		// Values past 2^63 are stored as negative int64 bit patterns;
		// leave them to the simplifier.
		return nil
	}
	mk := func(v int64) ir.Expr {
		if wrap {
			v = t.Wrap(v)
		}
		return &ir.IntImm{T: t, V: v}
	}
	switch op {
	case ir.Add:
		if wrap {
			return mk(a + b)
		}
		return mk(satAdd(a, b))
	case ir.Sub:
		if wrap {
			return mk(a - b)
		}
		return mk(satSub(a, b))
	case ir.Mul:
		if wrap {
			return mk(a * b)
		}
		return mk(satMul(a, b))
	case ir.Div:
		if a == math.MinInt64 && b == -1 {
			if wrap {
				return mk(a)
			}
			return mk(math.MaxInt64)
		}
		return mk(ir.EuclidDiv(a, b))
	case ir.Mod:
		if b == -1 {
			return mk(0)
		}
		return mk(ir.EuclidMod(a, b))
	case ir.Min:
		return mk(min(a, b))
	case ir.Max:
		return mk(max(a, b))
	case ir.EQ, ir.NE, ir.LT, ir.LE, ir.GT, ir.GE:
		return boolImm(op.Holds(a < b, a == b))
	case ir.And:
		return boolImm(a != 0 && b != 0)
	case ir.Or:
		return boolImm(a != 0 || b != 0)
	}
	return nil
}

func foldFloat(op ir.BinOp, x, y *ir.FloatImm) ir.Expr {
	t := x.T
	a, b := x.V, y.V
	switch op {
	case ir.Add:
		return ir.Const(t, a+b)
	case ir.Sub:
		return ir.Const(t, a-b)
	case ir.Mul:
		return ir.Const(t, a*b)
	case ir.Div:
		return ir.Const(t, a/b)
	case ir.Min:
		return ir.Const(t, math.Min(a, b))
	case ir.Max:
		return ir.Const(t, math.Max(a, b))
	case ir.EQ:
		return boolImm(a == b)
	case ir.NE:
		return boolImm(a != b)
	case ir.LT:
		return boolImm(a < b)
	case ir.LE:
		return boolImm(a <= b)
	case ir.GT:
		return boolImm(a > b)
	case ir.GE:
		return boolImm(a >= b)
	}
	return nil
}

// mkNot builds !e, folding constants.
func mkNot(e ir.Expr) ir.Expr {
	if c, ok := e.(*ir.IntImm); ok {
		return boolImm(c.V == 0)
	}
	if n, ok := e.(*ir.Not); ok {
		return n.X
	}
	return ir.Simplify(&ir.Not{X: e})
}

// mkCast builds the cast of e to t, folding constants exactly as the
// conversion does at run time.
func mkCast(t ir.Type, e ir.Expr) ir.Expr {
	from := e.Type()
	if from == t {
		return e
	}
	switch c := e.(type) {
	case *ir.IntImm:
		switch {
		case t.IsFloat():
			return ir.Simplify(&ir.Cast{T: t, X: c}) // as the targets convert
		case t.IsBool():
			return boolImm(c.V != 0)
		default:
			return &ir.IntImm{T: t, V: t.Wrap(c.V)}
		}
	case *ir.FloatImm:
		switch {
		case t.IsFloat():
			return ir.Const(t, c.V)
		case t.IsBool():
			return boolImm(c.V != 0)
		default:
			return &ir.IntImm{T: t, V: ir.FloatToInt(c.V, t)}
		}
	}
	return ir.Simplify(&ir.Cast{T: t, X: e})
}

// typeRange is the interval of all values of t: constants for bool, the
// integer types of up to 16 bits and uint32, [0, +inf] for uint64,
// everything otherwise. For int32 and int64, whose symbolic arithmetic the
// analysis assumes does not overflow, the limits are infinite ends, not
// constants: an end such as 2147483647 + x would wrap where it is
// evaluated, while an infinite one stays infinite through the arithmetic
// and is bounded only by a clamp.
func typeRange(t ir.Type) Interval {
	switch {
	case t.IsBool():
		return Interval{ir.False, ir.True}
	case t.IsInt() && t.Bits >= 32:
		return Interval{}
	case t.IsIntOrUInt() && t.Bits <= 32:
		return Interval{&ir.IntImm{T: t, V: t.Min()}, &ir.IntImm{T: t, V: t.Max()}}
	case t.IsUInt():
		return Interval{&ir.IntImm{T: t, V: 0}, nil}
	}
	return Interval{}
}

// unbounded is the interval of an unknown value of type t: Everything, made
// finite where the type itself bounds it (bool, integers narrower than 32
// bits, and the lower end of unsigned types).
func unbounded(t ir.Type) Interval {
	return fill(t, Interval{})
}

// fill replaces infinite ends by the type's own limits where those are
// small enough to be useful.
func fill(t ir.Type, iv Interval) Interval {
	if iv.Min != nil && iv.Max != nil {
		return iv
	}
	switch {
	case t.IsBool() || (t.IsIntOrUInt() && t.Bits < 32):
		r := typeRange(t)
		if iv.Min == nil {
			iv.Min = r.Min
		}
		if iv.Max == nil {
			iv.Max = r.Max
		}
	case t.IsUInt():
		if iv.Min == nil {
			iv.Min = &ir.IntImm{T: t, V: 0}
		}
	}
	return iv
}

// inTypeRange reports whether the constant c is representable in its type.
func inTypeRange(c *ir.IntImm) bool {
	t := c.T
	if !t.IsIntOrUInt() || t.Bits == 64 {
		return true
	}
	return c.V >= t.Min() && c.V <= t.Max()
}

// fit checks the result iv of integer arithmetic of type t for wrap-around.
// Ends are computed without wrapping; when a constant end lies outside the
// type, or (for types narrower than 32 bits, where wrap-around is common)
// when the ends cannot be proven to lie inside it, the values may have
// wrapped and the result is the whole type. As in Halide, symbolic 32- and
// 64-bit arithmetic is assumed not to overflow.
func fit(t ir.Type, iv Interval) Interval {
	if !t.IsIntOrUInt() {
		return iv
	}
	for _, e := range [2]ir.Expr{iv.Min, iv.Max} {
		if c, ok := e.(*ir.IntImm); ok && !inTypeRange(c) {
			return typeRange(t)
		}
		if c, ok := e.(*ir.IntImm); ok && t.IsInt() && t.Bits == 64 && (c.V == math.MaxInt64 || c.V == math.MinInt64) {
			// Constant folding saturates at the int64 range: the
			// exact end may lie outside it.
			return typeRange(t)
		}
	}
	if t.Bits < 32 {
		if iv.Min == nil || iv.Max == nil {
			return typeRange(t)
		}
		lo, hi := constRange(iv.Min), constRange(iv.Max)
		if !lo.HasLo || lo.Lo < t.Min() || !hi.HasHi || hi.Hi > t.Max() {
			return typeRange(t)
		}
	}
	return fill(t, iv)
}

// capEnd bounds the size of an interval end. Products and quotients of
// symbolic intervals take the min or max of several corner expressions, and
// nesting them grows the ends geometrically; past maxEndNodes nodes an end
// is replaced by its constant bound, or made infinite.
func capEnd(e ir.Expr, upper bool) ir.Expr {
	if e == nil || ir.IsConst(e) || !tooBig(e) {
		return e
	}
	r := constRange(e)
	if upper {
		if r.HasHi {
			return ir.IntConst(e.Type(), r.Hi)
		}
	} else if r.HasLo {
		return ir.IntConst(e.Type(), r.Lo)
	}
	return nil
}

const maxEndNodes = 256

func tooBig(e ir.Expr) bool {
	n := 0
	ir.WalkExpr(e, func(ir.Expr) bool {
		n++
		return n <= maxEndNodes
	})
	return n > maxEndNodes
}

func capIv(iv Interval) Interval {
	return Interval{capEnd(iv.Min, false), capEnd(iv.Max, true)}
}
