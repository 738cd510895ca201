// Step 3: a GPU schedule with a wrapper staged in shared memory, run on the
// GPU emulator.
package main

import (
	"fmt"
	"log"
	"strings"

	"github.com/gohalide/gohalide/docs/tutorial/boxblur"
)

// The size of the output: 3x2 tiles of 8x8, the last ones shifted
// inwards.
const w, h = 20, 12

func main() {
	// The blur in 8x8 tiles, one 8x8 block of threads each, lowered: the
	// loop nest (as in step 2) and the lowered statement.
	p, in := boxblur.GPU(8)
	l, err := p.Lower()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(l.LoopNest)

	// Realize on the GPU emulator (the default target).
	_, result, err := boxblur.Realize(p, in, w, h)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("\nout(0, 0) = %.2f, out(%d, %d) = %.2f\n\n", result.Get(0, 0), w-1, h-1, result.Get(w-1, h-1))

	// The kernel report: grid and block, allocations, barriers.
	if err := boxblur.PrintReport(p); err != nil {
		log.Fatal(err)
	}

	// The lowered statement: the kernel and its launch.
	for _, k := range l.Kernels() {
		fmt.Printf("\n%s: %d barrier(s), %d allocation(s)\n", k.Name, k.Barriers, len(k.Allocs))
	}
	text := l.String()
	fmt.Print("\n", text[strings.Index(text, "produce out {"):])
}
