// Step 7: run the kernels on an NVIDIA GPU. Build it with the tag cuda:
//
//	go run -tags cuda .
package main

import (
	"fmt"
	"log"

	// The CUDA runtime: built with -tags cuda, it registers GPU 0 as the
	// device of halide.CUDA (without the tag it is empty).
	_ "github.com/gohalide/gohalide/cudart"
	"github.com/gohalide/gohalide/docs/tutorial/boxblur"
	"github.com/gohalide/gohalide/halide"
)

func main() {
	// Step 3's schedule in 16x16 tiles, with its kernels on GPU 0.
	p, in := boxblur.GPU(16)
	p.WithTarget(halide.CUDA)

	const W, H = 4096, 4096
	input := halide.NewBuffer[float32](W, H)
	input.Fill(func(c []int) float32 { return float32((c[0]*7 + c[1]*13) % 256) })
	in.Set(input)
	result := halide.NewBuffer[float32](W, H)
	if err := p.Realize(result); err != nil {
		// Without a GPU, or built without the tag, this says why.
		fmt.Println(err)
		return
	}
	fmt.Printf("out(0, 0) = %.4f, out(%d, %d) = %.4f\n", result.Get(0, 0), W-1, H-1, result.Get(W-1, H-1))
	if err := boxblur.PrintReport(p); err != nil {
		log.Fatal(err)
	}

	// The median of 100 runs, timed with CUDA events, buffers resident on
	// the device.
	t, err := p.Benchmark(result, 100)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s: median %.3f ms (min %.3f, max %.3f) over %d runs\n", t.Clock, t.MedianMs, t.MinMs, t.MaxMs, t.Runs)
}
