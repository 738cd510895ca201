// Step 3: a GPU schedule with a wrapper staged in shared memory, run on the
// GPU emulator.
package main

import (
	"fmt"
	"os"
	"strings"

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

	// One 8x8 block of threads per 8x8 tile of out, one thread per point.
	bx, by, tx, ty := halide.NewVar("bx"), halide.NewVar("by"), halide.NewVar("tx"), halide.NewVar("ty")
	out.GPUTile(x, y, bx, by, tx, ty, 8, 8)
	// Each thread accumulates its blur point in a register.
	blur.ComputeAt(out, tx)
	// blur reads padded through a wrapper, computed once per block (at the
	// block loop bx) and stored in shared memory.
	padded.In(blur).ComputeAt(out, bx).StoreIn(halide.GPUShared)

	p := halide.NewPipeline(out)
	nest, err := p.LoopNest()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(nest)

	// Realize on the GPU emulator (the default target): a 20x12 output is
	// 3x2 tiles, the last ones shifted inwards.
	input := halide.NewBuffer[float32](20, 12)
	input.Fill(func(c []int) float32 { return float32(c[0] + 10*c[1]) })
	in.Set(input)
	result := halide.NewBuffer[float32](20, 12)
	if err := p.Realize(result); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("\nout(0, 0) = %.2f, out(19, 11) = %.2f\n\n", result.Get(0, 0), result.Get(19, 11))

	// The kernel report: grid and block, allocations, barriers.
	r, err := p.Report()
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := halide.WriteTable(os.Stdout, r); err != nil {
		fmt.Println(err)
	}

	// The lowered statement: the kernel and its launch.
	l, err := p.Lower()
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, k := range l.Kernels() {
		fmt.Printf("\n%s: %d barrier(s), %d allocation(s)\n", k.Name, k.Barriers, len(k.Allocs))
	}
	text := l.String()
	fmt.Print("\n", text[strings.Index(text, "produce out {"):])
}
