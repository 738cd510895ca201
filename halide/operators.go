package halide

// Halide's bitwise operators and shifts, and the operators it builds from
// simpler ones: Mux, Absd, Lerp (floats) and the saturating casts. The
// latter are spelled in the IR with the nodes every target already has (a
// select chain, casts and min/max), as Halide lowers them, so that the
// simplifier, bounds inference and each target treat them as they treat
// any other expression.

import (
	"math"
	"math/big"

	"github.com/gohalide/gohalide/ir"
)

// opErr is the typed error of an operator applied to operands it does
// not take.
func opErr(op, legal, format string, args ...any) Expr {
	return Expr{err: ir.Errorf(ir.ErrType, "", op, format, args...).WithLegal("%s", legal)}
}

// bitwise builds the bitwise intrinsic name of x and y (y nil for not):
// operands matched as for arithmetic (a literal takes the other side's
// type). On bool operands and, or, xor and not are the logical operators.
func bitwise(op, name string, x, y any) Expr {
	a := E(x)
	if a.err != nil {
		return a
	}
	const legal = "integer operands (Int8 ... UInt64), or bool operands for BitAnd, BitOr, BitXor and BitNot"
	if y == nil {
		switch t := a.Type(); {
		case t.IsBool():
			return Expr{node: &ir.Not{X: a.node}}
		case !t.IsIntOrUInt():
			return opErr(op, legal, "%s of a %s operand: %s", op, t, a)
		}
		return Expr{node: ir.Bitwise(name, a.node)}
	}
	b := E(y)
	if b.err != nil {
		return b
	}
	if t := a.Type(); t.IsFloat() {
		return opErr(op, legal, "the first operand of %s is a %s: %s", op, t, a)
	}
	if t := b.Type(); t.IsFloat() {
		return opErr(op, legal, "the second operand of %s is a %s: %s", op, t, b)
	}
	an, bn, err := matchTypes(op, a.node, b.node)
	if err != nil {
		return Expr{err: err}
	}
	if an.Type().IsBool() {
		switch name {
		case ir.IntrinsicBitAnd:
			return Expr{node: ir.Bin(ir.And, an, bn)}
		case ir.IntrinsicBitOr:
			return Expr{node: ir.Bin(ir.Or, an, bn)}
		case ir.IntrinsicBitXor:
			return Expr{node: ir.Bin(ir.NE, an, bn)}
		}
		return opErr(op, "integer operands (Int8 ... UInt64)", "%s of bool operands: %s, %s", op, a, b)
	}
	return Expr{node: ir.Bitwise(name, an, bn)}
}

// BitAnd returns e & y, bit by bit, for integers (for bools, e && y).
func (e Expr) BitAnd(y any) Expr { return bitwise("BitAnd", ir.IntrinsicBitAnd, e, y) }

// BitOr returns e | y, bit by bit, for integers (for bools, e || y).
func (e Expr) BitOr(y any) Expr { return bitwise("BitOr", ir.IntrinsicBitOr, e, y) }

// BitXor returns e ^ y, bit by bit, for integers (for bools, e != y).
func (e Expr) BitXor(y any) Expr { return bitwise("BitXor", ir.IntrinsicBitXor, e, y) }

// BitNot returns ^x (C's ~x), every bit of the integer x flipped (for a
// bool, !x).
func BitNot(x any) Expr { return bitwise("BitNot", ir.IntrinsicBitNot, x, nil) }

// Shl returns e << n, of e's type (after matching the operands' types as
// for arithmetic). As in Halide, a negative n shifts right by -n. Halide
// leaves shifts by the width of the type or more undefined; here they give
// 0, so e << n is e * 2^n wrapped to the type for every n.
func (e Expr) Shl(n any) Expr { return bitwise("Shl", ir.IntrinsicShiftLeft, e, n) }

// Shr returns e >> n, of e's type (after matching the operands' types as
// for arithmetic): arithmetic (sign-extending) for signed e, so that it is
// floor(e / 2^n) for every n >= 0, including the width of the type or more
// (0, or -1 for a negative e). As in Halide, a negative n shifts left by -n.
func (e Expr) Shr(n any) Expr { return bitwise("Shr", ir.IntrinsicShiftRight, e, n) }

