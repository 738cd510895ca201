package errors_test

import (
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// TestBoundaryArguments: bad regions given to the boundary conditions
// (too many bounds, a half-given Range, an empty or non-integer extent)
// are typed errors naming the source, the condition and what is legal.
func TestBoundaryArguments(t *testing.T) {
	in := halide.NewImageParam("img", halide.Float32, 2)
	use := func(pad *halide.Func) error {
		f := halide.NewFunc("f")
		f.Define(x, y).Is(pad.At(x, y))
		return lowerErr(f)
	}
	runCases(t, []errCase{
		{
			name: "more bounds than dimensions",
			run: func() error {
				return use(halide.RepeatImage(in, halide.Range(0, 4), halide.Range(0, 4), halide.Range(0, 4)))
			},
			code: halide.ErrArgCount, fn: "img", directive: "RepeatImage",
			mentions: []string{"img", "2 dimensions", "3 bounds"},
			legal:    []string{"at most 2"},
		},
		{
			name: "a Range with a min and no extent",
			run:  func() error { return use(halide.MirrorImage(in, halide.RangeSpec{Min: 0}, halide.Range(0, 4))) },
			code: halide.ErrBadArgument, fn: "img", directive: "MirrorImage",
			mentions: []string{"dimension 0", "partly undefined"},
			legal:    []string{"Unbounded()"},
		},
		{
			name: "an extent of 0",
			run:  func() error { return use(halide.MirrorInterior(in, halide.Range(0, 4), halide.Range(2, 0))) },
			code: halide.ErrBadArgument, fn: "img", directive: "MirrorInterior",
			mentions: []string{"dimension 1", "extent 0"},
			legal:    []string{"at least 1"},
		},
		{
			name: "a Tuple Func's exterior of another number of values",
			run: func() error {
				g := halide.NewFunc("cplx")
				g.Define(x, y).Is(halide.NewTuple(x, y))
				pad := halide.ConstantExterior(g, halide.NewTuple(0, 0, 0), halide.Range(0, 4), halide.Range(0, 4))
				f := halide.NewFunc("f")
				f.Define(x, y).Is(pad.AtTuple(x, y).Elem(0))
				return lowerErr(f)
			},
			code: halide.ErrTuple, fn: "cplx", directive: "ConstantExterior",
			mentions: []string{"2 values", "has 3"},
			legal:    []string{"halide.NewTuple"},
		},
		{
			name: "a negative extent",
			run:  func() error { return use(halide.RepeatEdge(in, halide.Range(0, -3))) },
			code: halide.ErrBadArgument, fn: "img", directive: "RepeatEdge",
			mentions: []string{"dimension 0", "extent -3"},
			legal:    []string{"at least 1"},
		},
		{
			name: "a float extent",
			run:  func() error { return use(halide.ConstantExterior(in, 0, halide.Range(0, 2.5))) },
			code: halide.ErrType, fn: "img", directive: "ConstantExterior",
			mentions: []string{"extent of dimension 0", "must be an integer"},
		},
		{
			name: "a source that is not an image or a Func",
			run:  func() error { return use(halide.MirrorImage(notASource{})) },
			code: halide.ErrType, fn: "f", directive: "MirrorImage",
			mentions: []string{"cannot put a boundary condition"},
			legal:    []string{"*ImageParam"},
		},
		{
			name: "a nil source",
			run:  func() error { return use(halide.RepeatImage(nil)) },
			code: halide.ErrUndefined, fn: "f", directive: "RepeatImage",
			mentions: []string{"nil"},
		},
	})
}

// notASource has the methods of a Source but is none of the kinds a
// boundary condition can read.
type notASource struct{}

func (notASource) At(args ...any) halide.Expr { return halide.E(0) }
func (notASource) Name() string               { return "other" }
