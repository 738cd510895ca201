package lower

// validate_schedules: check the directives that need the whole pipeline to
// judge: compute and store levels name a realized Func and one of its loops,
// Func.bound names a pure var, tail strategies suit their stage, a
// parallel or GPU loop over an RVar runs independent iterations
// (or atomic ones reading only their own point), and the loops of an update's
// RVars keep the algorithm's order (rvar_order.go).
//
// Before: inline_functions, compute_with_levels. After: every LevelAt names an existing
// loop (schedule_functions still checks that the loop encloses every use).

import (
	"maps"
	"slices"
	"strings"

	"github.com/gohalide/gohalide/ir"
)

// levelLoop returns the full loop name (e.g. "g.s1.x.xo") of a LevelAt loop
// level, or an error listing the loops that exist. A level at a stage
// whose cases (specializations) have different loops there is an error
// (hoist_storage holds one allocation at one loop).
func levelLoop(st *State, f *ir.Function, l ir.LoopLevel, directive string) (string, error) {
	names, err := levelLoops(st, f, l, directive)
	if err != nil {
		return "", err
	}
	if len(names) > 1 {
		return "", ir.Errorf(ir.ErrComputeAt, f.Name, directive, "the cases of the specialized stage of %s name different loops %s (%s)", l.Func, l.Var, strings.Join(names, ", ")).
			WithLegal("a loop every case of %s has under one name, or the same splits of %s in every case", l.Func, l.Var)
	}
	return names[0], nil
}

// levelLoops returns the full names of the loop of a LevelAt loop level:
// one, or for a stage with specializations the loop the level names in
// each case (the same var may have been split differently; Halide matches
// a loop level by its var in every case too), without repeats. A case
// without the loop is an error listing the loops every case has.
func levelLoops(st *State, f *ir.Function, l ir.LoopLevel, directive string) ([]string, error) {
	return levelLoopsAt(st, f, l, directive, -1)
}

// levelLoopsAt is levelLoops at stage si of the level's Func (-1: the
// level's own stage, or the one anyStage picks for a level without one).
func levelLoopsAt(st *State, f *ir.Function, l ir.LoopLevel, directive string, si int) ([]string, error) {
	c, ok := st.Funcs[l.Func]
	if !ok {
		if _, exists := st.P.Funcs[l.Func]; exists {
			return nil, ir.Errorf(ir.ErrComputeAt, f.Name, directive, "%s is computed inline, so it has no loops to compute %s in", l.Func, f.Name).
				WithLegal("schedule %s with compute_root or compute_at first, or compute %s at a loop of one of %s's consumers", l.Func, f.Name, l.Func)
		}
		return nil, ir.Errorf(ir.ErrComputeAt, f.Name, directive, "%s is not a Func of this pipeline", l.Func)
	}
	if c == f {
		return nil, ir.Errorf(ir.ErrComputeAt, f.Name, directive, "%s cannot be computed inside its own loops", f.Name)
	}
	stages := c.Stages()
	if si < 0 {
		si = levelStage(c, f.Name, l)
	}
	if si >= len(stages) {
		return nil, ir.Errorf(ir.ErrComputeAt, f.Name, directive, "%s has no stage %d", c.Name, si)
	}
	cases := stageCases(stages[si])
	if len(cases) == 0 {
		cases = []*ir.Definition{stages[si]}
	}
	var names []string
	if l.Var == ir.OutermostVar {
		// Var::outermost(): around the stage's loop nest, which only the
		// hoist level supports (hoistStorage wraps the outermost loop).
		if directive != "hoist_storage" {
			return nil, ir.Errorf(ir.ErrComputeAt, f.Name, directive, "%s at %s's Outermost() level is not supported (only HoistStorage takes it)", directive, c.Name).
				WithLegal("%s at %s's outermost loop var, or at a loop of a consumer of %s outside it", directive, c.Name, c.Name)
		}
		for _, d := range cases {
			if n := len(d.Schedule.Dims); n > 0 {
				if q := stagePrefix(c.Name, si) + d.Schedule.Dims[n-1].Name; !slices.Contains(names, q) {
					names = append(names, q)
				}
			}
		}
		if len(names) == 0 {
			return nil, ir.Errorf(ir.ErrComputeAt, f.Name, directive, "stage %d of %s has no loops, so it has no Outermost() level", si, c.Name).
				WithLegal("hoist_storage_root, or hoist_storage at a loop of a consumer of %s", c.Name)
		}
		return names, nil
	}
	for _, d := range cases {
		found := ""
		for i := len(d.Schedule.Dims) - 1; i >= 0 && found == ""; i-- {
			if ir.MatchDim(d.Schedule.Dims[i].Name, l.Var) {
				found = stagePrefix(c.Name, si) + d.Schedule.Dims[i].Name
			}
		}
		if found == "" {
			if len(cases) == 1 {
				var all []string
				for i := len(d.Schedule.Dims) - 1; i >= 0; i-- {
					all = append(all, d.Schedule.Dims[i].Name)
				}
				return nil, ir.Errorf(ir.ErrComputeAt, f.Name, directive, "stage %d of %s has no loop %s", si, c.Name, l.Var).
					WithLegal("the loops of %s, outermost first: %s", c.Name, strings.Join(all, ", "))
			}
			return nil, notInEveryCase(f, c, si, cases, l.Var, directive)
		}
		if !slices.Contains(names, found) {
			names = append(names, found)
		}
	}
	return names, nil
}

