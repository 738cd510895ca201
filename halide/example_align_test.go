package halide_test

import (
	"fmt"

	"github.com/gohalide/gohalide/halide"
)

// alignRegions realizes f over [0, 16) and prints, for each production of
// g (read from a trace of the stores), the region of g it computes.
func alignRegions(f, g *halide.Func) {
	f.TraceStores()
	g.TraceStores()
	var events []halide.TraceEvent
	p := halide.NewPipeline(f).WithOptions(halide.Options{Trace: func(e halide.TraceEvent) {
		events = append(events, halide.TraceEvent{Func: e.Func, Coords: append([]int(nil), e.Coords...)})
	}})
	l, err := p.Lower()
	if err != nil {
		fmt.Println(err)
		return
	}
	printLines(l.String(), "allocate g")
	if err := p.Realize(halide.NewBuffer[int32](16)); err != nil {
		fmt.Println(err)
		return
	}
	for _, pr := range productions(events) {
		lo, hi, _ := region(pr.g, 1)
		flo, fhi, _ := region(pr.f, 1)
		fmt.Printf("f over [%d, %d] reads g over [%d, %d]; g computes [%d, %d]\n", flo, fhi, flo-1, fhi+2, lo, hi)
	}
}

// ExampleFunc_AlignBounds computes g at each tile of 8 points of f, which
// reads g(x - 1) and g(x + 2): 11 points from an odd x. AlignBounds(x, 4,
// 0) makes each production of g start at a multiple of 4 and compute a
// multiple of 4 points (16, whatever the tile: the allocation has that
// constant size).
func ExampleFunc_AlignBounds() {
	x, xo, xi := halide.NewVar("x"), halide.NewVar("xo"), halide.NewVar("xi")
	in := halide.NewBuffer[int32](16)
	g := halide.NewFunc("g")
	g.Define(x).Is(halide.RepeatEdge(in).At(x).Mul(3))
	f := halide.NewFunc("f")
	f.Define(x).Is(g.At(x.Sub(1)).Add(g.At(x.Add(2))))
	f.Split(x, xo, xi, 8)
	g.ComputeAt(f, xo).AlignBounds(x, 4, 0)
	alignRegions(f, g)
	// Output:
	// allocate g[int32 * 16] in Stack
	// f over [0, 7] reads g over [-1, 9]; g computes [-4, 11]
	// f over [8, 15] reads g over [7, 17]; g computes [4, 19]
}

// ExampleFunc_AlignExtent computes g as in ExampleFunc_AlignBounds, over a
// multiple of 4 points that starts where the tile's need does.
func ExampleFunc_AlignExtent() {
	x, xo, xi := halide.NewVar("x"), halide.NewVar("xo"), halide.NewVar("xi")
	in := halide.NewBuffer[int32](16)
	g := halide.NewFunc("g")
	g.Define(x).Is(halide.RepeatEdge(in).At(x).Mul(3))
	f := halide.NewFunc("f")
	f.Define(x).Is(g.At(x.Sub(1)).Add(g.At(x.Add(2))))
	f.Split(x, xo, xi, 8)
	g.ComputeAt(f, xo).AlignExtent(x, 4)
	alignRegions(f, g)
	// Output:
	// allocate g[int32 * 12] in Stack
	// f over [0, 7] reads g over [-1, 9]; g computes [-1, 10]
	// f over [8, 15] reads g over [7, 17]; g computes [7, 18]
}
