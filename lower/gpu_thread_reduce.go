package lower

// gpu_thread_reduce: lower the reductions that run across the threads of
// a block, and check the lanes loops (gpu_lanes). An associative update
// (ProveAssociative) whose RVar loop is a GPU thread or lanes loop and
// whose stored point does not depend on that RVar (sum(y) +=
// intm(rxi, y), rxi on threads or lanes; validate_schedules lets it
// through, threadReducible) would have every thread read-modify-write one
// point. Here it becomes an all-reduce: the thread loop covers the
// block's whole x dimension; each thread combines its own values into a
// register accumulator that starts at the op's identity (rfactor's), the
// threads past the loop's extent keeping the identity; the lanes of each
// warp combine theirs with a tree of warp shuffles (gpu_shuffle_down,
// each step guarded so that a lane past its segment's last thread adds
// nothing); when the loop spans more than one warp, lane 0 of each warp
// writes its partial into a shared array of one slot per warp, a barrier,
// the first lanes combine the slots with another shuffle tree, a barrier
// (so the slots may be written again), and the thread at the loop's first
// iteration stores op(f(point), total). A row of the block (its threads
// of one y and z) is one reduction, so with more than one row the block's
// x size must keep rows apart in warps: a power of two up to 32, or a
// multiple of 32. The loop is thread dimension x.
//
// Lanes loops are GPU thread loops the schedule promised to be the lanes
// of one warp: their extent must be a constant of at most 32, their
// thread dimension x and the block at most 32 threads wide in x.
//
// Before: gpu_block_size (each loop's thread dimension and the block
// size), gpu_barriers (the barriers here are placed by hand, and the
// shared slots are not a Func gpu_barriers tracks). After: no thread loop
// runs a reduction's read-modify-writes of one point; gpu_thread_loops
// keeps the shuffles outside its thread-dependent guards (they are
// collective, like barriers).

import (
	"fmt"
	"strconv"

	"github.com/gohalide/gohalide/ir"
)

func gpuThreadReduce(st *State) error {
	red, lanes := reduceLoops(st)
	if len(red) == 0 && len(lanes) == 0 {
		return nil
	}
	n := 0
	s, err := forEachKernel(st.Stmt, func(k *ir.For) (ir.Stmt, error) {
		kr := st.kernels[k.Name]
		if kr == nil {
			return k, nil
		}
		c := &threadReducer{red: red, lanes: lanes, dims: kr.ThreadDims, block: kr.BlockSize(), n: &n}
		old := innermostBlockBody(k)
		body := c.stmt(old, false)
		if c.err != nil {
			return nil, c.err
		}
		if body == old {
			return k, nil
		}
		return replaceInnermostBlockBody(k, body), nil
	})
	if err != nil {
		return err
	}
	st.Stmt = s
	return nil
}

// reduceLoops returns the thread loops of updates that gpu_thread_reduce
// lowers to all-reduces (by loop name, with their Func), and the lanes
// loops (by loop name, with their Func's name).
func reduceLoops(st *State) (map[string]*ir.Function, map[string]string) {
	red, lanes := map[string]*ir.Function{}, map[string]string{}
	for _, name := range st.Order {
		f := st.Funcs[name]
		for si, d := range f.Stages() {
			for _, c := range stageCases(d) {
				for _, dim := range c.Schedule.Dims {
					loop := f.Name + ".s" + strconv.Itoa(si) + "." + dim.Name
					if dim.Lanes {
						lanes[loop] = f.Name
					}
					if si > 0 && dim.Kind == ir.GPUThread && dim.IsRVar && threadReducible(f, c, dim.Name) {
						red[loop] = f
					}
				}
			}
		}
	}
	return red, lanes
}

