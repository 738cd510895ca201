package halide_test

import (
	"slices"
	"testing"

	"github.com/gohalide/gohalide/halide"
	"github.com/gohalide/gohalide/ir"
)

// readsOf lowers out up to schedule_functions and returns, for each Func,
// the Funcs its definitions read (the call graph Halide's transitive_in.cpp
// checks with CheckCalls).
func readsOf(t *testing.T, out *halide.Func) map[string][]string {
	t.Helper()
	l, err := halide.NewPipeline(out).WithOptions(halide.Options{StopAfter: "schedule_functions"}).Lower()
	if err != nil {
		t.Fatal(err)
	}
	reads := map[string][]string{}
	ir.WalkStmt(l.Stmt, func(s ir.Stmt) bool {
		if p, ok := s.(*ir.Provide); ok {
			ir.WalkExpr(p.Value, func(e ir.Expr) bool {
				if c, ok := e.(*ir.Call); ok && (c.Kind == ir.CallFunc || c.Kind == ir.CallImage) && c.Name != p.Func && !slices.Contains(reads[p.Func], c.Name) {
					reads[p.Func] = append(reads[p.Func], c.Name)
				}
				return true
			})
		}
		return true
	}, nil)
	return reads
}

// Halide's In and CloneIn of a Func that the consumer named reads only
// through other Funcs give the wrapper to the Funcs on the way that read
// it directly (Func.cpp, resolve_transitive_callers), and to no other
// reader: transitive_in.cpp checks the calls, as this test does.
func TestTransitiveWrapCalls(t *testing.T) {
	x, y := ppV("x"), ppV("y")
	t.Run("clone_in", func(t *testing.T) {
		base, ha, hb, top, sibling, out := halide.NewFunc("base"), halide.NewFunc("helper_a"), halide.NewFunc("helper_b"), halide.NewFunc("top"), halide.NewFunc("sibling"), halide.NewFunc("out")
		base.Define(x, y).Is(x.Add(y))
		ha.Define(x, y).Is(base.At(x, y).Add(1))
		hb.Define(x, y).Is(base.At(x, y).Mul(2))
		top.Define(x, y).Is(ha.At(x, y).Add(hb.At(x, y)))
		sibling.Define(x, y).Is(base.At(x, y).Sub(1))
		cloned := base.CloneIn(top)
		out.Define(x, y).Is(top.At(x, y).Add(sibling.At(x, y)))
		for _, f := range []*halide.Func{base, ha, hb, cloned, sibling, top} {
			f.ComputeRoot()
		}
		reads := readsOf(t, out)
		for f, want := range map[string][]string{"helper_a": {cloned.Name()}, "helper_b": {cloned.Name()}, "sibling": {"base"}} {
			if !slices.Equal(reads[f], want) {
				t.Errorf("%s reads %v, want %v", f, reads[f], want)
			}
		}
		// Asking again for top returns the same clone.
		if again := base.CloneIn(top); again.Name() != cloned.Name() {
			t.Errorf("base.CloneIn(top) again made %s, want %s", again.Name(), cloned.Name())
		}
	})
	t.Run("in_stops_at_the_first_reader", func(t *testing.T) {
		// top reads mid; mid reads base and deep; deep reads base. The
		// walk from top stops at mid, a direct reader, so only mid gets
		// the wrapper.
		base, mid, deep, top := halide.NewFunc("base"), halide.NewFunc("mid"), halide.NewFunc("deep"), halide.NewFunc("top")
		base.Define(x, y).Is(x.Add(y))
		deep.Define(x, y).Is(base.At(x, y).Mul(5))
		mid.Define(x, y).Is(base.At(x, y).Add(deep.At(x, y)))
		top.Define(x, y).Is(mid.At(x, y).Mul(2))
		w := base.In(top)
		for _, f := range []*halide.Func{base, mid, deep, w} {
			f.ComputeRoot()
		}
		reads := readsOf(t, top)
		if want := []string{w.Name(), "deep"}; !slices.Equal(reads["mid"], want) {
			t.Errorf("mid reads %v, want %v", reads["mid"], want)
		}
		// deep is reached only through mid, which reads base: it keeps
		// reading base.
		if want := []string{"base"}; !slices.Equal(reads["deep"], want) {
			t.Errorf("deep reads %v, want %v", reads["deep"], want)
		}
		buf := halide.NewBuffer[int32](8, 8)
		ppRealize(t, top, buf)
		m2Check2(t, "top", buf, 0, 8, 0, 8, func(x, y int) int32 { return int32(2 * (x + y + 5*(x+y))) })
	})
	t.Run("input_through_a_boundary_condition", func(t *testing.T) {
		// in.In(f), f reading in through RepeatEdge: the boundary
		// condition's Func reads the wrapper.
		in := halide.NewImageParam("in", halide.Int32, 1)
		padded := halide.RepeatEdge(in)
		f := halide.NewFunc("f")
		f.Define(x).Is(padded.At(x.Sub(1)).Add(padded.At(x.Add(1))))
		w := in.In(f)
		w.ComputeRoot()
		src := halide.NewBuffer[int32](10)
		src.Fill(func(c []int) int32 { return int32(c[0] * c[0]) })
		in.Set(src)
		reads := readsOf(t, f)
		found := false
		for g, rs := range reads {
			if slices.Contains(rs, "in") && g != w.Name() {
				t.Errorf("%s reads in, not the wrapper %s", g, w.Name())
			}
			found = found || slices.Contains(rs, w.Name())
		}
		if !found {
			t.Errorf("nothing reads the wrapper %s: %v", w.Name(), reads)
		}
		out := halide.NewBuffer[int32](10)
		ppRealize(t, f, out)
		clamp := func(i int) int32 { return src.Get(min(max(i, 0), 9)) }
		m2Check1(t, "f", out, 0, 10, func(x int) int32 { return clamp(x-1) + clamp(x+1) })
	})
}
