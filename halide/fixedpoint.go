package halide

// Halide 14's fixed-point intrinsics (IROperator.h, namespace Internal:
// saturating_add ... rounding_mul_shift_right) and the truncating
// division. Each is spelled with the IR nodes every target already has
// (casts, arithmetic, min/max, selects and the bitwise intrinsics), as
// Halide's lower_intrinsics (FindIntrinsics.cpp) spells them where a
// target has no instruction, so the simplifier, bounds inference and every
// target treat them as any other expression. The ones whose result is
// twice as wide as their operands (the widening ops, and the multiply of
// MulShiftRight) take operands of 8, 16 or 32 bits: there is no 128-bit
// type to hold the result for 64-bit operands (Halide 14 would make an
// Int(128) call no target of ours can hold), so they are refused with a
// typed error. The others take every integer type, 64 bits included, as
// Halide's lowering needs no wider type for them.

import "github.com/gohalide/gohalide/ir"

const (
	legalSameInts = "integer operands (Int8 ... UInt64), matched as for arithmetic"
	legalNarrow   = "integer operands of 8, 16 or 32 bits (the result is twice as wide; there is no 128-bit type)"
)

// intPair makes x and y operands of the integer operation op, matched as
// for arithmetic (a literal takes the other's type). It is false, with
// the Expr of the error to return, when either is bad or not an integer.
func intPair(op, legal string, x, y any) (a, b ir.Expr, bad Expr, ok bool) {
	ea, eb := E(x), E(y)
	if ea.err != nil {
		return nil, nil, ea, false
	}
	if eb.err != nil {
		return nil, nil, eb, false
	}
	for i, e := range []Expr{ea, eb} {
		if !e.Type().IsIntOrUInt() {
			return nil, nil, opErr(op, legal, "operand %d of %s is a %s, not an integer: %s", i+1, op, e.Type(), e), false
		}
	}
	a, b, err := matchTypes(op, ea.node, eb.node)
	if err != nil {
		return nil, nil, Expr{err: err}, false
	}
	return a, b, Expr{}, true
}

// intOperand makes x the integer operand of op.
func intOperand(op, legal, what string, x any) (Expr, bool) {
	e := E(x)
	if e.err != nil {
		return e, false
	}
	if !e.Type().IsIntOrUInt() {
		return opErr(op, legal, "the %s of %s is a %s, not an integer: %s", what, op, e.Type(), e), false
	}
	return e, true
}

// matchBits is Halide's match_bits for a and b, non-literal integers: the
// narrower is converted to the other's width, keeping its signedness.
func matchBits(a, b ir.Expr) (ir.Expr, ir.Expr) {
	ta, tb := a.Type(), b.Type()
	switch {
	case ta.Bits < tb.Bits:
		a = &ir.Cast{T: ir.Type{Code: ta.Code, Bits: tb.Bits}, X: a}
	case tb.Bits < ta.Bits:
		b = &ir.Cast{T: ir.Type{Code: tb.Code, Bits: ta.Bits}, X: b}
	}
	return a, b
}

// shiftAmount makes n the shift amount of a, an integer Expr, for op: a
// Go or Expr literal becomes a constant of a's width (unsigned when not
// negative, as Halide's int overloads make it); another integer is
// matched to a's width (Halide's match_bits), which may widen a. unsigned
// requires an unsigned amount (Halide's mul_shift_right).
func shiftAmount(op, legal string, a ir.Expr, n any, unsigned bool) (ir.Expr, ir.Expr, Expr, bool) {
	e, ok := intOperand(op, legal, "shift amount", n)
	if !ok {
		return nil, nil, e, false
	}
	t := a.Type()
	if c, isC := e.node.(*ir.IntImm); isC {
		v := c.V
		if c.T == UInt64 && v < 0 {
			return nil, nil, opErr(op, legal, "the shift amount of %s is %s, too large", op, constString(c)), false
		}
		if unsigned && v < 0 {
			return nil, nil, opErr(op, "a shift amount that is not negative", "the shift amount of %s is %d", op, v), false
		}
		st := ir.Type{Code: ir.UIntCode, Bits: t.Bits}
		if v < 0 {
			st.Code = ir.IntCode
		}
		k := &ir.IntImm{T: st, V: v}
		if !constFits(k, st) {
			return nil, nil, opErr(op, "a shift amount that fits the operand's width", "the shift amount %d of %s does not fit in %s", v, op, st), false
		}
		return a, k, Expr{}, true
	}
	if unsigned && !e.Type().IsUInt() {
		return nil, nil, opErr(op, "an unsigned shift amount (UInt8 ... UInt64) or a constant that is not negative",
			"the shift amount of %s is a %s: %s", op, e.Type(), e), false
	}
	a, b := matchBits(a, e.node)
	return a, b, Expr{}, true
}

