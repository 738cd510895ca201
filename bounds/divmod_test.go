package bounds

import (
	"testing"

	"github.com/gohalide/gohalide/ir"
)

// TestDivModBounds: the partner index of a bitonic network's half-cleaner,
// clamp(2*(x/4*4 + 2) - x - 1, x/4*4, x/4*4 + 3), simplifies to
// (x/4)*8 - x + 3, whose terms ranged apart span [-4, 11] for x in
// [0, 7]; its values are in [0, 7]. The select on x < x/4*4 + 2 (the
// lower half of each chunk) must not narrow x to an end written in x.
func TestDivModBounds(t *testing.T) {
	x := ir.NewVar("x")
	cs := ir.MulE(ir.DivE(x, ir.Int(4)), ir.Int(4))
	v := ir.SubE(ir.SubE(ir.MulE(ir.AddE(cs, ir.Int(2)), ir.Int(2)), x), ir.Int(1))
	clamp := ir.MinE(ir.MaxE(v, cs), ir.AddE(cs, ir.Int(3)))
	lower := ir.LTE(x, ir.AddE(cs, ir.Int(2)))
	xo, xi := ir.NewVar("xo"), ir.NewVar("xi")
	split := ir.AddE(ir.MinE(ir.MulE(xo, ir.Int(4)), ir.Int(4)), xi) // x of a split by 4, [0, 7]
	for _, e := range []ir.Expr{
		v,
		clamp,
		&ir.Select{Cond: lower, True: clamp, False: x},
		&ir.Let{Name: "x", Value: split, Body: &ir.Select{Cond: lower, True: clamp, False: x}},
	} {
		got := Of(e, Scope{"x": iv(0, 7), "xo": iv(0, 1), "xi": iv(0, 3)})
		if !ir.Equal(got.Min, ir.Int(0)) || !ir.Equal(got.Max, ir.Int(7)) {
			t.Errorf("Of(%v) = %v, want [0, 7]", e, got)
		}
	}
	// The same read in a loop nest: the box of each loop level is ranged
	// over the next one out.
	nest := &ir.For{Name: "xo", Min: ir.Int(0), Extent: ir.Int(2), Body: &ir.For{Name: "xi", Min: ir.Int(0), Extent: ir.Int(4),
		Body: &ir.LetStmt{Name: "x", Value: split, Body: &ir.Evaluate{X: &ir.Select{Cond: lower, True: fcall("f", clamp), False: fcall("f", x)}}}}}
	checkBoxes(t, "bitonic nest", Required(nest, nil), map[string]Box{"f": {iv(0, 7)}})
}
