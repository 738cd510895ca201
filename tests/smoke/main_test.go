package smoke

import (
	"fmt"
	"testing"

	"github.com/gohalide/gohalide/halide"
)

func TestSmoke(t *testing.T) {
	x, y := halide.NewVar("x"), halide.NewVar("y")
	in := halide.NewImageParam("in", halide.Float32, 2)
	g := halide.NewFunc("g")
	g.Define(x, y).Is(in.At(x, y).Mul(2))
	f := halide.NewFunc("f")
	f.Define(x, y).Is(g.At(x, y).Add(g.At(x.Add(1), y)))
	xo, xi := halide.NewVar("xo"), halide.NewVar("xi")
	f.Split(x, xo, xi, 8)
	g.ComputeAt(f, xo)
	p := halide.NewPipeline(f).WithOptions(halide.Options{Verify: true})
	l, err := p.Lower()
	if err != nil {
		t.Fatal(err)
	}
	fmt.Println(l.LoopNest)
	fmt.Println(l)
	ib := halide.NewBuffer[float32](21, 5)
	ib.Fill(func(c []int) float32 { return float32(c[0]*10 + c[1]) })
	in.Set(ib)
	out := halide.NewBuffer[float32](20, 5)
	if err := p.Realize(out); err != nil {
		t.Fatal(err)
	}
	for yy := 0; yy < 5; yy++ {
		for xx := 0; xx < 20; xx++ {
			want := 2*ib.Get(xx, yy) + 2*ib.Get(xx+1, yy)
			if out.Get(xx, yy) != want {
				t.Fatalf("(%d,%d) got %v want %v", xx, yy, out.Get(xx, yy), want)
			}
		}
	}
}
