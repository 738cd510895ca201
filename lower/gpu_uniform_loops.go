package lower

// gpu_uniform_loops: give the serial loops that enclose a shared
// production inside the thread loops (the loops around the production,
// whether or not they also enclose its storage) a block-uniform loop
// variable. Such a loop's bounds come from its Func's region at the
// thread, so its min differs between threads (prod.s1.j starts at the
// thread's column), while the block's threads must run its iterations
// together: each iteration produces one shared copy for all of them, with
// barriers. The loop
//
//	for (f.s1.j, f.s1.j.min, e) body
//
// becomes
//
//	for (f.s1.j.__it, 0, e) { let f.s1.j = f.s1.j.min + f.s1.j.__it; body }
//
// so the iteration number is a variable every thread agrees on, and
// bounds_inference can take the union of the region over the block's
// threads at one iteration (the thread-dependent min ranges, the
// iteration stays symbolic). A loop whose extent depends on the thread is
// rejected later (gpu_thread_loops), since its barriers would diverge.
//
// Before: gpu_memory (which realizations are shared). After: no serial
// loop between a thread loop and a shared production has a min other
// than zero.

import "github.com/gohalide/gohalide/ir"

// uniformSuffix names the iteration variable of a normalized loop.
const uniformSuffix = ".__it"

func gpuUniformLoops(st *State) error {
	shared := map[string]bool{}
	ir.WalkStmt(st.Stmt, func(x ir.Stmt) bool {
		if r, ok := x.(*ir.Realize); ok && r.Memory == ir.GPUShared {
			shared[r.Func] = true
		}
		return true
	}, nil)
	var mut func(s ir.Stmt, inThreads bool) ir.Stmt
	mut = func(s ir.Stmt, inThreads bool) ir.Stmt {
		l, ok := s.(*ir.For)
		if !ok {
			return ir.MapStmt(s, func(x ir.Stmt) ir.Stmt { return mut(x, inThreads) }, nil)
		}
		if l.Kind == ir.GPUThread {
			return ir.WithBody(l, mut(l.Body, true))
		}
		body := mut(l.Body, inThreads)
		if !inThreads || l.Kind == ir.GPUBlock || ir.IsConstValue(l.Min, 0) || !producesShared(body, shared) {
			return ir.WithBody(l, body)
		}
		it := l.Name + uniformSuffix
		return &ir.For{Name: it, Min: ir.Int(0), Extent: l.Extent, Kind: l.Kind,
			Body: &ir.LetStmt{Name: l.Name, Value: ir.AddE(l.Min, v(it)), Body: body}}
	}
	st.Stmt = mut(st.Stmt, false)
	return nil
}

// producesShared reports whether s produces a Func stored in GPU shared
// memory (its storage may be outside s, at a store_at level).
func producesShared(s ir.Stmt, shared map[string]bool) bool {
	return ir.ContainsStmt(s, func(x ir.Stmt) bool {
		pc, ok := x.(*ir.ProducerConsumer)
		return ok && pc.Producer && shared[pc.Func]
	})
}
