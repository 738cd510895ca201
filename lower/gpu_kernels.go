package lower

// gpu_kernels: extract each kernel. The outermost GPU block loop and the
// block loops directly inside it become the grid (the innermost block loop
// is x); their body, with `let v = min + block_id_d` for each block loop,
// becomes the kernel body. GPUShared allocations move to the top of the body
// (one copy per block, a single flat extent); gpu_shared_reuse checks
// their sizes against the device limits (Options.Limits: on sm_90 48 KB of
// static shared memory, 227 KB with dynamic). Heap allocations (one copy
// per thread) and GPUShared ones InGlobal (one copy per block) become
// global scratch allocated on the host around the launch, a slice per
// copy. Sizes known only at launch (ir.IntrinsicMaxOver from blockMax)
// become host lets before the launch (Kernel.HostLets), and the rules they
// decide (block size, shared memory limit, scratch indexable by int32) are
// checked there (Kernel.Checks), each failure a typed error. The kernel's
// arguments are the variables and buffers the body uses from the host
// (ir.KernelArgs). The loop nest is replaced by a Launch.
//
// The kernel is a copy of the record gpu_block_size made (block, thread
// dimensions) and gpu_cooperative added to (single-thread stages, share
// loops), with the facts decided here: name, grid, body, arguments,
// allocations (ir.AllocOf: element counts; the shared-across and
// per-thread dimensions through the record's ThreadDims), barriers, host
// lets and checks.
//
// Before: gpu_thread_loops. After: the host statement has no GPU loops;
// each Launch's kernel body is simplified.

import (
	"fmt"
	"math"
	"strings"

	"github.com/gohalide/gohalide/ir"
)

func gpuKernels(st *State) error {
	count := map[string]int{}
	s, err := forEachKernel(st.Stmt, func(k *ir.For) (ir.Stmt, error) {
		kern, scratch, err := extractKernel(st, k, count)
		if err != nil {
			return nil, err
		}
		st.Kernels = append(st.Kernels, kern)
		st.logf(3, "  gpu_kernels: %s, block %s x %s x %s, %d barriers\n", kern.Name, ir.ExprString(kern.Block[0]), ir.ExprString(kern.Block[1]), ir.ExprString(kern.Block[2]), kern.Barriers)
		var launch ir.Stmt = &ir.Launch{Kernel: kern}
		// Global scratch of the kernel's Heap allocations: allocated for
		// the launch, freed after it.
		blocks, threads := ir.Expr(ir.Int(1)), ir.Expr(ir.Int(1))
		for d := range 3 {
			blocks, threads = ir.MulE(blocks, kern.Grid[d]), ir.MulE(threads, kern.Block[d])
		}
		for i := len(scratch) - 1; i >= 0; i-- {
			a := *scratch[i]
			copies := ir.MulE(blocks, threads)
			if a.InGlobal {
				copies = blocks
			}
			a.InGlobal = false
			a.Extents = []ir.Expr{ir.Simplify(ir.MulE(a.Extents[0], copies))}
			a.Body = launch
			launch = &a
			// Flat indices are int32: the scratch of every thread of the
			// grid must fit.
			total := ir.Simplify(ir.MulE(&ir.Cast{T: ir.Int64, X: scratch[i].Extents[0]}, &ir.Cast{T: ir.Int64, X: copies}))
			launch = ir.MakeBlock(&ir.AssertStmt{
				Cond:    ir.Simplify(ir.LTE(total, ir.IntConst(ir.Int64, math.MaxInt32))),
				Message: fmt.Sprintf("the global scratch of %s (store_in(Heap) inside kernel %s: the size of a copy times the copies in the grid) has more elements than an int32 index reaches:", a.Name, kern.Name),
				Args:    []ir.Expr{total},
				Error:   &ir.Error{Code: ir.ErrSchedule, Func: a.Name, Directive: "store_in(Heap)", Legal: "smaller per-thread footprints, or compute the Func at a loop outside the kernel"},
			}, launch)
		}
		// Sizes known only at launch: checked on the host first.
		for i := len(kern.Checks) - 1; i >= 0; i-- {
			launch = ir.MakeBlock(kern.Checks[i], launch)
		}
		for i := len(kern.HostLets) - 1; i >= 0; i-- {
			launch = &ir.LetStmt{Name: kern.HostLets[i].Name, Value: kern.HostLets[i].Value, Body: launch}
		}
		// A block loop of no iterations (an empty region, such as a
		// guarded-off tail) launches nothing: CUDA refuses an empty grid.
		var cond ir.Expr
		for _, g := range kern.Grid {
			if c := ir.Simplify(ir.LTE(ir.Int(0), g)); !ir.IsConstValue(c, 1) {
				cond = and(cond, c)
			}
		}
		if cond != nil {
			return &ir.IfThenElse{Cond: cond, Then: launch}, nil
		}
		return launch, nil
	})
	if err != nil {
		return err
	}
	st.Stmt = s
	return nil
}

