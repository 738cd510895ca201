package halide

import (
	"fmt"
	"math"
	"reflect"
	"strconv"

	"github.com/gohalide/gohalide/half"
	"github.com/gohalide/gohalide/ir"
)

// Type is a scalar type.
type Type = ir.Type

// The scalar types.
var (
	Int8    = ir.Int8
	Int16   = ir.Int16
	Int32   = ir.Int32
	Int64   = ir.Int64
	UInt8   = ir.UInt8
	UInt16  = ir.UInt16
	UInt32  = ir.UInt32
	UInt64  = ir.UInt64
	Float32 = ir.Float32
	Float64 = ir.Float64
	Bool    = ir.Bool
	// Float16 is IEEE binary16 and BFloat16 is bfloat16 (a float32 cut to
	// its top 16 bits). Both are stored in 16 bits (a Buffer of either
	// holds F16 or BF16 values) and computed in float32: an operation
	// converts its operands to float32, computes, and rounds the result
	// back to the 16-bit type, to nearest even, as Halide does on targets
	// without 16-bit float arithmetic. A conversion to either from float64
	// or an integer goes through float32. The CPU, the emulator and CUDA
	// compute the same bits.
	Float16  = ir.Float16
	BFloat16 = ir.BFloat16
)

// F16 is a Float16 value as Go holds it: its IEEE binary16 bits (a
// Buffer[F16] is a Float16 buffer, a Param[F16] a Float16 Param).
// F16FromFloat32 makes one, ToFloat32 reads it; see package half.
type F16 = half.Float16

// BF16 is a BFloat16 value as Go holds it: its bits (a Buffer[BF16] is a
// BFloat16 buffer). BF16FromFloat32 makes one, ToFloat32 reads it.
type BF16 = half.BFloat16

// F16FromFloat32 rounds f to the nearest Float16, ties to even.
func F16FromFloat32(f float32) F16 { return half.Float16FromFloat32(f) }

// BF16FromFloat32 rounds f to the nearest BFloat16, ties to even.
func BF16FromFloat32(f float32) BF16 { return half.BFloat16FromFloat32(f) }

// Expr is a scalar expression of the algorithm. Build Exprs with the methods
// below and the functions Min, Max, Select, ...; wherever an Expr is
// expected, a Var, RVar, Param, Go integer (int32) or Go float (float32) is
// accepted too. An Expr built from a bad operand carries its error, which
// surfaces when the Expr is used in a definition.
type Expr struct {
	node ir.Expr
	err  error
}

// Node returns the IR of e (nil if e carries an error).
func (e Expr) Node() ir.Expr { return e.node }

// Err returns the error e carries, if any (for the zero Expr, which is no
// expression, an ErrType error).
func (e Expr) Err() error {
	if e.node == nil && e.err == nil {
		return errEmptyExpr()
	}
	return e.err
}

// Type returns the type of e.
func (e Expr) Type() Type {
	if e.node == nil {
		return Type{}
	}
	return e.node.Type()
}

func (e Expr) String() string {
	if err := e.Err(); err != nil {
		return "<error: " + err.Error() + ">"
	}
	return ir.ExprString(e.node)
}

func (e Expr) toExpr() Expr { return e }

// exprLike is implemented by everything usable as an Expr.
type exprLike interface{ toExpr() Expr }

func errEmptyExpr() error {
	return ir.Errorf(ir.ErrType, "", "Expr", "an empty Expr (the zero value) is not an expression")
}

func bad(format string, args ...any) Expr {
	return Expr{err: ir.Errorf(ir.ErrType, "", "Expr", format, args...)}
}

