package halide

import (
	"errors"
	"strings"
	"testing"

	"github.com/gohalide/gohalide/cfamily"
	"github.com/gohalide/gohalide/ir"
)

// mulAddPipeline is a GPU pipeline whose kernel multiplies and adds floats,
// where the source the CUDA target compiles (FMA contraction) and the
// bit-exact one (__fmul_rn) differ.
func mulAddPipeline() (*Pipeline, *Buffer[float32]) {
	x, bx, tx := NewVar("x"), NewVar("bx"), NewVar("tx")
	in := NewImageParam("in", Float32, 1)
	f := NewFunc("f")
	f.Define(x).Is(in.At(x).Mul(in.At(x)).Add(1))
	f.Split(x, bx, tx, 8).GPUBlocks(bx).GPUThreads(tx)
	in.Set(NewBuffer[float32](16))
	return NewPipeline(f), NewBuffer[float32](16)
}

// TestCUDAPrintsTheCompiledSource: the source Lowered.CUDA prints is the
// one the CUDA target hands its device to compile (a fake device captures
// it, as a real one passes it to NVRTC), and it is the FMA-contracted form,
// not the bit-exact one.
func TestCUDAPrintsTheCompiledSource(t *testing.T) {
	fake := &fakeGPU{}
	withFakeGPU(t, fake)
	p, out := mulAddPipeline()
	p.WithTarget(CUDA)
	if err := p.Realize(out); err != nil {
		t.Fatal(err)
	}
	l, err := p.Lower()
	if err != nil {
		t.Fatal(err)
	}
	printed, err := l.CUDA()
	if err != nil {
		t.Fatal(err)
	}
	if len(fake.loaded) != 1 {
		t.Fatalf("the device loaded %d sources, want 1 (one per compile)", len(fake.loaded))
	}
	if fake.loaded[0] != printed {
		t.Errorf("Lowered.CUDA prints a different source from the one the CUDA target compiles:\nprinted:\n%s\ncompiled:\n%s", printed, fake.loaded[0])
	}
	exact, err := cfamily.CUDASource(l.Kernels()...)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(exact, "__fmul_rn") || strings.Contains(printed, "__fmul_rn") {
		t.Errorf("want __fmul_rn in the bit-exact source only; printed:\n%s", printed)
	}
}

// TestCUDAWithoutRuntime: with no runtime registered, the CUDA target is a
// schedule error that says how to get one.
func TestCUDAWithoutRuntime(t *testing.T) {
	RegisterCUDA(nil)
	p, out := mulAddPipeline()
	err := p.WithTarget(CUDA).Realize(out)
	var he *ir.Error
	if !errors.As(err, &he) || he.Code != ir.ErrSchedule || !strings.Contains(he.Error(), "cudart") {
		t.Fatalf("Realize on CUDA with no runtime: %v, want an ErrSchedule error naming cudart", err)
	}
}

// TestCheckWithNVCCErrors: CheckWithNVCC's errors are typed, and without
// nvcc errors.Is finds ErrNoNVCC.
func TestCheckWithNVCCErrors(t *testing.T) {
	_, err := CheckWithNVCC("this is not CUDA")
	var he *ir.Error
	if !errors.As(err, &he) || he.Code != ir.ErrRuntime {
		t.Fatalf("CheckWithNVCC of a bad source: %v, want an ErrRuntime error", err)
	}
	if _, ok := NVCCPath(); !ok && !errors.Is(err, ErrNoNVCC) {
		t.Errorf("without nvcc: %v, want it to wrap ErrNoNVCC", err)
	}
}

// TestCUDALoadError: a device's compile error (NVRTC's, say) comes back
// from Realize as a typed ErrRuntime error that wraps it.
func TestCUDALoadError(t *testing.T) {
	nvrtcErr := errors.New("nvrtc: error: identifier undefined")
	withFakeGPU(t, &fakeGPU{loadErr: nvrtcErr})
	p, out := mulAddPipeline()
	err := p.WithTarget(CUDA).Realize(out)
	var he *ir.Error
	if !errors.As(err, &he) || he.Code != ir.ErrRuntime || !errors.Is(err, nvrtcErr) {
		t.Fatalf("Realize with a failing Load: %v, want an ErrRuntime error wrapping the device's", err)
	}
}
