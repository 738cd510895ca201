package ir

import (
	"math/rand/v2"
	"testing"
)

func TestZZDebug(t *testing.T) {
	for _, ty := range []Type{Int32, Int8, UInt8} {
		g := &exprGen{r: rand.New(rand.NewPCG(1, 2)), t: ty, consts: 10, lets: true}
		shown := 0
		for i := 0; i < 30000 && shown < 6; i++ {
			e := g.intExpr(5, nil)
			s := Simplify(e)
			s2 := Simplify(s)
			if ExprString(s) != ExprString(s2) {
				shown++
				t.Logf("%s\n  -> %s\n  -> %s", ExprString(e), ExprString(s), ExprString(s2))
			}
		}
	}
}

func TestZZBench(t *testing.T) {
	t.Log(ExprString(benchExpr()))
	t.Log(ExprString(Simplify(benchExpr())))
}
