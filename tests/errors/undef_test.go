package errors_test

import (
	"testing"

	"github.com/gohalide/gohalide/halide"
)

func TestUndef(t *testing.T) {
	runCases(t, []errCase{
		{
			name: "Undef inside a pure definition's value",
			run: func() error {
				f := halide.NewFunc("f")
				f.Define(x).Is(x.Add(halide.Undef(halide.Int32)))
				return lowerErr(f)
			},
			// Arithmetic on Undef is Undef (as in Halide): f is Undef
			// everywhere, and nothing writes its values.
			code: halide.ErrDefinition, fn: "f", directive: "Define", mentions: []string{"Undef everywhere"},
			legal: []string{"update that writes"},
		},
		{
			// (Arithmetic on Undef is Undef: f(x) += Undef stores nothing,
			// as in Halide; a call of Undef has no such meaning.)
			name: "Undef inside a call in an update",
			run: func() error {
				f := halide.NewFunc("f")
				f.Define(x).Is(x)
				f.Define(x).PlusEq(halide.Abs(halide.Undef(halide.Int32)))
				return lowerErr(f)
			},
			code: halide.ErrDefinition, fn: "f", directive: "Define (update)", mentions: []string{"not as the whole value"},
			legal: []string{"Select(c, v, Undef(t))"},
		},
		{
			name: "Undef in a Select's condition",
			run: func() error {
				f := halide.NewFunc("f")
				f.Define(x).Is(x)
				f.Define(x).Is(halide.Select(halide.Undef(halide.Int32).Lt(1), f.At(x), halide.Undef(halide.Int32)))
				return lowerErr(f)
			},
			code: halide.ErrDefinition, fn: "f", directive: "Define (update)", mentions: []string{"Undef inside"},
		},
		{
			name: "a Func that is Undef everywhere",
			run: func() error {
				f := halide.NewFunc("f")
				f.Define(x).Is(halide.Undef(halide.Int32))
				g := halide.NewFunc("g")
				g.Define(x).Is(f.At(x))
				return lowerErr(g)
			},
			code: halide.ErrDefinition, fn: "f", directive: "Define", mentions: []string{"Undef everywhere"},
			legal: []string{"update"},
		},
	})
}
