package lower

// bounds_inference: define the region each stage of each Func computes.
// For a Func f produced at some site, the region of its last stage is the
// box its consumers read there (bounds.Required over the consume body, with
// the loops inside ranging and everything outside symbolic); each earlier
// stage also covers what the later stages of f read of f. The regions
// become lets f.s<k>.<x>.min / .max at the top of the loop level of the
// production (the body of the innermost loop around it, or the root; at
// the production itself inside a GPU kernel), consumers first, so a
// producer's lets use its consumers' ones by name, as in Halide: the
// lowering of a deep pipeline stays linear in its depth. Func.bound fixes
// a region (with a check that it covers the need); align_bounds and
// align_extent expand one to an aligned min and extent (alignLets, after
// the union over a block's threads). The output's regions are its
// buffer's (an aligned output's buffer is checked to be aligned). Then
// run-time checks are added at the top (after the
// root's region lets where they name them): the output's extents suit its
// tail strategies, and every input and the output are accessed only inside
// their buffers.
//
// A Func called in an index (a histogram's bin, a lookup's key) bounds the
// index by the values its definitions can give (funcValueScope, Halide's
// function value bounds), in this pass and the later ones that work out
// boxes (st.values): hist(im(r)) += 1 with im(x) = x*x % 7 computed at the
// root touches hist over [0, 6].
//
// Before: schedule_functions; gpu_memory and gpu_uniform_loops (a shared
// Func's region is the union over the block's threads at one uniform
// iteration). After: every variable of the statement is defined by a loop
// or a let, or is a Param or buffer variable.

import (
	"fmt"
	"maps"
	"sort"
	"strings"

	"github.com/gohalide/gohalide/bounds"
	"github.com/gohalide/gohalide/ir"
)

func boundsInference(st *State) error {
	st.values = funcValueScope(st)
	perThread := map[string][]string{}
	idx := bounds.NewIndex()
	idx.Check = st.checkStop
	s, lets, err := defineRegions(st, st.Stmt, idx, perThread)
	if err != nil {
		return err
	}
	s = recordPerThread(s, perThread)
	// The region lets of the Funcs computed at the root go first. The
	// buffer checks are worked out in terms of their names (the output's
	// region lets, which are its buffer's, seen through); a check that
	// uses none goes before everything, the others after those lets.
	out := st.Funcs[st.P.Output]
	outLets := outputRegionLets(out)
	q := &outputQuery{out: out}
	inQs := map[string]*outputQuery{}
	for _, name := range st.queryInputs {
		inQs[name] = &outputQuery{input: true}
	}
	checks, err := bufferChecks(st, wrapLets(s, outLets), out, idx, q, inQs)
	if err != nil {
		return err
	}
	// Where the lets are small, the checks see through them.
	lv := newRootLetValues()
	for _, l := range append(append([]let{}, outLets...), lets...) {
		lv.bind(l.name, l.value)
	}
	var first, after []ir.Stmt
	// A check may be an if around asserts (a specialization's case):
	// resolve the expressions of the statements inside too.
	var resolve func(ir.Stmt) ir.Stmt
	resolve = func(s ir.Stmt) ir.Stmt { return ir.MapStmt(s, resolve, lv.resolve) }
	for _, c := range checks {
		c = resolve(c)
		if stmtUsesAny(c, lets) {
			after = append(after, c)
		} else {
			first = append(first, c)
		}
	}
	s = wrapLets(wrapLets(ir.MakeBlock(append(after, s)...), lets), outLets)
	st.Stmt = ir.MakeBlock(append(first, s)...)
	st.outputQuery = q.stmt(resolve, outLets, lets)
	for name, iq := range inQs {
		// A query that needs a queried buffer's own shape cannot run
		// before that buffer is made: none.
		if qs := iq.stmt(resolve, outLets, lets); !usesBufferVars(qs, st.queryInputs) {
			if st.inputQueries == nil {
				st.inputQueries = map[string]ir.Stmt{}
			}
			st.inputQueries[name] = qs
		}
	}
	st.boundsDone = true
	return nil
}