// E converts a Var, RVar, Param, Go number or Expr to an Expr. A Go int
// is an int32 constant and a uint a uint32 one; the other Go integers keep
// their type. A constant that does not fit its type is an ErrType error,
// never wrapped, and so is one that does not fit the type of the other
// operand it adapts to (x.Add(uint64(math.MaxUint64)) for an int32 x).
func E(v any) Expr {
	switch v := v.(type) {
	case exprLike:
		e := v.toExpr()
		if e.node == nil && e.err == nil {
			return Expr{err: errEmptyExpr()}
		}
		return e
	case int:
		return constInt(ir.Int32, int64(v))
	case int8, int16, int32, int64:
		return constInt(goType(v), reflect.ValueOf(v).Int())
	case uint8, uint16, uint32, uint64:
		return constInt(goType(v), int64(reflect.ValueOf(v).Uint()))
	case uint:
		if uint64(v) > math.MaxUint32 {
			return Expr{err: ir.Errorf(ir.ErrType, "", "Expr", "the Go uint constant %d does not fit in uint32, the type of a Go uint in an expression", v).
				WithLegal("a uint in [0, 4294967295]; for a wider constant use uint64(v)")}
		}
		return constInt(ir.UInt32, int64(v))
	case float32:
		return Expr{node: ir.Const(ir.Float32, float64(v))}
	case float64:
		// As in Halide, a Go float literal is a float32 constant.
		return Expr{node: ir.Const(ir.Float32, v)}
	case bool:
		if v {
			return Expr{node: ir.True}
		}
		return Expr{node: ir.False}
	case half.Float16:
		return Expr{node: ir.Const(ir.Float16, v.ToFloat64())}
	case half.BFloat16:
		return Expr{node: ir.Const(ir.BFloat16, v.ToFloat64())}
	case nil:
		return bad("nil is not an expression")
	case Tuple:
		if v.err == nil && len(v.elems) == 1 {
			return v.elems[0]
		}
		if err := v.Err(); err != nil {
			return Expr{err: err}
		}
		return Expr{err: ir.Errorf(ir.ErrTuple, "", "Expr", "a Tuple of %d values is not one expression", v.Len()).
			WithLegal("one of its values, t.Elem(i)")}
	}
	return bad("a %T is not an expression", v)
}

func constInt(t Type, v int64) Expr {
	if t.IsIntOrUInt() && t.Bits < 64 && (v < t.Min() || v > t.Max()) {
		legal := fmt.Sprintf("a value in [%d, %d]", t.Min(), t.Max())
		if t == ir.Int32 {
			legal += "; for a wider constant use int64(v)"
		}
		return Expr{err: ir.Errorf(ir.ErrType, "", "Expr", "constant %d does not fit in %s", v, t).WithLegal("%s", legal)}
	}
	return Expr{node: &ir.IntImm{T: t, V: t.Wrap(v)}}
}

// checkType returns an ErrBadType error if t is not one of the scalar
// types (a Type is a plain struct, so any Code and Bits can be written).
func checkType(t Type, fn, directive string) error {
	switch t {
	case ir.Int8, ir.Int16, ir.Int32, ir.Int64, ir.UInt8, ir.UInt16, ir.UInt32, ir.UInt64, ir.Float16, ir.BFloat16, ir.Float32, ir.Float64, ir.Bool:
		return nil
	}
	return ir.Errorf(ir.ErrBadType, fn, directive, "%s is not a scalar type", t).
		WithLegal("Int8, Int16, Int32, Int64, UInt8, UInt16, UInt32, UInt64, Float16, BFloat16, Float32, Float64 or Bool")
}

// Lit returns the constant v of type t. For an integer type, v must be a
// value of t: Lit does not wrap.
func Lit(t Type, v float64) Expr {
	if err := checkType(t, "", "Lit"); err != nil {
		return Expr{err: err}
	}
	if t.IsIntOrUInt() {
		// 2^63 and 2^64 are exact in float64; t.Max() of uint64 is not.
		hi := math.Ldexp(1, int(t.Bits))
		if t.IsInt() {
			hi = math.Ldexp(1, int(t.Bits)-1)
		}
		if !(v >= float64(t.Min()) && v < hi) {
			return Expr{err: ir.Errorf(ir.ErrType, "", "Lit", "the constant %v does not fit in %s", v, t).
				WithLegal("a value in [%d, %s]", t.Min(), typeMaxString(t))}
		}
		if t.IsUInt() && v >= math.Ldexp(1, 63) {
			return Expr{node: &ir.IntImm{T: t, V: int64(uint64(v))}}
		}
	}
	return Expr{node: ir.Const(t, v)}
}

// typeMaxString is the largest value of the integer type t, in decimal
// (t.Max() stops at the largest int64).
func typeMaxString(t Type) string {
	if t.IsUInt() && t.Bits == 64 {
		return strconv.FormatUint(math.MaxUint64, 10)
	}
	return strconv.FormatInt(t.Max(), 10)
}

