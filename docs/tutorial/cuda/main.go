// Step 7: run the kernels on an NVIDIA GPU. Build it with the tag cuda:
//
//	go run -tags cuda .
package main

import (
	"fmt"
	"os"

	// The CUDA runtime: built with -tags cuda, it registers GPU 0 as the
	// device of halide.CUDA (without the tag it is empty).
	_ "github.com/gohalide/gohalide/cudart"
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
	out, blur, padded, in, x, y := algorithm()
	bx, by, tx, ty := halide.NewVar("bx"), halide.NewVar("by"), halide.NewVar("tx"), halide.NewVar("ty")
	out.GPUTile(x, y, bx, by, tx, ty, 16, 16)
	blur.ComputeAt(out, tx)
	padded.In(blur).ComputeAt(out, bx).StoreIn(halide.GPUShared)

	// The same pipeline, with its kernels on GPU 0.
	p := halide.NewPipeline(out).WithTarget(halide.CUDA)

	const W, H = 4096, 4096
	input := halide.NewBuffer[float32](W, H)
	input.Fill(func(c []int) float32 { return float32((c[0]*7 + c[1]*13) % 256) })
	in.Set(input)
	result := halide.NewBuffer[float32](W, H)
	if err := p.Realize(result); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("out(0, 0) = %.4f, out(%d, %d) = %.4f\n", result.Get(0, 0), W-1, H-1, result.Get(W-1, H-1))

	r, err := p.Report()
	if err != nil {
		fmt.Println(err)
		return
	}
	halide.WriteTable(os.Stdout, r)

	// The median of 100 runs, timed with CUDA events, buffers resident on
	// the device.
	t, err := p.Benchmark(result, 100)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s: median %.3f ms (min %.3f, max %.3f) over %d runs\n", t.Clock, t.MedianMs, t.MinMs, t.MaxMs, t.Runs)
}
