package lower_test

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/gohalide/gohalide/apps/algo"
	"github.com/gohalide/gohalide/halide"
	"github.com/gohalide/gohalide/ir"
	"github.com/gohalide/gohalide/lower"
)

// kernelText prints every fact of a kernel record, body included.
func kernelText(k *ir.Kernel) string {
	var b strings.Builder
	ex := func(e ir.Expr) string {
		if e == nil {
			return "nil"
		}
		return ir.ExprString(e)
	}
	fmt.Fprintf(&b, "kernel %s grid (%s, %s, %s) block (%s, %s, %s)\n", k.Name, ex(k.Grid[0]), ex(k.Grid[1]), ex(k.Grid[2]), ex(k.Block[0]), ex(k.Block[1]), ex(k.Block[2]))
	var loops []string
	for l, d := range k.ThreadDims {
		loops = append(loops, fmt.Sprintf("%s:%d", l, d))
	}
	sort.Strings(loops)
	var shares []string
	for l, s := range k.Shares {
		shares = append(shares, fmt.Sprintf("%s:%s/%s", l, s.Func, s.Index))
	}
	sort.Strings(shares)
	fmt.Fprintf(&b, "shares %v\n", shares)
	fmt.Fprintf(&b, "thread dims %v single %v barriers %d shared %d dynamic %s\n", loops, k.SingleThread, k.Barriers, k.SharedBytes, ex(k.DynamicSharedBytes))
	for _, a := range k.Args {
		fmt.Fprintf(&b, "arg %s %v buffer=%v written=%v scratch=%s/%v\n", a.Name, a.T, a.IsBuffer, a.Written, ex(a.Scratch), a.ScratchPerBlock)
	}
	for _, a := range k.Allocs {
		fmt.Fprintf(&b, "alloc %s %v %v elems %d dynamic %v size %s across %v per-thread %v per-block %v offset %d dyn-offset %s\n", a.Func, a.T, a.Memory, a.Elems, a.Dynamic, ex(a.Size), a.SharedAcross, a.PerThread, a.PerBlock, a.Offset, ex(a.DynOffset))
	}
	for _, h := range k.HostLets {
		fmt.Fprintf(&b, "host let %s = %s\n", h.Name, ex(h.Value))
	}
	for _, c := range k.Checks {
		b.WriteString(ir.StmtString(c))
	}
	b.WriteString(ir.StmtString(k.Body))
	return b.String()
}

// stateText is the statement and every kernel record, the extracted
// kernels' and those before extraction.
func stateText(s ir.Stmt, kernels []*ir.Kernel, records map[string]*ir.Kernel) string {
	var b strings.Builder
	if s != nil {
		b.WriteString(ir.StmtString(s))
	}
	for _, k := range kernels {
		b.WriteString(kernelText(k))
	}
	var names []string
	for n := range records {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		b.WriteString("record of " + n + ": " + kernelText(records[n]))
	}
	return b.String()
}

// kernelPasses are the passes whose work is kernel records
// (gpu_block_size makes them, the passes after gpu_kernels copy them): for
// them a report of "changed" must be a change, too.
var kernelPasses = map[string]bool{"gpu_block_size": true, "gpu_shared_reuse": true, "gpu_partition": true, "common_loads": true, "vector_access": true}

// namedCase is a pipeline to lower, by its output Func.
type namedCase struct {
	name string
	out  func() *halide.Func
}

// appCases are every GPU schedule of the apps (conv2d's included) and
// two CPU blurs.
func appCases() []namedCase {
	var cases []namedCase
	for _, c := range algo.GPUCases() {
		cases = append(cases, namedCase{c.Name, func() *halide.Func { return c.New().Out() }})
	}
	for _, s := range algo.Conv2DGPUSchedules {
		cases = append(cases, namedCase{"conv2d_" + s.Name, func() *halide.Func {
			c := algo.NewConv2D(1, 4, 8, 16, 3, 1)
			s.Apply(c)
			return c.Out()
		}})
	}
	return append(cases,
		namedCase{"blur", func() *halide.Func { return blur(false) }},
		namedCase{"blur_unrolled", func() *halide.Func { return blur(true) }})
}

// TestUnchanged checks Lower's "unchanged" (GOHALIDE_DEBUG=2) for every
// pass, on every GPU schedule of the apps and on CPU pipelines: a pass
// Lower finds unchanged left the statement and the kernel records exactly
// as they were (so a pass that changes something returns a new node); a
// kernel pass that Lower finds changed changed something; and no pass edits
// a kernel in place (a *ir.Kernel seen once prints the same at the end).
func TestUnchanged(t *testing.T) {
	cases := appCases()
	defer lower.SetAfterPass(nil)
	reported := map[string][2]int{} // pass: unchanged, changed
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			prev := ""
			seen := map[*ir.Kernel]string{}
			lower.SetAfterPass(func(pass string, s ir.Stmt, kernels []*ir.Kernel, records map[string]*ir.Kernel, unchanged bool) {
				text := stateText(s, kernels, records)
				r := reported[pass]
				if unchanged {
					r[0]++
					if text != prev {
						t.Errorf("pass %s: Lower says unchanged, but the statement or a kernel record changed", pass)
					}
				} else {
					r[1]++
					if kernelPasses[pass] && text == prev {
						t.Errorf("pass %s: Lower says changed, but the statement and the kernel records are as they were", pass)
					}
				}
				reported[pass] = r
				prev = text
				var launched []*ir.Kernel
				ir.WalkStmt(s, func(x ir.Stmt) bool {
					if l, ok := x.(*ir.Launch); ok {
						launched = append(launched, l.Kernel)
					}
					return true
				}, nil)
				all := append(launched, kernels...)
				for _, k := range records {
					all = append(all, k)
				}
				for _, k := range all {
					kt := kernelText(k)
					if old, ok := seen[k]; ok && old != kt {
						t.Errorf("pass %s edited kernel %s in place", pass, k.Name)
					}
					seen[k] = kt
				}
			})
			if _, err := halide.NewPipeline(c.out()).Lower(); err != nil {
				t.Fatal(err)
			}
		})
	}
	for _, p := range lower.Passes {
		r := reported[p.Name]
		t.Logf("%-24s unchanged %3d  changed %3d", p.Name, r[0], r[1])
	}
}