// funcValueScope bounds the values of each realized Func by its
// definitions (Halide's compute_function_value_bounds): the union, over its
// stages and their cases, of each value with the Func's pure variables
// unbounded and each RVar over its range, the Funcs it calls (producers,
// earlier in st.Order) by their own bounds. A Func whose update reads
// itself (a histogram's count) is unbounded, since its call there is.
// Only integer values are bounded, and only ends in constants, Params and
// the inputs' shapes are kept (clamp(x, 10, p) is in [10, p]): the bounds
// hold at every call, whatever scope it is in. A value of undefined storage (undef in a pure definition) is never
// read before an update defines it, so the bounds of the definitions cover
// every value read.
func funcValueScope(st *State) bounds.Scope {
	values := bounds.Scope{}
	global := map[string]bool{}
	for _, p := range st.P.Params {
		global[p.Name] = true
	}
	for _, in := range st.P.Inputs {
		for d := 0; d < in.Dims; d++ {
			for _, field := range []string{"min", "extent", "stride"} {
				global[BufferVar(in.Name, field, d)] = true
			}
		}
	}
	keep := func(e ir.Expr) ir.Expr {
		if e == nil {
			return nil
		}
		ok := true
		ir.WalkExpr(e, func(x ir.Expr) bool {
			switch x := x.(type) {
			case *ir.Var:
				ok = ok && global[x.Name]
			case *ir.Call, *ir.Load:
				ok = false
			}
			return ok
		})
		if !ok {
			return nil
		}
		return e
	}
	for _, name := range st.Order {
		f := st.Funcs[name]
		for i := 0; i < f.Values(); i++ {
			if !f.ValueType(i).IsIntOrUInt() {
				continue // a float may be NaN, which no interval holds
			}
			var iv bounds.Interval
			for si, d := range f.Stages() {
				for ci, c := range stageCases(d) {
					sc := make(bounds.Scope, len(values)+len(f.Args))
					maps.Copy(sc, values)
					for _, a := range f.Args {
						sc[a] = bounds.Everything()
					}
					if c.RDom != nil {
						for _, rv := range c.RDom.Vars {
							sc[rv.Name] = bounds.Interval{Min: rv.Min, Max: ir.Simplify(ir.SubE(ir.AddE(rv.Min, rv.Extent), ir.Int(1)))}
						}
					}
					v := bounds.Of(ir.TupleValues(c.Value)[i], sc)
					v.Min, v.Max = keep(v.Min), keep(v.Max)
					if si == 0 && ci == 0 {
						iv = v
					} else {
						iv = bounds.Union(iv, v)
					}
				}
			}
			if !iv.IsEverything() {
				values[bounds.FuncValue(name, i)] = iv
			}
		}
	}
	return values
}

// stmtUsesAny says whether s uses one of the lets' names.
func stmtUsesAny(s ir.Stmt, lets []let) bool {
	if len(lets) == 0 {
		return false
	}
	names := make(map[string]bool, len(lets))
	for _, l := range lets {
		names[l.name] = true
	}
	used := false
	ir.WalkStmt(s, func(ir.Stmt) bool { return !used }, func(e ir.Expr) bool {
		if x, ok := e.(*ir.Var); ok && names[x.Name] {
			used = true
		}
		return !used
	})
	return used
}

type let struct {
	name  string
	value ir.Expr
}

// wrapLets wraps s in lets, the first outermost.
func wrapLets(s ir.Stmt, lets []let) ir.Stmt {
	for i := len(lets) - 1; i >= 0; i-- {
		s = &ir.LetStmt{Name: lets[i].name, Value: lets[i].value, Body: s}
	}
	return s
}

// outputRegionLets makes every stage of the output compute its whole buffer.
func outputRegionLets(out *ir.Function) []let {
	var lets []let
	for k := len(out.Stages()) - 1; k >= 0; k-- {
		p := stagePrefix(out.Name, k)
		for d, a := range out.Args {
			var mn, ext ir.Expr = v(BufferVar(out.Name, "min", d)), v(BufferVar(out.Name, "extent", d))
			if d < len(out.Schedule.OutputBounds) {
				// The output buffer's promised shape (SetBounds),
				// which Realize checks.
				if b := out.Schedule.OutputBounds[d]; b.Min != nil {
					mn = b.Min
				}
				if b := out.Schedule.OutputBounds[d]; b.Extent != nil {
					ext = b.Extent
				}
			}
			for _, b := range out.Schedule.Bounds {
				if b.Var == a {
					// The buffer is checked to match; the constants let
					// loops over the bounded var have constant extents.
					if b.Min != nil {
						mn = b.Min
					}
					ext = b.Extent
				}
			}
			lets = append(lets, let{p + a + ".min", mn}, let{p + a + ".max", ir.SubE(ir.AddE(mn, ext), ir.Int(1))})
		}
	}
	return lets
}

