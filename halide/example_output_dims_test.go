package halide_test

import (
	"fmt"

	"github.com/gohalide/gohalide/halide"
)

// The output buffer's shape as Exprs: here the algorithm numbers the pixels
// in the order of the output's rows, and the schedule promises an even
// width (camera_pipe's processed.bound(x, 0, (processed.width() / 2) * 2)),
// which Realize checks.
func ExampleFunc_Dim() {
	x, y := halide.NewVar("x"), halide.NewVar("y")
	f := halide.NewFunc("f")
	f.Define(x, y).Is(x.Add(y.Mul(f.Width())))
	f.Bound(x, 0, f.Width().Div(2).Mul(2))
	p := halide.NewPipeline(f)
	out := halide.NewBuffer[int32](4, 2)
	if err := p.Realize(out); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(out.Data())
	// An odd width breaks the promise.
	fmt.Println(p.Realize(halide.NewBuffer[int32](5, 2)))
	// Output:
	// [0 1 2 3 4 5 6 7]
	// runtime: Func f: Realize: assertion failed: f is bounded to min 0, extent ((f.extent.0 / 2) * 2) in x, but the output buffer's min and extent are 0 5
}