// constString is the value of the integer constant c in decimal: a uint64
// constant above the largest int64 is stored wrapped to a negative V.
func constString(c *ir.IntImm) string {
	if c.T.IsUInt() && c.T.Bits == 64 {
		return strconv.FormatUint(uint64(c.V), 10)
	}
	return strconv.FormatInt(c.V, 10)
}

// constFits reports whether the value of the integer constant c is a value
// of the type t (every value fits a float type, rounded).
func constFits(c *ir.IntImm, t Type) bool {
	switch {
	case t.IsFloat():
		return true
	case !t.IsIntOrUInt():
		return c.V == 0 || c.V == 1
	case c.T.IsUInt() && c.T.Bits == 64 && c.V < 0:
		// Above the largest int64: only a uint64 holds it.
		return t.IsUInt() && t.Bits == 64
	case t.IsUInt() && t.Bits == 64:
		return c.V >= 0
	}
	return c.V >= t.Min() && c.V <= t.Max()
}

// convertConst converts the integer constant c to the type t, which must
// hold its value (see constFits).
func convertConst(c *ir.IntImm, t Type) ir.Expr {
	if t.IsFloat() && c.T.IsUInt() && c.T.Bits == 64 {
		return ir.Const(t, float64(uint64(c.V)))
	}
	return ir.IntConst(t, c.V)
}

// toInt32 converts e, used where Halide wants an int32 (a coordinate, an
// RDom or SetBounds bound), to int32 without losing its value: a constant
// must fit; int8, int16, uint8 and uint16 widen. A wider integer expression
// (int64, uint32, uint64) is refused if strict (as Halide refuses an
// implicit cast in a call argument); otherwise it is cast and its value is
// checked at Realize (see checkInt32Bounds). what names e in messages.
func toInt32(fn, directive, what string, e Expr, strict bool) (Expr, error) {
	t := e.Type()
	if t == ir.Int32 {
		return e, nil
	}
	if !t.IsIntOrUInt() {
		return Expr{}, ir.Errorf(ir.ErrType, fn, directive, "%s is %s; it must be an integer", what, t)
	}
	if c, ok := e.node.(*ir.IntImm); ok {
		if !constFits(c, ir.Int32) {
			return Expr{}, ir.Errorf(ir.ErrType, fn, directive, "%s is the constant %s, which does not fit in int32", what, constString(c)).
				WithLegal("a value in [%d, %d]", math.MinInt32, math.MaxInt32)
		}
		return Expr{node: ir.Int(c.V)}, nil
	}
	if t.Bits < 32 || !strict {
		return Expr{node: &ir.Cast{T: ir.Int32, X: e.node}}, nil
	}
	return Expr{}, ir.Errorf(ir.ErrType, fn, directive, "%s is %s, of type %s; an implicit conversion to int32 could lose its value", what, e, t).
		WithLegal("an int32 expression, or an explicit Cast(Int32, ...) where the value is known to fit")
}

// isLiteral reports whether e is a constant written directly (which adapts
// to the other operand's type, as literals do in Halide).
func isLiteral(e ir.Expr) bool { return ir.IsConst(e) }

