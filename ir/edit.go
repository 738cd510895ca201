package ir

// Editing one node, for mutators that handle some nodes themselves (the
// rest go to MapStmt and MapExpr): each returns the node it was given when
// nothing changed, so that an unchanged subtree stays the same pointer and
// a pass can say "unchanged".

// Edit returns n itself when changed is false, else a copy of *n on which
// set made its changes (the fields it does not set survive).
func Edit[N any](n *N, changed bool, set func(*N)) *N { return edit(n, changed, set) }

// WithBody returns s, a statement with one child statement (LetStmt, For,
// ProducerConsumer, Allocate, Realize, LoadVector, StoreVector), with that
// child replaced by body: s itself when body is already its child.
func WithBody(s Stmt, body Stmt) Stmt {
	switch s.(type) {
	case *Block, *IfThenElse:
		panic("ir.WithBody of a statement with several children")
	}
	return MapStmt(s, func(Stmt) Stmt { return body }, nil)
}

// SameBlock returns b when out holds b's statements (the same pointers, in
// order), else MakeBlock(out...): a mutator that rebuilds a Block from its
// visited statements, inserting some, leaves it as it was when it inserted
// none and no statement changed.
func SameBlock(b *Block, out []Stmt) Stmt {
	if len(out) == len(b.Stmts) {
		same := true
		for i := range out {
			same = same && out[i] == b.Stmts[i]
		}
		if same {
			return b
		}
	}
	return MakeBlock(out...)
}
