// Step 5: the CUDA source of the kernel.
package main

import (
	"fmt"
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
	out, blur, padded, _, x, y := algorithm()
	bx, by, tx, ty := halide.NewVar("bx"), halide.NewVar("by"), halide.NewVar("tx"), halide.NewVar("ty")
	out.GPUTile(x, y, bx, by, tx, ty, 8, 8)
	blur.ComputeAt(out, tx)
	padded.In(blur).ComputeAt(out, bx).StoreIn(halide.GPUShared)

	l, err := halide.NewPipeline(out).Lower()
	if err != nil {
		fmt.Println(err)
		return
	}
	src, err := l.CUDA()
	if err != nil {
		fmt.Println(err)
		return
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