// Mux returns values[index]: as in Halide, the select chain
// select(index == 0, values[0], index == 1, values[1], ..., values[n-1]),
// so an index out of range (below 0 or past the end) gives the last value.
// The values take one type, as Select's arms do. Mux(index, t) of one Tuple
// picks one of its values (Halide's mux(Expr, Tuple)); MuxTuple picks one
// of several Tuples.
func Mux(index any, values ...any) Expr {
	id := E(index)
	if id.err != nil {
		return id
	}
	if !id.Type().IsIntOrUInt() {
		return opErr("Mux", "an integer index", "the index of Mux is a %s: %s", id.Type(), id)
	}
	if len(values) == 1 {
		// Mux(i, t) of a Tuple picks one of its values (Halide's
		// mux(Expr, Tuple)).
		if t, ok := values[0].(Tuple); ok {
			if err := t.Err(); err != nil {
				return Expr{err: err}
			}
			values = make([]any, t.Len())
			for i := range values {
				values[i] = t.Elem(i)
			}
		}
	}
	if len(values) == 0 {
		return opErr("Mux", "at least one value", "Mux of no values")
	}
	vs := make([]Expr, len(values))
	for i, v := range values {
		if vs[i] = E(v); vs[i].err != nil {
			return vs[i]
		}
	}
	// One type for all the values, matched as a chain of Selects matches
	// its arms: a literal takes the type of the others.
	acc := vs[0].node
	for _, v := range vs[1:] {
		x, y, err := matchTypes("Mux", acc, v.node)
		if err != nil {
			return Expr{err: err}
		}
		if acc = y; isLiteral(y) && !isLiteral(x) {
			acc = x
		}
	}
	t := acc.Type()
	like := &ir.Var{T: t, Name: "_"}
	nodes := make([]ir.Expr, len(vs))
	for i, v := range vs {
		x, _, err := matchTypes("Mux", v.node, like)
		if err != nil {
			return Expr{err: err}
		}
		nodes[i] = x
	}
	r := nodes[len(nodes)-1]
	for i := len(nodes) - 2; i >= 0; i-- {
		if int64(i) > id.Type().Max() {
			continue // no index of this type reaches values[i]
		}
		cond := ir.Bin(ir.EQ, id.node, ir.IntConst(id.Type(), int64(i)))
		r = &ir.Select{Cond: cond, True: nodes[i], False: r}
	}
	return Expr{node: r}
}

// Absd returns |a - b| without overflow: for integers, in the unsigned
// type of the same width (absd(int8(-128), int8(127)) is uint8(255)); for
// floats, abs(a - b) in their type. The operands are matched as for
// arithmetic.
func Absd(a, b any) Expr {
	x, y := E(a), E(b)
	if x.err != nil {
		return x
	}
	if y.err != nil {
		return y
	}
	an, bn, err := matchTypes("Absd", x.node, y.node)
	if err != nil {
		return Expr{err: err}
	}
	t := an.Type()
	switch {
	case t.IsFloat():
		return Abs(Expr{node: ir.SubE(an, bn)})
	case t.IsBool():
		return opErr("Absd", "integer or float operands", "Absd of bool operands: %s, %s", x, y)
	}
	// The difference of the unsigned bit patterns is the distance modulo
	// 2^bits, and the distance is below 2^bits: exact.
	u := ir.Type{Code: ir.UIntCode, Bits: t.Bits}
	ua, ub := convert(u, Expr{node: an}).node, convert(u, Expr{node: bn}).node
	return Expr{node: &ir.Select{Cond: ir.LTE(an, bn), True: ir.SubE(ub, ua), False: ir.SubE(ua, ub)}}
}

