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
	// SharedBytes is the static shared memory of the kernel.
	SharedBytes int64 `json:"shared_bytes"`
	Barriers    int   `json:"barriers"`
}

// Alloc is one allocation of a kernel.
type Alloc struct {
	Func     string `json:"func"`
	Type     string `json:"type"`
	Elements int64  `json:"elements"`
	Bytes    int64  `json:"bytes"`
	// Dynamic is the size expression of a dynamic shared allocation.
	Dynamic string `json:"dynamic,omitempty"`
	// SharedAcross lists the thread dimensions along which one copy serves
	// all threads (shared allocations only).
	SharedAcross []string `json:"shared_across,omitempty"`
}

// Report describes kernels. launches, if not nil, gives the grid and block
// of each kernel's last launch, by kernel name.
func Report(kernels []*ir.Kernel, launches map[string][2][3]int) []KernelReport {
	out := make([]KernelReport, 0, len(kernels))
	for _, k := range kernels {
		r := KernelReport{Name: k.Name, Barriers: k.Barriers, Shared: []Alloc{}, Registers: []Alloc{}}
		for d := 0; d < 3; d++ {
			r.Grid[d] = ir.ExprString(k.Grid[d])
			r.Block[d] = ir.ExprString(k.Block[d])
		}
		if l, ok := launches[k.Name]; ok {
			for d := 0; d < 3; d++ {
				r.GridValues = append(r.GridValues, int64(l[0][d]))
				r.BlockValues = append(r.BlockValues, int64(l[1][d]))
			}
		}
		for _, a := range k.Allocs {
			ra := Alloc{Func: a.Func, Type: a.T.String(), Elements: a.Elems, Bytes: a.Bytes(), SharedAcross: a.SharedAcross}
			if a.Dynamic {
				ra.Dynamic = ir.ExprString(a.Size)
			}
			if a.Memory == ir.GPUShared {
				r.Shared = append(r.Shared, ra)
				r.SharedBytes += ra.Bytes
			} else {
				r.Registers = append(r.Registers, ra)
			}
		}
		out = append(out, r)
	}
	return out
}

// WriteTable prints reports as a table a person can read.
func WriteTable(w io.Writer, reports []KernelReport) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "kernel\tgrid\tblock\tmemory\tfunc\ttype\telements\tbytes\tshared across\tbarriers")
	for _, r := range reports {
		grid, block := dims(r.Grid, r.GridValues), dims(r.Block, r.BlockValues)
		rows := 0
		row := func(mem string, a Alloc) {
			name, g, b, bar := "", "", "", ""
			if rows == 0 {
				name, g, b, bar = r.Name, grid, block, fmt.Sprint(r.Barriers)
			}
			elems := fmt.Sprint(a.Elements)
			bytes := fmt.Sprint(a.Bytes)
			if a.Dynamic != "" {
				elems, bytes = a.Dynamic, "dynamic"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", name, g, b, mem, a.Func, a.Type, elems, bytes, strings.Join(a.SharedAcross, ","), bar)
			rows++
		}
		for _, a := range r.Shared {
			row("shared", a)
		}
		for _, a := range r.Registers {
			row("register", a)
		}
		if rows == 0 {
			fmt.Fprintf(tw, "%s\t%s\t%s\t-\t\t\t\t\t\t%d\n", r.Name, grid, block, r.Barriers)
		}
	}
	return tw.Flush()
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
