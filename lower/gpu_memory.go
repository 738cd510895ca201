package lower

// gpu_memory: decide where each realization lives, once, and record it on
// the Realize (Memory). Inside a kernel, Auto (and Stack) storage becomes
// registers inside the thread loops (one copy per thread) and shared
// memory at the block level (one copy per block), as in Halide; Register
// at the block level and Heap inside a kernel are errors. GPUShared and
// Register outside kernels are errors. Outside kernels Auto stays Auto
// until allocation_bounds knows the size (Stack when small and constant,
// else Heap). Every later pass and the executors read Realize.Memory (and
// the Allocate it becomes); none decides again.
//
// Before: validate_gpu. After: no Realize inside a kernel has Auto or
// Stack memory.

import "github.com/gohalide/gohalide/halide/ir"

func gpuMemory(st *State) error {
	var err error
	var loops []*ir.For
	var mut func(ir.Stmt) ir.Stmt
	mut = func(s ir.Stmt) ir.Stmt {
		if err != nil {
			return s
		}
		switch x := s.(type) {
		case *ir.For:
			loops = append(loops, x)
			defer func() { loops = loops[:len(loops)-1] }()
		case *ir.Realize:
			inner, inKernel := kernelLoops(loops)
			inThreads := false
			for _, l := range inner {
				inThreads = inThreads || l.Kind == ir.GPUThread
			}
			var mem ir.MemoryType
			if mem, err = realizeMemory(st.Funcs[x.Func], x.Memory, inKernel, inThreads); err != nil {
				return s
			}
			return &ir.Realize{Func: x.Func, T: x.T, Memory: mem, Bounds: x.Bounds, Body: mut(x.Body)}
		}
		return ir.MapStmt(s, mut, nil)
	}
	s := mut(st.Stmt)
	if err != nil {
		return err
	}
	st.Stmt = s
	return nil
}

// realizeMemory picks the memory of f realized inside or outside a kernel.
func realizeMemory(f *ir.Function, m ir.MemoryType, inKernel, inThreads bool) (ir.MemoryType, error) {
	if !inKernel {
		if m == ir.GPUShared || m == ir.Register {
			return m, ir.Errorf(ir.ErrSchedule, f.Name, "store_in("+m.String()+")", "%s is stored in %s but allocated outside any GPU kernel (on the host)", f.Name, m).
				WithLegal("compute and store %s inside a kernel (compute_at a block or thread loop of a Func with gpu_blocks), or use store_in(Heap) or the default memory", f.Name)
		}
		return m, nil
	}
	switch m {
	case ir.Auto, ir.Stack:
		if inThreads {
			return ir.Register, nil
		}
		return ir.GPUShared, nil
	case ir.Register:
		if !inThreads {
			return m, ir.Errorf(ir.ErrSchedule, f.Name, "store_in(Register)", "%s is computed at the block level, between the block and thread loops, so one copy serves all threads; registers belong to one thread", f.Name).
				WithLegal("store_in(GPUShared), or compute %s inside the thread loops", f.Name)
		}
	case ir.Heap:
		return m, ir.Errorf(ir.ErrSchedule, f.Name, "store_in(Heap)", "%s is computed inside a kernel; heap (global scratch) storage inside kernels is not supported yet", f.Name).
			WithLegal("store_in(GPUShared) or store_in(Register), or compute %s outside the kernel (compute_root)", f.Name)
	}
	return m, nil
}
