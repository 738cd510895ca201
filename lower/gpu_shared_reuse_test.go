package lower

import (
	"slices"
	"testing"

	"github.com/gohalide/gohalide/ir"
)

// TestSharedReuseLifetimes lays out hand-made kernel bodies with two
// float32 arrays a and b of 4 elements (16 bytes each): b goes at offset 0
// (over a) only when a barrier every thread reaches separates a's last
// access from b's first.
func TestSharedReuseLifetimes(t *testing.T) {
	tx := ir.NewVar(ir.ThreadID[0])
	wr := func(buf string) ir.Stmt { return &ir.Store{Buf: buf, Index: tx, Value: ir.Const(ir.Float32, 1)} }
	rd := func(buf string) ir.Stmt {
		return &ir.Store{Buf: "out", Index: tx, Value: &ir.Load{T: ir.Float32, Buf: buf, Index: tx}}
	}
	bar := &ir.Barrier{Fence: ir.FenceShared}
	loop := func(body ...ir.Stmt) ir.Stmt {
		return &ir.For{Name: "r", Min: ir.Int(0), Extent: ir.Int(2), Kind: ir.Serial, Body: ir.MakeBlock(body...)}
	}
	guard := func(body ...ir.Stmt) ir.Stmt {
		return &ir.IfThenElse{Cond: ir.LTE(ir.NewVar("n"), ir.Int(3)), Then: ir.MakeBlock(body...)}
	}
	for _, c := range []struct {
		name    string
		threads int64
		body    []ir.Stmt
		shared  bool // b over a
	}{
		{"barrier between", 32, []ir.Stmt{wr("a"), bar, rd("a"), bar, wr("b"), bar, rd("b")}, true},
		{"no barrier after a's last read", 32, []ir.Stmt{wr("a"), bar, rd("a"), wr("b"), bar, rd("b")}, false},
		{"barrier in a loop", 32, []ir.Stmt{wr("a"), bar, rd("a"), loop(bar), wr("b"), bar, rd("b")}, false},
		{"barrier under an if", 32, []ir.Stmt{wr("a"), bar, rd("a"), guard(bar), wr("b"), bar, rd("b")}, false},
		{"both in one loop", 32, []ir.Stmt{loop(wr("a"), bar, rd("a"), bar, wr("b"), bar, rd("b"))}, false},
		{"in two loops", 32, []ir.Stmt{loop(wr("a"), bar, rd("a")), bar, loop(wr("b"), bar, rd("b"))}, true},
		{"one thread, no barrier", 1, []ir.Stmt{wr("a"), rd("a"), wr("b"), rd("b")}, true},
		{"one thread, one loop", 1, []ir.Stmt{loop(wr("a"), rd("a"), wr("b"), rd("b"))}, false},
		{"a never used", 32, []ir.Stmt{wr("b"), bar, rd("b")}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			body := ir.Stmt(ir.MakeBlock(c.body...))
			for _, n := range []string{"b", "a"} {
				body = &ir.Allocate{Name: n, T: ir.Float32, Memory: ir.GPUShared, Extents: []ir.Expr{ir.Int(4)}, Body: body}
			}
			k := &ir.Kernel{Name: "k", Block: [3]ir.Expr{ir.Int(c.threads), ir.Int(1), ir.Int(1)}, Body: body,
				Allocs: []ir.KernelAlloc{
					{Func: "a", T: ir.Float32, Memory: ir.GPUShared, Elems: 4},
					{Func: "b", T: ir.Float32, Memory: ir.GPUShared, Elems: 4},
				}}
			got := layoutShared(k)
			wantB, wantTotal := int64(16), int64(32)
			if c.shared {
				wantB, wantTotal = 0, 16
			}
			if got.Allocs[0].Offset != 0 || got.Allocs[1].Offset != wantB || got.SharedBytes != wantTotal {
				t.Errorf("a at %d, b at %d, pool %d; want 0, %d, %d", got.Allocs[0].Offset, got.Allocs[1].Offset, got.SharedBytes, wantB, wantTotal)
			}
			if k.SharedBytes != 0 || k.Allocs[1].Offset != 0 {
				t.Error("layoutShared changed its argument")
			}
		})
	}
}

// TestPackShared checks the first-fit packing: widest first, aligned, and
// reusing only the bytes of slots that do not conflict.
func TestPackShared(t *testing.T) {
	slots := []ir.SharedSlot{{Bytes: 3, Align: 1}, {Bytes: 8, Align: 8}, {Bytes: 6, Align: 2}, {Bytes: 4, Align: 4}}
	// No reuse: 8 (align 8) at 0, 4 at 8, 6 at 12, 3 at 18.
	offs, total := ir.PackShared(slots, nil)
	if want := []int64{18, 0, 12, 8}; !slices.Equal(offs, want) || total != 21 {
		t.Errorf("no reuse: %v, %d; want %v, 21", offs, total, want)
	}
	// Only slots 1 and 3 conflict: 8 at 0, 4 at 8, 6 at 0, 3 at 0.
	offs, total = ir.PackShared(slots, func(i, j int) bool { return i+j == 4 && i != j })
	if want := []int64{0, 0, 0, 8}; !slices.Equal(offs, want) || total != 12 {
		t.Errorf("reuse: %v, %d; want %v, 12", offs, total, want)
	}
}
