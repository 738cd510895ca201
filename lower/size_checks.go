package lower

// size_checks: no region extent or allocation size is computed with a
// silent wrap. Indices, extents and sizes are int32, as in Halide, and
// lowering computes them in int32; where a region or a size would not fit,
// the answer is a typed error, at Lower where the bounds prove it, before
// the allocation at run time where they depend on values known only then
// (a Param, a buffer's shape). Not a pass: bounds_inference checks
// regions, allocation_bounds host allocations, gpu_kernels the sizes a
// launch computes.
//
// The run-time check recomputes an int32 expression in int64 (widen) and
// compares: equal values mean no intermediate step wrapped. As in Halide,
// the int32 arithmetic of symbolic indices (buffer mins and extents, loop
// variables) is otherwise assumed not to overflow; what the checks catch
// are the ranges that do not fit (an index cast from a wide or unsigned
// type, a float Param scaled into an index, an unclamped load).

import (
	"fmt"
	"strings"

	"github.com/gohalide/gohalide/bounds"
	"github.com/gohalide/gohalide/ir"
)

// maxElems is the largest extent or element count of a region or an
// allocation: indices are int32.
const maxElems = 1<<31 - 1

// extentLowerBound is a constant lower bound, computed in int64, of the
// number of points of the interval iv, when one is known.
func extentLowerBound(iv bounds.Interval) (int64, bool) {
	hi, hok := bounds.ConstantLowerBound(iv.Max, nil)
	lo, lok := bounds.ConstantUpperBound(iv.Min, nil)
	if !hok || !lok {
		return 0, false
	}
	return hi - lo + 1, true
}

// regionTooLarge returns the ErrUnbounded error of a region of f that
// provably spans more than maxElems points in dimension d, naming the
// indices of the reads in consumer that make it so; nil if it may fit.
func regionTooLarge(f *ir.Function, d int, iv bounds.Interval, consumer ir.Stmt) error {
	n, ok := extentLowerBound(iv)
	if !ok || n <= maxElems {
		return nil
	}
	msg := fmt.Sprintf("%s is accessed in an unbounded way in dimension %d (%s): the region needed, %s, has %d points, more than an int32 extent holds", f.Name, d, f.Args[d], iv, n)
	if culprits := wideIndices(consumer, f.Name, d); len(culprits) > 0 {
		msg += "; the index " + strings.Join(culprits, " and the index ") + " spans it"
	}
	return ir.Errorf(ir.ErrUnbounded, f.Name, "bounds inference", "%s", msg).WithLegal("%s", clampLegal)
}

// clampLegal is what makes an index bounded.
const clampLegal = "clamp the index (clamp(e, lo, hi) or a boundary condition), promise its range with Clamped / UnsafePromiseClamped, or Bound the Func"

// wideIndices returns (up to two) index expressions of dimension d of the
// calls to f in s whose own range, whatever the loops around them, is
// unbounded or spans more than maxElems points.
func wideIndices(s ir.Stmt, f string, d int) []string {
	var out []string
	seen := map[string]bool{}
	ir.WalkStmt(s, func(ir.Stmt) bool { return len(out) < 2 }, func(e ir.Expr) bool {
		c, ok := e.(*ir.Call)
		if !ok || c.Name != f || d >= len(c.Args) || len(out) == 2 {
			return len(out) < 2
		}
		iv := bounds.Of(c.Args[d], nil)
		if n, ok := extentLowerBound(iv); !iv.IsBounded() || ok && n > maxElems {
			if s := ir.ExprString(c.Args[d]); !seen[s] {
				seen[s] = true
				out = append(out, s)
			}
		}
		return true
	})
	return out
}

// widen returns the int32 expression e computed in int64: its additions,
// subtractions, products, mins, maxes, divisions, modulos and selects on
// int64 operands, everything else (variables, loads, casts, calls) cast to
// int64. Where no step of e wraps, widen(e) equals int64(e).
func widen(e ir.Expr) ir.Expr {
	if e.Type() != ir.Int32 {
		return &ir.Cast{T: ir.Int64, X: e}
	}
	switch x := e.(type) {
	case *ir.IntImm:
		return ir.IntConst(ir.Int64, x.V)
	case *ir.Binary:
		switch x.Op {
		case ir.Add, ir.Sub, ir.Mul, ir.Min, ir.Max, ir.Div, ir.Mod:
			return ir.Bin(x.Op, widen(x.A), widen(x.B))
		}
	case *ir.Select:
		c := *x
		c.True, c.False = widen(x.True), widen(x.False)
		return &c
	case *ir.Let:
		c := *x
		c.Body = widen(x.Body)
		return &c
	case *ir.Call:
		if m, ok := ir.IsMaxOver(x); ok {
			return ir.MaxOver(m.Args[0].(*ir.Var), m.Args[1], m.Args[2], widen(m.Args[3]))
		}
	}
	return &ir.Cast{T: ir.Int64, X: e}
}

