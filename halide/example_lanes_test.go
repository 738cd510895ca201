package halide_test

import (
	"fmt"

	"github.com/gohalide/gohalide/halide"
)

// A warp per row: rfactor makes each lane's partial sum of its row (the
// columns 32*rxo + u) a Func of its own; the output adds the 32 partial
// sums over rxi, the lanes of the block's one warp. Lowering turns that
// update into an all-reduce with warp shuffles (__shfl_down_sync in CUDA),
// without shared memory or barriers; GPUThreads instead of GPULanes would
// allow wider blocks, whose warps meet in shared memory.
func ExampleStage_GPULanes() {
	y, u := halide.NewVar("y"), halide.NewVar("u")
	rxo, rxi := halide.NewRVar("rxo"), halide.NewRVar("rxi")
	in := halide.NewImageParam("in", halide.Int32, 2)
	r := halide.NewRDom("r", halide.Range(0, in.Dim(0).Extent()))
	sum := halide.NewFunc("sum")
	sum.Define(y).Is(int32(0))
	sum.Define(y).PlusEq(in.At(r.X(), y))
	intm := sum.Update(0).Split(r.X(), rxo, rxi, 32).RFactor(halide.RFactorPair{R: rxi, V: u})
	sum.GPUBlocks(y)
	sum.Update(0).GPUBlocks(y).GPULanes(rxi)
	intm.ComputeAtStage(sum.Update(0), rxi)
	p := halide.NewPipeline(sum)
	s, err := p.LoopNest()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(s)
	// 3 rows of 100: row y holds 100*y + x.
	b := halide.NewBuffer[int32](100, 3)
	b.Fill(func(c []int) int32 { return int32(100*c[1] + c[0]) })
	in.Set(b)
	out := halide.NewBuffer[int32](3)
	if err := p.Realize(out); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("row sums:", out.Get(0), out.Get(1), out.Get(2))
	// Output:
	// produce sum:
	//   gpu_block y:
	//     sum(...) = ...
	//   gpu_block y:
	//     gpu_thread r$x.rxi in [0, 31]:
	//       produce sum_intm:
	//         for u:
	//           for y:
	//             sum_intm(...) = ...
	//         for y:
	//           for r$x.rxo:
	//             for u:
	//               sum_intm(...) = ...
	//       consume sum_intm:
	//         sum(...) = ...
	// row sums: 4950 14950 24950
}
