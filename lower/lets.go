package lower

import "github.com/gohalide/gohalide/ir"

// letValues records, while a pass walks a statement, the value of each
// enclosing let in terms of the variables outside them all, so a pass can
// see through region variables: (f.s0.x.max - f.s0.x.min) + 1 becomes
// a constant once the lets are substituted.
//
// In a walk from the top of the statement (newRootLetValues), where
// every enclosing loop is bound as one, a let whose value does not depend
// on an enclosing loop and resolves to more than maxResolvedSize nodes
// keeps its name instead (it is opaque):
// the region lets of a deep pipeline are a chain, each Func's in terms of
// its consumers', and substituting every chain into every expression a
// pass looks at would make lowering quadratic or worse in the depth (the
// ends of a pyramid level refer to the next level's min and max, so the
// substituted copies double at each level). An opaque let is the same at
// every iteration of every loop in scope, so seeing it as a symbol is
// sound for the questions passes ask (does this depend on loop v, bound it
// over the loops); they only lose cancellations between such lets.
type letValues struct {
	vals map[string]ir.Expr
	// loopDep holds, for each let and loop in scope, whether its value
	// depends on an enclosing loop's variable.
	loopDep map[string]bool
	// opaque says whether big loop-independent lets keep their names.
	opaque bool
	// memo shares the simplification of the values in vals among the
	// expressions resolve simplifies (each holds the same value nodes).
	memo *ir.Memo
	// probes keeps the probe values of the same values (probe.go).
	probes *probeMemo
}

// inKernelKey marks, in loopDep, a walk inside a GPU kernel: there no let
// stays opaque, since a kernel's sizes are hoisted to its top (its shared
// allocations) or to the host (sizes known at launch), outside the lets of
// its blocks.
const inKernelKey = "\x00in a kernel"

// enterKernel marks the walk as inside a GPU kernel until the returned
// function is called.
func (lv letValues) enterKernel() (leave func()) {
	was := lv.loopDep[inKernelKey]
	lv.loopDep[inKernelKey] = true
	return func() { lv.loopDep[inKernelKey] = was }
}

// maxResolvedSize is the most nodes a loop-independent let's resolved
// (and simplified) value may have before it stays opaque.
const maxResolvedSize = 64

// newLetValues returns an empty letValues that substitutes every let.
func newLetValues() letValues {
	return letValues{vals: map[string]ir.Expr{}, loopDep: map[string]bool{}}
}

// newSharedLetValues is newLetValues for a pass that resolves many
// expressions in the same lets (the indices of a register array, the
// guards of a kernel): each let's value is simplified, and probed, once
// for all of them (memo, probes).
func newSharedLetValues() letValues {
	lv := newLetValues()
	lv.memo, lv.probes = ir.NewMemo(), newProbeMemo()
	return lv
}

// newRootLetValues returns an empty letValues for a walk from the top of
// the whole statement, in which big loop-independent lets stay opaque.
// (A walk that starts inside a loop does not know that loop's variable,
// so it cannot tell which lets depend on it.)
func newRootLetValues() letValues {
	lv := newLetValues()
	lv.opaque = true
	return lv
}

// bind records a let (or, with a nil value, a loop variable that hides a
// let of the same name) and returns the function that undoes it.
func (lv letValues) bind(name string, value ir.Expr) (undo func()) {
	saved, had := lv.vals[name]
	savedDep, hadDep := lv.loopDep[name]
	if value == nil {
		delete(lv.vals, name)
		lv.loopDep[name] = true
	} else {
		dep := false
		ir.WalkExpr(value, func(e ir.Expr) bool {
			if x, ok := e.(*ir.Var); ok && lv.loopDep[x.Name] {
				dep = true
			}
			return !dep
		})
		r := ir.Substitute(value, lv.vals)
		if lv.opaque && !dep && !lv.loopDep[inKernelKey] && exprSize(r, maxResolvedSize) > maxResolvedSize {
			r = ir.Simplify(r)
			if exprSize(r, maxResolvedSize) > maxResolvedSize {
				r = nil
			}
		}
		if r == nil {
			delete(lv.vals, name)
		} else {
			lv.vals[name] = r
			if lv.memo != nil && exprSize(r, sharedSize) > sharedSize {
				// (A pass that does not ask for the memos pays
				// nothing for them.)
				lv.memo.Share(r)
				lv.probes.share(r)
			}
		}
		lv.loopDep[name] = dep
	}
	return func() {
		if had {
			lv.vals[name] = saved
		} else {
			delete(lv.vals, name)
		}
		if hadDep {
			lv.loopDep[name] = savedDep
		} else {
			delete(lv.loopDep, name)
		}
	}
}

