// Command tensorproduct runs the gather / tensor-product / scatter pipeline
// of Halide issue #8427 under the issue's schedules A, B and C and checks
// each against a plain-Go reference.
//
// This version runs on the CPU: GPU block loops become parallel loops and
// thread loops serial loops (see apps/algo/tpschedules.go), so the numbers
// it prints are CPU times, useful only to compare schedules on this
// machine. The GPU lowering (shared memory sized by the block's union,
// barriers, CUDA) is the next step of the project.
//
//	go run ./apps/tensorproduct [-schedule A|B|C|all] [-nest] [-stmt]
package main

import (
	"flag"
	"fmt"
	"math/rand"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/gohalide/gohalide/apps/algo"
	"github.com/gohalide/gohalide/halide"
)

func main() {
	schedule := flag.String("schedule", "all", "schedule to run: A, B, C or all")
	channels := flag.Int("channels", 64, "input and output channels (C = M)")
	offsets := flag.Int("offsets", 3, "kernel offsets (N)")
	pairs := flag.Int("pairs", 1000, "pairs per offset (maxPos)")
	points := flag.Int("points", 2000, "input and output points")
	nest := flag.Bool("nest", false, "print each schedule's loop nest")
	stmt := flag.Bool("stmt", false, "print each schedule's lowered statement")
	seed := flag.Int64("seed", 1, "random seed of the inputs")
	flag.Parse()

	schedules := []struct {
		name, what string
		apply      func(*algo.TensorProduct)
	}{
		{"A", "GatherWeight at Product's c1, inside the thread loops", func(t *algo.TensorProduct) { t.ScheduleA(algo.IssueFactors) }},
		{"B", "GatherWeight at the block loop m", func(t *algo.TensorProduct) { t.ScheduleB(algo.IssueFactors) }},
		{"C", "c1 between blocks and threads; GatherWeight at c1", func(t *algo.TensorProduct) { t.ScheduleC(algo.IssueFactors) }},
	}
	fmt.Printf("tensor product (Halide #8427) on the CPU: C = M = %d channels, %d offsets x %d pairs, %d points\n\n",
		*channels, *offsets, *pairs, *points)
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "schedule\tGatherWeight allocation\tcheck\tmax rel err\tCPU ms\t")
	failed := false
	for _, s := range schedules {
		if *schedule != "all" && !strings.EqualFold(*schedule, s.name) {
			continue
		}
		t := algo.NewTensorProduct(*channels, *channels, *offsets, *pairs, *points, *points)
		s.apply(t)
		p := halide.NewPipeline(t.Out())
		l, err := p.Lower()
		if err != nil {
			fmt.Fprintf(tw, "%s\t-\t%v\t\t\t\n", s.name, err)
			failed = true
			continue
		}
		if *nest {
			fmt.Printf("schedule %s (%s), loop nest:\n%s\n", s.name, s.what, l.LoopNest)
		}
		if *stmt {
			fmt.Printf("schedule %s, lowered statement:\n%s\n", s.name, l)
		}
		t.Inputs(rand.New(rand.NewSource(*seed)))
		start := time.Now()
		out, err := t.Run(p)
		elapsed := time.Since(start)
		check, rel := "ok", 0.0
		if err == nil {
			rel, err = t.Check(out)
		}
		if err != nil {
			check, failed = err.Error(), true
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%.2g\t%.1f\t\n", s.name, allocation(l.String(), "GatherWeight"), check, rel, float64(elapsed.Microseconds())/1000)
	}
	tw.Flush()
	fmt.Printf("\ncheck: |got - want| <= %g * max(1, |want|) against a float64 plain-Go reference\n", algo.Tol)
	if failed {
		os.Exit(1)
	}
}

// allocation returns the allocate line of f in a lowered statement.
func allocation(stmt, f string) string {
	for _, line := range strings.Split(stmt, "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "allocate "+f+"[") {
			return line
		}
	}
	return "(inlined)"
}
