package lower

// schedule_functions: build the loop nest of the pipeline from the
// schedules. Each stage becomes a nest of For loops over its dims (after
// splits, fuses and reorders), with the variables of split and fused loops
// rebuilt by lets in the innermost body (an RVar that rfactor purified
// takes its pure var's value) and tails handled as the split's
// TailStrategy says (Auto resolved as in Halide's Stage::split). No tail
// may recompute a point of an update (a var that stems from an inner split
// var gets GuardWithIf), run past a Func.bound (an error), or run a fused
// var out of its extent (the fuse is guarded). The output is produced at
// the root; every other realized Func is injected, consumers first, at its
// compute level (wrapping that loop's body in produce/consume) inside a
// Realize at its store level. A stage with specializations becomes a
// chain of ifs over its cases, each with its own nest (specialize.go); a
// Func computed at a loop of such a stage is produced in every case's copy.
// The Funcs of a compute_with group are injected one right after the other
// (clusterComputeWith reorders State.Order, keeping each Func after the
// Funcs it reads), so that compute_with finds their productions adjacent.
//
// Before: inline_functions, validate_schedules. After: State.Stmt uses the region variables
// f.s<k>.<x>.min / .max of each stage, which bounds_inference defines, and
// State.LoopNest holds the printed loop nest.

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/gohalide/gohalide/ir"
)

// tailCheck is a split of an output's pure var whose tail strategy needs a
// run-time check of the output's extent.
type tailCheck struct {
	fn     string
	stage  int
	root   string
	factor int
	tail   ir.TailStrategy
	// cond is the condition under which the split's case runs (nil:
	// always; see specialize.go): the check holds only then.
	cond ir.Expr
}

type loopBounds struct{ min, extent ir.Expr }

// resolveTail picks the tail strategy Halide would use for TailAuto (Func.cpp,
// Stage::split): GuardWithIf for RVars; ShiftInwards for pure definitions;
// for updates RoundUp, except GuardWithIf for outputs (whose extent need not
// be a multiple of the factor) and for vars that stem from the inner var of
// an earlier split (see innerSplitVars).
func resolveTail(t ir.TailStrategy, stage int, rvar, output, inner bool) ir.TailStrategy {
	if t != ir.TailAuto {
		return t
	}
	switch {
	case rvar:
		return ir.GuardWithIf
	case stage == 0:
		return ir.ShiftInwards
	case output || inner:
		return ir.GuardWithIf
	}
	return ir.RoundUp
}

// innerSplitVars returns the vars that stem from the inner var of one of
// splits: the inner vars themselves, both halves of a later split of one,
// and a var fused from one (Halide's inner_vars in Stage::split). The
// extent of such a var is the factor of an earlier split, not the extent
// of the region, so a tail that runs past it (RoundUp) or back into it
// (ShiftInwards) computes points of the next or the same outer iteration
// again: harmless in a pure definition, wrong in an update.
func innerSplitVars(splits []ir.Split) map[string]bool {
	inner := map[string]bool{}
	for _, sp := range splits {
		switch sp.Kind {
		case ir.SplitVar:
			inner[sp.Inner] = true
			if inner[sp.Old] {
				inner[sp.Outer] = true
			}
		case ir.FuseVars:
			if inner[sp.Inner] || inner[sp.Outer] {
				inner[sp.Old] = true
			}
		}
	}
	return inner
}

// splitPlan is how one split of a stage is lowered.
type splitPlan struct {
	tail  ir.TailStrategy
	exact bool // the extent is a known multiple of the factor: no tail
	old   loopBounds
}

// leavesRange reports whether the value of var q, rebuilt from the loops by
// splits, may lie below or above q's own range [min, min + extent), and
// which split is the first cause (-1 for none). A RoundUp tail runs past
// the end, a ShiftInwards tail longer than the extent starts before the
// min (strict: also when the extent is not a known constant), and a var
// inherits what its halves do, except that a GuardWithIf tail cuts off
// everything past the end; a var rfactor purified may leave it both ways. A var rebuilt from a fused var stays in range
// (the fuse is guarded where needed), and a loop var does too.
func leavesRange(q string, splits []ir.Split, plans []splitPlan, strict bool) (below, above bool, cause int) {
	for i, sp := range splits {
		if sp.Kind == ir.PurifyRVar && sp.Old == q {
			// q is a pure var, which runs over the Func's region (and
			// its tails), not over q's own range.
			return true, true, i
		}
		if sp.Kind != ir.SplitVar || sp.Old != q {
			continue
		}
		p := plans[i]
		ob, oa, oc := leavesRange(sp.Outer, splits, plans, strict)
		ib, ia, ic := leavesRange(sp.Inner, splits, plans, strict)
		below, above = ob || ib, oa || ia
		cause = max(oc, ic)
		if oc >= 0 && ic >= 0 {
			cause = min(oc, ic)
		}
		if !p.exact {
			e, ok := ir.AsInt(p.old.extent)
			switch {
			case p.tail == ir.RoundUp:
				above, cause = true, i
			case p.tail == ir.ShiftInwards && ((strict && !ok) || (ok && e < int64(sp.Factor))):
				below, cause = true, i
			case p.tail == ir.GuardWithIf:
				above = false
				if !below {
					cause = -1
				}
			}
		}
		return below, above, cause
	}
	return false, false, -1
}

