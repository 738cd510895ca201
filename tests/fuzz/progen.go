package fuzz

import (
	"fmt"
	"math/rand"
)

// GenProg draws a random program and the output's extents: 1-6 Funcs in
// 1-3 dimensions (now and then a stencil chain of 2-6 Funcs, each reading
// the next at y - 1, y and y + 1, some the one after too), int32 and
// float32 (floats are multiples of 1/4, so results compare exactly),
// inputs read raw, at clamped indices or through a boundary condition,
// scalar Params, stencils, several consumers of one producer,
// select/min/max/clamp, casts, division and modulo by constants and
// expressions of either sign, updates (pure, over 1-D and 2-D RDoms,
// histograms, scans, loop-carried self reads, constant left-hand sides),
// inline reductions, Bound, Tuple Funcs with PlusEq, TimesEq, MinEq, MaxEq
// and Is updates of Tuples (tupleUpdate), Funcs written with Implicit
// (implicit) and the output buffer's shape (outDim: Width, Height,
// Channels, Dim).
func GenProg(rng *rand.Rand) (*Prog, []int) {
	g := &pgen{rng: rng, p: &Prog{}, raw: map[string]bool{}}
	return g.prog()
}

type pgen struct {
	rng *rand.Rand
	p   *Prog
	// raw are the inputs that may be read at unclamped indices.
	raw map[string]bool
	// nest counts the data-dependent indices being drawn: one inside
	// another is not drawn.
	nest int
}

func (g *pgen) p_(x float64) bool { return g.rng.Float64() < x }

func (g *pgen) intn(lo, hi int) int { return lo + g.rng.Intn(hi-lo+1) }

func (g *pgen) pick(a []int) int { return a[g.rng.Intn(len(a))] }

// ectx is what an expression may use.
type ectx struct {
	vars    []int    // the pure vars available (indices into varNames)
	rvars   []string // the RVars available
	callees []*PFunc
	inputs  []*PInput
	// self and selfArgs allow self reads in an update: selfArgs are the
	// arguments at which the update's value may read its own Func.
	self     *PFunc
	selfArgs [][]*PExpr
	reduce   bool // inline reductions allowed
}

func (g *pgen) prog() (*Prog, []int) {
	p := g.p
	od := []int{1, 2, 2, 3}[g.rng.Intn(4)]
	sizes := make([]int, od)
	for i := range sizes {
		if i < 2 {
			sizes[i] = g.pick([]int{1, 2, 3, 5, 7, 9, 11, 13})
		} else {
			sizes[i] = g.intn(1, 3)
		}
		p.OutMin = append(p.OutMin, 0)
		if g.p_(0.4) {
			p.OutMin[i] = g.intn(-4, 4)
		}
	}
	if g.p_(0.02) {
		sizes[g.rng.Intn(od)] = 0
	}
	// Inputs: the buffer covers the output's region with a margin, most
	// of the time.
	for k := 0; k < g.intn(1, 2); k++ {
		in := &PInput{Name: fmt.Sprintf("in%d", k), Float: g.p_(0.4)}
		nd := od
		if g.p_(0.3) {
			nd = g.intn(1, 3)
		}
		for i := 0; i < nd; i++ {
			m, e := 0, 3
			if i < od {
				mg := g.pick([]int{0, 2, 3, 3, 4, 6})
				m, e = p.OutMin[i]-mg, max(sizes[i], 1)+2*mg
			}
			if g.p_(0.2) {
				m += g.intn(-2, 2)
			}
			in.Mins, in.Exts = append(in.Mins, m), append(in.Exts, e)
		}
		p.Inputs = append(p.Inputs, in)
		g.raw[in.Name] = g.p_(0.25)
	}
	p.Params = []*PParam{
		{Name: "pi", Value: float64(g.intn(-3, 6))},
		{Name: "pf", Float: true, Value: []float64{0.5, 1.5, 2, 3, 4, 8, -2}[g.rng.Intn(7)]},
	}
	var bcs []*PFunc
	for k, in := range p.Inputs {
		if g.p_(0.7) {
			bc := &PFunc{Name: fmt.Sprintf("b%d", k), Float: in.Float, Dims: len(in.Mins), Src: in.Name}
			bc.BC = []string{"repeat", "repeat", "const", "const", "tile", "mirror", "mirror_int"}[g.rng.Intn(7)]
			if bc.BC == "const" {
				bc.Exterior = float64(g.intn(-3, 3))
			}
			if g.p_(0.35) {
				bc.Region = g.bcRegion(in)
			}
			bcs = append(bcs, bc)
		}
	}
	n := g.intn(1, 6)
	// Now and then a deep stencil chain: 2-6 Funcs, each reading the
	// next at rows y - 1, y, y + 1 (what sliding windows and storage
	// folding are for), some also the one after (several consumers).
	chain := g.p_(0.15)
	p.Chain = chain
	if chain {
		n = g.pick([]int{2, 3, 4, 4, 5, 5, 6, 6})
	}
	fs := make([]*PFunc, n)
	for i := range fs {
		fs[i] = &PFunc{Name: fmt.Sprintf("f%d", i), Float: g.p_(0.4), Dims: od}
		if i > 0 && !chain && g.p_(0.3) {
			fs[i].Dims = g.intn(1, 3)
		}
		if i > 0 && !chain && g.p_(pTuple) {
			for range g.intn(1, 2) {
				fs[i].Tuple = append(fs[i].Tuple, &PValue{Float: g.p_(0.4)})
			}
		}
	}
	p.Funcs = append(fs, bcs...)
	for i := n - 1; i >= 0; i-- {
		f := fs[i]
		c := &ectx{callees: append(append([]*PFunc(nil), fs[i+1:]...), bcs...), inputs: p.Inputs, reduce: true}
		for d := 0; d < f.Dims; d++ {
			c.vars = append(c.vars, d)
		}
		switch {
		case chain && i+1 < n:
			f.Pure = g.stencil(f, fs[i+1:], c)
		case chain:
			f.Pure = g.expr(f.Float, 2, c)
		default:
			f.Pure = g.expr(f.Float, 3, c)
		}
		if i+1 < n && !calls([]*PExpr{f.Pure}, fs[i+1].Name) {
			f.Pure = g.combine(f.Float, f.Pure, cast(f.Float, g.call(fs[i+1], c, 1)))
		}
		for _, v := range f.Tuple {
			v.Pure = g.expr(v.Float, 2, c)
		}
		pu := 0.3
		if i == 0 {
			pu = 0.5
		}
		if chain {
			pu = 0.08
		}
		if g.p_(pu) {
			for k := 0; k < []int{1, 1, 1, 2, 2, 3}[g.rng.Intn(6)]; k++ {
				if f.Tuple != nil {
					g.tupleUpdate(f, c)
				} else {
					g.update(f, c)
				}
			}
		}
	}
	if g.p_(0.1) && n > 1 {
		f := fs[g.intn(1, n-1)]
		d := g.rng.Intn(min(f.Dims, od))
		mg := g.intn(2, 8)
		p.Bounds = append(p.Bounds, PBound{Func: f.Name, Dim: d, Min: p.OutMin[d] - mg, Ext: max(sizes[d], 1) + 2*mg, ExtOnly: g.p_(0.4)})
	}
	p.prune()
	g.storeTypes()
	g.implicit()
	g.labels()
	return p, sizes
}

