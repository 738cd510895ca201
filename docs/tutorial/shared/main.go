// Step 4: the wrapper computed inside the thread loops, still one copy per
// block in shared memory.
package main

import (
	"fmt"
	"log"
	"strings"

	"github.com/gohalide/gohalide/docs/tutorial/boxblur"
	"github.com/gohalide/gohalide/halide"
)

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
	out, blur, padded, in, x, y := boxblur.Algorithm()
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
		log.Fatal(err)
	}
	fmt.Print(nest, "\n")

	input, result, err := boxblur.Realize(p, in, 20, 12)
	if err != nil {
		log.Fatal(err)
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

	if err := boxblur.PrintReport(p); err != nil {
		log.Fatal(err)
	}
	l, err := p.Lower()
	if err != nil {
		log.Fatal(err)
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
