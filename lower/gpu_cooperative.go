package lower

// gpu_cooperative: make the block's threads produce a shared Func
// together. A Func stored in GPU shared memory holds one copy per block
// (allocation_bounds sized it as the union over the block's threads), so
// when its production has no thread loops of its own, every thread would
// compute all of it. This pass flattens the outer loops of each stage's
// production over the Func's pure vars into one index and deals the points
// out to the threads: thread t computes points t, t + T, t + 2T, ... (T
// threads per block), each point once. gpu_barriers then puts a barrier
// between the production and its consumers.
//
// Before: storage_flattening (flat stores), simplify, gpu_block_size (the
// block the production is dealt out to). After: no shared
// production inside a kernel lacks thread loops.

import (
	"fmt"
	"strings"

	"github.com/gohalide/gohalide/bounds"
	"github.com/gohalide/gohalide/ir"
)

func gpuCooperative(st *State) error {
	var coopErr error
	s, err := forEachKernel(st.Stmt, func(k *ir.For) (ir.Stmt, error) {
		block := st.kernels[k.Name]
		shares := shareLoops{}
		shared, registers := map[string]bool{}, map[string]bool{}
		ir.WalkStmt(k, func(x ir.Stmt) bool {
			if a, ok := x.(*ir.Allocate); ok {
				shared[a.Name] = a.Memory == ir.GPUShared
				// Any other allocation inside a kernel is one copy per
				// thread: registers, and Stack or Heap scratch alike.
				registers[a.Name] = a.Memory != ir.GPUShared && !a.InGlobal
				// The buffers of a Tuple Func's values (f.0, f.1) share
				// its memory; its production is found by the Func's name.
				shared[ir.TupleBase(a.Name)] = shared[a.Name]
			}
			return true
		}, nil)
		lv := newLetValues()
		out := walkWithLets(k, lv, func(x ir.Stmt) ir.Stmt {
			pc, ok := x.(*ir.ProducerConsumer)
			if ok && pc.Producer && shared[pc.Func] && !hasThreadLoop(pc.Body) {
				if inner := nestedShared(pc.Body); inner != "" && coopErr == nil {
					coopErr = ir.Errorf(ir.ErrSchedule, inner, "compute_at", "%s is stored in GPU shared memory and computed inside the production of %s, which the block's threads share out point by point (%s has no thread loops of its own), so the threads would overwrite each other's %s", inner, pc.Func, pc.Func, inner).
						WithLegal("compute %s outside the production of %s (for example at the same block loop as %s), store it in registers, or give %s its own gpu_threads", inner, pc.Func, pc.Func, pc.Func)
					return x
				}
				if reg := outerRegisterRead(pc.Body, registers); reg != "" && coopErr == nil {
					coopErr = ir.Errorf(ir.ErrSchedule, pc.Func, "store_in(GPUShared)", "%s is stored in GPU shared memory and produced by all the block's threads together, but it reads %s, which is per thread (registers, or a thread's own Stack or Heap copy): each thread holds its own %s, so the threads would compute %s from each other's data", pc.Func, reg, reg, pc.Func).
						WithLegal("store %s in GPUShared, compute %s inside the production of %s (compute_at one of %s's loops), or store %s in registers", reg, reg, pc.Func, pc.Func, pc.Func)
					return x
				}
				f := st.Funcs[pc.Func]
				body, single := distributeStages(f, pc.Body, block, lv, shares)
				text := fmt.Sprintf("%s: one copy per block, produced by the block's %s threads together", pc.Func, ir.ExprString(block.ThreadsExpr()))
				if len(single) > 0 {
					text += fmt.Sprintf("; %s on the first thread only (nothing to deal out)", strings.Join(single, ", "))
					rec := *st.kernels[k.Name]
					rec.SingleThread = append(append([]string(nil), rec.SingleThread...), single...)
					st.kernels[k.Name] = &rec
				}
				note := &ir.Comment{Text: text}
				return &ir.ProducerConsumer{Func: pc.Func, Producer: true, Body: ir.MakeBlock(note, body)}
			}
			return x
		})
		if len(shares) > 0 {
			// The record, with the share loops (the copies an unrolled
			// host loop made of one kernel add to one record).
			rec := *st.kernels[k.Name]
			rec.Shares = map[string]ir.ShareLoop{}
			for n, l := range st.kernels[k.Name].Shares {
				rec.Shares[n] = l
			}
			for n, l := range shares {
				rec.Shares[n] = l
			}
			st.kernels[k.Name] = &rec
		}
		return out, nil
	})
	if err != nil {
		return err
	}
	if coopErr != nil {
		return coopErr
	}
	// The invariant is checked on every lowering, not only under Verify:
	// breaking it would be a wrong answer. The schedules that break it
	// compute a shared Func inside the thread loops where its region (or
	// a value it stores) depends on the thread through something the
	// schedule put there, per-thread data such as a Func in registers or a
	// fused loop of one thread's points (random programs found these); no
	// cooperative production can fill one copy for all the threads, so
	// the schedule is refused, naming the Func and what it depends on.
	if err := verifyCooperative(s, st.shareLoops()); err != nil {
		ce, ok := err.(*coopError)
		if !ok {
			return &ir.Error{Code: ir.ErrInternal, Directive: "gpu_cooperative", Msg: "compiler bug in pass gpu_cooperative: " + err.Error()}
		}
		f := ir.TupleBase(ce.store.Buf)
		return ir.Errorf(ir.ErrSchedule, f, "store_in(GPUShared)", "%s is stored in GPU shared memory and produced by the block's threads together, but what it stores depends on the thread through %s (%s), so the threads would fill the block's one copy each with its own region", f, ce.through, ce.Error()).
			WithLegal("compute %s at the block level (outside the thread loops), compute what it reads per thread outside it, or store %s per thread (Register or Heap)", f, f)
	}
	st.Stmt = s
	return nil
}

