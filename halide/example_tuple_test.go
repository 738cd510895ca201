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

// ExamplePipeline_RealizeTuple_gpu computes the argmax of each row of a
// block's tile once per block, in GPU shared memory, by the block's
// threads together, and realizes a Tuple output (each point's value and
// its row's maximum) on the GPU emulator. The kernel report lists one
// shared allocation per value of the Tuple Func: am.0 and am.1.
func ExamplePipeline_RealizeTuple_gpu() {
	const w, h = 16, 8
	in := halide.NewBuffer[float32](w, h)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			in.Set(float32((x*7+y*3)%11), x, y)
		}
	}
	x, y := halide.NewVar("x"), halide.NewVar("y")
	r := halide.NewRDom("r", halide.Range(0, w))
	am := halide.NewFunc("am")
	am.Define(y).Is(halide.Argmax(in.At(r, y)))
	out := halide.NewFunc("out")
	out.Define(x, y).Is(halide.NewTuple(in.At(x, y), am.AtTuple(y).Elem(1)))
	bx, by, tx, ty := halide.NewVar("bx"), halide.NewVar("by"), halide.NewVar("tx"), halide.NewVar("ty")
	out.GPUTile(x, y, bx, by, tx, ty, 8, 4)
	am.ComputeAt(out, bx).StoreIn(halide.GPUShared).GPUThreads(y)
	p := halide.NewPipeline(out)
	rep, err := p.Report()
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, k := range rep {
		for _, a := range k.Shared {
			fmt.Printf("%s: shared %s, %d x %s\n", k.Name, a.Func, a.Elements, a.Type)
		}
	}
	val, rowMax := halide.NewBuffer[float32](w, h), halide.NewBuffer[float32](w, h)
	if err := p.RealizeTuple(val, rowMax); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(val.Get(3, 2), rowMax.Get(3, 2))
	// Output:
	// kernel_out_s0: shared am.0, 4 x int32
	// kernel_out_s0: shared am.1, 4 x float32
	// 5 10
}

// ExampleSelectTuple picks each value of a Tuple by its own condition
// (Halide's select(Tuple(c0, c1), a, b)): value 0 is clamped below at 0,
// value 1 above at 10.
func ExampleSelectTuple() {
	x := halide.NewVar("x")
	in := halide.NewBuffer[int32](5)
	for i, v := range []int32{-3, 7, 12, -1, 4} {
		in.Set(v, i)
	}
	v := in.At(x)
	f := halide.NewFunc("f")
	f.Define(x).Is(halide.SelectTuple(
		halide.NewTuple(v.Lt(0), v.Gt(10)),
		halide.NewTuple(0, 10),
		halide.NewTuple(v, v)))
	lo, hi := halide.NewBuffer[int32](5), halide.NewBuffer[int32](5)
	if err := f.RealizeTuple(lo, hi); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(lo.Data(), hi.Data())
	// Output:
	// [0 7 12 0 4] [-3 7 10 -1 4]
}

// ExampleMuxTuple picks one of three Tuples by an index (Halide's mux of
// Tuples); an index out of range picks the last one.
func ExampleMuxTuple() {
	x := halide.NewVar("x")
	f := halide.NewFunc("f")
	f.Define(x).Is(halide.MuxTuple(x,
		halide.NewTuple(10, float32(0.5)),
		halide.NewTuple(20, float32(1.5)),
		halide.NewTuple(30, float32(2.5))))
	a, b := halide.NewBuffer[int32](4), halide.NewBuffer[float32](4)
	if err := f.RealizeTuple(a, b); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(a.Data(), b.Data())
	// Output:
	// [10 20 30 30] [0.5 1.5 2.5 2.5]
}

// ExampleDefiner_Elem updates one value of a Tuple Func at a time
// (Halide's f(x)[i] += e): a running count and the largest sample seen of
// each bin of a histogram; the update of one value leaves the other as
// it was.
func ExampleDefiner_Elem() {
	in := halide.NewBuffer[float32](6)
	for i, v := range []float32{0.5, 2.25, 1.5, 0.75, 2.5, 0.25} {
		in.Set(v, i)
	}
	x := halide.NewVar("x")
	r := halide.NewRDom("r", halide.Range(0, 6))
	bin := halide.Clamp(halide.Cast(halide.Int32, in.At(r)), 0, 2)
	h := halide.NewFunc("h")
	h.Define(x).Is(halide.NewTuple(0, float32(0)))
	h.Define(bin).Elem(0).PlusEq(1)       // h(bin)[0] += 1
	h.Define(bin).Elem(1).MaxEq(in.At(r)) // h(bin)[1] = max(h(bin)[1], in(r))
	h.Define(x).Elem(0).TimesEq(10)       // h(x)[0] *= 10
	count, top := halide.NewBuffer[int32](3), halide.NewBuffer[float32](3)
	if err := h.RealizeTuple(count, top); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(count.Data(), top.Data())
	// Output:
	// [30 10 20] [0.75 1.5 2.5]
}
