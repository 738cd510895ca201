// Package boxblur is the pipeline of the tutorial (docs/tutorial.md): a
// 3x3 box blur of an input with repeated edges. Step 1 defines it and
// realizes it; the programs of steps 2 to 7 import it and schedule it.
package boxblur

import "github.com/gohalide/gohalide/halide"

// Algorithm defines the blur. It returns the output Func, the Funcs and
// the input a schedule refers to, and the Vars of their definitions. Each
// call makes a new pipeline, with no schedule yet.
func Algorithm() (out, blur, padded *halide.Func, in *halide.ImageParam, x, y halide.Var) {
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

// Input returns a w x h input whose value at (x, y) is x + 10*y.
func Input(w, h int) *halide.Buffer[float32] {
	input := halide.NewBuffer[float32](w, h)
	input.Fill(func(c []int) float32 { return float32(c[0] + 10*c[1]) })
	return input
}

// Realize sets the input in of p to Input(w, h) and computes p over
// w x h. It returns the input and the output.
func Realize(p *halide.Pipeline, in *halide.ImageParam, w, h int) (input, result *halide.Buffer[float32], err error) {
	input = Input(w, h)
	in.Set(input)
	// The output buffer's shape says which region to compute.
	result = halide.NewBuffer[float32](w, h)
	return input, result, p.Realize(result)
}
