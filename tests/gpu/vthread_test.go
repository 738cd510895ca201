package gpu_test

import (
	"math/rand"
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// VThread: the virtual thread loop runs inside the thread loop, unrolled,
// and the result is the same as without it (on the emulator, 2 blocks and a
// partial third).
func TestVThread(t *testing.T) {
	x := halide.NewVar("x")
	in := halide.NewImageParam("in", halide.Float32, 1)
	f := halide.NewFunc("f")
	f.Define(x).Is(in.At(x).Mul(2).Add(1))
	bx, vx, tx, xi := halide.NewVar("bx"), halide.NewVar("vx"), halide.NewVar("tx"), halide.NewVar("xi")
	f.Split(x, bx, x, 64, halide.GuardWithIf).Split(x, vx, x, 32).Split(x, tx, xi, 4).
		GPUBlocks(bx).GPUThreads(tx).VThread(vx)
	p := halide.NewPipeline(f)
	l, err := p.Lower()
	if err != nil {
		t.Fatal(err)
	}
	if k := l.Kernels(); len(k) != 1 {
		t.Fatalf("want one kernel, got %d", len(k))
	}
	const n = 150
	rng := rand.New(rand.NewSource(9))
	ib := halide.NewBuffer[float32](n)
	ib.Fill(func([]int) float32 { return rng.Float32() })
	in.Set(ib)
	out := halide.NewBuffer[float32](n)
	if err := p.Realize(out); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < n; i++ {
		if got, want := out.Get(i), ib.Get(i)*2+1; got != want {
			t.Fatalf("f(%d) = %v, want %v", i, got, want)
		}
	}
	r, err := p.Report()
	if err != nil {
		t.Fatal(err)
	}
	if r[0].Block[0] != "8" {
		t.Errorf("block %v, want 8 threads (the virtual threads are not threads)", r[0].Block)
	}
}