// buildCase returns the loop nest of stage si of f, whose definition with
// the schedule of one of its cases is d; k is what the case's conditions
// make known (see specialize.go).
func buildCase(st *State, f *ir.Function, si int, d *ir.Definition, shared bool, k caseFacts) (ir.Stmt, error) {
	promised := st.promised
	if len(k.known) > 0 {
		promised = map[string]ir.Expr{}
		for n, e := range st.promised {
			promised[n] = e
		}
		for n, e := range k.known {
			promised[n] = e
		}
	}
	if ir.IsUndef(d.Value) {
		// A pure definition of Undef computes nothing: the updates
		// write f's values.
		return &ir.Evaluate{X: ir.Int(0)}, nil
	}
	prefix := stagePrefix(f.Name, si)
	output := f.Name == st.P.Output
	dims := map[string]loopBounds{}
	sub := map[string]ir.Expr{}
	roots := map[string]bool{}
	for _, a := range f.Args {
		mn, mx := v(prefix+a+".min"), v(prefix+a+".max")
		dims[a] = loopBounds{mn, ir.Simplify(ir.AddE(ir.SubE(mx, mn), ir.Int(1)))}
		sub[a] = v(prefix + a)
		roots[a] = true
	}
	if d.RDom != nil {
		for _, rv := range d.RDom.Vars {
			// Promised input bounds make RDoms over inputs constant, so
			// splits of them can be seen to be exact.
			dims[rv.Name] = loopBounds{ir.Simplify(k.apply(ir.Substitute(rv.Min, promised))), ir.Simplify(k.apply(ir.Substitute(rv.Extent, promised)))}
			sub[rv.Name] = v(prefix + rv.Name)
		}
	}
	args := make([]ir.Expr, len(d.Args))
	for i, a := range d.Args {
		args[i] = ir.Substitute(k.apply(a), sub)
	}
	var body ir.Stmt = &ir.Provide{Func: f.Name, Value: ir.Substitute(k.apply(d.Value), sub), Args: args, Atomic: d.Schedule.Atomic}
	if d.Predicate != nil {
		// RDom.Where: the update runs at the points where it holds.
		body = &ir.IfThenElse{Cond: ir.Substitute(k.apply(d.Predicate), sub), Then: body}
	}

	// A Func.bound fixes the region (bounds_inference) and the allocation
	// (allocation_bounds) of a pure var, so a constant bound's extent is the
	// extent of every stage's loop over it, and no split may run past it
	// (one known only at run time is checked then: withinBound).
	// (The output's bounds are its buffer's: tailCheck checks those.)
	bounded := map[string]bool{}
	boundExt := map[string]int64{}
	if !output {
		for _, b := range f.Schedule.Bounds {
			bounded[b.Var] = true
			if e, ok := ir.AsInt(ir.Simplify(k.apply(ir.Substitute(b.Extent, promised)))); ok {
				boundExt[b.Var] = e
			}
		}
	}

	// First the extents of the new loops and the tail of each split, then
	// the lets (a fuse needs to know whether later splits keep its fused
	// var in range).
	splits := d.Schedule.Splits
	plans := make([]splitPlan, len(splits))
	for i, sp := range splits {
		switch sp.Kind {
		case ir.SplitVar:
			old := dims[sp.Old]
			fac := ir.Int(int64(sp.Factor))
			e, isConst := ir.AsInt(old.extent)
			if c, ok := boundExt[sp.Old]; ok && roots[sp.Old] {
				e, isConst = c, true
			}
			exact := isConst && e%int64(sp.Factor) == 0
			rvar := isRVarName(d, sp.Old)
			inner := innerSplitVars(splits[:i])[sp.Old]
			// Like an output's, a bounded Func's storage ends where its
			// bound does: an update must not round up past it.
			tail := resolveTail(sp.Tail, si, rvar, output || bounded[sp.Old], inner)
			if bounded[sp.Old] {
				bounded[sp.Outer], bounded[sp.Inner] = true, true
			}
			if !exact && (tail == ir.ShiftInwards || tail == ir.RoundUp && inner) && (shared || recomputeAcrossThreads(d, sp.Outer)) {
				// The shifted last iteration (or, rounding up a var that
				// stems from an inner var, the first points of the next
				// outer iteration) recomputes points another thread of
				// the block writes: GuardWithIf computes each point once
				// and gives the same values.
				tail = ir.GuardWithIf
			}
			if si > 0 && inner && tail == ir.RoundUp && !exact {
				return nil, ir.Errorf(ir.ErrSchedule, f.Name, "split", "RoundUp on %s in update %d of %s would compute some points of the update twice: %s stems from the inner var of an earlier split, so rounding it up runs into the next iteration of the outer var", sp.Old, si-1, f.Name, sp.Old).
					WithLegal("GuardWithIf (or Auto), or a factor that divides %s's extent", sp.Old)
			}
			if output && !exact {
				if roots[sp.Old] {
					if tail == ir.ShiftInwards || tail == ir.RoundUp {
						st.tails = append(st.tails, tailCheck{f.Name, si, sp.Old, sp.Factor, tail, k.path})
					}
				} else if isConst && (tail == ir.RoundUp || (tail == ir.ShiftInwards && e < int64(sp.Factor))) {
					return nil, ir.Errorf(ir.ErrSchedule, f.Name, "split", "split of %s (extent %d) by %d with %s would write outside the output", sp.Old, e, sp.Factor, tail).
						WithLegal("GuardWithIf, or a factor that divides %d", e)
				}
			}
			if exact && isConst && e <= int64(sp.Factor) {
				// The whole loop fits in one inner iteration.
				dims[sp.Outer] = loopBounds{ir.Int(0), ir.Int(1)}
			} else {
				dims[sp.Outer] = loopBounds{ir.Int(0), ir.Simplify(ir.DivE(ir.AddE(old.extent, ir.Int(int64(sp.Factor-1))), fac))}
			}
			dims[sp.Inner] = loopBounds{ir.Int(0), fac}
			if isConst {
				old.extent = ir.Int(e)
			}
			plans[i] = splitPlan{tail: tail, exact: exact, old: old}
		case ir.FuseVars:
			in, out := dims[sp.Inner], dims[sp.Outer]
			// An empty region (a guarded-off tail) may give both loops
			// negative extents, whose product must not be a positive
			// count of iterations.
			dims[sp.Old] = loopBounds{ir.Int(0), ir.Simplify(ir.MulE(nonNegative(in.extent), nonNegative(out.extent)))}
			if bounded[sp.Inner] || bounded[sp.Outer] {
				bounded[sp.Old] = true
			}
		}
	}
	for _, b := range f.Schedule.Bounds {
		if output {
			break
		}
		below, above, c := leavesRange(b.Var, splits, plans, false)
		if !below && !above {
			continue
		}
		// A RoundUp tail runs past a bound whose extent is not a known
		// multiple of the factor only when it is not one at run time.
		var tails []roundUpTail
		if !below {
			ext := ir.Simplify(k.apply(ir.Substitute(b.Extent, promised)))
			tails = withinBound(b.Var, ext, splits, plans)
			for _, t := range tails {
				if k.path == nil && ir.IsConstValue(roundUpCond(splits[t.split], t.ext), 0) {
					below, c = true, t.split
				}
			}
		}
		if below {
			// Halide folds its check to false and fails every run (in
			// a case of a specialization, every run that takes it: the
			// check below).
			sp := splits[c]
			return nil, ir.Errorf(ir.ErrSchedule, f.Name, "split", "in %s, the split of %s by %d with %s runs %s past the bound of %s in %s (Func.bound fixes its region and its allocation)", stageName(f.Name, si), sp.Old, sp.Factor, plans[c].tail, b.Var, f.Name, b.Var).
				WithLegal("GuardWithIf, a factor that divides the bound's extent, or (in the pure definition) ShiftInwards by at most the extent")
		}
		for _, t := range tails {
			if check := boundTailCheck(f, si, b, splits[t.split], t.ext, k.path); !ir.IsConstValue(check.(*ir.AssertStmt).Cond, 1) {
				st.addFailCheck(check)
			}
		}
	}
	for i, sp := range splits {
		p := plans[i]
		switch sp.Kind {
		case ir.SplitVar:
			old, tail, exact := p.old, p.tail, p.exact
			fac := ir.Int(int64(sp.Factor))
			outer, inner := v(prefix+sp.Outer), v(prefix+sp.Inner)
			base := ir.Simplify(ir.AddE(ir.MulE(outer, fac), old.min))
			if tail == ir.ShiftInwards && !exact {
				base = ir.MinE(base, ir.Simplify(ir.SubE(ir.AddE(old.min, old.extent), fac)))
			}
			value := ir.AddE(base, inner)
			if tail == ir.GuardWithIf && !exact {
				last := ir.Simplify(ir.SubE(ir.AddE(old.min, old.extent), ir.Int(1)))
				cond := partitionGuard(d, sp, ir.LEE(v(prefix+sp.Old), last))
				body = &ir.IfThenElse{Cond: cond, Then: body}
			}
			body = &ir.LetStmt{Name: prefix + sp.Old, Value: value, Body: body}
		case ir.FuseVars:
			in, out := dims[sp.Inner], dims[sp.Outer]
			fused := v(prefix + sp.Old)
			// The outer var is fused / inner extent + min, which lies in the
			// outer loop's range because fused < inner extent * outer
			// extent. Interval arithmetic cannot see that through a division
			// by a symbolic extent, so the value carries it as a promise
			// (which costs nothing at run time).
			// So does the inner var, fused % inner extent + min: its range
			// is the inner loop's exactly, which the bounds of a modulo by
			// a symbolic extent (added to a min it is not correlated with)
			// would not show.
			outerMax := ir.Simplify(ir.SubE(ir.AddE(out.min, out.extent), ir.Int(1)))
			outerVal := &ir.Call{T: ir.Int32, Kind: ir.CallIntrinsic, Name: ir.IntrinsicUnsafePromiseClamped,
				Args: []ir.Expr{ir.AddE(ir.DivE(fused, in.extent), out.min), out.min, outerMax}}
			innerMax := ir.Simplify(ir.SubE(ir.AddE(in.min, in.extent), ir.Int(1)))
			innerVal := ir.Expr(ir.AddE(ir.ModE(fused, in.extent), in.min))
			if _, constant := ir.AsInt(in.extent); !constant {
				innerVal = &ir.Call{T: ir.Int32, Kind: ir.CallIntrinsic, Name: ir.IntrinsicUnsafePromiseClamped,
					Args: []ir.Expr{innerVal, in.min, innerMax}}
			}
			body = &ir.LetStmt{Name: prefix + sp.Inner, Value: innerVal,
				Body: &ir.LetStmt{Name: prefix + sp.Outer, Value: outerVal, Body: body}}
			if below, above, _ := leavesRange(sp.Old, splits[i+1:], plans[i+1:], true); below || above {
				// A later split runs the fused var past its extent (a
				// RoundUp tail, or a ShiftInwards tail longer than the
				// extent): those points are not points of the fused
				// loops (the outer var would leave its range and break
				// the promise, wrapping into the next row of storage),
				// so they are skipped, as with GuardWithIf.
				cond := partitionGuard(d, sp, ir.AndE(ir.LEE(ir.Int(0), fused), ir.LTE(fused, dims[sp.Old].extent)))
				body = &ir.IfThenElse{Cond: cond, Then: body}
			}
		case ir.PurifyRVar:
			// The RVar (piece) is the pure var: one point of the new
			// dimension per value (rfactor's intermediate).
			body = &ir.LetStmt{Name: prefix + sp.Old, Value: v(prefix + sp.Outer), Body: body}
		}
	}
	for _, dim := range placeVThreads(d.Schedule.Dims) {
		b, ok := dims[dim.Name]
		if !ok && ir.IsSingleThreadDim(dim.Name) {
			// gpu_single_thread's block and thread loops: one iteration.
			b = loopBounds{ir.Int(0), ir.Int(1)}
		}
		body = &ir.For{Name: prefix + dim.Name, Min: b.min, Extent: b.extent, Kind: dim.Kind, Body: body}
	}
	return body, nil
}

