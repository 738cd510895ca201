package halide_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// The region an input must cover is what the case that runs reads, not
// the union of every specialization case's footprint: a case whose
// condition is false at run time reads nothing. Here f is vectorized by 4
// where size >= 4 (ShiftInwards), and g, computed at f's x, has an update;
// both of g's stages are vectorized by 8 where size >= 8 (the update with
// its default tail, RoundUp, which reads past a region narrower than the
// vector). g's pure stage covers its update's region, so its region is
// min(select(size >= 8, ...), ...): a select inside the end. Ranged over
// f's loop that select became the union of its arms, and the dead case
// counted: inputs of 3 and 5 points were refused as read over [0, 9] and
// [0, 8] (the gemv of app_ports4_test.go, TestAppPort4Bug1, is the same).
// The conditions are on the input's width, or on a Param; each case is
// run with an input sized for it, and the case that reads outside its
// input is still refused.
func TestSpecRegionsDeadCase(t *testing.T) {
	for _, onParam := range []bool{false, true} {
		t.Run(map[bool]string{false: "width", true: "param"}[onParam], func(t *testing.T) {
			in := halide.NewImageParam("in", halide.Int32, 1)
			p := halide.NewParam[int32]("p")
			x := halide.NewVar("x")
			g, f := halide.NewFunc("g"), halide.NewFunc("f")
			g.Define(x).Is(in.At(x).Mul(2))
			g.Define(x).PlusEq(1)
			f.Define(x).Is(g.At(x))
			size := in.Dim(0).Extent()
			if onParam {
				size = p.Expr()
			}
			f.Specialize(size.Ge(4)).Vectorize(x, 4)
			g.ComputeAt(f, x)
			g.Specialize(size.Ge(8)).Vectorize(x, 8)
			g.Update(0).Specialize(size.Ge(8)).Vectorize(x, 8)
			for _, c := range []struct {
				n, p int // input and output width, p's value
				ok   bool
			}{
				// The default cases only: before, refused.
				{3, 3, true}, {1, 1, true},
				// f's case, g's default: g's regions are 4 wide.
				{5, 5, true}, {7, 7, true},
				// Both cases: g's 8-wide vectors shift 4 points before
				// f's 4-point region at x = 0, outside the input.
				{8, 9, false}, {12, 12, false},
			} {
				pv := c.p
				if !onParam {
					pv = c.n
				}
				p.Set(int32(pv))
				b := spRandom(int64(c.n), c.n)
				in.Set(b)
				out := halide.NewBuffer[int32](c.n)
				err := halide.NewPipeline(f).Realize(out)
				what := fmt.Sprintf("width %d, p = %d", c.n, pv)
				if !c.ok {
					var he *halide.Error
					if !errors.As(err, &he) || he.Code != halide.ErrOutOfBounds {
						t.Fatalf("%s: want ErrOutOfBounds, got %v", what, err)
					}
					continue
				}
				if err != nil {
					t.Fatalf("%s: %v", what, err)
				}
				spCheck1(t, "f", out, func(x int) int32 { return 2*b.Get(x) + 1 })
			}
		})
	}
}

// A case nested in another Func's case that excludes it is gone from the
// lowered statement: in f's default case (size < 4) g has only its own
// default, not its cases on size >= 32, 16 or 8 (with more than
// maxCaseConds conditions the buffer checks are not split by case,
// lower/case_checks.go, and such a dead case made the regions wider).
func TestSpecRegionsDeadCaseLowered(t *testing.T) {
	in := halide.NewImageParam("in", halide.Int32, 1)
	x := halide.NewVar("x")
	g, f := halide.NewFunc("g"), halide.NewFunc("f")
	g.Define(x).Is(in.At(x).Mul(2))
	f.Define(x).Is(g.At(x).Add(1))
	size := in.Dim(0).Extent()
	f.Specialize(size.Ge(4)).Vectorize(x, 4)
	g.ComputeAt(f, x)
	g.Specialize(size.Ge(32)).Vectorize(x, 32)
	g.Specialize(size.Ge(16)).Vectorize(x, 16)
	g.Specialize(size.Ge(8)).Vectorize(x, 8)
	s := spLowered(t, f)
	// One test of c8, in f's case (c4); none in the default.
	if n := strings.Count(s, "if ((8 <= in.extent.0))"); n != 1 {
		t.Fatalf("want one test of g's condition, got %d:\n%s", n, s)
	}
}
