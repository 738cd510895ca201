package bounds

import (
	"strings"

	"github.com/gohalide/gohalide/ir"
)

// Box is a multi-dimensional region: one interval per dimension. A nil Box
// is empty. Union(a, b) of two boxes is the per-dimension union, with
// Union(nil, b) == b.
type Box []Interval

// unionBox is Union for boxes: the smallest box holding both a and b,
// dimension by dimension. A nil box is empty, so Union(nil, b) is b. When
// the boxes have different numbers of dimensions (which a well-formed
// program never produces), the extra dimensions of the longer one are kept.
func unionBox(a, b Box) Box {
	if a == nil {
		return b
	}
	if b == nil {
		return a
	}
	if len(a) < len(b) {
		a, b = b, a
	}
	out := make(Box, len(a))
	copy(out, a)
	for i := range b {
		out[i] = unionIv(a[i], b[i])
	}
	return out
}

// String returns the intervals of b, as "{[0, 9], [0, 3]}".
func (b Box) String() string {
	var s strings.Builder
	s.WriteString("{")
	for i, iv := range b {
		if i > 0 {
			s.WriteString(", ")
		}
		s.WriteString(iv.String())
	}
	s.WriteString("}")
	return s.String()
}

// Bounded reports whether every dimension of b has two finite ends.
func (b Box) Bounded() bool {
	for _, iv := range b {
		if !iv.IsBounded() {
			return false
		}
	}
	return true
}

// DependsOn reports whether an end of b refers to a variable whose name
// satisfies names.
func (b Box) DependsOn(names func(string) bool) bool {
	for _, iv := range b {
		if (iv.Min != nil && ir.UsesAny(iv.Min, names)) || (iv.Max != nil && ir.UsesAny(iv.Max, names)) {
			return true
		}
	}
	return false
}

// Required returns, for each Func and image called (by Call name) and each
// flat buffer loaded from (by buffer name) in s, the box of coordinates
// read, with the variables in scope ranging over their intervals. Loops,
// lets and if conditions inside s narrow the variables they define, so the
// boxes are expressed in variables free in s (and in the ends of scope).
func Required(s ir.Stmt, scope Scope) map[string]Box {
	w := newWalker(true, false, "", nil)
	w.stmt(s, env{base: scope})
	return w.result()
}

// Provided returns, for each Func written by Provide and each flat buffer
// written by Store in s, the box of coordinates written.
func Provided(s ir.Stmt, scope Scope) map[string]Box {
	w := newWalker(false, true, "", nil)
	w.stmt(s, env{base: scope})
	return w.result()
}

// Touched returns the union of Required and Provided: the box of each Func,
// image and buffer that s reads or writes.
func Touched(s ir.Stmt, scope Scope) map[string]Box {
	w := newWalker(true, true, "", nil)
	w.stmt(s, env{base: scope})
	return w.result()
}

// RequiredOf is Required(s, scope)[name], worked out for name alone: the
// parts of s that do not mention name are skipped (found with idx, which
// may be nil, and which the queries on the statements of one pass share).
func RequiredOf(s ir.Stmt, scope Scope, name string, idx *Index) Box {
	w := newWalker(true, false, name, idx)
	w.stmt(s, env{base: scope})
	return w.result()[name]
}

// TouchedOf is Touched(s, scope)[name], worked out for name alone (see
// RequiredOf).
func TouchedOf(s ir.Stmt, scope Scope, name string, idx *Index) Box {
	w := newWalker(true, true, name, idx)
	w.stmt(s, env{base: scope})
	return w.result()[name]
}

// ProvidedOf is Provided(s, scope)[name], worked out for name alone (see
// RequiredOf).
func ProvidedOf(s ir.Stmt, scope Scope, name string, idx *Index) Box {
	w := newWalker(false, true, name, idx)
	w.stmt(s, env{base: scope})
	return w.result()[name]
}

// RequiredExpr is Required for an expression alone.
func RequiredExpr(e ir.Expr, scope Scope) map[string]Box {
	w := newWalker(true, false, "", nil)
	w.expr(e, env{base: scope})
	return w.result()
}

