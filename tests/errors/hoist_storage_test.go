package errors_test

import (
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// TestErrHoistStorage checks the hoist_storage schedules Lower refuses:
// nothing to hoist (inline, or computed at the root), a hoist level
// inside the store level, and a hoist out of a loop whose iterations run
// at the same time (parallel, GPU threads). Each names the Func, the
// directive and what would be legal.
func TestErrHoistStorage(t *testing.T) {
	x, y := halide.NewVar("x"), halide.NewVar("y")
	xo, xi := halide.NewVar("xo"), halide.NewVar("xi")
	// g(x, y) = in(x, y) * 2, read at x-1 and x+1 by f.
	chain := func() (*halide.Func, *halide.Func) {
		in := halide.NewImageParam("in", halide.Float32, 2)
		g := halide.NewFunc("g")
		g.Define(x, y).Is(in.At(x, y).Mul(2))
		f := halide.NewFunc("f")
		f.Define(x, y).Is(g.At(x.Sub(1), y).Add(g.At(x.Add(1), y)))
		return f, g
	}
	lower := func(f *halide.Func) error {
		_, err := halide.NewPipeline(f).Lower()
		return err
	}
	runCases(t, []errCase{
		{
			name: "inline",
			run: func() error {
				f, g := chain()
				g.HoistStorage(f, y)
				return lower(f)
			},
			code:      halide.ErrComputeAt,
			fn:        "g",
			directive: "hoist_storage",
			mentions:  []string{"g is scheduled hoist_storage but is computed inline"},
			legal:     []string{"compute_at g at a loop inside the hoist level"},
		},
		{
			name: "computed at the root",
			run: func() error {
				f, g := chain()
				g.ComputeRoot().HoistStorage(f, y)
				return lower(f)
			},
			code:      halide.ErrComputeAt,
			fn:        "g",
			directive: "hoist_storage",
			mentions:  []string{"g is computed at the root"},
			legal:     []string{"hoist_storage_root"},
		},
		{
			name: "hoist level inside the store level",
			run: func() error {
				f, g := chain()
				f.Split(x, xo, xi, 8)
				g.ComputeAt(f, xi).StoreAt(f, y).HoistStorage(f, xo)
				return lower(f)
			},
			code:      halide.ErrSchedule,
			fn:        "g",
			directive: "hoist_storage",
			mentions:  []string{"g is stored outside loop xo", "the hoist level must enclose the store level"},
			legal:     []string{"hoist_storage at the store level of g or a serial loop outside it"},
		},
		{
			name: "out of a parallel loop",
			run: func() error {
				f, g := chain()
				f.Parallel(y)
				g.ComputeAt(f, y).HoistStorageRoot()
				return lower(f)
			},
			code:      halide.ErrSchedule,
			fn:        "g",
			directive: "hoist_storage",
			mentions:  []string{"moves it out of the parallel loop y", "would share one buffer"},
			legal:     []string{"hoist_storage at y or a loop inside it"},
		},
		{
			name: "out of a GPU thread loop",
			run: func() error {
				f, g := chain()
				f.GPUTile(x, y, xo, halide.NewVar("yo"), xi, halide.NewVar("yi"), 8, 8)
				g.ComputeAt(f, xi).HoistStorage(f, xo)
				p := halide.NewPipeline(f).WithTarget(halide.Emulator)
				_, err := p.Lower()
				return err
			},
			code:      halide.ErrSchedule,
			fn:        "g",
			directive: "hoist_storage",
			mentions:  []string{"moves it out of the", "would share one buffer"},
			legal:     []string{"or a loop inside it"},
		},
		{
			name: "no loop of that name",
			run: func() error {
				f, g := chain()
				g.ComputeAt(f, x).HoistStorage(f, xo)
				return lower(f)
			},
			code:      halide.ErrComputeAt,
			fn:        "g",
			directive: "hoist_storage",
			mentions:  []string{"has no loop xo"},
			legal:     []string{"the loops of f"},
		},
	})
}
