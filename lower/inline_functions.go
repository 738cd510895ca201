package lower

// inline_functions: substitute every Func computed inline (the default for
// a Func without updates) into the definitions of its consumers. Each
// inlined Func's value is expanded once and shared by its uses, as a graph
// of hash-consed nodes (inline_shared.go): a chain of Funcs each reading
// its producer at repeated points, whose tree doubles at each step, costs
// the size of its graph. Where a definition's tree is much larger than its
// graph, its shared nodes are bound by Lets at the top of the value. A
// graph of more than MaxInlinedGraph nodes, or a value of more than
// MaxInlinedSize once bound, is an ErrExprTooLarge error.
//
// Before: State.P holds the pipeline as the user wrote it.
// After: State.Funcs holds copies of the Functions that are realized, with
// no calls to inlined Funcs left; State.Order lists them producers first.
// A realized Func that nothing reads once the inlined Funcs are
// substituted is dropped (it has no place to be computed).

import (
	"fmt"

	"github.com/gohalide/gohalide/ir"
)

// isInlined says whether f is substituted into its consumers: it is left
// inline, and has neither updates nor specializations (Halide's
// Function::can_be_inlined; one with them is computed at the innermost loop
// around its uses instead).
func isInlined(f *ir.Function, output string) bool {
	return f.Name != output && f.Schedule.Compute.Kind == ir.LevelInline && len(f.Updates) == 0 && len(f.Pure.Specializations) == 0
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
		if ir.IsUndef(f.Pure.Value) && len(f.Updates) == 0 {
			return ir.Errorf(ir.ErrDefinition, name, "Define", "%s is Undef everywhere: its pure definition is Undef and it has no update to write its values", name).
				WithLegal("give %s an update that writes the points its consumers read, or a pure definition with a value", name)
		}
		if f.Pure.Predicate != nil && isInlined(f, p.Output) {
			// Halide substitutes such a Func with its Undef, which then
			// skips the stores of its consumers wherever it reaches their
			// values; realized, its other points are undefined instead.
			return ir.Errorf(ir.ErrSchedule, name, "compute_inline", "%s's pure definition has Undef in an arm of a Select (it stores only where %s holds), so it has no value to substitute at the other points and cannot be computed inline", name, ir.ExprString(f.Pure.Predicate)).
				WithLegal("compute_root or compute_at (the points where the Undef arm is taken are then undefined, and must not be read), or a value without Undef")
		}
		if f.Schedule.ExplicitInline && len(f.Pure.Specializations) > 0 {
			return ir.Errorf(ir.ErrSchedule, name, "compute_inline", "%s has specializations (a schedule per case) and cannot be computed inline", name).
				WithLegal("compute_root or compute_at, or no Specialize on %s", name)
		}
		if isInlined(f, p.Output) {
			if err := checkInlinedSchedule(f); err != nil {
				return err
			}
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
	// Expand the definitions of the realized Funcs. The value of each
	// inlined Func is expanded once (its own calls to inlined Funcs
	// substituted) and shared by its uses, so a chain of inlined Funcs
	// collapses in time linear in its length, however large the trees
	// become; their size is checked as they are built.
	in := &inliner{st: st, output: p.Output, values: map[string]ir.Expr{}, state: map[string]int{}, hc: newHashCons()}
	for _, name := range p.Order {
		f := st.Funcs[name]
		if isInlined(f, p.Output) {
			continue
		}
		st.Order = append(st.Order, name)
		for si, d := range f.Stages() {
			prefix := fmt.Sprintf("%s.s%d", name, si)
			for i, a := range d.Args {
				if d.Args[i], in.err = in.expandTree(a, name, "", nil); in.err != nil {
					return in.err
				}
			}
			if d.Value, in.err = in.expandTree(d.Value, name, prefix, f.Args); in.err != nil {
				return in.err
			}
			if d.Predicate != nil {
				if d.Predicate, in.err = in.expandTree(d.Predicate, name, prefix+".p", f.Args); in.err != nil {
					return in.err
				}
			}
		}
	}
	for _, name := range p.Order {
		if isInlined(st.Funcs[name], p.Output) {
			delete(st.Funcs, name)
		}
	}
	dropUnread(st)
	return nil
}

// dropUnread removes the realized Funcs that nothing reads once the
// inlined Funcs are substituted: a wrapper (In) or producer read only
// through a value of an inlined Tuple Func that no consumer calls, say.
// The pipeline is what the output reads, directly or not (as Halide's
// realization order is); a realized Func outside it would have no
// production site.
func dropUnread(st *State) {
	read := map[string]bool{st.P.Output: true}
	for i := len(st.Order) - 1; i >= 0; i-- {
		name := st.Order[i]
		if !read[name] {
			continue
		}
		// The cases of a stage run its algorithm (caseView): only the
		// stage's own definition is read (a case's copy may still hold
		// calls the pipeline redirected, to a clone say).
		for _, d := range st.Funcs[name].Stages() {
			for _, e := range append(append([]ir.Expr{}, d.Args...), d.Evaluated()...) {
				ir.WalkExpr(e, func(x ir.Expr) bool {
					if call, ok := x.(*ir.Call); ok && call.Kind == ir.CallFunc {
						read[call.Name] = true
					}
					return true
				})
			}
		}
	}
	order := st.Order[:0]
	for _, name := range st.Order {
		if read[name] {
			order = append(order, name)
		} else {
			st.logf(2, "inline_functions: %s is read by nothing once the inlined Funcs are substituted; it is not computed\n", name)
			delete(st.Funcs, name)
		}
	}
	st.Order = order
}

// MaxInlinedSize is the largest expression, in nodes, that inlining may
// build: the tree of each definition's value once its shared nodes are
// bound by Lets (the later passes and the executors walk it as a tree).
// MaxInlinedGraph bounds the distinct nodes of all the expanded values
// together. A chain of inlined Funcs each reading its producer at two new
// places (x + 1 and x * 2, say) doubles its graph at every step; 40 of
// them would make 2^40 nodes.
const (
	MaxInlinedSize  = 1 << 20
	MaxInlinedGraph = 1 << 18
)

// inliner substitutes the inlined Funcs into their consumers.
type inliner struct {
	st     *State
	output string
	values map[string]ir.Expr // the expanded value of each inlined Func (interned)
	state  map[string]int     // 1 while expanding, 2 done
	hc     *hashCons
	last   string // the last Func substituted (for errors)
	err    error
}

// expandTree is expand of an expression of a realized Func's definition:
// its shared nodes bound by Lets named after prefix when its tree is much
// larger than its graph (none for "": the arguments of an update), and its
// tree size checked.
func (in *inliner) expandTree(e ir.Expr, consumer, prefix string, names []string) (ir.Expr, error) {
	if e == nil {
		return nil, nil
	}
	in.last = ""
	x, err := in.expand(e, consumer)
	if err != nil || in.last == "" {
		// Nothing was inlined: the expression is the user's.
		return e, err
	}
	if prefix != "" {
		x = bindInlinedValue(x, prefix, names)
	}
	if n := exprSize(x, MaxInlinedSize); n > MaxInlinedSize {
		return nil, tooLarge(in.last, consumer, "an expression of", MaxInlinedSize)
	}
	return x, nil
}

// expand returns e with every call to an inlined Func replaced by the
// Func's expanded value at the call's arguments; consumer is the Func e
// belongs to (for errors). The result is interned.
func (in *inliner) expand(e ir.Expr, consumer string) (ir.Expr, error) {
	if e == nil {
		return nil, nil
	}
	memo := map[ir.Expr]ir.Expr{}
	var mut func(ir.Expr) ir.Expr
	mut = func(e ir.Expr) ir.Expr {
		if in.err != nil {
			return e
		}
		if r, ok := memo[e]; ok {
			return r
		}
		orig := e
		e = in.hc.intern(ir.MapExpr(e, mut))
		memo[orig] = e
		c, ok := e.(*ir.Call)
		if !ok || c.Kind != ir.CallFunc || in.err != nil {
			return e
		}
		f, ok := in.st.Funcs[c.Name]
		if !ok || !isInlined(f, in.output) {
			return e
		}
		v := in.value(f)
		if in.err != nil {
			return e
		}
		// A call of a Tuple Func reads one of its values.
		v = ir.TupleValues(v)[c.Index]
		m := make(map[string]ir.Expr, len(f.Args))
		for i, a := range f.Args {
			m[a] = c.Args[i]
		}
		out := in.hc.substitute(v, m)
		in.last = f.Name
		if in.hc.size() > MaxInlinedGraph {
			in.err = tooLarge(f.Name, consumer, "a graph of", MaxInlinedGraph)
		}
		memo[orig] = out
		return out
	}
	e = mut(e)
	return e, in.err
}

// value returns the value of the inlined Func f with the inlined Funcs it
// calls substituted.
func (in *inliner) value(f *ir.Function) ir.Expr {
	switch in.state[f.Name] {
	case 1:
		in.err = ir.Errorf(ir.ErrDefinition, f.Name, "compute_inline", "%s calls itself through inlined Funcs", f.Name)
		return nil
	case 2:
		return in.values[f.Name]
	}
	in.state[f.Name] = 1
	v, err := in.expand(f.Pure.Value, f.Name)
	if err != nil {
		return nil
	}
	in.state[f.Name] = 2
	in.values[f.Name] = v
	return v
}

func tooLarge(producer, consumer, what string, limit int) *ir.Error {
	return ir.Errorf(ir.ErrExprTooLarge, producer, "compute_inline", "inlining %s into %s makes %s more than %d nodes (inlined Funcs that read their producers several times grow exponentially along a chain)", producer, consumer, what, limit).
		WithLegal("compute_root or compute_at %s (or another Func of the inlined chain), so that it is stored once instead of recomputed at every use", producer)
}

// exprSize returns the number of nodes of e as a tree, counting up to
// limit+1 at most.
func exprSize(e ir.Expr, limit int) int {
	n := 0
	ir.WalkExpr(e, func(ir.Expr) bool {
		n++
		return n <= limit
	})
	return n
}

func copyDef(d *ir.Definition) *ir.Definition {
	c := d.CopySchedule()
	c.Args = append([]ir.Expr(nil), d.Args...)
	return c
}

// checkInlinedSchedule refuses, as Halide's
// validate_schedule_inlined_function does, the directives of a Func
// computed inline that would have no effect: a storage level (it has no
// storage) and a parallel, vectorized, unrolled or GPU loop (it has no
// loops of its own; its values are computed in its consumers' loops).
// Splits, fuses and reorders only rename its loops, and pass.
func checkInlinedSchedule(f *ir.Function) error {
	if f.Schedule.Store.Kind != ir.LevelInline {
		return ir.Errorf(ir.ErrSchedule, f.Name, "store_at", "%s is computed inline, so it has no storage to place", f.Name).
			WithLegal("compute_root or compute_at %s as well, or no store_root/store_at", f.Name)
	}
	for _, d := range f.Pure.Schedule.Dims {
		var directive string
		switch d.Kind {
		case ir.Parallel:
			directive = "parallel"
		case ir.Vectorized:
			directive = "vectorize"
		case ir.Unrolled:
			directive = "unroll"
		case ir.GPUBlock:
			directive = "gpu_blocks"
		case ir.GPUThread:
			directive = "gpu_threads"
		default:
			continue
		}
		return ir.Errorf(ir.ErrSchedule, f.Name, directive, "%s is computed inline (it has no loops of its own: its values are computed in its consumers' loops), so its loop %s cannot be marked %s", f.Name, d.Name, d.Kind).
			WithLegal("compute_root or compute_at %s, or drop the %s", f.Name, directive)
	}
	return nil
}
