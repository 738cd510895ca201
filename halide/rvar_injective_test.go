package halide_test

import (
	"errors"
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// A parallel RVar loop whose left-hand side is an injective function of
// the RVar (r*k + c, k != 0, c the same in every iteration) writes
// distinct points; it is accepted where every read of f is at the
// iteration's own point or provably at a point no iteration writes
// (Halide proves the same), and refused otherwise. Values are checked
// against plain Go, run in order.

type rvarInjCase struct {
	name string
	// lhs and rhs build the update f(lhs(r)) = rhs(r, f), r in [0, 16),
	// over f(x) = x on [0, 64); ref are the same in Go.
	lhs    func(r halide.RVar) halide.Expr
	rhs    func(r halide.RVar, f *halide.Func) halide.Expr
	refL   func(r int) int
	refR   func(r int, f []int32) int32
	accept bool
}

func TestRVarInjectiveParallel(t *testing.T) {
	p := halide.NewParam[int32]("off")
	p.Set(7)
	cases := []rvarInjCase{
		{"r2_const", func(r halide.RVar) halide.Expr { return r.Mul(2) },
			func(r halide.RVar, f *halide.Func) halide.Expr { return halide.E(13) },
			func(r int) int { return 2 * r }, func(r int, f []int32) int32 { return 13 }, true},
		{"r2_reads_odd", func(r halide.RVar) halide.Expr { return r.Mul(2) },
			func(r halide.RVar, f *halide.Func) halide.Expr { return f.At(r.Mul(2).Add(1)).Add(1) },
			func(r int) int { return 2 * r }, func(r int, f []int32) int32 { return f[2*r+1] + 1 }, true},
		{"r2p5_own", func(r halide.RVar) halide.Expr { return r.Mul(2).Add(5) },
			func(r halide.RVar, f *halide.Func) halide.Expr { return f.At(r.Mul(2).Add(5)).Mul(3).Add(r) },
			func(r int) int { return 2*r + 5 }, func(r int, f []int32) int32 { return f[2*r+5]*3 + int32(r) }, true},
		{"neg", func(r halide.RVar) halide.Expr { return halide.E(40).Sub(r) },
			func(r halide.RVar, f *halide.Func) halide.Expr { return f.At(halide.E(40).Sub(r)).Add(r) },
			func(r int) int { return 40 - r }, func(r int, f []int32) int32 { return f[40-r] + int32(r) }, true},
		{"r3p1_reads_0", func(r halide.RVar) halide.Expr { return r.Mul(3).Add(1) },
			func(r halide.RVar, f *halide.Func) halide.Expr { return f.At(0).Add(r) },
			func(r int) int { return 3*r + 1 }, func(r int, f []int32) int32 { return f[0] + int32(r) }, true},
		{"r2_reads_far", func(r halide.RVar) halide.Expr { return r.Mul(2) },
			func(r halide.RVar, f *halide.Func) halide.Expr { return f.At(r.Mul(2).Add(32)) },
			func(r int) int { return 2 * r }, func(r int, f []int32) int32 { return f[2*r+32] }, true},
		{"param_offset", func(r halide.RVar) halide.Expr { return r.Mul(2).Add(p.Expr()) },
			func(r halide.RVar, f *halide.Func) halide.Expr { return f.At(r.Mul(2).Add(p.Expr())).Add(1) },
			func(r int) int { return 2*r + 7 }, func(r int, f []int32) int32 { return f[2*r+7] + 1 }, true},
		// Refused: a read of the point the next iteration writes, of a
		// point iteration 2 writes, a non-injective and a zero multiple.
		{"r2_reads_next", func(r halide.RVar) halide.Expr { return r.Mul(2) },
			func(r halide.RVar, f *halide.Func) halide.Expr { return f.At(r.Mul(2).Add(2)).Add(1) },
			nil, nil, false},
		{"r2_reads_4", func(r halide.RVar) halide.Expr { return r.Mul(2) },
			func(r halide.RVar, f *halide.Func) halide.Expr { return f.At(4).Add(1) },
			nil, nil, false},
		{"r_times_r", func(r halide.RVar) halide.Expr { return r.Mul(r) },
			func(r halide.RVar, f *halide.Func) halide.Expr { return halide.E(1) },
			nil, nil, false},
		{"r_times_0", func(r halide.RVar) halide.Expr { return r.Mul(0).Add(3) },
			func(r halide.RVar, f *halide.Func) halide.Expr { return r.Add(0) },
			nil, nil, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			x := halide.NewVar("x")
			r := halide.NewRDom("r", halide.Range(0, 16))
			f := halide.NewFunc("f")
			f.Define(x).Is(x)
			f.Define(c.lhs(r.X())).Is(c.rhs(r.X(), f))
			f.Update(0).Parallel(r.X())
			out := halide.NewBuffer[int32](64)
			err := halide.NewPipeline(f).Realize(out)
			if !c.accept {
				var he *halide.Error
				if !errors.As(err, &he) || he.Code != halide.ErrSchedule {
					t.Fatalf("got %v, want an ErrSchedule refusal", err)
				}
				t.Logf("refused: %v", err)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			want := make([]int32, 64)
			for i := range want {
				want[i] = int32(i)
			}
			for i := 0; i < 16; i++ {
				want[c.refL(i)] = c.refR(i, want)
			}
			for i, w := range want {
				if got := out.Get(i); got != w {
					t.Fatalf("f(%d) = %d, want %d", i, got, w)
				}
			}
		})
	}
}

// f(r.x + r.y) is not injective in r.x alone once r.y varies in the same
// loop: a loop fused from both and run in parallel is refused.
func TestRVarInjectiveFusedRefused(t *testing.T) {
	x := halide.NewVar("x")
	r := halide.NewRDom("r", halide.Range(0, 8), halide.Range(0, 8))
	f := halide.NewFunc("f")
	f.Define(x).Is(0)
	f.Define(r.X().Add(r.Y())).Is(f.At(r.X().Add(r.Y())).Add(1).Mul(2))
	fused := halide.NewRVar("fxy")
	f.Update(0).Fuse(r.X(), r.Y(), fused).Parallel(fused)
	err := halide.NewPipeline(f).Realize(halide.NewBuffer[int32](16))
	var he *halide.Error
	if !errors.As(err, &he) || he.Code != halide.ErrSchedule {
		t.Fatalf("got %v, want an ErrSchedule refusal", err)
	}
}