type boxWalker struct {
	reads, writes bool
	// only, when set, is the one Func or buffer whose box is wanted; idx
	// (which may be nil) tells the statements that mention it.
	only string
	idx  *Index
	out  map[string]Box
	// unkept holds the names whose boxes read an unsafe promise in code
	// that may not run (see result); the walkers of one walk share it.
	unkept map[string]bool
}

func newWalker(reads, writes bool, only string, idx *Index) boxWalker {
	return boxWalker{reads: reads, writes: writes, only: only, idx: idx, out: map[string]Box{}, unkept: map[string]bool{}}
}

// sub returns a walker for a part of w's walk, with boxes of its own.
func (w *boxWalker) sub() boxWalker {
	return boxWalker{reads: w.reads, writes: w.writes, only: w.only, idx: w.idx, out: map[string]Box{}, unkept: w.unkept}
}

// result returns the boxes of the walk, with the unsafe promises in the
// ends of those that read one in code that may not run made true where the
// ends are evaluated.
//
// A coordinate that is one value inside a loop keeps the lets it reads,
// and an unsafe promise in one (a fused var promises to lie in its loop's
// region) stays in the box's end when it does not depend on the loops
// ranged over. The end is evaluated where the region is needed (at a
// Func's production), outside the loops and conditions around the let,
// whether they run or not. Where the let is in code that may not run
// (env.mayNotRun) the promise can be false: over an empty region, where the fused loop runs no
// iteration, no value lies in [lo, hi], and x lies past it. A producer
// computed over such a region reads past what its own producers hold,
// which were sized by the promise.
//
// So each unsafe promise unsafe_promise_clamped(x, lo, hi) in such a box
// becomes unsafe_promise_clamped(min(max(x, lo), hi), lo, hi): the same
// value where the code runs (the promise holds there), a value the bounds
// of the promise cover (hi, when lo > hi) where it does not, and the same
// interval, [lo, hi], to the analyses that range the end further. All the
// ends of the box change, so that the same promise read where the code
// runs and where it may not is one expression, whose union is itself.
func (w *boxWalker) result() map[string]Box {
	for name := range w.unkept {
		b, ok := w.out[name]
		if !ok {
			continue
		}
		nb := make(Box, len(b))
		for d, iv := range b {
			nb[d] = Interval{clampPromises(iv.Min), clampPromises(iv.Max)}
		}
		w.out[name] = nb
	}
	return w.out
}

// end is the interval of the coordinate e of a box of name found in en.
func (w *boxWalker) end(name string, e ir.Expr, en env) Interval {
	iv := en.of(ir.Simplify(e))
	if en.mayNotRun && !w.unkept[name] && (hasUnsafePromise(iv.Min) || hasUnsafePromise(iv.Max)) && en.readsLetThatMayNotRun(e) {
		w.unkept[name] = true
	}
	return iv
}

func hasUnsafePromise(e ir.Expr) bool { return e != nil && ir.ContainsExpr(e, isUnsafePromise) }

func isUnsafePromise(e ir.Expr) bool {
	c, ok := e.(*ir.Call)
	return ok && c.Kind == ir.CallIntrinsic && c.Name == ir.IntrinsicUnsafePromiseClamped && len(c.Args) == 3
}

// isClamp reports whether e is min(max(x, lo), hi) for some x, in either
// order of the operands (a promise clamped before).
func isClamp(e, lo, hi ir.Expr) bool {
	mn, ok := e.(*ir.Binary)
	if !ok || mn.Op != ir.Min {
		return false
	}
	for _, p := range [][2]ir.Expr{{mn.A, mn.B}, {mn.B, mn.A}} {
		mx, ok := p[0].(*ir.Binary)
		if ok && mx.Op == ir.Max && ir.Equal(p[1], hi) && (ir.Equal(mx.A, lo) || ir.Equal(mx.B, lo)) {
			return true
		}
	}
	return false
}

// clampPromises returns e with the value of each unsafe promise in it
// clamped to the promise's range (see boxWalker.result).
func clampPromises(e ir.Expr) ir.Expr {
	if !hasUnsafePromise(e) {
		return e
	}
	var f func(ir.Expr) ir.Expr
	f = func(x ir.Expr) ir.Expr {
		x = ir.MapExpr(x, f)
		if !isUnsafePromise(x) {
			return x
		}
		c := x.(*ir.Call)
		v, lo, hi := c.Args[0], c.Args[1], c.Args[2]
		if !v.Type().IsIntOrUInt() || isClamp(v, lo, hi) {
			return x
		}
		clamped := ir.Simplify(ir.MinE(ir.MaxE(v, lo), hi))
		if ir.Equal(clamped, v) {
			return x
		}
		return &ir.Call{T: c.T, Kind: ir.CallIntrinsic, Name: c.Name, Args: []ir.Expr{clamped, lo, hi}}
	}
	return ir.Simplify(f(e))
}

