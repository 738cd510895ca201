package halide_test

import (
	"fmt"

	"github.com/gohalide/gohalide/halide"
)

// ExampleFunc_AlignStorage transposes an image through a shared tile.
// out(x, y) = tile(y, x), in blocks of 32 x 8 threads: the block's tile is
// 8 x 32 (its x is out's y), stored in rows of 8 floats. The 32 lanes of a
// warp (32 consecutive x of out) read a column of it, words 8 apart: 4
// banks, 8 words in each, an 8-way bank conflict (the report's
// BankConflicts). Padding the rows to 9 floats puts the 32 words in 32
// banks.
func ExampleFunc_AlignStorage() {
	x, y := halide.NewVar("x"), halide.NewVar("y")
	in := halide.NewImageParam("in", halide.Float32, 2)
	tile := halide.NewFunc("tile")
	tile.Define(x, y).Is(in.At(x, y))
	out := halide.NewFunc("out")
	out.Define(x, y).Is(tile.At(y, x))
	bx, by, tx, ty := halide.NewVar("bx"), halide.NewVar("by"), halide.NewVar("tx"), halide.NewVar("ty")
	out.GPUTile(x, y, bx, by, tx, ty, 32, 8)
	tile.ComputeAt(out, bx).StoreIn(halide.GPUShared).GPUThreads(x, y)

	input := halide.NewBuffer[float32](64, 64)
	input.Fill(func(c []int) float32 { return float32(c[0]*100 + c[1]) })
	in.Set(input)
	for _, pad := range []bool{false, true} {
		if pad {
			tile.AlignStorage(x, 9)
		}
		p := halide.NewPipeline(out)
		result := halide.NewBuffer[float32](64, 64)
		if err := p.Realize(result); err != nil {
			fmt.Println(err)
			return
		}
		r, err := p.Report()
		if err != nil {
			fmt.Println(err)
			return
		}
		a := r[0].Shared[0]
		fmt.Printf("%s: %d elements, bank conflicts %d-way; out(3, 5) = %g = in(5, 3)\n", a.Func, a.Elements, a.BankConflicts, result.Get(3, 5))
	}
	// Output:
	// tile: 256 elements, bank conflicts 8-way; out(3, 5) = 503 = in(5, 3)
	// tile: 288 elements, bank conflicts 1-way; out(3, 5) = 503 = in(5, 3)
}

// ExampleFunc_BoundStorage gives a Func whose region is known only at run
// time a storage of a constant size: 16 elements, on the stack. A run
// that needs more fails before it computes anything.
func ExampleFunc_BoundStorage() {
	x := halide.NewVar("x")
	in := halide.NewImageParam("in", halide.Float32, 1)
	sq := halide.NewFunc("sq")
	sq.Define(x).Is(in.At(x).Mul(in.At(x)))
	out := halide.NewFunc("out")
	out.Define(x).Is(sq.At(x).Add(sq.At(x.Add(1))))
	sq.ComputeRoot().BoundStorage(x, 16)
	p := halide.NewPipeline(out)
	l, err := p.Lower()
	if err != nil {
		fmt.Println(err)
		return
	}
	printLines(l.String(), "allocate")
	for _, n := range []int{10, 20} {
		input := halide.NewBuffer[float32](n + 1)
		input.Fill(func(c []int) float32 { return float32(c[0]) })
		in.Set(input)
		result := halide.NewBuffer[float32](n)
		if err := p.Realize(result); err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("n = %d: out(3) = %g\n", n, result.Get(3))
	}
	// Output:
	// allocate sq[float32 * 16] in Stack
	// n = 10: out(3) = 25
	// schedule: Func sq: bound_storage: bound_storage of sq in x is 16, but a realization of sq needs 21 elements in x (legal: a larger bound_storage, or a smaller input or output)
}
