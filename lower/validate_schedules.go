package lower

// validate_schedules: check the directives that need the whole pipeline to
// judge: compute and store levels name a realized Func and one of its loops,
// Func.bound names a pure var, tail strategies suit their stage, and a
// parallel loop over an RVar is atomic.
//
// Before: inline_functions has run. After: every LevelAt names an existing
// loop (schedule_functions still checks that the loop encloses every use).

import (
	"strings"

	"github.com/gohalide/gohalide/ir"
)

// levelLoop returns the full loop name (e.g. "g.s1.x.xo") of a LevelAt loop
// level, or an error listing the loops that exist.
func levelLoop(st *State, f *ir.Function, l ir.LoopLevel, directive string) (string, error) {
	c, ok := st.Funcs[l.Func]
	if !ok {
		if _, exists := st.P.Funcs[l.Func]; exists {
			return "", ir.Errorf(ir.ErrComputeAt, f.Name, directive, "%s is computed inline, so it has no loops to compute %s in", l.Func, f.Name).
				WithLegal("schedule %s with compute_root or compute_at first, or compute %s at a loop of one of %s's consumers", l.Func, f.Name, l.Func)
		}
		return "", ir.Errorf(ir.ErrComputeAt, f.Name, directive, "%s is not a Func of this pipeline", l.Func)
	}
	if c == f {
		return "", ir.Errorf(ir.ErrComputeAt, f.Name, directive, "%s cannot be computed inside its own loops", f.Name)
	}
	stages := c.Stages()
	si := l.Stage
	if si < 0 {
		si = len(stages) - 1
	}
	if si >= len(stages) {
		return "", ir.Errorf(ir.ErrComputeAt, f.Name, directive, "%s has no stage %d", c.Name, si)
	}
	var all []string
	for i := len(stages[si].Schedule.Dims) - 1; i >= 0; i-- {
		d := stages[si].Schedule.Dims[i]
		all = append(all, d.Name)
		if ir.MatchDim(d.Name, l.Var) {
			return stagePrefix(c.Name, si) + d.Name, nil
		}
	}
	return "", ir.Errorf(ir.ErrComputeAt, f.Name, directive, "stage %d of %s has no loop %s", si, c.Name, l.Var).
		WithLegal("the loops of %s, outermost first: %s", c.Name, strings.Join(all, ", "))
}

func validateSchedules(st *State) error {
	for _, name := range st.Order {
		f := st.Funcs[name]
		s := f.Schedule
		if s.Compute.Kind == ir.LevelAt {
			if _, err := levelLoop(st, f, s.Compute, "compute_at"); err != nil {
				return err
			}
		}
		if s.Store.Kind == ir.LevelAt {
			if _, err := levelLoop(st, f, s.Store, "store_at"); err != nil {
				return err
			}
		}
		if s.Store.Kind != ir.LevelInline && s.Compute.Kind == ir.LevelRoot && s.Store.Kind != ir.LevelRoot {
			return ir.Errorf(ir.ErrComputeAt, name, "store_at", "%s is computed at the root, so it must be stored at the root", name)
		}
		for _, b := range s.Bounds {
			found := false
			for _, a := range f.Args {
				found = found || a == b.Var
			}
			if !found {
				return ir.Errorf(ir.ErrUnknownVar, name, "bound", "%s has no pure var %s", name, b.Var).
					WithLegal("one of %s", strings.Join(f.Args, ", "))
			}
		}
		for si, d := range f.Stages() {
			for k, sp := range d.Schedule.Splits {
				if sp.Kind != ir.SplitVar {
					continue
				}
				rvar := isRVarName(d, sp.Old)
				if sp.Tail == ir.ShiftInwards && si > 0 {
					legal := "GuardWithIf, or RoundUp (Auto picks one)"
					if rvar || innerSplitVars(d.Schedule.Splits[:k])[sp.Old] {
						// RoundUp is refused there too (schedule_functions).
						legal = "GuardWithIf (or Auto)"
					}
					return ir.Errorf(ir.ErrSchedule, name, "split", "ShiftInwards on %s in update %d of %s would compute some points twice, and an update is not idempotent", sp.Old, si-1, name).
						WithLegal("%s", legal)
				}
				if sp.Tail == ir.RoundUp && rvar {
					return ir.Errorf(ir.ErrSchedule, name, "split", "RoundUp on the RVar %s of %s would reduce over points outside the RDom", sp.Old, name).
						WithLegal("GuardWithIf")
				}
			}
			for _, dim := range d.Schedule.Dims {
				if (dim.Kind == ir.Parallel || dim.Kind == ir.GPUBlock || dim.Kind == ir.GPUThread) && dim.IsRVar && !d.Schedule.Atomic && !rvarLoopWritesOwnPoints(name, d, dim.Name) {
					directive := map[ir.ForKind]string{ir.Parallel: "parallel", ir.GPUBlock: "gpu_blocks", ir.GPUThread: "gpu_threads"}[dim.Kind]
					return ir.Errorf(ir.ErrSchedule, name, directive, "marking the RVar loop %s of stage %d of %s %s may introduce a race condition: iterations may write the same point", dim.Name, si, name, dim.Kind).
						WithLegal("call Atomic() on the stage to make its stores atomic, or run a pure var in parallel")
				}
			}
		}
	}
	return nil
}

