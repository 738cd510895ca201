package halide_test

import (
	"errors"
	"math/rand"
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// Realize into a buffer smaller than what the schedule writes realizes
// the region written and copies the part asked for back, as Halide's
// realize(sizes) (realize_grow.go): every value is the plain-Go
// reference's, on the CPU and the emulator, and the buffer given is the
// only one written.
func TestRealizeGrowsOutput(t *testing.T) {
	rng := rand.New(rand.NewSource(21))
	inBuf := halide.NewBuffer[float32](64, 40).SetMin(-8, -4)
	for i := range inBuf.Data() {
		inBuf.Data()[i] = rng.Float32()*4 - 2
	}
	at := func(x, y int) float32 {
		return inBuf.Get(min(max(x, -8), 55), min(max(y, -4), 35))
	}
	ref := func(x, y int) float32 { return at(x, y)*2 + at(x+1, y) }
	type schedule func(f *halide.Func, x, y halide.Var)
	cases := []struct {
		name  string
		sched schedule
		w, h  int
		minX  int
	}{
		{"RoundUp tile", func(f *halide.Func, x, y halide.Var) {
			xi, yi := halide.NewVar("xi"), halide.NewVar("yi")
			f.Tile(x, y, x, y, xi, yi, 16, 8, halide.RoundUp)
		}, 30, 13, 3},
		{"ShiftInwards vector wider than the output", func(f *halide.Func, x, y halide.Var) {
			f.VectorizeTail(x, 8, halide.ShiftInwards)
		}, 5, 3, -2},
		{"RoundUp unroll", func(f *halide.Func, x, y halide.Var) {
			f.UnrollTail(y, 4, halide.RoundUp)
		}, 7, 6, 0},
		{"GPU tile RoundUp", func(f *halide.Func, x, y halide.Var) {
			bx, by, tx, ty := halide.NewVar("bx"), halide.NewVar("by"), halide.NewVar("tx"), halide.NewVar("ty")
			f.Tile(x, y, bx, by, tx, ty, 8, 4, halide.RoundUp).GPUBlocks(bx, by).GPUThreads(tx, ty)
		}, 19, 9, 1},
		{"AlignBounds", func(f *halide.Func, x, y halide.Var) {
			f.AlignBounds(x, 8, 0)
		}, 11, 2, 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			x, y := halide.NewVar("x"), halide.NewVar("y")
			in := halide.NewImageParam("in", halide.Float32, 2)
			in.Set(inBuf)
			cl := halide.RepeatEdge(in)
			f := halide.NewFunc("f")
			f.Define(x, y).Is(cl.At(x, y).Mul(float32(2)).Add(cl.At(x.Add(1), y)))
			c.sched(f, x, y)
			out := halide.NewBuffer[float32](c.w, c.h).SetMin(c.minX, -1)
			if err := halide.NewPipeline(f).WithTarget(halide.Emulator).Realize(out); err != nil {
				t.Fatal(err)
			}
			for yy := -1; yy < c.h-1; yy++ {
				for xx := c.minX; xx < c.minX+c.w; xx++ {
					if got, want := out.Get(xx, yy), ref(xx, yy); got != want {
						t.Fatalf("f(%d, %d) = %v, want %v", xx, yy, got, want)
					}
				}
			}
		})
	}
}

// A scatter of the output past its buffer (Halide's partial_realization)
// and a Tuple output rounded up: both buffers of the Tuple get the crop.
func TestRealizeGrowsScatterAndTuple(t *testing.T) {
	t.Run("scatter", func(t *testing.T) {
		x := halide.NewVar("x")
		r := halide.NewRDom("r", halide.Range(0, 50))
		hist := halide.NewFunc("hist")
		hist.Define(x).Is(int32(0))
		hist.Define(halide.E(r).Mul(3).Sub(20)).PlusEq(halide.E(r))
		out := halide.NewBuffer[int32](40).SetMin(-5)
		if err := hist.Realize(out); err != nil {
			t.Fatal(err)
		}
		for i := -5; i < 35; i++ {
			want := int32(0)
			if (i+20)%3 == 0 {
				want = int32((i + 20) / 3)
			}
			if got := out.Get(i); got != want {
				t.Fatalf("hist(%d) = %d, want %d", i, got, want)
			}
		}
	})
	t.Run("tuple", func(t *testing.T) {
		x, xi := halide.NewVar("x"), halide.NewVar("xi")
		f := halide.NewFunc("f")
		f.Define(x).Is(halide.NewTuple(x.Mul(3), halide.Cast(halide.Float32, x).Mul(float32(0.5))))
		f.Split(x, x, xi, 8, halide.RoundUp).Vectorize(xi)
		a, b := halide.NewBuffer[int32](13).SetMin(2), halide.NewBuffer[float32](13).SetMin(2)
		if err := f.RealizeTuple(a, b); err != nil {
			t.Fatal(err)
		}
		for i := 2; i < 15; i++ {
			if a.Get(i) != int32(3*i) || b.Get(i) != float32(i)*0.5 {
				t.Fatalf("f(%d) = (%d, %v), want (%d, %v)", i, a.Get(i), b.Get(i), 3*i, float32(i)*0.5)
			}
		}
	})
}

// A pipeline whose values read the output buffer's shape (Func.Dim) is
// not grown (its values would change with the buffer): the tail's check
// refuses the buffer, as before.
func TestRealizeDoesNotGrowWhenShapeIsRead(t *testing.T) {
	x, xi := halide.NewVar("x"), halide.NewVar("xi")
	f := halide.NewFunc("f")
	f.Define(x).Is(x.Add(f.Width()))
	f.Split(x, x, xi, 8, halide.RoundUp)
	err := f.Realize(halide.NewBuffer[int32](13))
	var he *halide.Error
	if !errors.As(err, &he) || he.Func != "f" {
		t.Fatalf("got %v, want a typed error of f's RoundUp tail", err)
	}
	out := halide.NewBuffer[int32](16)
	if err := f.Realize(out); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 16; i++ {
		if out.Get(i) != int32(i+16) {
			t.Fatalf("f(%d) = %d, want %d", i, out.Get(i), i+16)
		}
	}
}

// The region a scatter writes counts against Options.MaxAllocationBytes:
// past it, Realize is a typed ErrAllocationTooLarge error and the buffer
// given is not touched.
func TestRealizeGrowthRespectsTheAllocationLimit(t *testing.T) {
	x := halide.NewVar("x")
	r := halide.NewRDom("r", halide.Range(0, 1000))
	f := halide.NewFunc("f")
	f.Define(x).Is(int32(7))
	f.Define(halide.E(r).Mul(1000)).Is(halide.E(r))
	out := halide.NewBuffer[int32](10)
	err := halide.NewPipeline(f).WithOptions(halide.Options{MaxAllocationBytes: 1 << 20}).Realize(out)
	var he *halide.Error
	if !errors.As(err, &he) || he.Code != halide.ErrAllocationTooLarge || he.Func != "f" {
		t.Fatalf("got %v, want an ErrAllocationTooLarge error of f", err)
	}
	for i := 0; i < 10; i++ {
		if out.Get(i) != 0 {
			t.Fatalf("out(%d) = %d, want it untouched (0)", i, out.Get(i))
		}
	}
	// Within the limit, the values are right.
	if err := halide.NewPipeline(f).WithOptions(halide.Options{MaxAllocationBytes: 1 << 23}).Realize(out); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 10; i++ {
		want := int32(7)
		if i == 0 {
			want = 0
		}
		if out.Get(i) != want {
			t.Fatalf("out(%d) = %d, want %d", i, out.Get(i), want)
		}
	}
}
