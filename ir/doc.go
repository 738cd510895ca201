// Package ir is the intermediate representation of gohalide, the leaf of
// the import graph: scalar types; Expr nodes (constants, variables, casts,
// binary operators, select, calls, loads, lets) and Stmt nodes (loops,
// lets, blocks, conditionals, produce/consume markers, multi-dimensional
// Provide and Realize before storage flattening, flat Allocate and Store
// after it); the Function data that records an algorithm and its schedule;
// the Error type users see.
//
// Nodes are immutable plain structs. Traversal is two helpers, MapExpr /
// MapStmt (rebuild a node from mapped children, returning the same node
// when nothing changed) and WalkExpr / WalkStmt (pre-order visits), plus a
// type switch in each pass. ExprString and StmtString print the stable
// C-like text that golden tests and users read. Simplify canonicalizes
// integer arithmetic to a linear form so correlated terms cancel, which
// bounds inference relies on for exact, often constant, sizes.
package ir
