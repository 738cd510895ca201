package lower

// compute_with: f.ComputeWith(g, v) (Halide's compute_with) fuses the
// loops of f's pure definition, from the outermost down to v, with the same
// loops of g's: where the two productions follow each other at their
// common loop level,
//
//	produce g { for y_g { for x_g { G } } }  consume g { produce f { for y_f { for x_f { F } } } consume f { ... } }
//
// becomes
//
//	produce g { produce f { for y { for x { if (in g's range) G; if (in f's range) { let y_f, x_f; F } } } } }
//	consume g { consume f { ... } }
//
// (the second one's storage, when it is allocated inside the first's
// consumer, moves out to enclose both)
// (in either order of the two productions). Each fused loop runs over both
// stages' ranges, lined up by the loop's LoopAlignStrategy: AlignStart
// (the first iterations coincide: the loop is g's shifted to cover f's
// extent, and f's variable is the loop's minus g's start plus f's),
// AlignEnd (the last ones coincide) or NoAlign / Auto (the union of the two
// ranges, each stage at its own coordinates); each body is guarded by its
// own range. The regions are final by then (after sliding_window), so the
// fused loops' bounds are the two stages' own, read from their loops.
//
// The directive is checked here: f and g computed at the same level, pure
// (no updates, no specializations), neither reading the other, with the
// same loops (names and order) from the outermost down to v, serial or
// unrolled, outside GPU kernels, and their productions adjacent. The
// bodies are independent, so any interleaving gives the same values.
//
// Before: sliding_window (the regions are final). After: the productions
// of each compute_with pair share their outer loops; a second run finds
// them fused and changes nothing.

import (
	"fmt"
	"sort"
	"strings"

	"github.com/gohalide/gohalide/ir"
)

func computeWith(st *State) error {
	var pairs []cwPair
	names := append([]string(nil), st.Order...)
	sort.Strings(names)
	for _, name := range names {
		f := st.Funcs[name]
		if f == nil || f.Schedule.ComputeWith == nil {
			continue
		}
		p, err := checkComputeWith(st, f)
		if err != nil {
			return err
		}
		pairs = append(pairs, p)
	}
	for _, p := range pairs {
		done := false
		var err error
		st.Stmt = fuseProductions(st.Stmt, p, false, &done, &err)
		if err != nil {
			return err
		}
		if !done {
			return cwErr(p.child, p.parent, "the productions of %s and %s are not one right after the other at their loop level (another Func is computed between them, or one of them is not computed at all)", p.child.Name, p.parent.Name).
				WithLegal("compute the Funcs between them elsewhere, or compute_with a Func computed next to %s", p.child.Name)
		}
	}
	return nil
}

// cwPair is one compute_with: child.ComputeWith(parent, ...), fusing the
// loops (short names, outermost first) with their alignments.
type cwPair struct {
	child, parent *ir.Function
	loops         []string
	align         []ir.LoopAlignStrategy
}

func cwErr(f, g *ir.Function, format string, args ...any) *ir.Error {
	return ir.Errorf(ir.ErrSchedule, f.Name, "compute_with", "%s.ComputeWith(%s, ...): "+format, append([]any{f.Name, g.Name}, args...)...)
}