// wants reports whether the box of name is wanted.
func (w *boxWalker) wants(name string) bool { return w.only == "" || name == w.only }

func (w *boxWalker) add(name string, b Box) {
	if w.idx != nil && w.idx.Check != nil {
		w.idx.Check()
	}
	u := unionBox(w.out[name], b)
	for d, iv := range u {
		for _, e := range []ir.Expr{iv.Min, iv.Max} {
			if e != nil && !ir.IsConst(e) && ir.ExprExceeds(e, MaxEndSize) {
				panic(TooComplex{Name: name, Dim: d})
			}
		}
	}
	w.out[name] = u
}

// MaxEndSize is the most nodes an end of a box may have. A Func or buffer
// read at hundreds of different places makes the union of their boxes an
// end with hundreds of terms, and every further union and every pass
// after it simplifies the whole end again (quadratic, and seconds or
// minutes in random programs); past this size a walk stops with a
// TooComplex panic, which lowering reports as ErrExprTooLarge.
const MaxEndSize = 2000

// TooComplex is the panic value of a box walk in which an end of the box
// of Name, in dimension Dim, grew past MaxEndSize nodes.
type TooComplex struct {
	Name string
	Dim  int
}

func (w *boxWalker) box(name string, args []ir.Expr, en env) Box {
	b := make(Box, len(args))
	for i, a := range args {
		b[i] = w.end(name, a, en)
	}
	return b
}

// hasReads reports whether e calls a Func or image or loads from a buffer.
func hasReads(e ir.Expr) bool {
	return ir.ContainsExpr(e, func(x ir.Expr) bool {
		switch x := x.(type) {
		case *ir.Load:
			return true
		case *ir.Call:
			return x.Kind != ir.CallIntrinsic
		}
		return false
	})
}

// hasReadsOf reports whether e calls the Func or image name or loads from
// the buffer name.
func hasReadsOf(e ir.Expr, name string) bool {
	return ir.ContainsExpr(e, func(x ir.Expr) bool {
		switch x := x.(type) {
		case *ir.Load:
			return x.Buf == name
		case *ir.Call:
			return x.Kind != ir.CallIntrinsic && x.Name == name
		}
		return false
	})
}

func (w *boxWalker) expr(e ir.Expr, en env) {
	if e == nil || !w.reads {
		return
	}
	if w.only != "" {
		if !hasReadsOf(e, w.only) {
			return
		}
	} else if !hasReads(e) {
		return
	}
	w.reqExpr(e, en)
}

// hasWanted reports whether e reads what w wants.
func (w *boxWalker) hasWanted(e ir.Expr) bool {
	if w.only != "" {
		return hasReadsOf(e, w.only)
	}
	return hasReads(e)
}

// reqExpr records the reads in e, which is known to have some.
func (w *boxWalker) reqExpr(e ir.Expr, en env) {
	switch e := e.(type) {
	case *ir.Call:
		if e.Kind != ir.CallIntrinsic && w.wants(e.Name) {
			w.add(e.Name, w.box(e.Name, e.Args, en))
		}
		for _, a := range e.Args {
			w.expr(a, en)
		}
		return
	case *ir.Load:
		if w.wants(e.Buf) {
			w.add(e.Buf, Box{w.end(e.Buf, e.Index, en)})
		}
		w.expr(e.Index, en)
		return
	case *ir.Let:
		w.expr(e.Value, en)
		if w.hasWanted(e.Body) {
			w.reqExpr(e.Body, en.withLet(e.Name, e.Value))
		}
		return
	case *ir.Select:
		// The arms are evaluated only when the condition selects them
		// (never, for a constant condition that selects the other: a
		// specialization's known Param, substituted).
		w.expr(e.Cond, en)
		if w.hasWanted(e.True) && !isFalse(e.Cond) {
			w.reqExpr(e.True, en.refine(e.Cond, true))
		}
		if w.hasWanted(e.False) && !isTrue(e.Cond) {
			w.reqExpr(e.False, en.refine(e.Cond, false))
		}
		return
	}
	ir.VisitExpr(e, func(c ir.Expr) { w.expr(c, en) })
}

