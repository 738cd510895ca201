package halide

import (
	"context"
	"fmt"
	"time"

	"github.com/gohalide/gohalide/cpu"
	"github.com/gohalide/gohalide/emulator"
	"github.com/gohalide/gohalide/ir"
	"github.com/gohalide/gohalide/report"
)

// Target says where Realize runs a pipeline's GPU kernels. The host part
// of a pipeline always runs on the CPU.
type Target int

// The targets.
const (
	// Emulator runs kernels on the CPU with GPU semantics, checking
	// shared-memory races, barriers and bounds (the default).
	Emulator Target = iota
	// CUDA runs kernels on an NVIDIA GPU. It needs a build with
	// -tags cuda (see docs/gpu.md); otherwise Realize returns an error
	// saying so.
	CUDA
)

func (t Target) String() string {
	switch t {
	case Emulator:
		return "emulator"
	case CUDA:
		return "cuda"
	}
	return fmt.Sprintf("Target(%d)", int(t))
}

// checkTarget returns an ErrBadArgument error for a Target that is not
// one of the targets.
func checkTarget(t Target) error {
	if t == Emulator || t == CUDA {
		return nil
	}
	return ir.Errorf(ir.ErrBadArgument, "", "target", "%s is not a target", t).WithLegal("Emulator or CUDA")
}

// ParseTarget returns the target called "emulator" or "cuda".
func ParseTarget(s string) (Target, error) {
	switch s {
	case "emulator", "":
		return Emulator, nil
	case "cuda":
		return CUDA, nil
	}
	return Emulator, ir.Errorf(ir.ErrSchedule, "", "target", "unknown target %q", s).WithLegal("emulator or cuda")
}

// WithTarget sets where Realize runs the kernels and returns p. An unknown
// Target is an ErrBadArgument error of the next Compile or Realize.
func (p *Pipeline) WithTarget(t Target) *Pipeline {
	if p == nil {
		return nilPipeline("WithTarget")
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.target != t {
		p.target = t
		p.compiled = nil
	}
	return p
}

// launcher runs kernels: the emulator or a GPU. env (nil: the default) is
// the realization's stop flag and allocation limit.
type launcher interface {
	LaunchEnv(env *cpu.Env, k *ir.Kernel, grid, block [3]int, scalars, buffers map[string]any) error
}

func newLauncher(t Target, trace func(fn string, coords []int64, value float64), limits ir.DeviceLimits) (launcher, error) {
	if err := checkTarget(t); err != nil {
		return nil, err
	}
	if t == CUDA {
		return cudaDevice()
	}
	return &emulator.Emulator{Trace: trace, Limits: limits}, nil
}

// Benchmark realizes the pipeline into out once to warm up (compiling and,
// on a GPU, uploading the inputs), then runs more times and returns the
// median and spread. On the CUDA target the times are GPU times from CUDA
// events with the buffers resident on the device (with, in the
// BackToBack fields, the time per run of runs queued back to back, as
// PyTorch's CUDA graphs time them); on the emulator they are
// the wall clock of the CPU, which says nothing about GPU speed. runs must
// be at least 1.
func (p *Pipeline) Benchmark(out BufferRef, runs int) (Timing, error) {
	return p.BenchmarkContext(context.Background(), out, runs)
}

// BenchmarkContext is Benchmark stopping when ctx is done, with an
// ErrCanceled error as RealizeContext.
func (p *Pipeline) BenchmarkContext(ctx context.Context, out BufferRef, runs int) (t Timing, err error) {
	defer recoverInternal("Benchmark", &err)
	if p != nil && p.err == nil && p.multi != nil {
		return Timing{}, ir.Errorf(ir.ErrBadArgument, p.multi.funcs[0].fn.Name, "Benchmark", "Benchmark of a pipeline with %d outputs is not built", len(p.multi.funcs)).
			WithLegal("benchmark the pipeline of each output (NewPipeline(f))")
	}
	if runs < 1 {
		return Timing{}, ir.Errorf(ir.ErrBadArgument, "", "Benchmark", "Benchmark with %d runs", runs).WithLegal("at least 1 run")
	}
	c, err := p.compile(ctx)
	if err != nil {
		return Timing{}, err
	}
	env, release := cpu.NewEnv(ctx, p.opts.MaxAllocationBytes)
	defer release()
	if d, ok := c.launcher.(CUDADevice); ok {
		if err := c.runEnv(env, out); err != nil {
			return Timing{}, err
		}
		c.resident = true
		defer func() { c.resident = false }()
		return d.Benchmark(runs, func() error { return c.runEnv(env, out) })
	}
	if err := c.runEnv(env, out); err != nil {
		return Timing{}, err
	}
	ms := make([]float64, 0, runs)
	for i := 0; i < runs; i++ {
		start := time.Now()
		if err := c.runEnv(env, out); err != nil {
			return Timing{}, err
		}
		ms = append(ms, float64(time.Since(start).Nanoseconds())/1e6)
	}
	return report.NewTiming("emulator wall clock", ms), nil
}
