package halide_test

import (
	"errors"
	"sync"
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// ComputeAt(c, v) names no stage of c: as Halide's LoopLevel(c, v)
// (stage_index -1), it matches the loop v of every stage of c, and the
// producer is computed in each of those loops whose body uses it (once
// per stage that reads it). ComputeAtStage names one stage's loop.

func TestComputeAtEveryStageThatReads(t *testing.T) {
	for _, sched := range []string{"y", "x", "x_store_y"} {
		t.Run(sched, func(t *testing.T) {
			x, y := halide.NewVar("x"), halide.NewVar("y")
			p, out := halide.NewFunc("p"), halide.NewFunc("out")
			p.Define(x, y).Is(x.Add(y.Mul(3)))
			out.Define(x, y).Is(p.At(x, y))
			out.Define(x, y).Is(out.At(x, y).Mul(2).Add(p.At(x.Add(1), y)))
			switch sched {
			case "y":
				p.ComputeAt(out, y)
			case "x":
				p.ComputeAt(out, x)
			case "x_store_y":
				p.ComputeAt(out, x).StoreAt(out, y)
			}
			var mu sync.Mutex
			stores := map[string]int{}
			o := halide.Options{Verify: true, Trace: func(e halide.TraceEvent) {
				mu.Lock()
				stores[e.Func]++
				mu.Unlock()
			}}
			p.TraceStores()
			const w, h = 12, 7
			buf := halide.NewBuffer[int32](w, h)
			if err := halide.NewPipeline(out).WithOptions(o).Realize(buf); err != nil {
				t.Fatal(err)
			}
			for yy := 0; yy < h; yy++ {
				for xx := 0; xx < w; xx++ {
					want := int32(2*(xx+3*yy) + (xx + 1 + 3*yy))
					if got := buf.Get(xx, yy); got != want {
						t.Fatalf("out(%d, %d) = %d, want %d", xx, yy, got, want)
					}
				}
			}
			// One row (or point) of p per stage and iteration.
			if got, want := stores["p"], 2*w*h; got != want {
				t.Errorf("p stored %d times, want %d (computed in both stages)", got, want)
			}
		})
	}
}

// A stage whose loops do not include v but reads the producer leaves a
// use outside every loop v: refused, as Halide refuses it.
func TestComputeAtEveryStageRefused(t *testing.T) {
	x, y := halide.NewVar("x"), halide.NewVar("y")
	p, out := halide.NewFunc("p"), halide.NewFunc("out")
	p.Define(x, y).Is(x.Add(y))
	out.Define(x, y).Is(p.At(x, y))
	r := halide.NewRDom("r", halide.Range(0, 4), halide.Range(0, 4))
	out.Define(r.X(), r.Y()).Is(out.At(r.X(), r.Y()).Add(p.At(r.X(), r.Y())))
	p.ComputeAt(out, y)
	err := halide.NewPipeline(out).Realize(halide.NewBuffer[int32](8, 8))
	var he *halide.Error
	if !errors.As(err, &he) || he.Code != halide.ErrComputeAt {
		t.Fatalf("got %v, want an ErrComputeAt refusal", err)
	}
}

// Two stages read p over regions of different sizes; p hoisted to the
// root gets one allocation sized for the larger (the update's, 6 wider).
func TestComputeAtEveryStageHoisted(t *testing.T) {
	x, y := halide.NewVar("x"), halide.NewVar("y")
	p, out := halide.NewFunc("p"), halide.NewFunc("out")
	p.Define(x, y).Is(x.Mul(x).Add(y))
	out.Define(x, y).Is(p.At(x, y))
	out.Define(x, y).Is(out.At(x, y).Add(p.At(x.Add(3), y).Mul(p.At(x.Sub(3), y))))
	p.ComputeAt(out, y).HoistStorageRoot()
	const w, h = 10, 5
	buf := halide.NewBuffer[int32](w, h)
	if err := halide.NewPipeline(out).WithOptions(halide.Options{Verify: true}).Realize(buf); err != nil {
		t.Fatal(err)
	}
	pv := func(x, y int) int32 { return int32(x*x + y) }
	for yy := 0; yy < h; yy++ {
		for xx := 0; xx < w; xx++ {
			if got, want := buf.Get(xx, yy), pv(xx, yy)+pv(xx+3, yy)*pv(xx-3, yy); got != want {
				t.Fatalf("out(%d, %d) = %d, want %d", xx, yy, got, want)
			}
		}
	}
}

// Outermost() is a hoist level only: ComputeAt and StoreAt refuse it.
func TestOutermostComputeAtRefused(t *testing.T) {
	for _, store := range []bool{false, true} {
		x, y := halide.NewVar("x"), halide.NewVar("y")
		f, g := halide.NewFunc("f"), halide.NewFunc("g")
		f.Define(x, y).Is(x.Add(y))
		g.Define(x, y).Is(f.At(x, y))
		if store {
			f.ComputeAt(g, x).StoreAt(g, halide.Outermost())
		} else {
			f.ComputeAt(g, halide.Outermost())
		}
		err := halide.NewPipeline(g).Realize(halide.NewBuffer[int32](4, 4))
		var he *halide.Error
		if !errors.As(err, &he) || he.Code != halide.ErrComputeAt {
			t.Fatalf("store %v: got %v, want an ErrComputeAt refusal", store, err)
		}
	}
}
