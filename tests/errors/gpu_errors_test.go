package errors_test

import (
	"errors"
	"math/rand"
	"strings"
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// The GPU mistakes: each schedule below breaks one rule of the GPU loop
// nest, of the shared memory and block size limits, or of the memory types
// inside kernels, and must give an ErrSchedule naming the Func, the
// directive and the loops concerned, with a Legal alternative.

// gpuVars are the block and thread vars of a 2-D GPU tile.
func gpuVars() (bx, by, tx, ty halide.Var) {
	return halide.NewVar("bx"), halide.NewVar("by"), halide.NewVar("tx"), halide.NewVar("ty")
}

// pointwise is f(x, y) = in(x, y) * 2 for schedules of a single Func.
func pointwise() *halide.Func {
	in := halide.NewImageParam("in", halide.Float32, 2)
	f := halide.NewFunc("f")
	f.Define(x, y).Is(in.At(x, y).Mul(2))
	return f
}

// pointwise4 is f(x, y, z, w) = in(x, y, z, w) + 1.
func pointwise4() (*halide.Func, halide.Var) {
	w := halide.NewVar("w")
	in := halide.NewImageParam("in", halide.Float32, 4)
	f := halide.NewFunc("f")
	f.Define(x, y, z, w).Is(in.At(x, y, z, w).Add(1))
	return f, w
}

// runGPUCases is runCases that also logs each error in full (go test -v),
// so the wording of the messages can be read.
func runGPUCases(t *testing.T, cases []errCase) {
	t.Helper()
	runCases(t, cases)
	for _, c := range cases {
		t.Logf("%s:\n\t%v", c.name, safely(c.run))
	}
}

func TestErrGPULoopNest(t *testing.T) {
	bx, by, tx, ty := gpuVars()
	runGPUCases(t, []errCase{
		{
			name: "thread loop without a block loop",
			run: func() error {
				f := pointwise()
				f.Split(x, xo, xi, 16).GPUThreads(xi)
				return lowerErr(f)
			},
			code: halide.ErrSchedule, fn: "f", directive: "gpu_threads",
			mentions: []string{"f.s0.x.xi", "no enclosing block loop"},
			legal:    []string{"gpu_blocks"},
		},
		{
			name: "thread loop of a compute_root Func beside a kernel",
			run: func() error {
				// f is a kernel; g is computed at root, outside it, where
				// there is no block loop, but marks its own thread loop.
				b := newBlur()
				b.f.GPUTile(x, y, bx, by, tx, ty, 8, 8)
				b.g.ComputeRoot().Split(x, xo, xi, 8).GPUThreads(xi)
				return lowerErr(b.f)
			},
			code: halide.ErrSchedule, fn: "g", directive: "gpu_threads",
			mentions: []string{"g.s0.x.xi", "no enclosing block loop"},
			legal:    []string{"gpu_blocks"},
		},
		{
			name: "GPUBlocks of 4 loops",
			run: func() error {
				f, w := pointwise4()
				f.GPUBlocks(x, y, z, w)
				return lowerErr(f)
			},
			code: halide.ErrSchedule, fn: "f", directive: "gpu_blocks",
			mentions: []string{"gpu_blocks", "1 to 3", "4"},
			legal:    []string{"fuse"},
		},
		{
			name: "GPUThreads of 4 loops",
			run: func() error {
				f, w := pointwise4()
				f.GPUThreads(x, y, z, w)
				return lowerErr(f)
			},
			code: halide.ErrSchedule, fn: "f", directive: "gpu_threads",
			mentions: []string{"gpu_threads", "1 to 3", "4"},
			legal:    []string{"fuse"},
		},
		{
			name: "4 block loops through two GPUBlocks",
			run: func() error {
				f, w := pointwise4()
				f.GPUBlocks(x, y).GPUBlocks(z, w)
				return lowerErr(f)
			},
			code: halide.ErrSchedule, fn: "f", directive: "gpu_blocks",
			mentions: []string{"f", "4 block", "at most 3"},
			legal:    []string{"fuse"},
		},
		{
			name: "4 thread loops through two GPUThreads",
			run: func() error {
				f, w := pointwise4()
				wo, wi := halide.NewVar("wo"), halide.NewVar("wi")
				f.Split(w, wo, wi, 2).GPUThreads(x, y).GPUThreads(z, wi).GPUBlocks(wo)
				return lowerErr(f)
			},
			code: halide.ErrSchedule, fn: "f", directive: "gpu_threads",
			mentions: []string{"f", "4 thread", "at most 3"},
			legal:    []string{"fuse"},
		},
		{
			name: "block loops nested through compute_at in another kernel",
			run: func() error {
				// Each Func has 2 block loops; g's would be the 3rd and 4th.
				b := newBlur()
				b.f.GPUTile(x, y, bx, by, tx, ty, 8, 8)
				b.g.ComputeAt(b.f, bx).GPUBlocks(x, y)
				return lowerErr(b.f)
			},
			code: halide.ErrSchedule, fn: "g", directive: "gpu_blocks",
			mentions: []string{"g.s0.y", "f.s0.x.bx", "kernel of f"},
			legal:    []string{"compute_root", "drop its gpu_blocks"},
		},
		{
			name: "block loop inside another Func's thread loops",
			run: func() error {
				b := newBlur()
				b.f.GPUTile(x, y, bx, by, tx, ty, 8, 8)
				b.g.ComputeAt(b.f, tx).GPUBlocks(x)
				return lowerErr(b.f)
			},
			code: halide.ErrSchedule, fn: "g", directive: "gpu_blocks",
			mentions: []string{"g.s0.x", "f.s0.x.tx"},
			legal:    []string{"compute_root"},
		},
		{
			name: "serial loop between block loops",
			run: func() error {
				f := pointwise()
				f.Split(x, xo, xi, 8).Split(y, yo, yi, 8).Reorder(xi, xo, yi, yo).
					GPUBlocks(xo, yo).GPUThreads(xi)
				return lowerErr(f)
			},
			code: halide.ErrSchedule, fn: "f", directive: "gpu_blocks",
			// Stage-level messages name loops by their stage names (y.yi).
			mentions: []string{"stage 0 of f", "y.yi", "between the block loops"},
			legal:    []string{"reorder", "y.yi"},
		},
		{
			name: "thread loop outside the block loop",
			run: func() error {
				f := pointwise()
				f.GPUBlocks(x).GPUThreads(y)
				return lowerErr(f)
			},
			code: halide.ErrSchedule, fn: "f", directive: "gpu_threads",
			mentions: []string{"stage 0 of f", "thread loop y", "outside the block loop x"},
			legal:    []string{"reorder"},
		},
		{
			name: "thread loops inside another Func's thread loops",
			run: func() error {
				b := newBlur()
				b.f.GPUTile(x, y, bx, by, tx, ty, 8, 8)
				b.g.ComputeAt(b.f, tx).GPUThreads(x)
				return lowerErr(b.f)
			},
			code: halide.ErrSchedule, fn: "g", directive: "gpu_threads",
			mentions: []string{"g.s0.x", "f.s0.x.tx", "own thread loop"},
			legal:    []string{"block-level loop of f", "drop its gpu_threads"},
		},
		{
			name: "thread dims nested through compute_at",
			run: func() error {
				// f has 2 thread loops, g 2 more inside them: 4 in all.
				b := newBlur()
				b.f.GPUTile(x, y, bx, by, tx, ty, 8, 8)
				b.g.ComputeAt(b.f, tx).GPUThreads(x, y)
				return lowerErr(b.f)
			},
			code: halide.ErrSchedule, fn: "g", directive: "gpu_threads",
			mentions: []string{"g.s0.y", "f.s0.x.tx"},
			legal:    []string{"block-level loop of f"},
		},
	})
}

func TestErrGPULimits(t *testing.T) {
	bx, by, tx, ty := gpuVars()
	runGPUCases(t, []errCase{
		{
			// A thread extent known only at launch is the block size:
			// over 1024 is an error at Realize, before the launch.
			name: "thread extent known at launch over 1024",
			run: func() error {
				in := halide.NewImageParam("in", halide.Float32, 2)
				f := halide.NewFunc("f")
				f.Define(x, y).Is(in.At(x, y).Mul(2))
				f.GPUBlocks(y).GPUThreads(x)
				in.Set(halide.NewBuffer[float32](2000, 2))
				return f.Realize(halide.NewBuffer[float32](2000, 2))
			},
			code: halide.ErrSchedule, fn: "f", directive: "gpu_threads",
			mentions: []string{"known at launch", "at most 1024", "2000"},
			legal:    []string{"smaller thread tiles", "Bound"},
		},
		{
			name: "more than 1024 threads per block",
			run: func() error {
				f := pointwise()
				f.GPUTile(x, y, bx, by, tx, ty, 64, 32)
				return lowerErr(f)
			},
			code: halide.ErrSchedule, fn: "f", directive: "gpu_threads",
			mentions: []string{"64 x 32", "2048", "1024", "f.s0.x.tx", "f.s0.y.ty"},
			legal:    []string{},
		},
		{
			// Halide's 3-D gpu_tile: 32 x 8 x 8 threads.
			name: "more than 1024 threads per block, GPUTile3D",
			run: func() error {
				f, _ := pointwise4()
				bz, tz := halide.NewVar("bz"), halide.NewVar("tz")
				f.GPUTile3D(x, y, z, bx, by, bz, tx, ty, tz, 32, 8, 8)
				return lowerErr(f)
			},
			code: halide.ErrSchedule, fn: "f", directive: "gpu_threads",
			mentions: []string{"32 x 8 x 8", "2048", "1024", "f.s0.z.tz"},
			legal:    []string{},
		},
		{
			name: "GPUTile3D of a 2-D Func",
			run: func() error {
				f := pointwise()
				bz, tz := halide.NewVar("bz"), halide.NewVar("tz")
				f.GPUTile3D(x, y, z, bx, by, bz, tx, ty, tz, 8, 8, 1)
				return lowerErr(f)
			},
			code: halide.ErrUnknownVar, fn: "f", directive: "gpu_tile",
			mentions: []string{"no loop z"},
			legal:    []string{"outermost first: y, x"},
		},
		{
			name: "shared memory over the static limit",
			run: func() error {
				// Each block of 64 threads reads g over [x, x + 20063]:
				// 20064 floats = 80256 bytes.
				in := halide.NewImageParam("in", halide.Float32, 1)
				g := halide.NewFunc("g")
				g.Define(x).Is(in.At(x).Mul(2))
				f := halide.NewFunc("f")
				f.Define(x).Is(g.At(x).Add(g.At(x.Add(20000))))
				f.GPUTile1D(x, bx, tx, 64)
				g.ComputeAt(f, bx).StoreIn(halide.GPUShared)
				return lowerErr(f)
			},
			code: halide.ErrSchedule, fn: "g", directive: "store_in(GPUShared)",
			mentions: []string{"kernel_f_s0", "80256", "g: 80256 bytes", "49152"},
			legal:    []string{"smaller tiles"},
		},
	})
}

func TestErrGPUMemory(t *testing.T) {
	bx, by, tx, ty := gpuVars()
	runGPUCases(t, []errCase{
		{
			name: "registers at the block level",
			run: func() error {
				b := newBlur()
				b.f.GPUTile(x, y, bx, by, tx, ty, 8, 8)
				b.g.ComputeAt(b.f, bx).StoreIn(halide.Register)
				return lowerErr(b.f)
			},
			code: halide.ErrSchedule, fn: "g", directive: "store_in(Register)",
			mentions: []string{"g", "block level", "registers"},
			legal:    []string{"store_in(GPUShared)", "inside the thread loops"},
		},
		{
			name: "shared memory outside any kernel",
			run: func() error {
				// Nothing of the pipeline runs on the GPU: there is no
				// block for g's shared memory to belong to.
				b := newBlur()
				b.g.ComputeRoot().StoreIn(halide.GPUShared)
				return lowerErr(b.f)
			},
			code: halide.ErrSchedule, fn: "g", directive: "store_in(GPUShared)",
			mentions: []string{"g", "kernel"},
			legal:    []string{"store_in(Heap)"},
		},
		{
			name: "shared Func under a serial loop with thread-dependent bounds",
			run: func() error {
				// h is computed per thread (inside f's thread loops); its y
				// loop starts at the thread's y. staged, stored in shared
				// memory, is computed inside that loop: every thread would
				// have to reach the barrier after its production, in
				// iterations that differ from thread to thread.
				in := halide.NewImageParam("in", halide.Float32, 2)
				staged := halide.NewFunc("staged")
				staged.Define(x, y).Is(in.At(x, y).Mul(2))
				h := halide.NewFunc("h")
				h.Define(x, y).Is(staged.At(x, y).Add(staged.At(x.Add(1), y)))
				f := halide.NewFunc("f")
				f.Define(x, y).Is(h.At(x, y).Add(h.At(x, y.Add(1))))
				f.GPUTile(x, y, bx, by, tx, ty, 8, 8)
				h.ComputeAt(f, tx)
				staged.ComputeAt(h, y).StoreIn(halide.GPUShared)
				return lowerErr(f)
			},
			// The directive to change is staged's compute_at (or its
			// store_in), and the message should say which shared Func.
			code: halide.ErrSchedule, fn: "staged", directive: "compute_at",
			mentions: []string{"h.s0.y", "barrier", "depend on the thread", "staged"},
			legal:    []string{"outside the thread loops"},
		},
	})
}

func TestErrGPURace(t *testing.T) {
	bx, tx := halide.NewVar("bx"), halide.NewVar("tx")
	ro, ri := halide.NewRVar("ro"), halide.NewRVar("ri")
	// hist counts the values of idx (clamped to [0, 15]), its update over
	// r parallel on the GPU.
	hist := func(atomic bool) (*halide.Func, *halide.ImageParam) {
		idx := halide.NewImageParam("idx", halide.Int32, 1)
		r := halide.NewRDom("r", halide.Range(0, idx.Dim(0).Extent()))
		h := halide.NewFunc("hist")
		h.Define(x).Is(0)
		h.Define(halide.Clamped(idx.At(r), 0, 15)).PlusEq(1)
		h.GPUTile1D(x, bx, tx, 16)
		u := h.Update(0)
		if atomic {
			u.Atomic()
		}
		u.GPUTile1D(r.X(), ro, ri, 32)
		return h, idx
	}
	runGPUCases(t, []errCase{
		{
			name: "GPU threads over an RVar without Atomic",
			run: func() error {
				h, _ := hist(false)
				return lowerErr(h)
			},
			code: halide.ErrSchedule, fn: "hist", directive: "gpu_threads",
			mentions: []string{"r$x.ri", "race"},
			legal:    []string{"Atomic"},
		},
		{
			name: "GPU blocks over an RVar without Atomic",
			run: func() error {
				idx := halide.NewImageParam("idx", halide.Int32, 1)
				r := halide.NewRDom("r", halide.Range(0, idx.Dim(0).Extent()))
				h := halide.NewFunc("hist")
				h.Define(x).Is(0)
				h.Define(halide.Clamped(idx.At(r), 0, 15)).PlusEq(1)
				h.Update(0).GPUBlocks(r.X())
				return lowerErr(h)
			},
			code: halide.ErrSchedule, fn: "hist", directive: "gpu_blocks",
			mentions: []string{"r$x", "race"},
			legal:    []string{"Atomic"},
		},
	})

	t.Run("Atomic makes it legal and right", func(t *testing.T) {
		h, idx := hist(true)
		const n = 1000 // not a multiple of 32: a partial block of r
		ib := halide.NewBuffer[int32](n)
		rng := rand.New(rand.NewSource(1))
		want := make([]int32, 16)
		ib.Fill(func(c []int) int32 {
			v := int32(rng.Intn(20)) - 2 // some out of [0, 15]: clamped
			want[min(max(v, 0), 15)]++
			return v
		})
		idx.Set(ib)
		out := halide.NewBuffer[int32](16)
		if err := halide.NewPipeline(h).Realize(out); err != nil {
			t.Fatalf("Atomic() should make the GPU histogram legal: %v", err)
		}
		for i := range want {
			if got := out.Get(i); got != want[i] {
				t.Errorf("hist(%d) = %d, want %d", i, got, want[i])
			}
		}
	})
}

// stencil3 is a 3x3 box sum of a RepeatEdge input, f tiled 8x8 on the GPU
// and the input staged in shared memory per block through a wrapper.
func stencil3() (*halide.Func, *halide.ImageParam) {
	bx, by, tx, ty := gpuVars()
	in := halide.NewImageParam("in", halide.Float32, 2)
	pad := halide.RepeatEdge(in)
	f := halide.NewFunc("f")
	var sum halide.Expr
	for j := -1; j <= 1; j++ {
		for i := -1; i <= 1; i++ {
			t := pad.At(x.Add(i), y.Add(j))
			if i == -1 && j == -1 {
				sum = t
			} else {
				sum = sum.Add(t)
			}
		}
	}
	f.Define(x, y).Is(sum)
	f.GPUTile(x, y, bx, by, tx, ty, 8, 8)
	pad.In(f).ComputeAt(f, bx).StoreIn(halide.GPUShared)
	return f, in
}

// TestGPUScheduleFine: a legal GPU schedule lowers without error and
// computes the right values on the emulator (with a partial tile).
func TestGPUScheduleFine(t *testing.T) {
	f, in := stencil3()
	const w, h = 13, 10
	ib := halide.NewBuffer[float32](w, h)
	ib.Fill(func(c []int) float32 { return float32(c[0] + 100*c[1]) })
	in.Set(ib)
	out := halide.NewBuffer[float32](w, h)
	if err := halide.NewPipeline(f).Realize(out); err != nil {
		t.Fatal(err)
	}
	clampi := func(v, hi int) int { return min(max(v, 0), hi-1) }
	for yy := 0; yy < h; yy++ {
		for xx := 0; xx < w; xx++ {
			var want float32
			for j := -1; j <= 1; j++ {
				for i := -1; i <= 1; i++ {
					want += ib.Get(clampi(xx+i, w), clampi(yy+j, h))
				}
			}
			if got := out.Get(xx, yy); got != want {
				t.Fatalf("out(%d, %d) = %v, want %v", xx, yy, got, want)
			}
		}
	}
}

// TestNoPanicGPU gives the GPU directives bad arguments: each must lead to
// a *halide.Error (not an internal one) from Lower or Realize, never a
// panic.
func TestNoPanicGPU(t *testing.T) {
	bx, by, tx, ty := gpuVars()
	cases := []struct {
		name  string
		sched func(b blur)
	}{
		{"GPUBlocks of no vars", func(b blur) { b.f.GPUBlocks() }},
		{"GPUThreads of no vars", func(b blur) { b.f.GPUThreads() }},
		{"GPUBlocks of nil", func(b blur) { b.f.GPUBlocks(nil) }},
		{"GPUThreads of nil and a var", func(b blur) { b.f.GPUBlocks(y).GPUThreads(nil, x) }},
		{"GPUBlocks of a zero Var", func(b blur) { b.f.GPUBlocks(halide.Var{}) }},
		{"GPUBlocks of a zero RVar", func(b blur) { b.f.GPUBlocks(halide.RVar{}) }},
		{"GPUBlocks of an unknown var", func(b blur) { b.f.GPUBlocks(z) }},
		{"GPUBlocks of the same var twice", func(b blur) { b.f.GPUBlocks(x, x) }},
		{"GPUBlocks and GPUThreads of the same var", func(b blur) { b.f.GPUBlocks(x).GPUThreads(x) }},
		{"GPUTile by zero", func(b blur) { b.f.GPUTile(x, y, bx, by, tx, ty, 0, 0) }},
		{"GPUTile by a negative factor", func(b blur) { b.f.GPUTile(x, y, bx, by, tx, ty, 8, -8) }},
		{"GPUTile with nil vars", func(b blur) { b.f.GPUTile(nil, nil, nil, nil, nil, nil, 8, 8) }},
		{"GPUTile1D by zero", func(b blur) { b.f.GPUTile1D(x, bx, tx, 0) }},
		{"GPUTile1D with a nil var", func(b blur) { b.f.GPUTile1D(x, nil, tx, 8) }},
		{"GPUTile1D of an unknown var", func(b blur) { b.f.GPUTile1D(z, bx, tx, 8) }},
		{"GPUTile1D by a huge factor", func(b blur) { b.f.GPUTile1D(x, bx, tx, 1<<31) }},
		{"Update(3).GPUBlocks", func(b blur) { b.f.Update(3).GPUBlocks(x) }},
		{"GPUBlocks of an undefined Func", func(b blur) {
			h := halide.NewFunc("h")
			h.GPUTile(x, y, bx, by, tx, ty, 8, 8).GPUBlocks().GPUThreads(nil)
			b.f.Define(x, y).PlusEq(h.At(x, y))
		}},
		{"GPUShared without a kernel and GPUThreads of nil", func(b blur) {
			b.g.ComputeRoot().StoreIn(halide.GPUShared).GPUThreads(nil)
		}},
	}
	// Schedules that are odd but have a meaning: they may lower and run
	// (then the result must be right) or give an error.
	mayPass := map[string]bool{"GPUBlocks of the same var twice": true}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var in, out *halide.Buffer[float32]
			err := safely(func() error {
				b := newBlur()
				c.sched(b)
				in = b.set(9, 2)
				p := halide.NewPipeline(b.f)
				if _, err := p.Lower(); err != nil {
					return err
				}
				out = halide.NewBuffer[float32](8, 2)
				return p.Realize(out)
			})
			if err == nil && mayPass[c.name] {
				checkBlur(t, in, out)
				return
			}
			if err == nil {
				t.Fatalf("no error")
			}
			var he *halide.Error
			if !asHalide(err, &he) {
				t.Fatalf("error is not a *halide.Error: %v", firstLine(err.Error()))
			}
			if he.Code == halide.ErrInternal {
				t.Errorf("internal error for a user mistake: %v", firstLine(he.Error()))
			}
			t.Logf("%v", firstLine(he.Error()))
		})
	}
}

