package gpu_test

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"
	"time"

	"github.com/gohalide/gohalide/apps/algo"
	"github.com/gohalide/gohalide/halide"
	"github.com/gohalide/gohalide/ir"
	"github.com/gohalide/gohalide/report"
)

// The GPU schedules of apps/algo/gpuschedules.go (depthwise, conv1d and
// GEMM, from the TVM tutorials of the seeds, plus our tiled_shared ones):
// each realized on the GPU emulator at two sizes (one a multiple of the
// tiles, one not, where the schedule allows it) and compared with the
// algorithm's reference, and its kernel report checked: launch dimensions,
// shared and register allocations, barriers.

// realizeApp lowers (with the IR verifier), realizes a (already scheduled)
// on the emulator, checks the output against the reference, logs the report
// table and returns the report and the lowered pipeline.
func realizeApp(t *testing.T, a algo.Algorithm) ([]report.KernelReport, *halide.Lowered) {
	t.Helper()
	p := halide.NewPipeline(a.Out()).WithOptions(halide.Options{Verify: true})
	l, err := p.Lower()
	if err != nil {
		t.Fatalf("Lower: %v", err)
	}
	a.Inputs(rand.New(rand.NewSource(11)))
	start := time.Now()
	out, err := a.Run(p)
	if err != nil {
		t.Fatalf("Realize: %v", err)
	}
	elapsed := time.Since(start)
	rel, err := a.Check(out)
	if err != nil {
		t.Error(err)
	}
	reps, err := p.Report()
	if err != nil {
		t.Fatalf("Report: %v", err)
	}
	var sb strings.Builder
	if err := report.WriteTable(&sb, reps); err != nil {
		t.Fatal(err)
	}
	t.Logf("realized on the emulator in %v, max relative error %.2g\n%s", elapsed.Round(time.Millisecond/10), rel, sb.String())
	if len(reps) == 0 {
		t.Fatal("the schedule made no GPU kernel")
	}
	return reps, l
}

// want is what a kernel's report should say. Nil slices are not checked;
// an empty one means none.
type want struct {
	block     []int64
	shared    []alloc
	registers []alloc
	barriers  int // -1: not checked
}

type alloc struct {
	fn    string
	elems int64
}

func (a alloc) String() string { return fmt.Sprintf("%s[%d]", a.fn, a.elems) }

func allocsOf(as []report.Alloc) []alloc {
	out := make([]alloc, len(as))
	for i, a := range as {
		out[i] = alloc{a.Func, a.Elements}
	}
	return out
}

func sameAllocs(got, want []alloc) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if got[i] != want[i] {
			return false
		}
	}
	return true
}

// checkKernel compares one kernel's report with w; float32 allocations
// only, so bytes = 4 * elements.
func checkKernel(t *testing.T, r report.KernelReport, w want) {
	t.Helper()
	if w.block != nil && fmt.Sprint(r.BlockValues) != fmt.Sprint(w.block) {
		t.Errorf("%s: block %v, want %v", r.Name, r.BlockValues, w.block)
	}
	if w.shared != nil {
		if got := allocsOf(r.Shared); !sameAllocs(got, w.shared) {
			t.Errorf("%s: shared allocations %v, want %v", r.Name, got, w.shared)
		}
		var bytes int64
		for _, a := range r.Shared {
			if a.Bytes != 4*a.Elements || a.Type != "float32" || a.Dynamic != "" {
				t.Errorf("%s: shared allocation %+v: want a static float32 allocation of 4 bytes per element", r.Name, a)
			}
			bytes += a.Bytes
		}
		if r.SharedBytes != bytes {
			t.Errorf("%s: %d bytes of shared memory, want %d", r.Name, r.SharedBytes, bytes)
		}
	}
	if w.registers != nil {
		if got := allocsOf(r.Registers); !sameAllocs(got, w.registers) {
			t.Errorf("%s: register allocations %v, want %v", r.Name, got, w.registers)
		}
	}
	if w.barriers >= 0 && r.Barriers != w.barriers {
		t.Errorf("%s: %d barriers, want %d", r.Name, r.Barriers, w.barriers)
	}
	if len(r.Shared) == 0 && r.Barriers != 0 {
		t.Errorf("%s: no shared memory but %d barriers", r.Name, r.Barriers)
	}
}

