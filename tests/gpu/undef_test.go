package gpu_test

import (
	"math/rand"
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// Undef on the CPU path and on the emulator: a pure definition of Undef
// whose updates write every point (a copy of the first row, then a
// recursive filter down the columns), and an update that stores only
// where a condition holds, against a plain-Go reference on random data.
func TestUndef(t *testing.T) {
	const w, h = 9, 6
	rng := rand.New(rand.NewSource(3))
	data := halide.NewBuffer[int32](w, h)
	data.Fill(func([]int) int32 { return int32(rng.Intn(100) - 50) })
	want := make([]int32, w*h)
	for x := 0; x < w; x++ {
		want[x] = data.Get(x, 0)
		for y := 1; y < h; y++ {
			want[x+w*y] = int32(refDiv(int64(want[x+w*(y-1)]), 2)) + data.Get(x, y) // Euclidean, as in Halide
		}
		for y := 0; y < h; y++ {
			if v := want[x+w*y]; v > 0 {
				want[x+w*y] = v * 3
			}
		}
	}
	for _, gpu := range []bool{false, true} {
		x, y := halide.NewVar("x"), halide.NewVar("y")
		xo, xi := halide.NewVar("xo"), halide.NewVar("xi")
		in := halide.NewImageParam("in", halide.Int32, 2)
		in.Set(data)
		r := halide.NewRDom("r", halide.Range(1, h-1))
		f := halide.NewFunc("f")
		f.Define(x, y).Is(halide.Undef(halide.Int32))
		f.Define(x, 0).Is(in.At(x, 0))
		f.Define(x, r.X()).Is(f.At(x, r.X().Sub(1)).Div(2).Add(in.At(x, r.X())))
		f.Define(x, y).Is(halide.Select(f.At(x, y).Gt(0), f.At(x, y).Mul(3), halide.Undef(halide.Int32)))
		if gpu {
			for i := 1; i <= 3; i++ {
				f.Update(i-1).GPUTile1D(x, xo, xi, 4)
			}
		}
		out := halide.NewBuffer[int32](w, h)
		if err := halide.NewPipeline(f).Realize(out); err != nil {
			t.Fatalf("gpu=%v: %v", gpu, err)
		}
		for i, v := range out.Data() {
			if v != want[i] {
				t.Errorf("gpu=%v: f(%d, %d) = %d, want %d", gpu, i%w, i/w, v, want[i])
			}
		}
	}
}
