package halide_test

import (
	"fmt"

	"github.com/gohalide/gohalide/halide"
)

// An update's pure Var may appear in several arguments (Halide's rules):
// with g(x, y) pure, g(x, x) = ... is pure in x alone (position 0 holds
// x bare) and writes the diagonal, and g(y, y) = ... is pure in y alone.
// Each update loops over its pure Var only; f1, read by the update over
// y, is computed at that update's loop y (ComputeAt names the loop of the
// stage that reads the Func, g's last stage having no loop y).
func ExampleFunc_Define_diagonal() {
	x, y := halide.NewVar("x"), halide.NewVar("y")
	f0, f1, g := halide.NewFunc("f0"), halide.NewFunc("f1"), halide.NewFunc("g")
	f0.Define(x, y).Is(x.Add(y))
	f1.Define(x, y).Is(x.Mul(y))
	g.Define(x, y).Is(0)
	g.Define(x, x).Is(g.At(x, x.Sub(1)).Add(f0.At(x, x)))
	g.Define(y, y).Is(g.At(y.Add(1), y).Add(g.At(y, y)).Add(f1.At(y, y)))
	g.Define(x, x.Add(1)).Is(g.At(x, x).Add(1))
	f0.ComputeAt(g, x)
	f1.ComputeAt(g, y)
	// Read through h: the updates write past h's region (the diagonal of
	// g's region in x, then in y), which g's storage covers.
	h := halide.NewFunc("h")
	h.Define(x, y).Is(g.At(x, y))
	g.ComputeRoot()
	s, err := halide.NewPipeline(h).LoopNest()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(s)
	out := halide.NewBuffer[int32](4, 5)
	if err := h.Realize(out); err != nil {
		fmt.Println(err)
		return
	}
	for j := 0; j < 5; j++ {
		for i := 0; i < 4; i++ {
			fmt.Printf("%3d", out.Get(i, j))
		}
		fmt.Println()
	}
	// Output:
	// produce g:
	//   for y:
	//     for x:
	//       g(...) = ...
	//   for x:
	//     produce f0:
	//       for y:
	//         for x:
	//           f0(...) = ...
	//     consume f0:
	//       g(...) = ...
	//   for y:
	//     produce f1:
	//       for y:
	//         for x:
	//           f1(...) = ...
	//     consume f1:
	//       g(...) = ...
	//   for x:
	//     g(...) = ...
	// consume g:
	//   produce h:
	//     for y:
	//       for x:
	//         h(...) = ...
	//   0  0  0  0
	//   1  3  0  0
	//   0  4  8  0
	//   0  0  9 15
	//   0  0  0 16
}