// shift is a << n (left) or a >> n by ir's shifts (a negative n shifts
// the other way; n of a's width and either signedness).
func shift(left bool, a, n ir.Expr) ir.Expr {
	t, nt := a.Type(), n.Type()
	name, other := ir.IntrinsicShiftRight, ir.IntrinsicShiftLeft
	if left {
		name, other = other, name
	}
	switch {
	case nt == t:
		return ir.Bitwise(name, a, n)
	case nt.IsUInt():
		// t is signed: amounts from the width up all shift every bit
		// out, so clamp to the width before converting.
		return ir.Bitwise(name, a, &ir.Cast{T: t, X: ir.MinE(n, ir.IntConst(nt, int64(t.Bits)))})
	}
	// t is unsigned, n signed: a negative n shifts the other way by -n
	// (for n = min, -n wraps to 2^(bits-1), still at least the width).
	neg := &ir.Cast{T: t, X: ir.SubE(ir.IntConst(nt, 0), n)}
	return &ir.Select{Cond: ir.LTE(n, ir.IntConst(nt, 0)),
		True: ir.Bitwise(other, a, neg), False: ir.Bitwise(name, a, &ir.Cast{T: t, X: n})}
}

// widen is the type of twice t's width and t's signedness.
func widen(t Type) Type { return ir.Type{Code: t.Code, Bits: 2 * t.Bits} }

// roundingShiftRight is Halide's lowering of rounding_shift_right(a, n):
// (a >> n) + ((n > 0) & (a >> (n - 1))), a / 2^n rounded to nearest, ties
// up, for n > 0, and a << -n otherwise.
func roundingShiftRight(a, n ir.Expr) ir.Expr {
	t, nt := a.Type(), n.Type()
	pos := &ir.Select{Cond: ir.LTE(ir.IntConst(nt, 0), n), True: ir.IntConst(t, 1), False: ir.IntConst(t, 0)}
	half := shift(false, a, ir.SubE(n, ir.IntConst(nt, 1)))
	return ir.AddE(shift(false, a, n), ir.Bitwise(ir.IntrinsicBitAnd, pos, half))
}

// roundingShiftLeft is Halide's lowering of rounding_shift_left(a, n):
// (a << n) + ((n < 0) & (a << (n + 1))).
func roundingShiftLeft(a, n ir.Expr) ir.Expr {
	t, nt := a.Type(), n.Type()
	shl := shift(true, a, n)
	if nt.IsUInt() {
		return shl
	}
	neg := &ir.Select{Cond: ir.LTE(n, ir.IntConst(nt, 0)), True: ir.IntConst(t, 1), False: ir.IntConst(t, 0)}
	half := shift(true, a, ir.AddE(n, ir.IntConst(nt, 1)))
	return ir.AddE(shl, ir.Bitwise(ir.IntrinsicBitAnd, neg, half))
}

// SaturatingAdd returns a + b clamped to the range of their type (Halide's
// saturating_add: saturating_narrow(widen(a) + widen(b))). The operands
// are integers, matched as for arithmetic; 64-bit ones are allowed. Built
// as Halide lowers it, without a wider type: clamp(a, min - min(b, 0),
// max - max(b, 0)) + b (min(a, max - b) + b for unsigned types).
func SaturatingAdd(a, b any) Expr {
	x, y, bad, ok := intPair("SaturatingAdd", legalSameInts, a, b)
	if !ok {
		return bad
	}
	t := x.Type()
	lo, hi := typeRange(t)[0], typeRange(t)[1]
	mx := bigConst(t, hi)
	if t.IsUInt() {
		return Expr{node: ir.AddE(ir.MinE(x, ir.SubE(mx, y)), y)}
	}
	zero := ir.IntConst(t, 0)
	l := ir.SubE(bigConst(t, lo), ir.MinE(y, zero))
	h := ir.SubE(mx, ir.MaxE(y, zero))
	return Expr{node: ir.AddE(ir.MinE(ir.MaxE(x, l), h), y)}
}

