package halide_test

// Nested sliding: a Func stored outside several serial loops and computed
// in the innermost slides along each of them (Halide's SlidingWindow), one
// dimension per loop. The counts are stores traced with TraceStores (see
// sliding_ported_test.go); every output is checked against plain Go.

import (
	"regexp"
	"strings"
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// slideLoops returns, for each Func, the loops its region slides along in
// the lowered statement (the select on the loop's first iteration that
// sliding_window writes into a region min).
func slideLoops(stmt string) map[string][]string {
	re := regexp.MustCompile(`let (\S+)\.s0\.\S+\.min = unsafe_promise_clamped\(select\(\((\S+) <= \S+\)`)
	out := map[string][]string{}
	for _, m := range re.FindAllStringSubmatch(stmt, -1) {
		out[m[1]] = append(out[m[1]], m[2])
	}
	return out
}

func wantSlides(t *testing.T, r *slOut, f string, loops ...string) {
	t.Helper()
	got := slideLoops(r.stmt)[f]
	if strings.Join(got, " ") != strings.Join(loops, " ") {
		t.Errorf("%s slides along %v, want %v\n%s", f, got, loops, r.log)
	}
}

func TestSlidingNested(t *testing.T) {
	t.Run("stencil_2d", func(t *testing.T) {
		x, y := halide.NewVar("x"), halide.NewVar("y")
		f, g := halide.NewFunc("f"), halide.NewFunc("g")
		f.Define(x, y).Is(cc(x, y))
		g.Define(x, y).Is(f.At(x.Sub(1), y).Add(f.At(x, y)).Add(f.At(x, y.Sub(1))))
		f.StoreRoot().ComputeAt(g, x).TraceStores()
		im := halide.NewBuffer[int32](10, 10)
		r := slMust(t, g, im)
		slCheck2(t, im, 10, 10, func(x, y int) int32 { return ccv(x-1, y) + ccv(x, y) + ccv(x, y-1) })
		// f's region over the whole output is 11 x 11; before nested
		// sliding each row was computed again for the next y (220).
		slCount(t, "f", r.stores["f"], 11*11, 11*11)
		wantSlides(t, r, "f", "g.s0.x", "g.s0.y")
		// The fold is along y, the outermost loop f slides along: row
		// y - 1, written in the run of x before, is still in its slot.
		slLogHas(t, r, "storage_folding: f folded by 2 in y along g.s0.y")
	})

	t.Run("lesson_08", func(t *testing.T) {
		// Halide's tutorial lesson_08, store_root().compute_at(consumer,
		// x): a 2x2 box of the producer for each point of a 4x4 consumer.
		x, y := halide.NewVar("x"), halide.NewVar("y")
		producer, consumer := halide.NewFunc("producer"), halide.NewFunc("consumer")
		producer.Define(x, y).Is(x.Mul(y).Add(x))
		consumer.Define(x, y).Is(producer.At(x, y).Add(producer.At(x, y.Add(1))).Add(producer.At(x.Add(1), y)).Add(producer.At(x.Add(1), y.Add(1))).Div(4))
		producer.StoreRoot().ComputeAt(consumer, x).TraceStores()
		im := halide.NewBuffer[int32](4, 4)
		r := slMust(t, consumer, im)
		pv := func(x, y int) int32 { return int32(x*y + x) }
		slCheck2(t, im, 4, 4, func(x, y int) int32 {
			return (pv(x, y) + pv(x, y+1) + pv(x+1, y) + pv(x+1, y+1)) / 4
		})
		// The lesson's count: 25 = 5 x 5, each point of the producer once.
		slCount(t, "producer", r.stores["producer"], 25, 25)
	})

	t.Run("three_loops", func(t *testing.T) {
		x, y, z := halide.NewVar("x"), halide.NewVar("y"), halide.NewVar("z")
		f, g := halide.NewFunc("f"), halide.NewFunc("g")
		f.Define(x, y, z).Is(cc(x, y.Add(z.Mul(3))))
		g.Define(x, y, z).Is(f.At(x, y, z).Add(f.At(x.Add(1), y, z)).Add(f.At(x, y.Add(1), z)).Add(f.At(x, y, z.Add(1))))
		f.StoreRoot().ComputeAt(g, x).TraceStores()
		im := halide.NewBuffer[int32](5, 5, 5)
		r := slMust(t, g, im)
		fv := func(x, y, z int) int32 { return ccv(x, y+3*z) }
		slCheck3(t, im, 5, 5, 5, func(x, y, z int) int32 {
			return fv(x, y, z) + fv(x+1, y, z) + fv(x, y+1, z) + fv(x, y, z+1)
		})
		// f's region at a point of g is the box [x, x + 1] x [y, y + 1]
		// x [z, z + 1], 6 x 6 x 6 over all of g: each point once.
		slCount(t, "f", r.stores["f"], 6*6*6, 6*6*6)
		wantSlides(t, r, "f", "g.s0.x", "g.s0.y", "g.s0.z")
		slLogHas(t, r, "storage_folding: f folded by 2 in z along g.s0.z")
	})

	t.Run("parallel_y", func(t *testing.T) {
		// f stored outside a parallel loop and computed inside it is
		// refused before lowering: nothing could slide along it.
		x, y := halide.NewVar("x"), halide.NewVar("y")
		f, g := halide.NewFunc("f"), halide.NewFunc("g")
		f.Define(x, y).Is(cc(x, y))
		g.Define(x, y).Is(f.At(x.Sub(1), y).Add(f.At(x, y)).Add(f.At(x, y.Sub(1))))
		f.StoreRoot().ComputeAt(g, x)
		g.Parallel(y)
		slRefused(t, "store_root: f is stored outside the parallel loop g.s0.y", g, halide.NewBuffer[int32](10, 10))
	})

	t.Run("parallel_yo", func(t *testing.T) {
		// Stored in the parallel loop yo: f slides along x and yi, the
		// serial loops inside it, not along yo.
		x, y, yo, yi := halide.NewVar("x"), halide.NewVar("y"), halide.NewVar("yo"), halide.NewVar("yi")
		f, g := halide.NewFunc("f"), halide.NewFunc("g")
		f.Define(x, y).Is(cc(x, y))
		g.Define(x, y).Is(f.At(x.Sub(1), y).Add(f.At(x, y)).Add(f.At(x, y.Sub(1))))
		g.Split(y, yo, yi, 5).Parallel(yo)
		f.StoreAt(g, yo).ComputeAt(g, x).TraceStores()
		im := halide.NewBuffer[int32](10, 10)
		r := slMust(t, g, im)
		slCheck2(t, im, 10, 10, func(x, y int) int32 { return ccv(x-1, y) + ccv(x, y) + ccv(x, y-1) })
		// Each of the two blocks of 5 rows: 11 columns of 6 rows.
		slCount(t, "f", r.stores["f"], 2*11*6, 2*11*6)
		wantSlides(t, r, "f", "g.s0.x", "g.s0.y.yi")
	})

	t.Run("parallel_y_stored_inside", func(t *testing.T) {
		// Stored inside the parallel loop: f slides along x alone.
		x, y := halide.NewVar("x"), halide.NewVar("y")
		f, g := halide.NewFunc("f"), halide.NewFunc("g")
		f.Define(x, y).Is(cc(x, y))
		g.Define(x, y).Is(f.At(x.Sub(1), y).Add(f.At(x, y)).Add(f.At(x, y.Sub(1))))
		f.StoreAt(g, y).ComputeAt(g, x).TraceStores()
		g.Parallel(y)
		im := halide.NewBuffer[int32](10, 10)
		r := slMust(t, g, im)
		slCheck2(t, im, 10, 10, func(x, y int) int32 { return ccv(x-1, y) + ccv(x, y) + ccv(x, y-1) })
		// Per row: 4 at the first x, 2 at each of the 9 others.
		slCount(t, "f", r.stores["f"], 10*22, 10*22)
		wantSlides(t, r, "f", "g.s0.x")
	})

	t.Run("y_region_moves_backwards", func(t *testing.T) {
		// f's rows at g's row y are [9 - y, 10 - y]: they do not grow
		// with y, so f slides along x only.
		x, y := halide.NewVar("x"), halide.NewVar("y")
		f, g := halide.NewFunc("f"), halide.NewFunc("g")
		f.Define(x, y).Is(cc(x, y))
		yr := halide.E(9).Sub(y)
		g.Define(x, y).Is(f.At(x.Sub(1), yr).Add(f.At(x, yr)).Add(f.At(x, yr.Add(1))))
		f.StoreRoot().ComputeAt(g, x).TraceStores()
		im := halide.NewBuffer[int32](10, 10)
		r := slMust(t, g, im)
		slCheck2(t, im, 10, 10, func(x, y int) int32 { return ccv(x-1, 9-y) + ccv(x, 9-y) + ccv(x, 10-y) })
		slCount(t, "f", r.stores["f"], 10*22, 10*22)
		wantSlides(t, r, "f", "g.s0.x")
	})

	t.Run("explicit_fold", func(t *testing.T) {
		// FoldStorage(x, 2) is sized for the window of g's loop x: f
		// slides along x alone (sliding along y too would fold along y,
		// where x's window is the whole row).
		x, y := halide.NewVar("x"), halide.NewVar("y")
		f, g := halide.NewFunc("f"), halide.NewFunc("g")
		f.Define(x, y).Is(cc(x, y))
		g.Define(x, y).Is(f.At(x.Sub(1), y).Add(f.At(x, y)).Add(f.At(x, y.Sub(1))))
		f.StoreRoot().ComputeAt(g, x).FoldStorage(x, 2).TraceStores()
		im := halide.NewBuffer[int32](10, 10)
		r := slMust(t, g, im)
		slCheck2(t, im, 10, 10, func(x, y int) int32 { return ccv(x-1, y) + ccv(x, y) + ccv(x, y-1) })
		slCount(t, "f", r.stores["f"], 10*22, 10*22)
		wantSlides(t, r, "f", "g.s0.x")
		slLogHas(t, r, "storage_folding: f folded by 2 in x along g.s0.x")
	})

	t.Run("chain", func(t *testing.T) {
		// p feeds f feeds g, both stored at the root and computed at g's
		// x: each slides along x and y, and each point of each is
		// computed once.
		x, y := halide.NewVar("x"), halide.NewVar("y")
		p, f, g := halide.NewFunc("p"), halide.NewFunc("f"), halide.NewFunc("g")
		p.Define(x, y).Is(cc(x, y))
		f.Define(x, y).Is(p.At(x.Sub(1), y).Add(p.At(x, y.Sub(1)).Mul(3)))
		g.Define(x, y).Is(f.At(x.Sub(1), y).Add(f.At(x, y.Sub(1)).Mul(5)))
		p.StoreRoot().ComputeAt(g, x).TraceStores()
		f.StoreRoot().ComputeAt(g, x).TraceStores()
		im := halide.NewBuffer[int32](10, 10)
		r := slMust(t, g, im)
		fv := func(x, y int) int32 { return ccv(x-1, y) + 3*ccv(x, y-1) }
		slCheck2(t, im, 10, 10, func(x, y int) int32 { return fv(x-1, y) + 5*fv(x, y-1) })
		// f over [-1, 9] x [-1, 9] (11 x 11) and p over [-2, 9] x [-2, 9]
		// (12 x 12): regions are boxes, so p's includes the corner
		// (-2, -2) that no point of f reads.
		slCount(t, "f", r.stores["f"], 11*11, 11*11)
		slCount(t, "p", r.stores["p"], 12*12, 12*12)
		wantSlides(t, r, "f", "g.s0.x", "g.s0.y")
		wantSlides(t, r, "p", "g.s0.x", "g.s0.y")
	})

	t.Run("update", func(t *testing.T) {
		// A Func with an update does not slide (an update is not
		// idempotent).
		x, y := halide.NewVar("x"), halide.NewVar("y")
		f, g := halide.NewFunc("f"), halide.NewFunc("g")
		f.Define(x, y).Is(cc(x, y))
		f.Define(x, y).Is(f.At(x, y).Add(1))
		g.Define(x, y).Is(f.At(x.Sub(1), y).Add(f.At(x, y)).Add(f.At(x, y.Sub(1))))
		f.StoreRoot().ComputeAt(g, x).TraceStores()
		im := halide.NewBuffer[int32](10, 10)
		r := slMust(t, g, im)
		slCheck2(t, im, 10, 10, func(x, y int) int32 { return ccv(x-1, y) + ccv(x, y) + ccv(x, y-1) + 3 })
		// Two stores (pure and update) at each point of the 2 x 2 box at
		// each of the 100 points.
		slCount(t, "f", r.stores["f"], 800, 800)
		wantSlides(t, r, "f")
	})

	t.Run("guard_with_if_y", func(t *testing.T) {
		// g's y split by 3 with a guarded tail: the guard is around g's
		// store, not f's production, so f slides along x and yi. Not
		// along yo too: f's y dimension slid along yi already (one loop
		// per dimension), so each yo computes its first row y - 1 again.
		x, y, yo, yi := halide.NewVar("x"), halide.NewVar("y"), halide.NewVar("yo"), halide.NewVar("yi")
		f, g := halide.NewFunc("f"), halide.NewFunc("g")
		f.Define(x, y).Is(cc(x, y))
		g.Define(x, y).Is(f.At(x.Sub(1), y).Add(f.At(x, y)).Add(f.At(x, y.Sub(1))))
		g.Split(y, yo, yi, 3, halide.GuardWithIf)
		f.StoreRoot().ComputeAt(g, x).TraceStores()
		im := halide.NewBuffer[int32](10, 10)
		r := slMust(t, g, im)
		slCheck2(t, im, 10, 10, func(x, y int) int32 { return ccv(x-1, y) + ccv(x, y) + ccv(x, y-1) })
		// 11 columns of 4 + 4 + 4 + 2 rows (the last yo has one row
		// of g, 9, and f's rows 8 and 9).
		slCount(t, "f", r.stores["f"], 11*14, 11*14)
		wantSlides(t, r, "f", "g.s0.x", "g.s0.y.yi")
	})

	t.Run("gpu_thread_private", func(t *testing.T) {
		// Each GPU thread runs a 4 x 4 tile of g in serial loops yi, xi,
		// with f stored in the thread's own memory at its thread loop
		// (Heap: a slice of global scratch per thread; Stack there
		// becomes registers, which do not slide): f slides along xi and
		// yi inside the kernel (emulator).
		x, y := halide.NewVar("x"), halide.NewVar("y")
		xo, xi, yo, yi := halide.NewVar("xo"), halide.NewVar("xi"), halide.NewVar("yo"), halide.NewVar("yi")
		f, g := halide.NewFunc("f"), halide.NewFunc("g")
		f.Define(x, y).Is(cc(x, y))
		g.Define(x, y).Is(f.At(x.Sub(1), y).Add(f.At(x, y)).Add(f.At(x, y.Sub(1))))
		g.Split(x, xo, xi, 4).Split(y, yo, yi, 4).Reorder(xi, yi, xo, yo).GPUBlocks(yo).GPUThreads(xo)
		f.StoreAt(g, xo).ComputeAt(g, xi).StoreIn(halide.Heap)
		im := halide.NewBuffer[int32](16, 16)
		l, err := halide.NewPipeline(g).WithTarget(halide.Emulator).Lower()
		if err != nil {
			t.Fatal(err)
		}
		if got := slideLoops(l.String())["f"]; strings.Join(got, " ") != "g.s0.x.xi g.s0.y.yi" {
			t.Errorf("f slides along %v, want [g.s0.x.xi g.s0.y.yi]\n%s", got, l.String())
		}
		if err := apRun(g, true, im); err != nil {
			t.Fatal(err)
		}
		slCheck2(t, im, 16, 16, func(x, y int) int32 { return ccv(x-1, y) + ccv(x, y) + ccv(x, y-1) })
	})
}
