package differential_test

// Regression tests for split tails that recompute or spill (issue 8,
// defects 4 and 5). Each realizes a small pipeline on random non-zero
// inputs and compares every output with a plain-Go reference: int32 exactly,
// float32 within splitsTol.

import (
	"errors"
	"fmt"
	"math"
	"math/rand"
	"strings"
	"testing"

	"github.com/gohalide/gohalide/apps/algo"
	"github.com/gohalide/gohalide/halide"
)

// splitsTol is the relative tolerance of the float32 comparisons: the
// outputs are sums of at most three products of values in [1, 2], so a few
// float32 roundings (relative 2^-24 each) are far below it.
const splitsTol = 1e-5

// randInt32 fills b with random non-zero values in [-9, 9].
func randInt32(rng *rand.Rand, b *halide.Buffer[int32]) {
	b.Fill(func([]int) int32 {
		v := int32(rng.Intn(9) + 1)
		if rng.Intn(2) == 0 {
			v = -v
		}
		return v
	})
}

// conv1DSplitUpdate builds conv(x) = 0; conv(x) += in(x + r) * w(r) for r
// in [0, 3) and out(x) = conv(x), with conv computed at the root and its
// update scheduled by sched; it realizes 23 outputs (not a multiple of any
// factor used) and compares with the reference.
func conv1DSplitUpdate(t *testing.T, seed int64, sched func(u *halide.Stage, x halide.Var)) {
	t.Helper()
	const n, taps = 23, 3
	x := v("x")
	in := halide.NewImageParam("in", halide.Int32, 1)
	w := halide.NewImageParam("w", halide.Int32, 1)
	r := halide.NewRDom("r", halide.Range(0, taps))
	conv := halide.NewFunc("conv")
	conv.Define(x).Is(int32(0))
	conv.Define(x).PlusEq(in.At(x.Add(r.X())).Mul(w.At(r.X())))
	out := halide.NewFunc("out")
	out.Define(x).Is(conv.At(x))
	conv.ComputeRoot()
	sched(conv.Update(0), x)

	rng := rand.New(rand.NewSource(seed))
	// RoundUp tails compute conv past n (its realization grows to cover
	// them) and so read in past n+taps-1: the input has room for the
	// largest rounding here (to 35).
	ib, wb := halide.NewBuffer[int32](48), halide.NewBuffer[int32](taps)
	randInt32(rng, ib)
	randInt32(rng, wb)
	in.Set(ib)
	w.Set(wb)
	ob := halide.NewBuffer[int32](n)
	p := halide.NewPipeline(out).WithOptions(halide.Options{Verify: true})
	if err := p.Realize(ob); err != nil {
		t.Fatalf("Realize: %v", err)
	}
	for i := 0; i < n; i++ {
		want := int32(0)
		for k := 0; k < taps; k++ {
			want += ib.Get(i+k) * wb.Get(k)
		}
		if got := ob.Get(i); got != want {
			l, _ := p.Lower()
			t.Fatalf("out(%d) = %d, want %d\nloop nest:\n%s", i, got, want, l.LoopNest)
		}
	}
}

// Was: the update's split of x by 7 (Auto: RoundUp) and then of the inner
// b by 4 (Auto: RoundUp again) ran b over [0, 8): b = 7 is the first point
// of the next block of 7, so every seventh point was accumulated twice
// (out(3) = 18, want 9). Halide's rule: a split of a var that stems from
// the inner var of an earlier split of an update gets GuardWithIf for Auto
// (RoundUp would recompute points of the next outer iteration).
func TestSplitsNestedSplitInUpdate(t *testing.T) {
	a, b, e, f := v("a"), v("b"), v("e"), v("f")
	for i, tc := range []struct {
		name  string
		sched func(u *halide.Stage, x halide.Var)
	}{
		{"auto_auto", func(u *halide.Stage, x halide.Var) { u.Split(x, a, b, 7).Split(b, e, f, 4) }},
		{"roundup_auto", func(u *halide.Stage, x halide.Var) { u.Split(x, a, b, 7, halide.RoundUp).Split(b, e, f, 4) }},
		{"auto_guard", func(u *halide.Stage, x halide.Var) { u.Split(x, a, b, 7).Split(b, e, f, 4, halide.GuardWithIf) }},
		{"guard_auto", func(u *halide.Stage, x halide.Var) { u.Split(x, a, b, 7, halide.GuardWithIf).Split(b, e, f, 4) }},
		// The inner var of the inner split: also inside the first split's
		// inner var.
		{"three_levels", func(u *halide.Stage, x halide.Var) { u.Split(x, a, b, 7).Split(b, e, f, 3).Split(f, v("g"), v("h"), 2) }},
		// The outer var of a split of the inner var still stems from it.
		{"outer_of_inner", func(u *halide.Stage, x halide.Var) { u.Split(x, a, b, 7).Split(b, e, f, 2).Split(e, v("g"), v("h"), 3) }},
		// Unroll and Vectorize with a factor split the same way.
		{"unroll", func(u *halide.Stage, x halide.Var) { u.Split(x, a, b, 7).Unroll(b, 4) }},
		{"vectorize", func(u *halide.Stage, x halide.Var) { u.Split(x, a, b, 7).Vectorize(b, 4) }},
		// A split of the outer var may round up: its points are whole
		// blocks of the inner loop.
		{"outer_roundup", func(u *halide.Stage, x halide.Var) { u.Split(x, a, b, 2).Split(a, e, f, 4, halide.RoundUp) }},
	} {
		t.Run(tc.name, func(t *testing.T) { conv1DSplitUpdate(t, int64(40+i), tc.sched) })
	}
}

