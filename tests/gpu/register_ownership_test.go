package gpu_test

// Registers at the block level (issue 9): a Func computed at a block loop
// of its consumer, with its own gpu_threads, stored in registers. Each
// thread keeps the points it computes in its own registers and reads back
// only those (gpu_register_ownership proves it at Lower). These are the
// schedules that must run; tests/errors/register_ownership_test.go has the
// ones that must be refused.

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// regTol is the tolerance of the float comparisons (absolute up to 1,
// relative above: portedCheckFloat): the emulator's float32 arithmetic is
// the reference's operation for operation (each result rounded to
// float32), and the references below compute in float32 too, so they
// agree to the last bit there; on the GPU nvcc fuses multiplies and adds
// (v*v + w in one rounding), which moves values near 2000 by an ulp
// (2.4e-4), so an absolute 1e-4 failed there.
const regTol = 1e-4

// regInput returns a w x h input of random non-zero values (seeded).
func regInput(seed int64, w, h int) *halide.Buffer[float32] {
	return portedRandFloat32(seed, w, h)
}

// regRun realizes g on a w x h output and compares it with want, and
// checks that f's register array holds elems elements (one thread's
// points, not the block's), with constant indices when constIdx is set.
func regRun(t *testing.T, g *halide.Func, w, h int, want func(x, y int) float32, f string, elems int64, constIdx bool) {
	t.Helper()
	out := halide.NewBuffer[float32](w, h)
	p := portedRealize(t, g, out)
	portedCheckFloat(t, g.Name(), out, func(c []int) float64 { return float64(want(c[0], c[1])) }, regTol)
	l, err := p.Lower()
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, k := range l.Kernels() {
		for _, a := range k.Allocs {
			if a.Func != f {
				continue
			}
			found = true
			if a.Memory != halide.Register || a.Elems != elems {
				t.Errorf("allocation of %s: %v, %d elements; want Register, %d (one thread's points)", f, a.Memory, a.Elems, elems)
			}
		}
	}
	if !found {
		t.Errorf("no allocation of %s in the kernels", f)
	}
	// Constant register indices (f[0], f[1], ...), so that CUDA keeps
	// the array in registers, unless a serial loop walks the tile.
	if !constIdx {
		return
	}
	re := regexp.MustCompile(`(^|[^A-Za-z0-9_.$])` + regexp.QuoteMeta(f) + `\[([^\]]*)\]`)
	n := 0
	for _, line := range strings.Split(l.String(), "\n") {
		if strings.Contains(line, "allocate ") {
			continue
		}
		for _, m := range re.FindAllStringSubmatch(line, -1) {
			n++
			if _, err := strconv.Atoi(m[2]); err != nil {
				t.Errorf("register index of %s is not constant: %s", f, strings.TrimSpace(line))
			}
		}
	}
	if n == 0 {
		t.Errorf("no access of %s in the lowered statement", f)
	}
}

