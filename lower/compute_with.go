package lower

// compute_with: s.ComputeWith(t, v) (Halide's Stage::compute_with) fuses
// the loops of stage s of a Func, from the outermost down to v, with the
// same loops of stage t of another Func. The directives join Funcs into
// fused groups; the stages joined by them form trees (each stage has at
// most one parent, the stage it was fused with), and each tree runs as one
// loop nest. Where the productions of a group's Funcs follow each other at
// their common loop level,
//
//	produce g { G0; G1 }  consume g { produce f { F0; F1 } consume f { ... } }
//
// with f.update(0).ComputeWith(g.update(0), y) becomes
//
//	produce g { produce f { G0; F0; for y { if (in G1's range) G1; if (in F1's range) { let y_f; F1 } } } }
//	consume g { consume f { ... } }
//
// (a member's storage allocated inside another's consumer moves out to
// enclose all of them). The units (trees and the stages fused with
// nothing) run in an order that keeps each Func's stages in order, the
// productions' own order where nothing forces another; inside a fused loop
// the same holds for the parts below it, a parent before its children.
//
// Each fused loop runs over every stage's range, lined up along each edge
// of the tree by the loop's LoopAlignStrategy: AlignStart (the first
// iterations coincide), AlignEnd (the last ones do) or NoAlign / Auto
// (each stage at its own coordinates). A stage's variable is the loop's
// plus an offset, bound by a let at the stage's body, which runs only
// where the stage's own range has the iteration. The regions are final by
// then (after sliding_window), so the stages' bounds are read from their
// loops.
//
// The directive is checked here: the Funcs of a group computed at one
// level, none reading another, none the output, no specializations on a
// fused stage, the same loops (names and order) from the outermost down
// to v, of one kind (serial or unrolled, parallel, GPU block or GPU
// thread; a stage's block loops all fused or none, and so its thread
// loops; on the host or inside a kernel, where the fused loops may be
// thread loops), the productions adjacent, and the order of the units possible. Stages of
// the same Func that share a fused loop (update_stage3 in Halide's tests)
// must touch one slice of that loop's dimension per iteration: the loop
// is a pure dimension of the Func, not split, and every access of the
// Func there is that variable; such stages line up at the same
// coordinates whatever the alignment asks, so each iteration updates the
// slice its earlier stages have just finished. Funcs of a group do not
// read each other, so any interleaving of their iterations gives the same
// values.
//
// Before: sliding_window (the regions are final). After: the productions
// of each group share their fused loops; a second run finds them fused
// and changes nothing.

import (
	"fmt"
	"sort"
	"strings"

	"github.com/gohalide/gohalide/ir"
)

// cwStage is one stage of a Func: 0 the pure definition, i+1 update i.
type cwStage struct {
	f  *ir.Function
	si int
}

func (s cwStage) def() *ir.Definition { return s.f.Stages()[s.si] }

func (s cwStage) String() string {
	if s.si == 0 {
		return s.f.Name
	}
	return fmt.Sprintf("%s.update(%d)", s.f.Name, s.si-1)
}

// loop returns the qualified name of the stage's loop short.
func (s cwStage) loop(short string) string { return stagePrefix(s.f.Name, s.si) + short }

// cwEdge is one compute_with: child fused with parent along loops (the
// Dims' names, outermost first), each lined up by align.
type cwEdge struct {
	child, parent cwStage
	loops         []string
	kinds         []ir.ForKind
	align         []ir.LoopAlignStrategy
}

// cwGroup is a set of Funcs joined by compute_with edges.
type cwGroup struct {
	funcs map[string]bool
	edges []*cwEdge
}

func computeWith(st *State) error {
	edges, err := cwEdges(st)
	if err != nil || len(edges) == 0 {
		return err
	}
	groups, err := cwGroups(st, edges)
	if err != nil {
		return err
	}
	for _, g := range groups {
		done := false
		st.Stmt = fuseGroup(st.Stmt, g, &done, &err)
		if err != nil {
			return err
		}
		if !done {
			e := g.edges[0]
			return cwErr(e, "the productions of %s are not one right after the other at their loop level (another Func is computed between them, or one of them is not computed at all)", strings.Join(sortedKeys(g.funcs), ", ")).
				WithLegal("compute the Funcs between them elsewhere, or compute_with Funcs computed next to each other")
		}
	}
	return nil
}

func cwErr(e *cwEdge, format string, args ...any) *ir.Error {
	return ir.Errorf(ir.ErrSchedule, e.child.f.Name, "compute_with", "%s.ComputeWith(%s, ...): "+format, append([]any{e.child, e.parent}, args...)...)
}