// pLabels is the share of programs in which Funcs are named alike
// (PFunc.Label).
const pLabels = 0.1

// labels gives one or two Funcs the name of another Func, an input or a
// Param.
func (g *pgen) labels() {
	p := g.p
	if !g.p_(pLabels) {
		return
	}
	var names []string
	var defined []*PFunc
	for _, f := range p.Funcs {
		names = append(names, f.Name)
		if f.BC == "" {
			defined = append(defined, f)
		}
	}
	for _, in := range p.Inputs {
		names = append(names, in.Name)
	}
	for _, pr := range p.Params {
		names = append(names, pr.Name)
	}
	for range g.intn(1, 2) {
		f := defined[g.rng.Intn(len(defined))]
		if l := names[g.rng.Intn(len(names))]; l != f.Name {
			f.Label = l
		}
	}
}

// pImplicit is the share of Funcs of two or three dimensions that are
// Implicit (PFunc.Implicit).
const pImplicit = 0.15

// implicit makes some Funcs Implicit, and writes most calls in their
// definitions whose arguments after the first are the pure vars in order
// with halide.Implicit.
func (g *pgen) implicit() {
	p := g.p
	for _, f := range p.Funcs {
		if f.BC != "" || f.Dims < 2 || !g.p_(pImplicit) {
			continue
		}
		f.Implicit = true
		for _, e := range p.exprsOf(f) {
			e.walk(func(x *PExpr) bool {
				n := -1
				if callee := p.Func(x.N); x.Op == "call" && callee != nil {
					n = callee.Dims
				} else if in := p.Input(x.N); x.Op == "in" && in != nil {
					n = len(in.Mins)
				}
				if n >= 2 && n <= f.Dims && len(x.A) == n && g.p_(0.85) {
					x.I = true
					for d := 1; d < n; d++ {
						x.I = x.I && pureArg(x.A[d], d)
					}
				}
				return true
			})
		}
	}
}

// storeTypes are the types a Func may be stored in besides float32 and
// int32 (storeTypes), and pStore the share of Funcs that are.
var storeTypes = []string{"f16", "bf16", "f64", "i64", "u64", "u8", "i16"}

const pStore = 0.12

// storeTypes stores some Funcs (not the output, not boundary conditions)
// in another type T: every definition's value is converted to T
// ("tostore"), every call converted back ("fromstore"), so the rest of
// the program computes in float32 and int32 as before and the Func's
// buffers, shared and register arrays hold T. An update's += (max=,
// min=) becomes an Is of the old value, converted back, combined with the
// new one and converted to T.
func (g *pgen) storeTypes() {
	p := g.p
	stored := map[string]string{}
	for _, f := range p.Funcs[1:] {
		if f.BC == "" && f.Tuple == nil && g.p_(pStore) {
			stored[f.Name] = storeTypes[g.rng.Intn(len(storeTypes))]
		}
	}
	if len(stored) == 0 {
		return
	}
	var back func(e *PExpr) *PExpr
	back = func(e *PExpr) *PExpr {
		if e == nil {
			return nil
		}
		c := *e
		c.A = make([]*PExpr, len(e.A))
		for i, a := range e.A {
			c.A[i] = back(a)
		}
		if c.Op == "call" && stored[c.N] != "" {
			return &PExpr{Op: "fromstore", F: c.F, N: stored[c.N], A: []*PExpr{&c}}
		}
		return &c
	}
	to := func(f *PFunc, e *PExpr) *PExpr {
		t := stored[f.Name]
		if e.Op == "sel" && len(e.A) == 3 && e.A[2].Op == "undef" {
			u := *e.A[2]
			u.N = t
			return &PExpr{Op: "sel", F: e.F, A: []*PExpr{e.A[0], {Op: "tostore", F: f.Float, N: t, A: []*PExpr{e.A[1]}}, &u}}
		}
		return &PExpr{Op: "tostore", F: f.Float, N: t, A: []*PExpr{e}}
	}
	for _, f := range p.Funcs {
		if f.BC != "" {
			continue
		}
		f.Pure = back(f.Pure)
		for _, u := range f.Updates {
			for i, a := range u.Args {
				u.Args[i] = back(a)
			}
			u.Value = back(u.Value)
		}
		for _, v := range f.Tuple {
			v.Pure = back(v.Pure)
			for i, e := range v.Updates {
				v.Updates[i] = back(e)
			}
		}
	}
	for _, r := range p.RDoms {
		r.Where = back(r.Where)
	}
	for _, f := range p.Funcs {
		t := stored[f.Name]
		if t == "" {
			continue
		}
		f.Pure = to(f, f.Pure)
		for _, u := range f.Updates {
			op := map[string]string{"+=": "+", "-=": "-", "max=": "max", "min=": "min"}[u.Op]
			if op != "" {
				self := &PExpr{Op: "fromstore", F: f.Float, N: t, A: []*PExpr{{Op: "call", F: f.Float, N: f.Name, A: cloneAll(u.Args)}}}
				v := u.Value
				if v.Op == "sel" && len(v.A) == 3 && v.A[2].Op == "undef" {
					v = &PExpr{Op: "sel", F: v.F, A: []*PExpr{v.A[0], {Op: op, F: f.Float, A: []*PExpr{self, v.A[1]}}, v.A[2]}}
				} else {
					v = &PExpr{Op: op, F: f.Float, A: []*PExpr{self, v}}
				}
				u.Op, u.Value = "=", v
			}
			u.Value = to(f, u.Value)
		}
	}
}

