package gpu_test

// Ports of Halide's GPU correctness tests (test/correctness/gpu_*.cpp and
// the GPU parts of a few others, in the halide/Halide repository) to this
// package's API. Each keeps the original's algorithm and schedule and checks
// the output against a plain-Go reference, at sizes small enough for the
// emulator. Where the original uses something this API does not have
// (Tuples, undef, gpu_single_thread, RDom::where, raw halide_buffer_t
// strides, Param::set_range) the port says what it does instead. Where the
// original stores a Func in Heap memory inside a kernel, the port does too
// (global scratch, a slice per block or per thread).

import (
	"errors"
	"fmt"
	"math"
	"math/rand"
	"strings"
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// portedPipeline returns the pipeline of f, with the IR verifier on.
func portedPipeline(f *halide.Func) *halide.Pipeline {
	return halide.NewPipeline(f).WithOptions(halide.Options{Verify: true}).WithTarget(testTarget)
}

// portedRealize realizes f into out (on the emulator for GPU schedules).
func portedRealize(t *testing.T, f *halide.Func, out halide.BufferRef) *halide.Pipeline {
	t.Helper()
	p := portedPipeline(f)
	if err := p.Realize(out); err != nil {
		t.Fatalf("Realize %s: %v", f.Name(), err)
	}
	return p
}

// portedEach calls fn with every coordinate of shape.
func portedEach(shape []halide.BufDim, fn func(c []int)) {
	c := make([]int, len(shape))
	for i, d := range shape {
		if d.Extent <= 0 {
			return
		}
		c[i] = d.Min
	}
	for {
		fn(c)
		i := 0
		for ; i < len(c); i++ {
			c[i]++
			if c[i] < shape[i].Min+shape[i].Extent {
				break
			}
			c[i] = shape[i].Min
		}
		if i == len(c) {
			return
		}
	}
}

// portedCheck compares every point of out with want, exactly.
func portedCheck[T halide.Number](t *testing.T, name string, out *halide.Buffer[T], want func(c []int) T) {
	t.Helper()
	bad := 0
	portedEach(out.Shape(), func(c []int) {
		if got, w := out.Get(c...), want(c); got != w {
			if bad < 5 {
				t.Errorf("%s%v = %v, want %v", name, c, got, w)
			}
			bad++
		}
	})
	if bad > 0 {
		t.Fatalf("%s: %d outputs wrong", name, bad)
	}
}

// portedCheckFloat compares every point of out with want, to within tol:
// absolute for |want| up to 1, relative above (float32 keeps a relative
// precision, and the GPU target fuses multiplies and adds).
func portedCheckFloat(t *testing.T, name string, out *halide.Buffer[float32], want func(c []int) float64, tol float64) {
	t.Helper()
	bad := 0
	portedEach(out.Shape(), func(c []int) {
		if got, w := float64(out.Get(c...)), want(c); !(math.Abs(got-w) <= tol*math.Max(1, math.Abs(w))) {
			if bad < 5 {
				t.Errorf("%s%v = %v, want %v (tolerance %g)", name, c, got, w, tol)
			}
			bad++
		}
	})
	if bad > 0 {
		t.Fatalf("%s: %d outputs wrong", name, bad)
	}
}

// portedWantError checks that err is a *halide.Error with the given code
// whose text mentions each of the given strings.
func portedWantError(t *testing.T, err error, code halide.ErrorCode, mentions ...string) {
	t.Helper()
	var he *halide.Error
	if !errors.As(err, &he) {
		t.Fatalf("got error %v (%T), want a *halide.Error with code %s", err, err, code)
	}
	if he.Code != code {
		t.Fatalf("got error code %s (%v), want %s", he.Code, he, code)
	}
	for _, m := range mentions {
		if !strings.Contains(he.Error(), m) {
			t.Errorf("error %q does not mention %q", he.Error(), m)
		}
	}
}

// portedLowerErr lowers f and returns the error.
func portedLowerErr(f *halide.Func) error {
	_, err := portedPipeline(f).Lower()
	return err
}

func portedRandInt32(seed int64, lo, hi int32, extents ...int) *halide.Buffer[int32] {
	rng := rand.New(rand.NewSource(seed))
	b := halide.NewBuffer[int32](extents...)
	b.Fill(func([]int) int32 {
		for {
			if v := lo + rng.Int31n(hi-lo+1); v != 0 {
				return v
			}
		}
	})
	return b
}

func portedRandFloat32(seed int64, extents ...int) *halide.Buffer[float32] {
	rng := rand.New(rand.NewSource(seed))
	b := halide.NewBuffer[float32](extents...)
	b.Fill(func([]int) float32 { return float32(rng.Intn(2000)-1000)/37 + 0.25 })
	return b
}

// hello_gpu.cpp: f(x, y) = x*y + 2.4f on 8x8 tiles.
func TestPortedHelloGPU(t *testing.T) {
	x, y, xi, yi := halide.NewVar("x"), halide.NewVar("y"), halide.NewVar("xi"), halide.NewVar("yi")
	bx, by := halide.NewVar("bx"), halide.NewVar("by")
	f := halide.NewFunc("f")
	f.Define(x, y).Is(x.Mul(y).Add(2.4))
	f.GPUTile(x, y, bx, by, xi, yi, 8, 8)
	out := halide.NewBuffer[float32](32, 32)
	portedRealize(t, f, out)
	portedCheckFloat(t, "f", out, func(c []int) float64 { return float64(float32(c[0]*c[1]) + 2.4) }, 1e-3)
}

// gpu_mixed_dimensionality.cpp: four Funcs with updates, a 3-D tiling of
// the output's pure stage, a 2-D tiling of its update, h computed at the
// update's block with 2-D then 1-D thread loops, g and f nested in h's
// threads.
func TestPortedGPUMixedDimensionality(t *testing.T) {
	x, y, z := halide.NewVar("x"), halide.NewVar("y"), halide.NewVar("z")
	bx, by, bz := halide.NewVar("bx"), halide.NewVar("by"), halide.NewVar("bz")
	xi, yi, zi := halide.NewVar("xi"), halide.NewVar("yi"), halide.NewVar("zi")
	f, g, h, out := halide.NewFunc("f"), halide.NewFunc("g"), halide.NewFunc("h"), halide.NewFunc("out")
	f.Define(x, y, z).Is(x.Add(y).Add(z))
	f.Define(x, y, z).PlusEq(1)
	g.Define(x, y, z).Is(f.At(x, y, z))
	g.Define(x, y, z).PlusEq(1)
	h.Define(x, y, z).Is(g.At(x, y, z))
	h.Define(x, y, z).PlusEq(1)
	out.Define(x, y, z).Is(h.At(x, y, z))
	out.Define(x, y, z).PlusEq(1)

	// out.gpu_tile(x, y, z, xi, yi, zi, 4, 4, 4)
	out.Tile(x, y, bx, by, xi, yi, 4, 4).Split(z, bz, zi, 4).
		Reorder(xi, yi, zi, bx, by, bz).GPUBlocks(bx, by, bz).GPUThreads(xi, yi, zi)
	out.Update(0).GPUTile(x, y, bx, by, xi, yi, 4, 4)
	// Halide's h.compute_at(out, x) names no stage and matches the loop x
	// of any stage of out; only the pure stage uses h, so h goes there.
	// Here ComputeAt means the last stage (the update, which does not use
	// h and is refused as not containing every use), so the port names
	// the pure stage.
	h.ComputeAtStage(out.Stage(0), bx).GPUThreads(x, y)
	h.Update(0).GPUThreads(x)
	// Likewise g.compute_at(h, x) and f.compute_at(g, x): their uses are
	// in the pure stages of h and g.
	g.ComputeAtStage(h.Stage(0), x)
	f.ComputeAtStage(g.Stage(0), x)

	o := halide.NewBuffer[int32](8, 8, 8)
	portedRealize(t, out, o)
	portedCheck(t, "out", o, func(c []int) int32 { return int32(c[0] + c[1] + c[2] + 4) })
}

// gpu_thread_barrier.cpp, first part: 40 updates that flip rows and
// columns through scratch space, each with its own thread loop, inside a
// block; every update races with the next without barriers.
func TestPortedGPUThreadBarrierFlips(t *testing.T) {
	x, y, bx, by, xi, yi := halide.NewVar("x"), halide.NewVar("y"), halide.NewVar("bx"), halide.NewVar("by"), halide.NewVar("xi"), halide.NewVar("yi")
	f, g := halide.NewFunc("f"), halide.NewFunc("g")
	f.Define(x, y).Is(x.Add(y.Mul(100)))
	const passes = 10
	for i := 0; i < passes; i++ {
		rx := halide.NewRDom(fmt.Sprintf("rx%d", i), halide.Range(0, 10))
		f.Define(rx.X().Add(10), y).Is(f.At(halide.E(9).Sub(rx.X()), y))
		f.Define(rx.X(), y).Is(f.At(rx.X().Add(10), y))
		ry := halide.NewRDom(fmt.Sprintf("ry%d", i), halide.Range(0, 8))
		f.Define(x, ry.X().Add(8)).Is(f.At(x, halide.E(7).Sub(ry.X())))
		f.Define(x, ry.X()).Is(f.At(x, ry.X().Add(8)))
	}
	g.Define(x, y).Is(f.At(0, 0).Add(f.At(9, 7)))
	g.GPUTile(x, y, bx, by, xi, yi, 16, 8)
	f.ComputeAt(g, bx)
	for i := 0; i < passes; i++ {
		f.Update(i*4 + 0).GPUThreads(y)
		f.Update(i*4 + 1).GPUThreads(y)
		f.Update(i*4 + 2).GPUThreads(x)
		f.Update(i*4 + 3).GPUThreads(x)
	}
	out := halide.NewBuffer[int32](32, 16)
	portedRealize(t, g, out)
	portedCheck(t, "g", out, func([]int) int32 { return 7*100 + 9 })
}

// gpu_thread_barrier.cpp, second part, without the undef updates (this
// API has no undef): f's three stages and g each have 2-D thread loops.
// Halide counts 3 barriers (after the pure stage, between the updates and
// before g); this port checks the values, that there is a barrier before g
// (which reads points other threads wrote) and at most Halide's 3.
func TestPortedGPUThreadBarrierCount(t *testing.T) {
	x, y, bx, by, xi, yi := halide.NewVar("x"), halide.NewVar("y"), halide.NewVar("bx"), halide.NewVar("by"), halide.NewVar("xi"), halide.NewVar("yi")
	f, g := halide.NewFunc("f"), halide.NewFunc("g")
	f.Define(x, y).Is(0)
	f.Define(x, y).PlusEq(x.Add(y.Mul(100)))
	f.Define(x, y).PlusEq(y.Mul(100).Add(x))
	g.Define(x, y).Is(f.At(0, 0).Add(f.At(7, 7)))
	g.GPUTile(x, y, bx, by, xi, yi, 8, 8)
	f.ComputeAt(g, bx)
	f.GPUThreads(x, y)
	f.Update(0).GPUThreads(x, y)
	f.Update(1).GPUThreads(x, y)
	out := halide.NewBuffer[int32](20, 20)
	p := portedRealize(t, g, out)
	portedCheck(t, "g", out, func([]int) int32 { return 2 * 707 })
	l, err := p.Lower()
	if err != nil {
		t.Fatal(err)
	}
	ks := l.Kernels()
	if len(ks) != 1 {
		t.Fatalf("%d kernels, want 1", len(ks))
	}
	if b := ks[0].Barriers; b < 1 || b > 3 {
		t.Errorf("%d barriers, want 1 to 3 (Halide: 3)\n%v", b, l)
	}
}

// gpu_sum_scan.cpp: a prefix sum in blocks of B, a scan of the blocks'
// last elements, and a fix-up pass. Halide runs the middle update with
// gpu_single_thread; this API has no such directive, so the port leaves
// that update on the host (no GPU loops), which computes the same values.
func TestPortedGPUSumScan(t *testing.T) {
	const B, N = 16, 16 * 12
	x, y, xo, xi := halide.NewVar("x"), halide.NewVar("y"), halide.NewVar("xo"), halide.NewVar("xi")
	im := halide.NewImageParam("im", halide.Int32, 1)
	blocks := im.Dim(0).Extent().Div(B)
	f, out := halide.NewFunc("f"), halide.NewFunc("out")
	f.Define(x, y).Is(0)
	r1 := halide.NewRDom("r1", halide.Range(0, B))
	f.Define(r1.X(), y).Is(im.At(y.Mul(B).Add(r1.X())).Add(f.At(r1.X().Sub(1), y)))
	r2 := halide.NewRDom("r2", halide.Range(1, blocks.Sub(1)))
	f.Define(-1, r2.X()).Is(f.At(B-1, r2.X().Sub(1)).Add(f.At(-1, r2.X().Sub(1))))
	r3 := halide.NewRDom("r3", halide.Range(0, B))
	f.Define(r3.X(), y).PlusEq(f.At(-1, y))
	out.Define(x).Is(f.At(x.Mod(B), x.Div(B)))

	f.ComputeRoot().GPUBlocks(y).GPUThreads(x)
	f.Update(0).GPUBlocks(y)
	// Halide runs r3 on threads without atomics (it proves the iterations
	// write distinct points); here a parallel RVar needs Atomic() (see
	// TestPortedGPUSumScanRVarThreadsWithoutAtomic).
	f.Update(2).Atomic().GPUBlocks(y).GPUThreads(r3.X())
	out.GPUTile1D(x, xo, xi, B)
	out.Bound(x, 0, im.Dim(0).Extent().Div(B).Mul(B))

	in := portedRandInt32(1, -100, 100, N)
	im.Set(in)
	o := halide.NewBuffer[int32](N)
	portedRealize(t, out, o)
	want := make([]int32, N)
	var s int32
	for i := range want {
		s += in.Get(i)
		want[i] = s
	}
	portedCheck(t, "out", o, func(c []int) int32 { return want[c[0]] })
}

// gpu_reuse_shared_memory.cpp, multi_thread_type_test: five Funcs of
// different types, each computed at the output's 1x1 block with its own
// thread loops and stored in shared memory, or in Heap (global scratch).
func TestPortedGPUReuseSharedMemoryMultiType(t *testing.T) {
	build := func(mem halide.MemoryType) *halide.Func {
		x, y, z, tx, ty := halide.NewVar("x"), halide.NewVar("y"), halide.NewVar("z"), halide.NewVar("tx"), halide.NewVar("ty")
		bx, by := halide.NewVar("bx"), halide.NewVar("by")
		f1, f2, f3 := halide.NewFunc("f1"), halide.NewFunc("f2"), halide.NewFunc("f3")
		f4, f5, f6 := halide.NewFunc("f4"), halide.NewFunc("f5"), halide.NewFunc("f6")
		f1.Define(x, y, z).Is(halide.Cast(halide.UInt8, 1))
		f2.Define(x, y, z).Is(halide.Cast(halide.UInt32, f1.At(x.Add(1), y, z).Add(f1.At(x, y.Add(1), z))))
		f3.Define(x, y, z).Is(halide.Cast(halide.UInt16, f2.At(x.Add(1), y, z).Add(f2.At(x, y.Add(1), z))))
		f4.Define(x, y, z).Is(halide.Cast(halide.UInt16, f3.At(x.Add(1), y, z).Add(f3.At(x, y.Add(1), z))))
		f5.Define(x, y, z).Is(halide.Cast(halide.UInt32, f4.At(x.Add(1), y, z).Add(f4.At(x, y.Add(1), z))))
		f6.Define(x, y, z).Is(halide.Cast(halide.UInt8, f5.At(x.Add(1), y, z).Add(f5.At(x, y.Add(1), z))))
		f6.ComputeRoot().GPUTile(x, y, bx, by, tx, ty, 1, 1)
		for _, f := range []*halide.Func{f5, f4, f3, f2, f1} {
			f.ComputeAt(f6, bx).GPUThreads(x, y).StoreIn(mem)
		}
		return f6
	}
	t.Run("GPUShared", func(t *testing.T) {
		out := halide.NewBuffer[uint8](13, 11, 2)
		portedRealize(t, build(halide.GPUShared), out)
		portedCheck(t, "f6", out, func([]int) uint8 { return 32 })
	})
	t.Run("Heap", func(t *testing.T) {
		// One copy per block of each Func in global scratch.
		out := halide.NewBuffer[uint8](13, 11, 2)
		portedRealize(t, build(halide.Heap), out)
		portedCheck(t, "f6", out, func([]int) uint8 { return 32 })
	})
}

// gpu_reuse_shared_memory.cpp, pyramid_test: ten levels, each level half
// the width of the one below, all computed at the top level's block with
// thread loops of decreasing extent.
func TestPortedGPUReuseSharedMemoryPyramid(t *testing.T) {
	const levels = 6
	x, y, xo, xi, tx, ty := halide.NewVar("x"), halide.NewVar("y"), halide.NewVar("xo"), halide.NewVar("xi"), halide.NewVar("tx"), halide.NewVar("ty")
	bx, by := halide.NewVar("bx"), halide.NewVar("by")
	funcs := make([]*halide.Func, levels)
	for i := range funcs {
		funcs[i] = halide.NewFunc(fmt.Sprintf("p%d", i))
	}
	funcs[0].Define(x, y).Is(1)
	for i := 1; i < levels; i++ {
		funcs[i].Define(x, y).Is(funcs[i-1].At(x.Mul(2), y))
	}
	top := funcs[levels-1]
	top.ComputeRoot().GPUTile(x, y, bx, by, tx, ty, 3, 4)
	for i := levels - 2; i >= 0; i-- {
		funcs[i].ComputeAt(top, bx).Split(x, xo, xi, 1<<(levels-i-1)).GPUThreads(xo, y).StoreIn(halide.GPUShared)
	}
	out := halide.NewBuffer[int32](20, 13)
	portedRealize(t, top, out)
	portedCheck(t, "top", out, func([]int) int32 { return 1 })
}

// gpu_reuse_shared_memory.cpp, inverted_pyramid_test: each level reads
// the one below at x/2; nested tiling of the top level, 4x4 thread tiles
// of every level.
func TestPortedGPUReuseSharedMemoryInvertedPyramid(t *testing.T) {
	const levels = 4
	const size = 64
	x, y, xi, yi, xii, yii := halide.NewVar("x"), halide.NewVar("y"), halide.NewVar("xi"), halide.NewVar("yi"), halide.NewVar("xii"), halide.NewVar("yii")
	funcs := make([]*halide.Func, levels)
	for i := range funcs {
		funcs[i] = halide.NewFunc(fmt.Sprintf("q%d", i))
	}
	funcs[0].Define(x, y).Is(1)
	for i := 1; i < levels; i++ {
		funcs[i].Define(x, y).Is(funcs[i-1].At(x.Div(2), y))
	}
	top := funcs[levels-1]
	top.ComputeRoot().Tile(x, y, x, y, xi, yi, 32, 32).GPUBlocks(x, y).
		Tile(xi, yi, xi, yi, xii, yii, 8, 8).GPUThreads(xi, yi)
	for i := levels - 2; i >= 0; i-- {
		funcs[i].ComputeAt(top, x).Tile(x, y, x, y, xi, yi, 4, 4).GPUThreads(xi, yi).StoreIn(halide.GPUShared)
	}
	top.Bound(x, 0, size).Bound(y, 0, size)
	out := halide.NewBuffer[int32](size, size)
	portedRealize(t, top, out)
	portedCheck(t, "top", out, func([]int) int32 { return 1 })
}

// gpu_reuse_shared_memory.cpp, dynamic_shared_test: three producers at a
// block whose shared footprint (f(2x)) varies with the block.
func TestPortedGPUReuseSharedMemoryDynamic(t *testing.T) {
	x, xo, xi, txo := halide.NewVar("x"), halide.NewVar("xo"), halide.NewVar("xi"), halide.NewVar("txo")
	f1, f2, f3, f4 := halide.NewFunc("f1"), halide.NewFunc("f2"), halide.NewFunc("f3"), halide.NewFunc("f4")
	f1.Define(x).Is(x)
	f2.Define(x).Is(f1.At(x).Add(f1.At(x.Mul(2))))
	f3.Define(x).Is(f2.At(x).Add(f2.At(x.Mul(2))))
	f4.Define(x).Is(f3.At(x).Add(f3.At(x.Mul(2))))
	bxo := halide.NewVar("bxo")
	f4.Split(x, xo, xi, 16).GPUTile1D(xo, bxo, txo, 16)
	for _, f := range []*halide.Func{f3, f2, f1} {
		f.ComputeAt(f4, bxo).Split(x, xo, xi, 16).GPUThreads(xi).StoreIn(halide.GPUShared)
	}
	out := halide.NewBuffer[int32](300)
	portedRealize(t, f4, out)
	portedCheck(t, "f4", out, func(c []int) int32 { return int32(27 * c[0]) })
}

// gpu_reuse_shared_memory.cpp, repeated_realization_test, with a single
// value instead of a Tuple: p computed at an unrolled serial loop above
// the thread loops, so several realizations of p share a kernel.
func TestPortedGPUReuseSharedMemoryRepeatedRealization(t *testing.T) {
	x, y, xo, yo, xi, yi, ky := halide.NewVar("x"), halide.NewVar("y"), halide.NewVar("xo"), halide.NewVar("yo"), halide.NewVar("xi"), halide.NewVar("yi"), halide.NewVar("ky")
	p, c := halide.NewFunc("p"), halide.NewFunc("c")
	p.Define(x, y).Is(x.Add(y.Mul(3)))
	c.Define(x, y).Is(p.At(x, y).Add(p.At(x, y.Add(1)).Mul(2)))
	c.Tile(x, y, xo, yo, xi, yi, 16, 16).Split(yi, ky, yi, 4).GPUBlocks(xo, yo).
		Reorder(xi, yi, ky, xo, yo).GPUThreads(xi, yi).Unroll(ky)
	p.ComputeAt(c, ky).StoreIn(halide.GPUShared)
	out := halide.NewBuffer[int32](32, 32)
	portedRealize(t, c, out)
	pv := func(x, y int) int32 { return int32(x + 3*y) }
	portedCheck(t, "c", out, func(cc []int) int32 { return pv(cc[0], cc[1]) + 2*pv(cc[0], cc[1]+1) })
}

// gpu_reuse_shared_memory.cpp, repeated_register_realization_test, with a
// single value instead of a Tuple: p in registers at an unrolled loop
// inside the thread loop.
func TestPortedGPUReuseSharedMemoryRepeatedRegister(t *testing.T) {
	x, xo, xi, u := halide.NewVar("x"), halide.NewVar("xo"), halide.NewVar("xi"), halide.NewVar("u")
	p, c := halide.NewFunc("p"), halide.NewFunc("c")
	p.Define(x).Is(x.Mul(5).Add(1))
	c.Define(x).Is(p.At(x).Mul(2).Add(p.At(x)))
	c.Split(x, xo, xi, 8).GPUBlocks(xo).Split(xi, xi, u, 2).GPUThreads(xi).Unroll(u)
	p.ComputeAt(c, u).StoreIn(halide.Register)
	out := halide.NewBuffer[int32](64)
	portedRealize(t, c, out)
	portedCheck(t, "c", out, func(cc []int) int32 { return int32(3 * (5*cc[0] + 1)) })
}

// gpu_mixed_shared_mem_types.cpp: nine Funcs of nine types, each computed
// at the output's block and summed as uint64: all in shared memory, and
// Halide's alternation of shared and Heap (global scratch per block).
func TestPortedGPUMixedSharedMemTypes(t *testing.T) {
	types := []halide.Type{halide.Int8, halide.Int16, halide.Int32, halide.Int64,
		halide.UInt8, halide.UInt16, halide.UInt32, halide.UInt64, halide.Float32}
	build := func(heapOdd bool) (*halide.Func, uint64) {
		x, xo, xi := halide.NewVar("x"), halide.NewVar("xo"), halide.NewVar("xi")
		out := halide.NewFunc("out")
		e := halide.Cast(halide.UInt64, 0)
		var offset uint64
		funcs := make([]*halide.Func, len(types))
		for i, ty := range types {
			var off int64
			if ty.IsIntOrUInt() {
				off = int64(1)<<(ty.Bits-4) + 17
			}
			offset += uint64(off)
			funcs[i] = halide.NewFunc(fmt.Sprintf("m%d", i))
			funcs[i].Define(x).Is(halide.Cast(ty, halide.Cast(halide.Int64, x.Div(16)).Add(off)))
			e = e.Add(halide.Cast(halide.UInt64, funcs[i].At(x)))
		}
		out.Define(x).Is(e)
		out.GPUTile1D(x, xo, xi, 23)
		for i, f := range funcs {
			f.ComputeAt(out, xo).GPUThreads(x)
			if heapOdd && i%2 == 0 {
				f.StoreIn(halide.Heap)
			} else {
				f.StoreIn(halide.GPUShared)
			}
		}
		return out, offset
	}
	out, offset := build(false)
	o := halide.NewBuffer[uint64](23 * 5)
	portedRealize(t, out, o)
	portedCheck(t, "out", o, func(c []int) uint64 { return uint64(len(types))*uint64(c[0]/16) + offset })

	// Halide's alternation: the even Funcs in Heap, one copy per block
	// in global scratch.
	heap, _ := build(true)
	oh := halide.NewBuffer[uint64](23 * 5)
	portedRealize(t, heap, oh)
	portedCheck(t, "out", oh, func(c []int) uint64 { return uint64(len(types))*uint64(c[0]/16) + offset })
}

// gpu_transpose.cpp: a transpose through an input wrapper staged per
// block (shared), with nested tiles fused into 2-D block indices.
func TestPortedGPUTranspose(t *testing.T) {
	x, y := halide.NewVar("x"), halide.NewVar("y")
	xi, yi, xo, yo := halide.NewVar("xi"), halide.NewVar("yi"), halide.NewVar("xo"), halide.NewVar("yo")
	xii, xio, yii, yio := halide.NewVar("xii"), halide.NewVar("xio"), halide.NewVar("yii"), halide.NewVar("yio")
	tileIdx, subtileIdx := halide.NewVar("tile_idx"), halide.NewVar("subtile_idx")
	in := halide.NewImageParam("in", halide.UInt8, 2)
	inFunc, out := halide.NewFunc("in_func"), halide.NewFunc("out")
	inFunc.Define(x, y).Is(in.At(x, y))
	out.Define(x, y).Is(inFunc.At(y, x))
	out.Tile(x, y, xo, yo, xi, yi, 32, 32).Fuse(xo, yo, tileIdx).
		Tile(xi, yi, xio, yio, xii, yii, 8, 8).Fuse(xio, yio, subtileIdx).
		GPUBlocks(subtileIdx, tileIdx).GPUThreads(xii, yii)
	inFunc.ComputeAt(out, subtileIdx).GPUThreads(x, y)

	rng := rand.New(rand.NewSource(2))
	input := halide.NewBuffer[uint8](64, 64)
	input.Fill(func([]int) uint8 { return uint8(1 + rng.Intn(255)) })
	in.Set(input)
	o := halide.NewBuffer[uint8](64, 64)
	portedRealize(t, out, o)
	portedCheck(t, "out", o, func(c []int) uint8 { return input.Get(c[1], c[0]) })
}

// gpu_vectorize.cpp: 8x8 tiles with GuardWithIf and the thread loop
// vectorized by 4; a pure expression, one with an input, and a select.
func TestPortedGPUVectorize(t *testing.T) {
	const n = 32
	sched := func(f *halide.Func) {
		x, y := halide.NewVar("x"), halide.NewVar("y")
		bx, by, xi, yi := halide.NewVar("bx"), halide.NewVar("by"), halide.NewVar("xi"), halide.NewVar("yi")
		f.GPUTile(x, y, bx, by, xi, yi, 8, 8, halide.GuardWithIf).Vectorize(xi, 4)
	}
	x, y := halide.NewVar("x"), halide.NewVar("y")
	t.Run("pure", func(t *testing.T) {
		f := halide.NewFunc("f")
		f.Define(x, y).Is(x.Mul(y).Add(2.4))
		sched(f)
		out := halide.NewBuffer[float32](n, n)
		portedRealize(t, f, out)
		portedCheckFloat(t, "f", out, func(c []int) float64 { return float64(float32(c[0]*c[1]) + 2.4) }, 1e-3)
	})
	t.Run("input", func(t *testing.T) {
		im := halide.NewImageParam("im", halide.Float32, 2)
		f := halide.NewFunc("f")
		f.Define(x, y).Is(x.Mul(y).Add(2.4).Add(im.At(x, y)))
		sched(f)
		input := portedRandFloat32(3, n, n)
		im.Set(input)
		out := halide.NewBuffer[float32](n, n)
		portedRealize(t, f, out)
		portedCheckFloat(t, "f", out, func(c []int) float64 {
			return float64(float32(c[0]*c[1]) + 2.4 + input.Get(c...))
		}, 1e-3)
	})
	t.Run("select", func(t *testing.T) {
		im := halide.NewImageParam("im", halide.Float32, 2)
		f := halide.NewFunc("f")
		f.Define(x, y).Is(halide.Select(im.At(x, y).Gt(32.0), 1.0, -1.0).Add(im.At(x, y)))
		sched(f)
		input := halide.NewBuffer[float32](n, n)
		input.Fill(func(c []int) float32 { return float32(c[0] + c[1]) })
		im.Set(input)
		out := halide.NewBuffer[float32](n, n)
		portedRealize(t, f, out)
		portedCheckFloat(t, "f", out, func(c []int) float64 {
			s := -1.0
			if c[0]+c[1] > 32 {
				s = 1
			}
			return s + float64(c[0]+c[1])
		}, 1e-3)
	})
}

// gpu_store_in_register_with_no_lanes_loop.cpp: f in registers at g's
// thread, unrolled, under a GuardWithIf tile (so the register footprint
// needs an upper bound).
func TestPortedGPUStoreInRegisterWithNoLanesLoop(t *testing.T) {
	x, y, xi, yi, xii, yii := halide.NewVar("x"), halide.NewVar("y"), halide.NewVar("xi"), halide.NewVar("yi"), halide.NewVar("xii"), halide.NewVar("yii")
	bx, by := halide.NewVar("bx"), halide.NewVar("by")
	f, g := halide.NewFunc("f"), halide.NewFunc("g")
	f.Define(x, y).Is(x.Add(y))
	g.Define(x, y).Is(f.At(x, y))
	g.ComputeRoot().GPUTile(x, y, bx, by, xi, yi, 16, 8, halide.GuardWithIf).
		Tile(xi, yi, xi, yi, xii, yii, 2, 2).Unroll(xii).Unroll(yii)
	f.ComputeAt(g, xi).StoreIn(halide.Register).Unroll(x).Unroll(y)
	out := halide.NewBuffer[int32](37, 21)
	portedRealize(t, g, out)
	portedCheck(t, "g", out, func(c []int) int32 { return int32(c[0] + c[1]) })
}

// gpu_multi_kernel.cpp: three compute_root kernels of float math
// (floor, sqrt, round).
func TestPortedGPUMultiKernel(t *testing.T) {
	x, xo, xi := halide.NewVar("x"), halide.NewVar("xo"), halide.NewVar("xi")
	k1, k2, k3 := halide.NewFunc("kernel1"), halide.NewFunc("kernel2"), halide.NewFunc("kernel3")
	k1.Define(x).Is(halide.Floor(x.Add(0.5).Div(3.0)))
	k2.Define(x).Is(halide.Sqrt(halide.Cast(halide.Float32, x.Mul(x).Mul(4))).Add(k1.At(x)))
	k3.Define(x).Is(halide.Cast(halide.Int32, halide.Round(x.Add(k2.At(x)))))
	k1.GPUTile1D(x, xo, xi, 32).ComputeRoot()
	k2.GPUTile1D(x, xo, xi, 32).ComputeRoot()
	k3.GPUTile1D(x, xo, xi, 32)
	out := halide.NewBuffer[int32](256)
	portedRealize(t, k3, out)
	portedCheck(t, "kernel3", out, func(c []int) int32 {
		i := c[0]
		a := float32(math.Floor(float64((float32(i) + 0.5) / 3)))
		b := float32(math.Sqrt(float64(float32(4*i*i)))) + a
		return int32(math.RoundToEven(float64(float32(i) + b)))
	})
	l, err := portedPipeline(k3).Lower()
	if err != nil {
		t.Fatal(err)
	}
	if n := len(l.Kernels()); n != 3 {
		t.Errorf("%d kernels, want 3", n)
	}
}

// gpu_many_kernels.cpp: many small one-kernel pipelines run one after the
// other (each output the next one's input), then all run again.
func TestPortedGPUManyKernels(t *testing.T) {
	const kernels = 70
	x, y, bx, by, xi, yi := halide.NewVar("x"), halide.NewVar("y"), halide.NewVar("bx"), halide.NewVar("by"), halide.NewVar("xi"), halide.NewVar("yi")
	input := halide.NewImageParam("input", halide.Int32, 2)
	ps := make([]*halide.Pipeline, kernels)
	for i := range ps {
		f := halide.NewFunc(fmt.Sprintf("adder%d", i))
		f.Define(x, y).Is(input.At(x, y).Add(i + 1))
		f.ComputeRoot().GPUTile(x, y, bx, by, xi, yi, 8, 8)
		ps[i] = halide.NewPipeline(f)
	}
	for round := 0; round < 2; round++ {
		a, b := halide.NewBuffer[int32](16, 16), halide.NewBuffer[int32](16, 16)
		for _, p := range ps {
			input.Set(a)
			if err := p.Realize(b); err != nil {
				t.Fatalf("round %d: %v", round, err)
			}
			a, b = b, a
		}
		portedCheck(t, "result", a, func([]int) int32 { return kernels * (kernels + 1) / 2 })
	}
}

// gpu_data_flows.cpp: input -> host -> device -> host -> output, and
// input -> device -> device -> output.
func TestPortedGPUDataFlows(t *testing.T) {
	x, xo, xi := halide.NewVar("x"), halide.NewVar("xo"), halide.NewVar("xi")
	input := halide.NewBuffer[int32](256)
	input.Fill(func(c []int) int32 { return int32(c[0]*17 + 83) })
	t.Run("host-dev-host", func(t *testing.T) {
		in := halide.NewImageParam("in", halide.Int32, 1)
		f, g, out := halide.NewFunc("f"), halide.NewFunc("g"), halide.NewFunc("out")
		f.Define(x).Is(in.At(x).Add(1))
		g.Define(x).Is(f.At(x).Mul(2))
		out.Define(x).Is(g.At(x).Add(3))
		f.ComputeRoot()
		g.ComputeRoot().GPUTile1D(x, xo, xi, 16)
		out.ComputeRoot()
		in.Set(input)
		o := halide.NewBuffer[int32](256)
		portedRealize(t, out, o)
		portedCheck(t, "out", o, func(c []int) int32 { return (input.Get(c...)+1)*2 + 3 })
	})
	t.Run("dev-dev", func(t *testing.T) {
		in := halide.NewImageParam("in", halide.Int32, 1)
		f, out := halide.NewFunc("f"), halide.NewFunc("out")
		f.Define(x).Is(in.At(x).Add(1))
		out.Define(x).Is(f.At(x).Mul(2))
		f.ComputeRoot().GPUTile1D(x, xo, xi, 16)
		out.ComputeRoot().GPUTile1D(x, xo, xi, 16)
		in.Set(input)
		o := halide.NewBuffer[int32](256)
		portedRealize(t, out, o)
		portedCheck(t, "out", o, func(c []int) int32 { return (input.Get(c...) + 1) * 2 })
	})
}

// gpu_dynamic_shared.cpp: f(2x) makes the footprint of a block vary with
// the block; f per block (with thread loops) or per thread, in shared
// memory or in Heap (global scratch, a slice per thread or per block).
func TestPortedGPUDynamicShared(t *testing.T) {
	for _, perThread := range []bool{false, true} {
		for _, mem := range []halide.MemoryType{halide.GPUShared, halide.Heap} {
			name := fmt.Sprintf("perThread=%v/%v", perThread, mem)
			t.Run(name, func(t *testing.T) {
				x, xo, xi := halide.NewVar("x"), halide.NewVar("xo"), halide.NewVar("xi")
				f, g := halide.NewFunc("f"), halide.NewFunc("g")
				f.Define(x).Is(x)
				g.Define(x).Is(f.At(x).Add(f.At(x.Mul(2))))
				g.GPUTile1D(x, xo, xi, 16)
				if perThread {
					f.ComputeAt(g, xi)
				} else {
					f.ComputeAt(g, xo).GPUThreads(x)
				}
				f.StoreIn(mem)
				// Per block, f's thread loop covers f's footprint in the
				// block, whose extent (x0 + 31 for a block at x0) grows
				// with the block: as in Halide, the block size is the
				// largest over the blocks, computed at launch.
				out := halide.NewBuffer[int32](100)
				portedRealize(t, g, out)
				portedCheck(t, "g", out, func(c []int) int32 { return int32(3 * c[0]) })
			})
		}
	}
	// Not in Halide's test: the per-block case without f's own thread
	// loop (the block's threads produce f together), which runs here.
	t.Run("perBlockCooperative", func(t *testing.T) {
		x, xo, xi := halide.NewVar("x"), halide.NewVar("xo"), halide.NewVar("xi")
		f, g := halide.NewFunc("f"), halide.NewFunc("g")
		f.Define(x).Is(x)
		g.Define(x).Is(f.At(x).Add(f.At(x.Mul(2))))
		g.GPUTile1D(x, xo, xi, 16)
		f.ComputeAt(g, xo).StoreIn(halide.GPUShared)
		out := halide.NewBuffer[int32](100)
		portedRealize(t, g, out)
		portedCheck(t, "g", out, func(c []int) int32 { return int32(3 * c[0]) })
	})
}

// gpu_param_allocation.cpp: a per-thread allocation whose size depends on
// a Param. Halide bounds the Param with set_range(1, 256); this API has no
// set_range, so the RDom's extent clamps the Param to that range (the same
// values for every Param in range, and a constant upper bound for the
// register allocation).
func TestPortedGPUParamAllocation(t *testing.T) {
	x, y, bx, by, xi, yi := halide.NewVar("x"), halide.NewVar("y"), halide.NewVar("bx"), halide.NewVar("by"), halide.NewVar("xi"), halide.NewVar("yi")
	slices := halide.NewParam[int32]("slices")
	r := halide.NewRDom("r", halide.Range(0, halide.Clamp(slices, 1, 256).Mul(3).Add(1)))
	f, g := halide.NewFunc("f"), halide.NewFunc("g")
	f.Define(x, y).Is(x.Add(y))
	g.Define(x, y).Is(halide.Sum(f.At(x, r.X())).Add(slices))
	g.ComputeRoot().GPUTile(x, y, bx, by, xi, yi, 16, 16)
	f.ComputeAt(g, xi)
	slices.Set(4)
	out := halide.NewBuffer[int32](32, 20)
	portedRealize(t, g, out)
	portedCheck(t, "g", out, func(c []int) int32 {
		s := int32(0)
		for r := 0; r < 13; r++ {
			s += int32(c[0] + r)
		}
		return s + 4
	})
}

// gpu_arg_types.cpp: an int16 Param in a kernel's arguments; the GPU
// result must equal the CPU's.
func TestPortedGPUArgTypes(t *testing.T) {
	x, xo, tx := halide.NewVar("x"), halide.NewVar("xo"), halide.NewVar("tx")
	foo := halide.NewParam[int16]("foo")
	e := halide.Select(foo.Expr().Gt(x), halide.Cast(halide.Int16, 255), foo.Expr().Add(halide.Cast(halide.Int16, x)))
	f, g := halide.NewFunc("f"), halide.NewFunc("g")
	f.Define(x).Is(e)
	g.Define(x).Is(e)
	foo.Set(-1)
	f.GPUTile1D(x, xo, tx, 8)
	out, out2 := halide.NewBuffer[int16](256), halide.NewBuffer[int16](256)
	portedRealize(t, f, out)
	portedRealize(t, g, out2)
	portedCheck(t, "f", out, func(c []int) int16 { return out2.Get(c...) })
	portedCheck(t, "g", out2, func(c []int) int16 {
		if -1 > c[0] {
			return 255
		}
		return int16(-1 + c[0])
	})
}

// gpu_large_alloc.cpp (at a small size): two compute_root kernels.
func TestPortedGPULargeAlloc(t *testing.T) {
	x, y, bx, by, xi, yi := halide.NewVar("x"), halide.NewVar("y"), halide.NewVar("bx"), halide.NewVar("by"), halide.NewVar("xi"), halide.NewVar("yi")
	f, g := halide.NewFunc("f"), halide.NewFunc("g")
	f.Define(x, y).Is(halide.Max(x, y))
	g.Define(x, y).Is(halide.Clamp(f.At(x, y), 20, 100))
	f.ComputeRoot().GPUTile(x, y, bx, by, xi, yi, 16, 16)
	g.ComputeRoot().GPUTile(x, y, bx, by, xi, yi, 16, 16)
	out := halide.NewBuffer[int32](160, 48)
	portedRealize(t, g, out)
	portedCheck(t, "g", out, func(c []int) int32 {
		return int32(min(max(max(c[0], c[1]), 20), 100))
	})
}

// gpu_non_contiguous_copy.cpp: the original realizes into a strided crop
// of a larger buffer; this API's buffers are dense, so the port keeps what
// can be said here: a 4-D GPU output whose window does not start at 0.
func TestPortedGPUNonContiguousCopy(t *testing.T) {
	x, y, z, w := halide.NewVar("x"), halide.NewVar("y"), halide.NewVar("z"), halide.NewVar("w")
	bx, by, xi, yi := halide.NewVar("bx"), halide.NewVar("by"), halide.NewVar("xi"), halide.NewVar("yi")
	f := halide.NewFunc("f")
	f.Define(x, y, z, w).Is(x.Mul(3).Add(y.Mul(2)).Add(z).Add(w.Mul(4)))
	f.GPUTile(x, y, bx, by, xi, yi, 16, 16)
	out := halide.NewBuffer[int32](16, 16, 3, 3).SetMin(4, 8, 2, 4)
	portedRealize(t, f, out)
	portedCheck(t, "f", out, func(c []int) int32 { return int32(3*c[0] + 2*c[1] + c[2] + 4*c[3]) })
}

// gpu_cpu_simultaneous_read.cpp: a table read on the host (the select's
// condition) and in kernels, realized twice with different tables.
func TestPortedGPUCPUSimultaneousRead(t *testing.T) {
	x, y, bx, by, xi, yi := halide.NewVar("x"), halide.NewVar("y"), halide.NewVar("bx"), halide.NewVar("by"), halide.NewVar("xi"), halide.NewVar("yi")
	table := halide.NewImageParam("table", halide.Int32, 1)
	f, g, h := halide.NewFunc("f"), halide.NewFunc("g"), halide.NewFunc("h")
	f.Define(x, y).Is(x.Mul(2).Add(y).Add(table.At(x)))
	g.Define(x, y).Is(x.Add(y.Mul(2)).Add(table.At(y)))
	h.Define(x, y).Is(halide.Select(table.At(0).Eq(0), f.At(x, y), g.At(x, y)))
	f.ComputeRoot().GPUTile(x, y, bx, by, xi, yi, 8, 8)
	g.ComputeRoot().GPUTile(x, y, bx, by, xi, yi, 8, 8)
	h.ComputeRoot().GPUTile(x, y, bx, by, xi, yi, 8, 8)
	p := portedPipeline(h)
	tb := halide.NewBuffer[int32](32)
	tb.Fill(func([]int) int32 { return 17 })
	tb.Set(0, 0)
	table.Set(tb)
	r1 := halide.NewBuffer[int32](20, 20)
	if err := p.Realize(r1); err != nil {
		t.Fatal(err)
	}
	tb.Set(1, 0)
	r2 := halide.NewBuffer[int32](20, 20)
	if err := p.Realize(r2); err != nil {
		t.Fatal(err)
	}
	portedCheck(t, "result1", r1, func(c []int) int32 {
		v := int32(17)
		if c[0] == 0 {
			v = 0
		}
		return int32(c[0]*2+c[1]) + v
	})
	portedCheck(t, "result2", r2, func(c []int) int32 {
		v := int32(17)
		if c[1] == 0 {
			v = 1
		}
		return int32(c[0]+c[1]*2) + v
	})
}

// gpu_assertion_in_kernel.cpp: f's c is bounded to [0, 3) and unrolled;
// realizing g over 4 values of c must fail with a run-time error rather
// than compute garbage.
func TestPortedGPUAssertionInKernel(t *testing.T) {
	c, x, xo, xi := halide.NewVar("c"), halide.NewVar("x"), halide.NewVar("xo"), halide.NewVar("xi")
	f, g := halide.NewFunc("f"), halide.NewFunc("g")
	f.Define(c, x).Is(x.Add(c).Add(3))
	f.Bound(c, 0, 3).Unroll(c)
	g.Define(c, x).Is(f.At(c, x).Mul(8))
	g.Split(x, xo, xi, 8).GPUBlocks(xo).GPUThreads(xi)
	f.ComputeAt(g, xo).GPUThreads(x)
	p := portedPipeline(g)
	ok := halide.NewBuffer[int32](3, 100)
	if err := p.Realize(ok); err != nil {
		t.Fatalf("Realize over c in [0, 3): %v", err)
	}
	portedCheck(t, "g", ok, func(cc []int) int32 { return int32(8 * (cc[1] + cc[0] + 3)) })
	err := p.Realize(halide.NewBuffer[int32](4, 100))
	if err == nil {
		t.Fatal("Realize over c in [0, 4) succeeded; f is bounded to [0, 3)")
	}
	portedWantError(t, err, halide.ErrRuntime)
}

// gpu_bounds_inference_failure.cpp (Halide issue 3221): d2 on the GPU,
// computed at root from two reductions that the host output also uses.
// The original only compiles; this port also runs it, with non-zero
// producers.
func TestPortedGPUBoundsInferenceFailure(t *testing.T) {
	x, y, p, d := halide.NewVar("x"), halide.NewVar("y"), halide.NewVar("p"), halide.NewVar("d")
	f1, f2 := halide.NewFunc("f1"), halide.NewFunc("f2")
	f1.Define(x, y, p).Is(x.Add(y.Mul(2)).Add(p))
	f2.Define(x, y, p).Is(x.Mul(y).Sub(p))
	r := halide.NewRDom("r", halide.Range(0, 10), halide.Range(0, 10))
	b1, b2 := halide.NewFunc("b1"), halide.NewFunc("b2")
	b1.Define(p).Is(float32(0))
	b1.Define(p).PlusEq(halide.Cast(halide.Float32, f1.At(r.X(), r.Y(), p)))
	b2.Define(p).Is(float32(0))
	b2.Define(p).PlusEq(halide.Cast(halide.Float32, f2.At(r.X(), r.Y(), p)))
	d1, d2 := halide.NewFunc("d1"), halide.NewFunc("d2")
	d1.Define(p).Is(b1.At(p).Sub(b2.At(p)))
	d2.Define(p).Is(b2.At(p).Sub(b1.At(p)))
	result := halide.NewFunc("result")
	result.Define(d, p).Is(halide.Select(d.Eq(0), d1.At(p), d2.At(p)))
	d2.ComputeRoot().GPUBlocks(p)
	if err := portedPipeline(result).Compile(); err != nil {
		t.Fatalf("Compile: %v", err)
	}
	out := halide.NewBuffer[float32](2, 5)
	portedRealize(t, result, out)
	portedCheckFloat(t, "result", out, func(c []int) float64 {
		pp := c[1]
		var s1, s2 float64
		for ry := 0; ry < 10; ry++ {
			for rx := 0; rx < 10; rx++ {
				s1 += float64(rx + 2*ry + pp)
				s2 += float64(rx*ry - pp)
			}
		}
		if c[0] == 0 {
			return s1 - s2
		}
		return s2 - s1
	}, 1e-2)
}

// gpu_non_monotonic_shared_mem_size.cpp: the footprint of a block of g in
// f is non-monotonic in the block index (f(x*(size-1-x))), in 1-D and 2-D,
// stored in shared memory, and in Heap (global scratch, one copy per block).
func TestPortedGPUNonMonotonicSharedMemSize(t *testing.T) {
	t.Run("1D", func(t *testing.T) {
		const size, tile = 64, 8
		x, xo, xi := halide.NewVar("x"), halide.NewVar("xo"), halide.NewVar("xi")
		f, g := halide.NewFunc("f"), halide.NewFunc("g")
		f.Define(x).Is(x.Mul(3).Add(1))
		g.Define(x).Is(f.At(x.Mul(halide.E(size - 1).Sub(x))))
		g.GPUTile1D(x, xo, xi, tile)
		f.ComputeAt(g, xo)
		out := halide.NewBuffer[int32](size)
		portedRealize(t, g, out)
		portedCheck(t, "g", out, func(c []int) int32 { return int32(3*(c[0]*(size-1-c[0])) + 1) })
	})
	t.Run("2D", func(t *testing.T) {
		const width, height = 16, 11
		x, y, bx, by, xi, yi := halide.NewVar("x"), halide.NewVar("y"), halide.NewVar("bx"), halide.NewVar("by"), halide.NewVar("xi"), halide.NewVar("yi")
		f, g := halide.NewFunc("f"), halide.NewFunc("g")
		f.Define(x, y).Is(x.Add(y.Mul(1000)))
		g.Define(x, y).Is(f.At(x.Mul(halide.E(width-1).Sub(x)), y.Mul(halide.E(height-1).Sub(y))))
		g.GPUTile(x, y, bx, by, xi, yi, 2, 4)
		f.ComputeAt(g, bx)
		out := halide.NewBuffer[int32](width, height)
		portedRealize(t, g, out)
		portedCheck(t, "g", out, func(c []int) int32 {
			return int32(c[0]*(width-1-c[0]) + 1000*(c[1]*(height-1-c[1])))
		})
	})
	t.Run("Heap", func(t *testing.T) {
		x, y, bx, by, xi, yi := halide.NewVar("x"), halide.NewVar("y"), halide.NewVar("bx"), halide.NewVar("by"), halide.NewVar("xi"), halide.NewVar("yi")
		f, g := halide.NewFunc("f"), halide.NewFunc("g")
		f.Define(x, y).Is(x.Add(y))
		g.Define(x, y).Is(f.At(x.Mul(halide.E(15).Sub(x)), y.Mul(halide.E(15).Sub(y))))
		g.GPUTile(x, y, bx, by, xi, yi, 2, 2)
		f.ComputeAt(g, bx).StoreIn(halide.Heap)
		// One copy per block in global scratch, sized by the largest
		// block's footprint (computed at launch).
		out := halide.NewBuffer[int32](16, 16)
		portedRealize(t, g, out)
		portedCheck(t, "g", out, func(c []int) int32 { return int32(c[0]*(15-c[0]) + c[1]*(15-c[1])) })
	})
}

// gpu_register_at_block_level.cpp. Registers at the block level hold each
// thread's own points (gpu_register_ownership proves that each thread
// reads back only what it computed); the case with registers at the
// thread loop runs too.
func TestPortedGPURegisterAtBlockLevel(t *testing.T) {
	t.Run("one element per thread", func(t *testing.T) {
		x, y, bx, by, xi, yi := halide.NewVar("x"), halide.NewVar("y"), halide.NewVar("bx"), halide.NewVar("by"), halide.NewVar("xi"), halide.NewVar("yi")
		f, g := halide.NewFunc("f"), halide.NewFunc("g")
		f.Define(x, y).Is(x.Add(y.Mul(1000)))
		g.Define(x, y).Is(f.At(x, y).Mul(2))
		g.GPUTile(x, y, bx, by, xi, yi, 16, 16)
		f.ComputeAt(g, bx).StoreIn(halide.Register).GPUThreads(x, y)
		out := halide.NewBuffer[int32](64, 48)
		portedRealize(t, g, out)
		portedCheck(t, "g", out, func(c []int) int32 { return int32(2 * (c[0] + 1000*c[1])) })
	})
	t.Run("several elements per thread", func(t *testing.T) {
		x, y, bx, by, xi, yi, xii := halide.NewVar("x"), halide.NewVar("y"), halide.NewVar("bx"), halide.NewVar("by"), halide.NewVar("xi"), halide.NewVar("yi"), halide.NewVar("xii")
		f, g := halide.NewFunc("f"), halide.NewFunc("g")
		f.Define(x, y).Is(x.Add(y.Mul(1000)))
		g.Define(x, y).Is(f.At(x, y).Add(f.At(x, y).Mul(2)))
		g.GPUTile(x, y, bx, by, xi, yi, 32, 8).Split(xi, xi, xii, 4).Unroll(xii)
		f.ComputeAt(g, xi).StoreIn(halide.Register).Unroll(x).Unroll(y)
		out := halide.NewBuffer[int32](64, 24)
		portedRealize(t, g, out)
		portedCheck(t, "g", out, func(c []int) int32 { return int32(3 * (c[0] + 1000*c[1])) })
	})
}

// gpu_different_blocks_threads_dimensions.cpp: one block dimension, two
// thread dimensions, f computed at a serial loop between them. Halide
// stores f in Heap (global scratch, one copy per block); the port also
// runs it in shared memory.
func TestPortedGPUDifferentBlocksThreadsDimensions(t *testing.T) {
	for _, mem := range []halide.MemoryType{halide.GPUShared, halide.Heap} {
		x, y, xi, yi := halide.NewVar("x"), halide.NewVar("y"), halide.NewVar("xi"), halide.NewVar("yi")
		f, g := halide.NewFunc("f"), halide.NewFunc("g")
		f.Define(x, y).Is(x.Add(y.Mul(7)))
		g.Define(x, y).Is(f.At(x, y))
		g.Tile(x, y, x, y, xi, yi, 16, 16).GPUBlocks(y).GPUThreads(xi, yi)
		f.ComputeAt(g, x).StoreIn(mem).GPUThreads(x, y)
		out := halide.NewBuffer[int32](48, 32)
		portedRealize(t, g, out)
		portedCheck(t, "g", out, func(c []int) int32 { return int32(c[0] + 7*c[1]) })
	}
}

// gpu_condition_lifting.cpp (Halide issue 4297): three block dimensions,
// one from a GuardWithIf split, with a serial loop inside. The original
// writes 0; the port writes a value that depends on every coordinate.
func TestPortedGPUConditionLifting(t *testing.T) {
	x, y, z, yo, yi := halide.NewVar("x"), halide.NewVar("y"), halide.NewVar("z"), halide.NewVar("yo"), halide.NewVar("yi")
	f := halide.NewFunc("f")
	f.Define(x, y, z).Is(x.Add(y.Mul(10)).Add(z.Mul(100)))
	f.Split(y, yo, yi, 32, halide.GuardWithIf).Reorder(x, z, yi, yo).GPUBlocks(yo).GPUBlocks(yi).GPUBlocks(z)
	out := halide.NewBuffer[int32](10, 10, 10)
	portedRealize(t, f, out)
	portedCheck(t, "f", out, func(c []int) int32 { return int32(c[0] + 10*c[1] + 100*c[2]) })
}

// parallel_gpu_nested.cpp: GPU tiles inside a parallel host loop over z.
func TestPortedParallelGPUNested(t *testing.T) {
	x, y, z, bx, by, xi, yi := halide.NewVar("x"), halide.NewVar("y"), halide.NewVar("z"), halide.NewVar("bx"), halide.NewVar("by"), halide.NewVar("xi"), halide.NewVar("yi")
	k := halide.NewParam[int32]("k")
	k.Set(3)
	f := halide.NewFunc("f")
	f.Define(x, y, z).Is(x.Mul(y).Add(z.Mul(k)).Add(1))
	f.GPUTile(x, y, bx, by, xi, yi, 16, 16)
	f.Parallel(z)
	out := halide.NewBuffer[int32](32, 16, 6)
	portedRealize(t, f, out)
	portedCheck(t, "f", out, func(c []int) int32 { return int32(c[0]*c[1] + 3*c[2] + 1) })
}

// fuse_gpu_threads.cpp, with a single-valued producer instead of a Tuple:
// the consumer's 64x16 tiles vectorized by 4 (16x16 threads), the producer
// at the block, vectorized by 4 with RoundUp, with 2-D thread loops. The
// original checks that the fused thread loops are [0, 15] in x and y; the
// port checks the kernel's block and the values.
func TestPortedFuseGPUThreads(t *testing.T) {
	x, y, bx, by, tx, ty := halide.NewVar("x"), halide.NewVar("y"), halide.NewVar("bx"), halide.NewVar("by"), halide.NewVar("tx"), halide.NewVar("ty")
	width, height := halide.NewParam[int32]("width"), halide.NewParam[int32]("height")
	input := halide.NewImageParam("input", halide.Int32, 2)
	tuple, consumer := halide.NewFunc("tuple"), halide.NewFunc("consumer")
	tuple.Define(x, y).Is(input.At(x, y).Mul(2))
	consumer.Define(x, y).Is(input.At(x, y).Add(tuple.At(x, y)))
	consumer.ComputeRoot().Bound(x, 0, width).Bound(y, 0, height).
		Tile(x, y, bx, by, tx, ty, 64, 16, halide.ShiftInwards).Vectorize(tx, 4).
		GPUBlocks(bx, by).GPUThreads(tx, ty)
	tuple.ComputeAt(consumer, bx).Vectorize(x, 4).GPUThreads(x, y)
	width.Set(128)
	height.Set(32)
	in := portedRandInt32(4, -1000, 1000, 128, 32)
	input.Set(in)
	p := portedPipeline(consumer)
	out := halide.NewBuffer[int32](128, 32)
	if err := p.Realize(out); err != nil {
		t.Fatal(err)
	}
	portedCheck(t, "consumer", out, func(c []int) int32 { return 3 * in.Get(c...) })
	r, err := p.Report()
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range r {
		if len(k.BlockValues) < 2 || k.BlockValues[0] != 16 || k.BlockValues[1] != 16 {
			t.Errorf("kernel %s has block %v (%v), want 16 x 16", k.Name, k.BlockValues, k.Block)
		}
	}
}

// vectorized_gpu_allocation.cpp (Halide issue 3061): a 1x1 sum, bounded,
// with the channel loop vectorized inside the thread loops.
func TestPortedVectorizedGPUAllocation(t *testing.T) {
	x, y, c := halide.NewVar("x"), halide.NewVar("y"), halide.NewVar("c")
	xo, xi, yo, yi, co, ci := halide.NewVar("xo"), halide.NewVar("xi"), halide.NewVar("yo"), halide.NewVar("yi"), halide.NewVar("co"), halide.NewVar("ci")
	input := halide.NewBuffer[float32](2, 2, 3)
	for i := range input.Data() {
		input.Data()[i] = float32(i)
	}
	r := halide.NewRDom("r", halide.Range(0, 1), halide.Range(0, 1))
	fn := halide.NewFunc("func")
	fn.Define(x, y, c).Is(halide.Sum(input.At(x.Add(r.X()), y.Add(r.Y()), c)))
	fn.Bound(x, 0, 2).Bound(y, 0, 2).Bound(c, 0, 3).
		Split(x, xo, xi, 2).Split(y, yo, yi, 2).Split(c, co, ci, 3).
		GPUBlocks(xo, yo, co).GPUThreads(xi, yi).
		Reorder(xi, yi, ci, xo, yo, co).Vectorize(ci)
	out := halide.NewBuffer[float32](2, 2, 3)
	portedRealize(t, fn, out)
	portedCheckFloat(t, "func", out, func(cc []int) float64 { return float64(input.Get(cc...)) }, 0)
}

// dynamic_allocation_in_gpu_kernel.cpp: six Funcs at a block of g whose
// footprint depends on a Param. Halide stores five of them in Heap, and
// so does the port; it also runs them in shared memory, where their size
// is dynamic.
func TestPortedDynamicAllocationInGPUKernel(t *testing.T) {
	build := func(mem halide.MemoryType, f6AtBlock bool) (*halide.Func, *halide.Param[int32]) {
		x, y, bx, by, xi, yi := halide.NewVar("x"), halide.NewVar("y"), halide.NewVar("bx"), halide.NewVar("by"), halide.NewVar("xi"), halide.NewVar("yi")
		p := halide.NewParam[int32]("p")
		f1, f2, f3 := halide.NewFunc("f1"), halide.NewFunc("f2"), halide.NewFunc("f3")
		f4, f5, f6, g := halide.NewFunc("f4"), halide.NewFunc("f5"), halide.NewFunc("f6"), halide.NewFunc("g")
		f1.Define(x, y).Is(halide.Cast(halide.Float32, x.Add(y)))
		f2.Define(x, y).Is(halide.Cast(halide.Int32, f1.At(x, y).Add(f1.At(x.Add(1), y.Add(1)))))
		f3.Define(x, y).Is(halide.Cast(halide.Float32, f2.At(x, y).Add(f2.At(x.Add(1), y.Add(1)))))
		f4.Define(x, y).Is(halide.Cast(halide.Int32, f3.At(x, y).Add(f3.At(x.Add(1), y.Add(1)))))
		f5.Define(x, y).Is(halide.Cast(halide.Int32, f4.At(x, y).Add(f4.At(x.Add(1), y.Add(1)))))
		f6.Define(x, y).Is(halide.Cast(halide.Float32, f5.At(x, y).Add(f5.At(x.Add(1), y.Add(1)))))
		g.Define(x, y).Is(f6.At(x, y).Add(f6.At(x.Add(p), y.Add(p))))
		g.GPUTile(x, y, bx, by, xi, yi, 16, 8)
		for _, f := range []*halide.Func{f1, f2, f3, f4, f5} {
			f.ComputeAt(g, bx).StoreIn(mem)
		}
		if f6AtBlock {
			f6.ComputeAt(g, bx)
		} else {
			f6.ComputeAt(g, xi)
		}
		return g, p
	}
	// f1 ... f5 in global scratch per block (store_in(Heap) at the block
	// loop), f6 per thread with its default memory: runs, as in Halide.
	heap, hp := build(halide.Heap, false)
	hpl := portedPipeline(heap)
	for i := 0; i < 3; i++ {
		hp.Set(int32(i))
		out := halide.NewBuffer[float32](32, 16)
		if err := hpl.Realize(out); err != nil {
			t.Fatalf("heap, p=%d: %v", i, err)
		}
		portedCheckFloat(t, fmt.Sprintf("g heap [p=%d]", i), out, func(c []int) float64 {
			return float64(64*c[0] + 64*c[1] + 64*i + 320)
		}, 0)
	}
	// f6 per thread (as in Halide) has a footprint that depends on p:
	// its default memory goes to per-thread global scratch (Heap), as
	// Halide's heap allocation, since registers need a constant size.
	perThread, pp := build(halide.GPUShared, false)
	ppl := portedPipeline(perThread)
	for i := 0; i < 3; i++ {
		pp.Set(int32(i))
		out := halide.NewBuffer[float32](32, 16)
		if err := ppl.Realize(out); err != nil {
			t.Fatalf("per thread, p=%d: %v", i, err)
		}
		portedCheckFloat(t, fmt.Sprintf("g per thread [p=%d]", i), out, func(c []int) float64 {
			return float64(64*c[0] + 64*c[1] + 64*i + 320)
		}, 0)
	}

	// f6 at the block too: every allocation is dynamic shared memory.
	g, p := build(halide.GPUShared, true)
	pl := portedPipeline(g)
	for i := 0; i < 4; i++ {
		p.Set(int32(i))
		out := halide.NewBuffer[float32](32, 16)
		if err := pl.Realize(out); err != nil {
			t.Fatalf("p=%d: %v", i, err)
		}
		portedCheckFloat(t, fmt.Sprintf("g[p=%d]", i), out, func(c []int) float64 {
			return float64(64*c[0] + 64*c[1] + 64*i + 320)
		}, 0)
	}
}

// gpu_free_sync.cpp (at a small size): a float reduction per thread,
// realized several times.
func TestPortedGPUFreeSync(t *testing.T) {
	x, y, bx, by, xi, yi := halide.NewVar("x"), halide.NewVar("y"), halide.NewVar("bx"), halide.NewVar("by"), halide.NewVar("xi"), halide.NewVar("yi")
	r := halide.NewRDom("r", halide.Range(0, 100))
	f := halide.NewFunc("f")
	f.Define(x, y).Is(halide.Sum(halide.Sqrt(halide.Sqrt(halide.Sqrt(halide.Sqrt(halide.Cast(halide.Float32, x.Add(y).Add(r.X()))))))))
	f.GPUTile(x, y, bx, by, xi, yi, 16, 16)
	p := portedPipeline(f)
	for i := 0; i < 3; i++ {
		out := halide.NewBuffer[float32](32, 16)
		if err := p.Realize(out); err != nil {
			t.Fatal(err)
		}
		portedCheckFloat(t, "f", out, func(c []int) float64 {
			s := 0.0
			for r := 0; r < 100; r++ {
				s += math.Pow(float64(c[0]+c[1]+r), 1.0/16)
			}
			return s
		}, 1e-3)
	}
}

// gpu_vectorized_shared_memory.cpp (OpenCL-only in Halide; the algorithm
// is general): g at h's block, with vectorized thread loops in both its
// stages.
func TestPortedGPUVectorizedSharedMemory(t *testing.T) {
	x, xo, xi := halide.NewVar("x"), halide.NewVar("xo"), halide.NewVar("xi")
	f, g, h := halide.NewFunc("f"), halide.NewFunc("g"), halide.NewFunc("h")
	f.Define(x).Is(x)
	g.Define(x).Is(f.At(x.Sub(1)).Add(f.At(x.Add(1))))
	r := halide.NewRDom("r", halide.Range(0, 10))
	g.Define(x).PlusEq(halide.Sum(r.X()))
	h.Define(x).Is(g.At(x.Sub(1)).Add(g.At(x.Add(1))))
	f.ComputeRoot()
	h.Split(x, xo, xi, 16).Vectorize(xi, 4).GPUThreads(xi).GPUBlocks(xo)
	g.ComputeAt(h, xo)
	g.Split(x, xo, xi, 4).GPUThreads(xo).Vectorize(xi)
	g.Update(0).Split(x, xo, xi, 4).GPUThreads(xo).Vectorize(xi)
	out := halide.NewBuffer[int32](128)
	portedRealize(t, h, out)
	portedCheck(t, "h", out, func(c []int) int32 { return int32(4*c[0] + 90) })
}

// gpu_dynamic_and_register_realization.cpp: no schedule for the
// intermediates, which have updates over an RDom whose extent is a Param;
// the output on GuardWithIf tiles. (>> 4 is / 16: v_blur is not negative.)
func TestPortedGPUDynamicAndRegisterRealization(t *testing.T) {
	build := func(clampRadius bool) *halide.Func {
		x, y, bx, by, xi, yi := halide.NewVar("x"), halide.NewVar("y"), halide.NewVar("bx"), halide.NewVar("by"), halide.NewVar("xi"), halide.NewVar("yi")
		input := halide.NewFunc("input")
		input.Define(x, y).Is(halide.Cast(halide.Int16, x.Mul(7).Add(y.Mul(13)).Mod(100)))
		radius := halide.NewParam[int32]("radius")
		radius.Set(3)
		ext := radius.Expr()
		if clampRadius {
			ext = halide.Clamp(radius, 0, 3)
		}
		hBlur, vBlur, result := halide.NewFunc("h_blur"), halide.NewFunc("v_blur"), halide.NewFunc("result")
		rh := halide.NewRDom("rh", halide.Range(1, ext))
		hBlur.Define(x, y).Is(halide.Cast(halide.Int32, input.At(x, y)))
		hBlur.Define(x, y).PlusEq(halide.Cast(halide.Int32, input.At(x.Sub(rh.X()), y)).Add(halide.Cast(halide.Int32, input.At(x.Add(rh.X()), y))))
		rv := halide.NewRDom("rv", halide.Range(1, ext))
		vBlur.Define(x, y).Is(hBlur.At(x, y))
		vBlur.Define(x, y).PlusEq(hBlur.At(x, y.Sub(rv.X())).Add(hBlur.At(x, y.Add(rv.X()))))
		result.Define(x, y).Is(halide.Cast(halide.Int16, vBlur.At(x, y).Div(16)))
		result.GPUTile(x, y, bx, by, xi, yi, 16, 16, halide.GuardWithIf)
		return result
	}
	// As in Halide: h_blur's footprint in v_blur's update depends on the
	// Param, and by default it is realized per thread in a heap
	// allocation (registers need a constant size); with the radius
	// clamped to [0, 3] the registers have a constant bound. Both run.
	const rad, w, h = 3, 33, 33
	in := func(x, y int) int32 {
		v := (x*7 + y*13) % 100
		if v < 0 {
			v += 100
		}
		return int32(v)
	}
	hb := func(x, y int) int32 {
		v := in(x, y)
		for i := 1; i <= rad; i++ {
			v += in(x-i, y) + in(x+i, y)
		}
		return v
	}
	for _, clamped := range []bool{false, true} {
		out := halide.NewBuffer[int16](w, h)
		if err := portedPipeline(build(clamped)).Realize(out); err != nil {
			// See TestPortedRegisterExtentUnderGuardWithIf.
			t.Fatalf("Realize (radius clamped %v): %v", clamped, err)
		}
		portedCheck(t, fmt.Sprintf("result (radius clamped %v)", clamped), out, func(c []int) int16 {
			v := hb(c[0], c[1])
			for i := 1; i <= rad; i++ {
				v += hb(c[0], c[1]-i) + hb(c[0], c[1]+i)
			}
			return int16(v >> 4)
		})
	}
}

// atomics.cpp, test_parallel_hist (CUDA and CUDAVectorize backends, int32
// and float32): a histogram whose update runs r on blocks of 32 threads
// with atomic adds.
func TestPortedAtomicsParallelHist(t *testing.T) {
	const imgSize, histSize = 1000, 7
	for _, vec := range []bool{false, true} {
		for _, ty := range []halide.Type{halide.Int32, halide.Float32} {
			t.Run(fmt.Sprintf("%v/vectorize=%v", ty, vec), func(t *testing.T) {
				x := halide.NewVar("x")
				ro, ri, rio, rii := halide.NewRVar("ro"), halide.NewRVar("ri"), halide.NewRVar("rio"), halide.NewRVar("rii")
				r := halide.NewRDom("r", halide.Range(0, imgSize))
				im, hist := halide.NewFunc("im"), halide.NewFunc("hist")
				im.Define(x).Is(x.Mul(x).Mod(histSize))
				hist.Define(x).Is(halide.Cast(ty, 0))
				hist.Define(im.At(r.X())).PlusEq(halide.Cast(ty, 1))
				hist.ComputeRoot()
				if vec {
					hist.Update(0).Atomic().Split(r.X(), ro, ri, 32).Split(ri, rio, rii, 4).
						GPUBlocks(ro).GPUThreads(rio).Vectorize(rii)
				} else {
					hist.Update(0).Atomic().Split(r.X(), ro, ri, 32).GPUBlocks(ro).GPUThreads(ri)
				}
				want := make([]int, histSize)
				for i := 0; i < imgSize; i++ {
					want[(i*i)%histSize]++
				}
				p := portedPipeline(hist)
				for iter := 0; iter < 2; iter++ {
					if ty == halide.Int32 {
						out := halide.NewBuffer[int32](histSize)
						if err := p.Realize(out); err != nil {
							t.Fatal(err)
						}
						portedCheck(t, "hist", out, func(c []int) int32 { return int32(want[c[0]]) })
					} else {
						out := halide.NewBuffer[float32](histSize)
						if err := p.Realize(out); err != nil {
							t.Fatal(err)
						}
						portedCheckFloat(t, "hist", out, func(c []int) float64 { return float64(want[c[0]]) }, 0)
					}
				}
			})
		}
	}
}

// atomics.cpp, test_parallel_cas_update (CUDA backend): an atomic update
// that is not an add (min(hist + 1, 100)), which needs a compare-and-swap
// loop on a GPU.
func TestPortedAtomicsParallelCASUpdate(t *testing.T) {
	const imgSize, histSize = 1000, 13
	x := halide.NewVar("x")
	ro, ri := halide.NewRVar("ro"), halide.NewRVar("ri")
	r := halide.NewRDom("r", halide.Range(0, imgSize))
	im, hist := halide.NewFunc("im"), halide.NewFunc("hist")
	im.Define(x).Is(x.Mul(x).Mod(histSize))
	hist.Define(x).Is(0)
	hist.Define(im.At(r.X())).Is(halide.Min(hist.At(im.At(r.X())).Add(1), 100))
	hist.ComputeRoot()
	hist.Update(0).Atomic().Split(r.X(), ro, ri, 32).GPUBlocks(ro).GPUThreads(ri)
	want := make([]int32, histSize)
	for i := 0; i < imgSize; i++ {
		idx := (i * i) % histSize
		want[idx] = min(want[idx]+1, 100)
	}
	out := halide.NewBuffer[int32](histSize)
	portedRealize(t, hist, out)
	portedCheck(t, "hist", out, func(c []int) int32 { return want[c[0]] })
}

// atomics.cpp, test_hist_compute_at (CUDA backend): the histogram is
// computed per row of a host-parallel consumer, its atomic update on the
// GPU (a kernel launched inside the host loop).
func TestPortedAtomicsHistComputeAt(t *testing.T) {
	const imgSize, histSize = 1000, 53
	x, y := halide.NewVar("x"), halide.NewVar("y")
	ro, ri := halide.NewRVar("ro"), halide.NewRVar("ri")
	r := halide.NewRDom("r", halide.Range(0, imgSize))
	im, hist, final := halide.NewFunc("im"), halide.NewFunc("hist"), halide.NewFunc("final")
	im.Define(x).Is(x.Mul(x).Mod(histSize))
	hist.Define(x).Is(0)
	hist.Define(im.At(r.X())).PlusEq(1)
	final.Define(x, y).Is(hist.At(x.Add(y).Mod(histSize)))
	final.ComputeRoot().Parallel(y)
	hist.ComputeAt(final, y)
	hist.Update(0).Atomic().Split(r.X(), ro, ri, 32).GPUBlocks(ro).GPUThreads(ri)
	want := make([]int32, histSize)
	for i := 0; i < imgSize; i++ {
		want[(i*i)%histSize]++
	}
	out := halide.NewBuffer[int32](10, 10)
	portedRealize(t, final, out)
	portedCheck(t, "final", out, func(c []int) int32 { return want[(c[0]+c[1])%histSize] })
}

// The schedule of gpu_sum_scan.cpp's last update as Halide writes it: the
// RVar r on threads without Atomic(). Every iteration writes its own point
// f(r, y) and reads f(-1, y), which no iteration writes, so Halide accepts
// it, and so does this project.
func TestPortedGPUSumScanRVarThreadsWithoutAtomic(t *testing.T) {
	x, y := halide.NewVar("x"), halide.NewVar("y")
	r := halide.NewRDom("r", halide.Range(0, 16))
	f := halide.NewFunc("f")
	f.Define(x, y).Is(x.Add(y))
	f.Define(r.X(), y).PlusEq(f.At(-1, y))
	f.GPUBlocks(y).GPUThreads(x)
	f.Update(0).GPUBlocks(y).GPUThreads(r.X())
	// The update reads f(-1, y): the output starts at x = -1. The pure
	// stage's thread loop has the output's width, known at launch (the
	// block size is computed then).
	out := halide.NewBuffer[int32](17, 4).SetMin(-1, 0)
	portedRealize(t, f, out)
	portedCheck(t, "f", out, func(c []int) int32 {
		if c[0] == -1 {
			return int32(c[1] - 1)
		}
		return int32(c[0] + 2*c[1] - 1)
	})
}

// The reduction of the second half of TestPortedGPUDynamicAndRegisterRealization:
// f in registers at g's thread, g on GuardWithIf tiles reading f(x, y) and
// f(x, y + clamp(p, 0, 2)). f's footprint per thread is at most 3 rows.
// Was: its extent, min(A, M) + clamp(p, 0, 2) - A + 1 (A the thread's y,
// M the last row), got no constant bound (min(A, M) - A <= 0 was lost) and
// Lower refused the schedule; bounds.ConstantUpperBound now also tries
// ir.SeparateMinMax (min(M - A, 0) + ...), as Halide's simplifier does.
func TestPortedRegisterExtentUnderGuardWithIf(t *testing.T) {
	x, y, bx, by, xi, yi := halide.NewVar("x"), halide.NewVar("y"), halide.NewVar("bx"), halide.NewVar("by"), halide.NewVar("xi"), halide.NewVar("yi")
	f, g := halide.NewFunc("f"), halide.NewFunc("g")
	p := halide.NewParam[int32]("p")
	p.Set(2)
	f.Define(x, y).Is(x.Add(y))
	g.Define(x, y).Is(f.At(x, y).Add(f.At(x, y.Add(halide.Clamp(p, 0, 2)))))
	g.GPUTile(x, y, bx, by, xi, yi, 8, 8, halide.GuardWithIf)
	f.ComputeAt(g, xi).StoreIn(halide.Register)
	out := halide.NewBuffer[int32](13, 11)
	if err := portedPipeline(g).Realize(out); err != nil {
		t.Fatal("Realize: " + err.Error())
	}
	portedCheck(t, "g", out, func(c []int) int32 { return int32(2*(c[0]+c[1]) + 2) })
}
