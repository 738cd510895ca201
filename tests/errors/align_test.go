package errors_test

import (
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// TestErrAlign checks the mistakes with AlignBounds and AlignExtent: a
// modulus below 1, a remainder outside [0, modulus), a var that is not a
// pure var of the Func, a Func not defined yet, a Bound of the same var,
// and an output buffer that is not aligned. Each names the Func, the
// directive and what would be legal.
func TestErrAlign(t *testing.T) {
	// g(x) = x computed at the root, read by f(x) = g(x + 1).
	pipeline := func() (f, g *halide.Func) {
		g = halide.NewFunc("g")
		g.Define(x).Is(x)
		g.ComputeRoot()
		f = halide.NewFunc("f")
		f.Define(x).Is(g.At(x.Add(1)))
		return f, g
	}
	runCases(t, []errCase{
		{
			name: "modulus 0",
			run: func() error {
				f, g := pipeline()
				g.AlignBounds(x, 0, 0)
				return lowerErr(f)
			},
			code:      halide.ErrBadArgument,
			fn:        "g",
			directive: "align_bounds",
			mentions:  []string{"to a modulus of 0"},
			legal:     []string{"a modulus of at least 1"},
		},
		{
			name: "negative modulus of align_extent",
			run: func() error {
				f, g := pipeline()
				g.AlignExtent(x, -4)
				return lowerErr(f)
			},
			code:      halide.ErrBadArgument,
			fn:        "g",
			directive: "align_extent",
			mentions:  []string{"to a modulus of -4"},
			legal:     []string{"a modulus of at least 1"},
		},
		{
			name: "modulus past int32",
			run: func() error {
				f, g := pipeline()
				g.AlignBounds(x, 1<<31, 0)
				return lowerErr(f)
			},
			code:      halide.ErrBadArgument,
			fn:        "g",
			directive: "align_bounds",
			mentions:  []string{"to a modulus of 2147483648"},
			legal:     []string{"at most 2^31 - 1"},
		},
		{
			name: "remainder past the modulus",
			run: func() error {
				f, g := pipeline()
				g.AlignBounds(x, 4, 5)
				return lowerErr(f)
			},
			code:      halide.ErrBadArgument,
			fn:        "g",
			directive: "align_bounds",
			mentions:  []string{"a remainder of 5 modulo 4"},
			legal:     []string{"a remainder in [0, 4), for example 1"},
		},
		{
			name: "negative remainder",
			run: func() error {
				f, g := pipeline()
				g.AlignBounds(x, 4, -1)
				return lowerErr(f)
			},
			code:      halide.ErrBadArgument,
			fn:        "g",
			directive: "align_bounds",
			mentions:  []string{"a remainder of -1 modulo 4"},
			legal:     []string{"for example 3"},
		},
		{
			name: "not a pure var",
			run: func() error {
				f, g := pipeline()
				g.AlignExtent(y, 4)
				return lowerErr(f)
			},
			code:      halide.ErrUnknownVar,
			fn:        "g",
			directive: "align_extent",
			mentions:  []string{"g has no pure var y"},
			legal:     []string{"one of x"},
		},
		{
			name: "before the definition",
			run: func() error {
				g := halide.NewFunc("g")
				g.AlignBounds(x, 2, 0)
				g.Define(x).Is(x)
				return lowerErr(g)
			},
			code:      halide.ErrSchedule,
			fn:        "g",
			directive: "align_bounds",
			mentions:  []string{"before it has a definition"},
		},
		{
			name: "bounded and aligned",
			run: func() error {
				f, g := pipeline()
				g.Bound(x, 0, 10).AlignBounds(x, 4, 0)
				return lowerErr(f)
			},
			code:      halide.ErrSchedule,
			fn:        "g",
			directive: "align_bounds",
			mentions:  []string{"both bounded and aligned in x"},
			legal:     []string{"Bound(x, min, extent) with an aligned min and extent"},
		},
		{
			name: "output that reads its shape not aligned",
			run: func() error {
				f := halide.NewFunc("f")
				f.Define(x).Is(x.Add(f.Width()))
				f.AlignExtent(x, 4)
				return f.Realize(halide.NewBuffer[int32](10))
			},
			// f reads its buffer's width, so Realize does not compute it
			// over a larger aligned region (as it does, like Halide's
			// realize(sizes), an output that does not): the buffer must
			// be aligned.
			code:      halide.ErrBufferShape,
			fn:        "f",
			directive: "align_extent",
			mentions:  []string{"f is the output and is aligned in x", "are 0 and 10"},
			legal:     []string{"an extent that is a multiple of 4"},
		},
	})
}
