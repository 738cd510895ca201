package ir

import (
	"math/rand"
	"testing"
)

// TestDivModSplit checks the rewrite by evaluation: the split form equals
// the original at every point of a range of x and y, and it is made only
// where a division's numerator appears in the other terms.
func TestDivModSplit(t *testing.T) {
	x, y := NewVar("x"), NewVar("y")
	c := Int
	tests := []struct {
		e    Expr
		want bool
	}{
		{AddE(SubE(MulE(DivE(x, c(4)), c(8)), x), c(3)), true},                   // (x/4)*8 - x + 3
		{SubE(x, MulE(DivE(x, c(4)), c(4))), true},                               // x - (x/4)*4
		{SubE(MulE(DivE(AddE(x, y), c(3)), c(5)), MulE(AddE(x, y), c(2))), true}, // 5*((x+y)/3) - 2*(x+y)
		{AddE(DivE(AddE(x, y), c(3)), x), false},                                 // y is missing
		{AddE(MulE(DivE(x, c(4)), c(8)), y), false},                              // no x outside the division
		{SubE(MulE(DivE(x, c(-4)), c(8)), x), false},                             // negative divisor
		{SubE(MulE(DivE(x, y), c(8)), x), false},                                 // divisor not constant
	}
	rng := rand.New(rand.NewSource(1))
	for _, tc := range tests {
		e := Simplify(tc.e)
		alt, ok := DivModSplit(e)
		if ok != tc.want {
			t.Errorf("DivModSplit(%v) ok = %v, want %v", e, ok, tc.want)
			continue
		}
		if !ok {
			continue
		}
		for range 2000 {
			vx, vy := rng.Int63n(2001)-1000, rng.Int63n(2001)-1000
			sub := func(e Expr) int64 {
				r := Simplify(Substitute(e, map[string]Expr{"x": c(vx), "y": c(vy)}))
				v, ok := constInt(r)
				if !ok {
					t.Fatalf("%v did not fold at x=%d y=%d: %v", e, vx, vy, r)
				}
				return v
			}
			if a, b := sub(e), sub(alt); a != b {
				t.Fatalf("%v = %d but its split form %v = %d at x=%d, y=%d", e, a, alt, b, vx, vy)
			}
		}
	}
}