// placeVThreads moves the virtual thread loops (innermost first in dims)
// just inside the innermost GPU thread loop, keeping their order; without a
// thread loop they stay where they are.
func placeVThreads(dims []ir.Dim) []ir.Dim {
	var vts, rest []ir.Dim
	for _, d := range dims {
		if d.VThread {
			vts = append(vts, d)
		} else {
			rest = append(rest, d)
		}
	}
	if len(vts) == 0 {
		return dims
	}
	for i, d := range rest {
		if d.Kind == ir.GPUThread {
			out := append([]ir.Dim{}, rest[:i]...)
			out = append(out, vts...)
			return append(out, rest[i:]...)
		}
	}
	return dims
}

// buildStages returns the loop nests of all stages of f, in order.
func buildStages(st *State, f *ir.Function, shared bool) (ir.Stmt, error) {
	var stmts []ir.Stmt
	for si := range f.Stages() {
		s, err := buildStage(st, f, si, shared)
		if err != nil {
			return nil, err
		}
		stmts = append(stmts, s)
	}
	return ir.MakeBlock(stmts...), nil
}

func scheduleFunctions(st *State) error {
	st.promised = promisedBounds(st.P)
	clusterComputeWith(st)
	out := st.Funcs[st.P.Output]
	produce, err := buildStages(st, out, false)
	if err != nil {
		return err
	}
	var s ir.Stmt = &ir.ProducerConsumer{Func: out.Name, Producer: true, Body: produce}
	for i := len(st.Order) - 1; i >= 0; i-- {
		f := st.Funcs[st.Order[i]]
		if f.Name == out.Name {
			continue
		}
		if s, err = inject(st, s, f); err != nil {
			return err
		}
	}
	s = pruneDecidedCases(st, s)
	st.LoopNest = printLoopNest(s, prefetchNotes(st))
	s = separateCaseKernels(st, s)
	st.Stmt = ir.SubstituteStmt(s, st.promised)
	return nil
}

