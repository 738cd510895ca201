package errors_test

import (
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// TestErrGPULanes checks the schedules of gpu_lanes and of reductions
// across threads (rfactor + GPUThreads / GPULanes on the RVar) that Lower
// or the directive refuses: a lanes loop wider than 32 or of an extent not
// known at Lower, on a block loop, with a thread loop inside it, outside
// any block; an all-reduce along thread y, or in a block whose rows
// straddle warps. Each names the Func, the directive and what is legal.
func TestErrGPULanes(t *testing.T) {
	// rowReduce is out(y) = sum over r of in(r, y), the RVar split by
	// split and rxi made a pure var u of an intermediate computed at rxi.
	type rowReduce struct {
		out, intm *halide.Func
		y         halide.Var
		rxi       halide.RVar
	}
	row := func(split int) rowReduce {
		in := halide.NewImageParam("in", halide.Float32, 2)
		y, u := halide.NewVar("y"), halide.NewVar("u")
		rxo, rxi := halide.NewRVar("rxo"), halide.NewRVar("rxi")
		r := halide.NewRDom("r", halide.Range(0, in.Dim(0).Extent()))
		out := halide.NewFunc("out")
		out.Define(y).Is(float32(0))
		out.Define(y).PlusEq(in.At(r.X(), y))
		intm := out.Update(0).Split(r.X(), rxo, rxi, split).RFactor(halide.RFactorPair{R: rxi, V: u})
		intm.ComputeAtStage(out.Update(0), rxi)
		return rowReduce{out, intm, y, rxi}
	}
	pure := func() (*halide.Func, halide.Var, halide.Var) {
		in := halide.NewImageParam("in", halide.Float32, 2)
		g := halide.NewFunc("g")
		g.Define(x, y).Is(in.At(x, y).Mul(2))
		return g, x, y
	}
	yo, yi := halide.NewVar("yo"), halide.NewVar("yi")
	runCases(t, []errCase{
		{name: "lanes wider than a warp", run: func() error {
			r := row(64)
			r.out.Update(0).GPUBlocks(r.y).GPULanes(r.rxi)
			return lowerErr(r.out)
		}, code: halide.ErrSchedule, fn: "out", directive: "gpu_lanes",
			mentions: []string{"lanes loop out.s1.r$x.rxi", "extent that is 64", "at most 32"}, legal: []string{"GPULanes(xi)", "GPUThreads"}},
		{name: "lanes of an extent known at run time", run: func() error {
			g, x, y := pure()
			g.GPUBlocks(y).GPULanes(x)
			return lowerErr(g)
		}, code: halide.ErrSchedule, fn: "g", directive: "gpu_lanes",
			mentions: []string{"is not a constant"}, legal: []string{"split the loop by at most 32"}},
		{name: "lanes on a block loop", run: func() error {
			g, _, y := pure()
			g.GPUBlocks(y).GPULanes(y)
			return g.Err()
		}, code: halide.ErrSchedule, fn: "g", directive: "gpu_lanes",
			mentions: []string{"is a GPU block loop"}, legal: []string{"inside the block loops"}},
		{name: "a thread loop inside the lanes", run: func() error {
			g, x, y := pure()
			g.Split(y, yo, yi, 4).GPUBlocks(yo).GPUThreads(x).GPULanes(yi)
			return g.Err()
		}, code: halide.ErrSchedule, fn: "g", directive: "gpu_lanes",
			mentions: []string{"thread loop x is inside y.yi", "thread dimension x"}, legal: []string{"reorder"}},
		{name: "lanes outside a block", run: func() error {
			r := row(32)
			r.out.Update(0).GPULanes(r.rxi)
			return lowerErr(r.out)
		}, code: halide.ErrSchedule, fn: "out", directive: "gpu_lanes",
			mentions: []string{"no enclosing block loop"}, legal: []string{"gpu_blocks"}},
		{name: "an all-reduce along thread y", run: func() error {
			r := row(32)
			r.out.Update(0).Split(r.y, yo, yi, 4).Reorder(yi, r.rxi).GPUBlocks(yo).GPUThreads(yi, r.rxi)
			return lowerErr(r.out)
		}, code: halide.ErrSchedule, fn: "out", directive: "gpu_threads",
			mentions: []string{"as an all-reduce", "thread dimension y", "runs along x"}, legal: []string{"innermost GPU thread loop"}},
		{name: "rows of threads that straddle warps", run: func() error {
			r := row(20)
			r.out.Update(0).Split(r.y, yo, yi, 3, halide.GuardWithIf).GPUBlocks(yo).GPUThreads(r.rxi, yi)
			return lowerErr(r.out)
		}, code: halide.ErrSchedule, fn: "out", directive: "gpu_threads",
			mentions: []string{"20 threads wide in x with 3 rows", "straddle warps"}, legal: []string{"power of two up to 32 or a multiple of 32"}},
	})
}
