package lower

// compute_with_levels: move the productions that sit at a loop of a
// compute_with fusion to where the fused body can hold them. A Func X
// computed at a loop v of a stage S (compute_at(F, v)) where S is fused
// with another stage T down to a loop at or inside v:
//   - X is computed at S's innermost fused loop instead (its store level
//     too, where it was the compute level): the fused loops must nest
//     perfectly, and a production between two of them would break that.
//     X is then computed more often, over smaller regions; it computes the
//     same values (Halide computes it once at v, in the fused loop);
//   - a stage T fused with S through v (directly or through other fused
//     stages) that reads X reads a copy of X computed at T's innermost
//     fused loop (X_cw_<T's Func>): X at S's loop does not contain T's
//     uses before the fusion (compute_with runs after bounds inference).
//     The copy has X's definitions and schedule and computes X's values
//     where T needs them (Halide computes X once for all of them). Where
//     nothing at S reads X, X itself goes to the first such T.
//
// A Func with specializations, or fused with others itself, is not
// copied. Where nothing applies, the schedule is left as it is, and
// validate_schedules and compute_with judge it as before.
//
// Before: inline_functions. After: validate_schedules and
// schedule_functions see the moved levels and the copies (in State.Funcs
// and State.Order, each right after its original).

import (
	"slices"
	"strings"

	"github.com/gohalide/gohalide/ir"
)

func computeWithLevels(st *State) error {
	type stageRef struct {
		f  string
		si int
	}
	// fused: for each stage, its compute_with edges: the partner stage
	// and the stage's own fused loops, outermost first (qualified names).
	type edge struct {
		other stageRef
		loops []string
	}
	fused := map[stageRef][]edge{}
	loopsDownTo := func(d *ir.Definition, v string) []string {
		dims := d.Schedule.Dims // innermost first
		for i, dd := range dims {
			if ir.MatchDim(dd.Name, v) {
				var out []string
				for j := len(dims) - 1; j >= i; j-- {
					out = append(out, dims[j].Name)
				}
				return out
			}
		}
		return nil
	}
	for _, name := range st.Order {
		f := st.Funcs[name]
		for si, d := range f.Stages() {
			cw := d.Schedule.ComputeWith
			if cw == nil || st.Funcs[cw.Func] == nil {
				continue
			}
			p := st.Funcs[cw.Func]
			ps := cw.Stage
			if ps < 0 || ps >= len(p.Stages()) {
				continue
			}
			c, pr := stageRef{name, si}, stageRef{cw.Func, ps}
			cl, pl := loopsDownTo(d, cw.Var), loopsDownTo(p.Stages()[ps], cw.Var)
			if cl == nil || pl == nil || len(cl) != len(pl) {
				continue // compute_with reports it
			}
			fused[c] = append(fused[c], edge{pr, cl})
			fused[pr] = append(fused[pr], edge{c, pl})
		}
	}
	if len(fused) == 0 {
		return nil
	}
	short := func(q string) string { return q[strings.LastIndex(q, ".")+1:] }
	inGroup := func(name string) bool {
		for s := range fused {
			if s.f == name {
				return true
			}
		}
		return false
	}
	// leaf is the innermost fused loop of stage s among its edges whose
	// fused loops include v, with those edges.
	leaf := func(s stageRef, v string) (string, []edge) {
		var es []edge
		deepest := -1
		var at string
		for _, e := range fused[s] {
			k := -1
			for i, l := range e.loops {
				if ir.MatchDim(l, v) {
					k = i
				}
			}
			if k < 0 {
				continue
			}
			es = append(es, e)
			if len(e.loops)-1 > deepest {
				deepest, at = len(e.loops)-1, short(e.loops[len(e.loops)-1])
			}
		}
		return at, es
	}
	// The stages that run inside stage t's fused loops and read the Func
	// name: t itself, and the stages of the Funcs computed at t's
	// innermost fused loop (a copy made for t of a Func that reads name,
	// say), where t's Func is not name's own level.
	readersAt := func(t stageRef, v, name string) []*ir.Definition {
		var out []*ir.Definition
		tf := st.Funcs[t.f]
		if tf == nil {
			return nil
		}
		if d := tf.Stages()[t.si]; defReads(d, name) {
			out = append(out, d)
		}
		at, _ := leaf(t, v)
		for _, n := range st.Order {
			l := st.Funcs[n].Schedule.Compute
			if n == name || l.Kind != ir.LevelAt || l.Func != t.f || l.Var != at {
				continue
			}
			if levelStage(tf, n, l) != t.si {
				continue
			}
			for _, d := range st.Funcs[n].Stages() {
				if defReads(d, name) {
					out = append(out, d)
				}
			}
		}
		return out
	}
	// Consumers first: a copy made for a partner reads the Funcs its
	// original reads, which are then processed and copied for it too.
	order := append([]string(nil), st.Order...)
	slices.Reverse(order)
	for _, xn := range order {
		x := st.Funcs[xn]
		lvl := x.Schedule.Compute
		if lvl.Kind != ir.LevelAt || st.Funcs[lvl.Func] == nil {
			continue
		}
		f := st.Funcs[lvl.Func]
		si := levelStage(f, xn, lvl)
		if si >= len(f.Stages()) {
			continue
		}
		at, es := leaf(stageRef{lvl.Func, si}, lvl.Var)
		if len(es) == 0 {
			continue
		}
		move := func(fn *ir.Function, l ir.LoopLevel) {
			if fn.Schedule.Store == fn.Schedule.Compute {
				fn.Schedule.Store = l
			}
			fn.Schedule.Compute = l
		}
		if at != lvl.Var {
			nl := lvl
			nl.Var = at
			move(x, nl)
			st.logf(2, "compute_with_levels: %s is computed at %s.%s, the innermost fused loop, instead of %s\n", xn, lvl.Func, at, lvl.Var)
		}
		if len(x.Pure.Specializations) > 0 || inGroup(xn) {
			continue
		}
		// The stages fused with S through loop v, directly or through
		// others, that read X.
		seen := map[stageRef]bool{{lvl.Func, si}: true}
		queue := []stageRef{{lvl.Func, si}}
		var partners []stageRef
		for len(queue) > 0 {
			s := queue[0]
			queue = queue[1:]
			_, ses := leaf(s, lvl.Var)
			for _, e := range ses {
				if seen[e.other] {
					continue
				}
				seen[e.other] = true
				queue = append(queue, e.other)
				if e.other.f != lvl.Func && len(readersAt(e.other, lvl.Var, xn)) > 0 {
					partners = append(partners, e.other)
				}
			}
		}
		if len(partners) == 0 {
			continue
		}
		levelOf := func(t stageRef) (ir.LoopLevel, bool) {
			tAt, _ := leaf(t, lvl.Var)
			return ir.LoopLevel{Kind: ir.LevelAt, Func: t.f, Stage: t.si, Var: tAt}, tAt != ""
		}
		// Where nothing at S reads X, X itself goes to the first partner
		// (a copy would leave X unread), and the others get copies.
		if len(readersAt(stageRef{lvl.Func, si}, lvl.Var, xn)) == 0 {
			if l, ok := levelOf(partners[0]); ok {
				move(x, l)
				st.logf(2, "compute_with_levels: %s, not read by %s, is computed at %s.%s\n", xn, lvl.Func, l.Func, l.Var)
				partners = partners[1:]
			}
		}
		for _, t := range partners {
			l, ok := levelOf(t)
			if !ok {
				continue
			}
			cn := xn + "_cw_" + t.f
			if st.Funcs[cn] == nil {
				cloneTree(st, xn, "_cw_"+t.f, inGroup)
				move(st.Funcs[cn], l)
				st.logf(2, "compute_with_levels: %s reads %s through a copy, %s, computed at %s.%s\n", t.f, xn, cn, t.f, l.Var)
			}
			for _, d := range readersAt(t, lvl.Var, xn) {
				renameCalls(d, xn, cn)
			}
		}
	}
	return nil
}

