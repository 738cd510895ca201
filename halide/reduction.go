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

func inlineReduction(name string, op ir.BinOp, v any) Expr {
	e := E(v)
	if e.err != nil {
		return e
	}
	if e.Type().IsBool() {
		return bad("%s of a bool expression", name)
	}
	var free []any
	seen := map[string]bool{}
	hasRVar := false
	ir.WalkExpr(e.node, func(x ir.Expr) bool {
		if v, ok := x.(*ir.Var); ok {
			switch {
			case v.RDom != nil:
				hasRVar = true
			case v.Param == nil && !seen[v.Name]:
				seen[v.Name] = true
				free = append(free, newVar(v.Name))
			}
		}
		return true
	})
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
