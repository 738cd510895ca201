package lower

// sliding_window: a Func stored outside the loops it is computed in
// computes, at each iteration of them after the first, only the part of
// its region that earlier iterations did not. With
// StoreRoot().ComputeAt(g, y) on a 3-row stencil, f's region at row y is
// [y - 1, y + 1]; the first iteration computes all three rows and every
// later one the row y + 1 alone, since rows y - 1 and y are still in f's
// storage from the two before (Halide's SlidingWindow). With
// StoreRoot().ComputeAt(g, x) on g(x, y) = f(x - 1, y) + f(x, y - 1), f
// slides along x (its x range) and along y (its y range): each point of f
// is computed once, its row y - 1 read from the run of x before.
//
// f slides along each loop v between its Realize and its production (a
// loop with no if between its body and the production), innermost first,
// moving one dimension of its region per loop, when (besides what the
// comments in slide say: no RoundUp split, no cooperative production of a
// shared Func around it or inside it):
//   - the loops from the Realize down to the production run their
//     iterations in order, on one thread: serial or unrolled, no
//     parallel, vector or GPU loop (so inside a GPU kernel only a loop a
//     thread runs slides, with f in the thread's own memory, never in
//     shared memory or registers);
//   - f has no update definitions (an update is not idempotent and may
//     scatter) and is not the output;
//   - exactly one dimension of f's region (resolved in the loop
//     variables) depends on v, it has not slid along a loop inside v
//     (Halide's slid_dimensions), both its ends grow with v (a constant
//     lower bound of end(v + 1) - end(v) is at least 0), and successive
//     regions overlap (else there is nothing to reuse);
//   - the loops between v and the production have bounds that do not
//     depend on v (each iteration of v runs the iterations the one
//     before did).
// A Func with an explicit FoldStorage slides along the innermost of them
// alone (the fold is sized for that loop's window). A loop of one
// iteration is a let (its variable its min), as in Halide:
// f computed at g's loop x, g at h's loop x, slides along h's x.
//
// The region's min in the dimension that moves with v becomes, at each
// iteration,
//
//	select(v <= v.min, min(v), max(min(v), max(v - 1) + 1))
//
// (carrying its range [min(v), max(v) + 1] as a promise), where min and
// max are the region's ends in terms of all the loops, the others at the
// same iteration.
//
// Every point q the consumers read at an iteration p (a point of the loop
// nest) is in f's storage: if, for some loop v that f slid along, p is
// not v's first iteration and q's coordinate in v's dimension is at most
// max(p with v - 1), q is in the region at p with v - 1 (the region's
// min only grows with v, and no other dimension depends on v), an
// earlier iteration, and was computed there or before (by induction on
// the iterations in order); else q's coordinate in each slid dimension is
// in the new part at p, and q is computed at p. The values are still in
// f's storage because it is outside the loops (storage folding, which may
// reuse it, keeps every iteration's window whole, folding along the
// outermost loop f slid along). Only the region lets change: the
// production's loops, allocation_bounds and the report read them.
//
// Before: bounds_inference (the region lets exist), gpu_register_ownership
// (it reads the regions as bounds_inference left them). After: the region
// lets of a sliding Func's production start at the new min.

import (
	"github.com/gohalide/gohalide/bounds"
	"github.com/gohalide/gohalide/ir"
)

func slidingWindow(st *State) error {
	sw := &slider{st: st, lv: newRootLetValues(), realized: map[string]int{}, replace: map[string]ir.Expr{}, unslid: map[string]ir.Expr{}, regionLets: regionLetNames(st)}
	st.Stmt = sw.mut(st.Stmt)
	return nil
}

type slider struct {
	st *State
	lv letValues
	// loops are the enclosing loops, outermost first.
	loops []*ir.For
	// realized maps each Func whose Realize encloses the statement being
	// visited, and that may slide, to len(loops) at its Realize.
	realized map[string]int
	// ifLevel is len(loops) at the innermost if enclosing the statement
	// being visited (0 if none): loops[ifLevel-1] and those outside it
	// have an if between their bodies and the statement.
	ifLevel int
	// replace holds the new value of a region let further down the chain
	// being visited.
	replace map[string]ir.Expr
	// shared are the Funcs realized in GPU shared memory (or a block's
	// global copy) around the statement; coop counts the productions of
	// such Funcs around it.
	shared map[string]bool
	coop   int
	// unslid holds the values before sliding of the region lets of the
	// current loop level that slid. A producer's region is in terms of its consumers' region
	// variables (bounds_inference); where a consumer slid, the producer's
	// region is seen through its unslid one, the whole window, so that
	// the producer slides along the same loop as it did when the regions
	// were substituted copies, instead of computing what the consumer's
	// new part alone reads, afresh at every iteration.
	unslid map[string]ir.Expr
	// regionLets are the names of the region lets (regionLetNames): only
	// they see through unslid values, never a let of a production's loops.
	regionLets map[string]bool
}

