package halide_test

// Ports of a third set of Halide's test/correctness files: iterated
// stencils in update definitions, stage skipping, bounds inference
// through abs, casts, monotonic math and multiplies, boundary
// conditions, chunked schedules, arithmetic corner cases and vectorized
// loops. Each TestThirdPortedXxx is one C++ file (xxx.cpp), each subtest
// one of its test cases, with the same algorithm and the same schedule
// directives (GPU schedules that Halide takes under
// target.has_gpu_feature() run on the GPU emulator). Each output is
// compared with a plain-Go reference: integers exactly, floats with the
// tolerance stated at the check. Inputs are random (never all zeros),
// sizes reduced where stated. Every Lower and Realize runs under a 20 s
// context deadline, so a slow case fails instead of hanging.
//
// Halide's extern call counters (call_counter in skip_stages.cpp) are
// replaced by store traces (Func.TraceStores): a skipped stage stores
// nothing. Halide's infer_input_bounds checks (bounds_of_*.cpp) are
// replaced by realizing with an input buffer of exactly the region
// Halide infers: a looser inference here is a bounds-check failure.
//
// Subtests named after the C++ case pass as Halide writes them. Where the
// faithful port is refused, the subtest asserts that the refusal is a
// typed *halide.Error and the block comment at the end of the file gives
// the error and its trigger; a subtest <name>_variant changes the fewest
// things for it to pass. Library bugs (a wrong value, a panic, an
// internal error, a Lower or Realize over 5 s) have a minimal
// reproduction TestThirdPortedBugN, skipped.

import (
	"context"
	"errors"
	"math"
	"math/rand"
	"sync"
	"testing"
	"time"

	"github.com/gohalide/gohalide/halide"
)

var _ = math.Abs
var _ = rand.Intn

const t3Deadline = 20 * time.Second

// t3Pipe is the pipeline of outs with the IR verifier on and, if trace
// is set, stores of the Funcs that trace them counted per Func.
func t3Pipe(trace map[string]int, outs ...*halide.Func) *halide.Pipeline {
	o := halide.Options{Verify: true}
	if trace != nil {
		var mu sync.Mutex
		o.Trace = func(e halide.TraceEvent) {
			mu.Lock()
			trace[e.Func]++
			mu.Unlock()
		}
	}
	return halide.NewPipeline(outs...).WithOptions(o)
}

// t3Run realizes p into bufs under the deadline, failing if it takes
// more than 5 s.
func t3Run(t *testing.T, p *halide.Pipeline, bufs ...halide.BufferRef) error {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), t3Deadline)
	defer cancel()
	start := time.Now()
	var err error
	if len(bufs) == 1 {
		err = p.RealizeContext(ctx, bufs[0])
	} else {
		err = p.RealizeTupleContext(ctx, bufs...)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("Realize took %v", d)
	}
	return err
}

// t3Realize realizes out into bufs and fails on any error.
func t3Realize(t *testing.T, out *halide.Func, bufs ...halide.BufferRef) {
	t.Helper()
	if err := t3Run(t, t3Pipe(nil, out), bufs...); err != nil {
		t.Fatal(err)
	}
}

// t3Try realizes out into bufs and returns the error.
func t3Try(t *testing.T, out *halide.Func, bufs ...halide.BufferRef) error {
	t.Helper()
	return t3Run(t, t3Pipe(nil, out), bufs...)
}

// t3Refused checks that err is a typed *halide.Error that is not
// internal, and logs it.
func t3Refused(t *testing.T, err error) {
	t.Helper()
	var he *halide.Error
	if err == nil {
		t.Fatal("expected a refusal, got none")
	}
	if !errors.As(err, &he) {
		t.Fatalf("untyped error: %v", err)
	}
	if he.Code == halide.ErrInternal {
		t.Fatalf("internal error: %v", err)
	}
	t.Logf("refused: %v", err)
}

func t3Rand[T m2Num](seed int64, mask int, extents ...int) *halide.Buffer[T] {
	return m2Rand[T](seed, mask, extents...)
}

func t3Check1[T halide.Number](t *testing.T, name string, b *halide.Buffer[T], x0, x1 int, ref func(x int) T) {
	t.Helper()
	m2Check1(t, name, b, x0, x1, ref)
}

func t3Check2[T halide.Number](t *testing.T, name string, b *halide.Buffer[T], x0, x1, y0, y1 int, ref func(x, y int) T) {
	t.Helper()
	m2Check2(t, name, b, x0, x1, y0, y1, ref)
}