// threadReducible reports whether the GPU thread loop dim of update d of f
// may run its iterations on the threads of a block as an all-reduce: the
// update is f(args) op e for an associative and commutative op
// (ProveAssociative), it is not Atomic() (then the stores are atomic
// instead), f is not a Tuple, its predicate (if any) does not read f, and
// the point it writes does not depend on the loop's RVars, nor does the
// loop range over a pure var (a fuse of a pure var and an RVar: its
// threads write different points).
func threadReducible(f *ir.Function, d *ir.Definition, dim string) bool {
	if d.Schedule.Atomic || f.IsTuple() || d.RDom == nil || d.Predicate != nil && readsFunc(d.Predicate, f.Name) {
		return false
	}
	if _, ok := ProveAssociative(f.Name, d.Args, d.Value); !ok {
		return false
	}
	t := newRVarLoops(d)
	rs := t.rvars(dim)
	if len(rs) == 0 || t.hasPure(dim) {
		return false
	}
	for _, a := range d.Args {
		for _, r := range rs {
			if ir.Uses(a, r) {
				return false
			}
		}
	}
	return true
}

type threadReducer struct {
	red   map[string]*ir.Function
	lanes map[string]string
	dims  map[string]int
	block [3]int64
	n     *int // names made so far (unique across the kernels)
	// shared are the slot arrays of the reductions inside the current
	// outermost thread loop, allocated around it (at the block level).
	shared []*ir.Allocate
	err    error
}

func (c *threadReducer) fail(err error) {
	if c.err == nil {
		c.err = err
	}
}

// stmt rewrites the reductions in s; inThreads is set inside a thread
// loop.
func (c *threadReducer) stmt(s ir.Stmt, inThreads bool) ir.Stmt {
	if c.err != nil {
		return s
	}
	l, ok := s.(*ir.For)
	if !ok || l.Kind != ir.GPUThread {
		return ir.MapStmt(s, func(x ir.Stmt) ir.Stmt { return c.stmt(x, inThreads) }, nil)
	}
	outer := !inThreads
	if outer {
		c.shared = nil
	}
	fn, isLanes := c.lanes[l.Name]
	if isLanes {
		c.checkLanes(l, fn)
	}
	var out ir.Stmt
	if f, ok := c.red[l.Name]; ok {
		out = c.reduce(l, f, isLanes)
	} else {
		body := c.stmt(l.Body, true)
		out = l
		if body != l.Body {
			out = &ir.For{Name: l.Name, Min: l.Min, Extent: l.Extent, Kind: l.Kind, Body: body}
		}
	}
	if outer {
		for i := len(c.shared) - 1; i >= 0; i-- {
			a := *c.shared[i]
			a.Body = out
			out = &a
		}
		c.shared = nil
	}
	return out
}

// checkLanes checks a lanes loop of fn: a constant extent of at most 32,
// thread dimension x, a block at most 32 threads wide in x. A loop that
// reduces nothing (its lanes only compute points) may have an extent known
// only in the kernel (a region whose ends are lets, as a Func computed at
// a block of 32 has): the block's width in x, at most 32, bounds it, and
// the lanes past it idle.
func (c *threadReducer) checkLanes(l *ir.For, fn string) {
	ext, ok := ir.AsInt(ir.Simplify(l.Extent))
	if _, reduces := c.red[l.Name]; !ok && !reduces && c.dims[l.Name] == 0 && c.block[0] > 0 && c.block[0] <= ir.WarpSize {
		ext, ok = c.block[0], true
	}
	switch {
	case !ok || ext > ir.WarpSize:
		what := "is not a constant (" + ir.ExprString(l.Extent) + ")"
		if ok {
			what = "is " + strconv.FormatInt(ext, 10)
		}
		c.fail(ir.Errorf(ir.ErrSchedule, fn, "gpu_lanes", "the lanes loop %s has an extent that %s; the lanes of a warp are at most %d", l.Name, what, ir.WarpSize).
			WithLegal("split the loop by at most 32 first and mark the inner loop, e.g. Split(x, xo, xi, 32).GPULanes(xi), or use GPUThreads for a wider loop"))
	case c.dims[l.Name] != 0:
		c.fail(ir.Errorf(ir.ErrSchedule, fn, "gpu_lanes", "the lanes loop %s is thread dimension %s; lanes are thread dimension x", l.Name, "xyz"[c.dims[l.Name]:c.dims[l.Name]+1]).
			WithLegal("make the lanes loop the innermost GPU thread loop of its stage"))
	case c.block[0] > ir.WarpSize || c.block[0] == 0:
		c.fail(ir.Errorf(ir.ErrSchedule, fn, "gpu_lanes", "the lanes loop %s is in a block %s threads wide in x; the lanes of one warp need a block at most %d threads wide in x", l.Name, blockWidth(c.block[0]), ir.WarpSize).
			WithLegal("keep every thread loop of the kernel in dimension x at most 32 wide (use y and z for more threads), or use GPUThreads instead of GPULanes"))
	}
}

