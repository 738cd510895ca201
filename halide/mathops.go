package halide

import "github.com/gohalide/gohalide/ir"

// Trigonometric and hyperbolic functions, float classification, bit counts
// and reinterpretation (see ir/mathops.go for their one definition). The
// float functions take a float (an integer is converted to float32) and
// are computed in double precision, the result rounded to x's type, on
// every target.

// Sin returns the sine of x (radians).
func Sin(x any) Expr { return floatCall(ir.IntrinsicSin, x) }

// Cos returns the cosine of x (radians).
func Cos(x any) Expr { return floatCall(ir.IntrinsicCos, x) }

// Tan returns the tangent of x (radians).
func Tan(x any) Expr { return floatCall(ir.IntrinsicTan, x) }

// Asin returns the arcsine of x.
func Asin(x any) Expr { return floatCall(ir.IntrinsicAsin, x) }

// Acos returns the arccosine of x.
func Acos(x any) Expr { return floatCall(ir.IntrinsicAcos, x) }

// Atan returns the arctangent of x.
func Atan(x any) Expr { return floatCall(ir.IntrinsicAtan, x) }

// Sinh returns the hyperbolic sine of x.
func Sinh(x any) Expr { return floatCall(ir.IntrinsicSinh, x) }

// Cosh returns the hyperbolic cosine of x.
func Cosh(x any) Expr { return floatCall(ir.IntrinsicCosh, x) }

// Tanh returns the hyperbolic tangent of x.
func Tanh(x any) Expr { return floatCall(ir.IntrinsicTanh, x) }

// Atan2 returns the arctangent of y/x, using the signs of both to pick the
// quadrant (Go's math.Atan2, C's atan2). x is converted to y's type.
func Atan2(y, x any) Expr { return floatCall2(ir.IntrinsicAtan2, y, x) }

// Hypot returns sqrt(x*x + y*y), as Halide defines it (an integer x is
// converted to Float32; y to x's type).
func Hypot(x, y any) Expr {
	a := E(x)
	if a.err != nil {
		return a
	}
	if !a.Type().IsFloat() {
		a = Cast(Float32, a)
	}
	b := E(y)
	if b.err != nil {
		return b
	}
	if b.Type() != a.Type() {
		b = Cast(a.Type(), b)
	}
	return Sqrt(a.Mul(a).Add(b.Mul(b)))
}

// classArg makes x the operand of the intrinsic what, whose type must be
// one that is accepts (class names them in the error: "a float", "an
// integer"; legal says what is). It is false, with the Expr of the error
// to return, when x is bad or of another type.
func classArg(what string, x any, is func(ir.Type) bool, class, legal string) (Expr, bool) {
	e := E(x)
	if e.err != nil {
		return e, false
	}
	if !is(e.Type()) {
		return Expr{err: ir.Errorf(ir.ErrType, "", what, "%s of %s, not %s: %s", what, e.Type(), class, e).
			WithLegal("%s", legal)}, false
	}
	return e, true
}

func classify(name, what string, x any) Expr {
	e, ok := classArg(what, x, ir.Type.IsFloat, "a float", "a Float32 or Float64 expression")
	if !ok {
		return e
	}
	return Expr{node: &ir.Call{T: ir.Bool, Kind: ir.CallIntrinsic, Name: name, Args: []ir.Expr{e.node}}}
}

// IsNaN reports whether the float x is NaN.
func IsNaN(x any) Expr { return classify(ir.IntrinsicIsNaN, "IsNaN", x) }

// IsInf reports whether the float x is an infinity.
func IsInf(x any) Expr { return classify(ir.IntrinsicIsInf, "IsInf", x) }

// IsFinite reports whether the float x is neither NaN nor an infinity.
func IsFinite(x any) Expr { return classify(ir.IntrinsicIsFinite, "IsFinite", x) }

func bitCount(name, what string, x any) Expr {
	e, ok := classArg(what, x, ir.Type.IsIntOrUInt, "an integer", "an integer expression (Int8 ... UInt64)")
	if !ok {
		return e
	}
	return Expr{node: &ir.Call{T: e.Type(), Kind: ir.CallIntrinsic, Name: name, Args: []ir.Expr{e.node}}}
}

// Popcount returns the number of one bits of the integer x, in x's type.
func Popcount(x any) Expr { return bitCount(ir.IntrinsicPopcount, "Popcount", x) }

// CountLeadingZeros returns the number of zero bits of the integer x above
// its highest one bit (the type's width for 0), in x's type.
func CountLeadingZeros(x any) Expr {
	return bitCount(ir.IntrinsicCountLeadingZeros, "CountLeadingZeros", x)
}

// CountTrailingZeros returns the number of zero bits of the integer x
// below its lowest one bit (the type's width for 0), in x's type.
func CountTrailingZeros(x any) Expr {
	return bitCount(ir.IntrinsicCountTrailingZeros, "CountTrailingZeros", x)
}

// Reinterpret returns the bits of x read as type t, which has x's width
// (Halide's reinterpret): Reinterpret(UInt32, f) is the IEEE bits of the
// float32 f.
func Reinterpret(t Type, x any) Expr {
	e, ok := conversionArg(t, "Reinterpret", x)
	if !ok {
		return e
	}
	if !ir.CanReinterpret(e.Type(), t) {
		return Expr{err: ir.Errorf(ir.ErrType, "", "Reinterpret", "Reinterpret of %s as %s: the widths differ, or one is bool", e.Type(), t).
			WithLegal("types of one width, not bool: Int32, UInt32 and Float32; Int64, UInt64 and Float64; or integers of one width")}
	}
	if e.Type() == t {
		return e
	}
	return Expr{node: &ir.Call{T: t, Kind: ir.CallIntrinsic, Name: ir.IntrinsicReinterpret, Args: []ir.Expr{e.node}}}
}