// SaturatingSub returns a - b clamped to the range of their type (Halide's
// saturating_sub: saturating_narrow(widen(a) - widen(b))), for integers
// matched as for arithmetic, 64-bit ones included. Built as Halide lowers
// it: clamp(a, min + max(b, 0), max + min(b, 0)) - b (max(a, b) - b for
// unsigned types).
func SaturatingSub(a, b any) Expr {
	x, y, bad, ok := intPair("SaturatingSub", legalSameInts, a, b)
	if !ok {
		return bad
	}
	t := x.Type()
	if t.IsUInt() {
		return Expr{node: ir.SubE(ir.MaxE(x, y), y)}
	}
	zero := ir.IntConst(t, 0)
	l := ir.AddE(bigConst(t, typeRange(t)[0]), ir.MaxE(y, zero))
	h := ir.AddE(bigConst(t, typeRange(t)[1]), ir.MinE(y, zero))
	return Expr{node: ir.SubE(ir.MinE(ir.MaxE(x, l), h), y)}
}

// halving builds the halving ops from shifts by one, which need no wider
// type (Halide's lowering).
func halving(op string, a, b any, f func(x, y, one ir.Expr) ir.Expr) Expr {
	x, y, bad, ok := intPair(op, legalSameInts, a, b)
	if !ok {
		return bad
	}
	return Expr{node: f(x, y, ir.IntConst(x.Type(), 1))}
}

func and(x, y ir.Expr) ir.Expr { return ir.Bitwise(ir.IntrinsicBitAnd, x, y) }
func shr(x, y ir.Expr) ir.Expr { return ir.Bitwise(ir.IntrinsicShiftRight, x, y) }

// HalvingAdd returns floor((a + b) / 2), computed without overflow, in
// the type of the integers a and b (Halide's halving_add: narrow((widen(a)
// + widen(b)) / 2)), 64-bit ones included. Built as (a & b) + ((a ^ b) >> 1).
func HalvingAdd(a, b any) Expr {
	return halving("HalvingAdd", a, b, func(x, y, one ir.Expr) ir.Expr {
		return ir.AddE(and(x, y), shr(ir.Bitwise(ir.IntrinsicBitXor, x, y), one))
	})
}

// RoundingHalvingAdd returns floor((a + b + 1) / 2), computed without
// overflow, in the type of the integers a and b (Halide's
// rounding_halving_add), 64-bit ones included. Built as (a >> 1) + (b >> 1)
// + (((a & 1) + (b & 1) + 1) >> 1).
func RoundingHalvingAdd(a, b any) Expr {
	return halving("RoundingHalvingAdd", a, b, func(x, y, one ir.Expr) ir.Expr {
		r := shr(ir.AddE(ir.AddE(and(x, one), and(y, one)), one), one)
		return ir.AddE(ir.AddE(shr(x, one), shr(y, one)), r)
	})
}

// HalvingSub returns floor((a - b) / 2) in the type of the integers a and
// b (Halide's halving_sub: narrow((widen(a) - widen(b)) / 2)), wrapped to
// the type for unsigned ones (HalvingSub(uint8(1), uint8(3)) is 255, -1
// wrapped, as Halide's unsigned wide difference gives), 64-bit ones
// included. Built as (a >> 1) - (b >> 1) - (((b & 1) - (a & 1) + 1) >> 1).
func HalvingSub(a, b any) Expr {
	return halving("HalvingSub", a, b, func(x, y, one ir.Expr) ir.Expr {
		r := shr(ir.AddE(ir.SubE(and(y, one), and(x, one)), one), one)
		return ir.SubE(ir.SubE(shr(x, one), shr(y, one)), r)
	})
}