// matchTypes applies Halide's rules for the operands of a binary operator:
// a literal takes the other side's type; a float beats an int; the wider
// of two floats or two ints of one signedness wins; a signed and an
// unsigned int both become the signed type of the wider width.
func matchTypes(op string, a, b ir.Expr) (ir.Expr, ir.Expr, error) {
	ta, tb := a.Type(), b.Type()
	if ta == tb {
		return a, b, nil
	}
	if ta.IsBool() || tb.IsBool() {
		return nil, nil, ir.Errorf(ir.ErrType, "", op, "operands of %s have types %s and %s; a bool combines only with a bool", op, ta, tb)
	}
	if ta.IsHalf() && tb.IsHalf() && !isLiteral(a) && !isLiteral(b) {
		// Neither holds the other's values: Halide would convert one
		// silently; we ask.
		return nil, nil, ir.Errorf(ir.ErrType, "", op, "operands of %s have types %s and %s, neither of which holds the other's values", op, ta, tb).
			WithLegal("an explicit Cast of one side (to float16, bfloat16 or float32)")
	}
	var err error
	cast := func(e ir.Expr, t Type) ir.Expr {
		if c, ok := e.(*ir.IntImm); ok {
			if !constFits(c, t) && err == nil {
				err = ir.Errorf(ir.ErrType, "", op, "the constant %s does not fit in %s, the type of the other operand of %s", constString(c), t, op).
					WithLegal("a constant in [%d, %s], or an explicit Cast of one side", t.Min(), typeMaxString(t))
			}
			return convertConst(c, t)
		}
		if c, ok := e.(*ir.FloatImm); ok {
			if t.IsFloat() {
				return ir.Const(t, c.V)
			}
			return ir.IntConst(t, int64(c.V))
		}
		return &ir.Cast{T: t, X: e}
	}
	var x, y ir.Expr
	switch {
	case isLiteral(b) && !isLiteral(a) && !(tb.IsFloat() && !ta.IsFloat()):
		x, y = a, cast(b, ta)
	case isLiteral(a) && !isLiteral(b) && !(ta.IsFloat() && !tb.IsFloat()):
		x, y = cast(a, tb), b
	case ta.IsFloat() && !tb.IsFloat():
		x, y = a, cast(b, ta)
	case tb.IsFloat() && !ta.IsFloat():
		x, y = cast(a, tb), b
	case ta.IsInt() != tb.IsInt():
		// int(a) op uint(b) is Int(max(a, b)) on both sides, as in
		// Halide's match_types (uint16 + int8 is int16).
		t := ir.Type{Code: ir.IntCode, Bits: max(ta.Bits, tb.Bits)}
		x, y = a, b
		if ta != t {
			x = cast(a, t)
		}
		if tb != t {
			y = cast(b, t)
		}
	case ta.Bits > tb.Bits:
		x, y = a, cast(b, ta)
	case tb.Bits > ta.Bits:
		x, y = cast(a, tb), b
	case ta.IsInt():
		x, y = a, cast(b, ta)
	default:
		x, y = cast(a, tb), b
	}
	if err != nil {
		return nil, nil, err
	}
	return x, y, nil
}

func binary(op ir.BinOp, x, y any) Expr {
	a, b := E(x), E(y)
	if a.err != nil {
		return a
	}
	if b.err != nil {
		return b
	}
	an, bn, err := matchTypes(op.String(), a.node, b.node)
	if err != nil {
		return Expr{err: err}
	}
	switch op {
	case ir.And, ir.Or:
		if !an.Type().IsBool() {
			return bad("operands of %s must be bool, not %s", op, an.Type())
		}
	case ir.Add, ir.Sub, ir.Mul, ir.Div, ir.Mod, ir.Min, ir.Max, ir.LT, ir.LE, ir.GT, ir.GE:
		if an.Type().IsBool() {
			return bad("operator %s does not apply to bool operands", op)
		}
	}
	return Expr{node: ir.Bin(op, an, bn)}
}

// Add returns e + y.
func (e Expr) Add(y any) Expr { return binary(ir.Add, e, y) }

// Sub returns e - y.
func (e Expr) Sub(y any) Expr { return binary(ir.Sub, e, y) }

// Mul returns e * y.
func (e Expr) Mul(y any) Expr { return binary(ir.Mul, e, y) }

// Div returns e / y. Integer division is Euclidean, as in Halide: it rounds
// down for a positive divisor and up for a negative one, so that the
// remainder is never negative (-7 / 2 is -4, 7 / -2 is -3); x / 0 is 0.
func (e Expr) Div(y any) Expr { return binary(ir.Div, e, y) }

// Mod returns e % y. For integers it is Euclidean, as in Halide: in
// [0, |y|) whatever the signs (-7 % 2 is 1, 7 % -3 is 1); x % 0 is 0. For
// floats it is e - y*floor(e/y).
func (e Expr) Mod(y any) Expr { return binary(ir.Mod, e, y) }

// Neg returns -e.
func (e Expr) Neg() Expr {
	if e.err != nil {
		return e
	}
	return binary(ir.Sub, Expr{node: ir.IntConst(e.Type(), 0)}, e)
}