// cwEdges checks each compute_with directive on its own and returns the
// edges, by child Func name and stage.
func cwEdges(st *State) ([]*cwEdge, error) {
	var edges []*cwEdge
	names := append([]string(nil), st.Order...)
	sort.Strings(names)
	for _, name := range names {
		f := st.Funcs[name]
		if f == nil {
			continue
		}
		for si, d := range f.Stages() {
			if d.Schedule.ComputeWith == nil {
				continue
			}
			e, err := checkComputeWith(st, cwStage{f, si})
			if err != nil {
				return nil, err
			}
			edges = append(edges, e)
		}
	}
	return edges, nil
}

// checkComputeWith checks stage c's compute_with against the pipeline and
// returns the edge.
func checkComputeWith(st *State, c cwStage) (*cwEdge, error) {
	f := c.f
	d := c.def().Schedule.ComputeWith
	g := st.Funcs[d.Func]
	if g == nil {
		return nil, ir.Errorf(ir.ErrSchedule, f.Name, "compute_with", "%s.ComputeWith(%s, ...): %s is not computed in this pipeline (inlined, or not called)", c, d.Func, d.Func).
			WithLegal("compute_with a Func that is computed (ComputeRoot or ComputeAt) at the level of %s", f.Name)
	}
	e := &cwEdge{child: c, parent: cwStage{g, d.Stage}}
	if d.Stage < 0 || d.Stage >= len(g.Stages()) {
		return nil, ir.Errorf(ir.ErrSchedule, f.Name, "compute_with", "%s.ComputeWith(%s stage %d, ...): %s has %d stages", c, g.Name, d.Stage, g.Name, len(g.Stages())).
			WithLegal("a stage of %s: its pure definition or one of its %d updates", g.Name, len(g.Updates))
	}
	if g == f {
		return nil, cwErr(e, "a Func's loops cannot be fused with themselves (its stages run one after the other)").
			WithLegal("another Func computed at the same level (stages of one Func fused with the same other Func share its loops)")
	}
	for _, s := range []cwStage{e.child, e.parent} {
		if len(s.def().Specializations) > 0 {
			return nil, cwErr(e, "%s has specializations; a fused stage must have one loop nest", s).
				WithLegal("compute_with of stages without specializations")
		}
		if s.f.Name == st.P.Output {
			return nil, cwErr(e, "%s is the pipeline's output, which is computed outside every loop", s.f.Name).
				WithLegal("compute_with of two Funcs computed at a loop (or at the root) that the output consumes")
		}
	}
	if f.Schedule.Compute != g.Schedule.Compute || f.Schedule.Compute.Kind == ir.LevelInline {
		return nil, cwErr(e, "%s is computed %s and %s %s; fused loops need one loop level", f.Name, levelString(f.Schedule.Compute), g.Name, levelString(g.Schedule.Compute)).
			WithLegal("ComputeAt (or ComputeRoot) both at the same loop")
	}
	outer := func(s cwStage) ([]ir.Dim, bool) {
		dims := s.def().Schedule.Dims // innermost first
		for i, dd := range dims {
			if ir.MatchDim(dd.Name, d.Var) {
				var fused []ir.Dim
				for j := len(dims) - 1; j >= i; j-- {
					fused = append(fused, dims[j])
				}
				return fused, true
			}
		}
		return nil, false
	}
	cd, ok1 := outer(e.child)
	pd, ok2 := outer(e.parent)
	if !ok1 || !ok2 {
		s := e.child
		if ok1 {
			s = e.parent
		}
		return nil, cwErr(e, "%s has no loop %s", s, d.Var).
			WithLegal("a loop of both: %s has %s", s, loopList(s.def()))
	}
	names := func(ds []ir.Dim) string {
		var out []string
		for _, x := range ds {
			out = append(out, x.Name)
		}
		return strings.Join(out, ", ")
	}
	// The loops match by the names the schedule gave them (the last part
	// of a split loop's name), as in Halide: g.split(y, yo, y, 64)
	// .split(y, y, yi, 2) has the loops y.yo, y.y.y, which line up with
	// h.split(y, yo, y, 32)'s y.yo, y.y. Each stage keeps its own names.
	shortNames := func(ds []ir.Dim) string {
		var out []string
		for _, x := range ds {
			out = append(out, x.Name[strings.LastIndex(x.Name, ".")+1:])
		}
		return strings.Join(out, ", ")
	}
	if shortNames(cd) != shortNames(pd) {
		return nil, cwErr(e, "the loops down to %s differ: %s in %s, %s in %s", d.Var, names(cd), e.child, names(pd), e.parent).
			WithLegal("the same loops (names and order, as the schedule names them) from the outermost down to the fused one in both stages")
	}
	for i := range cd {
		a, b := cd[i], pd[i]
		if err := fusableKind(e, a, b); err != nil {
			return nil, err
		}
		e.loops = append(e.loops, a.Name)
		e.kinds = append(e.kinds, b.Kind)
	}
	known := map[string]bool{}
	for _, l := range e.loops {
		e.align = append(e.align, alignOf(d.Align, l))
		for short := range d.Align {
			if ir.MatchDim(l, short) {
				known[short] = true
			}
		}
	}
	for short := range d.Align {
		if !known[short] {
			return nil, cwErr(e, "the alignment names %s, which is not one of the fused loops", short).
				WithLegal("the fused loops: %s", strings.Join(e.loops, ", "))
		}
	}
	return e, nil
}

