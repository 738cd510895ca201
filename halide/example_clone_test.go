package halide_test

import (
	"fmt"

	"github.com/gohalide/gohalide/halide"
)

// ExampleFunc_CloneIn computes a running sum f of the input twice: at the
// root for h, and again inside g's loop for g, where a clone of f (its
// definitions and the schedule it had when cloned) replaces f.
func ExampleFunc_CloneIn() {
	x := halide.NewVar("x")
	in := halide.NewBuffer[int32](8)
	for i := range 8 {
		in.Set(int32(i+1), i)
	}
	r := halide.NewRDom("r", halide.Range(1, 7))
	f := halide.NewFunc("f") // f(x) = in(0) + ... + in(x)
	f.Define(x).Is(in.At(x))
	f.Define(r).Is(f.At(r.X().Sub(1)).Add(f.At(r)))
	g := halide.NewFunc("g")
	g.Define(x).Is(f.At(x).Mul(10))
	h := halide.NewFunc("h")
	h.Define(x).Is(f.At(x).Add(1))
	out := halide.NewFunc("out")
	out.Define(x).Is(g.At(x).Add(h.At(x)))
	f.ComputeRoot()
	g.ComputeRoot()
	h.ComputeRoot()
	fg := f.CloneIn(g)
	fg.ComputeAt(g, x)

	p := halide.NewPipeline(out)
	nest, err := p.LoopNest()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(nest)
	result := halide.NewBuffer[int32](8)
	if err := p.Realize(result); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(result.Data())
	// Output:
	// produce g:
	//   for x:
	//     produce f_clone_in_g:
	//       for x:
	//         f_clone_in_g(...) = ...
	//       for r$x in [1, 7]:
	//         f_clone_in_g(...) = ...
	//     consume f_clone_in_g:
	//       g(...) = ...
	// consume g:
	//   produce f:
	//     for x:
	//       f(...) = ...
	//     for r$x in [1, 7]:
	//       f(...) = ...
	//   consume f:
	//     produce h:
	//       for x:
	//         h(...) = ...
	//     consume h:
	//       produce out:
	//         for x:
	//           out(...) = ...
	// [12 34 67 111 166 232 309 397]
}