func identifier(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	return b.String()
}

func extractKernel(st *State, outer *ir.For, count map[string]int) (*ir.Kernel, []*ir.Allocate, error) {
	var blocks []*ir.For
	for l := outer; ; {
		blocks = append(blocks, l)
		inner, ok := l.Body.(*ir.For)
		if !ok || inner.Kind != ir.GPUBlock {
			break
		}
		l = inner
	}
	body := blocks[len(blocks)-1].Body
	// A copy of the record gpu_block_size made (and gpu_cooperative
	// added to), with the facts decided here.
	rec := st.kernels[outer.Name]
	kern := &ir.Kernel{Block: rec.Block, ThreadDims: rec.ThreadDims, SingleThread: rec.SingleThread, Shares: rec.Shares, Case: st.caseConds[outer.Name]}
	if kern.Case != nil {
		kern.Case = ir.Simplify(ir.Substitute(kern.Case, st.promised))
	}
	// Stage name: "f.s1" of the outermost block loop.
	stage := outer.Name
	if i := strings.Index(stage, ".s"); i >= 0 {
		rest := stage[i+2:]
		if j := strings.Index(rest, "."); j >= 0 {
			stage = stage[:i+2+j]
		}
	}
	name := "kernel_" + identifier(stage)
	count[name]++
	if count[name] > 1 {
		name = fmt.Sprintf("%s_%d", name, count[name])
	}
	kern.Name = name
	for d := 0; d < 3; d++ {
		kern.Grid[d] = ir.Int(1)
	}
	// The innermost block loop is x.
	for i := range blocks {
		l := blocks[len(blocks)-1-i]
		if i >= 3 {
			return nil, nil, ir.Errorf(ir.ErrSchedule, loopFunc(l.Name), "gpu_blocks", "more than 3 block loops")
		}
		kern.Grid[i] = l.Extent
	}
	for i := len(blocks) - 1; i >= 0; i-- {
		d := len(blocks) - 1 - i
		l := blocks[i]
		body = &ir.LetStmt{Name: l.Name, Value: ir.Simplify(ir.AddE(l.Min, v(ir.BlockID[d]))), Body: body}
	}
	block := rec.BlockSize()
	// Hoist the shared allocations to the top. An allocation met more
	// than once (the copies an unrolled loop made of one realization, live
	// one after the other) is hoisted once, with the largest size.
	if err := mixedStorage(kern, body); err != nil {
		return nil, nil, err
	}
	hs := &hoisted{}
	var mut func(ir.Stmt) ir.Stmt
	mut = func(x ir.Stmt) ir.Stmt {
		if a, ok := x.(*ir.Allocate); ok && a.Memory == ir.GPUShared && !a.InGlobal {
			hs.add(a, a.Memory)
			return mut(a.Body)
		}
		return ir.MapStmt(x, mut, nil)
	}
	body = mut(body)
	shared := hs.list
	body, scratch, err := globalScratch(kern, body)
	if err != nil {
		return nil, nil, err
	}
	body = hostMaxima(kern, body, append(shared, scratch...))
	body = ir.SimplifyStmt(body)
	if body == nil {
		body = &ir.Block{}
	}
	for i := len(shared) - 1; i >= 0; i-- {
		a := shared[i]
		hoisted := *a
		hoisted.Body = body
		body = &hoisted
	}
	kern.Body = body
	// Allocations, for reports and for the shared memory limits, which
	// gpu_shared_reuse checks once the pool is laid out.
	ir.WalkStmt(body, func(x ir.Stmt) bool {
		a, ok := x.(*ir.Allocate)
		if !ok {
			return true
		}
		ka := ir.AllocOf(a)
		if a.Memory == ir.GPUShared {
			// Shared along every dimension of the block its region
			// does not depend on (allocation_bounds recorded which).
			split := [3]bool{}
			for _, l := range a.PerThread {
				split[kern.ThreadDims[l]] = true
			}
			for d := 0; d < 3; d++ {
				if block[d] != 1 && !split[d] {
					ka.SharedAcross = append(ka.SharedAcross, "xyz"[d:d+1])
				} else if block[d] != 1 {
					ka.PerThread = append(ka.PerThread, "xyz"[d:d+1])
				}
			}
		}
		kern.Allocs = append(kern.Allocs, ka)
		return true
	}, nil)
	for _, a := range scratch {
		// Per thread (or per block, InGlobal), in global memory.
		ka := ir.KernelAlloc{Func: a.Name, T: a.T, Memory: a.Memory}
		ka.PerBlock = a.InGlobal
		if n, ok := ir.AsInt(a.Extents[0]); ok {
			ka.Elems = n
		} else {
			ka.Dynamic, ka.Size = true, a.Extents[0]
		}
		kern.Allocs = append(kern.Allocs, ka)
	}
	for _, a := range kern.Allocs {
		if a.Dynamic {
			if c := noWrapCheck(a.Func, "store_in("+a.Memory.String()+")", a.Size, kern.HostLets); c != nil {
				kern.Checks = append(kern.Checks, c)
			}
		}
	}
	kern.Checks = append(kern.Checks, launchChecks(kern, loopFunc(outer.Name), st.limits)...)
	ir.WalkStmt(body, func(x ir.Stmt) bool {
		if _, ok := x.(*ir.Barrier); ok {
			kern.Barriers++
		}
		return true
	}, nil)
	var scratchArgs []ir.KernelArg
	for _, a := range scratch {
		scratchArgs = append(scratchArgs, ir.KernelArg{Name: a.Name, T: a.T, IsBuffer: true, Scratch: a.Extents[0], ScratchPerBlock: a.InGlobal})
	}
	kern.Args = ir.KernelArgs(body, scratchArgs)
	return kern, scratch, nil
}

