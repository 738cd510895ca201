package ir

// Statements: SimplifyStmt.

// SimplifyStmt simplifies every expression in s and removes statements that
// do nothing: loops with no iterations, ifs on constants, asserts that hold,
// lets of constants and Vars (substituted), lets that are not used. Loops of
// one iteration (not GPU loops) become lets. It returns nil when nothing is
// left. ProducerConsumer, Realize and Allocate nodes are kept, with an empty
// Block for a body that vanished.
func SimplifyStmt(s Stmt) Stmt {
	c := &stmtSimp{sub: map[string]Expr{}, binders: map[string]int{}, letExprs: map[string]int{}, scope: map[string]int{}, facts: map[string]fact{}}
	countBinders(s, c.binders, c.letExprs)
	return c.stmt(s)
}

// stmtSimp simplifies a statement. The lets of constants and Vars it
// substitutes are not substituted into their whole body before the body
// is simplified (which made a chain of n nested lets take n walks of the
// statement): they are pending in sub, and applied to each expression as
// it is simplified. binders counts the binders (For, LetStmt, Let) of each
// name in the whole statement and scope the enclosing ones, so that most
// substitutions are known safe without walking the body (see safe).
type stmtSimp struct {
	sub     map[string]Expr
	binders map[string]int
	// letExprs counts the binders of each name that are Let expressions.
	letExprs map[string]int
	scope    map[string]int
	// facts holds the alignment and bounds of the enclosing loop
	// variables and lets that have some (see simplify_align.go).
	facts map[string]fact
}

// countBinders adds the binders of each name in s to n, and those that
// are Let expressions to lets too.
func countBinders(s Stmt, n, lets map[string]int) {
	WalkStmt(s, func(x Stmt) bool {
		switch x := x.(type) {
		case *For:
			n[x.Name]++
		case *LetStmt:
			n[x.Name]++
		}
		return true
	}, func(e Expr) bool {
		if l, ok := e.(*Let); ok {
			n[l.Name]++
			lets[l.Name]++
		}
		return true
	})
}

// expr simplifies e with the pending substitutions applied.
func (c *stmtSimp) expr(e Expr) Expr {
	if e == nil {
		return nil
	}
	// The facts are decided first: an unrolled copy's expression is
	// shared by every copy, and what they drop is not walked again.
	if len(c.facts) > 0 {
		e = decideByFacts(e, c.facts)
	}
	return simp(Substitute(e, c.sub))
}

// bind runs f with name bound by a binder of the statement: a pending
// substitution of an outer name is shadowed.
func (c *stmtSimp) bind(name string, f func()) {
	c.bindFact(name, unknownFact, f)
}

// bindFact is bind with what is known of name's value inside f.
func (c *stmtSimp) bindFact(name string, known fact, f func()) {
	old, had := c.sub[name]
	oldFact, hadFact := c.facts[name]
	delete(c.sub, name)
	delete(c.facts, name)
	if known.informative() {
		c.facts[name] = known
	}
	c.scope[name]++
	f()
	c.scope[name]--
	delete(c.sub, name)
	delete(c.facts, name)
	if had {
		c.sub[name] = old
	}
	if hadFact {
		c.facts[name] = oldFact
	}
}

// stmt simplifies s. Like simp, it returns s itself when nothing changed.
func (c *stmtSimp) stmt(s Stmt) Stmt {
	switch s := s.(type) {
	case nil:
		return nil
	case *LetStmt:
		return c.letStmt(s, s.Name, c.expr(s.Value), s.Body)
	case *AssertStmt:
		cond := c.expr(s.Cond)
		if isTrue(cond) {
			return nil
		}
		args, changed := mapExprs(s.Args, c.expr)
		return edit(s, cond != s.Cond || changed, func(a *AssertStmt) { a.Cond, a.Args = cond, args })
	case *For:
		return c.loop(s)
	case *Block:
		out, changed := mapStmts(s.Stmts, c.stmt)
		if !changed && isFlat(s) {
			return s
		}
		return MakeBlock(out...)
	case *IfThenElse:
		cond := c.expr(s.Cond)
		if v, ok := cond.(*IntImm); ok {
			if v.V != 0 {
				return c.stmt(s.Then)
			}
			return c.stmt(s.Else)
		}
		then, els := c.stmt(s.Then), c.stmt(s.Else)
		switch {
		case then == nil && els == nil:
			return nil
		case then == nil:
			return &IfThenElse{mkNot(cond), els, nil}
		case cond == s.Cond && then == s.Then && els == s.Else:
			return s
		}
		return &IfThenElse{cond, then, els}
	case *Evaluate:
		x := c.expr(s.X)
		if IsConst(x) {
			return nil
		}
		return edit(s, x != s.X, func(e *Evaluate) { e.X = x })
	case *ProducerConsumer, *Realize, *Allocate, *Atomic:
		// Kept when their body vanishes (see body).
		return MapStmt(s, c.body, c.expr)
	}
	// Provide and Store: only expressions to simplify.
	return MapStmt(s, c.stmt, c.expr)
}

