package ir

// Simplify returns an expression equal to e in value, in a simpler form.
// (Placeholder while the simplifier is written: returns e unchanged.)
func Simplify(e Expr) Expr { return e }

// SimplifyStmt simplifies every expression in s.
func SimplifyStmt(s Stmt) Stmt { return s }
