package lower

// inline_functions: substitute every Func computed inline (the default for
// a Func without updates) into the definitions of its consumers.
//
// Before: State.P holds the pipeline as the user wrote it.
// After: State.Funcs holds copies of the Functions that are realized, with
// no calls to inlined Funcs left; State.Order lists them producers first.

import (
	"github.com/gohalide/gohalide/ir"
)

func isInlined(f *ir.Function, output string) bool {
	return f.Name != output && f.Schedule.Compute.Kind == ir.LevelInline && len(f.Updates) == 0
}

func inlineFunctions(st *State) error {
	p := st.P
	st.Funcs = map[string]*ir.Function{}
	for _, name := range p.Order {
		f := p.Funcs[name]
		if f.Schedule.ExplicitInline && len(f.Updates) > 0 {
			return ir.Errorf(ir.ErrSchedule, name, "compute_inline", "%s has update definitions and cannot be computed inline", name).
				WithLegal("compute_root or compute_at")
		}
		if name == p.Output && f.Schedule.Compute.Kind == ir.LevelAt {
			return ir.Errorf(ir.ErrComputeAt, name, "compute_at", "%s is the output; it is always computed at the root", name)
		}
		c := *f
		c.Updates = nil
		c.Pure = copyDef(f.Pure)
		for _, u := range f.Updates {
			c.Updates = append(c.Updates, copyDef(u))
		}
		st.Funcs[name] = &c
	}
	// Substitute producers first, so a chain of inlined Funcs collapses.
	for _, name := range p.Order {
		f := st.Funcs[name]
		if !isInlined(f, p.Output) {
			st.Order = append(st.Order, name)
			continue
		}
		for _, other := range st.Funcs {
			if other == f {
				continue
			}
			for _, d := range other.Stages() {
				for i, a := range d.Args {
					d.Args[i] = inlineCalls(a, f)
				}
				d.Value = inlineCalls(d.Value, f)
			}
		}
	}
	for _, name := range p.Order {
		if isInlined(st.Funcs[name], p.Output) {
			delete(st.Funcs, name)
		}
	}
	return nil
}

func copyDef(d *ir.Definition) *ir.Definition {
	c := *d
	c.Args = append([]ir.Expr(nil), d.Args...)
	c.Schedule.Dims = append([]ir.Dim(nil), d.Schedule.Dims...)
	c.Schedule.Splits = append([]ir.Split(nil), d.Schedule.Splits...)
	return &c
}

// inlineCalls replaces each call to f in e by f's value at the call's arguments.
func inlineCalls(e ir.Expr, f *ir.Function) ir.Expr {
	var mut func(ir.Expr) ir.Expr
	mut = func(e ir.Expr) ir.Expr {
		e = ir.MapExpr(e, mut)
		if c, ok := e.(*ir.Call); ok && c.Kind == ir.CallFunc && c.Name == f.Name {
			m := make(map[string]ir.Expr, len(f.Args))
			for i, a := range f.Args {
				m[a] = c.Args[i]
			}
			return ir.Substitute(f.Pure.Value, m)
		}
		return e
	}
	return mut(e)
}
