package gpu_test

// Ports of the rest of Halide's atomics.cpp (test/correctness): its
// histograms of every type, the 16-bit floats among them, and its Tuple
// tests. Halide runs the 16-bit floats and the Tuples on the CPU only
// ("float16 is possible but not implemented yet" on CUDA; a Tuple update
// takes a mutex there); here the 16-bit floats run on the GPU too (a
// compare-and-swap loop on their bits), and so does a Tuple update whose
// values each read only their own element (one atomic update per value).
// A Tuple update whose values read one another (a swap, an argmax) holds
// a lock over the whole Tuple on the CPU and is refused in a kernel, as
// Halide does. Every result is compared exactly with a plain-Go sequential
// reference: each update adds the same constant, so the order in which the
// atomic updates land does not change the result, even where the type
// rounds (bfloat16 stops at 256) or wraps (uint8).

import (
	"errors"
	"testing"

	"github.com/gohalide/gohalide/half"
	"github.com/gohalide/gohalide/halide"
)

// atomicType is one element type of the ported tests, with its arithmetic
// in plain Go.
type atomicType[T halide.Number] struct {
	ty   halide.Type
	from func(float64) T // a small integer as T
	to   func(T) float64
	add  func(a, b T) T // a + b, rounded or wrapped as T does
}

func atomicTypes() (i32 atomicType[int32], u8 atomicType[uint8], f32 atomicType[float32], f16 atomicType[halide.F16], bf16 atomicType[halide.BF16]) {
	i32 = atomicType[int32]{halide.Int32, func(v float64) int32 { return int32(v) }, func(v int32) float64 { return float64(v) }, func(a, b int32) int32 { return a + b }}
	u8 = atomicType[uint8]{halide.UInt8, func(v float64) uint8 { return uint8(v) }, func(v uint8) float64 { return float64(v) }, func(a, b uint8) uint8 { return a + b }}
	f32 = atomicType[float32]{halide.Float32, func(v float64) float32 { return float32(v) }, func(v float32) float64 { return float64(v) }, func(a, b float32) float32 { return a + b }}
	f16 = atomicType[halide.F16]{halide.Float16, half.Float16FromFloat64, halide.F16.ToFloat64,
		func(a, b halide.F16) halide.F16 { return half.Float16FromFloat32(a.ToFloat32() + b.ToFloat32()) }}
	bf16 = atomicType[halide.BF16]{halide.BFloat16, half.BFloat16FromFloat64, halide.BF16.ToFloat64,
		func(a, b halide.BF16) halide.BF16 { return half.BFloat16FromFloat32(a.ToFloat32() + b.ToFloat32()) }}
	return
}

// TestPortedAtomicsAllTypes runs atomics.cpp's test_all for each type:
// the CPU schedules (parallel; parallel and vectorized) and the GPU ones
// (blocks and threads; with a vectorized inner loop).
func TestPortedAtomicsAllTypes(t *testing.T) {
	i32, u8, f32, f16, bf16 := atomicTypes()
	t.Run("int32", func(t *testing.T) { runAtomicsAll(t, i32) })
	t.Run("uint8", func(t *testing.T) { runAtomicsAll(t, u8) })
	t.Run("float32", func(t *testing.T) { runAtomicsAll(t, f32) })
	t.Run("float16", func(t *testing.T) { runAtomicsAll(t, f16) })
	t.Run("bfloat16", func(t *testing.T) { runAtomicsAll(t, bf16) })
}

