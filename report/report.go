package report

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/gohalide/gohalide/ir"
)

// KernelReport says what a kernel uses: its launch dimensions, every shared
// and register allocation and its barriers, as lowering decided them, and,
// on a GPU, what the compiled kernel uses (Compiled).
type KernelReport struct {
	Name string `json:"name"`
	// Case is the condition under which the kernel is launched, where it
	// belongs to one case of a specialization ("" for every run).
	Case string `json:"case,omitempty"`
	// Grid and Block are the launch dimensions as expressions; GridValues
	// and BlockValues are their values in the last run (nil before one).
	Grid        [3]string `json:"grid"`
	Block       [3]string `json:"block"`
	GridValues  []int64   `json:"grid_values,omitempty"`
	BlockValues []int64   `json:"block_values,omitempty"`
	Shared      []Alloc   `json:"shared"`
	Registers   []Alloc   `json:"registers"`
	// Global lists the kernel's global scratch (store_in(Heap) inside the
	// kernel): one copy per block or per thread (Alloc.PerBlock), allocated
	// around each launch.
	Global []Alloc `json:"global,omitempty"`
	// SingleThread lists the stages of shared productions that run on the
	// block's first thread only (nothing to deal out to the threads).
	SingleThread []string `json:"single_thread,omitempty"`
	// SharedBytes is the static shared memory of the kernel: the size of
	// its pool, in which allocations whose lifetimes do not overlap share
	// bytes (ir.Kernel.SharedBytes). SharedBytesUnshared is the sum of the
	// static allocations' sizes, what the kernel would take without reuse.
	SharedBytes         int64 `json:"shared_bytes"`
	SharedBytesUnshared int64 `json:"shared_bytes_unshared"`
	Barriers            int   `json:"barriers"`
	// Compiled is what the kernel compiled for the GPU uses, as the CUDA
	// driver reports it for the loaded module; nil on the emulator and
	// the CPU (nothing is compiled to measure), and for a kernel not
	// compiled yet (not launched since the pipeline last compiled).
	Compiled *CompiledInfo `json:"compiled,omitempty"`
}

// CompiledInfo is what a compiled kernel uses, from cuFuncGetAttribute on
// the function of the loaded module. Only a GPU measures it: ptxas decides
// the registers and the stack frame, which the IR does not know.
type CompiledInfo struct {
	// Registers per thread (NUM_REGS).
	Registers int `json:"registers"`
	// LocalBytes is the local memory per thread (LOCAL_SIZE_BYTES): the
	// stack frame, spills included. 0 when every register array stays in
	// registers and nothing spills.
	LocalBytes int64 `json:"local_bytes"`
	// SharedBytes is the static shared memory per block
	// (SHARED_SIZE_BYTES), dynamic shared memory not included; it should
	// equal KernelReport.SharedBytes.
	SharedBytes int64 `json:"shared_bytes"`
	// MaxThreadsPerBlock is the largest block the compiled kernel can be
	// launched with on this device (MAX_THREADS_PER_BLOCK): the block
	// size, as the emitted kernel declares it in __launch_bounds__, or
	// less if the kernel's registers did not leave room for that many.
	MaxThreadsPerBlock int `json:"max_threads_per_block"`
}

func (c CompiledInfo) String() string {
	return fmt.Sprintf("%d registers, %d B local, %d B shared, max %d threads", c.Registers, c.LocalBytes, c.SharedBytes, c.MaxThreadsPerBlock)
}

