package lower

// Specializations (Halide's Stage::specialize, ScheduleFunctions'
// build_produce and Specialize.cpp): a stage with cases is built as
// "if (c1) { nest 1 } else if (c2) { nest 2 } else { default nest }", each
// nest with its case's schedule and the stage's one definition, so the
// conditions are tested once per production of the stage. Inside a case
// what its condition says is known and substituted: a bool Param it
// tests, p == c for a Param or buffer variable p, and the condition's
// conjuncts themselves. A specialize_fail ends the chain with a failing
// assertion in place of the default nest. This file is part of
// schedule_functions. bounds.Required and bounds.Touched walk both
// branches of an if: the box of what a chain of cases reads is
// select(cond, the case's box, the others'), each end evaluated for the
// case that runs (also once ranged over a loop, bounds' rangeEnd);
// pruneDecidedCases drops the cases that the cases around them exclude.

import (
	"math"

	"github.com/gohalide/gohalide/ir"
)

// caseView returns the stage d (its algorithm) with the schedule of case c.
func caseView(d, c *ir.Definition) *ir.Definition {
	if c == d {
		return d
	}
	v := *d
	v.Schedule = c.Schedule
	v.Specializations = nil
	return &v
}

// stageCases returns stage d once per schedule it may run with (d's own
// and its specializations', recursively; not a default a specialize_fail
// replaces), each with d's algorithm.
func stageCases(d *ir.Definition) []*ir.Definition {
	var out []*ir.Definition
	for _, c := range d.Cases() {
		out = append(out, caseView(d, c))
	}
	return out
}

// specialized reports whether some stage of f has cases.
func specialized(f *ir.Function) bool {
	for _, d := range f.Stages() {
		if len(d.Specializations) > 0 {
			return true
		}
	}
	return false
}

// caseFacts is what is known inside a case: the values of the Params and
// buffer variables its conditions fix (known), the conjuncts of the
// conditions (true there), and the whole condition under which the case
// runs (path, nil for always).
type caseFacts struct {
	known map[string]ir.Expr
	facts []ir.Expr
	// falses are the conditions of the cases before this one in its
	// chain, which do not hold here.
	falses []ir.Expr
	path   ir.Expr
}

// learn returns what is known inside the case with condition cond (taken
// when the conditions of the cases before it, others, do not hold).
func (k caseFacts) learn(cond ir.Expr, others []ir.Expr) caseFacts {
	n := k.copy()
	n.falses = append(n.falses, others...)
	var visit func(e ir.Expr)
	visit = func(e ir.Expr) {
		if b, ok := e.(*ir.Binary); ok && b.Op == ir.And {
			visit(b.A)
			visit(b.B)
			return
		}
		n.facts = append(n.facts, e)
		switch e := e.(type) {
		case *ir.Var:
			if e.T == ir.Bool {
				n.known[e.Name] = ir.True
			}
		case *ir.Not:
			if x, ok := e.X.(*ir.Var); ok && x.T == ir.Bool {
				n.known[x.Name] = ir.False
			}
		case *ir.Binary:
			if e.Op != ir.EQ {
				return
			}
			a, b := e.A, e.B
			if _, ok := a.(*ir.Var); !ok {
				a, b = b, a
			}
			if x, ok := a.(*ir.Var); ok && ir.IsConst(b) {
				n.known[x.Name] = b
			}
		}
	}
	visit(cond)
	for _, o := range others {
		n.path = andPath(n.path, &ir.Not{X: o})
	}
	n.path = andPath(n.path, cond)
	return n
}

// otherwise returns what is known in the default of a chain of cases whose
// conditions are conds: none of them holds.
func (k caseFacts) otherwise(conds []ir.Expr) caseFacts {
	n := k.copy()
	n.falses = append(n.falses, conds...)
	for _, c := range conds {
		n.path = andPath(n.path, &ir.Not{X: c})
		// A condition that is a boolean Param (or its negation) fixes it
		// here too: false (true) where none of the cases holds.
		switch c := c.(type) {
		case *ir.Var:
			if c.T == ir.Bool {
				n.known[c.Name] = ir.False
			}
		case *ir.Not:
			if x, ok := c.X.(*ir.Var); ok && x.T == ir.Bool {
				n.known[x.Name] = ir.True
			}
		}
	}
	return n
}

// copy returns a copy of k that learning more leaves k as it is.
func (k caseFacts) copy() caseFacts {
	n := caseFacts{known: map[string]ir.Expr{}, facts: append([]ir.Expr(nil), k.facts...),
		falses: append([]ir.Expr(nil), k.falses...), path: k.path}
	for name, e := range k.known {
		n.known[name] = e
	}
	return n
}

func andPath(p, c ir.Expr) ir.Expr {
	if p == nil {
		return c
	}
	return ir.AndE(p, c)
}

