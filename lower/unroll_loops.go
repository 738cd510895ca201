package lower

// unroll_loops: replace each unrolled loop by one copy of its body per
// iteration (a let binds the loop variable to its value in each copy; a loop
// whose extent is not constant but has a constant upper bound, as in the
// tail of a GuardWithIf split, is unrolled to the bound and each copy is
// guarded by i < extent), and
// check that vectorized loops have constant extents (the CPU runs them as
// loops; the GPU backends vectorize them): one that has only a constant
// upper bound runs to the bound, its body guarded. A serial loop that indexes a
// register array with its variable (a tile's initialization, say) is
// unrolled too, to its constant bound, so that every access of the array
// gets a constant index and the array stays in registers (a run-time index
// puts it in local memory).
//
// Before: storage_flattening, hoist_storage. After: no Unrolled loop is left.

import (
	"github.com/gohalide/gohalide/bounds"
	"github.com/gohalide/gohalide/ir"
)

// maxUnroll bounds the copies one unrolled loop may make.
const maxUnroll = 1024

func unrollLoops(st *State) error {
	var err error
	lv := newRootLetValues()
	s := walkWithLets(caseExtents(registerLoops(st.Stmt)), lv, func(s ir.Stmt) ir.Stmt {
		l, ok := s.(*ir.For)
		if err != nil || !ok || (l.Kind != ir.Unrolled && l.Kind != ir.Vectorized) {
			return s
		}
		ext := lv.resolve(l.Extent)
		n, isConst := ir.AsInt(ext)
		directive := "unroll"
		if l.Kind == ir.Vectorized {
			directive = "vectorize"
		}
		guarded := false
		if !isConst {
			// A tail makes the extent smaller than a constant bound (say
			// min(64 - mt*4, 4)): unroll to the bound, each copy guarded
			// (Halide's bound_constant_extent_loops).
			ub, ok := bounds.ConstantUpperBound(ext, nil)
			if !ok {
				ub, ok = selectCasesUpperBound(ext)
			}
			if ok && ub <= maxUnroll {
				n, isConst, guarded = max(ub, 0), true, true
			}
		}
		if !isConst {
			err = ir.Errorf(ir.ErrSchedule, loopFunc(l.Name), directive, "cannot %s loop %s: its extent %s is not a constant", directive, l.Name, ir.ExprString(ext)).
				WithLegal("split the loop by a constant factor and %s the inner loop, or bound the Func", directive)
			return s
		}
		if l.Kind == ir.Vectorized {
			if !guarded {
				return s
			}
			// The lanes past the extent do nothing.
			v := &ir.Var{T: ir.Int32, Name: l.Name}
			return &ir.For{Name: l.Name, Min: l.Min, Extent: ir.Int(n), Kind: l.Kind,
				Body: &ir.IfThenElse{Cond: likely(ir.LTE(v, ir.AddE(l.Min, l.Extent))), Then: l.Body}}
		}
		if n < 0 {
			n = 0 // a loop of no iterations (an empty region) unrolls to nothing
		}
		if n > maxUnroll {
			err = ir.Errorf(ir.ErrSchedule, loopFunc(l.Name), directive, "cannot unroll loop %s: %d iterations is more than %d", l.Name, n, maxUnroll)
			return s
		}
		copies := make([]ir.Stmt, n)
		for i := range copies {
			var body ir.Stmt = l.Body
			if guarded {
				body = &ir.IfThenElse{Cond: likely(ir.LTE(ir.Int(int64(i)), l.Extent)), Then: body}
			}
			copies[i] = &ir.LetStmt{Name: l.Name, Value: ir.Simplify(ir.AddE(l.Min, ir.Int(int64(i)))), Body: body}
		}
		if b := ir.MakeBlock(copies...); b != nil {
			return b
		}
		return &ir.Block{}
	})
	if err != nil {
		return err
	}
	st.Stmt = s
	return nil
}

