package halide_test

import (
	"fmt"

	"github.com/gohalide/gohalide/halide"
)

// ExampleFunc_Prefetch blurs an image and, at the top of each row y,
// prefetches the rows of the input that row y + 2 will read (rows y + 2
// and y + 3, one column more than the row is wide). With the default
// PrefetchGuardWithIf the prefetch is skipped at the rows where that box
// leaves the input. The loop nest shows the directive at the top of its
// loop; the lowered statement shows it as the flat index of
// the box's first element, its extents and the input's strides (what the
// CUDA target issues prefetch.global.L2 for; the CPU skips it).
func ExampleFunc_Prefetch() {
	x, y := halide.NewVar("x"), halide.NewVar("y")
	in := halide.NewImageParam("in", halide.Float32, 2)
	blur := halide.NewFunc("blur")
	blur.Define(x, y).Is(in.At(x, y).Add(in.At(x.Add(1), y)).Add(in.At(x, y.Add(1))))
	blur.PrefetchImage(in, y, y, 2)

	input := halide.NewBuffer[float32](9, 9)
	input.Fill(func(c []int) float32 { return float32(c[0] + 10*c[1]) })
	in.Set(input)
	p := halide.NewPipeline(blur)
	l, err := p.Lower()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(l.LoopNest)
	printLines(l.String(), "prefetch", "in.min.1 <= (blur.s0.y + 2)")
	result := halide.NewBuffer[float32](8, 8)
	if err := p.Realize(result); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("blur(3, 5) = %g\n", result.Get(3, 5))
	// Output:
	// produce blur:
	//   for y:
	//     prefetch in from y + 2 (GuardWithIf)
	//     for x:
	//       blur(...) = ...
	// if (((((in.min.0 <= blur.min.0) && (blur.s0.x.max <= ((in.min.0 + in.extent.0) - 2))) && (in.min.1 <= (blur.s0.y + 2))) && (blur.s0.y <= ((in.min.1 + in.extent.1) - 4)))) {
	// prefetch in[(((blur.min.0 - in.min.0) * in.stride.0) + (((blur.s0.y - in.min.1) + 2) * in.stride.1))] extents (((blur.s0.x.max - blur.min.0) + 2), 2) strides (in.stride.0, in.stride.1)
	// blur(3, 5) = 170
}
