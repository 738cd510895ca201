package limits_test

import (
	"errors"
	"fmt"
	"math"
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
		// The tree has 2^40 nodes, but f_{i-1}(x + 1) reads f_0 at
		// x + k for the same few k as f_{i-1}(x): the graph is small and
		// inlining binds its shared nodes by Lets.
		p, in := inlineChain(40)
		start := time.Now()
		if _, err := p.Lower(); err != nil {
			t.Fatal(err)
		}
		if took := time.Since(start); took > 2*time.Second {
			t.Errorf("Lower took %v", took)
		}
		buf := halide.NewBuffer[float32](64)
		buf.Fill(func([]int) float32 { return 1 })
		in.Set(buf)
		out := halide.NewBuffer[float32](16)
		if err := p.Realize(out); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 16; i++ {
			if got := out.Get(i); got != 1<<39 {
				t.Fatalf("out(%d) = %v, want 2^39", i, got)
			}
		}
	})
	t.Run("unshareable", func(t *testing.T) {
		// f_i(x) = f_{i-1}(x + 1) + f_{i-1}(x * 2): every path reads f_0
		// at its own place ((x + 1) * 2 and x * 2 + 1 differ), so the
		// graph doubles at each step too.
		x := halide.NewVar("x")
		in := halide.NewImageParam("in", halide.Float32, 1)
		prev := halide.NewFunc("f0")
		prev.Define(x).Is(in.At(x))
		for i := 1; i < 40; i++ {
			f := halide.NewFunc(fmt.Sprintf("f%d", i))
			f.Define(x).Is(prev.At(x.Add(1)).Add(prev.At(x.Mul(2))))
			prev = f
		}
		start := time.Now()
		_, err := halide.NewPipeline(prev).Lower()
		took := time.Since(start)
		var he *halide.Error
		if !errors.As(err, &he) || he.Code != halide.ErrExprTooLarge {
			t.Fatalf("got %v, want an ErrExprTooLarge error", err)
		}
		if !strings.HasPrefix(he.Func, "f") || !strings.Contains(he.Legal, "compute_root") {
			t.Errorf("the error should name a Func of the chain and suggest compute_root: %v", err)
		}
		// Lowering stops at 2^18 distinct nodes, which takes well
		// under a second; 5 s leaves room for a loaded machine.
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

// TestInlineDeepStencilChain: 30 inlined Funcs, each reading the one
// before at three points, f_i(x) = (f_{i-1}(x - 1) + 2 f_{i-1}(x) +
// f_{i-1}(x + 1)) / 4. The tree has 3^30 leaves; the graph (the reads of
// f_0 at x - 29 .. x + 29 and the partial sums) is small, and Lower binds
// it by Lets. Unclamped, the input is exactly the region the reads need:
// bounds inference sees through the Lets.
func TestInlineDeepStencilChain(t *testing.T) {
	t.Run("clamped", func(t *testing.T) { deepStencilChain(t, true) })
	t.Run("exact-input", func(t *testing.T) { deepStencilChain(t, false) })
}

func deepStencilChain(t *testing.T, clamped bool) {
	const depth, n = 30, 64
	x := halide.NewVar("x")
	in := halide.NewImageParam("in", halide.Float32, 1)
	prev := halide.NewFunc("g0")
	if clamped {
		prev.Define(x).Is(in.At(halide.Clamp(x, 0, n-1)))
	} else {
		prev.Define(x).Is(in.At(x))
	}
	for i := 1; i < depth; i++ {
		f := halide.NewFunc(fmt.Sprintf("g%d", i))
		f.Define(x).Is(prev.At(x.Sub(1)).Add(prev.At(x).Mul(float32(2))).Add(prev.At(x.Add(1))).Mul(float32(0.25)))
		prev = f
	}
	p := halide.NewPipeline(prev)
	start := time.Now()
	if _, err := p.Lower(); err != nil {
		t.Fatal(err)
	}
	took := time.Since(start)
	t.Logf("Lower took %v", took)
	if took > 2*time.Second {
		t.Errorf("Lower took %v, want well under a second", took)
	}
	const pad = depth - 1
	data := make([]float32, n+2*pad)
	for i := range data {
		data[i] = float32((i*37)%11) - 5
	}
	// at returns the input at x (clamped to [0, n) or stored from -pad).
	at0 := func(x int) float32 {
		if clamped {
			return data[min(max(x, 0), n-1)]
		}
		return data[x+pad]
	}
	buf := halide.NewBuffer[float32](n)
	if !clamped {
		buf = halide.NewBuffer[float32](n + 2*pad).SetMin(-pad)
	}
	buf.Fill(func(c []int) float32 { return at0(c[0]) })
	in.Set(buf)
	out := halide.NewBuffer[float32](n)
	if err := p.Realize(out); err != nil {
		t.Fatal(err)
	}
	// The reference: the same chain in plain Go.
	memo := map[[2]int]float32{}
	var ref func(level, x int) float32
	ref = func(level, x int) float32 {
		if level == 0 {
			return at0(x)
		}
		k := [2]int{level, x}
		if v, ok := memo[k]; ok {
			return v
		}
		v := (ref(level-1, x-1) + ref(level-1, x)*2 + ref(level-1, x+1)) * 0.25
		memo[k] = v
		return v
	}
	for i := 0; i < n; i++ {
		want, got := ref(depth-1, i), out.Get(i)
		if math.Abs(float64(got-want)) > 1e-4 {
			t.Fatalf("out(%d) = %v, want %v", i, got, want)
		}
	}
}
