package smoke

import (
	"fmt"
	"math"
	"math/rand"
	"testing"

	"github.com/gohalide/gohalide/halide"
)

func TestTensorProductSmoke(t *testing.T) {
	const C, M, N, P, IN, OUT = 16, 8, 3, 10, 12, 9
	maxPos := halide.NewParam[int32]("maxPos")
	outSize := halide.NewParam[int32]("outSize")
	imap := halide.NewImageParam("imap", halide.Int32, 2)
	omap := halide.NewImageParam("omap", halide.Int32, 2)
	weight := halide.NewImageParam("weight", halide.Float32, 3)
	input := halide.NewImageParam("input", halide.Float32, 2)
	c, m, p, n, o := halide.NewVar("c"), halide.NewVar("m"), halide.NewVar("p"), halide.NewVar("n"), halide.NewVar("o")
	gi := halide.NewFunc("GatherInput")
	gi.Define(c, p, n).Is(input.At(c, halide.UnsafePromiseClamped(imap.At(p, n), 0, input.Dim(1).Max())))
	gw := halide.NewFunc("GatherWeight")
	gw.Define(c, m, n).Is(weight.At(c, m, n))
	rc := halide.NewRDom("rc", halide.Range(0, C))
	prod := halide.NewFunc("Product")
	prod.Define(m, p, n).Is(0.0)
	prod.Define(m, p, n).PlusEq(gi.At(rc, p, n).Mul(gw.At(rc, m, n)))
	r := halide.NewRDom("r", halide.Range(0, weight.Dim(2).Extent()), halide.Range(0, maxPos))
	out := halide.NewFunc("output")
	out.Define(m, o).Is(0.0)
	out.Define(m, halide.UnsafePromiseClamped(omap.At(r.Y(), r.X()), 0, outSize.Expr().Sub(1))).PlusEq(prod.At(m, r.Y(), r.X()))
	prod.ComputeAt(out, m)
	p1, p0 := halide.NewRVar("p1"), halide.NewRVar("p0")
	out.Update(0).Split(r.Y(), r.Y(), p1, 4).Reorder(m, p1, r.Y(), r.X())
	_ = p0
	pl := halide.NewPipeline(out).WithOptions(halide.Options{Verify: true})
	l, err := pl.Lower()
	if err != nil {
		t.Fatal(err)
	}
	fmt.Println(l.LoopNest)
	fmt.Println(l)
	rng := rand.New(rand.NewSource(1))
	ib := halide.NewBuffer[float32](C, IN)
	ib.Fill(func([]int) float32 { return rng.Float32() })
	wb := halide.NewBuffer[float32](C, M, N)
	wb.Fill(func([]int) float32 { return rng.Float32() })
	im := halide.NewBuffer[int32](P, N)
	im.Fill(func([]int) int32 { return int32(rng.Intn(IN)) })
	om := halide.NewBuffer[int32](P, N)
	om.Fill(func([]int) int32 { return int32(rng.Intn(OUT)) })
	input.Set(ib)
	weight.Set(wb)
	imap.Set(im)
	omap.Set(om)
	maxPos.Set(P)
	outSize.Set(OUT)
	ob := halide.NewBuffer[float32](M, OUT)
	if err := pl.Realize(ob); err != nil {
		t.Fatal(err)
	}
	ref := make([]float64, M*OUT)
	for nn := 0; nn < N; nn++ {
		for pp := 0; pp < P; pp++ {
			for mm := 0; mm < M; mm++ {
				s := 0.0
				for cc := 0; cc < C; cc++ {
					s += float64(ib.Get(cc, int(im.Get(pp, nn)))) * float64(wb.Get(cc, mm, nn))
				}
				ref[mm+M*int(om.Get(pp, nn))] += s
			}
		}
	}
	for i, want := range ref {
		if got := float64(ob.Data()[i]); math.Abs(got-want) > 1e-4*(1+math.Abs(want)) {
			t.Fatalf("out[%d] = %v, want %v", i, got, want)
		}
	}
}
