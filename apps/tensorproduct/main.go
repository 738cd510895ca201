// Command tensorproduct runs the gather / tensor-product / scatter pipeline
// of Halide issue #8427 under the issue's schedules A, B and C, prints
// each schedule's kernels with their shared and register allocations and
// barriers, and checks the result against a plain-Go reference.
//
// GatherWeight is the Func the issue is about: stored in GPU shared memory
// and computed inside the thread loops (schedule A), Halide sizes it per
// thread times every thread extent, 16384 floats; the union of what the
// block's threads need is 512, produced by the block together, with
// barriers. Schedule B computes it at the block loop (2048 floats), C moves
// the channel loop between the blocks and the threads (512).
//
// By default the kernels run on the GPU emulator (every thread of every
// block, checking shared-memory races, barriers and bounds), at a small
// size. -target=cuda runs them on an NVIDIA GPU (build with -tags cuda; see
// docs/gpu.md) and -bench=N times N runs there with CUDA events.
// -target=cpu runs CPU versions of the schedules instead (blocks as
// parallel loops, threads as serial loops).
//
//	go run ./apps/tensorproduct [-target=emulator|cuda|cpu] [-schedule=A|B|C|all] [-bench=N] [-json] [-stmt]
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"math/rand"
	"os"
	"strings"
	"time"

	"github.com/gohalide/gohalide/apps/algo"
	"github.com/gohalide/gohalide/gpu"
	"github.com/gohalide/gohalide/halide"
)

// result is one schedule's outcome, as printed and as JSON.
type result struct {
	Schedule string             `json:"schedule"`
	What     string             `json:"what"`
	Kernels  []gpu.KernelReport `json:"kernels"`
	Check    string             `json:"check"`
	// CheckSize is the size the check ran at, when not the one timed.
	CheckSize   string  `json:"check_size,omitempty"`
	MaxRelError float64 `json:"max_rel_error"`
	// Millis is the wall time of Realize on this machine (the emulator or
	// the CPU): it compares schedules here, it is not a GPU time.
	Millis float64 `json:"millis"`
	// Timing is the benchmark (-bench), with the clock it was taken with.
	Timing *gpu.Timing `json:"timing,omitempty"`
}

type schedule struct {
	name, what string
	gpu, cpu   func(*algo.TensorProduct, algo.TPFactors)
}

var schedules = []schedule{
	{"A", "GatherWeight at Product's c1, inside the thread loops (Halide: 16384 floats)",
		(*algo.TensorProduct).GPUScheduleA, (*algo.TensorProduct).ScheduleA},
	{"B", "GatherWeight at the block loop m (Halide: 2048 floats)",
		(*algo.TensorProduct).GPUScheduleB, (*algo.TensorProduct).ScheduleB},
	{"C", "c1 between blocks and threads; GatherWeight at c1 with its own threads (Halide: 512 floats)",
		(*algo.TensorProduct).GPUScheduleC, (*algo.TensorProduct).ScheduleC},
	{"best", "ours: one launch, 64 pairs x 64 channels per block, input rows and weights staged in shared, 4x4 register tiles",
		func(t *algo.TensorProduct, _ algo.TPFactors) { t.GPUScheduleBest() }, nil},
}