// barrierEvents lists, in program order, the productions ("produce F")
// and barriers ("barrier: reason") inside the first loop of a kernel whose
// name contains loop.
func barrierEvents(k *ir.Kernel, loop string) (events []string, found bool) {
	var body ir.Stmt
	ir.WalkStmt(k.Body, func(s ir.Stmt) bool {
		if f, ok := s.(*ir.For); ok && body == nil && strings.Contains(f.Name, loop) {
			body = f.Body
			return false
		}
		return body == nil
	}, nil)
	if body == nil {
		return nil, false
	}
	ir.WalkStmt(body, func(s ir.Stmt) bool {
		switch s := s.(type) {
		case *ir.ProducerConsumer:
			if s.Producer {
				events = append(events, "produce "+s.Func)
			}
		case *ir.Barrier:
			events = append(events, "barrier: "+s.Reason)
		}
		return true
	}, nil)
	return events, true
}

// checkStepBarriers checks the barriers of a loop that stages shared tiles:
// its body produces the tiles, then a barrier (they were just written),
// then only consumers, and its last barrier says the next iteration
// overwrites them.
func checkStepBarriers(t *testing.T, l *halide.Lowered, loop string, tiles ...string) {
	t.Helper()
	ks := l.Kernels()
	if len(ks) == 0 {
		t.Fatal("no kernels")
	}
	var events []string
	found := false
	for _, k := range ks {
		if events, found = barrierEvents(k, loop); found {
			break
		}
	}
	if !found {
		t.Fatalf("no loop %q in the kernels", loop)
	}
	t.Logf("in loop %s: %s", loop, strings.Join(events, "; "))
	var produced []string
	i := 0
	for ; i < len(events) && strings.HasPrefix(events[i], "produce "); i++ {
		produced = append(produced, strings.TrimPrefix(events[i], "produce "))
	}
	if fmt.Sprint(produced) != fmt.Sprint(tiles) {
		t.Errorf("the loop first produces %v, want %v", produced, tiles)
	}
	if i >= len(events) || !strings.Contains(events[i], "just written") {
		t.Errorf("no barrier right after the loads: %v", events)
		return
	}
	last := events[len(events)-1]
	if len(events)-1 == i || !strings.Contains(last, "next iteration") {
		t.Errorf("no barrier before the next iteration overwrites the tiles: %v", events)
	}
	for _, e := range events[i+1:] {
		if strings.HasPrefix(e, "produce") && !strings.HasPrefix(e, "produce prod") {
			t.Errorf("a shared tile is produced after the barrier: %v", events)
		}
	}
}

// ---------------------------------------------------------------------------

