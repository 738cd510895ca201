package halide_test

// Ports of Halide's apps/linear_algebra BLAS generators (saxpy/daxpy,
// sdot/ddot, sasum/dasum, sgemv/dgemv, sger/dger, sgemm/dgemm; apps/fft
// and apps/resnet_50 are not ported yet), written as app_ports_test.go and
// app_ports3_test.go write their ports: the algorithm as the generator
// writes it and its schedule as written, for float32 and float64 where the
// generator is a template, each output value checked against a plain-Go
// reference on random inputs from a fixed seed (never zero; floats within
// the tolerance stated at the check). The BLAS generators have no GPU
// schedule (only the CPU one is ported); natural_vector_size is taken as
// an AVX2 host's (8 float32 lanes, 4 float64 lanes). Where the faithful
// schedule is refused, the subtest asserts the typed *halide.Error
// (mpRefused) and a "_variant" subtest makes the smallest change that
// runs; the comment block at the end of the file lists each refusal and
// what is not in the API.

import (
	"fmt"
	"math"
	"math/rand"
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// a4Float is the element type of a templated BLAS generator.
type a4Float interface{ float32 | float64 }

// a4Type is the halide.Type of T.
func a4Type[T a4Float]() halide.Type {
	var z T
	if _, ok := any(z).(float32); ok {
		return halide.Float32
	}
	return halide.Float64
}

// a4Vec is natural_vector_size(type_of<T>()) on an AVX2 host.
func a4Vec[T a4Float]() int {
	var z T
	if _, ok := any(z).(float32); ok {
		return 8
	}
	return 4
}

// a4Tol is the tolerance of a check of T values (absolute plus relative):
// sums in another order than the reference's.
func a4Tol[T a4Float]() float64 {
	var z T
	if _, ok := any(z).(float32); ok {
		return 1e-5
	}
	return 1e-12
}

// a4Rand fills a buffer with random values in ±[0.05, 1), never zero.
func a4Rand[T a4Float](rng *rand.Rand, extents ...int) *halide.Buffer[T] {
	b := halide.NewBuffer[T](extents...)
	b.Fill(func([]int) T {
		v := 0.05 + 0.95*rng.Float64()
		if rng.Intn(2) == 0 {
			v = -v
		}
		return T(v)
	})
	return b
}

// a4Check compares every value of b with ref within tol (absolute plus
// relative to |want|), scaled by scale (the size of a sum's terms).
func a4Check[T a4Float](t *testing.T, name string, b *halide.Buffer[T], tol float64, ref func(c []int) float64) {
	t.Helper()
	apEach(b.Shape(), func(c []int) bool {
		got, want := float64(b.Get(c...)), ref(c)
		if math.Abs(got-want) > tol*(1+math.Abs(want)) || math.IsNaN(got) {
			t.Errorf("%s%v = %v, want %v", name, c, got, want)
			return false
		}
		return true
	})
}

// a4Param makes a scalar Param of type T set to v.
func a4Param[T a4Float](name string, v T) *halide.Param[T] {
	p := halide.NewParam[T](name)
	p.Set(v)
	return p
}

// a4Each runs f32 and f64 as subtests "<prefix>float32" and
// "<prefix>float64".
func a4Each(t *testing.T, prefix string, f32, f64 func(t *testing.T)) {
	t.Run(prefix+"float32", f32)
	t.Run(prefix+"float64", f64)
}

// ---------------------------------------------------------------------
// axpy (blas_l1_generators.cpp, AXPYGenerator; GeneratorParams
// vectorize=true, scale_x=true, add_to_y=true as registered).

func a4Axpy[T a4Float](t *testing.T, n int, scaleX, addToY bool) {
	rng := rand.New(rand.NewSource(41))
	typ, vecSize := a4Type[T](), a4Vec[T]()
	a := a4Param[T]("a", T(0.75))
	xb, yb := a4Rand[T](rng, n), a4Rand[T](rng, n)
	x, y := halide.NewImageParam("x", typ, 1), halide.NewImageParam("y", typ, 1)
	x.Set(xb)
	y.Set(yb)
	calc := func(i any) halide.Expr {
		switch {
		case scaleX && addToY:
			return a.Expr().Mul(x.At(i)).Add(y.At(i))
		case scaleX:
			return a.Expr().Mul(x.At(i))
		}
		return x.At(i)
	}
	size := x.Dim(0).Extent()
	sizeVecs := size.Div(int32(vecSize)).Mul(int32(vecSize))
	sizeTail := size.Sub(sizeVecs)
	i := halide.NewVar("i")
	vecs := halide.NewRDom("vec", halide.Range(0, sizeVecs))
	tail := halide.NewRDom("tail", halide.Range(sizeVecs, sizeTail))
	result := halide.NewFunc("result")
	result.Define(i).Is(halide.Undef(typ))
	result.Define(vecs).Is(calc(vecs))
	result.Define(tail).Is(calc(tail))
	result.Update(0).Vectorize(vecs, vecSize)
	result.Update(1).Unscheduled() // Leave the tail unvectorized
	result.Bound(i, 0, x.Dim(0).Extent())
	result.Dim(0).SetBounds(0, x.Dim(0).Extent())
	y.Dim(0).SetBounds(0, x.Dim(0).Extent())

	out := halide.NewBuffer[T](n)
	if err := apRun(result, false, out); err != nil {
		t.Fatal(err)
	}
	a4Check(t, "axpy", out, a4Tol[T](), func(c []int) float64 {
		xv, yv := float64(xb.Get(c[0])), float64(yb.Get(c[0]))
		switch {
		case scaleX && addToY:
			return 0.75*xv + yv
		case scaleX:
			return 0.75 * xv
		}
		return xv
	})
}

func TestAppPort4Axpy(t *testing.T) {
	for _, n := range []int{37, 64, 5} {
		a4Each(t, fmt.Sprintf("n%d_", n), func(t *testing.T) { a4Axpy[float32](t, n, true, true) }, func(t *testing.T) { a4Axpy[float64](t, n, true, true) })
	}
	// The other GeneratorParam settings (scale_x only, neither).
	t.Run("scale_x_only", func(t *testing.T) { a4Axpy[float32](t, 37, true, false) })
	t.Run("copy", func(t *testing.T) { a4Axpy[float64](t, 37, false, false) })
}

// ---------------------------------------------------------------------
// dot and asum (blas_l1_generators.cpp, DotGenerator and AbsSumGenerator,
// vectorize=true, and the vectorize=false algorithm).

func a4Dot[T a4Float](t *testing.T, n int, vectorize, absSum bool) {
	rng := rand.New(rand.NewSource(42))
	typ := a4Type[T]()
	vecSize := 1
	if vectorize {
		vecSize = a4Vec[T]()
	}
	xb, yb := a4Rand[T](rng, n), a4Rand[T](rng, n)
	x, y := halide.NewImageParam("x", typ, 1), halide.NewImageParam("y", typ, 1)
	x.Set(xb)
	y.Set(yb)
	term := func(e any) halide.Expr {
		if absSum {
			return halide.Abs(x.At(e))
		}
		return x.At(e).Mul(y.At(e))
	}
	size := x.Dim(0).Extent()
	sizeVecs := size.Div(int32(vecSize))
	sizeTail := size.Sub(sizeVecs.Mul(int32(vecSize)))
	i := halide.NewVar("i")
	result := halide.NewFunc("result")
	if vectorize {
		dot := halide.NewFunc("dot")
		k := halide.NewRDom("k", halide.Range(0, sizeVecs))
		dot.Define(i).PlusEq(term(k.X().Mul(int32(vecSize)).Add(i)))
		lanes := halide.NewRDom("lanes", halide.Range(0, vecSize))
		tail := halide.NewRDom("tail", halide.Range(sizeVecs.Mul(int32(vecSize)), sizeTail))
		result.Define().Is(halide.Sum(dot.At(lanes)))
		result.Define().PlusEq(halide.Sum(term(tail)))
		dot.ComputeRoot().Vectorize(i)
		dot.Update(0).Vectorize(i)
	} else {
		k := halide.NewRDom("k", halide.Range(0, size))
		result.Define().Is(halide.Sum(term(k)))
	}
	if !absSum {
		x.Dim(0).SetBounds(0, size)
		y.Dim(0).SetBounds(0, size)
	}
	out := halide.NewBuffer[T]()
	if err := apRun(result, false, out); err != nil {
		t.Fatal(err)
	}
	want := 0.0
	for j := 0; j < n; j++ {
		if absSum {
			want += math.Abs(float64(xb.Get(j)))
		} else {
			want += float64(xb.Get(j)) * float64(yb.Get(j))
		}
	}
	// A sum of n terms of magnitude <= 1: tolerance n times T's.
	a4Check(t, "result", out, float64(n)*a4Tol[T](), func([]int) float64 { return want })
}

func TestAppPort4Dot(t *testing.T) {
	for _, n := range []int{37, 64, 3} {
		a4Each(t, fmt.Sprintf("n%d_", n), func(t *testing.T) { a4Dot[float32](t, n, true, false) }, func(t *testing.T) { a4Dot[float64](t, n, true, false) })
	}
	t.Run("unvectorized", func(t *testing.T) {
		a4Each(t, "n37_", func(t *testing.T) { a4Dot[float32](t, 37, false, false) }, func(t *testing.T) { a4Dot[float64](t, 37, false, false) })
	})
}

func TestAppPort4AbsSum(t *testing.T) {
	for _, n := range []int{37, 64, 3} {
		a4Each(t, fmt.Sprintf("n%d_", n), func(t *testing.T) { a4Dot[float32](t, n, true, true) }, func(t *testing.T) { a4Dot[float64](t, n, true, true) })
	}
	t.Run("unvectorized", func(t *testing.T) {
		a4Each(t, "n37_", func(t *testing.T) { a4Dot[float32](t, 37, false, true) }, func(t *testing.T) { a4Dot[float64](t, 37, false, true) })
	})
}

// ---------------------------------------------------------------------
// gemv (blas_l2_generators.cpp, GEMVGenerator: vectorize=true,
// parallel=true, block_size=256, transpose false and true). output(i) =
// b*y(i) + a*(A*x)(i), A column-major: A(i, k) is row i, column k; the
// transposed form computes b*y(i) + a*(A^T*x)(i).

func a4Gemv[T a4Float](t *testing.T, width, height int, transpose, variant bool) error {
	rng := rand.New(rand.NewSource(43))
	typ, vecSize := a4Type[T](), a4Vec[T]()
	unrollSize := min(vecSize, 4)
	const blockSize = 1 << 8
	ab := a4Rand[T](rng, width, height)
	xn, yn := height, width
	if transpose {
		xn, yn = width, height
	}
	xb, yb := a4Rand[T](rng, xn), a4Rand[T](rng, yn)
	a, b := a4Param[T]("a", T(0.75)), a4Param[T]("b", T(-1.25))
	A := halide.NewImageParam("A", typ, 2)
	x, y := halide.NewImageParam("x", typ, 1), halide.NewImageParam("y", typ, 1)
	A.Set(ab)
	x.Set(xb)
	y.Set(yb)
	i, j := halide.NewVar("i"), halide.NewVar("j")
	result := halide.NewFunc("result")
	if transpose {
		size := A.Dim(1).Extent()
		sumSize := A.Dim(0).Extent()
		sumSizeVecs := sumSize.Div(int32(vecSize))

		prod := halide.NewFunc("prod")
		prod.Define(j, i).Is(A.At(j, i).Mul(x.At(j)))

		k := halide.NewRDom("k", halide.Range(0, sumSizeVecs))
		accumVecs := halide.NewFunc("accum_vecs")
		accumVecs.Define(j, i).PlusEq(prod.At(k.X().Mul(int32(vecSize)).Add(j), i))

		accumVecsTranspose := halide.NewFunc("accum_vecs_transpose")
		accumVecsTranspose.Define(i, j).Is(accumVecs.At(j, i))

		lanes := halide.NewRDom("lanes", halide.Range(0, vecSize))
		sumLanes := halide.NewFunc("sum_lanes")
		sumLanes.Define(i).PlusEq(accumVecsTranspose.At(i, lanes))

		tail := halide.NewRDom("tail", halide.Range(sumSizeVecs.Mul(int32(vecSize)), sumSize.Sub(sumSizeVecs.Mul(int32(vecSize)))))
		sumTail := halide.NewFunc("sum_tail")
		sumTail.Define(i).Is(sumLanes.At(i))
		sumTail.Define(i).PlusEq(prod.At(tail, i))

		Ax := halide.NewFunc("Ax")
		Ax.Define(i).Is(sumTail.At(i))
		result.Define(i).Is(b.Expr().Mul(y.At(i)).Add(a.Expr().Mul(Ax.At(i))))

		tv := halide.NewVar("t")
		result.Specialize(sumSize.Div(int32(vecSize)).Mul(int32(vecSize)).Eq(sumSize)).
			Specialize(size.Ge(int32(unrollSize))).
			Vectorize(i, unrollSize).
			Specialize(size.Ge(int32(blockSize))).
			Split(i, tv, i, blockSize/unrollSize).
			Parallel(tv)

		result.Specialize(size.Ge(int32(unrollSize))).
			Vectorize(i, unrollSize).
			Specialize(size.Ge(int32(blockSize))).
			Split(i, tv, i, blockSize/unrollSize).
			Parallel(tv)

		accumVecs.ComputeAt(result, i).Unroll(i).Unroll(j).
			Update(0).Reorder(i, j, k).Unroll(i).Unroll(j)
		accumVecsTranspose.ComputeAt(result, i).Unroll(i).Unroll(j)
		sumLanes.ComputeAt(result, i).Update(0).Unroll(lanes)
		sumTail.ComputeAt(result, i).Update(0).Reorder(i, tail)

		// vectorize_
		accumVecs.Vectorize(j).Update(0).Vectorize(j)
		accumVecsTranspose.Vectorize(j)
		// variant: sum_lanes and sum_tail vectorized by unroll_size, the
		// extent of their region at result's i, not by vec_size.
		vs := vecSize
		if variant {
			vs = unrollSize
		}
		sumLanes.Specialize(size.Ge(int32(vecSize))).Vectorize(i, vs)
		sumLanes.Update(0).Specialize(size.Ge(int32(vecSize))).Vectorize(i, vs)
		sumTail.Specialize(size.Ge(int32(vecSize))).Vectorize(i, vs)
		sumTail.Update(0).Specialize(size.Ge(int32(vecSize))).Vectorize(i, vs)

		x.Dim(0).SetBounds(0, A.Dim(0).Extent())
		y.Dim(0).SetBounds(0, A.Dim(1).Extent())
	} else {
		size := A.Dim(0).Extent()
		sumSize := A.Dim(1).Extent()
		sumSizeCols := sumSize.Div(int32(unrollSize)).Mul(int32(unrollSize))
		tailSize := sumSize.Sub(sumSizeCols)

		k := halide.NewRDom("k", halide.Range(0, sumSizeCols))
		tail := halide.NewRDom("tail", halide.Range(sumSizeCols, tailSize))
		block := halide.NewFunc("block")
		block.Define(i).Is(b.Expr().Mul(y.At(i)))
		block.Define(i).PlusEq(a.Expr().Mul(A.At(i, k)).Mul(x.At(k)))
		block.Define(i).PlusEq(a.Expr().Mul(A.At(i, tail)).Mul(x.At(tail)))
		result.Define(i).Is(block.At(i))

		ki, ii := halide.NewRVar("ki"), halide.NewVar("ii")
		result.Specialize(tailSize.Eq(0)).
			Specialize(size.Ge(int32(vecSize))).
			Vectorize(i, vecSize).
			Specialize(size.Ge(int32(unrollSize*vecSize))).
			Unroll(i, unrollSize).
			Specialize(size.Ge(int32(blockSize))).
			Split(i, i, ii, blockSize/(unrollSize*vecSize)).
			Parallel(i)

		result.Specialize(size.Ge(int32(vecSize))).
			Vectorize(i, vecSize).
			Specialize(size.Ge(int32(unrollSize*vecSize))).
			Unroll(i, unrollSize).
			Specialize(size.Ge(int32(blockSize))).
			Split(i, i, ii, blockSize/(unrollSize*vecSize)).
			Parallel(i)

		block.ComputeAt(result, i)
		block.Specialize(size.Ge(int32(vecSize))).Vectorize(i, vecSize)
		// variant: the update stages' splits guard their tails
		// (GuardWithIf) instead of the default (RoundUp).
		tailS := []halide.TailStrategy{}
		if variant {
			tailS = append(tailS, halide.GuardWithIf)
		}
		vecU := func(st *halide.Stage) *halide.Stage {
			if variant {
				return st.VectorizeTail(i, vecSize, halide.GuardWithIf)
			}
			return st.Vectorize(i, vecSize)
		}
		block.Update(0).
			Specialize(size.Ge(int32(vecSize)).And(sumSize.Ge(int32(unrollSize)))).
			Split(i, i, ii, vecSize, tailS...).
			Split(k, k, ki, unrollSize).
			Reorder(ii, ki, i, k).
			Vectorize(ii).
			Unroll(ki)
		vecU(block.Update(0).Specialize(size.Ge(int32(vecSize))))
		st := vecU(block.Update(1).
			Reorder(i, tail).
			Specialize(size.Ge(int32(vecSize)))).
			Specialize(sumSize.Ge(int32(unrollSize)))
		if variant {
			st.UnrollTail(i, unrollSize, halide.GuardWithIf)
		} else {
			st.Unroll(i, unrollSize)
		}
		x.Dim(0).SetBounds(0, A.Dim(1).Extent())
		y.Dim(0).SetBounds(0, A.Dim(0).Extent())
	}
	output := halide.NewFunc("output")
	output.Define(i).Is(result.At(i))
	result.ComputeRoot()
	size := x.Dim(0).Extent()
	ii := halide.NewVar("ii")
	output.Specialize(size.Ge(int32(vecSize))).
		Vectorize(i, vecSize).
		Specialize(size.Ge(int32(unrollSize*vecSize))).
		Unroll(i, unrollSize).
		Specialize(size.Ge(int32(blockSize))).
		Split(i, i, ii, blockSize/(unrollSize*vecSize)).
		Parallel(i)

	out := halide.NewBuffer[T](yn)
	if err := apRun(output, false, out); err != nil {
		return err
	}
	n := xn
	a4Check(t, "output", out, float64(n)*a4Tol[T](), func(c []int) float64 {
		r := c[0]
		s := 0.0
		for kk := 0; kk < n; kk++ {
			if transpose {
				s += float64(ab.Get(kk, r)) * float64(xb.Get(kk))
			} else {
				s += float64(ab.Get(r, kk)) * float64(xb.Get(kk))
			}
		}
		return -1.25*float64(yb.Get(r)) + 0.75*s
	})
	return nil
}

func TestAppPort4Gemv(t *testing.T) {
	// (width, height) of A: small (no vectorization), the middle cases
	// with and without a tail, and one past block_size (parallel).
	// As written, 3x2 and 40x16 run; 37x29 and 300x13 are refused: the
	// RoundUp tails of block's update stages read A past its end there,
	// as in Halide (gemv 1 at the end). The variant (GuardWithIf tails in
	// block's update stages) runs at every size.
	for _, wh := range [][2]int{{3, 2}, {37, 29}, {40, 16}, {300, 13}} {
		w, h := wh[0], wh[1]
		check := mpRefused
		if w < 4 || w == 40 {
			check = a4NoErr
		}
		a4Each(t, fmt.Sprintf("%dx%d_", w, h),
			func(t *testing.T) { check(t, a4Gemv[float32](t, w, h, false, false)) },
			func(t *testing.T) { check(t, a4Gemv[float64](t, w, h, false, false)) })
		a4Each(t, fmt.Sprintf("%dx%d_variant_", w, h),
			func(t *testing.T) { a4NoErr(t, a4Gemv[float32](t, w, h, false, true)) },
			func(t *testing.T) { a4NoErr(t, a4Gemv[float64](t, w, h, false, true)) })
	}
}

func TestAppPort4GemvTranspose(t *testing.T) {
	// float32 (vec_size 8 > unroll_size 4) is refused as written (gemv 2
	// at the end), float64 (vec_size 4) runs; the variant vectorizes
	// sum_lanes and sum_tail by unroll_size. A of 2x3 (3 rows, fewer than
	// unroll_size) runs in both (gemv 3, TestAppPort4Bug1).
	for _, wh := range [][2]int{{29, 37}, {16, 40}, {13, 300}} {
		w, h := wh[0], wh[1]
		a4Each(t, fmt.Sprintf("%dx%d_", w, h),
			func(t *testing.T) { mpRefused(t, a4Gemv[float32](t, w, h, true, false)) },
			func(t *testing.T) { a4NoErr(t, a4Gemv[float64](t, w, h, true, false)) })
		a4Each(t, fmt.Sprintf("%dx%d_variant_", w, h),
			func(t *testing.T) { a4NoErr(t, a4Gemv[float32](t, w, h, true, true)) },
			func(t *testing.T) { a4NoErr(t, a4Gemv[float64](t, w, h, true, true)) })
	}
	a4Each(t, "2x3_",
		func(t *testing.T) { a4NoErr(t, a4Gemv[float32](t, 2, 3, true, false)) },
		func(t *testing.T) { a4NoErr(t, a4Gemv[float64](t, 2, 3, true, false)) })
}

// TestAppPort4Bug1: transposed gemv on an A of 3 rows (size < unroll_size,
// so no case of result's specializations holds and result runs its
// unvectorized default, one row per iteration) was refused as reading A's
// rows [-3, 13]: the region of A was the union of every specialization
// case's footprint, also of the cases (vectorize(i, 4), ShiftInwards)
// whose condition size >= 4 is false at run time. Halide bounds each
// case under its condition and reads rows [0, 2] only; so does gohalide
// now (bounds/box.go rangeEnd, lower/specialize.go pruneDecidedCases; the
// minimal form is halide/spec_regions_test.go).
func TestAppPort4Bug1(t *testing.T) {
	a4NoErr(t, a4Gemv[float64](t, 2, 3, true, true))
	a4NoErr(t, a4Gemv[float32](t, 2, 3, true, true))
}

func a4NoErr(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// ---------------------------------------------------------------------
// ger (blas_l2_generators.cpp, GERGenerator: vectorize=true,
// parallel=true): result(i, j) += a*y(j)*x(i), in place on the output
// (undef pure definition: the output buffer's old values are read).

func a4Ger[T a4Float](t *testing.T, m, n int) {
	rng := rand.New(rand.NewSource(44))
	typ, vecSize := a4Type[T](), a4Vec[T]()
	a := a4Param[T]("a", T(0.75))
	xb, yb := a4Rand[T](rng, m), a4Rand[T](rng, n)
	x, y := halide.NewImageParam("x", typ, 1), halide.NewImageParam("y", typ, 1)
	x.Set(xb)
	y.Set(yb)
	i, j := halide.NewVar("i"), halide.NewVar("j")
	result := halide.NewFunc("result")
	result.Define(i, j).Is(halide.Undef(typ))
	result.Define(i, j).PlusEq(a.Expr().Mul(y.At(j)).Mul(x.At(i)))
	result.Update(0).VectorizeTail(i, vecSize*4, halide.GuardWithIf)
	result.Update(0).ParallelTail(j, 8, halide.GuardWithIf)
	result.Dim(0).SetBounds(0, x.Dim(0).Extent())
	result.Dim(1).SetBounds(0, y.Dim(0).Extent())

	out := a4Rand[T](rng, m, n)
	old := halide.NewBuffer[T](m, n)
	old.Fill(func(c []int) T { return out.Get(c...) })
	if err := apRun(result, false, out); err != nil {
		t.Fatal(err)
	}
	a4Check(t, "result", out, a4Tol[T](), func(c []int) float64 {
		return float64(old.Get(c...)) + 0.75*float64(yb.Get(c[1]))*float64(xb.Get(c[0]))
	})
}

func TestAppPort4Ger(t *testing.T) {
	for _, mn := range [][2]int{{37, 21}, {64, 16}, {3, 2}} {
		m, n := mn[0], mn[1]
		a4Each(t, fmt.Sprintf("%dx%d_", m, n), func(t *testing.T) { a4Ger[float32](t, m, n) }, func(t *testing.T) { a4Ger[float64](t, m, n) })
	}
}

// ---------------------------------------------------------------------
// gemm (blas_l3_generators.cpp, GEMMGenerator, transpose_A and
// transpose_B false or true): result = a*A*B + b*C, column-major.

func a4Gemm[T a4Float](t *testing.T, n int, transposeA, transposeB bool) error {
	rng := rand.New(rand.NewSource(45))
	typ := a4Type[T]()
	aBuf, bBuf, cBuf := a4Rand[T](rng, n, n), a4Rand[T](rng, n, n), a4Rand[T](rng, n, n)
	a, b := a4Param[T]("a_", T(0.75)), a4Param[T]("b_", T(-1.25))
	Ain, Bin, Cin := halide.NewImageParam("A_", typ, 2), halide.NewImageParam("B_", typ, 2), halide.NewImageParam("C_", typ, 2)
	Ain.Set(aBuf)
	Bin.Set(bBuf)
	Cin.Set(cBuf)
	numRows, numCols, sumSize := Ain.Dim(0).Extent(), Bin.Dim(1).Extent(), Ain.Dim(1).Extent()
	vec := max(4, a4Vec[T]())
	s := vec * 2
	AIn, BIn := Ain, Bin
	transposeAB := transposeA && transposeB
	tA := !transposeAB && transposeA
	tB := !transposeAB && transposeB
	if transposeAB {
		AIn, BIn = BIn, AIn
	}
	nv := halide.NewVar
	i, j, ii, ji, io, jo, tv := nv("i"), nv("j"), nv("ii"), nv("ji"), nv("io"), nv("jo"), nv("t")
	ti := []halide.Var{nv("ti0"), nv("ti1"), nv("ti2")}
	tj := []halide.Var{nv("tj0"), nv("tj1"), nv("tj2")}

	A, B, Btmp, As, Atmp := halide.NewFunc("A"), halide.NewFunc("B"), halide.NewFunc("Btmp"), halide.NewFunc("As"), halide.NewFunc("Atmp")
	Atmp.Define(i, j).Is(halide.ConstantExterior(AIn, halide.Lit(typ, 0)).At(i, j))
	if tA {
		As.Define(i, j, io).Is(Atmp.At(j, io.Mul(int32(s)).Add(i)))
	} else {
		As.Define(i, j, io).Is(Atmp.At(io.Mul(int32(s)).Add(i), j))
	}
	A.Define(i, j).Is(As.At(i.Mod(int32(s)), j, i.Div(int32(s))))
	Btmp.Define(i, j).Is(BIn.At(i, j))
	if tB {
		B.Define(i, j).Is(Btmp.At(j, i))
	} else {
		B.Define(i, j).Is(Btmp.At(i, j))
	}
	k := nv("k")
	prod := halide.NewFunc("prod")
	prod.Define(k, i, j).Is(A.At(i, k).Mul(B.At(k, j)))
	AB := halide.NewFunc("AB")
	rv := halide.NewRDom("rv", halide.Range(0, sumSize))
	AB.Define(i, j).PlusEq(prod.At(rv, i, j))
	ABt := halide.NewFunc("ABt")
	if transposeAB {
		ABt.Define(i, j).Is(AB.At(j, i))
	} else {
		ABt.Define(i, j).Is(AB.At(i, j))
	}
	result := halide.NewFunc("result")
	result.Define(i, j).Is(a.Expr().Mul(ABt.At(i, j)).Add(b.Expr().Mul(Cin.At(i, j))))

	result.Tile(i, j, ti[1], tj[1], i, j, 2*s, 2*s, halide.GuardWithIf)
	if transposeAB {
		result.Tile(i, j, i, j, ii, ji, 4, s).Tile(i, j, ti[0], tj[0], i, j, s/4, 1)
	} else {
		result.Tile(i, j, i, j, ii, ji, s, 4).Tile(i, j, ti[0], tj[0], i, j, 1, s/4)
	}
	result.Specialize(numRows.Ge(512).And(numCols.Ge(512))).Fuse(tj[1], ti[1], tv).Parallel(tv)
	result.Specialize(numRows.Ge(128).And(numCols.Ge(128))).
		Tile(ti[1], tj[1], ti[2], tj[2], ti[1], tj[1], 2, 2).
		Fuse(tj[2], ti[2], tv).Parallel(tv)
	// result_.rename(tj[0], t): not in the API (see the end).
	result.Bound(i, 0, numRows).Bound(j, 0, numCols)

	As.ComputeRoot().Split(j, jo, ji, s).Reorder(i, ji, io, jo).Unroll(i).Vectorize(ji).
		Specialize(Ain.Dim(0).Extent().Ge(256).And(Ain.Dim(1).Extent().Ge(256))).Parallel(jo, 4)
	Atmp.ComputeAt(As, io).Vectorize(i).Unroll(j)
	if tB {
		// compute_at(result_, t): t is tj[0] renamed in the default case
		// (every size tested here), so tj[0].
		B.ComputeAt(result, tj[0]).Tile(i, j, i, j, ii, ji, 8, 8).Vectorize(ii).Unroll(ji)
		Btmp.ReorderStorage(j, i).ComputeAt(B, i).Vectorize(i).Unroll(j)
	}
	// bound_extent(j, 4) and bound_extent(i, s): not in the API.
	AB.ComputeAt(result, i).Unroll(j).Vectorize(i).
		Update(0).Reorder(i, j, rv).Unroll(j).Unroll(rv, 2).Vectorize(i)
	if transposeAB {
		ABt.ComputeAt(result, i).Unroll(i).Vectorize(j)
	}
	Bin.Dim(0).SetBounds(0, sumSize)
	Cin.Dim(0).SetBounds(0, numRows)
	Cin.Dim(1).SetBounds(0, numCols)
	result.Dim(0).SetBounds(0, numRows)
	result.Dim(1).SetBounds(0, numCols)

	out := halide.NewBuffer[T](n, n)
	if err := apRun(result, false, out); err != nil {
		return err
	}
	av := func(r, c int) float64 {
		if transposeA {
			return float64(aBuf.Get(c, r))
		}
		return float64(aBuf.Get(r, c))
	}
	bv := func(r, c int) float64 {
		if transposeB {
			return float64(bBuf.Get(c, r))
		}
		return float64(bBuf.Get(r, c))
	}
	a4Check(t, "result", out, float64(n)*a4Tol[T](), func(c []int) float64 {
		sum := 0.0
		for kk := 0; kk < n; kk++ {
			sum += av(c[0], kk) * bv(kk, c[1])
		}
		return 0.75*sum - 1.25*float64(cBuf.Get(c[0], c[1]))
	})
	return nil
}

func TestAppPort4Gemm(t *testing.T) {
	for _, tr := range [][2]bool{{false, false}, {true, false}, {false, true}, {true, true}} {
		tA, tB := tr[0], tr[1]
		for _, n := range []int{40, 13} {
			a4Each(t, fmt.Sprintf("tA%v_tB%v_n%d_", tA, tB, n),
				func(t *testing.T) { a4NoErr(t, a4Gemm[float32](t, n, tA, tB)) },
				func(t *testing.T) { a4NoErr(t, a4Gemm[float64](t, n, tA, tB)) })
		}
	}
}

/*
Refusals, variants and what is not in the API.

gemv 1 (TestAppPort4Gemv, float32 and float64): the non-transposed
schedule as written runs for A of 3x2 and 40x16, and is refused at
Realize for 37x29 and 300x13, e.g. for 300x13 float32
  out_of_bounds: Func block: Realize: Func block reads input A over
  [0, 319] in dimension 0, but the buffer covers [0, 299]
(37x29: [0, 39], both types; 300x13 float64: [0, 303]). The splits of
block's update stages (split(i, i, ii, vec_size), vectorize(i,
vec_size), unroll(i, unroll_size) in the specializations) take the
default tail of an update (RoundUp), and round block's region at
result's i up to a multiple of vec_size * unroll_size. Where A's width
is not a multiple of that, the ShiftInwards blocks of result end at A's
end and the rounded-up loops go past it: at 300x13 float32, the last
block of 256 covers [64, 299], 236 wide, rounded up to 256, [64, 319].
By Halide's rules the bounds are the same (its RoundUp reads past A there
too, so its check of A's bounds would fail); 40x16 is a multiple of
every factor.
These were refused before at every size past vec_size with wider
regions ([0, 447] at 300x13): stage 1's region is the rounding up of
stage 2's, ((s2.max - s2.min)/32)*32 + s2.min + 31, with s2 = [min(t,
m - 7), min(t + 24, m - 7) + 7], and ranged over result's loop the two
ends of the width s2.max - s2.min were ranged apart, so the width
became all of result's region. The difference of two mins whose
operands differ by constants (min(t + 24, m) - min(t, m), in [0, 24])
is now bounded by those differences (bounds/expr.go sharedMinMaxDiff
and minMaxDiff, ir.DiffBounds), as Halide's simplifier rewrites it. For
3x2 (no case holds) it was also the union of the false cases (A read
over [0, 41]), which is fixed. The _variant gives those update splits
GuardWithIf tails, and runs at every size.

gemv 2 (TestAppPort4GemvTranspose, float32): refused with
  out_of_bounds: Func accum_vecs: Realize: Func accum_vecs reads input
  A over [-4, 80] in dimension 1, but the buffer covers [0, 36]
sum_lanes and sum_tail are vectorized by vec_size (8) in a region of
unroll_size (4) rows at result's i: ShiftInwards moves the vector 4 rows
down, before row 0. float64 (vec_size = unroll_size = 4) runs as written.
The variant vectorizes sum_lanes and sum_tail by unroll_size.

gemv 3 (TestAppPort4GemvTranspose/2x3_*, TestAppPort4Bug1): an A of 3
rows was refused (A read over rows [-3, 13] / [-7, 25]) in both the
faithful and the variant schedule: the regions counted the
specializations whose conditions are false. Fixed: a region end that
selects on a specialization condition inside it (min(select(c, a, b),
d)) is ranged over a loop once per value of c (bounds/box.go rangeEnd),
not as the union of the select's arms, and a case nested in another
Func's case whose condition decides it is dropped
(lower/specialize.go pruneDecidedCases). Both run now.

Fixed on the way (lower/unroll_loops.go): accum_vecs.unroll(i) in the
transposed gemv was refused ("cannot unroll loop accum_vecs.s0.i: its
extent (select((4 <= A.extent.1), ...)) is not a constant"): the extent
is select(size >= vec_size, 8 or 4 rows, ...) through sum_lanes'
specialized vectorize, and the interval walk lost the correlation of the
branches' terms. An unrolled (or vectorized) loop's extent is now bounded
case by case over the assignments of its select conditions (at most 4),
each case simplified on its own (selectCasesUpperBound), as Halide's
simplifier reduces it to select(c, 8, 4) with bound 8. Shown by
TestAppPort4GemvTranspose/*_float64 (faithful), which was refused.

Not in the API (nearest equivalents used): Func::rename (gemm's
result_.rename(tj[0], t); B.compute_at(result_, t) is written at tj[0],
which is what t names in the default case, the only case the sizes here
take); bound_extent (gemm's AB.bound_extent(j, 4) and (i, s), ABt's;
dropped, the regions are constant without them); ImageParam
dim(i).set_min (dropped; the buffers start at 0); natural_vector_size
(8 float32 / 4 float64 lanes, AVX2); Target::NoBoundsQuery (the assert is
dropped). axpy, dot, asum, ger and gemm (all four transpose settings) run
as written, in float32 and float64.

Not done: apps/fft (the 2-D FFT) and apps/resnet_50, for lack of time.

Sizes: axpy and dot/asum n = 37, 64, 3 (5 for axpy); gemv A of 3x2,
37x29, 40x16, 300x13 (past block_size = 256); transposed 2x3, 29x37,
16x40, 13x300; ger 37x21, 64x16, 3x2; gemm 40x40 and 13x13 (tiles of 32
with GuardWithIf tails).
*/
