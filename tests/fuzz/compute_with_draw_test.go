package fuzz

import "testing"

// TestComputeWithDrawn checks that the generators draw compute_with of
// update stages and along parallel or GPU loops (besides pure stages along
// serial loops), and that such cases run right: all of them run,
// and some must lower and run (ok), or the draw tests nothing.
func TestComputeWithDrawn(t *testing.T) {
	updates, gpu, cases := 0, 0, 0
	runs := newDrawnRuns(1000)
	for i := 0; i < 3000; i++ {
		for _, c := range []Case{MakeProgCase(19, i), MakeCase(19, i, Algos)} {
			n := 0
			for _, d := range c.Sched {
				if d.Op != OpComputeWith {
					continue
				}
				n++
				if d.Stage > 0 || d.ConsumerStage > 0 {
					updates++
				}
				if c.GPU {
					gpu++
				}
			}
			if n > 0 {
				cases++
				runs.run(t, c, "compute_with case")
			}
		}
	}
	t.Logf("compute_with in %d of 6000 cases: %d on an update stage, %d in GPU schedules; %v", cases, updates, gpu, runs)
	if updates == 0 || gpu == 0 {
		t.Error("no compute_with of an update stage, or none in a GPU schedule")
	}
	if runs.classes["ok"] == 0 {
		t.Error("no drawn compute_with case ran")
	}
}