// defineRegions wraps the production of every Func (but the output) in
// its region lets, in one walk of s. At a production (the produce and
// consume pair of f), the consume body goes first, so that the consumers
// of f inside it have their lets when f's region is worked out from it;
// then the produce body, inside f's new lets, where the Funcs computed at
// f's loops are. For a shared f inside thread loops it records in
// perThread the thread loops f's region at one thread depends on. idx
// remembers which statements mention which Funcs, so each region is found
// by walking only the parts of the consume body that read f.
//
// As in Halide, the regions of one loop level are defined together at
// its top (the body of the loop, or the root, whose lets defineRegions
// returns), consumers first: a producer's region is worked out in terms
// of its consumers' region variables, which are defined above it, not
// their values substituted in, so the region of the first Func of a deep
// pipeline is a few nodes, not a copy of every region after it. A loop
// level ends at a loop, an if or a let other than a region let. Inside a
// GPU kernel the lets stay at their productions: the union of a shared
// region over the block's threads (unionOverThreads) sees through the lets
// on its path only.
func defineRegions(st *State, s ir.Stmt, idx *bounds.Index, perThread map[string][]string) (ir.Stmt, []let, error) {
	var err error
	done := map[string]bool{}
	var path []ir.Stmt // the loops and lets enclosing the statement being visited
	var level []let    // the region lets of the current loop level, outermost first
	var mut func(ir.Stmt) ir.Stmt
	// production defines the region of f, produced by p and consumed by c.
	production := func(f *ir.Function, p, c *ir.ProducerConsumer) ir.Stmt {
		st.checkStop()
		done[f.Name] = true
		cbody := mut(c.Body)
		if err != nil {
			return nil
		}
		if cbody != c.Body {
			cc := *c
			cc.Body = cbody
			c = &cc
		}
		lets, checks, e := regionLets(f, p.Body, c.Body, st.values, idx)
		if e != nil {
			err = e
			return nil
		}
		if sharedStorage(f, path) {
			before := lets
			if lets, perThread[f.Name], err = unionOverThreads(f, lets, path); err != nil {
				return nil
			}
			if err = boundExtentUnion(f, before, lets); err != nil {
				return nil
			}
		}
		// Aligned after the union: the block's threads compute the
		// smallest aligned region that holds what all of them need.
		lets = alignLets(f, lets)
		hoist := !inKernel(path)
		if hoist {
			level = append(level, lets...)
		}
		n := len(path)
		for _, l := range lets {
			path = append(path, &ir.LetStmt{Name: l.name, Value: l.value})
		}
		pp := mut(p)
		path = path[:n]
		if err != nil {
			return nil
		}
		st.logf(3, "  bounds_inference: regions of %s defined\n", f.Name)
		body := &ir.Block{Stmts: append(checks, pp, c)}
		if hoist {
			return body
		}
		return wrapLets(body, lets)
	}
	mut = func(x ir.Stmt) ir.Stmt {
		if err != nil {
			return x
		}
		if blk, ok := x.(*ir.Block); ok {
			var stmts []ir.Stmt
			changed := false
			for i := 0; i < len(blk.Stmts); i++ {
				if i+1 < len(blk.Stmts) {
					p, ok1 := blk.Stmts[i].(*ir.ProducerConsumer)
					c, ok2 := blk.Stmts[i+1].(*ir.ProducerConsumer)
					if ok1 && ok2 && p.Func == c.Func && p.Producer && !c.Producer && p.Func != st.P.Output {
						if f, ok := st.Funcs[p.Func]; ok {
							stmts = append(stmts, production(f, p, c))
							if err != nil {
								return x
							}
							changed = true
							i++
							continue
						}
					}
				}
				y := mut(blk.Stmts[i])
				changed = changed || y != blk.Stmts[i]
				stmts = append(stmts, y)
			}
			if !changed {
				return x
			}
			if len(stmts) == 1 {
				return stmts[0]
			}
			return &ir.Block{Stmts: stmts}
		}
		switch x.(type) {
		case *ir.For, *ir.LetStmt, *ir.Realize:
			path = append(path, x)
			defer func() { path = path[:len(path)-1] }()
		}
		switch x.(type) {
		case *ir.Realize, *ir.ProducerConsumer:
			return ir.MapStmt(x, mut, nil)
		}
		// A new loop level for each statement inside x.
		return ir.MapStmt(x, func(c ir.Stmt) ir.Stmt {
			saved := level
			level = nil
			c = wrapLets(mut(c), level)
			level = saved
			return c
		}, nil)
	}
	s = mut(s)
	if err != nil {
		return nil, nil, err
	}
	for _, name := range st.Order {
		if name != st.P.Output && !done[name] {
			panic(fmt.Sprintf("bounds_inference: no production of %s", name))
		}
	}
	return s, level, nil
}

// inKernel says whether path is inside a GPU block loop.
func inKernel(path []ir.Stmt) bool {
	for _, x := range path {
		if l, ok := x.(*ir.For); ok && l.Kind == ir.GPUBlock {
			return true
		}
	}
	return false
}

// sharedStorage reports whether f, produced at the end of path, is stored
// in GPU shared memory (as gpu_memory decided on its Realize).
func sharedStorage(f *ir.Function, path []ir.Stmt) bool {
	for i := len(path) - 1; i >= 0; i-- {
		if r, ok := path[i].(*ir.Realize); ok && r.Func == f.Name {
			return r.Memory == ir.GPUShared
		}
	}
	return false
}