func blockWidth(n int64) string {
	if n == 0 {
		return "a number known only at launch of"
	}
	return strconv.FormatInt(n, 10)
}

// reduce lowers the reduction of f whose RVar loop is the thread loop l.
func (c *threadReducer) reduce(l *ir.For, f *ir.Function, isLanes bool) ir.Stmt {
	directive := "gpu_threads"
	if isLanes {
		directive = "gpu_lanes"
	}
	fail := func(legal, format string, args ...any) ir.Stmt {
		c.fail(ir.Errorf(ir.ErrSchedule, f.Name, directive, "the RVar loop %s of %s runs the update's iterations on the threads of a block, as an all-reduce: %s", l.Name, f.Name, fmt.Sprintf(format, args...)).
			WithLegal("%s", legal))
		return l
	}
	if d := c.dims[l.Name]; d != 0 {
		return fail("make the RVar loop the innermost GPU thread loop of the stage (the first one given to GPUThreads), or keep it serial",
			"it is thread dimension %s, and a reduction across threads runs along x", "xyz"[d:d+1])
	}
	bx, rows := c.block[0], c.block[1]*c.block[2]
	if bx == 0 || rows == 0 {
		return fail("give the kernel's thread loops constant extents (split them by a constant)", "the block's size is known only at launch")
	}
	if rows > 1 && bx%ir.WarpSize != 0 && (bx > ir.WarpSize || bx&(bx-1) != 0) {
		return fail("a block x size (the widest thread loop in x) that is a power of two up to 32 or a multiple of 32, or a block of one row",
			"the block is %d threads wide in x with %d rows, so a row's threads straddle warps", bx, rows)
	}
	// The stores to f in the loop (an unrolled loop inside it makes
	// several), each op(f(point), e) at one point for the whole loop.
	stores, paths := storesOf(l.Body, f.Name)
	loads := 0
	ir.WalkStmt(l.Body, func(ir.Stmt) bool { return true }, func(e ir.Expr) bool {
		if ld, ok := e.(*ir.Load); ok && ld.Buf == f.Name {
			loads++
		}
		return true
	})
	const simple = "an update of the form f(point) = f(point) op e, with its RVar loops around it and the Funcs it reads computed inside them"
	if len(stores) == 0 || loads != len(stores) {
		return fail(simple, "its loop body stores to %s %d times and reads it %d times", f.Name, len(stores), loads)
	}
	t := stores[0].Value.Type()
	if t.IsHalf() {
		return fail("compute the reduction in Float32 and cast the result in a consumer", "%s is of type %s, which has no warp shuffle here", f.Name, t)
	}
	bound := ir.Binders(l.Body) // an allocation's name is no var: harmless
	inner := func(n string) bool { return n == l.Name || bound[n] }
	var (
		op    AssocOp
		index ir.Expr // the point, with the lets made inside the loop substituted
		whole ir.Expr // the conditions of the stores that hold for the whole loop
		accOf = map[*ir.Store]ir.Expr{}
	)
	for k, store := range stores {
		var self *ir.Load
		placeholder := &ir.Call{T: t, Kind: ir.CallFunc, Name: f.Name, Args: []ir.Expr{store.Index}}
		var sub func(ir.Expr) ir.Expr
		sub = func(e ir.Expr) ir.Expr {
			if ld, ok := e.(*ir.Load); ok && ld.Buf == f.Name {
				self = ld
				return placeholder
			}
			return ir.MapExpr(e, sub)
		}
		value := sub(store.Value)
		assoc, ok := ProveAssociative(f.Name, []ir.Expr{store.Index}, value)
		if !ok || self == nil || store.Atomic || store.Value.Type() != t || k > 0 && assoc.Op != op {
			return fail(simple, "its stored value %s is not f(point) op e", ir.ExprString(store.Value))
		}
		op = assoc.Op
		accOf[store] = assoc.Y
		lets := map[string]ir.Expr{}
		var conds []ir.Expr
		path := paths[k]
		for i, a := range path {
			switch a := a.(type) {
			case *ir.LetStmt:
				lets[a.Name] = a.Value
			case *ir.IfThenElse:
				cond := a.Cond
				if i+1 < len(path) && path[i+1] != a.Then {
					cond = &ir.Not{X: cond}
				}
				conds = append(conds, cond)
			}
		}
		resolve := func(e ir.Expr) ir.Expr {
			for i := 0; i < len(lets) && ir.UsesAny(e, func(n string) bool { return lets[n] != nil }); i++ {
				e = ir.Substitute(e, lets)
			}
			return ir.Simplify(e)
		}
		at := resolve(store.Index)
		if ir.UsesAny(at, inner) {
			return fail(simple, "the point it stores, %s, depends on the loop or on a loop inside it", ir.ExprString(store.Index))
		}
		if k > 0 && !ir.Equal(at, index) {
			return fail("keep the loops of the update's pure vars outside its RVar loops (an unrolled or vectorized pure var inside them makes one store per point)",
				"its loop body stores to %d different points of %s (%s and %s), and one all-reduce makes one value", len(stores), f.Name, ir.ExprString(index), ir.ExprString(at))
		}
		var w ir.Expr
		for _, cond := range conds {
			if cond = resolve(cond); !ir.UsesAny(cond, inner) {
				w = and(w, cond)
			}
		}
		if k > 0 && ir.ExprString(w) != ir.ExprString(whole) {
			return fail(simple, "its stores to %s are under different conditions that hold for the whole loop", f.Name)
		}
		index, whole = at, w
	}
	self := &ir.Load{T: t, Buf: f.Name, Index: index}

	*c.n++
	base := fmt.Sprintf("%s_red%d", f.Name, *c.n)
	acc := base + "_acc"
	identity := op.Identity(t)
	// The thread's own values: every thread of the block's x dimension
	// runs the loop body, those past its extent adding nothing.
	work := replaceStores(l.Body, func(s *ir.Store) ir.Stmt {
		y, ok := accOf[s]
		if !ok {
			return nil
		}
		return &ir.Store{Buf: acc, Index: ir.Int(0), Value: op.Make(&ir.Load{T: t, Buf: acc, Index: ir.Int(0)}, y)}
	})
	if ext, ok := ir.AsInt(ir.Simplify(l.Extent)); !ok || ext != bx {
		work = &ir.IfThenElse{Cond: ir.LTE(v(l.Name), ir.Simplify(ir.AddE(l.Min, l.Extent))), Then: work}
	}
	xid := ir.Simplify(ir.SubE(v(l.Name), l.Min))
	var items []reduceItem
	let := func(name string, e ir.Expr) ir.Expr {
		items = append(items, reduceItem{name: name, value: e})
		return &ir.Var{T: e.Type(), Name: name}
	}
	do := func(s ir.Stmt) { items = append(items, reduceItem{stmt: s}) }
	step := 0
	tree := func(cur ir.Expr, lane, nseg ir.Expr, width int64) ir.Expr {
		p := int64(1)
		for p < width {
			p *= 2
		}
		for d := p / 2; d >= 1; d /= 2 {
			step++
			s := let(fmt.Sprintf("%s_shfl%d", base, step), ir.ShuffleDown(cur, int(d)))
			in := ir.Simplify(ir.LTE(ir.AddE(lane, ir.Int(d)), nseg))
			cur = let(fmt.Sprintf("%s_v%d", base, step), &ir.Select{Cond: in, True: op.Make(cur, s), False: cur})
		}
		return cur
	}
	do(&ir.Store{Buf: acc, Index: ir.Int(0), Value: identity})
	do(work)
	cur := let(base+"_v0", &ir.Load{T: t, Buf: acc, Index: ir.Int(0)})
	warp := int64(ir.WarpSize)
	if bx <= warp {
		cur = tree(cur, xid, ir.Int(bx), bx)
	} else {
		lane := let(base+"_lane", ir.Simplify(ir.Bin(ir.Mod, xid, ir.Int(warp))))
		nseg := ir.Int(warp)
		if bx%warp != 0 {
			// The last warp of the row is partial.
			nseg = ir.Simplify(ir.MinE(ir.Int(warp), ir.SubE(ir.Int(bx), ir.SubE(xid, lane))))
		}
		cur = tree(cur, lane, nseg, warp)
		w := (bx + warp - 1) / warp
		sh := base + "_warps"
		row := ir.Expr(ir.Int(0))
		if c.block[1] > 1 {
			row = v(ir.ThreadID[1])
		}
		if c.block[2] > 1 {
			row = ir.AddE(row, ir.Bin(ir.Mul, ir.Int(c.block[1]), v(ir.ThreadID[2])))
		}
		slot := ir.Simplify(ir.AddE(ir.Bin(ir.Mul, row, ir.Int(w)), ir.Bin(ir.Div, xid, ir.Int(warp))))
		do(&ir.IfThenElse{Cond: ir.Bin(ir.EQ, lane, ir.Int(0)), Then: &ir.Store{Buf: sh, Index: slot, Value: cur}})
		do(&ir.Barrier{Fence: ir.FenceShared, Reason: fmt.Sprintf("the warps' partial results of %s are in %s", f.Name, sh)})
		first := ir.Simplify(ir.AddE(ir.Bin(ir.Mul, row, ir.Int(w)), ir.MinE(xid, ir.Int(w-1))))
		u := let(base+"_w0", &ir.Select{Cond: ir.LTE(xid, ir.Int(w)), True: &ir.Load{T: t, Buf: sh, Index: first}, False: identity})
		do(&ir.Barrier{Fence: ir.FenceShared, Reason: fmt.Sprintf("the warps' partial results of %s were read from %s", f.Name, sh)})
		cur = tree(u, lane, ir.Int(w), w)
		c.shared = append(c.shared, &ir.Allocate{Name: sh, T: t, Memory: ir.GPUShared, Extents: []ir.Expr{ir.Int(rows * w)}})
	}
	do(&ir.IfThenElse{Cond: and(whole, ir.Bin(ir.EQ, xid, ir.Int(0))), Then: &ir.Store{Buf: f.Name, Index: index, Value: op.Make(self, cur)}})
	var body ir.Stmt
	for i := len(items) - 1; i >= 0; i-- {
		it := items[i]
		switch {
		case it.stmt != nil && body == nil:
			body = it.stmt
		case it.stmt != nil:
			body = ir.MakeBlock(it.stmt, body)
		default:
			body = &ir.LetStmt{Name: it.name, Value: it.value, Body: body}
		}
	}
	body = &ir.Allocate{Name: acc, T: t, Memory: ir.Register, Extents: []ir.Expr{ir.Int(1)}, Body: body}
	return &ir.For{Name: l.Name, Min: l.Min, Extent: ir.Int(bx), Kind: l.Kind, Body: body}
}

