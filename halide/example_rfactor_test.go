package halide_test

import (
	"fmt"

	"github.com/gohalide/gohalide/halide"
)

func ExampleStage_RFactor() {
	u := halide.NewVar("u")
	in := halide.NewImageParam("in", halide.Int32, 2)
	r := halide.NewRDom("r", halide.Range(0, in.Dim(0).Extent()), halide.Range(0, in.Dim(1).Extent()))
	sum := halide.NewFunc("sum")
	sum.Define().Is(int32(0))
	sum.Define().PlusEq(in.At(r.X(), r.Y()))
	// The rows become a pure dimension u of sum_intm, which sums each row
	// (in parallel); sum adds the row sums over r.y.
	intm := sum.Update(0).RFactor(halide.RFactorPair{R: r.Y(), V: u})
	intm.ComputeRoot().Update(0).Parallel(u)
	p := halide.NewPipeline(sum)
	s, err := p.LoopNest()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(s)
	b := halide.NewBuffer[int32](4, 3)
	for y := 0; y < 3; y++ {
		for x := 0; x < 4; x++ {
			b.Set(int32(10*y+x), x, y)
		}
	}
	in.Set(b)
	out := halide.NewBuffer[int32]()
	if err := p.Realize(out); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("sum =", out.Get())
	// Output:
	// produce sum_intm:
	//   for u:
	//     sum_intm(...) = ...
	//   parallel u:
	//     for r$x:
	//       sum_intm(...) = ...
	// consume sum_intm:
	//   produce sum:
	//     sum(...) = ...
	//     for r$y:
	//       sum(...) = ...
	// sum = 138
}

// The classic two-stage GPU reduction of a vector: split the RDom into
// chunks of 256, make the chunks a pure dimension of the intermediate,
// one GPU thread per chunk in blocks of 64; the output adds the chunks'
// sums. The chunk loop is guarded where the length is not a multiple of
// 256.
func ExampleStage_RFactor_gpu() {
	u, ub, ut := halide.NewVar("u"), halide.NewVar("ub"), halide.NewVar("ut")
	rxo, rxi := halide.NewRVar("rxo"), halide.NewRVar("rxi")
	in := halide.NewImageParam("in", halide.Float32, 1)
	r := halide.NewRDom("r", halide.Range(0, in.Dim(0).Extent()))
	sum := halide.NewFunc("sum")
	sum.Define().Is(float32(0))
	sum.Define().PlusEq(in.At(r))
	intm := sum.Update(0).Split(r, rxo, rxi, 256).RFactor(halide.RFactorPair{R: rxo, V: u})
	intm.ComputeRoot().GPUTile1D(u, ub, ut, 64)
	intm.Update(0).GPUTile1D(u, ub, ut, 64, halide.GuardWithIf)
	s, err := halide.NewPipeline(sum).LoopNest()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(s)
	// Output:
	// produce sum_intm:
	//   gpu_block u.ub:
	//     gpu_thread u.ut in [0, 63]:
	//       sum_intm(...) = ...
	//   gpu_block u.ub:
	//     gpu_thread u.ut in [0, 63]:
	//       for r$x.rxi in [0, 255]:
	//         sum_intm(...) = ...
	// consume sum_intm:
	//   produce sum:
	//     sum(...) = ...
	//     for r$x.rxo:
	//       sum(...) = ...
}
