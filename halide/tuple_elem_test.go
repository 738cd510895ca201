package halide_test

// Tests of SelectTuple with a Tuple of conditions, MuxTuple and the
// update of one value of a Tuple Func (Definer.Elem), on the CPU and on
// the GPU emulator, against plain-Go references on random inputs. Their
// mistakes are in tests/errors/tuple_elem_test.go.

import (
	"math/rand"
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// teInputs returns two w x h buffers of random values: a of int32 in
// [-50, 50) and b of float32 in [-1, 1) (neither has zeros only).
func teInputs(seed int64, w, h int) (*halide.Buffer[int32], *halide.Buffer[float32]) {
	rng := rand.New(rand.NewSource(seed))
	a, b := halide.NewBuffer[int32](w, h), halide.NewBuffer[float32](w, h)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			a.Set(int32(rng.Intn(100)-50), x, y)
			b.Set(rng.Float32()*2-1, x, y)
		}
	}
	return a, b
}

// teRun realizes the Tuple Func f (int32, float32) over w x h, its stages
// (the pure definition and updates updates) tiled on the GPU when gpu is
// set, and checks it against ref.
func teRun(t *testing.T, f *halide.Func, updates int, gpu bool, w, h int, ref func(x, y int) (int32, float32)) {
	t.Helper()
	if gpu {
		x, y := halide.NewVar("x"), halide.NewVar("y")
		bx, by, tx, ty := halide.NewVar("bx"), halide.NewVar("by"), halide.NewVar("tx"), halide.NewVar("ty")
		f.GPUTile(x, y, bx, by, tx, ty, 8, 4)
		for i := 0; i < updates; i++ {
			f.Update(i).GPUTile(x, y, bx, by, tx, ty, 8, 4)
		}
	}
	p := halide.NewPipeline(f).WithOptions(halide.Options{Verify: true})
	if gpu {
		rep, err := p.Report()
		if err != nil {
			t.Fatal(err)
		}
		if len(rep) != updates+1 {
			t.Fatalf("%d kernels, want one per stage, %d", len(rep), updates+1)
		}
	}
	o0, o1 := halide.NewBuffer[int32](w, h), halide.NewBuffer[float32](w, h)
	if err := p.RealizeTuple(o0, o1); err != nil {
		t.Fatal(err)
	}
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			w0, w1 := ref(x, y)
			if g0, g1 := o0.Get(x, y), o1.Get(x, y); g0 != w0 || g1 != w1 {
				t.Fatalf("f(%d, %d) = (%d, %g), want (%d, %g)", x, y, g0, g1, w0, w1)
			}
		}
	}
}

func teBoth(t *testing.T, body func(t *testing.T, gpu bool)) {
	t.Run("cpu", func(t *testing.T) { body(t, false) })
	t.Run("gpu", func(t *testing.T) { body(t, true) })
}

func TestSelectTupleOfConditions(t *testing.T) {
	const w, h = 19, 13 // not multiples of the GPU tile: the tails run too
	a, b := teInputs(1, w, h)
	teBoth(t, func(t *testing.T, gpu bool) {
		x, y := halide.NewVar("x"), halide.NewVar("y")
		f := halide.NewFunc("f")
		// value 0 is a where a > 0, else -a; value 1 is b where b < 0.25,
		// else b * 2: each value has its own condition.
		f.Define(x, y).Is(halide.SelectTuple(
			halide.NewTuple(a.At(x, y).Gt(0), b.At(x, y).Lt(float32(0.25))),
			halide.NewTuple(a.At(x, y), b.At(x, y)),
			halide.NewTuple(a.At(x, y).Neg(), b.At(x, y).Mul(float32(2)))))
		teRun(t, f, 0, gpu, w, h, func(x, y int) (int32, float32) {
			v0, v1 := a.Get(x, y), b.Get(x, y)
			if v0 <= 0 {
				v0 = -v0
			}
			if v1 >= 0.25 {
				v1 *= 2
			}
			return v0, v1
		})
	})
}

func TestMuxTuple(t *testing.T) {
	const w, h = 17, 9
	a, b := teInputs(2, w, h)
	teBoth(t, func(t *testing.T, gpu bool) {
		x, y := halide.NewVar("x"), halide.NewVar("y")
		f := halide.NewFunc("f")
		// The index runs from -1 to 3 over x: out of range below and
		// above gives the last Tuple, as Halide's mux does.
		f.Define(x, y).Is(halide.MuxTuple(x.Mod(5).Sub(1),
			halide.NewTuple(a.At(x, y), b.At(x, y)),
			halide.NewTuple(a.At(x, y).Add(100), b.At(x, y).Add(float32(10))),
			halide.NewTuple(y, halide.Cast(halide.Float32, x))))
		teRun(t, f, 0, gpu, w, h, func(x, y int) (int32, float32) {
			switch x%5 - 1 {
			case 0:
				return a.Get(x, y), b.Get(x, y)
			case 1:
				return a.Get(x, y) + 100, b.Get(x, y) + 10
			}
			return int32(y), float32(x)
		})
	})
}

