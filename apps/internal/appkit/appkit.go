// Package appkit is what the bundled apps share: flags, running each
// schedule on the chosen target, checking it against the plain-Go
// reference, timing it on a GPU, and printing a table (or JSON).
package appkit

import (
	"encoding/json"
	"flag"
	"fmt"
	"math/rand"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/gohalide/gohalide/apps/algo"
	"github.com/gohalide/gohalide/gpu"
	"github.com/gohalide/gohalide/halide"
)

// H100 floors used for "fraction of the floor": the time the data movement
// or the arithmetic would take at the device's peak (FP32, no tensor cores).
const (
	PeakBytesPerSec = 3.0e12  // HBM3, 3.0 TB/s
	PeakFlops       = 66.9e12 // FP32 CUDA cores, 66.9 TFLOP/s
)

// Schedule is one schedule of an app at one size.
type Schedule struct {
	// Name as the source names it ("naive", "v1", ...) or ours.
	Name string
	// Size says the problem size in words, e.g. "M=1024 K=2048 N=512".
	Size string
	// Build makes the algorithm at the benchmark size and schedules it;
	// Small the same schedule at a size the emulator runs quickly (the
	// correctness check uses it on every target; it may be nil when the
	// benchmark size is small enough).
	Build, Small func() algo.Algorithm
	// Bytes and Flops are the minimal DRAM traffic and arithmetic of one
	// run at the benchmark size (for GB/s, TFLOP/s and the floor).
	Bytes, Flops float64
	// T4Ms is the time the source reports on an NVIDIA T4, if any.
	T4Ms float64
	// BenchOnly marks schedules run only with -target=cuda (too big or
	// too slow for the emulator even at the small size).
	BenchOnly bool
}

// App is a bundled app.
type App struct {
	Name, What string
	Schedules  []Schedule
}

// Result is one schedule's row, also its JSON.
type Result struct {
	App         string             `json:"app"`
	Schedule    string             `json:"schedule"`
	Size        string             `json:"size"`
	Target      string             `json:"target"`
	Kernels     []gpu.KernelReport `json:"kernels"`
	Registers   map[string]int     `json:"registers,omitempty"`
	Check       string             `json:"check"`
	CheckSize   string             `json:"check_size"`
	MaxRelError float64            `json:"max_rel_error"`
	Timing      *gpu.Timing        `json:"timing,omitempty"`
	GBps        float64            `json:"gbps,omitempty"`
	TFlops      float64            `json:"tflops,omitempty"`
	FloorFrac   float64            `json:"floor_fraction,omitempty"`
	T4Ms        float64            `json:"t4_ms,omitempty"`
}

// Main runs an app from the command line.
func Main(app App) {
	target := flag.String("target", "emulator", "where kernels run: emulator or cuda (build with -tags cuda)")
	only := flag.String("schedule", "all", "schedule to run (by name), or all")
	asJSON := flag.Bool("json", false, "print JSON")
	bench := flag.Int("bench", 50, "timed runs on -target=cuda (after a warm-up)")
	stmt := flag.Bool("stmt", false, "print each schedule's lowered statement")
	cuda := flag.Bool("cuda", false, "print each schedule's CUDA source")
	flag.Parse()
	t, err := halide.ParseTarget(*target)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	var results []Result
	failed := false
	for _, s := range app.Schedules {
		if *only != "all" && *only != s.Name {
			continue
		}
		if t == halide.Emulator && s.BenchOnly {
			continue
		}
		r := Run(app, s, t, *bench, *stmt, *cuda)
		failed = failed || r.Check != "ok"
		results = append(results, r)
	}
	if *asJSON {
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		enc.Encode(results)
	} else {
		fmt.Printf("%s: %s (target %s)\n\n", app.Name, app.What, t)
		WriteTable(os.Stdout, results)
		fmt.Printf("\ncheck: |got - want| <= %g * max(1, |want|) against a float64 plain-Go reference, at the check size\n", algo.Tol)
		if t == halide.CUDA {
			fmt.Printf("time: median of %d runs after a warm-up, CUDA events, buffers on the device; floor = max(bytes / %.1f TB/s, flops / %.1f TFLOP/s) of an H100\n", *bench, PeakBytesPerSec/1e12, PeakFlops/1e12)
		}
	}
	if failed {
		os.Exit(1)
	}
}

