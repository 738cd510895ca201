// Step 6: plant a bug in the lowered kernel (drop its barrier) and let the
// GPU emulator catch the race.
package main

import (
	"errors"
	"fmt"

	"github.com/gohalide/gohalide/halide"
	"github.com/gohalide/gohalide/ir"
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

// dropBarriers returns s with every barrier of every kernel replaced by a
// comment: what a compiler that forgot them would produce.
func dropBarriers(s ir.Stmt) ir.Stmt {
	var inKernel func(ir.Stmt) ir.Stmt
	inKernel = func(x ir.Stmt) ir.Stmt {
		x = ir.MapStmt(x, inKernel, nil)
		if _, ok := x.(*ir.Barrier); ok {
			return &ir.Comment{Text: "barrier dropped"}
		}
		return x
	}
	var host func(ir.Stmt) ir.Stmt
	host = func(x ir.Stmt) ir.Stmt {
		if l, ok := x.(*ir.Launch); ok {
			k := *l.Kernel // kernels are immutable: edit a copy
			k.Body = inKernel(k.Body)
			return &ir.Launch{Kernel: &k}
		}
		return ir.MapStmt(x, host, nil)
	}
	return host(s)
}

func main() {
	out, blur, padded, in, x, y := algorithm()
	bx, by, tx, ty := halide.NewVar("bx"), halide.NewVar("by"), halide.NewVar("tx"), halide.NewVar("ty")
	out.GPUTile(x, y, bx, by, tx, ty, 8, 8)
	blur.ComputeAt(out, tx)
	padded.In(blur).ComputeAt(out, bx).StoreIn(halide.GPUShared)

	l, err := halide.NewPipeline(out).Lower()
	if err != nil {
		fmt.Println(err)
		return
	}
	input := halide.NewBuffer[float32](20, 12)
	input.Fill(func(c []int) float32 { return float32(c[0] + 10*c[1]) })
	in.Set(input)

	// The lowered statement as the compiler made it runs cleanly...
	fmt.Println("as lowered:", l.Realize(halide.NewBuffer[float32](20, 12)))
	// ...and without its barrier the emulator reports the race.
	err = l.WithStmt(dropBarriers(l.Stmt)).Realize(halide.NewBuffer[float32](20, 12))
	fmt.Println("barrier dropped:", err)
	var herr *halide.Error
	if errors.As(err, &herr) {
		fmt.Println("error code:", herr.Code)
	}
}
