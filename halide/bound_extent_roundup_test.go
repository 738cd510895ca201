package halide_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// A RoundUp split of a Func's bounded var runs the var to the next
// multiple of the factor. Halide accepts the schedule whatever the bound:
// its allocation is the bound's region, and AllocationBoundsInference
// asserts at run time that the region touched (the rounded-up writes
// included) lies inside it (halide_error_explicit_bounds_too_small). So
// a bound whose extent (a Param) the factors divide gives f's values, and
// one they do not divide fails before anything runs, with a typed error
// naming f and the split. A constant extent they do not divide, which
// Halide folds to an assertion that fails every run, is refused at Lower.
func TestBoundExtentRoundUp(t *testing.T) {
	const n = 64
	type sched int
	const (
		computeAt  sched = iota // f at g's xo (16 wide), BoundExtent(x, p), vectorized by 8 with RoundUp
		computeAt8              // the same with g's xo 8 wide, so that only the rounding exceeds p = 12
		nested                  // f at g's xo, BoundExtent(x, p), split by 8 and then 2, both RoundUp: p must be a multiple of 16
		root                    // f at the root, Bound(x, 0, p), vectorized by 8 with RoundUp
		gpu                     // g's xo GPU blocks, f at xo, BoundExtent(x, p), split by 8 with RoundUp, its xi GPU threads
		shifted                 // f at g's xo, BoundExtent(x, p), split by 8 with ShiftInwards, its outer var by 2 with RoundUp: the shift keeps x in the bound
	)
	names := []string{"compute_at", "compute_at_8", "nested", "root", "gpu", "shifted"}
	build := func(s sched, p *halide.Param[int32]) *halide.Func {
		x, xo, xi, xoo := ppV("x"), ppV("xo"), ppV("xi"), ppV("xoo")
		f, g := halide.NewFunc("f"), halide.NewFunc("g")
		f.Define(x).Is(x.Mul(3).Add(1))
		g.Define(x).Is(f.At(x).Add(f.At(x)))
		switch s {
		case computeAt, computeAt8:
			g.Split(x, xo, x, map[sched]int{computeAt: 16, computeAt8: 8}[s])
			f.ComputeAt(g, xo).BoundExtent(x, p.Expr()).VectorizeTail(x, 8, halide.RoundUp)
		case nested:
			g.Split(x, xo, x, 16)
			f.ComputeAt(g, xo).BoundExtent(x, p.Expr()).
				Split(x, xo, xi, 8, halide.RoundUp).Split(xo, xoo, xo, 2, halide.RoundUp)
		case root:
			f.ComputeRoot().Bound(x, 0, p.Expr()).VectorizeTail(x, 8, halide.RoundUp)
		case shifted:
			g.Split(x, xo, x, 16)
			f.ComputeAt(g, xo).BoundExtent(x, p.Expr()).
				Split(x, xo, xi, 8, halide.ShiftInwards).Split(xo, xoo, xo, 2, halide.RoundUp)
		case gpu:
			g.Split(x, xo, xi, 16).GPUBlocks(xo).GPUThreads(xi)
			f.ComputeAt(g, xo).BoundExtent(x, p.Expr()).Split(x, xo, xi, 8, halide.RoundUp).GPUThreads(xi)
		}
		return g
	}
	for _, tc := range []struct {
		s     sched
		p     int32
		fails bool // the rounding runs past the bound
	}{
		{computeAt, 16, false},
		{computeAt, 24, false},
		{computeAt, 12, true}, // also too small for the 16 points g reads
		{computeAt8, 8, false},
		{computeAt8, 16, false},
		{computeAt8, 12, true}, // g reads 8 points, f's loop writes 16
		{nested, 16, false},
		{nested, 32, false},
		{nested, 24, true}, // 24 = 3 vectors of 8, rounded up to 4
		{root, n, false},
		{root, n + 8, false},
		{root, n + 4, true},
		{gpu, 16, false},
		{gpu, 24, false},
		{gpu, 20, true},
		{shifted, 16, false},
		{shifted, 20, false}, // 3 vectors, the third shifted to 12..19, and so is the rounded-up fourth
	} {
		// The gpu schedule's kernels run on the emulator.
		t.Run(fmt.Sprintf("%s/p=%d", names[tc.s], tc.p), func(t *testing.T) {
			p := halide.NewParam[int32]("p")
			p.Set(tc.p)
			g := build(tc.s, p)
			out := halide.NewBuffer[int32](n)
			err := halide.NewPipeline(g).WithTarget(halide.Emulator).WithOptions(halide.Options{Verify: true}).Realize(out)
			if !tc.fails {
				if err != nil {
					t.Fatal(err)
				}
				m2Check1(t, "g", out, 0, n, func(x int) int32 { return int32(2 * (3*x + 1)) })
				return
			}
			beRoundUpPastBound(t, err, "f")
		})
	}
}

// A constant bound extent that the RoundUp factor does not divide fails
// Halide's check on every run; here it is refused at Lower.
func TestBoundExtentRoundUpConstant(t *testing.T) {
	x, xo := ppV("x"), ppV("xo")
	f, g := halide.NewFunc("f"), halide.NewFunc("g")
	f.Define(x).Is(x.Mul(2))
	g.Define(x).Is(f.At(x))
	g.Split(x, xo, x, 8)
	f.ComputeAt(g, xo).BoundExtent(x, 12).VectorizeTail(x, 8, halide.RoundUp)
	err := halide.NewPipeline(g).Realize(halide.NewBuffer[int32](64))
	var he *halide.Error
	if !errors.As(err, &he) || he.Code != halide.ErrSchedule || he.Func != "f" || he.Directive != "split" {
		t.Fatalf("want ErrSchedule on f's split, got %v", err)
	}
	t.Log(err)
}

// beRoundUpPastBound checks that err is the run-time error of a RoundUp
// split of fn's bounded var past its bound: ErrOutOfBounds on fn's split,
// with what is legal.
func beRoundUpPastBound(t *testing.T, err error, fn string) {
	t.Helper()
	var he *halide.Error
	if !errors.As(err, &he) {
		t.Fatalf("want a typed error, got %v", err)
	}
	if he.Code != halide.ErrOutOfBounds || he.Func != fn || he.Directive != "split" || he.Legal == "" {
		t.Fatalf("want ErrOutOfBounds on %s's split with what is legal, got %s %q %q: %v", fn, he.Code, he.Func, he.Directive, err)
	}
	t.Log(err)
}
