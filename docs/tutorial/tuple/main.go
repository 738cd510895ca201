// Step 9 of docs/tutorial.md: Tuples, the brightest pixel of each row.
package main

import (
	"fmt"
	"log"
	"os"

	"github.com/gohalide/gohalide/halide"
)

func main() {
	const w, h = 37, 6
	x, y := halide.NewVar("x"), halide.NewVar("y")
	in := halide.NewImageParam("in", halide.Float32, 2)

	// brightest(y) is a Tuple: the column of row y's largest value, and
	// the value. The update computes both new values from the old ones
	// before it stores either; a strict > keeps the first column of a tie.
	r := halide.NewRDom("r", halide.Range(0, in.Dim(0).Extent()))
	brightest := halide.NewFunc("brightest")
	brightest.Define(y).Is(halide.NewTuple(int32(0), in.At(0, y)))
	old := brightest.AtTuple(y)
	better := in.At(r, y).Gt(old.Elem(1))
	brightest.Define(y).Is(halide.NewTuple(
		halide.Select(better, r, old.Elem(0)),
		halide.Select(better, in.At(r, y), old.Elem(1))))

	// Each pixel divided by its row's largest value: a consumer that
	// calls one element of the Tuple.
	norm := halide.NewFunc("norm")
	norm.Define(x, y).Is(in.At(x, y).Div(brightest.AtTuple(y).Elem(1)))

	// On the GPU: tiles of 16 x 2 pixels, one thread each; each block
	// computes the argmax of its two rows once, in shared memory, with
	// one thread per row.
	bx, by, tx, ty := halide.NewVar("bx"), halide.NewVar("by"), halide.NewVar("tx"), halide.NewVar("ty")
	norm.GPUTile(x, y, bx, by, tx, ty, 16, 2)
	brightest.ComputeAt(norm, bx).StoreIn(halide.GPUShared).GPUThreads(y)
	brightest.Update(0).GPUThreads(y)

	p := halide.NewPipeline(norm)
	nest, err := p.LoopNest()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(nest)
	report, err := p.Report()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println()
	if err := halide.WriteTable(os.Stdout, report); err != nil {
		log.Fatal(err)
	}

	// Random-looking positive pixels; the pipeline's output against a
	// plain Go loop over the same image.
	input := halide.NewBuffer[float32](w, h)
	input.Fill(func(c []int) float32 { return float32((c[0]*c[0]*7+c[0]*c[1]*5+c[1]*13)%97 + 1) })
	in.Set(input)
	out := halide.NewBuffer[float32](w, h)
	if err := p.Realize(out); err != nil {
		log.Fatal(err)
	}
	fmt.Println()
	worst := 0.0
	for j := 0; j < h; j++ {
		col, max := 0, input.Get(0, j)
		for i := 1; i < w; i++ {
			if v := input.Get(i, j); v > max {
				col, max = i, v
			}
		}
		for i := 0; i < w; i++ {
			d := float64(out.Get(i, j) - input.Get(i, j)/max)
			worst = float64Max(worst, d, -d)
		}
		fmt.Printf("row %d: brightest at x = %d (%g); norm there = %g\n", j, col, max, out.Get(col, j))
	}
	fmt.Printf("largest difference from plain Go: %g\n", worst)
}

func float64Max(a ...float64) float64 {
	m := a[0]
	for _, v := range a[1:] {
		if v > m {
			m = v
		}
	}
	return m
}
