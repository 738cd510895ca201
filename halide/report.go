package halide

import (
	"io"

	"github.com/gohalide/gohalide/cfamily"
	"github.com/gohalide/gohalide/emulator"
	"github.com/gohalide/gohalide/report"
)

// The kernel report, timing and CUDA-check types a program needs, so that
// it imports halide only. They are the types of packages report, cfamily
// and emulator under other names (aliases): a value of one is a value of
// the other.
type (
	// KernelReport describes one kernel (Pipeline.Report).
	KernelReport = report.KernelReport
	// AllocReport is one allocation in a KernelReport.
	AllocReport = report.Alloc
	// CompiledInfo is what a kernel compiled for the GPU uses, as the
	// driver reports it (KernelReport.Compiled, on the CUDA target).
	CompiledInfo = report.CompiledInfo
	// Timing is the result of Pipeline.Benchmark.
	Timing = report.Timing
	// PtxasInfo is what ptxas reports for one kernel (CheckWithNVCC).
	PtxasInfo = cfamily.PtxasInfo
	// EmulatorError is the error of a failed check of the GPU emulator;
	// an *Error from Realize carries it as its Cause (errors.As finds it).
	EmulatorError = emulator.EmulatorError
)

// ErrNoNVCC is the error of CheckWithNVCC when no nvcc is installed.
var ErrNoNVCC = cfamily.ErrNoNVCC

// WriteTable prints kernel reports as a table a person reads.
func WriteTable(w io.Writer, reports []KernelReport) error { return report.WriteTable(w, reports) }

// WriteJSON writes kernel reports as JSON.
func WriteJSON(w io.Writer, reports []KernelReport) error { return report.WriteJSON(w, reports) }

// NVCCPath returns the path of nvcc, and whether it is installed.
func NVCCPath() (string, bool) { return cfamily.NVCCPath() }

// CheckWithNVCC compiles CUDA C (as Lowered.CUDA returns it) with nvcc
// and returns what ptxas reports for each kernel, by its C name; it needs
// a CUDA toolkit and no GPU (ErrNoNVCC without nvcc).
func CheckWithNVCC(src string) (map[string]PtxasInfo, error) { return cfamily.CheckWithNVCC(src) }

// CheckWithNVCC compiles the kernels' CUDA C (CUDA) with nvcc and returns
// what ptxas reports for each kernel, by its name in Kernels (the IR name,
// not the C one). It needs a CUDA toolkit and no GPU: ErrNoNVCC without
// nvcc.
func (l *Lowered) CheckWithNVCC() (info map[string]PtxasInfo, err error) {
	defer recoverInternal("CheckWithNVCC", &err)
	src, err := l.CUDA()
	if err != nil {
		return nil, err
	}
	byC, err := cfamily.CheckWithNVCC(src)
	if err != nil {
		return nil, err
	}
	info = map[string]PtxasInfo{}
	for _, k := range l.Kernels() {
		ci, err := cfamily.CUDAInfo(k)
		if err != nil {
			return nil, err
		}
		if pi, ok := byC[ci.Name]; ok {
			info[k.Name] = pi
		}
	}
	return info, nil
}