// Run runs one schedule: the check at the small size (the benchmark size if
// there is no small one), then on CUDA the benchmark.
func Run(app App, s Schedule, t halide.Target, bench int, stmt, cuda bool) Result {
	r := Result{App: app.Name, Schedule: s.Name, Size: s.Size, Target: t.String(), T4Ms: s.T4Ms, Kernels: []gpu.KernelReport{}}
	small := s.Small
	if small == nil {
		small = s.Build
	}
	a := small()
	p := halide.NewPipeline(a.Out()).WithTarget(t)
	if stmt || cuda {
		if l, err := p.Lower(); err == nil {
			if stmt {
				fmt.Printf("%s %s, lowered statement:\n%s\n", app.Name, s.Name, l)
			}
			if cuda {
				src, _ := l.CUDA()
				fmt.Printf("%s %s, CUDA:\n%s\n", app.Name, s.Name, src)
			}
		}
	}
	r.CheckSize = "small"
	if s.Small == nil {
		r.CheckSize = s.Size
	}
	a.Inputs(rand.New(rand.NewSource(1)))
	out, err := a.Run(p)
	if err == nil {
		r.MaxRelError, err = a.Check(out)
	}
	r.Check = "ok"
	if err != nil {
		r.Check = err.Error()
		return r
	}
	if t != halide.CUDA {
		if rep, err := p.Report(); err == nil {
			r.Kernels = rep
		}
		r.Registers = ptxasRegisters(p)
		return r
	}
	// The benchmark at the benchmark size.
	b := s.Build()
	bp := halide.NewPipeline(b.Out()).WithTarget(t)
	b.Inputs(rand.New(rand.NewSource(2)))
	bout := b.NewOutput()
	tm, err := bp.Benchmark(bout, bench)
	if err != nil {
		r.Check = "benchmark: " + err.Error()
		return r
	}
	r.Timing = &tm
	if rep, err := bp.Report(); err == nil {
		r.Kernels = rep
	}
	r.Registers = deviceRegisters(bp)
	sec := tm.MedianMs / 1e3
	if sec > 0 {
		r.GBps = s.Bytes / sec / 1e9
		r.TFlops = s.Flops / sec / 1e12
		floor := max(s.Bytes/PeakBytesPerSec, s.Flops/PeakFlops)
		r.FloorFrac = floor / sec
	}
	return r
}

// WriteTable prints results as a table.
func WriteTable(w *os.File, rs []Result) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	timed := false
	for _, r := range rs {
		timed = timed || r.Timing != nil
	}
	head := "schedule\tsize\tkernels\tshared bytes\tregisters\tbarriers\tcheck"
	if timed {
		head += "\tmedian us\tGB/s\tTFLOP/s\tof floor\tT4 (source) ms"
	}
	fmt.Fprintln(tw, head)
	for _, r := range rs {
		var shared int64
		bars := 0
		for _, k := range r.Kernels {
			shared += k.SharedBytes
			bars += k.Barriers
		}
		regs := "-"
		if len(r.Registers) > 0 {
			var parts []string
			for _, k := range r.Kernels {
				if n, ok := r.Registers[k.Name]; ok {
					parts = append(parts, fmt.Sprint(n))
				}
			}
			regs = strings.Join(parts, "/")
		}
		check := r.Check
		if check == "ok" && r.CheckSize == "small" {
			check = "ok (small size)"
		}
		row := fmt.Sprintf("%s\t%s\t%d\t%d\t%s\t%d\t%s", r.Schedule, r.Size, len(r.Kernels), shared, regs, bars, check)
		if timed {
			if r.Timing != nil {
				t4 := "-"
				if r.T4Ms > 0 {
					t4 = fmt.Sprintf("%.3g", r.T4Ms)
				}
				row += fmt.Sprintf("\t%.1f\t%.0f\t%.2f\t%.0f%%\t%s", r.Timing.MedianMs*1e3, r.GBps, r.TFlops, 100*r.FloorFrac, t4)
			} else {
				row += "\t\t\t\t\t"
			}
		}
		fmt.Fprintln(tw, row)
	}
	tw.Flush()
}

// ptxasRegisters returns the registers per thread of each kernel as ptxas
// reports them, when nvcc is installed (nil otherwise).
func ptxasRegisters(p *halide.Pipeline) map[string]int {
	if _, ok := gpu.NVCCPath(); !ok {
		return nil
	}
	l, err := p.Lower()
	if err != nil || len(l.Kernels()) == 0 {
		return nil
	}
	src, err := l.CUDA()
	if err != nil {
		return nil
	}
	info, err := gpu.CheckWithNVCC(src)
	if err != nil {
		return nil
	}
	out := map[string]int{}
	for _, k := range l.Kernels() {
		ci, err := gpu.CUDAInfo(k)
		if err != nil {
			continue
		}
		if pi, ok := info[ci.Name]; ok {
			out[k.Name] = pi.Registers
		}
	}
	return out
}