// stencil draws the pure value of f in a stencil chain: two or three
// reads of next[0] at rows y - 1, y and y + 1 (the last dimension of a 1-D
// or 2-D Func, y of a 3-D one), now and then one column off, sometimes a
// read of next[1] too and a random term.
func (g *pgen) stencil(f *PFunc, next []*PFunc, c *ectx) *PExpr {
	sd := min(f.Dims-1, 1)
	at := func(callee *PFunc, off int) *PExpr {
		e := &PExpr{Op: "call", F: callee.Float, N: callee.Name}
		for d := 0; d < callee.Dims; d++ {
			a := &PExpr{Op: "v", N: varNames[d]}
			k := 0
			switch {
			case d == sd:
				k = off
			case g.p_(0.15):
				k = g.intn(-1, 1)
			}
			if k != 0 {
				a = &PExpr{Op: "+", A: []*PExpr{a, {Op: "c", V: float64(k)}}}
			}
			e.A = append(e.A, a)
		}
		return cast(f.Float, e)
	}
	offs := g.rng.Perm(3)[:g.intn(2, 3)]
	var e *PExpr
	for _, o := range offs {
		t := at(next[0], o-1)
		if e == nil {
			e = t
		} else {
			e = g.combine(f.Float, e, t)
		}
	}
	if len(next) > 1 && g.p_(0.3) {
		e = g.combine(f.Float, e, at(next[1], g.intn(-1, 1)))
	}
	if g.p_(0.25) {
		e = g.combine(f.Float, e, g.expr(f.Float, 1, c))
	}
	return e
}

// combine joins two expressions of type float with + or max.
func (g *pgen) combine(float bool, a, b *PExpr) *PExpr {
	op := "+"
	if g.p_(0.3) {
		op = []string{"max", "min", "-"}[g.rng.Intn(3)]
	}
	return &PExpr{Op: op, F: float, A: []*PExpr{a, b}}
}

func (g *pgen) iconst(lo, hi int) *PExpr { return &PExpr{Op: "c", V: float64(g.intn(lo, hi))} }

func (g *pgen) fconst() *PExpr { return &PExpr{Op: "c", F: true, V: float64(g.intn(-8, 8)) / 4} }

// cast converts e to float (or int) if it is not already.
func cast(float bool, e *PExpr) *PExpr {
	if e.F == float && e.Op != "<" && e.Op != "==" {
		return e
	}
	return &PExpr{Op: "cast", F: float, A: []*PExpr{e}}
}

// expr draws an expression of type float (else int32).
func (g *pgen) expr(float bool, depth int, c *ectx) *PExpr {
	if depth <= 0 || g.p_(0.25) {
		return g.leaf(float, c)
	}
	e := func() *PExpr { return g.expr(float, depth-1, c) }
	r := g.rng.Float64()
	switch {
	case r < 0.22:
		return &PExpr{Op: []string{"+", "-"}[g.rng.Intn(2)], F: float, A: []*PExpr{e(), e()}}
	case r < 0.32:
		var k *PExpr
		if float {
			k = &PExpr{Op: "c", F: true, V: []float64{0.5, 2, -1, 0.25, 3}[g.rng.Intn(5)]}
		} else {
			k = g.iconst(-3, 3)
		}
		if g.p_(0.2) {
			k = g.leaf(float, c)
		}
		return &PExpr{Op: "*", F: float, A: []*PExpr{e(), k}}
	case r < 0.45 && !float:
		// Division and modulo, by a constant of either sign (0 too) or by
		// an expression.
		var d *PExpr
		if g.p_(0.7) {
			d = &PExpr{Op: "c", V: float64(g.pick([]int{2, 3, 4, 5, -2, -3, -1, 0, 7}))}
		} else {
			d = g.expr(false, 1, c)
		}
		return &PExpr{Op: []string{"/", "%"}[g.rng.Intn(2)], A: []*PExpr{e(), d}}
	case r < 0.45:
		return &PExpr{Op: "/", F: true, A: []*PExpr{e(), {Op: "c", F: true, V: []float64{2, 4, 0.5, -2}[g.rng.Intn(4)]}}}
	case r < 0.57:
		return &PExpr{Op: []string{"min", "max"}[g.rng.Intn(2)], F: float, A: []*PExpr{e(), e()}}
	case r < 0.64:
		lo := g.intn(-4, 2)
		if float {
			return &PExpr{Op: "clamp", F: true, A: []*PExpr{e(), {Op: "c", F: true, V: float64(lo) / 2}, {Op: "c", F: true, V: float64(lo+g.intn(1, 6)) / 2}}}
		}
		return &PExpr{Op: "clamp", A: []*PExpr{e(), {Op: "c", V: float64(lo)}, {Op: "c", V: float64(lo + g.intn(0, 8))}}}
	case r < 0.76:
		cf := g.p_(0.3)
		cond := &PExpr{Op: []string{"<", "=="}[g.rng.Intn(2)], F: cf, A: []*PExpr{g.expr(cf, 1, c), g.expr(cf, 1, c)}}
		return &PExpr{Op: "sel", F: float, A: []*PExpr{cond, e(), e()}}
	case r < 0.80:
		return g.typed(float, depth-1, c)
	case r < 0.86:
		return cast(float, g.expr(!float, depth-1, c))
	case r < 0.93 && c.reduce:
		return g.inlineReduction(float, c)
	case g.p_(0.6):
		return g.operator(float, depth-1, c)
	}
	return g.leaf(float, c)
}