// atomicSchedules are atomics.cpp's backends: how the update's RVar r
// runs.
var atomicSchedules = []struct {
	name  string
	gpu   bool
	apply func(s *halide.Stage, r halide.RVar)
}{
	{"cpu", false, func(s *halide.Stage, r halide.RVar) { s.Atomic().Parallel(r) }},
	{"cpu_vectorize", false, func(s *halide.Stage, r halide.RVar) {
		ro, ri := halide.NewRVar("ro"), halide.NewRVar("ri")
		s.Atomic().Split(r, ro, ri, 8).Parallel(ro).Vectorize(ri)
	}},
	{"gpu", true, func(s *halide.Stage, r halide.RVar) {
		ro, ri := halide.NewRVar("ro"), halide.NewRVar("ri")
		s.Atomic().Split(r, ro, ri, 32).GPUBlocks(ro).GPUThreads(ri)
	}},
	{"gpu_vectorize", true, func(s *halide.Stage, r halide.RVar) {
		ro, ri, rio, rii := halide.NewRVar("ro"), halide.NewRVar("ri"), halide.NewRVar("rio"), halide.NewRVar("rii")
		s.Atomic().Split(r, ro, ri, 32).Split(ri, rio, rii, 4).GPUBlocks(ro).GPUThreads(rio).Vectorize(rii)
	}},
}

