package gpu_test

import (
	"fmt"
	"math"
	"math/rand"
	"strings"
	"testing"

	"github.com/gohalide/gohalide/apps/algo"
	"github.com/gohalide/gohalide/cfamily"
	"github.com/gohalide/gohalide/halide"
)

// Row reductions out(y) = op over x of in(x, y), made by rfactor: the
// columns are split by the number of threads, rxi becomes the pure var u
// of the intermediate (each thread reduces a strided slice of its row,
// columns rxo*threads + u), and the output reduces over rxi on the threads
// or lanes of a block: an all-reduce (warp shuffles, then the warps
// through shared memory). Widths, heights and thread counts are not
// multiples of 32.

// laneOp is a reduction: its update, its identity and a float64
// reference of one step (in the element type's arithmetic).
type laneOp struct {
	name   string
	t      halide.Type
	update func(f *halide.Func, y halide.Var, v halide.Expr)
	init   any
	step   func(acc, v float64) float64
	// value maps a uniform random number in [0, 1) to an input value.
	value func(u float64) float64
}

func f32(x float64) float64 { return float64(float32(x)) }

var laneOps = []laneOp{
	{"sum_f32", halide.Float32, func(f *halide.Func, y halide.Var, v halide.Expr) { f.Define(y).PlusEq(v) }, float32(0),
		func(a, v float64) float64 { return a + v }, func(u float64) float64 { return f32(2*u - 1) }},
	{"max_f32", halide.Float32, func(f *halide.Func, y halide.Var, v halide.Expr) { f.Define(y).MaxEq(v) }, float32(math.Inf(-1)),
		math.Max, func(u float64) float64 { return f32(100*u - 50) }},
	{"min_f32", halide.Float32, func(f *halide.Func, y halide.Var, v halide.Expr) { f.Define(y).MinEq(v) }, float32(math.Inf(1)),
		math.Min, func(u float64) float64 { return f32(100*u - 50) }},
	{"product_f32", halide.Float32, func(f *halide.Func, y halide.Var, v halide.Expr) { f.Define(y).TimesEq(v) }, float32(1),
		func(a, v float64) float64 { return a * v }, func(u float64) float64 { return f32(0.95 + 0.1*u) }},
	{"sum_i32", halide.Int32, func(f *halide.Func, y halide.Var, v halide.Expr) { f.Define(y).PlusEq(v) }, int32(0),
		func(a, v float64) float64 { return float64(int32(int64(a) + int64(v))) }, func(u float64) float64 { return math.Floor(2e6*u) - 1e6 }},
	{"max_i32", halide.Int32, func(f *halide.Func, y halide.Var, v halide.Expr) { f.Define(y).MaxEq(v) }, int32(math.MinInt32),
		math.Max, func(u float64) float64 { return math.Floor(2e9*u) - 1e9 }},
	{"min_i32", halide.Int32, func(f *halide.Func, y halide.Var, v halide.Expr) { f.Define(y).MinEq(v) }, int32(math.MaxInt32),
		math.Min, func(u float64) float64 { return math.Floor(2e9*u) - 1e9 }},
	{"product_i32", halide.Int32, func(f *halide.Func, y halide.Var, v halide.Expr) { f.Define(y).TimesEq(v) }, int32(1),
		func(a, v float64) float64 { return float64(int32(int64(a) * int64(v))) }, func(u float64) float64 { return math.Floor(7*u) - 3 }},
	{"max_u8", halide.UInt8, func(f *halide.Func, y halide.Var, v halide.Expr) { f.Define(y).MaxEq(v) }, uint8(0),
		math.Max, func(u float64) float64 { return math.Floor(256 * u) }},
}

// laneSchedule is how the output's update runs over rxi.
type laneSchedule struct {
	name    string
	threads int  // the split factor: rxi's extent
	lanes   bool // GPULanes(rxi), else GPUThreads(rxi)
	rows    int  // rows per block (thread y), 1: one row per block
}

var laneSchedules = []laneSchedule{
	{"threads1", 1, false, 1},
	{"threads7", 7, false, 1},
	{"threads100", 100, false, 1},
	{"threads256", 256, false, 1},
	{"threads64_rows3", 64, false, 3},
	{"lanes20", 20, true, 1},
	{"lanes32", 32, true, 1},
	{"lanes16_rows5", 16, true, 5},
	{"lanes32_rows4", 32, true, 4},
}

