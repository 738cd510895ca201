// Step 10 of docs/tutorial.md: rfactor, a reduction split into
// independent pieces.
package main

import (
	"fmt"
	"log"
	"math"

	"github.com/gohalide/gohalide/halide"
)

func main() {
	const n = 10000
	input := halide.NewBuffer[float32](n)
	input.Fill(func(c []int) float32 { return float32(math.Sin(float64(c[0]))) })

	// The algorithm: the sum of a vector.
	in := halide.NewImageParam("in", halide.Float32, 1)
	r := halide.NewRDom("r", halide.Range(0, in.Dim(0).Extent()))
	sum := halide.NewFunc("sum")
	sum.Define().Is(float32(0))
	sum.Define().PlusEq(in.At(r))

	// The update's loop over r carries sum from one iteration to the
	// next, so it cannot run in parallel as it is.
	sum.Update(0).Parallel(r)
	_, err := halide.NewPipeline(sum).Lower()
	fmt.Println("parallel r:", err)

	// rfactor: split r into chunks of 1024 and make the chunk index a pure
	// dimension u of a new Func, sum_intm(u), the sum of chunk u. The
	// chunks are independent, so u can be parallel (or GPU blocks); sum
	// adds the 10 partial sums. The library checks that += is
	// associative before it reorders the additions.
	sum = halide.NewFunc("sum")
	sum.Define().Is(float32(0))
	sum.Define().PlusEq(in.At(r))
	ro, ri, u := halide.NewRVar("ro"), halide.NewRVar("ri"), halide.NewVar("u")
	intm := sum.Update(0).Split(r, ro, ri, 1024).RFactor(halide.RFactorPair{R: ro, V: u})
	intm.ComputeRoot().Update(0).Parallel(u)

	p := halide.NewPipeline(sum)
	nest, err := p.LoopNest()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print("\n", nest)
	in.Set(input)
	out := halide.NewBuffer[float32]()
	if err := p.Realize(out); err != nil {
		log.Fatal(err)
	}
	want := 0.0
	for _, v := range input.Data() {
		want += float64(v)
	}
	fmt.Printf("\nsum = %.4f, plain Go in float64: %.4f, |difference| < 1e-3: %v\n",
		out.Get(), want, math.Abs(float64(out.Get())-want) < 1e-3)

	// An argmax: a Tuple of the largest value and where it is. The index
	// follows the value, so the two depend on each other; rfactor knows
	// this form (and argmin, and a complex product). Of equal values the
	// first wins (>), and still does when factored: the chunks are kept
	// in the update, outermost, so their results combine in order.
	amax := halide.NewFunc("amax")
	amax.Define().Is(halide.NewTuple(float32(math.Inf(-1)), int32(-1)))
	old := amax.AtTuple()
	amax.Define().Is(halide.SelectTuple(in.At(r).Gt(old.Elem(0)), halide.NewTuple(in.At(r), r), old))
	intm = amax.Update(0).Split(r, ro, ri, 1024).RFactor(halide.RFactorPair{R: ro, V: u})
	intm.ComputeRoot().Update(0).Parallel(u)
	val, idx := halide.NewBuffer[float32](), halide.NewBuffer[int32]()
	if err := halide.NewPipeline(amax).RealizeTuple(val, idx); err != nil {
		log.Fatal(err)
	}
	best := 0
	for i, v := range input.Data() {
		if v > input.Data()[best] {
			best = i
		}
	}
	fmt.Printf("\nargmax: in(%d) = %.6f; plain Go: in(%d)\n", idx.Get(), val.Get(), best)

	// An update that is not associative: each step halves what came
	// before, so the order of the terms matters. rfactor refuses it.
	decay := halide.NewFunc("decay")
	decay.Define().Is(float32(0))
	decay.Define().Is(decay.At().Mul(float32(0.5)).Add(in.At(r)))
	decay.Update(0).RFactor(halide.RFactorPair{R: r, V: u})
	_, err = halide.NewPipeline(decay).Lower()
	fmt.Println("\nrfactor of decay:", err)
}
