package errors_test

import (
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// Halide's rules for the left-hand side of an update (Function.cpp,
// define_update): an argument is pure only as the bare Var of the pure
// definition at that position; a pure Var may appear in other arguments
// too (g(x, x) writes the diagonal), but every Var must be pure somewhere,
// and every read of the Func in the update has the pure Vars in their
// places.
func TestUpdateLHSErrors(t *testing.T) {
	runCases(t, []errCase{
		{
			name: "diagonal as a Select that reads off the pure var's position",
			run: func() error {
				g := halide.NewFunc("g")
				g.Define(x, y).Is(0)
				// y is pure in position 1, so g(x, x - 1) reads another
				// point of the pure dimension (Halide: "All of a
				// function's recursive references to itself must contain
				// the same pure variables in the same places").
				g.Define(x, y).Is(halide.Select(x.Eq(y), g.At(x, x.Sub(1)).Add(g.At(x, x.Add(1))), g.At(x, y)))
				return lowerErr(g)
			},
			code: halide.ErrDefinition, fn: "g", directive: "Define (update)",
			mentions: []string{"(x - 1)", "position 1", "pure var y"},
			legal:    []string{"y in position 1"},
		},
		{
			name: "transposed left-hand side: no Var in its pure position",
			run: func() error {
				g := halide.NewFunc("g")
				g.Define(x, y).Is(0)
				g.Define(y, x).Is(1) // pure in neither: Halide's "Undefined variable"
				return lowerErr(g)
			},
			code: halide.ErrDefinition, fn: "g", directive: "Define (update)",
			mentions: []string{"Var y", "not a pure argument"},
			legal:    []string{"bare on the left-hand side in their pure position"},
		},
		{
			name: "a loop of the diagonal update over the Var it does not loop over",
			run: func() error {
				g := halide.NewFunc("g")
				g.Define(x, y).Is(0)
				g.Define(x, x).Is(1) // loops over x alone
				g.Update(0).Parallel(y)
				return lowerErr(g)
			},
			code: halide.ErrUnknownVar, fn: "g", directive: "parallel",
			mentions: []string{"no loop y", "has x in position 1"},
			legal:    []string{"loops, outermost first: x"},
		},
		{
			name: "a pure definition with an Undef arm left inline",
			run: func() error {
				f, g := halide.NewFunc("f"), halide.NewFunc("g")
				f.Define(x).Is(halide.Select(x.Eq(0), x.Add(1), halide.Undef(halide.Int32)))
				g.Define(x).Is(f.At(x))
				return lowerErr(g)
			},
			code: halide.ErrSchedule, fn: "f", directive: "compute_inline",
			mentions: []string{"Undef in an arm", "(x == 0)"},
			legal:    []string{"compute_root or compute_at"},
		},
	})
}
