package lower

import (
	"math/rand"
	"testing"

	"github.com/gohalide/gohalide/ir"
)

// TestRVarIndependentBruteForce checks rvarIndependent against brute
// force on random one-RVar updates f(lhs(r), c) = f(read_i(r), c_i) + ...:
// whenever it accepts, every iteration writes its own point and reads no
// point another iteration writes.
func TestRVarIndependentBruteForce(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	rv := &ir.Var{T: ir.Int32, Name: "r$x"}
	affine := func() ir.Expr {
		k, c := int64(rng.Intn(7)-3), int64(rng.Intn(17)-8)
		switch rng.Intn(9) {
		case 0:
			return ir.Int(c)
		case 1:
			return ir.AddE(ir.MulE(rv, ir.Int(k)), ir.Int(c))
		case 2:
			return ir.AddE(ir.Int(c), ir.MulE(ir.Int(k), rv))
		case 3:
			return ir.SubE(ir.Int(c), ir.MulE(rv, ir.Int(k)))
		case 4:
			return ir.SubE(ir.MulE(ir.AddE(rv, ir.Int(c)), ir.Int(k)), ir.Int(1))
		case 5:
			return ir.DivE(rv, ir.Int(2))
		case 6:
			return ir.ModE(rv, ir.Int(3))
		case 7:
			return ir.MulE(rv, rv)
		default:
			return ir.AddE(rv, ir.Int(c))
		}
	}
	eval := func(e ir.Expr, r int64) int64 {
		v, ok := ir.AsInt(ir.Simplify(ir.Substitute(e, map[string]ir.Expr{rv.Name: ir.Int(r)})))
		if !ok {
			t.Fatalf("cannot evaluate %s", ir.ExprString(e))
		}
		return v
	}
	accepted := 0
	for iter := 0; iter < 4000; iter++ {
		mn, ext := int64(rng.Intn(7)-3), int64(rng.Intn(8)+1)
		lhs := []ir.Expr{affine(), ir.Int(int64(rng.Intn(2)))}
		var reads [][]ir.Expr
		var value ir.Expr = ir.Int(1)
		for i := rng.Intn(3); i > 0; i-- {
			rd := []ir.Expr{affine(), ir.Int(int64(rng.Intn(2)))}
			if rng.Intn(3) == 0 {
				rd[0] = lhs[0]
			}
			reads = append(reads, rd)
			value = ir.AddE(value, &ir.Call{T: ir.Int32, Kind: ir.CallFunc, Name: "f", Args: rd})
		}
		d := &ir.Definition{Args: lhs, Value: value, RDom: &ir.ReductionDomain{Name: "r", Vars: []ir.RVar{{Name: rv.Name, Min: ir.Int(mn), Extent: ir.Int(ext)}}}}
		if !rvarIndependent("f", d, rv.Name) {
			continue
		}
		accepted++
		type pt [2]int64
		writes := map[pt]int64{}
		for r := mn; r < mn+ext; r++ {
			w := pt{eval(lhs[0], r), eval(lhs[1], r)}
			if o, dup := writes[w]; dup {
				t.Fatalf("accepted f(%s, %s) over [%d, %d): iterations %d and %d both write %v", ir.ExprString(lhs[0]), ir.ExprString(lhs[1]), mn, mn+ext, o, r, w)
			}
			writes[w] = r
		}
		for r := mn; r < mn+ext; r++ {
			for _, rd := range reads {
				p := pt{eval(rd[0], r), eval(rd[1], r)}
				if o, hit := writes[p]; hit && o != r {
					t.Fatalf("accepted f(%s, %s) = ... f(%s, %s) over [%d, %d): iteration %d reads %v, which iteration %d writes", ir.ExprString(lhs[0]), ir.ExprString(lhs[1]), ir.ExprString(rd[0]), ir.ExprString(rd[1]), mn, mn+ext, r, p, o)
				}
			}
		}
	}
	if accepted < 200 {
		t.Fatalf("only %d of 4000 accepted: the test exercises little", accepted)
	}
	t.Logf("%d accepted, all independent", accepted)
}
