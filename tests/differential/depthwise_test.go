package differential_test

import (
	"testing"

	"github.com/gohalide/gohalide/apps/algo"
	"github.com/gohalide/gohalide/halide"
)

// Depthwise sizes: batch 2, 3 channels, 13×19 pixels, 3×3 kernels. 13 and
// 19 are not multiples of the factors 4 and 8 used below.
const dwB, dwC, dwH, dwW, dwK = 2, 3, 13, 19, 3

var depthwiseCases = []schedCase[*algo.Depthwise]{
	{"default", func(d *algo.Depthwise) {}},
	{"all_root", func(d *algo.Depthwise) {
		d.Padded.ComputeRoot()
		d.Conv.ComputeRoot()
	}},
	{"tile_guard_fuse_parallel_unroll", func(d *algo.Depthwise) {
		// The smoke test's schedule, on the output, with the reduction at
		// the tile.
		xo, yo, xi, yi, cb := v("xo"), v("yo"), v("xi"), v("yi"), v("cb")
		d.Output.Tile(d.X, d.Y, xo, yo, xi, yi, 4, 4, halide.GuardWithIf).
			Fuse(d.Cv, d.Bv, cb).Parallel(cb).Unroll(xi)
		d.Conv.ComputeAt(d.Output, xo)
	}},
	{"innermost_unrolled_kernel", func(d *algo.Depthwise) {
		d.Conv.ComputeAt(d.Output, d.X)
		d.Conv.Update(0).Unroll(d.R.X()).Unroll(d.R.Y())
	}},
	{"shift_inwards_vectorize", func(d *algo.Depthwise) {
		xo, xi, cx, cv := v("xo"), v("xi"), v("cx"), v("cv")
		d.Output.Split(d.X, xo, xi, 8, halide.ShiftInwards).Vectorize(xi)
		d.Conv.ComputeAt(d.Output, xo).Split(d.X, cx, cv, 4, halide.ShiftInwards).Vectorize(cv)
		d.Conv.Update(0).Reorder(d.X, d.R.X(), d.R.Y(), d.Y).Split(d.X, cx, cv, 4, halide.GuardWithIf).Vectorize(cv)
	}},
	{"padded_store_at_row_compute_at_tile", func(d *algo.Depthwise) {
		xo, yo, xi, yi := v("xo"), v("yo"), v("xi"), v("yi")
		d.Output.Tile(d.X, d.Y, xo, yo, xi, yi, 8, 4, halide.GuardWithIf)
		d.Conv.ComputeAt(d.Output, xo)
		d.Padded.StoreAt(d.Output, yo).ComputeAt(d.Output, xo)
	}},
	{"roundup_intermediates", func(d *algo.Depthwise) {
		xo, xi, yo, yi := v("xo"), v("xi"), v("yo"), v("yi")
		d.Padded.ComputeRoot().Split(d.Y, yo, yi, 4, halide.RoundUp)
		d.Conv.ComputeRoot().Split(d.X, xo, xi, 8, halide.RoundUp).Vectorize(xi)
		d.Conv.Update(0).Split(d.X, xo, xi, 8, halide.RoundUp).Vectorize(xi)
	}},
	{"padded_wrapper_own_schedule", func(d *algo.Depthwise) {
		yo, yi, xo, xi := v("yo"), v("yi"), v("xo"), v("xi")
		d.Output.Split(d.Y, yo, yi, 4, halide.GuardWithIf)
		d.Conv.ComputeAt(d.Output, yo)
		d.Padded.In(d.Conv).ComputeAt(d.Output, yo).Split(d.X, xo, xi, 4, halide.GuardWithIf).Unroll(xi)
	}},
	{"reorder_channels_inside", func(d *algo.Depthwise) {
		d.Output.Reorder(d.Cv, d.X, d.Y, d.Bv)
		d.Conv.ComputeAt(d.Output, d.Y)
		d.Conv.Reorder(d.Cv, d.X, d.Y, d.Bv)
		d.Conv.Update(0).Reorder(d.Cv, d.R.X(), d.X, d.R.Y(), d.Y, d.Bv)
	}},
	{"bound_root", func(d *algo.Depthwise) {
		d.Output.Bound(d.Cv, 0, dwC).Bound(d.Bv, 0, dwB)
		// Bound makes Conv's x extent constant, so it can be vectorized
		// without a split.
		d.Conv.ComputeRoot().Bound(d.Cv, 0, dwC).Bound(d.Bv, 0, dwB).Bound(d.X, 0, dwW).Vectorize(d.X)
		d.Conv.Update(0).Vectorize(d.X)
	}},
	{"parallel_pure_and_update", func(d *algo.Depthwise) {
		d.Output.Parallel(d.Bv)
		d.Conv.ComputeRoot().Parallel(d.Cv)
		d.Conv.Update(0).Parallel(d.Y)
	}},
	{"update_split_rvar_guard", func(d *algo.Depthwise) {
		// A 3-wide kernel split by 2: the tail of r.x is guarded.
		rxo, rxi := rv("rxo"), rv("rxi")
		d.Conv.ComputeAt(d.Output, d.Y)
		d.Conv.Update(0).Split(d.R.X(), rxo, rxi, 2, halide.GuardWithIf).Unroll(rxi)
	}},
}

func TestDepthwise(t *testing.T) {
	runCases(t, func() *algo.Depthwise { return algo.NewDepthwise(dwB, dwC, dwH, dwW, dwK) }, depthwiseCases)
}

// TestDepthwise5x5 runs two schedules with a 5×5 kernel (pad 2).
func TestDepthwise5x5(t *testing.T) {
	runCases(t, func() *algo.Depthwise { return algo.NewDepthwise(1, 2, 11, 9, 5) }, []schedCase[*algo.Depthwise]{
		depthwiseCases[2], depthwiseCases[5],
	})
}