func (w *boxWalker) stmt(s ir.Stmt, en env) {
	if w.idx != nil && w.idx.Check != nil {
		w.idx.Check()
	}
	if w.idx != nil && w.only != "" && s != nil && !w.idx.Mentions(s, w.only) {
		return
	}
	switch s := s.(type) {
	case nil:
	case *ir.LetStmt:
		w.expr(s.Value, en)
		w.stmt(s.Body, en.withLet(s.Name, s.Value))
	case *ir.For:
		w.expr(s.Min, en)
		w.expr(s.Extent, en)
		if ext := en.of(ir.Simplify(s.Extent)); ext.Max != nil {
			if c, ok := ext.Max.(*ir.IntImm); ok && c.V <= 0 {
				// The loop runs no iteration: its body touches
				// nothing, even where a let inside no longer depends
				// on the loop variable (a fused var over an empty
				// region folds to a constant).
				return
			}
		}
		// Loops are done inside out: the body's boxes are found with the
		// loop variable symbolic (so lets inside stay exact functions of it
		// and correlated ends such as min(v*8, M) and min(v*8, M) + 7 keep
		// their link), simplified, and only then ranged over the loop.
		inner := w.sub()
		body := en.with(s.Name, Point(&ir.Var{T: s.Min.Type(), Name: s.Name}))
		if !runs(en.of(ir.Simplify(s.Extent))) {
			body.mayNotRun = true
		}
		inner.stmt(s.Body, body)
		if len(inner.out) == 0 {
			return
		}
		last := ir.AddE(s.Min, ir.SubE(s.Extent, ir.IntConst(s.Extent.Type(), 1)))
		iv := Interval{en.of(ir.Simplify(s.Min)).Min, en.of(ir.Simplify(last)).Max}
		outer := en.with(s.Name, iv)
		for name, b := range inner.out {
			nb := make(Box, len(b))
			for i, x := range b {
				nb[i].Min = rangeEnd(outer, x.Min, false)
				nb[i].Max = rangeEnd(outer, x.Max, true)
			}
			w.add(name, nb)
		}
	case *ir.IfThenElse:
		w.expr(s.Cond, en)
		if s.Else == nil || !en.uniform(s.Cond) {
			then, els := en.refine(s.Cond, true), en.refine(s.Cond, false)
			then.mayNotRun, els.mayNotRun = true, true
			w.stmt(s.Then, then)
			w.stmt(s.Else, els)
			return
		}
		// A condition on nothing the walk binds (a specialization's, on
		// Params and buffer shapes) is one value here: what both
		// branches touch is select(cond, then's box, else's box), not
		// their union, so a case does not widen the other's region
		// (nor the checks of the inputs it reads).
		then := w.sub()
		then.stmt(s.Then, en.refine(s.Cond, true))
		els := w.sub()
		els.stmt(s.Else, en.refine(s.Cond, false))
		// Inside each branch the condition is known: a select on it in
		// a box (of a Func specialized on it again, computed there)
		// takes its arm.
		known := func(out map[string]Box, value bool) {
			for name, b := range out {
				nb := make(Box, len(b))
				for i, iv := range b {
					nb[i] = Interval{takeArmEnd(iv.Min, s.Cond, value), takeArmEnd(iv.Max, s.Cond, value)}
				}
				out[name] = nb
			}
		}
		known(then.out, true)
		known(els.out, false)
		for name, tb := range then.out {
			eb, both := els.out[name]
			if !both || len(eb) != len(tb) {
				w.add(name, tb)
				continue
			}
			nb := make(Box, len(tb))
			for i := range tb {
				nb[i] = selectIv(s.Cond, tb[i], eb[i])
			}
			w.add(name, nb)
		}
		for name, eb := range els.out {
			if tb, both := then.out[name]; !both || len(eb) != len(tb) {
				w.add(name, eb)
			}
		}
	case *ir.Provide:
		for _, a := range s.Args {
			w.expr(a, en)
		}
		w.expr(s.Value, en)
		if w.writes && w.wants(s.Func) {
			w.add(s.Func, w.box(s.Func, s.Args, en))
		}
	case *ir.Store:
		w.expr(s.Index, en)
		w.expr(s.Value, en)
		if w.writes && w.wants(s.Buf) {
			w.add(s.Buf, Box{w.end(s.Buf, s.Index, en)})
		}
	case *ir.Block, *ir.ProducerConsumer, *ir.Realize, *ir.Allocate, *ir.AssertStmt, *ir.Evaluate:
		ir.VisitStmt(s, func(c ir.Stmt) { w.stmt(c, en) }, func(e ir.Expr) { w.expr(e, en) })
	}
}

