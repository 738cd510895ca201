package lower

import (
	"testing"

	"github.com/gohalide/gohalide/ir"
)

// TestBarriersOnEveryPath: a barrier counts as separating what comes
// before from what comes after only if every path runs it. s and u are
// shared; a statement reads s, then a loop or an if whose body writes and
// reads u (so the pass puts a barrier in it), then a statement writes s
// (write after read across threads): a barrier goes before it unless
// every path through the middle has one.
func TestBarriersOnEveryPath(t *testing.T) {
	read := &ir.Store{Buf: "out", Index: ir.Int(0), Value: &ir.Load{T: ir.Float32, Buf: "s", Index: ir.Int(1)}}
	write := &ir.Store{Buf: "s", Index: ir.Int(1), Value: ir.Const(ir.Float32, 2)}
	bar := ir.MakeBlock(&ir.Store{Buf: "u", Index: ir.Int(0), Value: ir.Const(ir.Float32, 1)},
		&ir.Store{Buf: "out", Index: ir.Int(1), Value: &ir.Load{T: ir.Float32, Buf: "u", Index: ir.Int(0)}})
	loop := func(ext ir.Expr) ir.Stmt {
		return &ir.For{Name: "k", Min: ir.Int(0), Extent: ext, Kind: ir.Serial, Body: bar}
	}
	n := ir.NewVar("n")
	for _, c := range []struct {
		name  string
		mid   ir.Stmt
		added int // barriers the pass adds
	}{
		{"loop of 3 iterations", loop(ir.Int(3)), 0},
		{"loop of n iterations (maybe none)", loop(n), 1},
		{"loop of max(n, 1) iterations", loop(ir.MaxE(n, ir.Int(1))), 0},
		{"if with a barrier on one side", &ir.IfThenElse{Cond: ir.LTE(n, ir.Int(4)), Then: bar}, 1},
		{"if with barriers on both sides", &ir.IfThenElse{Cond: ir.LTE(n, ir.Int(4)), Then: bar, Else: bar}, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := &barrierer{shared: map[string]bool{"s": true, "u": true}, local: map[string]bool{}, together: map[string]bool{}}
			out, _ := b.visit(ir.MakeBlock(read, c.mid, write), false)
			got := 0 // barriers between the middle and the write
			for _, x := range out.(*ir.Block).Stmts {
				if _, ok := x.(*ir.Barrier); ok {
					got++
				}
			}
			if got != c.added {
				t.Errorf("%d barriers added, want %d:\n%s", got, c.added, ir.StmtString(out))
			}
		})
	}
}

// TestBarriersProductionsInThreadLoops: a cooperative production of the
// shared s inside a thread loop at the block level, whose consumer reads
// nothing (a tail guard emptied it, as in the unrolled copies of
// sched-shared-race-tensorproduct), produced again by the next iteration
// of a serial loop around the thread loop, or by the next thread loop:
// the two productions deal s's points out to the threads differently, so
// a barrier must separate them (write after write), though nothing reads
// s in between.
func TestBarriersProductionsInThreadLoops(t *testing.T) {
	share := &ir.For{Name: "s.s0.__share", Min: ir.Int(0), Extent: ir.Int(2), Kind: ir.Serial,
		Body: &ir.Store{Buf: "s", Index: ir.NewVar("s.s0.__share"), Value: ir.Const(ir.Float32, 1)}}
	threads := &ir.For{Name: "f.s0.t", Min: ir.Int(0), Extent: ir.Int(2), Kind: ir.GPUThread,
		Body: ir.MakeBlock(
			&ir.ProducerConsumer{Func: "s", Producer: true, Body: share},
			&ir.ProducerConsumer{Func: "s", Producer: false, Body: ir.MakeBlock()})}
	for _, c := range []struct {
		name string
		s    ir.Stmt
	}{
		{"next iteration of a serial loop", &ir.For{Name: "f.s0.k", Min: ir.Int(0), Extent: ir.Int(3), Kind: ir.Serial, Body: threads}},
		{"next thread loop", ir.MakeBlock(threads, threads)},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := &barrierer{shared: map[string]bool{"s": true}, local: map[string]bool{}, together: map[string]bool{"s": true},
				shares: shareLoops{"s.s0.__share": {Func: "s"}}}
			out, _ := b.visit(c.s, false)
			n := 0
			ir.WalkStmt(out, func(x ir.Stmt) bool {
				if _, ok := x.(*ir.Barrier); ok {
					n++
				}
				return true
			}, nil)
			if n != 1 {
				t.Errorf("%d barriers, want 1 between the two productions of s:\n%s", n, ir.StmtString(out))
			}
		})
	}
}
