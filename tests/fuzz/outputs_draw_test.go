package fuzz

import (
	"fmt"
	"os"
	"testing"
)

// TestSeveralOutputsDrawn checks that the program generator draws
// pipelines with several outputs (two and three, Tuples among them, some
// read by another output, some an independent Func), that a program's
// case, drawn again, is the same (MakeProgCase depends only on the seed
// and the index), and that such programs run right against the
// evaluator, as progfuzz runs them. PROGFUZZ_REASONS=1 logs the refusals.
func TestSeveralOutputsDrawn(t *testing.T) {
	n, three, tuples, read, indep := 0, 0, 0, 0, 0
	runs := newDrawnRuns(80)
	for i := 0; i < 600; i++ {
		c := MakeProgCase(13, i)
		p := c.Prog
		if len(p.Outputs) == 0 {
			continue
		}
		n++
		if len(p.Outputs) == 2 {
			three++
		}
		for _, o := range p.Outputs {
			f := p.Func(o.Func)
			if f.Tuple != nil {
				tuples++
			}
			if calls(p.exprsOf(p.Funcs[0]), o.Func) || p.Funcs[0].Dims > 0 && readsOutput(p, o.Func) {
				read++
			} else {
				indep++
			}
		}
		if got := MakeProgCase(13, i).Prog.outputNames(); fmt.Sprint(got) != fmt.Sprint(p.outputNames()) {
			t.Errorf("program %d drawn twice has outputs %v and %v", i, p.outputNames(), got)
		}
		r, ok := runs.run(t, c, fmt.Sprintf("program %d of seed 13", i))
		if ok && os.Getenv("PROGFUZZ_REASONS") != "" && r.Class != OK {
			t.Logf("%d %s: %s", i, r.Class, r.Msg)
		}
	}
	t.Logf("%d of 600 programs have several outputs (%d three), %d Tuple outputs, %d outputs read by another, %d not; %v", n, three, tuples, read, indep, runs)
	if n < 600/20 || three == 0 || read == 0 || indep == 0 {
		t.Errorf("too few draws")
	}
	if runs.classes[OK.String()] == 0 {
		t.Errorf("no program with several outputs ran")
	}
}

// readsOutput says whether a Func of p other than name reads name.
func readsOutput(p *Prog, name string) bool {
	for _, f := range p.Funcs {
		if f.Name != name && calls(p.exprsOf(f), name) {
			return true
		}
	}
	return false
}
