//go:build cuda

package cuda_test

import (
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// TestIntermediatesDoNotLeak realizes a pipeline whose intermediate (16
// MiB, computed on the GPU at the root) is a new host allocation at every
// run, 40 times: the device copy of each run's intermediate is given back
// when the run's allocation ends (and its memory reused by the next run),
// so the device's free memory does not fall by a copy per run.
func TestIntermediatesDoNotLeak(t *testing.T) {
	d := device(t)
	const n = 4 << 20 // float32 elements: 16 MiB
	x, bx, tx := halide.NewVar("x"), halide.NewVar("bx"), halide.NewVar("tx")
	in := halide.NewImageParam("in", halide.Float32, 1)
	g, f := halide.NewFunc("g"), halide.NewFunc("f")
	g.Define(x).Is(in.At(x).Mul(2))
	f.Define(x).Is(g.At(x).Add(1))
	g.ComputeRoot().Split(x, bx, tx, 256).GPUBlocks(bx).GPUThreads(tx)
	f.Split(x, bx, tx, 256).GPUBlocks(bx).GPUThreads(tx)
	ib := halide.NewBuffer[float32](n)
	for i := range n {
		ib.Set(float32(i%1000)*0.5, i)
	}
	in.Set(ib)
	p := halide.NewPipeline(f).WithTarget(halide.CUDA)
	out := halide.NewBuffer[float32](n)
	run := func() {
		t.Helper()
		if err := p.Realize(out); err != nil {
			t.Fatal(err)
		}
	}
	run()
	before, _, err := d.MemInfo()
	if err != nil {
		t.Fatal(err)
	}
	for range 40 {
		run()
	}
	after, _, err := d.MemInfo()
	if err != nil {
		t.Fatal(err)
	}
	for _, i := range []int{0, 1, 999, n - 1} {
		if want := float32(i%1000)*0.5*2 + 1; out.Get(i) != want {
			t.Fatalf("f(%d) = %v, want %v", i, out.Get(i), want)
		}
	}
	if lost := before - after; lost > 2*4*n {
		t.Errorf("the device's free memory fell by %d MiB over 40 runs (a 16 MiB intermediate each): its copies are not given back", lost>>20)
	}
}