// resolve returns e with the recorded lets substituted, simplified.
// With newSharedLetValues, the lets' values are simplified once for all
// the expressions resolved (ir.Memo).
func (lv letValues) resolve(e ir.Expr) ir.Expr { return lv.simplify(ir.Substitute(e, lv.vals)) }

// sharedSize is the size past which a let's value is simplified once for
// all the expressions it is substituted into (ir.Memo).
const sharedSize = 8

// simplify simplifies e, which holds values of lv.vals.
func (lv letValues) simplify(e ir.Expr) ir.Expr {
	if lv.memo == nil {
		return ir.Simplify(e)
	}
	return lv.memo.Simplify(e)
}

// resolveConst returns resolve(e) when it is a constant. It does not
// simplify the substituted e where a probe proves that it takes two
// values (probe.go): most indices a pass asks about are not constants.
func (lv letValues) resolveConst(e ir.Expr) (ir.Expr, bool) {
	r := ir.Substitute(e, lv.vals)
	if notConstant(r, lv.probes) {
		return nil, false
	}
	c := lv.simplify(r)
	return c, ir.IsConst(c)
}

// walkScope is what walkScoped keeps up to date: the values of the
// enclosing lets and the enclosing loops, outermost first.
type walkScope struct {
	lets  letValues
	loops []*ir.For
	// kernelLets, when a pass sets it (newLetValues), holds the lets
	// bound inside the innermost enclosing GPU block loop, in terms of the
	// variables outside it: a value uniform over the launch keeps its name
	// (f.s0.x.max, not f.min.0 + f.extent.0 - 1), so what a pass writes
	// inside the kernel spells it as the loops there do.
	kernelLets letValues
	// levelLets, when a pass sets levelFilter, holds the lets named in
	// levelFilter bound since the innermost enclosing loop (or the top):
	// the region lets bounds_inference puts at the top of a loop level.
	levelLets   letValues
	levelFilter map[string]bool
}

// walkWithLets maps s bottom-up with f, keeping lv up to date with the
// lets and loops enclosing each statement f sees.
func walkWithLets(s ir.Stmt, lv letValues, f func(ir.Stmt) ir.Stmt) ir.Stmt {
	return walkScoped(s, &walkScope{lets: lv}, f)
}

// walkScoped maps s bottom-up with f, keeping sc up to date with the lets
// and loops enclosing each statement f sees.
func walkScoped(s ir.Stmt, sc *walkScope, f func(ir.Stmt) ir.Stmt) ir.Stmt {
	var mut func(ir.Stmt) ir.Stmt
	mut = func(s ir.Stmt) ir.Stmt {
		switch x := s.(type) {
		case *ir.LetStmt:
			undo := sc.lets.bind(x.Name, x.Value)
			undoKernel, undoLevel := func() {}, func() {}
			if sc.kernelLets.vals != nil {
				undoKernel = sc.kernelLets.bind(x.Name, x.Value)
			}
			if sc.levelFilter[x.Name] {
				undoLevel = sc.levelLets.bind(x.Name, x.Value)
			}
			body := mut(x.Body)
			undoLevel()
			undoKernel()
			undo()
			if body != x.Body {
				c := *x
				c.Body = body
				s = &c
			}
			return f(s)
		case *ir.For:
			undo := sc.lets.bind(x.Name, nil)
			if x.Kind == ir.GPUBlock {
				defer sc.lets.enterKernel()()
			}
			sc.loops = append(sc.loops, x)
			defer func() {
				sc.loops = sc.loops[:len(sc.loops)-1]
				undo()
			}()
			if ll := sc.levelLets; sc.levelFilter != nil {
				sc.levelLets = newRootLetValues()
				for _, l := range sc.loops {
					sc.levelLets.loopDep[l.Name] = true
				}
				defer func() { sc.levelLets = ll }()
			}
			if kl := sc.kernelLets; kl.vals != nil {
				if x.Kind == ir.GPUBlock {
					sc.kernelLets = newLetValues()
					defer func() { sc.kernelLets = kl }()
				} else {
					defer kl.bind(x.Name, nil)()
				}
			}
		}
		return f(ir.MapStmt(s, mut, nil))
	}
	return mut(s)
}

// kernelLoops splits enclosing loops at the innermost GPU block loop: it
// returns the loops inside it (the block level down to here) and whether
// there is a block loop at all.
func kernelLoops(loops []*ir.For) (inner []*ir.For, inKernel bool) {
	for i := len(loops) - 1; i >= 0; i-- {
		if loops[i].Kind == ir.GPUBlock {
			return loops[i+1:], true
		}
	}
	return nil, false
}
