package gpu_test

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/gohalide/gohalide/apps/algo"
	"github.com/gohalide/gohalide/cfamily"
	"github.com/gohalide/gohalide/halide"
)

// Conv2D (apps/algo/conv2d.go, TVM's "how to optimize convolution on GPU"):
// the algorithm at tiny sizes under trivial schedules, then the seed's
// schedule ("tvm": 64x64 block tiles, 2x2 virtual threads of 8x8 threads
// of 4x4 points, the input and weight tiles of each step in shared memory)
// at the app's small size and ours (contiguous 8x8 per thread) at a size
// the tiles do not divide, on the emulator against the plain-Go reference,
// with their kernel reports and loop nests.

// The algorithm under the default schedule (on the CPU) and under a
// one-block-per-pixel, one-thread-per-(image, out channel) GPU schedule, at
// tiny sizes: with and without padding, 3x3 and 1x1 kernels.
func TestConv2DTrivialSchedules(t *testing.T) {
	sizes := []struct{ batch, inC, outC, size, kernel, pad int }{
		{3, 5, 4, 5, 3, 1},
		{2, 3, 5, 6, 3, 0},
		{4, 2, 3, 4, 1, 0},
		{2, 3, 2, 4, 3, 2},
	}
	for _, sz := range sizes {
		for _, sched := range []string{"default", "gpu"} {
			name := fmt.Sprintf("%s/N%d_C%d_F%d_%dx%d_K%d_pad%d", sched, sz.batch, sz.inC, sz.outC, sz.size, sz.size, sz.kernel, sz.pad)
			t.Run(name, func(t *testing.T) {
				c := algo.NewConv2D(sz.batch, sz.inC, sz.outC, sz.size, sz.kernel, sz.pad)
				if sched == "gpu" {
					// The thread loops need constant extents: Bound fixes
					// them to the output's.
					xy := halide.NewVar("xy")
					c.Output.Bound(c.N, 0, sz.batch).Bound(c.F, 0, sz.outC).
						Fuse(c.X, c.Y, xy).GPUBlocks(xy).GPUThreads(c.N, c.F)
				}
				p := halide.NewPipeline(c.Out()).WithOptions(halide.Options{Verify: true})
				c.Inputs(rand.New(rand.NewSource(5)))
				out, err := c.Run(p)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := c.Check(out); err != nil {
					t.Error(err)
				}
				if o := sz.size + 2*sz.pad - sz.kernel + 1; fmt.Sprint(out.Shape()) != fmt.Sprint(c.NewOutput().Shape()) || c.OutSize() != o {
					t.Errorf("output shape %v, want %d x %d x %d x %d", out.Shape(), sz.batch, sz.outC, o, o)
				}
				if sched == "gpu" {
					reps, err := p.Report()
					if err != nil {
						t.Fatal(err)
					}
					if len(reps) != 1 {
						t.Fatalf("%d kernels, want 1", len(reps))
					}
					// BL is computed at the innermost thread loop (the
					// default: the output's innermost loop): one float in a
					// register.
					checkKernel(t, reps[0], want{block: []int64{int64(sz.batch), int64(sz.outC), 1}, shared: []alloc{}, registers: []alloc{{c.Conv.Name(), 1}}, barriers: 0})
				}
			})
		}
	}
}

// loopOrder returns the indices in the loop nest of the first line that
// contains each of subs (-1 when none does).
func loopOrder(nest string, subs ...string) []int {
	lines := strings.Split(nest, "\n")
	out := make([]int, len(subs))
	for i, s := range subs {
		out[i] = -1
		for j, l := range lines {
			if strings.Contains(l, s) {
				out[i] = j
				break
			}
		}
	}
	return out
}

// checkLoopOrder checks that the lines containing subs appear in the loop
// nest in that order.
func checkLoopOrder(t *testing.T, nest string, subs ...string) {
	t.Helper()
	idx := loopOrder(nest, subs...)
	for i, j := range idx {
		if j < 0 {
			t.Errorf("no %q in the loop nest:\n%s", subs[i], nest)
			return
		}
		if i > 0 && j <= idx[i-1] {
			t.Errorf("%q is not inside %q in the loop nest:\n%s", subs[i], subs[i-1], nest)
			return
		}
	}
}

