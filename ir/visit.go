package ir

import "math"

// Traversal is built on two helpers, as in the Go compiler: MapExpr and
// MapStmt rebuild a node from its children (returning the same node when no
// child changed), and VisitExpr and VisitStmt call a function on each child.
// Neither recurses: a pass writes a type switch for the nodes it cares about
// and calls one of them for the rest, recursing through its own function.
// WalkExpr and WalkStmt visit a whole tree in pre-order.

// MapExpr returns e with each child expression replaced by f(child). When f
// returns every child unchanged, MapExpr returns e itself.
func MapExpr(e Expr, f func(Expr) Expr) Expr {
	switch e := e.(type) {
	case *Cast:
		return edit1(e, e.X, f, func(c *Cast, x Expr) { c.X = x })
	case *Binary:
		return edit2(e, e.A, e.B, f, f, func(c *Binary, a, b Expr) { c.A, c.B, c.t = a, b, binaryType(c.Op, a) })
	case *Not:
		return edit1(e, e.X, f, func(c *Not, x Expr) { c.X = x })
	case *Select:
		return edit3(e, e.Cond, e.True, e.False, f, f, f, func(c *Select, cond, t, fl Expr) { c.Cond, c.True, c.False = cond, t, fl })
	case *Call:
		args, changed := mapExprs(e.Args, f)
		return edit(e, changed, func(c *Call) { c.Args = args })
	case *Load:
		return edit1(e, e.Index, f, func(c *Load, i Expr) { c.Index = i })
	case *Let:
		return edit2(e, e.Value, e.Body, f, f, func(c *Let, v, b Expr) { c.Value, c.Body = v, b })
	}
	// nil, constants and Vars.
	return e
}

// edit returns n itself when nothing changed, else a copy of *n that set
// changes. Mutators copy nodes by value, so the fields they do not set
// survive them.
func edit[N any](n *N, changed bool, set func(*N)) *N {
	if !changed {
		return n
	}
	c := *n
	set(&c)
	return &c
}

// edit1 returns n with its one child, old, replaced by f(old): n
// itself when f returns old unchanged, else a copy on which set stores the
// new child.
func edit1[N any, C comparable](n *N, old C, f func(C) C, set func(*N, C)) *N {
	x := f(old)
	return edit(n, x != old, func(c *N) { set(c, x) })
}

// edit2 is edit1 for a node with two children, a and b:
// f(a) is computed before g(b).
func edit2[N any, A, B comparable](n *N, a A, b B, f func(A) A, g func(B) B, set func(*N, A, B)) *N {
	x, y := f(a), g(b)
	return edit(n, x != a || y != b, func(c *N) { set(c, x, y) })
}

// edit3 is edit1 for a node with three children, a, b and c, mapped in
// that order.
func edit3[N any, A, B, C comparable](n *N, a A, b B, c C, f func(A) A, g func(B) B, h func(C) C, set func(*N, A, B, C)) *N {
	x, y, z := f(a), g(b), h(c)
	return edit(n, x != a || y != b || z != c, func(m *N) { set(m, x, y, z) })
}

func mapExprs(es []Expr, f func(Expr) Expr) ([]Expr, bool) { return mapSlice(es, f) }

func mapStmts(ss []Stmt, f func(Stmt) Stmt) ([]Stmt, bool) { return mapSlice(ss, f) }

// mapRanges applies f to the min and the extent of each range.
func mapRanges(rs []Range, f func(Expr) Expr) ([]Range, bool) {
	return mapSlice(rs, func(r Range) Range { return Range{f(r.Min), f(r.Extent)} })
}

// mapSlice returns xs with each element replaced by f(element), and
// whether any changed; xs itself (not a copy) when none did.
func mapSlice[T comparable](xs []T, f func(T) T) ([]T, bool) {
	var out []T
	for i, x := range xs {
		y := f(x)
		if y != x && out == nil {
			out = make([]T, len(xs))
			copy(out, xs[:i])
		}
		if out != nil {
			out[i] = y
		}
	}
	if out == nil {
		return xs, false
	}
	return out, true
}

