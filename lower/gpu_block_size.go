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
	// block is the size in each dimension where it is a constant, and 0
	// where it is known only at launch (size has it then).
	block [3]int64
	// size is the size in each dimension: a constant, or an expression
	// of the host's values (a max_over the blocks where the thread
	// extents vary between blocks), computed before each launch.
	size [3]ir.Expr
	dims map[string]int
	// single lists the stages of shared productions that run on the
	// block's first thread only (nothing to deal out: gpu_cooperative).
	single []string
}

// threads is the number of threads per block, or 0 when it is known only
// at launch.
func (k kernelShape) threads() int64 { return k.block[0] * k.block[1] * k.block[2] }

// threadsExpr is the number of threads per block.
func (k kernelShape) threadsExpr() ir.Expr {
	return ir.Simplify(ir.MulE(ir.MulE(k.size[0], k.size[1]), k.size[2]))
}

// linearThreadID is the index of the thread within its block.
func (k kernelShape) linearThreadID() ir.Expr {
	e := ir.Expr(v(ir.ThreadID[0]))
	if k.block[1] != 1 {
		e = ir.AddE(e, ir.MulE(v(ir.ThreadID[1]), k.size[0]))
	}
	if k.block[2] != 1 {
		e = ir.AddE(e, ir.MulE(v(ir.ThreadID[2]), ir.MulE(k.size[0], k.size[1])))
	}
	return ir.Simplify(e)
}

func gpuBlockSize(st *State) error {
	st.kernels = map[string]kernelShape{}
	_, err := forEachKernel(st.Stmt, func(k *ir.For) (ir.Stmt, error) {
		shape, err := threadLoopDims(k)
		if err != nil {
			return nil, err
		}
		// The copies an unrolled host loop made of one kernel share its
		// name (and their thread loops'); a copy whose tail emptied it
		// has fewer loops. They get one block: the largest.
		if prev, ok := st.kernels[k.Name]; ok {
			for d := range shape.size {
				shape.size[d] = ir.Simplify(ir.MaxE(shape.size[d], prev.size[d]))
				shape.block[d] = 0
				if c, ok := ir.AsInt(shape.size[d]); ok {
					shape.block[d] = c
				}
			}
			for n, d := range prev.dims {
				shape.dims[n] = d
			}
		}
		st.kernels[k.Name] = shape
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
func threadLoopDims(kernel *ir.For) (kernelShape, error) {
	shape := kernelShape{dims: map[string]int{}, block: [3]int64{1, 1, 1}}
	for d := range shape.size {
		shape.size[d] = ir.Int(1)
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
		shape.dims[l.Name] = d
		var ext ir.Expr
		if c, ok := bounds.ConstantUpperBound(sc.lets.resolve(l.Extent), nil); ok {
			ext = ir.Int(c)
		} else if ext = blockMax(l.Extent, sc.loops[:len(sc.loops)-1], sc.lets); ext == nil {
			err = ir.Errorf(ir.ErrSchedule, loopFunc(l.Name), "gpu_threads", "the thread loop %s has the extent %s, which has no upper bound over the blocks; the block size must be known at launch", l.Name, ir.ExprString(sc.lets.resolve(l.Extent))).
				WithLegal("split the loop by a constant factor and make the inner loop the thread loop, or Bound the Func along it")
			return x
		}
		shape.size[d] = ir.Simplify(ir.MaxE(shape.size[d], ext))
		return x
	})
	if err != nil {
		return shape, err
	}
	for d := range shape.size {
		shape.block[d] = 0
		if c, ok := ir.AsInt(shape.size[d]); ok {
			shape.block[d] = c
		}
	}
	if n := shape.threads(); n > 1024 {
		var loops []string
		for name := range shape.dims {
			loops = append(loops, name)
		}
		sort.Strings(loops)
		return shape, ir.Errorf(ir.ErrSchedule, loopFunc(kernel.Name), "gpu_threads", "the kernel of block loop %s has %d x %d x %d = %d threads per block (thread loops %s); CUDA allows at most 1024", kernel.Name, shape.block[0], shape.block[1], shape.block[2], n, strings.Join(loops, ", ")).
			WithLegal("smaller thread tiles: split the thread loops by smaller factors")
	}
	return shape, nil
}
