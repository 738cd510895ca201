package halide

// shared_exprs: an expression built in Go may use one node many times
// (e = e*e + y in a loop makes a chain whose tree doubles at each step),
// and the IR's walks visit a node once per path to it: a definition of
// 25 such steps (Halide's likely.cpp) is a tree of 2^25 nodes. Where a
// definition's tree is much larger than its graph, the nodes used more
// than once become Let bindings at the top of the expression (Halide's
// common subexpression elimination, by identity only), so the lowering
// sees a value of the graph's size. Expressions without such sharing, all
// ordinary ones, are left as they are.

import (
	"fmt"

	"github.com/gohalide/gohalide/ir"
)

// Sharing is bound where the tree has more than minSharedTree nodes and
// more than sharedFactor times the graph's.
const (
	minSharedTree = 1 << 14
	sharedFactor  = 4
)

// bindSharedValue is bindShared of a stage's value, value by value for a
// Tuple (whose values stay a tuple at the top).
func bindSharedValue(e ir.Expr, prefix string) ir.Expr {
	vals := ir.TupleValues(e)
	if len(vals) < 2 {
		return bindShared(e, prefix)
	}
	out := make([]ir.Expr, len(vals))
	changed := false
	for i, v := range vals {
		out[i] = bindShared(v, fmt.Sprintf("%s.%d", prefix, i))
		changed = changed || out[i] != v
	}
	if !changed {
		return e
	}
	return ir.MakeTuple(out)
}

// bindShared returns e with its shared nodes bound by Lets (named
// prefix$cse0, ...) when its tree is much larger than its graph; e itself
// otherwise.
func bindShared(e ir.Expr, prefix string) ir.Expr {
	if e == nil {
		return nil
	}
	order, parents, size := ir.Graph(e)
	if size <= minSharedTree || size <= sharedFactor*int64(len(order)) {
		return e
	}
	// A node is bound if it is used more than once and is pure
	// arithmetic: calls stay where they are (bounds inference and the
	// passes that look for calls see them there). A call of a Func or an
	// image at pure coordinates may be an operand of a bound node (it is
	// then read inside the Let's value, as Halide's CSE leaves it):
	// otherwise a chain of shared nodes over such reads (Halide's
	// many_inlined_selects.cpp) would stay a tree of exponential size.
	pure := map[ir.Expr]bool{}
	operand := map[ir.Expr]bool{}
	for _, x := range order {
		ok := true
		read := false
		switch x := x.(type) {
		case *ir.Call:
			ok = x.Kind == ir.CallIntrinsic && !ir.IsUndef(x) && x.Name != ir.IntrinsicTuple && x.Name != ir.IntrinsicLikely
			read = x.Kind == ir.CallFunc || x.Kind == ir.CallImage
		case *ir.Let:
			ok = false
		}
		args := true
		ir.VisitExpr(x, func(c ir.Expr) { ok = ok && operand[c]; args = args && pure[c] })
		pure[x] = ok
		operand[x] = ok || (read && args)
	}
	return ir.BindShared(e, order, parents, func(x ir.Expr) bool { return pure[x] }, prefix, "cse", nil)
}
