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
// extents). After: st.kernels has the record of every kernel (an
// *ir.Kernel with Block and ThreadDims set, the facts this pass decides),
// by the name of its outermost block loop; gpu_cooperative and gpu_kernels
// copy it with the facts they add.

import (
	"sort"
	"strings"

	"github.com/gohalide/gohalide/bounds"
	"github.com/gohalide/gohalide/ir"
)

func gpuBlockSize(st *State) error {
	st.kernels = map[string]*ir.Kernel{}
	_, err := forEachKernel(st.Stmt, func(k *ir.For) (ir.Stmt, error) {
		kern, err := threadLoopDims(k, st.limits)
		if err != nil {
			return nil, err
		}
		// The copies an unrolled host loop made of one kernel share its
		// name (and their thread loops'); a copy whose tail emptied it
		// has fewer loops. They get one block: the largest.
		if prev, ok := st.kernels[k.Name]; ok {
			for d := range kern.Block {
				kern.Block[d] = ir.Simplify(ir.MaxE(kern.Block[d], prev.Block[d]))
			}
			for n, d := range prev.ThreadDims {
				kern.ThreadDims[n] = d
			}
		}
		st.kernels[k.Name] = kern
		return k, nil
	})
	return err
}

// threadDims gives each thread loop of s its thread dimension: the number
// of thread loops nested inside it at most (the innermost loop of a nest
// is x). The copies an unrolled loop made of one thread loop share its name
// and its dimension: the largest over the copies (a copy whose tail
// emptied it has lost its inner thread loops, not its place in the nest).
// A loop with more than 2 inside it has none (gpu_block_size refuses it).
// It is the one rule; gpu_register_ownership reads it too.
func threadDims(s ir.Stmt) map[string]int {
	dims := map[string]int{}
	tooDeep := map[string]bool{}
	var depth func(ir.Stmt) int
	depth = func(s ir.Stmt) int {
		d := 0
		ir.WalkStmt(s, func(x ir.Stmt) bool {
			if l, ok := x.(*ir.For); ok && l.Kind == ir.GPUThread {
				n := depth(l.Body)
				if n >= 3 {
					tooDeep[l.Name] = true
				} else if prev, ok := dims[l.Name]; !ok || n > prev {
					dims[l.Name] = n
				}
				d = max(d, n+1)
				return false
			}
			return true
		}, nil)
		return d
	}
	depth(s)
	for name := range tooDeep {
		delete(dims, name)
	}
	return dims
}

// threadLoopDims assigns a thread dimension to every thread loop of a
// kernel (the innermost loop of a nest of thread loops is x) and returns
// the kernel's shape. The block size in each dimension is the largest
// extent of the loops of that dimension over every block: a constant where
// one can be proved, else a size the host computes before the launch
// (blockMax). Over 1024 threads is an error here when the size is a
// constant, and at launch otherwise (gpu_kernels' checks).
func threadLoopDims(kernel *ir.For, limits ir.DeviceLimits) (*ir.Kernel, error) {
	kern := &ir.Kernel{ThreadDims: map[string]int{}}
	for d := range kern.Block {
		kern.Block[d] = ir.Int(1)
	}
	var err error
	dims := threadDims(kernel)
	sc := &walkScope{lets: newLetValues()}
	walkScoped(kernel, sc, func(x ir.Stmt) ir.Stmt {
		l, ok := x.(*ir.For)
		if !ok || l.Kind != ir.GPUThread || err != nil {
			return x
		}
		d, ok := dims[l.Name]
		if !ok {
			err = ir.Errorf(ir.ErrSchedule, loopFunc(l.Name), "gpu_threads", "the thread loop %s has more than 2 thread loops nested inside it; a block has at most 3 dimensions", l.Name)
			return x
		}
		kern.ThreadDims[l.Name] = d
		var ext ir.Expr
		if c, ok := bounds.ConstantUpperBound(sc.lets.resolve(l.Extent), nil); ok {
			ext = ir.Int(c)
		} else if ext = blockMax(l.Extent, sc.loops[:len(sc.loops)-1], sc.lets); ext == nil {
			err = ir.Errorf(ir.ErrSchedule, loopFunc(l.Name), "gpu_threads", "the thread loop %s has the extent %s, which has no upper bound over the blocks; the block size must be known at launch", l.Name, ir.ExprString(sc.lets.resolve(l.Extent))).
				WithLegal("split the loop by a constant factor and make the inner loop the thread loop, or Bound the Func along it")
			return x
		}
		kern.Block[d] = ir.Simplify(ir.MaxE(kern.Block[d], ext))
		return x
	})
	if err != nil {
		return kern, err
	}
	if n := kern.Threads(); n > limits.MaxThreadsPerBlock {
		var loops []string
		for name := range kern.ThreadDims {
			loops = append(loops, name)
		}
		sort.Strings(loops)
		b := kern.BlockSize()
		return kern, ir.Errorf(ir.ErrSchedule, loopFunc(kernel.Name), "gpu_threads", "the kernel of block loop %s has %d x %d x %d = %d threads per block (thread loops %s); CUDA allows at most %d", kernel.Name, b[0], b[1], b[2], n, strings.Join(loops, ", "), limits.MaxThreadsPerBlock).
			WithLegal("smaller thread tiles: split the thread loops by smaller factors")
	}
	return kern, nil
}
