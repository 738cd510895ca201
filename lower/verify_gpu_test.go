package lower

import (
	"strings"
	"testing"

	"github.com/gohalide/gohalide/ir"
)

// The invariant fails on the production defect 1 of issue 8 made: each
// thread stores its own column (prod.s1.j.min depends on thread_id_x) into
// the block's one copy.
func TestVerifyCooperativeCatchesThreadDependentStore(t *testing.T) {
	share := "BIn.s0.__share"
	store := func(index ir.Expr) ir.Stmt {
		return &ir.LetStmt{Name: "prod.s1.j.min", Value: ir.AddE(v("base"), v(ir.ThreadID[0])),
			Body: &ir.For{Name: share, Min: ir.Int(0), Extent: ir.Int(2), Kind: ir.Serial,
				Body: &ir.LetStmt{Name: "BIn.s0.__index", Value: ir.AddE(ir.MulE(v(share), ir.Int(16)), v(ir.ThreadID[0])),
					Body: &ir.LetStmt{Name: "BIn.s0.k", Value: ir.AddE(v("base"), v("BIn.s0.__index")),
						Body: &ir.Store{Buf: "BIn", Index: index, Value: ir.Int(1)}}}}}
	}
	shares := shareLoops{share: {Func: "BIn", Index: "BIn.s0.__index"}}
	if err := verifyCooperative(store(v("BIn.s0.k")), shares); err != nil {
		t.Errorf("a store from the share index: %v", err)
	}
	err := verifyCooperative(store(ir.AddE(v("BIn.s0.k"), v("prod.s1.j.min"))), shares)
	if err == nil || !strings.Contains(err.Error(), "prod.s1.j.min") {
		t.Errorf("a store that depends on the thread through prod.s1.j.min: got %v", err)
	}
}
