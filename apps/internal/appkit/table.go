package appkit

import (
	"fmt"
	"github.com/gohalide/gohalide/halide"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/gohalide/gohalide/apps/algo"
)

// WriteTable prints results as a table, one row per schedule; the timing
// columns appear when some result was timed. writeLegend explains them.
func WriteTable(w io.Writer, rs []Result) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	timed := anyTimed(rs)
	head := "schedule\tsize\tchecked at\tkernels\tshared bytes\tregisters\tstack/spill B\tbarriers\tcheck\twall ms"
	if timed {
		head += "\tmedian us\tGB/s\tTFLOP/s\tof floor\tT4 ms (source)"
	}
	fmt.Fprintln(tw, head)
	for _, r := range rs {
		var shared int64
		bars := 0
		for _, k := range r.Kernels {
			shared += k.SharedBytes
			bars += k.Barriers
		}
		regs := perKernel(r, len(r.Registers) > 0, "/", func(k halide.KernelReport) (string, bool) {
			n, ok := r.Registers[k.Name]
			return fmt.Sprint(n), ok
		})
		stack := perKernel(r, len(r.Ptxas) > 0, " ", func(k halide.KernelReport) (string, bool) {
			pi, ok := r.Ptxas[k.Name]
			return fmt.Sprintf("%d/%d", pi.StackFrame, pi.SpillStores+pi.SpillLoads), ok
		})
		if len(r.Ptxas) == 0 && measuredOnGPU(r) {
			// On the GPU: the driver's local memory per thread, the
			// stack frame with the spills in it; it does not count
			// the spills apart.
			stack = perKernel(r, true, " ", func(k halide.KernelReport) (string, bool) {
				if k.Compiled == nil {
					return "", false
				}
				return fmt.Sprintf("%d/-", k.Compiled.LocalBytes), true
			})
		}
		row := fmt.Sprintf("%s\t%s\t%s\t%d\t%d\t%s\t%s\t%d\t%s\t%.0f", r.Schedule, r.Size, r.CheckSize, len(r.Kernels), shared, regs, stack, bars, r.Check, r.WallMs)
		if timed {
			if r.Timing != nil {
				t4 := "-"
				if r.T4Ms > 0 {
					t4 = fmt.Sprintf("%.3g", r.T4Ms)
				}
				row += fmt.Sprintf("\t%.1f\t%.0f\t%.2f\t%.0f%%\t%s", r.Timing.MedianMs*1e3, r.GBps, r.TFlops, 100*r.FloorFrac, t4)
			} else {
				row += "\t-\t-\t-\t-\t-"
			}
		}
		fmt.Fprintln(tw, row)
	}
	tw.Flush()
}

// perKernel joins cell(kernel) over r's kernels with sep ("?" for a
// kernel without a value), or is "-" when measured is false.
func perKernel(r Result, measured bool, sep string, cell func(k halide.KernelReport) (string, bool)) string {
	if !measured {
		return "-"
	}
	var parts []string
	for _, k := range r.Kernels {
		v, ok := cell(k)
		if !ok {
			v = "?"
		}
		parts = append(parts, v)
	}
	return strings.Join(parts, sep)
}

func anyTimed(rs []Result) bool {
	for _, r := range rs {
		if r.Timing != nil {
			return true
		}
	}
	return false
}

// writeKernels prints each schedule's kernels (-kernels): what the schedule
// does, and the kernel report of halide.WriteTable.
func writeKernels(w io.Writer, rs []Result) {
	for _, r := range rs {
		fmt.Fprintf(w, "\nschedule %s", r.Schedule)
		if r.What != "" {
			fmt.Fprintf(w, ": %s", r.What)
		}
		fmt.Fprintln(w)
		if len(r.Kernels) == 0 {
			fmt.Fprintln(w, "no kernels (runs on the host)")
		} else {
			halide.WriteTable(w, r.Kernels)
		}
		fmt.Fprintf(w, "check: %s (max relative error %.2g at %s)\n", r.Check, r.MaxRelError, r.CheckSize)
	}
}

