package lower

import (
	"fmt"
	"strings"

	"github.com/gohalide/gohalide/ir"
)

// PrintLoopNest prints the loop nest of a statement from
// schedule_functions, like Halide's print_loop_nest: one line per loop
// ("for x:", "parallel y:", "unrolled x.xi in [0, 3]:"), "produce f:" and
// "consume f:" around productions, "store f:" where storage is allocated
// outside the compute level, and "f(...) = ..." for each definition. Loop
// names drop the "f.sN." prefix; constant bounds are shown as [min, max].
func PrintLoopNest(s ir.Stmt) string { return printLoopNest(s, nil) }

// printLoopNest is PrintLoopNest with notes, lines shown at the top of
// the body of the loops they are keyed by (the prefetches).
func printLoopNest(s ir.Stmt, notes map[string][]string) string {
	var b strings.Builder
	printNest(&b, s, 0, notes)
	return b.String()
}

func printNest(b *strings.Builder, s ir.Stmt, depth int, notes map[string][]string) {
	ind := strings.Repeat("  ", depth)
	switch s := s.(type) {
	case nil:
	case *ir.IfThenElse:
		if !isLikely(s.Cond) {
			// The cases of a specialization.
			printCases(b, s, depth, "if", notes)
			return
		}
		// A tail guard: only its statements show, at the same depth.
		ir.VisitStmt(s, func(c ir.Stmt) { printNest(b, c, depth, notes) }, nil)
	case *ir.Block, *ir.LetStmt:
		// Only their statements show, at the same depth.
		ir.VisitStmt(s, func(c ir.Stmt) { printNest(b, c, depth, notes) }, nil)
	case *ir.Realize:
		if blk, ok := s.Body.(*ir.Block); ok && len(blk.Stmts) > 0 {
			if pc, ok := blk.Stmts[0].(*ir.ProducerConsumer); ok && pc.Func == s.Func && pc.Producer {
				printNest(b, s.Body, depth, notes)
				return
			}
		}
		fmt.Fprintf(b, "%sstore %s:\n", ind, s.Func)
		printNest(b, s.Body, depth+1, notes)
	case *ir.ProducerConsumer:
		word := "consume"
		if s.Producer {
			word = "produce"
		}
		fmt.Fprintf(b, "%s%s %s:\n", ind, word, s.Func)
		printNest(b, s.Body, depth+1, notes)
	case *ir.For:
		rng := ""
		mn := ir.Simplify(s.Min)
		mx := ir.Simplify(ir.SubE(ir.AddE(s.Min, s.Extent), ir.Int(1)))
		if ir.IsConst(mn) && ir.IsConst(mx) {
			rng = fmt.Sprintf(" in [%s, %s]", ir.ExprString(mn), ir.ExprString(mx))
		}
		fmt.Fprintf(b, "%s%s %s%s:\n", ind, s.Kind, trimLoop(s.Name), rng)
		for _, n := range notes[s.Name] {
			fmt.Fprintf(b, "%s  %s\n", ind, n)
		}
		printNest(b, s.Body, depth+1, notes)
	case *ir.Provide:
		fmt.Fprintf(b, "%s%s(...) = ...\n", ind, s.Func)
	default:
		fmt.Fprintf(b, "%s%s", ind, ir.StmtString(s))
	}
}

// printCases prints the cases of a specialization as "if (c):", "else if
// (c):" and "else:".
func printCases(b *strings.Builder, s *ir.IfThenElse, depth int, word string, notes map[string][]string) {
	ind := strings.Repeat("  ", depth)
	cond := ir.ExprString(s.Cond)
	if !strings.HasPrefix(cond, "(") {
		cond = "(" + cond + ")"
	}
	fmt.Fprintf(b, "%s%s %s:\n", ind, word, cond)
	printNest(b, s.Then, depth+1, notes)
	if s.Else == nil {
		return
	}
	if e, ok := s.Else.(*ir.IfThenElse); ok && !isLikely(e.Cond) {
		printCases(b, e, depth, "else if", notes)
		return
	}
	fmt.Fprintf(b, "%selse:\n", ind)
	printNest(b, s.Else, depth+1, notes)
}

// isLikely reports whether e is a likely(...) call, the mark of a tail
// guard.
func isLikely(e ir.Expr) bool {
	c, ok := e.(*ir.Call)
	return ok && c.Kind == ir.CallIntrinsic && c.Name == ir.IntrinsicLikely
}