// apply substitutes what is known into e: the fixed variables, true for
// each conjunct of the conditions and for a comparison one of them implies
// (p > 73 implies p > 50), false for a comparison one of them excludes and
// for the conditions of the cases before.
func (k caseFacts) apply(e ir.Expr) ir.Expr {
	if len(k.known) == 0 && len(k.facts) == 0 && len(k.falses) == 0 {
		return e
	}
	var mut func(ir.Expr) ir.Expr
	mut = func(x ir.Expr) ir.Expr {
		if x.Type() == ir.Bool {
			for _, f := range k.facts {
				if ir.Equal(x, f) {
					return ir.True
				}
				if v, ok := decides(f, x); ok && v {
					return ir.True
				} else if ok {
					return ir.False
				}
			}
			for _, f := range k.falses {
				if ir.Equal(x, f) {
					return ir.False
				}
			}
		}
		return ir.MapExpr(x, mut)
	}
	return ir.Substitute(mut(e), k.known)
}

// decides reports whether fact, a comparison of an integer expression
// with a constant, decides e, another comparison of the same expression
// with a constant, and how: true where every value fact allows makes e
// hold, false where none does.
func decides(fact, e ir.Expr) (value, ok bool) {
	fx, flo, fhi, ok1 := constRange(fact)
	ex, elo, ehi, ok2 := constRange(e)
	if !ok1 || !ok2 || !ir.Equal(fx, ex) {
		return false, false
	}
	switch {
	case elo <= flo && fhi <= ehi:
		return true, true
	case fhi < elo || ehi < flo:
		return false, true
	}
	return false, false
}

// constRange reads the comparison e of an integer expression x with a
// constant as lo <= x <= hi.
func constRange(e ir.Expr) (x ir.Expr, lo, hi int64, ok bool) {
	b, isBin := e.(*ir.Binary)
	if !isBin || !b.Op.IsComparison() || b.Op == ir.NE {
		return nil, 0, 0, false
	}
	if t := b.A.Type(); !t.IsInt() && !t.IsUInt() || t.IsUInt() && t.Bits == 64 {
		// (A uint64 constant past 2^63 is negative in an IntImm.)
		return nil, 0, 0, false
	}
	op, a, c := b.Op, b.A, b.B
	if ir.IsConst(a) {
		op, a, c = op.Swapped(), c, a
	}
	k, isConst := ir.AsInt(c)
	if !isConst || ir.IsConst(a) || k == math.MinInt64 || k == math.MaxInt64 {
		return nil, 0, 0, false
	}
	lo, hi = math.MinInt64, math.MaxInt64
	switch op {
	case ir.LT:
		hi = k - 1
	case ir.LE:
		hi = k
	case ir.GT:
		lo = k + 1
	case ir.GE:
		lo = k
	case ir.EQ:
		lo, hi = k, k
	}
	return a, lo, hi, true
}

// buildStage returns the loop nest of stage si of f: with cases, the chain
// of ifs over them.
//
// shared says the threads of a block share f's storage (one copy per
// block, see threadsShare): then no tail may recompute a point, since two
// threads would write it.
func buildStage(st *State, f *ir.Function, si int, shared bool) (ir.Stmt, error) {
	d := f.Stages()[si]
	return buildCases(st, f, si, d, d, shared, caseFacts{})
}

// buildCases builds case c of stage d (d itself at the top) and the cases
// it specializes.
func buildCases(st *State, f *ir.Function, si int, d, c *ir.Definition, shared bool, k caseFacts) (ir.Stmt, error) {
	specs := c.Specializations
	var conds []ir.Expr
	for _, sp := range specs {
		if sp.Fail == "" {
			c := sp.Cond
			if len(k.known) > 0 || len(k.facts) > 0 {
				// A nested case: what the outer cases know may decide it.
				c = ir.Simplify(k.apply(c))
			}
			conds = append(conds, c)
			st.specConds = append(st.specConds, c)
		}
	}
	var s ir.Stmt
	if n := len(specs); n > 0 && specs[n-1].Fail != "" {
		fail := func(cond ir.Expr) *ir.AssertStmt {
			return &ir.AssertStmt{Cond: cond, Message: specs[n-1].Fail,
				Error: &ir.Error{Code: ir.ErrSpecializeFail, Func: f.Name, Directive: "specialize_fail"}}
		}
		s = fail(ir.False)
		// The same check on the host before anything runs (the
		// conditions depend on Params and input shapes only): a failing
		// assertion inside a kernel would trap on the GPU instead of
		// reporting the message.
		holds := ir.Expr(ir.False)
		if k.path != nil {
			holds = &ir.Not{X: k.path}
		}
		for _, c := range conds {
			holds = ir.Bin(ir.Or, holds, c)
		}
		st.failChecks = append(st.failChecks, fail(ir.Simplify(holds)))
		specs = specs[:n-1]
	} else {
		var err error
		if s, err = buildCase(st, f, si, caseView(d, c), shared, k.otherwise(conds)); err != nil {
			return nil, err
		}
	}
	for i := len(specs) - 1; i >= 0; i-- {
		then, err := buildCases(st, f, si, d, specs[i].Def, shared, k.learn(conds[i], conds[:i]))
		if err != nil {
			return nil, err
		}
		s = &ir.IfThenElse{Cond: conds[i], Then: then, Else: s}
	}
	return s, nil
}

