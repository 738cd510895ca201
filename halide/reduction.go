package halide

import (
	"github.com/gohalide/gohalide/ir"
	"github.com/gohalide/gohalide/lower"
)

// Inline reductions: Sum, Product, Maximum and Minimum reduce an expression
// over the RDom it uses. Each makes an anonymous Func over the expression's
// free Vars (with a pure definition of the identity and one update), which
// by default is computed at the innermost loop of its consumer.

// Sum returns the sum of e over its RDom.
func Sum(e any) Expr { return inlineReduction("sum", ir.Add, e) }

// Product returns the product of e over its RDom.
func Product(e any) Expr { return inlineReduction("product", ir.Mul, e) }

// Maximum returns the maximum of e over its RDom.
func Maximum(e any) Expr { return inlineReduction("maximum", ir.Max, e) }

// Minimum returns the minimum of e over its RDom.
func Minimum(e any) Expr { return inlineReduction("minimum", ir.Min, e) }

// identity returns the identity of op for values of type t (lower.AssocOp
// is its one definition, which rfactor uses too).
func identity(op ir.BinOp, t Type) Expr {
	a := map[ir.BinOp]lower.AssocOp{ir.Add: lower.AssocAdd, ir.Mul: lower.AssocMul, ir.Min: lower.AssocMin, ir.Max: lower.AssocMax}[op]
	return Expr{node: a.Identity(t)}
}

// reduced returns the free Vars of e, the reduction's pure arguments, and
// the RDom e reduces over (nil: none, an error).
func reduced(e Expr, name string) ([]any, *ir.ReductionDomain, error) {
	var free []any
	seen := map[string]bool{}
	var dom, other *ir.ReductionDomain
	ir.WalkExprOnce(e.node, func(x ir.Expr) bool {
		if v, ok := x.(*ir.Var); ok {
			switch {
			case v.RDom != nil:
				if dom == nil {
					dom = v.RDom
				} else if v.RDom != dom && other == nil {
					other = v.RDom
				}
			case v.Param == nil && !seen[v.Name]:
				seen[v.Name] = true
				free = append(free, newVar(v.Name))
			}
		}
		return true
	})
	if dom == nil {
		return nil, nil, ir.Errorf(ir.ErrDefinition, "", name, "the expression reduced by %s uses no RVar", name)
	}
	if other != nil {
		// Halide's sum(r, e) names the RDom to reduce over; here the one
		// RDom of e is it, so an e with two is ambiguous.
		return nil, nil, ir.Errorf(ir.ErrDefinition, "", name, "the expression reduced by %s uses RVars of two RDoms (%s and %s), so which one it reduces over is ambiguous", name, dom.Name, other.Name).
			WithLegal("one RDom per %s: nest the reductions (%s(... %s(...) ...)), each over its own RDom, or make one RDom of both ranges", name, name, name)
	}
	// The Vars of the RDom's Where condition are the anonymous Func's
	// pure vars too.
	if dom.Predicate != nil {
		ir.WalkExpr(dom.Predicate, func(x ir.Expr) bool {
			if v, ok := x.(*ir.Var); ok && v.RDom == nil && v.Param == nil && !seen[v.Name] {
				seen[v.Name] = true
				free = append(free, newVar(v.Name))
			}
			return true
		})
	}
	return free, dom, nil
}

func inlineReduction(name string, op ir.BinOp, v any) Expr {
	e := E(v)
	if e.err != nil {
		return e
	}
	if e.Type().IsBool() {
		return bad("%s of a bool expression", name)
	}
	free, _, err := reduced(e, name)
	if err != nil {
		return Expr{err: err}
	}
	f := newAnonFunc(name)
	f.Define(free...).Is(identity(op, e.Type()))
	f.defineUpdate(free, e, &op)
	if f.err != nil {
		return Expr{err: f.err}
	}
	return f.At(free...)
}

// Argmax returns where over its RDom e is largest and that value, as
// Halide's argmax: a Tuple of one Int32 coordinate per dimension of the
// RDom, then the value. The first point in the RDom's order (first
// dimension innermost) wins a tie; over an empty RDom it is (0, ..., the
// lowest value of e's type: -Inf for floats). It makes an anonymous Tuple
// Func, computed like Sum's.
//
// The Func has one more value than Halide's, a UInt8 that says whether a
// point has been taken: before one is, an integer point is taken where it
// differs from the initial value (an end of its type), so that no
// ordered comparison with an end of the type is ever made, which a
// rearranged comparison (c - a < b as c < a + b) could overflow. The
// result is Halide's.
func Argmax(e any) Tuple { return argReduction("argmax", ir.GT, e) }

// Argmin is Argmax for the smallest value (the highest value of e's type,
// +Inf for floats, over an empty RDom).
//
// Of a bool e (false < true, as in Halide), Argmin is the first point
// where e is false (lesson 13's first escape) and Argmax the first where
// it is true; where there is none, the coordinates are 0 and the value
// the initial one (true for Argmin), as Halide's, whose initial value is
// the bool type's end. Both reduce e as a UInt8 of 0 or 1 from an
// initial 1 (Argmin) or 0 (Argmax) and give the value back as a bool.
func Argmin(e any) Tuple { return argReduction("argmin", ir.LT, e) }

func argReduction(name string, better ir.BinOp, v any) Tuple {
	e := E(v)
	if e.err != nil {
		return Tuple{err: e.err}
	}
	isBool := e.Type().IsBool()
	if isBool {
		e = convert(UInt8, e)
	}
	free, dom, err := reduced(e, name)
	if err != nil {
		return Tuple{err: err}
	}
	n := len(dom.Vars)
	init := make([]any, n+2)
	for i := 0; i < n; i++ {
		init[i] = 0
	}
	op := ir.Max
	if better == ir.LT {
		op = ir.Min
	}
	init[n] = identity(op, e.Type())
	if isBool {
		// The ends of bool, not of UInt8: the point taken first is the
		// first that differs from them, so a bool that never beats
		// them leaves Halide's 0 coordinates.
		init[n] = E(uint8(0))
		if better == ir.LT {
			init[n] = E(uint8(1))
		}
	}
	init[n+1] = uint8(0)
	f := newAnonFunc(name)
	f.Define(free...).Is(NewTuple(init...))
	old := f.AtTuple(free...)
	seen := old.Elem(n + 1)
	// The first point is taken where it beats the initial value; for
	// integers that is where it differs from it (the initial value is
	// an end of the type), a test that no rearrangement can overflow
	// (x - y != c is x != y + c, wrapped or not).
	firstOp := better
	if !e.Type().IsFloat() {
		firstOp = ir.NE
	}
	first := seen.Eq(uint8(0)).And(Expr{node: ir.Bin(firstOp, e.node, init[n].(Expr).node)})
	later := seen.Ne(uint8(0)).And(Expr{node: ir.Bin(better, e.node, old.Elem(n).node)})
	cond := first.Or(later)
	update := make([]any, n+2)
	for i, rv := range dom.Vars {
		update[i] = Select(cond, Expr{node: &ir.Var{T: ir.Int32, Name: rv.Name, RDom: dom}}, old.Elem(i))
	}
	update[n] = Select(cond, e, old.Elem(n))
	update[n+1] = Select(cond, uint8(1), seen)
	f.Define(free...).Is(NewTuple(update...))
	if f.err != nil {
		return Tuple{err: f.err}
	}
	t := f.AtTuple(free...)
	if t.err != nil {
		return t
	}
	elems := t.elems[: n+1 : n+1]
	if isBool {
		elems[n] = convert(Bool, elems[n])
	}
	return Tuple{elems: elems}
}
