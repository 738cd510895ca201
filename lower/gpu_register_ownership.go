package lower

// gpu_register_ownership: accept a Func stored in registers at the block
// level (computed between the block and thread loops, store_in(Register))
// when every thread reads back only what it wrote itself, as in Halide, and
// give it per-thread storage. Each thread of the block runs the Func's
// thread loops for its own thread index and keeps the points it computes in
// its own register array; then the consumers' threads read it. That is
// right only when every point a thread reads was computed by the same
// thread (same thread indices). The pass proves it with the simplifier:
//
//   - The pure stage's store f(a_0, ...) under its thread loops must split,
//     in each dimension d, into a_d = c*t + r: one thread loop var t (thread
//     index t - m, m its min) with a constant stride c > 0, and a rest r
//     that ranges over the stage's other loops within [lo, lo + w) with
//     w <= c. Thread T then owns the points c*(m + T) + [lo, lo + w) and no
//     other thread owns them. A dimension without a thread var is owned
//     whole ([lo, lo + w)). A block dimension the stage's thread loops do
//     not use: when the thread loop nest around the stage (its outermost
//     thread loop and all the thread loops inside it) uses it, every
//     thread along it runs the stage and keeps its own copy; otherwise
//     only the block's thread 0 along it runs the stage (gpu_thread_loops'
//     idle guard, or a block-level store), and every access must provably
//     run on thread 0 along it. An access runs on every thread along a
//     dimension its nest uses but none of its own loops binds.
//   - Every other access, at thread indices T (the consumers' reads, an
//     update's stores and reads), must fall within T's points:
//     0 <= a_d - c*(m + T) - lo <= w - 1, proven over the access's own
//     loops with the thread indices symbolic.
//
// What cannot be proven is a schedule error naming the Func, the access
// and, where a concrete pair can be found, the two threads (conservative:
// a valid schedule the simplifier cannot see through is refused too).
// Then the pass rewrites every access to the thread's local coordinates,
// a_d - c*(m + T) - lo, so that allocation_bounds sizes the array as one
// thread's points (a constant, not the block's union) and, once
// unroll_loops has unrolled the tile, gpu_registers finds constant indices.
//
// Before: bounds_inference (the regions each stage computes), gpu_memory.
// After: every Register realization at the block level is indexed in
// per-thread local coordinates.

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gohalide/gohalide/bounds"
	"github.com/gohalide/gohalide/ir"
)

func gpuRegisterOwnership(st *State) error {
	var err error
	dimsOf := map[string]map[string]int{} // thread dims by kernel
	sc := &walkScope{lets: newRootLetValues()}
	s := walkScoped(st.Stmt, sc, func(x ir.Stmt) ir.Stmt {
		r, ok := x.(*ir.Realize)
		if !ok || err != nil || r.Memory != ir.Register {
			return x
		}
		inner, inKernel := kernelLoops(sc.loops)
		if !inKernel || hasThreadLoopIn(inner) {
			return x // registers inside the thread loops: one thread's own
		}
		var root *ir.For
		for _, l := range sc.loops {
			if l.Kind == ir.GPUBlock {
				root = l
				break
			}
		}
		dims, ok := dimsOf[root.Name]
		if !ok {
			dims = threadDims(root)
			dimsOf[root.Name] = dims
		}
		o := &ownership{st: st, f: st.Funcs[r.Func], dims: dims, lets: sc.lets}
		var body ir.Stmt
		if body, err = o.run(r.Body); err != nil {
			return x
		}
		if f := st.Funcs[r.Func]; len(f.Schedule.Bounds) > 0 {
			// A Bound fixed the region (bounds_inference has used it);
			// the storage is now in each thread's local coordinates,
			// which allocation_bounds sizes from what the body touches.
			nf := *f
			nf.Schedule.Bounds = nil
			st.Funcs[r.Func] = &nf
		}
		st.logf(3, "  gpu_register_ownership: %s is per thread\n", r.Func)
		c := *r
		c.Body = body
		return &c
	})
	if err != nil {
		return err
	}
	st.Stmt = s
	return nil
}

func hasThreadLoopIn(loops []*ir.For) bool {
	for _, l := range loops {
		if l.Kind == ir.GPUThread {
			return true
		}
	}
	return false
}

// ownership checks and rewrites the accesses of one block-level register
// Func.
type ownership struct {
	st   *State
	f    *ir.Function
	dims map[string]int // block dimension of each thread loop
	lets letValues      // the lets in scope (extended during a walk)
	own  *owner         // the pure stage's points per thread
	pure *access        // the pure stage's store
}

