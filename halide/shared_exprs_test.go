package halide_test

import (
	"context"
	"testing"
	"time"

	"github.com/gohalide/gohalide/halide"
)

// An expression built in Go that uses one node many times (e = e*e + y,
// 30 times: a tree of 2^30 nodes on a graph of about 90) lowers at once
// and computes what plain Go does, on the CPU (vectorized) and on the GPU
// emulator, as a pure definition, an update and a Tuple's value.
func TestSharedExpressionGraph(t *testing.T) {
	const N = 30
	for _, sched := range []string{"cpu", "vectorized", "gpu"} {
		t.Run(sched, func(t *testing.T) {
			x, y := halide.NewVar("x"), halide.NewVar("y")
			e := halide.E(y)
			cond := x.Lt(e)
			for i := 1; i < N; i++ {
				e = e.Mul(e).Add(y).Add(x)
				cond = cond.And(x.Mul(int32(i + 1)).Lt(e))
			}
			g := halide.NewFunc("g")
			g.Define(x, y).Is(halide.NewTuple(halide.Select(cond, 10, 0), e))
			g.Define(x, y).Is(halide.NewTuple(g.AtTuple(x, y).Elem(0).Add(e.BitAnd(7)), g.AtTuple(x, y).Elem(1)))
			switch sched {
			case "vectorized":
				g.Vectorize(x, 4)
			case "gpu":
				xo, xi := halide.NewVar("xo"), halide.NewVar("xi")
				g.GPUTile1D(x, xo, xi, 4)
				g.Update(0).GPUTile1D(x, xo, xi, 4)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			a, b := halide.NewBuffer[int32](8, 6).SetMin(-3, -2), halide.NewBuffer[int32](8, 6).SetMin(-3, -2)
			if err := halide.NewPipeline(g).RealizeTupleContext(ctx, a, b); err != nil {
				t.Fatal(err)
			}
			for yy := -2; yy < 4; yy++ {
				for xx := -3; xx < 5; xx++ {
					ev, ok := int32(yy), int32(xx) < int32(yy)
					for i := 1; i < N; i++ {
						ev = ev*ev + int32(yy) + int32(xx)
						ok = ok && int32(xx)*int32(i+1) < ev
					}
					w0 := int32(0)
					if ok {
						w0 = 10
					}
					w0 += ev & 7
					if a.Get(xx, yy) != w0 || b.Get(xx, yy) != ev {
						t.Fatalf("g(%d, %d) = (%d, %d), want (%d, %d)", xx, yy, a.Get(xx, yy), b.Get(xx, yy), w0, ev)
					}
				}
			}
		})
	}
}
