package halide_test

import (
	"fmt"
	"strings"

	"github.com/gohalide/gohalide/halide"
)

// ExampleFunc_NeverPartition shows the ifs of a GPU kernel whose blocks of
// 64 threads cover an extent that 64 may not divide. By default the
// kernel has two versions: one for the blocks whose every thread is
// inside the extent (the tail guard gone) and one with the guard.
// NeverPartition(bx) keeps one version, with the guard.
func ExampleFunc_NeverPartition() {
	for _, never := range []bool{false, true} {
		x, bx, tx := halide.NewVar("x"), halide.NewVar("bx"), halide.NewVar("tx")
		in := halide.NewImageParam("in", halide.Float32, 1)
		f := halide.NewFunc("f")
		f.Define(x).Is(in.At(x).Mul(2))
		f.GPUTile1D(x, bx, tx, 64, halide.GuardWithIf)
		if never {
			f.NeverPartition(bx)
		}
		l, err := halide.NewPipeline(f).Lower()
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println("NeverPartition:", never)
		for _, line := range strings.Split(l.String(), "\n") {
			if strings.Contains(line, "if (") && strings.Contains(line, "f.s0.x") {
				fmt.Println(strings.TrimSpace(line))
			}
		}
	}
	// Output:
	// NeverPartition: false
	// if ((-1 < ((f.s0.x.max - f.min.0) / 64))) {
	// if ((((block_id_x * 64) + f.min.0) < (f.s0.x.max - 62))) {
	// if (likely((f.s0.x <= f.s0.x.max))) {
	// NeverPartition: true
	// if ((-1 < ((f.s0.x.max - f.min.0) / 64))) {
	// if ((f.s0.x <= f.s0.x.max)) {
}
