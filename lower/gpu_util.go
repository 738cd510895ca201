package lower

// Helpers shared by the GPU passes.

import (
	"sort"

	"github.com/gohalide/gohalide/ir"
)

// forEachKernel replaces each outermost GPU block loop of s (the root of a
// kernel) by f(loop).
func forEachKernel(s ir.Stmt, f func(*ir.For) (ir.Stmt, error)) (ir.Stmt, error) {
	var err error
	var mut func(ir.Stmt) ir.Stmt
	mut = func(x ir.Stmt) ir.Stmt {
		if err != nil {
			return x
		}
		if l, ok := x.(*ir.For); ok && l.Kind == ir.GPUBlock {
			var r ir.Stmt
			r, err = f(l)
			if err != nil {
				return x
			}
			return r
		}
		return ir.MapStmt(x, mut, nil)
	}
	out := mut(s)
	return out, err
}

// mapKernels replaces each kernel k of st by f(k), in st.Kernels and in
// the Launches of st.Stmt, and puts the statement f returns with it (nil:
// none) before each launch of the new kernel. A kernel f returns as it was
// (the same pointer, with no statement) leaves its launches, and a
// statement none of whose kernels changed stays the same node: a pass that
// changes nothing leaves st as it was ("unchanged" in the debug log).
func mapKernels(st *State, f func(*ir.Kernel) (*ir.Kernel, ir.Stmt, error)) error {
	type change struct {
		k   *ir.Kernel
		pre ir.Stmt
	}
	changed := map[*ir.Kernel]change{}
	var kernels []*ir.Kernel
	for i, k := range st.Kernels {
		st.checkStop()
		nk, pre, err := f(k)
		if err != nil {
			return err
		}
		if nk == k && pre == nil {
			continue
		}
		if kernels == nil {
			kernels = append([]*ir.Kernel(nil), st.Kernels...)
		}
		kernels[i] = nk
		changed[k] = change{nk, pre}
	}
	if len(changed) == 0 {
		return nil
	}
	st.Kernels = kernels
	var mut func(ir.Stmt) ir.Stmt
	mut = func(x ir.Stmt) ir.Stmt {
		if l, ok := x.(*ir.Launch); ok {
			c, ok := changed[l.Kernel]
			if !ok {
				return x
			}
			return ir.MakeBlock(c.pre, &ir.Launch{Kernel: c.k})
		}
		return ir.MapStmt(x, mut, nil)
	}
	st.Stmt = mut(st.Stmt)
	return nil
}

// shareLoops are the cooperative productions of kernels (ir.Kernel.Shares,
// recorded by gpu_cooperative), by share loop name.
type shareLoops map[string]ir.ShareLoop

// is reports whether the loop named name is a share loop.
func (s shareLoops) is(name string) bool {
	_, ok := s[name]
	return ok
}

// isIndex reports whether name is the let of a share loop's flat index.
func (s shareLoops) isIndex(name string) bool {
	for _, l := range s {
		if l.Index == name {
			return true
		}
	}
	return false
}

// shareLoops returns the share loops of every kernel, recorded by
// gpu_cooperative: those of the records before extraction
// (st.kernels) and of the extracted kernels.
func (st *State) shareLoops() shareLoops {
	out := shareLoops{}
	add := func(shares map[string]ir.ShareLoop) {
		for n, l := range shares {
			// The kernels of a specialization's cases may each have a
			// share loop of this name, with a flat index let in one and
			// none in another (a one-point region): keep the index, so
			// the union does not depend on the order of the records.
			if old, ok := out[n]; ok && l.Index == "" {
				l.Index = old.Index
			}
			out[n] = l
		}
	}
	for _, k := range st.kernels {
		add(k.Shares)
	}
	for _, k := range st.Kernels {
		add(k.Shares)
	}
	return out
}

// and returns a && b, where a nil a is true.
func and(a, b ir.Expr) ir.Expr {
	if a == nil {
		return b
	}
	return ir.AndE(a, b)
}

func containsBarrier(s ir.Stmt) bool {
	return ir.ContainsStmt(s, func(x ir.Stmt) bool {
		_, ok := x.(*ir.Barrier)
		return ok
	})
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// maxOptimizedKernelNodes bounds the kernels that the optimizing passes
// (gpu_partition, common_loads) rewrite: fifty times the size of the app
// kernels (a few thousand nodes). A random program's deep unrolling can
// make a kernel of a million nodes, on which they would cost seconds of
// Lower; it is left as it is, correct and slower.
const maxOptimizedKernelNodes = 200000

// optimizeKernels replaces each kernel k of st by f(k) (mapKernels),
// leaving a kernel of more than maxOptimizedKernelNodes nodes as it is
// (logged).
func optimizeKernels(st *State, pass string, f func(*ir.Kernel) *ir.Kernel) error {
	return mapKernels(st, func(k *ir.Kernel) (*ir.Kernel, ir.Stmt, error) {
		if ir.StmtExceeds(k.Body, maxOptimizedKernelNodes) {
			st.logf(3, "  %s: %s left as it is: more than %d nodes\n", pass, k.Name, maxOptimizedKernelNodes)
			return k, nil, nil
		}
		return f(k), nil, nil
	})
}