// MapStmt returns s with each child statement replaced by fs(child) and each
// child expression by fe(child). Either function may be nil (identity). When
// nothing changes, MapStmt returns s itself.
func MapStmt(s Stmt, fs func(Stmt) Stmt, fe func(Expr) Expr) Stmt {
	if fs == nil {
		fs = func(s Stmt) Stmt { return s }
	}
	if fe == nil {
		fe = func(e Expr) Expr { return e }
	}
	switch s := s.(type) {
	case *LetStmt:
		return edit2(s, s.Value, s.Body, fe, fs, func(c *LetStmt, v Expr, b Stmt) { c.Value, c.Body = v, b })
	case *AssertStmt:
		cond := fe(s.Cond)
		args, changed := mapExprs(s.Args, fe)
		return edit(s, cond != s.Cond || changed, func(c *AssertStmt) { c.Cond, c.Args = cond, args })
	case *ProducerConsumer:
		return edit1(s, s.Body, fs, func(c *ProducerConsumer, b Stmt) { c.Body = b })
	case *Atomic:
		return edit1(s, s.Body, fs, func(c *Atomic, b Stmt) { c.Body = b })
	case *LoadVector:
		return edit1(s, s.Body, fs, func(c *LoadVector, b Stmt) { c.Body = b })
	case *StoreVector:
		return edit1(s, s.Body, fs, func(c *StoreVector, b Stmt) { c.Body = b })
	case *For:
		return edit3(s, s.Min, s.Extent, s.Body, fe, fe, fs, func(c *For, mn, ext Expr, b Stmt) { c.Min, c.Extent, c.Body = mn, ext, b })
	case *Block:
		if out, changed := mapStmts(s.Stmts, fs); changed {
			if b := MakeBlock(out...); b != nil {
				return b
			}
			return &Block{}
		}
	case *IfThenElse:
		cond, t := fe(s.Cond), fs(s.Then)
		var el Stmt
		if s.Else != nil {
			el = fs(s.Else)
		}
		return edit(s, cond != s.Cond || t != s.Then || el != s.Else, func(c *IfThenElse) { c.Cond, c.Then, c.Else = cond, t, el })
	case *Evaluate:
		return edit1(s, s.X, fe, func(c *Evaluate, x Expr) { c.X = x })
	case *Provide:
		v := fe(s.Value)
		args, changed := mapExprs(s.Args, fe)
		return edit(s, v != s.Value || changed, func(c *Provide) { c.Value, c.Args = v, args })
	case *Realize:
		bounds, changed := mapRanges(s.Bounds, fe)
		b := fs(s.Body)
		return edit(s, changed || b != s.Body, func(c *Realize) { c.Bounds, c.Body = bounds, b })
	case *Allocate:
		ext, changed := mapExprs(s.Extents, fe)
		b := fs(s.Body)
		return edit(s, changed || b != s.Body, func(c *Allocate) { c.Extents, c.Body = ext, b })
	case *Store:
		return edit2(s, s.Index, s.Value, fe, fe, func(c *Store, i, v Expr) { c.Index, c.Value = i, v })
	}
	return s
}

// VisitExpr calls f on each child of e, in order (not recursively): the
// visiting counterpart of MapExpr, for walkers that handle some nodes
// themselves and leave the others to it.
func VisitExpr(e Expr, f func(Expr)) {
	switch e := e.(type) {
	case *Cast:
		f(e.X)
	case *Binary:
		f(e.A)
		f(e.B)
	case *Not:
		f(e.X)
	case *Select:
		f(e.Cond)
		f(e.True)
		f(e.False)
	case *Call:
		for _, a := range e.Args {
			f(a)
		}
	case *Load:
		f(e.Index)
	case *Let:
		f(e.Value)
		f(e.Body)
	}
}

