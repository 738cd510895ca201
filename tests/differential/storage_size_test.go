package differential_test

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// TestStorageSize realizes f(x, y) = g(x-1, y) + g(x+1, y+1), g = 3 * in
// (integers: exact), under schedules that pad g's storage (AlignStorage)
// or fix its size (BoundStorage), on the CPU and in GPU kernels (shared
// memory, registers, global scratch) on the emulator, against a plain-Go
// reference, and checks the allocation sizes in the lowered statement.
func TestStorageSize(t *testing.T) {
	const w, h = 37, 13 // not multiples of the splits
	x, y := halide.NewVar("x"), halide.NewVar("y")
	xo, xi, yo, yi := halide.NewVar("xo"), halide.NewVar("xi"), halide.NewVar("yo"), halide.NewVar("yi")
	bx, by, tx, ty := halide.NewVar("bx"), halide.NewVar("by"), halide.NewVar("tx"), halide.NewVar("ty")
	cases := []struct {
		name     string
		schedule func(f, g *halide.Func)
		alloc    string // in the lowered text
	}{
		{"cpu root, rows padded to 8", func(f, g *halide.Func) {
			g.ComputeRoot().AlignStorage(x, 8)
		}, "allocate g[int32 * (max(((((f.s0.x.max - f.min.0) + 2) / 8) * 8), -8) + 8) *"},
		{"cpu per strip, bound to 12 x 2", func(f, g *halide.Func) {
			f.Split(x, xo, xi, 8, halide.GuardWithIf)
			g.ComputeAt(f, xo).BoundStorage(x, 12).BoundStorage(y, 2)
		}, "allocate g[int32 * 12 * 2] in Stack"},
		{"cpu per strip, padded to 33 and bound", func(f, g *halide.Func) {
			f.Split(x, xo, xi, 8, halide.ShiftInwards)
			g.ComputeAt(f, xo).AlignStorage(x, 33).BoundStorage(y, 5)
		}, "allocate g[int32 * 33 * 5] in Stack"},
		{"gpu shared tile padded", func(f, g *halide.Func) {
			f.GPUTile(x, y, bx, by, tx, ty, 8, 4)
			g.ComputeAt(f, bx).StoreIn(halide.GPUShared).AlignStorage(x, 11)
		}, "allocate g[int32 * 55] in GPUShared"},
		{"gpu shared tile bound", func(f, g *halide.Func) {
			f.GPUTile(x, y, bx, by, tx, ty, 8, 4)
			g.ComputeAt(f, bx).StoreIn(halide.GPUShared).BoundStorage(x, 16).BoundStorage(y, 8)
		}, "allocate g[int32 * 128] in GPUShared"},
		{"gpu registers padded", func(f, g *halide.Func) {
			f.GPUTile(x, y, bx, by, tx, ty, 8, 4)
			g.ComputeAt(f, tx).StoreIn(halide.Register).AlignStorage(x, 4)
		}, "allocate g[int32 * 4 * 2] in Register"},
		{"gpu global scratch bound", func(f, g *halide.Func) {
			f.Split(x, xo, xi, 16, halide.GuardWithIf).Split(y, yo, yi, 4, halide.GuardWithIf).
				Reorder(xi, yi, xo, yo).GPUBlocks(yo).GPUThreads(xo)
			g.ComputeAt(f, yi).StoreIn(halide.Heap).BoundStorage(x, 20)
		}, "* 40)] in Heap"}, // 20 x 2 per thread
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := halide.NewImageParam("in", halide.Int32, 2)
			g, f := halide.NewFunc("g"), halide.NewFunc("f")
			g.Define(x, y).Is(in.At(x, y).Mul(3))
			f.Define(x, y).Is(g.At(x.Sub(1), y).Add(g.At(x.Add(1), y.Add(1))))
			c.schedule(f, g)
			p := halide.NewPipeline(f).WithOptions(halide.Options{Verify: true})
			l, err := p.Lower()
			if err != nil {
				t.Fatal(err)
			}
			if text := l.String(); !strings.Contains(text, c.alloc) {
				t.Errorf("want %q in the lowered statement:\n%s", c.alloc, grepAllocs(text))
			}
			rng := rand.New(rand.NewSource(5))
			b := halide.NewBuffer[int32](w+2, h+1).SetMin(-1, 0)
			b.Fill(func([]int) int32 { return int32(rng.Intn(2001) - 1000) })
			in.Set(b)
			out := halide.NewBuffer[int32](w, h)
			if err := p.Realize(out); err != nil {
				t.Fatal(err)
			}
			for yy := 0; yy < h; yy++ {
				for xx := 0; xx < w; xx++ {
					want := 3*b.Get(xx-1, yy) + 3*b.Get(xx+1, yy+1)
					if got := out.Get(xx, yy); got != want {
						t.Fatalf("f(%d, %d) = %d, want %d", xx, yy, got, want)
					}
				}
			}
		})
	}
}

func grepAllocs(text string) string {
	var b strings.Builder
	for _, line := range strings.Split(text, "\n") {
		if strings.Contains(line, "allocate") {
			fmt.Fprintln(&b, strings.TrimSpace(line))
		}
	}
	return b.String()
}
