package errors_test

import (
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// TestErrFoldStorage checks the fold_storage requests that would overwrite
// a value before its last read: Lower refuses them, naming the Func, the
// dimension and the smallest safe extent, or why no fold is safe.
func TestErrFoldStorage(t *testing.T) {
	x, y := halide.NewVar("x"), halide.NewVar("y")
	// g(x, y) = in(x, y) * 2 read at rows y-1, y, y+1 by f.
	chain := func() (*halide.Func, *halide.Func) {
		in := halide.NewImageParam("in", halide.Float32, 2)
		g := halide.NewFunc("g")
		g.Define(x, y).Is(in.At(x, y).Mul(2))
		f := halide.NewFunc("f")
		f.Define(x, y).Is(g.At(x, y.Sub(1)).Add(g.At(x, y)).Add(g.At(x, y.Add(1))))
		return f, g
	}
	lower := func(f *halide.Func) error {
		_, err := halide.NewPipeline(f).Lower()
		return err
	}
	runCases(t, []errCase{
		{
			name: "window of 3 rows folded by 2",
			run: func() error {
				f, g := chain()
				g.StoreRoot().ComputeAt(f, y).FoldStorage(y, 2)
				return lower(f)
			},
			code:      halide.ErrSchedule,
			fn:        "g",
			directive: "fold_storage",
			mentions:  []string{"folding the storage of g in y by 2 is not safe", "reads and writes 3 values of it along y"},
			legal:     []string{"fold by at least 3"},
		},
		{
			name: "computed at the root: no loop holds the window",
			run: func() error {
				f, g := chain()
				g.ComputeRoot().FoldStorage(y, 4)
				return lower(f)
			},
			code:      halide.ErrSchedule,
			fn:        "g",
			directive: "fold_storage",
			mentions:  []string{"folding the storage of g in y by 4 is not safe", "no loop inside its storage holds every access of it"},
			legal:     []string{"StoreAt outside the loop, ComputeAt in it"},
		},
		{
			name: "a window that moves backward",
			run: func() error {
				in := halide.NewImageParam("in", halide.Float32, 2)
				g := halide.NewFunc("g")
				g.Define(x, y).Is(in.At(x, y))
				f := halide.NewFunc("f")
				f.Define(x, y).Is(g.At(x, halide.E(0).Sub(y)))
				g.StoreRoot().ComputeAt(f, y).FoldStorage(y, 4)
				return lower(f)
			},
			code:      halide.ErrSchedule,
			fn:        "g",
			directive: "fold_storage",
			mentions:  []string{"does not move forward"},
		},
		{
			name:      "an unknown var",
			run:       func() error { f, g := chain(); g.FoldStorage(halide.NewVar("z"), 4); return lower(f) },
			code:      halide.ErrUnknownVar,
			fn:        "g",
			directive: "fold_storage",
			mentions:  []string{"g has no pure var z"},
			legal:     []string{"x, y"},
		},
		{
			name:      "an extent of 0",
			run:       func() error { f, g := chain(); g.FoldStorage(y, 0); return lower(f) },
			code:      halide.ErrBadArgument,
			fn:        "g",
			directive: "fold_storage",
			legal:     []string{"at least 1"},
		},
		{
			// local_laplacian's output pyramid: level 2 read through two
			// upsamples, rows [((y+1)/2 + 1)/2 ... ] at output row y, a
			// window of at most 3 rows ((y+3)/4 - (y+1)/4 + 2), which
			// fold_storage(y, 4) of Halide's CPU schedule fits.
			name: "two nested upsamples folded by 2",
			run: func() error {
				f, g := upsampled2(x, y)
				g.StoreRoot().ComputeAt(f, y).FoldStorage(y, 2)
				return lower(f)
			},
			code:      halide.ErrSchedule,
			fn:        "g",
			directive: "fold_storage",
			mentions:  []string{"folding the storage of g in y by 2 is not safe", "reads and writes 3 values of it along y"},
			legal:     []string{"fold by at least 3"},
		},
	})
	f, g := upsampled2(x, y)
	g.StoreRoot().ComputeAt(f, y).FoldStorage(y, 4)
	if err := lower(f); err != nil {
		t.Errorf("two nested upsamples folded by 4: %v", err)
	}
}

// upsampled2 is f = up(up(g)) with up(h)(x, y) = h(x, (y+1)/2) + h(x,
// (y-1)/2), h inline (the upsample of local_laplacian along y).
func upsampled2(x, y halide.Var) (*halide.Func, *halide.Func) {
	in := halide.NewImageParam("in", halide.Float32, 2)
	g := halide.NewFunc("g")
	g.Define(x, y).Is(in.At(x, y).Mul(2))
	h := halide.NewFunc("h")
	h.Define(x, y).Is(g.At(x, y.Add(1).Div(2)).Add(g.At(x, y.Sub(1).Div(2))))
	f := halide.NewFunc("f")
	f.Define(x, y).Is(h.At(x, y.Add(1).Div(2)).Add(h.At(x, y.Sub(1).Div(2))))
	return f, g
}