// VisitStmt calls fs on each child statement of s and fe on each of its
// expressions, in the order they run (not recursively): the visiting
// counterpart of MapStmt. Either function may be nil; a nil child (an
// IfThenElse without Else) is skipped.
func VisitStmt(s Stmt, fs func(Stmt), fe func(Expr)) {
	st := func(x Stmt) {
		if fs != nil && x != nil {
			fs(x)
		}
	}
	ex := func(x Expr) {
		if fe != nil {
			fe(x)
		}
	}
	switch s := s.(type) {
	case *LetStmt:
		ex(s.Value)
		st(s.Body)
	case *AssertStmt:
		ex(s.Cond)
		for _, a := range s.Args {
			ex(a)
		}
	case *ProducerConsumer:
		st(s.Body)
	case *Atomic:
		st(s.Body)
	case *LoadVector:
		st(s.Body)
	case *StoreVector:
		st(s.Body)
	case *For:
		ex(s.Min)
		ex(s.Extent)
		st(s.Body)
	case *Block:
		for _, x := range s.Stmts {
			st(x)
		}
	case *IfThenElse:
		ex(s.Cond)
		st(s.Then)
		st(s.Else)
	case *Evaluate:
		ex(s.X)
	case *Provide:
		for _, a := range s.Args {
			ex(a)
		}
		ex(s.Value)
	case *Realize:
		for _, r := range s.Bounds {
			ex(r.Min)
			ex(r.Extent)
		}
		st(s.Body)
	case *Allocate:
		for _, x := range s.Extents {
			ex(x)
		}
		st(s.Body)
	case *Store:
		ex(s.Index)
		ex(s.Value)
	}
}

// WalkExpr calls f on e and, when f returns true, on its children, in
// pre-order.
func WalkExpr(e Expr, f func(Expr) bool) {
	if e == nil || !f(e) {
		return
	}
	VisitExpr(e, func(c Expr) { WalkExpr(c, f) })
}

// WalkExprOnce is WalkExpr visiting each node once, however many parents
// it has: for the queries whose answer does not depend on how often a node
// is seen (does e read x, which Vars does it use), on expressions built in
// Go, where one node may be used many times (e = e*e + y in a loop: a
// tree of 2^n nodes on a graph of n).
func WalkExprOnce(e Expr, f func(Expr) bool) {
	seen := map[Expr]bool{}
	var walk func(Expr)
	walk = func(x Expr) {
		if x == nil || seen[x] {
			return
		}
		seen[x] = true
		if f(x) {
			VisitExpr(x, walk)
		}
	}
	walk(e)
}

// WalkStmt calls fs on s and, when it returns true, walks its children:
// statements with fs, expressions with WalkExpr(·, fe). fe may be nil.
func WalkStmt(s Stmt, fs func(Stmt) bool, fe func(Expr) bool) {
	if s == nil || !fs(s) {
		return
	}
	var ex func(Expr)
	if fe != nil {
		ex = func(e Expr) { WalkExpr(e, fe) }
	}
	VisitStmt(s, func(c Stmt) { WalkStmt(c, fs, fe) }, ex)
}

// Substitute replaces free variables named in m by their expressions. Let
// bindings that shadow a name stop its replacement in their bodies.
func Substitute(e Expr, m map[string]Expr) Expr {
	if len(m) == 0 {
		return e
	}
	var sub func(Expr) Expr
	sub = func(e Expr) Expr {
		switch e := e.(type) {
		case *Var:
			if r, ok := m[e.Name]; ok {
				return r
			}
			return e
		case *Let:
			if _, shadow := m[e.Name]; shadow {
				v, b := sub(e.Value), Substitute(e.Body, without(m, e.Name))
				return edit(e, v != e.Value || b != e.Body, func(c *Let) { c.Value, c.Body = v, b })
			}
		}
		return MapExpr(e, sub)
	}
	return sub(e)
}

// SubstituteStmt replaces free variables named in m throughout s.
func SubstituteStmt(s Stmt, m map[string]Expr) Stmt {
	if len(m) == 0 {
		return s
	}
	var fs func(Stmt) Stmt
	fe := func(e Expr) Expr { return Substitute(e, m) }
	fs = func(s Stmt) Stmt {
		if l, ok := s.(*LetStmt); ok {
			if _, shadow := m[l.Name]; shadow {
				v, b := fe(l.Value), SubstituteStmt(l.Body, without(m, l.Name))
				return edit(l, v != l.Value || b != l.Body, func(c *LetStmt) { c.Value, c.Body = v, b })
			}
		}
		return MapStmt(s, fs, fe)
	}
	return fs(s)
}

