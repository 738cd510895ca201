package fuzz

import (
	"fmt"
	"strings"
)

// A Prog is a random program: a pipeline of Funcs over inputs and
// Params, described as data so that it can be built with the halide API
// (Build), printed as Go (GoSource), evaluated by the fuzzer's own
// reference (eval.go), shrunk by the minimizer and saved as JSON in a
// Case. Prog.Algo turns it into an *Algo, so that the schedule generator,
// the Driver and the minimizer work on random programs as they do on the
// fixed algorithms.
type Prog struct {
	// Funcs, the output first; a Func calls only Funcs after it (the
	// boundary conditions come last).
	Funcs  []*PFunc  `json:"funcs"`
	Inputs []*PInput `json:"inputs,omitempty"`
	Params []*PParam `json:"params,omitempty"`
	// RDoms are the reduction domains; each update or inline reduction
	// has its own.
	RDoms []*PRDom `json:"rdoms,omitempty"`
	// Bounds are Func.Bound calls.
	Bounds []PBound `json:"bounds,omitempty"`
	// OutMin is the output's min in each dimension; the extents are the
	// Case's Sizes (so that the minimizer shrinks them).
	OutMin []int `json:"out_min"`
	// Chain marks a stencil chain (GenProg's deep programs): the schedule
	// generator draws more sliding windows for it.
	Chain bool `json:"chain,omitempty"`
	// Outputs are the outputs of a pipeline with several outputs other
	// than Funcs[0] (see outputs.go); MainAt is Funcs[0]'s position among
	// NewPipeline's arguments, the others following in this order.
	Outputs []*POutput `json:"outputs,omitempty"`
	MainAt  int        `json:"main_at,omitempty"`
}

// PFunc is a Func of a program: a pure definition and updates over the
// pure vars x, y, z (the first Dims), or a boundary condition of an input.
type PFunc struct {
	Name string `json:"name"`
	// Label, when set, is the name NewFunc gets instead of Name: another
	// Func's, an input's or a Param's, as a Halide helper called twice
	// names its Funcs alike. The pipeline renames the Func (Halide's
	// unique names); directives reach it by handle, so nothing else
	// changes.
	Label string `json:"label,omitempty"`
	Float bool   `json:"float,omitempty"`
	Dims  int    `json:"dims"`
	// BC is a boundary condition of input Src: "repeat" (RepeatEdge),
	// "const" (ConstantExterior with Exterior), "tile" (RepeatImage),
	// "mirror" (MirrorImage) or "mirror_int" (MirrorInterior); Pure and
	// Updates are then empty.
	BC       string  `json:"bc,omitempty"`
	Src      string  `json:"src,omitempty"`
	Exterior float64 `json:"exterior,omitempty"`
	// Region is the BC's region: nil for Src's whole buffer (no bounds
	// given), else one entry per dimension from the first, [min, extent]
	// or empty for a dimension without a condition (Unbounded); the
	// dimensions after the last entry have none either.
	Region  [][]int    `json:"region,omitempty"`
	Pure    *PExpr     `json:"pure,omitempty"`
	Updates []*PUpdate `json:"updates,omitempty"`
	// Tuple are the values of a Tuple Func after the first (Float, Pure
	// and the updates' Values are the first's): a call of the Func picks
	// one ("call" with V the value's index). Each update defines every
	// value with its Op (PlusEq, TimesEq, ... of a Tuple, value by value),
	// and value k reads the Func itself only at value k, so the values
	// reduce independently (what RFactor of a Tuple update needs, and
	// what lets the evaluator compute each value as a Func of its own).
	Tuple []*PValue `json:"tuple,omitempty"`
	// Implicit makes the dimensions after the first the implicit Vars
	// _0, _1 (halide.ImplicitVar): in f's definitions the vars y and z
	// are those, the pure definition is written f.Define(x,
	// halide.Implicit) (when its value uses the last of them: Implicit
	// on the left stands for the implicit Vars the value uses), an update
	// whose arguments after the first are the pure vars f.Define(a,
	// halide.Implicit), and calls marked I g.At(a, halide.Implicit). The
	// program holds the expansion (the evaluator computes it), so a run
	// checks the library's expansion against it.
	Implicit bool `json:"implicit,omitempty"`
}

