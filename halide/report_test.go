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
}

func (f *fakeGPU) Load(src string, kernels []*ir.Kernel) error {
	f.loaded = append(f.loaded, src)
	return f.loadErr
}

func (f *fakeGPU) MarkHostDirty(buf any) {}

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