// mixedStorage returns the schedule error of a Func stored in two ways in
// kernel kern's body: the cases of a specialization may compute it inside
// the thread loops in one and at the block level in another, so that its
// copies would be registers or per-thread scratch in one and shared
// memory or per-block scratch in the other, under one name, which one
// kernel cannot hold.
func mixedStorage(kern *ir.Kernel, body ir.Stmt) error {
	var err error
	where := map[string]string{}
	ir.WalkStmt(body, func(x ir.Stmt) bool {
		if a, ok := x.(*ir.Allocate); ok && err == nil {
			m := a.Memory.String()
			switch {
			case a.InGlobal:
				m = "global scratch, one copy per block"
			case a.Memory == ir.Heap:
				m = "global scratch, one copy per thread"
			}
			if prev, seen := where[a.Name]; seen && prev != m {
				err = ir.Errorf(ir.ErrSchedule, a.Name, "store_in("+a.Memory.String()+")", "%s is stored in %s in one case of a specialization and in %s in another, inside kernel %s", a.Name, prev, m, kern.Name).
					WithLegal("compute %s inside GPU thread loops in every case, or at the block level in every case (the same GPU loops at its compute level)", a.Name)
			}
			where[a.Name] = m
		}
		return true
	}, nil)
	return err
}

// globalScratch gives global memory to each Heap allocation of a kernel
// (one copy per thread, inside the thread loops) and to each GPUShared one
// InGlobal (one copy per block): one host allocation of the size of a copy
// times the copies in the grid, around the launch (freed after it), of
// which each thread, or each block, uses its own slice. In the body, the
// Allocate becomes the slice's base, `f.base`, added to every index of f.
// Copies of one realization (an unrolled loop's) share the largest size.
// The host allocations come back as Heap, with the size of one copy.
func globalScratch(kern *ir.Kernel, body ir.Stmt) (ir.Stmt, []*ir.Allocate, error) {
	hs := &hoisted{}
	// The block's index in the grid, and the thread's, over the
	// dimensions of more than one block or thread.
	linear := func(ids [3]string, sizes [3]ir.Expr, e ir.Expr) ir.Expr {
		for d := 2; d >= 0; d-- {
			if !ir.IsConstValue(ir.Simplify(sizes[d]), 1) {
				e = ir.AddE(ir.MulE(e, sizes[d]), v(ids[d]))
			}
		}
		return e
	}
	blockID := linear(ir.BlockID, kern.Grid, ir.Int(0))
	copyID := ir.Simplify(linear(ir.ThreadID, kern.Block, blockID))
	blockID = ir.Simplify(blockID)
	// First the size of each: the copies of one realization (an
	// unrolled loop's, or one per case of a specialization) are sliced
	// by the largest, which the host allocates per thread or block.
	ir.WalkStmt(body, func(x ir.Stmt) bool {
		if a, ok := x.(*ir.Allocate); ok && (a.Memory == ir.Heap || a.InGlobal) {
			hs.add(a, ir.Heap)
		}
		return true
	}, nil)
	var mut func(ir.Stmt) ir.Stmt
	mut = func(x ir.Stmt) ir.Stmt {
		a, ok := x.(*ir.Allocate)
		if !ok || !(a.Memory == ir.Heap || a.InGlobal) {
			return ir.MapStmt(x, mut, nil)
		}
		size := hs.list[hs.index[a.Name]].Extents[0]
		base := a.Name + ".base"
		inner := rebaseBuffer(mut(a.Body), a.Name, &ir.Var{T: ir.Int32, Name: base})
		id := copyID
		if a.InGlobal {
			id = blockID
		}
		return &ir.LetStmt{Name: base, Value: ir.MulE(id, size), Body: inner}
	}
	body = mut(body)
	return body, hs.list, nil
}

