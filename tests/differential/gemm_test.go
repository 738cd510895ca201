package differential_test

import (
	"testing"

	"github.com/gohalide/gohalide/apps/algo"
	"github.com/gohalide/gohalide/halide"
)

// GEMM sizes: M×K times K×N, none a multiple of the factors 4 and 8 used
// below.
const gemmM, gemmN, gemmK = 19, 37, 23

var gemmCases = []schedCase[*algo.GEMM]{
	{"default", func(g *algo.GEMM) {}},
	{"prod_root", func(g *algo.GEMM) {
		g.Prod.ComputeRoot()
	}},
	{"tile_guard_prod_at_tile", func(g *algo.GEMM) {
		jo, io, ji, ii := v("jo"), v("io"), v("ji"), v("ii")
		g.Output.Tile(g.J, g.I, jo, io, ji, ii, 8, 4, halide.GuardWithIf)
		g.Prod.ComputeAt(g.Output, jo)
	}},
	{"tile_shift_vectorize", func(g *algo.GEMM) {
		// ShiftInwards tiles, vectorized; Prod at the tile, its pure stage
		// vectorized by a split of 4 (ShiftInwards, the default for a pure
		// stage). The variant that also splits Prod's update with RoundUp
		// is in bugs_test.go.
		jo, io, ji, ii := v("jo"), v("io"), v("ji"), v("ii")
		g.Output.Tile(g.J, g.I, jo, io, ji, ii, 8, 4, halide.ShiftInwards).Vectorize(ji)
		g.Prod.ComputeAt(g.Output, jo).Vectorize(g.J, 4)
		g.Prod.Update(0).Reorder(g.J, g.I, g.R.X())
	}},
	{"tile_shift_vectorize_whole_prod_row", func(g *algo.GEMM) {
		// Prod at a ShiftInwards tile is always 8 columns wide, so its j
		// loops can be vectorized without a split.
		jo, io, ji, ii := v("jo"), v("io"), v("ji"), v("ii")
		g.Output.Tile(g.J, g.I, jo, io, ji, ii, 8, 4, halide.ShiftInwards)
		g.Prod.ComputeAt(g.Output, jo).Vectorize(g.J)
		g.Prod.Update(0).Reorder(g.J, g.R.X(), g.I).Vectorize(g.J)
	}},
	{"roundup_prod_init", func(g *algo.GEMM) {
		// RoundUp on an intermediate: Prod's initialization is rounded up
		// to 40 columns and 20 rows, so its allocation must grow; the
		// update (which reads A and B) covers exactly the 37×19 needed.
		// (GEMM has no boundary condition, so rounding up a stage that
		// reads B would read it out of bounds.)
		jo, ji, io, ii := v("jo"), v("ji"), v("io"), v("ii")
		g.Prod.ComputeRoot().Split(g.J, jo, ji, 8, halide.RoundUp).Split(g.I, io, ii, 4, halide.RoundUp).Vectorize(ji)
	}},
	{"update_reorder_split_unroll", func(g *algo.GEMM) {
		ro, ri := rv("ro"), rv("ri")
		g.Prod.ComputeRoot()
		g.Prod.Update(0).Reorder(g.J, g.R.X(), g.I).Split(g.R.X(), ro, ri, 4, halide.GuardWithIf).Unroll(ri)
	}},
	{"fuse_parallel_innermost", func(g *algo.GEMM) {
		ji := v("ji")
		g.Output.Fuse(g.J, g.I, ji).Parallel(ji)
		g.Prod.ComputeAt(g.Output, ji)
	}},
	{"inputs_in_wrappers_at_k_block", func(g *algo.GEMM) {
		jo, io, ji, ii := v("jo"), v("io"), v("ji"), v("ii")
		ro, ri := rv("ro"), rv("ri")
		g.Output.Tile(g.J, g.I, jo, io, ji, ii, 8, 8, halide.GuardWithIf).Parallel(io)
		g.Prod.ComputeAt(g.Output, jo)
		g.Prod.Update(0).Split(g.R.X(), ro, ri, 8, halide.GuardWithIf).Reorder(g.J, ri, g.I, ro)
		g.AIn.In(g.Prod).ComputeAt(g.Prod, ro)
		g.BIn.In(g.Prod).ComputeAt(g.Prod, ro).Vectorize(g.J, 4)
	}},
	{"store_at_outer_compute_at_inner", func(g *algo.GEMM) {
		jo, io, ji, ii := v("jo"), v("io"), v("ji"), v("ii")
		g.Output.Tile(g.J, g.I, jo, io, ji, ii, 8, 4, halide.GuardWithIf)
		g.Prod.StoreAt(g.Output, io).ComputeAt(g.Output, ji)
	}},
	{"compute_at_innermost", func(g *algo.GEMM) {
		io, ii := v("io"), v("ii")
		g.Output.Split(g.I, io, ii, 4, halide.GuardWithIf)
		g.Prod.ComputeAt(g.Output, g.J)
	}},
	{"bound_and_root_inputs", func(g *algo.GEMM) {
		g.Output.Bound(g.J, 0, gemmN).Bound(g.I, 0, gemmM)
		g.Prod.ComputeRoot().Bound(g.J, 0, gemmN)
		g.AIn.ComputeRoot()
		g.BIn.ComputeRoot().Bound(g.J, 0, gemmN)
	}},
	{"parallel_rows_vectorized_update", func(g *algo.GEMM) {
		io, ii, jo, jv := v("io"), v("ii"), v("jo"), v("jv")
		g.Output.Split(g.I, io, ii, 4, halide.GuardWithIf).Parallel(io)
		g.Prod.ComputeAt(g.Output, io)
		g.Prod.Update(0).Split(g.J, jo, jv, 4, halide.GuardWithIf).Vectorize(jv).Parallel(g.I)
	}},
	{"prod_wrapper_own_schedule", func(g *algo.GEMM) {
		io, ii := v("io"), v("ii")
		g.Output.Split(g.I, io, ii, 8, halide.GuardWithIf)
		g.Prod.ComputeRoot()
		g.Prod.In(g.Output).ComputeAt(g.Output, io).Unroll(g.I, 2)
	}},
}

func TestGEMM(t *testing.T) {
	runCases(t, func() *algo.GEMM { return algo.NewGEMM(gemmM, gemmN, gemmK) }, gemmCases)
}
