package ir

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// The examples are Halide's (IROperator.h, div_imp and mod_imp): the
// remainder is never negative, x/0 and x%0 are 0, MIN / -1 wraps to MIN.
func TestEuclidDivModTable(t *testing.T) {
	cases := []struct {
		a, b, q, r int64
	}{
		{7, 2, 3, 1},
		{-7, 2, -4, 1},
		{7, -2, -3, 1},
		{-7, -2, 4, 1},
		{7, -3, -2, 1},
		{-7, 3, -3, 2},
		{-7, -3, 3, 2},
		{6, -3, -2, 0},
		{-6, -3, 2, 0},
		{-6, 3, -2, 0},
		{0, -5, 0, 0},
		{-1, 8, -1, 7},
		{-1, -8, 1, 7},
		{1, -8, 0, 1},
		{7, 0, 0, 0},
		{-7, 0, 0, 0},
		{0, 0, 0, 0},
		{math.MinInt64, -1, math.MinInt64, 0},
		{math.MinInt64, 1, math.MinInt64, 0},
		{math.MinInt64, math.MinInt64, 1, 0},
		{math.MaxInt64, math.MinInt64, 0, math.MaxInt64},
		{-1, math.MinInt64, 1, math.MaxInt64},
		{math.MinInt64, 2, math.MinInt64 / 2, 0},
		{math.MinInt64 + 1, -2, math.MaxInt64/2 + 1, 1},
	}
	for _, c := range cases {
		if q, r := EuclidDiv(c.a, c.b), EuclidMod(c.a, c.b); q != c.q || r != c.r {
			t.Errorf("int64 %d / %d, %% = %d, %d; want %d, %d", c.a, c.b, q, r, c.q, c.r)
		}
		// The same in int32 where the operands fit (MIN32 / -1 below).
		if c.a == int64(int32(c.a)) && c.b == int64(int32(c.b)) && c.q == int64(int32(c.q)) {
			a, b := int32(c.a), int32(c.b)
			if q, r := EuclidDiv(a, b), EuclidMod(a, b); int64(q) != c.q || int64(r) != c.r {
				t.Errorf("int32 %d / %d, %% = %d, %d; want %d, %d", a, b, q, r, c.q, c.r)
			}
		}
	}
	if q, r := EuclidDiv(int32(math.MinInt32), -1), EuclidMod(int32(math.MinInt32), -1); q != math.MinInt32 || r != 0 {
		t.Errorf("int32 MIN / -1, %% = %d, %d; want MIN, 0", q, r)
	}
	if q, r := EuclidDiv(int8(-128), -1), EuclidMod(int8(-128), -1); q != -128 || r != 0 {
		t.Errorf("int8 -128 / -1, %% = %d, %d; want -128, 0", q, r)
	}
	// Unsigned: plain division, by zero 0; 250 is -6 as int8, not here.
	ucases := []struct{ a, b, q, r uint8 }{{7, 2, 3, 1}, {250, 7, 35, 5}, {7, 250, 0, 7}, {9, 0, 0, 0}, {255, 255, 1, 0}}
	for _, c := range ucases {
		if q, r := EuclidDiv(c.a, c.b), EuclidMod(c.a, c.b); q != c.q || r != c.r {
			t.Errorf("uint8 %d / %d, %% = %d, %d; want %d, %d", c.a, c.b, q, r, c.q, c.r)
		}
	}
	if q, r := EuclidDiv(uint64(math.MaxUint64), 2), EuclidMod(uint64(math.MaxUint64), 2); q != math.MaxUint64/2 || r != 1 {
		t.Errorf("uint64 max / 2, %% = %d, %d", q, r)
	}
}