// see returns e with the unslid values substituted, simplified: an unslid
// value is itself seen through the unslid values of the consumers it
// reads, so in a chain of Funcs that each read the next at two places
// (Halide's sliding_window_cascade) the substituted copies double at every
// link unless each is folded as it is made.
func (sw *slider) see(e ir.Expr) ir.Expr {
	if len(sw.unslid) == 0 || !ir.UsesAny(e, func(n string) bool { return sw.unslid[n] != nil }) {
		return e
	}
	return ir.Simplify(ir.Substitute(e, sw.unslid))
}

func (sw *slider) mut(s ir.Stmt) ir.Stmt {
	switch x := s.(type) {
	case *ir.Realize:
		if sw.maySlide(x) {
			sw.realized[x.Func] = len(sw.loops)
			defer delete(sw.realized, x.Func)
		}
		if x.Memory == ir.GPUShared || x.InGlobal {
			if sw.shared == nil {
				sw.shared = map[string]bool{}
			}
			sw.shared[x.Func] = true
			defer delete(sw.shared, x.Func)
		}
	case *ir.ProducerConsumer:
		if x.Producer && sw.shared[x.Func] {
			// The block's threads produce a shared Func together, its
			// points dealt out among them (gpu_cooperative): the loops
			// inside do not run their iterations in order on one thread,
			// so nothing inside slides.
			sw.coop++
			defer func() { sw.coop-- }()
		}
	case *ir.For:
		sw.loops = append(sw.loops, x)
		undo := sw.lv.bind(x.Name, nil)
		unslid := sw.unslid
		// Inside the loop, a let that names a slid one names where the
		// loops of its production are (a Func computed inside them).
		sw.unslid = map[string]ir.Expr{}
		body := sw.mut(x.Body)
		sw.unslid = unslid
		undo()
		sw.loops = sw.loops[:len(sw.loops)-1]
		if body == x.Body {
			return x
		}
		c := *x
		c.Body = body
		return &c
	case *ir.IfThenElse:
		saved := sw.ifLevel
		sw.ifLevel = len(sw.loops)
		defer func() { sw.ifLevel = saved }()
	case *ir.LetStmt:
		value := x.Value
		if sw.regionLets[x.Name] {
			value = sw.see(value)
		}
		unslid := value
		if nv, ok := sw.replace[x.Name]; ok {
			value = nv
			delete(sw.replace, x.Name)
		} else if fn, ok := firstRegionLet(x.Name, sw.realized, sw.st.Funcs); ok {
			for name, nv := range sw.slide(fn, x) {
				sw.replace[name] = nv
				if name == x.Name {
					value = nv
					delete(sw.replace, name)
				}
			}
		}
		if value != unslid {
			sw.unslid[x.Name] = unslid
			defer delete(sw.unslid, x.Name)
		}
		undo := sw.lv.bind(x.Name, value)
		body := sw.mut(x.Body)
		undo()
		if body == x.Body && value == x.Value {
			return x
		}
		return &ir.LetStmt{Name: x.Name, Value: value, Body: body}
	}
	return ir.MapStmt(s, sw.mut, nil)
}

// maySlide says whether the Func realized by r could slide at all.
func (sw *slider) maySlide(r *ir.Realize) bool {
	f, ok := sw.st.Funcs[r.Func]
	if !ok || len(f.Updates) > 0 || f.Pure.Predicate != nil || f.Name == sw.st.P.Output || len(f.Args) == 0 {
		return false // (a Func of no dimensions has no window)
	}
	for _, b := range f.Schedule.Bounds {
		if b.Min == nil {
			// bound_extent: the loops over the var run its extent from
			// the region's min, so that min cannot move up to what
			// earlier iterations left (the loop would run past the
			// window, over points still to be read).
			return false
		}
	}
	return r.Memory != ir.GPUShared && r.Memory != ir.Register && !r.InGlobal
}