// checkComputeWith checks f's compute_with against the pipeline and
// returns the pair.
func checkComputeWith(st *State, f *ir.Function) (cwPair, error) {
	d := f.Schedule.ComputeWith
	g := st.Funcs[d.Func]
	if g == nil {
		return cwPair{}, ir.Errorf(ir.ErrSchedule, f.Name, "compute_with", "%s.ComputeWith(%s, ...): %s is not computed in this pipeline (inlined, or not called)", f.Name, d.Func, d.Func).
			WithLegal("compute_with a Func that is computed (ComputeRoot or ComputeAt) at the level of %s", f.Name)
	}
	if g == f {
		return cwPair{}, cwErr(f, g, "a Func's loops cannot be fused with themselves").WithLegal("another Func computed at the same level")
	}
	if g.Schedule.ComputeWith != nil {
		return cwPair{}, cwErr(f, g, "%s is itself fused with %s; chains of compute_with are not supported", g.Name, g.Schedule.ComputeWith.Func).
			WithLegal("fuse %s with %s directly", f.Name, g.Schedule.ComputeWith.Func)
	}
	for _, h := range []*ir.Function{f, g} {
		if len(h.Updates) > 0 || len(h.Pure.Specializations) > 0 {
			return cwPair{}, cwErr(f, g, "%s has update definitions or specializations; compute_with fuses pure definitions only", h.Name).
				WithLegal("compute_with of two Funcs with a pure definition alone")
		}
		if h.Name == st.P.Output {
			return cwPair{}, cwErr(f, g, "%s is the pipeline's output, which is computed outside every loop", h.Name).
				WithLegal("compute_with of two Funcs computed at a loop (or at the root) that the output consumes")
		}
	}
	if f.Schedule.Compute != g.Schedule.Compute || f.Schedule.Compute.Kind == ir.LevelInline {
		return cwPair{}, cwErr(f, g, "%s is computed %s and %s %s; fused loops need one loop level", f.Name, levelString(f.Schedule.Compute), g.Name, levelString(g.Schedule.Compute)).
			WithLegal("ComputeAt (or ComputeRoot) both at the same loop")
	}
	if dependsOn(st, f, g.Name) || dependsOn(st, g, f.Name) {
		return cwPair{}, cwErr(f, g, "one of them reads the other (directly or through other Funcs), so their bodies cannot run side by side").
			WithLegal("compute_with of two Funcs that do not read each other")
	}
	outer := func(h *ir.Function) ([]string, []ir.Dim, bool) {
		dims := h.Pure.Schedule.Dims // innermost first
		for i, dd := range dims {
			if ir.MatchDim(dd.Name, d.Var) {
				var names []string
				var fused []ir.Dim
				for j := len(dims) - 1; j >= i; j-- {
					names = append(names, dims[j].Name)
					fused = append(fused, dims[j])
				}
				return names, fused, true
			}
		}
		return nil, nil, false
	}
	fl, fd, ok1 := outer(f)
	gl, _, ok2 := outer(g)
	if !ok1 || !ok2 {
		h := f
		if ok1 {
			h = g
		}
		return cwPair{}, cwErr(f, g, "%s has no loop %s", h.Name, d.Var).
			WithLegal("a loop of both: %s has %s", h.Name, loopList(h))
	}
	if strings.Join(fl, ",") != strings.Join(gl, ",") {
		return cwPair{}, cwErr(f, g, "the loops down to %s differ: %s in %s, %s in %s", d.Var, strings.Join(fl, ", "), f.Name, strings.Join(gl, ", "), g.Name).
			WithLegal("the same loops (names and order) from the outermost down to the fused one in both Funcs")
	}
	for _, dd := range fd {
		if dd.Kind != ir.Serial && dd.Kind != ir.Unrolled {
			return cwPair{}, cwErr(f, g, "the fused loop %s is %s", dd.Name, dd.Kind).
				WithLegal("fuse serial (or unrolled) loops only: make the loops inside %s vector, parallel or GPU loops", d.Var)
		}
	}
	p := cwPair{child: f, parent: g, loops: fl}
	known := map[string]bool{}
	for _, l := range fl {
		p.align = append(p.align, alignOf(d.Align, l))
		for short := range d.Align {
			if ir.MatchDim(l, short) {
				known[short] = true
			}
		}
	}
	for short := range d.Align {
		if !known[short] {
			return cwPair{}, cwErr(f, g, "the alignment names %s, which is not one of the fused loops", short).
				WithLegal("the fused loops: %s", strings.Join(fl, ", "))
		}
	}
	return p, nil
}

func alignOf(m map[string]ir.LoopAlignStrategy, loop string) ir.LoopAlignStrategy {
	for short, s := range m {
		if ir.MatchDim(loop, short) {
			return s
		}
	}
	return ir.AlignAuto
}

func levelString(l ir.LoopLevel) string {
	switch l.Kind {
	case ir.LevelInline:
		return "inline"
	case ir.LevelRoot:
		return "at the root"
	}
	return fmt.Sprintf("at %s.%s", l.Func, l.Var)
}

func loopList(h *ir.Function) string {
	var names []string
	dims := h.Pure.Schedule.Dims
	for i := len(dims) - 1; i >= 0; i-- {
		names = append(names, dims[i].Name)
	}
	return strings.Join(names, ", ")
}

// dependsOn reports whether h reads the Func name, directly or through
// the Funcs it reads (their definitions, any stage).
func dependsOn(st *State, h *ir.Function, name string) bool {
	seen := map[string]bool{}
	var visit func(h *ir.Function) bool
	visit = func(h *ir.Function) bool {
		if h == nil || seen[h.Name] {
			return false
		}
		seen[h.Name] = true
		found := false
		var callees []string
		for _, d := range h.Stages() {
			exprs := append(append([]ir.Expr{}, d.Args...), d.Evaluated()...)
			for _, e := range exprs {
				ir.WalkExpr(e, func(x ir.Expr) bool {
					if c, ok := x.(*ir.Call); ok && c.Kind == ir.CallFunc {
						if c.Name == name {
							found = true
						}
						callees = append(callees, c.Name)
					}
					return !found
				})
			}
		}
		if found {
			return true
		}
		for _, c := range callees {
			if visit(st.Funcs[c]) {
				return true
			}
		}
		return false
	}
	return visit(h)
}