// Was: the GEMM's update split by 5 with GuardWithIf and the inner var
// unrolled by 4 (Auto: RoundUp) ran ji over [0, 8) in each block of 5, so
// columns 5..7 of each block were accumulated again by the next block.
func TestSplitsGEMMUpdateGuardThenUnroll(t *testing.T) {
	for i, unroll := range []int{4, 2, 3} {
		g := algo.NewGEMM(gemmM, gemmN, gemmK)
		jo, ji := v("jo"), v("ji")
		g.Prod.ComputeRoot()
		g.Prod.Update(0).Split(g.J, jo, ji, 5, halide.GuardWithIf).Unroll(ji, unroll)
		t.Run(fmt.Sprint("unroll_", unroll), func(t *testing.T) { realizeAndCheck(t, g, int64(70+i)) })
	}
}

// A Func.Update split of an inner var with an explicit RoundUp or any
// ShiftInwards would recompute points of the update: a typed error at
// Lower that names the Func, the stage and the directive and says what is
// legal (Halide: "Can't use TailStrategy::RoundUp for splitting ... in
// update definition", "ShiftInwards is not a legal tail strategy for update
// definitions").
func TestSplitsUpdateTailErrors(t *testing.T) {
	a, b, e, f := v("a"), v("b"), v("e"), v("f")
	for _, tc := range []struct {
		name  string
		sched func(u *halide.Stage, x halide.Var)
		want  []string
	}{
		{"roundup_of_inner", func(u *halide.Stage, x halide.Var) { u.Split(x, a, b, 7).Split(b, e, f, 4, halide.RoundUp) },
			[]string{"conv", "update 0", "RoundUp", "GuardWithIf"}},
		{"shiftinwards", func(u *halide.Stage, x halide.Var) { u.Split(x, a, b, 7, halide.ShiftInwards) },
			[]string{"conv", "update 0", "ShiftInwards", "GuardWithIf", "RoundUp"}},
		{"shiftinwards_of_inner", func(u *halide.Stage, x halide.Var) { u.Split(x, a, b, 7).Split(b, e, f, 4, halide.ShiftInwards) },
			[]string{"conv", "update 0", "ShiftInwards", "GuardWithIf"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			x := v("x")
			in := halide.NewImageParam("in", halide.Int32, 1)
			r := halide.NewRDom("r", halide.Range(0, 3))
			conv := halide.NewFunc("conv")
			conv.Define(x).Is(int32(0))
			conv.Define(x).PlusEq(in.At(x.Add(r.X())))
			out := halide.NewFunc("out")
			out.Define(x).Is(conv.At(x))
			conv.ComputeRoot()
			tc.sched(conv.Update(0), x)
			_, err := halide.NewPipeline(out).Lower()
			var he *halide.Error
			if !errors.As(err, &he) || he.Code != halide.ErrSchedule {
				t.Fatalf("Lower: got %v, want an ErrSchedule", err)
			}
			if he.Func != "conv" || he.Directive != "split" {
				t.Errorf("error names Func %q and directive %q, want conv and split: %v", he.Func, he.Directive, err)
			}
			for _, s := range tc.want {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error does not mention %q: %v", s, err)
				}
			}
		})
	}
}