// unionOverThreads makes the region of a GPUShared Func computed inside
// GPU thread loops the union of what all the threads of the block need
// there: the thread variables (and the lets between the block loops and
// the site, which may depend on them) range over the thread loops. The
// block's threads then produce that one region together. Regions at the
// block level, outside thread loops, are unchanged.
//
// It also returns the thread loops the region at one thread depends on:
// the copy holds a part per thread along them and is shared along the
// others (the report's "shared across").
func unionOverThreads(f *ir.Function, lets []let, path []ir.Stmt) ([]let, []string, error) {
	start := -1
	for i, x := range path {
		if l, ok := x.(*ir.For); ok && l.Kind == ir.GPUBlock {
			start = i + 1
		}
	}
	if start < 0 {
		return lets, nil, nil
	}
	lv := newLetValues()
	scope := bounds.Scope{}
	threads := false
	for _, x := range path[start:] {
		switch x := x.(type) {
		case *ir.LetStmt:
			lv.bind(x.Name, x.Value)
		case *ir.For:
			if x.Kind == ir.GPUThread {
				threads = true
				mn := lv.resolve(x.Min)
				scope[x.Name] = bounds.Interval{Min: mn, Max: ir.Simplify(ir.SubE(ir.AddE(mn, lv.resolve(x.Extent)), ir.Int(1)))}
			}
		}
	}
	if !threads {
		return lets, nil, nil
	}
	var perThread []string
	for name := range scope {
		for _, l := range lets {
			if ir.Uses(lv.resolve(l.value), name) {
				perThread = append(perThread, name)
				break
			}
		}
	}
	sort.Strings(perThread)
	out := make([]let, len(lets))
	for i, l := range lets {
		iv := bounds.Of(lv.resolve(l.value), scope)
		end := iv.Min
		if strings.HasSuffix(l.name, ".max") {
			end = iv.Max
		}
		if end == nil {
			return nil, nil, ir.Errorf(ir.ErrUnbounded, f.Name, "store_in(GPUShared)", "the region of %s needed by the block's threads is unbounded in %s", f.Name, l.name)
		}
		out[i] = let{l.name, end}
	}
	return out, perThread, nil
}

// stageStmts splits a produce body into its stages' loop nests.
func stageStmts(produce ir.Stmt, n int) []ir.Stmt {
	if n == 1 {
		return []ir.Stmt{produce}
	}
	blk, ok := produce.(*ir.Block)
	if !ok || len(blk.Stmts) != n {
		panic(fmt.Sprintf("bounds_inference: produce body has no %d stages", n))
	}
	return blk.Stmts
}

