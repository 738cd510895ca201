// Step 2: schedule the pipeline on the CPU and look at what it does.
package main

import (
	"fmt"
	"log"

	"github.com/gohalide/gohalide/docs/tutorial/boxblur"
	"github.com/gohalide/gohalide/halide"
)

func main() {
	out, blur, _, in, x, y := boxblur.Algorithm()

	// With no schedule, padded is inlined into blur, and blur (a Func
	// with an update cannot be inlined) is computed at the innermost loop
	// of its consumer.
	nest, err := halide.NewPipeline(out).LoopNest()
	if err != nil {
		log.Fatal(err)
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
		log.Fatal(err)
	}
	fmt.Print("\ntiled schedule:\n", nest)

	// The schedule does not change the result.
	_, result, err := boxblur.Realize(p, in, 8, 6)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("\nout(0, 0) = %.2f, out(7, 5) = %.2f\n", result.Get(0, 0), result.Get(7, 5))

	l, err := p.Lower()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print("\nlowered:\n", l)
}
