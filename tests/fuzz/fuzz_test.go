package fuzz

import (
	"context"
	"math/rand"
	"strings"
	"testing"
	"time"

	"github.com/gohalide/gohalide/halide"
)

// quickSeed and quickN are the seeded quick run of `go test ./...`: the
// same schedules every time (a case depends only on the seed and its
// index), a few seconds on two cores.
const (
	quickSeed = 1
	quickN    = 400
)

// knownFailures are schedules of the quick run that fail because of open
// library bugs, by index, with the bug class (see /tmp/fuzz_findings.md
// of the run that found them). The quick run skips them, so that CI stays
// green while the bug is open; delete an entry once its bug is fixed
// (TestQuickKnownFailuresStillFail says when).
var knownFailures = map[int]string{}

// TestQuick runs the seeded quick run: it fails on any wrong result, panic,
// internal error or timeout, and logs the rejections at Realize (defects
// unless they depend on the data, which the fuzzer's inputs avoid).
func TestQuick(t *testing.T) {
	d := &Driver{Seed: quickSeed, Algos: Algos, Opt: Options{Verify: true, Timeout: 20 * time.Second},
		Workers: 2, MinimizeBudget: 60, MinimizePerKey: 1, Skip: knownFailures}
	d.Run(0, quickN)
	var sb strings.Builder
	d.WriteTable(&sb)
	t.Logf("schedfuzz -seed %d -n %d:\n%s", quickSeed, quickN, sb.String())
	tot := d.Total()
	n := 0
	for _, v := range tot {
		n += v
	}
	if ran := n - tot[RejectLower] - tot[RejectSize]; ran*100 < 30*n {
		t.Errorf("only %d of %d schedules ran (the generator should make at least 30%% legal)", ran, n)
	}
	for _, f := range d.Findings() {
		switch f.Class {
		case Wrong, Panic, Internal, Timeout:
			t.Errorf("%s (%d): schedules %v\n%s", f.Class, f.Count, d.Failures[f.Class], f.Repro)
		default:
			t.Logf("%s (%d), a defect unless data dependent:\n%s", f.Class, f.Count, f.Repro)
		}
	}
}

// TestQuickKnownFailuresStillFail says which known failures have been
// fixed, so that their skip entries can go.
func TestQuickKnownFailuresStillFail(t *testing.T) {
	for i, why := range knownFailures {
		c := MakeCase(quickSeed, i, Algos)
		r := Run(c, Options{Verify: true})
		if !r.Class.IsDefect() {
			t.Errorf("schedule %d (%s) now gives %s: remove it from knownFailures", i, why, r.Class)
		}
	}
}

// TestDeterministic checks that a case depends only on the seed and its
// index, and that a schedule prints and replays.
func TestDeterministic(t *testing.T) {
	for i := 0; i < 50; i++ {
		a, b := MakeCase(7, i, Algos), MakeCase(7, i, Algos)
		if a.Sched.JSON() != b.Sched.JSON() || a.Seed != b.Seed || a.Algo != b.Algo {
			t.Fatalf("case %d differs between two draws", i)
		}
		r := Run(a, Options{})
		text := Repro(a, r, len(a.Sched))
		c, err := ParseRepro(text)
		if err != nil {
			t.Fatal(err)
		}
		if c.Sched.JSON() != a.Sched.JSON() {
			t.Fatalf("case %d does not survive Repro / ParseRepro", i)
		}
		if r2 := Run(c, Options{}); r2.Class != r.Class {
			t.Fatalf("case %d: %s, replayed %s", i, r.Class, r2.Class)
		}
	}
}

// TestReferences checks the fuzzer itself: every algorithm with its
// default schedule matches its reference on the CPU at a few sizes (a
// wrong reference would make every schedule look wrong).
func TestReferences(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	for _, a := range Algos {
		for k := 0; k < 3; k++ {
			sizes := a.Sizes(rng)
			inst := a.Build(sizes)
			mismatch, err := inst.Run(context.Background(), halide.NewPipeline(inst.Out), int64(k))
			if err != nil || mismatch != "" {
				t.Errorf("%s %v: err %v, mismatch %s", a.Name, sizes, err, mismatch)
			}
		}
	}
}

// TestMinimize checks that the minimizer keeps the failure and drops
// directives that do not matter, on a planted failure: a case whose
// algorithm is unknown fails with the same internal error whatever its
// schedule.
func TestMinimize(t *testing.T) {
	c := MakeCase(1, 3, Algos)
	c.Algo = "no such algorithm"
	r := Run(c, Options{})
	if r.Class != Internal {
		t.Fatalf("planted case: %s, want internal", r.Class)
	}
	r.Applied = c.Sched
	m, mr := Minimize(c, r, Options{}, 100)
	if mr.Class != Internal || len(m.Sched) != 0 {
		t.Fatalf("minimized to %d directives (%s), want 0 (internal)", len(m.Sched), mr.Class)
	}
}

// TestCoverage checks that the generator uses every directive, tail
// strategy and memory type, compute_at of update stages and GPU and CPU
// schedules of every algorithm.
func TestCoverage(t *testing.T) {
	seen := map[string]int{}
	for i := 0; i < quickN; i++ {
		c := MakeCase(quickSeed, i, Algos)
		seen["algo "+c.Algo+"/"+c.Target()]++
		for _, d := range c.Sched {
			seen[string(d.Op)]++
			switch d.Op {
			case OpSplit, OpTile, OpGPUTile, OpGPUTile1D, OpGPUTile3D:
				seen["tail "+tailName(d.Tail)]++
			case OpStoreIn:
				seen["mem "+memName(d.Mem)]++
			case OpComputeAt:
				if d.ConsumerStage > 0 {
					seen["compute_at an update stage"]++
				}
			case OpStoreAt:
				if d.Vars[0] != computeLoop(c.Sched, d.Func) {
					seen["store_at outside compute_at"]++
				}
			}
		}
	}
	want := []string{string(OpSplit), string(OpFuse), string(OpReorder), string(OpTile), string(OpUnroll),
		string(OpVectorize), string(OpParallel), string(OpGPUBlocks), string(OpGPUThreads), string(OpGPULanes), string(OpGPUTile),
		string(OpGPUTile1D), string(OpGPUTile3D), string(OpAtomic), string(OpGPUSingleThread), string(OpComputeWith), string(OpComputeRoot), string(OpComputeInline), string(OpComputeAt),
		string(OpStoreRoot), string(OpStoreAt), string(OpStoreIn), string(OpIn), string(OpFoldStorage), string(OpAlignBounds), string(OpAlignExtent),
		string(OpHoistStorage), string(OpHoistRoot), string(OpRFactor),
		"store_at outside compute_at",
		"tail halide.TailAuto", "tail halide.GuardWithIf", "tail halide.ShiftInwards", "tail halide.RoundUp",
		"mem halide.Stack", "mem halide.Heap", "mem halide.Register", "mem halide.GPUShared",
		"compute_at an update stage"}
	for _, a := range Algos {
		want = append(want, "algo "+a.Name+"/cpu", "algo "+a.Name+"/gpu")
	}
	for _, w := range want {
		if seen[w] == 0 {
			t.Errorf("the first %d schedules never use %s", quickN, w)
		}
	}
	t.Logf("%v", seen)
}

// computeLoop is the loop of f's compute_at in s ("" if none).
func computeLoop(s Schedule, f string) string {
	for _, d := range s {
		if d.Op == OpComputeAt && d.Func == f {
			return d.Vars[0]
		}
	}
	return ""
}
