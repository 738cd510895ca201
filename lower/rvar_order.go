package lower

// rvar_order: which schedules of an update keep its meaning. The algorithm
// runs an update's RDom with its first dimension innermost; a schedule may
// change that order (reorder, tile, split pieces swapped, fuse, GPU loops)
// or run iterations at once (parallel and GPU loops) only where the
// compiler proves that the iterations it moves are independent, as Halide
// does (Stage::reorder, Stage::set_dim_type):
//
//   - rvarIndependent: the iterations of one RVar write disjoint points and
//     read no point another iteration writes (every dimension of an
//     update's RVar loops is judged by it: parallel, GPU, order);
//   - anyOrder: the update is f(args) = f(args) op e with op associative
//     and commutative and e not reading f (associativity.go; or writes a value that no RVar
//     changes), or it is Atomic() and reads f only at the point it writes
//     (our Atomic() is Halide's atomic(true): the user asserts that the
//     updates of one point commute; the atomic store keeps each whole), so
//     its iterations may run in any order.
//
// checkRVarOrder applies the order rule to the final loop nest of a stage
// (validate_schedules calls it; checkRVarLoops there calls
// loopIndependent and anyOrder too).

import (
	"strings"

	"github.com/gohalide/gohalide/ir"
)

// rvarLoops records how the loops of a stage derive from its RDom's RVars
// through splits and fuses.
type rvarLoops struct {
	d *ir.Definition
	// segs maps a loop to the loops it iterates, outermost first: itself,
	// or for a fused loop those of its outer then its inner loop.
	segs map[string][]string
	// from maps a loop to itself and every loop it was split or fused
	// from (a piece of a split fused loop derives from all the fused ones).
	from map[string]map[string]bool
	// fused are the loops fuses made, whether or not later splits replaced
	// them: a fused loop runs its outer loops' iterations outside its inner
	// ones', an order the pieces of a split of it keep.
	fused []string
	// edges are the nestings the algorithm's order fixes: each RVar outside
	// the RDom's earlier ones, and each split's outer piece outside its
	// inner piece.
	edges []orderEdge
}

// orderEdge says loop outer runs outside loop inner in the algorithm.
type orderEdge struct {
	outer, inner string
	// old is the loop a split made the two from ("" for two RVars).
	old string
}

func newRVarLoops(d *ir.Definition) *rvarLoops {
	t := &rvarLoops{d: d, segs: map[string][]string{}, from: map[string]map[string]bool{}}
	if d.RDom != nil {
		vs := d.RDom.Vars
		for i := range vs {
			for j := i + 1; j < len(vs); j++ {
				t.edges = append(t.edges, orderEdge{outer: vs[j].Name, inner: vs[i].Name})
			}
		}
	}
	for _, sp := range d.Schedule.Splits {
		switch sp.Kind {
		case ir.SplitVar:
			anc := map[string]bool{}
			for _, s := range t.segsOf(sp.Old) {
				for n := range t.fromOf(s) {
					anc[n] = true
				}
			}
			for _, n := range []string{sp.Outer, sp.Inner} {
				a := map[string]bool{n: true}
				for m := range anc {
					a[m] = true
				}
				t.from[n] = a
				t.segs[n] = []string{n}
			}
			t.edges = append(t.edges, orderEdge{outer: sp.Outer, inner: sp.Inner, old: sp.Old})
		case ir.FuseVars:
			t.segs[sp.Old] = append(append([]string{}, t.segsOf(sp.Outer)...), t.segsOf(sp.Inner)...)
			t.fused = append(t.fused, sp.Old)
		}
	}
	return t
}

func (t *rvarLoops) segsOf(n string) []string {
	if s, ok := t.segs[n]; ok {
		return s
	}
	return []string{n}
}

func (t *rvarLoops) fromOf(n string) map[string]bool {
	if a, ok := t.from[n]; ok {
		return a
	}
	return map[string]bool{n: true}
}

// hasPure reports whether loop n derives from a pure var too: a fuse of a
// pure var and an RVar (or a piece of one), an RVar loop whose iterations
// also range over points of the pure var.
func (t *rvarLoops) hasPure(n string) bool {
	for _, s := range t.segsOf(n) {
		for m := range t.fromOf(s) {
			if !isRVarName(t.d, m) {
				return true
			}
		}
	}
	return false
}

// rvars returns the RVars loop n derives from.
func (t *rvarLoops) rvars(n string) []string {
	var out []string
	if t.d.RDom == nil {
		return nil
	}
	for _, rv := range t.d.RDom.Vars {
		for _, s := range t.segsOf(n) {
			if t.fromOf(s)[rv.Name] {
				out = append(out, rv.Name)
				break
			}
		}
	}
	return out
}