// fusedSplitPipeline builds Defect 5's pipeline: padded = RepeatEdge(in) of
// an 11×13 input, bx(x, y) = 2 padded(x, y) + padded(x+1, y-1) reading
// padded through the wrapper w = padded.In(bx), out(x, y) = bx(x, y) +
// padded(x-1, y+1), realized over 19×15 with the buffer's min at (1, 2).
// sched schedules bx and w; the result is compared with the reference.
func fusedSplitPipeline(t *testing.T, seed int64, sched func(out, bx, w *halide.Func, x, y halide.Var)) {
	t.Helper()
	x, y := v("x"), v("y")
	in := halide.NewImageParam("in", halide.Float32, 2)
	padded := halide.RepeatEdge(in)
	bx := halide.NewFunc("bx")
	bx.Define(x, y).Is(padded.At(x, y).Mul(2).Add(padded.At(x.Add(1), y.Sub(1))))
	out := halide.NewFunc("out")
	out.Define(x, y).Is(bx.At(x, y).Add(padded.At(x.Sub(1), y.Add(1))))
	w := padded.In(bx)
	sched(out, bx, w, x, y)

	rng := rand.New(rand.NewSource(seed))
	ib := halide.NewBuffer[float32](11, 13)
	ib.Fill(func([]int) float32 { return 1 + rng.Float32() })
	in.Set(ib)
	ob := halide.NewBuffer[float32](19, 15).SetMin(1, 2)
	p := halide.NewPipeline(out).WithOptions(halide.Options{Verify: true})
	if err := p.Realize(ob); err != nil {
		t.Fatalf("Realize: %v", err)
	}
	clamp := func(c, n int) int { return min(max(c, 0), n-1) }
	pad := func(xx, yy int) float64 { return float64(ib.Get(clamp(xx, 11), clamp(yy, 13))) }
	bad := 0
	for yy := 2; yy < 2+15; yy++ {
		for xx := 1; xx < 1+19; xx++ {
			want := 2*pad(xx, yy) + pad(xx+1, yy-1) + pad(xx-1, yy+1)
			got := float64(ob.Get(xx, yy))
			if math.Abs(got-want) > splitsTol*math.Abs(want) {
				if bad == 0 {
					t.Errorf("out(%d, %d) = %v, want %v", xx, yy, got, want)
				}
				bad++
			}
		}
	}
	if bad > 0 {
		l, _ := p.Lower()
		t.Fatalf("%d of %d outputs wrong\nloop nest:\n%s", bad, 19*15, l.LoopNest)
	}
}

// Was: w's fused (y, x) loop split by 8 (Auto: ShiftInwards) and its inner
// var by 5 with RoundUp ran the fused var past both ends of the fused
// extent (below 0 when the extent is under 8, past it by the RoundUp), and
// the outer var rebuilt from it (promised to lie in x's range) wrapped into
// the next row of w's storage: 249 of 285 outputs wrong, with no error.
// Now every split that may leave the fused extent is guarded by it (a
// forced GuardWithIf on the fused var), so the schedule is correct.
func TestSplitsRoundUpOfFusedDim(t *testing.T) {
	xo1, xi2, f, fo, fi, a, b := v("xo1"), v("xi2"), v("f"), v("fo"), v("fi"), v("a"), v("b")
	for i, tc := range []struct {
		name  string
		sched func(out, bx, w *halide.Func, x, y halide.Var)
	}{
		// The schedule.
		{"issue", func(out, bx, w *halide.Func, x, y halide.Var) {
			bx.ComputeAt(out, y).Reorder(y, x).Split(x, xo1, xi2, 5)
			w.ComputeAt(bx, xi2).Reorder(y, x).Fuse(y, x, f).Split(f, fo, fi, 8).Split(fi, a, b, 5, halide.RoundUp)
		}},
		{"fused_roundup", func(out, bx, w *halide.Func, x, y halide.Var) {
			bx.ComputeAt(out, y).Reorder(y, x).Split(x, xo1, xi2, 5)
			w.ComputeAt(bx, xi2).Reorder(y, x).Fuse(y, x, f).Split(f, fo, fi, 3, halide.RoundUp)
		}},
		// ShiftInwards by more than the fused extent (2 points here) runs
		// the fused var below 0.
		{"fused_shift_bigger_than_extent", func(out, bx, w *halide.Func, x, y halide.Var) {
			bx.ComputeAt(out, y).Reorder(y, x).Split(x, xo1, xi2, 5)
			w.ComputeAt(bx, xi2).Reorder(y, x).Fuse(y, x, f).Split(f, fo, fi, 8, halide.ShiftInwards)
		}},
		{"fused_at_row", func(out, bx, w *halide.Func, x, y halide.Var) {
			bx.ComputeAt(out, y)
			w.ComputeAt(bx, y).Fuse(x, y, f).Split(f, fo, fi, 8).Split(fi, a, b, 3, halide.RoundUp)
		}},
		{"fused_root", func(out, bx, w *halide.Func, x, y halide.Var) {
			w.ComputeRoot().Fuse(x, y, f).Split(f, fo, fi, 16, halide.RoundUp).Vectorize(fi, 4)
		}},
		{"fused_guard", func(out, bx, w *halide.Func, x, y halide.Var) {
			bx.ComputeAt(out, y).Reorder(y, x).Split(x, xo1, xi2, 5)
			w.ComputeAt(bx, xi2).Reorder(y, x).Fuse(y, x, f).Split(f, fo, fi, 8, halide.GuardWithIf).Split(fi, a, b, 5, halide.GuardWithIf)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) { fusedSplitPipeline(t, int64(90+i), tc.sched) })
	}
}

