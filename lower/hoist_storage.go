package lower

// hoist_storage: move the allocation of a Func scheduled HoistStorage out
// to the hoist level, as Halide's hoist_storage. The Func keeps its
// store level: its min and stride lets stay where storage_flattening put
// them, so each realization is indexed from its own region as before, but
// the buffer is allocated once, at the top of the hoist loop's body (or
// outside every loop for HoistStorageRoot), sized by the largest extents
// any realization inside needs. A realization whose size changes from
// iteration to iteration (a window clamped at the image's edge, say) so
// gets one allocation of a size known where it is hoisted.
//
//	for (g.s0.y, ...) {                      allocate f[float32 * (max extent)]
//	  for (g.s0.x.xo, ...) {                 for (g.s0.y, ...) {
//	    let f.min.0 = ...              =>      for (g.s0.x.xo, ...) {
//	    allocate f[float32 * e(xo)]              let f.min.0 = ...
//	    ...                                      ...
//
// The loops it moves the allocation across must be serial (or unrolled):
// out of a parallel, vectorized or GPU loop, iterations that run at once
// would share one buffer (or, out of a thread loop, the block's threads
// would share what each thread owned). Each extent is bounded over the
// loops crossed, with the lets between resolved; an extent with no bound
// there is a typed error naming the Func, the level and what it depends
// on.
//
// Before: storage_flattening (flat allocations, lets for min and stride).
// After: the allocation of each hoisted Func sits at its hoist level.

import (
	"sort"
	"strings"

	"github.com/gohalide/gohalide/bounds"
	"github.com/gohalide/gohalide/ir"
)

func hoistStorage(st *State) error {
	for _, name := range st.Order {
		f := st.Funcs[name]
		level := f.Schedule.Hoist
		if level.Kind == ir.LevelInline {
			continue
		}
		site := ""
		if level.Kind == ir.LevelAt {
			var err error
			if site, err = levelLoop(st, f, level, "hoist_storage"); err != nil {
				return err
			}
		}
		// Outermost(): the allocation goes around the stage's outermost
		// loop rather than inside it.
		around := level.Kind == ir.LevelAt && level.Var == ir.OutermostVar
		s, err := hoistOne(st.Stmt, f, site, around)
		if err != nil {
			return err
		}
		st.Stmt = s
	}
	return nil
}