// implicitNames are the names of the implicit Vars (halide.ImplicitVar).
var implicitNames = []string{"_0", "_1"}

// varName is the name of f's pure var of dimension d.
// label is the name NewFunc gets (Label, else Name).
func (f *PFunc) label() string {
	if f.Label != "" {
		return f.Label
	}
	return f.Name
}

func (f *PFunc) varName(d int) string {
	if f.Implicit && d > 0 {
		return implicitNames[d-1]
	}
	return varNames[d]
}

// varNames returns the names of f's pure vars.
func (f *PFunc) varNames() []string {
	out := make([]string, f.Dims)
	for d := range out {
		out[d] = f.varName(d)
	}
	return out
}

// PValue is a value of a Tuple Func after the first: its type, its pure
// definition and its value in each update.
type PValue struct {
	Float   bool     `json:"float,omitempty"`
	Pure    *PExpr   `json:"pure"`
	Updates []*PExpr `json:"updates,omitempty"`
}

// valueFloat says whether value k of f is float32.
func (f *PFunc) valueFloat(k int) bool {
	if k == 0 || k > len(f.Tuple) {
		return f.Float
	}
	return f.Tuple[k-1].Float
}

// element returns value k (> 0) of the Tuple Func f as a Func of one
// value, named f.Name#k: what the evaluator computes it as.
func (f *PFunc) element(k int) *PFunc {
	v := f.Tuple[k-1]
	e := &PFunc{Name: fmt.Sprintf("%s#%d", f.Name, k), Float: v.Float, Dims: f.Dims, Pure: v.Pure}
	for j, u := range f.Updates {
		e.Updates = append(e.Updates, &PUpdate{RDom: u.RDom, Args: u.Args, Op: u.Op, Value: v.Updates[j]})
	}
	return e
}

// PUpdate is an update definition: Args(...) Op Value, reducing over RDom
// (an index into Prog.RDoms, -1 for none).
type PUpdate struct {
	RDom  int      `json:"rdom"`
	Args  []*PExpr `json:"args"`
	Op    string   `json:"op"` // "=", "+=", "-=", "max=", "min=", "*=" (only of Tuple Funcs)
	Value *PExpr   `json:"value"`
}

// PInput is an ImageParam and the shape of the buffer the run binds to it.
type PInput struct {
	Name  string `json:"name"`
	Float bool   `json:"float,omitempty"`
	Mins  []int  `json:"mins"`
	Exts  []int  `json:"exts"`
}

// PParam is a scalar Param and its value.
type PParam struct {
	Name  string  `json:"name"`
	Float bool    `json:"float,omitempty"`
	Value float64 `json:"value"`
}

// PRDom is an RDom: one Range per dimension, and optionally a Where
// condition (a bool expression over its RVars and constants): the
// updates and inline reductions over it skip the points where it fails.
type PRDom struct {
	Name  string `json:"name"`
	Mins  []int  `json:"mins"`
	Exts  []int  `json:"exts"`
	Where *PExpr `json:"where,omitempty"`
}

// PBound is f.Bound(var Dim, Min, Ext), or f.BoundExtent(var Dim, Ext)
// when ExtOnly.
type PBound struct {
	Func    string `json:"func"`
	Dim     int    `json:"dim"`
	Min     int    `json:"min"`
	Ext     int    `json:"ext"`
	ExtOnly bool   `json:"ext_only,omitempty"`
}

