package errors_test

// Registers at the block level (issue 9): a Func computed at a block loop
// and stored in registers is one copy per thread, holding the points that
// thread computed. A schedule in which a thread reads a point another
// thread computed is refused at Lower, naming the Func, the access and the
// two threads. The schedules that run are in tests/gpu
// (TestRegisterBlockLevel).

import (
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// regLegal is what every refusal offers instead.
var regLegal = []string{"store_in(GPUShared)", "inside the thread loops", "gpu_threads"}

func TestErrRegisterOwnership(t *testing.T) {
	bx, by, tx, ty := gpuVars()
	runGPUCases(t, []errCase{
		{
			name: "crosstalk",
			run: func() error {
				// g reads f(x, y) and f(x-1, y-1): f's region starts one
				// point up and left of the block, so f's thread (1, 1)
				// computes the point g's thread (0, 0) reads at f(x, y).
				in := halide.NewImageParam("in", halide.Float32, 2)
				f, g := halide.NewFunc("f"), halide.NewFunc("g")
				f.Define(x, y).Is(in.At(x, y).Mul(2))
				g.Define(x, y).Is(f.At(x, y).Add(f.At(x.Sub(1), y.Sub(1))))
				g.GPUTile(x, y, bx, by, tx, ty, 8, 8)
				f.ComputeAt(g, bx).StoreIn(halide.Register).GPUThreads(x, y)
				return lowerErr(g)
			},
			code: halide.ErrSchedule, fn: "f", directive: "store_in(Register)",
			mentions: []string{"registers at the block level", "thread (tx=0, ty=0) of g reads f(x, y)", "thread (tx=1, ty=1) of f produced"},
			legal:    regLegal,
		},
		{
			name: "stored by one thread, read by others",
			run: func() error {
				// f has no thread loops: only the block's first thread
				// stores it, in its own registers.
				in := halide.NewImageParam("in", halide.Float32, 2)
				f, g := halide.NewFunc("f"), halide.NewFunc("g")
				f.Define(x, y).Is(in.At(x, y).Mul(2))
				g.Define(x, y).Is(f.At(x, y).Add(1))
				g.GPUTile(x, y, bx, by, tx, ty, 8, 8)
				f.ComputeAt(g, bx).StoreIn(halide.Register)
				return lowerErr(g)
			},
			code: halide.ErrSchedule, fn: "f", directive: "store_in(Register)",
			mentions: []string{"thread (tx=1, ty=0) of g reads f(x, y)", "thread (tx=0, ty=0) of f produced", "no thread loops", "first thread"},
			legal:    regLegal,
		},
		{
			name: "stored by one thread, read inside a y thread loop by every x thread",
			run: func() error {
				// w has no thread loops (thread (0, 0) stores it); h is
				// computed at g's y thread loop, outside its x thread
				// loop, so every x thread runs h and reads w from its
				// own registers (a fuzz case: NaN on thread x = 1).
				in := halide.NewImageParam("in", halide.Float32, 2)
				wt := halide.NewImageParam("wt", halide.Float32, 1)
				w, h, g := halide.NewFunc("w"), halide.NewFunc("h"), halide.NewFunc("g")
				w.Define(x).Is(wt.At(x))
				h.Define(x, y).Is(in.At(x, y).Mul(w.At(0)))
				g.Define(x, y).Is(h.At(x, y))
				g.GPUTile(x, y, bx, by, tx, ty, 16, 1)
				h.ComputeAt(g, ty)
				w.ComputeAt(g, bx).StoreIn(halide.Register)
				return lowerErr(g)
			},
			code: halide.ErrSchedule, fn: "w", directive: "store_in(Register)",
			mentions: []string{"tx=thread_id_x", "no thread loops", "first thread"},
			legal:    regLegal,
		},
		{
			name: "stored per x thread, read inside a y thread loop by every x thread",
			run: func() error {
				// w's x thread loop gives thread tx point tx; h, computed
				// at g's y thread loop (outside its x loop), reads w(0) on
				// every x thread: only thread 0 holds it.
				in := halide.NewImageParam("in", halide.Float32, 2)
				wt := halide.NewImageParam("wt", halide.Float32, 1)
				w, h, g := halide.NewFunc("w"), halide.NewFunc("h"), halide.NewFunc("g")
				w.Define(x).Is(wt.At(x))
				h.Define(x, y).Is(in.At(x, y).Mul(w.At(0)))
				g.Define(x, y).Is(h.At(x, y))
				g.GPUTile(x, y, bx, by, tx, ty, 16, 1)
				h.ComputeAt(g, ty)
				w.ComputeAt(g, bx).StoreIn(halide.Register).Bound(x, 0, 16).GPUThreads(x)
				return lowerErr(g)
			},
			code: halide.ErrSchedule, fn: "w", directive: "store_in(Register)",
			mentions: []string{"tx=thread_id_x"},
			legal:    regLegal,
		},
		{
			name: "stored on the first row of threads, read by every row",
			run: func() error {
				// f's thread loops use x only: gpu_thread_loops runs them
				// on thread row y = 0 (its nest's idle guard); g reads f
				// on every row (a fuzz case: NaN on row 1).
				in := halide.NewImageParam("in", halide.Float32, 2)
				f, g := halide.NewFunc("f"), halide.NewFunc("g")
				f.Define(x).Is(in.At(x, 0).Mul(2))
				g.Define(x, y).Is(f.At(x).Add(y))
				g.GPUTile(x, y, bx, by, tx, ty, 8, 4)
				f.ComputeAt(g, bx).StoreIn(halide.Register).GPUThreads(x)
				return lowerErr(g)
			},
			code: halide.ErrSchedule, fn: "f", directive: "store_in(Register)",
			mentions: []string{"ty=1) of g reads f(x)", "ty=0) of f produced"},
			legal:    regLegal,
		},
		{
			name: "stored by one warp, read by two",
			run: func() error {
				// f's thread loop covers 32 threads (a serial loop walks
				// the block's 64 points in two rounds); g reads on 64.
				in := halide.NewImageParam("in", halide.Float32, 1)
				f, g := halide.NewFunc("f"), halide.NewFunc("g")
				f.Define(x).Is(in.At(x).Mul(2))
				g.Define(x).Is(f.At(x).Add(1))
				g.GPUTile1D(x, bx, tx, 64)
				f.ComputeAt(g, bx).StoreIn(halide.Register).Split(x, xo, xi, 32).GPUThreads(xi)
				return lowerErr(g)
			},
			code: halide.ErrSchedule, fn: "f", directive: "store_in(Register)",
			mentions: []string{"thread (tx=32) of g reads f(x)", "thread (tx=0) of f produced"},
			legal:    regLegal,
		},
		{
			name: "shifted between threads",
			run: func() error {
				// h also reads f, at f(x-1): f's region, and so its thread
				// loop, starts one point before g's, and f's thread t+1
				// holds the point g's thread t reads.
				in := halide.NewImageParam("in", halide.Float32, 1)
				f, h, g := halide.NewFunc("f"), halide.NewFunc("h"), halide.NewFunc("g")
				f.Define(x).Is(in.At(x).Mul(2))
				h.Define(x).Is(f.At(x.Sub(1)).Add(1))
				g.Define(x).Is(h.At(x).Add(f.At(x)))
				g.GPUTile1D(x, bx, tx, 32)
				f.ComputeAt(g, bx).StoreIn(halide.Register).GPUThreads(x)
				h.ComputeAt(g, bx).StoreIn(halide.Register).GPUThreads(x)
				return lowerErr(g)
			},
			code: halide.ErrSchedule, fn: "f", directive: "store_in(Register)",
			mentions: []string{"thread (tx=0) of g reads f(x)", "thread (tx=1) of f produced"},
			legal:    regLegal,
		},
		{
			name: "stages that disagree on the owner",
			run: func() error {
				// f's pure definition computes one point per thread; its
				// update computes two per thread, so update thread 1
				// works on points pure thread 2 computed.
				in := halide.NewImageParam("in", halide.Float32, 1)
				f, g := halide.NewFunc("f"), halide.NewFunc("g")
				f.Define(x).Is(in.At(x).Mul(2))
				f.Define(x).Is(f.At(x).Add(1))
				g.Define(x).Is(f.At(x).Add(1))
				g.GPUTile1D(x, bx, tx, 32)
				f.ComputeAt(g, bx).StoreIn(halide.Register).GPUThreads(x)
				f.Update(0).Split(x, xo, xi, 2).GPUThreads(xo)
				return lowerErr(g)
			},
			code: halide.ErrSchedule, fn: "f", directive: "store_in(Register)",
			mentions: []string{"thread (tx=1) of update 0 of f reads f(x)", "thread (tx=2) of f produced"},
			legal:    regLegal,
		},
	})
}

// TestErrRegisterOwnershipAdvice follows the advice of the crosstalk
// error: the same schedule in GPUShared lowers.
func TestErrRegisterOwnershipAdvice(t *testing.T) {
	bx, by, tx, ty := gpuVars()
	in := halide.NewImageParam("in", halide.Float32, 2)
	f, g := halide.NewFunc("f"), halide.NewFunc("g")
	f.Define(x, y).Is(in.At(x, y).Mul(2))
	g.Define(x, y).Is(f.At(x, y).Add(f.At(x.Sub(1), y.Sub(1))))
	g.GPUTile(x, y, bx, by, tx, ty, 8, 8)
	f.ComputeAt(g, bx).StoreIn(halide.GPUShared).GPUThreads(x, y)
	if err := lowerErr(g); err != nil {
		t.Fatalf("store_in(GPUShared), as the advice says: %v", err)
	}
}
