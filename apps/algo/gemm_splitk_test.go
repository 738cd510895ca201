package algo_test

import (
	"errors"
	"math/rand"
	"strings"
	"testing"

	"github.com/gohalide/gohalide/apps/algo"
	"github.com/gohalide/gohalide/halide"
)

// A split factor that does not cut K into equal slices is refused by the
// constructor with a *SplitKError naming K and S.
func TestNewGEMMSplitKRefusesS(t *testing.T) {
	for _, c := range []struct{ K, S int }{
		{64, 3}, // 64 = 3*21 + 1
		{2048, 6},
		{64, 0},
		{64, -2},
		{8, 16}, // more slices than k values
	} {
		g, err := algo.NewGEMMSplitK(16, 16, c.K, c.S)
		var se *algo.SplitKError
		if !errors.As(err, &se) {
			t.Errorf("K=%d S=%d: got %v, %v; want a *SplitKError", c.K, c.S, g, err)
			continue
		}
		if g != nil || se.K != c.K || se.S != c.S || !strings.Contains(err.Error(), "divide K") {
			t.Errorf("K=%d S=%d: got %v, %+v (%q)", c.K, c.S, g, se, err)
		}
	}
}

// The split-K GEMM without a GPU schedule (on the CPU) computes the
// product, before Factor and after it (Partial inline, at its default
// level, and at the root), at sizes that are not powers of two.
func TestGEMMSplitKAlgorithm(t *testing.T) {
	for _, c := range []struct{ M, N, K, S int }{{5, 7, 12, 3}, {9, 4, 10, 10}, {3, 3, 6, 1}} {
		for _, sched := range []string{"unfactored", "factored", "factored_root"} {
			g, err := algo.NewGEMMSplitK(c.M, c.N, c.K, c.S)
			if err != nil {
				t.Fatal(err)
			}
			switch sched {
			case "factored":
				g.Factor()
			case "factored_root":
				g.Factor().ComputeRoot()
			}
			if sched != "unfactored" && g.Factor() != g.Partial {
				t.Errorf("a second Factor made another Func")
			}
			g.Inputs(rand.New(rand.NewSource(5)))
			out, err := g.Run(halide.NewPipeline(g.Out()))
			if err != nil {
				t.Fatalf("%+v %s: %v", c, sched, err)
			}
			if _, err := g.Check(out); err != nil {
				t.Errorf("%+v %s: %v", c, sched, err)
			}
		}
	}
}

// Every split factor of GEMMSplitKSchedules divides the K of apps/gemm
// (2048) and of the emulator's check and GPUCases (64).
func TestGEMMSplitKSchedulesDivideK(t *testing.T) {
	for _, s := range algo.GEMMSplitKSchedules {
		for _, k := range []int{64, 2048} {
			if _, err := s.New(64, 64, k); err != nil {
				t.Errorf("%s: %v", s.Name, err)
			}
		}
	}
}