// promisedBounds returns the bounds users promised for inputs (SetBounds),
// by buffer variable: they replace the variables, so loops and sizes that
// depend on them become constants (Realize checks the buffers).
func promisedBounds(p *Pipeline) map[string]ir.Expr {
	promised := map[string]ir.Expr{}
	for _, in := range p.Inputs {
		for d, b := range in.Bounds {
			if b.Min != nil {
				promised[BufferVar(in.Name, "min", d)] = b.Min
			}
			if b.Extent != nil {
				promised[BufferVar(in.Name, "extent", d)] = b.Extent
			}
		}
	}
	out := p.Funcs[p.Output]
	for d, b := range out.Schedule.OutputBounds {
		if b.Min != nil {
			promised[BufferVar(out.Name, "min", d)] = b.Min
		}
		if b.Extent != nil {
			promised[BufferVar(out.Name, "extent", d)] = b.Extent
		}
	}
	return promised
}

// countCalls counts the calls to f in s.
func countCalls(s ir.Stmt, f string) int {
	n := 0
	ir.WalkStmt(s, func(ir.Stmt) bool { return true }, func(e ir.Expr) bool {
		if c, ok := e.(*ir.Call); ok && c.Kind == ir.CallFunc && c.Name == f {
			n++
		}
		return true
	})
	return n
}

