package halide_test

import (
	"fmt"

	"github.com/gohalide/gohalide/halide"
)

// ExampleDefiner_PlusEq_tuple computes the sum and the sum of squares of
// a vector in one Tuple reduction (PlusEq of a Tuple adds value by value),
// split by RFactor into chunks summed in parallel: the values reduce on
// their own, so the update is associative value by value.
func ExampleDefiner_PlusEq_tuple() {
	in := halide.NewBuffer[float32](100)
	in.Fill(func(c []int) float32 { return float32(c[0]%10) - 4.5 })
	r := halide.NewRDom("r", halide.Range(0, 100))
	moments := halide.NewFunc("moments")
	moments.Define().Is(halide.NewTuple(float32(0), float32(0)))
	moments.Define().PlusEq(halide.NewTuple(in.At(r), in.At(r).Mul(in.At(r))))
	ro, ri, u := halide.NewRVar("ro"), halide.NewRVar("ri"), halide.NewVar("u")
	intm := moments.Update(0).Split(r, ro, ri, 16).RFactor(halide.RFactorPair{R: ro, V: u})
	intm.ComputeRoot().Update(0).Parallel(u)
	sum, squares := halide.NewBuffer[float32](), halide.NewBuffer[float32]()
	if err := moments.RealizeTuple(sum, squares); err != nil {
		fmt.Println(err)
		return
	}
	n := float32(100)
	mean := sum.Get() / n
	fmt.Printf("sum %g, sum of squares %g, mean %g, variance %g\n", sum.Get(), squares.Get(), mean, squares.Get()/n-mean*mean)
	// Output:
	// sum 0, sum of squares 825, mean 0, variance 8.25
}
