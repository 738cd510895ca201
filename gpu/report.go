package gpu

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/gohalide/gohalide/ir"
)

// KernelReport says what a kernel uses: its launch dimensions, every shared
// and register allocation and its barriers.
type KernelReport struct {
	Name string `json:"name"`
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
}

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
		r := KernelReport{Name: k.Name, Barriers: k.Barriers, Shared: []Alloc{}, Registers: []Alloc{}, SingleThread: k.SingleThread}
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
		var statics []staticShared
		var ids []int
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
				if !a.Dynamic {
					statics = append(statics, staticShared{name: a.Func, t: a.T, elems: a.Elems})
					ids = append(ids, len(r.Shared))
					r.SharedBytesUnshared += ra.Bytes
				}
				r.Shared = append(r.Shared, ra)
			} else {
				r.Registers = append(r.Registers, ra)
			}
		}
		// The pool as lowering laid it out (or, for a kernel without a
		// layout, one array after another).
		if offsets, total, err := sharedLayout(k, statics); err == nil {
			for i, j := range ids {
				off := offsets[i]
				r.Shared[j].Offset = &off
			}
			r.SharedBytes = total
		} else {
			r.SharedBytes = r.SharedBytesUnshared
		}
		out = append(out, r)
	}
	return out
}

// WriteTable prints reports as a table a person can read.
func WriteTable(w io.Writer, reports []KernelReport) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "kernel\tgrid\tblock\tmemory\tfunc\ttype\telements\tbytes\toffset\tshared across\tbarriers\tshared total")
	for _, r := range reports {
		grid, block := dims(r.Grid, r.GridValues), dims(r.Block, r.BlockValues)
		rows := 0
		row := func(mem string, a Alloc) {
			name, g, b, bar, total := "", "", "", "", ""
			if rows == 0 {
				name, g, b, bar, total = r.Name, grid, block, fmt.Sprint(r.Barriers), sharedTotal(r)
			}
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
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", name, g, b, mem, a.Func, a.Type, elems, bytes, off, strings.Join(a.SharedAcross, ","), bar, total)
			rows++
		}
		for _, a := range r.Shared {
			row("shared", a)
		}
		for _, a := range r.Registers {
			row("register", a)
		}
		for _, a := range r.Global {
			if a.PerBlock {
				row("global/block", a)
			} else {
				row("global/thread", a)
			}
		}
		if rows == 0 {
			fmt.Fprintf(tw, "%s\t%s\t%s\t-\t\t\t\t\t\t\t%d\t%s\n", r.Name, grid, block, r.Barriers, sharedTotal(r))
		}
		if len(r.SingleThread) > 0 {
			fmt.Fprintf(tw, "\t\t\tone thread\t%s\t\t\t\t\t\t\t\n", strings.Join(r.SingleThread, ","))
		}
	}
	return tw.Flush()
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
