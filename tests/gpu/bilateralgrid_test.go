package gpu_test

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gohalide/gohalide/apps/algo"
	"github.com/gohalide/gohalide/halide"
)

// Halide's bilateral_grid (apps/algo/bilateralgrid.go) under the
// generator's GPU schedule on the emulator and its CPU schedule on the
// CPU, at sizes the tiles divide and do not, and at several r_sigma (the
// histogram's z extent, and so its shared allocation, follows from it),
// against the float32 plain-Go reference; the GPU schedule's loop nest and
// kernels; the app as a user runs it.

// bilateralSizes are the check sizes: the app's (tiles of 64 and 256
// pixels do not divide it), multiples of both tiles, and the smallest the
// output's 32 x 8 tiles allow (ShiftInwards needs an extent of at least
// the factor).
var bilateralSizes = []struct {
	w, h   int
	rSigma float32
}{
	{200, 136, 0.1},
	{256, 128, 0.1},
	{40, 16, 0.1},
	{96, 72, 0.05},
	{72, 40, 0.3},
	{64, 48, 0.07},
}

func newBilateral(w, h int, rSigma float32, seed int64, gpu bool) *algo.BilateralGrid {
	v := algo.NewBilateralGrid(w, h, 8)
	if gpu {
		v.GPUSchedule()
	} else {
		v.CPUSchedule()
	}
	v.SetInputs(algo.BilateralGridImage(rand.New(rand.NewSource(seed)), w, h), rSigma)
	return v
}

func TestBilateralGridSchedules(t *testing.T) {
	t.Parallel()
	for _, sz := range bilateralSizes {
		for _, gpu := range []bool{true, false} {
			name := fmt.Sprintf("cpu/%dx%d_r%g", sz.w, sz.h, sz.rSigma)
			if gpu {
				name = fmt.Sprintf("emulator/%dx%d_r%g", sz.w, sz.h, sz.rSigma)
			}
			t.Run(name, func(t *testing.T) {
				v := newBilateral(sz.w, sz.h, sz.rSigma, int64(sz.w*sz.h), gpu)
				p := halide.NewPipeline(v.Out()).WithOptions(halide.Options{Verify: true})
				out, err := v.Run(p)
				if err != nil {
					t.Fatal(err)
				}
				rel, err := v.Check(out)
				if err != nil {
					t.Fatal(err)
				}
				// Off CUDA the pipeline computes what the float32
				// reference computes, operation for operation.
				if rel != 0 {
					t.Errorf("max relative error %g, want 0 (the reference is the same float32 arithmetic)", rel)
				}
				if gpu {
					reps, err := p.Report()
					if err != nil {
						t.Fatal(err)
					}
					checkBilateralKernels(t, reps, sz.rSigma)
				}
			})
		}
	}
}

// checkBilateralKernels checks the four kernels of the GPU schedule: blurz
// with the histogram in shared memory (8 x 8 cells, the bins from z = -2
// to int(1/r_sigma) + 3, 2 channels; sized at launch) and two barriers,
// blurx and blury of 32 x 8 x 1 threads, the slice of 32 x 8 with its 2
// channels in registers.
func checkBilateralKernels(t *testing.T, reps []halide.KernelReport, rSigma float32) {
	t.Helper()
	if len(reps) != 4 {
		t.Fatalf("%d kernels, want 4", len(reps))
	}
	bins := int64(float32(1)/rSigma) + 6
	checkKernel(t, reps[0], want{block: []int64{8, 8, 1}, registers: []alloc{}, barriers: 2})
	if sh := reps[0].Shared; len(sh) != 1 || sh[0].Func != "histogram" || sh[0].Dynamic == "" || sh[0].Elements != 8*8*bins*2 {
		t.Errorf("%s: shared allocations %+v, want histogram sized at launch, %d elements (8 x 8 x %d bins x 2)", reps[0].Name, sh, 8*8*bins*2, bins)
	}
	for _, r := range reps[1:3] {
		checkKernel(t, r, want{block: []int64{32, 8, 1}, shared: []alloc{}, registers: []alloc{}, barriers: 0})
	}
	checkKernel(t, reps[3], want{block: []int64{32, 8, 1}, shared: []alloc{}, registers: []alloc{{"interpolated", 2}}, barriers: 0})
}

func TestBilateralGridGPULoopNest(t *testing.T) {
	t.Parallel()
	v := algo.NewBilateralGrid(200, 136, 8)
	v.GPUSchedule()
	nest, err := halide.NewPipeline(v.Out()).LoopNest()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("loop nest:\n%s", nest)
	// blurz's blocks and threads (Halide's gpu_tile keeps x and y as the
	// block loops); the histogram computed at the block loop x, zeroed
	// and then filled by the threads over their own cells (r.y outside
	// r.x, c unrolled inside), then blurz over z and c.
	from := func(marker string) string { return nest[strings.Index(nest, marker):] }
	checkLoopOrder(t, nest,
		"produce blurz:", "gpu_block y.y:", "gpu_block x.x:",
		"produce histogram:", "gpu_thread y:", "gpu_thread x:", "for z:", "for c:",
		"for r$y in [0, 7]:", "for r$x in [0, 7]:", "unrolled c:",
		"consume histogram:", "gpu_thread y.yi in [0, 7]:", "gpu_thread x.xi in [0, 7]:", "consume blurz:")
	// blurx and blury: blocks z, y, x, threads z (of 1), y, x; the pair
	// of rows unrolled (between the thread loops y and z, where Halide's
	// tile puts it) and the vector of the 2 channels innermost.
	for _, f := range []string{"blurx", "blury"} {
		checkLoopOrder(t, from("produce "+f+":"),
			"produce "+f+":", "gpu_block z.z:", "gpu_block y.y.y:", "gpu_block x.x:",
			"gpu_thread z.zi in [0, 0]:", "unrolled y.y_u in [0, 1]:", "gpu_thread y.y.yi in [0, 7]:", "gpu_thread x.xi in [0, 31]:",
			"vectorized c:", f+"(...) = ...")
	}
	checkLoopOrder(t, from("produce bilateral_grid:"),
		"produce bilateral_grid:", "gpu_block y.y:", "gpu_block x.x:",
		"gpu_thread y.yi in [0, 7]:", "gpu_thread x.xi in [0, 31]:",
		"produce interpolated:", "vectorized c:", "consume interpolated:")
}

