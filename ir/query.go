package ir

// Questions about a whole tree, asked by more than one package.

// Accesses returns the buffers s loads from and stores to (Load and Store;
// those inside Allocates of s itself included).
func Accesses(s Stmt) (reads, writes map[string]bool) {
	reads, writes = map[string]bool{}, map[string]bool{}
	WalkStmt(s, func(x Stmt) bool {
		if st, ok := x.(*Store); ok {
			writes[st.Buf] = true
		}
		return true
	}, func(e Expr) bool {
		if l, ok := e.(*Load); ok {
			reads[l.Buf] = true
		}
		return true
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
	WalkStmt(s, func(x Stmt) bool {
		switch x := x.(type) {
		case *LetStmt:
			names[x.Name] = true
		case *For:
			names[x.Name] = true
		case *Allocate:
			names[x.Name] = true
		}
		return true
	}, func(e Expr) bool {
		if l, ok := e.(*Let); ok {
			names[l.Name] = true
		}
		return true
	})
	return names
}