// pruneDecidedCases replaces each specialization if whose condition the
// cases around it decide by the branch that runs. A Func specialized on a
// boolean Param and computed inside another's cases on the same Param
// (Halide's gpu_specialize: g.specialize(use_gpu) computed at h, itself
// specialized on use_gpu) keeps only its case that can run there. Its
// other case is dead, and may not even be legal there (thread loops in
// h's CPU case). Likewise a Func specialized on a comparison of a Param or
// an input's shape with a constant, computed inside a case of another
// whose condition decides it (gemv's sum_lanes, specialized on size >= 8
// and computed in the default case of result, where size >= 4 is false):
// the dead case is dropped, so that bounds inference does not count what
// it reads, which would widen the regions of the Funcs and inputs it
// reads past what the case that runs needs (Halide simplifies the inner
// if away under the outer one's condition). A condition is decided where
// it is, or a comparison with a constant implied or excluded by, the
// condition of an if around it, or (a boolean Param or its negation)
// where the Param's value is known from those ifs.
func pruneDecidedCases(st *State, s ir.Stmt) ir.Stmt {
	params := map[string]bool{}
	for _, p := range st.P.Params {
		if p.T == ir.Bool {
			params[p.Name] = true
		}
	}
	if len(params) == 0 && len(st.specConds) == 0 {
		return s
	}
	known := map[string]bool{}
	// facts are the conditions of the specialization ifs around the
	// statement visited, with the branch taken (true for then).
	var facts []fact
	// param returns the Param a condition is (or negates): cond holds
	// where the Param is value.
	param := func(cond ir.Expr) (name string, value, ok bool) {
		value = true
		if n, isNot := cond.(*ir.Not); isNot {
			cond, value = n.X, false
		}
		v, isVar := cond.(*ir.Var)
		if !isVar || !params[v.Name] {
			return "", false, false
		}
		return v.Name, value, true
	}
	// decided returns the value of cond the facts fix: a conjunction is
	// false where one of its terms is, true where all are.
	var decided func(cond ir.Expr) (value, ok bool)
	decided = func(cond ir.Expr) (value, ok bool) {
		if b, isAnd := cond.(*ir.Binary); isAnd && b.Op == ir.And {
			va, oka := decided(b.A)
			vb, okb := decided(b.B)
			switch {
			case oka && !va || okb && !vb:
				return false, true
			case oka && okb:
				return true, true
			}
			return false, false
		}
		if name, holds, isParam := param(cond); isParam {
			if v, ok := known[name]; ok {
				return v == holds, true
			}
		}
		for _, f := range facts {
			if ir.Equal(f.cond, cond) {
				return f.holds, true
			}
			fc := f.cond
			if !f.holds {
				fc = negateComparison(fc)
			}
			if fc == nil {
				continue
			}
			if v, ok := decides(fc, cond); ok {
				return v, true
			}
		}
		return false, false
	}
	var mut func(ir.Stmt) ir.Stmt
	mut = func(x ir.Stmt) ir.Stmt {
		c, ok := x.(*ir.IfThenElse)
		if !ok || isLikely(c.Cond) {
			return ir.MapStmt(x, mut, nil)
		}
		name, holds, isParam := param(c.Cond)
		if !isParam && !isSpecCond(st, c.Cond) {
			return ir.MapStmt(x, mut, nil)
		}
		if v, ok := decided(c.Cond); ok {
			if v {
				return mut(c.Then)
			}
			if c.Else == nil {
				return &ir.Block{}
			}
			return mut(c.Else)
		}
		// Inside each branch the condition is known (and the Param it
		// tests).
		branch := func(s ir.Stmt, value bool) ir.Stmt {
			if s == nil {
				return nil
			}
			if isParam {
				known[name] = value == holds
				defer delete(known, name)
			}
			n := len(facts)
			facts = append(facts, fact{c.Cond, value})
			if value {
				// Each term of a conjunction that holds holds.
				facts = append(facts, conjunctFacts(c.Cond)...)
			}
			defer func() { facts = facts[:n] }()
			return mut(s)
		}
		then, els := branch(c.Then, true), branch(c.Else, false)
		if then == c.Then && els == c.Else {
			return x
		}
		return &ir.IfThenElse{Cond: c.Cond, Then: then, Else: els}
	}
	return mut(s)
}