// Alloc is one allocation of a kernel.
type Alloc struct {
	Func     string `json:"func"`
	Type     string `json:"type"`
	Elements int64  `json:"elements"`
	Bytes    int64  `json:"bytes"`
	// Dynamic is the size expression (elements) of an allocation whose
	// size is known only at launch; Elements and Bytes are then its value
	// at the last launch (0 before one).
	Dynamic string `json:"dynamic,omitempty"`
	// PerBlock marks global scratch of one copy per block (else one per
	// thread).
	PerBlock bool `json:"per_block,omitempty"`
	// SharedAcross lists the thread dimensions along which one copy serves
	// all threads (shared allocations only).
	SharedAcross []string `json:"shared_across,omitempty"`
	// Offset is the byte offset of a static shared allocation in the
	// kernel's pool; nil for other allocations.
	Offset *int64 `json:"offset,omitempty"`
	// BankConflicts is, for a shared allocation, the worst bank conflict
	// of its accesses by the block's first warp (ir.BankConflicts): 1 for
	// none, n for an n-way conflict; 0 when no access could be analyzed.
	// The table flags more than MaxBankConflicts.
	BankConflicts int `json:"bank_conflicts,omitempty"`
}

// MaxBankConflicts is the conflict degree above which the table flags a
// shared allocation: beyond 4-way, the replays usually cost more than
// padding the allocation (AlignStorage, BoundStorage) or reordering its
// dimensions would.
const MaxBankConflicts = 4

// Launch is what a report needs of a kernel's last launch: its grid and
// block, and its scalar arguments (for sizes known only at launch).
type Launch struct {
	Grid, Block [3]int
	Scalars     map[string]ir.Expr
}

// Report describes kernels. launches, if not nil, gives each kernel's last
// launch, by kernel name.
func Report(kernels []*ir.Kernel, launches map[string]Launch) []KernelReport {
	out := make([]KernelReport, 0, len(kernels))
	for _, k := range kernels {
		k = k.Recorded()
		r := KernelReport{Name: k.Name, Barriers: k.Barriers, Shared: []Alloc{}, Registers: []Alloc{}, SingleThread: k.SingleThread}
		if k.Case != nil {
			r.Case = ir.ExprString(k.Case)
		}
		for d := 0; d < 3; d++ {
			r.Grid[d] = ir.ExprString(k.Grid[d])
			r.Block[d] = ir.ExprString(k.Block[d])
		}
		l, launched := launches[k.Name]
		if launched {
			for d := 0; d < 3; d++ {
				r.GridValues = append(r.GridValues, int64(l.Grid[d]))
				r.BlockValues = append(r.BlockValues, int64(l.Block[d]))
			}
		}
		conflicts := ir.BankConflicts(k)
		for _, a := range k.Allocs {
			ra := Alloc{Func: a.Func, Type: a.T.String(), Elements: a.Elems, Bytes: a.Bytes(), SharedAcross: a.SharedAcross, PerBlock: a.PerBlock}
			if a.Dynamic {
				ra.Dynamic = ir.ExprString(a.Size)
				if n, ok := ir.AsInt(ir.Simplify(ir.Substitute(a.Size, l.Scalars))); ok && launched {
					ra.Elements, ra.Bytes = n, n*int64(a.T.Bytes())
				}
			}
			if a.Memory == ir.Heap {
				r.Global = append(r.Global, ra)
				continue
			}
			if a.Memory == ir.GPUShared {
				ra.BankConflicts = conflicts[a.Func]
				if !a.Dynamic {
					off := a.Offset
					ra.Offset = &off
					r.SharedBytesUnshared += ra.Bytes
				}
				r.Shared = append(r.Shared, ra)
			} else {
				r.Registers = append(r.Registers, ra)
			}
		}
		// The pool as lowering laid it out.
		r.SharedBytes = k.SharedBytes
		out = append(out, r)
	}
	return out
}