// Lerp returns the linear interpolation of zero and one by the weight w,
// as Halide's lerp defines it (zero and one are matched as for arithmetic):
//   - float values: zero*(1-w) + one*w, in their type; a float weight is
//     converted to it, an unsigned weight is the fraction w / (2^bits - 1)
//     of its type's maximum.
//   - integer values of 8, 16 or 32 bits: the weight is a fraction of
//     the unsigned type U of the values' width: an unsigned weight is
//     rescaled to U's width (a narrower one multiplied by 257, 65537 or
//     16843009, a wider one divided, rounding down), a float weight w
//     becomes U(w * max(U)) (in float64 for 32 bits; saturating, as
//     Cast does). In U (signed values offset by the type's minimum), the
//     result is zero*(max-w) + one*w divided by max, rounded to nearest,
//     computed exactly in the unsigned type of twice the width.
//
// The weight is an unsigned integer or a float; 64-bit integer values are
// refused, as in Halide.
func Lerp(zero, one, w any) Expr {
	z, o, wt := E(zero), E(one), E(w)
	for _, v := range []Expr{z, o, wt} {
		if v.err != nil {
			return v
		}
	}
	zn, on, err := matchTypes("Lerp", z.node, o.node)
	if err != nil {
		return Expr{err: err}
	}
	t, wty := zn.Type(), wt.Type()
	if !wty.IsFloat() && !wty.IsUInt() {
		return opErr("Lerp", "an unsigned integer or float weight", "the weight of Lerp is a %s: %s", wty, wt)
	}
	if c, ok := wt.node.(*ir.FloatImm); ok && !t.IsFloat() && !(c.V >= 0 && c.V <= 1) {
		// Halide's check: an integer lerp scales the weight to the
		// values' range, where a weight past [0, 1] wraps.
		return opErr("Lerp", "a weight in [0, 1]", "the weight of Lerp of %s values is %v, outside [0, 1]", t, c.V)
	}
	switch {
	case t.IsFloat():
		wn := wt.node
		if wty.IsUInt() {
			// The weight's fraction of its type's maximum.
			wn = ir.DivE(&ir.Cast{T: t, X: wn}, ir.Const(t, math.Ldexp(1, int(wty.Bits))-1))
		} else if wty != t {
			wn = &ir.Cast{T: t, X: wn}
		}
		return Expr{node: ir.AddE(ir.MulE(zn, ir.SubE(ir.Const(t, 1), wn)), ir.MulE(on, wn))}
	case !t.IsIntOrUInt() || t.Bits == 64:
		return opErr("Lerp", "float values, or integer values of 8, 16 or 32 bits", "Lerp of %s values: %s, %s", t, z, o)
	}
	u := ir.Type{Code: ir.UIntCode, Bits: t.Bits}
	wide := ir.Type{Code: ir.UIntCode, Bits: 2 * t.Bits}
	maxU := float64(u.Max())
	var wu ir.Expr // the weight as a fraction of maxU, in u
	switch {
	case wty.IsFloat() && u.Bits == 32:
		wu = &ir.Cast{T: u, X: ir.MulE(ir.Const(ir.Float64, maxU), &ir.Cast{T: ir.Float64, X: wt.node})}
		if wty == ir.Float64 {
			wu = &ir.Cast{T: u, X: ir.MulE(ir.Const(ir.Float64, maxU), wt.node)}
		}
	case wty.IsFloat():
		wu = &ir.Cast{T: u, X: ir.MulE(ir.Const(wty, maxU), wt.node)}
	case wty.Bits == u.Bits:
		wu = wt.node
	case wty.Bits < u.Bits:
		wu = ir.MulE(&ir.Cast{T: u, X: wt.node}, ir.IntConst(u, int64(rescale(wty.Bits, u.Bits))))
	default:
		wu = &ir.Cast{T: u, X: ir.DivE(wt.node, ir.IntConst(wty, int64(rescale(u.Bits, wty.Bits))))}
	}
	// Signed values move to unsigned ones by adding -min (mod 2^bits).
	bias := ir.IntConst(u, t.Min())
	zu, ou := ir.Expr(&ir.Cast{T: u, X: zn}), ir.Expr(&ir.Cast{T: u, X: on})
	if t.IsInt() {
		zu, ou = ir.SubE(zu, bias), ir.SubE(ou, bias)
	}
	inv := ir.SubE(ir.IntConst(u, u.Max()), wu)
	widen := func(e ir.Expr) ir.Expr { return &ir.Cast{T: wide, X: e} }
	sum := ir.AddE(ir.MulE(widen(zu), widen(inv)), ir.MulE(widen(ou), widen(wu)))
	// Round to nearest: max is odd, so no quotient is a half.
	q := ir.DivE(ir.AddE(sum, ir.IntConst(wide, u.Max()/2)), ir.IntConst(wide, u.Max()))
	r := ir.Expr(&ir.Cast{T: u, X: q})
	if t.IsInt() {
		r = &ir.Cast{T: t, X: ir.AddE(r, bias)}
	}
	return Expr{node: r}
}

