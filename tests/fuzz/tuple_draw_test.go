package fuzz

import (
	"strings"
	"testing"
)

// TestTupleUpdatesDrawn checks that the program generator draws Tuple
// Funcs with PlusEq, TimesEq, MinEq, MaxEq and Is updates of Tuples, that
// the schedule generator rfactors some of those updates, and that such
// programs run right against the evaluator, as progfuzz runs them.
func TestTupleUpdatesDrawn(t *testing.T) {
	ops, classes := map[string]int{}, map[string]int{}
	progs, rfactored, ran := 0, 0, 0
	for i := 0; i < 400; i++ {
		c := MakeProgCase(13, i)
		if err := c.Prog.typeErr(); err != "" {
			t.Fatalf("program %d of seed 13: %s", i, err)
		}
		tuples := map[string]bool{}
		for _, f := range c.Prog.Funcs {
			if f.Tuple == nil {
				continue
			}
			tuples[f.Name] = true
			for _, u := range f.Updates {
				ops[u.Op]++
			}
		}
		if len(tuples) == 0 {
			continue
		}
		progs++
		rf := false
		for _, d := range c.Sched {
			if d.Op == OpRFactor && tuples[d.Func] {
				rf = true
			}
		}
		if rf {
			rfactored++
		}
		if ran >= 60 && !rf || ran >= 90 {
			continue
		}
		ran++
		r := Run(c, Options{Verify: true})
		classes[r.Class.String()]++
		if r.Class.IsDefect() {
			t.Errorf("program %d of seed 13 (gpu %v): %s %s: %s", i, c.GPU, r.Class, r.Code, r.Msg)
		}
	}
	t.Logf("%d of 400 programs have a Tuple Func, updates by op %v, %d rfactor one; %d run: %v", progs, ops, rfactored, ran, classes)
	for _, op := range []string{"+=", "*=", "max=", "min=", "="} {
		if ops[op] == 0 {
			t.Errorf("no Tuple update %s (of 400 programs)", op)
		}
	}
	if rfactored == 0 {
		t.Error("no schedule rfactors a Tuple update")
	}
	// The drawn schedules of programs seldom run (they are refused for
	// their other directives): rerun the rfactored Tuple updates with
	// their rfactors (and the splits and fuses of the updates they
	// rfactor) alone.
	rfClasses := map[string]int{}
	for i := 0; i < 1600; i++ {
		c := MakeProgCase(13, i)
		tuples := map[string]bool{}
		for _, f := range c.Prog.Funcs {
			if f.Tuple != nil {
				tuples[f.Name] = true
			}
		}
		var s Schedule
		rf := false
		for _, d := range c.Sched {
			base, _, _ := strings.Cut(d.Func, "_intm")
			if tuples[base] && (d.Op == OpRFactor || d.Stage > 0 && (d.Op == OpSplit || d.Op == OpFuse)) {
				s = append(s, d)
				rf = rf || d.Op == OpRFactor
			}
		}
		if !rf {
			continue
		}
		c.Sched = s
		r := Run(c, Options{Verify: true})
		rfClasses[r.Class.String()]++
		if r.Class.IsDefect() {
			t.Errorf("program %d of seed 13 (gpu %v), its Tuple rfactors alone: %s %s: %s", i, c.GPU, r.Class, r.Code, r.Msg)
		}
	}
	t.Logf("programs 0-1599 of seed 13 that rfactor a Tuple update, their rfactors alone: %v", rfClasses)
	if rfClasses["ok"] == 0 {
		t.Error("no rfactored Tuple update runs")
	}
}
