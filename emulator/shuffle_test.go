package emulator_test

import (
	"strings"
	"testing"

	"github.com/gohalide/gohalide/emulator"
	"github.com/gohalide/gohalide/ir"
)

// A warp shuffle reads the value of the thread delta lanes up in its warp
// (lanes are linear thread ids mod 32), or the thread's own past the
// warp's last thread: a block of 2 x 20 threads is one full warp and one
// of 8.
func TestShuffleDown(t *testing.T) {
	defer checkNoLeak(t)()
	lin := ir.AddE(tid(0), ir.MulE(tid(1), ir.Int(20)))
	k := &ir.Kernel{
		Name: "shfl", Grid: dims(ir.Int(2), ir.Int(1), ir.Int(1)), Block: dims(ir.Int(20), ir.Int(2), ir.Int(1)),
		Args: []ir.KernelArg{buf("out", ir.Int32, true)},
		Body: &ir.LetStmt{Name: "s", Value: ir.ShuffleDown(ir.AddE(ir.MulE(lin, ir.Int(10)), ir.NewVar(ir.BlockID[0])), 3),
			Body: st("out", ir.AddE(lin, ir.MulE(ir.NewVar(ir.BlockID[0]), ir.Int(40))), ir.NewVar("s"))},
	}
	out := make([]int32, 80)
	var e emulator.Emulator
	if err := e.Run(launchOf(k), nil, map[string]any{"out": out}); err != nil {
		t.Fatal(err)
	}
	for b := 0; b < 2; b++ {
		for i := 0; i < 40; i++ {
			src := i + 3
			if i/32 != src/32 || src >= 40 {
				src = i // past the warp's last thread: its own value
			}
			if got, want := out[b*40+i], int32(10*src+b); got != want {
				t.Errorf("block %d thread %d: %d, want %d", b, i, got, want)
			}
		}
	}
}

// A shuffle that some threads of a warp skip is an error naming both.
func TestShuffleDivergent(t *testing.T) {
	defer checkNoLeak(t)()
	k := &ir.Kernel{
		Name: "diverge", Grid: dims(ir.Int(1), ir.Int(1), ir.Int(1)), Block: dims(ir.Int(32), ir.Int(1), ir.Int(1)),
		Args: []ir.KernelArg{buf("out", ir.Int32, true)},
		Body: &ir.IfThenElse{Cond: ir.LTE(tid(0), ir.Int(16)),
			Then: &ir.LetStmt{Name: "s", Value: ir.ShuffleDown(tid(0), 1), Body: st("out", tid(0), ir.NewVar("s"))}},
	}
	var e emulator.Emulator
	ee := asEmuError(t, e.Run(launchOf(k), nil, map[string]any{"out": make([]int32, 32)}), emulator.DivergentShuffle)
	if !strings.Contains(ee.Msg, "ended") || ee.Thread != [3]int{16, 0, 0} {
		t.Errorf("error %+v", ee)
	}
	t.Log(ee)
}