func TestTupleElemUpdate(t *testing.T) {
	const w, h = 21, 11
	a, b := teInputs(3, w, h)
	teBoth(t, func(t *testing.T, gpu bool) {
		x, y := halide.NewVar("x"), halide.NewVar("y")
		f := halide.NewFunc("f")
		f.Define(x, y).Is(halide.NewTuple(a.At(x, y), b.At(x, y)))
		f.Define(x, y).Elem(0).PlusEq(x.Mul(y))                      // f(x, y)[0] += x*y
		f.Define(x, y).Elem(1).TimesEq(b.At(x, y).Add(float32(0.5))) // f(x, y)[1] *= b + 0.5
		f.Define(x, y).Elem(0).MinusEq(uint8(3))                     // a narrower type adapts
		f.Define(x, y).Elem(1).DivEq(float32(4))                     // a constant
		f.Define(x, y).Elem(0).MaxEq(a.At(x, y).Mul(2))              // f(x, y)[0] = max(f(x, y)[0], 2a)
		f.Define(x, y).Elem(1).MinEq(float32(0.125))                 // f(x, y)[1] = min(f(x, y)[1], 0.125)
		// f(x, y)[0] = f(x, y)[0] * 3 + value 1 read as an int: an
		// update that reads the other value, which it leaves alone.
		f.Define(x, y).Elem(0).Is(f.AtTuple(x, y).Elem(0).Mul(3).Add(halide.Cast(halide.Int32, f.AtTuple(x, y).Elem(1).Mul(float32(100)))))
		// f(x, y)[1] += select(x < 5, 1, undef): written only where x < 5.
		f.Define(x, y).Elem(1).PlusEq(halide.Select(x.Lt(5), float32(1), halide.Undef(halide.Float32)))
		teRun(t, f, 8, gpu, w, h, func(x, y int) (int32, float32) {
			v0, v1 := a.Get(x, y), b.Get(x, y)
			v0 += int32(x * y)
			v1 *= b.Get(x, y) + 0.5
			v0 -= 3
			v1 /= 4
			v0 = max(v0, 2*a.Get(x, y))
			v1 = min(v1, 0.125)
			v0 = v0*3 + int32(v1*100)
			if x < 5 {
				v1 += 1
			}
			return v0, v1
		})
	})
}

// TestTupleElemScatter updates one value of a Tuple Func at computed
// coordinates over an RDom: a histogram (value 0) that keeps, in value 1,
// the largest sample of each bin, updated by an update of its own.
func TestTupleElemScatter(t *testing.T) {
	const n, bins = 200, 8
	rng := rand.New(rand.NewSource(4))
	in := halide.NewBuffer[float32](n)
	for i := 0; i < n; i++ {
		in.Set(rng.Float32()*8, i)
	}
	x := halide.NewVar("x")
	r := halide.NewRDom("r", halide.Range(0, n))
	bin := halide.Clamp(halide.Cast(halide.Int32, in.At(r)), 0, bins-1)
	f := halide.NewFunc("f")
	f.Define(x).Is(halide.NewTuple(int32(0), float32(-1)))
	f.Define(bin).Elem(0).PlusEq(1)
	f.Define(bin).Elem(1).MaxEq(in.At(r))
	count, top := halide.NewBuffer[int32](bins), halide.NewBuffer[float32](bins)
	if err := f.RealizeTuple(count, top); err != nil {
		t.Fatal(err)
	}
	wantCount, wantTop := make([]int32, bins), make([]float32, bins)
	for i := range wantTop {
		wantTop[i] = -1
	}
	for i := 0; i < n; i++ {
		v := in.Get(i)
		k := min(max(int(v), 0), bins-1)
		wantCount[k]++
		wantTop[k] = max(wantTop[k], v)
	}
	for k := 0; k < bins; k++ {
		if count.Get(k) != wantCount[k] || top.Get(k) != wantTop[k] {
			t.Fatalf("bin %d = (%d, %g), want (%d, %g)", k, count.Get(k), top.Get(k), wantCount[k], wantTop[k])
		}
	}
}