func TestConv2DTVMSchedule(t *testing.T) {
	t.Parallel()
	// The app's small size: one 64x64 tile of (image, out channel) per
	// pixel, 6x6 pixels, two steps of 8 input channels.
	c := algo.NewConv2D(64, 16, 64, 6, 3, 1)
	c.GPUScheduleTVM()
	nest, err := halide.NewPipeline(c.Out()).LoopNest()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("loop nest:\n%s", nest)
	// The schedule puts the virtual threads vy, vx between the blocks and
	// the threads; lowering moves them just inside the thread loops (thread
	// y over the out channels, thread x over the images), then the 4x4
	// points. BL is computed inside the innermost virtual thread, its step
	// loop outside the tap loops, AA and WW at the tap loop r$x (BL's rx).
	checkLoopOrder(t, nest,
		"gpu_block x.xy", "gpu_block ff.fo", "gpu_block n.no",
		"gpu_thread ff.fb.ft.ty in [0, 7]", "gpu_thread n.nb.nt.tx in [0, 7]",
		"ff.fb.vy in [0, 1]", "n.nb.vx in [0, 1]",
		"produce BL", "for r$z.rco in [0, 1]", "for r$y in [0, 2]", "for r$x in [0, 2]",
		"produce Apad_in_BL", "produce W_in_BL", "unrolled r$z.rci in [0, 7]",
		"consume BL", "unrolled ff.fb.ft.fi in [0, 3]", "unrolled n.nb.nt.ni in [0, 3]")

	reps, l := realizeApp(t, c)
	if len(reps) != 1 {
		t.Fatalf("%d kernels, want 1", len(reps))
	}
	r := reps[0]
	aa, ww := c.Padded.In(c.Conv).Name(), c.Weight.In(c.Conv).Name()
	// Per step and tap, one virtual thread's tiles for the block: AA the 8
	// input channels x 32 images (4 points x 8 threads along x) of one
	// pixel, WW the 8 input channels x 32 out channels; BL the 4x4
	// accumulators of one thread and virtual thread. One barrier after the
	// loads, one before the next tap overwrites the tiles.
	checkKernel(t, r, want{
		block:     []int64{8, 8, 1},
		shared:    []alloc{{aa, 8 * 32}, {ww, 8 * 32}},
		registers: []alloc{{c.Conv.Name(), 4 * 4}},
		barriers:  2,
	})
	if grid := []int64{1, 1, 36}; fmt.Sprint(r.GridValues) != fmt.Sprint(grid) {
		t.Errorf("grid %v, want %v (block z over the 6x6 pixels)", r.GridValues, grid)
	}
	for _, a := range r.Shared {
		across := map[string]string{aa: "y", ww: "x"}[a.Func]
		if fmt.Sprint(a.SharedAcross) != fmt.Sprint([]string{across}) {
			t.Errorf("%s is shared across %v, want [%s] (AA serves the threads along the out channels, WW those along the images)", a.Func, a.SharedAcross, across)
		}
	}
	checkStepBarriers(t, l, ".r$x", aa, ww)
	s := l.String()
	for _, w := range []string{
		"allocate " + aa + "[float32 * 256] in GPUShared",
		"allocate " + ww + "[float32 * 256] in GPUShared",
		"allocate BL[float32 * 4 * 4 * 1 * 1] in Register",
	} {
		if !strings.Contains(s, w) {
			t.Errorf("no %q in the lowered statement", w)
		}
	}
}

func TestConv2DOursSchedule(t *testing.T) {
	t.Parallel()
	// Neither the 64-wide block tiles (ShiftInwards: the last block moves
	// back) nor the steps of 8 input channels (a guarded tail) divide the
	// sizes.
	c := algo.NewConv2D(72, 12, 80, 2, 3, 1)
	c.GPUScheduleOurs()
	nest, err := halide.NewPipeline(c.Out()).LoopNest()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("loop nest:\n%s", nest)
	checkLoopOrder(t, nest,
		"gpu_thread ff.fb.ty in [0, 7]", "gpu_thread n.nb.tx in [0, 7]",
		"produce BL", "for r$x in [0, 2]", "produce Apad_in_BL", "produce W_in_BL",
		"consume BL", "unrolled ff.fb.ft.vy in [0, 1]", "unrolled n.nb.nt.vx in [0, 1]")
	reps, l := realizeApp(t, c)
	if len(reps) != 1 {
		t.Fatalf("%d kernels, want 1", len(reps))
	}
	aa, ww := c.Padded.In(c.Conv).Name(), c.Weight.In(c.Conv).Name()
	// The seed's tiles: 8 input channels x 64 images and x 64 out
	// channels; 8x8 accumulators per thread.
	checkKernel(t, reps[0], want{
		block:     []int64{8, 8, 1},
		shared:    []alloc{{aa, 8 * 64}, {ww, 8 * 64}},
		registers: []alloc{{c.Conv.Name(), 8 * 8}},
		barriers:  2,
	})
	if grid := []int64{2, 2, 4}; fmt.Sprint(reps[0].GridValues) != fmt.Sprint(grid) {
		t.Errorf("grid %v, want %v", reps[0].GridValues, grid)
	}
	checkStepBarriers(t, l, ".r$x", aa, ww)
}

// The kernels of both schedules at the seed's size compile with nvcc, with
// the inferred shared memory and no stack frame or spills (skipped without
// nvcc).
func TestConv2DKernelsCompileWithNVCC(t *testing.T) {
	t.Parallel()
	if _, ok := cfamily.NVCCPath(); !ok {
		t.Skip("nvcc not found")
	}
	if testing.Short() {
		t.Skip("short")
	}
	for _, s := range algo.Conv2DGPUSchedules {
		t.Run(s.Name, func(t *testing.T) {
			c := algo.NewConv2D(256, 256, 512, 14, 3, 1)
			s.Apply(c)
			l, err := halide.NewPipeline(c.Out()).Lower()
			if err != nil {
				t.Fatal(err)
			}
			// Issue 10: no app kernel has a stack frame or spills. (tvm's
			// kernel had an 8-byte frame and 4 bytes spilled while its
			// shared tiles' bounds spelled the output's extent one way and
			// its loops another; see lower's TestSharedBoundsNameKernelLets.)
			checkKernelsNVCC(t, l.Kernels())
		})
	}
}
