//go:build cuda

package cuda_test

import (
	"math"
	"math/rand"
	"testing"

	"github.com/gohalide/gohalide/apps/algo"
	"github.com/gohalide/gohalide/halide"
)

// TestRowSum realizes the row sum of apps/rowsum under each schedule on the
// GPU, at the benchmark size (8192 x 8192) and at an odd one (rows not a
// multiple of 8 or 128), and compares it with the plain-Go float64 sums
// (algo.Tol relative to max(1, |want|)). The block and warp schedules are
// all-reduces lowered from rfactor + GPUThreads / GPULanes: warp shuffles
// (__shfl_down_sync) and, for the block, shared memory between the warps.
func TestRowSum(t *testing.T) {
	schedules := []struct {
		name  string
		apply func(*algo.RowSum) error
	}{
		{"plain", func(v *algo.RowSum) error { v.GPUSchedulePlain(); return nil }},
		{"block", func(v *algo.RowSum) error { return v.GPUScheduleBlock(256, 4) }},
		{"block1024", func(v *algo.RowSum) error { return v.GPUScheduleBlock(1024, 2) }},
		{"warp", func(v *algo.RowSum) error { return v.GPUScheduleWarp(8, 4) }},
	}
	for _, size := range [][2]int{{8192, 8192}, {2048, 1001}} {
		for _, s := range schedules {
			v := algo.NewRowSum(size[0], size[1])
			if err := s.apply(v); err != nil {
				t.Fatal(err)
			}
			p := halide.NewPipeline(v.Out()).WithTarget(halide.CUDA)
			v.Inputs(rand.New(rand.NewSource(20)))
			out, err := v.Run(p)
			if err != nil {
				t.Fatalf("%s %v: %v", s.name, size, err)
			}
			rel, err := v.Check(out)
			if err != nil {
				t.Errorf("%s %v: %v", s.name, size, err)
				continue
			}
			t.Logf("%s %dx%d: max relative error %.2g", s.name, size[1], size[0], rel)
		}
	}
}

// TestLanesReduceOps runs max, min and an integer sum over rows of 300
// (not a multiple of 32) on 100 threads (a partial warp) and on 20 lanes,
// on the GPU, against plain Go: exact results.
func TestLanesReduceOps(t *testing.T) {
	const w, h = 300, 77
	rng := rand.New(rand.NewSource(5))
	vals := make([]int32, w*h)
	for i := range vals {
		vals[i] = int32(rng.Intn(2000001) - 1000000)
	}
	inI := halide.NewBuffer[int32](w, h)
	inI.Fill(func(c []int) int32 { return vals[c[1]*w+c[0]] })
	inF := halide.NewBuffer[float32](w, h)
	inF.Fill(func(c []int) float32 { return float32(vals[c[1]*w+c[0]]) / 1000 })
	ops := []struct {
		name string
		t    halide.Type
		def  func(f *halide.Func, y halide.Var, v halide.Expr)
		init any
		ref  func(row []int32) float64
	}{
		{"max_f32", halide.Float32, func(f *halide.Func, y halide.Var, v halide.Expr) { f.Define(y).MaxEq(v) }, float32(math.Inf(-1)),
			func(row []int32) float64 {
				m := math.Inf(-1)
				for _, x := range row {
					m = math.Max(m, float64(float32(x)/1000))
				}
				return m
			}},
		{"min_f32", halide.Float32, func(f *halide.Func, y halide.Var, v halide.Expr) { f.Define(y).MinEq(v) }, float32(math.Inf(1)),
			func(row []int32) float64 {
				m := math.Inf(1)
				for _, x := range row {
					m = math.Min(m, float64(float32(x)/1000))
				}
				return m
			}},
		{"sum_i32", halide.Int32, func(f *halide.Func, y halide.Var, v halide.Expr) { f.Define(y).PlusEq(v) }, int32(0),
			func(row []int32) float64 {
				var s int32
				for _, x := range row {
					s += x
				}
				return float64(s)
			}},
	}
	for _, op := range ops {
		for _, lanes := range []bool{false, true} {
			threads := 100
			if lanes {
				threads = 20
			}
			in := halide.NewImageParam("in", op.t, 2)
			y, u := halide.NewVar("y"), halide.NewVar("u")
			rxo, rxi := halide.NewRVar("rxo"), halide.NewRVar("rxi")
			r := halide.NewRDom("r", halide.Range(0, in.Dim(0).Extent()))
			f := halide.NewFunc("f")
			f.Define(y).Is(op.init)
			op.def(f, y, in.At(r.X(), y))
			intm := f.Update(0).Split(r.X(), rxo, rxi, threads).RFactor(halide.RFactorPair{R: rxi, V: u})
			f.GPUBlocks(y)
			f.Update(0).GPUBlocks(y)
			if lanes {
				f.Update(0).GPULanes(rxi)
			} else {
				f.Update(0).GPUThreads(rxi)
			}
			intm.ComputeAtStage(f.Update(0), rxi)
			p := halide.NewPipeline(f).WithTarget(halide.CUDA)
			got := make([]float64, h)
			var err error
			if op.t == halide.Int32 {
				in.Set(inI)
				out := halide.NewBuffer[int32](h)
				err = p.Realize(out)
				for i := range got {
					got[i] = float64(out.Get(i))
				}
			} else {
				in.Set(inF)
				out := halide.NewBuffer[float32](h)
				err = p.Realize(out)
				for i := range got {
					got[i] = float64(out.Get(i))
				}
			}
			if err != nil {
				t.Fatalf("%s lanes=%v: %v", op.name, lanes, err)
			}
			for yy := 0; yy < h; yy++ {
				if want := op.ref(vals[yy*w : (yy+1)*w]); got[yy] != want {
					t.Errorf("%s lanes=%v: row %d = %v, want %v", op.name, lanes, yy, got[yy], want)
					break
				}
			}
		}
	}
}