// access is one Provide or Call of the Func, with its scope inside the
// realization.
type access struct {
	write   bool
	stage   int       // the stage a Provide belongs to; -1 for reads outside the production
	args    []ir.Expr // as written
	res     []ir.Expr // with the lets substituted
	threads []*ir.For // enclosing thread loops inside the realization, outermost first (Min, Extent resolved)
	// nest marks the block dimensions the thread loop nest around the
	// access uses (its outermost thread loop and every thread loop in it):
	// along one the access has no loop in, every thread runs it; along
	// one the nest does not use, only thread 0 does (gpu_thread_loops'
	// idle guard).
	nest   [3]bool
	others []*ir.For // the other enclosing loops inside the realization, outermost first (resolved)
	who    string    // the stage that makes the access, for messages
}

// ownDim is how the pure stage maps dimension d of its points to threads.
type ownDim struct {
	thread string  // the thread loop var, or "" when no thread var picks the point
	bd     int     // its block dimension
	c      int64   // its stride
	m      ir.Expr // its min
	ext    ir.Expr // its extent
	rest   ir.Expr // a_d - c*t (the part the other loops pick)
	lo, w  ir.Expr // the rest ranges over [lo, lo + w)
}

// owner is the map from points to threads of the pure stage.
type owner struct {
	dims []ownDim
	used [3]bool // block dimensions the pure stage's thread loops use
	// why is set when the pure stage does not map each point to one
	// thread; the other fields are then only what could be found.
	why string
}

func (o *ownership) run(body ir.Stmt) (ir.Stmt, error) {
	// First find the pure stage's store and its map to threads, then check
	// and rewrite every access against it.
	o.walk(body, func(a *access) ([]ir.Expr, error) {
		if a.write && a.stage == 0 && o.pure == nil {
			o.pure = a
		}
		return nil, nil
	})
	if o.pure == nil {
		return body, nil // never produced here: nothing to own
	}
	o.own = o.decompose(o.pure)
	out, err := o.walk(body, o.check)
	if err == nil && o.own.why != "" {
		err = o.refuse(o.pure, o.own.why) // nothing else reads it
	}
	return out, err
}

