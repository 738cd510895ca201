package halide

import (
	"io"

	"github.com/gohalide/gohalide/cfamily"
	"github.com/gohalide/gohalide/emulator"
	"github.com/gohalide/gohalide/ir"
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

// ErrNoNVCC is the cause of CheckWithNVCC's error when no nvcc is
// installed: errors.Is(err, ErrNoNVCC) tells.
var ErrNoNVCC = cfamily.ErrNoNVCC

// WriteTable prints kernel reports (Pipeline.Report) as a table a person
// reads; see report.WriteTable. A nil w is an ErrBadArgument error, and a
// failed write an ErrRuntime error that wraps the writer's.
func WriteTable(w io.Writer, reports []KernelReport) error {
	return writeReports("WriteTable", w, reports, report.WriteTable)
}

// WriteJSON writes kernel reports as indented JSON, with the errors of
// WriteTable.
func WriteJSON(w io.Writer, reports []KernelReport) error {
	return writeReports("WriteJSON", w, reports, report.WriteJSON)
}

func writeReports(name string, w io.Writer, reports []KernelReport, write func(io.Writer, []KernelReport) error) (err error) {
	defer recoverInternal(name, &err)
	if w == nil {
		return ir.Errorf(ir.ErrBadArgument, "", name, "%s to a nil writer", name).WithLegal("an io.Writer such as os.Stdout")
	}
	if err := write(w, reports); err != nil {
		return &ir.Error{Code: ir.ErrRuntime, Directive: name, Msg: err.Error(), Cause: err}
	}
	return nil
}

// NVCCPath returns the nvcc that CheckWithNVCC runs, and whether there is
// one.
func NVCCPath() (string, bool) { return cfamily.NVCCPath() }

// CheckWithNVCC compiles CUDA C (as Lowered.CUDA returns it) with nvcc for
// sm_90 and returns what ptxas reports for each kernel, by its C name. It
// needs a CUDA toolkit and no GPU. Its errors are ErrRuntime errors that
// wrap the cause: ErrNoNVCC without nvcc, else nvcc's output.
func CheckWithNVCC(src string) (info map[string]PtxasInfo, err error) {
	defer recoverInternal("CheckWithNVCC", &err)
	info, err = cfamily.CheckWithNVCC(src)
	if err != nil {
		return nil, nvccError(err)
	}
	return info, nil
}

func nvccError(err error) error {
	return &ir.Error{Code: ir.ErrRuntime, Directive: "CheckWithNVCC", Msg: err.Error(), Cause: err}
}

// CheckWithNVCC compiles the kernels' CUDA C (CUDA) with nvcc and returns
// what ptxas reports for each kernel, by its name in Kernels (the IR name,
// not the C one). It needs a CUDA toolkit and no GPU; its errors are those
// of the package function CheckWithNVCC.
func (l *Lowered) CheckWithNVCC() (info map[string]PtxasInfo, err error) {
	defer recoverInternal("CheckWithNVCC", &err)
	if l != nil && l.multi != nil {
		// Each output's kernels are their own translation unit.
		info = map[string]PtxasInfo{}
		for _, pl := range l.parts {
			pi, err := pl.CheckWithNVCC()
			if err != nil {
				return nil, err
			}
			for k, v := range pi {
				info[k] = v
			}
		}
		return info, nil
	}
	src, err := l.CUDA()
	if err != nil {
		return nil, err
	}
	byC, err := cfamily.CheckWithNVCC(src)
	if err != nil {
		return nil, nvccError(err)
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
