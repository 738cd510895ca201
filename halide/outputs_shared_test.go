package halide_test

import (
	"math/rand"
	"strings"
	"sync"
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// A Func that several outputs read and that is scheduled ComputeRoot is
// computed once, by a part of its own, over the union of the regions the
// outputs read (outputs_shared.go): checked against plain Go, with the
// traced stores of the shared Func counted.

// sharedPipe returns the pipeline of outs counting the traced stores per
// Func into trace.
func sharedPipe(trace map[string]int, outs ...*halide.Func) *halide.Pipeline {
	var mu sync.Mutex
	return halide.NewPipeline(outs...).WithOptions(halide.Options{Verify: true, Trace: func(e halide.TraceEvent) {
		mu.Lock()
		trace[e.Func]++
		mu.Unlock()
	}})
}

func sharedInput(n int, seed int64) *halide.Buffer[int32] {
	rng := rand.New(rand.NewSource(seed))
	in := halide.NewBuffer[int32](n)
	in.Fill(func([]int) int32 { return int32(rng.Intn(1000) - 500) })
	return in
}

// Two outputs read s at different regions (stencils, one output with a
// nonzero min): s is stored once per point of the union.
func TestSharedStencils(t *testing.T) {
	for _, gpu := range []bool{false, true} {
		t.Run(map[bool]string{false: "cpu", true: "gpu"}[gpu], func(t *testing.T) {
			in := sharedInput(200, 7)
			s, f, g := halide.NewFunc("s"), halide.NewFunc("f"), halide.NewFunc("g")
			x, xi := halide.NewVar("x"), halide.NewVar("xi")
			s.Define(x).Is(in.At(x).Mul(3).Add(x))
			f.Define(x).Is(s.At(x).Add(s.At(x.Add(2))))
			g.Define(x).Is(s.At(x.Sub(3)).Sub(s.At(x.Add(1))))
			s.ComputeRoot().TraceStores()
			if gpu {
				f.GPUTile1D(x, x, xi, 8)
				g.GPUTile1D(x, x, xi, 8)
				s.GPUTile1D(x, x, xi, 4, halide.GuardWithIf)
			}
			fIm := halide.NewBuffer[int32](50)
			gIm := halide.NewBuffer[int32](32).SetMin(10)
			trace := map[string]int{}
			p := sharedPipe(trace, f, g)
			if gpu {
				p.WithTarget(halide.Emulator)
			}
			if err := p.RealizeTuple(fIm, gIm); err != nil {
				t.Fatal(err)
			}
			sv := func(i int) int32 { return in.Get(i)*3 + int32(i) }
			for i := 0; i < 50; i++ {
				if w := sv(i) + sv(i+2); fIm.Get(i) != w {
					t.Fatalf("f(%d) = %d, want %d", i, fIm.Get(i), w)
				}
			}
			for i := 10; i < 42; i++ {
				if w := sv(i-3) - sv(i+1); gIm.Get(i) != w {
					t.Fatalf("g(%d) = %d, want %d", i, gIm.Get(i), w)
				}
			}
			// f reads s over [0, 51], g over [7, 42]: 52 points.
			if !gpu && trace["s"] != 52 {
				t.Errorf("s stored %d times, want 52 (once over the union of what f and g read)", trace["s"])
			}
			l, err := p.Lower()
			if err != nil {
				t.Fatal(err)
			}
			str := l.String()
			if strings.Count(str, "produce s ") != 1 || !strings.Contains(str, "// shared s") {
				t.Errorf("s is not computed once, in a part of its own:\n%s", str)
			}
			if strings.Index(str, "// shared s") > strings.Index(str, "// output f") {
				t.Errorf("s's part does not run first:\n%s", str)
			}
			if _, err := p.Report(); err != nil {
				t.Fatal(err)
			}
			if gpu {
				if n := len(l.Kernels()); n != 3 {
					t.Errorf("%d kernels, want 3", n)
				}
				// The Lowered runs too.
				f2, g2 := halide.NewBuffer[int32](50), halide.NewBuffer[int32](32).SetMin(10)
				if err := l.RealizeTuple(f2, g2); err != nil {
					t.Fatal(err)
				}
				for i := 10; i < 42; i++ {
					if g2.Get(i) != gIm.Get(i) {
						t.Fatalf("Lowered: g(%d) = %d, want %d", i, g2.Get(i), gIm.Get(i))
					}
				}
			}
			// A second Realize with other sizes sizes s again.
			for k := range trace {
				delete(trace, k)
			}
			fIm, gIm = halide.NewBuffer[int32](8), halide.NewBuffer[int32](100).SetMin(50)
			if err := p.RealizeTuple(fIm, gIm); err != nil {
				t.Fatal(err)
			}
			for i := 50; i < 150; i++ {
				if w := sv(i-3) - sv(i+1); gIm.Get(i) != w {
					t.Fatalf("g(%d) = %d, want %d", i, gIm.Get(i), w)
				}
			}
			// f reads [0, 9], g [47, 150]: s is computed over [0, 150].
			if !gpu && trace["s"] != 151 {
				t.Errorf("s stored %d times, want 151", trace["s"])
			}
		})
	}
}

// A Tuple shared Func: one buffer per value, of their types.
func TestSharedTuple(t *testing.T) {
	in := sharedInput(100, 8)
	s, f, g := halide.NewFunc("s"), halide.NewFunc("f"), halide.NewFunc("g")
	x := halide.NewVar("x")
	s.Define(x).Is(halide.NewTuple(in.At(x).Add(1), halide.Cast(halide.Float32, in.At(x)).Mul(0.5)))
	f.Define(x).Is(s.AtTuple(x).Elem(0).Add(s.AtTuple(x.Add(1)).Elem(0)))
	g.Define(x).Is(halide.Cast(halide.Int32, s.AtTuple(x.Add(3)).Elem(1)).Sub(s.AtTuple(x).Elem(0)))
	s.ComputeRoot().TraceStores()
	trace := map[string]int{}
	fIm, gIm := halide.NewBuffer[int32](40), halide.NewBuffer[int32](30)
	if err := sharedPipe(trace, f, g).RealizeTuple(fIm, gIm); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 40; i++ {
		if w := in.Get(i) + 1 + in.Get(i+1) + 1; fIm.Get(i) != w {
			t.Fatalf("f(%d) = %d, want %d", i, fIm.Get(i), w)
		}
	}
	for i := 0; i < 30; i++ {
		if w := int32(float32(in.Get(i+3))*0.5) - (in.Get(i) + 1); gIm.Get(i) != w {
			t.Fatalf("g(%d) = %d, want %d", i, gIm.Get(i), w)
		}
	}
	// [0, 40] for f, [0, 32] for g: 41 points, each value stored once.
	if trace["s.0"] != 41 || trace["s.1"] != 41 {
		t.Errorf("s stored %v, want 41 of each value", trace)
	}
}

// A shared Func that reads an earlier output, and a chain of shared Funcs
// (s2 reads s1, f reads both).
func TestSharedReadsOutputAndChain(t *testing.T) {
	in := sharedInput(100, 9)
	h, s1, s2, f, g := halide.NewFunc("h"), halide.NewFunc("s1"), halide.NewFunc("s2"), halide.NewFunc("f"), halide.NewFunc("g")
	x := halide.NewVar("x")
	h.Define(x).Is(in.At(x).Mul(2))
	s1.Define(x).Is(h.At(x.Add(2)).Add(1))
	s2.Define(x).Is(s1.At(x.Sub(1)).Add(s1.At(x.Add(1))))
	f.Define(x).Is(s2.At(x).Add(s1.At(x)))
	g.Define(x).Is(s2.At(x.Add(3)).Mul(2))
	s1.ComputeRoot().TraceStores()
	s2.ComputeRoot().TraceStores()
	h.TraceStores()
	trace := map[string]int{}
	fIm, gIm, hIm := halide.NewBuffer[int32](20), halide.NewBuffer[int32](20), halide.NewBuffer[int32](40)
	p := sharedPipe(trace, f, g, h)
	if err := p.RealizeTuple(fIm, gIm, hIm); err != nil {
		t.Fatal(err)
	}
	s1v := func(i int) int32 { return in.Get(i+2)*2 + 1 }
	s2v := func(i int) int32 { return s1v(i-1) + s1v(i+1) }
	for i := 0; i < 20; i++ {
		if w := s2v(i) + s1v(i); fIm.Get(i) != w {
			t.Fatalf("f(%d) = %d, want %d", i, fIm.Get(i), w)
		}
		if w := s2v(i+3) * 2; gIm.Get(i) != w {
			t.Fatalf("g(%d) = %d, want %d", i, gIm.Get(i), w)
		}
	}
	// s2 over [0, 22] (f [0, 19], g [3, 22]); s1 over [-1, 23] (s2)
	// and [0, 19] (f).
	if trace["s2"] != 23 || trace["s1"] != 25 || trace["h"] != 40 {
		t.Errorf("stores: s2 %d (want 23), s1 %d (want 25), h %d (want 40)", trace["s2"], trace["s1"], trace["h"])
	}
	l, err := p.Lower()
	if err != nil {
		t.Fatal(err)
	}
	str := l.String()
	ih, i1, i2, iF := strings.Index(str, "// output h"), strings.Index(str, "// shared s1"), strings.Index(str, "// shared s2"), strings.Index(str, "// output f")
	if ih < 0 || !(ih < i1 && i1 < i2 && i2 < iF) {
		t.Errorf("the parts do not run in the order h, s1, s2, f:\n%s", l.LoopNest)
	}
}

// A ComputeRoot Func with a region of its own (Bound) stays in each part
// that reads it (it is not shared): values right, stored once per part.
func TestSharedFallback(t *testing.T) {
	in := sharedInput(100, 10)
	s, f, g := halide.NewFunc("s"), halide.NewFunc("f"), halide.NewFunc("g")
	x := halide.NewVar("x")
	s.Define(x).Is(in.At(x).Add(5))
	f.Define(x).Is(s.At(x).Add(s.At(x.Add(1))))
	g.Define(x).Is(s.At(x.Add(2)))
	s.ComputeRoot().Bound(x, 0, 30).TraceStores()
	trace := map[string]int{}
	fIm, gIm := halide.NewBuffer[int32](20), halide.NewBuffer[int32](20)
	p := sharedPipe(trace, f, g)
	if err := p.RealizeTuple(fIm, gIm); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 20; i++ {
		if w := in.Get(i) + 5 + in.Get(i+1) + 5; fIm.Get(i) != w {
			t.Fatalf("f(%d) = %d, want %d", i, fIm.Get(i), w)
		}
		if w := in.Get(i+2) + 5; gIm.Get(i) != w {
			t.Fatalf("g(%d) = %d, want %d", i, gIm.Get(i), w)
		}
	}
	if trace["s"] != 60 {
		t.Errorf("s stored %d times, want 60 (its bound, in each of two parts)", trace["s"])
	}
	// Read by one output only: computed in that part.
	s2, f2, g2 := halide.NewFunc("s2"), halide.NewFunc("f2"), halide.NewFunc("g2")
	s2.Define(x).Is(in.At(x))
	f2.Define(x).Is(s2.At(x))
	g2.Define(x).Is(in.At(x).Add(1))
	s2.ComputeRoot()
	l, err := halide.NewPipeline(f2, g2).Lower()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(l.String(), "// shared") {
		t.Errorf("a Func one output reads is shared:\n%s", l)
	}
}

// Where a reader's input query is missing, the shared Func is computed in
// each part that reads it, as before: values right, stored twice.
func TestSharedNoQuery(t *testing.T) {
	in := sharedInput(100, 11)
	s, f, g := halide.NewFunc("s"), halide.NewFunc("f"), halide.NewFunc("g")
	x := halide.NewVar("x")
	s.Define(x).Is(in.At(x).Mul(7))
	f.Define(x).Is(s.At(x.Add(1)))
	g.Define(x).Is(s.At(x).Sub(1))
	s.ComputeRoot().TraceStores()
	trace := map[string]int{}
	p := sharedPipe(trace, f, g)
	fIm, gIm := halide.NewBuffer[int32](20), halide.NewBuffer[int32](20)
	restore := halide.SetNoInputQueries()
	err := p.RealizeTuple(fIm, gIm)
	l, lerr := p.Lower()
	restore()
	if err != nil || lerr != nil {
		t.Fatal(err, lerr)
	}
	for i := 0; i < 20; i++ {
		if fIm.Get(i) != in.Get(i+1)*7 || gIm.Get(i) != in.Get(i)*7-1 {
			t.Fatalf("at %d: f = %d, g = %d", i, fIm.Get(i), gIm.Get(i))
		}
	}
	if trace["s"] != 40 || strings.Contains(l.String(), "// shared") {
		t.Errorf("s stored %d times, want 40 (in each part):\n%s", trace["s"], l)
	}
	// With the queries, the same pipeline shares s.
	for k := range trace {
		delete(trace, k)
	}
	if err := p.RealizeTuple(fIm, gIm); err != nil {
		t.Fatal(err)
	}
	if trace["s"] != 21 {
		t.Errorf("s stored %d times, want 21", trace["s"])
	}
}
