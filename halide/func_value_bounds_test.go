package halide_test

import (
	"errors"
	"math/rand"
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// TestFuncValueBounds checks that a Func called in an index bounds it by
// the values its definitions give (Halide's function value bounds), when
// the Func is realized rather than inlined: the histogram's bins computed
// at the root, a lookup keyed by a uint8 image through a Func, and a key
// clamped inside a Func. A Func whose update reads itself gives no bound,
// and its use as an unbounded index is still refused.
func TestFuncValueBounds(t *testing.T) {
	x := halide.NewVar("x")
	rng := rand.New(rand.NewSource(7))

	t.Run("histogram of bins computed at the root", func(t *testing.T) {
		const n, bins = 500, 7
		im, hist := halide.NewFunc("im"), halide.NewFunc("hist")
		im.Define(x).Is(x.Mul(x).Mod(bins))
		im.ComputeRoot()
		r := halide.NewRDom("r", halide.Range(0, n))
		hist.Define(x).Is(int32(0))
		hist.Define(im.At(r.X())).PlusEq(int32(1))
		out := halide.NewBuffer[int32](bins)
		if err := halide.NewPipeline(hist).Realize(out); err != nil {
			t.Fatal(err)
		}
		want := make([]int32, bins)
		for i := 0; i < n; i++ {
			want[(i*i)%bins]++
		}
		for k := range bins {
			if got := out.Get(k); got != want[k] {
				t.Errorf("hist(%d) = %d, want %d", k, got, want[k])
			}
		}
	})

	t.Run("lookup keyed by a uint8 image and a clamped key", func(t *testing.T) {
		const w = 64
		in := halide.NewImageParam("in", halide.UInt8, 1)
		ib := halide.NewBuffer[uint8](w)
		for i := range w {
			ib.Set(uint8(rng.Intn(256)), i)
		}
		in.Set(ib)
		lut, key, key2, out := halide.NewFunc("lut"), halide.NewFunc("key"), halide.NewFunc("key2"), halide.NewFunc("out")
		lut.Define(x).Is(x.Mul(3).Add(1))
		lut.ComputeRoot()
		key.Define(x).Is(halide.Cast(halide.Int32, in.At(x))) // [0, 255]
		key.ComputeRoot()
		key2.Define(x).Is(halide.Clamp(halide.Cast(halide.Int32, in.At(x)).Sub(100), 0, 50)) // [0, 50]
		key2.ComputeRoot()
		out.Define(x).Is(lut.At(key.At(x)).Add(lut.At(key2.At(x))))
		got := halide.NewBuffer[int32](w)
		p := halide.NewPipeline(out)
		if err := p.Realize(got); err != nil {
			t.Fatal(err)
		}
		for i := range w {
			v := int32(ib.Get(i))
			k2 := min(max(v-100, 0), 50)
			if want := (v*3 + 1) + (k2*3 + 1); got.Get(i) != want {
				t.Errorf("out(%d) = %d, want %d", i, got.Get(i), want)
			}
		}
	})

	t.Run("an update that reads itself gives no bound", func(t *testing.T) {
		h, out := halide.NewFunc("h"), halide.NewFunc("out")
		r := halide.NewRDom("r", halide.Range(0, 4))
		h.Define(x).Is(x.Mod(4))
		h.Define(r.X()).Is(h.At(r.X()).Add(1000))
		h.ComputeRoot()
		g := halide.NewFunc("g")
		g.Define(x).Is(x)
		g.ComputeRoot()
		out.Define(x).Is(g.At(h.At(x)))
		_, err := halide.NewPipeline(out).Lower()
		var he *halide.Error
		if !errors.As(err, &he) || he.Code != halide.ErrUnbounded {
			t.Fatalf("Lower: %v; want ErrUnbounded (h's update reads h, so h's values are not bounded)", err)
		}
	})
}