func regionLets(f *ir.Function, produce, consume ir.Stmt, values bounds.Scope, idx *bounds.Index) ([]let, []ir.Stmt, error) {
	stages := f.Stages()
	stmts := stageStmts(produce, len(stages))
	need := bounds.RequiredOf(consume, values, f.Name, idx)
	if need == nil {
		// Nothing reads f (every use was simplified away): compute nothing.
		need = make(bounds.Box, len(f.Args))
		for i := range need {
			need[i] = bounds.Interval{Min: ir.Int(0), Max: ir.Int(-1)}
		}
	}
	fixed := map[string]ir.BoundDirective{}
	for _, b := range f.Schedule.Bounds {
		fixed[b.Var] = b
	}
	var lets []let
	var checks []ir.Stmt
	// box is what the consumers and the stages read, for the checks of a
	// fixed bound; stage k covers stage k+1's region (named by its lets,
	// which cover what the consumers and the stages after k+1 read) and
	// what stage k+1 reads. Naming the next region, not repeating its
	// union, keeps each let small: with n updates the regions written out
	// would hold each later one again (Halide's bgu: a 4x4 solve of about
	// 110 updates computed per pixel).
	box, cover := need, need
	for k := len(stages) - 1; k >= 0; k-- {
		if k < len(stages)-1 {
			next := make(bounds.Box, len(f.Args))
			np := stagePrefix(f.Name, k+1)
			for d, a := range f.Args {
				next[d] = bounds.Interval{Min: &ir.Var{T: ir.Int32, Name: np + a + ".min"}, Max: &ir.Var{T: ir.Int32, Name: np + a + ".max"}}
			}
			cover = next
			if later := bounds.RequiredOf(stmts[k+1], values, f.Name, idx); later != nil {
				box = bounds.Union(box, later)
				cover = bounds.Union(next, later)
			}
		}
		p := stagePrefix(f.Name, k)
		for d, a := range f.Args {
			iv := cover[d]
			if b, ok := fixed[a]; ok && b.Min != nil {
				iv = bounds.Interval{Min: b.Min, Max: ir.Simplify(ir.SubE(ir.AddE(b.Min, b.Extent), ir.Int(1)))}
			} else if !iv.IsBounded() {
				msg := fmt.Sprintf("%s is accessed in an unbounded way in dimension %d (%s): the region needed is %s", f.Name, d, a, iv)
				if culprits := wideIndices(consume, f.Name, d); len(culprits) > 0 {
					msg += "; the index " + strings.Join(culprits, " and the index ") + " is unbounded"
				}
				return nil, nil, ir.Errorf(ir.ErrUnbounded, f.Name, "bounds inference", "%s", msg).WithLegal("%s", clampLegal)
			} else if err := regionTooLarge(f, d, iv, consume); err != nil {
				return nil, nil, err
			} else if err := regionTooComplex(f, "bounds inference", d, iv); err != nil {
				return nil, nil, err
			} else if ok {
				// bound_extent: extent points from the min found, which
				// must hold all that is needed (checked before the
				// production, where these lets are defined).
				max := &ir.Var{T: ir.Int32, Name: p + a + ".max"}
				checks = append(checks, &ir.AssertStmt{
					Cond:    ir.LEE(iv.Max, max),
					Message: fmt.Sprintf("the bound_extent of %s in %s is too small: it must cover [min, max] =", f.Name, a),
					Args:    []ir.Expr{iv.Min, iv.Max},
					Error: &ir.Error{Code: ir.ErrOutOfBounds, Func: f.Name, Directive: "bound_extent",
						Msg:   fmt.Sprintf("%s is read over [%%s, %%s] in %s, more than the %s points its bound_extent gives it", f.Name, a, ir.ExprString(b.Extent)),
						Legal: fmt.Sprintf("a bound_extent of %s in %s of at least what is read there, or none", f.Name, a)},
				})
				iv = bounds.Interval{Min: iv.Min, Max: ir.Simplify(ir.SubE(ir.AddE(iv.Min, b.Extent), ir.Int(1)))}
			}
			lets = append(lets, let{p + a + ".min", iv.Min}, let{p + a + ".max", iv.Max})
		}
	}
	// A fixed bound must cover what the consumers read and what f's own
	// later stages read of it (box: an update reading f(r.x + 1) past
	// the bound read outside the allocation); the check goes just before
	// the production, where the consumers' symbols are defined.
	for d, a := range f.Args {
		b, ok := fixed[a]
		if !ok || b.Min == nil {
			continue
		}
		iv := box[d]
		if !iv.IsBounded() {
			return nil, nil, ir.Errorf(ir.ErrUnbounded, f.Name, "bound", "%s is accessed in an unbounded way in dimension %d (%s), so its bound cannot be checked", f.Name, d, a)
		}
		max := ir.SubE(ir.AddE(b.Min, b.Extent), ir.Int(1))
		checks = append(checks, &ir.AssertStmt{
			Cond:    ir.AndE(ir.LEE(b.Min, iv.Min), ir.LEE(iv.Max, max)),
			Message: fmt.Sprintf("the bound of %s in %s is too small: it must cover [min, max] =", f.Name, a),
			Args:    []ir.Expr{iv.Min, iv.Max},
		})
	}
	return lets, checks, nil
}

// boundExtentUnion refuses a bound_extent of f along a var whose region
// the union over the block's threads (unionOverThreads, from before to
// after) widened: the loops over it run the bound's extent from the
// union's min and would not cover it.
func boundExtentUnion(f *ir.Function, before, after []let) error {
	for _, b := range f.Schedule.Bounds {
		if b.Min != nil {
			continue
		}
		was := map[string]ir.Expr{}
		for _, l := range before {
			was[l.name] = l.value
		}
		for _, l := range after {
			n := l.name
			if (strings.HasSuffix(n, "."+b.Var+".min") || strings.HasSuffix(n, "."+b.Var+".max")) && (was[n] == nil || !ir.Equal(was[n], l.value)) {
				return ir.Errorf(ir.ErrSchedule, f.Name, "bound_extent", "%s is shared by the block's threads, which compute the union of their regions, and bound_extent fixes the extent of each thread's region in %s", f.Name, b.Var).
					WithLegal("compute %s at the block level (outside the thread loops), Bound(%s, min, extent), or no bound_extent", f.Name, b.Var)
			}
		}
	}
	return nil
}

// alignLets applies f's align_bounds and align_extent directives to its
// region lets (the pairs f.s<k>.<x>.min and .max of regionLets), every
// stage's: each stage computes the aligned region of what it must cover.
func alignLets(f *ir.Function, lets []let) []let {
	if len(f.Schedule.Aligns) == 0 {
		return lets
	}
	byName := map[string]ir.AlignDirective{}
	for k := range f.Stages() {
		for _, a := range f.Schedule.Aligns {
			byName[stagePrefix(f.Name, k)+a.Var+".min"] = a
		}
	}
	out := append([]let(nil), lets...)
	for i := 0; i+1 < len(out); i += 2 {
		if a, ok := byName[out[i].name]; ok {
			iv := alignRegion(bounds.Interval{Min: out[i].value, Max: out[i+1].value}, a)
			out[i].value, out[i+1].value = iv.Min, iv.Max
		}
	}
	return out
}

