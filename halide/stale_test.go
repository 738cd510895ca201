package halide

import "testing"

// TestCompileOnce: a Pipeline whose Funcs did not change reuses what it
// compiled (Realize and Benchmark do not recompile each run), and compiles
// again after any definition or directive of one of its Funcs, or an In or
// SetBounds of one of its inputs.
func TestCompileOnce(t *testing.T) {
	x, y := NewVar("x"), NewVar("y")
	in := NewImageParam("in", Float32, 2)
	g := NewFunc("g")
	g.Define(x, y).Is(in.At(x, y).Mul(2))
	f := NewFunc("f")
	f.Define(x, y).Is(g.At(x, y).Add(g.At(x.Add(1), y)))
	ib := NewBuffer[float32](9, 4)
	in.Set(ib)
	p := NewPipeline(f)
	out := NewBuffer[float32](8, 4)
	compiled := func() *compiled {
		t.Helper()
		if err := p.Realize(out); err != nil {
			t.Fatal(err)
		}
		return p.compiled
	}
	c := compiled()
	if _, err := p.Benchmark(out, 2); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Report(); err != nil {
		t.Fatal(err)
	}
	if _, err := p.LoopNest(); err != nil {
		t.Fatal(err)
	}
	if compiled() != c {
		t.Fatal("the pipeline compiled again though nothing changed")
	}
	changes := []struct {
		name   string
		change func()
	}{
		{"a directive on the output", func() { f.Parallel(y) }},
		{"a directive on a producer", func() { g.ComputeRoot() }},
		{"a directive on a stage", func() { f.Stage(0).Reorder(y, x) }},
		{"an update", func() { f.Define(x, y).PlusEq(1.0) }},
		{"a wrapper of the input", func() { in.In(g).ComputeRoot() }},
		{"SetBounds of the input", func() { in.Dim(1).SetBounds(0, 4) }},
	}
	for _, ch := range changes {
		ch.change()
		next := compiled()
		if next == c {
			t.Errorf("after %s, Realize ran the old schedule", ch.name)
		}
		c = next
		if compiled() != c {
			t.Errorf("after %s, the pipeline compiled twice", ch.name)
		}
	}
}