// hoistOne moves f's allocation (each of a Tuple Func's, one per value)
// to the top of loop site's body (site "" is the whole statement).
func hoistOne(s ir.Stmt, f *ir.Function, site string, around bool) (ir.Stmt, error) {
	if !f.IsTuple() {
		return hoistBuffer(s, f, f.Name, site, around)
	}
	for i := range f.Types {
		var err error
		if s, err = hoistBuffer(s, f, ir.TupleElem(f.Name, i), site, around); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// hoistBuffer moves the allocation buf of f to the top of loop site's
// body. The loop of a specialized stage is a loop in each case: each gets
// an allocation of its own, sized for the realizations of its case.
// With around, the allocation goes around the loop instead (the
// Outermost() level of a stage).
func hoistBuffer(s ir.Stmt, f *ir.Function, buf, site string, around bool) (ir.Stmt, error) {
	if site == "" {
		return hoistInto(s, f, buf, "the root", false)
	}
	var err error
	found := false
	var path []*ir.For // the loops around the one being visited
	var mut func(ir.Stmt) ir.Stmt
	mut = func(x ir.Stmt) ir.Stmt {
		l, ok := x.(*ir.For)
		if !ok {
			return ir.MapStmt(x, mut, nil)
		}
		path = append(path, l)
		defer func() { path = path[:len(path)-1] }()
		if l.Name != site {
			return ir.MapStmt(x, mut, nil)
		}
		found = true
		if around {
			b, e := hoistInto(l, f, buf, "the outermost level of "+loopFunc(site), insideGPU(path[:len(path)-1]))
			if e != nil {
				err = e
				return l
			}
			return b
		}
		b, e := hoistInto(l.Body, f, buf, "loop "+shortLoop(site), insideGPU(path))
		if e != nil {
			err = e
			return l
		}
		return ir.WithBody(l, b)
	}
	out := mut(s)
	if !found {
		return nil, ir.Errorf(ir.ErrComputeAt, f.Name, "hoist_storage", "the loop %s is not in the pipeline's loop nest", site)
	}
	return out, err
}

// crossed is what lies between the hoist level and the allocation.
type crossed struct {
	loops []*ir.For
	lets  map[string]ir.Expr
}

// hoistInto returns body with f's allocation buf moved to its top, sized
// for every realization inside. Where f is allocated more than once inside
// (in each case of a specialized consumer, or in the loop of each stage
// of a consumer that reads it), one allocation replaces them all, sized
// for the largest (as Halide's HoistedStorage): they run one after the
// other (the loops crossed are serial), each realization with its own
// min and stride lets, so they may share one buffer.
// inKernel says the hoist level is inside a GPU kernel.
func hoistInto(body ir.Stmt, f *ir.Function, buf, where string, inKernel bool) (ir.Stmt, error) {
	type site struct {
		a    *ir.Allocate
		path crossed
	}
	var found []site
	var walk func(s ir.Stmt, c crossed)
	walk = func(s ir.Stmt, c crossed) {
		switch x := s.(type) {
		case *ir.Allocate:
			if x.Name == buf {
				found = append(found, site{x, c})
				// Another allocation of buf inside this one would be
				// live at the same time: counted, then refused.
				if ir.ContainsStmt(x.Body, func(y ir.Stmt) bool {
					a, ok := y.(*ir.Allocate)
					return ok && a.Name == buf
				}) {
					found = append(found, site{nil, c})
				}
				return
			}
			walk(x.Body, c)
		case *ir.For:
			walk(x.Body, crossed{append(c.loops[:len(c.loops):len(c.loops)], x), c.lets})
		case *ir.LetStmt:
			lets := make(map[string]ir.Expr, len(c.lets)+1)
			for k, v := range c.lets {
				lets[k] = v
			}
			lets[x.Name] = ir.Substitute(x.Value, c.lets)
			walk(x.Body, crossed{c.loops, lets})
		default:
			ir.VisitStmt(s, func(y ir.Stmt) { walk(y, c) }, nil)
		}
	}
	walk(body, crossed{lets: map[string]ir.Expr{}})
	legal := "hoist_storage at the store level of " + f.Name + " or a serial loop outside it (hoist_storage_root: outside every loop)"
	if len(found) == 0 {
		return nil, ir.Errorf(ir.ErrSchedule, f.Name, "hoist_storage", "%s is stored outside %s, so its storage cannot be hoisted to it (the hoist level must enclose the store level)", f.Name, where).
			WithLegal("%s", legal)
	}
	first := found[0].a
	for _, fs := range found[1:] {
		if fs.a == nil || fs.a.T != first.T || fs.a.Memory != first.Memory || len(fs.a.Extents) != len(first.Extents) || fs.a.InGlobal != first.InGlobal || len(fs.a.PerThread) > 0 || len(first.PerThread) > 0 {
			return nil, ir.Errorf(ir.ErrSchedule, f.Name, "hoist_storage", "%s is allocated %d times inside %s in ways one allocation cannot serve (nested, or in different memories), so no single allocation can be hoisted there", f.Name, len(found), where).
				WithLegal("%s", legal)
		}
	}
	extents := make([]ir.Expr, len(first.Extents))
	gpu := false
	for _, fs := range found {
		path := fs.path
		gpu = gpu || insideGPU(path.loops)
		inner := map[string]bool{}
		scope := bounds.Scope{}
		for _, l := range path.loops {
			if l.Kind != ir.Serial && l.Kind != ir.Unrolled {
				return nil, ir.Errorf(ir.ErrSchedule, f.Name, "hoist_storage", "hoisting the storage of %s to %s moves it out of the %s loop %s, whose iterations run at the same time and would share one buffer", f.Name, where, l.Kind, shortLoop(l.Name)).
					WithLegal("hoist_storage at %s or a loop inside it", shortLoop(l.Name))
			}
			inner[l.Name] = true
			mn := ir.Simplify(ir.Substitute(l.Min, path.lets))
			mx := ir.Simplify(ir.SubE(ir.AddE(mn, ir.Substitute(l.Extent, path.lets)), ir.Int(1)))
			// The range of an inner loop may depend on outer loops
			// crossed (f1.s0.y of a Func computed at yi, under the hoist
			// level yo): bound it over theirs, as Halide bounds the
			// allocation over every loop it leaves.
			lo, hi := bounds.Of(mn, scope).Min, bounds.Of(mx, scope).Max
			if lo != nil && hi != nil {
				mn, mx = ir.Simplify(lo), ir.Simplify(hi)
			}
			scope[l.Name] = bounds.Interval{Min: mn, Max: mx}
		}
		for name := range path.lets {
			inner[name] = true
		}
		for d, e := range fs.a.Extents {
			hi := bounds.Of(ir.Simplify(ir.Substitute(e, path.lets)), scope).Max
			if hi != nil {
				hi = ir.Simplify(hi)
			}
			if hi == nil || ir.UsesAny(hi, func(n string) bool { return inner[n] }) {
				return nil, ir.Errorf(ir.ErrSchedule, f.Name, "hoist_storage", "the size of %s in storage dimension %d (%s) has no bound at %s: it depends on %s, defined inside", f.Name, d, ir.ExprString(e), where, strings.Join(usedOf(e, inner, path.lets), ", ")).
					WithLegal("%s, where the size is bounded (or Bound the dimensions of %s)", legal, f.Name)
			}
			if extents[d] == nil {
				extents[d] = hi
			} else {
				extents[d] = ir.MaxE(extents[d], hi)
			}
		}
	}
	for d := range extents {
		extents[d] = ir.Simplify(ir.MaxE(extents[d], ir.Int(0)))
	}
	// Remove the inner allocations (their bodies stay) and allocate at
	// the top.
	var strip func(ir.Stmt) ir.Stmt
	strip = func(s ir.Stmt) ir.Stmt {
		if a, ok := s.(*ir.Allocate); ok && a.Name == buf {
			for _, fs := range found {
				if a == fs.a {
					return strip(a.Body)
				}
			}
		}
		return ir.MapStmt(s, strip, nil)
	}
	a := *first
	a.Extents = extents
	a.Body = strip(body)
	if check := sizeCheck(buf, "hoist_storage", extents); check != nil && !inKernel && !gpu {
		return ir.MakeBlock(check, &a), nil
	}
	return &a, nil
}

// insideGPU reports whether any of loops is a GPU loop (an allocation
// there is inside a kernel, whose sizes gpu_kernels checks before the
// launch).
func insideGPU(loops []*ir.For) bool {
	for _, l := range loops {
		if l.Kind == ir.GPUBlock || l.Kind == ir.GPUThread {
			return true
		}
	}
	return false
}

// usedOf names the variables defined inside the hoist level that e uses,
// directly or through the lets.
func usedOf(e ir.Expr, inner map[string]bool, lets map[string]ir.Expr) []string {
	seen := map[string]bool{}
	for _, x := range []ir.Expr{e, ir.Substitute(e, lets)} {
		ir.UsesAny(x, func(n string) bool {
			seen[n] = seen[n] || inner[n]
			return false
		})
	}
	var out []string
	for n, in := range seen {
		if in {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}