// firstRegionLet says whether name is the first of the region lets of a
// Func in realized (f.s0.<first arg>.min), and returns the Func.
func firstRegionLet(name string, realized map[string]int, funcs map[string]*ir.Function) (string, bool) {
	for fn := range realized {
		if name == stagePrefix(fn, 0)+funcs[fn].Args[0]+".min" {
			return fn, true
		}
	}
	return "", false
}

// slide decides along which of the loops between fn's Realize and its
// production (whose region lets start with l) fn slides, innermost first,
// and returns the region lets to change (the min of each dimension that
// moves, one per loop) and their new values.
func (sw *slider) slide(fn string, l *ir.LetStmt) map[string]ir.Expr {
	sw.st.checkStop()
	depth := sw.realized[fn]
	if depth >= len(sw.loops) {
		return nil // computed at the Realize's own level
	}
	// Only the loops with no if between their bodies and the production
	// slide: an iteration of the others may skip it, and the next would
	// count on what it did not compute.
	first := max(depth, sw.ifLevel)
	if first >= len(sw.loops) {
		return nil
	}
	if roundsUp(sw.st.Funcs[fn]) {
		// A RoundUp split computes past the region, by an amount that
		// depends on where the region starts: after sliding, past what
		// the producers of fn provide for it (the emulator caught reads
		// of a shared producer's unwritten points).
		sw.st.logf(3, "  sliding_window: %s does not slide: a RoundUp split computes it past its region\n", fn)
		return nil
	}
	if sw.coop > 0 {
		sw.st.logf(3, "  sliding_window: %s does not slide: it is computed inside the cooperative production of a shared Func\n", fn)
		return nil
	}
	for _, lp := range sw.loops[depth:] {
		if lp.Kind != ir.Serial && lp.Kind != ir.Unrolled {
			sw.st.logf(3, "  sliding_window: %s does not slide: the loop %s is %s\n", fn, lp.Name, lp.Kind)
			return nil
		}
	}
	f := sw.st.Funcs[fn]
	if productionHoldsShared(l, fn) {
		// A Func in GPU shared memory computed inside f's production is
		// produced by the block's threads together, sized and dealt out
		// from f's region at one thread; sliding changes that region
		// between iterations, which the cooperative production does not
		// follow (the emulator caught reads of shared values no thread
		// wrote). Such an f does not slide.
		sw.st.logf(3, "  sliding_window: %s does not slide: a Func in shared memory is computed inside it\n", fn)
		return nil
	}
	// The region's lets are a chain, f.s0.<a>.min and .max for each arg a
	// in order; each is resolved in the lets before it.
	ends := regionChain(l, fn, sw.lv, sw.see)
	for _, a := range f.Args {
		p := stagePrefix(fn, 0) + a + "."
		if ends[p+"min"] == nil || ends[p+"max"] == nil {
			// Not the chain bounds_inference makes, or an end too large
			// to resolve (see regionChain).
			sw.st.logf(3, "  sliding_window: %s does not slide: its region in %s is not a chain of region lets of at most %d nodes each\n", fn, a, maxSlideSize)
			return nil
		}
	}
	// A loop of one iteration is a let (as in Halide): its variable is
	// its min in the region, so that a Func computed inside a Func
	// computed at a loop of the output slides along that loop (f's region
	// at g.s0.x, whose one iteration is h.s0.x, moves with h.s0.x).
	once := map[string]ir.Expr{}
	for _, lp := range sw.loops[depth:] {
		if ext, ok := sw.resolveSmall(lp.Extent, nil); ok && isOne(ext) {
			if lo, ok := sw.resolveSmall(lp.Min, once); ok {
				once[lp.Name] = lo
			}
		}
	}
	if len(once) > 0 {
		for k, e := range ends {
			ends[k] = ir.Simplify(ir.Substitute(e, once))
		}
	}
	if len(f.Schedule.Folds) > 0 {
		// An explicit FoldStorage is sized for the window of the loop f
		// is computed in; sliding along a loop outside it would make
		// storage_folding fold along that loop, with a larger window
		// (or none of constant size), and refuse the fold. Such an f
		// slides along its innermost loop alone.
		first = max(first, len(sw.loops)-1)
	}
	out := map[string]ir.Expr{}
	var along []string
	for i := len(sw.loops) - 1; i >= first; i-- {
		loop := sw.loops[i]
		if once[loop.Name] != nil {
			continue
		}
		dim := sw.slideDim(fn, ends, i, out, once)
		if dim == "" {
			continue
		}
		minV, maxV := ends[dim+"min"], ends[dim+"max"]
		v := &ir.Var{T: ir.Int32, Name: loop.Name}
		prev := map[string]ir.Expr{loop.Name: ir.SubE(v, ir.Int(1))}
		prevMaxPlusOne := ir.Simplify(ir.AddE(ir.Substitute(maxV, prev), ir.Int(1)))
		if ir.CanProve(ir.LEE(prevMaxPlusOne, minV)) {
			continue // no overlap: nothing is reused
		}
		name := dim + "min"
		old := regionLetValue(l, name, sw.see)
		sw.st.logf(3, "  sliding_window: %s slides along %s in %s\n", fn, loop.Name, name)
		along = append(along, loop.Name)
		// The new min lies in [min(v), max(min(v), max(v) + 1)], which it
		// carries as a promise (free at run time): the bounds of the
		// region at one iteration stay [min(v), max(v)], which
		// storage_folding compares across iterations, and not a select
		// it cannot. The upper end is min(v) itself when the region is
		// empty (min(v) > max(v) + 1, say at the iterations a
		// GuardWithIf tail leaves without work): a promise of max(v) + 1
		// alone would be false there, and the producers' regions bounded
		// through it came out larger than their allocations.
		sel := &ir.Select{Cond: ir.LEE(v, loop.Min), True: old, False: likely(ir.MaxE(old, prevMaxPlusOne))}
		hiPlusOne := ir.Simplify(ir.MaxE(old, ir.AddE(regionLetValue(l, dim+"max", sw.see), ir.Int(1))))
		out[name] = &ir.Call{T: ir.Int32, Kind: ir.CallIntrinsic, Name: ir.IntrinsicUnsafePromiseClamped,
			Args: []ir.Expr{sel, old, hiPlusOne}}
	}
	if len(out) == 0 {
		return nil
	}
	if sw.st.slid == nil {
		sw.st.slid = map[string]bool{}
		sw.st.slidAlong = map[string]map[string]bool{}
	}
	sw.st.slid[fn] = true
	if sw.st.slidAlong[fn] == nil {
		sw.st.slidAlong[fn] = map[string]bool{}
	}
	for _, n := range along {
		sw.st.slidAlong[fn][n] = true
	}
	return out
}