// rvarIndependent reports whether the iterations of the RVar rv of update
// d of f write disjoint points and read no point another iteration writes,
// so that they may run in any order or at once (Halide proves the same):
// some argument of the left-hand side is an injective function of rv,
// rv*k + c with k != 0 and c invariant in the stage's loops (injectiveIn),
// and every use of f on the right-hand side reads, in one such position,
// exactly the iteration's own expression (so only points of the iteration
// itself), or provably no point any iteration writes.
func rvarIndependent(f string, d *ir.Definition, rvName string) bool {
	if d.RDom == nil {
		return false
	}
	var rv *ir.RVar
	for i := range d.RDom.Vars {
		if d.RDom.Vars[i].Name == rvName {
			rv = &d.RDom.Vars[i]
		}
	}
	if rv == nil {
		return false
	}
	ext, extOK := ir.AsInt(ir.Simplify(rv.Extent))
	// The positions where the written point is injective in rv, with
	// their coefficient k.
	type inj struct {
		pos int
		k   int64
	}
	var injs []inj
	for i, a := range d.Args {
		k, ok := injectiveIn(a, rv.Name)
		if !ok || !a.Type().IsIntOrUInt() {
			continue
		}
		// rv*k + c must not wrap around over rv's range: with a constant
		// extent |k|*(|min| + extent) stays far below 2^(bits-1); with
		// another extent, an odd k is a bijection modulo 2^bits.
		bits := a.Type().Bits
		if bits < 8 || bits > 64 {
			continue
		}
		mn, mnOK := ir.AsInt(ir.Simplify(rv.Min))
		if extOK && mnOK {
			lim := int64(1) << 30
			if bits < 32 {
				lim = int64(1) << (bits - 2)
			}
			if mn < 0 {
				mn = -mn
			}
			if ext < 0 || ext > lim || mn > lim || absI(k) > lim/(mn+ext+1) {
				continue
			}
		} else if k%2 == 0 {
			continue
		}
		injs = append(injs, inj{i, k})
	}
	if len(injs) == 0 {
		return false
	}
	last := ir.Simplify(ir.SubE(ir.AddE(rv.Min, rv.Extent), ir.Int(1)))
	// noWrite reports whether a read at a in position p of injective
	// coefficient k provably misses every point an iteration writes.
	noWrite := func(p int, k int64, a ir.Expr) bool {
		w := d.Args[p]
		// a - w = k*m reads iteration rv + m's point: none if k does not
		// divide the difference or |m| is at least rv's extent
		// (parallel_rvar.cpp's f(r.x + 20, r.y), r.x in [0, 12)).
		if dl, ok := ir.AsInt(ir.Simplify(ir.SubE(a, w))); ok {
			if dl%k != 0 {
				return true
			}
			m := dl / k
			return extOK && (m >= ext || -m >= ext)
		}
		// A constant read: the iteration m = (a - c) / k writes it, if
		// k divides a - c and m lies in rv's range.
		av, aok := ir.AsInt(a)
		cv, cok := ir.AsInt(ir.Simplify(ir.Substitute(w, map[string]ir.Expr{rv.Name: ir.Int(0)})))
		if !aok || !cok {
			return false
		}
		if (av-cv)%k != 0 {
			return true
		}
		m := ir.Int((av - cv) / k)
		return ir.CanProve(ir.LTE(m, rv.Min)) || ir.CanProve(ir.LTE(last, m))
	}
	own := true
	walkEvaluated(d, func(e ir.Expr) bool {
		c, ok := e.(*ir.Call)
		if !ok || c.Kind != ir.CallFunc || !own {
			return own
		}
		if len(c.Args) != len(d.Args) || c.Name != f {
			return true
		}
		for _, in := range injs {
			if ir.Equal(c.Args[in.pos], d.Args[in.pos]) || noWrite(in.pos, in.k, c.Args[in.pos]) {
				return true
			}
		}
		for j, w := range d.Args {
			// A read at another constant than the one every iteration
			// writes in position j (parallel_rvar.cpp's f(r2, 0) +=
			// f(r2 - 1, 1)) reads no point the loop writes.
			wv, wok := ir.AsInt(w)
			rv, rok := ir.AsInt(c.Args[j])
			if wok && rok && wv != rv {
				return true
			}
		}
		own = false
		return false
	})
	return own
}

func absI(k int64) int64 {
	if k < 0 {
		return -k
	}
	return k
}