// maxRegisterUnroll bounds the iterations of a serial loop unrolled because
// it indexes a register array, and maxRegisterCopies the copies of the
// body that such unrolling may make together with the unrolled loops inside
// it (a register tile is small; a larger nest stays a loop).
const (
	maxRegisterUnroll = 64
	maxRegisterCopies = 256
)

// registerLoops marks Unrolled each serial loop that indexes a register
// array with its variable, has a constant upper bound of at most
// maxRegisterUnroll iterations, holds nothing the block's threads do
// together (a shared production, thread loops, another kernel's loops), whose
// copies could not be guarded per thread, and is small (smallBody).
func registerLoops(s ir.Stmt) ir.Stmt {
	regs := registerArrays(s)
	if len(regs) == 0 {
		return s
	}
	lv := newLetValues()
	return walkWithLets(s, lv, func(x ir.Stmt) ir.Stmt {
		l, ok := x.(*ir.For)
		if !ok || l.Kind != ir.Serial || !indexesRegister(l.Body, l.Name, regs) || hasCollective(l.Body) || !smallBody(l.Body) {
			return x
		}
		ub, ok := bounds.ConstantUpperBound(lv.resolve(l.Extent), nil)
		if !ok || ub > maxRegisterUnroll || ub*unrolledCopies(l.Body, lv) > maxRegisterCopies {
			return x
		}
		c := *l
		c.Kind = ir.Unrolled
		return &c
	})
}

// unrolledCopies is the most copies of a statement of s that its unrolled
// loops make (the product of their bounds along a nest).
func unrolledCopies(s ir.Stmt, lv letValues) int64 {
	most := int64(1)
	ir.WalkStmt(s, func(x ir.Stmt) bool {
		l, ok := x.(*ir.For)
		if !ok || l.Kind != ir.Unrolled {
			return true
		}
		n, ok := bounds.ConstantUpperBound(lv.resolve(l.Extent), nil)
		if !ok || n < 1 {
			n = 1
		}
		most = max(most, n*unrolledCopies(l.Body, lv))
		return false
	}, nil)
	return most
}

// indexesRegister reports whether s loads or stores a register array
// (regs) at an index that uses the variable v, directly or through a let
// of s.
func indexesRegister(s ir.Stmt, v string, regs map[string]bool) bool {
	dep := map[string]bool{v: true}
	uses := func(e ir.Expr) bool { return ir.UsesAny(e, func(n string) bool { return dep[n] }) }
	found := false
	ir.WalkStmt(s, func(x ir.Stmt) bool {
		switch x := x.(type) {
		case *ir.LetStmt:
			if uses(x.Value) {
				dep[x.Name] = true
			}
		case *ir.Store:
			if regs[x.Buf] && uses(x.Index) {
				found = true
			}
		}
		return !found
	}, func(e ir.Expr) bool {
		ir.WalkExpr(e, func(y ir.Expr) bool {
			if l, ok := y.(*ir.Load); ok && regs[l.Buf] && uses(l.Index) {
				found = true
			}
			return !found
		})
		return false
	})
	return found
}

// smallBody reports whether s produces no other Func, so that its copies
// stay a tile's initialization or update, not a copy of a whole
// computation per register element.
func smallBody(s ir.Stmt) bool {
	return !ir.ContainsStmt(s, func(x ir.Stmt) bool {
		_, ok := x.(*ir.ProducerConsumer)
		return ok
	})
}

// hasCollective reports whether s holds something the threads of a block
// do together or that makes a kernel: GPU loops, or the production of a
// shared Func.
func hasCollective(s ir.Stmt) bool {
	shared := map[string]bool{}
	return ir.ContainsStmt(s, func(x ir.Stmt) bool {
		switch x := x.(type) {
		case *ir.For:
			return x.Kind == ir.GPUBlock || x.Kind == ir.GPUThread
		case *ir.Allocate:
			if x.Memory == ir.GPUShared {
				shared[x.Name] = true
				shared[ir.TupleBase(x.Name)] = true // a Tuple Func's value
			}
			return x.Memory == ir.GPUShared
		case *ir.ProducerConsumer:
			return shared[x.Func]
		}
		return false
	})
}

