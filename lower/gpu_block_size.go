package lower

// gpu_block_size: decide each kernel's block size, once. Every thread loop
// gets a thread dimension (the innermost loop of a nest of thread loops is
// x), and the block size in each dimension is the largest constant bound
// of the extents of the loops of that dimension (several stages may share
// a kernel). More than 1024 threads, or more than three nested thread
// loops, is an error. The later GPU passes (gpu_cooperative, gpu_barriers,
// gpu_thread_loops, gpu_kernels) read the result; none works it out again.
//
// Before: unroll_loops and simplify (thread loops have their final
// extents). After: st.kernels has the shape of every kernel, by the name
// of its outermost block loop.

import (
	"sort"
	"strings"

	"github.com/gohalide/gohalide/bounds"
	"github.com/gohalide/gohalide/ir"
)

// kernelShape is the block of one kernel: its size, and the thread
// dimension of each of its thread loops.
type kernelShape struct {
	block [3]int64
	dims  map[string]int
}

// threads is the number of threads per block.
func (k kernelShape) threads() int64 { return k.block[0] * k.block[1] * k.block[2] }

func gpuBlockSize(st *State) error {
	st.kernels = map[string]kernelShape{}
	_, err := forEachKernel(st.Stmt, func(k *ir.For) (ir.Stmt, error) {
		dims, block, err := threadLoopDims(k)
		if err != nil {
			return nil, err
		}
		// The copies an unrolled host loop made of one kernel share its
		// name (and their thread loops'); a copy whose tail emptied it
		// has fewer loops. They get one block: the largest.
		if prev, ok := st.kernels[k.Name]; ok {
			for d := range block {
				block[d] = max(block[d], prev.block[d])
			}
			for n, d := range prev.dims {
				dims[n] = d
			}
		}
		st.kernels[k.Name] = kernelShape{block: block, dims: dims}
		return k, nil
	})
	return err
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
