package bounds

// Regression tests for the violations TestBoundsSoundness found with seeds
// 6 to 15 at 10^7 samples: each expression is checked at the point where
// its value lay outside the interval Of gave.

import (
	"math"
	"testing"

	"github.com/gohalide/gohalide/ir"
)

// checkContains evaluates e and the ends of Of(e, s) at env and fails when
// the value is not in the interval.
func checkContains(t *testing.T, what string, e ir.Expr, s Scope, env evalEnv) {
	t.Helper()
	iv := Of(e, s)
	signedOverflows = 0
	v := eval(e, env)
	if signedOverflows > 0 {
		t.Fatalf("%s: the expression overflows at %v", what, env)
	}
	var lo, hi *val
	if iv.Min != nil {
		x := eval(iv.Min, env)
		lo = &x
	}
	if iv.Max != nil {
		x := eval(iv.Max, env)
		hi = &x
	}
	if signedOverflows > 0 {
		t.Fatalf("%s: an end of %s overflows at %v", what, iv, env)
	}
	if !contains(e.Type(), lo, hi, v) {
		t.Errorf("%s: value %v not in %s at %v", what, v, iv, env)
	}
}

func i32(n string) *ir.Var { return &ir.Var{T: ir.Int32, Name: n} }

// Was: -2^31 + 1 < int32(a) - p was simplified to p < int32(a) + (2^31 - 1),
// whose right side overflows at a = 1 where the original does not: the
// comparison changed value (and Of, folding the point a = 1, said false).
// Also with the constant on the other side: p + 1 <= likely(promise_clamped(
// a, 31, -2^31)) is not p <= promise_clamped(...) - 1, that is always
// -2^31 - 1.
func TestCompareDoesNotMoveConstantsIntoOverflow(t *testing.T) {
	a, p := &ir.Var{T: ir.Bool, Name: "a"}, i32("p")
	sel := &ir.Select{Cond: ir.True, True: p, False: ir.Int(-1276469888)}
	e := &ir.Binary{Op: ir.GT, A: ir.SubE(&ir.Cast{T: ir.Int32, X: a}, sel), B: ir.Int(-2147483647)}
	s := Scope{"a": {ir.True, ir.True}}
	for _, pv := range []int64{1961006744, 0, -5, 2147483647} {
		checkContains(t, "int32(a) - p > -2^31 + 1", e, s, evalEnv{"a": {i: 1}, "p": {i: pv}})
	}

	x := i32("x")
	pc := &ir.Call{T: ir.Int32, Kind: ir.CallIntrinsic, Name: ir.IntrinsicPromiseClamped, Args: []ir.Expr{x, ir.Int(31), ir.Int(-2147483648)}}
	lk := &ir.Call{T: ir.Int32, Kind: ir.CallIntrinsic, Name: ir.IntrinsicLikely, Args: []ir.Expr{pc}}
	e = &ir.Binary{Op: ir.LE, A: ir.SubE(p, ir.Int(-1)), B: lk}
	s = Scope{"x": {ir.Int(-1454112319), ir.Int(17)}}
	for _, pv := range []int64{913451236, 0, -2147483647} {
		checkContains(t, "p + 1 <= promise_clamped(x, 31, -2^31)", e, s, evalEnv{"x": {i: -1159968401}, "p": {i: pv}})
	}
}

