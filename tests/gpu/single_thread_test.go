package gpu_test

import (
	"math/rand"
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// GPUSingleThread on an update: a histogram whose scatter runs in one GPU
// thread, in order (no race, no Atomic), read by a tiled kernel; checked on
// the emulator against plain Go.
func TestGPUSingleThreadUpdate(t *testing.T) {
	x, y := halide.NewVar("x"), halide.NewVar("y")
	bx, by, tx, ty := halide.NewVar("bx"), halide.NewVar("by"), halide.NewVar("tx"), halide.NewVar("ty")
	in := halide.NewImageParam("in", halide.UInt8, 1)
	const n, bins = 300, 16
	r := halide.NewRDom("r", halide.Range(0, n))
	hist := halide.NewFunc("hist")
	hist.Define(x).Is(int32(0))
	hist.Define(halide.Cast(halide.Int32, in.At(r)).Mod(bins)).PlusEq(1)
	hist.ComputeRoot().GPUSingleThread()
	hist.Update(0).GPUSingleThread()
	out := halide.NewFunc("out")
	out.Define(x, y).Is(hist.At(x.Add(y).Mod(bins)).Mul(y.Add(1)))
	out.GPUTile(x, y, bx, by, tx, ty, 8, 4, halide.GuardWithIf)

	data := halide.NewBuffer[uint8](n)
	rng := rand.New(rand.NewSource(3))
	data.Fill(func([]int) uint8 { return uint8(rng.Intn(256)) })
	in.Set(data)
	var want [bins]int32
	for i := 0; i < n; i++ {
		want[int(data.Get(i))%bins]++
	}
	p := halide.NewPipeline(out).WithOptions(halide.Options{Verify: true})
	buf := halide.NewBuffer[int32](21, 7)
	if err := p.Realize(buf); err != nil {
		t.Fatal(err)
	}
	for yy := 0; yy < 7; yy++ {
		for xx := 0; xx < 21; xx++ {
			if got, w := buf.Get(xx, yy), want[(xx+yy)%bins]*int32(yy+1); got != w {
				t.Fatalf("out(%d, %d) = %d, want %d", xx, yy, got, w)
			}
		}
	}
	rep, err := p.Report()
	if err != nil {
		t.Fatal(err)
	}
	if len(rep) != 3 {
		t.Fatalf("%d kernels, want 3 (hist's two stages, one thread each, and out)", len(rep))
	}
	for _, k := range rep[:2] {
		if len(k.BlockValues) == 0 || k.BlockValues[0]*k.BlockValues[1]*k.BlockValues[2] != 1 {
			t.Errorf("%s: block %v, want one thread", k.Name, k.BlockValues)
		}
	}
}
