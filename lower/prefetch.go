package lower

// prefetch: put each prefetch directive (Stage.Prefetch, Halide's
// prefetch) at the top of the body of its loop `at`: the region of the
// source (a Func or an input) that the body of the loop `from` reads
// `offset` iterations of `from` later, as an ir.PrefetchBox statement.
// The region is bounds.Required of at's body in which from's variable is
// from + offset (from is at or a loop inside it; the loops between range
// over their iterations), so it is in the variables of the loops outside
// at's body and at's own. It is then fitted to the source's storage (an
// input's buffer, a Func's realization) by the directive's strategy:
// PrefetchClamp (and PrefetchNonFaulting, see ir.PrefetchNonFaulting)
// intersects the two, PrefetchGuardWithIf wraps the prefetch in an if
// that holds where the region lies wholly inside (and drops a region with
// an unbounded end). A prefetch is a hint, so the pass drops, rather than
// refuses, one it cannot place usefully: of a source the body does not
// read, of a folded Func (its box wraps around the fold), and of a Func
// whose storage is on chip or inside a GPU kernel (shared memory,
// registers, a kernel's local or scratch copy: only global memory is
// prefetched). Of several directives with one source at one loop, the
// last holds (as in Halide).
//
// It refuses, naming what is legal: a loop the stage does not have, a
// from outside at, an at that is vectorized or inside a vectorized loop,
// a source that is inlined, not in the pipeline or stored inside at, and
// an offset with variables that are not Params.
//
// Before: allocation_bounds, storage_folding. After: every prefetch is an
// ir.PrefetchBox at the top of its loop's body (under its guard), in the
// source's coordinates; storage_flattening makes it an ir.PrefetchFlat.

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gohalide/gohalide/bounds"
	"github.com/gohalide/gohalide/ir"
)

// prefetchAt is one directive placed on its loop.
type prefetchAt struct {
	dir  ir.PrefetchDirective
	f    string // the Func whose stage it schedules
	from string // the full name of the loop from
}

// prefetchDirectives checks the prefetch directives of every stage (and
// case) and returns them by the full name of their loop at, the last of
// each source at a loop.
func prefetchDirectives(st *State) (map[string][]prefetchAt, error) {
	params := map[string]bool{}
	for _, p := range st.P.Params {
		params[p.Name] = true
	}
	inputs := map[string]Input{}
	for _, in := range st.P.Inputs {
		inputs[in.Name] = in
	}
	at := map[string][]prefetchAt{}
	for _, name := range st.Order {
		f := st.Funcs[name]
		for si, sd := range f.Stages() {
			for _, d := range stageCases(sd) {
				for _, p := range d.Schedule.Prefetches {
					loop, from, err := checkPrefetch(st, f, si, d, p, params, inputs)
					if err != nil {
						return nil, err
					}
					list := slices.DeleteFunc(at[loop], func(q prefetchAt) bool { return q.dir.Source == p.Source })
					at[loop] = append(list, prefetchAt{dir: p, f: name, from: from})
				}
			}
		}
	}
	return at, nil
}

// prefetchNotes are the lines the loop nest (schedule_functions) shows at
// the top of each loop with prefetches: "prefetch g from x + 1
// (GuardWithIf)". None when a directive is wrong (the pass reports it).
func prefetchNotes(st *State) map[string][]string {
	at, err := prefetchDirectives(st)
	if err != nil {
		return nil
	}
	notes := map[string][]string{}
	for loop, list := range at {
		for _, p := range list {
			notes[loop] = append(notes[loop], fmt.Sprintf("prefetch %s from %s + %s (%v)", p.dir.Source, trimLoop(p.from), ir.ExprString(p.dir.Offset), p.dir.Strategy))
		}
	}
	return notes
}

func prefetch(st *State) error {
	// at holds the directives by the full name of their loop at.
	at, err := prefetchDirectives(st)
	if err != nil || len(at) == 0 {
		return err
	}
	p := &prefetcher{st: st, at: at, inputs: map[string]Input{}, scope: map[string]realizedAt{}}
	for _, in := range st.P.Inputs {
		p.inputs[in.Name] = in
	}
	out := p.stmt(st.Stmt)
	if p.err != nil {
		return p.err
	}
	st.Stmt = out
	return nil
}