// checkBlur checks out against the blur of in: 2 in(x, y) + 2 in(x+1, y).
func checkBlur(t *testing.T, in, out *halide.Buffer[float32]) {
	t.Helper()
	for yy := 0; yy < out.Dim(1).Extent; yy++ {
		for xx := 0; xx < out.Dim(0).Extent; xx++ {
			want := 2*in.Get(xx, yy) + 2*in.Get(xx+1, yy)
			if got := out.Get(xx, yy); got != want {
				t.Fatalf("out(%d, %d) = %v, want %v", xx, yy, got, want)
			}
		}
	}
}

// TestErrGPUAdviceWorks follows the Legal advice of the non-constant
// thread extent error: after Bound (or a split by a constant), the thread
// loop has a constant extent, and the pipeline lowers and computes the
// right values on the emulator. A block of exactly 1024 threads is legal.
func TestErrGPUAdviceWorks(t *testing.T) {
	bx, by, tx, ty := gpuVars()
	for _, c := range []struct {
		name  string
		sched func(b blur)
	}{
		{"bound", func(b blur) { b.f.Bound(x, 0, 8).GPUBlocks(y).GPUThreads(x) }},
		{"split", func(b blur) { b.f.GPUTile1D(x, bx, tx, 4).GPUBlocks(y) }},
		{"1024 threads", func(b blur) { b.f.GPUTile(x, y, bx, by, tx, ty, 512, 2, halide.GuardWithIf) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := newBlur()
			c.sched(b)
			in := b.set(9, 2)
			out := halide.NewBuffer[float32](8, 2)
			if err := halide.NewPipeline(b.f).Realize(out); err != nil {
				t.Fatalf("with the schedule the Legal advice asks for: %v", firstLine(err.Error()))
			}
			checkBlur(t, in, out)
		})
	}
}

