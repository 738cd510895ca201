package halide_test

import (
	"fmt"

	"github.com/gohalide/gohalide/halide"
)

// Example_readme is the pipeline of the README's "A small pipeline"
// section: the README shows this function's body, and TestReadmeSnippet
// checks that it is the same text.
func Example_readme() {
	x, y := halide.NewVar("x"), halide.NewVar("y")
	in := halide.NewImageParam("in", halide.Float32, 2)

	// The algorithm: a 3x1 blur of a zero-padded input.
	padded := halide.ConstantExterior(in, 0)
	blur := halide.NewFunc("blur")
	blur.Define(x, y).Is(padded.At(x.Sub(1), y).Add(padded.At(x, y)).Add(padded.At(x.Add(1), y)).Div(3))

	// The schedule: 8-wide strips, the inner loop unrolled, rows in parallel.
	xo, xi := halide.NewVar("xo"), halide.NewVar("xi")
	blur.Split(x, xo, xi, 8, halide.GuardWithIf).Unroll(xi).Parallel(y)

	p := halide.NewPipeline(blur)
	nest, err := p.LoopNest() // every mistake is a typed *halide.Error, never a panic
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(nest)

	input := halide.NewBuffer[float32](100, 50)
	input.Fill(func(c []int) float32 { return float32(c[0]) }) // in(x, y) = x
	in.Set(input)
	out := halide.NewBuffer[float32](100, 50)
	if err := p.Realize(out); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(out.Get(0, 0), out.Get(50, 0), out.Get(99, 49))
	// Output:
	// produce blur:
	//   parallel y:
	//     for x.xo:
	//       unrolled x.xi in [0, 7]:
	//         blur(...) = ...
	// 0.33333334 50 65.666664
}
