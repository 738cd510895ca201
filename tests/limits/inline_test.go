package limits_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gohalide/gohalide/halide"
)

// inlineChain returns a chain of n inlined Funcs, each reading its producer
// twice: f_i(x) = f_{i-1}(x) + f_{i-1}(x+1). Inlined, the output's value
// has 2^n calls of f_0.
func inlineChain(n int) (*halide.Pipeline, *halide.ImageParam) {
	x := halide.NewVar("x")
	in := halide.NewImageParam("in", halide.Float32, 1)
	prev := halide.NewFunc("f0")
	prev.Define(x).Is(in.At(x))
	for i := 1; i < n; i++ {
		f := halide.NewFunc(fmt.Sprintf("f%d", i))
		f.Define(x).Is(prev.At(x).Add(prev.At(x.Add(1))))
		prev = f
	}
	return halide.NewPipeline(prev), in
}

func TestInlineSizeLimit(t *testing.T) {
	t.Run("40-deep", func(t *testing.T) {
		p, _ := inlineChain(40)
		start := time.Now()
		_, err := p.Lower()
		took := time.Since(start)
		var he *halide.Error
		if !errors.As(err, &he) || he.Code != halide.ErrExprTooLarge {
			t.Fatalf("got %v, want an ErrExprTooLarge error", err)
		}
		if !strings.HasPrefix(he.Func, "f") || !strings.Contains(he.Legal, "compute_root") {
			t.Errorf("the error should name a Func of the chain and suggest compute_root: %v", err)
		}
		// Lowering stops at about 2^20 nodes, which takes well under a
		// second; 5 s leaves room for a loaded machine.
		if took > 5*time.Second {
			t.Errorf("the error took %v", took)
		}
		t.Logf("%v (after %v)", err, took)
	})
	t.Run("10-deep", func(t *testing.T) {
		p, in := inlineChain(10)
		// f_9(x) = sum over k of C(9, k) in(x + k): in is 1 everywhere, so
		// every output value is 2^9.
		buf := halide.NewBuffer[float32](32)
		buf.Fill(func([]int) float32 { return 1 })
		in.Set(buf)
		out := halide.NewBuffer[float32](16)
		if err := p.Realize(out); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 16; i++ {
			if got := out.Get(i); got != 512 {
				t.Fatalf("out(%d) = %v, want 512", i, got)
			}
		}
	})
	t.Run("40-deep-with-compute-root", func(t *testing.T) {
		// Following the advice: every 8th Func stored keeps each inlined
		// stretch at 2^8 calls.
		x := halide.NewVar("x")
		in := halide.NewImageParam("in", halide.Float32, 1)
		prev := halide.NewFunc("f0")
		prev.Define(x).Is(in.At(x))
		for i := 1; i < 40; i++ {
			f := halide.NewFunc(fmt.Sprintf("f%d", i))
			f.Define(x).Is(prev.At(x).Add(prev.At(x.Add(1))))
			if i%8 == 0 {
				f.ComputeRoot()
			}
			prev = f
		}
		if _, err := halide.NewPipeline(prev).Lower(); err != nil {
			t.Fatal(err)
		}
	})
}