// injectiveIn returns k if e is rv*k + c for a constant k != 0 and a c
// that every iteration of the stage's loops sees the same: built of
// constants and scalar parameters only (no other var, whose loop could
// change c between two iterations of rv's: f(r.x + r.y) writes f(1) at
// both (0, 1) and (1, 0) of a loop fused from r.x and r.y), and no call.
// The forms are rv, e + c, c + e, e - c, c - e, e * k and k * e.
func injectiveIn(e ir.Expr, rv string) (int64, bool) {
	const maxK = int64(1) << 20
	invariant := func(c ir.Expr) bool {
		return !ir.ContainsExpr(c, func(x ir.Expr) bool {
			switch x := x.(type) {
			case *ir.Var:
				return x.Param == nil
			case *ir.Call:
				return true
			}
			return false
		})
	}
	switch e := e.(type) {
	case *ir.Var:
		if e.Name == rv {
			return 1, true
		}
	case *ir.Binary:
		ua, ub := ir.Uses(e.A, rv), ir.Uses(e.B, rv)
		switch {
		case e.Op == ir.Add && ua && invariant(e.B):
			return injectiveIn(e.A, rv)
		case e.Op == ir.Add && ub && invariant(e.A):
			return injectiveIn(e.B, rv)
		case e.Op == ir.Sub && ua && invariant(e.B):
			return injectiveIn(e.A, rv)
		case e.Op == ir.Sub && ub && invariant(e.A):
			k, ok := injectiveIn(e.B, rv)
			return -k, ok
		case e.Op == ir.Mul && (ua || ub):
			x, c := e.A, e.B
			if ub {
				x, c = e.B, e.A
			}
			m, mok := ir.AsInt(c)
			k, ok := injectiveIn(x, rv)
			if !ok || !mok || m == 0 || absI(m) > maxK || absI(k) > maxK {
				return 0, false
			}
			return k * m, true
		}
	}
	return 0, false
}

// loopIndependent reports whether the iterations of loop dim of update d
// of f are independent: the loop derives (by splits and fuses) from RVars
// whose iterations are each independent.
func loopIndependent(f string, d *ir.Definition, dim string) bool {
	// Two iterations of a loop fused from several RVars differ in one of
	// them at least: if each RVar's iterations are independent, so are the
	// loop's (parallel_rvar.cpp's tile(r.x, r.y).fuse().parallel()).
	rs := newRVarLoops(d).rvars(dim)
	if len(rs) == 0 {
		return false
	}
	for _, r := range rs {
		if !rvarIndependent(f, d, r) {
			return false
		}
	}
	return true
}

// reassociable reports whether the iterations of update d of f may run in
// any order: its value is f(args) op e for an associative and commutative
// op and an e that does not read f (ProveAssociative: +, *, min, max, the
// logical and bitwise and, or and xor; for a Tuple Func, each value so),
// or another commutative reduction ProveReduction knows (a saturating
// add, a complex product; not argmin or argmax), or it reads neither f nor any
// RVar (every iteration stores the same value at a point). Integer + and
// * wrap, which keeps them associative; float + and * round differently in
// another order, which Halide accepts too (its reorder and rfactor treat
// them as associative).
func reassociable(f *ir.Function, d *ir.Definition) bool {
	if d.RDom == nil || d.Predicate != nil && readsFunc(d.Predicate, f.Name) {
		return false
	}
	if r, ok := ProveReduction(f.Name, d.Args, d.Value, f.ValueTypes()); ok {
		return r.Commutative
	}
	if readsFunc(d.Value, f.Name) {
		return false
	}
	for _, rv := range d.RDom.Vars {
		if ir.Uses(d.Value, rv.Name) {
			return false
		}
	}
	return true
}

// walkEvaluated walks the value and the predicate of d (see WalkExpr).
func walkEvaluated(d *ir.Definition, f func(ir.Expr) bool) {
	for _, e := range d.Evaluated() {
		ir.WalkExpr(e, f)
	}
}

// readsOnlyOwnPoint reports whether the value of update d reads f only at
// the point it writes (f(args) with the left-hand side's args), so that
// an atomic store makes each iteration's read-modify-write of that point
// whole. Atomic() asks for that and asserts that the updates of one point
// commute (as Halide's atomic(true) does, which skips its associativity
// proof; min(f(args) + 1, 100) is such an update).
func readsOnlyOwnPoint(f *ir.Function, d *ir.Definition) bool {
	ok := true
	walkEvaluated(d, func(e ir.Expr) bool {
		if c, isCall := e.(*ir.Call); isCall && c.Kind == ir.CallFunc && c.Name == f.Name {
			ok = ok && isSelf(f, d, c)
			return false
		}
		return ok
	})
	return ok
}

// isSelf reports whether e is f at the point update d writes.
func isSelf(f *ir.Function, d *ir.Definition, e ir.Expr) bool {
	c, ok := e.(*ir.Call)
	return ok && isSelfCall(f.Name, d.Args, c.Index, e)
}