// slideDim returns the region let prefix (f.s0.<a>.) of the dimension of
// fn's region (ends, resolved) that slides along loops[i], or "" if none
// does: the one dimension that depends on the loop, not slid along a loop
// inside it already (in slid), both of whose ends grow with the loop, and
// the loops inside loops[i] run the same iterations at each of its
// iterations.
func (sw *slider) slideDim(fn string, ends map[string]ir.Expr, i int, slid, once map[string]ir.Expr) string {
	loop := sw.loops[i]
	dim := ""
	for _, a := range sw.st.Funcs[fn].Args {
		p := stagePrefix(fn, 0) + a + "."
		if ir.Uses(ends[p+"min"], loop.Name) || ir.Uses(ends[p+"max"], loop.Name) {
			if dim != "" {
				sw.st.logf(3, "  sliding_window: %s does not slide along %s: two dimensions move\n", fn, loop.Name)
				return ""
			}
			dim = p
		}
	}
	if dim == "" {
		return ""
	}
	if slid[dim+"min"] != nil {
		// The dimension moves with a loop inside this one too, and slid
		// along it: a dimension slides along one loop (Halide's
		// slid_dimensions).
		sw.st.logf(3, "  sliding_window: %s does not slide along %s: %s slid along a loop inside it\n", fn, loop.Name, dim+"min")
		return ""
	}
	for _, in := range sw.loops[i+1:] {
		// An iteration of loops[i] counts on the one before having run
		// the same iterations of the loops inside it (a loop of one
		// iteration is a let, seen through above).
		if once[in.Name] != nil {
			continue
		}
		lo, ok1 := sw.resolveSmall(in.Min, once)
		n, ok2 := sw.resolveSmall(in.Extent, once)
		if !ok1 || !ok2 || ir.Uses(lo, loop.Name) || ir.Uses(n, loop.Name) {
			sw.st.logf(3, "  sliding_window: %s does not slide along %s: the bounds of the loop %s inside it depend on it\n", fn, loop.Name, in.Name)
			return ""
		}
	}
	v := &ir.Var{T: ir.Int32, Name: loop.Name}
	next := map[string]ir.Expr{loop.Name: ir.AddE(v, ir.Int(1))}
	minV, maxV := ends[dim+"min"], ends[dim+"max"]
	if !growsWith(minV, loop.Name, next) || !growsWith(maxV, loop.Name, next) {
		sw.st.logf(3, "  sliding_window: %s does not slide along %s: its region [%s, %s] does not move forward\n", fn, loop.Name, ir.ExprString(minV), ir.ExprString(maxV))
		return ""
	}
	return dim
}

