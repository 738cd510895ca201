package ir

// Questions about a whole tree, asked by more than one package.

// Accesses returns the buffers s loads from and stores to (Load and Store;
// those inside Allocates of s itself included).
func Accesses(s Stmt) (reads, writes map[string]bool) {
	reads, writes = map[string]bool{}, map[string]bool{}
	collectNames(s, writes, reads, nameOf[Stmt](func(st *Store) string { return st.Buf }),
		nameOf[Expr](func(l *Load) string { return l.Buf }))
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
	}, nameOf[Expr](func(l *Let) string { return l.Name }))
	return names
}

// nameOf is the name get gives a node of type N, for collectNames: false
// for a node of another type.
func nameOf[X any, N any](get func(N) string) func(X) (string, bool) {
	return func(x X) (string, bool) {
		if n, ok := any(x).(N); ok {
			return get(n), true
		}
		return "", false
	}
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
