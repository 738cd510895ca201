package lower

import (
	"testing"

	"github.com/gohalide/gohalide/ir"
)

// TestShareLoopsUnionKeepsIndex: the kernels of two specialization cases
// have a share loop of the same name, with a flat index let in one and
// none in the other. The union the cooperative-production check reads
// must keep the index whatever the order of the records (a map): when it
// lost it, the check refused a legal schedule at random, or failed as an
// internal error after the pass (schedfuzz -seed 31, conv1d schedule
// 1138, 2 runs in 12).
func TestShareLoopsUnionKeepsIndex(t *testing.T) {
	const loop, index = "f.s0.__share", "f.s0.__index"
	st := &State{kernels: map[string]*ir.Kernel{}}
	for i, idx := range []string{index, "", "", ""} {
		name := "kernel_case" + string(rune('a'+i))
		st.kernels[name] = &ir.Kernel{Name: name, Shares: map[string]ir.ShareLoop{loop: {Func: "f", Index: idx}}}
	}
	for run := 0; run < 50; run++ {
		s := st.shareLoops()
		if !s.is(loop) || !s.isIndex(index) {
			t.Fatalf("run %d: shareLoops() = %v, want %s with index %s", run, s, loop, index)
		}
	}
}