// Lt returns e < y.
func (e Expr) Lt(y any) Expr { return binary(ir.LT, e, y) }

// Le returns e <= y.
func (e Expr) Le(y any) Expr { return binary(ir.LE, e, y) }

// Gt returns e > y.
func (e Expr) Gt(y any) Expr { return binary(ir.GT, e, y) }

// Ge returns e >= y.
func (e Expr) Ge(y any) Expr { return binary(ir.GE, e, y) }

// Eq returns e == y.
func (e Expr) Eq(y any) Expr { return binary(ir.EQ, e, y) }

// Ne returns e != y.
func (e Expr) Ne(y any) Expr { return binary(ir.NE, e, y) }

// And returns e && y.
func (e Expr) And(y any) Expr { return binary(ir.And, e, y) }

// Or returns e || y.
func (e Expr) Or(y any) Expr { return binary(ir.Or, e, y) }

// Not returns !x.
func Not(x any) Expr {
	e := E(x)
	if e.err != nil {
		return e
	}
	if !e.Type().IsBool() {
		return bad("Not needs a bool, not %s", e.Type())
	}
	return Expr{node: &ir.Not{X: e.node}}
}

// Min returns the smaller of a and b.
func Min(a, b any) Expr { return binary(ir.Min, a, b) }

// Max returns the larger of a and b.
func Max(a, b any) Expr { return binary(ir.Max, a, b) }

// Clamp returns min(max(x, lo), hi).
func Clamp(x, lo, hi any) Expr { return Min(Max(x, lo), hi) }

// Undef returns Halide's undef of type t: no value. A pure definition
// f.Define(x, y).Is(Undef(t)) computes nothing, leaving f's values for its
// updates to write (reading a point no update wrote is an error of the
// algorithm, as in Halide); a definition, pure or update, whose value is
// Undef, or has Undef in an arm of its top-level Selects, stores nothing
// at the points where that arm is taken: f.Define(x).Is(Select(c, v,
// Undef(t))) is f(x) = v where c holds (an output keeps what its buffer
// holds elsewhere, Halide's in-place update). Anywhere else Define
// refuses it.
func Undef(t Type) Expr {
	if err := checkType(t, "", "Undef"); err != nil {
		return Expr{err: err}
	}
	return Expr{node: &ir.Call{T: t, Kind: ir.CallIntrinsic, Name: ir.IntrinsicUndef}}
}

// Select returns t where cond holds and f elsewhere.
func Select(cond, t, f any) Expr {
	c, a, b := E(cond), E(t), E(f)
	for _, e := range []Expr{c, a, b} {
		if e.err != nil {
			return e
		}
	}
	if !c.Type().IsBool() {
		return bad("the condition of Select must be bool, not %s", c.Type())
	}
	// An undef arm takes the other arm's type.
	if ir.IsUndef(a.node) && !ir.IsUndef(b.node) {
		a.node = &ir.Call{T: b.Type(), Kind: ir.CallIntrinsic, Name: ir.IntrinsicUndef}
	} else if ir.IsUndef(b.node) && !ir.IsUndef(a.node) {
		b.node = &ir.Call{T: a.Type(), Kind: ir.CallIntrinsic, Name: ir.IntrinsicUndef}
	}
	an, bn, err := matchTypes("select", a.node, b.node)
	if err != nil {
		return Expr{err: err}
	}
	return Expr{node: &ir.Select{Cond: c.node, True: an, False: bn}}
}

// conversionArg checks the target type t of the conversion what (Cast,
// SaturatingCast, Reinterpret) and makes x an Expr. It is false, with the
// Expr of the error to return, when either is bad.
func conversionArg(t Type, what string, x any) (Expr, bool) {
	if err := checkType(t, "", what); err != nil {
		return Expr{err: err}, false
	}
	e := E(x)
	return e, e.err == nil
}

// Cast converts x to type t. Integers wrap to a narrower integer type; a
// float converts to an integer type by truncating toward zero and
// saturating at the ends of the type (NaN gives 0), the same on every
// target, so that the range of int32(clamp(v, 0, 1) * s) is [int32(min(0,
// s)), int32(max(0, s))] whatever s is.
//
// A cast constant has the type t: unlike a Go number or E(v), it does not
// take the other operand's type (Halide's rule 5 is for C++ ints only).
func Cast(t Type, x any) Expr {
	e := convert(t, x)
	if e.err == nil && e.Type() == t && isLiteral(e.node) {
		// An explicit type: u8.Mul(Cast(Int32, 2)) is an int32, as in
		// Halide. The identity cast is folded when lowering.
		return Expr{node: &ir.Cast{T: t, X: e.node}}
	}
	return e
}