// rowReduce builds op over the rows of in; with s nil the pipeline has no
// GPU schedule (the CPU path: rfactor's serial loops).
func rowReduce(op laneOp, s *laneSchedule) (*halide.Func, *halide.ImageParam) {
	in := halide.NewImageParam("in", op.t, 2)
	y := halide.NewVar("y")
	r := halide.NewRDom("r", halide.Range(0, in.Dim(0).Extent()))
	out := halide.NewFunc("out")
	out.Define(y).Is(op.init)
	op.update(out, y, in.At(r.X(), y))
	threads := 32
	if s != nil {
		threads = s.threads
	}
	u, rxo, rxi := halide.NewVar("u"), halide.NewRVar("rxo"), halide.NewRVar("rxi")
	intm := out.Update(0).Split(r.X(), rxo, rxi, threads).RFactor(halide.RFactorPair{R: rxi, V: u})
	if s == nil {
		intm.ComputeAtStage(out.Update(0), rxi)
		return out, in
	}
	yo, yi := halide.NewVar("yo"), halide.NewVar("yi")
	if s.rows == 1 {
		out.GPUBlocks(y)
		out.Update(0).GPUBlocks(y)
	} else {
		out.GPUTile1D(y, yo, yi, s.rows)
		out.Update(0).Split(y, yo, yi, s.rows, halide.GuardWithIf).GPUBlocks(yo).GPUThreads(yi)
	}
	if s.lanes {
		out.Update(0).GPULanes(rxi)
	} else {
		out.Update(0).GPUThreads(rxi)
	}
	if s.rows > 1 {
		// GPUThreads(rxi) above made rxi thread x again after yi.
		out.Update(0).Reorder(rxi, yi)
	}
	intm.ComputeAtStage(out.Update(0), rxi)
	return out, in
}

// laneInput fills a w x h buffer of op's type with random values and
// returns them as float64s.
func laneInput(op laneOp, w, h int, seed int64) (halide.BufferRef, [][]float64) {
	rng := rand.New(rand.NewSource(seed))
	vals := make([][]float64, h)
	for y := range vals {
		vals[y] = make([]float64, w)
		for x := range vals[y] {
			vals[y][x] = op.value(rng.Float64())
		}
	}
	switch op.t {
	case halide.Float32:
		b := halide.NewBuffer[float32](w, h)
		b.Fill(func(c []int) float32 { return float32(vals[c[1]][c[0]]) })
		return b, vals
	case halide.Int32:
		b := halide.NewBuffer[int32](w, h)
		b.Fill(func(c []int) int32 { return int32(vals[c[1]][c[0]]) })
		return b, vals
	}
	b := halide.NewBuffer[uint8](w, h)
	b.Fill(func(c []int) uint8 { return uint8(vals[c[1]][c[0]]) })
	return b, vals
}

// laneRealize realizes out over h rows and returns them as float64s.
func laneRealize(p *halide.Pipeline, op laneOp, h int) ([]float64, error) {
	got := make([]float64, h)
	switch op.t {
	case halide.Float32:
		b := halide.NewBuffer[float32](h)
		err := p.Realize(b)
		for y := range got {
			got[y] = float64(b.Get(y))
		}
		return got, err
	case halide.Int32:
		b := halide.NewBuffer[int32](h)
		err := p.Realize(b)
		for y := range got {
			got[y] = float64(b.Get(y))
		}
		return got, err
	}
	b := halide.NewBuffer[uint8](h)
	err := p.Realize(b)
	for y := range got {
		got[y] = float64(b.Get(y))
	}
	return got, err
}

// laneCheck compares got with the serial reduction of each row. Integer
// results are exact (+ and * wrap, which keeps them associative); a float
// sum of w terms in another order differs from the float64 sum by at most
// w * 2^-24 of the sum of the magnitudes, a product of w terms near 1 by
// w * 2^-23 of its value; max and min are exact.
func laneCheck(t *testing.T, what string, op laneOp, vals [][]float64, got []float64) {
	t.Helper()
	for y, row := range vals {
		want, mag := 0.0, 0.0
		switch init := op.init.(type) {
		case float32:
			want = float64(init)
		case int32:
			want = float64(init)
		case uint8:
			want = float64(init)
		}
		for _, v := range row {
			want = op.step(want, v)
			mag += math.Abs(v)
		}
		tol := 0.0
		if op.t == halide.Float32 {
			switch {
			case strings.HasPrefix(op.name, "sum"):
				tol = mag * float64(len(row)) / (1 << 24)
			case strings.HasPrefix(op.name, "product"):
				tol = math.Abs(want) * float64(len(row)) / (1 << 23)
			}
		}
		if math.Abs(got[y]-want) > tol || math.IsNaN(got[y]) {
			t.Errorf("%s: row %d = %v, want %v (tolerance %g)", what, y, got[y], want, tol)
			return
		}
	}
}

