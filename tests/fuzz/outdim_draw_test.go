package fuzz

import "testing"

// TestOutputDimsDrawn checks that the program generator uses the output
// buffer's shape (Func.Width, Height, Channels, Dim(i).Min, Extent, Max)
// in definitions, and that such programs run right against the
// evaluator, as progfuzz runs them.
func TestOutputDimsDrawn(t *testing.T) {
	kinds, classes := map[string]int{}, map[string]int{}
	progs, ran := 0, 0
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
		if ran >= 60 {
			continue
		}
		ran++
		r := Run(c, Options{Verify: true})
		classes[r.Class.String()]++
		if r.Class.IsDefect() {
			t.Errorf("program %d of seed 11 (gpu %v): %s %s: %s", i, c.GPU, r.Class, r.Code, r.Msg)
		}
	}
	t.Logf("%d of 400 programs use the output's shape %v; %d of them run: %v", progs, kinds, ran, classes)
	for _, k := range []string{"width", "height", "ext", "min", "max"} {
		if kinds[k] == 0 {
			t.Errorf("no program uses the output's %s (of 400)", k)
		}
	}
}