// shiftAmounts are the constant shift amounts drawn: both signs, and the
// width of int32 and around it.
var shiftAmounts = []int{-40, -33, -32, -31, -5, -1, 0, 1, 2, 3, 7, 16, 31, 32, 33, 40}

// typedTypes and typedOps are the types and operators of the "typed"
// expressions.
var (
	typedTypes = []string{"f16", "bf16", "f64", "i64", "u64"}
	typedOps   = []string{"+", "-", "*", "/", "%", "min", "max", "<", "=="}
)

// satTypes are the targets of the "sat" expressions (SaturatingCast).
var satTypes = []string{"u8", "i8", "u16", "i16", "u32", "i32"}

// operator draws one of the operators beyond arithmetic: bitwise
// operators and shifts (int), Mux, Absd, Lerp (float), saturating casts.
func (g *pgen) operator(float bool, depth int, c *ectx) *PExpr {
	e := func() *PExpr { return g.expr(float, depth, c) }
	if g.p_(pFixedPoint) {
		return g.fixedPoint(float, depth, c)
	}
	switch r := g.rng.Intn(11); {
	case r == 10 && float:
		if g.p_(0.3) {
			return &PExpr{Op: "atan2", F: true, A: []*PExpr{e(), e()}}
		}
		return &PExpr{Op: []string{"sin", "tanh"}[g.rng.Intn(2)], F: true, A: []*PExpr{e()}}
	case r == 10:
		return &PExpr{Op: []string{"popcount", "clz", "ctz"}[g.rng.Intn(3)], A: []*PExpr{e()}}
	case r < 2:
		// At least two values: Mux of one value is that value (as in
		// Halide), and an RVar only its index used would leave the
		// update without it while the reference reduces over it.
		n := g.intn(2, 4)
		a := []*PExpr{g.expr(false, 1, c)}
		for range n {
			a = append(a, e())
		}
		return &PExpr{Op: "mux", F: float, A: a}
	case r < 4:
		return &PExpr{Op: "absd", F: float, A: []*PExpr{e(), e()}}
	case float && r < 7:
		var w *PExpr
		switch {
		case g.p_(0.4):
			w = &PExpr{Op: "c", F: true, V: []float64{0, 0.25, 0.5, 1, 1.5, -0.5}[g.rng.Intn(6)]}
		case g.p_(0.5):
			w = &PExpr{Op: "clamp", F: true, A: []*PExpr{e(), {Op: "c", F: true}, {Op: "c", F: true, V: 1}}}
		default:
			w = e()
		}
		return &PExpr{Op: "lerp", F: true, A: []*PExpr{e(), e(), w}}
	case float:
		return cast(true, g.operator(false, depth, c))
	case r < 5 && g.p_(0.5):
		// An integer lerp, by a float weight or by an unsigned one of
		// 8, 16 or 32 bits (the int32 expression wrapped to it).
		kind := []string{"f", "u8", "u16", "u32"}[g.rng.Intn(4)]
		var w *PExpr
		switch {
		case kind != "f":
			w = g.expr(false, depth, c)
		case g.p_(0.5):
			w = &PExpr{Op: "c", F: true, V: []float64{0, 0.25, 0.5, 1, 1.5, -0.5}[g.rng.Intn(6)]}
		default:
			w = g.expr(true, depth, c)
		}
		return &PExpr{Op: "lerp", N: kind, A: []*PExpr{e(), e(), w}}
	case r < 6:
		src := g.expr(g.p_(0.4), depth, c)
		return &PExpr{Op: "sat", N: satTypes[g.rng.Intn(len(satTypes))], A: []*PExpr{src}}
	case r < 8:
		var n *PExpr
		if g.p_(0.7) {
			n = &PExpr{Op: "c", V: float64(shiftAmounts[g.rng.Intn(len(shiftAmounts))])}
		} else {
			n = e()
		}
		return &PExpr{Op: []string{"<<", ">>"}[g.rng.Intn(2)], A: []*PExpr{e(), n}}
	case r < 9:
		return &PExpr{Op: "~", A: []*PExpr{e()}}
	}
	return &PExpr{Op: []string{"&", "|", "^"}[g.rng.Intn(3)], A: []*PExpr{e(), e()}}
}

// pFixedPoint is the share of operators that are a fixed-point intrinsic
// or truncating division (ints) or Trunc or Fract (floats): about one
// expression node in a hundred.
const pFixedPoint = 0.2

// fxOps are the operations of the "fx" expressions and fxTypes the
// integer types they are computed in.
var (
	fxOps   = []string{"sadd", "ssub", "hadd", "rhadd", "rshr", "mulshr", "divz", "modz"}
	fxTypes = []string{"i8", "u8", "i16", "u16", "i32", "u32"}
)