// resolveSmall returns e resolved in the enclosing lets and then in
// extra, simplified, or false if that is more than maxSlideSize nodes (a
// loop bound resolved through a chain of Funcs can be as large as a
// region, see regionChain).
func (sw *slider) resolveSmall(e ir.Expr, extra map[string]ir.Expr) (ir.Expr, bool) {
	r := ir.Substitute(ir.Substitute(e, sw.lv.vals), extra)
	if exprSize(r, maxSlideSize) > maxSlideSize {
		return nil, false
	}
	return ir.Simplify(r), true
}

// productionHoldsShared says whether the production of fn inside s holds the
// realization of a Func shared by a GPU block (GPUShared, or a block's
// copy in global memory).
func productionHoldsShared(s ir.Stmt, fn string) bool {
	found, inProduce := false, false
	var walk func(ir.Stmt)
	walk = func(x ir.Stmt) {
		if found || x == nil {
			return
		}
		switch x := x.(type) {
		case *ir.ProducerConsumer:
			if x.Func == fn && x.Producer {
				inProduce = true
				walk(x.Body)
				inProduce = false
				return
			}
		case *ir.Realize:
			if inProduce && (x.Memory == ir.GPUShared || x.InGlobal) {
				found = true
				return
			}
		}
		ir.VisitStmt(x, walk, nil)
	}
	walk(s)
	return found
}

func likely(e ir.Expr) ir.Expr {
	return &ir.Call{T: e.Type(), Kind: ir.CallIntrinsic, Name: ir.IntrinsicLikely, Args: []ir.Expr{e}}
}

// regionLetValue is the value of the let name in the chain from l, seen
// through see.
func regionLetValue(l *ir.LetStmt, name string, see func(ir.Expr) ir.Expr) ir.Expr {
	for s := ir.Stmt(l); ; {
		ls, ok := s.(*ir.LetStmt)
		if !ok {
			return nil
		}
		if ls.Name == name {
			return see(ls.Value)
		}
		s = ls.Body
	}
}

// maxSlideSize is the most nodes an end of a region may have, resolved in
// the loop variables, for sliding_window to slide it.
const maxSlideSize = 2000

// regionChain returns the values of the region lets of fn's stage 0 in
// the chain of lets that starts at l, each resolved in lv and the lets
// before it (in terms of the loop variables and what lies outside), each
// seen through see.
func regionChain(l *ir.LetStmt, fn string, lv letValues, see func(ir.Expr) ir.Expr) map[string]ir.Expr {
	out := map[string]ir.Expr{}
	p := stagePrefix(fn, 0)
	var undo []func()
	defer func() {
		for i := len(undo) - 1; i >= 0; i-- {
			undo[i]()
		}
	}()
	for s := ir.Stmt(l); ; {
		ls, ok := s.(*ir.LetStmt)
		if !ok || len(ls.Name) <= len(p) || ls.Name[:len(p)] != p {
			return out
		}
		value := see(ls.Value)
		// A region resolved in the loop variables is a tree that can be
		// exponential in the length of a chain of Funcs that each read
		// the next at two places (Halide's sliding_window_cascade: each
		// end holds the next Func's twice); the lets share it as a DAG,
		// but simplifying or walking it would not. Past maxSlideSize
		// nodes the end is left out, and fn does not slide.
		if r := ir.Substitute(value, lv.vals); exprSize(r, maxSlideSize) <= maxSlideSize {
			out[ls.Name] = ir.Simplify(r)
		}
		undo = append(undo, lv.bind(ls.Name, value))
		s = ls.Body
	}
}

// growsWith says whether e never decreases as the loop variable v grows:
// by its structure (bounds.IsMonotonic), or because the difference of one
// iteration, e[v := v + 1] - e (next), is provably at least 0.
func growsWith(e ir.Expr, v string, next map[string]ir.Expr) bool {
	if m := bounds.IsMonotonic(e, v); m == bounds.Increasing || m == bounds.Constant {
		return true
	}
	c, ok := bounds.ConstantLowerBound(ir.Simplify(ir.SubE(ir.Substitute(e, next), e)), nil)
	return ok && c >= 0
}

func isOne(e ir.Expr) bool {
	n, ok := ir.AsInt(e)
	return ok && n == 1
}
