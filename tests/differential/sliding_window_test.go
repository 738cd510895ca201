package differential_test

import (
	"math/rand"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// stencilChain is a 3-row blur of a 3-row blur of the input:
//
//	f(x, y) = in(x, y) * 2
//	g(x, y) = f(x, y-1) + f(x, y) + f(x, y+1)
//	h(x, y) = g(x, y-1) + g(x, y) + g(x, y+1)
//
// with f and g stored at the root and computed per row of h (or of a row
// loop inside h's GPU threads when gpu is set). Sliding windows make each
// row of f and g computed once; storage folding keeps 4 rows of each.
func stencilChain(gpu bool) (*halide.Pipeline, *halide.ImageParam, *halide.Func, *halide.Func) {
	x, y := halide.NewVar("x"), halide.NewVar("y")
	in := halide.NewImageParam("in", halide.Float32, 2)
	f, g, h := halide.NewFunc("f"), halide.NewFunc("g"), halide.NewFunc("h")
	f.Define(x, y).Is(in.At(x, y).Mul(2))
	g.Define(x, y).Is(f.At(x, y.Sub(1)).Add(f.At(x, y)).Add(f.At(x, y.Add(1))))
	h.Define(x, y).Is(g.At(x, y.Sub(1)).Add(g.At(x, y)).Add(g.At(x, y.Add(1))))
	if gpu {
		// Each GPU thread owns a column strip of 8 pixels and walks the
		// rows of its strip in a serial loop; f and g live in the
		// thread's own memory, stored at the thread loop and computed at
		// the row loop.
		xo, xi, yo, yi := halide.NewVar("xo"), halide.NewVar("xi"), halide.NewVar("yo"), halide.NewVar("yi")
		h.Split(x, xo, xi, 8, halide.GuardWithIf).Split(y, yo, yi, 16, halide.GuardWithIf).Reorder(xi, yi, xo, yo).GPUBlocks(yo).GPUThreads(xo)
		g.StoreAt(h, xo).ComputeAt(h, yi).StoreIn(halide.Heap)
		f.StoreAt(h, xo).ComputeAt(h, yi).StoreIn(halide.Heap)
	} else {
		g.StoreRoot().ComputeAt(h, y)
		f.StoreRoot().ComputeAt(h, y)
	}
	f.TraceStores()
	g.TraceStores()
	return halide.NewPipeline(h), in, f, g
}

// TestSlidingWindowStoresEachPointOnce realizes the stencil chain on the
// CPU and in a GPU kernel (on the emulator) and counts, through
// Options.Trace, the stores to f and g: each point of their regions is
// stored exactly once per window (a schedule without sliding stores each
// row of g three times and of f five). The output is compared with a plain-Go reference, and the
// lowered statement shows the window: a region that starts past the rows
// already computed, and folded storage of 4 rows.
func TestSlidingWindowStoresEachPointOnce(t *testing.T) {
	const w, hgt = 19, 23 // odd, not multiples of the splits
	for _, gpu := range []bool{false, true} {
		name := map[bool]string{false: "cpu", true: "gpu-kernel"}[gpu]
		t.Run(name, func(t *testing.T) {
			p, in, _, _ := stencilChain(gpu)
			var mu sync.Mutex
			stores := map[string]map[[2]int]int{"f": {}, "g": {}}
			p.WithOptions(halide.Options{Verify: true, Trace: func(ev halide.TraceEvent) {
				mu.Lock()
				stores[ev.Func][[2]int{ev.Coords[0], ev.Coords[1]}]++
				mu.Unlock()
			}})
			l, err := p.Lower()
			if err != nil {
				t.Fatal(err)
			}
			text := l.String()
			// f's window is 5 rows (folded to 8), g's 3 (folded to 4); in
			// the kernel, each thread's copy is 8 columns wide.
			folds := []*regexp.Regexp{
				regexp.MustCompile(`allocate f\[float32 \* [^\]]*\* 8\]`),
				regexp.MustCompile(`allocate g\[float32 \* [^\]]*\* 4\]`),
			}
			if gpu {
				folds = []*regexp.Regexp{
					regexp.MustCompile(`allocate f\[float32 \* [^\]]*\* 64\)\] in Heap`),
					regexp.MustCompile(`allocate g\[float32 \* [^\]]*\* 32\)\] in Heap`),
				}
			}
			for _, want := range append(folds,
				regexp.MustCompile(`let f\.s0\.y\.min = unsafe_promise_clamped\(select\(`),
				regexp.MustCompile(`let g\.s0\.y\.min = unsafe_promise_clamped\(select\(`),
			) {
				if !want.MatchString(text) {
					t.Errorf("the lowered statement has no %s:\n%s", want, text)
				}
			}
			rng := rand.New(rand.NewSource(7))
			b := halide.NewBuffer[float32](w, hgt+4).SetMin(0, -2)
			b.Fill(func([]int) float32 { return float32(rng.Intn(19) - 9) })
			in.Set(b)
			out := halide.NewBuffer[float32](w, hgt)
			if err := p.Realize(out); err != nil {
				t.Fatal(err)
			}
			for y := 0; y < hgt; y++ {
				for x := 0; x < w; x++ {
					var want float32
					for dy := -2; dy <= 2; dy++ {
						// The two 3-taps make weights 1 2 3 2 1.
						want += float32(3-abs(dy)) * 2 * b.Get(x, y+dy)
					}
					if got := out.Get(x, y); got != want {
						t.Fatalf("h(%d, %d) = %v, want %v", x, y, got, want)
					}
				}
			}
			// f is needed over rows -2 .. hgt+1 and g over -1 .. hgt, every
			// column. On the CPU each point is stored once. In the kernel
			// each block of 16 rows has its own window, so the rows of a
			// block's halo (2 of f, 1 of g on each side) are stored once
			// per block that needs them, and no more.
			for fn, halo := range map[string]int{"f": 2, "g": 1} {
				want := map[[2]int]int{}
				tile := hgt
				if gpu {
					tile = 16
				}
				for y0 := 0; y0 < hgt; y0 += tile {
					for y := y0 - halo; y <= min(y0+tile-1, hgt-1)+halo; y++ {
						for x := 0; x < w; x++ {
							want[[2]int{x, y}]++
						}
					}
				}
				bad := 0
				for at, n := range want {
					if got := stores[fn][at]; got != n && bad < 5 {
						bad++
						t.Errorf("%s%v stored %d times, want %d", fn, at, got, n)
					}
				}
				for at := range stores[fn] {
					if want[at] == 0 && bad < 5 {
						bad++
						t.Errorf("%s stored at %v, outside its region", fn, at)
					}
				}
			}
		})
	}
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// TestSlidingWindowWithoutFoldIsWholeImage checks the opposite: a store
// level that is the compute level (no window) recomputes the rows, which
// the trace shows, and the answer is the same.
func TestSlidingWindowNotAtComputeLevel(t *testing.T) {
	x, y := halide.NewVar("x"), halide.NewVar("y")
	in := halide.NewImageParam("in", halide.Float32, 2)
	f, g := halide.NewFunc("f"), halide.NewFunc("g")
	f.Define(x, y).Is(in.At(x, y).Mul(2))
	g.Define(x, y).Is(f.At(x, y.Sub(1)).Add(f.At(x, y.Add(1))))
	f.ComputeAt(g, y).TraceStores()
	count := 0
	p := halide.NewPipeline(g).WithOptions(halide.Options{Trace: func(halide.TraceEvent) { count++ }})
	b := halide.NewBuffer[float32](5, 9).SetMin(0, -1)
	b.Fill(func(c []int) float32 { return float32(c[0] + 10*c[1]) })
	in.Set(b)
	out := halide.NewBuffer[float32](5, 7)
	if err := p.Realize(out); err != nil {
		t.Fatal(err)
	}
	// Rows y-1 .. y+1 at every row: 3 rows of 5, 7 times.
	if count != 3*5*7 {
		t.Errorf("%d stores to f, want %d", count, 3*5*7)
	}
	if l, _ := p.Lower(); strings.Contains(l.String(), "select((g.s0.y <=") {
		t.Errorf("f slides though it is stored at its compute level:\n%s", l)
	}
}
