package errors_test

import (
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// A pure var fused with an RVar in an update makes an RVar loop: what an
// RVar loop may not do, it may not do, and rfactor, which separates the
// RVar loops from the pure ones, refuses it.
func TestErrFusePureVarWithRVar(t *testing.T) {
	rx := halide.NewRVar("rx")
	sum := func() (*halide.Func, *halide.RDom) {
		in := halide.NewImageParam("in", halide.Int32, 2)
		r := halide.NewRDom("r", halide.Range(0, 7))
		f := halide.NewFunc("sum")
		f.Define(x).Is(0)
		f.Define(x).PlusEq(in.At(x, r))
		return f, r
	}
	runCases(t, []errCase{
		{
			name: "rfactor of a stage with a fused pure var and RVar",
			run: func() error {
				f, r := sum()
				f.Update(0).Reorder(x, r).Fuse(x, r, rx).RFactor(halide.RFactorPair{R: rx, V: halide.NewVar("u")})
				return lowerErr(f)
			},
			code: halide.ErrSchedule, fn: "sum", directive: "rfactor",
			mentions: []string{"x.rx", "fuses a pure var with an RVar"},
			legal:    []string{"rfactor first"},
		},
		{
			name: "parallel fused pure var and RVar without Atomic",
			run: func() error {
				f, r := sum()
				f.Update(0).Reorder(x, r).Fuse(x, r, rx).Parallel(rx)
				return lowerErr(f)
			},
			code: halide.ErrSchedule, fn: "sum", directive: "parallel",
			mentions: []string{"x.rx", "race condition"},
			legal:    []string{"Atomic()"},
		},
		{
			name: "RoundUp on a fused pure var and RVar",
			run: func() error {
				f, r := sum()
				f.Update(0).Reorder(x, r).Fuse(x, r, rx).Split(rx, halide.NewRVar("ro"), halide.NewRVar("ri"), 8, halide.RoundUp)
				return lowerErr(f)
			},
			code: halide.ErrSchedule, fn: "sum", directive: "split",
			mentions: []string{"RoundUp"},
			legal:    []string{"GuardWithIf"},
		},
	})
}
