package differential_test

// Regression tests for library bugs the differential tests found (all now
// fixed), each as a minimal pipeline plus the algorithm-level schedule that
// found it. The comments describe the bug as it was.

import (
	"strings"
	"testing"

	"github.com/gohalide/gohalide/apps/algo"
	"github.com/gohalide/gohalide/halide"
)

// Was: a Func computed inside a GuardWithIf-tailed loop gets an empty
// region (max < min) on the guarded-off iterations; an allocation sized
// from that region (a producer computed inside the Func's loops) gets a
// negative extent and Realize fails with "allocation of g has negative
// extent -1". The schedule is legal and Halide runs it.
//
//	g(x, y) = in(x, y); f(x, y) = g(x, y) * 2; out(x, y) = f(x, y)
//	out.split(x, xo, xi, 8, GuardWithIf); f.compute_at(out, xi); g.compute_at(f, y)
//	realized over 19×3: at xo = 2, xi = 4 (x = 20 > 18) f's region is
//	[20, min(20, 18)] and `allocate g[float32 * ((f.s0.x.max - f.s0.x.min) + 1) * 1]`
//	has extent -1.
func TestRegressionGuardWithIfEmptyRegionNegativeAllocation(t *testing.T) {
	x, y, xo, xi := v("x"), v("y"), v("xo"), v("xi")
	in := halide.NewImageParam("in", halide.Float32, 2)
	g := halide.NewFunc("g")
	g.Define(x, y).Is(in.At(x, y))
	f := halide.NewFunc("f")
	f.Define(x, y).Is(g.At(x, y).Mul(2))
	out := halide.NewFunc("out")
	out.Define(x, y).Is(f.At(x, y))
	out.Split(x, xo, xi, 8, halide.GuardWithIf)
	f.ComputeAt(out, xi)
	g.ComputeAt(f, y)
	ib := halide.NewBuffer[float32](19, 3)
	ib.Fill(func(c []int) float32 { return float32(c[0] + 100*c[1]) })
	in.Set(ib)
	ob := halide.NewBuffer[float32](19, 3)
	p := halide.NewPipeline(out).WithOptions(halide.Options{Verify: true})
	if err := p.Realize(ob); err != nil {
		t.Fatalf("Realize: %v", err)
	}
	for yy := 0; yy < 3; yy++ {
		for xx := 0; xx < 19; xx++ {
			if got, want := ob.Get(xx, yy), 2*ib.Get(xx, yy); got != want {
				t.Fatalf("out(%d, %d) = %v, want %v", xx, yy, got, want)
			}
		}
	}
}

// Found the same bug: the tensor product's schedule A (reference
// section 1.3, adapted to the CPU), M = 19 output channels split by 8 with
// GuardWithIf; GatherWeight computed at Product's c1 is allocated per m1
// iteration with Product's (empty) m extent.
func TestRegressionTensorProductScheduleA(t *testing.T) {
	for _, f := range []struct {
		name                    string
		pFac, p0Fac, mFac, cFac int
	}{{"scaled_factors", 16, 4, 8, 8}, {"issue_factors", 128, 4, 32, 16}} {
		t.Run(f.name, func(t *testing.T) {
			tp := algo.NewTensorProduct(tpC, tpM, tpN, tpP, tpIn, tpOut)
			tp.ScheduleA(algo.TPFactors{PBlock: f.pFac, P0: f.p0Fac, MBlock: f.mFac, C0: f.cFac})
			realizeAndCheck(t, tp, 7)
		})
	}
}

// Was: bounds inference loses the correlation between a region's min and
// max (both lets over the same min(...) term), so the run-time input check
// rejects a legal schedule: "Input buffer in is accessed outside its bounds
// in dimension 0: accessed [min, max], buffer [min, max] = 0 68 0 36".
//
//	prod(x) = 0; prod(x) += in(x); out(x) = prod(x)        (37 points)
//	out.split(x, xo, xi, 8, ShiftInwards); prod.compute_at(out, xo)
//	prod.update(0).split(x, po, pi, 4, RoundUp)
//
// prod's region at xo is always exactly 8 wide ([min(8*xo, 29), +7]), so
// the RoundUp by 4 has no tail and the real accesses stay in [0, 36]. The
// update's loop is `for (prod.s1.x.po, 0, ((prod.s1.x.max - prod.s1.x.min) / 4) + 1)`,
// whose extent is 2, but the input check bounds prod.s1.x.max and
// prod.s1.x.min independently over xo. (The same schedule with GuardWithIf
// on the update split passes.)
func TestRegressionRoundUpUpdateCorrelatedBounds(t *testing.T) {
	x, xo, xi, po, pi := v("x"), v("xo"), v("xi"), v("po"), v("pi")
	in := halide.NewImageParam("in", halide.Float32, 1)
	prod := halide.NewFunc("prod")
	prod.Define(x).Is(float32(0))
	prod.Define(x).PlusEq(in.At(x))
	out := halide.NewFunc("out")
	out.Define(x).Is(prod.At(x))
	out.Split(x, xo, xi, 8, halide.ShiftInwards)
	prod.ComputeAt(out, xo)
	prod.Update(0).Split(x, po, pi, 4, halide.RoundUp)
	ib := halide.NewBuffer[float32](37)
	ib.Fill(func(c []int) float32 { return float32(c[0]) })
	in.Set(ib)
	ob := halide.NewBuffer[float32](37)
	p := halide.NewPipeline(out).WithOptions(halide.Options{Verify: true})
	if err := p.Realize(ob); err != nil {
		t.Fatalf("Realize: %v", err)
	}
	for i := 0; i < 37; i++ {
		if ob.Get(i) != float32(i) {
			t.Fatalf("out(%d) = %v, want %d", i, ob.Get(i), i)
		}
	}
}

