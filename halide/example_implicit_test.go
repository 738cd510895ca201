package halide_test

import (
	"fmt"

	"github.com/gohalide/gohalide/halide"
)

// ExampleImplicit writes a downsampling helper once, as Halide's apps do
// with _, and applies it to a two- and a three-dimensional Func: Implicit
// stands for the dimensions after x, whatever their number, as the
// implicit Vars _0, _1, ... (ImplicitVar(i) names them for a schedule).
func ExampleImplicit() {
	x, y := halide.NewVar("x"), halide.NewVar("y")
	downsample := func(f *halide.Func) *halide.Func {
		d := halide.NewFunc(f.Name() + "_down")
		d.Define(x, halide.Implicit).Is(f.At(x.Mul(2), halide.Implicit).Add(f.At(x.Mul(2).Add(1), halide.Implicit)).Div(2))
		return d
	}
	in := halide.NewBuffer[float32](8, 3, 2)
	in.Fill(func(p []int) float32 { return float32(p[0] + 10*p[1] + 100*p[2]) })
	rgb := halide.NewFunc("rgb") // rgb(x, _0, _1) = in(x, _0, _1)
	rgb.Define(x, halide.Implicit).Is(in.At(x, halide.Implicit))
	gray := halide.NewFunc("gray")
	gray.Define(x, y).Is(in.At(x, y, 0))

	small := downsample(rgb) // three dimensions
	small.Parallel(halide.ImplicitVar(1))
	nest, err := halide.NewPipeline(small).LoopNest()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(nest)
	out := halide.NewBuffer[float32](4, 3, 2)
	if err := small.Realize(out); err != nil {
		fmt.Println(err)
		return
	}
	out2 := halide.NewBuffer[float32](4, 3)
	if err := downsample(gray).Realize(out2); err != nil { // two
		fmt.Println(err)
		return
	}
	fmt.Println(out.Get(1, 2, 1), out2.Get(3, 1))
	// Output:
	// produce rgb_down:
	//   parallel _1:
	//     for _0:
	//       for x:
	//         rgb_down(...) = ...
	// 122.5 16.5
}