// walk maps body, calling visit on every access of the Func with its
// scope; a non-nil result replaces the access's args.
func (o *ownership) walk(body ir.Stmt, visit func(*access) ([]ir.Expr, error)) (ir.Stmt, error) {
	var err error
	var threads, others []*ir.For
	var nest [3]bool // the dimensions of the thread loop nest around (see access)
	// Inside the Func's production: the stage whose loops enclose the
	// access (-1 outside them), and the last stage seen, for stages
	// without loops.
	cur, last := -1, -1
	inProduce := false
	stageNow := func() int {
		if cur >= 0 {
			return cur
		}
		return last + 1
	}
	who := ""
	name := o.f.Name
	lv := o.lets
	newAccess := func(write bool, args []ir.Expr, st int) *access {
		a := &access{write: write, stage: st, args: args, nest: nest,
			threads: append([]*ir.For(nil), threads...), others: append([]*ir.For(nil), others...), who: who}
		a.res = make([]ir.Expr, len(args))
		for i, e := range args {
			a.res[i] = lv.resolve(e)
		}
		if st >= 0 {
			a.who = stageName(name, st)
		}
		return a
	}
	var fe func(ir.Expr) ir.Expr
	fe = func(e ir.Expr) ir.Expr {
		if err != nil {
			return e
		}
		e = ir.MapExpr(e, fe)
		c, ok := e.(*ir.Call)
		if !ok || c.Kind != ir.CallFunc || c.Name != name {
			return e
		}
		st := -1
		if inProduce {
			st = stageNow()
		}
		var args []ir.Expr
		if args, err = visit(newAccess(false, c.Args, st)); err != nil || args == nil {
			return e
		}
		return &ir.Call{T: c.T, Kind: c.Kind, Name: c.Name, Args: args, Index: c.Index, Ref: c.Ref}
	}
	var mut func(ir.Stmt) ir.Stmt
	mut = func(s ir.Stmt) ir.Stmt {
		if err != nil {
			return s
		}
		switch x := s.(type) {
		case *ir.For:
			l := &ir.For{Name: x.Name, Min: lv.resolve(x.Min), Extent: lv.resolve(x.Extent), Kind: x.Kind}
			mn, ext := fe(x.Min), fe(x.Extent)
			undo := lv.bind(x.Name, nil)
			savedWho, savedCur := who, cur
			if k, ok := loopStage(name, x.Name); ok && inProduce {
				cur, last = k, max(last, k)
			}
			savedNest := nest
			if x.Kind == ir.GPUThread {
				if len(threads) == 0 {
					nest = o.nestDims(x)
				}
				threads = append(threads, l)
				if !inProduce {
					who = loopFunc(x.Name)
				}
			} else {
				others = append(others, l)
			}
			b := mut(x.Body)
			if x.Kind == ir.GPUThread {
				threads = threads[:len(threads)-1]
			} else {
				others = others[:len(others)-1]
			}
			nest = savedNest
			who, cur = savedWho, savedCur
			undo()
			if mn == x.Min && ext == x.Extent && b == x.Body {
				return x
			}
			return &ir.For{Name: x.Name, Min: mn, Extent: ext, Kind: x.Kind, Body: b}
		case *ir.LetStmt:
			val := fe(x.Value)
			undo := lv.bind(x.Name, x.Value)
			b := mut(x.Body)
			undo()
			if val == x.Value && b == x.Body {
				return x
			}
			return &ir.LetStmt{Name: x.Name, Value: val, Body: b}
		case *ir.ProducerConsumer:
			if x.Func == name && x.Producer {
				saved := inProduce
				inProduce, cur, last = true, -1, -1
				b := mut(x.Body)
				inProduce = saved
				if b == x.Body {
					return x
				}
				return &ir.ProducerConsumer{Func: x.Func, Producer: true, Body: b}
			}
			if x.Producer && !inProduce {
				savedWho := who
				if who == "" {
					who = x.Func
				}
				b := mut(x.Body)
				who = savedWho
				if b == x.Body {
					return x
				}
				return &ir.ProducerConsumer{Func: x.Func, Producer: true, Body: b}
			}
		case *ir.Provide:
			val := fe(x.Value)
			oldArgs := make([]ir.Expr, len(x.Args))
			changed := val != x.Value
			for i, e := range x.Args {
				oldArgs[i] = fe(e)
				changed = changed || oldArgs[i] != e
			}
			if err != nil {
				return s
			}
			args := oldArgs
			if x.Func == name {
				st := -1
				if inProduce {
					st = stageNow()
					last = max(last, st)
				}
				var nargs []ir.Expr
				if nargs, err = visit(newAccess(true, x.Args, st)); err != nil {
					return s
				}
				if nargs != nil {
					args, changed = nargs, true
				}
			}
			if !changed {
				return x
			}
			return &ir.Provide{Func: x.Func, Value: val, Args: args, Atomic: x.Atomic}
		}
		return ir.MapStmt(s, mut, fe)
	}
	out := mut(body)
	return out, err
}

// loopStage returns k for a loop "f.sK..." of f.
func loopStage(f, loop string) (int, bool) {
	rest, ok := strings.CutPrefix(loop, f+".s")
	if !ok {
		return 0, false
	}
	if i := strings.Index(rest, "."); i >= 0 {
		rest = rest[:i]
	}
	k, err := strconv.Atoi(rest)
	return k, err == nil
}

// rangeOver returns the bounds of e over the loops (outermost first), or
// nil ends where there are none.
func rangeOver(e ir.Expr, loops []*ir.For) (lo, hi ir.Expr) {
	lo, hi = e, e
	// Inside out: an inner loop's bounds may use the outer loops' vars,
	// which the next steps then bound in turn.
	for i := len(loops) - 1; i >= 0; i-- {
		l := loops[i]
		iv := bounds.Interval{Min: l.Min, Max: ir.Simplify(ir.SubE(ir.AddE(l.Min, l.Extent), ir.Int(1)))}
		sc := bounds.Scope{l.Name: iv}
		if lo != nil {
			lo = bounds.Of(lo, sc).Min
		}
		if hi != nil {
			hi = bounds.Of(hi, sc).Max
		}
	}
	if lo != nil {
		lo = ir.Simplify(lo)
	}
	if hi != nil {
		hi = ir.Simplify(hi)
	}
	return lo, hi
}

func loopNames(lists ...[]*ir.For) map[string]bool {
	m := map[string]bool{}
	for _, ls := range lists {
		for _, l := range ls {
			m[l.Name] = true
		}
	}
	return m
}

