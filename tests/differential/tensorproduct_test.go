package differential_test

import (
	"testing"

	"github.com/gohalide/gohalide/apps/algo"
	"github.com/gohalide/gohalide/halide"
)

// Tensor product sizes: C = 20 input channels, M = 19 output channels, N =
// 3 kernel offsets, P = 37 pairs per offset (maxPos), 23 input points and
// 17 output points. The factors (128, 32, 4, 16) are scaled down to
// 16, 8, 4 and 8 so that every split has several iterations and a tail;
// schedule "A_issue_factors" keeps the originals.
const tpC, tpM, tpN, tpP, tpIn, tpOut = 20, 19, 3, 37, 23, 17

// tpOutputSchedule is the CPU version of the schedule of the
// output (reference section 1.3): gpu_blocks(o) -> parallel o, and on the
// scatter update the block loop r.y becomes a parallel loop (so the update
// is atomic), the thread loops m1 and p1 stay serial. pFac, p0Fac and mFac
// are the 128, 4 and 32.
func tpOutputSchedule(t *algo.TensorProduct, pFac, p0Fac, mFac int) {
	ry := t.R.Y()
	p1, p0, m1, m0 := rv("p1"), rv("p0"), v("m1"), v("m0")
	mv := t.Mv
	t.Output.Parallel(t.Ov)
	t.Output.Update(0).Atomic().
		Split(ry, ry, p1, pFac, halide.GuardWithIf).
		Split(p1, p1, p0, p0Fac, halide.GuardWithIf).
		Split(mv, mv, m1, mFac, halide.GuardWithIf).
		Split(m1, m1, m0, 1).
		Reorder(p0, m0, m1, p1, mv, ry, t.R.X()).
		Parallel(ry)
}

// tpProductAtThread is the Product schedule: computed per (m1, p1)
// "thread", its update's channel loop split into c1 (outer) and c0.
func tpProductAtThread(t *algo.TensorProduct, cFac int) {
	c1, c0 := rv("c1"), rv("c0")
	t.Product.ComputeAt(t.Output, v("m1"))
	t.Product.Update(0).Split(t.RC.X(), c1, c0, cFac, halide.GuardWithIf).Reorder(c0, t.Pv, c1)
}

