package gpu_test

import (
	"math/rand"
	"strings"
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// A Func computed inside the thread loops with the default memory type
// and a size known only at launch (it spans a Param's extent) is kept in
// per-thread global scratch (Heap), as in Halide, where registers need a
// constant size; the answer matches a plain-Go reference on the emulator.
func TestAutoMemoryPerThreadHeap(t *testing.T) {
	const w = 37
	rng := rand.New(rand.NewSource(21))
	data := halide.NewBuffer[int32](w + 16)
	data.Fill(func([]int) int32 { return int32(rng.Intn(100) - 50) })
	for _, n := range []int32{1, 5, 16} {
		x, k := halide.NewVar("x"), halide.NewVar("k")
		bx, tx := halide.NewVar("bx"), halide.NewVar("tx")
		in := halide.NewImageParam("in", halide.Int32, 1)
		in.Set(data)
		np := halide.NewParam[int32]("n")
		np.Set(n)
		g := halide.NewFunc("g")
		g.Define(x, k).Is(in.At(x.Add(k)).Mul(2))
		r := halide.NewRDom("r", halide.Range(0, np))
		f := halide.NewFunc("f")
		f.Define(x).Is(halide.Sum(g.At(x, r.X())))
		f.GPUTile1D(x, bx, tx, 8, halide.GuardWithIf)
		g.ComputeAt(f, tx)
		p := halide.NewPipeline(f)
		out := halide.NewBuffer[int32](w)
		if err := p.Realize(out); err != nil {
			t.Fatalf("n=%d: %v", n, err)
		}
		for i, v := range out.Data() {
			var want int32
			for j := 0; j < int(n); j++ {
				want += 2 * data.Get(i+j)
			}
			if v != want {
				t.Errorf("n=%d: f(%d) = %d, want %d", n, i, v, want)
			}
		}
		l, err := p.Lower()
		if err != nil {
			t.Fatal(err)
		}
		if s := l.String(); !strings.Contains(s, "in Heap") {
			t.Errorf("n=%d: g is not in Heap:\n%s", n, s)
		}
	}
}
