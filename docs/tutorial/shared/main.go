// Step 4: the wrapper computed inside the thread loops, still one copy per
// block in shared memory.
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

// reference is the blur in plain Go.
func reference(in *halide.Buffer[float32], x, y int) float32 {
	w, h := in.Dim(0).Extent, in.Dim(1).Extent
	var sum float32
	for j := -1; j <= 1; j++ {
		for i := -1; i <= 1; i++ {
			sum += in.Get(min(max(x+i, 0), w-1), min(max(y+j, 0), h-1))
		}
	}
	return sum / 9
}

func run(serialRows bool) {
	out, blur, padded, in, x, y := algorithm()
	bx, by, tx, ty := halide.NewVar("bx"), halide.NewVar("by"), halide.NewVar("tx"), halide.NewVar("ty")
	if !serialRows {
		// The wrapper at the thread loop tx: each thread needs a 3x3
		// window; the one shared copy is the union of the 64 windows.
		out.GPUTile(x, y, bx, by, tx, ty, 8, 8)
		blur.ComputeAt(out, tx)
		padded.In(blur).ComputeAt(out, tx).StoreIn(halide.GPUShared)
	} else {
		// 8x4 threads, each computing 2 rows of its tile in a serial loop
		// yi inside the thread loops; the wrapper is computed at yi.
		yi := halide.NewVar("yi")
		out.GPUTile(x, y, bx, by, tx, ty, 8, 8).Split(ty, ty, yi, 2).Reorder(yi, tx, ty, bx, by)
		blur.ComputeAt(out, yi)
		padded.In(blur).ComputeAt(out, yi).StoreIn(halide.GPUShared)
	}

	p := halide.NewPipeline(out)
	nest, err := p.LoopNest()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(nest, "\n")

	input := halide.NewBuffer[float32](20, 12)
	input.Fill(func(c []int) float32 { return float32(c[0] + 10*c[1]) })
	in.Set(input)
	result := halide.NewBuffer[float32](20, 12)
	if err := p.Realize(result); err != nil {
		fmt.Println(err)
		return
	}
	ok := true
	for y := 0; y < 12; y++ {
		for x := 0; x < 20; x++ {
			if d := result.Get(x, y) - reference(input, x, y); d > 1e-4 || d < -1e-4 {
				ok = false
			}
		}
	}
	fmt.Println("matches the plain-Go reference:", ok)
	fmt.Println()

	r, err := p.Report()
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := halide.WriteTable(os.Stdout, r); err != nil {
		fmt.Println(err)
	}
	l, err := p.Lower()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println()
	for _, line := range strings.Split(l.String(), "\n") {
		if strings.Contains(line, "allocate") || strings.Contains(line, "gpu_thread_barrier") || strings.Contains(line, "//") {
			fmt.Println(strings.TrimSpace(line))
		}
	}
}

func main() {
	fmt.Println("== at tx ==")
	run(false)
	fmt.Println("\n== at yi, a serial loop inside the thread loops ==")
	run(true)
}
