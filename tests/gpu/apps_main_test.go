package gpu_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gohalide/gohalide/apps/algo"
	"github.com/gohalide/gohalide/cfamily"
	"github.com/gohalide/gohalide/halide"
	"github.com/gohalide/gohalide/ir"
	"github.com/gohalide/gohalide/report"
)

// The apps apps/depthwise, apps/conv1d and apps/gemm: each is built and run
// as a user runs it (on the emulator, -json), and must list the schedules
// the issue asks for, each checked ok at its small size; the fast
// schedules are also run at other sizes and tilings, and their kernels at
// the benchmark sizes compiled with nvcc.

// appsMainResult is the part of appkit.Result the test reads.
type appsMainResult struct {
	App      string            `json:"app"`
	Schedule string            `json:"schedule"`
	Size     string            `json:"size"`
	Target   string            `json:"target"`
	Check    string            `json:"check"`
	T4Ms     float64           `json:"t4_ms"`
	Kernels  []json.RawMessage `json:"kernels"`
	// Ptxas is what ptxas reports for each kernel, compiled as the CUDA
	// target compiles it, at the benchmark size (absent without nvcc).
	Ptxas map[string]cfamily.PtxasInfo `json:"ptxas"`
}

// appsMainSchedule is one row an app must print: the source's T4 time where
// the source gives one.
type appsMainSchedule struct {
	name, size string
	t4         bool
}

var appsMainWant = map[string][]appsMainSchedule{
	"depthwise": {
		{"naive", "3x4x16x32 K=7", true}, {"v1", "3x4x16x32 K=7", true}, {"v2", "3x4x16x32 K=7", true},
		{"v3", "3x4x16x32 K=7", true}, {"v4", "3x4x16x32 K=7", true},
		{"fast", "64x32x112x112 K=3", false}, {"fast", "4x32x112x112 K=3", false},
	},
	"conv1d": {
		{"naive", "M=16384 N=32", true}, {"v1", "M=16384 N=32", true}, {"v2", "M=16384 N=32", true},
		{"v3", "M=16384 N=32", true}, {"v4", "M=16384 N=32", true}, {"v5", "M=16384 N=32", true},
		{"fast", "M=16777216 N=32", false},
	},
	"gemm": {
		{"naive", "M=1024 K=2048 N=512", true}, {"v1", "M=1024 K=2048 N=512", true},
		{"v2", "M=1024 K=2048 N=512", true}, {"v3", "M=1024 K=2048 N=512", true},
		{"tiled_shared", "M=1024 K=2048 N=512", false},
		{"tiled_shared_32x64", "M=1024 K=2048 N=512", false},
		{"tiled_shared_32x32", "M=1024 K=2048 N=512", false},
		{"tiled_shared_64x32", "M=1024 K=2048 N=512", false},
		{"tiled_shared_64x64_k32", "M=1024 K=2048 N=512", false},
		{"tiled_shared_64x64_k64", "M=1024 K=2048 N=512", false},
		{"tiled_shared_64x32_v4", "M=1024 K=2048 N=512", false},
		{"splitk2_64x32", "M=1024 K=2048 N=512", false},
		{"splitk4_64x32", "M=1024 K=2048 N=512", false},
		{"splitk4_32x32", "M=1024 K=2048 N=512", false},
		{"splitk8_64x64", "M=1024 K=2048 N=512", false},
		{"splitk8_64x64_v4", "M=1024 K=2048 N=512", false},
		{"splitk4_64x32_v4", "M=1024 K=2048 N=512", false},
		{"splitk4_128x64", "M=1024 K=2048 N=512", false},
	},
}

func TestAppsMain(t *testing.T) {
	t.Parallel()
	bin := buildApps(t, "depthwise", "conv1d", "gemm")
	for app, want := range appsMainWant {
		t.Run(app, func(t *testing.T) {
			t.Parallel()
			cmd := exec.Command(filepath.Join(bin, app), "-json")
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			runErr := cmd.Run()
			var rs []appsMainResult
			if err := json.Unmarshal(stdout.Bytes(), &rs); err != nil {
				t.Fatalf("%s -json: %v (run: %v)\nstdout:\n%s\nstderr:\n%s", app, err, runErr, stdout.String(), stderr.String())
			}
			if runErr != nil {
				t.Errorf("%s -json: %v\n%s", app, runErr, stderr.String())
			}
			var got []string
			for _, r := range rs {
				got = append(got, r.Schedule+" "+r.Size)
			}
			var names []string
			for _, w := range want {
				names = append(names, w.name+" "+w.size)
			}
			if strings.Join(got, ", ") != strings.Join(names, ", ") {
				t.Fatalf("%s lists\n  %s\nwant\n  %s", app, strings.Join(got, ", "), strings.Join(names, ", "))
			}
			for i, r := range rs {
				w := want[i]
				if r.App != app || r.Target != "emulator" {
					t.Errorf("%s %s: app %q target %q", app, r.Schedule, r.App, r.Target)
				}
				if r.Check != "ok" {
					t.Errorf("%s %s (%s): check %s", app, r.Schedule, r.Size, r.Check)
				}
				if len(r.Kernels) == 0 {
					t.Errorf("%s %s: no kernels in the report", app, r.Schedule)
				}
				// Issue 10: no app kernel has a stack frame or spills at
				// the size it is timed at.
				for k, p := range r.Ptxas {
					if p.StackFrame != 0 || p.SpillStores+p.SpillLoads != 0 {
						t.Errorf("%s %s (%s): kernel %s has a %d-byte stack frame, %d + %d bytes spilled (ptxas)", app, r.Schedule, r.Size, k, p.StackFrame, p.SpillStores, p.SpillLoads)
					}
				}
				if w.t4 != (r.T4Ms > 0) {
					t.Errorf("%s %s: T4 time %v ms, want one: %v", app, r.Schedule, r.T4Ms, w.t4)
				}
			}
		})
	}
}