// hoisted collects the allocations of a kernel body moved out of it, one
// per name: the copies an unrolled loop made of one realization are live
// one after the other, so they share one, of the largest flat size.
type hoisted struct {
	list  []*ir.Allocate
	index map[string]int
}

// add records a (flattened to one extent) in memory m.
func (h *hoisted) add(a *ir.Allocate, m ir.MemoryType) {
	size := flatSize(a.Extents)
	if i, ok := h.index[a.Name]; ok {
		h.list[i].Extents[0] = ir.Simplify(ir.MaxE(h.list[i].Extents[0], size))
		return
	}
	if h.index == nil {
		h.index = map[string]int{}
	}
	h.index[a.Name] = len(h.list)
	h.list = append(h.list, &ir.Allocate{Name: a.Name, T: a.T, Memory: m, InGlobal: a.InGlobal, Extents: []ir.Expr{size}, PerThread: a.PerThread})
}

// flatSize is the number of elements of extents.
func flatSize(extents []ir.Expr) ir.Expr {
	size := ir.Expr(ir.Int(1))
	for _, e := range extents {
		size = ir.Simplify(ir.MulE(size, e))
	}
	return size
}

// rebaseBuffer adds base to every index of buf in s.
func rebaseBuffer(s ir.Stmt, buf string, base ir.Expr) ir.Stmt {
	var fe func(ir.Expr) ir.Expr
	fe = func(e ir.Expr) ir.Expr {
		e = ir.MapExpr(e, fe)
		if l, ok := e.(*ir.Load); ok && l.Buf == buf {
			c := *l
			c.Index = ir.AddE(l.Index, base)
			return &c
		}
		return e
	}
	var fs func(ir.Stmt) ir.Stmt
	fs = func(x ir.Stmt) ir.Stmt {
		x = ir.MapStmt(x, fs, fe)
		if st, ok := x.(*ir.Store); ok && st.Buf == buf {
			c := *st
			c.Index = ir.AddE(st.Index, base)
			return &c
		}
		return x
	}
	return fs(s)
}

