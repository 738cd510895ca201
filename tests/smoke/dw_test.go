package smoke

import (
	"fmt"
	"math"
	"math/rand"
	"testing"

	"github.com/gohalide/gohalide/halide"
)

func TestDepthwiseSmoke(t *testing.T) {
	const B, C, H, W, K = 2, 3, 9, 11, 3
	in := halide.NewImageParam("in", halide.Float32, 4) // x, y, c, b (NCHW reversed)
	w := halide.NewImageParam("w", halide.Float32, 3)   // kx, ky, c
	x, y, c, b := halide.NewVar("x"), halide.NewVar("y"), halide.NewVar("c"), halide.NewVar("b")
	pad := halide.ConstantExterior(in, 0)
	r := halide.NewRDom("r", halide.Range(0, K), halide.Range(0, K))
	dw := halide.NewFunc("dw")
	dw.Define(x, y, c, b).Is(halide.Sum(pad.At(x.Add(r.X()).Sub(K/2), y.Add(r.Y()).Sub(K/2), c, b).Mul(w.At(r.X(), r.Y(), c))))
	xo, xi, yo, yi := halide.NewVar("xo"), halide.NewVar("xi"), halide.NewVar("yo"), halide.NewVar("yi")
	dw.Tile(x, y, xo, yo, xi, yi, 4, 4, halide.GuardWithIf).Fuse(c, b, halide.NewVar("cb")).Parallel(halide.NewVar("cb")).Unroll(xi)
	pl := halide.NewPipeline(dw).WithOptions(halide.Options{Verify: true})
	l, err := pl.Lower()
	if err != nil {
		t.Fatal(err)
	}
	fmt.Println(l.LoopNest)
	rng := rand.New(rand.NewSource(1))
	ib := halide.NewBuffer[float32](W, H, C, B)
	ib.Fill(func([]int) float32 { return rng.Float32()*2 - 1 })
	wb := halide.NewBuffer[float32](K, K, C)
	wb.Fill(func([]int) float32 { return rng.Float32()*2 - 1 })
	in.Set(ib)
	w.Set(wb)
	ob := halide.NewBuffer[float32](W, H, C, B)
	if err := pl.Realize(ob); err != nil {
		t.Fatal(err)
	}
	for bb := 0; bb < B; bb++ {
		for cc := 0; cc < C; cc++ {
			for yy := 0; yy < H; yy++ {
				for xx := 0; xx < W; xx++ {
					s := 0.0
					for ky := 0; ky < K; ky++ {
						for kx := 0; kx < K; kx++ {
							ix, iy := xx+kx-K/2, yy+ky-K/2
							if ix >= 0 && ix < W && iy >= 0 && iy < H {
								s += float64(ib.Get(ix, iy, cc, bb)) * float64(wb.Get(kx, ky, cc))
							}
						}
					}
					if got := float64(ob.Get(xx, yy, cc, bb)); math.Abs(got-s) > 1e-5 {
						t.Fatalf("(%d,%d,%d,%d) = %v want %v", xx, yy, cc, bb, got, s)
					}
				}
			}
		}
	}
}
