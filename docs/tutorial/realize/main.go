// Step 1: define a pipeline and realize it on the CPU.
package main

import (
	"fmt"

	"github.com/gohalide/gohalide/halide"
)

// algorithm defines a 3x3 box blur of an input with repeated edges. It
// returns the output Func, the Funcs and the input a schedule refers to.
func algorithm() (out, blur, padded *halide.Func, in *halide.ImageParam, x, y halide.Var) {
	x, y = halide.NewVar("x"), halide.NewVar("y")
	in = halide.NewImageParam("in", halide.Float32, 2)

	// Boundary condition: outside its buffer, in repeats its edge values.
	padded = halide.RepeatEdge(in)

	// A reduction over a 3x3 RDom: blur starts at 0, and its update adds
	// the 9 neighbours of (x, y).
	r := halide.NewRDom("r", halide.Range(-1, 3), halide.Range(-1, 3))
	blur = halide.NewFunc("blur")
	blur.Define(x, y).Is(float32(0))
	blur.Define(x, y).PlusEq(padded.At(x.Add(r.X()), y.Add(r.Y())))

	out = halide.NewFunc("out")
	out.Define(x, y).Is(blur.At(x, y).Div(float32(9)))
	return
}

func main() {
	out, _, _, in, _, _ := algorithm()

	// An 8x6 input whose value is x + 10*y.
	input := halide.NewBuffer[float32](8, 6)
	input.Fill(func(c []int) float32 { return float32(c[0] + 10*c[1]) })
	in.Set(input)

	// The output buffer's shape says which region to compute.
	result := halide.NewBuffer[float32](8, 6)
	if err := halide.NewPipeline(out).Realize(result); err != nil {
		fmt.Println(err)
		return
	}
	for y := 0; y < 6; y++ {
		for x := 0; x < 8; x++ {
			fmt.Printf("%6.2f", result.Get(x, y))
		}
		fmt.Println()
	}

	// Sum is the same reduction written inline: it makes an anonymous Func.
	x, y := halide.NewVar("x"), halide.NewVar("y")
	r := halide.NewRDom("r", halide.Range(-1, 3), halide.Range(-1, 3))
	padded := halide.RepeatEdge(in)
	out2 := halide.NewFunc("out2")
	out2.Define(x, y).Is(halide.Sum(padded.At(x.Add(r.X()), y.Add(r.Y()))).Div(float32(9)))
	result2 := halide.NewBuffer[float32](8, 6)
	if err := halide.NewPipeline(out2).Realize(result2); err != nil {
		fmt.Println(err)
		return
	}
	same := true
	for i, v := range result.Data() {
		if result2.Data()[i] != v {
			same = false
		}
	}
	fmt.Println("Sum gives the same result:", same)
}
