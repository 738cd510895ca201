package gpu_test

import (
	"math"
	"math/rand"
	"testing"

	"github.com/gohalide/gohalide/cfamily"
	"github.com/gohalide/gohalide/halide"
)

// rfactorSum is the classic two-stage GPU reduction of a w x h float32
// array, made by RFactor: the columns become the intermediate's pure
// dimension u, one GPU thread per column in blocks of 32 (consecutive
// threads read consecutive addresses at each step of r.y); with
// atomicMerge the output adds the column sums on the GPU too, one block
// of 32 per 32 columns adding atomically into the one output point
// (else on the host).
func rfactorSum(atomicMerge bool) (*halide.Func, *halide.ImageParam) {
	in := halide.NewImageParam("in", halide.Float32, 2)
	r := halide.NewRDom("r", halide.Range(0, in.Dim(0).Extent()), halide.Range(0, in.Dim(1).Extent()))
	sum := halide.NewFunc("sum")
	sum.Define().Is(float32(0))
	sum.Define().PlusEq(in.At(r.X(), r.Y()))
	u, ub, ut := halide.NewVar("u"), halide.NewVar("ub"), halide.NewVar("ut")
	intm := sum.Update(0).RFactor(halide.RFactorPair{R: r.X(), V: u})
	intm.ComputeRoot().GPUTile1D(u, ub, ut, 32)
	intm.Update(0).GPUTile1D(u, ub, ut, 32, halide.GuardWithIf)
	if atomicMerge {
		rb, rt := halide.NewRVar("rb"), halide.NewRVar("rt")
		sum.Update(0).Atomic().GPUTile1D(r.X(), rb, rt, 32)
	}
	return sum, in
}

// The rfactor sums on the emulator against a float64 sum, and their
// kernels through nvcc (shared memory as inferred, no stack frame).
func TestRFactorSumGPU(t *testing.T) {
	const w, h = 300, 70
	rng := rand.New(rand.NewSource(8))
	buf := halide.NewBuffer[float32](w, h)
	want := 0.0
	buf.Fill(func([]int) float32 {
		v := float32(0.25 + 0.75*rng.Float64())
		want += float64(v)
		return v
	})
	for _, merge := range []bool{false, true} {
		sum, in := rfactorSum(merge)
		in.Set(buf)
		p := halide.NewPipeline(sum)
		l, err := p.Lower()
		if err != nil {
			t.Fatal(err)
		}
		kernels := 2
		if merge {
			kernels = 3 // the intermediate's two stages and the merge
		}
		if n := len(l.Kernels()); n != kernels {
			t.Errorf("merge %v: %d kernels, want %d", merge, n, kernels)
		}
		out := halide.NewBuffer[float32]()
		if err := p.Realize(out); err != nil {
			t.Fatal(err)
		}
		// w*h positive terms below 1, summed in float32 in another
		// order: each addition rounds by at most 2^-24 of a partial sum
		// below want.
		if got := float64(out.Get()); math.Abs(got-want) > want*float64(w+h)/(1<<24) {
			t.Errorf("merge %v: sum = %v, want %v", merge, got, want)
		}
		if _, ok := cfamily.NVCCPath(); ok && !testing.Short() {
			checkKernelsNVCC(t, l.Kernels())
		}
	}
}