// realizeBlur realizes b (scheduled by sched) over 8x8 on the emulator and
// checks the result; a Lower error is returned to the caller.
func realizeBlur(t *testing.T, sched func(b blur)) error {
	t.Helper()
	b := newBlur()
	sched(b)
	in := b.set(9, 8)
	p := halide.NewPipeline(b.f)
	if _, err := p.Lower(); err != nil {
		return err
	}
	out := halide.NewBuffer[float32](8, 8)
	if err := p.Realize(out); err != nil {
		t.Fatalf("lowered, but Realize failed: %v", firstLine(err.Error()))
	}
	checkBlur(t, in, out)
	return nil
}

// TestGPUStoreAtBlockComputeAtThread: g stored at the block loop and
// computed inside the thread loops is shared memory either way: Auto
// becomes GPUShared at the block level, so the schedule must work as it
// does with an explicit StoreIn(GPUShared).
func TestGPUStoreAtBlockComputeAtThread(t *testing.T) {
	bx, by, tx, ty := gpuVars()
	for _, mem := range []string{"GPUShared", "Auto"} {
		t.Run(mem, func(t *testing.T) {
			err := realizeBlur(t, func(b blur) {
				b.f.GPUTile(x, y, bx, by, tx, ty, 4, 4)
				b.g.ComputeAt(b.f, tx).StoreAt(b.f, bx)
				if mem == "GPUShared" {
					b.g.StoreIn(halide.GPUShared)
				}
			})
			if err != nil {
				t.Fatalf("a legal schedule is rejected: %v", firstLine(err.Error()))
			}
		})
	}
}

