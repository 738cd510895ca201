package errors_test

import (
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// TestErrTupleElem checks the mistakes of an update of one value of a
// Tuple Func (Definer.Elem, Halide's f(x)[i] op= e), of SelectTuple with a
// Tuple of conditions and of MuxTuple. Each names the Func, the directive
// and what would be legal.
func TestErrTupleElem(t *testing.T) {
	// f(x) = (x, float32(x)): a Tuple Func of an int32 and a float32.
	tuple := func() *halide.Func {
		f := halide.NewFunc("f")
		f.Define(x).Is(halide.NewTuple(x, halide.Cast(halide.Float32, x)))
		return f
	}
	runCases(t, []errCase{
		{
			name:      "index out of range",
			run:       func() error { return lowerErr(tuple().Define(x).Elem(2).PlusEq(1)) },
			code:      halide.ErrTuple,
			fn:        "f",
			directive: "Elem.PlusEq",
			mentions:  []string{"value 2 of f, which has 2 values"},
			legal:     []string{"i in [0, 2)"},
		},
		{
			name:      "negative index",
			run:       func() error { return lowerErr(tuple().Define(x).Elem(-1).Is(1)) },
			code:      halide.ErrTuple,
			fn:        "f",
			directive: "Elem.Is",
			mentions:  []string{"value -1 of f"},
			legal:     []string{"i in [0, 2)"},
		},
		{
			name: "a Func of one value",
			run: func() error {
				f := halide.NewFunc("f")
				f.Define(x).Is(x)
				return lowerErr(f.Define(x).Elem(0).Is(1))
			},
			code:      halide.ErrTuple,
			fn:        "f",
			directive: "Elem.Is",
			mentions:  []string{"f has one value, not a Tuple"},
			legal:     []string{"without Elem"},
		},
		{
			name:      "no pure definition",
			run:       func() error { return lowerErr(halide.NewFunc("f").Define(x).Elem(0).TimesEq(2)) },
			code:      halide.ErrUndefined,
			fn:        "f",
			directive: "Elem.TimesEq",
			mentions:  []string{"before f has a pure definition"},
			legal:     []string{"NewTuple"},
		},
		{
			name:      "Elem twice",
			run:       func() error { return lowerErr(tuple().Define(x).Elem(0).Elem(1).Is(1)) },
			code:      halide.ErrTuple,
			fn:        "f",
			directive: "Elem.Is",
			mentions:  []string{"Elem is called 2 times"},
			legal:     []string{"one Elem(i)"},
		},
		{
			name:      "a value of another type",
			run:       func() error { return lowerErr(tuple().Define(x).Elem(0).Is(halide.Cast(halide.Float32, x))) },
			code:      halide.ErrType,
			fn:        "f",
			directive: "Elem.Is",
			mentions:  []string{"value 0 of the update has type float32 but value 0 of f has type int32"},
			legal:     []string{"Cast"},
		},
		{
			name:      "f(x)[0] max e of another type",
			run:       func() error { return lowerErr(tuple().Define(x).Elem(0).MaxEq(halide.Cast(halide.Float64, x))) },
			code:      halide.ErrType,
			fn:        "f",
			directive: "Elem.MaxEq",
			mentions:  []string{"has type float64 but value 0 of f has type int32"},
			legal:     []string{"Cast"},
		},
		{
			name:      "a Tuple as the value",
			run:       func() error { return lowerErr(tuple().Define(x).Elem(1).DivEq(halide.NewTuple(1, 2))) },
			code:      halide.ErrTuple,
			fn:        "f",
			directive: "Elem.DivEq",
			mentions:  []string{"a Tuple of 2 values is not one expression"},
			legal:     []string{"t.Elem(i)"},
		},
		{
			name: "SelectTuple with a Tuple of conditions of another length",
			run: func() error {
				f := halide.NewFunc("f")
				f.Define(x).Is(halide.SelectTuple(halide.NewTuple(x.Gt(0)), halide.NewTuple(x, x), halide.NewTuple(1, 2)))
				return lowerErr(f)
			},
			code:      halide.ErrTuple,
			fn:        "f",
			directive: "SelectTuple",
			mentions:  []string{"the Tuple of conditions has 1 values but the Tuples it selects between have 2"},
			legal:     []string{"a Tuple of 2 conditions"},
		},
		{
			name: "SelectTuple with a condition that is not bool",
			run: func() error {
				f := halide.NewFunc("f")
				f.Define(x).Is(halide.SelectTuple(halide.NewTuple(x.Gt(0), x), halide.NewTuple(x, x), halide.NewTuple(1, 2)))
				return lowerErr(f)
			},
			code:      halide.ErrType,
			fn:        "f",
			directive: "Define",
			mentions:  []string{"the condition of Select must be bool, not int32"},
		},
		{
			name: "MuxTuple of Tuples of different lengths",
			run: func() error {
				f := halide.NewFunc("f")
				f.Define(x).Is(halide.MuxTuple(x, halide.NewTuple(x, x), halide.NewTuple(1)))
				return lowerErr(f)
			},
			code:      halide.ErrTuple,
			fn:        "f",
			directive: "MuxTuple",
			mentions:  []string{"Tuple 1 has 1 values but Tuple 0 has 2"},
			legal:     []string{"the same number of values"},
		},
	})
}
