package appkit

import (
	"fmt"
	"io"
	"math/rand"
	"time"

	"github.com/gohalide/gohalide/apps/algo"
	"github.com/gohalide/gohalide/halide"
)

// runSchedule runs one schedule: compiled, run at the check size on the
// target (the CPU version on -target=cpu) and checked against the plain-Go
// reference; on CUDA then compiled and timed at the benchmark size. Each
// step over a second is announced on prog; -stmt and -cuda print on code.
// Off CUDA it also returns the pipeline that ran the check, for ptxas
// (nil when the check failed).
func runSchedule(app App, s Schedule, o options, code io.Writer, prog *progress) (Result, *halide.Pipeline) {
	label := app.Name + " " + s.Name
	if dup := len(app.Schedules) - len(scheduleNames(app)); dup > 0 {
		label += " (" + s.Size + ")"
	}
	r := Result{App: app.Name, Schedule: s.Name, What: s.What, Size: s.Size, Target: o.target, T4Ms: s.T4Ms, Kernels: []halide.KernelReport{}}
	t := halide.Emulator
	if o.target == "cuda" {
		t = halide.CUDA
	}
	build := s.Small
	r.CheckSize = s.SmallSize
	if build == nil {
		build, r.CheckSize = s.Build, s.Size
	}
	if o.target == "cpu" {
		build = s.CPU
	}
	a := build()
	algo.ForTarget(a, t)
	p := halide.NewPipeline(a.Out()).WithTarget(t)
	printCode(app, s, p, o, code)

	// The check, at the check size.
	start := time.Now()
	var err error
	prog.step(fmt.Sprintf("%s: compiling (%s)", label, o.target), func() { err = p.Compile() })
	var out halide.BufferRef
	if err == nil {
		a.Inputs(rand.New(rand.NewSource(o.seed)))
		prog.step(fmt.Sprintf("%s: running on the %s at %s", label, o.target, r.CheckSize), func() { out, err = a.Run(p) })
	}
	r.WallMs = float64(time.Since(start).Microseconds()) / 1e3
	if err == nil {
		prog.step(label+": checking against the plain-Go reference", func() { r.MaxRelError, err = a.Check(out) })
	}
	r.Check = "ok"
	if err != nil {
		r.Check = err.Error()
		return r, nil
	}
	if t != halide.CUDA {
		if rep, err := p.Report(); err == nil {
			r.Kernels = rep
		}
		return r, p
	}

	// The benchmark, at the benchmark size.
	b := s.Build()
	algo.ForTarget(b, t)
	bp := halide.NewPipeline(b.Out()).WithTarget(t)
	prog.step(fmt.Sprintf("%s: compiling (cuda) at %s", label, s.Size), func() { err = bp.Compile() })
	if err != nil {
		r.Check = "benchmark: " + err.Error()
		return r, nil
	}
	b.Inputs(rand.New(rand.NewSource(o.seed + 1)))
	bout := b.NewOutput()
	var tm halide.Timing
	prog.step(fmt.Sprintf("%s: %d timed runs at %s", label, o.bench, s.Size), func() { tm, err = bp.Benchmark(bout, o.bench) })
	if err != nil {
		r.Check = "benchmark: " + err.Error()
		return r, nil
	}
	r.Timing = &tm
	if rep, err := bp.Report(); err == nil {
		r.Kernels = rep
	}
	r.Registers, r.RegistersFrom = compiledRegisters(r.Kernels)
	if sec := tm.MedianMs / 1e3; sec > 0 {
		r.GBps = s.Bytes / sec / 1e9
		r.TFlops = s.Flops / sec / 1e12
		floor := max(s.Bytes/PeakBytesPerSec, s.Flops/PeakFlops)
		r.FloorFrac = floor / sec
	}
	return r, nil
}

// printCode prints the schedule's lowered statement (-stmt) and CUDA
// source (-cuda) on w (stdout, or stderr with -json).
func printCode(app App, s Schedule, p *halide.Pipeline, o options, w io.Writer) {
	if !o.stmt && !o.cuda {
		return
	}
	l, err := p.Lower()
	if err != nil {
		fmt.Fprintf(w, "%s %s: %v\n", app.Name, s.Name, err)
		return
	}
	if o.stmt {
		fmt.Fprintf(w, "%s %s, lowered statement:\n%s\n", app.Name, s.Name, l)
	}
	if o.cuda {
		src, err := l.CUDA()
		if err != nil {
			src = err.Error()
		}
		fmt.Fprintf(w, "%s %s, CUDA:\n%s\n", app.Name, s.Name, src)
	}
}
