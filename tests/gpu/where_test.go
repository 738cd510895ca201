package gpu_test

import (
	"math/rand"
	"strings"
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// RDom.Where on the CPU path and under a GPU schedule on the emulator: a
// triangular sum over a 2-D RDom, out(x) = sum of in(r.x, r.y) over the
// points with r.x + r.y <= x and r.y odd, against a plain-Go reference on
// random data. The lowered statement and the CUDA test the condition
// inside the loops.
func TestRDomWhere(t *testing.T) {
	const n, w, h = 13, 6, 5
	rng := rand.New(rand.NewSource(7))
	data := halide.NewBuffer[int32](w, h)
	data.Fill(func([]int) int32 { return int32(rng.Intn(200) - 100) })
	want := make([]int32, n)
	for x := 0; x < n; x++ {
		for ry := 0; ry < h; ry++ {
			for rx := 0; rx < w; rx++ {
				if rx+ry <= x && ry%2 == 1 {
					want[x] += data.Get(rx, ry)
				}
			}
		}
	}
	for _, gpu := range []bool{false, true} {
		x := halide.NewVar("x")
		xo, xi := halide.NewVar("xo"), halide.NewVar("xi")
		in := halide.NewImageParam("in", halide.Int32, 2)
		in.Set(data)
		r := halide.NewRDom("r", halide.Range(0, w), halide.Range(0, h))
		r.Where(r.X().Add(r.Y()).Le(x))
		r.Where(r.Y().Mod(2).Eq(1))
		f := halide.NewFunc("f")
		f.Define(x).Is(int32(0))
		f.Define(x).PlusEq(in.At(r.X(), r.Y()))
		if gpu {
			f.GPUTile1D(x, xo, xi, 4)
			f.Update(0).GPUTile1D(x, xo, xi, 4)
		}
		p := halide.NewPipeline(f)
		out := halide.NewBuffer[int32](n)
		if err := p.Realize(out); err != nil {
			t.Fatalf("gpu=%v: %v", gpu, err)
		}
		for i, v := range out.Data() {
			if v != want[i] {
				t.Errorf("gpu=%v: f(%d) = %d, want %d", gpu, i, v, want[i])
			}
		}
		l, err := p.Lower()
		if err != nil {
			t.Fatal(err)
		}
		text := l.String()
		if gpu {
			if text, err = l.CUDA(); err != nil {
				t.Fatal(err)
			}
		}
		if !strings.Contains(text, "% 2") && !strings.Contains(text, "& 1") && !strings.Contains(text, "mod") {
			t.Errorf("gpu=%v: the lowered code does not test r.y's parity:\n%s", gpu, text)
		}
	}
}
