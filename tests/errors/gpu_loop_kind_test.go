package errors_test

import (
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// TestParallelOrVectorizeOnGPULoop: Parallel or Vectorize on a loop that is
// a GPU block or thread loop would replace its GPU kind. Before, Lower
// accepted it: a parallel loop then failed inside the kernel at Realize,
// and a vectorized thread loop silently made the block smaller (8 x 8 to
// 8 x 1). Now each is an ErrSchedule error at Lower naming the Func, the
// directive, the loop and what is legal.
func TestParallelOrVectorizeOnGPULoop(t *testing.T) {
	bx, by, tx, ty := halide.NewVar("bx"), halide.NewVar("by"), halide.NewVar("tx"), halide.NewVar("ty")
	tiled := func() *halide.Func {
		f := halide.NewFunc("f")
		f.Define(x, y).Is(x.Add(y))
		return f.GPUTile(x, y, bx, by, tx, ty, 8, 8)
	}
	// The loops of f after GPUTile, outermost first.
	const loops = "the stage's loops, outermost first: y.by, x.bx, y.ty, x.tx"
	runCases(t, []errCase{
		{
			name: "parallel on a thread loop",
			run:  func() error { return lowerErr(tiled().Parallel(tx)) },
			code: halide.ErrSchedule, fn: "f", directive: "parallel",
			mentions: []string{"parallel names x.tx, a GPU thread loop", "cannot run inside a kernel"},
			legal:    []string{"drop parallel", loops},
		},
		{
			name: "parallel on a block loop",
			run:  func() error { return lowerErr(tiled().Parallel(by)) },
			code: halide.ErrSchedule, fn: "f", directive: "parallel",
			mentions: []string{"parallel names y.by, a GPU block loop"},
			legal:    []string{"drop parallel", loops},
		},
		{
			name: "vectorize a thread loop",
			run:  func() error { return lowerErr(tiled().Vectorize(tx)) },
			code: halide.ErrSchedule, fn: "f", directive: "vectorize",
			mentions: []string{"vectorize names x.tx, a GPU thread loop", "the block would lose that dimension's threads"},
			legal:    []string{"f.Vectorize(tx, 4)", loops},
		},
		{
			name: "vectorize a block loop",
			run:  func() error { return lowerErr(tiled().Vectorize(bx)) },
			code: halide.ErrSchedule, fn: "f", directive: "vectorize",
			mentions: []string{"vectorize names x.bx, a GPU block loop", "lose that grid dimension"},
			legal:    []string{"vectorize a thread loop with a factor", loops},
		},
		{
			name: "vectorize a block loop by a factor",
			run:  func() error { return lowerErr(tiled().Vectorize(by, 2)) },
			code: halide.ErrSchedule, fn: "f", directive: "vectorize",
			mentions: []string{"vectorize names y.by, a GPU block loop"},
			legal:    []string{"vectorize a thread loop with a factor", loops},
		},
		{
			// Not the GPU loop itself but a loop split off inside it: the
			// check of the nest in validate_gpu finds it.
			name: "parallel inside a thread loop",
			run: func() error {
				t2 := halide.NewVar("t2")
				return lowerErr(tiled().Split(tx, tx, t2, 2).Parallel(t2))
			},
			code: halide.ErrSchedule, fn: "f", directive: "parallel",
			mentions: []string{"the loop f.s0.x.tx.t2 is parallel, inside the thread loop f.s0.x.tx.tx of a kernel"},
			legal:    []string{"drop parallel on f.s0.x.tx.t2"},
		},
	})
}

// TestVectorizeInsideThreadLoopStillWorks is the legal form the errors
// above point to: Vectorize with a factor on a thread loop (Halide's
// gpu_tile(...).vectorize(xi, 4); tests/gpu/ported_halide_test.go has
// Halide's own test of it), and the same split written out.
func TestVectorizeInsideThreadLoopStillWorks(t *testing.T) {
	for _, explicit := range []bool{false, true} {
		bx, by, tx, ty, tv := halide.NewVar("bx"), halide.NewVar("by"), halide.NewVar("tx"), halide.NewVar("ty"), halide.NewVar("tv")
		f := halide.NewFunc("f")
		f.Define(x, y).Is(x.Add(y.Mul(100)))
		f.GPUTile(x, y, bx, by, tx, ty, 8, 8)
		if explicit {
			f.Split(tx, tx, tv, 4).Vectorize(tv)
		} else {
			f.Vectorize(tx, 4)
		}
		out := halide.NewBuffer[int32](32, 16)
		if err := halide.NewPipeline(f).Realize(out); err != nil {
			t.Fatalf("explicit split %v: %v", explicit, err)
		}
		// f(31, 15) = 31 + 15*100.
		if got := out.Get(31, 15); got != 1531 {
			t.Errorf("explicit split %v: f(31, 15) = %d, want 1531", explicit, got)
		}
	}
}

// TestVectorizeThreadLoopMessage shows the whole message of one case: the
// Func, the directive, the loop, why, and the legal forms.
func TestVectorizeThreadLoopMessage(t *testing.T) {
	bx, by, tx, ty := halide.NewVar("bx"), halide.NewVar("by"), halide.NewVar("tx"), halide.NewVar("ty")
	f := halide.NewFunc("f")
	f.Define(x, y).Is(x.Add(y))
	f.GPUTile(x, y, bx, by, tx, ty, 8, 8).Vectorize(tx)
	const want = "schedule: Func f: vectorize: in f, vectorize names x.tx, a GPU thread loop: it would stop being a thread loop, and the block would lose that dimension's threads" +
		" (legal: give a factor, f.Vectorize(tx, 4): the thread loop is split, stays the thread loop, and each thread computes 4 points (the block is 4 times smaller along it, as in Halide);" +
		" or vectorize a loop of a Func computed inside the thread loops; the stage's loops, outermost first: y.by, x.bx, y.ty, x.tx)"
	if err := lowerErr(f); err == nil || err.Error() != want {
		t.Errorf("Lower error:\n got %v\nwant %s", err, want)
	}
}

// TestErrNeverPartition checks NeverPartition of a loop the stage does
// not have: ErrUnknownVar naming the stage's loops.
func TestErrNeverPartition(t *testing.T) {
	x := halide.NewVar("x")
	runCases(t, []errCase{{
		name: "an unknown loop",
		run: func() error {
			in := halide.NewImageParam("in", halide.Float32, 1)
			f := halide.NewFunc("f")
			f.Define(x).Is(in.At(x))
			f.NeverPartition(halide.NewVar("q"))
			return lowerErr(f)
		},
		code:      halide.ErrUnknownVar,
		fn:        "f",
		directive: "never_partition",
		mentions:  []string{"q"},
	}})
}
