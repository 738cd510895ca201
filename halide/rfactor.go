package halide

// rfactor: Stage.RFactor, Halide's Stage::rfactor. An associative update
// f(args) = f(args) op g(r.x, r.y, ...) is factored into an intermediate
// Func that reduces over some of the RDom's dimensions for every value of
// the others, which become pure dimensions of it, and an update of f that
// combines those partial results over the rest:
//
//	f(x) = f(x) + g(r.x, r.y, x)           RFactor({r.y, u}) gives
//
//	f_intm(x, u)  = 0                      the identity of +
//	f_intm(x, u) += g(r.x, u, x)           r.x only; r.y is u
//	f(x)         += f_intm(x, r.y)         r.y only
//
// The intermediate's new dimensions are pure, so a schedule may run them
// in parallel or on GPU blocks, which the original update's RVar loops
// could not do without atomics; the merge is a second, short reduction.
//
// The RVars named may be pieces of split or fused RVars (split r.x into
// rxo and rxi, then factor rxo): the intermediate keeps the original RDom
// and its splits, and the piece kept by f becomes the pure var (a
// PurifyRVar split, so the tail of a split that does not divide the
// extent is guarded as before); f's update gets a new RDom with one RVar
// per piece it keeps, named and ranging as the piece's loop did, so the
// loop names of f's update do not change. The intermediate copies the
// update's schedule (its loop order, kinds and splits), with each piece
// it makes pure a serial loop over the new Var; f's update keeps its pure
// loops and the pieces it keeps, and gets a loop over every pure var it
// did not have (outermost), since it now writes every point of f.
//
// As in Halide, the update's left-hand side may use any RVar (a
// histogram's bin, f(r.x) += ...): the intermediate writes where the
// update wrote, for each point of its new dimensions, and the points it
// does not write keep the identity, which the merge combines harmlessly.
// (Halide also carries an RDom's where() predicates over; our RDoms have
// none.)

import (
	"fmt"
	"sort"
	"strings"

	"github.com/gohalide/gohalide/ir"
	"github.com/gohalide/gohalide/lower"
)

// RFactorPair names an RVar that RFactor keeps in the update (R: an RVar
// of the update's RDom, a piece of a split or fused one, or a
// one-dimensional RDom) and the pure Var that replaces it in the
// intermediate Func (V).
type RFactorPair struct {
	R VarOrRVar
	V Var
}

// RFactor factors the associative update s into an intermediate Func,
// which it returns, and an update of s's Func that combines the
// intermediate's partial results (Halide's rfactor). Each pair names an
// RVar the update keeps and the pure Var that replaces it in the
// intermediate: the intermediate reduces over the other RVars for each
// value of the pairs' Vars, and the update reduces the intermediate over
// the pairs' RVars. See rfactor.go for an example.
//
// The update must be f(args) = f(args) op e, op one of +, -, *, min, max
// and the logical or bitwise and, or and xor, and e must not read f, or
// another reduction Halide's rfactor proves associative
// (lower.ProveReduction): an unsigned saturating add written with a
// select, a max or min that keeps NaN; for a Tuple Func, each value so or
// left as it is, an argmin or argmax (a key reduced by min or max and
// values taken from the point whose key wins, any number of them), or a
// complex product. An argmin or argmax is not commutative (of equal keys
// it keeps the first or the last), so the pieces the pairs keep must be
// the update's outermost RVar loops: the partial results then combine in
// the serial order and the index found is the serial one (Halide does not
// ask this; we refuse with ErrNotAssociative). The
// intermediate is called f_intm; schedule it like any Func (ComputeRoot,
// ComputeAt, GPUBlocks on a pair's Var, ...). Like every directive,
// RFactor does not fail on the spot: a refusal (ErrNotAssociative,
// ErrUnknownVar, ErrVarReused, ErrSchedule) is recorded on s's Func,
// whose pipeline returns it, and on the returned Func (Err tells at once).
// The intermediate reads what the update read, through the In wrappers
// made for s's Func; wrap for the intermediate (g.In(intm)) what it
// should read through a wrapper of its own.
func (s *Stage) RFactor(pairs ...RFactorPair) *Func {
	const directive = "rfactor"
	if s == nil || s.f == nil {
		g := newFunc("intm")
		g.fail(ir.Errorf(ir.ErrNilObject, "", directive, "rfactor of a nil or zero Stage").
			WithLegal("f.Update(i).RFactor(...) with a Func made by NewFunc"))
		return g
	}
	var vs []VarOrRVar
	for _, p := range pairs {
		if p.R != nil {
			vs = append(vs, p.R)
		}
		vs = append(vs, p.V)
	}
	s.begin(directive, vs...)
	intm, err := s.rfactor(directive, pairs)
	if err != nil || s.f.err != nil {
		s.f.fail(err)
		g := newFunc(s.f.fn.Name + "_intm")
		g.fail(s.f.err)
		return g
	}
	return intm
}