func TestRegisterBlockLevel(t *testing.T) {
	x, y, bx, by, tx, ty := halide.NewVar("x"), halide.NewVar("y"), halide.NewVar("bx"), halide.NewVar("by"), halide.NewVar("tx"), halide.NewVar("ty")
	xi, yi := halide.NewVar("xi"), halide.NewVar("yi")
	// 37 x 21: not multiples of the tiles, so the last blocks are shifted
	// inwards (ShiftInwards on the output).
	const w, h = 37, 21
	in := regInput(1, w+1, h+1)
	at := func(x, y int) float32 { return in.Get(x, y) }

	t.Run("element per thread", func(t *testing.T) {
		// f and g tiled identically; g reads f(x, y).
		im := halide.NewImageParam("in", halide.Float32, 2)
		im.Set(in)
		f, g := halide.NewFunc("f"), halide.NewFunc("g")
		f.Define(x, y).Is(im.At(x, y).Mul(2).Add(1))
		g.Define(x, y).Is(f.At(x, y).Mul(f.At(x, y)))
		g.GPUTile(x, y, bx, by, tx, ty, 8, 4)
		f.ComputeAt(g, bx).StoreIn(halide.Register).GPUThreads(x, y)
		regRun(t, g, w, h, func(x, y int) float32 { v := at(x, y)*2 + 1; return v * v }, "f", 1, true)
	})

	t.Run("shifted read owned by the same thread", func(t *testing.T) {
		// g reads f(x-1, y-1) only: f's region starts one point earlier,
		// so f's thread (tx, ty) computes exactly the point g's thread
		// (tx, ty) reads.
		im := halide.NewImageParam("in", halide.Float32, 2)
		im.Set(in)
		f, g := halide.NewFunc("f"), halide.NewFunc("g")
		f.Define(x, y).Is(im.At(x, y).Mul(3))
		g.Define(x, y).Is(f.At(x.Sub(1), y.Sub(1)).Add(1))
		g.GPUTile(x, y, bx, by, tx, ty, 8, 4)
		f.ComputeAt(g, bx).StoreIn(halide.Register).GPUThreads(x, y)
		// The output starts at (1, 1) so that in(x-1, y-1) is inside in.
		out := halide.NewBuffer[float32](w, h)
		out.SetMin(1, 1)
		portedRealize(t, g, out)
		portedCheckFloat(t, "g", out, func(c []int) float64 { return float64(at(c[0]-1, c[1]-1)*3 + 1) }, regTol)
	})

	for _, tile := range []struct{ tx, ty int }{{2, 2}, {4, 1}} {
		name := fmt.Sprintf("tile per thread %dx%d", tile.tx, tile.ty)
		t.Run(name, func(t *testing.T) {
			// Each thread computes a tile of f with unrolled loops, and
			// g's same thread reads it back, in a tile of its own.
			im := halide.NewImageParam("in", halide.Float32, 2)
			im.Set(in)
			f, g := halide.NewFunc("f"), halide.NewFunc("g")
			f.Define(x, y).Is(im.At(x, y).Sub(0.5))
			g.Define(x, y).Is(f.At(x, y).Mul(2))
			g.Tile(x, y, bx, by, xi, yi, 8*tile.tx, 4*tile.ty).
				Tile(xi, yi, tx, ty, xi, yi, tile.tx, tile.ty).
				GPUBlocks(bx, by).GPUThreads(tx, ty).Unroll(xi).Unroll(yi)
			f.ComputeAt(g, bx).StoreIn(halide.Register).
				Tile(x, y, tx, ty, xi, yi, tile.tx, tile.ty).GPUThreads(tx, ty).Unroll(xi).Unroll(yi)
			regRun(t, g, w, h, func(x, y int) float32 { return (at(x, y) - 0.5) * 2 }, "f", int64(tile.tx*tile.ty), true)
		})
	}

	t.Run("serial walked tile", func(t *testing.T) {
		// Each thread walks a column of 4 points of f in a serial loop,
		// and g's same thread walks the same 4 points.
		im := halide.NewImageParam("in", halide.Float32, 2)
		im.Set(in)
		f, g := halide.NewFunc("f"), halide.NewFunc("g")
		f.Define(x, y).Is(im.At(x, y).Add(im.At(x.Add(1), y)))
		g.Define(x, y).Is(f.At(x, y).Sub(3))
		g.Tile(x, y, bx, by, tx, yi, 8, 16).Split(yi, ty, yi, 4).
			Reorder(yi, tx, ty, bx, by).GPUBlocks(bx, by).GPUThreads(tx, ty)
		f.ComputeAt(g, bx).StoreIn(halide.Register).
			Split(y, ty, yi, 4).Reorder(yi, x, ty).GPUThreads(x, ty)
		regRun(t, g, w, h, func(x, y int) float32 { return at(x, y) + at(x+1, y) - 3 }, "f", 4, false)
	})

	t.Run("two stages that agree", func(t *testing.T) {
		// f's update maps each point to the same thread as its pure
		// definition, and reads f at its own point.
		im := halide.NewImageParam("in", halide.Float32, 2)
		im.Set(in)
		f, g := halide.NewFunc("f"), halide.NewFunc("g")
		f.Define(x, y).Is(im.At(x, y).Mul(2))
		f.Define(x, y).Is(f.At(x, y).Mul(f.At(x, y)).Add(im.At(x, y.Add(1))))
		g.Define(x, y).Is(f.At(x, y).Add(1))
		g.Tile(x, y, bx, by, xi, yi, 16, 8).Tile(xi, yi, tx, ty, xi, yi, 2, 2).
			GPUBlocks(bx, by).GPUThreads(tx, ty).Unroll(xi).Unroll(yi)
		f.ComputeAt(g, bx).StoreIn(halide.Register).
			Tile(x, y, tx, ty, xi, yi, 2, 2).GPUThreads(tx, ty).Unroll(xi).Unroll(yi)
		f.Update(0).Tile(x, y, tx, ty, xi, yi, 2, 2).GPUThreads(tx, ty).Unroll(xi).Unroll(yi)
		regRun(t, g, w, h, func(x, y int) float32 { v := at(x, y) * 2; return v*v + at(x, y+1) + 1 }, "f", 4, true)
	})

	t.Run("wrapper read back", func(t *testing.T) {
		// A wrapper of the input made only for g (in.In(g)), computed at
		// g's block loop in registers with g's mapping: each thread loads
		// its own 2 x 2 tile once and reads it twice.
		im := halide.NewImageParam("in", halide.Float32, 2)
		im.Set(in)
		g := halide.NewFunc("g")
		g.Define(x, y).Is(im.At(x, y).Mul(im.At(x, y)).Sub(im.At(x, y)))
		g.Tile(x, y, bx, by, xi, yi, 16, 8).Tile(xi, yi, tx, ty, xi, yi, 2, 2).
			GPUBlocks(bx, by).GPUThreads(tx, ty).Unroll(xi).Unroll(yi)
		wr := im.In(g)
		wr.ComputeAt(g, bx).StoreIn(halide.Register).
			Tile(x, y, tx, ty, xi, yi, 2, 2).GPUThreads(tx, ty).Unroll(xi).Unroll(yi)
		regRun(t, g, w, h, func(x, y int) float32 { v := at(x, y); return v*v - v }, wr.Name(), 4, true)
	})

	t.Run("wrapper of a Func read back", func(t *testing.T) {
		// f computed at the root on the GPU; g reads it through a wrapper
		// stored per thread at g's block level.
		im := halide.NewImageParam("in", halide.Float32, 2)
		im.Set(in)
		f, g := halide.NewFunc("f"), halide.NewFunc("g")
		f.Define(x, y).Is(im.At(x, y).Add(2))
		g.Define(x, y).Is(f.At(x, y).Mul(f.At(x, y)))
		f.ComputeRoot().GPUTile(x, y, bx, by, tx, ty, 8, 8)
		g.GPUTile(x, y, bx, by, tx, ty, 8, 4)
		wr := f.In(g)
		wr.ComputeAt(g, bx).StoreIn(halide.Register).GPUThreads(x, y)
		regRun(t, g, w, h, func(x, y int) float32 { v := at(x, y) + 2; return v * v }, wr.Name(), 1, true)
	})
}