// A wrong output fails the check: one pixel off by 1e-2 is over the
// tolerance (the outputs are in [0, 1]).
func TestBilateralGridCheckCatchesAnError(t *testing.T) {
	t.Parallel()
	v := newBilateral(64, 48, 0.1, 3, false)
	out, err := v.Run(halide.NewPipeline(v.Out()))
	if err != nil {
		t.Fatal(err)
	}
	b := out.(*halide.Buffer[float32])
	b.Set(b.Get(17, 9)+1e-2, 17, 9)
	if _, err := v.Check(b); err == nil {
		t.Error("an output off by 1e-2 passed the check")
	}
}

// The app as a user runs it: the GPU schedule on the emulator and the CPU
// schedule on the CPU, each checked ok.
func TestBilateralGridApp(t *testing.T) {
	t.Parallel()
	bin := filepath.Join(buildApps(t, "bilateralgrid"), "bilateralgrid")
	for _, target := range []string{"emulator", "cpu"} {
		cmd := exec.Command(bin, "-json", "-no-ptxas", "-quiet", "-target="+target)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		runErr := cmd.Run()
		var rs []appsMainResult
		if err := json.Unmarshal(stdout.Bytes(), &rs); err != nil {
			t.Fatalf("-target=%s -json: %v (run: %v)\n%s\n%s", target, err, runErr, stdout.String(), stderr.String())
		}
		if runErr != nil {
			t.Errorf("-target=%s: %v\n%s", target, runErr, stderr.String())
		}
		if len(rs) != 1 || rs[0].Schedule != "halide" || rs[0].Size != "1536x2560 r_sigma=0.1 s_sigma=8" || rs[0].Target != target || rs[0].Check != "ok" {
			t.Errorf("-target=%s: got %+v, want the schedule halide at 1536x2560 checked ok", target, rs)
		}
	}
}

// The outputs of Halide 14 itself: testdata/bilateral_grid_96x72_input.f32
// (BilateralGridImage with seed 5, raw little-endian float32, x fastest) and
// testdata/bilateral_grid_96x72_halide14_cpu.f32, what Halide 14's
// bilateral_grid (the generator of the v14.0.0 tag, its CPU schedule,
// compiled for x86-64 AVX2 with FMA; bench/halide14's runner, --width 96
// --height 72 --in ... --out ...) computes from it at r_sigma 0.1. Both
// schedules of the port, and the reference, agree with it to float32
// rounding (3e-7 at 1536 x 2560 on a random image).
func TestBilateralGridMatchesHalide14(t *testing.T) {
	t.Parallel()
	const w, h = 96, 72
	read := func(name string) *halide.Buffer[float32] {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		if len(data) != 4*w*h {
			t.Fatalf("%s has %d bytes, want %d", name, len(data), 4*w*h)
		}
		b := halide.NewBuffer[float32](w, h)
		for i := range b.Data() {
			b.Data()[i] = math.Float32frombits(binary.LittleEndian.Uint32(data[4*i:]))
		}
		return b
	}
	in, want := read("bilateral_grid_96x72_input.f32"), read("bilateral_grid_96x72_halide14_cpu.f32")
	// Halide's and ours differ only by rounding: FMA contraction in
	// Halide's x86 code.
	const tol = 1e-5
	compare := func(what string, got func(x, y int) float32) {
		worst := 0.0
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				d := math.Abs(float64(got(x, y)) - float64(want.Get(x, y)))
				if math.IsNaN(d) || d > tol {
					t.Fatalf("%s: (%d, %d) = %v, Halide 14 gives %v", what, x, y, got(x, y), want.Get(x, y))
				}
				worst = math.Max(worst, d)
			}
		}
		t.Logf("%s: largest difference from Halide 14 %.2g", what, worst)
	}
	for _, gpu := range []bool{false, true} {
		v := algo.NewBilateralGrid(w, h, 8)
		what := "CPU schedule on the CPU"
		if gpu {
			v.GPUSchedule()
			what = "GPU schedule on the emulator"
		} else {
			v.CPUSchedule()
		}
		v.SetInputs(in, algo.BilateralGridRSigma)
		out, err := v.Run(halide.NewPipeline(v.Out()))
		if err != nil {
			t.Fatal(err)
		}
		b := out.(*halide.Buffer[float32])
		compare(what, func(x, y int) float32 { return b.Get(x, y) })
		if gpu {
			ref := v.Reference()
			compare("the plain-Go reference", func(x, y int) float32 { return float32(ref.Get(x, y)) })
		}
	}
}