// t3Near1 compares a 1-D float buffer with ref within tol (relative
// above 1).
func t3Near1[T float32 | float64](t *testing.T, name string, b *halide.Buffer[T], x0, x1 int, tol float64, ref func(x int) float64) {
	t.Helper()
	for x := x0; x < x1; x++ {
		got, want := float64(b.Get(x)), ref(x)
		if d := math.Abs(got - want); d > tol*math.Max(1, math.Abs(want)) || math.IsNaN(got) != math.IsNaN(want) {
			t.Fatalf("%s(%d) = %v, want %v", name, x, got, want)
		}
	}
}

func t3v(n string) halide.Var { return halide.NewVar(n) }

// stencil_chain_in_update_definitions.cpp
func TestThirdPortedStencilChainInUpdateDefinitions(t *testing.T) {
	const iters, outputExtent = 27, 19
	build := func(faithful bool) (*halide.Func, *halide.Func) {
		x, y := t3v("x"), t3v("y")
		f, g, h := halide.NewFunc("f"), halide.NewFunc("g"), halide.NewFunc("h")
		f.Define(x).Is(halide.Sin(halide.Cast(halide.Float32, x)))
		g.Define(x, y).Is(halide.Undef(halide.Float32))
		if faithful {
			g.Define(x, x).Is(f.At(x))
			for i := 0; i < iters; i++ {
				g.Define(x, x.Add(1)).Is(g.At(x, x))
				g.Define(x, x.Sub(1)).Is(g.At(x, x))
				g.Define(y, y).Is(g.At(y, y).Add(g.At(y.Sub(1), y)).Add(g.At(y.Add(1), y)).Div(float32(3)))
			}
		}
		g.ComputeRoot()
		h.Define(x).Is(g.At(x, x))
		return g, h
	}
	ref := func() []float64 {
		// Positions -iters-1 .. outputExtent+iters.
		const off = iters + 1
		n := outputExtent + 2*off
		diag := make([]float32, n)
		for i := range diag {
			diag[i] = float32(math.Sin(float64(float32(i - off))))
		}
		for it := 0; it < iters; it++ {
			nd := make([]float32, n)
			copy(nd, diag)
			for i := 1; i < n-1; i++ {
				// g(i-1, i) is the copy of g(i-1, i-1) (the second copy
				// g(x, x-1) writes (i+1, i)).
				nd[i] = (diag[i] + diag[i-1] + diag[i+1]) / 3
			}
			diag = nd
		}
		out := make([]float64, outputExtent)
		for i := range out {
			out[i] = float64(diag[i+off])
		}
		return out
	}()
	t.Run("iterated_stencil", func(t *testing.T) {
		_, h := build(true)
		err := t3Try(t, h, halide.NewBuffer[float32](outputExtent))
		if err == nil {
			t.Fatal("ran; this port expected the refusal of a pure var in two places (update as below)")
		}
		t3Refused(t, err)
	})
	t.Run("iterated_stencil_variant", func(t *testing.T) {
		// Each update written over an RDom r spanning the diagonal
		// (the pure var appears twice on the left-hand side).
		x, y := t3v("x"), t3v("y")
		f, g, h := halide.NewFunc("f"), halide.NewFunc("g"), halide.NewFunc("h")
		f.Define(x).Is(halide.Sin(halide.Cast(halide.Float32, x)))
		g.Define(x, y).Is(halide.Undef(halide.Float32))
		lo, ext := -iters-1, outputExtent+2*iters+2
		r0 := halide.NewRDom("r0", halide.Range(lo, ext))
		g.Define(r0.X(), r0.X()).Is(f.At(r0.X()))
		for i := 0; i < iters; i++ {
			lo1, ext1 := lo+i, ext-2*i
			ra := halide.NewRDom("ra", halide.Range(lo1, ext1))
			g.Define(ra.X(), ra.X().Add(1)).Is(g.At(ra.X(), ra.X()))
			rb := halide.NewRDom("rb", halide.Range(lo1, ext1))
			g.Define(rb.X(), rb.X().Sub(1)).Is(g.At(rb.X(), rb.X()))
			rc := halide.NewRDom("rc", halide.Range(lo1+1, ext1-2))
			g.Define(rc.X(), rc.X()).Is(g.At(rc.X(), rc.X()).Add(g.At(rc.X().Sub(1), rc.X())).Add(g.At(rc.X().Add(1), rc.X())).Div(float32(3)))
		}
		g.ComputeRoot()
		h.Define(x).Is(g.At(x, x))
		out := halide.NewBuffer[float32](outputExtent)
		t3Realize(t, h, out)
		t3Near1(t, "h", out, 0, outputExtent, 1e-5, func(x int) float64 { return ref[x] })
	})
}
