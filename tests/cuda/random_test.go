//go:build cuda

package cuda_test

import (
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// TestRandomCUDA realizes one Func of random numbers (RandomFloat's bits,
// RandomUint with a seed, RandomInt) under one GPU schedule on the GPU and
// on the emulator: the hash is integer arithmetic, so every bit must
// agree (the emulator is checked against Halide's algorithm in Go by
// halide's TestRandomValues).
func TestRandomCUDA(t *testing.T) {
	device(t)
	const W, H = 67, 29
	x, y := halide.NewVar("x"), halide.NewVar("y")
	f := halide.NewFunc("f")
	f.Define(x, y).Is(halide.Reinterpret(halide.UInt32, halide.RandomFloat()).
		BitXor(halide.RandomUint(y.Mul(7))).
		Add(halide.Reinterpret(halide.UInt32, halide.RandomInt())))
	xo, yo, xi, yi := halide.NewVar("xo"), halide.NewVar("yo"), halide.NewVar("xi"), halide.NewVar("yi")
	f.GPUTile(x, y, xo, yo, xi, yi, 16, 4)
	want, got := halide.NewBuffer[uint32](W, H), halide.NewBuffer[uint32](W, H)
	if err := halide.NewPipeline(f).WithTarget(halide.Emulator).Realize(want); err != nil {
		t.Fatal(err)
	}
	if err := halide.NewPipeline(f).WithTarget(halide.CUDA).Realize(got); err != nil {
		t.Fatal(err)
	}
	distinct := map[uint32]bool{}
	for yy := 0; yy < H; yy++ {
		for xx := 0; xx < W; xx++ {
			if got.Get(xx, yy) != want.Get(xx, yy) {
				t.Fatalf("f(%d, %d) = %#x on the GPU, %#x on the emulator", xx, yy, got.Get(xx, yy), want.Get(xx, yy))
			}
			distinct[want.Get(xx, yy)] = true
		}
	}
	if len(distinct) < W*H*99/100 {
		t.Errorf("%d distinct values of %d", len(distinct), W*H)
	}
}