// fixedPoint draws Trunc or Fract of a float, or one of fxOps on two
// ints converted to one of fxTypes, its result converted back to int32.
// A RoundingShiftRight shifts mostly by a constant around the type's
// width (a negative one shifts left), a MulShiftRight by a constant in
// [0, 2 bits), mostly the fixed-point bits-1.
func (g *pgen) fixedPoint(float bool, depth int, c *ectx) *PExpr {
	e := func() *PExpr { return g.expr(float, depth, c) }
	if float {
		return &PExpr{Op: []string{"trunc", "fract"}[g.rng.Intn(2)], F: true, A: []*PExpr{e()}}
	}
	op, t := fxOps[g.rng.Intn(len(fxOps))], fxTypes[g.rng.Intn(len(fxTypes))]
	bits := map[byte]int{'8': 8, '1': 16, '3': 32}[t[1]]
	x := &PExpr{Op: "fx", N: op + ":" + t, A: []*PExpr{e(), e()}}
	switch {
	case op == "rshr" && g.p_(0.7):
		x.A[1] = &PExpr{Op: "c", V: float64(g.intn(-3, bits+1))}
	case op == "mulshr" && g.p_(0.5):
		x.V = float64(bits - 1)
	case op == "mulshr":
		x.V = float64(g.intn(0, 2*bits-1))
	}
	return x
}

// typed draws an operation in another type: the 16-bit floats, float64,
// int64 or uint64, its operands cast to it and its result back.
func (g *pgen) typed(float bool, depth int, c *ectx) *PExpr {
	e := func() *PExpr { return g.expr(float, depth, c) }
	t := typedTypes[g.rng.Intn(len(typedTypes))]
	op := typedOps[g.rng.Intn(len(typedOps))]
	a, b := e(), e()
	if g.p_(0.5) {
		// A constant that the 16-bit floats round (the programs' small
		// values are exact in them).
		if float {
			b = &PExpr{Op: "c", F: true, V: float64(float32([]float64{0.1, 1.0 / 3, 1000.7, 3000.3, -0.01, 2049.5}[g.rng.Intn(6)]))}
		} else {
			b = &PExpr{Op: "c", V: float64([]int{2049, 4097, 30001, -65519, 1<<24 + 1, 1 << 40 % 1000003}[g.rng.Intn(6)])}
		}
	}
	return &PExpr{Op: "typed", F: float, N: t + ":" + op, A: []*PExpr{a, b}}
}

// pOutDim is the share of leaves that are the output buffer's shape.
const pOutDim = 0.02

// outDim draws the output buffer's extent, min or max in one of its
// dimensions (Func.Width, Height, Channels, Dim).
func (g *pgen) outDim() *PExpr {
	d := g.rng.Intn(len(g.p.OutMin))
	e := &PExpr{Op: "odim", N: []string{"ext", "ext", "ext", "min", "max"}[g.rng.Intn(5)], R: d}
	e.W = e.N == "ext" && g.p_(0.6)
	return e
}

// leaf draws a constant, a var, a Param, the output's shape or a read.
func (g *pgen) leaf(float bool, c *ectx) *PExpr {
	if g.p_(pOutDim) {
		return cast(float, g.outDim())
	}
	r := g.rng.Float64()
	switch {
	case r < 0.15:
		if float {
			return g.fconst()
		}
		return g.iconst(-4, 4)
	case r < 0.3 && (len(c.vars) > 0 || len(c.rvars) > 0):
		return cast(float, g.index(c))
	case r < 0.36:
		if float {
			return &PExpr{Op: "p", F: true, N: "pf"}
		}
		return &PExpr{Op: "p", N: "pi"}
	case r < 0.45 && c.self != nil && len(c.selfArgs) > 0:
		args := c.selfArgs[g.rng.Intn(len(c.selfArgs))]
		return cast(float, &PExpr{Op: "call", F: c.self.Float, N: c.self.Name, A: cloneAll(args)})
	}
	// A read of a Func or an input.
	var typed []*PFunc
	for _, f := range c.callees {
		if f.Float == float || g.p_(0.3) {
			typed = append(typed, f)
		}
	}
	if len(typed) > 0 && (len(c.inputs) == 0 || g.p_(0.7)) {
		return cast(float, g.call(typed[g.rng.Intn(len(typed))], c, 1))
	}
	if len(c.inputs) > 0 {
		return cast(float, g.readInput(c.inputs[g.rng.Intn(len(c.inputs))], c))
	}
	if float {
		return g.fconst()
	}
	return g.iconst(-4, 4)
}

func cloneAll(es []*PExpr) []*PExpr {
	out := make([]*PExpr, len(es))
	for i, e := range es {
		out[i] = e.clone()
	}
	return out
}

// index draws a plain index: a var or an RVar.
func (g *pgen) index(c *ectx) *PExpr {
	if len(c.rvars) > 0 && (len(c.vars) == 0 || g.p_(0.5)) {
		return &PExpr{Op: "r", N: c.rvars[g.rng.Intn(len(c.rvars))]}
	}
	return &PExpr{Op: "v", N: varNames[c.vars[g.rng.Intn(len(c.vars))]]}
}