// realizedAt is a Realize in scope during the prefetch pass's walk.
type realizedAt struct {
	r      *ir.Realize
	inGPU  bool // realized inside GPU loops
	onChip bool // in shared memory or registers
}

// prefetcher is the prefetch pass's walk: the Realizes around the
// statement it is at, how many GPU loops and GPU thread loops enclose it,
// and the first error.
type prefetcher struct {
	st                    *State
	at                    map[string][]prefetchAt
	inputs                map[string]Input
	scope                 map[string]realizedAt
	gpuDepth, threadDepth int
	err                   error
}

// stmt returns s with the prefetches of the loops inside it.
func (p *prefetcher) stmt(s ir.Stmt) ir.Stmt {
	if p.err != nil {
		return s
	}
	switch s := s.(type) {
	case *ir.Realize:
		defer p.enterRealize(s)()
	case *ir.For:
		defer p.enterLoop(s)()
		if list := p.at[s.Name]; len(list) > 0 {
			if p.gpuDepth > 0 && p.threadDepth == 0 {
				// A loop of a Func computed at the block level of a
				// consumer's kernel: its threads share the loop (and
				// gpu_cooperative deals its production out).
				p.st.logf(3, "prefetch: the prefetches at %s dropped (outside the kernel's thread loops)\n", s.Name)
			} else {
				return p.loop(s, list)
			}
		}
	}
	return ir.MapStmt(s, p.stmt, nil)
}

// enterRealize puts r in scope and returns what takes it out again.
func (p *prefetcher) enterRealize(r *ir.Realize) func() {
	saved, had := p.scope[r.Func]
	p.scope[r.Func] = realizedAt{r, p.gpuDepth > 0, r.Memory == ir.GPUShared || r.Memory == ir.Register}
	return func() {
		if had {
			p.scope[r.Func] = saved
		} else {
			delete(p.scope, r.Func)
		}
	}
}

// enterLoop counts l if it is a GPU loop and returns what uncounts it.
func (p *prefetcher) enterLoop(l *ir.For) func() {
	gpu, thread := l.Kind == ir.GPUBlock || l.Kind == ir.GPUThread, l.Kind == ir.GPUThread
	if gpu {
		p.gpuDepth++
	}
	if thread {
		p.threadDepth++
	}
	return func() {
		if gpu {
			p.gpuDepth--
		}
		if thread {
			p.threadDepth--
		}
	}
}

// loop returns loop s (the loop at of the directives list) with its body's
// prefetches and the prefetches of list in front of its body.
func (p *prefetcher) loop(s *ir.For, list []prefetchAt) ir.Stmt {
	st := p.st
	body := p.stmt(s.Body)
	var pre []ir.Stmt
	placed := leadingPrefetches(body)
	for _, d := range list {
		if placed[d.dir.Source] {
			continue // placed by an earlier run
		}
		var box []ir.Range
		var t ir.Type
		if d.dir.Input {
			in := p.inputs[d.dir.Source]
			t = in.T
			for i := range in.Dims {
				box = append(box, ir.Range{Min: v(BufferVar(in.Name, "min", i)), Extent: v(BufferVar(in.Name, "extent", i))})
			}
		} else if r, ok := p.scope[d.dir.Source]; !ok && d.dir.Source == st.P.Output {
			// The output (an update prefetching the output's values)
			// lives in its buffer.
			f := st.Funcs[d.dir.Source]
			t = f.T
			for i := range f.Args {
				box = append(box, ir.Range{Min: v(BufferVar(f.Name, "min", i)), Extent: v(BufferVar(f.Name, "extent", i))})
			}
		} else {
			if !ok {
				p.err = ir.Errorf(ir.ErrSchedule, d.f, "prefetch", "%s prefetches %s at loop %s, but %s is not stored around that loop (it is computed inside it, or in another branch of the pipeline)", d.f, d.dir.Source, trimLoop(s.Name), d.dir.Source).
					WithLegal("compute (or store) %s at a loop outside %s, or compute_root it", d.dir.Source, trimLoop(s.Name))
				return s
			}
			if slices.ContainsFunc(r.r.Folds, func(n int64) bool { return n > 0 }) || r.onChip || r.inGPU {
				st.logf(3, "prefetch: %s at %s dropped (folded, on chip or in a kernel)\n", d.dir.Source, s.Name)
				continue
			}
			t = st.Funcs[d.dir.Source].T
			box = r.r.Bounds
		}
		if ps := prefetchStmt(s, body, d, box, t, st.values); ps != nil {
			pre = append(pre, ps)
		}
	}
	if len(pre) == 0 {
		return ir.WithBody(s, body)
	}
	return ir.WithBody(s, ir.MakeBlock(append(pre, body)...))
}

