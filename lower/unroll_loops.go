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
	// lets holds the values of the enclosing lets, so an extent written
	// with region variables (f.s0.x.max - f.s0.x.min + 1) can be seen to be
	// constant.
	lets := map[string]ir.Expr{}
	var mut func(ir.Stmt) ir.Stmt
	mut = func(s ir.Stmt) ir.Stmt {
		if err != nil {
			return s
		}
		if l, ok := s.(*ir.LetStmt); ok {
			saved, had := lets[l.Name]
			lets[l.Name] = ir.Substitute(l.Value, lets)
			body := mut(l.Body)
			if had {
				lets[l.Name] = saved
			} else {
				delete(lets, l.Name)
			}
			if body == l.Body {
				return l
			}
			return &ir.LetStmt{Name: l.Name, Value: l.Value, Body: body}
		}
		if l, ok := s.(*ir.For); ok {
			// The loop variable shadows any let of the same name.
			saved, had := lets[l.Name]
			delete(lets, l.Name)
			defer func() {
				if had {
					lets[l.Name] = saved
				}
			}()
		}
		s = ir.MapStmt(s, mut, nil)
		l, ok := s.(*ir.For)
		if !ok || (l.Kind != ir.Unrolled && l.Kind != ir.Vectorized) {
			return s
		}
		ext := ir.Simplify(ir.Substitute(l.Extent, lets))
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
	}
	s := mut(st.Stmt)
	if err != nil {
		return err
	}
	st.Stmt = s
	return nil
}
