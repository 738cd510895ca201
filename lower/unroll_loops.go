package lower

// unroll_loops: replace each unrolled loop by one copy of its body per
// iteration (a let binds the loop variable to its value in each copy), and
// check that vectorized loops have constant extents (the CPU runs them as
// loops; the GPU backends vectorize them).
//
// Before: storage_flattening. After: no Unrolled loop is left.

import (
	"github.com/gohalide/gohalide/halide/ir"
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
			copies[i] = &ir.LetStmt{Name: l.Name, Value: ir.Simplify(ir.AddE(l.Min, ir.Int(int64(i)))), Body: l.Body}
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