// RoundingHalvingSub returns floor((a - b + 1) / 2) in the type of the
// integers a and b, wrapped to the type for unsigned ones (Halide 14's
// rounding_halving_sub), 64-bit ones included. Built as (a >> 1) - (b >> 1)
// + (((a & 1) - (b & 1) + 1) >> 1).
func RoundingHalvingSub(a, b any) Expr {
	return halving("RoundingHalvingSub", a, b, func(x, y, one ir.Expr) ir.Expr {
		r := shr(ir.AddE(ir.SubE(and(x, one), and(y, one)), one), one)
		return ir.AddE(ir.SubE(shr(x, one), shr(y, one)), r)
	})
}

// narrowPair is intPair for the widening ops: operands of at most 32 bits.
func narrowPair(op string, a, b any) (x, y ir.Expr, bad Expr, ok bool) {
	x, y, bad, ok = intPair(op, legalNarrow, a, b)
	if ok && x.Type().Bits == 64 {
		return nil, nil, opErr(op, legalNarrow, "%s of %s operands: the result would need 128 bits", op, x.Type()), false
	}
	return x, y, bad, ok
}

// WideningAdd returns a + b, exactly, in the type of twice the operands'
// width and their signedness (Halide's widening_add: widen(a) + widen(b);
// uint8 operands give a uint16). The operands are integers of 8, 16 or 32
// bits, matched as for arithmetic.
func WideningAdd(a, b any) Expr {
	x, y, bad, ok := narrowPair("WideningAdd", a, b)
	if !ok {
		return bad
	}
	w := widen(x.Type())
	return Expr{node: ir.AddE(&ir.Cast{T: w, X: x}, &ir.Cast{T: w, X: y})}
}

// WideningSub returns a - b, exactly, in the signed type of twice the
// operands' width, whatever their signedness (Halide's widening_sub; uint8
// operands give an int16). The operands are integers of 8, 16 or 32 bits,
// matched as for arithmetic.
func WideningSub(a, b any) Expr {
	x, y, bad, ok := narrowPair("WideningSub", a, b)
	if !ok {
		return bad
	}
	w := ir.Type{Code: ir.IntCode, Bits: 2 * x.Type().Bits}
	return Expr{node: ir.SubE(&ir.Cast{T: w, X: x}, &ir.Cast{T: w, X: y})}
}

// WideningMul returns a * b, exactly, in the type of twice the width. As in
// Halide's widening_mul, the operands may differ in signedness: only their
// widths are matched (a constant takes the other's width, and its type
// when it fits there, else the other signedness; otherwise the narrower
// operand is widened keeping its signedness); the result is signed when
// either operand is (uint8 * int8 is an int16), unsigned when both are.
// The operands are integers of 8, 16 or 32 bits.
func WideningMul(a, b any) Expr {
	const op = "WideningMul"
	ea, ok := intOperand(op, legalNarrow, "first operand", a)
	if !ok {
		return ea
	}
	eb, ok := intOperand(op, legalNarrow, "second operand", b)
	if !ok {
		return eb
	}
	x, y := ea.node, eb.node
	switch {
	case isLiteral(y) && !isLiteral(x):
		y = mulConst(x.Type(), y)
	case isLiteral(x) && !isLiteral(y):
		x = mulConst(y.Type(), x)
	}
	if isLiteral(x) && isLiteral(y) || x.Type().Bits != y.Type().Bits && (isLiteral(x) || isLiteral(y)) {
		var err error
		if x, y, err = matchTypes(op, x, y); err != nil {
			return Expr{err: err}
		}
	}
	x, y = matchBits(x, y)
	t := x.Type()
	if t.Bits == 64 {
		return opErr(op, legalNarrow, "%s of %s and %s operands: the result would need 128 bits", op, ea.Type(), eb.Type())
	}
	w := widen(t)
	if x.Type().IsInt() || y.Type().IsInt() {
		w.Code = ir.IntCode
	}
	return Expr{node: ir.MulE(&ir.Cast{T: w, X: x}, &ir.Cast{T: w, X: y})}
}

// mulConst gives the constant c of WideningMul the width of the other
// operand's type t: t when c fits in it, else the type of t's width and
// the other signedness when c fits there (uint8 * -128 is uint8 * int8);
// otherwise c is left for matchTypes to refuse.
func mulConst(t Type, c ir.Expr) ir.Expr {
	k, ok := c.(*ir.IntImm)
	if !ok {
		return c
	}
	flip := ir.Type{Code: ir.IntCode, Bits: t.Bits}
	if t.IsInt() {
		flip.Code = ir.UIntCode
	}
	for _, u := range []Type{t, flip} {
		if constFits(k, u) {
			return convertConst(k, u)
		}
	}
	return c
}

