//go:build cuda

package cuda_test

import (
	"math/rand"
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// TestSpecializeCUDA runs a stage with three cases, a kernel each with its
// own block size (chosen on the host), and a producer computed in shared
// memory in every case, on the GPU, taking every case, against a plain-Go
// reference: f(x, y) = (b ? g + 1 : g)(x, y) + g(x + 1, y), g = 2 in.
func TestSpecializeCUDA(t *testing.T) {
	device(t)
	x, y := halide.NewVar("x"), halide.NewVar("y")
	xo, yo, xi, yi := halide.NewVar("xo"), halide.NewVar("yo"), halide.NewVar("xi"), halide.NewVar("yi")
	in := halide.NewImageParam("in", halide.Float32, 2)
	w := halide.NewParam[int32]("w")
	b := halide.NewParam[bool]("b")
	g := halide.NewFunc("g")
	g.Define(x, y).Is(in.At(x, y).Mul(2))
	f := halide.NewFunc("f")
	f.Define(x, y).Is(halide.Select(b, g.At(x, y).Add(1), g.At(x, y)).Add(g.At(x.Add(1), y)))
	f.Specialize(w.Expr().Eq(8)).GPUTile(x, y, xo, yo, xi, yi, 8, 8)
	f.Specialize(b).GPUTile(x, y, xo, yo, xi, yi, 32, 2)
	f.GPUTile(x, y, xo, yo, xi, yi, 16, 4)
	g.ComputeAt(f, xo).StoreIn(halide.GPUShared).GPUThreads(x, y)
	p := halide.NewPipeline(f).WithTarget(halide.CUDA)
	rng := rand.New(rand.NewSource(7300))
	for _, wv := range []int32{8, 5} {
		for _, bv := range []bool{false, true} {
			nx, ny := 100+rng.Intn(50), 40+rng.Intn(20)
			ib := halide.NewBuffer[float32](nx+1, ny)
			ib.Fill(func([]int) float32 { return rng.Float32() })
			in.Set(ib)
			w.Set(wv)
			b.Set(bv)
			out := halide.NewBuffer[float32](nx, ny)
			if err := p.Realize(out); err != nil {
				t.Fatalf("w=%d b=%v: %v", wv, bv, err)
			}
			for yy := 0; yy < ny; yy++ {
				for xx := 0; xx < nx; xx++ {
					want := ib.Get(xx, yy) * 2
					if bv {
						want++
					}
					want += ib.Get(xx+1, yy) * 2
					if got := out.Get(xx, yy); got != want {
						t.Fatalf("w=%d b=%v: f(%d, %d) = %v, want %v", wv, bv, xx, yy, got, want)
					}
				}
			}
		}
	}
	r, err := p.Report()
	if err != nil {
		t.Fatal(err)
	}
	if len(r) != 3 {
		t.Fatalf("%d kernels, want one per case", len(r))
	}
	for _, k := range r {
		t.Logf("%s when %s: block %v", k.Name, k.Case, k.Block)
	}
}