// writeLegend explains every column of the table (and of the kernel tables
// with -kernels), with the JSON field each comes from.
func writeLegend(w io.Writer, rs []Result, o options) {
	fmt.Fprintln(w, "columns (JSON field in brackets):")
	line := func(col, text string) { writeWrapped(w, fmt.Sprintf("  %-15s ", col), text) }
	line("schedule", "the schedule's name: the source's, or ours [schedule]")
	line("size", "the problem size the schedule is built for, the one -target=cuda times [size]")
	line("checked at", "the size the check ran at, on every target: smaller than size where the emulator (every GPU thread run on the CPU) or the plain-Go reference would take too long [check_size]")
	line("kernels", "GPU kernels launched per run [kernels]")
	line("shared bytes", "static shared memory per block, summed over the kernels [kernels[].shared_bytes]")
	line("registers", registersLegend(rs, o)+" [registers, registers_from]")
	if stackFromDriver(rs) {
		line("stack/spill B", "per kernel (spaces between kernels), the local memory per thread the CUDA driver reports for the compiled kernel: its stack frame, spills included (the driver does not count them apart: -); a register array that stays in registers and no spills give 0/- [kernels[].compiled.local_bytes]")
	} else {
		line("stack/spill B", "per kernel (spaces between kernels), ptxas's stack frame bytes / spill bytes (stores + loads); a register array that stays in registers and no spills give 0/0; - when not measured (no nvcc here, -no-ptxas, or the check failed) [ptxas]")
	}
	line("barriers", "thread barriers (__syncthreads) in the kernels' code, summed [kernels[].barriers]")
	line("check", fmt.Sprintf("ok: every output element within |got - want| <= %g * max(1, |want|) of a float64 plain-Go reference (integer outputs: identical, unless the app's doc states a tolerance for the target), at the check size; otherwise what went wrong [check, max_rel_error]", algo.Tol))
	line("wall ms", "wall-clock time of compiling and running the check (on the target, at the check size): compares schedules on the emulator; not a kernel time [wall_ms]")
	if anyTimed(rs) {
		line("median us", fmt.Sprintf("median of %d runs after a warm-up, each between CUDA events, buffers on the device, at size [timing]", o.bench))
		line("GB/s", "minimal DRAM traffic of one run (every input read once, the output written once) / median time [gbps]")
		line("TFLOP/s", "arithmetic of one run / median time [tflops]")
		line("of floor", fmt.Sprintf("floor / median time, floor = max(traffic / %.1f TB/s, flops / %.1f TFLOP/s), an H100's peaks (FP32, no tensor cores) [floor_fraction]", PeakBytesPerSec/1e12, PeakFlops/1e12))
		line("T4 ms (source)", "the time the source reports on an NVIDIA T4, where it gives one: another GPU, for scale only [t4_ms]")
	}
	if o.kernels {
		writeWrapped(w, "", "kernel tables: grid and block as expressions (=value at the last run); one row per allocation: "+
			"memory (shared, register, global scratch), the Func, element type, elements, bytes, offset in the shared pool, "+
			"the thread dimensions that share a shared copy (shared across), the kernel's barriers and its shared pool "+
			"(shared total); on -target=cuda, what the compiled kernel uses as the CUDA driver reports it: registers "+
			"per thread, local memory per thread (stack frame, spills included), static shared memory, the largest block "+
			"it can launch (compiled (GPU)) [kernels]")
	}
}

// measuredOnGPU says whether the driver measured some of r's compiled
// kernels (-target=cuda): the stack/spill column then shows its local
// memory, as ptxas did not run.
func measuredOnGPU(r Result) bool {
	for _, k := range r.Kernels {
		if k.Compiled != nil {
			return true
		}
	}
	return false
}

// stackFromDriver says whether some row's stack/spill column shows the
// driver's local memory rather than ptxas's numbers.
func stackFromDriver(rs []Result) bool {
	for _, r := range rs {
		if len(r.Ptxas) == 0 && measuredOnGPU(r) {
			return true
		}
	}
	return false
}

// legendWidth is the width legend lines are wrapped at.
const legendWidth = 100

// writeWrapped prints text after head, wrapped at legendWidth, the
// continuation lines indented as far as head.
func writeWrapped(w io.Writer, head, text string) {
	indent := strings.Repeat(" ", len(head))
	line := head
	for i, word := range strings.Fields(text) {
		if i > 0 && len(line)+1+len(word) > legendWidth {
			fmt.Fprintln(w, line)
			line = indent + word
			continue
		}
		if i > 0 {
			line += " "
		}
		line += word
	}
	fmt.Fprintln(w, line)
}

// registersLegend says where the registers column comes from in this run.
func registersLegend(rs []Result, o options) string {
	from := ""
	for _, r := range rs {
		if r.RegistersFrom != "" {
			from = r.RegistersFrom
		}
	}
	switch {
	case from == "driver":
		return "registers per thread of each kernel (\"/\" between kernels), as the CUDA driver reports for the compiled kernel"
	case from == "ptxas":
		return "registers per thread of each kernel (\"/\" between kernels), as ptxas reports them (nvcc -arch=sm_90) for the kernels that ran the check; - when not counted"
	case o.noPtxas && o.target != "cuda":
		return "registers per thread of each kernel: not counted (-no-ptxas)"
	}
	if _, ok := halide.NVCCPath(); !ok && o.target != "cuda" {
		return "registers per thread of each kernel: not counted, nvcc not found (scripts/install-cuda-toolkit.sh installs it)"
	}
	return "registers per thread of each kernel: not counted (no kernels, or the check failed)"
}
