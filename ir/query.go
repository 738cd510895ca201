package ir

// Questions about a whole tree, asked by more than one package.

// Accesses returns the buffers s loads from and stores to (Load and Store;
// those inside Allocates of s itself included).
func Accesses(s Stmt) (reads, writes map[string]bool) {
	reads, writes = map[string]bool{}, map[string]bool{}
	collectNames(s, writes, reads, func(x Stmt) (string, bool) {
		if st, ok := x.(*Store); ok {
			return st.Buf, true
		}
		return "", false
	}, func(e Expr) (string, bool) {
		if l, ok := e.(*Load); ok {
			return l.Buf, true
		}
		return "", false
	})
	return reads, writes
}

// ExprExceeds reports whether e has more than n nodes, visiting at most
// n + 1.
func ExprExceeds(e Expr, n int) bool {
	return exceeds(n, func(visit func() bool) { WalkExpr(e, func(Expr) bool { return visit() }) })
}

// StmtExceeds reports whether s has more than n nodes, statements and
// expressions, visiting at most n + 1.
func StmtExceeds(s Stmt, n int) bool {
	return exceeds(n, func(visit func() bool) {
		WalkStmt(s, func(Stmt) bool { return visit() }, func(Expr) bool { return visit() })
	})
}

// exceeds runs walk with a visit that counts the nodes and stops it past
// n.
func exceeds(n int, walk func(visit func() bool)) bool {
	count := 0
	walk(func() bool {
		count++
		return count <= n
	})
	return count > n
}

// Binders returns the names s binds: its lets (statements and
// expressions), loops and allocations.
func Binders(s Stmt) map[string]bool {
	names := map[string]bool{}
	collectNames(s, names, names, func(x Stmt) (string, bool) {
		switch x := x.(type) {
		case *LetStmt:
			return x.Name, true
		case *For:
			return x.Name, true
		case *Allocate:
			return x.Name, true
		}
		return "", false
	}, func(e Expr) (string, bool) {
		if l, ok := e.(*Let); ok {
			return l.Name, true
		}
		return "", false
	})
	return names
}

// collectNames walks s, adding to stmtNames the name ofStmt gives each
// statement that has one and to exprNames the name ofExpr gives each
// expression that has one.
func collectNames(s Stmt, stmtNames, exprNames map[string]bool, ofStmt func(Stmt) (string, bool), ofExpr func(Expr) (string, bool)) {
	WalkStmt(s, func(x Stmt) bool {
		if name, ok := ofStmt(x); ok {
			stmtNames[name] = true
		}
		return true
	}, func(e Expr) bool {
		if name, ok := ofExpr(e); ok {
			exprNames[name] = true
		}
		return true
	})
}
