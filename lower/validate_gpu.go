package lower

// validate_gpu: check the GPU loop structure of the loop nest. Within a
// stage, block loops are contiguous and outside the thread loops, at most
// three of each. Across the nest, every thread loop has an enclosing block
// loop, a Func with its own block loops is not computed inside another
// kernel, a Func with its own thread loops is not computed inside another
// Func's thread loops, no nest has more than three block or thread
// loops, no parallel loop is inside a kernel, and no atomic Tuple update
// that needs a lock (atomicNeedsLock) is inside a kernel.
//
// Before: schedule_functions. After: the loop nest is a valid GPU nest.

import (
	"github.com/gohalide/gohalide/ir"
)

func validateGPU(st *State) error {
	for _, name := range st.Order {
		f := st.Funcs[name]
		for si, d := range f.Stages() {
			for _, c := range stageCases(d) {
				if err := validateStageGPU(f, si, c); err != nil {
					return err
				}
			}
		}
	}
	_, lanes := reduceLoops(st)
	return walkGPU(st.Stmt, &gpuCtx{lanes: lanes})
}

func validateStageGPU(f *ir.Function, si int, d *ir.Definition) error {
	dims := d.Schedule.Dims // innermost first
	nb, nt := 0, 0
	firstBlock, lastBlock, firstThread := -1, -1, -1
	for i, dim := range dims {
		switch dim.Kind {
		case ir.GPUBlock:
			nb++
			if firstBlock < 0 {
				firstBlock = i
			}
			lastBlock = i
		case ir.GPUThread:
			nt++
			if firstThread < 0 || i > firstThread {
				firstThread = i // outermost thread loop
			}
		}
	}
	stage := "stage " + itoa(si) + " of " + f.Name
	if nb > 3 || nt > 3 {
		directive := "gpu_blocks"
		if nt > 3 {
			directive = "gpu_threads"
		}
		return ir.Errorf(ir.ErrSchedule, f.Name, directive, "%s has %d block and %d thread loops; a kernel has at most 3 of each", stage, nb, nt).
			WithLegal("fuse loops before marking them")
	}
	for i := firstBlock; firstBlock >= 0 && i <= lastBlock; i++ {
		if dims[i].Kind != ir.GPUBlock {
			return ir.Errorf(ir.ErrSchedule, f.Name, "gpu_blocks", "in %s the serial loop %s lies between the block loops", stage, dims[i].Name).
				WithLegal("reorder so the block loops are adjacent, or make %s a block loop", dims[i].Name)
		}
	}
	if firstThread >= 0 && firstBlock >= 0 && firstThread > firstBlock {
		return ir.Errorf(ir.ErrSchedule, f.Name, "gpu_threads", "in %s the thread loop %s is outside the block loop %s", stage, dims[firstThread].Name, dims[firstBlock].Name).
			WithLegal("reorder so the thread loops are inside the block loops")
	}
	return nil
}

// gpuCtx is the chain of GPU loops enclosing a point of the nest.
type gpuCtx struct {
	blocks, threads []*ir.For
	// between is set when something other than a block loop (a serial loop
	// or a production) separates the point from the innermost block loop.
	between bool
	// lanes are the lanes loops (GPULanes), by name, with their Func.
	lanes map[string]string
}

func walkGPU(s ir.Stmt, ctx *gpuCtx) error {
	var err error
	ir.WalkStmt(s, func(x ir.Stmt) bool {
		if err != nil {
			return false
		}
		switch l := x.(type) {
		case *ir.For:
			err = checkGPULoop(l, ctx)
			if err != nil {
				return false
			}
			c := gpuCtx{}
			if ctx != nil {
				c = *ctx
			}
			switch l.Kind {
			case ir.GPUBlock:
				c.blocks = append(append([]*ir.For(nil), c.blocks...), l)
				c.between = false
			case ir.GPUThread:
				c.threads = append(append([]*ir.For(nil), c.threads...), l)
			default:
				c.between = true
			}
			err = walkGPU(l.Body, &c)
			return false
		case *ir.Provide:
			if ctx != nil && len(ctx.blocks) > 0 && atomicNeedsLock(l) {
				err = ir.Errorf(ir.ErrSchedule, l.Func, "atomic", "the atomic update of the Tuple Func %s runs in a GPU kernel (block loop %s), and its values read one another: the update needs a lock held over all of them, which a kernel does not have", l.Func, ctx.blocks[len(ctx.blocks)-1].Name).
					WithLegal("compute %s outside the kernel (host loops, parallel ones too), drop Atomic() and keep the update's RVar loops serial, or write the update so each value reads only its own element (each is then an atomic update of its own)", l.Func)
				return false
			}
		case *ir.ProducerConsumer:
			if ctx != nil && len(ctx.blocks) > 0 {
				c := *ctx
				c.between = true
				err = walkGPU(l.Body, &c)
				return false
			}
		}
		return true
	}, nil)
	return err
}