// runs reports whether a loop whose extent lies in ext runs at least once.
func runs(ext Interval) bool {
	c, ok := ext.Min.(*ir.IntImm)
	return ok && c.V >= 1
}

// rangeEnd is the lowest (or, for max, the highest) value of the end e of
// a box over en: an end that selects on a condition en does not range (the
// cases of a specialization, see IfThenElse in stmt) keeps selecting
// between its arms, each ranged. The select may be inside the end too
// (min(select(c, a, b), d): a stage's region, the union of a later stage's
// and of what that stage reads, in cases on c): the end is then ranged
// once with c true and once with c false, each time with the selects on c
// replaced by their arm, since ranging the select itself would take the
// union of its arms, and count the case that does not run. At most
// maxLiftedConds conditions are lifted so (2^n rangings); past that only
// a select at the top is.
func rangeEnd(en env, e ir.Expr, max bool) ir.Expr {
	if e == nil {
		return nil
	}
	if c := liftedCond(en, e); c != nil {
		t, f := rangeEnd(en, takeArm(e, c, true), max), rangeEnd(en, takeArm(e, c, false), max)
		if t == nil || f == nil {
			return nil
		}
		return ir.Simplify(&ir.Select{Cond: c, True: t, False: f})
	}
	if max {
		return en.of(e).Max
	}
	return en.of(e).Min
}

// takeArmEnd is takeArm of an end of a box, which may be nil (unbounded).
func takeArmEnd(e, cond ir.Expr, value bool) ir.Expr {
	if e == nil {
		return nil
	}
	return takeArm(e, cond, value)
}

// maxLiftedConds is the most conditions of selects inside an end that
// rangeEnd ranges the end over, one value of each at a time.
const maxLiftedConds = 4

// liftedCond returns the condition rangeEnd ranges e over one value at a
// time: that of a select at the top of e on a condition en does not
// range, or the first such condition of a select inside e where there
// are at most maxLiftedConds of them; nil for none.
func liftedCond(en env, e ir.Expr) ir.Expr {
	if sel, ok := e.(*ir.Select); ok && en.uniform(sel.Cond) {
		return sel.Cond
	}
	var conds []ir.Expr
	ir.WalkExprOnce(e, func(x ir.Expr) bool {
		sel, ok := x.(*ir.Select)
		if !ok || len(conds) > maxLiftedConds || !en.uniform(sel.Cond) {
			return len(conds) <= maxLiftedConds
		}
		for _, c := range conds {
			if ir.Equal(c, sel.Cond) {
				return true
			}
		}
		conds = append(conds, sel.Cond)
		return true
	})
	if len(conds) == 0 || len(conds) > maxLiftedConds {
		return nil
	}
	return conds[0]
}

// takeArm returns e with each select on cond replaced by the arm it takes
// where cond is value, simplified.
func takeArm(e, cond ir.Expr, value bool) ir.Expr {
	found := false
	done := map[ir.Expr]ir.Expr{} // (an end may share nodes)
	var f func(ir.Expr) ir.Expr
	f = func(x ir.Expr) ir.Expr {
		if y, ok := done[x]; ok {
			return y
		}
		var y ir.Expr
		if sel, ok := x.(*ir.Select); ok && ir.Equal(sel.Cond, cond) {
			found = true
			if value {
				y = f(sel.True)
			} else {
				y = f(sel.False)
			}
		} else {
			y = ir.MapExpr(x, f)
		}
		done[x] = y
		return y
	}
	out := f(e)
	if !found {
		return e
	}
	return ir.Simplify(out)
}
