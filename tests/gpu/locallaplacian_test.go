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
	"github.com/gohalide/gohalide/halide"
)

// Halide's local_laplacian (apps/locallaplacian, algo.LocalLaplacian):
// the app as a user runs it, on the emulator (the generator's GPU
// schedule) and on the CPU (its CPU schedule), each identical to the
// plain-Go reference at the check size; its kernels compile with nvcc
// with no stack frame or spill; and both schedules at other sizes (tiles
// that do not divide the image, a 64-row output for the CPU schedule's
// strips, other inputs).

func TestLocalLaplacianApp(t *testing.T) {
	t.Parallel()
	bin := buildApps(t, "locallaplacian")
	for _, target := range []string{"emulator", "cpu"} {
		t.Run(target, func(t *testing.T) {
			t.Parallel()
			cmd := exec.Command(filepath.Join(bin, "locallaplacian"), "-json", "-quiet", "-target="+target)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			runErr := cmd.Run()
			var rs []appsMainResult
			if err := json.Unmarshal(stdout.Bytes(), &rs); err != nil {
				t.Fatalf("locallaplacian -json: %v (run: %v)\n%s\n%s", err, runErr, stdout.String(), stderr.String())
			}
			if runErr != nil {
				t.Errorf("locallaplacian -json -target=%s: %v\n%s", target, runErr, stderr.String())
			}
			if len(rs) != 1 || rs[0].Schedule != "manual" || rs[0].Size != "1536x2560x3 J=8 levels=8" || rs[0].Target != target {
				t.Fatalf("results %+v", rs)
			}
			r := rs[0]
			if r.Check != "ok" {
				t.Errorf("check: %s", r.Check)
			}
			// The GPU schedule: 7 levels of the input and processed
			// pyramids, 8 of the output pyramid and the output (one
			// kernel launched per channel).
			if want := map[string]int{"emulator": 23, "cpu": 0}[target]; len(r.Kernels) != want {
				t.Errorf("%d kernels, want %d", len(r.Kernels), want)
			}
			for k, p := range r.Ptxas {
				if p.StackFrame != 0 || p.SpillStores+p.SpillLoads != 0 {
					t.Errorf("kernel %s has a %d-byte stack frame, %d + %d bytes spilled (ptxas)", k, p.StackFrame, p.SpillStores, p.SpillLoads)
				}
			}
		})
	}
}

// Both schedules at other sizes and seeds, against the reference
// (identical), lowered with the IR verifier.
func TestLocalLaplacianSizes(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		w, h int
		cpu  bool
		seed int64
	}{
		{67, 64, true, 5},   // one strip of 64 rows, x not a multiple of 8
		{130, 150, true, 6}, // three strips, the last shifted inwards
		{33, 20, false, 7},  // smaller than the 2^J margins; x not a multiple of 16
	} {
		t.Run(fmt.Sprintf("%dx%d_cpu=%v", c.w, c.h, c.cpu), func(t *testing.T) {
			v := algo.NewLocalLaplacian(c.w, c.h, 8)
			if c.cpu {
				v.CPUSchedule()
			} else {
				v.GPUSchedule()
			}
			p := halide.NewPipeline(v.Out()).WithOptions(halide.Options{Verify: true})
			v.Inputs(rand.New(rand.NewSource(c.seed)))
			out, err := v.Run(p)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := v.Check(out); err != nil {
				t.Error(err)
			}
		})
	}
}

// Check refuses a one-unit difference (identical wanted) and accepts it
// within the CUDA tolerance.
func TestLocalLaplacianCheck(t *testing.T) {
	v := algo.NewLocalLaplacian(20, 10, 3)
	v.Inputs(rand.New(rand.NewSource(1)))
	out := v.Reference()
	if _, err := v.Check(out); err != nil {
		t.Fatalf("the reference itself: %v", err)
	}
	d := out.Data()
	if d[7] > 0 {
		d[7]--
	} else {
		d[7]++
	}
	if _, err := v.Check(out); err == nil || !strings.Contains(err.Error(), "want identical") {
		t.Errorf("one value off by 1: got %v, want a mismatch", err)
	}
	v.ForTarget(halide.CUDA)
	if _, err := v.Check(out); err != nil {
		t.Errorf("one value off by 1 on CUDA: %v", err)
	}
	v.ForTarget(halide.Emulator)
	if _, err := v.Check(out); err == nil {
		t.Error("ForTarget(Emulator) kept the CUDA tolerance")
	}
}