func TestAppsGEMMGPUSchedules(t *testing.T) {
	sizes := []struct{ M, N, K int }{
		{64, 64, 64}, // multiples of every tile
		{72, 80, 20}, // none of the tiles divides them; K not a multiple of the steps
	}
	tiling := algo.DefaultGEMMTiling
	for _, sz := range sizes {
		for _, s := range algo.GEMMGPUSchedules {
			t.Run(fmt.Sprintf("%s/%dx%dx%d", s.Name, sz.M, sz.N, sz.K), func(t *testing.T) {
				start := time.Now()
				g := algo.NewGEMM(sz.M, sz.N, sz.K)
				s.Apply(g)
				reps, l := realizeApp(t, g)
				if len(reps) != 1 {
					t.Fatalf("%d kernels, want 1", len(reps))
				}
				r := reps[0]
				prod, aIn, bIn := g.Prod.Name(), g.AIn.Name(), g.BIn.Name()
				switch s.Name {
				case "naive":
					// One thread per block; Prod at the block level: one
					// float of shared memory. (The barriers of a one-thread
					// block are not checked: nothing is shared between
					// threads there.)
					checkKernel(t, r, want{block: []int64{1, 1, 1}, shared: []alloc{{prod, 1}}, registers: []alloc{}, barriers: -1})
					if fmt.Sprint(r.GridValues) != fmt.Sprint([]int64{int64(sz.N), int64(sz.M), 1}) {
						t.Errorf("grid %v, want one block per element of C", r.GridValues)
					}
				case "v1":
					checkKernel(t, r, want{block: []int64{32, 1, 1}, shared: []alloc{}, registers: []alloc{{prod, 1}}, barriers: 0})
					// Block x over the row tiles, block y over the columns.
					if grid := []int64{int64((sz.M + 31) / 32), int64(sz.N), 1}; fmt.Sprint(r.GridValues) != fmt.Sprint(grid) {
						t.Errorf("grid %v, want %v", r.GridValues, grid)
					}
				case "v2":
					checkKernel(t, r, want{block: []int64{32, 32, 1}, shared: []alloc{}, registers: []alloc{{prod, 1}}, barriers: 0})
					if grid := []int64{int64((sz.M + 31) / 32), int64((sz.N + 31) / 32), 1}; fmt.Sprint(r.GridValues) != fmt.Sprint(grid) {
						t.Errorf("grid %v, want %v", r.GridValues, grid)
					}
				case "v3":
					// The seed's A_shared and B_shared: 16x8 and 8x16.
					checkKernel(t, r, want{block: []int64{16, 16, 1}, shared: []alloc{{aIn, 16 * 8}, {bIn, 8 * 16}}, registers: []alloc{{prod, 1}}, barriers: 2})
					checkStepBarriers(t, l, ".ko", aIn, bIn)
				case "tiled_shared":
					tj, ti := tiling.BlockJ/tiling.RegJ, tiling.BlockI/tiling.RegI
					checkKernel(t, r, want{
						block:     []int64{int64(tj), int64(ti), 1},
						shared:    []alloc{{aIn, int64(tiling.BlockI * tiling.KStep)}, {bIn, int64(tiling.KStep * tiling.BlockJ)}},
						registers: []alloc{{prod, int64(tiling.RegJ * tiling.RegI)}},
						barriers:  2,
					})
					if r.SharedBytes != 2*64*8*4 {
						t.Errorf("%d bytes of shared memory, want 4096 (A 64x8 and B 8x64 floats)", r.SharedBytes)
					}
					checkStepBarriers(t, l, ".ko", aIn, bIn)
					// The accumulators' loops are unrolled: no loop over
					// prod's j or i remains in the kernel.
					if s := l.String(); strings.Contains(s, "for (prod.s0.j") || strings.Contains(s, "for (prod.s1.j") || strings.Contains(s, "for (prod.s1.r$x.ki") {
						t.Errorf("prod's tile loops are not unrolled")
					}
				case "tiled_shared_acc":
					// The accumulators of the whole block tile in shared
					// memory (64x64 floats), plus the A and B tiles.
					tj, ti := tiling.BlockJ/tiling.RegJ, tiling.BlockI/tiling.RegI
					checkKernel(t, r, want{
						block:     []int64{int64(tj), int64(ti), 1},
						shared:    []alloc{{prod, int64(tiling.BlockJ * tiling.BlockI)}, {aIn, int64(tiling.BlockI * tiling.KStep)}, {bIn, int64(tiling.KStep * tiling.BlockJ)}},
						registers: []alloc{},
						barriers:  2,
					})
					checkStepBarriers(t, l, ".ko", aIn, bIn)
				default:
					t.Fatalf("no expectations for schedule %q", s.Name)
				}
				t.Logf("%s: %v", s.Name, time.Since(start).Round(time.Millisecond/10))
			})
		}
	}
}

// Regression (gpu_barriers, fixed): GEMM's tiled_shared_acc schedule with the
// accumulator tile loops of Prod's update unrolled. Each thread updates
// only its own 4x4 points of the shared Prod (the same points in the pure
// stage, the update and the output), so no barrier is needed among the
// unrolled statements, and without the Unroll the kernel has 2 barriers
// (after the loads, at the end of the step). With the Unroll the barrier
// pass puts one after every unrolled statement ("prod was just written by
// other threads of the block"): 17 barriers in the kernel, 16 per
// iteration of ki, 128 per step (the result was still right). The pass
// took Prod for a Func the block produces point by point because its
// production contains the A_in/B_in loads that are.
func TestAppsGEMMSharedAccUnrolledBarriers(t *testing.T) {
	g := algo.NewGEMM(64, 64, 64)
	g.GPUScheduleTiledSharedAcc(algo.DefaultGEMMTiling)
	g.Prod.Update(0).Unroll(halide.NewVar("jr")).Unroll(halide.NewVar("ir"))
	reps, _ := realizeApp(t, g)
	if len(reps) != 1 {
		t.Fatalf("%d kernels, want 1", len(reps))
	}
	if reps[0].Barriers != 2 {
		t.Errorf("%d barriers, want 2 as without the Unroll (each thread reads and writes only its own accumulators)", reps[0].Barriers)
	}
}