// fusableKind checks that the child's loop a and the parent's loop b (of
// the same name) can be one loop.
func fusableKind(e *cwEdge, a, b ir.Dim) error {
	kindName := func(x ir.Dim) string {
		switch {
		case x.Lanes:
			return "a GPU lanes loop"
		case x.VThread:
			return "a virtual thread loop"
		}
		switch x.Kind {
		case ir.GPUBlock:
			return "a GPU block loop"
		case ir.GPUThread:
			return "a GPU thread loop"
		case ir.Vectorized:
			return "vectorized"
		case ir.Parallel:
			return "parallel"
		case ir.Unrolled:
			return "unrolled"
		}
		return "serial"
	}
	for _, x := range []ir.Dim{a, b} {
		if x.Lanes || x.VThread || x.Kind == ir.Vectorized && a.Kind != b.Kind {
			return cwErr(e, "the fused loop %s is %s", x.Name, kindName(x)).
				WithLegal("fuse serial, unrolled, parallel, vectorized (in both stages) or GPU block and thread loops only: make the loops inside %s lanes loops", e.child.def().Schedule.ComputeWith.Var)
		}
	}
	host := func(k ir.ForKind) bool { return k == ir.Serial || k == ir.Unrolled }
	if a.Kind == b.Kind || host(a.Kind) && host(b.Kind) {
		return nil
	}
	return cwErr(e, "%s is %s and %s is %s; a fused loop is one kind of loop", e.parent.loop(b.Name), kindName(b), e.child.loop(a.Name), kindName(a)).
		WithLegal("the same kind for the loops down to %s in both stages (the same GPU block and thread loops, both parallel, or both serial)", e.child.def().Schedule.ComputeWith.Var)
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

func loopList(d *ir.Definition) string {
	var names []string
	dims := d.Schedule.Dims
	for i := len(dims) - 1; i >= 0; i-- {
		names = append(names, dims[i].Name)
	}
	return strings.Join(names, ", ")
}

// cwGroups joins the edges' Funcs into groups and checks each: no stage
// fused twice in a cycle, no Func of a group reading another.
func cwGroups(st *State, edges []*cwEdge) ([]*cwGroup, error) {
	of := map[string]*cwGroup{}
	var groups []*cwGroup
	for _, e := range edges {
		a, b := of[e.child.f.Name], of[e.parent.f.Name]
		switch {
		case a == nil && b == nil:
			g := &cwGroup{funcs: map[string]bool{e.child.f.Name: true, e.parent.f.Name: true}}
			groups = append(groups, g)
			of[e.child.f.Name], of[e.parent.f.Name] = g, g
			a = g
		case a == nil:
			b.funcs[e.child.f.Name] = true
			of[e.child.f.Name] = b
			a = b
		case b == nil:
			a.funcs[e.parent.f.Name] = true
			of[e.parent.f.Name] = a
		case a != b:
			for n := range b.funcs {
				a.funcs[n] = true
				of[n] = a
			}
			a.edges = append(a.edges, b.edges...)
			b.funcs = nil
		}
		a.edges = append(a.edges, e)
	}
	var out []*cwGroup
	for _, g := range groups {
		if g.funcs == nil {
			continue
		}
		// A cycle of stages: following parents comes back.
		parent := map[cwStage]*cwEdge{}
		for _, e := range g.edges {
			parent[e.child] = e
		}
		for _, e := range g.edges {
			seen := map[cwStage]bool{e.child: true}
			for p, ok := parent[e.parent]; ok; p, ok = parent[p.parent] {
				if seen[p.child] {
					return nil, cwErr(e, "the compute_with directives form a cycle through %s", p.child).
						WithLegal("compute_with directives that form a tree: each stage fused with a stage that is not fused, directly or through others, with it")
				}
				seen[p.child] = true
			}
		}
		names := sortedKeys(g.funcs)
		for _, a := range names {
			for _, b := range names {
				if a != b && dependsOn(st, st.Funcs[a], b) {
					e := g.edges[0]
					return nil, cwErr(e, "%s reads %s (directly or through other Funcs), and both are in one group of fused loops, so their bodies cannot run side by side", a, b).
						WithLegal("compute_with of Funcs that do not read each other")
				}
			}
		}
		out = append(out, g)
	}
	return out, nil
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

// clusterComputeWith reorders st.Order, the order of the productions at
// each loop level, so that the Funcs of each compute_with group are
// produced one right after the other: of the Funcs between the group's
// first and last member, those a member reads (directly or not) go first,
// then the members, then the rest. Any order with each Func after the
// Funcs it reads is a valid order of productions, and this one is: a Func
// that reads a member and is read by another would make the members read
// each other, which cwGroups refuses. Without it, a Func that happens to
// come between two fused Funcs (the Funcs an rfactor's intermediates
// read) makes the group refused as not adjacent. schedule_functions calls
// it before it builds the nest.
func clusterComputeWith(st *State) {
	group := map[string]int{} // Func -> group id
	n := 0
	for _, name := range st.Order {
		for _, d := range st.Funcs[name].Stages() {
			cw := d.Schedule.ComputeWith
			if cw == nil || st.Funcs[cw.Func] == nil || cw.Func == name {
				continue
			}
			ga, okA := group[name]
			gb, okB := group[cw.Func]
			switch {
			case !okA && !okB:
				group[name], group[cw.Func] = n, n
				n++
			case !okA:
				group[name] = gb
			case !okB:
				group[cw.Func] = ga
			case ga != gb:
				for k, g := range group {
					if g == gb {
						group[k] = ga
					}
				}
			}
		}
	}
	for g := 0; g < n; g++ {
		first, last := -1, -1
		var members []string
		for i, name := range st.Order {
			if gi, ok := group[name]; ok && gi == g {
				if first < 0 {
					first = i
				}
				last = i
				members = append(members, name)
			}
		}
		if len(members) < 2 || last-first == len(members)-1 {
			continue // merged away, or adjacent already
		}
		var read, rest []string
		for _, name := range st.Order[first : last+1] {
			if gi, ok := group[name]; ok && gi == g {
				continue
			}
			isRead := false
			for _, m := range members {
				if dependsOn(st, st.Funcs[m], name) {
					isRead = true
					break
				}
			}
			if isRead {
				read = append(read, name)
			} else {
				rest = append(rest, name)
			}
		}
		order := append([]string{}, st.Order[:first]...)
		order = append(append(append(order, read...), members...), rest...)
		st.Order = append(order, st.Order[last+1:]...)
	}
}

// fuseGroup finds the adjacent productions of g's Funcs in s and fuses
// their stages: at the host's loops, or inside a kernel (the fused loops
// are then thread loops, or serial loops inside the block or a thread,
// which the GPU passes after this one treat as any loop of that kind).
//
// Inside a GPU thread loop, no member may be stored in GPU shared memory:
// its region is then the union of what the block's threads need, produced
// by all of them together between barriers, which a loop shared with a
// Func each thread computes for itself (a region of its own, so a loop
// whose iterations differ from thread to thread) cannot hold.
func fuseGroup(s ir.Stmt, g *cwGroup, done *bool, errp *error) ir.Stmt {
	shared := map[string]bool{}
	ir.WalkStmt(s, func(x ir.Stmt) bool {
		if r, ok := x.(*ir.Realize); ok && g.funcs[r.Func] && r.Memory == ir.GPUShared {
			shared[r.Func] = true
		}
		return true
	}, nil)
	inThread := 0
	var mut func(s ir.Stmt) ir.Stmt
	mut = func(s ir.Stmt) ir.Stmt {
		if *done || *errp != nil {
			return s
		}
		if l, ok := s.(*ir.For); ok && l.Kind == ir.GPUThread {
			inThread++
			defer func() { inThread-- }()
		}
		if x, ok := s.(*ir.Block); ok {
			for i := 0; i+1 < len(x.Stmts); i++ {
				prod, ok1 := x.Stmts[i].(*ir.ProducerConsumer)
				cons, ok2 := x.Stmts[i+1].(*ir.ProducerConsumer)
				if !ok1 || !ok2 || !prod.Producer || cons.Producer || prod.Func != cons.Func || !g.funcs[prod.Func] {
					continue
				}
				if in, ok := prod.Body.(*ir.ProducerConsumer); ok && in.Producer && g.funcs[in.Func] {
					*done = true // fused already (a second run)
					return x
				}
				if inThread > 0 && len(shared) > 0 {
					*done = true
					*errp = cwErr(g.edges[0], "%s is stored in GPU shared memory and computed inside GPU thread loops (the block's threads produce its region together, between barriers), so its production cannot share loops with another Func's", strings.Join(sortedKeys(shared), ", ")).
						WithLegal("store it in registers (StoreIn(Register)), or compute the fused Funcs at the block level, outside the thread loops (each with GPUThreads loops of its own)")
					return x
				}
				out, ok, err := fuseAt(g, prod, cons)
				if err != nil {
					*done, *errp = true, err
					return x
				}
				if !ok {
					break // not adjacent: reported when nothing fused
				}
				*done = true
				stmts := append([]ir.Stmt{}, x.Stmts[:i]...)
				stmts = append(stmts, out)
				stmts = append(stmts, x.Stmts[i+2:]...)
				return ir.MakeBlock(stmts...)
			}
		}
		return ir.MapStmt(s, mut, nil)
	}
	return mut(s)
}

// fuseAt collects the productions of the group's Funcs from prod and the
// consumers nested in cons (each member's Realize inside another's
// consumer moving out, with the checks of its Func.bound) and returns the
// fused statement, or false when the productions are not adjacent.
func fuseAt(g *cwGroup, prod, cons *ir.ProducerConsumer) (ir.Stmt, bool, error) {
	order := []string{prod.Func}
	bodies := map[string]ir.Stmt{prod.Func: prod.Body}
	var realizes []*ir.Realize
	var lets []*ir.LetStmt // a member's region inside its realize (in a kernel)
	var asserts []ir.Stmt  // the checks of a member's bound, before its production
	rest := cons.Body
	for len(order) < len(g.funcs) {
		cb := rest
		var rs []*ir.Realize
		var ls []*ir.LetStmt
	peel:
		for {
			switch r := cb.(type) {
			case *ir.Realize:
				if !g.funcs[r.Func] {
					break peel
				}
				rs = append(rs, r)
				cb = r.Body
			case *ir.LetStmt:
				if len(rs) == 0 {
					break peel
				}
				ls = append(ls, r)
				cb = r.Body
			default:
				break peel
			}
		}
		inner, ok := cb.(*ir.Block)
		if !ok {
			return nil, false, nil
		}
		// A Func.bound puts its checks first (they read region lets of
		// this level only): they go before the fused productions.
		k := 0
		for k < len(inner.Stmts) {
			if _, isAssert := inner.Stmts[k].(*ir.AssertStmt); !isAssert {
				break
			}
			k++
		}
		if len(inner.Stmts)-k < 2 {
			return nil, false, nil
		}
		p2, ok1 := inner.Stmts[k].(*ir.ProducerConsumer)
		c2, ok2 := inner.Stmts[k+1].(*ir.ProducerConsumer)
		if !ok1 || !ok2 || !p2.Producer || c2.Producer || p2.Func != c2.Func || !g.funcs[p2.Func] || bodies[p2.Func] != nil {
			return nil, false, nil
		}
		realizes = append(realizes, rs...)
		lets = append(lets, ls...)
		asserts = append(asserts, inner.Stmts[:k]...)
		order = append(order, p2.Func)
		bodies[p2.Func] = p2.Body
		rest = ir.MakeBlock(append([]ir.Stmt{c2.Body}, inner.Stmts[k+2:]...)...)
	}
	fused, err := fuseStages(g, order, bodies)
	if err != nil {
		return nil, false, err
	}
	newProd, newCons := fused, rest
	for i := len(order) - 1; i >= 0; i-- {
		newProd = &ir.ProducerConsumer{Func: order[i], Producer: true, Body: newProd}
		newCons = &ir.ProducerConsumer{Func: order[i], Producer: false, Body: newCons}
	}
	var out ir.Stmt = ir.MakeBlock(append(asserts, newProd, newCons)...)
	for i := len(lets) - 1; i >= 0; i-- {
		out = &ir.LetStmt{Name: lets[i].Name, Value: lets[i].Value, Body: out}
	}
	for i := len(realizes) - 1; i >= 0; i-- {
		r := *realizes[i]
		r.Body = out
		out = &r
	}
	return out, true, nil
}

// cwUnit is a set of stages run as one statement at the level being
// built: a tree of fused stages (or a subtree at a deeper loop), or a
// stage fused with nothing.
type cwUnit struct {
	stages []cwStage
	key    int // the position of its first stage in the preferred order
}

// fuseStages builds the fused productions of a group from its members'
// production bodies (members in order of appearance).
func fuseStages(g *cwGroup, order []string, bodies map[string]ir.Stmt) (ir.Stmt, error) {
	funcs := map[string]*ir.Function{}
	for _, e := range g.edges {
		funcs[e.child.f.Name], funcs[e.parent.f.Name] = e.child.f, e.parent.f
	}
	b := &cwBuilder{g: g, stmts: map[cwStage]ir.Stmt{}, pos: map[cwStage]int{}, depth: map[cwStage]int{}}
	var all []cwStage
	for _, name := range order {
		f := funcs[name]
		n := len(f.Stages())
		var parts []ir.Stmt
		if blk, ok := bodies[name].(*ir.Block); ok && n > 1 {
			parts = blk.Stmts
		} else {
			parts = []ir.Stmt{bodies[name]}
		}
		if len(parts) != n {
			return nil, cwErr(g.edges[0], "the production of %s is not one loop nest per stage (%d statements for %d stages)", name, len(parts), n).
				WithLegal("compute_with of stages whose loop nests stand alone")
		}
		for si, p := range parts {
			s := cwStage{f, si}
			b.stmts[s] = p
			b.pos[s] = len(all)
			all = append(all, s)
		}
	}
	for _, e := range g.edges {
		for _, s := range []cwStage{e.child, e.parent} {
			b.depth[s] = max(b.depth[s], len(e.loops))
		}
	}
	// The peeled loops of each fused stage.
	b.loops = map[cwStage][]*ir.For{}
	b.inner = map[cwStage]ir.Stmt{}
	for s, n := range b.depth {
		if err := b.peel(s, n); err != nil {
			return nil, err
		}
	}
	return b.level(all, 0, nil)
}

// cwAt is where a stage lies in one fused loop: its variable is the
// loop's plus off; lo and hi say whether its range may start after the
// loop's or end before it (so its body needs that guard).
type cwAt struct {
	off    ir.Expr
	lo, hi bool
}

// cwBuilder builds the fused loops of one group.
type cwBuilder struct {
	g     *cwGroup
	stmts map[cwStage]ir.Stmt // each stage's loop nest
	pos   map[cwStage]int     // its position in the productions
	depth map[cwStage]int     // the number of its fused loops
	loops map[cwStage][]*ir.For
	inner map[cwStage]ir.Stmt // what lies inside its fused loops
}

func (b *cwBuilder) edgeOf(s cwStage) *cwEdge {
	for _, e := range b.g.edges {
		if e.child == s || e.parent == s {
			return e
		}
	}
	return b.g.edges[0]
}

// peel takes the n outermost loops of stage s.
func (b *cwBuilder) peel(s cwStage, n int) error {
	e := b.edgeOf(s)
	cur := b.stmts[s]
	var loops []*ir.For
	dims := s.def().Schedule.Dims
	for i := 0; i < n; i++ {
		l, ok := cur.(*ir.For)
		want := s.loop(dims[len(dims)-1-i].Name)
		if !ok || l.Name != want {
			return cwErr(e, "the loops of %s down to %s are not perfectly nested (something lies between %s and the loop inside it)", s, dims[len(dims)-n].Name, want).
				WithLegal("compute_with down to an outer loop")
		}
		loops = append(loops, l)
		cur = l.Body
	}
	// A fused loop's bounds are evaluated once for every stage: they may
	// not depend on the stage's outer fused loops.
	for i, l := range loops {
		for _, o := range loops[:i] {
			if ir.Uses(l.Min, o.Name) || ir.Uses(l.Extent, o.Name) {
				return cwErr(e, "the bounds of %s's loop %s depend on its loop %s", s, l.Name, o.Name).
					WithLegal("compute_with down to %s", o.Name)
			}
		}
	}
	// Block loops of a kernel all fused, or none: the kernel's grid is
	// the fused loops'.
	for _, kind := range []ir.ForKind{ir.GPUBlock, ir.GPUThread} {
		fusedKind := false
		for _, l := range loops {
			fusedKind = fusedKind || l.Kind == kind
		}
		if fusedKind && hasLoopKind(cur, kind) {
			what := map[ir.ForKind]string{ir.GPUBlock: "block", ir.GPUThread: "thread"}[kind]
			return cwErr(e, "some of %s's GPU %s loops are fused and some are not", s, what).
				WithLegal("compute_with down to %s's innermost GPU %s loop, or above its GPU loops", s, what)
		}
	}
	b.loops[s], b.inner[s] = loops, cur
	return nil
}

func hasLoopKind(s ir.Stmt, kind ir.ForKind) bool {
	found := false
	ir.WalkStmt(s, func(x ir.Stmt) bool {
		if l, ok := x.(*ir.For); ok && l.Kind == kind {
			found = true
		}
		return !found
	}, nil)
	return found
}

// level returns the statement of stages at fused loop i: the units they
// form (joined by the edges that fuse loop i), in an order that keeps
// each Func's stages in order. offsets are each stage's offsets at the
// loops outside (its variable is the fused loop's plus the offset).
func (b *cwBuilder) level(stages []cwStage, i int, offsets map[cwStage][]cwAt) (ir.Stmt, error) {
	units := b.units(stages, i)
	ordered, err := b.order(units)
	if err != nil {
		return nil, err
	}
	var out []ir.Stmt
	for _, u := range ordered {
		s, err := b.unit(u, i, offsets)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return ir.MakeBlock(out...), nil
}

// units splits stages into the sets joined by edges that fuse loop i.
func (b *cwBuilder) units(stages []cwStage, i int) []*cwUnit {
	in := map[cwStage]bool{}
	for _, s := range stages {
		in[s] = true
	}
	root := map[cwStage]cwStage{}
	var find func(s cwStage) cwStage
	find = func(s cwStage) cwStage {
		r, ok := root[s]
		if !ok || r == s {
			return s
		}
		r = find(r)
		root[s] = r
		return r
	}
	for _, e := range b.g.edges {
		if len(e.loops) > i && in[e.child] && in[e.parent] {
			root[find(e.child)] = find(e.parent)
		}
	}
	by := map[cwStage]*cwUnit{}
	var units []*cwUnit
	for _, s := range stages {
		r := find(s)
		u := by[r]
		if u == nil {
			u = &cwUnit{key: b.pos[s]}
			by[r] = u
			units = append(units, u)
		}
		u.stages = append(u.stages, s)
		u.key = min(u.key, b.pos[s])
	}
	return units
}

// order sorts units so that each Func's stages run in order (a unit
// whose stage is before another stage of the same Func comes first),
// and otherwise by key; a parent's key is lower than its children's
// where it comes first in the productions.
func (b *cwBuilder) order(units []*cwUnit) ([]*cwUnit, error) {
	of := map[cwStage]int{}
	for k, u := range units {
		for _, s := range u.stages {
			of[s] = k
		}
	}
	after := make([]map[int]bool, len(units)) // after[k]: units that must precede k
	for k := range units {
		after[k] = map[int]bool{}
	}
	for s, k := range of {
		for t, j := range of {
			if s.f == t.f && s.si < t.si && k != j {
				after[j][k] = true
			}
		}
	}
	var out []*cwUnit
	placed := make([]bool, len(units))
	for len(out) < len(units) {
		best := -1
		for k, u := range units {
			if placed[k] {
				continue
			}
			ready := true
			for j := range after[k] {
				ready = ready && placed[j]
			}
			if ready && (best < 0 || u.key < units[best].key) {
				best = k
			}
		}
		if best < 0 {
			var names []string
			for k, u := range units {
				if !placed[k] {
					for _, s := range u.stages {
						names = append(names, s.String())
					}
				}
			}
			sort.Strings(names)
			return nil, cwErr(b.g.edges[0], "the stages %s cannot run in an order that keeps each Func's stages in order (a fused loop would run a stage before an earlier stage of its Func)", strings.Join(names, ", ")).
				WithLegal("fuse the stages of a Func in their order: a stage fused with a later stage of another Func than the one its earlier stages are fused with runs after them")
		}
		placed[best] = true
		out = append(out, units[best])
	}
	return out, nil
}

// unit returns the statement of one unit at loop i: a stage fused with
// nothing more (its loops inside, guarded by its ranges at the fused
// loops outside), or the fused loop i of several.
func (b *cwBuilder) unit(u *cwUnit, i int, offsets map[cwStage][]cwAt) (ir.Stmt, error) {
	if len(u.stages) == 1 && b.depth[u.stages[0]] <= i {
		return b.leaf(u.stages[0], offsets), nil
	}
	// The unit's root: the stage whose parent is outside the unit.
	in := map[cwStage]bool{}
	for _, s := range u.stages {
		in[s] = true
	}
	children := map[cwStage][]*cwEdge{}
	hasParent := map[cwStage]bool{}
	for _, e := range b.g.edges {
		if len(e.loops) > i && in[e.child] && in[e.parent] {
			children[e.parent] = append(children[e.parent], e)
			hasParent[e.child] = true
		}
	}
	var root cwStage
	for _, s := range u.stages {
		if !hasParent[s] {
			root = s
			break
		}
	}
	// Offsets along the tree, parents first; stages of one Func line up
	// at the same coordinates.
	rl := b.loops[root][i]
	off := map[cwStage]ir.Expr{root: ir.Int(0)}
	firstOf := map[string]cwStage{root.f.Name: root}
	queue := []cwStage{root}
	var treeOrder []cwStage
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		treeOrder = append(treeOrder, p)
		kids := children[p]
		sort.Slice(kids, func(a, c int) bool { return b.pos[kids[a].child] < b.pos[kids[c].child] })
		for _, e := range kids {
			c := e.child
			pl, cl := b.loops[p][i], b.loops[c][i]
			if first, ok := firstOf[c.f.Name]; ok {
				if err := b.sameFuncLegal(e, first, c, i); err != nil {
					return nil, err
				}
				off[c] = off[first]
			} else {
				firstOf[c.f.Name] = c
				var delta ir.Expr = ir.Int(0)
				switch e.align[i] {
				case ir.AlignStart:
					delta = ir.SubE(cl.Min, pl.Min)
				case ir.AlignEnd:
					delta = ir.SubE(ir.AddE(cl.Min, cl.Extent), ir.AddE(pl.Min, pl.Extent))
				}
				off[c] = ir.Simplify(ir.AddE(off[p], delta))
			}
			queue = append(queue, c)
		}
	}
	if len(treeOrder) != len(u.stages) {
		return nil, cwErr(b.g.edges[0], "the fused stages %v do not form one tree at loop %s", u.stages, rl.Name).
			WithLegal("compute_with directives that join the stages through their parents")
	}
	// The fused loop covers every stage's range, shifted by its offset:
	// [lo, hi) relative to the root's min, where the root's is [0, extent).
	// A stage whose range starts (ends) where the loop does needs no
	// guard on that side.
	lo, hi := map[cwStage]ir.Expr{}, map[cwStage]ir.Expr{}
	var mn, mx ir.Expr
	for _, s := range treeOrder {
		l := b.loops[s][i]
		lo[s] = ir.Simplify(ir.SubE(ir.SubE(l.Min, off[s]), rl.Min))
		hi[s] = ir.Simplify(ir.AddE(lo[s], l.Extent))
		if mn == nil {
			mn, mx = lo[s], hi[s]
		} else {
			mn, mx = ir.MinE(mn, lo[s]), ir.MaxE(mx, hi[s])
		}
	}
	mn, mx = ir.Simplify(mn), ir.Simplify(mx)
	inner := map[cwStage][]cwAt{}
	for _, s := range u.stages {
		at := cwAt{off: off[s], lo: !isZero(ir.Simplify(ir.SubE(lo[s], mn))), hi: !isZero(ir.Simplify(ir.SubE(hi[s], mx)))}
		inner[s] = append(append([]cwAt{}, offsets[s]...), at)
	}
	// Inside: the stages ordered parents first where nothing else decides.
	saved := map[cwStage]int{}
	for k, s := range treeOrder {
		saved[s] = b.pos[s]
		b.pos[s] = k // the tree order breaks ties inside
	}
	body, err := b.level(treeOrder, i+1, inner)
	for s, p := range saved {
		b.pos[s] = p
	}
	if err != nil {
		return nil, err
	}
	return &ir.For{Name: rl.Name, Min: ir.Simplify(ir.AddE(rl.Min, mn)), Extent: ir.Simplify(ir.SubE(mx, mn)), Kind: rl.Kind, Body: body}, nil
}

// leaf is stage s inside its fused loops: its variables bound to the fused
// loops' plus its offsets, run where each is in the stage's own range.
func (b *cwBuilder) leaf(s cwStage, offsets map[cwStage][]cwAt) ir.Stmt {
	loops := b.loops[s]
	if len(loops) == 0 {
		return b.stmts[s]
	}
	// The variables: fused loop i's name is its unit root's; the stage's
	// own variable is that plus the offset. The guard reads them.
	var conds []ir.Expr
	var lets []*ir.LetStmt
	for i, l := range loops {
		fv := b.fusedName(s, i)
		at := offsets[s][i]
		if fv != l.Name || !isZero(at.off) {
			lets = append(lets, &ir.LetStmt{Name: l.Name, Value: ir.Simplify(ir.AddE(v(fv), at.off))})
		}
		x := v(l.Name)
		if at.lo {
			conds = append(conds, ir.LEE(l.Min, x))
		}
		if at.hi {
			conds = append(conds, ir.LTE(x, ir.AddE(l.Min, l.Extent)))
		}
	}
	var body ir.Stmt = b.inner[s]
	if len(conds) > 0 {
		c := conds[0]
		for _, x := range conds[1:] {
			c = ir.AndE(c, x)
		}
		body = &ir.IfThenElse{Cond: ir.Simplify(c), Then: body}
	}
	for i := len(lets) - 1; i >= 0; i-- {
		lets[i].Body = body
		body = lets[i]
	}
	return body
}

func isZero(e ir.Expr) bool {
	n, ok := ir.AsInt(e)
	return ok && n == 0
}

// fusedName is the name of the fused loop i of stage s: the loop of the
// root of the unit that holds s at loop i.
func (b *cwBuilder) fusedName(s cwStage, i int) string {
	// Walk up the edges that fuse loop i.
	for {
		var up *cwEdge
		for _, e := range b.g.edges {
			if e.child == s && len(e.loops) > i {
				up = e
				break
			}
		}
		if up == nil {
			return b.loops[s][i].Name
		}
		s = up.parent
	}
}

// sameFuncLegal checks that stages a and c of one Func may share fused
// loop i (and so every loop outside it): the loop is a pure dimension of
// the Func, not split, in both stages and those between. An update
// reads and writes the Func at its pure variables in their places (the
// algorithm's rule, checked at Define), so each iteration of the loop
// touches one slice of the Func in every stage, which the earlier stages
// have finished when the later ones run.
func (b *cwBuilder) sameFuncLegal(e *cwEdge, a, c cwStage, i int) error {
	f := a.f
	lo, hi := min(a.si, c.si), max(a.si, c.si)
	for j := 0; j <= i; j++ {
		dims := c.def().Schedule.Dims
		name := dims[len(dims)-1-j].Name
		pure := false
		for _, arg := range f.Args {
			pure = pure || arg == name
		}
		if !pure {
			return cwErr(e, "stages %s and %s of %s share the fused loop %s, which is not one of %s's pure dimensions", cwStage{f, lo}, cwStage{f, hi}, f.Name, name, f.Name).
				WithLegal("stages of one Func share only fused loops over a pure dimension of it, not split (fuse them with the other Func down to an outer loop)")
		}
		for si := lo; si <= hi; si++ {
			for _, sp := range f.Stages()[si].Schedule.Splits {
				if sp.Old == name {
					return cwErr(e, "stages %s and %s of %s share the fused loop %s, which %s splits", cwStage{f, lo}, cwStage{f, hi}, f.Name, name, cwStage{f, si}).
						WithLegal("stages of one Func share only unsplit loops over a pure dimension of it")
				}
			}
		}
	}
	return nil
}
