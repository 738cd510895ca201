package errors_test

import (
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// Issue 17, the RVar-order rule: a schedule may not change the nesting
// order of two loops from different RVars of an update, or of the two
// pieces of one split RVar, nor run an RVar's iterations at once
// (parallel, GPU), unless the iterations it moves are proven
// independent or the update may run in any order (f(args) = f(args) op e;
// an Atomic() update reading only its own point). Lower refuses the rest.

// loopCarried is the program: f(x) = x, then f(r.x) = f(r.x) +
// f(r.x + 1) over the 4x3 RDom r, a loop-carried update whose answer
// depends on the order of r; g(x) = f(x) reads it, f computed at the root.
func loopCarried() (g, f *halide.Func, r *halide.RDom) {
	r = halide.NewRDom("r", halide.Range(0, 4), halide.Range(0, 3))
	f = halide.NewFunc("f")
	f.Define(x).Is(x)
	f.Define(r.X()).Is(f.At(r.X()).Add(f.At(r.X().Add(1))))
	f.ComputeRoot()
	g = halide.NewFunc("g")
	g.Define(x).Is(f.At(x))
	return g, f, r
}

// carriedWant is loopCarried's g over [0, 5), computed in the algorithm's order
// (r.y outer, r.x inner): g(0) = 12, the number.
func carriedWant() []int32 {
	f := []int32{0, 1, 2, 3, 4}
	for ry := 0; ry < 3; ry++ {
		for rx := 0; rx < 4; rx++ {
			f[rx] += f[rx+1]
		}
	}
	return f
}

// carried2 is loopCarried with a pure var: f(x, y) = x + y, then
// f(r.x, y) = f(r.x, y) + f(r.x + 1, y), so a schedule can move y.
func carried2() (g, f *halide.Func, r *halide.RDom) {
	r = halide.NewRDom("r", halide.Range(0, 4), halide.Range(0, 3))
	f = halide.NewFunc("f")
	f.Define(x, y).Is(x.Add(y))
	f.Define(r.X(), y).Is(f.At(r.X(), y).Add(f.At(r.X().Add(1), y)))
	f.ComputeRoot()
	g = halide.NewFunc("g")
	g.Define(x, y).Is(f.At(x, y))
	return g, f, r
}

func TestErrRVarOrder(t *testing.T) {
	rxo, rxi := halide.NewRVar("rxo"), halide.NewRVar("rxi")
	ryo, ryi := halide.NewRVar("ryo"), halide.NewRVar("ryi")
	bx, tx := halide.NewVar("bx"), halide.NewVar("tx")
	rf := halide.NewRVar("rf")
	// Each legal alternative the message must offer: keep the order, the
	// forms that may reorder, rfactor.
	legal := []string{"inside r$y", "f(args) = f(args) op e", "rfactor"}
	runGPUCases(t, []errCase{
		{
			name: "Reorder(r.y, r.x)",
			run: func() error {
				g, f, r := loopCarried()
				f.Update(0).Reorder(r.Y(), r.X())
				return lowerErr(g)
			},
			code: halide.ErrSchedule, fn: "f", directive: "reorder",
			mentions: []string{"update 0", "the loop r$x is outside the loop r$y", "the RVars r$x and r$y", "meaning"},
			legal:    legal,
		},
		{
			name: "Tile(r.x, r.y, ...)",
			run: func() error {
				g, f, r := loopCarried()
				f.Update(0).Tile(r.X(), r.Y(), rxo, ryo, rxi, ryi, 2, 2)
				return lowerErr(g)
			},
			code: halide.ErrSchedule, fn: "f", directive: "reorder",
			mentions: []string{"update 0", "r$x.rxo is outside the loop r$y.ryi", "the RVars r$x and r$y"},
			legal:    legal,
		},
		{
			name: "Split(r.x).Reorder(xi, r.y, xo)",
			run: func() error {
				g, f, r := loopCarried()
				f.Update(0).Split(r.X(), rxo, rxi, 2).Reorder(rxi, r.Y(), rxo)
				return lowerErr(g)
			},
			code: halide.ErrSchedule, fn: "f", directive: "reorder",
			mentions: []string{"update 0", "r$x.rxo is outside the loop r$y", "the RVars r$x and r$y"},
			legal:    legal,
		},
		{
			name: "the pieces of one RVar swapped",
			run: func() error {
				g, f, r := loopCarried()
				f.Update(0).Split(r.X(), rxo, rxi, 2).Reorder(rxo, rxi)
				return lowerErr(g)
			},
			code: halide.ErrSchedule, fn: "f", directive: "reorder",
			mentions: []string{"update 0", "r$x.rxi is outside the loop r$x.rxo", "the pieces r$x.rxo and r$x.rxi of r$x"},
			legal:    []string{"the outer piece r$x.rxo outside the inner piece r$x.rxi", "f(args) = f(args) op e", "rfactor"},
		},
		{
			name: "the pieces of an unrolled RVar swapped",
			run: func() error {
				g, f, r := loopCarried()
				f.Update(0).Split(r.X(), rxo, rxi, 2).Unroll(rxi).Reorder(rxo, rxi)
				return lowerErr(g)
			},
			code: halide.ErrSchedule, fn: "f", directive: "reorder",
			mentions: []string{"the pieces r$x.rxo and r$x.rxi of r$x"},
			legal:    []string{"outside the inner piece"},
		},
		{
			name: "a fused loop that runs r.x outside r.y",
			run: func() error {
				g, f, r := loopCarried()
				f.Update(0).Reorder(r.Y(), r.X()).Fuse(r.Y(), r.X(), rxo)
				return lowerErr(g)
			},
			code: halide.ErrSchedule, fn: "f", directive: "reorder",
			mentions: []string{"the fused loop r$y.rxo runs r$x outside r$y", "the RVars r$x and r$y"},
			legal:    legal,
		},
		{
			name: "the pieces of a split fused loop swapped",
			run: func() error {
				g, f, r := loopCarried()
				f.Update(0).Fuse(r.X(), r.Y(), rf).Split(rf, rxo, rxi, 5).Reorder(rxo, rxi)
				return lowerErr(g)
			},
			code: halide.ErrSchedule, fn: "f", directive: "reorder",
			mentions: []string{"the loop r$x.rf.rxi is outside the loop r$x.rf.rxo", "of the fused loop r$x.rf"},
			legal:    []string{"the outer piece r$x.rf.rxo outside the inner piece r$x.rf.rxi"},
		},
		{
			name: "GPU: RVars reordered inside a kernel over a pure var",
			run: func() error {
				g, f, r := carried2()
				f.Update(0).GPUTile1D(y, bx, tx, 2).Reorder(r.Y(), r.X())
				return lowerErr(g)
			},
			code: halide.ErrSchedule, fn: "f", directive: "reorder",
			mentions: []string{"update 0", "the loop r$x is outside the loop r$y", "the RVars r$x and r$y"},
			legal:    legal,
		},
		{
			name: "GPU: GPUTile over the RVars, Atomic, reading another point",
			run: func() error {
				g, f, r := loopCarried()
				f.Update(0).Atomic().GPUTile(r.X(), r.Y(), rxo, ryo, rxi, ryi, 2, 2)
				return lowerErr(g)
			},
			code: halide.ErrSchedule, fn: "f", directive: "gpu_threads",
			mentions: []string{"r$x.rxi", "even with Atomic()", "other than the one it writes"},
			legal:    []string{"pure var"},
		},
		{
			name: "Atomic() does not make the reorder legal when the update reads another point",
			run: func() error {
				g, f, r := loopCarried()
				f.Update(0).Atomic().Reorder(r.Y(), r.X())
				return lowerErr(g)
			},
			code: halide.ErrSchedule, fn: "f", directive: "reorder",
			mentions: []string{"the RVars r$x and r$y"},
			legal:    []string{"inside r$y", "Atomic() does not make it legal"},
		},
	})
}

// TestRVarOrderLegal runs schedules that keep the meaning of an update:
// pure vars moved, RVars whose iterations are independent moved, splits,
// unrolls and fuses that keep the RDom's order, and updates that may run
// in any order. Each must give the algorithm's answer.
func TestRVarOrderLegal(t *testing.T) {
	rxo, rxi := halide.NewRVar("rxo"), halide.NewRVar("rxi")
	ryo, ryi := halide.NewRVar("ryo"), halide.NewRVar("ryi")
	rf := halide.NewRVar("rf")
	bx, tx := halide.NewVar("bx"), halide.NewVar("tx")
	want := carriedWant()
	for _, c := range []struct {
		name string
		sch  func(f *halide.Func, r *halide.RDom)
	}{
		{"no schedule", func(f *halide.Func, r *halide.RDom) {}},
		{"Split(r.x) in order", func(f *halide.Func, r *halide.RDom) { f.Update(0).Split(r.X(), rxo, rxi, 2) }},
		{"Split(r.x), Split(r.y), reorder keeping the order", func(f *halide.Func, r *halide.RDom) {
			f.Update(0).Split(r.X(), rxo, rxi, 3).Split(r.Y(), ryo, ryi, 2).Reorder(rxi, rxo, ryi, ryo)
		}},
		{"Unroll(r.x, 2)", func(f *halide.Func, r *halide.RDom) { f.Update(0).Unroll(r.X(), 2) }},
		{"Unroll(r.x)", func(f *halide.Func, r *halide.RDom) { f.Update(0).Unroll(r.X()) }},
		// Our vectorized loops run their lanes in order (Halide refuses
		// these): the CPU runs them as loops and a kernel keeps a loop
		// that reads the buffer it stores to as a loop.
		{"Vectorize(r.x, 2)", func(f *halide.Func, r *halide.RDom) { f.Update(0).Vectorize(r.X(), 2) }},
		{"Vectorize(r.x)", func(f *halide.Func, r *halide.RDom) { f.Update(0).Vectorize(r.X()) }},
		{"Fuse(r.x, r.y)", func(f *halide.Func, r *halide.RDom) { f.Update(0).Fuse(r.X(), r.Y(), rf) }},
		{"Fuse(r.x, r.y) then split", func(f *halide.Func, r *halide.RDom) {
			f.Update(0).Fuse(r.X(), r.Y(), rf).Split(rf, rxo, rxi, 5)
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			g, f, r := loopCarried()
			c.sch(f, r)
			out := halide.NewBuffer[int32](5)
			if err := halide.NewPipeline(g).Realize(out); err != nil {
				t.Fatalf("Realize: %v", err)
			}
			for i, w := range want {
				if got := out.Get(i); got != w {
					t.Errorf("g(%d) = %d, want %d", i, got, w)
				}
			}
		})
	}

	// A pure var moves freely, on the CPU and inside a GPU kernel.
	for _, c := range []struct {
		name string
		sch  func(f *halide.Func, r *halide.RDom)
	}{
		{"pure var innermost", func(f *halide.Func, r *halide.RDom) { f.Update(0).Reorder(y, r.X(), r.Y()) }},
		{"pure var between the RVars", func(f *halide.Func, r *halide.RDom) { f.Update(0).Reorder(r.X(), y, r.Y()) }},
		{"pure var on the GPU", func(f *halide.Func, r *halide.RDom) { f.Update(0).GPUTile1D(y, bx, tx, 2) }},
		{"Vectorize(r.x) in a GPU kernel", func(f *halide.Func, r *halide.RDom) {
			f.Update(0).GPUTile1D(y, bx, tx, 2).Vectorize(r.X())
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			g, f, r := carried2()
			c.sch(f, r)
			out := halide.NewBuffer[int32](5, 3)
			if err := halide.NewPipeline(g).Realize(out); err != nil {
				t.Fatalf("Realize: %v", err)
			}
			for yy := 0; yy < 3; yy++ {
				fw := []int32{0, 1, 2, 3, 4}
				for i := range fw {
					fw[i] += int32(yy)
				}
				for ry := 0; ry < 3; ry++ {
					for rx := 0; rx < 4; rx++ {
						fw[rx] += fw[rx+1]
					}
				}
				for i, w := range fw {
					if got := out.Get(i, yy); got != w {
						t.Errorf("g(%d, %d) = %d, want %d", i, yy, got, w)
					}
				}
			}
		})
	}

	// f(r.x, r.y) = f(r.x, r.y) * 2 + f(r.x, r.y - 1): every r.x writes and
	// reads only its own column, so r.x may move anywhere (and run on GPU
	// threads) while r.y, a scan, keeps its order.
	own := func() (*halide.Func, *halide.Func, *halide.RDom) {
		r := halide.NewRDom("r", halide.Range(0, 4), halide.Range(1, 3))
		f := halide.NewFunc("f")
		f.Define(x, y).Is(x.Add(y.Mul(10)))
		f.Define(r.X(), r.Y()).Is(f.At(r.X(), r.Y()).Mul(2).Add(f.At(r.X(), r.Y().Sub(1))))
		f.ComputeRoot()
		g := halide.NewFunc("g")
		g.Define(x, y).Is(f.At(x, y))
		return g, f, r
	}
	for _, c := range []struct {
		name string
		sch  func(f *halide.Func, r *halide.RDom)
	}{
		{"independent r.x outside r.y", func(f *halide.Func, r *halide.RDom) { f.Update(0).Reorder(r.Y(), r.X()) }},
		{"Tile(r.x, r.y)", func(f *halide.Func, r *halide.RDom) {
			f.Update(0).Tile(r.X(), r.Y(), rxo, ryo, rxi, ryi, 2, 2)
		}},
		{"pieces of independent r.x swapped", func(f *halide.Func, r *halide.RDom) {
			f.Update(0).Split(r.X(), rxo, rxi, 2).Reorder(rxo, rxi)
		}},
		{"independent r.x on GPU threads outside r.y", func(f *halide.Func, r *halide.RDom) {
			f.Update(0).Reorder(r.Y(), r.X()).GPUTile1D(r.X(), rxo, rxi, 2)
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			g, f, r := own()
			c.sch(f, r)
			out := halide.NewBuffer[int32](4, 4)
			if err := halide.NewPipeline(g).Realize(out); err != nil {
				t.Fatalf("Realize: %v", err)
			}
			for xx := 0; xx < 4; xx++ {
				col := []int32{int32(xx), int32(xx + 10), int32(xx + 20), int32(xx + 30)}
				for ry := 1; ry < 4; ry++ {
					col[ry] = col[ry]*2 + col[ry-1]
				}
				for yy, w := range col {
					if got := out.Get(xx, yy); got != w {
						t.Errorf("g(%d, %d) = %d, want %d", xx, yy, got, w)
					}
				}
			}
		})
	}

	// A prefix sum, s(r.x) = s(r.x) + s(r.x - 1), vectorized: each lane
	// must see the lane before it (true vector lanes would all load first).
	for _, gpu := range []bool{false, true} {
		t.Run(map[bool]string{false: "a vectorized scan", true: "a vectorized scan in a GPU kernel"}[gpu], func(t *testing.T) {
			r := halide.NewRDom("r", halide.Range(1, 7))
			s := halide.NewFunc("s")
			s.Define(x, y).Is(x.Add(y))
			s.Define(r.X(), y).Is(s.At(r.X(), y).Add(s.At(r.X().Sub(1), y)))
			if gpu {
				s.Update(0).GPUTile1D(y, bx, tx, 2).Vectorize(r.X(), 4)
			} else {
				s.Update(0).Vectorize(r.X(), 4)
			}
			out := halide.NewBuffer[int32](8, 2)
			if err := halide.NewPipeline(s).Realize(out); err != nil {
				t.Fatalf("Realize: %v", err)
			}
			for yy := 0; yy < 2; yy++ {
				acc := int32(0)
				for xx := 0; xx < 8; xx++ {
					acc += int32(xx + yy)
					if got := out.Get(xx, yy); got != acc {
						t.Errorf("s(%d, %d) = %d, want %d", xx, yy, got, acc)
					}
				}
			}
		})
	}

	// h(x) = h(x) + r.x*(r.y + 1) + x, tiled and reordered: an update of the form
	// f(args) = f(args) op e may run its RVars in any order.
	t.Run("a sum reordered", func(t *testing.T) {
		r := halide.NewRDom("r", halide.Range(0, 5), halide.Range(0, 3))
		h := halide.NewFunc("h")
		h.Define(x).Is(0)
		h.Define(x).PlusEq(r.X().Mul(r.Y().Add(1)).Add(x))
		h.Update(0).Tile(r.X(), r.Y(), rxo, ryo, rxi, ryi, 2, 2).Reorder(rxo, ryi)
		out := halide.NewBuffer[int32](2)
		if err := halide.NewPipeline(h).Realize(out); err != nil {
			t.Fatalf("Realize: %v", err)
		}
		// sum over rx < 5, ry < 3 of rx*(ry+1) + x = 10*6 + 15x.
		for xx := 0; xx < 2; xx++ {
			if got, w := out.Get(xx), int32(60+15*xx); got != w {
				t.Errorf("h(%d) = %d, want %d", xx, got, w)
			}
		}
	})
}
