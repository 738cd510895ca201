package differential_test

import (
	"testing"

	"github.com/gohalide/gohalide/apps/algo"
	"github.com/gohalide/gohalide/halide"
)

// Tensor product sizes: C = 20 input channels, M = 19 output channels, N =
// 3 kernel offsets, P = 37 pairs per offset (maxPos), 23 input points and
// 17 output points. The issue's factors (128, 32, 4, 16) are scaled down to
// 16, 8, 4 and 8 so that every split has several iterations and a tail;
// schedule "A_issue_factors" keeps the originals.
const tpC, tpM, tpN, tpP, tpIn, tpOut = 20, 19, 3, 37, 23, 17

// tpScaled scales the issue's factors (128, 4, 32, 16) down so that every
// split has several iterations and a tail at the test's sizes.
var tpScaled = algo.TPFactors{PBlock: 16, P0: 4, MBlock: 8, C0: 8}

var tpCases = []schedCase[*algo.TensorProduct]{
	{"default", func(t *algo.TensorProduct) {}},
	{"smoke", func(t *algo.TensorProduct) {
		p1 := rv("p1")
		t.Product.ComputeAt(t.Output, t.Mv)
		t.Output.Update(0).Split(t.R.Y(), t.R.Y(), p1, 4).Reorder(t.Mv, p1, t.R.Y(), t.R.X())
	}},
	{"A", func(t *algo.TensorProduct) { t.ScheduleA(tpScaled) }},
	{"A_issue_factors", func(t *algo.TensorProduct) { t.ScheduleA(algo.IssueFactors) }},
	{"A_gatherweight_stored_at_block_m", func(t *algo.TensorProduct) {
		// Schedule A with GatherWeight's storage hoisted to the block loop
		// m (store_at != compute_at).
		t.ScheduleA(tpScaled)
		t.GatherWeight.StoreAt(t.Output, t.Mv).StoreIn(halide.MemoryAuto)
	}},
	{"B", func(t *algo.TensorProduct) { t.ScheduleB(tpScaled) }},
	{"C", func(t *algo.TensorProduct) { t.ScheduleC(tpScaled) }},
	{"C_issue_factors", func(t *algo.TensorProduct) { t.ScheduleC(algo.IssueFactors) }},
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
		// The issue's loop order (r.x = n outermost); a wrapper of the
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
