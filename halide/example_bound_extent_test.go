package halide_test

import (
	"fmt"
	"strings"

	"github.com/gohalide/gohalide/halide"
)

// ExampleFunc_BoundExtent computes f at each tile of 4 points of g, where
// f's region starts wherever the tile does: BoundExtent(x, 6) fixes its
// extent (the tile and the stencil's two neighbours) but not its min, so
// f's loop over x has a constant extent and can be unrolled, and its
// allocation is 6 elements.
func ExampleFunc_BoundExtent() {
	x, xo, xi := halide.NewVar("x"), halide.NewVar("xo"), halide.NewVar("xi")
	f, g := halide.NewFunc("f"), halide.NewFunc("g")
	f.Define(x).Is(x.Mul(x))
	g.Define(x).Is(f.At(x.Sub(1)).Add(f.At(x)).Add(f.At(x.Add(1))))
	g.Split(x, xo, xi, 4)
	f.ComputeAt(g, xo).BoundExtent(x, 6).Unroll(x)

	out := halide.NewBuffer[int32](8)
	p := halide.NewPipeline(g)
	if err := p.Realize(out); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(out.Data())
	l, err := p.Lower()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(strings.Contains(l.String(), "allocate f[int32 * 6]"))

	// An extent smaller than what g reads is refused when it runs.
	f.BoundExtent(x, 5)
	fmt.Println(halide.NewPipeline(g).Realize(halide.NewBuffer[int32](8)) != nil)
	// Output:
	// [2 5 14 29 50 77 110 149]
	// true
	// true
}