// rfactorPiece is a loop of the update that a pair names.
type rfactorPiece struct {
	dim  int    // its index in Dims
	name string // its qualified name (r$y, r$x.rxo)
	v    string // the pure Var that replaces it in the intermediate
}

func (s *Stage) rfactor(directive string, pairs []RFactorPair) (*Func, error) {
	f := s.f
	if f.err != nil {
		return nil, f.err
	}
	d := s.def(directive)
	if d == nil {
		return nil, f.err
	}
	fn := f.fn
	name := s.name()
	if s.idx == 0 {
		return nil, ir.Errorf(ir.ErrSchedule, fn.Name, directive, "rfactor of %s, its pure definition: rfactor factors an update that reduces over an RDom", fn.Name).
			WithLegal("%s.Update(i).RFactor(...) on one of its %d updates", fn.Name, len(fn.Updates))
	}
	if s.spec != nil {
		// The cases of a stage share its algorithm (they differ in
		// schedule only), and rfactor rewrites the algorithm.
		return nil, ir.Errorf(ir.ErrSchedule, fn.Name, directive, "rfactor of a specialization of %s: the cases of a stage share its algorithm, and rfactor rewrites it (Halide factors the one case)", name).
			WithLegal("%s.Update(%d).RFactor(...) on the stage itself, which factors it in every case (then specialize the intermediate and the update), or a Func of its own for the case", fn.Name, s.idx-1)
	}
	if d.RDom == nil {
		return nil, ir.Errorf(ir.ErrSchedule, fn.Name, directive, "in %s, the update reduces over no RDom, so it has no RVar to factor", name).
			WithLegal("rfactor an update that reduces over an RDom")
	}
	// The reduction's operator (lower.ProveReduction): how its values
	// combine with a partial result's, and its identity.
	types := fn.ValueTypes()
	// ProveReduction knows f's reads by name: another Func of f's name
	// (the pipeline renames it) must not look like one.
	lhs := make([]ir.Expr, len(d.Args))
	for i, a := range d.Args {
		lhs[i] = othersRenamed(f, a)
	}
	red, ok := lower.ProveReduction(fn.Name, lhs, othersRenamed(f, d.Value), types)
	if !ok {
		return nil, notAssociative(f, name, d)
	}
	// tuple makes values into the stage's value: the value itself for a
	// single-valued Func.
	tuple := func(vals []ir.Expr) ir.Expr {
		if len(vals) == 1 {
			return vals[0]
		}
		return ir.MakeTuple(vals)
	}
	if d.Predicate != nil && readsSelf(d.Predicate, f) {
		return nil, ir.Errorf(ir.ErrNotAssociative, fn.Name, directive, "in %s, the condition under which the update runs (its RDom's Where, or an Undef arm), %s, reads %s: which points are combined depends on the order", name, ir.ExprString(d.Predicate), fn.Name).
			WithLegal("a Where condition that does not read %s", fn.Name)
	}
	for i, a := range d.Args {
		if readsSelf(a, f) {
			return nil, ir.Errorf(ir.ErrNotAssociative, fn.Name, directive, "in %s, argument %d of the left-hand side, %s, reads %s: where the update writes depends on values it computes", name, i, ir.ExprString(a), fn.Name).
				WithLegal("an update whose left-hand side does not read %s", fn.Name)
		}
	}

	if fused := fusedWithPure(d); fused != "" {
		return nil, ir.Errorf(ir.ErrSchedule, fn.Name, directive, "in %s, the loop %s fuses a pure var with an RVar: rfactor splits the update's RVar loops from its pure ones, and this loop is both", name, fused).
			WithLegal("rfactor first, then fuse in the intermediate or the update; or fuse RVars with RVars only")
	}

	// The pieces the pairs name, innermost first (as Halide orders them).
	var pieces []rfactorPiece
	used := map[int]string{}
	vnames := map[string]bool{}
	for i, p := range pairs {
		if r, ok := p.R.(*RDom); ok && r.Dims() > 1 {
			return nil, ir.Errorf(ir.ErrUnknownVar, fn.Name, directive, "in %s, pair %d of rfactor names the %d-dimensional RDom %s, not one of its RVars", name, i, r.Dims(), r.name).
				WithLegal("one RVar per pair (%s.X(), %s.Y(), ...); RVars of the update: %s", r.name, r.name, rvarLoops(d))
		}
		if p.R == nil || p.R.varName() == "" {
			return nil, ir.Errorf(ir.ErrUnknownVar, fn.Name, directive, "in %s, pair %d of rfactor has a nil or unnamed RVar", name, i).
				WithLegal("RVars of the update: %s", rvarLoops(d))
		}
		k, ok := s.findDim(d, directive, p.R.varName())
		if !ok {
			return nil, f.err
		}
		dim := d.Schedule.Dims[k]
		if !dim.IsRVar {
			return nil, ir.Errorf(ir.ErrSchedule, fn.Name, directive, "in %s, %s is a pure var: rfactor keeps RVars in the update and makes the others pure", name, dim.Name).
				WithLegal("RVars of the update: %s", rvarLoops(d))
		}
		if prev, dup := used[k]; dup {
			return nil, ir.Errorf(ir.ErrVarReused, fn.Name, directive, "in %s, rfactor names %s twice (for %s and %s)", name, dim.Name, prev, p.V.name).
				WithLegal("each RVar once")
		}
		v := p.V.name
		switch {
		case v == "":
			return nil, ir.Errorf(ir.ErrUnknownVar, fn.Name, directive, "in %s, pair %d of rfactor (for %s) has an unnamed Var", name, i, dim.Name).
				WithLegal("a Var made by NewVar")
		case vnames[v] || slicesContains(fn.Args, v) || s.hasShort(d, v):
			return nil, ir.Errorf(ir.ErrVarReused, fn.Name, directive, "in %s, rfactor would add the dimension %s to the intermediate, but %s already names a var of %s or a loop of the update", name, v, v, fn.Name).
				WithLegal("a fresh Var for each RVar: not one of %s, nor a loop of the update (%s)", strings.Join(fn.Args, ", "), dimNames(d))
		}
		used[k] = v
		vnames[v] = true
		pieces = append(pieces, rfactorPiece{dim: k, name: dim.Name, v: v})
	}
	sort.Slice(pieces, func(a, b int) bool { return pieces[a].dim < pieces[b].dim })
	kept := map[string]string{}
	for _, p := range pieces {
		kept[p.name] = p.v
	}
	if !red.Commutative {
		// The partial results combine in the order of f's loops over the
		// pieces it keeps, after each was reduced in order: the serial
		// order only if those loops are the outermost RVar loops.
		var outer string // an RVar loop the intermediate reduces, outside a kept one
		for i := len(d.Schedule.Dims) - 1; i >= 0; i-- {
			dim := d.Schedule.Dims[i]
			if !dim.IsRVar {
				continue
			}
			if _, keep := kept[dim.Name]; !keep {
				if outer == "" {
					outer = dim.Name
				}
			} else if outer != "" {
				return nil, ir.Errorf(ir.ErrNotAssociative, fn.Name, directive, "in %s, rfactor keeps the RVar loop %s in the update but not %s, which runs outside it; the update is an %s, which is associative but not commutative (of equal keys it keeps the first or the last), so partial results combined in another order than the serial one would pick another index", name, dim.Name, outer, red.Kind).
					WithLegal("keep the outermost RVar loops (%s, outermost first) with every loop outside the one kept", rvarLoops(d))
			}
		}
	}

	// The splits of RVars and the loops they make, with their ranges;
	// the splits of pure vars stay in both stages.
	ranges := map[string][2]ir.Expr{}
	for _, rv := range d.RDom.Vars {
		ranges[rv.Name] = [2]ir.Expr{rv.Min, rv.Extent}
	}
	var varSplits []ir.Split
	for _, sp := range d.Schedule.Splits {
		switch {
		case sp.Kind == ir.SplitVar && isRVarOf(d, sp.Old):
			ext := ranges[sp.Old][1]
			fac := ir.Int(int64(sp.Factor))
			ranges[sp.Outer] = [2]ir.Expr{ir.Int(0), ir.Simplify(ir.DivE(ir.AddE(ext, ir.Int(int64(sp.Factor-1))), fac))}
			ranges[sp.Inner] = [2]ir.Expr{ir.Int(0), fac}
		case sp.Kind == ir.FuseVars && isRVarOf(d, sp.Inner):
			ranges[sp.Old] = [2]ir.Expr{ir.Int(0), ir.Simplify(ir.MulE(ranges[sp.Inner][1], ranges[sp.Outer][1]))}
		case sp.Kind == ir.PurifyRVar:
			// An earlier rfactor's: the value of f's update no longer
			// uses that RVar; the intermediate keeps the split.
		default:
			varSplits = append(varSplits, sp)
		}
	}

	// The intermediate: f's pure vars and the pairs' Vars.
	intm := f.newIntermediate()
	args := append(append([]string{}, fn.Args...), make([]string, len(pieces))...)
	for i, p := range pieces {
		args[len(fn.Args)+i] = p.v
	}
	intm.fn.Args = args
	intm.fn.T = fn.T
	intm.fn.Types = append([]ir.Type(nil), fn.Types...)
	pureArgs := make([]ir.Expr, len(args))
	pureDims := make([]ir.Dim, len(args))
	for i, a := range args {
		pureArgs[i] = &ir.Var{T: ir.Int32, Name: a}
		pureDims[i] = ir.Dim{Name: a}
	}
	intm.fn.Pure = &ir.Definition{Args: pureArgs, Value: tuple(red.Identity), Schedule: ir.StageSchedule{Dims: pureDims}}
	// The intermediate reads what the update read, through the update's
	// In wrappers (which replace a Func or input only in the definitions
	// of the consumer they were made for).
	upArgs := make([]ir.Expr, len(d.Args))
	for i, a := range d.Args {
		upArgs[i] = rewriteWrapped(f, a)
	}
	for _, p := range pieces {
		upArgs = append(upArgs, &ir.Var{T: ir.Int32, Name: p.v})
	}
	upDims := append([]ir.Dim{}, d.Schedule.Dims...)
	upSplits := append([]ir.Split{}, d.Schedule.Splits...)
	for _, p := range pieces {
		upDims[p.dim] = ir.Dim{Name: p.v}
		upSplits = append(upSplits, ir.Split{Kind: ir.PurifyRVar, Old: p.name, Outer: p.v})
	}
	intmSelf := make([]ir.Expr, len(types))
	ys := make([]ir.Expr, len(types))
	for i, t := range types {
		intmSelf[i] = &ir.Call{T: t, Kind: ir.CallFunc, Name: intm.fn.Name, Args: upArgs, Index: i, Ref: intm}
		if red.Ys[i] != nil {
			ys[i] = rewriteWrapped(f, red.Ys[i])
		}
	}
	// The update's Where condition (or Undef arms) stays with the points
	// it reduces: the intermediate skips them, and f's combining update
	// then adds the identity where every point of a slice was skipped.
	var pred ir.Expr
	if d.Predicate != nil {
		pred = rewriteWrapped(f, d.Predicate)
	}
	intm.fn.Updates = []*ir.Definition{{
		Args:      upArgs,
		Value:     tuple(red.Apply(intmSelf, ys)),
		RDom:      d.RDom,
		Predicate: pred,
		Schedule:  ir.StageSchedule{Dims: upDims, Splits: upSplits, Atomic: d.Schedule.Atomic, AllowRaceConditions: d.Schedule.AllowRaceConditions},
	}}

	// f's update: over the pieces it keeps, each a new RVar ranging as
	// its loop did, it combines the intermediate's values at every point.
	var dom *ir.ReductionDomain
	fArgs := make([]ir.Expr, len(fn.Args))
	for i, a := range fn.Args {
		fArgs[i] = &ir.Var{T: ir.Int32, Name: a}
	}
	readArgs := append([]ir.Expr{}, fArgs...)
	if len(pieces) > 0 {
		dom = &ir.ReductionDomain{Name: d.RDom.Name}
		for _, p := range pieces {
			r := ranges[p.name]
			dom.Vars = append(dom.Vars, ir.RVar{Name: p.name, Min: r[0], Extent: r[1]})
		}
		for _, rv := range dom.Vars {
			readArgs = append(readArgs, &ir.Var{T: ir.Int32, Name: rv.Name, RDom: dom})
		}
	}
	var dims []ir.Dim
	for _, dim := range d.Schedule.Dims {
		if _, keep := kept[dim.Name]; keep || !dim.IsRVar {
			dims = append(dims, dim)
		}
	}
	for i, a := range fn.Args {
		if v, ok := d.Args[i].(*ir.Var); !ok || v.Name != a {
			dims = append(dims, ir.Dim{Name: a})
		}
	}
	selfs, reads := make([]ir.Expr, len(types)), make([]ir.Expr, len(types))
	for i, t := range types {
		selfs[i] = &ir.Call{T: t, Kind: ir.CallFunc, Name: fn.Name, Args: fArgs, Index: i, Ref: f}
		reads[i] = &ir.Call{T: t, Kind: ir.CallFunc, Name: intm.fn.Name, Args: readArgs, Index: i, Ref: intm}
	}
	fn.Updates[s.idx-1] = &ir.Definition{
		Args:     fArgs,
		Value:    tuple(red.Apply(selfs, reads)),
		RDom:     dom,
		Schedule: ir.StageSchedule{Dims: dims, Splits: varSplits, Atomic: d.Schedule.Atomic, AllowRaceConditions: d.Schedule.AllowRaceConditions},
	}
	intm.gen = generations.Add(1)
	return intm, nil
}