// decompose works out the pure stage's map from points to threads.
func (o *ownership) decompose(a *access) *owner {
	own := &owner{dims: make([]ownDim, len(a.res))}
	inner := loopNames(a.threads, a.others)
	isInner := func(n string) bool { return inner[n] }
	threadMin, threadExt := map[string]ir.Expr{}, map[string]ir.Expr{}
	for _, t := range a.threads {
		d, ok := o.dims[t.Name]
		if !ok {
			own.why = fmt.Sprintf("the thread loop %s has no thread dimension", t.Name)
			return own
		}
		own.used[d] = true
		threadMin[t.Name], threadExt[t.Name] = t.Min, t.Extent
	}
	seen := map[string]bool{}
	for d, e := range a.res {
		var ts []string
		for _, t := range a.threads {
			if ir.Uses(e, t.Name) {
				ts = append(ts, t.Name)
			}
		}
		od := &own.dims[d]
		switch {
		case len(ts) > 1:
			own.why = fmt.Sprintf("dimension %d of the point %s computes depends on two thread loops (%s)", d, o.f.Name, strings.Join(ts, ", "))
			return own
		case len(ts) == 0:
			od.rest = e
		default:
			t := ts[0]
			seen[t] = true
			c, ok := ir.AsInt(ir.Simplify(ir.SubE(ir.Substitute(e, map[string]ir.Expr{t: ir.AddE(v(t), ir.Int(1))}), e)))
			rest := ir.Simplify(ir.SubE(e, ir.MulE(ir.Int(c), v(t))))
			if !ok || c <= 0 || ir.Uses(rest, t) {
				own.why = fmt.Sprintf("the thread loop %s does not step through dimension %d of %s by a constant stride (%s)", t, d, o.f.Name, ir.ExprString(e))
				return own
			}
			od.thread, od.bd, od.c, od.m, od.ext, od.rest = t, o.dims[t], c, threadMin[t], threadExt[t], rest
			if ir.UsesAny(od.m, isInner) {
				own.why = fmt.Sprintf("the thread loop %s starts at %s, which depends on the loops around it", t, ir.ExprString(od.m))
				return own
			}
		}
		lo, hi := rangeOver(od.rest, a.others)
		if lo == nil || hi == nil || ir.UsesAny(lo, isInner) || ir.UsesAny(hi, isInner) {
			own.why = fmt.Sprintf("the points %s computes in dimension %d (%s) are not bounded by the same range on every thread", o.f.Name, d, ir.ExprString(e))
			return own
		}
		od.lo, od.w = lo, ir.Simplify(ir.AddE(ir.SubE(hi, lo), ir.Int(1)))
		if od.thread != "" {
			if w, ok := bounds.ConstantUpperBound(od.w, nil); !ok || w > od.c {
				own.why = fmt.Sprintf("each thread of %s computes %s points along dimension %d, %d apart from the next thread's, so the threads' points overlap or interleave", o.f.Name, ir.ExprString(od.w), d, od.c)
				return own
			}
		}
	}
	for _, t := range a.threads {
		if !seen[t.Name] {
			own.why = fmt.Sprintf("the point %s computes does not depend on its thread loop %s, so every thread along it computes the same points", o.f.Name, t.Name)
			return own
		}
	}
	return own
}

// nestDims returns the block dimensions the thread loop l and the thread
// loops inside it use.
func (o *ownership) nestDims(l *ir.For) [3]bool {
	var used [3]bool
	ir.WalkStmt(l, func(x ir.Stmt) bool {
		if t, ok := x.(*ir.For); ok && t.Kind == ir.GPUThread {
			if d, ok := o.dims[t.Name]; ok {
				used[d] = true
			}
		}
		return true
	}, nil)
	return used
}

// threadIndex returns the thread indices of an access in each block
// dimension: t - m for its thread loop there; where it has none, the
// thread index itself when its nest uses the dimension (gpu_thread_loops
// runs it on every thread along it), else 0 (only thread 0 runs it: the
// idle guard of a nest, or a block-level store).
func (o *ownership) threadIndex(a *access) [3]ir.Expr {
	var T [3]ir.Expr
	for d := range T {
		T[d] = ir.Int(0)
		if a.nest[d] {
			T[d] = &ir.Var{T: ir.Int32, Name: ir.ThreadID[d]}
		}
	}
	for _, t := range a.threads {
		if d, ok := o.dims[t.Name]; ok {
			T[d] = ir.Simplify(ir.SubE(v(t.Name), t.Min))
		}
	}
	return T
}

