// Step 6: plant a bug in the lowered kernel (drop its barrier) and let the
// GPU emulator catch the race.
package main

import (
	"errors"
	"fmt"
	"log"

	"github.com/gohalide/gohalide/docs/tutorial/boxblur"
	"github.com/gohalide/gohalide/halide"
	"github.com/gohalide/gohalide/ir"
)

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
	// Step 3's pipeline and schedule.
	p, in := boxblur.GPU(8)
	l, err := p.Lower()
	if err != nil {
		log.Fatal(err)
	}
	in.Set(boxblur.Input(20, 12))

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
