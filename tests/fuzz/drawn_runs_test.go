package fuzz

import (
	"fmt"
	"testing"
)

// drawnRuns runs the first limit cases that draw a feature (the draw tests
// count the draws of every case, and run a few) and counts the outcomes.
type drawnRuns struct {
	limit, ran int
	classes    map[string]int
}

func newDrawnRuns(limit int) *drawnRuns { return &drawnRuns{limit: limit, classes: map[string]int{}} }

// run runs c, named what in a failure, unless limit cases ran already (ok
// false); a defect fails the test.
func (d *drawnRuns) run(t *testing.T, c Case, what string) (r Result, ok bool) {
	t.Helper()
	if d.ran >= d.limit {
		return Result{}, false
	}
	d.ran++
	r = Run(c, Options{Verify: true})
	d.classes[r.Class.String()]++
	if r.Class.IsDefect() {
		t.Errorf("%s (gpu %v): %s %s: %s", what, c.GPU, r.Class, r.Code, r.Msg)
	}
	return r, true
}

// String says how many ran and their outcomes.
func (d *drawnRuns) String() string { return fmt.Sprintf("%d of them run: %v", d.ran, d.classes) }
