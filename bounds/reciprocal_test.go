package bounds

import (
	"math"
	"testing"

	"github.com/gohalide/gohalide/ir"
)

// The bin index of Halide's bilateral_grid, int32(clamp(v, 0, 1) * (1.0f /
// r) + 0.5f) with a float Param r, is bounded by symbolic ends (as in
// Halide): 1.0f / r is never NaN (a finite nonzero constant over a
// number; 1 / 0 is infinite), and the product's end 0 * (1.0f / r) is 0
// for the numbers it bounds (0 * inf is NaN, which the cast to int32
// handles: 0). Was: the reciprocal counted as possibly NaN, the whole
// interval was unbounded, and so was the histogram's region.
func TestReciprocalOfParamIsBounded(t *testing.T) {
	v, r := &ir.Var{T: ir.Float32, Name: "v"}, &ir.Var{T: ir.Float32, Name: "r"}
	f := func(x float64) ir.Expr { return ir.Const(ir.Float32, x) }
	inv := ir.DivE(f(1), r)
	val := ir.MinE(ir.MaxE(v, f(0)), f(1))
	bin := &ir.Cast{T: ir.Int32, X: ir.AddE(ir.MulE(val, inv), f(0.5))}
	// v ranges over every float (as an image's value does).
	s := Scope{"v": Everything()}
	for _, e := range []ir.Expr{inv, ir.MulE(val, inv), bin} {
		if iv := Of(e, s); !iv.IsBounded() {
			t.Errorf("Of(%s) = %s, want both ends", ir.ExprString(e), iv)
		}
	}
	for _, rv := range []float64{0.1, 0.0625, -0.25, 3, 0, math.Copysign(0, -1), 1e-30, -1e-30} {
		for _, vv := range []float64{0, 0.3, 1, -2, 7, math.NaN()} {
			checkContains(t, "int32(clamp(v, 0, 1) * (1 / r) + 0.5)", bin, s, evalEnv{"v": {f: vv}, "r": {f: rv}})
			if !math.IsNaN(vv) && (rv != 0 || vv > 0) {
				// Float intervals bound the numbers, not NaN (0 * inf).
				checkContains(t, "clamp(v, 0, 1) * (1 / r)", ir.MulE(val, inv), s, evalEnv{"v": {f: vv}, "r": {f: rv}})
			}
		}
	}
	// A divisor that may be 0 over a numerator that may be 0 stays
	// possibly NaN: 0 / 0.
	if iv := Of(ir.DivE(val, r), s); iv.IsBounded() {
		t.Errorf("Of(clamp(v, 0, 1) / r) = %s, want unbounded (0 / 0 is NaN)", iv)
	}
}
