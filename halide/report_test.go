package halide

import (
	"testing"

	"github.com/gohalide/gohalide/emulator"
	"github.com/gohalide/gohalide/ir"
	"github.com/gohalide/gohalide/report"
)

// fakeGPU runs kernels on the emulator but measures them as a GPU would:
// a stand-in for the CUDA device, so that Report's filling of Compiled can
// be checked on a machine without a GPU.
type fakeGPU struct {
	emulator.Emulator
	measured []string
}

func (f *fakeGPU) Attributes(k *ir.Kernel) (report.CompiledInfo, error) {
	f.measured = append(f.measured, k.Name)
	// Made-up numbers; the shared bytes are the kernel's, as a driver
	// reports them.
	return report.CompiledInfo{Registers: 32, SharedBytes: k.SharedBytes, MaxThreadsPerBlock: 1024}, nil
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
	p = NewPipeline(f)
	if err := p.Compile(); err != nil {
		t.Fatal(err)
	}
	fake := &fakeGPU{}
	p.compiled.launcher = fake
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