// nvccLaneSchedules are the schedules whose kernels go through nvcc, for
// the first reduction of each type: a partial warp and two warps through
// shared memory, lanes of several rows in a warp, and rows of two warps.
var nvccLaneSchedules = map[string]bool{"threads100": true, "lanes16_rows5": true, "threads64_rows3": true}

// TestLanesRowReduce runs every reduction under every schedule on the
// emulator and without a GPU schedule on the CPU, against plain Go, and
// compiles the kernels with nvcc when it is present.
func TestLanesRowReduce(t *testing.T) {
	const w, h = 300, 13 // neither a multiple of 32
	_, nvcc := cfamily.NVCCPath()
	for i, op := range laneOps {
		buf, vals := laneInput(op, w, h, int64(40+i))
		cpu, in := rowReduce(op, nil)
		in.Set(buf)
		got, err := laneRealize(halide.NewPipeline(cpu), op, h)
		if err != nil {
			t.Fatalf("%s cpu: %v", op.name, err)
		}
		laneCheck(t, op.name+" cpu", op, vals, got)
		for _, s := range laneSchedules {
			what := op.name + " " + s.name
			out, in := rowReduce(op, &s)
			in.Set(buf)
			p := halide.NewPipeline(out)
			l, err := p.Lower()
			if err != nil {
				t.Errorf("%s: %v", what, err)
				continue
			}
			got, err := laneRealize(p, op, h)
			if err != nil {
				t.Errorf("%s: %v", what, err)
				continue
			}
			laneCheck(t, what, op, vals, got)
			src, err := l.CUDA()
			if err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			if s.threads > 1 && !strings.Contains(src, "__shfl_down_sync(0xffffffffu") {
				t.Errorf("%s: no warp shuffle in the CUDA:\n%s", what, src)
			}
			if nvcc && !testing.Short() && (i == 0 || op.t != laneOps[i-1].t) && nvccLaneSchedules[s.name] {
				t.Run(fmt.Sprintf("nvcc_%s", strings.ReplaceAll(what, " ", "_")), func(t *testing.T) {
					checkKernelsNVCC(t, l.Kernels())
				})
			}
		}
	}
}

// TestRowSumKernelsNVCC compiles the kernels of apps/rowsum's schedules at
// the benchmark size (8192 x 8192) with nvcc: the shared memory is the
// inferred pool, no stack frame, no spills; the all-reduce schedules use
// warp shuffles, the block one barriers too.
func TestRowSumKernelsNVCC(t *testing.T) {
	if _, ok := cfamily.NVCCPath(); !ok || testing.Short() {
		t.Skip("no nvcc, or -short")
	}
	for _, s := range []struct {
		name     string
		apply    func(*algo.RowSum) error
		shuffles bool
	}{
		{"plain", func(v *algo.RowSum) error { v.GPUSchedulePlain(); return nil }, false},
		{"block", func(v *algo.RowSum) error { return v.GPUScheduleBlock(256, 4) }, true},
		{"warp", func(v *algo.RowSum) error { return v.GPUScheduleWarp(8, 4) }, true},
	} {
		t.Run(s.name, func(t *testing.T) {
			v := algo.NewRowSum(8192, 8192)
			if err := s.apply(v); err != nil {
				t.Fatal(err)
			}
			l, err := halide.NewPipeline(v.Out()).Lower()
			if err != nil {
				t.Fatal(err)
			}
			if n := len(l.Kernels()); n != 1 {
				t.Errorf("%d kernels, want 1", n)
			}
			src := checkKernelsNVCC(t, l.Kernels())
			if got := strings.Contains(src, "__shfl_down_sync"); got != s.shuffles {
				t.Errorf("warp shuffles in the CUDA: %v, want %v", got, s.shuffles)
			}
		})
	}
}