// reduceItem is a let or a statement of a reduction's code, in order.
type reduceItem struct {
	name  string
	value ir.Expr
	stmt  ir.Stmt
}

// replaceStores returns s with each store for which by returns a
// statement replaced by it.
func replaceStores(s ir.Stmt, by func(*ir.Store) ir.Stmt) ir.Stmt {
	var mut func(ir.Stmt) ir.Stmt
	mut = func(x ir.Stmt) ir.Stmt {
		if st, ok := x.(*ir.Store); ok {
			if r := by(st); r != nil {
				return r
			}
		}
		return ir.MapStmt(x, mut, nil)
	}
	return mut(s)
}

// storesOf returns the stores to buf in s, in order, and for each the
// statements from s down to it (s first, the store last). An unrolled
// loop repeats one Store node (its body did not name the loop's variable,
// only lets around it do), so a store is told by its path, not by the
// node.
func storesOf(s ir.Stmt, buf string) (stores []*ir.Store, paths [][]ir.Stmt) {
	var path []ir.Stmt
	var walk func(ir.Stmt)
	walk = func(x ir.Stmt) {
		if x == nil {
			return
		}
		path = append(path, x)
		if st, ok := x.(*ir.Store); ok && st.Buf == buf {
			stores = append(stores, st)
			paths = append(paths, append([]ir.Stmt(nil), path...))
		}
		ir.VisitStmt(x, walk, nil)
		path = path[:len(path)-1]
	}
	walk(s)
	return stores, paths
}
