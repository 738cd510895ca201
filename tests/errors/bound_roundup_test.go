package errors_test

import (
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// TestErrRoundUpPastBound: a RoundUp split of a var whose bound's extent
// (a Param) the factor does not divide runs the loop past the bound.
// Halide fails its run-time check that the bounds cover what the loops
// touch; Realize fails the same way, before anything runs.
func TestErrRoundUpPastBound(t *testing.T) {
	runCases(t, []errCase{{
		name: "bound_extent by a Param that 8 does not divide",
		run: func() error {
			xo := halide.NewVar("xo")
			p := halide.NewParam[int32]("p")
			f, g := halide.NewFunc("f"), halide.NewFunc("g")
			f.Define(x).Is(x.Mul(2))
			g.Define(x).Is(f.At(x))
			g.Split(x, xo, x, 8)
			f.ComputeAt(g, xo).BoundExtent(x, p.Expr()).VectorizeTail(x, 8, halide.RoundUp)
			p.Set(12)
			return g.Realize(halide.NewBuffer[int32](64))
		},
		code: halide.ErrOutOfBounds, fn: "f", directive: "split",
		mentions: []string{"split of x by 8 with RoundUp runs x past the bound_extent of f", "is 12 at run time"},
		legal:    []string{"the RoundUp factors divide", "GuardWithIf"},
	}})
}
