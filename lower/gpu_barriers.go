package lower

// gpu_barriers: put barriers where the threads of a block share data. In
// each sequence of statements of a kernel, a barrier goes before the first
// statement that reads a buffer other threads may have written since the
// last barrier (read after write), writes one other threads may still be
// reading (write after read), or produces again a buffer written since
// the last barrier, with nothing read in between (write after write: a
// later stage of a Func with updates must land last, and two productions
// of one shared copy deal its points out to the threads differently; a
// production seen from outside a thread loop counts too). At the block level (outside thread loops)
// that covers every shared buffer and every global buffer; inside thread
// loops, where each thread works on its own data, only the shared Funcs
// the block produces together. A serial loop whose body has barriers gets
// one more at the end of its body when the next iteration would otherwise
// overwrite what this one still reads. A barrier separates what comes
// before it from what comes after only on the paths that run it: one in
// a loop that may run no iteration, or in one branch of an if, separates
// nothing for the statements around. Nothing shared, no barrier. A
// barrier already in the body (the pass run again on its own output)
// separates as one it would place, so nothing is added twice.
//
// Before: gpu_cooperative (thread loops still explicit). After: every
// cross-thread hazard within a block is separated by an ir.Barrier.

import (
	"fmt"
	"strings"

	"github.com/gohalide/gohalide/ir"
)

func gpuBarriers(st *State) error {
	s, err := forEachKernel(st.Stmt, func(k *ir.For) (ir.Stmt, error) {
		if st.kernels[k.Name].Threads() == 1 {
			return k, nil // one thread per block shares with no one
		}
		b := &barrierer{shared: map[string]bool{}, local: map[string]bool{}, together: map[string]bool{}, stages: map[string]int{}, shares: st.kernels[k.Name].Shares}
		for name, f := range st.Funcs {
			b.stages[name] = len(f.Stages())
		}
		ir.WalkStmt(k, func(x ir.Stmt) bool {
			switch x := x.(type) {
			case *ir.Allocate:
				if x.Memory == ir.GPUShared {
					b.shared[x.Name] = true
				} else {
					b.local[x.Name] = true
				}
			case *ir.ProducerConsumer:
				// A production gpu_cooperative dealt out to the threads: even
				// inside thread loops, other threads write it.
				if x.Producer && b.hasShareLoop(x.Body, x.Func) {
					b.together[x.Func] = true
				}
			}
			return true
		}, nil)
		body, _ := b.visit(innermostBlockBody(k), false)
		return replaceInnermostBlockBody(k, body), nil
	})
	if err != nil {
		return err
	}
	st.Stmt = s
	return nil
}

func innermostBlockBody(k *ir.For) ir.Stmt {
	for {
		inner, ok := k.Body.(*ir.For)
		if !ok || inner.Kind != ir.GPUBlock {
			return k.Body
		}
		k = inner
	}
}

func replaceInnermostBlockBody(k *ir.For, body ir.Stmt) ir.Stmt {
	if inner, ok := k.Body.(*ir.For); ok && inner.Kind == ir.GPUBlock {
		body = replaceInnermostBlockBody(inner, body)
	}
	return ir.WithBody(k, body)
}

// hasShareLoop reports whether s has a loop of f's that gpu_cooperative
// dealt out to the threads.
func (b *barrierer) hasShareLoop(s ir.Stmt, f string) bool {
	return ir.ContainsStmt(s, func(x ir.Stmt) bool {
		l, ok := x.(*ir.For)
		return ok && b.shares.is(l.Name) && b.shares[l.Name].Func == f
	})
}

type barrierer struct {
	// stagesOf is the Func whose production's body is visited next (its
	// statements are the Func's stages); "" elsewhere.
	stagesOf string
	stages   map[string]int  // the number of stages of each Func
	shared   map[string]bool // the kernel's GPUShared allocations
	local    map[string]bool // the kernel's per-thread allocations
	together map[string]bool // Funcs produced by gpu_cooperative's shared-out loops
	shares   shareLoops      // the kernel's cooperative productions (gpu_cooperative)
	conds    int             // the conditions bound to lets so far (visit's IfThenElse)
}