// PExpr is an expression of a program. Op is one of:
//
//	"c" constant V; "v" pure var N (x, y, z); "r" RVar N (r0$x);
//	"p" Param N; "call" Func N at A; "in" input N at A;
//	"+", "-", "*", "/", "%", "min", "max" (2 args); "clamp" (3);
//	"sel" (cond, a, b); "<", "==" (2 args, bool); "cast" (to F);
//	"undef" (only as the third argument of an update's top-level "sel");
//	"sum", "maximum", "minimum" of A[0] over RDom R;
//	"argmax", "argmin" of A[0] over RDom R, value N of the Tuple: "v" the
//	extreme value (of A[0]'s type), "0", "1" the int32 coordinate of that
//	dimension of the RDom where it is first reached;
//	"&", "|", "^", "<<", ">>" (2 int args), "~" (1); "mux" (index, values...);
//	"popcount", "clz", "ctz" (1 int arg, counts of its 32 bits); "sin",
//	"tanh" (1 float arg), "atan2" (2), in double precision rounded to float32;
//	"trunc", "fract" (1 float arg: Trunc, Fract); "fx" (N "op:T": the
//	ints A[0] and A[1] converted to T, one of "i8", "u8", "i16", "u16",
//	"i32", "u32", then op: "sadd" SaturatingAdd, "ssub" SaturatingSub,
//	"hadd" HalvingAdd, "rhadd" RoundingHalvingAdd, "rshr"
//	RoundingShiftRight by A[1], "mulshr" MulShiftRight by the constant V,
//	"divz" DivRoundToZero, "modz" ModRoundToZero; the result converted
//	to int32);
//	"absd" (2 args; for ints, its uint32 result cast to int32); "lerp"
//	(zero, one, weight: floats, or ints with the weight N: "f" a float,
//	"u8", "u16", "u32" an int cast to that type); "sat" (SaturatingCast of
//	A[0] to the type N: "u8", "i8", "u16", "i16", "u32", "i32", then cast
//	to int32); "typed" (A[0] op A[1] computed in the type T, both
//	operands cast to T and the result cast back, N "T:op" with T one of
//	"f16", "bf16", "f64", "i64", "u64" and op one of "+", "-", "*", "/",
//	"%", "min", "max", "<", "=="); "tostore" (A[0] converted to the type
//	N, one of "f16", "bf16", "f64", "i64", "u64", "u8", "i16": the value of
//	a definition of a Func stored in that type) and "fromstore" (A[0], a
//	call of such a Func, converted back to float32 or int32 as F says).
//	"undef" with N set is of that type (an Undef arm of a stored Func).
//	A "call" of a Tuple Func reads its value V (AtTuple(...).Elem(V)).
//	"odim" is the output buffer's shape in dimension R (int32): N "ext"
//	(Dim(R).Extent(), printed Width, Height or Channels for dimension 0,
//	1, 2 when W is set), "min" (Dim(R).Min()) or "max" (Dim(R).Max()).
type PExpr struct {
	Op string   `json:"op"`
	F  bool     `json:"f,omitempty"` // the value is float32 (else int32, or bool for "<" and "==")
	V  float64  `json:"v,omitempty"`
	N  string   `json:"n,omitempty"`
	R  int      `json:"r,omitempty"`
	A  []*PExpr `json:"a,omitempty"`
	// I writes a "call" or "in" in an Implicit Func's definition with
	// halide.Implicit for its arguments after the first, which are the
	// pure vars y, z, ... in order (the implicit Vars _0, _1, ...).
	I bool `json:"i,omitempty"`
	// W prints an "odim" extent as Width, Height or Channels.
	W bool `json:"w,omitempty"`
}

var varNames = []string{"x", "y", "z"}

var rvarSuffix = []string{"x", "y", "z", "w"}

// rvarName is the name of dimension d of RDom r: "r0$x".
func rvarName(r *PRDom, d int) string { return r.Name + "$" + rvarSuffix[d] }

