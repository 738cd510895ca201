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

func BenchmarkZZSmall(b *testing.B) {
	x, y := NewVar("x"), NewVar("y")
	es := []Expr{
		AddE(AddE(MulE(x, Int(8)), y), Int(7)),
		MinE(AddE(x, Int(3)), y),
		SubE(AddE(MinE(AddE(MulE(x, Int(8)), Int(7)), y), Int(1)), MulE(x, Int(8))),
		DivE(AddE(y, Int(7)), Int(8)),
		LTE(AddE(x, Int(1)), y),
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, e := range es {
			Simplify(e)
		}
	}
}
