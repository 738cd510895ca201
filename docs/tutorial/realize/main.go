// Step 1: define a pipeline and realize it on the CPU.
package main

import (
	"fmt"
	"log"

	"github.com/gohalide/gohalide/docs/tutorial/boxblur"
	"github.com/gohalide/gohalide/halide"
)

func main() {
	out, _, _, in, _, _ := boxblur.Algorithm()

	// The blur of an 8x6 input, over 8x6.
	_, result, err := boxblur.Realize(halide.NewPipeline(out), in, 8, 6)
	if err != nil {
		log.Fatal(err)
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
	_, result2, err := boxblur.Realize(halide.NewPipeline(out2), in, 8, 6)
	if err != nil {
		log.Fatal(err)
	}
	same := true
	for i, v := range result.Data() {
		if result2.Data()[i] != v {
			same = false
		}
	}
	fmt.Println("Sum gives the same result:", same)
}