// Was: b - (p - (likely(b) - c)), simplified to ((b + likely(b)) - p) - c,
// had the lower end -2^31 + 77 - p: the intermediate b + b was fitted to
// the whole type, then p and c were subtracted assuming no overflow. With
// b = c = -2^31 + 1 and p = 0 the value is b.
func TestReassociatedSumIsBoundedExactly(t *testing.T) {
	a, b, p := i32("a"), i32("b"), i32("p")
	lk := &ir.Call{T: ir.Int32, Kind: ir.CallIntrinsic, Name: ir.IntrinsicLikely, Args: []ir.Expr{b}}
	c := &ir.Call{T: ir.Int32, Kind: ir.CallIntrinsic, Name: ir.IntrinsicPromiseClamped, Args: []ir.Expr{a, b, b}}
	e := ir.SubE(b, ir.SubE(p, ir.SubE(lk, c)))
	s := Scope{"a": {ir.Int(-2147483646), ir.Int(-57)}, "b": {ir.Int(-2147483647), ir.Int(-77)}}
	for _, bv := range []int64{-2147483647, -77, -1073741900} {
		checkContains(t, "b - (p - (b - c))", e, s, evalEnv{"a": {i: -2056477770}, "b": {i: bv}, "p": {i: 0}})
	}
	// The same in int64, where interval ends saturate at the int64 range.
	a64, b64 := &ir.Var{T: ir.Int64, Name: "a"}, &ir.Var{T: ir.Int64, Name: "b"}
	e = ir.AddE(ir.AddE(b64, b64), ir.SubE(ir.IntConst(ir.Int64, math.MaxInt64), a64))
	s = Scope{"a": {ir.IntConst(ir.Int64, math.MinInt64+10), ir.IntConst(ir.Int64, 0)}, "b": {ir.IntConst(ir.Int64, math.MinInt64/2), ir.IntConst(ir.Int64, 0)}}
	checkContains(t, "b + b + (max - a)", e, s, evalEnv{"a": {i: 0}, "b": {i: math.MinInt64 / 2}})
}

// Was: casts of floats that may be NaN to integers used the float interval,
// which does not bound NaN; NaN converts to 0 (as in cpu). And float ends
// such as (p * p) * 0.0 are NaN when p * p overflows to infinity.
func TestNaNToInt(t *testing.T) {
	f64v := &ir.Var{T: ir.Float64, Name: "a"}
	sqrt := &ir.Call{T: ir.Float64, Kind: ir.CallIntrinsic, Name: ir.IntrinsicSqrt, Args: []ir.Expr{f64v}}
	var e ir.Expr = &ir.Cast{T: ir.UInt8, X: ir.MinE(ir.Const(ir.Float64, -53.8), sqrt)}
	s := Scope{"a": {ir.Const(ir.Float64, -43), ir.Const(ir.Float64, -42)}}
	checkContains(t, "uint8(min(-53.8, sqrt(a)))", e, s, evalEnv{"a": {f: -42.3}})

	f32a, f32b := &ir.Var{T: ir.Float32, Name: "a"}, &ir.Var{T: ir.Float32, Name: "b"}
	sq32 := &ir.Call{T: ir.Float32, Kind: ir.CallIntrinsic, Name: ir.IntrinsicSqrt, Args: []ir.Expr{f32a}}
	e = &ir.Cast{T: ir.Int64, X: ir.SubE(f32b, sq32)}
	s = Scope{"a": {ir.Const(ir.Float32, -1.8491292), ir.Const(ir.Float32, 16.150871)}, "b": {ir.Const(ir.Float32, -364744.22), ir.Const(ir.Float32, -1.9842318)}}
	checkContains(t, "int64(b - sqrt(a))", e, s, evalEnv{"a": {f: -1.1989833116531372}, "b": {f: -1.9842318296432495}})

	// A let-bound NaN, and bool: NaN converts to true.
	e = &ir.Let{Name: "l", Value: sqrt, Body: &ir.Cast{T: ir.Int32, X: ir.MaxE(ir.Const(ir.Float64, 5), &ir.Var{T: ir.Float64, Name: "l"})}}
	checkContains(t, "let l = sqrt(a) in int32(max(5, l))", e, Scope{"a": {ir.Const(ir.Float64, -2), ir.Const(ir.Float64, -1)}}, evalEnv{"a": {f: -1.5}})
	e = &ir.Cast{T: ir.Bool, X: ir.MinE(ir.Const(ir.Float64, 0), sqrt)}
	checkContains(t, "bool(min(0, sqrt(a)))", e, Scope{"a": {ir.Const(ir.Float64, -2), ir.Const(ir.Float64, -1)}}, evalEnv{"a": {f: -1.5}})

	// inf * 0 in a symbolic end.
	p := &ir.Var{T: ir.Float32, Name: "p"}
	u := &ir.Var{T: ir.UInt16, Name: "u"}
	e = ir.MulE(ir.MulE(p, ir.MaxE(f32b, p)), &ir.Cast{T: ir.Float32, X: ir.AddE(u, u)})
	s = Scope{"u": {ir.IntConst(ir.UInt16, 16), ir.IntConst(ir.UInt16, 65533)}, "b": {ir.Const(ir.Float32, -1), ir.Const(ir.Float32, 55)}}
	checkContains(t, "(p * max(b, p)) * float32(u + u)", e, s, evalEnv{"u": {i: 12251}, "b": {f: 55}, "p": {f: 5.817229679166986e+28}})
}