// newIntermediate returns a new Func to hold an rfactor intermediate of
// f: f_intm, then f_intm_1, ... (anonymous if f is).
func (f *Func) newIntermediate() *Func {
	n := f.fn.Name + "_intm"
	if f.rfactors > 0 {
		n = fmt.Sprintf("%s_%d", n, f.rfactors)
	}
	f.rfactors++
	if f.fn.Anonymous {
		if i := strings.LastIndex(f.fn.Name, "$"); i >= 0 {
			return newAnonFunc(f.fn.Name[:i] + "_intm")
		}
	}
	return newFunc(n)
}

// notAssociative returns the ErrNotAssociative error of rfactor on update
// d of f (the stage called name), saying what is wrong with its value.
func notAssociative(f *Func, name string, d *ir.Definition) error {
	fn := f.fn
	lhs := make([]string, len(d.Args))
	for i, a := range d.Args {
		lhs[i] = ir.ExprString(a)
	}
	point := fmt.Sprintf("%s(%s)", fn.Name, strings.Join(lhs, ", "))
	var why string
	switch {
	case fn.IsTuple() && readsSelf(d.Value, f):
		why = fmt.Sprintf("its values %s are neither each %s[i] op e_i for an associative op with no e_i reading %s, nor an argmin or argmax (a key reduced by min or max, the other values taken from the point whose key wins), nor a complex product, nor another of the forms listed as legal", ir.ExprString(d.Value), point, fn.Name)
	case !readsSelf(d.Value, f):
		why = fmt.Sprintf("its value %s does not read %s, so each iteration replaces the value instead of combining with it", ir.ExprString(d.Value), point)
	default:
		why = fmt.Sprintf("its value %s is not %s op e for an associative and commutative op and an e that does not read %s", ir.ExprString(d.Value), point, fn.Name)
	}
	return ir.Errorf(ir.ErrNotAssociative, fn.Name, "rfactor", "in %s, %s = ...: %s, so partial results over parts of the RDom cannot be combined", name, point, why).
		WithLegal("an update %s = %s op e with op +, -, *, min, max, or the logical or bitwise and, or, xor (PlusEq, TimesEq, MinEq, MaxEq make them), e not reading %s; an unsigned saturating add select(%s > max - e, max, %s + e); a max or min that keeps NaN, select(%s > e || is_nan(%s), %s, e); for a Tuple, each value so (or left as it is), an argmin or argmax, or a complex product", point, point, fn.Name, point, point, point, point, point)
}

