package bounds

import (
	"testing"

	"github.com/gohalide/gohalide/ir"
)

func TestIsMonotonic(t *testing.T) {
	v, m := ir.NewVar("v"), ir.NewVar("m")
	c := func(n int64) ir.Expr { return ir.Int(n) }
	for _, tc := range []struct {
		name string
		e    ir.Expr
		want Monotonic
	}{
		{"constant", ir.AddE(m, c(3)), Constant},
		{"v", v, Increasing},
		{"v + m - 2", ir.SubE(ir.AddE(v, m), c(2)), Increasing},
		{"m - v", ir.SubE(m, v), Decreasing},
		{"v * 2", ir.MulE(v, c(2)), Increasing},
		{"v * -3", ir.MulE(v, c(-3)), Decreasing},
		{"v * m", ir.MulE(v, m), Unknown},
		{"v / 2", ir.DivE(v, c(2)), Increasing},
		{"v / -2", ir.DivE(v, c(-2)), Decreasing},
		{"v % 4", ir.ModE(v, c(4)), Unknown},
		// The sliding window's case: the last row of a tile is clamped.
		{"min(v + 16, m) + 2", ir.AddE(ir.MinE(ir.AddE(v, c(16)), m), c(2)), Increasing},
		{"max(v, m - v)", ir.MaxE(v, ir.SubE(m, v)), Unknown},
		{"select(m < 3, v, v + 1)", &ir.Select{Cond: ir.LTE(m, c(3)), True: v, False: ir.AddE(v, c(1))}, Increasing},
		{"select(v < 3, v, 0)", &ir.Select{Cond: ir.LTE(v, c(3)), True: v, False: c(0)}, Unknown},
	} {
		if got := IsMonotonic(tc.e, "v"); got != tc.want {
			t.Errorf("%s: IsMonotonic = %v, want %v", tc.name, got, tc.want)
		}
	}
}
