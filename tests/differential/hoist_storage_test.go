package differential_test

import (
	"math/rand"
	"strings"
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// TestHoistStorage realizes f(x, y) = g(clamp(x-1, 0, n), y) +
// g(clamp(x+1, 0, n), y), g = 2 * in, with g computed per strip of 8
// columns of f and its storage hoisted out of the strip loop, on the CPU
// and in a GPU kernel (emulator), against a plain-Go reference. The
// lowered statement must allocate g once outside the loop it is computed
// in, sized for every strip (the clamped strips at the edges are
// smaller), and the sliding-window case hoists a sliding Func's storage
// to the root.
func TestHoistStorage(t *testing.T) {
	const w, hgt, n = 37, 13, 30 // n clamps reads below w: some strips read fewer columns
	x, y := halide.NewVar("x"), halide.NewVar("y")
	xo, xi, yo, yi := halide.NewVar("xo"), halide.NewVar("xi"), halide.NewVar("yo"), halide.NewVar("yi")
	cases := []struct {
		name     string
		schedule func(f, g *halide.Func, np *halide.Param[int32])
		// before: in the lowered text, "allocate g" comes before this
		// loop, which encloses g's computation.
		before string
		// allocs is the number of allocations of g.
		allocs int
	}{
		{"cpu hoist to the row loop", func(f, g *halide.Func, _ *halide.Param[int32]) {
			f.Split(x, xo, xi, 8)
			g.ComputeAt(f, xo).HoistStorage(f, y)
		}, "for (f.s0.x.xo", 1},
		{"cpu hoist to the root", func(f, g *halide.Func, _ *halide.Param[int32]) {
			f.Split(x, xo, xi, 8, halide.GuardWithIf)
			g.ComputeAt(f, xo).HoistStorageRoot()
		}, "for (f.s0.y", 1},
		{"cpu sliding window hoisted to the root", func(f, g *halide.Func, _ *halide.Param[int32]) {
			f.Split(y, yo, yi, 4, halide.GuardWithIf)
			g.StoreAt(f, yo).ComputeAt(f, yi).HoistStorageRoot()
		}, "for (f.s0.y.yo", 1},
		{"gpu hoist to the thread loop", func(f, g *halide.Func, _ *halide.Param[int32]) {
			f.Split(x, xo, xi, 8, halide.GuardWithIf).Split(y, yo, yi, 4, halide.GuardWithIf).
				Reorder(xi, yi, xo, yo).GPUBlocks(yo).GPUThreads(xo)
			g.ComputeAt(f, yi).HoistStorage(f, xo).StoreIn(halide.Heap)
		}, "for (f.s0.y.yi", 1},
		{"cpu hoist to the row loop of a specialized stage", func(f, g *halide.Func, np *halide.Param[int32]) {
			// Each case has a copy of the row loop, and an allocation
			// of its own there (Halide's resize hoists so).
			f.Split(x, xo, xi, 8)
			f.Specialize(np.Expr().Gt(20)).Vectorize(xi, 4)
			g.ComputeAt(f, xo).HoistStorage(f, y)
		}, "for (f.s0.x.xo", 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := halide.NewImageParam("in", halide.Float32, 2)
			np := halide.NewParam[int32]("n")
			np.Set(n)
			g, f := halide.NewFunc("g"), halide.NewFunc("f")
			g.Define(x, y).Is(in.At(x, y).Mul(2))
			f.Define(x, y).Is(g.At(halide.Clamp(x.Sub(1), halide.E(int32(0)), np.Expr()), y).
				Add(g.At(halide.Clamp(x.Add(1), halide.E(int32(0)), np.Expr()), y.Sub(1))))
			c.schedule(f, g, np)
			p := halide.NewPipeline(f).WithOptions(halide.Options{Verify: true})
			l, err := p.Lower()
			if err != nil {
				t.Fatal(err)
			}
			text := l.String()
			alloc, loop := strings.Index(text, "allocate g["), strings.Index(text, c.before)
			if alloc < 0 || loop < 0 || alloc > loop || strings.Count(text, "allocate g[") != c.allocs {
				t.Errorf("want %d allocations of g, the first before %q:\n%s", c.allocs, c.before, text)
			}
			rng := rand.New(rand.NewSource(3))
			b := halide.NewBuffer[float32](n+1, hgt+1).SetMin(0, -1)
			b.Fill(func([]int) float32 { return float32(rng.Intn(19) - 9) })
			in.Set(b)
			out := halide.NewBuffer[float32](w, hgt)
			if err := p.Realize(out); err != nil {
				t.Fatal(err)
			}
			clamp := func(v int) int { return min(max(v, 0), n) }
			for yy := 0; yy < hgt; yy++ {
				for xx := 0; xx < w; xx++ {
					want := 2*b.Get(clamp(xx-1), yy) + 2*b.Get(clamp(xx+1), yy-1)
					if got := out.Get(xx, yy); got != want {
						t.Fatalf("f(%d, %d) = %v, want %v", xx, yy, got, want)
					}
				}
			}
		})
	}
}