// rvarLoopWritesOwnPoints reports whether the iterations of the loop dim
// of update d of f write disjoint points and read no point another iteration
// writes, so that they may run in parallel without atomics (Halide proves
// the same): the loop derives (by splits) from one RVar r alone, r is a
// bare argument of the left-hand side in some position i, and every use
// of the Func on the right-hand side has r in position i too (the
// iteration's own points) or a constant outside r's range there.
func rvarLoopWritesOwnPoints(f string, d *ir.Definition, dim string) bool {
	roots := map[string]map[string]bool{}
	root := func(n string) map[string]bool {
		if r, ok := roots[n]; ok {
			return r
		}
		return map[string]bool{n: true}
	}
	for _, sp := range d.Schedule.Splits {
		switch sp.Kind {
		case ir.SplitVar:
			roots[sp.Outer], roots[sp.Inner] = root(sp.Old), root(sp.Old)
		case ir.FuseVars:
			u := map[string]bool{}
			for n := range root(sp.Inner) {
				u[n] = true
			}
			for n := range root(sp.Outer) {
				u[n] = true
			}
			roots[sp.Old] = u
		}
	}
	r := root(dim)
	if len(r) != 1 || d.RDom == nil {
		return false
	}
	var rv *ir.RVar
	for i := range d.RDom.Vars {
		if r[d.RDom.Vars[i].Name] {
			rv = &d.RDom.Vars[i]
		}
	}
	if rv == nil {
		return false
	}
	pos := -1
	for i, a := range d.Args {
		if v, ok := a.(*ir.Var); ok && v.Name == rv.Name {
			pos = i
		}
	}
	if pos < 0 {
		return false
	}
	last := ir.Simplify(ir.SubE(ir.AddE(rv.Min, rv.Extent), ir.Int(1)))
	own := true
	ir.WalkExpr(d.Value, func(e ir.Expr) bool {
		c, ok := e.(*ir.Call)
		if !ok || c.Kind != ir.CallFunc || !own {
			return own
		}
		if len(c.Args) != len(d.Args) || c.Name != f {
			return true
		}
		a := c.Args[pos]
		if v, ok := a.(*ir.Var); ok && v.Name == rv.Name {
			return true
		}
		if !ir.IsConst(a) || !(ir.CanProve(ir.LTE(a, rv.Min)) || ir.CanProve(ir.LTE(last, a))) {
			own = false
		}
		return own
	})
	return own
}

// isRVarName reports whether the stage's var q (qualified) derives from an RVar.
func isRVarName(d *ir.Definition, q string) bool {
	if d.RDom != nil {
		for _, rv := range d.RDom.Vars {
			if q == rv.Name || strings.HasPrefix(q, rv.Name+".") {
				return true
			}
		}
	}
	return false
}

// checkStoreOutsideParallel rejects f stored at storeSite ("" is the root)
// outside a parallel or GPU block loop that its compute site lies in: the
// iterations of that loop run at the same time and would all compute into
// the one copy (Halide rejects this as a potential race too). Thread loops
// are different: a copy stored outside them is the block's shared one.
func checkStoreOutsideParallel(s ir.Stmt, f *ir.Function, storeSite, site string) error {
	path := loopPath(s, site)
	inside := storeSite == ""
	for _, l := range path {
		if inside && (l.Kind == ir.Parallel || l.Kind == ir.GPUBlock) {
			directive := "store_at"
			if storeSite == "" {
				directive = "store_root"
			}
			return ir.Errorf(ir.ErrSchedule, f.Name, directive, "%s is stored outside the %s loop %s but computed inside it: the loop's iterations run at the same time and would all compute into one copy of %s", f.Name, kindWord(l.Kind), l.Name, f.Name).
				WithLegal("store %s at %s or a loop inside it (or where it is computed), or compute it outside %s", f.Name, shortLoop(l.Name), shortLoop(l.Name))
		}
		if l.Name == storeSite {
			inside = true
		}
	}
	return nil
}

func kindWord(k ir.ForKind) string {
	if k == ir.GPUBlock {
		return "GPU block"
	}
	return "parallel"
}