// loopCalls counts the calls to f in the bodies of the loops called name
// in s (one per case of a specialized consumer), -1 for no such loop.
func loopCalls(s ir.Stmt, name, f string) int {
	n, found := 0, false
	ir.WalkStmt(s, func(x ir.Stmt) bool {
		if l, ok := x.(*ir.For); ok && l.Name == name {
			n += countCalls(l.Body, f)
			found = true
			return false
		}
		return true
	}, nil)
	if !found {
		return -1
	}
	return n
}

// findLoop returns the loop called name in s, or nil.
func findLoop(s ir.Stmt, name string) *ir.For {
	var found *ir.For
	ir.WalkStmt(s, func(x ir.Stmt) bool {
		if l, ok := x.(*ir.For); ok && l.Name == name {
			found = l
		}
		return found == nil
	}, nil)
	return found
}

// legalLoops lists the loops whose bodies contain all n uses of f, as
// "compute_at(g, x)" suggestions, outermost first.
func legalLoops(s ir.Stmt, f string, n int) string {
	legal := []string{"compute_root"}
	ir.WalkStmt(s, func(x ir.Stmt) bool {
		if l, ok := x.(*ir.For); ok {
			if countCalls(l.Body, f) == n {
				legal = append(legal, "compute_at("+loopFunc(l.Name)+", "+shortLoop(l.Name)+")")
				return true
			}
			return false
		}
		return true
	}, nil)
	return strings.Join(legal, ", ")
}

// loopFunc returns the Func of a loop name "f.s0.x.xo".
func loopFunc(name string) string {
	if i := strings.Index(name, ".s"); i >= 0 {
		return name[:i]
	}
	return name
}

