package halide

import (
	"testing"

	"github.com/gohalide/gohalide/emulator"
	"github.com/gohalide/gohalide/ir"
	"github.com/gohalide/gohalide/report"
)

// fakeGPU runs kernels on the emulator but measures them as a GPU would:
// a stand-in for the CUDA device (a CUDADevice), so that Report's filling
// of Compiled and the source the target compiles can be checked on a
// machine without a GPU.
type fakeGPU struct {
	emulator.Emulator
	measured []string
	// loaded is the source of each Load, in order: what a real device
	// hands to NVRTC.
	loaded []string
	// loadErr is what Load returns (as NVRTC's errors come back).
	loadErr error
	// deviceOnly and released count the calls of MarkDeviceOnly and
	// Release, by the buffer's length.
	deviceOnly, released map[int]int
}

func (f *fakeGPU) Load(src string, kernels []*ir.Kernel) error {
	f.loaded = append(f.loaded, src)
	return f.loadErr
}

func (f *fakeGPU) MarkHostDirty(buf any) {}

func (f *fakeGPU) MarkDeviceOnly(buf any) { count(&f.deviceOnly, buf) }

func (f *fakeGPU) Release(buf any) { count(&f.released, buf) }

// count adds one to (*m)[the length of the float32 slice buf].
func count(m *map[int]int, buf any) {
	if *m == nil {
		*m = map[int]int{}
	}
	if s, ok := buf.([]float32); ok {
		(*m)[len(s)]++
	}
}

// TestDeviceBuffersOfIntermediates: on a CUDA device, an intermediate
// that only kernels write (g, computed at the root on the GPU) is marked
// device-only, so it is not uploaded, and its host allocation is released
// at the end of every run, so that its device copy does not outlive the
// run (a new host slice each run would otherwise leave one device copy
// behind per run).
func TestDeviceBuffersOfIntermediates(t *testing.T) {
	x, bx, tx := NewVar("x"), NewVar("bx"), NewVar("tx")
	in := NewImageParam("in", Float32, 1)
	g := NewFunc("g")
	g.Define(x).Is(in.At(x).Mul(2))
	h := NewFunc("h")
	h.Define(x).Is(in.At(x).Add(3))
	f := NewFunc("f")
	f.Define(x).Is(g.At(x).Add(h.At(x)).Add(h.At(x.Add(1))))
	f.Split(x, bx, tx, 8).GPUBlocks(bx).GPUThreads(tx)
	g.ComputeRoot().Split(x, bx, tx, 8).GPUBlocks(bx).GPUThreads(tx)
	h.ComputeRoot() // computed on the host: uploaded, not device-only
	ib := NewBuffer[float32](25)
	for i := range 25 {
		ib.Set(float32(i)-5.5, i)
	}
	in.Set(ib)
	fake := &fakeGPU{}
	withFakeGPU(t, fake)
	p := NewPipeline(f).WithTarget(CUDA)
	const runs = 3
	for range runs {
		out := NewBuffer[float32](24)
		if err := p.Realize(out); err != nil {
			t.Fatal(err)
		}
		for i := range 24 {
			v, w := float32(i)-5.5, float32(i+1)-5.5
			if want := 2*v + (v + 3) + (w + 3); out.Get(i) != want {
				t.Fatalf("f(%d) = %v, want %v", i, out.Get(i), want)
			}
		}
	}
	// g has 24 elements and h 25 (as the output and the input, which are
	// not allocations and are neither marked nor released). g is marked
	// at each launch that takes it (its own and f's), h never.
	if got := fake.deviceOnly[24]; got != 2*runs {
		t.Errorf("MarkDeviceOnly called %d times for g, want %d (at its kernel's and f's launch, each run)", got, 2*runs)
	}
	if got := fake.deviceOnly[25]; got != 0 {
		t.Errorf("MarkDeviceOnly called %d times for h, which the host writes; want 0", got)
	}
	if g, h := fake.released[24], fake.released[25]; g != runs || h != runs {
		t.Errorf("Release called %d times for g and %d for h, want %d each (once per run)", g, h, runs)
	}
}

func (f *fakeGPU) Benchmark(runs int, fn func() error) (Timing, error) {
	for i := 0; i <= runs; i++ {
		if err := fn(); err != nil {
			return Timing{}, err
		}
	}
	return report.NewTiming("fake", make([]float64, runs)), nil
}

func (f *fakeGPU) Attributes(k *ir.Kernel) (CompiledInfo, error) {
	f.measured = append(f.measured, k.Name)
	// Made-up numbers; the shared bytes are the kernel's, as a driver
	// reports them.
	return CompiledInfo{Registers: 32, SharedBytes: k.SharedBytes, MaxThreadsPerBlock: 1024}, nil
}

// withFakeGPU registers fake as the CUDA runtime for the rest of the test.
func withFakeGPU(t *testing.T, fake *fakeGPU) {
	t.Helper()
	RegisterCUDA(func() (CUDADevice, error) { return fake, nil })
	t.Cleanup(func() { RegisterCUDA(nil) })
}

// TestReportCompiled: on a launcher that measures compiled kernels,
// Report fills KernelReport.Compiled for the kernels launched since the
// pipeline compiled, and only for them; on the emulator it stays nil.
func TestReportCompiled(t *testing.T) {
	x, bx, tx := NewVar("x"), NewVar("bx"), NewVar("tx")
	in := NewImageParam("in", Float32, 1)
	g := NewFunc("g")
	g.Define(x).Is(in.At(x).Mul(2))
	f := NewFunc("f")
	f.Define(x).Is(g.At(x).Add(1))
	f.Split(x, bx, tx, 8).GPUBlocks(bx).GPUThreads(tx)
	g.ComputeRoot().Split(x, bx, tx, 8).GPUBlocks(bx).GPUThreads(tx)
	in.Set(NewBuffer[float32](16))
	out := NewBuffer[float32](16)

	// The emulator measures nothing.
	p := NewPipeline(f)
	if err := p.Realize(out); err != nil {
		t.Fatal(err)
	}
	reps, err := p.Report()
	if err != nil {
		t.Fatal(err)
	}
	if len(reps) != 2 {
		t.Fatalf("%d kernels, want 2 (g's and f's)", len(reps))
	}
	for _, r := range reps {
		if r.Compiled != nil {
			t.Errorf("%s: Compiled %+v on the emulator", r.Name, *r.Compiled)
		}
	}

	// A measuring launcher: nothing before a launch (nothing compiled),
	// every launched kernel after one.
	fake := &fakeGPU{}
	withFakeGPU(t, fake)
	p = NewPipeline(f).WithTarget(CUDA)
	if err := p.Compile(); err != nil {
		t.Fatal(err)
	}
	if reps, err = p.Report(); err != nil {
		t.Fatal(err)
	}
	for _, r := range reps {
		if r.Compiled != nil {
			t.Errorf("%s: Compiled %+v before any launch", r.Name, *r.Compiled)
		}
	}
	if len(fake.measured) != 0 {
		t.Errorf("Report measured %v before any launch", fake.measured)
	}
	if err := p.Realize(out); err != nil {
		t.Fatal(err)
	}
	if reps, err = p.Report(); err != nil {
		t.Fatal(err)
	}
	for _, r := range reps {
		if r.Compiled == nil || r.Compiled.Registers != 32 || r.Compiled.SharedBytes != r.SharedBytes {
			t.Errorf("%s: Compiled %+v after a launch, want the fake's numbers", r.Name, r.Compiled)
		}
	}
	if len(fake.measured) != 2 {
		t.Errorf("Report measured %v, want both kernels once", fake.measured)
	}
}
