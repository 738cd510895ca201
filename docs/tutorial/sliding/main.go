// Step 8 of docs/tutorial.md: a sliding window and folded storage.
package main

import (
	"fmt"
	"log"

	"github.com/gohalide/gohalide/docs/tutorial/boxblur"
	"github.com/gohalide/gohalide/halide"
)

func main() {
	x, y := halide.NewVar("x"), halide.NewVar("y")
	in := halide.NewImageParam("in", halide.Float32, 2)
	padded := halide.RepeatEdge(in)

	// A separable 3x3 box blur: a horizontal pass, then a vertical one.
	blurX := halide.NewFunc("blur_x")
	blurX.Define(x, y).Is(padded.At(x.Sub(1), y).Add(padded.At(x, y)).Add(padded.At(x.Add(1), y)).Div(3))
	blurY := halide.NewFunc("blur_y")
	blurY.Define(x, y).Is(blurX.At(x, y.Sub(1)).Add(blurX.At(x, y)).Add(blurX.At(x, y.Add(1))).Div(3))

	// blur_x is stored once for the whole image and computed row by row
	// of blur_y: each row of blur_y needs three rows of blur_x, two of
	// which the row before already computed. The library computes only
	// the new row (a sliding window) and keeps 4 rows of storage (the 3
	// rows a row reads, folded to a power of two).
	blurX.StoreRoot().ComputeAt(blurY, y).TraceStores()

	stores := 0
	p := halide.NewPipeline(blurY).WithOptions(halide.Options{Trace: func(halide.TraceEvent) { stores++ }})
	l, err := p.Lower()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(l)

	// Realized over 6x5, on step 1's input (x + 10*y).
	_, out, err := boxblur.Realize(p, in, 6, 5)
	if err != nil {
		log.Fatal(err)
	}
	// blur_x is needed over 7 rows (one above and one below the image)
	// of 6 columns: 42 points, each computed once.
	fmt.Printf("\nstores to blur_x: %d\nblur_y(2, 2) = %.2f\n", stores, out.Get(2, 2))
}