// outerRegisterRead names a register buffer (one copy per thread) that s
// reads but does not allocate, or "". A production dealt out to the
// threads must not read one: thread t computes points for other threads
// too, from its own copy.
func outerRegisterRead(s ir.Stmt, registers map[string]bool) string {
	inside := map[string]bool{}
	ir.WalkStmt(s, func(x ir.Stmt) bool {
		if a, ok := x.(*ir.Allocate); ok {
			inside[a.Name] = true
		}
		return true
	}, nil)
	reads, _ := ir.Accesses(s)
	for _, name := range sortedKeys(reads) {
		if registers[name] && !inside[name] {
			return name
		}
	}
	return ""
}

// nestedShared names a Func stored in GPU shared memory whose storage is
// allocated inside s, or "".
func nestedShared(s ir.Stmt) string {
	name := ""
	ir.WalkStmt(s, func(x ir.Stmt) bool {
		if a, ok := x.(*ir.Allocate); ok && a.Memory == ir.GPUShared && name == "" {
			name = ir.TupleBase(a.Name)
		}
		return name == ""
	}, nil)
	return name
}

func hasThreadLoop(s ir.Stmt) bool {
	found := false
	ir.WalkStmt(s, func(x ir.Stmt) bool {
		if l, ok := x.(*ir.For); ok && l.Kind == ir.GPUThread {
			found = true
		}
		return !found
	}, nil)
	return found
}

// distributeStages distributes each stage of a production (the produce
// body is one statement per stage, or a Block of them). It also returns
// the stages that run on the block's first thread only.
func distributeStages(f *ir.Function, s ir.Stmt, block *ir.Kernel, lv letValues, shares shareLoops) (ir.Stmt, []string) {
	stmts := []ir.Stmt{s}
	if b, ok := s.(*ir.Block); ok {
		stmts = b.Stmts
	}
	out := make([]ir.Stmt, len(stmts))
	var single []string
	for i, x := range stmts {
		var one bool
		out[i], one = distributeNest(f, x, block, lv, shares)
		if one {
			single = append(single, stageOf(f, x))
		}
	}
	return ir.MakeBlock(out...), single
}

// isPureLoop reports whether loop name belongs to f and iterates over (a
// split of) one of f's pure vars.
func isPureLoop(f *ir.Function, name string) bool {
	if loopFunc(name) != f.Name {
		return false
	}
	t := trimLoop(name)
	root := t
	if i := strings.Index(t, "."); i >= 0 {
		root = t[:i]
	}
	for _, d := range f.Stages() {
		if isRVarName(d, t) {
			// A pure var fused with an RVar (Fuse in an update) is an
			// RVar loop: its iterations reduce into shared points.
			return false
		}
	}
	for _, a := range f.Args {
		if a == root {
			return true
		}
	}
	return false
}

