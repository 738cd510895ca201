//go:build cuda

package cuda_test

import (
	"math"
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// tiledProduct is the n×n matrix product C = A B of two n×n inputs, n a
// multiple of 32, as a register-tiled, shared-memory GEMM (the schedule of
// algo's GPUScheduleTiledShared, at a smaller tile): a block computes a
// 32×32 tile of C with 8×8 threads, each thread a 4×4 tile of
// accumulators (prod, 16 floats in registers, every loop over them
// unrolled so the array keeps constant indices); the k loop goes in steps
// of 8, each staging a 32×8 tile of A and an 8×32 tile of B in shared
// memory (a_in and b_in, 256 floats each) loaded by the block's threads
// together.
func tiledProduct(n int) (c *halide.Func, a, b *halide.ImageParam) {
	a = halide.NewImageParam("A", halide.Float32, 2)
	b = halide.NewImageParam("B", halide.Float32, 2)
	for _, p := range []*halide.ImageParam{a, b} {
		p.Dim(0).SetBounds(0, n)
		p.Dim(1).SetBounds(0, n)
	}
	j, i, k := halide.NewVar("j"), halide.NewVar("i"), halide.NewVar("k")
	aIn := halide.NewFunc("a_in")
	aIn.Define(k, i).Is(a.At(k, i))
	bIn := halide.NewFunc("b_in")
	bIn.Define(j, k).Is(b.At(j, k))
	r := halide.NewRDom("r", halide.Range(0, n))
	prod := halide.NewFunc("prod")
	prod.Define(j, i).Is(float32(0))
	prod.Define(j, i).PlusEq(aIn.At(r, i).Mul(bIn.At(j, r)))
	c = halide.NewFunc("c")
	c.Define(j, i).Is(prod.At(j, i))

	jo, jt, tj, jr := halide.NewVar("jo"), halide.NewVar("jt"), halide.NewVar("tj"), halide.NewVar("jr")
	io, it, ti, ir := halide.NewVar("io"), halide.NewVar("it"), halide.NewVar("ti"), halide.NewVar("ir")
	ko, ki := halide.NewRVar("ko"), halide.NewRVar("ki")
	c.Bound(j, 0, n).Bound(i, 0, n).
		Split(j, jo, jt, 32).Split(i, io, it, 32).
		Split(jt, tj, jr, 4).Split(it, ti, ir, 4).
		Reorder(jr, ir, tj, ti, jo, io).
		GPUBlocks(jo, io).GPUThreads(tj, ti).
		Unroll(jr).Unroll(ir)
	prod.ComputeAt(c, tj).StoreIn(halide.Register).Unroll(j).Unroll(i)
	prod.Update(0).Split(r, ko, ki, 8).Reorder(j, i, ki, ko).
		Unroll(j).Unroll(i).Unroll(ki)
	aIn.ComputeAt(prod, ko).StoreIn(halide.GPUShared)
	bIn.ComputeAt(prod, ko).StoreIn(halide.GPUShared)
	return c, a, b
}

// TestReportCompiled realizes a register-tiled, shared-memory product on
// the GPU, checks it against a plain-Go product, and checks what Report
// says the compiled kernel uses (KernelReport.Compiled, from the driver):
// some registers; the static shared memory lowering laid out (the report's
// SharedBytes); no local memory, since the accumulators stay in registers
// and nothing spills. Before a Realize the kernel is not compiled and
// Compiled is nil; on the emulator it stays nil after one.
func TestReportCompiled(t *testing.T) {
	const n = 64
	c, a, b := tiledProduct(n)
	ab, bb := halide.NewBuffer[float32](n, n), halide.NewBuffer[float32](n, n)
	// Small integers: every product and sum is exact in float32.
	ab.Fill(func(x []int) float32 { return float32((x[0]+2*x[1])%7 - 3) })
	bb.Fill(func(x []int) float32 { return float32((3*x[0]+x[1])%5 - 2) })
	a.Set(ab)
	b.Set(bb)

	p := halide.NewPipeline(c).WithTarget(halide.CUDA)
	before, err := p.Report()
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range before {
		if k.Compiled != nil {
			t.Errorf("%s: Compiled %+v before any Realize, want nil (not compiled yet)", k.Name, *k.Compiled)
		}
	}
	out := halide.NewBuffer[float32](n, n)
	if err := p.Realize(out); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			var want float32
			for k := 0; k < n; k++ {
				want += ab.Get(k, i) * bb.Get(j, k)
			}
			if got := out.Get(j, i); got != want {
				t.Fatalf("C(%d, %d) = %g, want %g", j, i, got, want)
			}
		}
	}

	reps, err := p.Report()
	if err != nil {
		t.Fatal(err)
	}
	if len(reps) != 1 {
		t.Fatalf("%d kernels, want 1", len(reps))
	}
	r := reps[0]
	if len(r.Registers) == 0 || len(r.Shared) != 2 {
		t.Fatalf("%s: %d register and %d shared allocations, want the accumulators in registers and a_in, b_in in shared memory", r.Name, len(r.Registers), len(r.Shared))
	}
	ci := r.Compiled
	if ci == nil {
		t.Fatalf("%s: no Compiled after a Realize on the GPU", r.Name)
	}
	t.Logf("%s: %s; the report's shared pool %d B", r.Name, ci, r.SharedBytes)
	if ci.Registers <= 0 {
		t.Errorf("%s: %d registers per thread, want some", r.Name, ci.Registers)
	}
	if ci.SharedBytes != r.SharedBytes {
		t.Errorf("%s: the driver reports %d bytes of static shared memory, the report %d", r.Name, ci.SharedBytes, r.SharedBytes)
	}
	if ci.LocalBytes != 0 {
		t.Errorf("%s: %d bytes of local memory per thread (stack frame or spills), want 0: the 4x4 accumulators should stay in registers", r.Name, ci.LocalBytes)
	}
	// The block (8x8 threads) fits what the compiled kernel can launch.
	if threads := r.BlockValues[0] * r.BlockValues[1] * r.BlockValues[2]; ci.MaxThreadsPerBlock < int(threads) {
		t.Errorf("%s: launched with %d threads but the driver allows %d", r.Name, threads, ci.MaxThreadsPerBlock)
	}

	// The emulator measures nothing.
	pe := halide.NewPipeline(c).WithTarget(halide.Emulator)
	outE := halide.NewBuffer[float32](n, n)
	if err := pe.Realize(outE); err != nil {
		t.Fatal(err)
	}
	emu, err := pe.Report()
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range emu {
		if k.Compiled != nil {
			t.Errorf("%s: Compiled %+v on the emulator, want nil", k.Name, *k.Compiled)
		}
	}
	if d := maxDiff(out, outE); d != 0 {
		t.Errorf("the GPU and the emulator differ by up to %g", d)
	}
}

// maxDiff is the largest |a - b| over two buffers of the same shape.
func maxDiff(a, b *halide.Buffer[float32]) float64 {
	d := 0.0
	for i, v := range a.Data() {
		d = math.Max(d, math.Abs(float64(v)-float64(b.Data()[i])))
	}
	return d
}
