package lower

// gpu_memory: decide where each realization lives, once, and record it on
// the Realize (Memory). Inside a kernel, Auto (and Stack) storage becomes
// registers inside the thread loops (one copy per thread) and shared
// memory at the block level (one copy per block), as in Halide. Register
// at the block level is one copy per thread, holding the points that
// thread computes (gpu_register_ownership checks and indexes it). Heap
// inside the thread loops is global scratch, one slice per thread, and at
// the block level a GPUShared realization InGlobal: one copy per block,
// shared by its threads, in global scratch (gpu_kernels places both).
// GPUShared outside kernels is an error; Register there is the stack (a
// local array, as in Halide's CPU targets). Outside kernels Auto
// stays Auto until allocation_bounds knows the size (Stack when small and
// constant, else Heap). Every later pass and the executors read
// Realize.Memory (and
// the Allocate it becomes); none decides again.
//
// Before: validate_gpu. After: no Realize inside a kernel has Auto or
// Stack memory.

import (
	"slices"

	"github.com/gohalide/gohalide/ir"
)

func gpuMemory(st *State) error {
	var err error
	// mut decides the memory of the Realizes in s, inside loops
	// (outermost first).
	var mut func(s ir.Stmt, loops []*ir.For) ir.Stmt
	mut = func(s ir.Stmt, loops []*ir.For) ir.Stmt {
		x, ok := s.(*ir.Realize)
		if !ok {
			if l, ok := s.(*ir.For); ok {
				loops = append(loops[:len(loops):len(loops)], l)
			}
			return ir.MapStmt(s, func(c ir.Stmt) ir.Stmt { return mut(c, loops) }, nil)
		}
		if err != nil {
			return s
		}
		inKernel, inThreads := kernelPlace(loops)
		mem, inGlobal := x.Memory, x.InGlobal
		if x.Memory == ir.Heap && inKernel && !inThreads {
			// One copy per block in global memory: shared by the
			// block's threads like shared memory (produced together,
			// with barriers); gpu_kernels places it.
			mem, inGlobal = ir.GPUShared, true
		} else if mem, err = realizeMemory(st.Funcs[x.Func], x.Memory, inKernel, inThreads); err != nil {
			return s
		}
		body := mut(x.Body, loops)
		return ir.Edit(x, mem != x.Memory || inGlobal != x.InGlobal || body != x.Body, func(r *ir.Realize) { r.Memory, r.InGlobal, r.Body = mem, inGlobal, body })
	}
	s := mut(st.Stmt, nil)
	if err != nil {
		return err
	}
	st.Stmt = s
	return nil
}

// kernelPlace says whether the loops around a statement (outermost first)
// put it inside a kernel, and inside its thread loops.
func kernelPlace(loops []*ir.For) (inKernel, inThreads bool) {
	inner, inKernel := kernelLoops(loops)
	return inKernel, slices.ContainsFunc(inner, func(l *ir.For) bool { return l.Kind == ir.GPUThread })
}

// realizeMemory picks the memory of f realized inside or outside a kernel.
func realizeMemory(f *ir.Function, m ir.MemoryType, inKernel, inThreads bool) (ir.MemoryType, error) {
	if !inKernel {
		switch m {
		case ir.GPUShared:
			return m, ir.Errorf(ir.ErrSchedule, f.Name, "store_in("+m.String()+")", "%s is stored in %s but allocated outside any GPU kernel (on the host)", f.Name, m).
				WithLegal("compute and store %s inside a kernel (compute_at a block or thread loop of a Func with gpu_blocks), or use store_in(Heap) or the default memory", f.Name)
		case ir.Register:
			// On the host, as in Halide's CPU targets, registers are
			// a local array: the stack.
			return ir.Stack, nil
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
		// At the block level each thread keeps its own points:
		// gpu_register_ownership proves that each thread reads only
		// what it computed, and indexes the array per thread.
	case ir.Heap:
		// Inside the thread loops: global scratch, one slice per thread
		// (gpu_kernels allocates it around the launch). At the block
		// level gpuMemory made it an InGlobal GPUShared realization.
	}
	return m, nil
}

// threadsShare reports whether the threads of a block share one copy of f
// stored at the loop site of s ("" is the root): f is realized inside a
// kernel in shared memory (as gpu_memory will decide), at some copy of the
// loop (one per case of a specialized stage).
func threadsShare(s ir.Stmt, site string, f *ir.Function) bool {
	if site == "" {
		return false
	}
	for _, found := range loopPaths(s, site, -1) {
		inKernel, inThreads := kernelPlace(found)
		if m, err := realizeMemory(f, f.Schedule.Memory, inKernel, inThreads); err == nil && m == ir.GPUShared {
			return true
		}
	}
	return false
}

// recomputeAcrossThreads reports whether a ShiftInwards split of stage d
// with the outer var outer can make two threads of one block compute the
// same point: the stage runs on GPU threads and the outer var is not a
// block loop (blocks may overlap: each writes the same values to global
// memory; threads of one block may not).
func recomputeAcrossThreads(d *ir.Definition, outer string) bool {
	threads := false
	for _, dim := range d.Schedule.Dims {
		if dim.Name == outer && dim.Kind == ir.GPUBlock {
			return false
		}
		threads = threads || dim.Kind == ir.GPUThread
	}
	return threads
}

// loopPath returns the loops of s from the outermost down to the loop
// named site (inclusive), or nil.
func loopPath(s ir.Stmt, site string) []*ir.For {
	if paths := loopPaths(s, site, 1); len(paths) > 0 {
		return paths[0]
	}
	return nil
}

// loopPaths returns the paths of loopPath to the first n loops named site
// (n < 0: all; one per case of a specialized stage).
func loopPaths(s ir.Stmt, site string, n int) [][]*ir.For {
	var path []*ir.For
	var found [][]*ir.For
	var walk func(ir.Stmt)
	walk = func(x ir.Stmt) {
		ir.WalkStmt(x, func(y ir.Stmt) bool {
			done := n >= 0 && len(found) >= n
			l, ok := y.(*ir.For)
			if !ok || done {
				return !done
			}
			path = append(path, l)
			if l.Name == site {
				found = append(found, append([]*ir.For{}, path...))
			} else {
				walk(l.Body)
			}
			path = path[:len(path)-1]
			return false
		}, nil)
	}
	walk(s)
	return found
}
