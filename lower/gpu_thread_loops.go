package lower

// gpu_thread_loops: turn each kernel's thread loops into the SPMD form the
// GPU runs, where every thread executes the kernel body once. A thread loop
// over [min, min + extent) in dimension d becomes `let v = min +
// thread_id_d` and, when its extent is smaller than the block's size in d,
// a guard `if (thread_id_d < extent)`. Statements at the block level that
// store (outside any thread loop or shared production) run on thread 0
// only. Barriers must be reached by every thread, so a thread-dependent
// guard never wraps one: such guards are pushed down through the
// statements around barriers and wrap only the work. A serial loop that
// contains a barrier must run the same iterations on every thread, so its
// bounds may not depend on the thread: that is an error.
//
// Before: gpu_barriers, gpu_block_size (the block and each loop's thread
// dimension), gpu_thread_reduce (its warp shuffles are collective). After: no GPUThread loops.

import (
	"fmt"

	"github.com/gohalide/gohalide/ir"
)

func gpuThreadLoops(st *State) error {
	s, err := forEachKernel(st.Stmt, func(k *ir.For) (ir.Stmt, error) {
		dims, block := st.kernels[k.Name].ThreadDims, st.kernels[k.Name].BlockSize()
		c := &spmd{dims: dims, block: block, dependent: map[string]bool{}, shares: st.kernels[k.Name].Shares}
		for _, n := range ir.ThreadID {
			c.dependent[n] = true
		}
		body := c.convert(innermostBlockBody(k), false)
		if c.err != nil {
			return nil, c.err
		}
		body = c.pushGuards(body)
		if c.err != nil {
			return nil, c.err
		}
		return replaceInnermostBlockBody(k, body), nil
	})
	if err != nil {
		return err
	}
	st.Stmt = s
	return nil
}

type spmd struct {
	dims      map[string]int
	block     [3]int64
	dependent map[string]bool // variables whose value depends on the thread
	shares    shareLoops      // the kernel's cooperative productions (gpu_cooperative)
	err       error
}

func (c *spmd) threadDependent(e ir.Expr) bool {
	return ir.UsesAny(e, func(n string) bool { return c.dependent[n] })
}

// convert replaces thread loops by lets and guards, and makes stores at
// the block level run on thread 0.
func (c *spmd) convert(s ir.Stmt, inThreads bool) ir.Stmt {
	switch x := s.(type) {
	case *ir.For:
		if x.Kind == ir.GPUThread {
			d := c.dims[x.Name]
			c.dependent[x.Name] = true
			body := c.convert(x.Body, true)
			tid := v(ir.ThreadID[d])
			if n, ok := ir.AsInt(ir.Simplify(x.Extent)); !ok || n != c.block[d] {
				body = &ir.IfThenElse{Cond: ir.LTE(tid, x.Extent), Then: body}
			}
			if !inThreads {
				// The outermost thread loop of a nest: the block's
				// dimensions the nest does not use are idle, and only
				// their first thread runs it, so each point runs once.
				if idle := c.idleGuard(x); idle != nil {
					body = &ir.IfThenElse{Cond: idle, Then: body}
				}
			}
			return &ir.LetStmt{Name: x.Name, Value: ir.Simplify(ir.AddE(x.Min, tid)), Body: body}
		}
		if containsBarrier(x.Body) && (c.threadDependent(x.Min) || c.threadDependent(x.Extent)) && c.err == nil {
			shared := sharedProducedIn(x.Body)
			c.err = ir.Errorf(ir.ErrSchedule, shared, "compute_at", "%s is stored in GPU shared memory and produced inside the serial loop %s, whose bounds depend on the thread (%s, %s): the block's threads share its production and must meet at its barriers, so every thread must run the same iterations", shared, x.Name, ir.ExprString(x.Min), ir.ExprString(x.Extent)).
				WithLegal("compute %s at a loop outside %s (for example at the block level, outside the thread loops), or store it in registers", shared, x.Name)
		}
		if x.Kind == ir.Serial && c.shares.is(x.Name) {
			// A production dealt out to the threads (gpu_cooperative).
			inThreads = true
		}
		c.dependent[x.Name] = c.threadDependent(x.Min) || c.threadDependent(x.Extent)
		return ir.WithBody(x, c.convert(x.Body, inThreads))
	case *ir.LetStmt:
		if !inThreads && isTupleStore(x) {
			// The values of a Tuple Func's point, then its stores
			// (storage_flattening): thread 0 computes and stores them
			// all, so no other thread reads a value it is storing.
			return c.firstThread(x)
		}
		c.dependent[x.Name] = c.threadDependent(x.Value)
		return ir.WithBody(x, c.convert(x.Body, inThreads))
	case *ir.Store:
		if !inThreads {
			return c.firstThread(x)
		}
		return x
	}
	return ir.MapStmt(s, func(y ir.Stmt) ir.Stmt { return c.convert(y, inThreads) }, nil)
}

// firstThread makes s, a statement at the block level, run on the
// block's first thread only.
func (c *spmd) firstThread(s ir.Stmt) ir.Stmt {
	zero := ir.Expr(ir.True)
	for d := 0; d < 3; d++ {
		if c.block[d] != 1 {
			zero = ir.AndE(zero, ir.Bin(ir.EQ, v(ir.ThreadID[d]), ir.Int(0)))
		}
	}
	if z := ir.Simplify(zero); !ir.IsConstValue(z, 1) {
		return &ir.IfThenElse{Cond: z, Then: s}
	}
	return s
}

