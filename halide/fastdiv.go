package halide

// Halide's fast_integer_divide and fast_integer_modulo (FastIntegerDivide.h):
// the division of an 8, 16 or 32-bit integer numerator by a uint8
// denominator, with the numerator's type, rounding as Halide's division
// does (toward negative infinity; the denominator is never negative), and
// its Euclidean remainder. Halide builds them from tables of magic
// multipliers and shifts, a speed trick for targets without vector
// division; the values are those of the plain quotient, and since Halide
// #9271 (src/FastIntegerDivide.h at the mirror's HEAD) a zero denominator
// gives 0, as Halide's ordinary division and modulo do. (Before #9271
// Halide read a zero denominator as 256, and its signed quotient over 1
// was -n - 1 for a negative n, the numerator with its bits flipped: the
// contract kept here is the fixed one.) Here they are spelled with
// the division and modulo every target already has, in a type that holds
// both operands, behind a select on the zero denominator, so every target
// computes the same values by construction.

import "github.com/gohalide/gohalide/ir"

const (
	legalFastNum = "an Int8, Int16, Int32, UInt8, UInt16 or UInt32 numerator"
	legalFastDen = "a UInt8 denominator (an Expr of type UInt8, a widening Cast of one, or an integer constant in [0, 255])"
)

// FastIntegerDivide returns numerator / denominator in the numerator's
// type (Halide's fast_integer_divide): numerator is an 8, 16 or 32-bit
// integer, signed or unsigned; denominator is a uint8 (an Expr of type
// UInt8, a widening Cast of one, or an integer constant in [0, 255], as
// Halide's lossless_cast(UInt(8), denominator) accepts). The quotient
// rounds toward negative infinity for a negative numerator, as Div does,
// and a zero denominator gives 0. Other operand types are refused with a
// typed ErrType error.
func FastIntegerDivide(numerator, denominator any) Expr {
	num, den, w, bad, ok := fastOperands("FastIntegerDivide", numerator, denominator)
	if !ok {
		return bad
	}
	t := num.Type()
	dw := castTo(w, den)
	// max(den, 1) keeps every target's division away from zero; the
	// select gives Halide's 0 there.
	q := ir.DivE(castTo(w, num.node), ir.MaxE(dw, ir.IntConst(w, 1)))
	return Expr{node: &ir.Select{
		Cond:  ir.Bin(ir.EQ, den, ir.IntConst(ir.UInt8, 0)),
		True:  ir.IntConst(t, 0),
		False: castTo(t, q),
	}}
}

// FastIntegerModulo returns numerator - FastIntegerDivide(numerator,
// denominator) * denominator in the numerator's type (Halide's
// fast_integer_modulo), for the operands FastIntegerDivide takes: the
// Euclidean remainder, in [0, denominator), and 0 for a zero denominator.
// For an Int8 numerator a remainder of 128 or more wraps, as Halide's
// int8 arithmetic num - ratio * den wraps (FastIntegerModulo(int8(-1),
// uint8(200)) is 199 - 256 = -57).
func FastIntegerModulo(numerator, denominator any) Expr {
	num, den, w, bad, ok := fastOperands("FastIntegerModulo", numerator, denominator)
	if !ok {
		return bad
	}
	t := num.Type()
	r := ir.ModE(castTo(w, num.node), ir.MaxE(castTo(w, den), ir.IntConst(w, 1)))
	return Expr{node: &ir.Select{
		Cond:  ir.Bin(ir.EQ, den, ir.IntConst(ir.UInt8, 0)),
		True:  ir.IntConst(t, 0),
		False: castTo(t, r),
	}}
}

// fastOperands checks the operands of op (FastIntegerDivide or
// FastIntegerModulo): the numerator, the denominator as a uint8 Expr, and
// the type w both are divided in (the numerator's, or Int16 for an Int8
// numerator, which cannot hold a denominator above 127).
func fastOperands(op string, numerator, denominator any) (num Expr, den ir.Expr, w Type, bad Expr, ok bool) {
	num = E(numerator)
	if num.err != nil {
		return Expr{}, nil, Type{}, num, false
	}
	d := E(denominator)
	if d.err != nil {
		return Expr{}, nil, Type{}, d, false
	}
	t := num.Type()
	if !t.IsIntOrUInt() || (t.Bits != 8 && t.Bits != 16 && t.Bits != 32) {
		return Expr{}, nil, Type{}, opErr(op, legalFastNum, "the numerator of %s is a %s: %s", op, t, num), false
	}
	den = d.node
	if c, isCast := den.(*ir.Cast); isCast && c.X.Type() == ir.UInt8 && c.T.IsIntOrUInt() && c.T.Bits > 8 {
		den = c.X // lossless_cast(UInt(8), cast(wider, u8)) is the u8
	}
	if v, isConst := ir.AsInt(den); isConst && den.Type().IsIntOrUInt() && v >= 0 && v <= 255 {
		den = ir.IntConst(ir.UInt8, v)
	}
	if den.Type() != ir.UInt8 {
		return Expr{}, nil, Type{}, opErr(op, legalFastDen, "the denominator of %s is a %s, not a uint8: %s", op, d.Type(), d), false
	}
	w = t
	if t == ir.Int8 {
		w = ir.Int16
	}
	return num, den, w, Expr{}, true
}

// castTo converts e to t, leaving it alone when it has that type already.
func castTo(t Type, e ir.Expr) ir.Expr {
	if e.Type() == t {
		return e
	}
	if v, ok := ir.AsInt(e); ok {
		return ir.IntConst(t, v)
	}
	return &ir.Cast{T: t, X: e}
}
