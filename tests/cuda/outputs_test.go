//go:build cuda

package cuda_test

import (
	"math/rand"
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// TestSeveralOutputs realizes a pipeline of three outputs on the GPU, one
// kernel each, where the later outputs read the earlier ones' buffers (g
// reads f and h, h reads f), against plain Go.
func TestSeveralOutputs(t *testing.T) {
	rng := rand.New(rand.NewSource(9))
	in := halide.NewBuffer[int32](300)
	in.Fill(func([]int) int32 { return int32(rng.Intn(1000) - 500) })
	f, g, h := halide.NewFunc("f"), halide.NewFunc("g"), halide.NewFunc("h")
	x, y, xi, yi := halide.NewVar("x"), halide.NewVar("y"), halide.NewVar("xi"), halide.NewVar("yi")
	f.Define(x).Is(in.At(x).Add(x))
	h.Define(x).Is(halide.NewTuple(f.At(x).Add(17), f.At(x).Sub(17)))
	g.Define(x, y).Is(f.At(x.Add(y)).Mul(2).Add(h.AtTuple(x).Elem(0).Mul(y)).Sub(h.AtTuple(x).Elem(1)))
	f.GPUTile1D(x, x, xi, 32)
	h.GPUTile1D(x, x, xi, 32)
	g.GPUTile(x, y, x, y, xi, yi, 16, 8)
	fIm, gIm := halide.NewBuffer[int32](300), halide.NewBuffer[int32](100, 50)
	h0, h1 := halide.NewBuffer[int32](100), halide.NewBuffer[int32](100)
	p := halide.NewPipeline(g, h, f).WithTarget(halide.CUDA)
	if err := p.RealizeTuple(gIm, h0, h1, fIm); err != nil {
		t.Fatal(err)
	}
	fv := func(i int) int32 { return in.Get(i) + int32(i) }
	for i := 0; i < 300; i++ {
		if fIm.Get(i) != fv(i) {
			t.Fatalf("f(%d) = %d, want %d", i, fIm.Get(i), fv(i))
		}
	}
	for i := 0; i < 100; i++ {
		if h0.Get(i) != fv(i)+17 || h1.Get(i) != fv(i)-17 {
			t.Fatalf("h(%d) = (%d, %d), want (%d, %d)", i, h0.Get(i), h1.Get(i), fv(i)+17, fv(i)-17)
		}
		for j := 0; j < 50; j++ {
			want := fv(i+j)*2 + (fv(i)+17)*int32(j) - (fv(i) - 17)
			if gIm.Get(i, j) != want {
				t.Fatalf("g(%d, %d) = %d, want %d", i, j, gIm.Get(i, j), want)
			}
		}
	}
}

// TestArgmaxRFactor factors a row argmax over chunks of columns, each
// chunk's partial result in a GPU block, and merges the chunks in order:
// with many equal values, the column found is still the first maximum.
func TestArgmaxRFactor(t *testing.T) {
	const w, h = 1000, 37
	rng := rand.New(rand.NewSource(10))
	img := halide.NewBuffer[int32](w, h)
	img.Fill(func([]int) int32 { return int32(rng.Intn(20)) })
	y, u := halide.NewVar("y"), halide.NewVar("u")
	r := halide.NewRDom("r", halide.Range(0, w))
	am := halide.NewFunc("am")
	am.Define(y).Is(halide.NewTuple(int32(-1), int32(-1)))
	old := am.AtTuple(y)
	am.Define(y).Is(halide.SelectTuple(img.At(r, y).Gt(old.Elem(1)), halide.NewTuple(r, img.At(r, y)), old))
	ro, ri := halide.NewRVar("ro"), halide.NewRVar("ri")
	intm := am.Update(0).Split(r, ro, ri, 64).RFactor(halide.RFactorPair{R: ro, V: u})
	intm.ComputeRoot().GPUBlocks(u).GPUThreads(y)
	intm.Update(0).Reorder(y, u).GPUBlocks(u).GPUThreads(y)
	col, val := halide.NewBuffer[int32](h), halide.NewBuffer[int32](h)
	if err := halide.NewPipeline(am).WithTarget(halide.CUDA).RealizeTuple(col, val); err != nil {
		t.Fatal(err)
	}
	for j := 0; j < h; j++ {
		best := 0
		for i := 1; i < w; i++ {
			if img.Get(i, j) > img.Get(best, j) {
				best = i
			}
		}
		if int(col.Get(j)) != best || val.Get(j) != img.Get(best, j) {
			t.Fatalf("row %d: (%d, %d), want (%d, %d)", j, col.Get(j), val.Get(j), best, img.Get(best, j))
		}
	}
}

// TestRealizeGrowsOnCUDA realizes GPU tiles rounded up (RoundUp) into an
// output smaller than the tiles: the pipeline computes the region the
// kernel writes on the device and the part asked for is copied back, as
// Halide's realize(sizes); twice, so the device reuses its buffers.
func TestRealizeGrowsOnCUDA(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	in := halide.NewBuffer[float32](200, 90)
	in.Fill(func([]int) float32 { return rng.Float32()*2 - 1 })
	x, y := halide.NewVar("x"), halide.NewVar("y")
	bx, by, tx, ty := halide.NewVar("bx"), halide.NewVar("by"), halide.NewVar("tx"), halide.NewVar("ty")
	f := halide.NewFunc("f")
	f.Define(x, y).Is(in.At(x, y).Mul(float32(3)).Sub(in.At(x.Add(1), y.Add(1))))
	f.Tile(x, y, bx, by, tx, ty, 32, 8, halide.RoundUp).GPUBlocks(bx, by).GPUThreads(tx, ty)
	p := halide.NewPipeline(f).WithTarget(halide.CUDA)
	for run := 0; run < 2; run++ {
		out := halide.NewBuffer[float32](150, 77)
		if err := p.Realize(out); err != nil {
			t.Fatal(err)
		}
		for j := 0; j < 77; j++ {
			for i := 0; i < 150; i++ {
				want := in.Get(i, j)*3 - in.Get(i+1, j+1)
				if d := out.Get(i, j) - want; d > 1e-6 || d < -1e-6 {
					t.Fatalf("run %d: f(%d, %d) = %v, want %v (tolerance 1e-6)", run, i, j, out.Get(i, j), want)
				}
			}
		}
	}
}
