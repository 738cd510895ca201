package differential_test

import (
	"errors"
	"math/rand"
	"regexp"
	"strings"
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// floatIndexPipeline is g(x) = f(int32(clamp(in(x), 0, 1) * s)) with f(x) =
// x at the root and s a float32 Param: f's region is [int32(min(0, s)),
// int32(max(0, s))], known only when s is, as in Halide (its bilateral_grid
// sizes the grid from r_sigma this way).
func floatIndexPipeline(gpu bool) (*halide.Pipeline, *halide.ImageParam, *halide.Param[float32]) {
	x := halide.NewVar("x")
	in := halide.NewImageParam("in", halide.Float32, 1)
	s := halide.NewParam[float32]("s")
	f := halide.NewFunc("f")
	f.Define(x).Is(x)
	g := halide.NewFunc("g")
	g.Define(x).Is(f.At(halide.Cast(halide.Int32, halide.Clamp(in.At(x), 0, 1).Mul(s.Expr()))))
	f.ComputeRoot()
	if gpu {
		xo, xi := halide.NewVar("xo"), halide.NewVar("xi")
		f.GPUTile1D(x, xo, xi, 8)
		g.GPUTile1D(x, xo, xi, 8, halide.GuardWithIf)
	}
	return halide.NewPipeline(g).WithOptions(halide.Options{Verify: true}), in, s
}

// wrappedSize matches an allocation whose size folded to a constant of 0
// or less, or a region extent of 2^32 (what a wrapped int32 extent came
// from).
var wrappedSize = regexp.MustCompile(`allocate \w+\[\w+ \* (0|-\d+)\]|4294967296`)

func TestFloatParamIndex(t *testing.T) {
	for _, gpu := range []bool{false, true} {
		name := map[bool]string{false: "cpu", true: "emulator"}[gpu]
		t.Run(name, func(t *testing.T) {
			p, in, s := floatIndexPipeline(gpu)
			l, err := p.Lower()
			if err != nil {
				t.Fatal(err)
			}
			text := l.String()
			if m := wrappedSize.FindString(text); m != "" {
				t.Fatalf("a wrapped size in the lowered statement: %q\n%s", m, text)
			}
			// 0 * s is 0 for the numbers the interval bounds (NaN, at an
			// infinite s, converts to 0 and is in the region too).
			if !strings.Contains(text, "int32(max(0.0f, s))") {
				t.Errorf("f's region is not sized from s:\n%s", text)
			}
			// Halide's answer: f(int32(clamp(v, 0, 1) * 8)) for v = 0,
			// .25, .5, .75 is 0, 2, 4, 6; then values drawn at random,
			// and a negative s.
			for _, tc := range []struct {
				v []float32
				s float32
			}{
				{[]float32{0, .25, .5, .75}, 8},
				{randomFloats(37, -0.5, 1.5), 100},
				{randomFloats(13, -0.5, 1.5), -20.5},
			} {
				b := halide.NewBuffer[float32](len(tc.v))
				for i, v := range tc.v {
					b.Set(v, i)
				}
				in.Set(b)
				s.Set(tc.s)
				out := halide.NewBuffer[int32](len(tc.v))
				if err := p.Realize(out); err != nil {
					t.Fatalf("s = %v: %v", tc.s, err)
				}
				for i, v := range tc.v {
					want := int32(min(max(v, 0), 1) * tc.s)
					if got := out.Get(i); got != want {
						t.Errorf("s = %v: g(%d) = %d, want %d (in = %v)", tc.s, i, got, want, v)
					}
				}
			}
			// A Param so large that f's region does not fit in int32:
			// refused before the allocation, not wrapped.
			b := halide.NewBuffer[float32](4)
			b.Fill(func([]int) float32 { return 1 })
			in.Set(b)
			s.Set(3e9)
			err = p.Realize(halide.NewBuffer[int32](4))
			var he *halide.Error
			if !errors.As(err, &he) || he.Code != halide.ErrAllocationTooLarge || he.Func != "f" {
				t.Fatalf("s = 3e9: got %v, want an ErrAllocationTooLarge error naming f", err)
			}
			t.Log(err)
		})
	}
}

func randomFloats(n int, lo, hi float32) []float32 {
	rng := rand.New(rand.NewSource(int64(n)))
	v := make([]float32, n)
	for i := range v {
		v[i] = lo + (hi-lo)*rng.Float32()
	}
	return v
}

// TestFloatParamIndexShared is the GPU form of the case: a histogram in
// shared memory, one copy per block, whose bins are int32(clamp(in(r), 0,
// 1) * s). Its size is known only at launch (dynamic shared memory, the
// maximum over the blocks), and a Param that makes it wrap is refused
// before the launch instead of sizing the allocation with a wrapped value
// (which the emulator caught as an out-of-bounds store, and CUDA, which
// has no bounds checks, would not have).
func TestFloatParamIndexShared(t *testing.T) {
	x := halide.NewVar("x")
	in := halide.NewImageParam("in", halide.Float32, 1)
	s := halide.NewParam[float32]("s")
	r := halide.NewRDom("r", halide.Range(0, 16))
	h := halide.NewFunc("hist")
	h.Define(x).Is(float32(0))
	h.Define(halide.Cast(halide.Int32, halide.Clamp(in.At(r.X()), 0, 1).Mul(s.Expr()))).PlusEq(float32(1))
	g := halide.NewFunc("g")
	g.Define(x).Is(h.At(x))
	xo, xi := halide.NewVar("xo"), halide.NewVar("xi")
	g.GPUTile1D(x, xo, xi, 8, halide.GuardWithIf)
	h.ComputeAt(g, xo).StoreIn(halide.GPUShared)
	p := halide.NewPipeline(g).WithOptions(halide.Options{Verify: true})
	l, err := p.Lower()
	if err != nil {
		t.Fatal(err)
	}
	if m := wrappedSize.FindString(l.String()); m != "" {
		t.Fatalf("a wrapped size in the lowered statement: %q\n%s", m, l)
	}
	vals := randomFloats(16, -0.25, 1.25)
	b := halide.NewBuffer[float32](16)
	for i, v := range vals {
		b.Set(v, i)
	}
	in.Set(b)
	for _, sv := range []float32{30, 7.5} {
		s.Set(sv)
		out := halide.NewBuffer[float32](33).SetMin(-1)
		if err := p.Realize(out); err != nil {
			t.Fatalf("s = %v: %v", sv, err)
		}
		want := map[int32]float32{}
		for _, v := range vals {
			want[int32(min(max(v, 0), 1)*sv)]++
		}
		for i := -1; i < 32; i++ {
			if got := out.Get(i); got != want[int32(i)] {
				t.Errorf("s = %v: g(%d) = %v, want %v", sv, i, got, want[int32(i)])
			}
		}
	}
	s.Set(3e9)
	err = p.Realize(halide.NewBuffer[float32](8))
	var he *halide.Error
	if !errors.As(err, &he) || he.Code != halide.ErrAllocationTooLarge || he.Func != "hist" {
		t.Fatalf("s = 3e9: got %v, want an ErrAllocationTooLarge error naming hist", err)
	}
	t.Log(err)
}