// convert is Cast for the package's own conversions: a constant stays a
// literal that adapts to the other operand's type.
func convert(t Type, x any) Expr {
	e, ok := conversionArg(t, "Cast", x)
	if !ok {
		return e
	}
	if e.Type() == t {
		return e
	}
	return Expr{node: &ir.Cast{T: t, X: e.node}}
}

func floatCall(name string, x any) Expr {
	e := E(x)
	if e.err != nil {
		return e
	}
	if !e.Type().IsFloat() {
		e = convert(Float32, e)
	}
	return Expr{node: &ir.Call{T: e.Type(), Kind: ir.CallIntrinsic, Name: name, Args: []ir.Expr{e.node}}}
}

// Abs returns |x|: of x's type for floats and unsigned integers, and, as
// in Halide, of the unsigned type of the same width for signed integers,
// which holds |x| for every x (Abs(int8(-128)) is uint8(128)).
func Abs(x any) Expr {
	e := E(x)
	if e.err != nil {
		return e
	}
	if e.Type().IsBool() {
		return bad("Abs of a bool")
	}
	t := e.Type()
	if t.IsInt() {
		t = ir.Type{Code: ir.UIntCode, Bits: t.Bits}
	}
	return Expr{node: &ir.Call{T: t, Kind: ir.CallIntrinsic, Name: ir.IntrinsicAbs, Args: []ir.Expr{e.node}}}
}

// Sqrt returns the square root of x (integers are converted to float32).
func Sqrt(x any) Expr { return floatCall(ir.IntrinsicSqrt, x) }

// Exp returns e**x.
func Exp(x any) Expr { return floatCall(ir.IntrinsicExp, x) }

// Log returns the natural logarithm of x.
func Log(x any) Expr { return floatCall(ir.IntrinsicLog, x) }

// Floor rounds x down.
func Floor(x any) Expr { return floatCall(ir.IntrinsicFloor, x) }

// Ceil rounds x up.
func Ceil(x any) Expr { return floatCall(ir.IntrinsicCeil, x) }

// Round rounds x to the nearest integer, halves to even.
func Round(x any) Expr { return floatCall(ir.IntrinsicRound, x) }

// Pow returns x**y, by Halide's rules (IROperator.cpp's pow). Where x is an
// integer and y a constant integer, the result is x multiplied by itself in
// x's own type, wrapping as its multiplication does: Pow(x, 2) is x*x,
// Pow(x, 0) is 1, and a negative y gives 1/x^-y by integer division (so 0
// for |x| > 1, and 0 where x^-y is 0, as any division by zero). Otherwise
// an integer x is converted to float32 first, and y to x's (float) type.
//
// A float x keeps the float pow even for a constant integer y (Halide
// multiplies there too; the two differ in the last bits only).
func Pow(x, y any) Expr {
	a, b := E(x), E(y)
	if a.err != nil {
		return a
	}
	if b.err != nil {
		return b
	}
	if t := a.Type(); t.IsIntOrUInt() {
		if c, ok := b.node.(*ir.IntImm); ok && (c.T.IsInt() || c.V >= 0) {
			return raiseToIntegerPower(a, c.V)
		}
	}
	return floatCall2(ir.IntrinsicPow, a, b)
}

// raiseToIntegerPower is x^p in x's type by repeated squaring (Halide's
// raise_to_integer_power). The halves are shared nodes, so the tree is
// O(p) but the graph O(log p); bindShared turns a large one into Lets.
func raiseToIntegerPower(x Expr, p int64) Expr {
	switch {
	case p == 0:
		return Expr{node: ir.IntConst(x.Type(), 1)}
	case p == 1:
		return x
	case p < 0:
		one := Expr{node: ir.IntConst(x.Type(), 1)}
		if p == math.MinInt64 {
			// -p overflows; x^(2^63) is x^(2^62) squared.
			h := raiseToIntegerPower(x, 1<<62)
			return one.Div(h.Mul(h))
		}
		return one.Div(raiseToIntegerPower(x, -p))
	case p&1 == 1:
		h := raiseToIntegerPower(x, p>>1)
		return h.Mul(h).Mul(x)
	default:
		h := raiseToIntegerPower(x, p>>1)
		return h.Mul(h)
	}
}