// Was: -2^63 / b over b in [-2^63 + 2, -2] had the upper end
// (2^63 - 1) / 2: the dividend was negated with saturation.
func TestInt64DivByNegativeOfMin(t *testing.T) {
	b := &ir.Var{T: ir.Int64, Name: "b"}
	e := ir.DivE(ir.IntConst(ir.Int64, math.MinInt64), b)
	s := Scope{"b": {ir.IntConst(ir.Int64, math.MinInt64+2), ir.IntConst(ir.Int64, -2)}}
	for _, bv := range []int64{-2, -3, math.MinInt64 + 2} {
		checkContains(t, "-2^63 / b", e, s, evalEnv{"b": {i: bv}})
	}
}

// Was: a float zero found as an interval end (floor(b * 0.0) over b of
// both signs, [-0, -0]) was folded as a point divisor, and x / -0 is -inf
// where x / +0 is +inf: the quotient's interval held one of them. Seed 101
// of the soundness fuzzer.
func TestFloatDivByZeroOfUnknownSign(t *testing.T) {
	b := &ir.Var{T: ir.Float32, Name: "b"}
	floor := &ir.Call{T: ir.Float32, Kind: ir.CallIntrinsic, Name: ir.IntrinsicFloor, Args: []ir.Expr{ir.MulE(b, ir.Const(ir.Float32, 0))}}
	e := ir.DivE(ir.Const(ir.Float32, -1.8432105e+29), floor)
	s := Scope{"b": {ir.Const(ir.Float32, -1.1542498), ir.Const(ir.Float32, 7.8457503)}}
	checkContains(t, "-1.8e29 / floor(b * 0.0)", e, s, evalEnv{"b": {f: 4.716221809387207}})
	checkContains(t, "-1.8e29 / floor(b * 0.0)", e, s, evalEnv{"b": {f: -1}})
}

// Was: the comparisons of EQ's and NE's overlap test (and min/max ends)
// whose operand's constant term was -2^63 came back nil from mkBin, whose
// constant-overflow check is for sums and products only, and the
// comparison dereferenced it (a panic; soundness fuzzer, seed 101).
func TestCompareOfEndWithMinInt64Offset(t *testing.T) {
	x := &ir.Var{T: ir.Int64, Name: "x"}
	end := &ir.Binary{Op: ir.Sub, A: x, B: ir.IntConst(ir.Int64, math.MinInt64)}
	for _, op := range []ir.BinOp{ir.LE, ir.LT, ir.Min, ir.Max} {
		if mkBin(op, end, x) == nil {
			t.Errorf("mkBin(%v, %s, x) is nil", op, ir.ExprString(end))
		}
	}
}

