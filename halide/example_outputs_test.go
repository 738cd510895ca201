package halide_test

import (
	"fmt"

	"github.com/gohalide/gohalide/halide"
)

// A pipeline with two outputs (Halide's Pipeline({f, g})): sum is read by
// mean, so it is computed first, into its own buffer, and mean reads that
// buffer. RealizeTuple takes one buffer per output (per value of a Tuple
// output), in the order NewPipeline got them.
func ExampleNewPipeline_severalOutputs() {
	in := halide.NewBuffer[float32](4, 3)
	in.Fill(func(c []int) float32 { return float32(c[0] + 10*c[1]) })
	y := halide.NewVar("y")
	r := halide.NewRDom("r", halide.Range(0, 4))
	sum, mean := halide.NewFunc("sum"), halide.NewFunc("mean")
	sum.Define(y).Is(float32(0))
	sum.Define(y).PlusEq(in.At(r, y))
	mean.Define(y).Is(sum.At(y).Div(float32(4)))

	p := halide.NewPipeline(mean, sum)
	nest, err := p.LoopNest()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(nest)
	means, sums := halide.NewBuffer[float32](3), halide.NewBuffer[float32](3)
	if err := p.RealizeTuple(means, sums); err != nil {
		fmt.Println(err)
		return
	}
	for i := 0; i < 3; i++ {
		fmt.Printf("row %d: sum %g, mean %g\n", i, sums.Get(i), means.Get(i))
	}
	// Output:
	// // output sum
	// produce sum:
	//   for y:
	//     sum(...) = ...
	//   for y:
	//     for r$x in [0, 3]:
	//       sum(...) = ...
	//
	// // output mean
	// produce mean:
	//   for y:
	//     mean(...) = ...
	// row 0: sum 6, mean 1.5
	// row 1: sum 46, mean 11.5
	// row 2: sum 86, mean 21.5
}