// arg draws argument d of a call: usually the var of the same dimension
// with a small offset (a stencil), sometimes an RVar, a division or
// multiple of it, or a data-dependent index (clamped, or not).
func (g *pgen) arg(d int, c *ectx, depth int) *PExpr {
	var base *PExpr
	switch {
	case len(c.rvars) > 0 && g.p_(0.35):
		base = &PExpr{Op: "r", N: c.rvars[g.rng.Intn(len(c.rvars))]}
	case containsInt(c.vars, d) && g.p_(0.85):
		base = &PExpr{Op: "v", N: varNames[d]}
	case len(c.vars) > 0:
		base = &PExpr{Op: "v", N: varNames[c.vars[g.rng.Intn(len(c.vars))]]}
	default:
		base = g.iconst(-1, 2)
	}
	r := g.rng.Float64()
	switch {
	case r < 0.5:
		if g.p_(0.3) {
			return base
		}
		return &PExpr{Op: "+", A: []*PExpr{base, g.iconst(-2, 2)}}
	case r < 0.6:
		return &PExpr{Op: "/", A: []*PExpr{base, {Op: "c", V: float64(g.pick([]int{2, 3, -2}))}}}
	case r < 0.65:
		return &PExpr{Op: "*", A: []*PExpr{base, {Op: "c", V: 2}}}
	case r < 0.87 && depth > 0 && g.nest == 0:
		g.nest++
		defer func() { g.nest-- }()
		switch {
		case r < 0.8:
			// A data-dependent index, clamped.
			lo := g.intn(-3, 2)
			return &PExpr{Op: "clamp", A: []*PExpr{g.expr(false, 1, c.noReduce()), {Op: "c", V: float64(lo)}, {Op: "c", V: float64(lo + g.intn(0, 9))}}}
		case r < 0.85:
			// int32(clamp(float, 0, 1) * pf): bounds symbolic in pf.
			fe := &PExpr{Op: "clamp", F: true, A: []*PExpr{g.expr(true, 1, c.noReduce()), {Op: "c", F: true}, {Op: "c", F: true, V: 1}}}
			return &PExpr{Op: "cast", A: []*PExpr{{Op: "*", F: true, A: []*PExpr{fe, {Op: "p", F: true, N: "pf"}}}}}
		}
		// Unclamped data: refused as unbounded, unless the schedule
		// inlines the read away.
		return g.expr(false, 1, c.noReduce())
	}
	return base
}

func (c *ectx) noReduce() *ectx {
	d := *c
	d.reduce = false
	d.self = nil
	return &d
}

func containsInt(a []int, v int) bool {
	for _, x := range a {
		if x == v {
			return true
		}
	}
	return false
}

// call draws a call of f (of one of its values, for a Tuple Func).
func (g *pgen) call(f *PFunc, c *ectx, depth int) *PExpr {
	e := &PExpr{Op: "call", F: f.Float, N: f.Name}
	if f.Tuple != nil {
		k := g.rng.Intn(len(f.Tuple) + 1)
		e.V, e.F = float64(k), f.valueFloat(k)
	}
	for d := 0; d < f.Dims; d++ {
		a := g.arg(d, c, depth)
		if f.BC != "" && g.p_(0.15) {
			// Far outside a boundary condition's region, several
			// periods away, or reflected (a decreasing index).
			if g.p_(0.5) {
				a = &PExpr{Op: "+", A: []*PExpr{a, g.iconst(-20, 20)}}
			} else {
				a = &PExpr{Op: "-", A: []*PExpr{g.iconst(-3, 3), a}}
			}
		}
		e.A = append(e.A, a)
	}
	return e
}

// bcRegion draws the region of a boundary condition of in: for each of
// its first dimensions, a part of the buffer (often of extent 1 or 2) or,
// now and then, no condition.
func (g *pgen) bcRegion(in *PInput) [][]int {
	n := len(in.Mins)
	if g.p_(0.3) {
		n = g.intn(1, n)
	}
	r := make([][]int, n)
	for d := range r {
		if g.p_(0.12) || in.Exts[d] < 1 {
			continue
		}
		ext := g.intn(1, in.Exts[d])
		if g.p_(0.3) {
			ext = min(g.intn(1, 2), in.Exts[d])
		}
		r[d] = []int{in.Mins[d] + g.intn(0, in.Exts[d]-ext), ext}
	}
	return r
}

// readInput draws a read of input in: half the time at indices clamped
// to its buffer, otherwise raw (the reference refuses a read outside).
func (g *pgen) readInput(in *PInput, c *ectx) *PExpr {
	e := &PExpr{Op: "in", F: in.Float, N: in.Name}
	clamped := !g.raw[in.Name] || g.p_(0.6)
	for d := range in.Mins {
		a := g.arg(d, c, 1)
		if clamped {
			a = &PExpr{Op: "clamp", A: []*PExpr{a, {Op: "c", V: float64(in.Mins[d])}, {Op: "c", V: float64(in.Mins[d] + in.Exts[d] - 1)}}}
		}
		e.A = append(e.A, a)
	}
	return e
}

func (g *pgen) newRDom(dims int) (int, []string) {
	r := &PRDom{Name: fmt.Sprintf("r%d", len(g.p.RDoms))}
	var names []string
	for d := 0; d < dims; d++ {
		r.Mins = append(r.Mins, g.intn(-3, 3))
		r.Exts = append(r.Exts, g.intn(1, 5))
		names = append(names, rvarName(r, d))
	}
	if g.p_(0.25) {
		r.Where = g.where(r, names)
	}
	g.p.RDoms = append(g.p.RDoms, r)
	return len(g.p.RDoms) - 1, names
}

// where draws an RDom.Where condition over the RVars of r: a comparison
// of an RVar (or a sum of two, or one's parity) with a constant inside
// its range or with another RVar, so that it holds at some points of the
// domain and (mostly) fails at others. (A condition that never holds
// leaves a Minimum or Maximum at its identity, which overflows.)
func (g *pgen) where(r *PRDom, names []string) *PExpr {
	pick := func() (*PExpr, int, int) {
		d := g.rng.Intn(len(names))
		return &PExpr{Op: "r", N: names[d]}, r.Mins[d], r.Mins[d] + r.Exts[d] - 1
	}
	a, lo, hi := pick()
	switch g.rng.Intn(3) {
	case 0:
		b, blo, bhi := pick()
		a, lo, hi = &PExpr{Op: "+", A: []*PExpr{a, b}}, lo+blo, hi+bhi
	case 1:
		par := &PExpr{Op: "%", A: []*PExpr{a, {Op: "c", V: 2}}}
		return &PExpr{Op: "==", A: []*PExpr{par, {Op: "c", V: float64(g.rng.Intn(2))}}}
	}
	if len(names) > 1 && g.p_(0.3) {
		b, _, _ := pick()
		return &PExpr{Op: []string{"<", "=="}[g.rng.Intn(2)], A: []*PExpr{a, b}}
	}
	if g.p_(0.3) {
		return &PExpr{Op: "==", A: []*PExpr{a, {Op: "c", V: float64(g.intn(lo, hi))}}}
	}
	return &PExpr{Op: "<", A: []*PExpr{a, {Op: "c", V: float64(g.intn(lo, hi+1))}}}
}

