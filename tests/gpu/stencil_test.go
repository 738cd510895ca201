package gpu_test

import (
	"math"
	"math/rand"
	"strings"
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// stencil is a 3x3 box sum over an input with repeated edges, tiled 8x8
// onto GPU threads, reading the input through a wrapper staged in shared
// memory at the given level of the consumer ("block": between the block
// and thread loops, "thread": inside the thread loops).
func stencil(level string) (*halide.Func, *halide.Func, *halide.ImageParam) {
	x, y := halide.NewVar("x"), halide.NewVar("y")
	in := halide.NewImageParam("in", halide.Float32, 2)
	padded := halide.RepeatEdge(in)
	f := halide.NewFunc("blur")
	var sum halide.Expr
	for j := -1; j <= 1; j++ {
		for i := -1; i <= 1; i++ {
			t := padded.At(x.Add(i), y.Add(j))
			if i == -1 && j == -1 {
				sum = t
			} else {
				sum = sum.Add(t)
			}
		}
	}
	f.Define(x, y).Is(sum)
	bx, by, tx, ty := halide.NewVar("bx"), halide.NewVar("by"), halide.NewVar("tx"), halide.NewVar("ty")
	f.GPUTile(x, y, bx, by, tx, ty, 8, 8)
	w := padded.In(f)
	if level == "block" {
		w.ComputeAt(f, bx).StoreIn(halide.GPUShared)
	} else {
		w.ComputeAt(f, tx).StoreIn(halide.GPUShared)
	}
	return f, w, in
}

func TestStencilHaloTile(t *testing.T) {
	for _, level := range []string{"block", "thread"} {
		f, _, in := stencil(level)
		l, err := halide.NewPipeline(f).WithOptions(halide.Options{Verify: true}).Lower()
		if err != nil {
			t.Fatal(level, err)
		}
		s := l.String()
		// The wrapper of the (anonymous) repeat-edge Func is named by the
		// pipeline after what it wraps and its consumer.
		want := "allocate in_repeat_edge_in_blur[float32 * 100] in GPUShared"
		if !strings.Contains(s, want) {
			t.Errorf("%s: want %q in:\n%s", level, want, s)
		}
		if n := strings.Count(s, "gpu_thread_barrier"); n != 1 {
			t.Errorf("%s: %d barriers, want 1:\n%s", level, n, s)
		}
		// Realized on the emulator (19 x 13: partial tiles) against a
		// plain-Go 3x3 box sum with repeated edges.
		const W, H = 19, 13
		rng := rand.New(rand.NewSource(5))
		ib := halide.NewBuffer[float32](W, H)
		ib.Fill(func([]int) float32 { return rng.Float32()*2 - 1 })
		in.Set(ib)
		out := halide.NewBuffer[float32](W, H)
		if err := l.Realize(out); err != nil {
			t.Fatal(level, err)
		}
		clamp := func(v, hi int) int { return min(max(v, 0), hi-1) }
		for y := 0; y < H; y++ {
			for x := 0; x < W; x++ {
				want := 0.0
				for j := -1; j <= 1; j++ {
					for i := -1; i <= 1; i++ {
						want += float64(ib.Get(clamp(x+i, W), clamp(y+j, H)))
					}
				}
				if got := float64(out.Get(x, y)); math.Abs(got-want) > 1e-5 {
					t.Fatalf("%s: blur(%d, %d) = %v, want %v", level, x, y, got, want)
				}
			}
		}
	}
}
