package lower

// gpu_registers: give constant indices to register arrays. A Func stored
// in registers (a small per-thread array, e.g. a 4x4 accumulator tile) is
// indexed relative to its region's min, which is a let the simplifier does
// not substitute; once the loops over the tile are unrolled, each index is
// that min plus a constant and the min cancels. This pass substitutes the
// enclosing lets into every index of a register array and keeps the result
// when it is a constant, so CUDA keeps the array in registers instead of
// local memory. Loops whose extent is 1 once the enclosing lets are
// substituted (a tile's single row) first become lets, for the same reason.
//
// Before: unroll_loops, simplify. After: register loads and stores whose
// index is constant per copy have constant indices.

import "github.com/gohalide/gohalide/ir"

// registerArrays returns the names of the register arrays allocated in s.
func registerArrays(s ir.Stmt) map[string]bool {
	regs := map[string]bool{}
	ir.WalkStmt(s, func(x ir.Stmt) bool {
		if a, ok := x.(*ir.Allocate); ok && a.Memory == ir.Register {
			regs[a.Name] = true
		}
		return true
	}, nil)
	return regs
}

func gpuRegisters(st *State) error {
	regs := registerArrays(st.Stmt)
	if len(regs) == 0 {
		return nil
	}
	one := newSharedLetValues()
	st.Stmt = walkWithLets(st.Stmt, one, func(s ir.Stmt) ir.Stmt {
		l, ok := s.(*ir.For)
		if !ok || l.Kind == ir.GPUBlock || l.Kind == ir.GPUThread || l.Kind == ir.Parallel {
			return s
		}
		if c, ok := one.resolveConst(l.Extent); ok && ir.IsConstValue(c, 1) {
			return &ir.LetStmt{Name: l.Name, Value: l.Min, Body: l.Body}
		}
		return s
	})
	lv := newSharedLetValues()
	constant := func(idx ir.Expr) ir.Expr {
		if ir.IsConst(idx) {
			return idx
		}
		if c, ok := lv.resolveConst(idx); ok {
			return c
		}
		return idx
	}
	var fe func(ir.Expr) ir.Expr
	fe = func(e ir.Expr) ir.Expr {
		e = ir.MapExpr(e, fe)
		if l, ok := e.(*ir.Load); ok && regs[l.Buf] {
			if i := constant(l.Index); i != l.Index {
				return &ir.Load{T: l.T, Buf: l.Buf, Index: i}
			}
		}
		return e
	}
	st.Stmt = walkWithLets(st.Stmt, lv, func(s ir.Stmt) ir.Stmt {
		s = ir.MapStmt(s, func(c ir.Stmt) ir.Stmt { return c }, fe)
		if x, ok := s.(*ir.Store); ok && regs[x.Buf] {
			if i := constant(x.Index); i != x.Index {
				return &ir.Store{Buf: x.Buf, Index: i, Value: x.Value, Atomic: x.Atomic}
			}
		}
		return s
	})
	return nil
}
