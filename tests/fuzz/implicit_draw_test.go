package fuzz

import (
	"fmt"
	"strings"
	"testing"
)

// TestImplicitDrawn checks that the program generator draws Implicit
// Funcs (halide.Implicit on the left of their definitions and in their
// calls, halide.ImplicitVar in their schedules) and that such programs run
// right against the evaluator, as progfuzz runs them.
func TestImplicitDrawn(t *testing.T) {
	seen := map[string]int{}
	progs, runs := 0, newDrawnRuns(60)
	for i := 0; i < 400; i++ {
		c := MakeProgCase(17, i)
		found := false
		for _, f := range c.Prog.Funcs {
			if !f.Implicit {
				continue
			}
			found = true
			seen["Implicit Funcs"]++
			for s := 0; s <= len(f.Updates); s++ {
				if f.implicitLHS(s) {
					seen[map[bool]string{true: "pure Define(x, Implicit)", false: "update Define(a, Implicit)"}[s == 0]]++
				}
			}
			for _, e := range c.Prog.exprsOf(f) {
				walkPExpr(e, func(x *PExpr) {
					if x.I {
						seen["calls with Implicit"]++
					}
				})
			}
		}
		for _, d := range c.Sched {
			for _, v := range d.Vars {
				if v == "_0" || v == "_1" {
					seen["directives on an implicit Var"]++
				}
			}
		}
		if !found {
			continue
		}
		progs++
		r, ok := runs.run(t, c, fmt.Sprintf("program %d of seed 17", i))
		if !ok {
			continue
		}
		// The programs' uses of Implicit are all legal (Halide's): a
		// refusal of one is a defect the classes do not show.
		if r.Code == "definition" && strings.Contains(r.Msg, "implicit Vars") {
			t.Errorf("program %d of seed 17: a legal use of Implicit refused: %s", i, r.Msg)
		}
	}
	t.Logf("%d of 400 programs have an Implicit Func: %v; %v", progs, seen, runs)
	for _, k := range []string{"pure Define(x, Implicit)", "update Define(a, Implicit)", "calls with Implicit", "directives on an implicit Var"} {
		if seen[k] == 0 {
			t.Errorf("no %s (of 400 programs)", k)
		}
	}
}