// WriteTable prints reports as a table a person can read: one row per
// allocation, then a row for the stages run by one thread. When some kernel
// was measured on a GPU, a last column "compiled (GPU)" gives what each
// compiled kernel uses (CompiledInfo) on its first row; tables of the
// emulator, where nothing is measured, have no such column.
func WriteTable(w io.Writer, reports []KernelReport) error {
	measured := false
	for _, r := range reports {
		measured = measured || r.Compiled != nil
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	line := func(cells ...string) {
		fmt.Fprintln(tw, strings.Join(cells, "\t"))
	}
	head := []string{"kernel", "grid", "block", "memory", "func", "type", "elements", "bytes", "offset", "shared across", "bank conflicts", "barriers", "shared total"}
	if measured {
		head = append(head, "compiled (GPU)")
	}
	line(head...)
	for _, r := range reports {
		grid, block := dims(r.Grid, r.GridValues), dims(r.Block, r.BlockValues)
		compiled := "-" // not compiled (not launched)
		if r.Compiled != nil {
			compiled = r.Compiled.String()
		}
		rows := 0
		// row prints one line of the kernel: the kernel's own cells
		// (name, launch, barriers, shared total, compiled) on its first.
		row := func(mem, fn, typ, elems, bytes, off, across, conflicts string) {
			name, g, b, bar, total, comp := "", "", "", "", "", ""
			if rows == 0 {
				name, g, b, bar, total, comp = r.Name, grid, block, fmt.Sprint(r.Barriers), sharedTotal(r), compiled
				if r.Case != "" {
					name += " if " + r.Case
				}
			}
			cells := []string{name, g, b, mem, fn, typ, elems, bytes, off, across, conflicts, bar, total}
			if measured {
				cells = append(cells, comp)
			}
			line(cells...)
			rows++
		}
		alloc := func(mem string, a Alloc) {
			elems := fmt.Sprint(a.Elements)
			bytes := fmt.Sprint(a.Bytes)
			if a.Dynamic != "" {
				// Known at launch: the expression, and its value at the
				// last launch.
				elems, bytes = a.Dynamic, "at launch"
				if len(r.GridValues) == 3 {
					elems, bytes = fmt.Sprintf("%s=%d", a.Dynamic, a.Elements), fmt.Sprint(a.Bytes)
				}
			}
			off := ""
			if a.Offset != nil {
				off = fmt.Sprint(*a.Offset)
			}
			row(mem, a.Func, a.Type, elems, bytes, off, strings.Join(a.SharedAcross, ","), conflictCell(a.BankConflicts))
		}
		for _, a := range r.Shared {
			alloc("shared", a)
		}
		for _, a := range r.Registers {
			alloc("register", a)
		}
		for _, a := range r.Global {
			if a.PerBlock {
				alloc("global/block", a)
			} else {
				alloc("global/thread", a)
			}
		}
		if rows == 0 {
			row("-", "", "", "", "", "", "", "")
		}
		if len(r.SingleThread) > 0 {
			row("one thread", strings.Join(r.SingleThread, ","), "", "", "", "", "", "")
		}
	}
	return tw.Flush()
}

// conflictCell prints a bank-conflict degree: "none", "n-way", flagged
// with "!" above MaxBankConflicts; "" when unknown or not shared.
func conflictCell(ways int) string {
	switch {
	case ways == 0:
		return ""
	case ways == 1:
		return "none"
	case ways > MaxBankConflicts:
		return fmt.Sprintf("%d-way !", ways)
	}
	return fmt.Sprintf("%d-way", ways)
}

// sharedTotal prints a kernel's static shared bytes, with what they would
// be without reuse when that is more.
func sharedTotal(r KernelReport) string {
	if r.SharedBytesUnshared > r.SharedBytes {
		return fmt.Sprintf("%d (%d unshared)", r.SharedBytes, r.SharedBytesUnshared)
	}
	return fmt.Sprint(r.SharedBytes)
}

// dims prints launch dimensions, with their values when known.
func dims(exprs [3]string, values []int64) string {
	n := 3
	for n > 1 && exprs[n-1] == "1" {
		n--
	}
	parts := make([]string, n)
	for d := 0; d < n; d++ {
		parts[d] = exprs[d]
		if len(values) == 3 && exprs[d] != fmt.Sprint(values[d]) {
			parts[d] = fmt.Sprintf("%s=%d", exprs[d], values[d])
		}
	}
	return strings.Join(parts, " x ")
}

// WriteJSON prints reports as indented JSON.
func WriteJSON(w io.Writer, reports []KernelReport) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(reports)
}
