package differential_test

import (
	"testing"

	"github.com/gohalide/gohalide/apps/algo"
	"github.com/gohalide/gohalide/halide"
)

// Conv1D sizes: a signal of 37 and a kernel of 7, so the output has 43
// points; neither 43 nor 7 is a multiple of the factors 4 and 8 below.
const c1M, c1N = 37, 7

var conv1dCases = []schedCase[*algo.Conv1D]{
	{"default", func(c *algo.Conv1D) {}},
	{"inputs_root", func(c *algo.Conv1D) {
		c.APad.ComputeRoot()
		c.BIn.ComputeRoot()
	}},
	{"guard_splits_apad_at_block", func(c *algo.Conv1D) {
		io, ii := v("io"), v("ii")
		c.Output.Split(c.I, io, ii, 8, halide.GuardWithIf)
		c.Output.Update(0).Split(c.I, io, ii, 8, halide.GuardWithIf).Reorder(ii, c.R.X(), io)
		c.APad.ComputeAt(c.Output, io)
	}},
	{"shift_inwards_pure_vectorized_update", func(c *algo.Conv1D) {
		io, ii := v("io"), v("ii")
		c.Output.Split(c.I, io, ii, 8, halide.ShiftInwards).Vectorize(ii)
		c.Output.Update(0).Split(c.I, io, ii, 8, halide.GuardWithIf).Reorder(ii, c.R.X(), io).Vectorize(ii)
	}},
	{"roundup_apad", func(c *algo.Conv1D) {
		io, ii := v("io"), v("ii")
		c.APad.ComputeRoot().Split(c.I, io, ii, 8, halide.RoundUp).Vectorize(ii)
	}},
	{"rvar_split_unroll", func(c *algo.Conv1D) {
		ro, ri := rv("ro"), rv("ri")
		c.Output.Update(0).Split(c.R.X(), ro, ri, 4, halide.GuardWithIf).Unroll(ri)
	}},
	{"parallel_update_blocks", func(c *algo.Conv1D) {
		io, ii := v("io"), v("ii")
		c.Output.Parallel(c.I)
		c.Output.Update(0).Split(c.I, io, ii, 8, halide.GuardWithIf).Parallel(io)
		c.BIn.ComputeRoot()
	}},
	{"atomic_parallel_rvar", func(c *algo.Conv1D) {
		// Every iteration of r adds to every output point: the parallel
		// RVar loop needs atomic stores.
		c.Output.Update(0).Reorder(c.I, c.R.X()).Atomic().Parallel(c.R.X())
		c.APad.ComputeRoot()
	}},
	{"b_wrapper_at_rvar_innermost", func(c *algo.Conv1D) {
		c.BIn.ComputeRoot()
		c.BIn.In(c.Output).ComputeAt(c.Output, c.R.X())
	}},
	{"apad_wrapper_own_schedule", func(c *algo.Conv1D) {
		io, ii, wo, wi := v("io"), v("ii"), v("wo"), v("wi")
		c.Output.Update(0).Split(c.I, io, ii, 8, halide.GuardWithIf)
		c.APad.In(c.Output).ComputeAt(c.Output, io).Split(c.I, wo, wi, 4, halide.GuardWithIf).Vectorize(wi)
	}},
	{"store_root_compute_at_block", func(c *algo.Conv1D) {
		io, ii := v("io"), v("ii")
		c.Output.Update(0).Split(c.I, io, ii, 4, halide.GuardWithIf)
		c.APad.StoreRoot().ComputeAt(c.Output, io)
		c.BIn.StoreRoot().ComputeAt(c.Output, ii)
	}},
	{"bounds", func(c *algo.Conv1D) {
		c.Output.Bound(c.I, 0, c1M+c1N-1)
		c.APad.ComputeRoot().Bound(c.I, -(c1N - 1), c1M+2*c1N-2)
		c.BIn.ComputeRoot().Bound(c.I, 0, c1N)
	}},
}

func TestConv1D(t *testing.T) {
	runCases(t, func() *algo.Conv1D { return algo.NewConv1D(c1M, c1N) }, conv1dCases)
}

// TestConv1DLongKernel runs the schedules with a kernel longer than the
// signal (5 and 9: 13 output points), except "bounds", whose Bound
// directives are written for the default sizes.
func TestConv1DLongKernel(t *testing.T) {
	var cases []schedCase[*algo.Conv1D]
	for _, c := range conv1dCases {
		if c.name != "bounds" {
			cases = append(cases, c)
		}
	}
	runCases(t, func() *algo.Conv1D { return algo.NewConv1D(5, 9) }, cases)
}