// inlineReduction draws Sum, Maximum or Minimum of an expression over a
// new RDom, or a value of its Argmax or Argmin (a Tuple-valued reduction:
// the extreme value, or one coordinate of where it is, cast to float if
// a float is wanted).
func (g *pgen) inlineReduction(float bool, c *ectx) *PExpr {
	ri, names := g.newRDom(g.intn(1, 2))
	sub := *c
	sub.rvars, sub.reduce, sub.self = names, false, nil
	op := []string{"sum", "sum", "maximum", "minimum", "argmax", "argmin"}[g.rng.Intn(6)]
	coord := ""
	bodyF := float
	if (op == "argmax" || op == "argmin") && g.p_(0.6) {
		coord = string(rune('0' + g.rng.Intn(len(names))))
		bodyF = g.p_(0.5)
	}
	body := g.expr(bodyF, 2, &sub)
	if !usesRVar(body, names) {
		body = &PExpr{Op: "+", F: bodyF, A: []*PExpr{body, cast(bodyF, &PExpr{Op: "r", N: names[0]})}}
	}
	switch {
	case op != "argmax" && op != "argmin":
		return &PExpr{Op: op, F: float, R: ri, A: []*PExpr{body}}
	case coord == "":
		return &PExpr{Op: op, F: float, R: ri, N: "v", A: []*PExpr{body}}
	}
	return cast(float, &PExpr{Op: op, R: ri, N: coord, A: []*PExpr{body}})
}

