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

// ExampleArgmax finds, for each row, the column of its largest element
// and that element: a Tuple-valued inline reduction.
func ExampleArgmax() {
	in := halide.NewBuffer[int32](4, 2)
	for i, v := range []int32{3, 7, 7, 1, 2, 0, 8, 5} {
		in.Set(v, i%4, i/4)
	}
	y := halide.NewVar("y")
	r := halide.NewRDom("r", halide.Range(0, 4))
	am := halide.Argmax(in.At(r, y))
	best := halide.NewFunc("best")
	best.Define(y).Is(halide.NewTuple(am.Elem(0), am.Elem(1)))
	col, val := halide.NewBuffer[int32](2), halide.NewBuffer[int32](2)
	if err := best.RealizeTuple(col, val); err != nil {
		fmt.Println(err)
		return
	}
	for j := 0; j < 2; j++ {
		fmt.Printf("row %d: column %d holds %d\n", j, col.Get(j), val.Get(j))
	}
	// Output:
	// row 0: column 1 holds 7
	// row 1: column 2 holds 8
}

// ExampleFunc_AtTuple multiplies complex numbers stored as Tuples of real
// and imaginary parts, computed at root, and prints where each value's
// buffer is allocated: one allocation per value, f.0 and f.1.
func ExampleFunc_AtTuple() {
	x := halide.NewVar("x")
	re := halide.NewBuffer[float32](3)
	im := halide.NewBuffer[float32](3)
	for i := 0; i < 3; i++ {
		re.Set(float32(i), i)
		im.Set(1, i)
	}
	z := halide.NewFunc("z")
	z.Define(x).Is(halide.NewTuple(re.At(x), im.At(x)))
	z.ComputeRoot()
	// z * z = (a*a - b*b, 2*a*b)
	a, b := z.AtTuple(x).Elem(0), z.AtTuple(x).Elem(1)
	sq := halide.NewFunc("sq")
	sq.Define(x).Is(halide.NewTuple(a.Mul(a).Sub(b.Mul(b)), a.Mul(b).Mul(2)))
	l, err := halide.NewPipeline(sq).Lower()
	if err != nil {
		fmt.Println(err)
		return
	}
	printLines(l.String(), "allocate")
	outRe, outIm := halide.NewBuffer[float32](3), halide.NewBuffer[float32](3)
	if err := sq.RealizeTuple(outRe, outIm); err != nil {
		fmt.Println(err)
		return
	}
	for i := 0; i < 3; i++ {
		fmt.Printf("(%g + %gi)^2 = %g + %gi\n", re.Get(i), im.Get(i), outRe.Get(i), outIm.Get(i))
	}
	// Output:
	// allocate z.0[float32 * (max((sq.s0.x.max - sq.min.0), -1) + 1)] in Heap
	// allocate z.1[float32 * (max((sq.s0.x.max - sq.min.0), -1) + 1)] in Heap
	// (0 + 1i)^2 = -1 + 0i
	// (1 + 1i)^2 = 0 + 2i
	// (2 + 1i)^2 = 3 + 4i
}
