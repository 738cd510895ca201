package emulator

import (
	"strings"
	"testing"

	"github.com/gohalide/gohalide/ir"
)

// TestEmuCSE checks which subexpressions emuCSE binds to lets: pure ones
// used more than once, not loads, not leaves, not inside a Let, not in a
// Store that is the whole body of a loop (batched by the cpu package).
func TestEmuCSE(t *testing.T) {
	x, n := ir.NewVar("x"), ir.NewVar("n")
	// clamp(2x - 1) used by two loads; x*2 also on its own.
	idx := ir.Bin(ir.Min, ir.Bin(ir.Max, ir.SubE(ir.MulE(x, ir.Int(2)), ir.Int(1)), ir.Int(0)), ir.SubE(n, ir.Int(1)))
	ld := func(i ir.Expr) ir.Expr { return &ir.Load{T: ir.Int32, Buf: "in", Index: i} }
	store := &ir.Store{Buf: "out", Index: x, Value: ir.AddE(ir.AddE(ld(idx), ld(ir.AddE(idx, ir.Int(1)))), ir.MulE(x, ir.Int(2)))}
	got := ir.StmtString(emuCSE(store))
	for _, want := range []string{
		"let gpu.emulator.cse.0 = (x * 2)",
		"let gpu.emulator.cse.1 = min(max((gpu.emulator.cse.0 - 1), 0), (n - 1))",
		"out[x] = ((in[gpu.emulator.cse.1] + in[(gpu.emulator.cse.1 + 1)]) + gpu.emulator.cse.0)",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("want %q in:\n%s", want, got)
		}
	}
	if strings.Contains(got, "cse.2") {
		t.Errorf("a let too many:\n%s", got)
	}
	// Two equal loads are not shared.
	same := &ir.Store{Buf: "out", Index: x, Value: ir.AddE(ld(x), ld(x))}
	if s := emuCSE(same); s != ir.Stmt(same) {
		t.Errorf("loads shared:\n%s", ir.StmtString(s))
	}
	// Left alone: the body of a loop, a Store with a Let.
	loop := &ir.For{Name: "x", Min: ir.Int(0), Extent: n, Kind: ir.Serial, Body: store}
	if s := emuCSE(loop); s != ir.Stmt(loop) {
		t.Errorf("a loop's store changed:\n%s", ir.StmtString(s))
	}
	let := &ir.Store{Buf: "out", Index: x, Value: &ir.Let{Name: "y", Value: x, Body: ir.AddE(ir.MulE(ir.NewVar("y"), ir.Int(2)), ir.MulE(ir.NewVar("y"), ir.Int(2)))}}
	if s := emuCSE(let); s != ir.Stmt(let) {
		t.Errorf("a store with a let changed:\n%s", ir.StmtString(s))
	}
}