// levelLoopsEveryStage returns the loops a LevelAt loop level matches. A
// level given with its stage (ComputeAtStage) matches the loops of that
// stage (levelLoops). One given without (ComputeAt(c, v), Halide's
// LoopLevel(c, v) with stage_index -1) matches, as Halide's
// LoopLevel::match does, the loop v of every stage of c that has one
// (in every case of a specialized stage), in stage order; f is then
// computed (or stored) in each of those loops whose body uses it (Halide's
// InjectFunctionRealization wraps every matching loop, and
// build_pipeline_group skips a loop that does not use f). Where no stage
// has the loop it is levelLoops' error.
func levelLoopsEveryStage(st *State, f *ir.Function, l ir.LoopLevel, directive string) ([]string, error) {
	c, ok := st.Funcs[l.Func]
	if !ok || c == f || l.Stage >= 0 {
		return levelLoops(st, f, l, directive)
	}
	var names []string
	for si := range c.Stages() {
		ns, err := levelLoopsAt(st, f, l, directive, si)
		if err != nil {
			continue
		}
		for _, n := range ns {
			if !slices.Contains(names, n) {
				names = append(names, n)
			}
		}
	}
	if len(names) == 0 {
		return levelLoops(st, f, l, directive)
	}
	return names, nil
}

// levelStage returns the stage of c that the loop level l, where f is
// computed or stored, names: its own, or for one given without a stage
// the one anyStage picks.
func levelStage(c *ir.Function, f string, l ir.LoopLevel) int {
	if l.Stage >= 0 {
		return l.Stage
	}
	return anyStage(c, f, l.Var)
}

// anyStage picks the stage of c that a loop level given without one
// (ComputeAt(c, v), not ComputeAtStage) names. Halide matches such a level
// against the loop v of any stage of c and computes f at the one whose
// body uses f: here the last stage that has a loop v and reads f itself
// (g(x, y) = 0; g(x, x) = f0(x, x) + ...; g(y, y) = f1(y, y) + ...
// computes f1 at the loop y of g's update that reads it, the last stage
// having no loop y). Where no stage with the loop reads f (f is read by a
// Func computed there), it is the last stage, whose loop then has to
// exist.
func anyStage(c *ir.Function, f, v string) int {
	stages := c.Stages()
	for si := len(stages) - 1; si >= 0; si-- {
		d := stages[si]
		has := v == ir.OutermostVar && len(d.Schedule.Dims) > 0 // every stage's
		for _, dim := range d.Schedule.Dims {
			has = has || ir.MatchDim(dim.Name, v)
		}
		if !has {
			continue
		}
		reads := false
		for _, e := range append(append([]ir.Expr{}, d.Args...), d.Evaluated()...) {
			reads = reads || readsFunc(e, f)
		}
		if reads {
			return si
		}
	}
	return len(stages) - 1
}

