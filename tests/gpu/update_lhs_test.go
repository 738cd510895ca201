package gpu_test

import (
	"math/rand"
	"testing"

	"github.com/gohalide/gohalide/cfamily"
	"github.com/gohalide/gohalide/halide"
)

// Updates along the diagonal (Halide's reduction_chain.cpp with random
// inputs): with g(x, y) pure, g(x, x) = ... loops over x alone and
// g(y, y) = ... over y alone, each update a kernel over its pure Var, and
// a pure definition with an Undef arm that leaves the odd points of the
// output. Checked against plain Go (on the GPU with -tags cuda, on the
// emulator otherwise).
func TestUpdateLHSDiagonalGPU(t *testing.T) {
	const n = 37
	clamp := func(v int) int { return max(0, min(v, n-1)) }
	x, y := halide.NewVar("x"), halide.NewVar("y")
	bx, by, tx, ty := halide.NewVar("bx"), halide.NewVar("by"), halide.NewVar("tx"), halide.NewVar("ty")
	data := halide.NewBuffer[int32](n, n)
	rng := rand.New(rand.NewSource(21))
	data.Fill(func([]int) int32 { return int32(rng.Intn(2000) - 1000) })
	in := halide.NewImageParam("in", halide.Int32, 2)
	in.Set(data)
	src := func(x, y halide.Expr) halide.Expr { return in.At(halide.Clamp(x, 0, n-1), halide.Clamp(y, 0, n-1)) }
	g, out := halide.NewFunc("g"), halide.NewFunc("out")
	g.Define(x, y).Is(src(halide.E(x), halide.E(y)))
	g.Define(x, x).Is(g.At(x, x.Sub(1)).Add(g.At(x, x.Add(1))).Add(src(halide.E(x), halide.E(x)).Mul(2)))
	g.Define(y, y).Is(g.At(y.Sub(1), y).Mul(3).Sub(g.At(y.Add(1), y)))
	g.Define(x, x.Add(1)).Is(g.At(x, x).Add(g.At(x, x.Add(2))))
	out.Define(x, y).Is(g.At(x.Sub(1), y.Sub(1)).Add(g.At(x.Add(1), y.Add(1))).Add(g.At(x, y)))
	g.ComputeRoot().GPUTile(x, y, bx, by, tx, ty, 8, 8, halide.GuardWithIf)
	g.Update(0).GPUTile1D(x, bx, tx, 16)
	g.Update(1).GPUTile1D(y, by, ty, 8)
	g.Update(2).GPUTile1D(x, bx, tx, 32)
	out.GPUTile(x, y, bx, by, tx, ty, 16, 8, halide.GuardWithIf)
	buf := halide.NewBuffer[int32](n, n)
	p := halide.NewPipeline(out).WithTarget(testTarget).WithOptions(halide.Options{Verify: true})
	if err := p.Realize(buf); err != nil {
		t.Fatal(err)
	}
	if _, ok := cfamily.NVCCPath(); ok {
		// The kernels of the updates compile where nvcc is installed.
		l, err := p.Lower()
		if err != nil {
			t.Fatal(err)
		}
		checkKernelsNVCC(t, l.Kernels())
	}
	s := func(x, y int) int32 { return data.Get(clamp(x), clamp(y)) }
	g1 := func(x, y int) int32 {
		if x == y {
			return s(x, x-1) + s(x, x+1) + 2*s(x, x)
		}
		return s(x, y)
	}
	g2 := func(x, y int) int32 {
		if x == y {
			return 3*g1(y-1, y) - g1(y+1, y)
		}
		return g1(x, y)
	}
	g3 := func(x, y int) int32 {
		if y == x+1 {
			return g2(x, x) + g2(x, x+2)
		}
		return g2(x, y)
	}
	for yy := 0; yy < n; yy++ {
		for xx := 0; xx < n; xx++ {
			want := g3(xx-1, yy-1) + g3(xx+1, yy+1) + g3(xx, yy)
			if got := buf.Get(xx, yy); got != want {
				t.Fatalf("out(%d, %d) = %d, want %d", xx, yy, got, want)
			}
		}
	}

	// h(x) = select(x % 2 == 0, in(x, 0), undef): the odd points keep
	// what the output buffer holds.
	h := halide.NewFunc("h")
	h.Define(x).Is(halide.Select(x.Mod(2).Eq(0), in.At(x, 0), halide.Undef(halide.Int32)))
	h.GPUTile1D(x, bx, tx, 8)
	hb := halide.NewBuffer[int32](n)
	hb.Fill(func(c []int) int32 { return int32(-7 * c[0]) })
	if err := halide.NewPipeline(h).WithTarget(testTarget).Realize(hb); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < n; i++ {
		want := int32(-7 * i)
		if i%2 == 0 {
			want = data.Get(i, 0)
		}
		if got := hb.Get(i); got != want {
			t.Fatalf("h(%d) = %d, want %d", i, got, want)
		}
	}
}
