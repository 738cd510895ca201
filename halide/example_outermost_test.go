package halide_test

import (
	"fmt"
	"strings"

	"github.com/gohalide/gohalide/halide"
)

// ExampleOutermost hoists the storage of f, computed at each x of g, to
// g's Outermost() level: one allocation around g's loop nest, made once
// per realization of g (g is computed at each row y of h), sized for the
// largest region of f any iteration needs.
func ExampleOutermost() {
	x, y := halide.NewVar("x"), halide.NewVar("y")
	f, g, h := halide.NewFunc("f"), halide.NewFunc("g"), halide.NewFunc("h")
	f.Define(x, y).Is(x.Add(y))
	g.Define(x, y).Is(f.At(x.Sub(1), y).Add(f.At(x.Add(1), y)))
	h.Define(x, y).Is(g.At(x, y))
	f.ComputeAt(g, x).HoistStorage(g, halide.Outermost())
	g.ComputeAt(h, y)

	out := halide.NewBuffer[int32](6, 3)
	p := halide.NewPipeline(h)
	if err := p.Realize(out); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(out.Get(0, 0), out.Get(5, 2))
	l, err := p.Lower()
	if err != nil {
		fmt.Println(err)
		return
	}
	// The allocation of f lies inside the production of g (in h's loop
	// y), outside g's loop x.
	s := l.String()
	fmt.Println(strings.Index(s, "produce g") < strings.Index(s, "allocate f["),
		strings.Index(s, "allocate f[") < strings.Index(s, "for (g.s0.x"))
	// Output:
	// 0 14
	// true true
}
