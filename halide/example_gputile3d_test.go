package halide_test

import (
	"fmt"

	"github.com/gohalide/gohalide/halide"
)

func ExampleFunc_GPUTile3D() {
	x, y, z := halide.NewVar("x"), halide.NewVar("y"), halide.NewVar("z")
	xi, yi, zi := halide.NewVar("xi"), halide.NewVar("yi"), halide.NewVar("zi")
	in := halide.NewImageParam("in", halide.Float32, 3)
	f := halide.NewFunc("f")
	f.Define(x, y, z).Is(in.At(x, y, z).Add(in.At(x, y.Add(1), z)))
	// Halide's gpu_tile(x, y, z, xi, yi, zi, 32, 8, 1, RoundUp): blocks of
	// 32 x 8 x 1 threads; the block loops keep the names x, y, z.
	f.GPUTile3D(x, y, z, x, y, z, xi, yi, zi, 32, 8, 1, halide.RoundUp)
	s, err := halide.NewPipeline(f).LoopNest()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(s)
	// Output:
	// produce f:
	//   gpu_block z.z:
	//     gpu_block y.y:
	//       gpu_block x.x:
	//         gpu_thread z.zi in [0, 0]:
	//           gpu_thread y.yi in [0, 7]:
	//             gpu_thread x.xi in [0, 31]:
	//               f(...) = ...
}