// fact is a condition of a specialization if around a statement, with
// the branch the statement is in (holds: the then branch).
type fact struct {
	cond  ir.Expr
	holds bool
}

// conjunctFacts returns the terms of the conjunction cond, each holding.
func conjunctFacts(cond ir.Expr) []fact {
	b, ok := cond.(*ir.Binary)
	if !ok || b.Op != ir.And {
		return nil
	}
	var out []fact
	for _, t := range []ir.Expr{b.A, b.B} {
		out = append(out, fact{t, true})
		out = append(out, conjunctFacts(t)...)
	}
	return out
}

// negateComparison returns the comparison that holds where the integer
// comparison e does not (a < b for a >= b), or nil for another condition.
// A float comparison has none: with a NaN neither holds.
func negateComparison(e ir.Expr) ir.Expr {
	b, ok := e.(*ir.Binary)
	if !ok || !b.Op.IsComparison() || !b.A.Type().IsIntOrUInt() {
		return nil
	}
	return ir.Bin(b.Op.Negated(), b.A, b.B)
}

// separateCaseKernels gives the kernels of each case of a specialization
// block loops of their own names: the block loops of case k > 0 (in the
// order of the chain, the default last) get the suffix ".case<k>". The GPU
// passes key a kernel's record (its block size, thread dimensions,
// sharing) by the name of its outermost block loop, and the copies of one
// kernel an unrolled host loop makes share it on purpose; the cases of a
// specialization are different kernels, each with its own block size.
// It runs at the end of schedule_functions, where the specialization ifs
// are the only ifs whose condition is not likely(...), and records the
// condition under which each kernel of a case launches in st.caseConds.
func separateCaseKernels(st *State, s ir.Stmt) ir.Stmt {
	st.caseConds = map[string]ir.Expr{}
	var path ir.Expr // the conditions of the cases around x
	var mut func(ir.Stmt) ir.Stmt
	var rename func(ir.Stmt, string) ir.Stmt
	mut = func(x ir.Stmt) ir.Stmt {
		switch x := x.(type) {
		case *ir.For:
			if x.Kind == ir.GPUBlock {
				if path != nil {
					st.caseConds[x.Name] = path
				}
				return x // a kernel: its cases (if any) share its block loops
			}
		case *ir.IfThenElse:
			if isLikely(x.Cond) {
				break
			}
			var cases []ir.Stmt
			var conds []ir.Expr
			var rest ir.Stmt = x
			for {
				c, ok := rest.(*ir.IfThenElse)
				if !ok || isLikely(c.Cond) {
					break
				}
				conds = append(conds, c.Cond)
				cases = append(cases, c.Then)
				rest = c.Else
			}
			cases = append(cases, rest)
			outer := path
			for k := range cases {
				if cases[k] == nil {
					continue
				}
				if k > 0 {
					cases[k] = rename(cases[k], ".case"+itoa(k))
				}
				path = outer
				for _, c := range conds[:k] {
					path = andPath(path, &ir.Not{X: c})
				}
				if k < len(conds) {
					path = andPath(path, conds[k])
				}
				cases[k] = mut(cases[k])
			}
			path = outer
			out := cases[len(cases)-1]
			for k := len(conds) - 1; k >= 0; k-- {
				out = &ir.IfThenElse{Cond: conds[k], Then: cases[k], Else: out}
			}
			return out
		}
		return ir.MapStmt(x, mut, nil)
	}
	// rename adds suffix to the names of the block loops of the kernels in x.
	rename = func(x ir.Stmt, suffix string) ir.Stmt {
		var inKernel func(ir.Stmt) ir.Stmt
		inKernel = func(y ir.Stmt) ir.Stmt {
			if l, ok := y.(*ir.For); ok && l.Kind == ir.GPUBlock {
				name := l.Name + suffix
				body := ir.SubstituteStmt(l.Body, map[string]ir.Expr{l.Name: &ir.Var{T: ir.Int32, Name: name}})
				return &ir.For{Name: name, Min: l.Min, Extent: l.Extent, Kind: l.Kind, Body: ir.MapStmt(body, inKernel, nil)}
			}
			return ir.MapStmt(y, inKernel, nil)
		}
		var find func(ir.Stmt) ir.Stmt
		find = func(y ir.Stmt) ir.Stmt {
			if l, ok := y.(*ir.For); ok && l.Kind == ir.GPUBlock {
				return inKernel(l)
			}
			return ir.MapStmt(y, find, nil)
		}
		return find(x)
	}
	return mut(s)
}
