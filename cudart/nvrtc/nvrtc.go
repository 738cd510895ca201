//go:build cuda

// Package nvrtc compiles the CUDA C the compiler emits to PTX at run time
// with NVRTC. It needs the NVRTC library but no GPU and no driver (it does
// not import gorgonia.org/cu, whose init needs a driver), so CI can compile
// every kernel of the apps on a machine without a GPU.
//
// Build with -tags cuda against a CUDA toolkit (Debian's nvidia-cuda-toolkit
// 11.8 works; scripts/install-cuda-toolkit.sh installs it).
package nvrtc

import (
	"fmt"
	"strings"

	"gorgonia.org/cu/nvrtc"
)

// CompileError is a failed compilation, with NVRTC's log.
type CompileError struct {
	Arch string
	Log  string
	Err  error
}

func (e *CompileError) Error() string {
	return fmt.Sprintf("nvrtc: compiling for %s: %v\n%s", e.Arch, e.Err, strings.TrimSpace(e.Log))
}

func (e *CompileError) Unwrap() error { return e.Err }

// Compile compiles src (one translation unit with extern "C" kernels) for
// the virtual architecture arch (e.g. "compute_90") and returns the PTX.
func Compile(src, name, arch string) (ptx string, err error) {
	prog, err := nvrtc.CreateProgram(src, name)
	if err != nil {
		return "", fmt.Errorf("nvrtc: creating the program: %w", err)
	}
	defer prog.Destroy()
	if err := prog.Compile("--gpu-architecture="+arch, "--std=c++14"); err != nil {
		log, _ := prog.GetLog()
		return "", &CompileError{Arch: arch, Log: log, Err: err}
	}
	return prog.GetPTX()
}

// Version returns NVRTC's version.
func Version() (major, minor int, err error) { return nvrtc.Version() }