// isFlat reports whether MakeBlock would return b as it is: two
// statements or more, none nil or a Block.
func isFlat(b *Block) bool {
	if len(b.Stmts) < 2 {
		return false
	}
	for _, x := range b.Stmts {
		if _, nested := x.(*Block); nested || x == nil {
			return false
		}
	}
	return true
}

// body simplifies the body of a node that stays when its body vanishes
// (ProducerConsumer, Realize, Allocate): an empty Block stands for it.
func (c *stmtSimp) body(s Stmt) Stmt {
	b := c.stmt(s)
	if b != nil {
		return b
	}
	if e, ok := s.(*Block); ok && len(e.Stmts) == 0 {
		return s
	}
	return &Block{}
}

// loop removes loops with no iterations and turns loops with one
// (serial, parallel, vectorized, unrolled) into a let of the loop variable.
func (c *stmtSimp) loop(s *For) Stmt {
	mn, ext := c.expr(s.Min), c.expr(s.Extent)
	if k, ok := constInt(ext); ok {
		if k <= 0 {
			return nil
		}
		if k == 1 && s.Kind != GPUBlock && s.Kind != GPUThread {
			return c.letStmt(nil, s.Name, mn, s.Body)
		}
	}
	known := unknownFact
	lo, ok1 := constInt(mn)
	k, ok2 := constInt(ext)
	if hi, ok3 := addChecked(lo, k-1); ok1 && ok2 && ok3 && algebraic(mn.Type()) {
		known = fact{m: 1, b: interval{lo, hi, true, true}}
	}
	var body Stmt
	c.bindFact(s.Name, known, func() { body = c.stmt(s.Body) })
	if body == nil {
		return nil
	}
	return edit(s, mn != s.Min || ext != s.Extent || body != s.Body, func(f *For) { f.Min, f.Extent, f.Body = mn, ext, body })
}

// safe reports whether substituting v (a constant or Var) for name in
// body, as a pending substitution, is safe, without walking body where
// the binder counts suffice. A binder of name inside body (a For or a
// LetStmt of the same name) is no danger: bind shadows the pending
// substitution under it, and Substitute stops at a Let of name. A Var v
// may be captured by a binder of its own name around a use of name: safe
// where v is bound nowhere, or by one binder that encloses this let;
// otherwise body is walked (stmtBinds).
func (c *stmtSimp) safe(name string, v Expr, body Stmt) bool {
	vr, ok := v.(*Var)
	if !ok {
		return true
	}
	if n := c.binders[vr.Name]; n == 0 || (n == 1 && c.scope[vr.Name] > 0) {
		return true
	}
	return !stmtBinds(body, name, v, c.letExprs[vr.Name] > 0)
}

// letStmt builds "let name = v (simplified) in body (not simplified)": a
// constant or Var value is substituted, an unused binding dropped. old,
// when not nil, is the LetStmt being simplified, returned when nothing
// changed.
func (c *stmtSimp) letStmt(old *LetStmt, name string, v Expr, body Stmt) Stmt {
	if vr, ok := v.(*Var); ok && vr.Name == name {
		return c.stmt(body) // let x = x binds nothing new
	}
	if substitutable(v) && c.safe(name, v, body) {
		var out Stmt
		c.bindFact(name, alignOf(v, c.facts, alignDepth), func() {
			c.sub[name] = v
			out = c.stmt(body)
		})
		return out
	}
	known := alignOf(v, c.facts, alignDepth)
	var b Stmt
	c.bindFact(name, known, func() { b = c.stmt(body) })
	if b == nil {
		return nil
	}
	if !StmtUses(b, name) {
		return b
	}
	// As in simpLet: the binder that blocked substitution may be gone. b is
	// simplified, with every pending substitution applied.
	if substitutable(v) && !stmtBinds(b, name, v, true) {
		pending := c.sub
		c.sub = map[string]Expr{}
		out := c.stmt(SubstituteStmt(b, map[string]Expr{name: v}))
		c.sub = pending
		return out
	}
	if old != nil && v == old.Value && b == old.Body {
		return old
	}
	return &LetStmt{name, v, b}
}

// stmtBinds reports whether substituting v for name in s could go wrong:
// a For loop in s rebinds name around a use of it (SubstituteStmt stops at
// a LetStmt of the same name, not at a For), or v is a Var that a binder
// inside s (For, LetStmt or Let) would capture around a use of name.
// letExprs false says no Let expression binds v's name, so expressions
// need no walk for one.
func stmtBinds(s Stmt, name string, v Expr, letExprs bool) bool {
	vr, _ := v.(*Var)
	captured := func(binder string) bool { return vr != nil && binder == vr.Name }
	found := false
	WalkStmt(s, func(x Stmt) bool {
		if found {
			return false
		}
		switch x := x.(type) {
		case *For:
			found = (x.Name == name || captured(x.Name)) && StmtUses(x.Body, name)
		case *LetStmt:
			found = captured(x.Name) && StmtUses(x.Body, name)
		}
		return !found
	}, func(x Expr) bool {
		if vr != nil && letExprs && !found {
			found = captures(x, name, vr)
		}
		return false // captures walked x already
	})
	return found
}