// alignRegion expands the region iv as the align_bounds or align_extent
// directive a asks, as Halide's bounds inference does: the min down to the
// nearest value congruent to a.Remainder modulo a.Modulus (align_bounds
// only) and the extent up to a multiple of a.Modulus. It is written as
// min - d and an extent of roundUp(extent + d), with d = (min - remainder)
// mod modulus in [0, modulus), rather than as Halide's two roundings of
// the ends: a region of constant extent then has an aligned extent with a
// constant bound (extent + 2*(modulus-1) at most), which its allocation
// needs to be a constant size. Division and modulo round down
// (ir.EuclidDiv, a.Modulus > 0).
func alignRegion(iv bounds.Interval, a ir.AlignDirective) bounds.Interval {
	m := ir.Int(a.Modulus)
	ext := ir.AddE(ir.SubE(iv.Max, iv.Min), ir.Int(1))
	mn := iv.Min
	if !a.ExtentOnly {
		d := ir.ModE(ir.SubE(iv.Min, ir.Int(a.Remainder)), m)
		mn = ir.SubE(iv.Min, d)
		ext = ir.AddE(ext, d)
	}
	ext = ir.MulE(ir.DivE(ir.AddE(ext, ir.Int(a.Modulus-1)), m), m)
	return bounds.Interval{Min: ir.Simplify(mn), Max: ir.Simplify(ir.SubE(ir.AddE(mn, ext), ir.Int(1)))}
}

// bufferChecks returns the run-time checks that go before everything: the
// output's extents suit its tail strategies, and the output and every input
// are accessed only inside their buffers. s is the whole statement, whose
// boxes are in terms of Params and buffer variables only.
//
// q collects the output region the checks ask for (output_query.go), and
// inQs the region read of each queried input.
func bufferChecks(st *State, s ir.Stmt, out *ir.Function, idx *bounds.Index, q *outputQuery, inQs map[string]*outputQuery) ([]ir.Stmt, error) {
	checks := append([]ir.Stmt(nil), st.failChecks...)
	for _, t := range st.tails {
		d := argIndex(out, t.root)
		ext := v(BufferVar(out.Name, "extent", d))
		fac := ir.Int(int64(t.factor))
		var check ir.Stmt
		if t.tail == ir.RoundUp {
			check = &ir.AssertStmt{
				Cond:    ir.Bin(ir.EQ, ir.ModE(ext, fac), ir.Int(0)),
				Message: fmt.Sprintf("%s splits %s by %d with RoundUp, so the output's extent in dimension %d must be a multiple of %d; it is", out.Name, t.root, t.factor, d, t.factor),
				Args:    []ir.Expr{ext},
			}
		} else {
			check = &ir.AssertStmt{
				Cond:    ir.LEE(fac, ext),
				Message: fmt.Sprintf("%s splits %s by %d with ShiftInwards, so the output's extent in dimension %d must be at least %d; it is", out.Name, t.root, t.factor, d, t.factor),
				Args:    []ir.Expr{ext},
			}
		}
		if t.cond != nil {
			// A split of one case of a specialization: checked when the
			// case runs.
			check = &ir.IfThenElse{Cond: t.cond, Then: check}
		}
		checks = append(checks, check)
		q.tail(d, t)
	}
	for _, b := range out.Schedule.Bounds {
		d := argIndex(out, b.Var)
		mn, ext := v(BufferVar(out.Name, "min", d)), v(BufferVar(out.Name, "extent", d))
		if b.Min == nil { // bound_extent
			checks = append(checks, &ir.AssertStmt{
				Cond:    ir.Bin(ir.EQ, ext, b.Extent),
				Message: fmt.Sprintf("%s is bounded to extent %s in %s, but the output buffer's extent is", out.Name, ir.ExprString(b.Extent), b.Var),
				Args:    []ir.Expr{ext},
			})
			continue
		}
		checks = append(checks, &ir.AssertStmt{
			Cond:    ir.AndE(ir.Bin(ir.EQ, mn, b.Min), ir.Bin(ir.EQ, ext, b.Extent)),
			Message: fmt.Sprintf("%s is bounded to min %s, extent %s in %s, but the output buffer's min and extent are", out.Name, ir.ExprString(b.Min), ir.ExprString(b.Extent), b.Var),
			Args:    []ir.Expr{mn, ext},
		})
	}
	for _, a := range out.Schedule.Aligns {
		// The output's region is its buffer's: aligning it means the
		// buffer must be aligned (Halide expands the region and its
		// output bounds check fails the same way).
		d := argIndex(out, a.Var)
		mn, ext := v(BufferVar(out.Name, "min", d)), v(BufferVar(out.Name, "extent", d))
		m := ir.Int(a.Modulus)
		cond := ir.Bin(ir.EQ, ir.ModE(ext, m), ir.Int(0))
		dir, want := "align_extent", fmt.Sprintf("an extent that is a multiple of %d", a.Modulus)
		if !a.ExtentOnly {
			cond = ir.AndE(ir.Bin(ir.EQ, ir.ModE(ir.SubE(mn, ir.Int(a.Remainder)), m), ir.Int(0)), cond)
			dir, want = "align_bounds", fmt.Sprintf("a min congruent to %d modulo %d and an extent that is a multiple of %d", a.Remainder, a.Modulus, a.Modulus)
		}
		q.need(d, alignRegion(bounds.Interval{Min: mn, Max: ir.SubE(ir.AddE(mn, ext), ir.Int(1))}, a), nil)
		checks = append(checks, &ir.AssertStmt{
			Cond:    cond,
			Message: fmt.Sprintf("%s is the output and is aligned in %s (%s), so its buffer must have %s; its min and extent are", out.Name, a.Var, dir, want),
			Args:    []ir.Expr{mn, ext},
			Error: &ir.Error{Code: ir.ErrBufferShape, Func: out.Name, Directive: dir,
				Msg:   strings.NewReplacer("%", "%%").Replace(fmt.Sprintf("%s is the output and is aligned in %s, but the output buffer's min and extent in dimension %d are ", out.Name, a.Var, d)) + "%s and %s",
				Legal: fmt.Sprintf("an output buffer with %s in dimension %d, or %s on a Func computed inside the pipeline", want, d, dir)},
		})
	}
	// The buffers are checked for the case that runs (case_checks.go).
	splits := caseSplits(st, s)
	var sets [][]ir.Stmt
	same := true
	for _, sp := range splits {
		set, outBox, inBoxes, err := accessChecks(st, sp.s, out, idx)
		if err != nil {
			return nil, err
		}
		for d, iv := range outBox {
			q.need(d, iv, sp.guard)
		}
		for name, iq := range inQs {
			for _, b := range inBoxes[name] {
				for d, iv := range b {
					iq.need(d, iv, sp.guard)
				}
			}
		}
		if len(sets) > 0 && !sameStmts(set, sets[0]) {
			same = false
		}
		sets = append(sets, set)
	}
	if same {
		return append(checks, sets[0]...), nil
	}
	for i, set := range sets {
		for _, c := range set {
			checks = append(checks, &ir.IfThenElse{Cond: splits[i].guard, Then: c})
		}
	}
	return checks, nil
}

