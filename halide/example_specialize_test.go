package halide_test

import (
	"fmt"

	"github.com/gohalide/gohalide/halide"
)

// A sliding-window sum over a window of w points. Where the window is 4
// points wide the RDom has a constant extent (the case knows w == 4), so
// its loop can be unrolled; a bool Param picks a parallel schedule for
// the pure definition. Each case is its own loop nest, chosen once per
// production of the stage.
func ExampleFunc_Specialize() {
	x := halide.NewVar("x")
	in := halide.NewImageParam("in", halide.Float32, 1)
	w := halide.NewParam[int32]("w")
	par := halide.NewParam[bool]("par")
	r := halide.NewRDom("r", halide.Range(0, w))
	f := halide.NewFunc("f")
	f.Define(x).Is(0.0)
	f.Define(x).PlusEq(in.At(x.Add(r)))
	xo, xi := halide.NewVar("xo"), halide.NewVar("xi")
	f.Specialize(par).Split(x, xo, xi, 8).Parallel(xo)
	f.Update(0).Specialize(w.Expr().Eq(4)).Unroll(r)
	s, err := halide.NewPipeline(f).LoopNest()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(s)

	// Run both cases of the update (and both of the pure definition).
	buf := halide.NewBuffer[float32](12)
	buf.Fill(func(c []int) float32 { return float32(c[0]) })
	in.Set(buf)
	for _, width := range []int32{4, 3} {
		w.Set(width)
		par.Set(width == 4)
		out := halide.NewBuffer[float32](8)
		if err := f.Realize(out); err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println("w =", width, ":", out.Data())
	}
	// Output:
	// produce f:
	//   if (par):
	//     parallel x.xo:
	//       for x.xi in [0, 7]:
	//         f(...) = ...
	//   else:
	//     for x:
	//       f(...) = ...
	//   if (w == 4):
	//     for x:
	//       unrolled r$x in [0, 3]:
	//         f(...) = ...
	//   else:
	//     for x:
	//       for r$x:
	//         f(...) = ...
	// w = 4 : [6 10 14 18 22 26 30 34]
	// w = 3 : [3 6 9 12 15 18 21 24]
}

// SpecializeFail removes the default: a run where no case holds fails
// with an ErrSpecializeFail error carrying the message.
func ExampleFunc_SpecializeFail() {
	x := halide.NewVar("x")
	in := halide.NewImageParam("in", halide.Float32, 1)
	f := halide.NewFunc("f")
	f.Define(x).Is(in.At(x).Mul(2))
	xo, xi := halide.NewVar("xo"), halide.NewVar("xi")
	// Only inputs of a multiple of 8 points are handled, vectorized.
	f.Specialize(in.Dim(0).Extent().Mod(8).Eq(0)).Split(x, xo, xi, 8).Vectorize(xi)
	f.SpecializeFail("the input's width must be a multiple of 8")
	s, err := halide.NewPipeline(f).LoopNest()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(s)
	for _, n := range []int{16, 12} {
		buf := halide.NewBuffer[float32](n)
		in.Set(buf)
		err := f.Realize(halide.NewBuffer[float32](n))
		fmt.Println(n, "points:", err)
	}
	// Output:
	// produce f:
	//   if ((in.extent.0 % 8) == 0):
	//     for x.xo:
	//       vectorized x.xi in [0, 7]:
	//         f(...) = ...
	//   else:
	//     assert(false, "the input's width must be a multiple of 8")
	// 16 points: <nil>
	// 12 points: specialize_fail: Func f: specialize_fail: the input's width must be a multiple of 8
}
