package bounds

// Regression tests for issue 8, defect 7: bounds in narrow types and on
// overflow. The user-level repro of the uint8 wrap-around is in
// tests/differential/narrow_types_test.go.

import (
	"testing"

	"github.com/gohalide/gohalide/ir"
)

// Was: RequiredExpr panicked (nil pointer in constRange) on
// f(abs(min(f(c), 3)) - (n % -1)): the interval of min(f(c), 3) has an
// infinite lower end, and abs negated it with mkBin instead of binNil.
func TestRequiredExprAbsOfUnboundedDoesNotPanic(t *testing.T) {
	c := &ir.Var{T: ir.Int32, Name: "c"}
	n := &ir.Var{T: ir.Int32, Name: "n"}
	fc := &ir.Call{T: ir.Int32, Kind: ir.CallFunc, Name: "f", Args: []ir.Expr{c}}
	abs := &ir.Call{T: ir.Int32, Kind: ir.CallIntrinsic, Name: ir.IntrinsicAbs, Args: []ir.Expr{ir.MinE(fc, ir.Int(3))}}
	e := &ir.Call{T: ir.Int32, Kind: ir.CallFunc, Name: "f", Args: []ir.Expr{ir.SubE(abs, ir.ModE(n, ir.Int(-1)))}}
	for _, s := range []Scope{nil, {"c": {ir.Int(0), ir.Int(9)}}} {
		box := RequiredExpr(e, s)["f"]
		if len(box) != 1 {
			t.Fatalf("RequiredExpr: box of f is %v", box)
		}
		// f's outer argument is abs(...) - 0 with abs(...) in [0, +inf];
		// the inner call reads f(c).
		if lo, ok := ConstantLowerBound(ir.SubE(abs, ir.ModE(n, ir.Int(-1))), s); !ok || lo != 0 {
			t.Errorf("lower bound of the argument: %d, %v; want 0", lo, ok)
		}
	}
}

// Was: the interval of p - b for a uint8 symbol p and b in [4, 254] was
// [p - 254, p - 4]: the check that a - b cannot wrap evaluated a.min -
// b.max in uint8, where it is never negative.
func TestNarrowSubWithSymbolWraps(t *testing.T) {
	p := &ir.Var{T: ir.UInt8, Name: "p"}
	b := &ir.Var{T: ir.UInt8, Name: "b"}
	s := Scope{"b": {ir.IntConst(ir.UInt8, 4), ir.IntConst(ir.UInt8, 254)}}
	checkInterval(t, "p - b", Of(ir.SubE(p, b), s), ivT(ir.UInt8, 0, 255))
	// uint8(x) - p over x in [0, 4], cast to int32: the defect-7 index.
	x := ir.NewVar("x")
	idx := &ir.Cast{T: ir.Int32, X: ir.SubE(&ir.Cast{T: ir.UInt8, X: x}, p)}
	checkInterval(t, "int32(uint8(x) - p)", Of(idx, Scope{"x": {ir.Int(0), ir.Int(4)}}), ivT(ir.Int32, 0, 255))
}

// Was: interval ends whose constants overflow int32 were folded with
// wrap-around: x + 2^31 - 1 over x in [0, 10] gave the upper end
// -2^31 + 9. The sum may overflow: its interval is everything, which for
// int32 is infinite ends (typeRange), not the constants 2^31 - 1 and
// -2^31 that a later + y would wrap.
func TestInt32EndsDoNotWrap(t *testing.T) {
	x := ir.NewVar("x")
	n := ir.NewVar("n")
	s := Scope{"x": {ir.Int(0), ir.Int(10)}}
	got := Of(ir.AddE(x, ir.Int(2147483647)), s)
	checkInterval(t, "x + (2^31 - 1)", got, Interval{})
	// Symbolic: (n + 2^31 - 1) + x must not fold to n - 2^31 + 10.
	got = Of(ir.AddE(ir.AddE(n, ir.Int(2147483647)), x), s)
	if got.Max != nil {
		t.Errorf("(n + 2^31 - 1) + x: upper end %s, want +inf", ir.ExprString(got.Max))
	}
}