// isRVarOf reports whether the stage's var q (qualified) derives from an
// RVar of d.
func isRVarOf(d *ir.Definition, q string) bool {
	for _, rv := range d.RDom.Vars {
		if q == rv.Name || strings.HasPrefix(q, rv.Name+".") {
			return true
		}
	}
	return false
}

// rvarLoops lists the RVar loops of d, outermost first.
func rvarLoops(d *ir.Definition) string {
	var names []string
	for i := len(d.Schedule.Dims) - 1; i >= 0; i-- {
		if d.Schedule.Dims[i].IsRVar {
			names = append(names, d.Schedule.Dims[i].Name)
		}
	}
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// readsSelf reports whether e reads f.
func readsSelf(e ir.Expr, f *Func) bool {
	return ir.ContainsExpr(e, func(x ir.Expr) bool {
		c, ok := x.(*ir.Call)
		return ok && c.Kind == ir.CallFunc && c.Ref == f
	})
}

// othersRenamed returns e with its reads of Funcs other than f that have
// f's name renamed (name$other); they keep their handles, by which the
// pipeline names them.
func othersRenamed(f *Func, e ir.Expr) ir.Expr {
	var mut func(ir.Expr) ir.Expr
	mut = func(e ir.Expr) ir.Expr {
		e = ir.MapExpr(e, mut)
		if c, ok := e.(*ir.Call); ok && c.Kind == ir.CallFunc && c.Name == f.fn.Name && c.Ref != f {
			nc := *c
			nc.Name += "$other"
			return &nc
		}
		return e
	}
	return mut(e)
}

func slicesContains(a []string, s string) bool {
	for _, x := range a {
		if x == s {
			return true
		}
	}
	return false
}

// fusedWithPure returns a loop of d that a fuse of a pure var and an RVar
// made (or a piece of one), "" if there is none.
func fusedWithPure(d *ir.Definition) string {
	mixed := map[string]bool{}
	rvar := func(n string) bool {
		if mixed[n] {
			return true
		}
		if d.RDom != nil {
			for _, rv := range d.RDom.Vars {
				if n == rv.Name || strings.HasPrefix(n, rv.Name+".") {
					return true
				}
			}
		}
		return false
	}
	first := ""
	for _, sp := range d.Schedule.Splits {
		switch sp.Kind {
		case ir.FuseVars:
			if mixed[sp.Inner] || mixed[sp.Outer] || rvar(sp.Inner) != rvar(sp.Outer) {
				mixed[sp.Old] = true
				if first == "" {
					first = sp.Old
				}
			}
		case ir.SplitVar:
			if mixed[sp.Old] {
				mixed[sp.Outer], mixed[sp.Inner] = true, true
			}
		}
	}
	return first
}
