package errors_test

import (
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// TestErrStorageSize checks align_storage and bound_storage: a bound
// smaller than the region (at Lower when the region's size is a constant,
// at run time otherwise), a bound inside a kernel on a region of no
// constant size, a dimension also folded, unknown vars, sizes below 1.
func TestErrStorageSize(t *testing.T) {
	x, y := halide.NewVar("x"), halide.NewVar("y")
	// g(x, y) = in(x, y) * 2 read at rows y-1, y, y+1 by f.
	chain := func() (*halide.Func, *halide.Func, *halide.ImageParam) {
		in := halide.NewImageParam("in", halide.Float32, 2)
		g := halide.NewFunc("g")
		g.Define(x, y).Is(in.At(x, y).Mul(2))
		f := halide.NewFunc("f")
		f.Define(x, y).Is(g.At(x, y.Sub(1)).Add(g.At(x, y)).Add(g.At(x, y.Add(1))))
		return f, g, in
	}
	lower := func(f *halide.Func) error {
		_, err := halide.NewPipeline(f).Lower()
		return err
	}
	runCases(t, []errCase{
		{
			name: "a bound below a constant region",
			run: func() error {
				f, g, _ := chain()
				g.ComputeAt(f, y).BoundStorage(y, 2)
				return lower(f)
			},
			code:      halide.ErrSchedule,
			fn:        "g",
			directive: "bound_storage",
			mentions:  []string{"bound_storage of g in y is 2, but a realization of g needs 3 elements in y"},
			legal:     []string{"a bound of at least 3"},
		},
		{
			name: "a bound below a region known at run time",
			run: func() error {
				f, g, in := chain()
				g.ComputeRoot().BoundStorage(x, 8)
				b := halide.NewBuffer[float32](12, 5)
				b.Fill(func(c []int) float32 { return float32(c[0] - c[1]) })
				in.Set(b)
				return halide.NewPipeline(f).Realize(halide.NewBuffer[float32](12, 3).SetMin(0, 1))
			},
			code:      halide.ErrSchedule,
			fn:        "g",
			directive: "bound_storage",
			mentions:  []string{"bound_storage of g in x is 8, but a realization of g needs 12 elements in x"},
			legal:     []string{"a larger bound_storage"},
		},
		{
			name: "a bound inside a kernel on a region of no constant size",
			run: func() error {
				f, g, _ := chain()
				bx, tx := halide.NewVar("bx"), halide.NewVar("tx")
				f.GPUTile1D(y, bx, tx, 8)
				g.ComputeAt(f, bx).StoreIn(halide.GPUShared).BoundStorage(x, 64)
				return lower(f)
			},
			code:      halide.ErrSchedule,
			fn:        "g",
			directive: "bound_storage",
			mentions:  []string{"inside a GPU kernel", "has no constant bound of at most 64"},
			legal:     []string{"Bound g's region in x"},
		},
		{
			name: "a folded dimension",
			run: func() error {
				f, g, _ := chain()
				g.StoreRoot().ComputeAt(f, y).FoldStorage(y, 4).AlignStorage(y, 8)
				return lower(f)
			},
			code:      halide.ErrSchedule,
			fn:        "g",
			directive: "align_storage",
			mentions:  []string{"fold_storage folds the storage of g in y to 4, and align_storage sizes it too"},
			legal:     []string{"one of fold_storage and align_storage / bound_storage per dimension"},
		},
		{
			name:      "an unknown var",
			run:       func() error { f, g, _ := chain(); g.AlignStorage(halide.NewVar("z"), 4); return lower(f) },
			code:      halide.ErrUnknownVar,
			fn:        "g",
			directive: "align_storage",
			mentions:  []string{"g has no pure var z"},
			legal:     []string{"x, y"},
		},
		{
			name:      "a bound of 0",
			run:       func() error { f, g, _ := chain(); g.BoundStorage(x, 0); return lower(f) },
			code:      halide.ErrBadArgument,
			fn:        "g",
			directive: "bound_storage",
			mentions:  []string{"bound_storage of g in x by 0"},
			legal:     []string{"a size of at least 1"},
		},
	})
}
