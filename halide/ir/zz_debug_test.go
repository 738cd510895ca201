package ir

import (
	"math/rand/v2"
	"testing"
)

func TestZZStress(t *testing.T) {
	for seed := uint64(10); seed < 30; seed++ {
		for _, ty := range []Type{Int32, Int64, Int8, UInt32} {
			g := &exprGen{r: rand.New(rand.NewPCG(seed, 77)), t: ty, consts: 10, lets: true}
			if !ty.IsInt() || ty.Bits < 32 {
				g.consts = 200
			}
			checkEquivalent(t, g, 20000, 20)
		}
	}
}
