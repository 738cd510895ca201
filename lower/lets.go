package lower

import "github.com/gohalide/gohalide/ir"

// letValues records, while a pass walks a statement, the value of each
// enclosing let in terms of the variables outside them all, so a pass can
// see through region variables: (f.s0.x.max - f.s0.x.min) + 1 becomes
// a constant once the lets are substituted.
type letValues map[string]ir.Expr

// bind records a let (or, with a nil value, a loop variable that hides a
// let of the same name) and returns the function that undoes it.
func (lv letValues) bind(name string, value ir.Expr) (undo func()) {
	saved, had := lv[name]
	if value == nil {
		delete(lv, name)
	} else {
		lv[name] = ir.Substitute(value, lv)
	}
	return func() {
		if had {
			lv[name] = saved
		} else {
			delete(lv, name)
		}
	}
}

// resolve returns e with the recorded lets substituted, simplified.
func (lv letValues) resolve(e ir.Expr) ir.Expr { return ir.Simplify(ir.Substitute(e, lv)) }

// walkScope is what walkScoped keeps up to date: the values of the
// enclosing lets and the enclosing loops, outermost first.
type walkScope struct {
	lets  letValues
	loops []*ir.For
	// kernelLets, when a pass sets it (to an empty map), holds the lets
	// bound inside the innermost enclosing GPU block loop, in terms of the
	// variables outside it: a value uniform over the launch keeps its name
	// (f.s0.x.max, not f.min.0 + f.extent.0 - 1), so what a pass writes
	// inside the kernel spells it as the loops there do.
	kernelLets letValues
}

// walkWithLets maps s bottom-up with f, keeping lv up to date with the
// lets and loops enclosing each statement f sees.
func walkWithLets(s ir.Stmt, lv letValues, f func(ir.Stmt) ir.Stmt) ir.Stmt {
	return walkScoped(s, &walkScope{lets: lv}, f)
}

// walkScoped maps s bottom-up with f, keeping sc up to date with the lets
// and loops enclosing each statement f sees.
func walkScoped(s ir.Stmt, sc *walkScope, f func(ir.Stmt) ir.Stmt) ir.Stmt {
	var mut func(ir.Stmt) ir.Stmt
	mut = func(s ir.Stmt) ir.Stmt {
		switch x := s.(type) {
		case *ir.LetStmt:
			undo := sc.lets.bind(x.Name, x.Value)
			undoKernel := func() {}
			if sc.kernelLets != nil {
				undoKernel = sc.kernelLets.bind(x.Name, x.Value)
			}
			body := mut(x.Body)
			undoKernel()
			undo()
			if body != x.Body {
				s = &ir.LetStmt{Name: x.Name, Value: x.Value, Body: body}
			}
			return f(s)
		case *ir.For:
			undo := sc.lets.bind(x.Name, nil)
			sc.loops = append(sc.loops, x)
			defer func() {
				sc.loops = sc.loops[:len(sc.loops)-1]
				undo()
			}()
			if kl := sc.kernelLets; kl != nil {
				if x.Kind == ir.GPUBlock {
					sc.kernelLets = letValues{}
					defer func() { sc.kernelLets = kl }()
				} else {
					defer kl.bind(x.Name, nil)()
				}
			}
		}
		return f(ir.MapStmt(s, mut, nil))
	}
	return mut(s)
}

// kernelLoops splits enclosing loops at the innermost GPU block loop: it
// returns the loops inside it (the block level down to here) and whether
// there is a block loop at all.
func kernelLoops(loops []*ir.For) (inner []*ir.For, inKernel bool) {
	for i := len(loops) - 1; i >= 0; i-- {
		if loops[i].Kind == ir.GPUBlock {
			return loops[i+1:], true
		}
	}
	return nil, false
}