// checkPrefetch checks directive p of stage si of f (d, one case of it)
// and returns the full names of its loops at and from.
func checkPrefetch(st *State, f *ir.Function, si int, d *ir.Definition, p ir.PrefetchDirective, params map[string]bool, inputs map[string]Input) (at, from string, err error) {
	const directive = "prefetch"
	dims := d.Schedule.Dims
	find := func(short string) int {
		for i := len(dims) - 1; i >= 0; i-- {
			if ir.MatchDim(dims[i].Name, short) {
				return i
			}
		}
		return -1
	}
	var all []string
	for i := len(dims) - 1; i >= 0; i-- {
		all = append(all, dims[i].Name)
	}
	stage := f.Name
	if si > 0 {
		stage += ".update(" + itoa(si-1) + ")"
	}
	ai, fi := find(p.At), find(p.From)
	for _, x := range []struct {
		i    int
		name string
	}{{ai, p.At}, {fi, p.From}} {
		if x.i < 0 {
			return "", "", ir.Errorf(ir.ErrUnknownVar, f.Name, directive, "%s has no loop %s to prefetch %s at", stage, x.name, p.Source).
				WithLegal("the stage's loops, outermost first: %s", strings.Join(all, ", "))
		}
	}
	if fi > ai {
		return "", "", ir.Errorf(ir.ErrSchedule, f.Name, directive, "in %s, the prefetch of %s at loop %s is from loop %s, which is outside %s", stage, p.Source, p.At, p.From, p.At).
			WithLegal("from is the loop at or a loop inside it: one of %s", strings.Join(all[len(all)-1-ai:], ", "))
	}
	for i := ai; i < len(dims); i++ {
		if dims[i].Kind == ir.Vectorized {
			return "", "", ir.Errorf(ir.ErrSchedule, f.Name, directive, "in %s, the prefetch of %s is at loop %s, which is vectorized or inside the vectorized loop %s", stage, p.Source, p.At, dims[i].Name).
				WithLegal("a loop outside the stage's vectorized loops")
		}
	}
	// Inside a GPU kernel each thread prefetches what it will read: at is
	// a thread loop or inside one, never a block loop or a loop between
	// the block and the thread loops (which the block's threads share).
	innermostThread, outermostGPU := -1, -1
	for i, dim := range dims {
		if dim.Kind == ir.GPUThread && innermostThread < 0 {
			innermostThread = i
		}
		if dim.Kind == ir.GPUThread || dim.Kind == ir.GPUBlock {
			outermostGPU = i
		}
	}
	if ai <= outermostGPU && ai > innermostThread {
		return "", "", ir.Errorf(ir.ErrSchedule, f.Name, directive, "in %s, the prefetch of %s is at loop %s, a GPU block loop or a loop outside the stage's GPU thread loops: each thread issues its own prefetches", stage, p.Source, p.At).
			WithLegal("the innermost GPU thread loop or a loop inside it, or a loop outside the kernel")
	}
	if p.Input {
		if _, ok := inputs[p.Source]; !ok {
			return "", "", ir.Errorf(ir.ErrSchedule, f.Name, directive, "%s prefetches the input %s, which the pipeline does not read", stage, p.Source).
				WithLegal("an input the pipeline reads")
		}
	} else if _, ok := st.Funcs[p.Source]; !ok {
		if _, exists := st.P.Funcs[p.Source]; exists {
			return "", "", ir.Errorf(ir.ErrSchedule, f.Name, directive, "%s prefetches %s, which is computed inline, so it has no storage to prefetch", stage, p.Source).
				WithLegal("compute_root %s, or compute it at a loop outside %s", p.Source, p.At)
		}
		return "", "", ir.Errorf(ir.ErrSchedule, f.Name, directive, "%s prefetches %s, which is not a Func of this pipeline", stage, p.Source).
			WithLegal("a Func of the pipeline stored in memory (compute_root or compute_at), or an input")
	}
	if p.Offset == nil || !p.Offset.Type().IsIntOrUInt() {
		return "", "", ir.Errorf(ir.ErrType, f.Name, directive, "the offset of the prefetch of %s in %s is not an integer", p.Source, stage).
			WithLegal("an integer expression of constants and Params")
	}
	if ir.UsesAny(p.Offset, func(n string) bool { return !params[n] }) {
		return "", "", ir.Errorf(ir.ErrSchedule, f.Name, directive, "the offset %s of the prefetch of %s in %s has variables that are not Params", ir.ExprString(p.Offset), p.Source, stage).
			WithLegal("an integer expression of constants and Params")
	}
	pre := stagePrefix(f.Name, si)
	return pre + dims[ai].Name, pre + dims[fi].Name, nil
}