// appsMainCheckFast realizes an algorithm under a fast schedule on the emulator
// (with the IR verifier) and checks it against the reference; it wants one
// kernel with the given barriers.
func appsMainCheckFast(t *testing.T, a algo.Algorithm, barriers int) {
	t.Helper()
	p := halide.NewPipeline(a.Out()).WithOptions(halide.Options{Verify: true})
	a.Inputs(rand.New(rand.NewSource(3)))
	out, err := a.Run(p)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Check(out); err != nil {
		t.Error(err)
	}
	reps, err := p.Report()
	if err != nil {
		t.Fatal(err)
	}
	if len(reps) != 1 || reps[0].Barriers != barriers {
		var sb strings.Builder
		report.WriteTable(&sb, reps)
		t.Errorf("want one kernel with %d barriers:\n%s", barriers, sb.String())
	}
}

// The fast schedules away from the apps' check sizes: tiles that divide
// the extent and tiles that do not (the last one shifted inwards), split
// rows, other kernel sizes, a thread count that does not divide the rows
// of the staged tile.
func TestAppsMainFastSchedules(t *testing.T) {
	for _, c := range []struct {
		b, c, h, w, k int
		t             algo.DepthwiseTiling
	}{
		{1, 3, 32, 24, 3, algo.DefaultDepthwiseTiling},                                    // tiles divide H
		{2, 2, 21, 37, 5, algo.DepthwiseTiling{TileX: 16, ThreadsY: 4, RowsPerThread: 3}}, // split rows, RoundUp staging
		{1, 2, 16, 32, 7, algo.DepthwiseTiling{ThreadsY: 3, RowsPerThread: 4}},            // the seed's K, 3 thread rows
	} {
		t.Run(fmt.Sprintf("depthwise_%dx%dx%dx%d_K%d_%+v", c.b, c.c, c.h, c.w, c.k, c.t), func(t *testing.T) {
			d := algo.NewDepthwiseStaged(c.b, c.c, c.h, c.w, c.k)
			d.GPUScheduleFast(c.t)
			appsMainCheckFast(t, d, 1)
		})
	}
	for _, c := range []struct {
		m, n int
		t    algo.Conv1DTiling
	}{
		{1000, 7, algo.Conv1DTiling{Threads: 32, PerThread: 5}},
		{1377, 32, algo.DefaultConv1DTiling}, // one block exactly: 1408 outputs
	} {
		t.Run(fmt.Sprintf("conv1d_M%d_N%d_%+v", c.m, c.n, c.t), func(t *testing.T) {
			v := algo.NewConv1DAcc(c.m, c.n)
			v.GPUScheduleFast(c.t)
			appsMainCheckFast(t, v, 2)
		})
	}
}

// The fast kernels at the benchmark sizes (too big for the emulator)
// compile with nvcc for sm_90, with the shared memory the compiler
// inferred, and keep their accumulators in registers (no stack frame).
func TestAppsMainFastKernelsNVCC(t *testing.T) {
	t.Parallel()
	if _, ok := cfamily.NVCCPath(); !ok {
		t.Skip("nvcc not found: install the CUDA 11.8 toolkit with scripts/install-cuda-toolkit.sh to run this check")
	}
	dw := algo.NewDepthwiseStaged(64, 32, 112, 112, 3)
	dw.GPUScheduleFast(algo.DefaultDepthwiseTiling)
	c1 := algo.NewConv1DAcc(1<<24, 32)
	c1.GPUScheduleFast(algo.DefaultConv1DTiling)
	// One translation unit, one nvcc run, for both.
	var ks []*ir.Kernel
	for _, f := range []*halide.Func{dw.Out(), c1.Out()} {
		l, err := halide.NewPipeline(f).Lower()
		if err != nil {
			t.Fatal(err)
		}
		ks = append(ks, l.Kernels()...)
	}
	if len(ks) != 2 {
		t.Fatalf("%d kernels, want one per pipeline", len(ks))
	}
	checkKernelsNVCC(t, ks)
}

// buildApps builds the named apps (apps/<name>) into a temporary folder,
// which it returns; the test is skipped without the go command.
func buildApps(t *testing.T, names ...string) string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go command is not on PATH")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	args := []string{"build", "-o", bin + string(filepath.Separator)}
	for _, n := range names {
		args = append(args, "./apps/"+n)
	}
	build := exec.Command(goTool, args...)
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}