// Found the same bug: GEMM with ShiftInwards tiles of 8 columns
// and Prod at the tile, Prod's update split by 4 with RoundUp (exact, since
// the tile is always 8 wide): "Input buffer B is accessed outside its
// bounds in dimension 0: ... = 0 68 0 36".
func TestRegressionGEMMShiftTilesRoundUpProd(t *testing.T) {
	g := algo.NewGEMM(gemmM, gemmN, gemmK)
	jo, ji, po, pi := v("jo"), v("ji"), v("po"), v("pi")
	g.Output.Split(g.J, jo, ji, 8, halide.ShiftInwards)
	g.Prod.ComputeAt(g.Output, jo).Split(g.J, po, pi, 4, halide.RoundUp)
	g.Prod.Update(0).Split(g.J, po, pi, 4, halide.RoundUp).Unroll(pi)
	realizeAndCheck(t, g, 8)
}

// FIXED during this session (lower/unroll_loops.go now substitutes the
// enclosing lets before checking the extent); kept as a regression test.
// It was: Bound makes a Func's region constant, but Vectorize / Unroll of
// the bounded var (no split) was refused: "cannot vectorize loop f.s0.x:
// its extent ((f.s0.x.max - f.s0.x.min) + 1) is not a constant (legal:
// split the loop by a constant factor and vectorize the inner loop, or
// bound the Func)" although the Func was bounded: unroll_loops checked the
// extent before substituting the constant region lets (f.s0.x.min = 0,
// f.s0.x.max = 7). Halide accepts f.bound(x, 0, 8).vectorize(x).
func TestRegressionBoundThenVectorize(t *testing.T) {
	for _, mode := range []string{"vectorize", "unroll", "update_vectorize"} {
		t.Run(mode, func(t *testing.T) {
			x, y := v("x"), v("y")
			in := halide.NewImageParam("in", halide.Float32, 2)
			f := halide.NewFunc("f")
			f.Define(x, y).Is(float32(0))
			f.Define(x, y).PlusEq(in.At(x, y))
			out := halide.NewFunc("out")
			out.Define(x, y).Is(f.At(x, y))
			f.ComputeRoot().Bound(x, 0, 8)
			switch mode {
			case "vectorize":
				f.Vectorize(x)
			case "unroll":
				f.Unroll(x)
			case "update_vectorize":
				f.Update(0).Vectorize(x)
			}
			ib := halide.NewBuffer[float32](8, 3)
			ib.Fill(func(c []int) float32 { return float32(c[0] + 10*c[1]) })
			in.Set(ib)
			ob := halide.NewBuffer[float32](8, 3)
			p := halide.NewPipeline(out).WithOptions(halide.Options{Verify: true})
			if err := p.Realize(ob); err != nil {
				t.Fatalf("Realize: %v", err)
			}
			for yy := 0; yy < 3; yy++ {
				for xx := 0; xx < 8; xx++ {
					if ob.Get(xx, yy) != ib.Get(xx, yy) {
						t.Fatalf("out(%d, %d) = %v, want %v", xx, yy, ob.Get(xx, yy), ib.Get(xx, yy))
					}
				}
			}
		})
	}
}

// Was: a wrapper of a wrapper is silently dropped. After w := g.In(h),
// w.In(h) returns a new Func w2 = "g_in_h_in_h", but h keeps calling w
// (rewriteWrapped redirects one level only), so w2 and its schedule
// (compute_at(h, x) here) are silently ignored: the loop nest has no
// g_in_h_in_h. Halide chains wrappers (h calls w2, which calls w).
func TestRegressionWrapperOfWrapperDropped(t *testing.T) {
	x, y := v("x"), v("y")
	in := halide.NewImageParam("in", halide.Float32, 2)
	g := halide.NewFunc("g")
	g.Define(x, y).Is(in.At(x, y))
	h := halide.NewFunc("h")
	h.Define(x, y).Is(g.At(x, y).Add(g.At(x.Add(1), y)))
	w := g.In(h)
	w.ComputeRoot()
	w2 := w.In(h)
	w2.ComputeAt(h, x)
	nest, err := halide.NewPipeline(h).LoopNest()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(nest, "produce "+w2.Name()) {
		t.Fatalf("the loop nest has no production of %s:\n%s", w2.Name(), nest)
	}
}
