//go:build cuda

// Package cuda_test runs the pipelines of the apps on a real GPU. Build and
// run it on a machine with an NVIDIA GPU (scripts/gpu.sh prints how):
//
//	go test -tags cuda ./tests/cuda/
package cuda_test

import (
	"errors"
	"math/rand"
	"strings"
	"testing"

	"github.com/gohalide/gohalide/apps/algo"
	"github.com/gohalide/gohalide/cudart"
	"github.com/gohalide/gohalide/halide"
	"github.com/gohalide/gohalide/ir"
)

func device(t *testing.T) *cudart.Device {
	t.Helper()
	d, err := cudart.Default()
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestDevice prints what the device is.
func TestDevice(t *testing.T) {
	d := device(t)
	t.Logf("device %d: %s; shared memory per block %d (opt-in %d), max threads %d", d.Info.Ordinal, d.Info, d.Info.MaxSharedPerBlock, d.Info.MaxSharedOptin, d.Info.MaxThreadsPerBlock)
}

// TestAppSchedules realizes every GPU schedule of the apps on the GPU and
// compares it with the plain-Go reference (tolerance algo.Tol relative to
// max(1, |want|)); the tensor product's A, B and C use atomics.
func TestAppSchedules(t *testing.T) {
	for _, c := range algo.GPUCases() {
		t.Run(c.Name, func(t *testing.T) {
			a := c.New()
			algo.ForTarget(a, halide.CUDA)
			p := halide.NewPipeline(a.Out()).WithTarget(halide.CUDA)
			a.Inputs(rand.New(rand.NewSource(11)))
			out, err := a.Run(p)
			if err != nil {
				t.Fatal(err)
			}
			rel, err := a.Check(out)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("max relative error %.2g", rel)
		})
	}
}

// TestSharedSizeBytes checks that the static shared memory the driver
// reports for every kernel (cuFuncGetAttribute SHARED_SIZE_BYTES) is the
// size the compiler inferred.
func TestSharedSizeBytes(t *testing.T) {
	d := device(t)
	for _, c := range algo.GPUCases() {
		l, err := halide.NewPipeline(c.New().Out()).Lower()
		if err != nil {
			t.Fatal(c.Name, err)
		}
		for _, k := range l.Kernels() {
			// The static shared pool (gpu_shared_reuse), one __shared__ array.
			inferred := k.SharedBytes
			got, err := d.Attributes(k)
			if err != nil {
				t.Fatal(c.Name, k.Name, err)
			}
			if got.SharedBytes != inferred {
				t.Errorf("%s %s: the driver reports %d bytes of shared memory, the compiler inferred %d", c.Name, k.Name, got.SharedBytes, inferred)
			}
			t.Logf("%s %s: %s (inferred %d B shared)", c.Name, k.Name, got, inferred)
		}
	}
}

// TestBadInputs: bad input at run time gives a clear error and leaves the
// process and the other buffers usable.
func TestBadInputs(t *testing.T) {
	newGEMM := func() *algo.GEMM {
		g := algo.NewGEMM(64, 64, 64)
		g.GPUScheduleTiledShared(algo.DefaultGEMMTiling)
		return g
	}
	// A wrong output shape: three dimensions for a 2-D Func, and an extent
	// smaller than the schedule's tiles.
	g := newGEMM()
	p := halide.NewPipeline(g.Out()).WithTarget(halide.CUDA)
	g.Inputs(rand.New(rand.NewSource(1)))
	var he *halide.Error
	err := p.Realize(halide.NewBuffer[float32](64, 64, 2))
	if !errors.As(err, &he) || he.Code != halide.ErrBufferShape {
		t.Errorf("wrong output dimensions: got %v", err)
	}
	t.Logf("wrong output dimensions: %v", err)
	err = p.Realize(halide.NewBuffer[float32](64, 63))
	if !errors.As(err, &he) || he.Code != halide.ErrRuntime || !strings.Contains(err.Error(), "extent") {
		t.Errorf("output smaller than a tile: got %v", err)
	}
	t.Logf("output smaller than a tile: %v", err)
	// A missing input.
	g2 := newGEMM()
	p2 := halide.NewPipeline(g2.Out()).WithTarget(halide.CUDA)
	err = p2.Realize(g2.NewOutput())
	if err == nil || !strings.Contains(err.Error(), "no buffer") {
		t.Errorf("missing input: got %v", err)
	}
	t.Logf("missing input: %v", err)
	// A launch the device cannot take: a grid dimension over the limit
	// (y and z are at most 65535).
	d := device(t)
	l, err := halide.NewPipeline(newGEMM().Out()).Lower()
	if err != nil {
		t.Fatal(err)
	}
	k := l.Kernels()[0]
	scalars := map[string]any{}
	for _, a := range k.Args {
		if !a.IsBuffer {
			scalars[a.Name] = int32(1)
		}
	}
	buffers := map[string]any{}
	for _, a := range k.Args {
		if a.IsBuffer {
			buffers[a.Name] = make([]float32, 64*64)
		}
	}
	err = d.Launch(k, [3]int{1, 1 << 20, 1}, [3]int{16, 16, 1}, scalars, buffers)
	if err == nil || !strings.Contains(err.Error(), k.Name) {
		t.Errorf("an oversized grid: got %v", err)
	}
	t.Logf("oversized grid: %v", err)
	// Too much shared memory: a dynamic size over the device's limit.
	big := &ir.Kernel{Name: "too_much_shared", Grid: [3]ir.Expr{ir.Int(1), ir.Int(1), ir.Int(1)}, Block: [3]ir.Expr{ir.Int(32), ir.Int(1), ir.Int(1)},
		Args: []ir.KernelArg{{Name: "out", T: ir.Float32, IsBuffer: true, Written: true}, {Name: "n", T: ir.Int32}},
		Body: &ir.Allocate{Name: "tile", T: ir.Float32, Memory: ir.GPUShared, Extents: []ir.Expr{ir.NewVar("n")},
			Body: &ir.Store{Buf: "tile", Index: ir.NewVar(ir.ThreadID[0]), Value: ir.Const(ir.Float32, 1)}}}
	// Its record (element counts, the dynamic region) is derived from the
	// body by the rules lowering uses.
	big = big.Recorded()
	err = d.Launch(big, [3]int{1, 1, 1}, [3]int{32, 1, 1}, map[string]any{"n": int32(1 << 20)}, map[string]any{"out": make([]float32, 32)})
	if err == nil || !strings.Contains(err.Error(), "shared memory") {
		t.Errorf("too much shared memory: got %v", err)
	}
	t.Logf("too much shared memory: %v", err)
	// The process and the device still work.
	g3 := newGEMM()
	p3 := halide.NewPipeline(g3.Out()).WithTarget(halide.CUDA)
	g3.Inputs(rand.New(rand.NewSource(2)))
	out, err := g3.Run(p3)
	if err != nil {
		t.Fatal("after the errors:", err)
	}
	if _, err := g3.Check(out); err != nil {
		t.Fatal("after the errors:", err)
	}
}

// TestBenchmark times a kernel with CUDA events: a warm-up, then the median
// of the runs, with the output still right afterwards.
func TestBenchmark(t *testing.T) {
	g := algo.NewGEMM(512, 512, 512)
	g.GPUScheduleTiledShared(algo.DefaultGEMMTiling)
	p := halide.NewPipeline(g.Out()).WithTarget(halide.CUDA)
	g.Inputs(rand.New(rand.NewSource(3)))
	out := g.NewOutput()
	tm, err := p.Benchmark(out, 20)
	if err != nil {
		t.Fatal(err)
	}
	if tm.MedianMs <= 0 || tm.MinMs > tm.MedianMs || tm.MedianMs > tm.MaxMs {
		t.Errorf("implausible timing %+v", tm)
	}
	if _, err := g.Check(out); err != nil {
		t.Fatal(err)
	}
	t.Logf("GEMM 512^3 tiled_shared: median %.3f ms (min %.3f, max %.3f) over %d runs (%s)", tm.MedianMs, tm.MinMs, tm.MaxMs, tm.Runs, tm.Clock)
}

// Was: a Func computed on the host inside a host loop (f at g's row loop)
// and read by the kernel launched in that loop was uploaded once: the
// device kept the first row's values (its host storage is reused at the
// same address) and every later row was wrong. The emulator reads host
// memory and could not see it; the fuzzer on the GPU found 19 such cases.
func TestHostComputedFuncBetweenLaunches(t *testing.T) {
	x, y, xb, xt := halide.NewVar("x"), halide.NewVar("y"), halide.NewVar("xb"), halide.NewVar("xt")
	f, g := halide.NewFunc("f"), halide.NewFunc("g")
	f.Define(x, y).Is(x.Mul(7).Add(y.Mul(3)))
	g.Define(x, y).Is(f.At(x, y).Mul(2))
	g.Split(x, xb, xt, 16, halide.GuardWithIf).GPUBlocks(xb).GPUThreads(xt)
	f.ComputeAt(g, y)
	out := halide.NewBuffer[int32](37, 5)
	if err := halide.NewPipeline(g).WithTarget(halide.CUDA).Realize(out); err != nil {
		t.Fatal(err)
	}
	for yy := 0; yy < 5; yy++ {
		for xx := 0; xx < 37; xx++ {
			if got, want := out.Get(xx, yy), int32(2*(7*xx+3*yy)); got != want {
				t.Fatalf("g(%d, %d) = %d, want %d", xx, yy, got, want)
			}
		}
	}
}
