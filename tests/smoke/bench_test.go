package smoke

import (
	"testing"

	"github.com/gohalide/gohalide/halide"
)

func BenchmarkLowerSmokeDepthwise(b *testing.B) {
	const K = 3
	in := halide.NewImageParam("in", halide.Float32, 4)
	w := halide.NewImageParam("w", halide.Float32, 3)
	x, y, c, bb := halide.NewVar("x"), halide.NewVar("y"), halide.NewVar("c"), halide.NewVar("b")
	pad := halide.ConstantExterior(in, 0)
	r := halide.NewRDom("r", halide.Range(0, K), halide.Range(0, K))
	dw := halide.NewFunc("dw")
	dw.Define(x, y, c, bb).Is(halide.Sum(pad.At(x.Add(r.X()).Sub(K/2), y.Add(r.Y()).Sub(K/2), c, bb).Mul(w.At(r.X(), r.Y(), c))))
	xo, xi, yo, yi := halide.NewVar("xo"), halide.NewVar("xi"), halide.NewVar("yo"), halide.NewVar("yi")
	dw.Tile(x, y, xo, yo, xi, yi, 4, 4, halide.GuardWithIf).Fuse(c, bb, halide.NewVar("cb")).Parallel(halide.NewVar("cb")).Unroll(xi)
	for i := 0; i < b.N; i++ {
		if _, err := halide.NewPipeline(dw).Lower(); err != nil {
			b.Fatal(err)
		}
	}
}