// check proves that the access a falls within its own thread's points and
// returns its local coordinates.
func (o *ownership) check(a *access) ([]ir.Expr, error) {
	own := o.own
	if own.why != "" {
		if a.write && a.stage == 0 {
			// The pure stage's own stores: the error names a reader,
			// with the thread that produced what it reads (run).
			return nil, nil
		}
		return nil, o.refuse(a, own.why)
	}
	if len(a.threads) == 0 && !a.write {
		return nil, o.refuse(a, fmt.Sprintf("%s reads %s outside any thread loop, where every thread of the block would read its own copy", a.who, o.f.Name))
	}
	T := o.threadIndex(a)
	for d := range T {
		if own.used[d] || o.pure.nest[d] {
			// A dimension the pure stage's thread loops do not use,
			// while its nest does: every thread along d runs the
			// stage and keeps its own copy.
			continue
		}
		// Only thread 0 along d runs the pure stage (outside every
		// thread loop, or under its nest's idle guard): the access must
		// run on thread 0 along d (threadIndex: an access whose nest
		// uses d, without a loop in d, runs on every thread along it).
		if _, hi := rangeOver(T[d], a.threads); hi == nil || !ir.CanProve(ir.LEE(hi, ir.Int(0))) {
			return nil, o.refuse(a, "")
		}
	}
	local := make([]ir.Expr, len(a.res))
	for d, e := range a.res {
		od := own.dims[d]
		D := ir.SubE(e, od.lo)
		if od.thread != "" {
			D = ir.SubE(D, ir.MulE(ir.Int(od.c), ir.AddE(od.m, T[od.bd])))
		}
		D = ir.Simplify(D)
		lo, hi := rangeOver(D, a.others)
		if lo == nil || hi == nil || !ir.CanProve(ir.LEE(ir.Int(0), lo)) || !ir.CanProve(ir.LTE(hi, od.w)) {
			return nil, o.refuse(a, "")
		}
		local[d] = D
	}
	return local, nil
}

// refuse builds the error for an access that cannot be shown to read or
// write only its own thread's points.
func (o *ownership) refuse(a *access, why string) error {
	f := o.f.Name
	verb := "reads"
	if a.write {
		verb = "writes"
	}
	call := f + "(" + userArgs(a.args) + ")"
	nd := 1
	for _, t := range append(append([]*ir.For(nil), a.threads...), o.pure.threads...) {
		if d, ok := o.dims[t.Name]; ok && d+1 > nd {
			nd = d + 1
		}
	}
	var msg string
	if T, P, ok := o.witness(a); ok {
		msg = fmt.Sprintf("thread %s of %s %s %s, which thread %s of %s produced", threadTuple(T, nd), a.who, verb, call, threadTuple(P, nd), f)
	} else {
		tt := symbolicTuple(o.threadIndex(a), nd)
		msg = fmt.Sprintf("thread %s of %s %s %s, and it cannot be proven that thread %s of %s produced that point", tt, a.who, verb, call, tt, f)
	}
	if len(o.pure.threads) == 0 {
		msg += fmt.Sprintf(" (%s's production has no thread loops of its own, so only the block's first thread stores it)", f)
	} else if why != "" {
		msg += " (" + why + ")"
	}
	consumer := a.who
	if a.stage >= 0 {
		consumer = f
	}
	return ir.Errorf(ir.ErrSchedule, f, "store_in(Register)", "%s is stored in registers at the block level, so each thread keeps only the points of %s it computed itself, in its own registers; %s", f, f, msg).
		WithLegal("store_in(GPUShared) (one copy the block's threads share), compute %s inside the thread loops of %s (compute_at its innermost thread loop), or give %s gpu_threads that map each point to the thread that reads it (the same tiling as %s)", f, consumer, f, consumer)
}

// userArgs prints args with the stage prefixes of loop names dropped
// (g.s0.x - 1 becomes x - 1).
func userArgs(args []ir.Expr) string {
	parts := make([]string, len(args))
	for i, e := range args {
		m := map[string]ir.Expr{}
		ir.WalkExpr(e, func(x ir.Expr) bool {
			if vr, ok := x.(*ir.Var); ok && strings.Contains(vr.Name, ".s") {
				if t := trimLoop(vr.Name); t != vr.Name {
					m[vr.Name] = ir.NewVar(t)
				}
			}
			return true
		})
		parts[i] = ir.ExprString(ir.Substitute(e, m))
	}
	return strings.Join(parts, ", ")
}

