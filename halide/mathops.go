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
		a = convert(Float32, a)
	}
	b := E(y)
	if b.err != nil {
		return b
	}
	if b.Type() != a.Type() {
		b = convert(a.Type(), b)
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

// Asinh returns the inverse hyperbolic sine of x (Halide's asinh).
func Asinh(x any) Expr { return floatCall(ir.IntrinsicAsinh, x) }

// Acosh returns the inverse hyperbolic cosine of x (Halide's acosh): NaN
// below 1.
func Acosh(x any) Expr { return floatCall(ir.IntrinsicAcosh, x) }

// Atanh returns the inverse hyperbolic tangent of x (Halide's atanh):
// ±infinity at ±1, NaN beyond.
func Atanh(x any) Expr { return floatCall(ir.IntrinsicAtanh, x) }

// Trunc rounds x toward zero (Halide's trunc, C's trunc), in x's float
// type: Trunc(-2.75) is -2, Trunc(-0.5) is -0.0, and -0.0, NaN and the
// infinities are kept. An integer x is converted to Float32 first, as in
// Halide.
func Trunc(x any) Expr { return floatCall(ir.IntrinsicTrunc, x) }

// Fract returns the fractional part of x with x's sign, x - Trunc(x), as
// Halide 14's fract defines it (not x - floor(x)): Fract(-2.75) is
// -0.75. It is NaN for NaN and the
// infinities (inf - inf). An integer x is converted to Float32 first, so
// its Fract is 0.
func Fract(x any) Expr {
	e := E(x)
	if e.err != nil {
		return e
	}
	if !e.Type().IsFloat() {
		e = convert(Float32, e)
	}
	return e.Sub(Trunc(e))
}

// Likely returns e unchanged (Halide's likely). In Halide it also marks
// the expression as the common case, so that loop partitioning splits a
// loop around it; gohalide partitions only the tail guards it makes
// itself, so here it is the identity and guides nothing.
func Likely(e any) Expr { return E(e) }

// LikelyIfInnermost returns e unchanged (Halide's likely_if_innermost,
// likely's hint restricted to innermost loops); like Likely, it is the
// identity here.
func LikelyIfInnermost(e any) Expr { return E(e) }

// StrictFloat returns e computed with every float operation rounded on
// its own (Halide's strict_float): a multiply and an add inside it are
// never contracted into a fused multiply-add. The CPU and the emulator
// always compute so; the CUDA target lets multiplies and adds contract
// (see Lowered.CUDA), except in a kernel that holds a StrictFloat, which is
// printed without contraction, the whole kernel (a product computed
// outside e could otherwise fuse with an add inside it). An e without
// float arithmetic is returned as it is.
func StrictFloat(e any) Expr {
	x := E(e)
	if x.err != nil {
		return Expr{err: withDirective(x.err, "StrictFloat")}
	}
	float := false
	ir.WalkExprOnce(x.node, func(n ir.Expr) bool {
		float = float || n.Type().IsFloat() && !ir.IsConst(n)
		return !float
	})
	if !float {
		return x
	}
	return Expr{node: &ir.Call{T: x.Type(), Kind: ir.CallIntrinsic, Name: ir.IntrinsicStrictFloat, Args: []ir.Expr{x.node}}}
}