func main() {
	target := flag.String("target", "emulator", "where kernels run: emulator or cuda (GPU schedules), or cpu (CPU versions)")
	bench := flag.Int("bench", 0, "time this many runs after a warm-up (CUDA events on -target=cuda)")
	only := flag.String("schedule", "all", "schedule to run: A, B, C or all")
	channels := flag.Int("channels", 64, "input and output channels (C = M)")
	offsets := flag.Int("offsets", 2, "kernel offsets (N)")
	pairs := flag.Int("pairs", 300, "pairs per offset (maxPos)")
	points := flag.Int("points", 200, "input and output points")
	asJSON := flag.Bool("json", false, "print the results as JSON")
	stmt := flag.Bool("stmt", false, "print each schedule's lowered statement")
	seed := flag.Int64("seed", 1, "random seed of the inputs")
	flag.Parse()
	if *target != "emulator" && *target != "cpu" && *target != "cuda" {
		fmt.Fprintf(os.Stderr, "tensorproduct: unknown -target=%s (emulator, cuda or cpu)\n", *target)
		os.Exit(2)
	}

	var results []result
	failed := false
	for _, s := range schedules {
		if *only != "all" && !strings.EqualFold(*only, s.name) {
			continue
		}
		if *target == "cpu" && s.cpu == nil {
			continue
		}
		r := run(s, *target, *channels, *offsets, *pairs, *points, *seed, *bench, *stmt && !*asJSON)
		failed = failed || r.Check != "ok"
		results = append(results, r)
	}
	if *asJSON {
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(results); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	} else {
		fmt.Printf("tensor product (Halide #8427) on the %s: C = M = %d channels, %d offsets x %d pairs, %d points\n",
			*target, *channels, *offsets, *pairs, *points)
		for _, r := range results {
			fmt.Printf("\nschedule %s: %s\n", r.Schedule, r.What)
			if len(r.Kernels) > 0 {
				gpu.WriteTable(os.Stdout, r.Kernels)
			}
			fmt.Printf("check: %s (max relative error %.2g; first run %.0f ms wall clock)\n", r.Check, r.MaxRelError, r.Millis)
			if r.Timing != nil {
				fmt.Printf("time: median %.3f ms, min %.3f, max %.3f over %d runs (%s)\n", r.Timing.MedianMs, r.Timing.MinMs, r.Timing.MaxMs, r.Timing.Runs, r.Timing.Clock)
			}
		}
		fmt.Printf("\ncheck: |got - want| <= %g * max(1, |want|) against a float64 plain-Go reference\n", algo.Tol)
	}
	if failed {
		os.Exit(1)
	}
}

func run(s schedule, target string, channels, offsets, pairs, points int, seed int64, bench int, stmt bool) result {
	r := result{Schedule: s.name, What: s.what, Kernels: []gpu.KernelReport{}}
	t := algo.NewTensorProduct(channels, channels, offsets, pairs, points, points)
	if target == "cpu" {
		s.cpu(t, algo.IssueFactors)
	} else {
		s.gpu(t, algo.IssueFactors)
	}
	p := halide.NewPipeline(t.Out())
	if target == "cuda" {
		p.WithTarget(halide.CUDA)
	}
	if stmt {
		if l, err := p.Lower(); err == nil {
			fmt.Printf("schedule %s, lowered statement:\n%s\n", s.name, l)
		}
	}
	t.Inputs(rand.New(rand.NewSource(seed)))
	if bench > 0 {
		// Benchmarking: the plain-Go reference at this size would take
		// minutes, so the check runs the same schedule at a small size
		// (the emulator's) and the benchmark size is only timed.
		st := algo.NewTensorProduct(channels, channels, 2, 300, 200, 200)
		if target == "cpu" {
			s.cpu(st, algo.IssueFactors)
		} else {
			s.gpu(st, algo.IssueFactors)
		}
		sp := halide.NewPipeline(st.Out())
		if target == "cuda" {
			sp.WithTarget(halide.CUDA)
		}
		st.Inputs(rand.New(rand.NewSource(seed)))
		sout, err := st.Run(sp)
		if err == nil {
			r.MaxRelError, err = st.Check(sout)
		}
		r.Check, r.CheckSize = "ok", "2 offsets x 300 pairs, 200 points"
		if err != nil {
			r.Check = err.Error()
			return r
		}
		start := time.Now()
		out := t.NewOutput()
		tm, err := p.Benchmark(out, bench)
		r.Millis = float64(time.Since(start).Microseconds()) / 1000
		if err != nil {
			r.Check = "benchmark: " + err.Error()
		} else {
			r.Timing = &tm
		}
		if rep, err := p.Report(); err == nil {
			r.Kernels = rep
		}
		return r
	}
	start := time.Now()
	out, err := t.Run(p)
	r.Millis = float64(time.Since(start).Microseconds()) / 1000
	if err == nil {
		r.MaxRelError, err = t.Check(out)
	}
	r.Check = "ok"
	if err != nil {
		r.Check = err.Error()
	}
	if rep, err := p.Report(); err == nil {
		r.Kernels = rep
	}
	return r
}
