package lower

import (
	"testing"

	"github.com/gohalide/gohalide/ir"
)

// decides: what a case's comparison says of another comparison of the
// same expression with a constant.
func TestDecides(t *testing.T) {
	p := &ir.Var{T: ir.Int32, Name: "p"}
	q := &ir.Var{T: ir.Int32, Name: "q"}
	f := &ir.Var{T: ir.Float32, Name: "f"}
	c := func(v int64) ir.Expr { return ir.Int(v) }
	for _, tc := range []struct {
		name      string
		fact, e   ir.Expr
		value, ok bool
	}{
		{"p>73 implies p>50", ir.Bin(ir.GT, p, c(73)), ir.Bin(ir.GT, p, c(50)), true, true},
		{"p>73 implies 50<p", ir.Bin(ir.GT, p, c(73)), ir.LTE(c(50), p), true, true},
		{"p>73 excludes p<=60", ir.Bin(ir.GT, p, c(73)), ir.LEE(p, c(60)), false, true},
		{"p>73 undecides p>80", ir.Bin(ir.GT, p, c(73)), ir.Bin(ir.GT, p, c(80)), false, false},
		{"p==3 implies p<4", ir.Bin(ir.EQ, p, c(3)), ir.LTE(p, c(4)), true, true},
		{"p==3 excludes p==4", ir.Bin(ir.EQ, p, c(3)), ir.Bin(ir.EQ, p, c(4)), false, true},
		{"p>=4 excludes p<4", ir.Bin(ir.GE, p, c(4)), ir.LTE(p, c(4)), false, true},
		{"p<4 undecides p!=2", ir.LTE(p, c(4)), ir.Bin(ir.NE, p, c(2)), false, false},
		{"other expression", ir.Bin(ir.GT, p, c(73)), ir.Bin(ir.GT, q, c(50)), false, false},
		{"uint64 is not read", ir.Bin(ir.GT, &ir.Var{T: ir.UInt64, Name: "u"}, ir.IntConst(ir.UInt64, -1)), ir.Bin(ir.GT, &ir.Var{T: ir.UInt64, Name: "u"}, ir.IntConst(ir.UInt64, 5)), false, false},
		{"not a comparison", p, ir.Bin(ir.GT, p, c(1)), false, false},
		{"floats are not read", ir.Bin(ir.GT, f, ir.Const(ir.Float32, 3)), ir.Bin(ir.GT, f, ir.Const(ir.Float32, 1)), false, false},
	} {
		v, ok := decides(tc.fact, tc.e)
		if v != tc.value || ok != tc.ok {
			t.Errorf("%s: decides = %v, %v; want %v, %v", tc.name, v, ok, tc.value, tc.ok)
		}
	}
}
