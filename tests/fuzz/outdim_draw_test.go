package fuzz

import (
	"fmt"
	"testing"
)

// TestOutputDimsDrawn checks that the program generator uses the output
// buffer's shape (Func.Width, Height, Channels, Dim(i).Min, Extent, Max)
// in definitions, and that such programs run right against the
// evaluator, as progfuzz runs them.
func TestOutputDimsDrawn(t *testing.T) {
	kinds := map[string]int{}
	progs, runs := 0, newDrawnRuns(60)
	for i := 0; i < 400; i++ {
		c := MakeProgCase(11, i)
		found := false
		for _, e := range c.Prog.allExprs() {
			walkPExpr(e, func(x *PExpr) {
				if x.Op == "odim" {
					k := x.N
					if x.W {
						k = []string{"width", "height", "channels"}[x.R]
					}
					kinds[k]++
					found = true
				}
			})
		}
		if !found {
			continue
		}
		progs++
		runs.run(t, c, fmt.Sprintf("program %d of seed 11", i))
	}
	t.Logf("%d of 400 programs use the output's shape %v; %v", progs, kinds, runs)
	for _, k := range []string{"width", "height", "ext", "min", "max"} {
		if kinds[k] == 0 {
			t.Errorf("no program uses the output's %s (of 400)", k)
		}
	}
}