func TestAppsConv1DGPUSchedules(t *testing.T) {
	sizes := []struct{ M, N int }{
		{1000, 7}, // neither the blocks nor the steps divide the sizes
		{1024, 32},
	}
	for _, sz := range sizes {
		for _, s := range algo.Conv1DGPUSchedules {
			t.Run(fmt.Sprintf("%s/M%d_N%d", s.Name, sz.M, sz.N), func(t *testing.T) {
				start := time.Now()
				v := algo.NewConv1D(sz.M, sz.N)
				s.Apply(v)
				reps, l := realizeApp(t, v)
				// The output is the reduction: its pure stage and its
				// update are two kernels.
				if len(reps) != 2 {
					t.Fatalf("%d kernels, want 2 (the pure stage and the update)", len(reps))
				}
				var block []int64
				switch s.Name {
				case "v1":
					block = []int64{1, 1, 1}
				case "v2":
					block = []int64{8, 1, 1}
				case "v3":
					block = []int64{4, 4, 1}
				case "v4":
					block = []int64{32, 1, 1}
				case "v5":
					block = []int64{4, 8, 1}
				default:
					t.Fatalf("no expectations for schedule %q", s.Name)
				}
				none := want{block: block, shared: []alloc{}, registers: []alloc{}, barriers: 0}
				checkKernel(t, reps[0], none)
				step := map[string]int{"v4": 4, "v5": 8}[s.Name]
				if step == 0 {
					checkKernel(t, reps[1], none)
				} else {
					// The taps of one step of the kernel loop in shared
					// memory (TVM's W_shared); a barrier after the loads,
					// and one at the end of the step when there is more
					// than one step.
					steps := (sz.N + step - 1) / step
					bars := 2
					if steps == 1 {
						bars = 1
					}
					checkKernel(t, reps[1], want{block: block, shared: []alloc{{v.BIn.Name(), int64(step)}}, registers: []alloc{}, barriers: bars})
					if steps > 1 {
						checkStepBarriers(t, l, ".ro", v.BIn.Name())
					}
				}
				t.Logf("%s: %v", s.Name, time.Since(start).Round(time.Millisecond/10))
			})
		}
	}
}

func TestAppsDepthwiseGPUSchedules(t *testing.T) {
	sizes := []struct{ B, C, H, W, K int }{
		{3, 4, 16, 32, 7}, // the seed's configuration
		{2, 3, 12, 20, 5}, // not multiples of the 16x16 tiles
	}
	for _, sz := range sizes {
		for _, s := range algo.DepthwiseGPUSchedules {
			t.Run(fmt.Sprintf("%s/%dx%dx%dx%d_K%d", s.Name, sz.B, sz.C, sz.H, sz.W, sz.K), func(t *testing.T) {
				start := time.Now()
				d := algo.NewDepthwise(sz.B, sz.C, sz.H, sz.W, sz.K)
				s.Apply(d)
				reps, _ := realizeApp(t, d)
				if len(reps) != 1 {
					t.Fatalf("%d kernels, want 1", len(reps))
				}
				r := reps[0]
				conv := d.Conv.Name()
				switch s.Name {
				case "naive", "v1", "v2":
					// One thread per block: Conv at the block level, one
					// float of shared memory (barriers not checked, as for
					// GEMM's naive schedule).
					checkKernel(t, r, want{block: []int64{1, 1, 1}, shared: []alloc{{conv, 1}}, registers: []alloc{}, barriers: -1})
					grid := map[string][]int64{
						"naive": {int64(sz.B), 1, 1},
						"v1":    {int64(sz.B), int64(sz.C), 1},
						"v2":    {int64(sz.B * sz.C), int64(sz.H), 1},
					}[s.Name]
					if fmt.Sprint(r.GridValues) != fmt.Sprint(grid) {
						t.Errorf("grid %v, want %v", r.GridValues, grid)
					}
				case "v3", "v4":
					checkKernel(t, r, want{block: []int64{16, 16, 1}, shared: []alloc{}, registers: []alloc{{conv, 1}}, barriers: 0})
				case "tiled_shared":
					// The 16x16 tile with its halo, and the channel's KxK
					// weights; one barrier after the loads.
					halo := int64(16 + sz.K - 1)
					checkKernel(t, r, want{
						block:     []int64{16, 16, 1},
						shared:    []alloc{{d.Padded.In(d.Conv).Name(), halo * halo}, {d.Weight.In(d.Conv).Name(), int64(sz.K * sz.K)}},
						registers: []alloc{{conv, 1}},
						barriers:  1,
					})
				default:
					t.Fatalf("no expectations for schedule %q", s.Name)
				}
				t.Logf("%s: %v", s.Name, time.Since(start).Round(time.Millisecond/10))
			})
		}
	}
}