// trimLoop removes the "f.s0." prefix of a loop name.
func trimLoop(name string) string {
	i := strings.Index(name, ".s")
	if i < 0 {
		return name
	}
	rest := name[i+2:]
	j := strings.Index(rest, ".")
	if j < 0 {
		return name
	}
	return rest[j+1:]
}

// shortLoop returns the last component of a loop name.
func shortLoop(name string) string {
	t := trimLoop(name)
	if i := strings.LastIndex(t, "."); i >= 0 {
		return t[i+1:]
	}
	return t
}

// innermostSite returns the name of the innermost loop containing all n
// uses of f ("" for the root). The loops of that name count together: a
// specialized consumer has one copy of the loop per case, each holding the
// uses of its case, and f is produced in each (inject wraps every loop of
// the name).
func innermostSite(s ir.Stmt, f string, n int) string {
	site := ""
	ir.WalkStmt(s, func(x ir.Stmt) bool {
		if l, ok := x.(*ir.For); ok {
			k := countCalls(l.Body, f)
			if k == n || k > 0 && loopCalls(s, l.Name, f) == n {
				site = l.Name
				return true
			}
			return false
		}
		return true
	}, nil)
	return site
}

// wrapLoopBody replaces the body of the loop called name by wrap(body).
func wrapLoopBody(s ir.Stmt, name string, wrap func(ir.Stmt) ir.Stmt) ir.Stmt {
	var mut func(ir.Stmt) ir.Stmt
	mut = func(x ir.Stmt) ir.Stmt {
		if l, ok := x.(*ir.For); ok && l.Name == name {
			return ir.WithBody(l, wrap(l.Body))
		}
		return ir.MapStmt(x, mut, nil)
	}
	return mut(s)
}

// inject places the production of f in s at its compute level and its
// storage at its store level. A level at a loop of a specialized stage is
// a loop in each case (levelLoops): f is produced (or stored) in every one.
func inject(st *State, s ir.Stmt, f *ir.Function) (ir.Stmt, error) {
	sched := f.Schedule
	var sites []string // nil: the root
	switch sched.Compute.Kind {
	case ir.LevelAt:
		all, err := levelLoopsEveryStage(st, f, sched.Compute, "compute_at")
		if err != nil {
			return nil, err
		}
		// The uses of f are counted only here and below, not for
		// compute_root: a walk of the whole statement per Func made long
		// pipelines quadratic. A level without a stage matches the loop
		// of every stage: f is computed in those that use it.
		n, in := countCalls(s, f.Name), 0
		var names []string
		for _, name := range all {
			if k := loopCalls(s, name, f.Name); k > 0 {
				in += k
				names = append(names, name)
			}
		}
		if in != n || len(names) == 0 {
			// The loop(s) of the stage the level picks: where f is not
			// called at all, or for the error.
			if names, err = levelLoops(st, f, sched.Compute, "compute_at"); err != nil {
				return nil, err
			}
		}
		if in != n {
			return nil, ir.Errorf(ir.ErrComputeAt, f.Name, "compute_at", "the loop %s does not contain every use of %s", strings.Join(names, " / "), f.Name).
				WithLegal("%s", legalLoops(s, f.Name, n))
		}
		sites = names
	case ir.LevelInline:
		if n := countCalls(s, f.Name); n > 0 {
			if site := innermostSite(s, f.Name, n); site != "" {
				sites = []string{site}
			}
		}
	}
	storeSites := sites
	separateStore := false
	switch sched.Store.Kind {
	case ir.LevelRoot:
		storeSites, separateStore = nil, true
	case ir.LevelAt:
		all, err := levelLoopsEveryStage(st, f, sched.Store, "store_at")
		if err != nil {
			return nil, err
		}
		// Of the loops a level without a stage matches, those around a
		// compute site of f (Halide realizes f in each matching loop
		// that computes it).
		var names []string
		for _, name := range all {
			if enclosesSite(s, name, sites) {
				names = append(names, name)
			}
		}
		if len(names) == 0 {
			if names, err = levelLoops(st, f, sched.Store, "store_at"); err != nil {
				return nil, err
			}
		}
		if site := siteOutside(s, names, sites); site != "" {
			return nil, ir.Errorf(ir.ErrComputeAt, f.Name, "store_at", "the store level %s does not enclose the compute level %s of %s", strings.Join(names, " / "), site, f.Name).
				WithLegal("store_root, or store_at a loop outside the compute_at loop")
		}
		for _, name := range names {
			if !enclosesSite(s, name, sites) {
				return nil, ir.Errorf(ir.ErrComputeAt, f.Name, "store_at", "the store level %s does not enclose the compute level of %s", name, f.Name).
					WithLegal("store_root, or store_at a loop outside the compute_at loop")
			}
		}
		storeSites, separateStore = names, true
	}
	shared := false
	for _, store := range orRoot(storeSites) {
		for _, site := range orRoot(sites) {
			// Every path to every copy of the site (one per case of a
			// specialized stage); a path that does not pass the store
			// loop has nothing to check. (Looking for the site only
			// inside the first copy of the store loop missed the cases
			// after the first: schedfuzz -seed 16002, schedule 81233.)
			if separateStore && site != store {
				if err := checkStoreOutsideParallel(s, f, store, site); err != nil {
					return nil, err
				}
			}
		}
		shared = shared || threadsShare(s, store, f)
	}
	stages, err := buildStages(st, f, shared)
	if err != nil {
		return nil, err
	}
	realize := func(body ir.Stmt) ir.Stmt {
		return &ir.Realize{Func: f.Name, T: f.T, Memory: sched.Memory, Body: body}
	}
	produce := func(body ir.Stmt) ir.Stmt {
		b := ir.MakeBlock(&ir.ProducerConsumer{Func: f.Name, Producer: true, Body: stages},
			&ir.ProducerConsumer{Func: f.Name, Producer: false, Body: body})
		if !separateStore {
			return realize(b)
		}
		return b
	}
	if sites == nil {
		s = produce(s)
	}
	for _, site := range sites {
		s = wrapLoopBody(s, site, produce)
	}
	if separateStore {
		if storeSites == nil {
			s = realize(s)
		}
		for _, store := range storeSites {
			s = wrapLoopBody(s, store, realize)
		}
	}
	return s, nil
}