func checkGPULoop(l *ir.For, ctx *gpuCtx) error {
	fn := loopFunc(l.Name)
	var blocks, threads []*ir.For
	between := false
	if ctx != nil {
		blocks, threads, between = ctx.blocks, ctx.threads, ctx.between
	}
	switch l.Kind {
	case ir.Parallel:
		if len(blocks) > 0 {
			where := "block loop " + blocks[len(blocks)-1].Name
			if len(threads) > 0 {
				where = "thread loop " + threads[len(threads)-1].Name
			}
			return ir.Errorf(ir.ErrSchedule, fn, "parallel", "the loop %s is parallel, inside the %s of a kernel; a parallel loop cannot run inside a kernel", l.Name, where).
				WithLegal("drop parallel on %s (it is for CPU loops, outside kernels), or make it a GPU thread loop", l.Name)
		}
	case ir.GPUThread:
		if ctx != nil && ctx.lanes[l.Name] != "" && len(blocks) == 0 {
			return ir.Errorf(ir.ErrSchedule, fn, "gpu_lanes", "the lanes loop %s has no enclosing block loop; lanes are threads of a warp of a block", l.Name).
				WithLegal("mark an outer loop of %s with gpu_blocks, or compute %s inside another Func's block loops", fn, fn)
		}
		if len(blocks) == 0 {
			return ir.Errorf(ir.ErrSchedule, fn, "gpu_threads", "the thread loop %s has no enclosing block loop", l.Name).
				WithLegal("mark an outer loop of %s with gpu_blocks, or compute %s inside another Func's block loops", fn, fn)
		}
		if len(threads) > 0 && loopFunc(threads[len(threads)-1].Name) != fn {
			outer := loopFunc(threads[len(threads)-1].Name)
			return ir.Errorf(ir.ErrSchedule, fn, "gpu_threads", "%s has its own thread loop %s but is computed inside the thread loop %s of %s", fn, l.Name, threads[len(threads)-1].Name, outer).
				WithLegal("compute %s at a block-level loop of %s (between its block and thread loops), or drop its gpu_threads", fn, outer)
		}
		if len(threads) >= 3 {
			return ir.Errorf(ir.ErrSchedule, fn, "gpu_threads", "the thread loop %s is the fourth nested thread loop; a block has at most 3 thread dimensions", l.Name)
		}
	case ir.GPUBlock:
		if ir.IsSingleThreadDim(l.Name) && len(blocks) > 0 {
			outer := blocks[len(blocks)-1]
			return ir.Errorf(ir.ErrSchedule, fn, "gpu_single_thread", "%s runs as a kernel of one thread (gpu_single_thread) but is computed inside the kernel of %s (block loop %s)", fn, loopFunc(outer.Name), outer.Name).
				WithLegal("compute %s outside other kernels (compute_root, or at a serial loop outside the block loops), or drop gpu_single_thread", fn)
		}
		if len(threads) > 0 {
			return ir.Errorf(ir.ErrSchedule, fn, "gpu_blocks", "the block loop %s is inside the thread loop %s", l.Name, threads[len(threads)-1].Name).
				WithLegal("a Func with its own gpu_blocks must be computed outside other kernels (compute_root, or at a serial loop outside the block loops)")
		}
		if len(blocks) > 0 {
			outer := blocks[len(blocks)-1]
			if loopFunc(outer.Name) != fn {
				return ir.Errorf(ir.ErrSchedule, fn, "gpu_blocks", "%s has its own block loop %s but is computed inside the kernel of %s (block loop %s)", fn, l.Name, loopFunc(outer.Name), outer.Name).
					WithLegal("compute %s outside the kernel (compute_root), or drop its gpu_blocks and compute it at %s's innermost block loop", fn, loopFunc(outer.Name))
			}
			if between {
				return ir.Errorf(ir.ErrSchedule, fn, "gpu_blocks", "a serial loop lies between the block loops %s and %s", outer.Name, l.Name).
					WithLegal("reorder so the block loops are adjacent")
			}
			if len(blocks) >= 3 {
				return ir.Errorf(ir.ErrSchedule, fn, "gpu_blocks", "the block loop %s is the fourth nested block loop; a grid has at most 3 dimensions", l.Name)
			}
		}
	}
	return nil
}
