package halide

// Specialize and SpecializeFail: a stage's cases (Halide's
// Stage::specialize and Stage::specialize_fail).

import (
	"github.com/gohalide/gohalide/ir"
)

// Specialize adds a case to the stage: when cond holds, the stage runs
// with a schedule of its own, and the handle returned schedules it. The
// case starts with the stage's schedule as it is now; later directives on
// the case change only the case, and later directives on s only the
// stage's default (the schedule used when no case holds). The algorithm
// is the same in every case, so every case computes the same values.
//
// cond is a bool expression of Params (int, float or bool) and input
// shapes (ImageParam.Dim(i).Extent(), ...): the cases are tested in the
// order they were added, once per production of the stage, not per
// point. Inside a case its condition is known: a bool Param it tests is
// true there, and p == c makes the Param p the constant c (so an RDom or
// Bound of extent p has a constant extent in the case, which splits,
// Unroll and Vectorize can use). Specializing again on an equal condition
// returns the existing case, and a case may itself be specialized.
//
// The Func's ComputeAt, StoreAt and StoreIn are the same in every case (they
// are Func directives). A producer computed at a loop of this stage is
// computed in every case, at that case's loop of the var (however the case
// split it); a case without one is an ErrComputeAt error. Lowered
// statements, the loop nest and the CUDA source show the cases as if /
// else; on the GPU each case may launch kernels of its own.
func (s *Stage) Specialize(cond any) *Stage {
	d := s.beginDef("specialize")
	if d == nil {
		return s
	}
	c := E(cond)
	if err := c.Err(); err != nil {
		s.f.fail(withFunc(err, s.f.fn.Name, "specialize"))
		return s
	}
	if err := checkSpecializeCond(s.f.fn.Name, c.node); err != nil {
		s.f.fail(err)
		return s
	}
	for _, sp := range d.Specializations {
		if sp.Fail == "" && ir.Equal(sp.Cond, c.node) {
			return &Stage{f: s.f, idx: s.idx, spec: sp.Def}
		}
	}
	if n := len(d.Specializations); n > 0 && d.Specializations[n-1].Fail != "" {
		s.f.fail(ir.Errorf(ir.ErrSchedule, s.f.fn.Name, "specialize", "in %s, specialize(%s) comes after specialize_fail, which ends the cases", s.name(), ir.ExprString(c.node)).
			WithLegal("every specialize before the stage's one specialize_fail"))
		return s
	}
	nd := d.CopySchedule()
	nd.Specializations = nil
	d.Specializations = append(d.Specializations, ir.Specialization{Cond: c.node, Def: nd})
	return &Stage{f: s.f, idx: s.idx, spec: nd}
}

// SpecializeFail ends the stage's cases: a run in which none of the
// conditions given to Specialize holds fails with an ErrSpecializeFail
// error carrying message (a kind of ErrRuntime), and the stage has no
// default schedule (Halide's specialize_fail). It comes after every
// Specialize of the stage, once.
func (s *Stage) SpecializeFail(message string) *Stage {
	d := s.beginDef("specialize_fail")
	if d == nil {
		return s
	}
	if message == "" {
		s.f.failf(ir.ErrBadArgument, "specialize_fail", "the message of specialize_fail on %s is empty", s.name())
		return s
	}
	if n := len(d.Specializations); n > 0 && d.Specializations[n-1].Fail != "" {
		s.f.fail(ir.Errorf(ir.ErrSchedule, s.f.fn.Name, "specialize_fail", "%s already has a specialize_fail (%q)", s.name(), d.Specializations[n-1].Fail).
			WithLegal("one specialize_fail per stage, after its Specialize cases"))
		return s
	}
	d.Specializations = append(d.Specializations, ir.Specialization{Cond: ir.True, Fail: message})
	return s
}

// Specialize is Stage.Specialize on the pure definition.
func (f *Func) Specialize(cond any) *Stage { return f.stage0("specialize").Specialize(cond) }

// SpecializeFail is Stage.SpecializeFail on the pure definition.
func (f *Func) SpecializeFail(message string) *Func {
	return f.stage0("specialize_fail").SpecializeFail(message).f
}

// checkSpecializeCond refuses a condition that is not a bool or that reads
// something other than Params and buffer shapes: a Var or RVar (it would
// differ between the points of the stage, which tests it once), a Func or
// an image element.
func checkSpecializeCond(fn string, c ir.Expr) error {
	if c.Type() != ir.Bool {
		return ir.Errorf(ir.ErrType, fn, "specialize", "the condition %s is %s, not bool", ir.ExprString(c), c.Type()).
			WithLegal("a bool expression of Params and input shapes, such as w.Eq(8) or a Param[bool]")
	}
	var bad string
	ir.WalkExpr(c, func(e ir.Expr) bool {
		if bad != "" {
			return false
		}
		switch e := e.(type) {
		case *ir.Var:
			if e.Param == nil {
				bad = "the loop variable " + e.Name
			}
		case *ir.Call:
			switch e.Kind {
			case ir.CallFunc:
				bad = "the Func " + e.Name
			case ir.CallImage:
				bad = "an element of " + e.Name
			}
		}
		return true
	})
	if bad != "" {
		return ir.Errorf(ir.ErrSchedule, fn, "specialize", "the condition %s reads %s; it is tested once per production of the stage, before any point is computed", ir.ExprString(c), bad).
			WithLegal("a condition on Params (int, float or bool) and input shapes (ImageParam.Dim(i).Min(), .Extent())")
	}
	return nil
}

// specConds returns the conditions of d's specializations and of theirs.
func specConds(d *ir.Definition) []ir.Expr {
	var out []ir.Expr
	for _, sp := range d.Specializations {
		out = append(out, sp.Cond)
		if sp.Def != nil {
			out = append(out, specConds(sp.Def)...)
		}
	}
	return out
}
