package lower

// Helpers shared by the GPU passes.

import (
	"sort"

	"github.com/gohalide/gohalide/ir"
)

// forEachKernel replaces each outermost GPU block loop of s (the root of a
// kernel) by f(loop).
func forEachKernel(s ir.Stmt, f func(*ir.For) (ir.Stmt, error)) (ir.Stmt, error) {
	var err error
	var mut func(ir.Stmt) ir.Stmt
	mut = func(x ir.Stmt) ir.Stmt {
		if err != nil {
			return x
		}
		if l, ok := x.(*ir.For); ok && l.Kind == ir.GPUBlock {
			var r ir.Stmt
			r, err = f(l)
			if err != nil {
				return x
			}
			return r
		}
		return ir.MapStmt(x, mut, nil)
	}
	out := mut(s)
	return out, err
}

// and returns a && b, where a nil a is true.
func and(a, b ir.Expr) ir.Expr {
	if a == nil {
		return b
	}
	return ir.AndE(a, b)
}

// accesses returns the buffers s loads from and stores to. Loads and
// stores inside Allocates of s itself are included.
func accesses(s ir.Stmt) (reads, writes map[string]bool) {
	reads, writes = map[string]bool{}, map[string]bool{}
	ir.WalkStmt(s, func(x ir.Stmt) bool {
		if st, ok := x.(*ir.Store); ok {
			writes[st.Buf] = true
		}
		return true
	}, func(e ir.Expr) bool {
		if l, ok := e.(*ir.Load); ok {
			reads[l.Buf] = true
		}
		return true
	})
	return reads, writes
}

func containsBarrier(s ir.Stmt) bool {
	found := false
	ir.WalkStmt(s, func(x ir.Stmt) bool {
		if _, ok := x.(*ir.Barrier); ok {
			found = true
		}
		return !found
	}, nil)
	return found
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