// WideningShiftLeft returns a << n in the type of twice a's width and a's
// signedness (Halide's widening_shift_left: widen(a) << n), exact for n
// below a's width. n is an integer: a constant of a's width, or an
// integer matched to a's width (Halide's match_bits); a negative n shifts
// right by -n. a is an integer of 8, 16 or 32 bits.
func WideningShiftLeft(a, n any) Expr { return wideningShift("WideningShiftLeft", true, a, n) }

// WideningShiftRight returns a >> n in the type of twice a's width and a's
// signedness (Halide's widening_shift_right: widen(a) >> n; a negative n
// shifts left by -n, exactly for -n up to a's width). The operands are as
// for WideningShiftLeft.
func WideningShiftRight(a, n any) Expr { return wideningShift("WideningShiftRight", false, a, n) }

func wideningShift(op string, left bool, a, n any) Expr {
	ea, ok := intOperand(op, legalNarrow, "operand", a)
	if !ok {
		return ea
	}
	x, k, bad, ok := shiftAmount(op, legalNarrow, ea.node, n, false)
	if !ok {
		return bad
	}
	if x.Type().Bits == 64 {
		return opErr(op, legalNarrow, "%s of a %s operand: the result would need 128 bits", op, x.Type())
	}
	w := widen(x.Type())
	kw := k
	if c, isC := k.(*ir.IntImm); isC {
		kw = &ir.IntImm{T: widen(c.T), V: c.V}
	} else {
		kw = &ir.Cast{T: widen(k.Type()), X: k}
	}
	return Expr{node: shift(left, &ir.Cast{T: w, X: x}, kw)}
}

// RoundingShiftRight returns a shifted right by n with rounding, in a's
// type (Halide's rounding_shift_right): for n > 0, a / 2^n rounded to the
// nearest integer, ties toward +infinity (floor((a + 2^(n-1)) / 2^n),
// computed without overflow; 0 or a's top bit's rounding for n of the
// width or more); for n <= 0, a << -n, wrapped as Shl wraps. That is
// Halide 14's lowering, (a >> n) + ((n > 0) & (a >> (n - 1))), which is
// how it is built; Halide's header describes the n < 0 case as
// saturating, but its lowering wraps, and so does this. a is any integer
// (64 bits included); n is an integer (a constant, or matched to a's width
// keeping its signedness, as Halide's match_bits does).
func RoundingShiftRight(a, n any) Expr {
	const op = "RoundingShiftRight"
	ea, ok := intOperand(op, legalSameInts, "operand", a)
	if !ok {
		return ea
	}
	x, k, bad, ok := shiftAmount(op, legalSameInts, ea.node, n, false)
	if !ok {
		return bad
	}
	return Expr{node: roundingShiftRight(x, k)}
}

// RoundingShiftLeft returns a << n, in a's type, wrapped as Shl wraps for
// n >= 0, and for n < 0 a / 2^-n rounded to nearest, ties toward
// +infinity (Halide's rounding_shift_left, built as its lowering: (a << n)
// + ((n < 0) & (a << (n + 1)))). The operands are as for
// RoundingShiftRight.
func RoundingShiftLeft(a, n any) Expr {
	const op = "RoundingShiftLeft"
	ea, ok := intOperand(op, legalSameInts, "operand", a)
	if !ok {
		return ea
	}
	x, k, bad, ok := shiftAmount(op, legalSameInts, ea.node, n, false)
	if !ok {
		return bad
	}
	return Expr{node: roundingShiftLeft(x, k)}
}

// MulShiftRight returns (a * b) >> q, the product taken exactly in twice
// the width and the result clamped to a's type (Halide's mul_shift_right:
// saturating_narrow(widening_mul(a, b) >> q)); with q the width less one
// for signed types (the width for unsigned ones) it is the fixed-point
// product. a and b are integers of 8, 16 or 32 bits, matched as for
// arithmetic; q is a constant that is not negative or an unsigned integer
// (matched to a's width, as Halide's match_bits does), as Halide requires.
func MulShiftRight(a, b, q any) Expr { return mulShiftRight("MulShiftRight", false, a, b, q) }

