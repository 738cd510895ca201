package halide_test

import (
	"fmt"

	"github.com/gohalide/gohalide/halide"
)

// ExampleNewTuple computes the index and value of the largest element of
// a buffer with a Tuple update (Halide's argmax): both values are computed
// from the old ones before either is stored.
func ExampleNewTuple() {
	in := halide.NewBuffer[float32](8)
	for i, v := range []float32{3, 1, 4, 1, 5, 9, 2, 6} {
		in.Set(v, i)
	}
	r := halide.NewRDom("r", halide.Range(0, 8))
	best := halide.NewFunc("best")
	best.Define().Is(halide.NewTuple(0, in.At(0)))
	old := best.AtTuple()
	best.Define().Is(halide.NewTuple(
		halide.Select(in.At(r).Gt(old.Elem(1)), r, old.Elem(0)),
		halide.Max(old.Elem(1), in.At(r))))
	index, value := halide.NewBuffer[int32](), halide.NewBuffer[float32]()
	if err := best.RealizeTuple(index, value); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(index.Data()[0], value.Data()[0])
	// Output:
	// 5 9
}
