package lower

import (
	"testing"

	"github.com/gohalide/gohalide/ir"
)

// TestNotConstant checks the probe gpu_registers uses before simplifying
// a substituted index: it proves an expression takes two values, and says
// nothing of one that is constant or that it cannot evaluate exactly.
func TestNotConstant(t *testing.T) {
	x, y := ir.NewVar("x"), ir.NewVar("y")
	m := ir.Bin(ir.Min, ir.AddE(ir.MulE(x, ir.Int(3)), y), ir.Int(5))
	cases := []struct {
		name string
		e    ir.Expr
		want bool
	}{
		{"a variable", x, true},
		{"a sum", ir.AddE(x, y), true},
		{"cancels", ir.SubE(ir.AddE(m, ir.Int(7)), m), false},
		{"clamp minus its min", ir.SubE(ir.Bin(ir.Max, m, ir.Int(-200)), m), false},
		{"constant", ir.Int(4), false},
		{"a load", &ir.Load{T: ir.Int32, Buf: "b", Index: x}, false},
		{"a float cast", &ir.Cast{T: ir.Int32, X: &ir.Cast{T: ir.Float32, X: x}}, false},
		// (x * 2^20) * 2^20 leaves int32 (x is not 0 at every probe
		// point): not evaluated.
		{"overflow", ir.MulE(ir.MulE(x, ir.Int(1<<20)), ir.Int(1<<20)), false},
		{"a let", &ir.Let{Name: "z", Value: ir.AddE(x, ir.Int(1)), Body: ir.SubE(ir.NewVar("z"), x)}, false},
	}
	for _, c := range cases {
		if got := notConstant(c.e, nil); got != c.want {
			t.Errorf("%s: notConstant(%s) = %v, want %v", c.name, ir.ExprString(c.e), got, c.want)
		}
	}
}
