package halide_test

import (
	"errors"
	"fmt"

	"github.com/gohalide/gohalide/halide"
)

// extend realizes bc(x) over [-6, 10) for the input [1 2 3 4] at [0, 4),
// and prints it with the input's region marked.
func extend(bc func(in *halide.ImageParam) *halide.Func) {
	x := halide.NewVar("x")
	in := halide.NewImageParam("in", halide.Int32, 1)
	ib := halide.NewBuffer[int32](4)
	ib.Fill(func(c []int) int32 { return int32(c[0] + 1) })
	in.Set(ib)
	f := halide.NewFunc("f")
	f.Define(x).Is(bc(in).At(x))
	out := halide.NewBuffer[int32](16).SetMin(-6)
	if err := halide.NewPipeline(f).Realize(out); err != nil {
		fmt.Println(err)
		return
	}
	d := out.Data()
	fmt.Println(d[:6], d[6:10], d[10:])
}

func ExampleRepeatEdge() {
	extend(func(in *halide.ImageParam) *halide.Func { return halide.RepeatEdge(in) })
	// Output:
	// [1 1 1 1 1 1] [1 2 3 4] [4 4 4 4 4 4]
}

func ExampleRepeatImage() {
	extend(func(in *halide.ImageParam) *halide.Func { return halide.RepeatImage(in) })
	// Output:
	// [3 4 1 2 3 4] [1 2 3 4] [1 2 3 4 1 2]
}

func ExampleMirrorImage() {
	extend(func(in *halide.ImageParam) *halide.Func { return halide.MirrorImage(in) })
	// Output:
	// [3 4 4 3 2 1] [1 2 3 4] [4 3 2 1 1 2]
}

func ExampleMirrorInterior() {
	extend(func(in *halide.ImageParam) *halide.Func { return halide.MirrorInterior(in) })
	// Output:
	// [1 2 3 4 3 2] [1 2 3 4] [3 2 1 2 3 4]
}

// A region given explicitly: the middle two elements, [1, 3), mirrored;
// the buffer's other elements are never read.
func ExampleMirrorImage_region() {
	extend(func(in *halide.ImageParam) *halide.Func { return halide.MirrorImage(in, halide.Range(1, 2)) })
	// Output:
	// [3 3 2 2 3 3] [2 2 3 3] [2 2 3 3 2 2]
}

// Unbounded leaves a dimension without a condition: here x is tiled and
// y is read as is, so the pipeline may read only rows the input has.
func ExampleUnbounded() {
	x, y := halide.NewVar("x"), halide.NewVar("y")
	in := halide.NewImageParam("in", halide.Int32, 2)
	ib := halide.NewBuffer[int32](3, 2)
	ib.Fill(func(c []int) int32 { return int32(10*c[1] + c[0]) })
	in.Set(ib)
	tiled := halide.RepeatImage(in, halide.Range(0, 3), halide.Unbounded())
	f := halide.NewFunc("f")
	f.Define(x, y).Is(tiled.At(x, y))
	out := halide.NewBuffer[int32](8, 2).SetMin(-2, 0)
	if err := halide.NewPipeline(f).Realize(out); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(out.Data()[:8])
	fmt.Println(out.Data()[8:])
	// Reading row 2, which the input lacks, is refused.
	if err := halide.NewPipeline(f).Realize(halide.NewBuffer[int32](8, 3)); err != nil {
		var he *halide.Error
		if errors.As(err, &he) {
			fmt.Println("3 rows:", he.Code)
		}
	}
	// Output:
	// [1 2 0 1 2 0 1 2]
	// [11 12 10 11 12 10 11 12]
	// 3 rows: out_of_bounds
}
