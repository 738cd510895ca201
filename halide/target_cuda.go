package halide

import (
	"errors"
	"sync"

	"github.com/gohalide/gohalide/cpu"
	"github.com/gohalide/gohalide/ir"
)

// CUDADevice is a GPU that the CUDA target runs kernels on, with buffers
// that stay on the device between launches. Package cudart provides one on
// the CUDA driver API and registers it when a program imports it (built
// with -tags cuda):
//
//	import _ "github.com/gohalide/gohalide/cudart"
//
// halide itself never imports the runtime, so a module that uses only the
// emulator does not depend on the driver's Go bindings.
type CUDADevice interface {
	// Load compiles src, the CUDA C of kernels exactly as Lowered.CUDA
	// prints it, before any of them is launched.
	Load(src string, kernels []*ir.Kernel) error
	// LaunchEnv runs kernel k over grid × block threads (see cpu.Options'
	// Launch hook); env is the realization's stop flag and allocation
	// limit (nil: the default).
	LaunchEnv(env *cpu.Env, k *ir.Kernel, grid, block [3]int, scalars, buffers map[string]any) error
	// MarkHostDirty says a host buffer changed since it was uploaded.
	MarkHostDirty(buf any)
	// MarkDeviceOnly says nothing the host holds in buf matters to a
	// kernel (an allocation of the host code that only kernels write):
	// its device copy is made without an upload.
	MarkDeviceOnly(buf any)
	// Release says the host code will not use buf again (its Allocate
	// ended): the device may reuse its copy's memory.
	Release(buf any)
	// Benchmark runs f once to warm up, then runs times, and returns the
	// GPU time of each run (CUDA events around its launches) and, where
	// it can measure it, the time per run of runs queued back to back
	// (Timing.BackToBackMs).
	Benchmark(runs int, f func() error) (Timing, error)
	// Attributes returns what the compiled kernel k uses, as the driver
	// reports it.
	Attributes(k *ir.Kernel) (CompiledInfo, error)
}

var cudaRuntime struct {
	mu   sync.Mutex
	open func() (CUDADevice, error)
}

// RegisterCUDA makes open the way the CUDA target gets its device; package
// cudart calls it in its init. A later call replaces an earlier one (a
// test can register a device of its own); nil unregisters.
func RegisterCUDA(open func() (CUDADevice, error)) {
	cudaRuntime.mu.Lock()
	defer cudaRuntime.mu.Unlock()
	cudaRuntime.open = open
}

// cudaDevice returns the registered CUDA device, or an error saying how to
// get one.
func cudaDevice() (launcher, error) {
	cudaRuntime.mu.Lock()
	open := cudaRuntime.open
	cudaRuntime.mu.Unlock()
	if open == nil {
		return nil, ir.Errorf(ir.ErrSchedule, "", "target cuda", "this program was built without CUDA support").
			WithLegal(`build with -tags cuda against a CUDA toolkit and import the runtime (import _ "github.com/gohalide/gohalide/cudart"; see docs/gpu.md), or use the emulator target`)
	}
	d, err := open()
	if err != nil {
		return nil, deviceError("target cuda", err)
	}
	if d == nil {
		return nil, ir.Errorf(ir.ErrInternal, "", "target cuda", "the registered CUDA runtime returned no device and no error")
	}
	return d, nil
}

// deviceError makes an error of the CUDA runtime (no device, an NVRTC
// compile error, ...) an ErrRuntime *Error that wraps it; a typed error
// stays as it is.
func deviceError(directive string, err error) error {
	var he *ir.Error
	if errors.As(err, &he) {
		return err
	}
	return &ir.Error{Code: ir.ErrRuntime, Directive: directive, Msg: err.Error(), Cause: err}
}