// Func returns the Func called name, or nil.
func (p *Prog) Func(name string) *PFunc {
	for _, f := range p.Funcs {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// Input returns the input called name, or nil.
func (p *Prog) Input(name string) *PInput {
	for _, in := range p.Inputs {
		if in.Name == name {
			return in
		}
	}
	return nil
}

// walk calls fn for e and every subexpression, parents first; fn returns
// false to skip the children.
func (e *PExpr) walk(fn func(*PExpr) bool) {
	if e == nil || !fn(e) {
		return
	}
	for _, a := range e.A {
		a.walk(fn)
	}
}

// exprs calls fn for every top-level expression of stage s of f (the
// value and the update's arguments).
func (f *PFunc) stageExprs(s int) []*PExpr {
	if s == 0 {
		if f.Pure == nil {
			return nil
		}
		out := []*PExpr{f.Pure}
		for _, v := range f.Tuple {
			out = append(out, v.Pure)
		}
		return out
	}
	u := f.Updates[s-1]
	out := append(append([]*PExpr(nil), u.Args...), u.Value)
	for _, v := range f.Tuple {
		out = append(out, v.Updates[s-1])
	}
	return out
}

// exprsOf lists the top-level expressions of f's definitions.
func (p *Prog) exprsOf(f *PFunc) []*PExpr {
	var out []*PExpr
	for s := 0; s <= len(f.Updates); s++ {
		out = append(out, f.stageExprs(s)...)
	}
	return out
}

// nArgs is the number of left-hand side arguments among stageExprs(s).
func (f *PFunc) nArgs(s int) int {
	if s == 0 {
		return 0
	}
	return len(f.Updates[s-1].Args)
}

// dropUpdate removes update k of f (of each of its values).
func (f *PFunc) dropUpdate(k int) {
	f.Updates = append(f.Updates[:k], f.Updates[k+1:]...)
	for _, v := range f.Tuple {
		v.Updates = append(v.Updates[:k], v.Updates[k+1:]...)
	}
}

// calls says whether the expressions call Func or input name.
func calls(es []*PExpr, name string) bool { return callsIn(es, name, true) }

// callsDirect says whether the expressions call Func or input name
// outside inline reductions (whose anonymous Func is the caller there).
func callsDirect(es []*PExpr, name string) bool { return callsIn(es, name, false) }

func callsIn(es []*PExpr, name string, reductions bool) bool {
	found := false
	for _, e := range es {
		e.walk(func(x *PExpr) bool {
			if (x.Op == "call" || x.Op == "in") && x.N == name {
				found = true
			}
			if !reductions && isReduction(x.Op) {
				return false
			}
			return !found
		})
	}
	return found
}

// isReduction says whether op is an inline reduction (an anonymous Func).
func isReduction(op string) bool {
	switch op {
	case "sum", "maximum", "minimum", "argmax", "argmin":
		return true
	}
	return false
}

// pureArg says whether update argument i is the bare pure var of
// dimension i.
func pureArg(a *PExpr, i int) bool { return a.Op == "v" && a.N == varNames[i] }

func hasOp(e *PExpr, ops ...string) bool {
	found := false
	e.walk(func(x *PExpr) bool {
		for _, o := range ops {
			if x.Op == o {
				found = true
			}
		}
		return !found
	})
	return found
}

// Algo returns the program as an *Algo for the schedule generator, the
// Driver and the minimizer. Its Build ignores the sizes (the output's
// extents are the Case's Sizes, used by the run).
func (p *Prog) Algo() *Algo {
	a := &Algo{Name: "prog", Known: map[string]string{"x": "x", "y": "y", "z": "z", "_0": "halide.ImplicitVar(0)", "_1": "halide.ImplicitVar(1)"}}
	if p.Chain {
		a.PWindow = 0.6
	}
	for i := range p.OutMin {
		a.SizeNames = append(a.SizeNames, "out"+varNames[i])
	}
	for _, r := range p.RDoms {
		for d := range r.Mins {
			a.Known[rvarName(r, d)] = fmt.Sprintf("%s.%s()", r.Name, strings.ToUpper(rvarSuffix[d]))
		}
	}
	for _, f := range p.Funcs {
		fs := FuncSpec{Name: f.Name}
		fs.Stages = append(fs.Stages, StageSpec{Dims: f.pureDims()})
		for _, u := range f.Updates {
			// An update over an RDom with +=, max= or min= reduces
			// associatively (if its value reads the Func only at the
			// point it writes, which rfactor checks).
			st := StageSpec{Assoc: u.RDom >= 0 && u.Op != "="}
			if u.RDom >= 0 {
				r := p.RDoms[u.RDom]
				for d := range r.Mins {
					st.Dims = append(st.Dims, DimSpec{Name: rvarName(r, d), RVar: true})
				}
			}
			for i, arg := range u.Args {
				if pureArg(arg, i) {
					st.Dims = append(st.Dims, DimSpec{Name: f.varName(i)})
				} else if hasOp(arg, "call", "in") {
					st.Scatter = true
				}
			}
			fs.Stages = append(fs.Stages, st)
		}
		for _, g := range p.Funcs {
			var cs []int
			for s := 0; s <= len(g.Updates); s++ {
				if g != f && g.BC == "" && callsDirect(g.stageExprs(s), f.Name) {
					fs.Consumers = append(fs.Consumers, StageRef{g.Name, s})
					cs = append(cs, s)
				}
			}
			if cs != nil {
				a.Wraps = append(a.Wraps, WrapSpec{Src: f.Name, Consumer: g.Name, Dims: f.varNames(), ConsumerStages: cs})
			}
			for s := 0; s <= len(g.Updates) && cs == nil; s++ {
				if g != f && g.BC == "" && callsIn(g.stageExprs(s), f.Name, true) {
					fs.ReducedIn = append(fs.ReducedIn, g.Name)
					break
				}
			}
		}
		a.Funcs = append(a.Funcs, fs)
	}
	for _, in := range p.Inputs {
		for _, g := range p.Funcs {
			var cs []int
			for s := 0; s <= len(g.Updates); s++ {
				if g.BC == "" && callsDirect(g.stageExprs(s), in.Name) {
					cs = append(cs, s)
				}
			}
			if cs != nil {
				a.Wraps = append(a.Wraps, WrapSpec{Src: in.Name, Consumer: g.Name, Dims: varNames[:len(in.Mins)], ConsumerStages: cs})
			}
		}
	}
	for _, o := range p.Outputs {
		a.Outputs = append(a.Outputs, o.Func)
	}
	a.Build = func([]int) *Instance { return p.build() }
	a.Source = func(sizes []int) string { return p.algoSource(sizes) }
	return a
}

func (f *PFunc) pureDims() []DimSpec {
	out := make([]DimSpec, f.Dims)
	for i := range out {
		out[i] = DimSpec{Name: f.varName(i)}
	}
	return out
}

// clone returns a deep copy of p (through JSON-free recursion).
func (p *Prog) clone() *Prog {
	q := &Prog{OutMin: append([]int(nil), p.OutMin...), Bounds: append([]PBound(nil), p.Bounds...), Chain: p.Chain, MainAt: p.MainAt}
	for _, o := range p.Outputs {
		q.Outputs = append(q.Outputs, &POutput{Func: o.Func, Min: append([]int(nil), o.Min...), Ext: append([]int(nil), o.Ext...)})
	}
	for _, f := range p.Funcs {
		g := *f
		g.Pure = f.Pure.clone()
		g.Updates = nil
		for _, u := range f.Updates {
			v := *u
			v.Args = nil
			for _, a := range u.Args {
				v.Args = append(v.Args, a.clone())
			}
			v.Value = u.Value.clone()
			g.Updates = append(g.Updates, &v)
		}
		g.Tuple = nil
		for _, t := range f.Tuple {
			c := &PValue{Float: t.Float, Pure: t.Pure.clone()}
			for _, u := range t.Updates {
				c.Updates = append(c.Updates, u.clone())
			}
			g.Tuple = append(g.Tuple, c)
		}
		q.Funcs = append(q.Funcs, &g)
	}
	for _, in := range p.Inputs {
		c := *in
		c.Mins, c.Exts = append([]int(nil), in.Mins...), append([]int(nil), in.Exts...)
		q.Inputs = append(q.Inputs, &c)
	}
	for _, pa := range p.Params {
		c := *pa
		q.Params = append(q.Params, &c)
	}
	for _, r := range p.RDoms {
		c := *r
		c.Mins, c.Exts = append([]int(nil), r.Mins...), append([]int(nil), r.Exts...)
		c.Where = r.Where.clone()
		q.RDoms = append(q.RDoms, &c)
	}
	return q
}

func (e *PExpr) clone() *PExpr {
	if e == nil {
		return nil
	}
	c := *e
	c.A = nil
	for _, a := range e.A {
		c.A = append(c.A, a.clone())
	}
	return &c
}

// typeErr returns the first node of p whose type does not follow the
// rules of its operation (the generator's invariant), or "".
func (p *Prog) typeErr() string {
	var bad string
	isBool := func(e *PExpr) bool { return e.Op == "<" || e.Op == "==" }
	var check func(e *PExpr)
	check = func(e *PExpr) {
		if bad != "" {
			return
		}
		same := func(as ...*PExpr) {
			for _, a := range as {
				if a.F != e.F || isBool(a) {
					bad = fmt.Sprintf("%s (f=%v) has an operand %s (f=%v)", e.Op, e.F, a.Op, a.F)
				}
			}
		}
		switch e.Op {
		case "+", "-", "*", "/", "%", "min", "max", "clamp", "sum", "maximum", "minimum":
			same(e.A...)
		case "argmax", "argmin":
			if e.N == "v" {
				same(e.A...)
			} else if e.F || isBool(e.A[0]) {
				bad = e.Op + " coordinate of a bool or as a float"
			}
		case "sel":
			same(e.A[1:]...)
		case "&", "|", "^", "<<", ">>", "~", "popcount", "clz", "ctz":
			if e.F {
				bad = e.Op + " of floats"
			}
			same(e.A...)
		case "sin", "tanh", "atan2", "trunc", "fract":
			if !e.F {
				bad = e.Op + " of ints"
			}
			same(e.A...)
		case "absd", "typed":
			same(e.A...)
		case "lerp":
			same(e.A[:2]...)
			if w := e.A[2]; isBool(w) || w.F != (e.F || e.N == "f") {
				bad = "lerp with a weight of the wrong type"
			}
		case "mux":
			same(e.A[1:]...)
			if a := e.A[0]; a.F || isBool(a) {
				bad = "mux with a non-int index"
			}
		case "fx":
			same(e.A...)
			op, t, _ := strings.Cut(e.N, ":")
			_, okOp := fxFuncs[op]
			if _, okT := satType[t]; !okOp || !okT || e.F || isBool(e.A[0]) {
				bad = "fx " + e.N + " of floats or of an unknown op or type"
			}
		case "sat":
			if e.F || isBool(e.A[0]) {
				bad = "sat of a bool or to a float"
			}
		case "<", "==":
			same(e.A...)
		case "call", "in":
			for _, a := range e.A {
				if a.F || isBool(a) {
					bad = fmt.Sprintf("%s %s has a non-int argument %s", e.Op, e.N, a.Op)
				}
			}
			if f := p.Func(e.N); f != nil && (f.valueFloat(int(e.V)) != e.F || int(e.V) < 0 || int(e.V) > len(f.Tuple)) {
				bad = "call of " + e.N + " with the wrong type"
			}
			if in := p.Input(e.N); in != nil && in.Float != e.F {
				bad = "read of " + e.N + " with the wrong type"
			}
		case "v", "r":
			if e.F {
				bad = "a float var"
			}
		}
		for _, a := range e.A {
			check(a)
		}
	}
	for _, f := range p.Funcs {
		for s := 0; s <= len(f.Updates); s++ {
			for i, e := range f.stageExprs(s) {
				check(e)
				value := i >= f.nArgs(s)
				if value && (e.F != f.valueFloat(i-f.nArgs(s)) || isBool(e)) && bad == "" {
					bad = fmt.Sprintf("stage %d of %s has a value of the wrong type", s, f.Name)
				}
				if !value && (e.F || isBool(e)) && bad == "" {
					bad = fmt.Sprintf("stage %d of %s has a non-int argument", s, f.Name)
				}
			}
		}
		if bad != "" {
			return f.Name + ": " + bad
		}
	}
	return ""
}