// Was: an interval end that calls floor, ceil, abs, ... was taken as
// possibly NaN and made infinite, even where its argument is a number:
// int32(ceil(0.3f * ceil(0.4f * floor(float32(x) * 22.5f)))) over a
// symbolic x was unbounded (Halide's bounds_of_monotonic_math), and
// int32(clamp(abs(1.0f / (float32(x) + 0.1f)), -50, 50)) lost abs >= 0.
func TestMonotonicFloatCallsKeepBounds(t *testing.T) {
	x := ir.NewVar("x")
	m, n := ir.NewVar("m"), ir.NewVar("n")
	s := Scope{"x": {m, ir.SubE(ir.AddE(m, n), ir.Int(1))}}
	f32 := func(v float64) ir.Expr { return ir.Const(ir.Float32, v) }
	call := func(name string, a ir.Expr) ir.Expr {
		return &ir.Call{T: ir.Float32, Kind: ir.CallIntrinsic, Name: name, Args: []ir.Expr{a}}
	}
	fx := &ir.Cast{T: ir.Float32, X: x}
	idx := &ir.Cast{T: ir.Int32, X: call(ir.IntrinsicCeil, ir.MulE(f32(0.3), call(ir.IntrinsicCeil, ir.MulE(f32(0.4), call(ir.IntrinsicFloor, ir.MulE(fx, f32(22.5)))))))}
	if iv := Of(idx, s); !iv.IsBounded() {
		t.Errorf("%s: %s, want bounded ends", ir.ExprString(idx), iv)
	}
	// The loop walk sees x as a point first (box.go): its ends are calls.
	clamped := &ir.Cast{T: ir.Int32, X: ir.MinE(ir.MaxE(call(ir.IntrinsicAbs, ir.DivE(f32(1), ir.AddE(fx, f32(0.1)))), f32(-50)), f32(50))}
	if iv := (env{}).with("x", Point(x)).of(clamped); !isPt(iv) {
		t.Errorf("%s with x a point: %s, want the point", ir.ExprString(clamped), iv)
	}
	if iv := Of(clamped, s); !ir.Equal(iv.Min, ir.Int(0)) {
		t.Errorf("%s: %s, want the lower end 0", ir.ExprString(clamped), iv)
	}
	for _, v := range []int64{-3, 0, 5, 1 << 20} {
		checkContains(t, "ceil(0.3 * ceil(0.4 * floor(x * 22.5)))", idx, s, evalEnv{"x": {i: v}, "m": {i: -10}, "n": {i: 1 << 21}})
	}
}

// Was: the constant bound of (max(s, c) - s) + min(a, 25), which the
// simplifier separates into min(a, 25) + max(0, c - s), folded the point
// c - s (s a constant select) with wrap-around: max(0, c - s) became a
// large positive constant where it is 0, and the lower bound rose above
// the value (soundness fuzzer, seed 102). Constants of a sum fold exactly.
func TestSeparatedSumFoldsExactly(t *testing.T) {
	a, b := &ir.Var{T: ir.Int32, Name: "a"}, &ir.Var{T: ir.Int32, Name: "b"}
	bb := &ir.Var{T: ir.Bool, Name: "bb"}
	s := &ir.Select{Cond: bb, True: ir.Int(2147483646), False: b}
	e := ir.AddE(ir.SubE(ir.MaxE(s, ir.Int(-2062400459)), s), ir.MinE(a, ir.Int(25)))
	sc := Scope{"a": {ir.Int(-2147483648), ir.Int(-2147483646)}, "bb": {ir.True, ir.True}, "b": {ir.Int(4), ir.Int(79)}}
	lo, ok := ConstantLowerBound(e, sc)
	if ok && lo > -2147483647 {
		t.Errorf("ConstantLowerBound(%s) = %d, above the value -2147483647 at a = -2147483647", ir.ExprString(e), lo)
	}
}

// Was: a region end pi + (2^31 - 1), the bound of an empty Minimum's
// identity plus a Param, was kept and wrapped at run time: clamp(pi +
// minimum(r), -4, 0) got the region [-4, -4] where the value is 0
// (progfuzz -seed 49001, program 40899). A symbolic end whose constant
// term is beyond 2^30 is not kept.
func TestSymbolicEndNearTypeLimitIsDropped(t *testing.T) {
	pi := &ir.Var{T: ir.Int32, Name: "pi"}
	m := &ir.Var{T: ir.Int32, Name: "m"}
	e := ir.MinE(ir.MaxE(ir.AddE(pi, m), ir.Int(-4)), ir.Int(0))
	iv := Of(e, Scope{"m": {ir.Int(0), ir.Int(2147483647)}})
	if got := ir.ExprString(iv.Max); got != "0" {
		t.Errorf("the upper end of %s is %s, want 0", ir.ExprString(e), got)
	}
}