// accessSet is the buffers read and written by some statements, and those
// of them written by a production (produce f) of their own.
type accessSet struct{ reads, writes, produced map[string]bool }

func newAccessSet() accessSet {
	return accessSet{map[string]bool{}, map[string]bool{}, map[string]bool{}}
}

func (a accessSet) add(b accessSet) accessSet {
	c := newAccessSet()
	for _, p := range [][2]map[string]bool{{a.reads, c.reads}, {b.reads, c.reads}, {a.writes, c.writes}, {b.writes, c.writes}, {a.produced, c.produced}, {b.produced, c.produced}} {
		for k := range p[0] {
			p[1][k] = true
		}
	}
	return c
}

// markProduced records the buffers of Func f that a holds writes of
// (f's, or each of a Tuple Func's values, f.0, f.1, ...) as produced.
func (a accessSet) markProduced(f string) {
	for k := range a.writes {
		if k == f || ir.TupleBase(k) == f {
			a.produced[k] = true
		}
	}
}

// hazards returns the buffers through which later accesses b conflict with
// earlier accesses a of other threads: read after write, write after read,
// and a new production of a buffer written before (two productions of one
// shared copy with nothing read between them, say the unrolled copies of
// its compute loop whose consumers a tail guard emptied: which thread's
// value stays would be a race). Writes within one production are to
// distinct points and need no barrier between them.
func hazards(a, b accessSet) []string {
	m := map[string]bool{}
	for k := range b.reads {
		if a.writes[k] {
			m[k] = true
		}
	}
	for k := range b.writes {
		if a.reads[k] || (b.produced[k] && a.writes[k]) {
			m[k] = true
		}
	}
	return sortedKeys(m)
}

// summary describes a statement for barrier placement: the accesses before
// its first barrier (entry), after its last one (exit), and whether it has
// a barrier at all (if not, entry and exit are all its accesses).
type summary struct {
	entry, exit accessSet
	barrier     bool
}

// tracked returns the accesses of a statement, seen as a whole, that other
// threads of the block may see. A buffer it writes in a production of its
// own (a thread loop at the block level around a cooperative production,
// say) is marked produced, as visit marks it, so that a production met
// again after it, in the next statement or the next iteration of a loop
// around, is a write after write even when nothing read it in between.
func (b *barrierer) tracked(s ir.Stmt, inThreads bool) accessSet {
	r, w := ir.Accesses(s)
	out := newAccessSet()
	keep := func(buf string) bool {
		if inThreads {
			return b.shared[buf] && b.together[ir.TupleBase(buf)]
		}
		return !b.local[buf]
	}
	for k := range r {
		if keep(k) {
			out.reads[k] = true
		}
	}
	for k := range w {
		if keep(k) {
			out.writes[k] = true
		}
	}
	ir.WalkStmt(s, func(x ir.Stmt) bool {
		if pc, ok := x.(*ir.ProducerConsumer); ok && pc.Producer && out.writes[pc.Func] {
			out.produced[pc.Func] = true
		}
		return true
	}, nil)
	return out
}

func (b *barrierer) barrier(bufs []string, why string) *ir.Barrier {
	fence := 0
	for _, buf := range bufs {
		if b.shared[buf] {
			fence |= ir.FenceShared
		} else {
			fence |= ir.FenceDevice
		}
	}
	return &ir.Barrier{Fence: fence, Reason: why}
}

