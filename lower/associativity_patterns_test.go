package lower

import (
	"strings"
	"testing"

	"github.com/gohalide/gohalide/ir"
)

// ProveReduction on forms it must prove and forms it must not: a wrong
// proof lets rfactor change an answer.
func TestProveReduction(t *testing.T) {
	i32, u8, f32 := ir.Int32, ir.UInt8, ir.Float32
	self := func(i int, t ir.Type) ir.Expr { return &ir.Call{T: t, Kind: ir.CallFunc, Name: "f", Index: i} }
	a := &ir.Var{T: i32, Name: "a"} // a value that does not read f
	b := &ir.Var{T: i32, Name: "b"}
	r := &ir.Var{T: i32, Name: "r"}
	sel := func(c, x, y ir.Expr) ir.Expr { return &ir.Select{Cond: c, True: x, False: y} }
	x0, x1 := self(0, i32), self(1, i32)
	ua := &ir.Var{T: u8, Name: "ua"}
	top := ir.IntConst(u8, 255)
	fa := &ir.Var{T: f32, Name: "fa"}
	fx := self(0, f32)
	nan := &ir.Call{T: ir.Bool, Kind: ir.CallIntrinsic, Name: ir.IntrinsicIsNaN, Args: []ir.Expr{fx}}
	for _, c := range []struct {
		name        string
		values      []ir.Expr
		types       []ir.Type
		ok, commute bool
	}{
		{"sum", []ir.Expr{ir.AddE(a, x0)}, []ir.Type{i32}, true, true},
		{"argmin", []ir.Expr{ir.MinE(x0, a), sel(ir.LTE(x0, a), x1, r)}, []ir.Type{i32, i32}, true, false},
		{"argmin_ties_first", []ir.Expr{ir.MinE(a, x0), sel(ir.Bin(ir.GT, x0, a), r, x1)}, []ir.Type{i32, i32}, true, false},
		{"argmax_index_first", []ir.Expr{sel(ir.LTE(x1, a), r, x0), ir.MaxE(a, x1)}, []ir.Type{i32, i32}, true, false},
		{"argmin_select_key", []ir.Expr{sel(ir.LTE(a, x0), a, x0), sel(ir.LTE(a, x0), r, x1)}, []ir.Type{i32, i32}, true, false},
		{"argmin_wrong_direction", []ir.Expr{ir.MinE(x0, a), sel(ir.LTE(a, x0), x1, r)}, []ir.Type{i32, i32}, false, false},
		{"argmax_key_argmin_index", []ir.Expr{ir.MaxE(x0, a), sel(ir.LTE(x0, a), x1, r)}, []ir.Type{i32, i32}, false, false},
		{"argmin_other_key", []ir.Expr{ir.MinE(x0, a), sel(ir.LTE(x0, b), x1, r)}, []ir.Type{i32, i32}, false, false},
		{"index_reads_f_elsewhere", []ir.Expr{ir.MinE(x0, a), sel(ir.LTE(x0, a), x1, &ir.Call{T: i32, Kind: ir.CallFunc, Name: "f", Args: []ir.Expr{ir.Int(1)}, Index: 1})}, []ir.Type{i32, i32}, false, false},
		{"overwrite", []ir.Expr{ir.MinE(x0, a), r}, []ir.Type{i32, i32}, false, false},
		{"self_assignment", []ir.Expr{ir.AddE(x0, a), x1}, []ir.Type{i32, i32}, true, true},
		{"complex", []ir.Expr{ir.SubE(ir.MulE(x0, a), ir.MulE(x1, b)), ir.AddE(ir.MulE(a, x1), ir.MulE(b, x0))}, []ir.Type{i32, i32}, true, true},
		{"complex_wrong_sign", []ir.Expr{ir.AddE(ir.MulE(x0, a), ir.MulE(x1, b)), ir.AddE(ir.MulE(a, x1), ir.MulE(b, x0))}, []ir.Type{i32, i32}, false, false},
		{"complex_swapped_parts", []ir.Expr{ir.SubE(ir.MulE(x0, a), ir.MulE(x1, b)), ir.AddE(ir.MulE(a, x0), ir.MulE(b, x1))}, []ir.Type{i32, i32}, false, false},
		{"saturating_add", []ir.Expr{sel(ir.Bin(ir.GT, self(0, u8), ir.SubE(top, ua)), top, ir.AddE(ua, self(0, u8)))}, []ir.Type{u8}, true, true},
		{"saturating_add_bitnot", []ir.Expr{sel(ir.LTE(self(0, u8), &ir.Call{T: u8, Kind: ir.CallIntrinsic, Name: ir.IntrinsicBitNot, Args: []ir.Expr{ua}}), ir.AddE(self(0, u8), ua), top)}, []ir.Type{u8}, true, true},
		{"saturating_add_widened", []ir.Expr{&ir.Cast{T: u8, X: ir.MinE(ir.AddE(&ir.Cast{T: ir.UInt16, X: ua}, &ir.Cast{T: ir.UInt16, X: self(0, u8)}), ir.IntConst(ir.UInt16, 255))}}, []ir.Type{u8}, true, true},
		{"saturating_add_widened_other_bound", []ir.Expr{&ir.Cast{T: u8, X: ir.MinE(ir.AddE(&ir.Cast{T: ir.UInt16, X: ua}, &ir.Cast{T: ir.UInt16, X: self(0, u8)}), ir.IntConst(ir.UInt16, 200))}}, []ir.Type{u8}, false, false},
		{"saturating_add_other_bound", []ir.Expr{sel(ir.Bin(ir.GT, self(0, u8), ir.SubE(ir.IntConst(u8, 200), ua)), top, ir.AddE(ua, self(0, u8)))}, []ir.Type{u8}, false, false},
		{"saturating_add_signed", []ir.Expr{sel(ir.Bin(ir.GT, x0, ir.SubE(ir.Int(255), a)), ir.Int(255), ir.AddE(a, x0))}, []ir.Type{i32}, false, false},
		{"max_keeping_nan", []ir.Expr{sel(ir.Bin(ir.Or, ir.Bin(ir.GT, fx, fa), nan), fx, fa)}, []ir.Type{f32}, true, true},
		{"max_keeping_nan_of_y", []ir.Expr{sel(ir.Bin(ir.Or, ir.Bin(ir.GT, fx, fa), &ir.Call{T: ir.Bool, Kind: ir.CallIntrinsic, Name: ir.IntrinsicIsNaN, Args: []ir.Expr{fa}}), fx, fa)}, []ir.Type{f32}, false, false},
	} {
		red, ok := ProveReduction("f", nil, ir.MakeTuple(c.values), c.types)
		if len(c.values) == 1 {
			red, ok = ProveReduction("f", nil, c.values[0], c.types)
		}
		if ok != c.ok || ok && red.Commutative != c.commute {
			t.Errorf("%s: proved %v, commutative %v; want %v, %v", c.name, ok, red.Commutative, c.ok, c.commute)
			continue
		}
		if !ok {
			continue
		}
		// The update's value is the templates applied to f's values and
		// the Ys.
		xs := make([]ir.Expr, len(c.values))
		for i := range xs {
			xs[i] = self(i, c.types[i])
		}
		// The pattern matcher only reorders the operands of commutative
		// ops, so the rebuilt value has the canonical value's size and no
		// placeholder is left.
		got := red.Apply(xs, red.Ys)
		for i := range got {
			g, w := ir.ExprString(got[i]), ir.ExprString(canonical(c.values[i]))
			if strings.Contains(g, "assoc$") || len(g) != len(w) {
				t.Errorf("%s: value %d applies as %s, want %s", c.name, i, g, w)
			}
		}
	}
}