// boundedUpdate builds f(x, y) = x + 100 y; f(x, y) += r + 1 for r in
// [0, 2); out(x, y) = f(x, y), with f computed at the root and bounded to
// [0, n) in x, scheduled by sched, and realizes n×3.
func boundedUpdate(n int, sched func(f *halide.Func, x halide.Var)) (*halide.Buffer[int32], error) {
	x, y := v("x"), v("y")
	r := halide.NewRDom("r", halide.Range(0, 2))
	f := halide.NewFunc("f")
	f.Define(x, y).Is(x.Add(y.Mul(100)))
	f.Define(x, y).PlusEq(r.X().Add(1))
	f.ComputeRoot().Bound(x, 0, n)
	sched(f, x)
	out := halide.NewFunc("out")
	out.Define(x, y).Is(f.At(x, y))
	ob := halide.NewBuffer[int32](n, 3)
	return ob, halide.NewPipeline(out).WithOptions(halide.Options{Verify: true}).Realize(ob)
}

// Was: Func.bound fixes f's allocation to the bound, but an update's split
// of x by 4 (Auto: RoundUp) wrote x = 13..15 of row y into the first
// points of row y + 1, which its own update then accumulated again. A
// bounded Func's storage ends where its bound does, as an output's ends at
// its buffer: Auto is GuardWithIf in updates, and a tail that runs past
// the bound (RoundUp, or ShiftInwards by more than the extent) is a typed
// error at Lower.
func TestSplitsPastFuncBound(t *testing.T) {
	xo, xi := v("xo"), v("xi")
	for _, tc := range []struct {
		name  string
		sched func(f *halide.Func, x halide.Var)
		err   bool
	}{
		{"update_auto", func(f *halide.Func, x halide.Var) { f.Update(0).Split(x, xo, xi, 4) }, false},
		{"update_auto_vectorize", func(f *halide.Func, x halide.Var) { f.Update(0).Vectorize(x, 8) }, false},
		{"pure_auto", func(f *halide.Func, x halide.Var) { f.Split(x, xo, xi, 4) }, false},
		// 13 is no multiple of 4.
		{"update_roundup", func(f *halide.Func, x halide.Var) { f.Update(0).Split(x, xo, xi, 4, halide.RoundUp) }, true},
		{"pure_roundup", func(f *halide.Func, x halide.Var) { f.Split(x, xo, xi, 4, halide.RoundUp) }, true},
		{"pure_shift_past_extent", func(f *halide.Func, x halide.Var) { f.Split(x, xo, xi, 16, halide.ShiftInwards) }, true},
		// The inner var rounded up runs past the bound in the last tile.
		{"pure_roundup_of_inner", func(f *halide.Func, x halide.Var) {
			f.Split(x, xo, xi, 8).Split(xi, v("a"), v("b"), 3, halide.RoundUp)
		}, true},
		// The outer split's guard cuts the inner rounding off at the bound.
		{"pure_roundup_of_inner_guarded", func(f *halide.Func, x halide.Var) {
			f.Split(x, xo, xi, 8, halide.GuardWithIf).Split(xi, v("a"), v("b"), 3, halide.RoundUp)
		}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ob, err := boundedUpdate(13, tc.sched)
			if tc.err {
				var he *halide.Error
				if !errors.As(err, &he) || he.Code != halide.ErrSchedule || he.Func != "f" || he.Directive != "split" ||
					!strings.Contains(err.Error(), "bound") || !strings.Contains(err.Error(), "GuardWithIf") {
					t.Fatalf("Realize: got %v, want an ErrSchedule for f's split that mentions the bound and GuardWithIf", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Realize: %v", err)
			}
			for yy := 0; yy < 3; yy++ {
				for xx := 0; xx < 13; xx++ {
					if got, want := ob.Get(xx, yy), int32(xx+100*yy+3); got != want {
						t.Fatalf("out(%d, %d) = %d, want %d", xx, yy, got, want)
					}
				}
			}
		})
	}
	// A factor that divides the bound's extent has no tail: RoundUp is fine.
	t.Run("update_roundup_exact", func(t *testing.T) {
		ob, err := boundedUpdate(12, func(f *halide.Func, x halide.Var) { f.Update(0).Split(x, xo, xi, 4, halide.RoundUp) })
		if err != nil {
			t.Fatalf("Realize: %v", err)
		}
		for yy := 0; yy < 3; yy++ {
			for xx := 0; xx < 12; xx++ {
				if got, want := ob.Get(xx, yy), int32(xx+100*yy+3); got != want {
					t.Fatalf("out(%d, %d) = %d, want %d", xx, yy, got, want)
				}
			}
		}
	})
}