func (b *barrierer) visit(s ir.Stmt, inThreads bool) (ir.Stmt, summary) {
	switch x := s.(type) {
	case *ir.Block:
		var out []ir.Stmt
		pending, entry := newAccessSet(), newAccessSet()
		synced := false
		// The statements of a production's body are its stages; a later
		// stage writing points an earlier one wrote is a new production
		// of them, whose threads may differ (write after write).
		stages := b.stagesOf
		b.stagesOf = ""
		for _, c := range x.Stmts {
			c, cs := b.visit(c, inThreads)
			if stages != "" {
				cs.entry.markProduced(stages)
			}
			if bufs := hazards(pending, cs.entry); len(bufs) > 0 {
				out = append(out, b.barrier(bufs, describe(pending, bufs)))
				pending, synced = newAccessSet(), true
			}
			if !synced {
				entry = entry.add(cs.entry)
			}
			if cs.barrier {
				synced, pending = true, cs.exit
			} else {
				pending = pending.add(cs.entry)
			}
			out = append(out, c)
		}
		return ir.SameBlock(x, out), summary{entry, pending, synced}
	case *ir.For:
		if b.shares.is(x.Name) {
			// A cooperative production: each thread computes its own
			// points, so nothing inside needs a barrier (and one there
			// would diverge); seen from outside, the loop touches what
			// the block's threads touch.
			a := b.tracked(x, inThreads)
			return x, summary{a, a, false}
		}
		if x.Kind == ir.GPUThread {
			// Inside, each thread works on its own data; seen from outside,
			// the whole nest touches what the block's threads touch.
			body, bs := b.visit(x.Body, true)
			loop := ir.WithBody(x, body)
			if inThreads {
				return loop, bs
			}
			a := b.tracked(loop, false)
			return loop, summary{a, a, bs.barrier}
		}
		body, bs := b.visit(x.Body, inThreads)
		// The next iteration meets what this one did after its last
		// barrier, or all of it when the body has none (say a shared Func
		// produced again at each iteration, whose consumer reads nothing
		// of it: two productions of one copy, by different threads).
		if bufs := hazards(bs.exit, bs.entry); len(bufs) > 0 {
			body = ir.MakeBlock(body, b.barrier(bufs, loopCarried(x, bs.exit, bufs)))
			bs = summary{bs.entry, newAccessSet(), true}
		}
		if bs.barrier {
			if !runsOnce(x) {
				// The loop may run no iteration, and then no barrier:
				// what came before may meet what comes after.
				bs = unsynced(bs)
			}
		}
		return ir.WithBody(x, body), bs
	case *ir.LetStmt:
		body, bs := b.visit(x.Body, inThreads)
		// The value is read before the body runs (a Tuple Func's
		// values are bound by lets before its stores).
		va := b.tracked(&ir.Evaluate{X: x.Value}, inThreads)
		if len(va.reads) == 0 && len(va.writes) == 0 {
			return ir.WithBody(x, body), bs
		}
		if bufs := hazards(va, bs.entry); len(bufs) > 0 {
			body = ir.MakeBlock(b.barrier(bufs, describe(va, bufs)), body)
			return ir.WithBody(x, body), summary{va, bs.exit, true}
		}
		exit := bs.exit
		if !bs.barrier {
			exit = va.add(bs.exit)
		}
		return ir.WithBody(x, body), summary{va.add(bs.entry), exit, bs.barrier}
	case *ir.Allocate:
		body, bs := b.visit(x.Body, inThreads)
		return ir.WithBody(x, body), bs
	case *ir.ProducerConsumer:
		if x.Producer && b.stages[x.Func] > 1 {
			b.stagesOf = x.Func
		}
		body, bs := b.visit(x.Body, inThreads)
		b.stagesOf = ""
		if x.Producer {
			bs.entry.markProduced(x.Func)
		}
		return ir.WithBody(x, body), bs
	case *ir.IfThenElse:
		if ca := b.tracked(&ir.Evaluate{X: x.Cond}, inThreads); len(ca.reads) > 0 || len(ca.writes) > 0 {
			// The condition reads memory (an RDom's Where condition, an
			// Undef arm's, reading a shared Func): it is read before
			// either branch, where a barrier could diverge. Bound to a
			// let, it is read before the if, and the LetStmt case puts
			// a barrier between it and what it must follow or precede.
			name := fmt.Sprintf("gpu_barriers.cond%d", b.conds)
			b.conds++
			v := &ir.Var{T: x.Cond.Type(), Name: name}
			return b.visit(&ir.LetStmt{Name: name, Value: x.Cond, Body: &ir.IfThenElse{Cond: v, Then: x.Then, Else: x.Else}}, inThreads)
		}
		t, ts := b.visit(x.Then, inThreads)
		es := summary{newAccessSet(), newAccessSet(), false}
		var e ir.Stmt
		if x.Else != nil {
			e, es = b.visit(x.Else, inThreads)
		}
		out := ir.Edit(x, t != x.Then || e != x.Else, func(c *ir.IfThenElse) { c.Then, c.Else = t, e })
		if ts.barrier && es.barrier {
			return out, summary{ts.entry.add(es.entry), ts.exit.add(es.exit), true}
		}
		// A path without a barrier: what came before may meet what
		// comes after (the other branch's barriers count for nothing).
		return out, unsynced(summary{ts.entry.add(es.entry), ts.exit.add(es.exit), false})
	case *ir.Barrier:
		// One already there (the pass run again on its own output)
		// separates what comes before from what comes after, as one
		// placed here would.
		return x, summary{newAccessSet(), newAccessSet(), true}
	}
	a := b.tracked(s, inThreads)
	return s, summary{a, a, false}
}

