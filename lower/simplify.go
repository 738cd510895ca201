package lower

// simplify: simplify every expression of the statement and drop the
// statements that do nothing (ir.SimplifyStmt).
//
// Before: unroll_loops (it cleans up after the loop passes; it is correct
// after any pass). After: an equivalent, smaller statement.

import (
	"github.com/gohalide/gohalide/ir"
)

func simplify(st *State) error {
	s := ir.SimplifyStmt(st.Stmt)
	if s == nil {
		s = &ir.Block{}
	}
	st.Stmt = s
	return nil
}