// sizeCheck returns the run-time check, before the host allocation of f
// with the given int32 extents, that its element count fits in int32:
// each extent is recomputed in int64 (widen), so that one whose int32
// computation wrapped shows as too large; nil when every extent is a
// constant (sizeTooLarge checks those at Lower).
func sizeCheck(f, directive string, extents []ir.Expr) *ir.AssertStmt {
	var exts []ir.Expr
	constant := int64(1)
	for _, e := range extents {
		if c, ok := ir.AsInt(e); ok {
			constant *= max(c, 0)
		} else {
			exts = append(exts, widen(e))
		}
	}
	if len(exts) == 0 || constant == 0 {
		return nil
	}
	// Each extent is under 2^32 and the constant part at most 2^28 (or
	// sizeTooLarge refused it), so a partial product that is at most
	// maxElems times the next factor cannot overflow int64; the partial
	// products are checked in order and the conjunction is false as soon
	// as one is too large.
	var cond ir.Expr
	size := exts[0]
	for _, e := range exts[1:] {
		cond = andNil(cond, ir.LEE(size, ir.IntConst(ir.Int64, maxElems)))
		size = ir.MulE(size, e)
	}
	if constant > 1 {
		size = ir.MulE(size, ir.IntConst(ir.Int64, constant))
	}
	cond = andNil(cond, ir.LEE(size, ir.IntConst(ir.Int64, maxElems)))
	return &ir.AssertStmt{
		Cond:    cond,
		Message: fmt.Sprintf("the allocation of %s needs more than 2^31 - 1 elements (indices are int32); it needs", f),
		Args:    []ir.Expr{size},
		Error: &ir.Error{Code: ir.ErrAllocationTooLarge, Func: f, Directive: directive,
			Legal: "clamp the indices that reach " + f + ", or Bound it"},
	}
}

func andNil(a, b ir.Expr) ir.Expr {
	if a == nil {
		return b
	}
	return ir.AndE(a, b)
}

// noWrapCheck returns the run-time check that the int32 size of an
// allocation of f that a kernel launch computes did not wrap and fits.
// hostLets are the values of the variables the host binds before the
// launch (a size's maximum over the blocks), which are widened too.
func noWrapCheck(f, directive string, size ir.Expr, hostLets []ir.HostLet) ir.Stmt {
	if _, ok := ir.AsInt(size); ok {
		return nil
	}
	values := map[string]ir.Expr{}
	for _, h := range hostLets {
		values[h.Name] = h.Value
	}
	// The exact size is bound once, to be compared and printed.
	name := f + ".exact_size"
	w := &ir.Var{T: ir.Int64, Name: name}
	return &ir.LetStmt{Name: name, Value: ir.Simplify(widen(ir.Substitute(size, values))), Body: &ir.AssertStmt{
		Cond:    ir.AndE(ir.Bin(ir.EQ, w, &ir.Cast{T: ir.Int64, X: size}), ir.LEE(w, ir.IntConst(ir.Int64, maxElems))),
		Message: fmt.Sprintf("the allocation of %s, sized at launch, needs more than 2^31 - 1 elements (indices are int32): it needs", f),
		Args:    []ir.Expr{w},
		Error: &ir.Error{Code: ir.ErrAllocationTooLarge, Func: f, Directive: directive,
			Legal: "clamp the indices that reach " + f + ", or Bound it"},
	}}
}

// sizeTooLarge returns the ErrAllocationTooLarge error of an allocation of
// f whose extents, each at least the given constant, provably need more
// than maxElems elements; nil otherwise.
func sizeTooLarge(f *ir.Function, directive string, lower []int64) error {
	n := int64(1)
	for _, e := range lower {
		if e <= 0 {
			return nil
		}
		if e > maxElems || n*e > maxElems {
			return ir.Errorf(ir.ErrAllocationTooLarge, f.Name, directive, "the allocation of %s needs at least %s elements, more than the 2^31 - 1 that int32 indices reach", f.Name, extentList(lower)).
				WithLegal("clamp the indices that reach %s, or Bound it", f.Name)
		}
		n *= e
	}
	return nil
}

func extentList(es []int64) string {
	parts := make([]string, len(es))
	for i, e := range es {
		parts[i] = fmt.Sprint(e)
	}
	return strings.Join(parts, " x ")
}

// MaxRegionSize is the largest expression, in nodes, that an end of a
// Func's region or allocation may be. A region is the union of the boxes
// of every read of the Func, and a Func read at many data-dependent places
// (an inlined producer that reads it a hundred times) can make an end of
// thousands of nodes, which every later pass then simplifies again: past
// the limit, Lower stops with ErrExprTooLarge instead of taking seconds.
const MaxRegionSize = 2000

// regionTooComplex returns the ErrExprTooLarge error of an end of f's
// region (or allocation, for directive "allocation bounds") in dimension d
// larger than MaxRegionSize nodes; nil otherwise.
func regionTooComplex(f *ir.Function, directive string, d int, iv bounds.Interval) error {
	for _, e := range []ir.Expr{iv.Min, iv.Max} {
		if e == nil {
			continue
		}
		if n := exprSize(e, MaxRegionSize); n > MaxRegionSize {
			return ir.Errorf(ir.ErrExprTooLarge, f.Name, directive, "the region of %s in dimension %d (%s) is an expression of more than %d nodes: %s is read at too many different places for one region to describe them", f.Name, d, f.Args[d], MaxRegionSize, f.Name).
				WithLegal("compute %s at the root or at an outer loop, compute the Funcs that read it at root instead of inline, or Bound it", f.Name)
		}
	}
	return nil
}