// hostMaxima replaces each size the host computes before the launch (an
// ir.IntrinsicMaxOver that blockMax made: the largest footprint over the
// blocks) by a variable bound on the host (kern.HostLets), in the body, the
// hoisted shared allocations and the block size. Equal sizes share one
// variable.
func hostMaxima(kern *ir.Kernel, body ir.Stmt, shared []*ir.Allocate) ir.Stmt {
	var fe func(ir.Expr) ir.Expr
	fe = func(e ir.Expr) ir.Expr {
		if m, ok := ir.IsMaxOver(e); ok {
			for _, h := range kern.HostLets {
				if ir.Equal(h.Value, m) {
					return &ir.Var{T: m.T, Name: h.Name}
				}
			}
			name := fmt.Sprintf("%s.max%d", kern.Name, len(kern.HostLets))
			kern.HostLets = append(kern.HostLets, ir.HostLet{Name: name, Value: m})
			return &ir.Var{T: m.T, Name: name}
		}
		return ir.MapExpr(e, fe)
	}
	var fs func(ir.Stmt) ir.Stmt
	fs = func(s ir.Stmt) ir.Stmt { return ir.MapStmt(s, fs, fe) }
	for _, a := range shared {
		for i, e := range a.Extents {
			a.Extents[i] = fe(e)
		}
	}
	for d, e := range kern.Block {
		kern.Block[d] = fe(e)
	}
	return fs(body)
}

// launchChecks are the host's checks before a launch of the rules whose
// values are known only then: at most 1024 threads per block (the shared
// memory limit is gpu_shared_reuse's, once the pool is laid out). Each
// failure is a typed error naming the Func.
func launchChecks(kern *ir.Kernel, fn string, limits ir.DeviceLimits) []ir.Stmt {
	var checks []ir.Stmt
	threads := ir.Expr(ir.Int(1))
	for _, b := range kern.Block {
		threads = ir.Simplify(ir.MulE(threads, b))
	}
	if _, ok := ir.AsInt(threads); !ok {
		checks = append(checks, &ir.AssertStmt{
			Cond:    ir.Simplify(ir.LTE(threads, ir.Int(limits.MaxThreadsPerBlock))),
			Message: fmt.Sprintf("kernel %s has a block of %s x %s x %s threads, known at launch; CUDA allows at most %d; the block has", kern.Name, ir.ExprString(kern.Block[0]), ir.ExprString(kern.Block[1]), ir.ExprString(kern.Block[2]), limits.MaxThreadsPerBlock),
			Args:    []ir.Expr{threads},
			Error:   &ir.Error{Code: ir.ErrSchedule, Func: fn, Directive: "gpu_threads", Legal: "smaller thread tiles, or Bound the Func so that the thread loops have constant extents"},
		})
	}
	return checks
}

func allocList(as []ir.KernelAlloc) string {
	var parts []string
	for _, a := range as {
		if a.Memory == ir.GPUShared {
			parts = append(parts, fmt.Sprintf("%s: %d bytes", a.Func, a.Bytes()))
		}
	}
	return strings.Join(parts, ", ")
}
