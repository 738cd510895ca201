package gpu_test

// Regression tests for the GPU defects of issue 8 (schedules that gave
// silently wrong results or that the emulator refused).

import (
	"errors"
	"math/rand"
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// gemmInt is prod(j, i) = sum_r A(r, i) * B(j, r) over int32, with A and B
// read through wrappers AIn and BIn.
type gemmInt struct {
	A, B       *halide.ImageParam
	AIn, BIn   *halide.Func
	prod, gemm *halide.Func
	j, i       halide.Var
	r          halide.RVar
	ab, bb     *halide.Buffer[int32]
	n, m, k    int
}

func newGemmInt(n, m, k int) *gemmInt {
	g := &gemmInt{n: n, m: m, k: k}
	g.j, g.i = halide.NewVar("j"), halide.NewVar("i")
	kk := halide.NewVar("k")
	g.A = halide.NewImageParam("A", halide.Int32, 2)
	g.B = halide.NewImageParam("B", halide.Int32, 2)
	g.AIn = halide.NewFunc("AIn")
	g.AIn.Define(kk, g.i).Is(g.A.At(kk, g.i))
	g.BIn = halide.NewFunc("BIn")
	g.BIn.Define(g.j, kk).Is(g.B.At(g.j, kk))
	r := halide.NewRDom("r", halide.Range(g.A.Dim(0).Min(), g.A.Dim(0).Extent()))
	g.prod = halide.NewFunc("prod")
	g.prod.Define(g.j, g.i).Is(halide.E(int32(0)))
	g.r = r.X()
	g.prod.Define(g.j, g.i).PlusEq(g.AIn.At(r.X(), g.i).Mul(g.BIn.At(g.j, r.X())))
	g.gemm = halide.NewFunc("gemm")
	g.gemm.Define(g.j, g.i).Is(g.prod.At(g.j, g.i))
	rng := rand.New(rand.NewSource(int64(n*100 + m*10 + k)))
	g.ab = halide.NewBuffer[int32](k, m)
	g.ab.Fill(func([]int) int32 { return int32(rng.Intn(19) - 9) })
	g.bb = halide.NewBuffer[int32](n, k)
	g.bb.Fill(func([]int) int32 { return int32(rng.Intn(19) - 9) })
	g.A.Set(g.ab)
	g.B.Set(g.bb)
	return g
}

func (g *gemmInt) check(t *testing.T) {
	t.Helper()
	p := halide.NewPipeline(g.gemm).WithOptions(halide.Options{Verify: true})
	out := halide.NewBuffer[int32](g.n, g.m)
	if err := p.Realize(out); err != nil {
		l, _ := p.Lower()
		t.Fatalf("Realize: %v\n%v", err, l)
	}
	bad := 0
	for i := 0; i < g.m; i++ {
		for j := 0; j < g.n; j++ {
			var want int32
			for r := 0; r < g.k; r++ {
				want += g.ab.Get(r, i) * g.bb.Get(j, r)
			}
			if got := out.Get(j, i); got != want {
				if bad < 5 {
					t.Errorf("gemm(%d, %d) = %d, want %d", j, i, got, want)
				}
				bad++
			}
		}
	}
	if bad > 0 {
		l, _ := p.Lower()
		t.Fatalf("%d of %d outputs wrong\n%v", bad, g.n*g.m, l)
	}
}

// Was: BIn, stored in shared memory and computed at prod's j inside the
// thread loops, was sized for one thread (K elements) and each thread
// filled the one copy with its own column: all 64 outputs wrong.
func TestIssue8SharedInsideThreadsKeepsThreadDimension(t *testing.T) {
	g := newGemmInt(8, 8, 5)
	bx, by, tx, ty := halide.NewVar("bx"), halide.NewVar("by"), halide.NewVar("tx"), halide.NewVar("ty")
	g.gemm.GPUTile(g.j, g.i, bx, by, tx, ty, 4, 4)
	g.prod.ComputeAt(g.gemm, tx)
	g.BIn.ComputeAt(g.prod, g.j).StoreIn(halide.GPUShared)
	g.check(t)
}

func lowered(t *testing.T, f *halide.Func) string {
	t.Helper()
	l, err := halide.NewPipeline(f).WithOptions(halide.Options{Verify: true}).Lower()
	if err != nil {
		t.Fatal(err)
	}
	return l.String()
}

// Was: with prod in registers at gemm's tx and AIn shared at prod's update
// i loop, the union over the threads lost tx and 62 of 64 outputs were
// wrong.
func TestIssue8SharedAtUpdateInsideThreads(t *testing.T) {
	g := newGemmInt(8, 8, 5)
	bx, by, tx, ty := halide.NewVar("bx"), halide.NewVar("by"), halide.NewVar("tx"), halide.NewVar("ty")
	g.gemm.GPUTile(g.j, g.i, bx, by, tx, ty, 4, 4)
	g.prod.ComputeAt(g.gemm, tx).StoreIn(halide.Register)
	g.AIn.ComputeAtStage(g.prod.Update(0), g.i).StoreIn(halide.GPUShared)
	g.check(t)
}

// realizeInt32 realizes f over the given extents (min 0) on the emulator
// and compares every point with want.
func realizeInt32(t *testing.T, f *halide.Func, want func(c []int) int32, extents ...int) {
	t.Helper()
	p := halide.NewPipeline(f).WithOptions(halide.Options{Verify: true})
	out := halide.NewBuffer[int32](extents...)
	if err := p.Realize(out); err != nil {
		l, _ := p.Lower()
		t.Fatalf("Realize: %v\n%v", err, l)
	}
	bad := 0
	out.Fill(func(c []int) int32 {
		if got, w := out.Get(c...), want(c); got != w {
			if bad < 5 {
				t.Errorf("%s%v = %d, want %d", f.Name(), c, got, w)
			}
			bad++
		}
		return out.Get(c...)
	})
	if bad > 0 {
		l, _ := p.Lower()
		t.Fatalf("%d outputs wrong\n%v", bad, l)
	}
}

// Was: f's update has thread loops over x only, in a block of 8 x 8
// threads, and ran once per thread_id_y: a race, and f = x + 8 on a GPU.
func TestIssue8StageWithFewerThreadDimsRunsOncePerPoint(t *testing.T) {
	x, y := halide.NewVar("x"), halide.NewVar("y")
	bx, by, tx, ty := halide.NewVar("bx"), halide.NewVar("by"), halide.NewVar("tx"), halide.NewVar("ty")
	f, g := halide.NewFunc("f"), halide.NewFunc("g")
	f.Define(x).Is(x)
	f.Define(x).PlusEq(1)
	g.Define(x, y).Is(f.At(x))
	g.GPUTile(x, y, bx, by, tx, ty, 8, 8)
	f.ComputeAt(g, bx).GPUThreads(x)
	f.Update(0).GPUThreads(x)
	realizeInt32(t, g, func(c []int) int32 { return int32(c[0] + 1) }, 19, 13)
}

// Was: the default (ShiftInwards) tail of a split of the shared
// producer's own thread loop made two threads write the same elements.
func TestIssue8ShiftInwardsThreadSplitWritesOnce(t *testing.T) {
	x, xo, xi := halide.NewVar("x"), halide.NewVar("xo"), halide.NewVar("xi")
	bx, tx := halide.NewVar("bx"), halide.NewVar("tx")
	f, g := halide.NewFunc("f"), halide.NewFunc("g")
	f.Define(x).Is(x.Mul(x).Add(3))
	g.Define(x).Is(f.At(x).Add(f.At(x.Add(1))))
	g.GPUTile1D(x, bx, tx, 8)
	f.ComputeAt(g, bx).Split(x, xo, xi, 4).GPUThreads(xo)
	fv := func(x int) int32 { return int32(x*x + 3) }
	realizeInt32(t, g, func(c []int) int32 { return fv(c[0]) + fv(c[0]+1) }, 37)
}

// Was: a block-level shared Func whose update has no thread loops was
// accumulated by several threads.
func TestIssue8SharedUpdateWithoutThreadLoops(t *testing.T) {
	for _, threadsOnPure := range []bool{false, true} {
		x, y := halide.NewVar("x"), halide.NewVar("y")
		bx, by, tx, ty := halide.NewVar("bx"), halide.NewVar("by"), halide.NewVar("tx"), halide.NewVar("ty")
		f, g := halide.NewFunc("f"), halide.NewFunc("g")
		r := halide.NewRDom("r", halide.Range(0, 3))
		f.Define(x).Is(x)
		f.Define(x).PlusEq(r.X().Add(1))
		g.Define(x, y).Is(f.At(x).Add(y))
		g.GPUTile(x, y, bx, by, tx, ty, 8, 4)
		f.ComputeAt(g, bx).StoreIn(halide.GPUShared)
		if threadsOnPure {
			f.GPUThreads(x)
		}
		realizeInt32(t, g, func(c []int) int32 { return int32(c[0] + 6 + c[1]) }, 19, 13)
	}
}

// A shared Func produced inside a thread nest that leaves a dimension of
// the block idle: the nest's guard (thread_id_y == 0) must not keep the
// idle threads out of the cooperative production, which deals points to
// every thread of the block.
func TestIssue8CooperativeProductionInsideIdleGuard(t *testing.T) {
	x, y := halide.NewVar("x"), halide.NewVar("y")
	bx, by, tx, ty := halide.NewVar("bx"), halide.NewVar("by"), halide.NewVar("tx"), halide.NewVar("ty")
	w, h, g := halide.NewFunc("w"), halide.NewFunc("h"), halide.NewFunc("g")
	w.Define(x).Is(x.Mul(7).Sub(2))
	h.Define(x).Is(w.At(x).Add(w.At(x.Add(5))))
	g.Define(x, y).Is(h.At(x).Mul(y.Add(1)))
	g.GPUTile(x, y, bx, by, tx, ty, 8, 4)
	h.ComputeAt(g, bx).GPUThreads(x)
	w.ComputeAt(h, x).StoreIn(halide.GPUShared)
	wv := func(x int) int32 { return int32(7*x - 2) }
	realizeInt32(t, g, func(c []int) int32 { return (wv(c[0]) + wv(c[0]+5)) * int32(c[1]+1) }, 19, 13)
}

// Was: unrolling the loop a shared Func is computed in made two copies of
// its allocation, and the emulator refused the kernel ("two shared
// allocations are named AIn"). The copies are live one after the other
// and share one allocation.
func TestIssue8SharedInsideUnrolledLoop(t *testing.T) {
	for _, mem := range []halide.MemoryType{halide.GPUShared, halide.Register} {
		g := newGemmInt(8, 8, 5)
		bx, by, tx, ty := halide.NewVar("bx"), halide.NewVar("by"), halide.NewVar("tx"), halide.NewVar("ty")
		ro, ri := halide.NewRVar("ro"), halide.NewRVar("ri")
		g.gemm.GPUTile(g.j, g.i, bx, by, tx, ty, 4, 4)
		g.prod.ComputeAt(g.gemm, tx)
		g.prod.Update(0).Split(g.r, ro, ri, 2, halide.GuardWithIf).Unroll(ri)
		g.AIn.ComputeAtStage(g.prod.Update(0), ri).StoreIn(mem)
		g.check(t)
	}
}

// Was: blurx stored at a block loop outside the one it is computed in put
// a block loop inside the kernel body, which the emulator refused. Storing
// outside a parallel or block loop and computing inside it is a race on
// the one copy: an error at Lower, as in Halide.
func TestIssue8StoreOutsideBlockLoopIsAnError(t *testing.T) {
	x, y := halide.NewVar("x"), halide.NewVar("y")
	xo, xi, yo, yi := halide.NewVar("xo"), halide.NewVar("xi"), halide.NewVar("yo"), halide.NewVar("yi")
	f, g := halide.NewFunc("f"), halide.NewFunc("g")
	f.Define(x, y).Is(x.Add(y))
	g.Define(x, y).Is(f.At(x, y).Mul(2))
	g.Split(x, xo, xi, 16).Split(y, yo, yi, 4).Reorder(xi, yi, xo, yo).GPUBlocks(xo, yo)
	f.ComputeAt(g, xo).StoreAt(g, yo)
	_, err := halide.NewPipeline(g).Lower()
	var he *halide.Error
	if !errors.As(err, &he) || he.Code != halide.ErrSchedule || he.Func != "f" || he.Directive != "store_at" {
		t.Fatalf("got %v, want a schedule error for f's store_at", err)
	}
}

// Was: a shared allocation inside a block loop whose size depends on an
// inner loop's bounds (which depend on the block) kept the block variable
// in its size, so the kernel took it as an argument from the host.
func TestIssue8SharedSizeBoundedOverNestedLoops(t *testing.T) {
	x, y, r := halide.NewVar("x"), halide.NewVar("y"), halide.NewRDom("r", halide.Range(0, 3))
	xb, xt, yo, yi := halide.NewVar("xb"), halide.NewVar("xt"), halide.NewVar("yo"), halide.NewVar("yi")
	w, prod, out := halide.NewFunc("w"), halide.NewFunc("prod"), halide.NewFunc("out")
	w.Define(x, y).Is(x.Mul(3).Add(y))
	prod.Define(x, y).Is(halide.E(int32(0)))
	prod.Define(x, y).PlusEq(w.At(x, y.Add(r.X())))
	out.Define(x, y).Is(prod.At(x, y))
	out.Split(x, xb, xt, 4, halide.GuardWithIf).Reorder(xt, y, xb).GPUBlocks(xb)
	prod.ComputeAt(out, xt).Split(y, yo, yi, 2, halide.GuardWithIf).GPUThreads(yi)
	w.ComputeAtStage(prod.Update(0), y)
	want := func(c []int) int32 {
		var s int32
		for k := 0; k < 3; k++ {
			s += int32(3*c[0] + c[1] + k)
		}
		return s
	}
	realizeInt32(t, out, want, 7, 6)
}

// A parallel RVar loop whose iterations each write their own point (the
// RVar is a bare left-hand side argument, and the update reads only its
// own point or points outside the RDom) needs no Atomic(), as in Halide.
func TestIssue8ParallelRVarWritingOwnPoints(t *testing.T) {
	x, y := halide.NewVar("x"), halide.NewVar("y")
	r := halide.NewRDom("r", halide.Range(0, 16))
	f, g := halide.NewFunc("f"), halide.NewFunc("g")
	f.Define(x, y).Is(x.Add(y))
	f.Define(r.X(), y).PlusEq(f.At(-1, y).Add(f.At(r.X(), y)))
	g.Define(x, y).Is(f.At(x, y))
	f.ComputeRoot().Update(0).Parallel(r.X())
	realizeInt32(t, g, func(c []int) int32 { return int32(c[1] - 1 + 2*(c[0]+c[1])) }, 16, 4)

	// Reading a neighbour written by another iteration still needs Atomic.
	h, k := halide.NewFunc("h"), halide.NewFunc("k")
	h.Define(x).Is(x)
	h.Define(r.X()).PlusEq(h.At(r.X().Add(1)))
	k.Define(x).Is(h.At(x))
	h.ComputeRoot().Update(0).Parallel(r.X())
	_, err := halide.NewPipeline(k).Lower()
	var he *halide.Error
	if !errors.As(err, &he) || he.Code != halide.ErrSchedule || he.Directive != "parallel" {
		t.Fatalf("got %v, want a schedule error for parallel", err)
	}
}
