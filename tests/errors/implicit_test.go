package errors_test

import (
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// TestErrImplicit checks the misuses of Implicit (Halide's _): twice in a
// call, more explicit arguments than dimensions, implicit Vars on the
// right without Implicit on the left, and an
// update whose right-hand side has more implicit dimensions than its Func.
func TestErrImplicit(t *testing.T) {
	x := halide.NewVar("x")
	in := halide.NewImageParam("in", halide.Float32, 3)
	runCases(t, []errCase{
		{
			name: "twice in a call",
			run: func() error {
				f := halide.NewFunc("f")
				f.Define(x, halide.Implicit).Is(in.At(halide.Implicit, x, halide.Implicit))
				return lowerErr(f)
			},
			code:      halide.ErrArgCount,
			fn:        "f",
			directive: "call",
			mentions:  []string{"input in is called with Implicit twice"},
			legal:     []string{"one Implicit per call"},
		},
		{
			name: "more arguments than dimensions",
			run: func() error {
				f := halide.NewFunc("f")
				f.Define(x, halide.Implicit).Is(in.At(x, x, x, x, halide.Implicit))
				return lowerErr(f)
			},
			code:      halide.ErrArgCount,
			fn:        "f",
			directive: "call",
			mentions:  []string{"input in has 3 dimensions but is called with 4 arguments besides Implicit"},
			legal:     []string{"at most 3 explicit arguments with Implicit"},
		},
		{
			name: "implicit Vars on the right only",
			run: func() error {
				f := halide.NewFunc("f")
				f.Define(x).Is(in.At(x, halide.Implicit))
				return lowerErr(f)
			},
			code:      halide.ErrDefinition,
			fn:        "f",
			directive: "Define",
			mentions:  []string{"the right-hand side uses the implicit Vars _0, _1 (a call with Implicit) but the left-hand side of f has no Implicit"},
			legal:     []string{"f.Define(..., Implicit)"},
		},
		{
			// The left may name the implicit Vars instead (as In's
			// wrappers do), but all of them.
			name: "implicit Vars on the right, one named on the left",
			run: func() error {
				f := halide.NewFunc("f")
				f.Define(x, halide.ImplicitVar(0)).Is(in.At(x, halide.Implicit))
				return lowerErr(f)
			},
			code:      halide.ErrDefinition,
			fn:        "f",
			directive: "Define",
			mentions:  []string{"the right-hand side uses the implicit Vars _0, _1 (a call with Implicit) but the left-hand side of f has no Implicit"},
		},
		{
			name: "an update wider than its Func",
			run: func() error {
				f := halide.NewFunc("f")
				f.Define(x, halide.Implicit).Is(in.At(x, 0, halide.Implicit))  // f(x, _0)
				f.Define(x, halide.Implicit).PlusEq(in.At(x, halide.Implicit)) // _0, _1
				return lowerErr(f)
			},
			code:      halide.ErrDefinition,
			fn:        "f",
			directive: "PlusEq",
			mentions:  []string{"the right-hand side uses the implicit Vars _0, _1 but Implicit stands for 1 of f's dimensions here"},
		},
	})
}