// sameStmts reports whether a and b are the same statements.
func sameStmts(a, b []ir.Stmt) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if ir.StmtString(a[i]) != ir.StmtString(b[i]) {
			return false
		}
	}
	return true
}

// accessChecks returns the checks that the output and every input are
// accessed in s only inside their buffers.
// It returns the box of the output that s touches too, and the boxes of
// each input that s reads.
func accessChecks(st *State, s ir.Stmt, out *ir.Function, idx *bounds.Index) ([]ir.Stmt, bounds.Box, map[string][]bounds.Box, error) {
	var checks []ir.Stmt
	type buf struct {
		name, what string
		box        bounds.Box
	}
	var bufs []buf
	outBox := bounds.TouchedOf(s, st.values, out.Name, idx)
	bufs = append(bufs, buf{out.Name, "Output buffer", outBox})
	inBoxes := map[string][]bounds.Box{}
	for _, in := range st.P.Inputs {
		for _, b := range inputBoxes(s, in.Name, out.Name, st.values, idx) {
			bufs = append(bufs, buf{in.Name, "Input buffer", b})
			inBoxes[in.Name] = append(inBoxes[in.Name], b)
		}
	}
	for _, b := range bufs {
		for d, iv := range b.box {
			if !iv.IsBounded() {
				return nil, nil, nil, ir.Errorf(ir.ErrUnbounded, readerOf(st, b.name), "bounds inference", "%s %s is accessed in an unbounded way in dimension %d: the region needed is %s", b.what, b.name, d, iv).
					WithLegal("clamp the coordinate, use a boundary condition, or promise its range with Clamped / UnsafePromiseClamped")
			}
			mn := v(BufferVar(b.name, "min", d))
			max := ir.SubE(ir.AddE(mn, v(BufferVar(b.name, "extent", d))), ir.Int(1))
			cond := ir.AndE(ir.LEE(mn, iv.Min), ir.LEE(iv.Max, max))
			checks = append(checks, &ir.AssertStmt{
				Cond:    cond,
				Message: fmt.Sprintf("%s %s is accessed outside its bounds in dimension %d: accessed [min, max], buffer [min, max] =", b.what, b.name, d),
				Args:    []ir.Expr{iv.Min, iv.Max, mn, max},
				Error:   inputOutOfBounds(st, b.what, b.name, d),
			})
		}
	}
	return checks, outBox, inBoxes, nil
}

