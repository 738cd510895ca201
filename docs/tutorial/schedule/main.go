// Step 2: schedule the pipeline on the CPU and look at what it does.
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
	out, blur, _, in, x, y := algorithm()

	// With no schedule, padded is inlined into blur, and blur (a Func
	// with an update cannot be inlined) is computed at the innermost loop
	// of its consumer.
	nest, err := halide.NewPipeline(out).LoopNest()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print("default schedule:\n", nest)

	// Tiles of 8x4 points, the rows of tiles in parallel; blur computed
	// per tile, with the x loop of its update split by 4.
	xo, yo, xi, yi := halide.NewVar("xo"), halide.NewVar("yo"), halide.NewVar("xi"), halide.NewVar("yi")
	bxo, bxi := halide.NewVar("bxo"), halide.NewVar("bxi")
	out.Tile(x, y, xo, yo, xi, yi, 8, 4).Parallel(yo)
	blur.ComputeAt(out, xo)
	blur.Update(0).Split(x, bxo, bxi, 4)

	p := halide.NewPipeline(out)
	nest, err = p.LoopNest()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print("\ntiled schedule:\n", nest)

	input := halide.NewBuffer[float32](8, 6)
	input.Fill(func(c []int) float32 { return float32(c[0] + 10*c[1]) })
	in.Set(input)
	result := halide.NewBuffer[float32](8, 6)
	if err := p.Realize(result); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("\nout(0, 0) = %.2f, out(7, 5) = %.2f\n", result.Get(0, 0), result.Get(7, 5))

	l, err := p.Lower()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print("\nlowered:\n", l)
}