// distributeNest flattens the outer chain of pure-var loops of one stage
// (lets between them are kept, in order) and deals the flat index out to
// the threads.
func distributeNest(f *ir.Function, s ir.Stmt, block *ir.Kernel, lv letValues, shares shareLoops) (ir.Stmt, bool) {
	type link struct {
		loop *ir.For
		let  *ir.LetStmt
	}
	var chain []link
	var outer []*ir.LetStmt // lets before the first loop stay outside
	defined := map[string]bool{}
	cur := s
	for {
		switch x := cur.(type) {
		case *ir.For:
			usesChain := ir.UsesAny(x.Min, func(n string) bool { return defined[n] }) ||
				ir.UsesAny(x.Extent, func(n string) bool { return defined[n] })
			// A vectorized loop stays whole inside the body: each thread
			// produces its lanes together, so that vector_access can
			// load and store them as one vector.
			if !isPureLoop(f, x.Name) || usesChain || x.Kind == ir.Parallel || x.Kind == ir.Vectorized {
				goto done
			}
			chain = append(chain, link{loop: x})
			defined[x.Name] = true
			cur = x.Body
			continue
		case *ir.LetStmt:
			if len(chain) == 0 {
				outer = append(outer, x)
				cur = x.Body
				continue
			}
			chain = append(chain, link{let: x})
			defined[x.Name] = true
			cur = x.Body
			continue
		}
		break
	}
done:
	// Drop trailing lets: they stay in the body.
	for len(chain) > 0 && chain[len(chain)-1].loop == nil {
		cur = chain[len(chain)-1].let
		chain = chain[:len(chain)-1]
	}
	if len(chain) == 0 {
		// Nothing to deal out (a scatter, or an RVar loop outermost): the
		// stage runs once, on the block's first thread, and every thread
		// reaches it as a one-round share loop (so no consumer's guard
		// can keep the first thread out).
		coop := stageOf(f, s) + ".__share"
		shares[coop] = ir.ShareLoop{Func: f.Name}
		return &ir.For{Name: coop, Min: ir.Int(0), Extent: ir.Int(1), Kind: ir.Serial,
			Body: &ir.IfThenElse{Cond: ir.Bin(ir.EQ, block.LinearThreadID(), ir.Int(0)), Then: s}}, true
	}
	wrapOuter := func(body ir.Stmt) ir.Stmt {
		for i := len(outer) - 1; i >= 0; i-- {
			body = &ir.LetStmt{Name: outer[i].Name, Value: outer[i].Value, Body: body}
		}
		return body
	}
	var loops []*ir.For
	for _, c := range chain {
		if c.loop != nil {
			loops = append(loops, c.loop)
		}
	}
	// A loop's extent may vary between iterations of the enclosing loops
	// while having a constant bound (the region's width at a tail): the
	// flat index then uses the bound, so dividing it out is by constants,
	// and a guard skips the points past each loop's real end.
	nthreads := block.ThreadsExpr()
	var guard ir.Expr
	exts := make([]ir.Expr, len(loops))
	for i, l := range loops {
		exts[i] = l.Extent
		if ir.IsConst(l.Extent) {
			continue
		}
		// An empty region (a guarded-off tail iteration) may have a
		// negative extent; two of them must not multiply into a positive
		// count of points.
		exts[i] = ir.Simplify(nonNegative(l.Extent))
		if c, ok := bounds.ConstantUpperBound(lv.resolve(l.Extent), nil); ok && c > 0 {
			exts[i] = ir.Int(c)
			if ir.CanProve(ir.Bin(ir.EQ, lv.resolve(l.Extent), ir.Int(c))) {
				continue
			}
			g := ir.LTE(ir.SubE(v(l.Name), l.Min), l.Extent)
			guard = and(guard, g)
		}
	}
	total := ir.Expr(ir.Int(1))
	for _, e := range exts {
		total = ir.Simplify(ir.MulE(total, e))
	}
	prefix := stageOf(f, loops[0])
	idx := prefix + ".__index"
	// Rebuild the chain inside out: each loop var from the flat index.
	body := cur
	stride := ir.Expr(ir.Int(1))
	strides := make([]ir.Expr, len(loops))
	for i := len(loops) - 1; i >= 0; i-- {
		strides[i] = stride
		stride = ir.Simplify(ir.MulE(stride, exts[i]))
	}
	if guard != nil {
		body = &ir.IfThenElse{Cond: ir.Simplify(guard), Then: body}
	}
	li := len(loops) - 1
	for i := len(chain) - 1; i >= 0; i-- {
		c := chain[i]
		if c.let != nil {
			body = &ir.LetStmt{Name: c.let.Name, Value: c.let.Value, Body: body}
			continue
		}
		l := c.loop
		q := ir.DivE(v(idx), strides[li])
		if i > 0 {
			q = ir.ModE(q, exts[li])
		}
		body = &ir.LetStmt{Name: l.Name, Value: ir.Simplify(ir.AddE(l.Min, q)), Body: body}
		li--
	}
	coop := prefix + ".__share"
	shares[coop] = ir.ShareLoop{Func: f.Name, Index: idx}
	return wrapOuter(&ir.For{Name: coop, Min: ir.Int(0), Extent: ir.Simplify(ir.DivE(ir.AddE(total, ir.SubE(nthreads, ir.Int(1))), nthreads)), Kind: ir.Serial,
		Body: &ir.LetStmt{Name: idx, Value: ir.Simplify(ir.AddE(ir.MulE(v(coop), nthreads), block.LinearThreadID())),
			Body: &ir.IfThenElse{Cond: ir.LTE(v(idx), total), Then: body}}}), false
}

// stageOf returns the prefix "f.sK" of the stage whose loop nest s is: the
// name of its first loop, or of the first store's stage when it has none.
func stageOf(f *ir.Function, s ir.Stmt) string {
	name := ""
	ir.WalkStmt(s, func(x ir.Stmt) bool {
		if l, ok := x.(*ir.For); ok && name == "" && loopFunc(l.Name) == f.Name {
			name = l.Name
		}
		return name == ""
	}, nil)
	if name == "" {
		return f.Name + ".s0"
	}
	rest := name[len(f.Name)+2:] // "K.x..." of "f.sK.x..."
	if i := strings.Index(rest, "."); i >= 0 {
		rest = rest[:i]
	}
	return f.Name + ".s" + rest
}
