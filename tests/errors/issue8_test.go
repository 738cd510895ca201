package errors_test

import (
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// Errors added for issue 8: schedules and definitions that used to give
// wrong answers (or races) are rejected at Lower.
func TestIssue8Errors(t *testing.T) {
	x := halide.NewVar("x")
	runCases(t, []errCase{
		{
			name: "update reads its Func at another point of a pure var",
			run: func() error {
				f := halide.NewFunc("f")
				f.Define(x).Is(x)
				f.Define(x).PlusEq(f.At(x.Add(1)))
				return lowerErr(f)
			},
			code: halide.ErrDefinition, fn: "f", directive: "Define (update)",
			mentions: []string{"(x + 1)", "position 0"},
			legal:    []string{"x in position 0"},
		},
		{
			name: "store outside a parallel loop, computed inside",
			run: func() error {
				g, f := halide.NewFunc("g"), halide.NewFunc("f")
				y := halide.NewVar("y")
				f.Define(x, y).Is(x.Add(y))
				g.Define(x, y).Is(f.At(x, y))
				g.Parallel(y)
				f.ComputeAt(g, y).StoreRoot()
				return lowerErr(g)
			},
			code: halide.ErrSchedule, fn: "f", directive: "store_root",
			mentions: []string{"parallel loop g.s0.y"},
			legal:    []string{"store f at y"},
		},
	})
}
