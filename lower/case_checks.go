package lower

// case_checks: the buffer checks of a pipeline with specializations, for
// the case that runs. bounds.Touched walks both branches of an if, so the
// box of an input read in one case only (or read differently in each) is
// the union of the cases' boxes, and a check of that union refuses an
// input that the case which runs never reads past (Halide's specialize
// tests: an input of 10 points where only the other case reads 100).
// Halide's boxes carry the condition under which they are used; here the
// checks are made once for each way the specialization conditions may go,
// on the statement with each case if replaced by the branch that runs,
// and each set is guarded by its conditions. The conditions depend on
// Params and buffer shapes only, so the guards are evaluated before
// anything runs, as the checks are.

import "github.com/gohalide/gohalide/ir"

// maxCaseConds is the most distinct specialization conditions whose
// combinations the checks are split over (2^n sets of checks); with more,
// the union is checked.
const maxCaseConds = 3

// caseSplit is one way the specialization conditions may go: guard (nil
// for always) and the statement that runs then.
type caseSplit struct {
	guard ir.Expr
	s     ir.Stmt
}

// caseSplits returns the ways the specialization conditions of s may go:
// one split, s itself, without specializations or with too many
// conditions.
func caseSplits(st *State, s ir.Stmt) []caseSplit {
	var conds []ir.Expr
	ir.WalkStmt(s, func(x ir.Stmt) bool {
		c, ok := x.(*ir.IfThenElse)
		if !ok || !isSpecCond(st, c.Cond) {
			return true
		}
		for _, o := range conds {
			if ir.Equal(o, c.Cond) {
				return true
			}
		}
		conds = append(conds, c.Cond)
		return true
	}, nil)
	if len(conds) == 0 || len(conds) > maxCaseConds {
		return []caseSplit{{nil, s}}
	}
	var out []caseSplit
	for mask := 0; mask < 1<<len(conds); mask++ {
		var guard ir.Expr
		k := caseFacts{known: map[string]ir.Expr{}}
		for i, c := range conds {
			if mask&(1<<i) == 0 {
				c = &ir.Not{X: c}
			} else {
				k = k.learn(c, nil)
			}
			guard = andPath(guard, c)
		}
		// Where the conditions fix a Param or a buffer's size (cm == 1),
		// the checks of the split see its value, as Halide's simplifier
		// does inside the if: d / cm is then d, and a region's ends stay
		// correlated (depthwise_separable_conv's channel_multiplier).
		out = append(out, caseSplit{guard, ir.SubstituteStmt(takeCases(s, conds, mask), k.known)})
	}
	return out
}

// isSpecCond reports whether cond is the condition of a specialization if.
func isSpecCond(st *State, cond ir.Expr) bool {
	for _, c := range st.specConds {
		if ir.Equal(c, cond) {
			return true
		}
	}
	return false
}

// takeCases returns s with each if on one of conds replaced by the branch
// that runs where condition i holds exactly when bit i of mask is set.
func takeCases(s ir.Stmt, conds []ir.Expr, mask int) ir.Stmt {
	var mut func(ir.Stmt) ir.Stmt
	mut = func(x ir.Stmt) ir.Stmt {
		if c, ok := x.(*ir.IfThenElse); ok {
			for i, cond := range conds {
				if !ir.Equal(cond, c.Cond) {
					continue
				}
				if mask&(1<<i) != 0 {
					return mut(c.Then)
				}
				if c.Else == nil {
					return &ir.Block{}
				}
				return mut(c.Else)
			}
		}
		return ir.MapStmt(x, mut, nil)
	}
	return mut(s)
}