// without returns a copy of m without name.
func without(m map[string]Expr, name string) map[string]Expr {
	inner := make(map[string]Expr, len(m))
	for k, x := range m {
		if k != name {
			inner[k] = x
		}
	}
	return inner
}

// ContainsExpr reports whether pred holds for e or an expression inside
// it; it stops at the first that does.
func ContainsExpr(e Expr, pred func(Expr) bool) bool {
	return contains(func(visit func(Expr) bool) { WalkExpr(e, visit) }, pred)
}

// ContainsStmt reports whether pred holds for s or a statement inside it
// (expressions are not looked into); it stops at the first that does.
func ContainsStmt(s Stmt, pred func(Stmt) bool) bool {
	return contains(func(visit func(Stmt) bool) { WalkStmt(s, visit, nil) }, pred)
}

// contains runs walk with a visit that stops it once pred has held.
func contains[T any](walk func(visit func(T) bool), pred func(T) bool) bool {
	found := false
	walk(func(x T) bool {
		found = found || pred(x)
		return !found
	})
	return found
}

// Uses reports whether e refers to a variable named name.
func Uses(e Expr, name string) bool {
	return ContainsExpr(e, func(x Expr) bool {
		v, ok := x.(*Var)
		return ok && v.Name == name
	})
}

// UsesAny reports whether e refers to any variable for which pred is true.
func UsesAny(e Expr, pred func(name string) bool) bool {
	return ContainsExpr(e, func(x Expr) bool {
		v, ok := x.(*Var)
		return ok && pred(v.Name)
	})
}

// StmtUses reports whether any expression in s refers to a variable named name.
func StmtUses(s Stmt, name string) bool {
	return ContainsStmt(s, func(x Stmt) bool {
		uses := false
		VisitStmt(x, nil, func(e Expr) { uses = uses || Uses(e, name) })
		return uses
	})
}

// Equal reports whether two expressions are structurally identical.
func Equal(a, b Expr) bool { return equal(a, b, false) }

// equal is Equal; with bits set, float constants must also match bit for
// bit (0.0 and -0.0 differ).
func equal(a, b Expr, bits bool) bool {
	if a == b {
		return true
	}
	if a == nil || b == nil {
		return false
	}
	switch a := a.(type) {
	case *IntImm:
		b, ok := b.(*IntImm)
		return ok && a.T == b.T && a.V == b.V
	case *FloatImm:
		b, ok := b.(*FloatImm)
		return ok && a.T == b.T && a.V == b.V && (!bits || math.Float64bits(a.V) == math.Float64bits(b.V))
	case *Var:
		b, ok := b.(*Var)
		return ok && a.T == b.T && a.Name == b.Name
	case *Cast:
		b, ok := b.(*Cast)
		return ok && a.T == b.T && equal(a.X, b.X, bits)
	case *Binary:
		b, ok := b.(*Binary)
		return ok && a.Op == b.Op && equal(a.A, b.A, bits) && equal(a.B, b.B, bits)
	case *Not:
		b, ok := b.(*Not)
		return ok && equal(a.X, b.X, bits)
	case *Select:
		b, ok := b.(*Select)
		return ok && equal(a.Cond, b.Cond, bits) && equal(a.True, b.True, bits) && equal(a.False, b.False, bits)
	case *Call:
		b, ok := b.(*Call)
		if !ok || a.T != b.T || a.Kind != b.Kind || a.Name != b.Name || a.Index != b.Index || len(a.Args) != len(b.Args) {
			return false
		}
		for i := range a.Args {
			if !equal(a.Args[i], b.Args[i], bits) {
				return false
			}
		}
		return true
	case *Load:
		b, ok := b.(*Load)
		return ok && a.T == b.T && a.Buf == b.Buf && equal(a.Index, b.Index, bits)
	case *Let:
		b, ok := b.(*Let)
		return ok && a.Name == b.Name && equal(a.Value, b.Value, bits) && equal(a.Body, b.Body, bits)
	}
	return false
}