var threadNames = [3]string{"tx", "ty", "tz"}

func threadTuple(T [3]int64, nd int) string {
	parts := make([]string, nd)
	for d := range nd {
		parts[d] = fmt.Sprintf("%s=%d", threadNames[d], T[d])
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

func symbolicTuple(T [3]ir.Expr, nd int) string {
	parts := make([]string, nd)
	for d := range nd {
		parts[d] = fmt.Sprintf("%s=%s", threadNames[d], userArgs([]ir.Expr{T[d]}))
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// maxWitnessTries bounds the work of the search for a concrete pair of
// threads (it runs only on the way to an error).
const maxWitnessTries = 4096

// witness looks for a concrete thread T of the access and the thread P of
// the pure stage that computed the point T accesses, with P != T. The
// access's other loops are at their first iteration; the pure stage's
// other loops are tried in turn.
func (o *ownership) witness(a *access) (T, P [3]int64, ok bool) {
	tries := 0
	readerThreads := enumerate(a.threads, 1024)
	for _, rt := range readerThreads {
		sub := map[string]ir.Expr{}
		for i, t := range a.threads {
			sub[t.Name] = ir.Simplify(ir.AddE(ir.Substitute(t.Min, sub), ir.Int(rt[i])))
			if d, ok := o.dims[t.Name]; ok {
				T[d] = rt[i]
			}
		}
		for d := range T {
			if !threadUsed(a.threads, o.dims, d) {
				T[d] = 0
			}
		}
		for _, l := range a.others {
			sub[l.Name] = ir.Simplify(ir.Substitute(l.Min, sub))
		}
		p := make([]ir.Expr, len(a.res))
		for d, e := range a.res {
			p[d] = ir.Simplify(ir.Substitute(e, sub))
		}
		// Which thread of the pure stage computed p?
		for _, pv := range enumerate(o.pure.others, 256) {
			if tries++; tries > maxWitnessTries {
				return T, P, false
			}
			psub := map[string]ir.Expr{}
			for i, l := range o.pure.others {
				psub[l.Name] = ir.Simplify(ir.AddE(ir.Substitute(l.Min, psub), ir.Int(pv[i])))
			}
			var cand [3]int64
			match := true
			for d := range p {
				od := o.own.dims[d]
				if od.thread == "" {
					if od.rest == nil || !ir.IsConstValue(ir.Simplify(ir.SubE(p[d], ir.Substitute(od.rest, psub))), 0) {
						match = false
					}
					continue
				}
				q, isInt := ir.AsInt(ir.Simplify(ir.SubE(ir.SubE(p[d], ir.Substitute(od.rest, psub)), ir.MulE(ir.Int(od.c), od.m))))
				if !isInt || q%od.c != 0 || q < 0 {
					match = false
					continue
				}
				if e, ok := bounds.ConstantUpperBound(od.ext, nil); ok && q/od.c >= e {
					match = false // past the thread loop's end
					continue
				}
				cand[od.bd] = q / od.c
			}
			if !match {
				continue
			}
			if cand != T {
				return T, cand, true
			}
			break
		}
	}
	return T, P, false
}

func threadUsed(threads []*ir.For, dims map[string]int, d int) bool {
	for _, t := range threads {
		if dd, ok := dims[t.Name]; ok && dd == d {
			return true
		}
	}
	return false
}

// enumerate lists the iterations (offsets from each loop's min) of a nest
// of loops whose extents have constant bounds, at most limit of them, in
// order (the innermost loop fastest).
func enumerate(loops []*ir.For, limit int) [][]int64 {
	ext := make([]int64, len(loops))
	for i, l := range loops {
		e, ok := bounds.ConstantUpperBound(l.Extent, nil)
		if !ok || e < 1 {
			e = 1
		}
		ext[i] = min(e, int64(limit))
	}
	var out [][]int64
	cur := make([]int64, len(loops))
	for len(out) < limit {
		out = append(out, append([]int64(nil), cur...))
		i := len(loops) - 1
		for ; i >= 0; i-- {
			cur[i]++
			if cur[i] < ext[i] {
				break
			}
			cur[i] = 0
		}
		if i < 0 {
			break
		}
	}
	return out
}