// TestGPUSharedInsideCooperativeProduction: h is in shared memory at the
// block level, so its production is dealt out to the block's threads;
// staged, also shared, is computed per row of h, inside that production.
// Each thread then computes a different row of staged into the one shared
// row: either lowering rejects the schedule (naming staged and h) or the
// kernel must compute the right values. It must not lower into a kernel
// with a shared memory race.
func TestGPUSharedInsideCooperativeProduction(t *testing.T) {
	bx, by, tx, ty := gpuVars()
	for _, mem := range []string{"GPUShared", "Auto"} {
		t.Run(mem, func(t *testing.T) {
			in := halide.NewImageParam("in", halide.Float32, 2)
			staged := halide.NewFunc("staged")
			staged.Define(x, y).Is(in.At(x, y).Mul(2))
			h := halide.NewFunc("h")
			h.Define(x, y).Is(staged.At(x, y).Add(staged.At(x.Add(1), y)))
			f := halide.NewFunc("f")
			f.Define(x, y).Is(h.At(x, y).Add(h.At(x, y.Add(1))))
			f.GPUTile(x, y, bx, by, tx, ty, 8, 8)
			h.ComputeAt(f, bx)
			if mem == "GPUShared" {
				h.StoreIn(halide.GPUShared)
			}
			staged.ComputeAt(h, y).StoreIn(halide.GPUShared)
			p := halide.NewPipeline(f)
			if _, err := p.Lower(); err != nil {
				check(t, err, halide.ErrSchedule, "staged", "compute_at", "staged", "h")
				return
			}
			ib := halide.NewBuffer[float32](17, 17)
			ib.Fill(func(c []int) float32 { return float32(c[0] + 100*c[1]) })
			in.Set(ib)
			out := halide.NewBuffer[float32](16, 16)
			if err := p.Realize(out); err != nil {
				t.Fatalf("lowered into a kernel that fails on the emulator: %v", firstLine(err.Error()))
			}
			hv := func(xx, yy int) float32 { return 2*ib.Get(xx, yy) + 2*ib.Get(xx+1, yy) }
			for yy := 0; yy < 16; yy++ {
				for xx := 0; xx < 16; xx++ {
					if want := hv(xx, yy) + hv(xx, yy+1); out.Get(xx, yy) != want {
						t.Fatalf("out(%d, %d) = %v, want %v", xx, yy, out.Get(xx, yy), want)
					}
				}
			}
		})
	}
}

// A wrapper the consumer never uses is an error, not silently ignored.
func TestErrUnusedWrapper(t *testing.T) {
	// f reads only other; in.In(f) would be the wrapper of in in padded
	// had f read in through it (Halide's transitive in).
	x := halide.NewVar("x")
	in, other := halide.NewImageParam("in", halide.Float32, 1), halide.NewImageParam("other", halide.Float32, 1)
	padded := halide.RepeatEdge(in)
	f, out := halide.NewFunc("f"), halide.NewFunc("out")
	f.Define(x).Is(other.At(x))
	out.Define(x).Is(padded.At(x.Sub(1)).Add(padded.At(x.Add(1))).Add(f.At(x)))
	in.In(f).ComputeRoot()
	_, err := halide.NewPipeline(out).Lower()
	var e *halide.Error
	if !errors.As(err, &e) || e.Code != halide.ErrSchedule || e.Directive != "in" || !strings.Contains(err.Error(), "never used") {
		t.Fatalf("got %v, want an ErrSchedule error about the unused wrapper", err)
	}
}