// loopCarried explains a barrier at the end of loop l's body: the next
// iteration's accesses of bufs meet this one's (exit).
func loopCarried(l *ir.For, exit accessSet, bufs []string) string {
	loop := trimLoop(l.Name)
	return reason(bufs, func(buf string) bool { return !exit.reads[buf] },
		func(w string) string {
			return fmt.Sprintf("the next iteration of %s touches %s, which other threads just wrote", loop, w)
		},
		func(r string) string {
			return fmt.Sprintf("the next iteration of %s overwrites %s, which other threads still read", loop, r)
		},
		func(w, r string) string {
			return fmt.Sprintf("the next iteration of %s touches %s, which other threads just wrote, and overwrites %s, which they still read", loop, w, r)
		})
}

// runsOnce reports whether loop l provably runs at least one iteration.
func runsOnce(l *ir.For) bool {
	n, ok := ir.AsInt(ir.Simplify(l.Extent))
	return ok && n >= 1 || ir.CanProve(ir.LEE(ir.Int(1), l.Extent))
}

// unsynced is s seen by a path that may skip its barriers: every access
// both at the entry and at the exit, and no barrier.
func unsynced(s summary) summary {
	all := s.entry.add(s.exit)
	return summary{all, all, false}
}

// describe explains a barrier before accesses of bufs that meet the
// earlier accesses pending.
func describe(pending accessSet, bufs []string) string {
	return reason(bufs, func(buf string) bool { return pending.writes[buf] },
		func(w string) string { return w + " was just written by other threads of the block" },
		func(r string) string { return r + " may still be read by other threads of the block" },
		func(w, r string) string {
			return w + " was just written, and " + r + " may still be read, by other threads of the block"
		})
}

// reason is the reason for a barrier over bufs, those for which written
// holds written before it and the others read: onlyWritten, onlyRead or
// both of the lists of each.
func reason(bufs []string, written func(string) bool, onlyWritten, onlyRead func(string) string, both func(w, r string) string) string {
	var w, r []string
	for _, buf := range bufs {
		if written(buf) {
			w = append(w, buf)
		} else {
			r = append(r, buf)
		}
	}
	switch {
	case len(r) == 0:
		return onlyWritten(strings.Join(w, ", "))
	case len(w) == 0:
		return onlyRead(strings.Join(r, ", "))
	}
	return both(strings.Join(w, ", "), strings.Join(r, ", "))
}