// fuseProductions finds the adjacent productions of p's two Funcs in s and
// fuses their loops.
func fuseProductions(s ir.Stmt, p cwPair, inKernel bool, done *bool, errp *error) ir.Stmt {
	var mut func(s ir.Stmt, inKernel bool) ir.Stmt
	mut = func(s ir.Stmt, inKernel bool) ir.Stmt {
		if *done || *errp != nil {
			return s
		}
		switch x := s.(type) {
		case *ir.ProducerConsumer:
			if inKernel && x.Producer && (x.Func == p.child.Name || x.Func == p.parent.Name) {
				*done = true
				*errp = cwErr(p.child, p.parent, "%s is computed inside a GPU kernel, where compute_with is not supported", x.Func).
					WithLegal("compute_with of Funcs computed on the host (outside GPU block loops)")
				return x
			}
		case *ir.For:
			k := inKernel || x.Kind == ir.GPUBlock || x.Kind == ir.GPUThread
			body := mut(x.Body, k)
			if body == x.Body {
				return x
			}
			return &ir.For{Name: x.Name, Min: x.Min, Extent: x.Extent, Kind: x.Kind, Body: body}
		case *ir.Block:
			for i := 0; i+1 < len(x.Stmts); i++ {
				prod, ok1 := x.Stmts[i].(*ir.ProducerConsumer)
				cons, ok2 := x.Stmts[i+1].(*ir.ProducerConsumer)
				if !ok1 || !ok2 || !prod.Producer || cons.Producer || prod.Func != cons.Func ||
					(prod.Func != p.child.Name && prod.Func != p.parent.Name) {
					continue
				}
				if inKernel {
					break // the ProducerConsumer case reports it
				}
				other := p.parent.Name
				if prod.Func == p.parent.Name {
					other = p.child.Name
				}
				if in, ok := prod.Body.(*ir.ProducerConsumer); ok && in.Producer && in.Func == other {
					*done = true // fused already (a second run)
					return x
				}
				cb := cons.Body
				// The other's storage may be allocated here too, inside
				// the first's consumer: it moves out to enclose both.
				realize, _ := cb.(*ir.Realize)
				if realize != nil && realize.Func == other {
					cb = realize.Body
				} else {
					realize = nil
				}
				inner, ok := cb.(*ir.Block)
				if !ok || len(inner.Stmts) < 2 {
					break // not adjacent: reported when nothing fused
				}
				prod2, ok1 := inner.Stmts[0].(*ir.ProducerConsumer)
				cons2, ok2 := inner.Stmts[1].(*ir.ProducerConsumer)
				if !ok1 || !ok2 || prod2.Func != other || !prod2.Producer || cons2.Func != other || cons2.Producer {
					break
				}
				*done = true
				byFunc := map[string]ir.Stmt{prod.Func: prod.Body, prod2.Func: prod2.Body}
				fused, err := fuseLoops(p, byFunc[p.parent.Name], byFunc[p.child.Name])
				if err != nil {
					*errp = err
					return x
				}
				first, second := prod.Func, other
				newProd := &ir.ProducerConsumer{Func: first, Producer: true,
					Body: &ir.ProducerConsumer{Func: second, Producer: true, Body: fused}}
				rest := ir.MakeBlock(append([]ir.Stmt{cons2.Body}, inner.Stmts[2:]...)...)
				newCons := &ir.ProducerConsumer{Func: first, Producer: false,
					Body: &ir.ProducerConsumer{Func: second, Producer: false, Body: rest}}
				stmts := append([]ir.Stmt{}, x.Stmts[:i]...)
				if realize != nil {
					r := *realize
					r.Body = ir.MakeBlock(newProd, newCons)
					stmts = append(stmts, &r)
				} else {
					stmts = append(stmts, newProd, newCons)
				}
				stmts = append(stmts, x.Stmts[i+2:]...)
				return &ir.Block{Stmts: stmts}
			}
		}
		return ir.MapStmt(s, func(c ir.Stmt) ir.Stmt { return mut(c, inKernel) }, nil)
	}
	return mut(s, inKernel)
}

