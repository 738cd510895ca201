package errors_test

import (
	"strings"
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// TestErrScheduleAdviceWorks follows the Legal advice of the unroll and
// vectorize errors ("... or bound the Func"): after Bound, the loop has a
// constant extent and the pipeline must lower and compute the right values.
func TestErrScheduleAdviceWorks(t *testing.T) {
	for _, c := range []struct {
		name  string
		sched func(b blur)
	}{
		{"unroll", func(b blur) { b.g.ComputeAt(b.f, y).Bound(x, 0, 9).Unroll(x) }},
		{"vectorize", func(b blur) { b.g.ComputeAt(b.f, y).Bound(x, 0, 9).Vectorize(x) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := newBlur()
			// Without the bound the error says what to do.
			b.g.ComputeAt(b.f, y)
			if c.name == "unroll" {
				b.g.Unroll(x)
			} else {
				b.g.Vectorize(x)
			}
			he := check(t, lowerErr(b.f), halide.ErrSchedule, "g", c.name, "g.s0.x", "constant")
			if he != nil && !strings.Contains(he.Legal, "bound the Func") {
				t.Fatalf("Legal %q no longer suggests a bound; update this test", he.Legal)
			}

			b = newBlur()
			c.sched(b)
			in := b.set(9, 2)
			out := halide.NewBuffer[float32](8, 2)
			if err := halide.NewPipeline(b.f).Realize(out); err != nil {
				t.Fatalf("with the bound the Legal advice asks for: %v", firstLine(err.Error()))
			}
			for yy := 0; yy < 2; yy++ {
				for xx := 0; xx < 8; xx++ {
					want := 2*in.Get(xx, yy) + 2*in.Get(xx+1, yy)
					if got := out.Get(xx, yy); got != want {
						t.Fatalf("out(%d, %d) = %v, want %v", xx, yy, got, want)
					}
				}
			}
		})
	}
}

// TestNoErrUnboundedForSymbolicBounds: in(x*x) is bounded over the
// output's region, so it is not ErrUnbounded, and it computes.
func TestNoErrUnboundedForSymbolicBounds(t *testing.T) {
	in := halide.NewImageParam("in", halide.Float32, 1)
	f := halide.NewFunc("f")
	f.Define(x).Is(in.At(x.Mul(x)))
	ib := halide.NewBuffer[float32](16)
	ib.Fill(func(c []int) float32 { return float32(c[0]) })
	in.Set(ib)
	out := halide.NewBuffer[float32](4)
	if err := f.Realize(out); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 4; i++ {
		if got := out.Get(i); got != float32(i*i) {
			t.Errorf("out(%d) = %v, want %d", i, got, i*i)
		}
	}
}