func runAtomicsAll[T halide.Number](t *testing.T, at atomicType[T]) {
	const imgSize, histSize = 1000, 7
	x := halide.NewVar("x")
	c := func(v float64) halide.Expr { return halide.Cast(at.ty, v) }
	// im(x) = x*x % histSize, the bins.
	bins := func() (*halide.Func, *halide.RDom) {
		im := halide.NewFunc("im")
		im.Define(x).Is(x.Mul(x).Mod(histSize))
		return im, halide.NewRDom("r", halide.Range(0, imgSize))
	}
	// ref runs update(bin value(s)) sequentially over the image.
	ref := func(values int, update func(old []T) []T) [][]T {
		h := make([][]T, values)
		for v := range h {
			h[v] = make([]T, histSize)
		}
		for i := 0; i < imgSize; i++ {
			k := (i * i) % histSize
			old := make([]T, values)
			for v := range old {
				old[v] = h[v][k]
			}
			for v, n := range update(old) {
				h[v][k] = n
			}
		}
		return h
	}
	check := func(t *testing.T, name string, out *halide.Buffer[T], want []T) {
		t.Helper()
		for k := range histSize {
			if got := out.Get(k); got != want[k] {
				t.Errorf("%s(%d) = %v, want %v", name, k, got, want[k])
			}
		}
	}
	for _, s := range atomicSchedules {
		t.Run(s.name, func(t *testing.T) {
			// test_parallel_hist: hist(im(r)) += 1.
			t.Run("parallel_hist", func(t *testing.T) {
				im, r := bins()
				hist := halide.NewFunc("hist")
				hist.Define(x).Is(c(0))
				hist.Define(im.At(r.X())).PlusEq(c(1))
				hist.ComputeRoot()
				s.apply(hist.Update(0), r.X())
				want := ref(1, func(old []T) []T { return []T{at.add(old[0], at.from(1))} })
				for iter := 0; iter < 2; iter++ {
					out := halide.NewBuffer[T](histSize)
					if err := portedPipeline(hist).Realize(out); err != nil {
						t.Fatal(err)
					}
					check(t, "hist", out, want[0])
				}
			})
			// test_parallel_cas_update: hist(im(r)) = min(hist(im(r)) + 1, 100),
			// which no native atomic does.
			t.Run("parallel_cas_update", func(t *testing.T) {
				im, r := bins()
				hist := halide.NewFunc("hist")
				hist.Define(x).Is(c(0))
				hist.Define(im.At(r.X())).Is(halide.Min(hist.At(im.At(r.X())).Add(c(1)), c(100)))
				hist.ComputeRoot()
				s.apply(hist.Update(0), r.X())
				want := ref(1, func(old []T) []T {
					v := at.add(old[0], at.from(1))
					if at.to(v) > 100 {
						v = at.from(100)
					}
					return []T{v}
				})
				out := halide.NewBuffer[T](histSize)
				if err := portedPipeline(hist).Realize(out); err != nil {
					t.Fatal(err)
				}
				check(t, "hist", out, want[0])
			})
			// test_parallel_hist_tuple: hist(im(r)) += Tuple(1, 2). Each value
			// reads only its own element, so each is an atomic update of its
			// own, on the GPU too.
			t.Run("parallel_hist_tuple", func(t *testing.T) {
				im, r := bins()
				hist := halide.NewFunc("hist")
				hist.Define(x).Is(halide.NewTuple(c(0), c(0)))
				old := hist.AtTuple(im.At(r.X()))
				hist.Define(im.At(r.X())).Is(halide.NewTuple(old.Elem(0).Add(c(1)), old.Elem(1).Add(c(2))))
				hist.ComputeRoot()
				s.apply(hist.Update(0), r.X())
				want := ref(2, func(old []T) []T { return []T{at.add(old[0], at.from(1)), at.add(old[1], at.from(2))} })
				out0, out1 := halide.NewBuffer[T](histSize), halide.NewBuffer[T](histSize)
				if err := portedPipeline(hist).RealizeTuple(out0, out1); err != nil {
					t.Fatal(err)
				}
				check(t, "hist.0", out0, want[0])
				check(t, "hist.1", out1, want[1])
			})
			// test_parallel_hist_tuple2: the values swap, each reading the
			// other: a lock over the Tuple on the CPU; refused in a kernel.
			t.Run("parallel_hist_tuple2", func(t *testing.T) {
				im, r := bins()
				im.ComputeRoot()
				hist := halide.NewFunc("hist")
				hist.Define(x).Is(halide.NewTuple(c(0), c(0)))
				old := hist.AtTuple(im.At(r.X()))
				hist.Define(im.At(r.X())).Is(halide.NewTuple(old.Elem(1).Add(c(1)), old.Elem(0).Add(c(2))))
				hist.ComputeRoot()
				s.apply(hist.Update(0), r.X())
				out0, out1 := halide.NewBuffer[T](histSize), halide.NewBuffer[T](histSize)
				err := portedPipeline(hist).RealizeTuple(out0, out1)
				if s.gpu {
					wantRefused(t, err, "hist")
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				want := ref(2, func(old []T) []T { return []T{at.add(old[1], at.from(1)), at.add(old[0], at.from(2))} })
				check(t, "hist.0", out0, want[0])
				check(t, "hist.1", out1, want[1])
			})
			// test_tuple_reduction: an argmax, whose index reads the max.
			t.Run("tuple_reduction", func(t *testing.T) {
				const n = 2000
				im := halide.NewFunc("im")
				im.Define(x).Is(halide.Cast(at.ty, halide.Abs(halide.Sin(halide.Cast(halide.Float32, x))).Mul(float32(120))))
				im.Define(1234).Is(c(125)) // one winner
				r := halide.NewRDom("r", halide.Range(0, n))
				am := halide.NewFunc("arg_max")
				am.Define().Is(halide.NewTuple(halide.Cast(halide.Int32, 0), im.At(0)))
				old := am.AtTuple()
				am.Define().Is(halide.NewTuple(halide.Select(old.Elem(1).Lt(im.At(r.X())), r.X(), old.Elem(0)), halide.Max(im.At(r.X()), old.Elem(1))))
				am.ComputeRoot()
				s.apply(am.Update(0), r.X())
				idx, mx := halide.NewBuffer[int32](), halide.NewBuffer[T]()
				err := portedPipeline(am).RealizeTuple(idx, mx)
				if s.gpu {
					wantRefused(t, err, "arg_max")
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				if idx.Get() != 1234 || mx.Get() != at.from(125) {
					t.Errorf("arg_max = (%d, %v), want (1234, 125)", idx.Get(), mx.Get())
				}
			})
			if s.gpu {
				return
			}
			// test_hist_tuple_compute_at: the swapping Tuple histogram per
			// row of a parallel consumer.
			t.Run("hist_tuple_compute_at", func(t *testing.T) {
				y := halide.NewVar("y")
				im, r := bins()
				hist, final := halide.NewFunc("hist"), halide.NewFunc("final")
				hist.Define(x).Is(halide.NewTuple(c(0), c(0)))
				old := hist.AtTuple(im.At(r.X()))
				hist.Define(im.At(r.X())).Is(halide.NewTuple(old.Elem(1).Add(c(1)), old.Elem(0).Add(c(2))))
				h := hist.AtTuple(x.Add(y).Mod(histSize))
				final.Define(x, y).Is(halide.NewTuple(h.Elem(0), h.Elem(1)))
				final.ComputeRoot().Parallel(y)
				hist.ComputeAt(final, y)
				s.apply(hist.Update(0), r.X())
				want := ref(2, func(old []T) []T { return []T{at.add(old[1], at.from(1)), at.add(old[0], at.from(2))} })
				out0, out1 := halide.NewBuffer[T](10, 10), halide.NewBuffer[T](10, 10)
				if err := portedPipeline(final).RealizeTuple(out0, out1); err != nil {
					t.Fatal(err)
				}
				for i := range 10 {
					for j := range 10 {
						k := (i + j) % histSize
						if out0.Get(i, j) != want[0][k] || out1.Get(i, j) != want[1][k] {
							t.Fatalf("final(%d, %d) = (%v, %v), want (%v, %v)", i, j, out0.Get(i, j), out1.Get(i, j), want[0][k], want[1][k])
						}
					}
				}
			})
		})
	}
	// test_hist_tuple_rfactor: hist(im(r.x, r.y)) += Tuple(1, 2), factored
	// over r.y; the intermediate's update atomic over r.x.
	for _, s := range atomicSchedules {
		t.Run("hist_tuple_rfactor/"+s.name, func(t *testing.T) {
			const size = 60
			y := halide.NewVar("y")
			im := halide.NewFunc("im")
			im.Define(x, y).Is(x.Add(1).Mul(y.Add(1)).Mod(histSize))
			r := halide.NewRDom("r", halide.Range(0, size), halide.Range(0, size))
			hist := halide.NewFunc("hist")
			hist.Define(x).Is(halide.NewTuple(c(0), c(0)))
			k := im.At(r.X(), r.Y())
			old := hist.AtTuple(k)
			hist.Define(k).Is(halide.NewTuple(old.Elem(0).Add(c(1)), old.Elem(1).Add(c(2))))
			intm := hist.Update(0).RFactor(halide.RFactorPair{R: r.Y(), V: y})
			intm.ComputeRoot()
			hist.ComputeRoot()
			s.apply(intm.Update(0), r.X())
			out0, out1 := halide.NewBuffer[T](histSize), halide.NewBuffer[T](histSize)
			if err := portedPipeline(hist).RealizeTuple(out0, out1); err != nil {
				t.Fatal(err)
			}
			// Per row of r.y a histogram, then the rows summed in order.
			want0, want1 := make([]T, histSize), make([]T, histSize)
			for j := 0; j < size; j++ {
				row0, row1 := make([]T, histSize), make([]T, histSize)
				for i := 0; i < size; i++ {
					b := ((i + 1) * (j + 1)) % histSize
					row0[b] = at.add(row0[b], at.from(1))
					row1[b] = at.add(row1[b], at.from(2))
				}
				for b := range histSize {
					want0[b] = at.add(want0[b], row0[b])
					want1[b] = at.add(want1[b], row1[b])
				}
			}
			check(t, "hist.0", out0, want0)
			check(t, "hist.1", out1, want1)
		})
	}
}

// wantRefused checks that err is the typed refusal of an atomic Tuple
// update that needs a lock inside a kernel, naming f.
func wantRefused(t *testing.T, err error, f string) {
	t.Helper()
	var he *halide.Error
	if !errors.As(err, &he) || he.Code != halide.ErrSchedule || he.Func != f || he.Directive != "atomic" {
		t.Fatalf("got %v, want the ErrSchedule refusal of atomic for %s", err, f)
	}
}