// floatCall2 is the float intrinsic name of x and y: x is a float (an
// integer is converted to float32) and y is converted to x's type.
func floatCall2(name string, x, y any) Expr {
	a := floatCall(name, x)
	if a.err != nil {
		return a
	}
	b := E(y)
	if b.err != nil {
		return b
	}
	if b.Type() != a.Type() {
		b = convert(a.Type(), b)
	}
	c := a.node.(*ir.Call)
	return Expr{node: &ir.Call{T: c.T, Kind: ir.CallIntrinsic, Name: name, Args: []ir.Expr{c.Args[0], b.node}}}
}

func promise(name string, x, lo, hi any) Expr {
	e, l, h := E(x), E(lo), E(hi)
	for _, v := range []Expr{e, l, h} {
		if v.err != nil {
			return v
		}
	}
	if !e.Type().IsIntOrUInt() {
		return bad("%s needs an integer expression, not %s", name, e.Type())
	}
	// A constant bound takes x's type, as a literal operand does, and must
	// fit it (Clamped(Cast(UInt8, x), 0, 300) would clamp to 44).
	var err error
	if l.node, _, err = matchTypes(name, l.node, e.node); err != nil {
		return Expr{err: err}
	}
	if h.node, _, err = matchTypes(name, h.node, e.node); err != nil {
		return Expr{err: err}
	}
	l, h = convert(e.Type(), l), convert(e.Type(), h)
	return Expr{node: &ir.Call{T: e.Type(), Kind: ir.CallIntrinsic, Name: name, Args: []ir.Expr{e.node, l.node, h.node}}}
}

// Clamped returns x clamped to [lo, hi], and tells bounds inference that the
// result lies there. Use it on data-dependent indices that may be out of range.
func Clamped(x, lo, hi any) Expr { return promise(ir.IntrinsicPromiseClamped, x, lo, hi) }

// UnsafePromiseClamped returns x unchanged and tells bounds inference to
// trust that it lies in [lo, hi]. If it does not, accesses go out of bounds
// (the CPU executor and the emulator report them).
func UnsafePromiseClamped(x, lo, hi any) Expr {
	return promise(ir.IntrinsicUnsafePromiseClamped, x, lo, hi)
}

// Inf returns +infinity of the float type t.
func Inf(t Type) Expr {
	if err := checkType(t, "", "Inf"); err != nil {
		return Expr{err: err}
	}
	if !t.IsFloat() {
		return Expr{err: ir.Errorf(ir.ErrType, "", "Inf", "%s has no infinity", t).WithLegal("Float16, BFloat16, Float32 or Float64")}
	}
	return Expr{node: ir.Const(t, math.Inf(1))}
}

// typeOf returns the Type of a Go element type.
func typeOf[T Number]() Type {
	var z T
	if t := goType(z); t != (Type{}) {
		return t
	}
	panic(fmt.Sprintf("halide: unsupported element type %T", z))
}

// goType is the Type of v's Go type, one of Number's (a Go integer
// constant of E keeps its type), or the zero Type.
func goType(v any) Type {
	switch v.(type) {
	case int8:
		return Int8
	case int16:
		return Int16
	case int32:
		return Int32
	case int64:
		return Int64
	case uint8:
		return UInt8
	case uint16:
		return UInt16
	case uint32:
		return UInt32
	case uint64:
		return UInt64
	case float32:
		return Float32
	case float64:
		return Float64
	case bool:
		return Bool
	case half.Float16:
		return Float16
	case half.BFloat16:
		return BFloat16
	}
	return Type{}
}

// Number is the set of element types of Buffers and Params: F16 and BF16
// are the Go forms of Float16 and BFloat16.
type Number interface {
	int8 | int16 | int32 | int64 | uint8 | uint16 | uint32 | uint64 | float32 | float64 | bool | F16 | BF16
}
