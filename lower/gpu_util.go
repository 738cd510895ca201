package lower

// Helpers shared by the GPU passes.

import (
	"sort"
	"strings"

	"github.com/gohalide/gohalide/bounds"
	"github.com/gohalide/gohalide/halide/ir"
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

// threadLoopDims assigns a thread dimension to every thread loop of a
// kernel (the innermost loop of a nest of thread loops is x) and returns
// the block size: per dimension, the largest constant bound of the extents
// of the loops of that dimension.
func threadLoopDims(kernel ir.Stmt) (map[string]int, [3]int64, error) {
	dims := map[string]int{}
	block := [3]int64{1, 1, 1}
	var err error
	lv := letValues{}
	// depth returns how many nested thread loops s contains at most.
	var depth func(s ir.Stmt) int
	depth = func(s ir.Stmt) int {
		d := 0
		ir.WalkStmt(s, func(x ir.Stmt) bool {
			if l, ok := x.(*ir.For); ok && l.Kind == ir.GPUThread {
				if n := 1 + depth(l.Body); n > d {
					d = n
				}
				return false
			}
			return true
		}, nil)
		return d
	}
	walkWithLets(kernel, lv, func(x ir.Stmt) ir.Stmt {
		l, ok := x.(*ir.For)
		if !ok || l.Kind != ir.GPUThread || err != nil {
			return x
		}
		d := depth(l.Body)
		if d > 2 {
			err = ir.Errorf(ir.ErrSchedule, loopFunc(l.Name), "gpu_threads", "the thread loop %s has %d thread loops nested inside it; a block has at most 3 dimensions", l.Name, d)
			return x
		}
		dims[l.Name] = d
		ext, ok := bounds.ConstantUpperBound(lv.resolve(l.Extent), nil)
		if !ok {
			err = ir.Errorf(ir.ErrSchedule, loopFunc(l.Name), "gpu_threads", "the thread loop %s has the extent %s, which is not a constant; the block size must be known when the kernel is compiled", l.Name, ir.ExprString(lv.resolve(l.Extent))).
				WithLegal("split the loop by a constant factor and make the inner loop the thread loop, or Bound the Func along it")
			return x
		}
		if ext > block[d] {
			block[d] = ext
		}
		return x
	})
	if err != nil {
		return nil, block, err
	}
	if n := block[0] * block[1] * block[2]; n > 1024 {
		var loops []string
		for name := range dims {
			loops = append(loops, name)
		}
		sort.Strings(loops)
		return nil, block, ir.Errorf(ir.ErrSchedule, loopFunc(kernel.(*ir.For).Name), "gpu_threads", "the kernel of block loop %s has %d x %d x %d = %d threads per block (thread loops %s); CUDA allows at most 1024", kernel.(*ir.For).Name, block[0], block[1], block[2], n, strings.Join(loops, ", ")).
			WithLegal("smaller thread tiles: split the thread loops by smaller factors")
	}
	return dims, block, nil
}

// linearThreadID is the index of the thread within its block.
func linearThreadID(block [3]int64) ir.Expr {
	e := ir.Expr(v(ir.ThreadID[0]))
	if block[1] > 1 {
		e = ir.AddE(e, ir.MulE(v(ir.ThreadID[1]), ir.Int(block[0])))
	}
	if block[2] > 1 {
		e = ir.AddE(e, ir.MulE(v(ir.ThreadID[2]), ir.Int(block[0]*block[1])))
	}
	return e
}

// accesses returns the buffers s loads from and stores to. Loads and
// stores inside Allocates of s itself are included.
func accesses(s ir.Stmt) (reads, writes map[string]bool) {
	reads, writes = map[string]bool{}, map[string]bool{}
	ir.WalkStmt(s, func(x ir.Stmt) bool {
		if st, ok := x.(*ir.Store); ok {
			writes[st.Buf] = true
		}
		return true
	}, func(e ir.Expr) bool {
		if l, ok := e.(*ir.Load); ok {
			reads[l.Buf] = true
		}
		return true
	})
	return reads, writes
}

func containsBarrier(s ir.Stmt) bool {
	found := false
	ir.WalkStmt(s, func(x ir.Stmt) bool {
		if _, ok := x.(*ir.Barrier); ok {
			found = true
		}
		return !found
	}, nil)
	return found
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