// siteOutside returns a loop of sites that lies outside every loop of
// stores in s, or "".
func siteOutside(s ir.Stmt, stores, sites []string) string {
	out := ""
	var walk func(x ir.Stmt, in bool)
	walk = func(x ir.Stmt, in bool) {
		if out != "" {
			return
		}
		if l, ok := x.(*ir.For); ok {
			in = in || slices.Contains(stores, l.Name)
			if !in && slices.Contains(sites, l.Name) {
				out = l.Name
				return
			}
		}
		ir.VisitStmt(x, func(y ir.Stmt) { walk(y, in) }, nil)
	}
	walk(s, false)
	return out
}

// orRoot returns names, or the root ("") for none.
func orRoot(names []string) []string {
	if len(names) == 0 {
		return []string{""}
	}
	return names
}

// enclosesSite says whether every loop called store in s (one per case of
// a specialized stage, which may nest its loops differently) is, or
// contains, one of the loops sites (nil: the root, which no loop
// encloses), and there is one.
func enclosesSite(s ir.Stmt, store string, sites []string) bool {
	found, all := false, true
	ir.WalkStmt(s, func(x ir.Stmt) bool {
		l, ok := x.(*ir.For)
		if !ok || l.Name != store {
			return all
		}
		found = true
		in := false
		for _, site := range sites {
			in = in || site == store || findLoop(l.Body, site) != nil
		}
		all = all && in
		return false
	}, nil)
	return found && all
}

// stageName names stage si of f in messages: "the pure definition of f" or
// "update k of f".
func stageName(f string, si int) string {
	if si == 0 {
		return "the pure definition of " + f
	}
	return "update " + strconv.Itoa(si-1) + " of " + f
}

// nonNegative returns max(e, 0), or e when it is a constant.
func nonNegative(e ir.Expr) ir.Expr {
	if c, ok := ir.AsInt(e); ok {
		return ir.Int(max(c, 0))
	}
	return ir.MaxE(e, ir.Int(0))
}

// partitionGuard returns the tail guard cond of split (or fuse) sp of
// stage d, marked likely (true in the steady state, so gpu_partition may
// make a copy of the kernel without it) unless the stage is
// never_partition_all or a loop the split made, or split from one, is
// never_partition.
func partitionGuard(d *ir.Definition, sp ir.Split, cond ir.Expr) ir.Expr {
	never := d.Schedule.NeverPartition
	for _, dim := range d.Schedule.Dims {
		if dim.NeverPartition && (madeBy(dim.Name, sp.Outer) || madeBy(dim.Name, sp.Inner) || madeBy(dim.Name, sp.Old)) {
			never = true
		}
	}
	if never {
		return cond
	}
	return &ir.Call{T: ir.Bool, Kind: ir.CallIntrinsic, Name: ir.IntrinsicLikely, Args: []ir.Expr{cond}}
}

