package halide

import (
	"math"

	"github.com/gohalide/gohalide/ir"
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

func identity(op ir.BinOp, t Type) Expr {
	switch op {
	case ir.Add:
		return Lit(t, 0)
	case ir.Mul:
		return Lit(t, 1)
	case ir.Max:
		if t.IsFloat() {
			return Expr{node: ir.Const(t, math.Inf(-1))}
		}
		return Expr{node: ir.IntConst(t, t.Min())}
	default:
		if t.IsFloat() {
			return Expr{node: ir.Const(t, math.Inf(1))}
		}
		if t.IsUInt() && t.Bits == 64 {
			return Expr{node: ir.IntConst(t, -1)}
		}
		return Expr{node: ir.IntConst(t, t.Max())}
	}
}

func inlineReduction(name string, op ir.BinOp, v any) Expr {
	e := E(v)
	if e.err != nil {
		return e
	}
	if e.Type().IsBool() {
		return bad("%s of a bool expression", name)
	}
	// The anonymous Func's pure vars are the free Vars of e and of its
	// RDom's Where condition.
	var free []any
	seen := map[string]bool{}
	var dom *ir.ReductionDomain
	collect := func(x ir.Expr) bool {
		if v, ok := x.(*ir.Var); ok {
			switch {
			case v.RDom != nil:
				dom = v.RDom
			case v.Param == nil && !seen[v.Name]:
				seen[v.Name] = true
				free = append(free, newVar(v.Name))
			}
		}
		return true
	}
	ir.WalkExpr(e.node, collect)
	hasRVar := dom != nil
	if dom != nil && dom.Predicate != nil {
		ir.WalkExpr(dom.Predicate, collect)
	}
	if !hasRVar {
		return Expr{err: ir.Errorf(ir.ErrDefinition, "", name, "the expression reduced by %s uses no RVar", name)}
	}
	f := newAnonFunc(name)
	f.Define(free...).Is(identity(op, e.Type()))
	f.defineUpdate(free, e, &op)
	if f.err != nil {
		return Expr{err: f.err}
	}
	return f.At(free...)
}