// RoundingMulShiftRight is MulShiftRight with the shift rounding to
// nearest, ties toward +infinity (Halide's rounding_mul_shift_right:
// saturating_narrow(rounding_shift_right(widening_mul(a, b), q))). The
// operands are as for MulShiftRight.
func RoundingMulShiftRight(a, b, q any) Expr {
	return mulShiftRight("RoundingMulShiftRight", true, a, b, q)
}

func mulShiftRight(op string, rounding bool, a, b, q any) Expr {
	x, y, bad, ok := intPair(op, legalNarrow, a, b)
	if !ok {
		return bad
	}
	x2, k, bad, ok := shiftAmount(op, legalNarrow, x, q, true)
	if !ok {
		return bad
	}
	if x2.Type() != x.Type() { // q widened a (match_bits): match b again
		x = x2
		y = &ir.Cast{T: x.Type(), X: y}
	}
	t := x.Type()
	if t.Bits == 64 {
		return opErr(op, legalNarrow, "%s of %s operands: the product would need 128 bits", op, t)
	}
	w := widen(t)
	p := ir.MulE(&ir.Cast{T: w, X: x}, &ir.Cast{T: w, X: y})
	var kw ir.Expr = &ir.Cast{T: ir.Type{Code: ir.UIntCode, Bits: w.Bits}, X: k}
	if c, isC := k.(*ir.IntImm); isC {
		kw = &ir.IntImm{T: ir.Type{Code: ir.UIntCode, Bits: w.Bits}, V: c.V}
	}
	var s ir.Expr
	if rounding {
		s = roundingShiftRight(p, kw)
	} else {
		s = shift(false, p, kw)
	}
	return SaturatingCast(t, Expr{node: s})
}

// DivRoundToZero returns x / y rounded toward zero, C's integer division
// (Halide's div_round_to_zero), for integers matched as for arithmetic.
// For unsigned types it is Div. Halide leaves division by zero and the
// overflowing min / -1 undefined; here they are what Div gives (0, and
// min wrapped). Built from the Euclidean quotient q and remainder r:
// q + sign(y) where x < 0 and r != 0, q elsewhere.
func DivRoundToZero(x, y any) Expr {
	a, b, bad, ok := intPair("DivRoundToZero", "integer operands (Int8 ... UInt64)", x, y)
	if !ok {
		return bad
	}
	t := a.Type()
	q := ir.DivE(a, b)
	if t.IsUInt() {
		return Expr{node: q}
	}
	zero := ir.IntConst(t, 0)
	fix := ir.AndE(ir.LTE(a, zero), ir.Bin(ir.NE, ir.ModE(a, b), zero))
	step := &ir.Select{Cond: ir.LTE(zero, b), True: ir.IntConst(t, 1), False: ir.IntConst(t, -1)}
	return Expr{node: &ir.Select{Cond: fix, True: ir.AddE(q, step), False: q}}
}

// ModRoundToZero returns the remainder of DivRoundToZero, x - y *
// DivRoundToZero(x, y), which has x's sign, C's % (Halide's
// mod_round_to_zero), for integers matched as for arithmetic. For
// unsigned types it is Mod; a zero y gives 0, as Mod does (Halide leaves
// it undefined). Built from the Euclidean remainder r: r - |y| where x < 0
// and r != 0 (r - y or r + y, which cannot overflow), r elsewhere.
func ModRoundToZero(x, y any) Expr {
	a, b, bad, ok := intPair("ModRoundToZero", "integer operands (Int8 ... UInt64)", x, y)
	if !ok {
		return bad
	}
	t := a.Type()
	r := ir.ModE(a, b)
	if t.IsUInt() {
		return Expr{node: r}
	}
	zero := ir.IntConst(t, 0)
	fix := ir.AndE(ir.LTE(a, zero), ir.Bin(ir.NE, r, zero))
	adj := &ir.Select{Cond: ir.LTE(zero, b), True: ir.SubE(r, b), False: ir.AddE(r, b)}
	return Expr{node: &ir.Select{Cond: fix, True: adj, False: r}}
}