// bigEuclid is the reference: math/big's DivMod is Euclidean division.
// The quotient is wrapped to bits (MIN / -1 is the only one that needs it).
func bigEuclid(a, b int64, bits uint) (int64, int64) {
	if b == 0 {
		return 0, 0
	}
	q, m := new(big.Int).DivMod(big.NewInt(a), big.NewInt(b), new(big.Int))
	mask := new(big.Int).Lsh(big.NewInt(1), bits)
	q.Mod(q, mask) // into [0, 2^bits), then sign-extended
	if q.Cmp(new(big.Int).Rsh(mask, 1)) >= 0 {
		q.Sub(q, mask)
	}
	return q.Int64(), m.Int64()
}

// Every int8 pair, and random int64 pairs biased to the edges, against
// math/big.
func TestEuclidDivModAgainstBig(t *testing.T) {
	for a := -128; a < 128; a++ {
		for b := -128; b < 128; b++ {
			q, r := bigEuclid(int64(a), int64(b), 8)
			if gq, gr := EuclidDiv(int8(a), int8(b)), EuclidMod(int8(a), int8(b)); int64(gq) != q || int64(gr) != r {
				t.Fatalf("int8 %d / %d, %% = %d, %d; want %d, %d", a, b, gq, gr, q, r)
			}
			if b != 0 {
				if gq, gr := EuclidDiv(uint8(a), uint8(b)), EuclidMod(uint8(a), uint8(b)); gq != uint8(a)/uint8(b) || gr != uint8(a)%uint8(b) {
					t.Fatalf("uint8 %d / %d: %d, %d", uint8(a), uint8(b), gq, gr)
				}
			}
		}
	}
	rng := rand.New(rand.NewPCG(17, 17))
	edge := []int64{math.MinInt64, math.MinInt64 + 1, -2, -1, 0, 1, 2, math.MaxInt64 - 1, math.MaxInt64}
	draw := func() int64 {
		switch rng.IntN(4) {
		case 0:
			return edge[rng.IntN(len(edge))]
		case 1:
			return rng.Int64N(41) - 20
		}
		return int64(rng.Uint64())
	}
	for range 200000 {
		a, b := draw(), draw()
		q, r := bigEuclid(a, b, 64)
		if gq, gr := EuclidDiv(a, b), EuclidMod(a, b); gq != q || gr != r {
			t.Fatalf("int64 %d / %d, %% = %d, %d; want %d, %d", a, b, gq, gr, q, r)
		}
		a32, b32 := int32(a), int32(b)
		q, r = bigEuclid(int64(a32), int64(b32), 32)
		if gq, gr := EuclidDiv(a32, b32), EuclidMod(a32, b32); int64(gq) != q || int64(gr) != r {
			t.Fatalf("int32 %d / %d, %% = %d, %d; want %d, %d", a32, b32, gq, gr, q, r)
		}
	}
}

// Constant folding is the definition, in every integer type.
func TestSimplifyFoldsEuclid(t *testing.T) {
	for _, ty := range []Type{Int8, Int16, Int32, Int64, UInt8, UInt16, UInt32} {
		for _, a := range []int64{-7, 7, -128, 127, 0} {
			for _, b := range []int64{-3, -2, -1, 0, 2, 3} {
				ca, cb := IntConst(ty, a), IntConst(ty, b)
				av, bv := ca.(*IntImm).V, cb.(*IntImm).V
				var wq, wr int64
				if ty.IsUInt() {
					wq, wr = int64(EuclidDiv(uint64(av), uint64(bv))), int64(EuclidMod(uint64(av), uint64(bv)))
				} else {
					wq, wr = EuclidDiv(av, bv), EuclidMod(av, bv)
				}
				want := [2]Expr{IntConst(ty, wq), IntConst(ty, wr)}
				for i, e := range []Expr{DivE(ca, cb), ModE(ca, cb)} {
					if got := Simplify(e); !Equal(got, want[i]) {
						t.Errorf("%v: %s = %s, want %s", ty, ExprString(e), ExprString(got), ExprString(want[i]))
					}
				}
			}
		}
	}
}