// prefetchStmt returns the prefetch of p at the top of loop s (whose body,
// already visited, is body), its region fitted to storage, the box of the
// source; nil when there is nothing to prefetch.
func prefetchStmt(s *ir.For, body ir.Stmt, p prefetchAt, storage []ir.Range, t ir.Type, values bounds.Scope) ir.Stmt {
	// The body with from's variable moved offset iterations on.
	shift := func(l *ir.For) ir.Stmt {
		off := p.dir.Offset
		if off.Type() != l.Min.Type() {
			off = &ir.Cast{T: l.Min.Type(), X: off}
		}
		moved := ir.AddE(&ir.Var{T: l.Min.Type(), Name: l.Name}, off)
		return ir.SubstituteStmt(l.Body, map[string]ir.Expr{l.Name: moved})
	}
	var ahead ir.Stmt
	if p.from == s.Name {
		ahead = shift(s)
	} else {
		var fs func(ir.Stmt) ir.Stmt
		fs = func(x ir.Stmt) ir.Stmt {
			if l, ok := x.(*ir.For); ok && l.Name == p.from {
				return ir.WithBody(l, shift(l))
			}
			return ir.MapStmt(x, fs, nil)
		}
		ahead = fs(body)
	}
	req := bounds.RequiredOf(ahead, values, p.dir.Source, nil)
	if req == nil || len(req) != len(storage) {
		return nil
	}
	var box []ir.Range
	var conds []ir.Expr
	for d, iv := range req {
		lo := storage[d].Min
		hi := ir.SubE(ir.AddE(storage[d].Min, storage[d].Extent), ir.Int(1))
		switch p.dir.Strategy {
		case ir.PrefetchGuardWithIf:
			if !iv.IsBounded() {
				return nil
			}
			conds = append(conds, ir.Bin(ir.GE, iv.Min, lo), ir.Bin(ir.LE, iv.Max, hi))
			lo, hi = iv.Min, iv.Max
		default: // Clamp, NonFaulting
			if iv.Min != nil {
				lo = ir.MaxE(iv.Min, lo)
			}
			if iv.Max != nil {
				hi = ir.MinE(iv.Max, hi)
			}
		}
		box = append(box, ir.Range{Min: ir.Simplify(lo), Extent: ir.Simplify(ir.AddE(ir.SubE(hi, lo), ir.Int(1)))})
	}
	var ps ir.Stmt = ir.PrefetchBox(p.dir.Source, t, box)
	if len(conds) > 0 {
		cond := conds[0]
		for _, c := range conds[1:] {
			cond = ir.AndE(cond, c)
		}
		cond = ir.Simplify(cond)
		if ir.IsConstValue(cond, 0) {
			return nil
		}
		if !ir.IsConstValue(cond, 1) {
			ps = &ir.IfThenElse{Cond: cond, Then: ps}
		}
	}
	return ps
}

// leadingPrefetches returns the sources of the prefetches (guarded or
// not) that open the loop body s: the ones the pass put there.
func leadingPrefetches(s ir.Stmt) map[string]bool {
	stmts := []ir.Stmt{s}
	if b, ok := s.(*ir.Block); ok {
		stmts = b.Stmts
	}
	out := map[string]bool{}
	for _, x := range stmts {
		if g, ok := x.(*ir.IfThenElse); ok && g.Else == nil {
			x = g.Then
		}
		ev, ok := x.(*ir.Evaluate)
		if !ok {
			break
		}
		buf, _, flat, ok := ir.IsPrefetch(ev.X)
		if !ok || flat {
			break
		}
		out[buf] = true
	}
	return out
}
