package halide

import "github.com/gohalide/gohalide/ir"

// directCallers expands the consumers named to In or CloneIn of target (a
// *Func or an *ImageParam, whose wrappers by consumer are ws) to the Funcs
// that read target directly on some path down the call graph from them,
// as Halide's resolve_transitive_callers (Func.cpp) does: base.In(top),
// where top reads base only through mid, wraps base in mid. The walk from
// each consumer stops at a Func that reads target or one of its wrappers
// for particular consumers (which stands for target), so a direct caller
// deeper down, under one that is found, keeps reading target; and it does
// not go through target or those wrappers. A consumer with no such path
// (one not defined yet, or one that does not read target at all) stays
// as named: the pipeline refuses a wrapper its consumer never reads.
func directCallers(target any, ws map[*Func]*Func, consumers []*Func) []*Func {
	stop := map[*Func]bool{}
	if f, ok := target.(*Func); ok {
		stop[f] = true
	}
	for g, w := range ws {
		if g != nil {
			stop[w] = true
		}
	}
	var out []*Func
	emitted := map[*Func]bool{}
	emit := func(g *Func) {
		if !emitted[g] {
			emitted[g] = true
			out = append(out, g)
		}
	}
	for _, g := range consumers {
		var found []*Func
		visited := map[*Func]bool{}
		var walk func(h *Func)
		walk = func(h *Func) {
			if stop[h] || visited[h] {
				return
			}
			visited[h] = true
			reads, callees := funcCalls(h, target, stop)
			if reads {
				found = append(found, h)
				return
			}
			for _, c := range callees {
				walk(c)
			}
		}
		walk(g)
		if len(found) == 0 {
			found = []*Func{g}
		}
		for _, h := range found {
			emit(h)
		}
	}
	return out
}

// funcCalls reports whether the definitions of h (every stage and case,
// its RDoms and its specializations' conditions) read target or a Func
// in stop, and returns the other Funcs they read, in order.
func funcCalls(h *Func, target any, stop map[*Func]bool) (reads bool, callees []*Func) {
	if h.fn == nil || h.fn.Pure == nil {
		return false, nil
	}
	seen := map[*Func]bool{h: true}
	visit := func(e ir.Expr) {
		if e == nil {
			return
		}
		ir.WalkExpr(e, func(x ir.Expr) bool {
			c, ok := x.(*ir.Call)
			if !ok || (c.Kind != ir.CallFunc && c.Kind != ir.CallImage) {
				return true
			}
			if c.Ref == target {
				reads = true
			} else if g, ok := c.Ref.(*Func); ok {
				if stop[g] {
					reads = true
				} else if !seen[g] {
					seen[g] = true
					callees = append(callees, g)
				}
			}
			return true
		})
	}
	for _, st := range h.fn.Stages() {
		for _, d := range st.Cases() {
			for _, a := range d.Args {
				visit(a)
			}
			for _, e := range d.Evaluated() {
				visit(e)
			}
			if d.RDom != nil {
				for _, rv := range d.RDom.Vars {
					visit(rv.Min)
					visit(rv.Extent)
				}
			}
		}
		for _, c := range specConds(st) {
			visit(c)
		}
	}
	return reads, callees
}
