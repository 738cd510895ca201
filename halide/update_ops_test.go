package halide_test

import (
	"errors"
	"math"
	"math/rand"
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// The operator updates on a Func with no pure definition define it first
// as Halide's f(x) op= e does (0 for += and -=, 1 for *= and /=, the op's
// identity for MinEq and MaxEq, of the value's type), over the update's
// Vars; and the value combines with f's by Halide's type rules.
func TestUpdateOpsBaseCase(t *testing.T) {
	const n = 37
	rng := rand.New(rand.NewSource(11))
	in := halide.NewBuffer[uint8](n, 5)
	for i := range in.Data() {
		in.Data()[i] = uint8(rng.Intn(256))
	}
	x := halide.NewVar("x")
	r := halide.NewRDom("r", halide.Range(0, 5))
	at := func(xx, rr int) int32 { return int32(in.Get(xx, rr)) }
	cases := []struct {
		name   string
		define func(f *halide.Func)
		want   func(xx int) int32
	}{
		{"plus", func(f *halide.Func) { f.Define(x).PlusEq(halide.Cast(halide.Int32, in.At(x, r))) }, func(xx int) int32 {
			s := int32(0)
			for rr := 0; rr < 5; rr++ {
				s += at(xx, rr)
			}
			return s
		}},
		{"minus", func(f *halide.Func) { f.Define(x).MinusEq(halide.Cast(halide.Int32, in.At(x, r))) }, func(xx int) int32 {
			s := int32(0)
			for rr := 0; rr < 5; rr++ {
				s -= at(xx, rr)
			}
			return s
		}},
		{"times", func(f *halide.Func) { f.Define(x).TimesEq(halide.Cast(halide.Int32, in.At(x, r)).Mod(7).Add(1)) }, func(xx int) int32 {
			p := int32(1)
			for rr := 0; rr < 5; rr++ {
				p *= at(xx, rr)%7 + 1
			}
			return p
		}},
		{"div", func(f *halide.Func) { f.Define(x).DivEq(halide.Cast(halide.Int32, in.At(x, 0)).Mod(3).Add(1)) }, func(xx int) int32 {
			return 1 / (at(xx, 0)%3 + 1)
		}},
		{"min", func(f *halide.Func) { f.Define(x).MinEq(halide.Cast(halide.Int32, in.At(x, r))) }, func(xx int) int32 {
			m := int32(math.MaxInt32)
			for rr := 0; rr < 5; rr++ {
				m = min(m, at(xx, rr))
			}
			return m
		}},
		{"max, a uint8 value widened to f's int32", func(f *halide.Func) {
			f.Define(x).Is(int32(-1))
			f.Define(x).MaxEq(in.At(x, r))
		}, func(xx int) int32 {
			m := int32(-1)
			for rr := 0; rr < 5; rr++ {
				m = max(m, at(xx, rr))
			}
			return m
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := halide.NewFunc("f")
			c.define(f)
			out := halide.NewBuffer[int32](n)
			if err := halide.NewPipeline(f).Realize(out); err != nil {
				t.Fatal(err)
			}
			for xx := 0; xx < n; xx++ {
				if got, want := out.Get(xx), c.want(xx); got != want {
					t.Fatalf("f(%d) = %d, want %d", xx, got, want)
				}
			}
		})
	}

	// A float value does not convert to an int32 f implicitly.
	f := halide.NewFunc("f")
	f.Define(x).Is(int32(0))
	f.Define(x).PlusEq(halide.Cast(halide.Float32, in.At(x, r)))
	var he *halide.Error
	if err := halide.NewPipeline(f).Realize(halide.NewBuffer[int32](n)); !errors.As(err, &he) || he.Code != halide.ErrType || he.Func != "f" {
		t.Errorf("int32 f += float32: %v, want ErrType naming f", err)
	}
}