// Was: the upper end (select(c, 2^63 - 2, -4) - max(p, a)) * 15, whose
// constant term is 0 but whose select arm the simplifier multiplies by 15
// with wrap-around, made the interval of that times (b % -16) at most 0
// where the value is 17 (soundness fuzzer, seed 115). The constants
// inside a select, min or max of an end count as its constant term does.
func TestNestedConstantOfEndOverflows(t *testing.T) {
	i64 := func(v int64) ir.Expr { return ir.IntConst(ir.Int64, v) }
	a, b, p := &ir.Var{T: ir.Int64, Name: "a"}, &ir.Var{T: ir.Int64, Name: "b"}, &ir.Var{T: ir.Int64, Name: "p"}
	pb := &ir.Var{T: ir.Bool, Name: "pb"}
	sel := &ir.Select{Cond: pb, True: i64(9223372036854775806), False: i64(-4)}
	e := ir.MulE(ir.SubE(sel, ir.MaxE(p, a)), ir.ModE(b, i64(-16)))
	iv := Of(e, Scope{"a": {i64(7343961004381853080), nil}, "b": {i64(-9223372036854775807), i64(34359738368)}})
	if iv.Max != nil {
		if hi, ok := ir.AsInt(iv.Max); !ok || hi < 17 {
			t.Errorf("the upper end of %s is %s, below the value 17", ir.ExprString(e), ir.ExprString(iv.Max))
		}
	}
}

// Was: |x| for x in [-2^31, max(p, 16383)] (int32) got the upper end
// max(p, -2^31): 0 - (-2^31), an exact end outside the type, went into a
// max, where the simplifier wrapped it (soundness fuzzer, seed 114). An
// exact constant end outside the type wins or loses a min or max as it is.
func TestOutOfRangeEndInMinMax(t *testing.T) {
	p, b := &ir.Var{T: ir.Int32, Name: "p"}, &ir.Var{T: ir.Int32, Name: "b"}
	inner := &ir.Call{T: ir.Int32, Kind: ir.CallIntrinsic, Name: ir.IntrinsicPromiseClamped, Args: []ir.Expr{p, ir.Int(16383), b}}
	e := &ir.Call{T: ir.Int32, Kind: ir.CallIntrinsic, Name: ir.IntrinsicAbs, Args: []ir.Expr{inner}}
	iv := Of(e, Scope{"b": {ir.Int(-2147483648), nil}})
	if iv.Max != nil {
		t.Errorf("the upper end of %s is %s; |-2^31| is not an int32", ir.ExprString(e), ir.ExprString(iv.Max))
	}
}

// The conversion to an integer of a float fixed where the bound is used
// (gaussian_blur's radius, int(ceil(sqrt(p)))) is that value, NaN
// included (it converts alike there); with p ranging over an interval it
// is not a point.
func TestFixedFloatConversionIsAPoint(t *testing.T) {
	p := &ir.Var{T: ir.Float32, Name: "p"}
	sqrt := &ir.Call{T: ir.Float32, Kind: ir.CallIntrinsic, Name: ir.IntrinsicSqrt, Args: []ir.Expr{p}}
	ceil := &ir.Call{T: ir.Float32, Kind: ir.CallIntrinsic, Name: ir.IntrinsicCeil, Args: []ir.Expr{sqrt}}
	e := &ir.Cast{T: ir.Int32, X: ceil}
	if iv := Of(e, nil); iv.Min == nil || iv.Max == nil || !ir.Equal(iv.Min, iv.Max) {
		t.Errorf("Of(%s) with p free = %s, want the point itself", ir.ExprString(e), iv)
	}
	iv := Of(e, Scope{"p": {ir.Const(ir.Float32, -4), ir.Const(ir.Float32, 9)}})
	if iv.Min != nil && iv.Max != nil && ir.Equal(iv.Min, iv.Max) {
		t.Errorf("Of(%s) with p in [-4, 9] = %s, a point", ir.ExprString(e), iv)
	}
}
