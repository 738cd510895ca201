// Package appkit is what the bundled apps share: one command line (the same
// flags, help, error messages and exit codes for every app), running each
// schedule on the chosen target, checking it against the plain-Go
// reference, timing it on a GPU, progress lines on stderr, and printing a
// table with a legend (or JSON, one schema for every app).
//
// An app is an App value and a main that calls Main:
//
//	var App = appkit.App{Name: "gemm", What: "...", Schedules: ...}
//	func main() { appkit.Main(App) }
//
// Exit status: 0 when every check passed; 1 when a check failed or the
// target cannot run here (-target=cuda in a build without -tags cuda, or
// no GPU); 2 for a usage mistake (an unknown flag, -schedule or -target).
package appkit

import (
	"github.com/gohalide/gohalide/apps/algo"
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
	// What says in a line what the schedule does (optional; printed above
	// its kernels with -kernels, and in the JSON).
	What string
	// Size says the benchmark size in words, e.g. "M=1024 K=2048 N=512";
	// SmallSize the size of Small (empty when Small is nil).
	Size, SmallSize string
	// Build makes the algorithm at the benchmark size and schedules it;
	// Small the same schedule at a size the emulator runs quickly (the
	// correctness check uses it on every target; it may be nil when the
	// benchmark size is small enough).
	Build, Small func() algo.Algorithm
	// CPU, when not nil, makes a CPU version of the schedule at the small
	// size (blocks as parallel loops, threads as serial loops), run by
	// -target=cpu. An app with no CPU versions has no cpu target.
	CPU func() algo.Algorithm
	// CPUSize says the size of CPU in words, when it is not SmallSize.
	CPUSize string
	// Bytes and Flops are the minimal DRAM traffic and arithmetic of one
	// run at the benchmark size (for GB/s, TFLOP/s and the floor).
	Bytes, Flops float64
	// T4Ms is the time the source reports on an NVIDIA T4, if any.
	T4Ms float64
	// BenchOnly marks schedules run only with -target=cuda (too big or
	// too slow for the emulator even at the small size).
	BenchOnly bool
}

// CPUAndGPU is an algorithm with a CPU and a GPU schedule of its own
// (bilateral_grid, local_laplacian).
type CPUAndGPU interface {
	algo.Algorithm
	CPUSchedule()
	GPUSchedule()
}

// Scheduled is a Build (or Small, or CPU) function of such an algorithm:
// newAlgo's algorithm under its GPU schedule, or its CPU schedule unless
// gpu.
func Scheduled[A CPUAndGPU](newAlgo func() A, gpu bool) func() algo.Algorithm {
	if gpu {
		return Build(newAlgo, A.GPUSchedule)
	}
	return Build(newAlgo, A.CPUSchedule)
}

// Build is a Build (or Small, or CPU) function: newAlgo's algorithm,
// scheduled by apply.
func Build[A algo.Algorithm](newAlgo func() A, apply func(A)) func() algo.Algorithm {
	return func() algo.Algorithm {
		a := newAlgo()
		apply(a)
		return a
	}
}

// Schedules is an app's Schedule of each of an algorithm's GPU schedules
// (algo.Conv1DGPUSchedules, ...) in their order, made by schedule; keep,
// when not nil, says which of them the app runs.
func Schedules[A any](list []algo.GPUSchedule[A], keep func(name string) bool, schedule func(name string, apply func(A)) Schedule) []Schedule {
	var out []Schedule
	for _, s := range list {
		if keep == nil || keep(s.Name) {
			out = append(out, schedule(s.Name, s.Apply))
		}
	}
	return out
}

// App is a bundled app.
type App struct {
	// Name is the command's name; What says what it computes.
	Name, What string
	Schedules  []Schedule
	// Kernels makes -kernels (each schedule's kernel table) the default.
	Kernels bool
}

// Result is one schedule's row, also its JSON: every app writes a list of
// these with -json (bench/compare.py reads them).
type Result struct {
	App      string `json:"app"`
	Schedule string `json:"schedule"`
	What     string `json:"what,omitempty"`
	// Size is the benchmark size (Schedule.Size); CheckSize the size the
	// check ran at (Schedule.SmallSize, or Size when there is no small one).
	Size      string `json:"size"`
	Target    string `json:"target"`
	CheckSize string `json:"check_size"`
	// Kernels is the report of the last run: the check's on the emulator
	// and the CPU, the benchmark's on CUDA.
	Kernels []halide.KernelReport `json:"kernels"`
	// Registers per thread of each kernel, by kernel name; RegistersFrom
	// says who counted them ("ptxas" or "driver"); absent when not counted.
	// The driver's are those of Kernels[].Compiled.
	Registers     map[string]int `json:"registers,omitempty"`
	RegistersFrom string         `json:"registers_from,omitempty"`
	// Ptxas is what ptxas -v reports for each kernel, by kernel name
	// (registers, stack frame, spill stores and loads, shared bytes), when
	// nvcc ran it on this machine; absent when not measured (-no-ptxas,
	// no nvcc, or -target=cuda, where the driver measures the compiled
	// kernels: Kernels[].Compiled).
	Ptxas map[string]halide.PtxasInfo `json:"ptxas,omitempty"`
	// Check is "ok" or what went wrong; MaxRelError is the largest
	// |got - want| / max(1, |want|) of the check.
	Check       string  `json:"check"`
	MaxRelError float64 `json:"max_rel_error"`
	// WallMs is the wall time of the check's Realize on this machine
	// (compiling included): it compares schedules on the emulator; it is
	// not a GPU time.
	WallMs float64 `json:"wall_ms"`
	// Timing is the benchmark on CUDA, at Size; GBps, TFlops and
	// FloorFrac follow from it (its event-timed median) and Schedule.Bytes
	// and Flops. It also carries the back-to-back time per run
	// (timing.back_to_back_ms and the other back_to_back_ fields: runs
	// queued one after the other between one pair of events, as PyTorch's
	// CUDA graph times them), which bench/compare.py sets beside PyTorch's
	// graph time.
	Timing    *halide.Timing `json:"timing,omitempty"`
	GBps      float64        `json:"gbps,omitempty"`
	TFlops    float64        `json:"tflops,omitempty"`
	FloorFrac float64        `json:"floor_fraction,omitempty"`
	// T4Ms is the source's time on an NVIDIA T4 (Schedule.T4Ms).
	T4Ms float64 `json:"t4_ms,omitempty"`
}