var tpCases = []schedCase[*algo.TensorProduct]{
	{"default", func(t *algo.TensorProduct) {}},
	{"smoke", func(t *algo.TensorProduct) {
		p1 := rv("p1")
		t.Product.ComputeAt(t.Output, t.Mv)
		t.Output.Update(0).Split(t.R.Y(), t.R.Y(), p1, 4).Reorder(t.Mv, p1, t.R.Y(), t.R.X())
	}},
	{"A_gatherweight_at_c1_stored_at_block_m", func(t *algo.TensorProduct) {
		// Schedule A with GatherWeight's storage hoisted to the block loop
		// m (store_at != compute_at). Schedule A itself is in bugs_test.go.
		tpOutputSchedule(t, 16, 4, 8)
		tpProductAtThread(t, 8)
		t.GatherWeight.StoreAt(t.Output, t.Mv).ComputeAt(t.Product, rv("c1"))
	}},
	{"B_gatherweight_at_block_m", func(t *algo.TensorProduct) {
		tpOutputSchedule(t, 16, 4, 8)
		tpProductAtThread(t, 8)
		t.GatherWeight.ComputeAt(t.Output, t.Mv)
	}},
	{"C_product_at_block_c1_outside_threads", func(t *algo.TensorProduct) {
		// Section 1.3, schedule C: Product at the block level, its p split
		// into po (thread) and pi, the channel loop c1 outside the "thread"
		// loops m and po, GatherWeight at c1 with its own loops.
		tpOutputSchedule(t, 16, 4, 8)
		po, pi := v("po"), v("pi")
		c1, c0 := rv("c1"), rv("c0")
		t.Product.ComputeAt(t.Output, t.Mv)
		t.Product.Split(t.Pv, po, pi, 4, halide.GuardWithIf)
		t.Product.Update(0).Split(t.RC.X(), c1, c0, 8, halide.GuardWithIf).
			Split(t.Pv, po, pi, 4, halide.GuardWithIf).
			Reorder(c0, pi, t.Mv, po, c1)
		t.GatherWeight.ComputeAt(t.Product, c1).Reorder(t.Cv, t.Mv)
	}},
	{"roundup_and_shift_product_init", func(t *algo.TensorProduct) {
		// Tails on an intermediate: Product's initialization is split with
		// RoundUp on m (19 -> 24 rows, so its allocation grows) and
		// ShiftInwards on p. Its update reads weight and input, which have
		// no boundary condition, so it keeps exact (GuardWithIf) tails.
		mo, mi, po, pi := v("mo"), v("mi"), v("po"), v("pi")
		t.Product.ComputeAt(t.Output, t.R.X()).
			Split(t.Mv, mo, mi, 8, halide.RoundUp).Split(t.Pv, po, pi, 8, halide.ShiftInwards)
		t.Product.Update(0).Split(t.Pv, po, pi, 8, halide.GuardWithIf)
		t.Output.Update(0).Reorder(t.Mv, t.R.Y(), t.R.X())
	}},
	{"all_root", func(t *algo.TensorProduct) {
		t.GatherInput.ComputeRoot()
		t.GatherWeight.ComputeRoot()
		t.Product.ComputeRoot()
	}},
	{"parallel_atomic_scatter_product_at_ry", func(t *algo.TensorProduct) {
		t.Output.Update(0).Atomic().Parallel(t.R.Y())
		t.Product.ComputeAt(t.Output, t.R.Y())
		t.Product.Update(0).Unroll(t.RC.X())
	}},
	{"vectorize_product_m", func(t *algo.TensorProduct) {
		// m innermost in the scatter, Product per pair (all m at once),
		// vectorized along m in both stages.
		mo, mi := v("mo"), v("mi")
		t.Output.Update(0).Reorder(t.Mv, t.R.Y(), t.R.X())
		t.Product.ComputeAt(t.Output, t.R.Y()).Vectorize(t.Mv, 4)
		t.Product.Update(0).Reorder(t.Mv, t.RC.X()).Split(t.Mv, mo, mi, 4, halide.GuardWithIf).Vectorize(mi)
	}},
	{"gatherweight_wrapper_per_offset", func(t *algo.TensorProduct) {
		// The loop order (r.x = n outermost); a wrapper of the
		// root GatherWeight copies weight[., ., n] once per offset.
		co, ci := v("co"), v("ci")
		t.Output.Update(0).Reorder(t.Mv, t.R.Y(), t.R.X())
		t.GatherWeight.ComputeRoot()
		t.GatherWeight.In(t.Product).ComputeAt(t.Output, t.R.X()).
			Split(t.Cv, co, ci, 8, halide.GuardWithIf).Reorder(ci, t.Mv, co)
		t.Product.ComputeAt(t.Output, t.R.Y())
	}},
	{"store_at_outer_compute_at_innermost", func(t *algo.TensorProduct) {
		t.Product.StoreAt(t.Output, t.Mv).ComputeAt(t.Output, t.R.X())
		t.GatherWeight.StoreAt(t.Output, t.R.Y()).ComputeAt(t.Product, t.RC.X())
	}},
	{"bounds_root", func(t *algo.TensorProduct) {
		t.Output.Bound(t.Mv, 0, tpM)
		t.GatherWeight.ComputeRoot().Bound(t.Cv, 0, tpC).Bound(t.Mv, 0, tpM)
		t.Product.ComputeRoot().Bound(t.Mv, 0, tpM)
	}},
	{"fuse_pure_and_update", func(t *algo.TensorProduct) {
		mo, rxy := v("mo"), rv("rxy")
		t.Output.Fuse(t.Mv, t.Ov, mo).Parallel(mo)
		t.Output.Update(0).Fuse(t.R.X(), t.R.Y(), rxy)
		t.Product.ComputeAt(t.Output, rxy)
	}},
}

func TestTensorProduct(t *testing.T) {
	runCases(t, func() *algo.TensorProduct { return algo.NewTensorProduct(tpC, tpM, tpN, tpP, tpIn, tpOut) }, tpCases)
}