func readsFunc(e ir.Expr, f string) bool {
	return ir.ContainsExpr(e, func(x ir.Expr) bool {
		c, ok := x.(*ir.Call)
		return ok && c.Kind == ir.CallFunc && c.Name == f
	})
}

// anyOrder reports whether the iterations of update d of f may run in any
// order: it is reassociable, or Atomic() and reading f only at its own point.
func anyOrder(f *ir.Function, d *ir.Definition) bool {
	return reassociable(f, d) || d.Schedule.Atomic && readsOnlyOwnPoint(f, d)
}

// checkRVarOrder refuses a schedule of update si of f whose final loop
// nest (innermost first in Dims, virtual threads placed as
// schedule_functions places them) runs two loops in another nesting order
// than the algorithm's: two loops from different RVars, or the two pieces
// of one split, unless the iterations it moves are independent.
func checkRVarOrder(f *ir.Function, si int, d *ir.Definition) error {
	if d.RDom == nil || si == 0 {
		return nil
	}
	t := newRVarLoops(d)
	// The nest's RVar segments, outermost first, and the loop each lies in.
	var nest, loopOf []string
	dims := placeVThreads(d.Schedule.Dims)
	for i := len(dims) - 1; i >= 0; i-- {
		if !dims[i].IsRVar {
			continue
		}
		for _, s := range t.segsOf(dims[i].Name) {
			nest = append(nest, s)
			loopOf = append(loopOf, dims[i].Name)
		}
	}
	indep := map[string]bool{}
	for _, rv := range d.RDom.Vars {
		indep[rv.Name] = rvarIndependent(f.Name, d, rv.Name)
	}
	allIndep := func(rs []string) bool {
		for _, r := range rs {
			if !indep[r] {
				return false
			}
		}
		return true
	}
	// check finds a pair of segments, nest[a] outside nest[b], in the
	// wrong order.
	check := func(nest, loopOf []string) error {
		for a := range nest {
			fa := t.fromOf(nest[a])
			for b := a + 1; b < len(nest); b++ {
				fb := t.fromOf(nest[b])
				for _, e := range t.edges {
					if !(fa[e.inner] && !fa[e.outer] && fb[e.outer] && !fb[e.inner]) {
						continue
					}
					// Loop a (outside) comes from e.inner and loop b from
					// e.outer.
					if e.old == "" && (indep[e.inner] || indep[e.outer]) || e.old != "" && allIndep(t.rvars(e.old)) {
						continue
					}
					if anyOrder(f, d) {
						return nil
					}
					return rvarOrderError(f, si, d, t, loopOf[a], loopOf[b], e)
				}
			}
		}
		return nil
	}
	if err := check(nest, loopOf); err != nil {
		return err
	}
	// A fused loop split again leaves pieces that each come from all its
	// segments; the order of the segments is the fused loop's own.
	for _, fl := range t.fused {
		segs := t.segsOf(fl)
		same := make([]string, len(segs))
		for i := range same {
			same[i] = fl
		}
		if err := check(segs, same); err != nil {
			return err
		}
	}
	return nil
}

func rvarOrderError(f *ir.Function, si int, d *ir.Definition, t *rvarLoops, out, in string, e orderEdge) *ir.Error {
	what := "the RVars " + e.inner + " and " + e.outer
	rule := e.inner + " inside " + e.outer
	why := " (an RDom's first dimension is innermost)"
	if e.old != "" {
		what = "the pieces " + e.outer + " and " + e.inner + " of " + strings.Join(t.rvars(e.old), " and ")
		if len(t.segsOf(e.old)) > 1 {
			what = "the pieces " + e.outer + " and " + e.inner + " of the fused loop " + e.old
		}
		rule = "the outer piece " + e.outer + " outside the inner piece " + e.inner
		why = ""
	}
	loops := "the loop " + out + " is outside the loop " + in
	if out == in {
		loops = "the fused loop " + out + " runs " + e.inner + " outside " + e.outer
	}
	alt := "an update f(args) = f(args) op e (op +, -, *, min, max, and, or or xor, e not reading f) may reorder its RVars (and rfactor can run them in parallel), and so may an Atomic() one that reads f only at the point it writes"
	if d.Schedule.Atomic {
		alt = "Atomic() does not make it legal, since the update reads points of " + f.Name + " other than the one it writes"
	}
	return ir.Errorf(ir.ErrSchedule, f.Name, "reorder", "in update %d of %s, %s, so the schedule reorders %s: the algorithm runs %s%s, and the update's iterations may read points that others write, so another order may change its meaning",
		si-1, f.Name, loops, what, rule, why).
		WithLegal("keep %s (pure vars may move freely); %s", rule, alt)
}