// rescale is the factor (2^wide - 1) / (2^narrow - 1) between the
// maxima of two unsigned widths (257 for 8 and 16 bits; Halide's series
// (2^narrow + 1)(2^(2 narrow) + 1)...).
func rescale(narrow, wide uint8) uint64 {
	return (uint64(1)<<wide - 1) / (uint64(1)<<narrow - 1)
}

// SaturatingCast converts x to the type t, clamping it to t's range first
// (Halide's saturating_cast): an integer out of range becomes t's nearest
// end, a float converts as Cast does (truncated, saturating, NaN to 0),
// and a float narrowed to a float type of less range (Float64 to Float32,
// anything to Float16, Float32 to BFloat16), or an integer of more than
// 16 bits converted to Float16, is clamped to t's finite range first (NaN
// stays NaN). t is an integer or float type.
func SaturatingCast(t Type, x any) Expr {
	e, ok := conversionArg(t, "SaturatingCast", x)
	if !ok {
		return e
	}
	from := e.Type()
	switch {
	case t.IsBool():
		return opErr("SaturatingCast", "an integer or float target type", "SaturatingCast to bool")
	case from.IsBool():
		return opErr("SaturatingCast", "an integer or float operand", "SaturatingCast of a bool: %s", e)
	case from == t:
		return e
	case t.IsFloat():
		// Clamp to t's finite range where from has values beyond it (a
		// float of more range, or an integer type wider than Float16's
		// 65504; NaN stays NaN).
		m := t.MaxFloat()
		switch {
		case from.IsFloat() && from.MaxFloat() > m:
			if ir.RoundFloat(from, m) != m {
				// BFloat16 to Float16: 65504 is no bfloat16, so
				// clamp in float32 (exact for both).
				e, from = convert(Float32, e), Float32
			}
			e = Expr{node: ir.MinE(ir.MaxE(e.node, ir.Const(from, -m)), ir.Const(from, m))}
		case from.IsIntOrUInt() && float64(from.Max()) > m:
			hi := ir.IntConst(from, int64(m))
			if from.IsUInt() {
				e = Expr{node: ir.MinE(e.node, hi)}
			} else {
				e = Expr{node: ir.MinE(ir.MaxE(e.node, ir.IntConst(from, -int64(m))), hi)}
			}
		}
		return convert(t, e)
	case from.IsFloat():
		return convert(t, e) // ir.FloatToInt saturates, NaN to 0
	}
	src, dst := typeRange(from), typeRange(t)
	if src[0].Cmp(dst[0]) < 0 { // t's minimum is above from's: raise x to it
		e = Expr{node: ir.MaxE(e.node, bigConst(from, dst[0]))}
	}
	if src[1].Cmp(dst[1]) > 0 { // t's maximum is below from's: lower x to it
		e = Expr{node: ir.MinE(e.node, bigConst(from, dst[1]))}
	}
	return convert(t, e)
}

// typeRange is the smallest and largest value of the integer type t.
func typeRange(t Type) [2]*big.Int {
	if t == UInt64 {
		return [2]*big.Int{big.NewInt(0), new(big.Int).SetUint64(math.MaxUint64)}
	}
	return [2]*big.Int{big.NewInt(t.Min()), big.NewInt(t.Max())}
}

// bigConst is the constant v, in the range of the integer type t, of t.
func bigConst(t Type, v *big.Int) ir.Expr {
	if v.IsUint64() {
		return &ir.IntImm{T: t, V: t.Wrap(int64(v.Uint64()))}
	}
	return &ir.IntImm{T: t, V: v.Int64()}
}

// The saturating casts to each integer type, Halide's u8_sat ... i64_sat.
func U8Sat(x any) Expr  { return SaturatingCast(UInt8, x) }
func U16Sat(x any) Expr { return SaturatingCast(UInt16, x) }
func U32Sat(x any) Expr { return SaturatingCast(UInt32, x) }
func U64Sat(x any) Expr { return SaturatingCast(UInt64, x) }
func I8Sat(x any) Expr  { return SaturatingCast(Int8, x) }
func I16Sat(x any) Expr { return SaturatingCast(Int16, x) }
func I32Sat(x any) Expr { return SaturatingCast(Int32, x) }
func I64Sat(x any) Expr { return SaturatingCast(Int64, x) }
