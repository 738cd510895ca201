package lower

// unroll_loops: replace each unrolled loop by one copy of its body per
// iteration (a let binds the loop variable to its value in each copy; a loop
// whose extent is not constant but has a constant upper bound, as in the
// tail of a GuardWithIf split, is unrolled to the bound and each copy is
// guarded by i < extent), and
// check that vectorized loops have constant extents (the CPU runs them as
// loops; the GPU backends vectorize them).
//
// Before: storage_flattening. After: no Unrolled loop is left.

import (
	"github.com/gohalide/gohalide/bounds"
	"github.com/gohalide/gohalide/ir"
)

// maxUnroll bounds the copies one unrolled loop may make.
const maxUnroll = 1024

func unrollLoops(st *State) error {
	var err error
	lv := letValues{}
	s := walkWithLets(st.Stmt, lv, func(s ir.Stmt) ir.Stmt {
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
		if !isConst && l.Kind == ir.Unrolled {
			// A tail makes the extent smaller than a constant bound (say
			// min(64 - mt*4, 4)): unroll to the bound, each copy guarded.
			if ub, ok := bounds.ConstantUpperBound(ext, nil); ok && ub <= maxUnroll {
				n, isConst, guarded = max(ub, 0), true, true
			}
		}
		if !isConst {
			err = ir.Errorf(ir.ErrSchedule, loopFunc(l.Name), directive, "cannot %s loop %s: its extent %s is not a constant", directive, l.Name, ir.ExprString(ext)).
				WithLegal("split the loop by a constant factor and %s the inner loop, or bound the Func", directive)
			return s
		}
		if l.Kind == ir.Vectorized {
			return s
		}
		if n > maxUnroll {
			err = ir.Errorf(ir.ErrSchedule, loopFunc(l.Name), directive, "cannot unroll loop %s: %d iterations is more than %d", l.Name, n, maxUnroll)
			return s
		}
		copies := make([]ir.Stmt, n)
		for i := range copies {
			var body ir.Stmt = l.Body
			if guarded {
				body = &ir.IfThenElse{Cond: &ir.Call{T: ir.Bool, Kind: ir.CallIntrinsic, Name: ir.IntrinsicLikely,
					Args: []ir.Expr{ir.LTE(ir.Int(int64(i)), l.Extent)}}, Then: body}
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