// defReads reports whether stage d calls the Func name.
func defReads(d *ir.Definition, name string) bool {
	for _, e := range append(append([]ir.Expr{}, d.Args...), d.Evaluated()...) {
		if readsFunc(e, name) {
			return true
		}
	}
	return false
}

// renameCalls makes stage d call to instead of from.
func renameCalls(d *ir.Definition, from, to string) {
	var mut func(ir.Expr) ir.Expr
	mut = func(e ir.Expr) ir.Expr {
		e = ir.MapExpr(e, mut)
		if c, ok := e.(*ir.Call); ok && c.Kind == ir.CallFunc && c.Name == from {
			nc := *c
			nc.Name = to
			return &nc
		}
		return e
	}
	for i, a := range d.Args {
		d.Args[i] = mut(a)
	}
	d.Value = mut(d.Value)
	if d.Predicate != nil {
		d.Predicate = mut(d.Predicate)
	}
}

// cloneTree copies the Func name, as name+suffix, with the Funcs computed
// at its loops (recursively, where they have no specializations and are
// not fused themselves; the others stay shared), each copy computed and
// stored where its original is, at the copy of its level, and reading
// the copies. The copies go into st.Funcs and st.Order, each right after
// its original. A copy is fused with nothing (its stages lose their
// compute_with).
func cloneTree(st *State, name, suffix string, inGroup func(string) bool) {
	names := map[string]string{name: name + suffix}
	for grew := true; grew; {
		grew = false
		for _, n := range st.Order {
			f := st.Funcs[n]
			if _, done := names[n]; done || f.Schedule.Compute.Kind != ir.LevelAt || len(f.Pure.Specializations) > 0 || inGroup(n) {
				continue
			}
			if _, under := names[f.Schedule.Compute.Func]; under {
				names[n] = n + suffix
				grew = true
			}
		}
	}
	for old, nw := range names {
		f := st.Funcs[old]
		c := *f
		c.Name = nw
		c.Pure = copyDef(f.Pure)
		c.Updates = nil
		for _, u := range f.Updates {
			c.Updates = append(c.Updates, copyDef(u))
		}
		for _, d := range c.Stages() {
			d.Schedule.ComputeWith = nil
			for from, to := range names {
				renameCalls(d, from, to)
			}
		}
		for _, l := range []*ir.LoopLevel{&c.Schedule.Compute, &c.Schedule.Store} {
			if to, ok := names[l.Func]; ok && l.Kind == ir.LevelAt {
				l.Func = to
			}
		}
		st.Funcs[nw] = &c
		st.Order = insertAfter(st.Order, old, nw)
	}
}

// insertAfter returns order with name inserted right after after.
func insertAfter(order []string, after, name string) []string {
	for i, n := range order {
		if n == after {
			out := append([]string{}, order[:i+1]...)
			out = append(out, name)
			return append(out, order[i+1:]...)
		}
	}
	return append(order, name)
}
