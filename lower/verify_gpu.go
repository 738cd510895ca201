package lower

// The GPU invariant of the verifier: a cooperative production (the share
// loop gpu_cooperative makes, in which the block's threads deal out the
// points of one shared copy) stores at indices and values that depend only
// on the share index and on block-uniform values. A store that depends on
// the thread in another way means each thread fills the one copy with its
// own region, which is a wrong answer, not a slow one.

import (
	"fmt"

	"github.com/gohalide/gohalide/ir"
)

// coopError is a store of a cooperative production that depends on the
// thread other than through the share index.
type coopError struct {
	share   string
	store   *ir.Store
	through string
}

func (e *coopError) Error() string {
	return fmt.Sprintf("the cooperative production %s stores %s[%s] = %s, which depends on the thread through %s: each thread would fill the block's one copy with its own region", e.share, e.store.Buf, ir.ExprString(e.store.Index), ir.ExprString(e.store.Value), e.through)
}

// verifyCooperative checks the invariant on s (a *coopError if broken),
// whose cooperative productions are shares.
func verifyCooperative(s ir.Stmt, shares shareLoops) error {
	dep := map[string]bool{}
	for _, n := range ir.ThreadID {
		dep[n] = true
	}
	var err error
	uses := func(e ir.Expr, allowed map[string]bool) string {
		bad := ""
		ir.WalkExpr(e, func(x ir.Expr) bool {
			if v, ok := x.(*ir.Var); ok && dep[v.Name] && !allowed[v.Name] && bad == "" {
				bad = v.Name
			}
			return bad == ""
		})
		return bad
	}
	var walk func(s ir.Stmt, share string, allowed map[string]bool)
	walk = func(s ir.Stmt, share string, allowed map[string]bool) {
		if s == nil || err != nil {
			return
		}
		switch x := s.(type) {
		case *ir.For:
			if x.Kind == ir.GPUThread {
				dep[x.Name] = true
			}
			if shares.is(x.Name) && share == "" {
				// Inside: the share index and what is computed from it.
				walk(x.Body, x.Name, map[string]bool{x.Name: true})
				return
			}
			if share != "" && uses(x.Min, allowed)+uses(x.Extent, allowed) == "" {
				allowed[x.Name] = true
			}
			walk(x.Body, share, allowed)
			return
		case *ir.LetStmt:
			if share != "" {
				if uses(x.Value, allowed) == "" || shares.isIndex(x.Name) {
					allowed[x.Name] = true
				}
				if ir.UsesAny(x.Value, func(n string) bool { return dep[n] }) {
					dep[x.Name] = true
				}
			} else if uses(x.Value, nil) != "" {
				dep[x.Name] = true
			}
			walk(x.Body, share, allowed)
			return
		case *ir.Store:
			if share != "" {
				n := uses(x.Index, allowed)
				if n == "" {
					n = uses(x.Value, allowed)
				}
				if n != "" {
					err = &coopError{share: share, store: x, through: n}
				}
			}
			return
		}
		ir.VisitStmt(s, func(y ir.Stmt) { walk(y, share, allowed) }, nil)
	}
	walk(s, "", nil)
	return err
}