// caseExtents gives each unrolled or vectorized loop whose extent is not a
// constant, but is one under the conditions of the ifs around it, that
// constant. A specialization's condition fixes a Param or a buffer's shape
// (out.extent.2 == 3, Halide's unroll_loop_with_implied_constant_bounds):
// inside its case, a loop over that dimension has a constant extent, as
// Halide's simplifier learns from the if. Only equalities of a variable
// bound nowhere in s (a Param, a buffer's min or extent) with a constant
// are used, so they hold everywhere inside the branch.
func caseExtents(s ir.Stmt) ir.Stmt {
	bound := ir.Binders(s)
	lv := newRootLetValues()
	facts := map[string]ir.Expr{}
	var mut func(ir.Stmt) ir.Stmt
	mut = func(x ir.Stmt) ir.Stmt {
		switch n := x.(type) {
		case *ir.LetStmt:
			defer lv.bind(n.Name, n.Value)()
		case *ir.For:
			defer lv.bind(n.Name, nil)()
			if (n.Kind == ir.Unrolled || n.Kind == ir.Vectorized) && len(facts) > 0 {
				ext := lv.resolve(n.Extent)
				if _, isConst := ir.AsInt(ext); !isConst {
					if c, ok := ir.AsInt(ir.Simplify(ir.Substitute(ext, facts))); ok {
						l := *n
						l.Extent = ir.Int(c)
						l.Body = mut(n.Body)
						return &l
					}
				}
			}
		case *ir.IfThenElse:
			if isLikely(n.Cond) {
				break
			}
			// What a specialization's case knows (caseFacts.learn), but
			// for variables bound in s, which vary inside the branch.
			learned := caseFacts{}.learn(n.Cond, nil).known
			for name, v := range learned {
				if bound[name] || !v.Type().IsIntOrUInt() || v.Type().IsBool() {
					delete(learned, name)
				}
			}
			if len(learned) == 0 {
				break
			}
			saved := facts
			facts = map[string]ir.Expr{}
			for k, v := range saved {
				facts[k] = v
			}
			for k, v := range learned {
				facts[k] = v
			}
			then := mut(n.Then)
			facts = saved
			var els ir.Stmt
			if n.Else != nil {
				els = mut(n.Else)
			}
			if then == n.Then && els == n.Else {
				return n
			}
			return &ir.IfThenElse{Cond: n.Cond, Then: then, Else: els}
		}
		return ir.MapStmt(x, mut, nil)
	}
	return mut(s)
}

// selectCasesUpperBound bounds an extent whose selects on a few conditions
// (a specialization's, say select(8 <= A.extent.1, ...)) keep the interval
// walk from finding a constant: each assignment of the conditions is
// simplified on its own, where the terms of each branch cancel, and the
// bound is the largest of the cases' (Halide's simplifier reduces such an
// extent to select(c, 8, 4), whose bound is 8).
func selectCasesUpperBound(ext ir.Expr) (int64, bool) {
	var conds []ir.Expr
	ir.WalkExpr(ext, func(e ir.Expr) bool {
		if sel, ok := e.(*ir.Select); ok {
			for _, c := range conds {
				if ir.Equal(c, sel.Cond) {
					return true
				}
			}
			conds = append(conds, sel.Cond)
		}
		return true
	})
	if len(conds) == 0 || len(conds) > 4 {
		return 0, false
	}
	best, found := int64(0), false
	for mask := 0; mask < 1<<len(conds); mask++ {
		var pick func(e ir.Expr) ir.Expr
		pick = func(e ir.Expr) ir.Expr {
			if sel, ok := e.(*ir.Select); ok {
				for i, c := range conds {
					if ir.Equal(c, sel.Cond) {
						if mask&(1<<i) != 0 {
							return pick(sel.True)
						}
						return pick(sel.False)
					}
				}
			}
			return ir.MapExpr(e, pick)
		}
		ub, ok := bounds.ConstantUpperBound(pick(ext), nil)
		if !ok {
			return 0, false
		}
		if !found || ub > best {
			best, found = ub, true
		}
	}
	return best, found
}
