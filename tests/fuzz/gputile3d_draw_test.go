package fuzz

import "testing"

// TestGPUTile3DDrawn checks that the schedule generator draws GPUTile3D
// for the GPU kernels of three loops (the programs of three dimensions;
// schedfuzz's 3-D algorithms), and that some such cases run right.
func TestGPUTile3DDrawn(t *testing.T) {
	progs, algos, ran := 0, 0, 0
	classes := map[string]int{}
	run := func(c Case) {
		if ran >= 20 {
			return
		}
		ran++
		r := Run(c, Options{Verify: true})
		classes[r.Class.String()]++
		if r.Class.IsDefect() {
			t.Errorf("%s case %d of seed %d: %s %s: %s", c.Algo, c.Index, c.RunSeed, r.Class, r.Code, r.Msg)
		}
	}
	has := func(c Case) bool {
		for _, d := range c.Sched {
			if d.Op == OpGPUTile3D {
				return true
			}
		}
		return false
	}
	for i := 0; i < 400; i++ {
		if c := MakeProgCase(7, i); has(c) {
			progs++
			run(c)
		}
		if c := MakeCase(7, i, Algos); has(c) {
			algos++
			run(c)
		}
	}
	t.Logf("GPUTile3D in %d of 400 program cases, %d of 400 algorithm cases; %d run: %v", progs, algos, ran, classes)
	if progs == 0 {
		t.Error("no program case draws GPUTile3D")
	}
}