// isTupleStore reports whether s is a chain of lets around two or more
// stores and nothing else (but traces): the store of one point of a
// Tuple Func, whose values are all bound before any is stored.
func isTupleStore(s ir.Stmt) bool {
	for {
		l, ok := s.(*ir.LetStmt)
		if !ok {
			break
		}
		s = l.Body
	}
	b, ok := s.(*ir.Block)
	if !ok {
		return false
	}
	stores := 0
	for _, x := range b.Stmts {
		switch x.(type) {
		case *ir.Store:
			stores++
		case *ir.Evaluate:
		default:
			return false
		}
	}
	return stores >= 2
}

// idleGuard returns `thread_id_d == 0` over the dimensions d of the block
// (of more than one thread) that no thread loop of the nest rooted at l
// uses, or nil.
func (c *spmd) idleGuard(l *ir.For) ir.Expr {
	used := [3]bool{}
	ir.WalkStmt(l, func(x ir.Stmt) bool {
		if t, ok := x.(*ir.For); ok && t.Kind == ir.GPUThread {
			used[c.dims[t.Name]] = true
		}
		return true
	}, nil)
	var cond ir.Expr
	for d := 0; d < 3; d++ {
		if used[d] || c.block[d] == 1 {
			continue
		}
		cond = and(cond, ir.Bin(ir.EQ, v(ir.ThreadID[d]), ir.Int(0)))
	}
	return cond
}

// sharedProducedIn names the first Func produced in s (the shared Func
// whose barriers s contains).
func sharedProducedIn(s ir.Stmt) string {
	name := ""
	ir.WalkStmt(s, func(x ir.Stmt) bool {
		if pc, ok := x.(*ir.ProducerConsumer); ok && pc.Producer && name == "" {
			name = pc.Func
		}
		return name == ""
	}, nil)
	return name
}

// pushGuards rewrites every thread-dependent if that contains a barrier or
// a cooperative production (collective) so that those run on every
// thread: the guard wraps the work between them instead.
func (c *spmd) pushGuards(s ir.Stmt) ir.Stmt {
	switch x := s.(type) {
	case *ir.IfThenElse:
		if c.collective(x) && c.threadDependent(x.Cond) {
			then := c.guard(x.Cond, x.Then)
			if x.Else == nil {
				return then
			}
			return ir.MakeBlock(then, c.guard(&ir.Not{X: x.Cond}, x.Else))
		}
	}
	return ir.MapStmt(s, c.pushGuards, nil)
}

// guard returns `if (cond) s` with the guard pushed below the barriers of s.
func (c *spmd) guard(cond ir.Expr, s ir.Stmt) ir.Stmt {
	if s == nil {
		return nil
	}
	if !c.collective(s) {
		return &ir.IfThenElse{Cond: cond, Then: s}
	}
	switch x := s.(type) {
	case *ir.Barrier:
		return x
	case *ir.Block:
		var out []ir.Stmt
		var work []ir.Stmt
		flush := func() {
			if len(work) > 0 {
				out = append(out, &ir.IfThenElse{Cond: cond, Then: ir.MakeBlock(work...)})
				work = nil
			}
		}
		for _, y := range x.Stmts {
			if c.collective(y) {
				flush()
				out = append(out, c.guard(cond, y))
			} else {
				work = append(work, y)
			}
		}
		flush()
		return ir.MakeBlock(out...)
	case *ir.LetStmt:
		value := x.Value
		if hasLoad(value) {
			// Threads the guard excludes must not load out of range.
			value = &ir.Select{Cond: cond, True: value, False: ir.IntConst(value.Type(), 0)}
		}
		body := c.guard(cond, x.Body)
		return ir.Edit(x, value != x.Value || body != x.Body, func(l *ir.LetStmt) { l.Value, l.Body = value, body })
	case *ir.For:
		if c.shares.is(x.Name) {
			// A cooperative production: every thread takes its share,
			// whatever guard the consumer's thread is under.
			return x
		}
		if c.threadDependent(x.Min) || c.threadDependent(x.Extent) {
			if c.err == nil {
				c.err = ir.Errorf(ir.ErrSchedule, loopFunc(x.Name), "compute_at", "the serial loop %s contains a barrier but its bounds depend on the thread", x.Name)
			}
			return s
		}
		return ir.WithBody(x, c.guard(cond, x.Body))
	case *ir.ProducerConsumer:
		return ir.WithBody(x, c.guard(cond, x.Body))
	case *ir.Allocate:
		return ir.WithBody(x, c.guard(cond, x.Body))
	case *ir.IfThenElse:
		if !c.threadDependent(x.Cond) {
			// The same branch for every thread: keep it, guard inside.
			return ir.MapStmt(x, func(y ir.Stmt) ir.Stmt { return c.guard(cond, y) }, nil)
		}
		then := c.guard(ir.AndE(cond, x.Cond), x.Then)
		if x.Else == nil {
			return then
		}
		return ir.MakeBlock(then, c.guard(ir.AndE(cond, &ir.Not{X: x.Cond}), x.Else))
	}
	if c.err == nil {
		c.err = &ir.Error{Code: ir.ErrInternal, Directive: "gpu_thread_loops", Msg: fmt.Sprintf("cannot move a barrier out of a %T", s)}
	}
	return s
}

// collective reports whether every thread of the block must run s: it
// contains a barrier, a warp shuffle or a cooperative production (gpu_cooperative).
func (c *spmd) collective(s ir.Stmt) bool {
	return ir.ContainsStmt(s, func(x ir.Stmt) bool {
		switch x := x.(type) {
		case *ir.Barrier:
			return true
		case *ir.LetStmt:
			return ir.IsShuffle(x.Value) // a warp shuffle (gpu_thread_reduce)
		case *ir.For:
			return c.shares.is(x.Name)
		}
		return false
	})
}

func hasLoad(e ir.Expr) bool {
	return ir.ContainsExpr(e, func(x ir.Expr) bool {
		_, ok := x.(*ir.Load)
		return ok
	})
}
