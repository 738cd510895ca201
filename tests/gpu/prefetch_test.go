package gpu_test

import (
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/gohalide/gohalide/cfamily"
	"github.com/gohalide/gohalide/halide"
)

// prefetchGPU is a 3-dimensional pipeline whose kernels prefetch: out(x,
// y, c) = g(x, y, c) * in(x + 1, y, c), then out += in(x + r, y, c) *
// g(x, y + 1, c) over r in [0, 5), with g = in * 2 computed at the root.
// With prefetch set, the pure stage prefetches the input (3-dimensional
// boxes, GuardWithIf) and g (Clamp) at its innermost thread loop, the
// update the input at the thread loop from its RVar loop (Clamp) and g
// at the RVar loop, inside the threads (NonFaulting); the loop over c is
// on the host, where its prefetch does nothing.
func prefetchGPU(prefetch bool) (*halide.Func, *halide.ImageParam) {
	x, y, c := halide.NewVar("x"), halide.NewVar("y"), halide.NewVar("c")
	bx, by, tx, ty := halide.NewVar("bx"), halide.NewVar("by"), halide.NewVar("tx"), halide.NewVar("ty")
	in := halide.NewImageParam("in", halide.Float32, 3)
	g := halide.NewFunc("g")
	g.Define(x, y, c).Is(in.At(x, y, c).Mul(2))
	out := halide.NewFunc("out")
	out.Define(x, y, c).Is(g.At(x, y, c).Mul(in.At(x.Add(1), y, c)))
	r := halide.NewRDom("r", halide.Range(0, 5))
	out.Define(x, y, c).Is(out.At(x, y, c).Add(in.At(x.Add(r.X()), y, c).Mul(g.At(x, y.Add(1), c))))
	g.ComputeRoot().GPUTile(x, y, bx, by, tx, ty, 16, 8)
	out.GPUTile(x, y, bx, by, tx, ty, 32, 4)
	out.Update(0).GPUTile(x, y, bx, by, tx, ty, 16, 8)
	if prefetch {
		out.PrefetchImage(in, tx, tx, 1).Prefetch(g, tx, tx, 2, halide.PrefetchClamp).PrefetchImage(in, c, c, 1)
		out.Update(0).PrefetchImage(in, tx, r.X(), 2, halide.PrefetchClamp).Prefetch(g, r.X(), r.X(), 1, halide.PrefetchNonFaulting)
	}
	return out, in
}

// TestPrefetchCUDA: the prefetching kernels print prefetch.global.L2 and
// compile with nvcc (when installed), and the emulator's result is the
// one without prefetches, bit for bit.
func TestPrefetchCUDA(t *testing.T) {
	out, _ := prefetchGPU(true)
	l, err := halide.NewPipeline(out).Lower()
	if err != nil {
		t.Fatal(err)
	}
	src, err := cfamily.CUDATargetSource(l.Kernels()...)
	if err != nil {
		t.Fatal(err)
	}
	// kernel_out_s0 prefetches in and g; kernel_out_s1, partitioned into
	// a steady state and a tail, in and g in each.
	for what, want := range map[string]int{"// prefetch in:": 3, "// prefetch g:": 3} {
		if n := strings.Count(src, what); n != want {
			t.Errorf("the CUDA source has %d %q, want %d:\n%s", n, what, want, src)
		}
	}
	if _, ok := cfamily.NVCCPath(); ok {
		checkKernelsNVCC(t, l.Kernels())
	} else {
		t.Log("nvcc not found: the source is not compiled")
	}

	rng := rand.New(rand.NewSource(77))
	input := halide.NewBuffer[float32](45, 30, 3)
	input.Fill(func([]int) float32 { return 1 + rng.Float32() })
	var results [][]float32
	for _, pf := range []bool{false, true} {
		out, in := prefetchGPU(pf)
		in.Set(input)
		result := halide.NewBuffer[float32](40, 29, 3)
		if err := halide.NewPipeline(out).WithOptions(halide.Options{Verify: true}).Realize(result); err != nil {
			t.Fatalf("prefetch %v: %v", pf, err)
		}
		results = append(results, result.Data())
	}
	if !slices.Equal(results[0], results[1]) {
		t.Error("the emulator's result differs with the prefetches")
	}
}