// madeBy reports whether the loop called name is the loop root or one
// split from it ("x.xo.xi" from "x.xo").
func madeBy(name, root string) bool {
	return name == root || strings.HasPrefix(name, root+".")
}

// roundUpTail is a RoundUp split (index split) whose old var, of extent
// ext, stems from a bounded var and runs it past its bound unless the
// factor divides ext.
type roundUpTail struct {
	split int
	ext   ir.Expr
}

// withinBound returns the RoundUp splits that run var q, rebuilt from the
// loops by splits, past its bound's region of extent ext, as leavesRange
// follows it (where that reports nothing below the region): a RoundUp
// tail on the way that does not divide the extent it splits, unless the
// GuardWithIf tail of an enclosing split, or the ShiftInwards tail of one
// whose outer var it stems from, keeps q in range.
// Halide's allocation bounds inference asserts the same thing at run time
// (halide_error_explicit_bounds_too_small).
func withinBound(q string, ext ir.Expr, splits []ir.Split, plans []splitPlan) []roundUpTail {
	for i, sp := range splits {
		if sp.Kind != ir.SplitVar || sp.Old != q {
			continue
		}
		p := plans[i]
		fac := ir.Int(int64(sp.Factor))
		outerExt := ir.Simplify(ir.DivE(ir.AddE(ext, ir.Int(int64(sp.Factor-1))), fac))
		outer, inner := withinBound(sp.Outer, outerExt, splits, plans), withinBound(sp.Inner, fac, splits, plans)
		if p.exact {
			return append(outer, inner...)
		}
		switch p.tail {
		case ir.RoundUp:
			return append(append([]roundUpTail{{i, ext}}, outer...), inner...)
		case ir.GuardWithIf:
			// The guard keeps q at most its max.
			return nil
		case ir.ShiftInwards:
			// The shifted base keeps the outer var's part in range, not
			// an inner var that runs past the factor.
			return inner
		}
		return append(outer, inner...)
	}
	return nil
}

// roundUpCond is the condition under which the RoundUp split sp of an
// extent ext stays inside it: the factor divides ext, or the loop is
// empty.
func roundUpCond(sp ir.Split, ext ir.Expr) ir.Expr {
	fac := ir.Int(int64(sp.Factor))
	return ir.Simplify(ir.Bin(ir.Or, ir.LEE(ext, ir.Int(0)), ir.Bin(ir.EQ, ir.ModE(ext, fac), ir.Int(0))))
}

// boundTailCheck is the host's check, before anything runs, that the
// RoundUp split sp of stage si of f, whose old var has extent ext there,
// does not run b.Var past f's bound, where f's stage runs (path; nil:
// always).
func boundTailCheck(f *ir.Function, si int, b ir.BoundDirective, sp ir.Split, ext, path ir.Expr) ir.Stmt {
	directive := "bound"
	if b.Min == nil {
		directive = "bound_extent"
	}
	cond := roundUpCond(sp, ext)
	if path != nil {
		cond = ir.Simplify(ir.Bin(ir.Or, &ir.Not{X: path}, cond))
	}
	what := fmt.Sprintf("the extent %s of %s", ir.ExprString(ext), sp.Old)
	if sp.Old == b.Var {
		what = fmt.Sprintf("its extent %s", ir.ExprString(ext))
	}
	msg := fmt.Sprintf("in %s, the split of %s by %d with RoundUp runs %s past the %s of %s in %s unless %s is a multiple of %d; it is", stageName(f.Name, si), sp.Old, sp.Factor, b.Var, directive, f.Name, b.Var, what, sp.Factor)
	return &ir.AssertStmt{
		Cond:    cond,
		Message: msg,
		Args:    []ir.Expr{ext},
		Error: &ir.Error{Code: ir.ErrOutOfBounds, Func: f.Name, Directive: "split",
			Msg:   strings.NewReplacer("%", "%%").Replace(msg) + " %s at run time",
			Legal: fmt.Sprintf("a %s of %s in %s whose extent the RoundUp factors divide, or GuardWithIf", directive, f.Name, b.Var)},
	}
}

// addFailCheck adds check to the host's checks before anything runs, once
// (a stage is built again for each place it is computed).
func (st *State) addFailCheck(check ir.Stmt) {
	a := check.(*ir.AssertStmt)
	for _, c := range st.failChecks {
		if b, ok := c.(*ir.AssertStmt); ok && b.Message == a.Message && ir.Equal(b.Cond, a.Cond) {
			return
		}
	}
	st.failChecks = append(st.failChecks, check)
}