// notInEveryCase is the error for a loop level at loop q of stage si of c,
// a stage with specializations, which some case does not have: it lists
// the loops every case has (by the name a user gives them).
func notInEveryCase(f, c *ir.Function, si int, cases []*ir.Definition, q, directive string) error {
	var common []string
	first := cases[0].Schedule.Dims
	for i := len(first) - 1; i >= 0; i-- {
		short := first[i].Name
		if k := strings.LastIndex(short, "."); k >= 0 {
			short = short[k+1:]
		}
		in := true
		for _, d := range cases[1:] {
			has := false
			for _, dim := range d.Schedule.Dims {
				has = has || ir.MatchDim(dim.Name, short)
			}
			in = in && has
		}
		if in {
			common = append(common, short)
		}
	}
	legal := "compute_root"
	if len(common) > 0 {
		legal = "a loop every case of stage " + itoa(si) + " of " + c.Name + " has, outermost first: " + strings.Join(common, ", ")
	}
	return ir.Errorf(ir.ErrComputeAt, f.Name, directive, "stage %d of %s is specialized, and the loop %s is not in every case (its cases run with different loops), so the other cases have no place for %s (%s)", si, c.Name, q, f.Name, directive).
		WithLegal("%s", legal)
}

func validateSchedules(st *State) error {
	// A Func inline_functions substituted away has no storage to hoist.
	for _, name := range slices.Sorted(maps.Keys(st.P.Funcs)) {
		if h := st.P.Funcs[name].Schedule.Hoist; h.Kind != ir.LevelInline && st.Funcs[name] == nil {
			return ir.Errorf(ir.ErrComputeAt, name, "hoist_storage", "%s is scheduled hoist_storage but is computed inline, so it has no storage to hoist", name).
				WithLegal("compute_at %s at a loop inside the hoist level as well", name)
		}
	}
	// compute_with groups are fused in the pass compute_with, but their
	// legality (one loop level, loops the partners have) is checked here,
	// before schedule_functions places the fused productions together.
	if _, err := cwEdges(st); err != nil {
		return err
	}
	for _, name := range st.Order {
		f := st.Funcs[name]
		s := f.Schedule
		if s.Compute.Kind == ir.LevelAt {
			if _, err := levelLoopsEveryStage(st, f, s.Compute, "compute_at"); err != nil {
				return err
			}
		}
		if s.Store.Kind == ir.LevelAt {
			if _, err := levelLoopsEveryStage(st, f, s.Store, "store_at"); err != nil {
				return err
			}
		}
		if s.Hoist.Kind != ir.LevelInline {
			directive := "hoist_storage"
			if s.Hoist.Kind == ir.LevelRoot {
				directive = "hoist_storage_root"
			}
			switch {
			case s.Compute.Kind == ir.LevelInline:
				return ir.Errorf(ir.ErrComputeAt, name, directive, "%s is scheduled %s but is computed inline, so it has no storage to hoist", name, directive).
					WithLegal("compute_at %s at a loop inside the hoist level as well", name)
			case s.Compute.Kind == ir.LevelRoot && s.Hoist.Kind != ir.LevelRoot:
				return ir.Errorf(ir.ErrComputeAt, name, directive, "%s is computed at the root, outside every loop, so its storage cannot be hoisted to a loop", name).
					WithLegal("hoist_storage_root, or compute_at %s inside the hoist level", name)
			case s.Hoist.Kind == ir.LevelAt:
				if _, err := levelLoop(st, f, s.Hoist, directive); err != nil {
					return err
				}
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
			for _, a := range s.Aligns {
				if a.Var == b.Var {
					// A bound fixes the region, and schedule_functions
					// and allocation_bounds take its extent as the
					// loop's and the storage's: an alignment would
					// change both behind them.
					dir := "align_bounds"
					if a.ExtentOnly {
						dir = "align_extent"
					}
					return ir.Errorf(ir.ErrSchedule, name, dir, "%s is both bounded and aligned in %s: the bound fixes the region that %s would expand", name, b.Var, dir).
						WithLegal("Bound(%s, min, extent) with an aligned min and extent, or %s without Bound", b.Var, dir)
				}
			}
		}
		for si, sd := range f.Stages() {
			for _, d := range stageCases(sd) {
				if err := validateCase(f, si, d); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// validateCase checks the tails and RVar loops of stage si of f, d with
// the schedule of one of its cases.
func validateCase(f *ir.Function, si int, d *ir.Definition) error {
	name := f.Name
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
	if err := checkRVarLoops(f, si, d); err != nil {
		return err
	}
	if err := checkRVarOrder(f, si, d); err != nil {
		return err
	}
	return nil
}

// checkRVarLoops refuses a parallel or GPU loop over an RVar
// of update si of f whose iterations are not independent, unless the stage
// is Atomic() and reads f only at the point it writes (Halide's
// set_dim_type rule, with our Atomic() as its atomic(true)):
// iterations that run at once could write the same point or read a point
// another one writes. AllowRaceConditions() accepts those races (Halide's
// escape from the same rule).
func checkRVarLoops(f *ir.Function, si int, d *ir.Definition) error {
	if d.Schedule.AllowRaceConditions {
		return nil
	}
	for _, dim := range d.Schedule.Dims {
		// A vectorized loop is not among them, unlike in Halide: its
		// lanes run in order (the CPU runs it as a loop, and vector_access
		// keeps a kernel's loop that reads the buffer it stores to a loop),
		// so it keeps the order as Unroll does.
		directive, ok := map[ir.ForKind]string{ir.Parallel: "parallel", ir.GPUBlock: "gpu_blocks", ir.GPUThread: "gpu_threads"}[dim.Kind]
		if !ok || !dim.IsRVar || loopIndependent(f.Name, d, dim.Name) {
			continue
		}
		if d.Schedule.Atomic && readsOnlyOwnPoint(f, d) {
			continue
		}
		if dim.Kind == ir.GPUThread && threadReducible(f, d, dim.Name) {
			continue // an all-reduce across the threads (gpu_thread_reduce.go)
		}
		if d.Schedule.Atomic {
			return ir.Errorf(ir.ErrSchedule, f.Name, directive, "marking the RVar loop %s of stage %d of %s %s may change the meaning of the update even with Atomic(): atomic stores keep each read-modify-write of one point whole, but the update reads points of %s other than the one it writes, which other iterations may be writing", dim.Name, si, f.Name, dim.Kind, f.Name).
				WithLegal("run a pure var in parallel, or keep the RVar loops serial")
		}
		return ir.Errorf(ir.ErrSchedule, f.Name, directive, "marking the RVar loop %s of stage %d of %s %s may introduce a race condition: iterations may write the same point", dim.Name, si, f.Name, dim.Kind).
			WithLegal("call Atomic() on the stage to make its stores atomic, run a pure var in parallel, or call AllowRaceConditions() on the stage if the writes cannot collide or a racing result is acceptable")
	}
	return nil
}

// isRVarName reports whether the stage's var q (qualified) derives from an
// RVar: by its name (an RVar's splits), or through a fuse with one (a
// pure var fused with an RVar, and the pieces of its splits).
func isRVarName(d *ir.Definition, q string) bool {
	if d.RDom == nil {
		return false
	}
	for _, rv := range d.RDom.Vars {
		if q == rv.Name || strings.HasPrefix(q, rv.Name+".") {
			return true
		}
	}
	for _, sp := range d.Schedule.Splits {
		if sp.Kind == ir.FuseVars {
			return len(newRVarLoops(d).rvars(q)) > 0
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
	// Every copy of the site (one per case of a specialized stage).
	for _, path := range loopPaths(s, site, -1) {
		if err := checkPathOutsideParallel(path, f, storeSite); err != nil {
			return err
		}
	}
	return nil
}

// checkPathOutsideParallel is checkStoreOutsideParallel on one path of
// loops from the root to the compute site.
func checkPathOutsideParallel(path []*ir.For, f *ir.Function, storeSite string) error {
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
