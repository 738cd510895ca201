// Step 5: the CUDA source of the kernel.
package main

import (
	"fmt"
	"log"
	"strings"

	"github.com/gohalide/gohalide/docs/tutorial/boxblur"
	"github.com/gohalide/gohalide/halide"
)

func main() {
	// Step 3's pipeline and schedule.
	p, _ := boxblur.GPU(8)
	l, err := p.Lower()
	if err != nil {
		log.Fatal(err)
	}
	src, err := l.CUDA()
	if err != nil {
		log.Fatal(err)
	}
	// The source starts with helpers for Halide's integer division and
	// modulo (gh_div_i32, gh_mod_i32); print the kernel that follows them.
	fmt.Print(src[strings.Index(src, "// Kernel"):])

	// Compile it with nvcc for sm_90, if a CUDA toolkit is installed (no
	// GPU needed), and compare ptxas's shared memory with the report's.
	fmt.Println()
	info, err := halide.CheckWithNVCC(src)
	if err != nil {
		fmt.Println(err)
		return
	}
	for name, pi := range info {
		fmt.Printf("ptxas: %s uses %d bytes of shared memory\n", name, pi.SharedBytes)
	}
}