func usesRVar(e *PExpr, names []string) bool {
	found := false
	e.walk(func(x *PExpr) bool {
		if x.Op == "r" {
			for _, n := range names {
				if x.N == n {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// update draws an update of f.
func (g *pgen) update(f *PFunc, base *ectx) {
	u := &PUpdate{RDom: -1, Op: "="}
	c := *base
	c.reduce, c.vars, c.rvars = g.p_(0.3), nil, nil
	bare := make([]bool, f.Dims)
	for d := range bare {
		bare[d] = true
	}
	kind := []string{"pure", "reduce", "reduce", "hist", "scan", "carried", "const"}[g.rng.Intn(7)]
	if f == g.p.Funcs[0] && g.p_(0.85) {
		// The output's updates may not write outside the output's
		// region (the library refuses that, as Halide does): keep its
		// pure vars bare most of the time.
		kind = []string{"pure", "reduce"}[g.rng.Intn(2)]
	}
	var names []string
	switch kind {
	case "reduce":
		u.RDom, names = g.newRDom(g.intn(1, 2))
	case "hist", "carried":
		u.RDom, names = g.newRDom(2)
	case "scan":
		u.RDom, names = g.newRDom(1)
	case "const":
	}
	if kind != "pure" && kind != "reduce" {
		bare[0] = false
		for d := 1; d < f.Dims; d++ {
			if g.p_(0.15) {
				bare[d] = false
			}
		}
	}
	for d := range bare {
		if bare[d] {
			c.vars = append(c.vars, d)
		}
	}
	c.rvars = names
	// The left-hand side.
	for d := 0; d < f.Dims; d++ {
		switch {
		case bare[d]:
			u.Args = append(u.Args, &PExpr{Op: "v", N: varNames[d]})
		case d == 0 && kind == "hist":
			lo := g.intn(-3, 1)
			u.Args = append(u.Args, &PExpr{Op: "clamp", A: []*PExpr{g.expr(false, 1, c.noReduce()), {Op: "c", V: float64(lo)}, {Op: "c", V: float64(lo + g.intn(2, 9))}}})
		case d == 0 && (kind == "scan" || kind == "carried"):
			u.Args = append(u.Args, &PExpr{Op: "r", N: names[0]})
		case len(names) > 1 && g.p_(0.5):
			u.Args = append(u.Args, &PExpr{Op: "r", N: names[1]})
		default:
			u.Args = append(u.Args, g.iconst(-2, 2))
		}
	}
	// Self reads at the left-hand side and, for scans and loop-carried
	// updates, next to it.
	c.self = f
	c.selfArgs = [][]*PExpr{u.Args}
	at := func(off int) []*PExpr {
		a := cloneAll(u.Args)
		a[0] = &PExpr{Op: "+", A: []*PExpr{a[0], {Op: "c", V: float64(off)}}}
		return a
	}
	self := func(args []*PExpr) *PExpr { return &PExpr{Op: "call", F: f.Float, N: f.Name, A: args} }
	switch kind {
	case "hist":
		u.Op = "+="
		u.Value = cast(f.Float, g.pickOne(g.iconst(1, 1), g.expr(f.Float, 1, c.noReduce())))
	case "scan":
		c.selfArgs = append(c.selfArgs, at(-1))
		u.Value = g.combine(f.Float, self(at(-1)), g.expr(f.Float, 2, &c))
	case "carried":
		c.selfArgs = append(c.selfArgs, at(1))
		u.Value = &PExpr{Op: "+", F: f.Float, A: []*PExpr{self(cloneAll(u.Args)), self(at(1))}}
		if g.p_(0.5) {
			u.Value = g.combine(f.Float, u.Value, g.expr(f.Float, 1, c.noReduce()))
		}
	default:
		u.Op = []string{"=", "+=", "+=", "-=", "max=", "min="}[g.rng.Intn(6)]
		u.Value = g.expr(f.Float, 2, &c)
		if u.Op == "=" && g.p_(0.6) {
			u.Value = g.combine(f.Float, self(cloneAll(u.Args)), u.Value)
		}
	}
	if u.RDom >= 0 && !usesRVar(&PExpr{A: append(append([]*PExpr(nil), u.Args...), u.Value)}, names) {
		u.Value = &PExpr{Op: "+", F: f.Float, A: []*PExpr{u.Value, cast(f.Float, &PExpr{Op: "r", N: names[0]})}}
	}
	if u.Op == "=" && g.p_(0.15) {
		// Store only where a condition holds: select(c, v, undef).
		cond := &PExpr{Op: "<", A: []*PExpr{g.expr(false, 1, c.noReduce()), g.iconst(-2, 4)}}
		u.Value = &PExpr{Op: "sel", F: f.Float, A: []*PExpr{cond, u.Value, {Op: "undef", F: f.Float}}}
	}
	f.Updates = append(f.Updates, u)
}

func (g *pgen) pickOne(es ...*PExpr) *PExpr { return es[g.rng.Intn(len(es))] }

// pTuple is the share of Funcs (not the output, not in a stencil chain)
// that are Tuple Funcs of two or three values.
const pTuple = 0.12

// tupleUpdate draws an update of the Tuple Func f: over a new RDom (or
// none, or a histogram's scattered first argument), PlusEq, TimesEq,
// MinEq, MaxEq or Is of a Tuple, each value k computed from the others'
// inputs and, for Is, f's own value k at the point written: the values
// reduce independently, so the update is associative (RFactor) for every
// op but Is.
func (g *pgen) tupleUpdate(f *PFunc, base *ectx) {
	u := &PUpdate{RDom: -1}
	c := *base
	c.reduce, c.vars, c.rvars, c.self = g.p_(0.3), nil, nil, nil
	kind := []string{"reduce", "reduce", "reduce", "reduce", "reduce", "hist", "pure", "pure"}[g.rng.Intn(8)]
	var names []string
	switch kind {
	case "reduce":
		u.RDom, names = g.newRDom(g.intn(1, 2))
	case "hist":
		u.RDom, names = g.newRDom(g.intn(1, 2))
	}
	c.rvars = names
	for d := 0; d < f.Dims; d++ {
		if kind != "hist" || d > 0 {
			c.vars = append(c.vars, d)
		}
	}
	for d := 0; d < f.Dims; d++ {
		if kind == "hist" && d == 0 {
			lo := g.intn(-3, 1)
			u.Args = append(u.Args, &PExpr{Op: "clamp", A: []*PExpr{g.expr(false, 1, c.noReduce()), {Op: "c", V: float64(lo)}, {Op: "c", V: float64(lo + g.intn(2, 9))}}})
			continue
		}
		u.Args = append(u.Args, &PExpr{Op: "v", N: varNames[d]})
	}
	u.Op = []string{"+=", "+=", "*=", "max=", "min=", "="}[g.rng.Intn(6)]
	vals := make([]*PExpr, len(f.Tuple)+1)
	for k := range vals {
		fl := f.valueFloat(k)
		var v *PExpr
		switch u.Op {
		case "*=":
			// A factor of a few exact values (products stay exact in
			// float32 and reassociate without rounding), chosen by a
			// condition over the RDom.
			cond := &PExpr{Op: "<", A: []*PExpr{g.expr(false, 1, c.noReduce()), g.iconst(-2, 4)}}
			if len(names) > 0 {
				cond.A[0] = &PExpr{Op: "+", A: []*PExpr{cond.A[0], {Op: "r", N: names[g.rng.Intn(len(names))]}}}
			}
			ks := []float64{-2, -1, 1, 1, 2}
			v = &PExpr{Op: "sel", F: fl, A: []*PExpr{cond, {Op: "c", F: fl, V: ks[g.rng.Intn(5)]}, {Op: "c", F: fl, V: ks[g.rng.Intn(5)]}}}
		default:
			v = g.expr(fl, 2, &c)
			if len(names) > 0 && !usesRVar(v, names) {
				v = &PExpr{Op: "+", F: fl, A: []*PExpr{v, cast(fl, &PExpr{Op: "r", N: names[0]})}}
			}
			if u.Op == "=" && g.p_(0.7) {
				self := &PExpr{Op: "call", F: fl, N: f.Name, V: float64(k), A: cloneAll(u.Args)}
				v = g.combine(fl, self, v)
			}
		}
		vals[k] = v
	}
	u.Value = vals[0]
	f.Updates = append(f.Updates, u)
	for k, v := range f.Tuple {
		v.Updates = append(v.Updates, vals[k+1])
	}
}

// prune drops the Funcs, inputs and RDoms the output does not use,
// renumbering nothing (names stay).
func (p *Prog) prune() {
	used := map[string]bool{p.Funcs[0].Name: true}
	for _, o := range p.Outputs {
		used[o.Func] = true
	}
	for _, f := range p.Funcs { // consumers come first
		if !used[f.Name] {
			continue
		}
		if f.BC != "" {
			used[f.Src] = true
		}
		for s := 0; s <= len(f.Updates); s++ {
			for _, e := range f.stageExprs(s) {
				e.walk(func(x *PExpr) bool {
					if x.Op == "call" || x.Op == "in" {
						used[x.N] = true
					}
					return true
				})
			}
		}
	}
	var fs []*PFunc
	for _, f := range p.Funcs {
		if used[f.Name] {
			fs = append(fs, f)
		}
	}
	p.Funcs = fs
	var ins []*PInput
	for _, in := range p.Inputs {
		if used[in.Name] {
			ins = append(ins, in)
		}
	}
	p.Inputs = ins
	var bs []PBound
	for _, b := range p.Bounds {
		if used[b.Func] {
			bs = append(bs, b)
		}
	}
	p.Bounds = bs
}