// fuseLoops fuses the loop nests gp (the parent's production) and fp (the
// child's) along p.loops.
func fuseLoops(p cwPair, gp, fp ir.Stmt) (ir.Stmt, error) {
	n := len(p.loops)
	peel := func(h *ir.Function, s ir.Stmt) ([]*ir.For, ir.Stmt, error) {
		var loops []*ir.For
		for i := 0; i < n; i++ {
			l, ok := s.(*ir.For)
			want := stagePrefix(h.Name, 0) + p.loops[i]
			if !ok || l.Name != want {
				return nil, nil, cwErr(p.child, p.parent, "the loops of %s down to %s are not perfectly nested (something lies between %s and the loop inside it)", h.Name, p.loops[n-1], want).
					WithLegal("compute_with down to an outer loop")
			}
			if l.Kind == ir.GPUBlock || l.Kind == ir.GPUThread {
				return nil, nil, cwErr(p.child, p.parent, "%s's loop %s is a GPU %s loop; compute_with fuses host loops only", h.Name, want, map[ir.ForKind]string{ir.GPUBlock: "block", ir.GPUThread: "thread"}[l.Kind]).
					WithLegal("compute_with at a loop outside %s's GPU loops, or no compute_with on a GPU schedule", h.Name)
			}
			loops = append(loops, l)
			s = l.Body
		}
		// A fused loop's bounds are evaluated once for both stages: they
		// may not depend on the stage's outer fused loops.
		for i, l := range loops {
			for _, o := range loops[:i] {
				if ir.Uses(l.Min, o.Name) || ir.Uses(l.Extent, o.Name) {
					return nil, nil, cwErr(p.child, p.parent, "the bounds of %s's loop %s depend on its loop %s", h.Name, l.Name, o.Name).
						WithLegal("compute_with down to %s", o.Name)
				}
			}
		}
		return loops, s, nil
	}
	gl, gb, err := peel(p.parent, gp)
	if err != nil {
		return nil, err
	}
	fl, fb, err := peel(p.child, fp)
	if err != nil {
		return nil, err
	}
	// The fused loops are the parent's, stretched; the child's variables
	// are lets inside its guard.
	var gConds, fConds []ir.Expr
	var fLets []*ir.LetStmt
	type bounds struct{ min, extent ir.Expr }
	fusedB := make([]bounds, n)
	for i := 0; i < n; i++ {
		g, f := gl[i], fl[i]
		pv := ir.NewVar(g.Name)
		gEnd, fEnd := ir.AddE(g.Min, g.Extent), ir.AddE(f.Min, f.Extent)
		var fv ir.Expr
		switch p.align[i] {
		case ir.AlignStart:
			fusedB[i] = bounds{g.Min, ir.MaxE(g.Extent, f.Extent)}
			gConds = append(gConds, ir.LTE(pv, gEnd))
			fv = ir.AddE(ir.SubE(pv, g.Min), f.Min)
			fConds = append(fConds, ir.LTE(ir.SubE(pv, g.Min), f.Extent))
		case ir.AlignEnd:
			e := ir.MaxE(g.Extent, f.Extent)
			fusedB[i] = bounds{ir.SubE(gEnd, e), e}
			gConds = append(gConds, ir.LEE(g.Min, pv))
			fv = ir.AddE(ir.SubE(pv, gEnd), fEnd)
			fConds = append(fConds, ir.LEE(f.Min, fv))
		default: // NoAlign, Auto
			mn := ir.MinE(g.Min, f.Min)
			fusedB[i] = bounds{mn, ir.SubE(ir.MaxE(gEnd, fEnd), mn)}
			gConds = append(gConds, ir.AndE(ir.LEE(g.Min, pv), ir.LTE(pv, gEnd)))
			fv = pv
			fConds = append(fConds, ir.AndE(ir.LEE(f.Min, pv), ir.LTE(pv, fEnd)))
		}
		fLets = append(fLets, &ir.LetStmt{Name: f.Name, Value: fv})
	}
	and := func(cs []ir.Expr) ir.Expr {
		c := cs[0]
		for _, x := range cs[1:] {
			c = ir.AndE(c, x)
		}
		return ir.Simplify(c)
	}
	var fBody ir.Stmt = fb
	for i := n - 1; i >= 0; i-- {
		fBody = &ir.LetStmt{Name: fLets[i].Name, Value: ir.Simplify(fLets[i].Value), Body: fBody}
	}
	var body ir.Stmt = ir.MakeBlock(
		&ir.IfThenElse{Cond: and(gConds), Then: gb},
		&ir.IfThenElse{Cond: and(fConds), Then: fBody})
	for i := n - 1; i >= 0; i-- {
		g := gl[i]
		body = &ir.For{Name: g.Name, Min: ir.Simplify(fusedB[i].min), Extent: ir.Simplify(fusedB[i].extent), Kind: g.Kind, Body: body}
	}
	return body, nil
}