// inputOutOfBounds is the typed error of a failed check that input name
// (what is "Input buffer") covers what the pipeline reads in dimension d:
// an ErrOutOfBounds naming the Func that reads it, the input, the
// dimension, both ranges (the check's Args: needed min and max, buffer
// min and max) and what would do. Other buffers' checks keep the plain
// assertion (nil).
func inputOutOfBounds(st *State, what, name string, d int) *ir.Error {
	if what != "Input buffer" {
		return nil
	}
	fn := readerOf(st, name)
	reader := "Func " + fn
	if fn == "" {
		reader = "the pipeline"
	}
	esc := strings.NewReplacer("%", "%%")
	return &ir.Error{Code: ir.ErrOutOfBounds, Func: fn, Directive: "Realize",
		Msg: esc.Replace(fmt.Sprintf("%s reads input %s over ", reader, name)) + "[%s, %s]" +
			esc.Replace(fmt.Sprintf(" in dimension %d, but the buffer covers ", d)) + "[%s, %s]",
		Legal: fmt.Sprintf("pass an input that covers what the pipeline reads in every dimension, or read %s through a boundary condition (halide.RepeatEdge(%s), halide.ConstantExterior(%s, v), ...), which is defined everywhere; a split with a ShiftInwards or RoundUp tail can read past what the output needs, GuardWithIf does not", name, name, name)}
}

// inputBoxes returns the box of the input in read in s: one box, or,
// where that box's ends grow too large (bounds.TooComplex: reads at many
// places, in terms of the region variables of many Funcs, do not fold
// into one end), one box per production at the root of s (the loops and
// the Funcs computed inside it ranged over), each checked on its own. It
// panics with the TooComplex when s has reads of in outside the
// productions at its root (under other lets than the output's region
// lets), or a production's box is too large itself.
func inputBoxes(s ir.Stmt, in, out string, values bounds.Scope, idx *bounds.Index) (boxes []bounds.Box) {
	tc, ok := func() (tc any, ok bool) {
		defer func() {
			if r := recover(); r != nil {
				if _, is := r.(bounds.TooComplex); !is {
					panic(r)
				}
				tc = r
			}
		}()
		if b := bounds.RequiredOf(s, values, in, idx); b != nil {
			boxes = append(boxes, b)
		}
		return nil, true
	}()
	if ok {
		return boxes
	}
	var productions []ir.Stmt
	ir.WalkStmt(s, func(x ir.Stmt) bool {
		switch x := x.(type) {
		case *ir.Block, *ir.Realize, *ir.AssertStmt:
		case *ir.LetStmt:
			if !strings.HasPrefix(x.Name, out+".s") {
				panic(tc)
			}
		case *ir.ProducerConsumer:
			if x.Producer {
				productions = append(productions, x)
				return false
			}
		default:
			panic(tc)
		}
		return true
	}, nil)
	for _, p := range productions {
		if b := bounds.RequiredOf(p, values, in, idx); b != nil {
			boxes = append(boxes, b)
		}
	}
	return boxes
}

// readerOf returns the first Func (in realization order) whose definitions
// read the buffer name, or the output for the output buffer.
func readerOf(st *State, name string) string {
	reads := func(x ir.Expr) bool {
		c, ok := x.(*ir.Call)
		return ok && c.Name == name && (c.Kind == ir.CallImage || c.Kind == ir.CallFunc)
	}
	for _, fn := range st.Order {
		for _, d := range st.Funcs[fn].Stages() {
			for _, e := range append(append([]ir.Expr{}, d.Args...), d.Evaluated()...) {
				if ir.ContainsExpr(e, reads) {
					return fn
				}
			}
		}
	}
	return st.P.Output
}

func argIndex(f *ir.Function, name string) int {
	for i, a := range f.Args {
		if a == name {
			return i
		}
	}
	panic("bounds_inference: " + f.Name + " has no argument " + name)
}

// recordPerThread sets the PerThread of each shared realization that
// unionOverThreads worked out.
func recordPerThread(s ir.Stmt, perThread map[string][]string) ir.Stmt {
	if len(perThread) == 0 {
		return s
	}
	var mut func(ir.Stmt) ir.Stmt
	mut = func(x ir.Stmt) ir.Stmt {
		if r, ok := x.(*ir.Realize); ok {
			out := *r
			out.PerThread = perThread[r.Func]
			out.Body = mut(r.Body)
			return &out
		}
		return ir.MapStmt(x, mut, nil)
	}
	return mut(s)
}
