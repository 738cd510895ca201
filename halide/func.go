package halide

import (
	"fmt"
	"math"
	"strings"
	"sync/atomic"

	"github.com/gohalide/gohalide/ir"
)

// Func is a function over integer coordinates: the unit of an algorithm and
// of a schedule. Give it a pure definition with Define(vars...).Is(value),
// then any number of updates with Define(args...).Is / PlusEq / ...
type Func struct {
	fn  *ir.Function
	err error
	// wrappers are the Funcs made by In, by consumer.
	wrappers map[*Func]*Func
	// wrapped is the Func this one wraps (set on wrappers).
	wrapped *Func
	// inputWrapper marks a wrapper of an ImageParam (ImageParam.In), whose
	// Vars x, y, ... its directives may also name _0, _1, ..., as Halide
	// names them (implicitName).
	inputWrapper bool
	// clone marks a Func made by CloneIn (registered in wrappers like a
	// wrapper, but a copy of the Func's definitions).
	clone bool
	// gen is the Func's generation: it changes with every definition and
	// directive (on the Func or any of its stages), so that a Pipeline
	// sees that a Func changed after it compiled (see Pipeline.stale).
	gen uint64
	// rfactors counts the intermediates RFactor made of the Func's
	// updates, which name them (f_intm, f_intm_1, ...).
	rfactors int
}

// generations hands out Func (and ImageParam) generations.
var generations atomic.Uint64

// begin is the start of every method that defines or schedules f: it
// returns the Func to work on and moves it to a new generation. A nil f
// gives a new Func that carries an ErrNilObject error (so a pipeline
// made of it says what went wrong); a zero Func (not made by NewFunc) gets
// an empty function and records the same error, which Lower returns.
// The first Var of vs made with a bad name records its ErrBadName error
// on the Func, with the directive.
func (f *Func) begin(directive string, vs ...VarOrRVar) *Func {
	f = f.beginFunc(directive)
	for _, v := range vs {
		if n, ok := v.(interface{ nameErr() error }); ok && n.nameErr() != nil {
			f.fail(withFunc(n.nameErr(), f.fn.Name, directive))
			break
		}
	}
	return f
}

// beginFunc is begin without vs: the nil and zero cases and the new
// generation.
func (f *Func) beginFunc(directive string) *Func {
	if f == nil {
		g := newFunc("")
		g.fail(ir.Errorf(ir.ErrNilObject, "", directive, "%s of a nil *Func", directive).
			WithLegal("a Func made by NewFunc"))
		g.gen = generations.Add(1)
		return g
	}
	if f.fn == nil {
		f.fn = &ir.Function{}
		f.fail(ir.Errorf(ir.ErrNilObject, "", directive, "%s of a zero Func (one not made by NewFunc)", directive).
			WithLegal("a Func made by NewFunc"))
	}
	f.gen = generations.Add(1)
	return f
}

// nilErr returns the ErrNilObject error of a nil or zero f, or nil.
func (f *Func) nilErr(directive string) error {
	switch {
	case f == nil:
		return ir.Errorf(ir.ErrNilObject, "", directive, "%s of a nil *Func", directive).WithLegal("a Func made by NewFunc")
	case f.fn == nil:
		return ir.Errorf(ir.ErrNilObject, "", directive, "%s of a zero Func (one not made by NewFunc)", directive).WithLegal("a Func made by NewFunc")
	}
	return nil
}

var anonCount atomic.Int64

// NewFunc returns an undefined Func called name. Names must be unique within
// a pipeline, not empty, and free of '.' and '$' (see checkName); a bad
// name is an ErrBadName error that the pipeline returns.
func NewFunc(name string) *Func {
	f := newFunc(name)
	if err := checkName("Func", "NewFunc", name); err != nil {
		f.fail(withFunc(err, name, "NewFunc"))
	}
	return f
}

// newFunc is NewFunc without the check of the name, for the Funcs the
// library names itself (wrappers, anonymous reductions).
func newFunc(name string) *Func {
	return &Func{fn: &ir.Function{Name: name}}
}

// checkName returns the ErrBadName error of a name a user gives a Func,
// Var, RVar, RDom, Param or ImageParam (kind), made by constructor, or
// nil. The compiler joins names with '.' (blur.s0.x is the loop x of
// stage 0 of blur) and names RVars and anonymous Funcs with '$' (r$x,
// sum$1): a user's name with either could collide with one of its own
// (NewFunc("blur.s0") and the stage s0 of blur).
func checkName(kind, constructor, name string) error {
	var why string
	switch i := strings.IndexAny(name, ".$"); {
	case name == "":
		why = "is empty"
	case i >= 0:
		why = fmt.Sprintf("contains %q", name[i])
	default:
		return nil
	}
	return ir.Errorf(ir.ErrBadName, "", constructor, "the name %q of %s %s", name, kind, why).
		WithLegal("a non-empty name without '.' or '$' (the compiler uses them in the names it makes: blur.s0.x, r$x, sum$1), for example %q", suggestName(name))
}

// suggestName replaces the characters checkName refuses by '_'.
func suggestName(name string) string {
	if name == "" {
		return "f"
	}
	return strings.NewReplacer(".", "_", "$", "_").Replace(name)
}

func newAnonFunc(prefix string) *Func {
	f := newFunc(fmt.Sprintf("%s$%d", prefix, anonCount.Add(1)))
	f.fn.Anonymous = true
	return f
}

// Name returns the Func's name ("" for a nil or zero Func).
func (f *Func) Name() string {
	if f.nilErr("") != nil {
		return ""
	}
	return f.fn.Name
}

// Args returns the Vars of the Func's pure definition, in order (Halide's
// Func::args()); nil before it has one.
func (f *Func) Args() []Var {
	if f.nilErr("") != nil || f.fn.Pure == nil {
		return nil
	}
	vs := make([]Var, len(f.fn.Args))
	for i, a := range f.fn.Args {
		vs[i] = newVar(a)
	}
	return vs
}

// Type returns the type of the Func's values (valid once defined); for a
// Tuple Func, the type of its first value (Types lists them all).
func (f *Func) Type() Type {
	if f.nilErr("") != nil {
		return Type{}
	}
	return f.fn.T
}

// Dims returns the number of pure arguments (0 before the pure definition).
func (f *Func) Dims() int {
	if f.nilErr("") != nil {
		return 0
	}
	return len(f.fn.Args)
}

// Defined reports whether the Func has a pure definition.
func (f *Func) Defined() bool { return f.nilErr("") == nil && f.fn.Pure != nil }

// Err returns the first error recorded by a definition or directive (for
// a nil or zero Func, an ErrNilObject error).
func (f *Func) Err() error {
	if f == nil || (f.fn == nil && f.err == nil) {
		return f.nilErr("Err")
	}
	return f.err
}

func (f *Func) fail(err error) {
	if f.err == nil && err != nil {
		f.err = err
	}
}

func (f *Func) failf(code ir.ErrorCode, directive, format string, args ...any) {
	f.fail(ir.Errorf(code, f.fn.Name, directive, format, args...))
}

// At calls the Func at the given coordinates. A call of a Tuple Func
// picks a value: f.AtTuple(args...).Elem(i); At of one is an ErrTuple error.
func (f *Func) At(args ...any) Expr {
	c := f.call(args)
	if c.err == nil && f.fn.IsTuple() {
		return Expr{err: errTupleCall(f.fn, "call")}
	}
	return c
}

// call is the call of f at args (of value 0 for a Tuple Func).
func (f *Func) call(args []any) Expr {
	if err := f.nilErr("call"); err != nil {
		return Expr{err: err}
	}
	if f.err != nil {
		return Expr{err: f.err}
	}
	if f.fn.Pure == nil {
		return Expr{err: ir.Errorf(ir.ErrUndefined, f.fn.Name, "call", "Func %s is called before it has a definition", f.fn.Name)}
	}
	args, err := expandImplicit(f.fn.Name, "call", "Func "+f.fn.Name, len(f.fn.Args), args)
	if err != nil {
		return Expr{err: err}
	}
	if len(args) != len(f.fn.Args) {
		return Expr{err: ir.Errorf(ir.ErrArgCount, f.fn.Name, "call", "Func %s has %d arguments (%s) but is called with %d", f.fn.Name, len(f.fn.Args), strings.Join(f.fn.Args, ", "), len(args))}
	}
	as, err := indexArgs(f.fn.Name, "call", f.fn.Name, args)
	if err != nil {
		return Expr{err: err}
	}
	return Expr{node: &ir.Call{T: f.fn.T, Kind: ir.CallFunc, Name: f.fn.Name, Args: as, Ref: f}}
}

// toExpr lets a zero-dimensional Func be used as an Expr.
func (f *Func) toExpr() Expr {
	if err := f.nilErr("Expr"); err != nil {
		return Expr{err: err}
	}
	return f.At()
}

// Definer is the left-hand side of a definition; finish it with Is, PlusEq,
// MinusEq, TimesEq, DivEq, MinEq or MaxEq. Elem narrows it to one value of
// a Tuple Func.
type Definer struct {
	f    *Func
	args []any
	// elem, where hasElem is set, is the value of the Tuple Func that the
	// definition updates alone (Elem); elems counts the Elem calls, of
	// which only one is legal.
	elem    int
	hasElem bool
	elems   int
}

// Define starts a definition of f at args. The first definition of a Func is
// its pure definition, whose arguments must be distinct Vars; later ones are
// updates, whose arguments may be any integer expressions (a scatter).
func (f *Func) Define(args ...any) Definer { return Definer{f: f, args: args} }

// Is defines f(args) = value. On a Func that has a pure definition it is
// an update, as in Halide, whatever its arguments: f(x) = x then
// f(x) = x * 2 stores x * 2 over the first (it need not read f), and
// h(x) = Select(c, v, Undef(t)) stores v where c holds. An update's
// arguments that are the pure Vars in their places are its pure
// dimensions; a pure Var may appear in other arguments too (g(x, x)
// with g(x, y) pure writes the diagonal, looping over x alone).
//
// A Tuple value (NewTuple, SelectTuple, AtTuple) defines a Tuple Func: the
// pure definition fixes the number and types of the values, and every
// update gives all of them again, computed from the old values before any
// is stored (see Tuple). As in Halide, an update's value that is Undef (or
// an expression of Undef) keeps its old value, and an Undef arm of a
// Select in a value stores the value only where the other arm is taken:
// Tuple(f(x)[0] + 1, Undef(t)) updates value 0 alone. A pure definition's
// Undef value holds 0 (Halide leaves it undefined) until an update writes
// it.
func (d Definer) Is(value any) *Func {
	if d.hasElem {
		return d.elemUpdate(nil, "Is", value)
	}
	f := d.f.begin("Define")
	if f.frozen("Define") {
		return f
	}
	var v Expr
	switch t := value.(type) {
	case Tuple:
		dir := "Define"
		if f.fn.Pure != nil {
			dir = "Define (update)"
		}
		var err error
		if v, err = f.tupleValue(t, dir); err != nil {
			f.fail(err)
			return f
		}
	default:
		v = E(value)
		if v.err == nil && f.fn.Pure != nil && f.fn.IsTuple() {
			f.fail(ir.Errorf(ir.ErrTuple, f.fn.Name, "Define (update)", "%s is a Tuple Func of %d values; the update gives one value, %s", f.fn.Name, len(f.fn.Types), v).
				WithLegal("an update that gives every value: %s.Define(...).Is(NewTuple(...)) with %d values of types %s", f.fn.Name, len(f.fn.Types), typeList(f)))
			return f
		}
	}
	if v.err == nil {
		args, err := f.expandLHS("Define", d.args, v.node)
		if err != nil {
			f.fail(err)
			return f
		}
		d.args = args
	}
	switch {
	case f.fn.Pure == nil:
		f.definePure(d.args, v)
	default:
		f.defineUpdate(d.args, v, nil)
	}
	return f
}

func (d Definer) reduce(op ir.BinOp, name string, value any) *Func {
	if d.hasElem {
		return d.elemUpdate(&op, name, value)
	}
	f := d.f.begin(name)
	if f.frozen(name) {
		return f
	}
	if f.fn.Pure == nil {
		f.defineBaseCase(op, name, d.args, value)
		if f.err != nil {
			return f
		}
	}
	var rhs []ir.Expr
	if t, ok := value.(Tuple); ok {
		for i := 0; i < t.Len(); i++ {
			rhs = append(rhs, t.Elem(i).node)
		}
	} else {
		rhs = append(rhs, E(value).node)
	}
	args, err := f.expandLHS(name, d.args, rhs...)
	if err != nil {
		f.fail(err)
		return f
	}
	d.args = args
	if f.fn.IsTuple() {
		// Element by element, as Halide's f(x) += Tuple(a, b): every value
		// is combined with its own, all computed before any is stored.
		t, ok := value.(Tuple)
		if !ok || t.err != nil || t.Len() != len(f.fn.Types) {
			what := fmt.Sprintf("one value, %v", E(value))
			switch {
			case ok && t.err != nil:
				f.fail(withFunc(t.err, f.fn.Name, name))
				return f
			case ok:
				what = fmt.Sprintf("a Tuple of %d values", t.Len())
			}
			f.fail(ir.Errorf(ir.ErrTuple, f.fn.Name, name, "%s of the Tuple Func %s, which has %d values, with %s", name, f.fn.Name, len(f.fn.Types), what).
				WithLegal("%s with a Tuple of %d values (NewTuple), combined with %s's values one by one", name, len(f.fn.Types), f.fn.Name))
			return f
		}
		old := f.AtTuple(d.args...)
		vals := make([]any, t.Len())
		for i := range vals {
			vals[i] = binary(op, old.Elem(i), t.Elem(i))
		}
		v, err := f.tupleValue(NewTuple(vals...), name)
		if err != nil {
			f.fail(err)
			return f
		}
		f.defineUpdate(d.args, v, nil)
		return f
	}
	f.defineUpdate(d.args, E(value), &op)
	return f
}

// defineBaseCase gives f, which has no pure definition, the one Halide's
// f(args) op= value gives it (see PlusEq): the identity of op, of value's
// type (each value's, for a Tuple), over the Vars of args.
func (f *Func) defineBaseCase(op ir.BinOp, directive string, args []any, value any) {
	var vals []Expr
	if t, ok := value.(Tuple); ok {
		if t.err != nil {
			f.fail(withFunc(t.err, f.fn.Name, directive))
			return
		}
		for i := 0; i < t.Len(); i++ {
			vals = append(vals, t.Elem(i))
		}
	} else {
		vals = []Expr{E(value)}
	}
	var rhs []ir.Expr
	for _, v := range vals {
		if v.err != nil {
			f.fail(withFunc(v.err, f.fn.Name, directive))
			return
		}
		rhs = append(rhs, v.node)
	}
	args, err := f.expandLHS(directive, args, rhs...)
	if err != nil {
		f.fail(err)
		return
	}
	pure := make([]any, len(args))
	seen := map[string]bool{}
	for i, a := range args {
		if v, ok := a.(Var); ok && v.err == nil && !seen[v.name] {
			seen[v.name] = true
			pure[i] = v
		}
	}
	for i := range pure {
		if pure[i] == nil {
			name := fmt.Sprintf("%s_v%d", f.fn.Name, i)
			for seen[name] {
				name += "_"
			}
			seen[name] = true
			pure[i] = NewVar(name)
		}
	}
	inits := make([]any, len(vals))
	for i, v := range vals {
		switch op {
		case ir.Add, ir.Sub:
			inits[i] = identity(ir.Add, v.Type())
		case ir.Mul, ir.Div:
			inits[i] = identity(ir.Mul, v.Type())
		case ir.Min, ir.Max:
			inits[i] = identity(op, v.Type())
		default:
			f.failf(ir.ErrDefinition, directive, "%s needs a pure definition of %s first", directive, f.fn.Name)
			return
		}
	}
	var init any = inits[0]
	if len(inits) > 1 {
		init = NewTuple(inits...)
	}
	Definer{f: f, args: pure}.Is(init)
}

// PlusEq defines the update f(args) = f(args) + value. For a Tuple Func,
// value is a Tuple of as many values, added value by value (as Halide's
// f(x) += Tuple(a, b)); so for MinusEq, TimesEq, DivEq, MinEq and MaxEq.
//
// As in Halide, f(args) + value is typed as written (an int32 f plus a
// uint8 value is int32), and must have f's type. On a Func with no pure
// definition yet, PlusEq and MinusEq first define f(args) = 0, TimesEq
// and DivEq f(args) = 1, MinEq the largest value of value's type and MaxEq
// the smallest (the op's identity; Halide has no min= or max=), of
// value's type, over the Vars of args (a fresh Var where an argument is
// not a Var), as Halide's f(x) += e does.
func (d Definer) PlusEq(value any) *Func { return d.reduce(ir.Add, "PlusEq", value) }

// MinusEq defines the update f(args) = f(args) - value.
func (d Definer) MinusEq(value any) *Func { return d.reduce(ir.Sub, "MinusEq", value) }

// TimesEq defines the update f(args) = f(args) * value.
func (d Definer) TimesEq(value any) *Func { return d.reduce(ir.Mul, "TimesEq", value) }

// DivEq defines the update f(args) = f(args) / value.
func (d Definer) DivEq(value any) *Func { return d.reduce(ir.Div, "DivEq", value) }

// MinEq defines the update f(args) = min(f(args), value).
func (d Definer) MinEq(value any) *Func { return d.reduce(ir.Min, "MinEq", value) }

// MaxEq defines the update f(args) = max(f(args), value).
func (d Definer) MaxEq(value any) *Func { return d.reduce(ir.Max, "MaxEq", value) }

func (f *Func) definePure(args []any, value Expr) {
	name := f.fn.Name
	if value.err != nil {
		f.fail(withFunc(value.err, name, "Define"))
		return
	}
	vars := make([]string, len(args))
	seen := map[string]bool{}
	irArgs := make([]ir.Expr, len(args))
	for i, a := range args {
		v, ok := a.(Var)
		if !ok {
			if rv, isR := a.(RVar); isR {
				f.failf(ir.ErrDefinition, "Define", "argument %d of the pure definition is the RVar %s; a pure definition takes only Vars (use an update to reduce over an RDom)", i, rv.name)
			} else {
				f.failf(ir.ErrDefinition, "Define", "argument %d of the pure definition is %T; a pure definition takes only distinct Vars (use an update for other left-hand sides)", i, a)
			}
			return
		}
		if v.err != nil {
			f.fail(withFunc(v.err, name, "Define"))
			return
		}
		if seen[v.name] {
			f.failf(ir.ErrDefinition, "Define", "Var %s appears twice on the left-hand side; pure arguments must be distinct", v.name)
			return
		}
		seen[v.name] = true
		vars[i] = v.name
		irArgs[i] = v.node
	}
	lowerRandom(irArgs, &value.node)
	// Undef in an arm of Selects at the top of the value stores the value
	// only where the other arm is taken, as in Halide (an output keeps
	// what its buffer holds at the other points): the condition becomes
	// the definition's predicate.
	var pred ir.Expr
	if vs := ir.TupleValues(value.node); len(vs) > 1 && containsUndef(value.node) {
		// A Tuple whose values are each Select(c, v, Undef) with one
		// condition c (a boundary condition's exterior of Undefs) stores
		// where c holds; values that differ in where they are Undef
		// cannot share the one predicate of a definition.
		peeled := make([]ir.Expr, len(vs))
		ok := true
		for i, e := range vs {
			v, cond, okI := peelUndef(e)
			if !okI || v == nil || i > 0 && !sameCond(cond, pred) {
				ok = false
				break
			}
			peeled[i], pred = v, cond
		}
		if !ok {
			f.failf(ir.ErrDefinition, "Define", "the pure definition's Tuple has Undef inside its values where they are not all Select(c, v, Undef) with one condition c: %s", value)
			f.err.(*ir.Error).Legal = "Undef as the whole value of the pure definition, or each value of the Tuple Select(c, v, Undef) with the same c (stores the Tuple where c holds); or Undef values in updates, where each value may be left as it was"
			return
		}
		value.node = ir.MakeTuple(peeled)
	} else if !ir.IsUndef(value.node) && containsUndef(value.node) {
		v, cond, ok := peelUndef(value.node)
		if !ok || len(ir.TupleValues(value.node)) > 1 {
			f.failf(ir.ErrDefinition, "Define", "the pure definition has Undef inside its value, not as the whole value, an arm of a top-level Select or an operand of arithmetic (which is Undef then): %s", value)
			f.err.(*ir.Error).Legal = "Undef as the whole value of the pure definition (its updates then write the values), or as an arm of Selects at the top of a value (f(x) = Select(c, v, Undef(t)) stores v where c holds); arithmetic and casts of Undef are Undef"
			return
		}
		if v == nil { // Undef in every arm: as Undef(t)
			v, cond = Undef(value.Type()).node, nil
		}
		value.node, pred = v, cond
	}
	var bad error
	ir.WalkExprOnce(value.node, func(e ir.Expr) bool {
		if v, ok := e.(*ir.Var); ok && bad == nil {
			switch {
			case v.RDom != nil:
				bad = ir.Errorf(ir.ErrDefinition, name, "Define", "the pure definition uses the RVar %s; RVars belong in updates (or inline reductions such as Sum)", v.Name).
					WithLegal("use the Vars %s", strings.Join(vars, ", "))
			case v.Param == nil && !seen[v.Name]:
				bad = ir.Errorf(ir.ErrDefinition, name, "Define", "the right-hand side uses Var %s, which is not an argument", v.Name).
					WithLegal("the Vars %s", strings.Join(vars, ", "))
			}
		}
		return bad == nil
	})
	if bad != nil {
		f.fail(bad)
		return
	}
	f.fn.Args = vars
	f.fn.T = value.Type()
	if vs := ir.TupleValues(value.node); len(vs) > 1 {
		f.fn.Types = make([]ir.Type, len(vs))
		for i, e := range vs {
			f.fn.Types[i] = e.Type()
		}
	}
	dims := make([]ir.Dim, len(vars))
	for i, v := range vars {
		dims[i] = ir.Dim{Name: v}
	}
	f.fn.Pure = &ir.Definition{Args: irArgs, Value: value.node, Predicate: pred, Schedule: ir.StageSchedule{Dims: dims}}
}

// sameCond reports whether two predicates of peelUndef are one: both
// absent, or equal expressions.
func sameCond(a, b ir.Expr) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return ir.Equal(a, b)
}

func withFunc(err error, fn, directive string) error {
	if e, ok := err.(*ir.Error); ok {
		c := *e
		if c.Func == "" {
			c.Func = fn
		}
		if c.Directive == "" || c.Directive == "Expr" {
			c.Directive = directive
		}
		return &c
	}
	return err
}

func (f *Func) defineUpdate(args []any, value Expr, op *ir.BinOp) {
	name := f.fn.Name
	const dir = "Define (update)"
	if value.err != nil {
		f.fail(withFunc(value.err, name, dir))
		return
	}
	if len(args) != len(f.fn.Args) {
		f.failf(ir.ErrArgCount, dir, "the update has %d arguments but %s has %d (%s)", len(args), name, len(f.fn.Args), strings.Join(f.fn.Args, ", "))
		return
	}
	irArgs, err := indexArgs(name, dir, name, args)
	if err != nil {
		f.fail(withFunc(err, name, dir))
		return
	}
	if op != nil {
		// f(args) op value, typed as Halide types it (an int32 f plus a
		// uint8 value is int32); the result must be of f's type.
		self := Expr{node: &ir.Call{T: f.fn.T, Kind: ir.CallFunc, Name: name, Args: irArgs, Ref: f}}
		v := value
		if ir.IsConst(v.node) && v.Type() != f.fn.T {
			if !constConverts(v.node, f.fn.T) {
				f.failf(ir.ErrType, dir, "the update's value %s does not convert to %s, the type of %s, without changing", v, f.fn.T, name)
				f.err.(*ir.Error).Legal = fmt.Sprintf("a constant %s holds exactly, or an explicit Cast(%s, ...)", f.fn.T, f.fn.T)
				return
			}
			v = Expr{node: ir.Const(f.fn.T, constValue(v.node))}
		}
		if value = binary(*op, self, v); value.err != nil {
			f.fail(withFunc(value.err, name, dir))
			return
		}
		if value.Type() != f.fn.T {
			f.failf(ir.ErrType, dir, "the update's value, %s(args) %s %s, has type %s but %s has type %s", name, op, v, value.Type(), name, f.fn.T)
			f.err.(*ir.Error).Legal = fmt.Sprintf("a value that converts to %s implicitly (a narrower integer), or an explicit Cast(%s, ...)", f.fn.T, f.fn.T)
			return
		}
	}
	if f.fn.IsTuple() {
		value = Expr{node: keepOldValues(f, irArgs, value.node)}
	}
	if ir.IsUndef(value.node) {
		value = Undef(f.fn.T) // no value: of f's type
	}
	if value.Type() != f.fn.T {
		if ir.IsConst(value.node) {
			if !constConverts(value.node, f.fn.T) {
				f.failf(ir.ErrType, dir, "the update's value %s does not convert to %s, the type of %s, without changing", value, f.fn.T, name)
				f.err.(*ir.Error).Legal = fmt.Sprintf("a constant %s holds exactly, or an explicit Cast(%s, ...)", f.fn.T, f.fn.T)
				return
			}
			value = Expr{node: ir.Const(f.fn.T, constValue(value.node))}
		} else {
			f.failf(ir.ErrType, dir, "the update's value has type %s but %s has type %s", value.Type(), name, f.fn.T)
			return
		}
	}
	// Pure dimensions: bare Vars of the pure definition, in their position
	// (Halide's define_update). A pure Var may also appear inside other
	// arguments, a bare Var elsewhere included: g(x, x) with g(x, y) pure
	// is pure in x alone and writes the diagonal, one point per x, as a
	// scatter in dimension 1 would. Every other Var is refused below.
	pure := map[string]bool{}
	for i, a := range args {
		if v, ok := a.(Var); ok && v.err == nil && v.name == f.fn.Args[i] {
			pure[v.name] = true
		}
	}
	var dom *ir.ReductionDomain
	var bad error
	where := "" // what check is looking at, for its message
	check := func(e ir.Expr) {
		ir.WalkExprOnce(e, func(e ir.Expr) bool {
			v, ok := e.(*ir.Var)
			if !ok || bad != nil {
				return bad == nil
			}
			switch {
			case v.RDom != nil:
				if dom == nil {
					dom = v.RDom
				} else if dom != v.RDom {
					bad = ir.Errorf(ir.ErrDefinition, name, dir, "the update uses RVars of two RDoms (%s and %s); an update iterates over one RDom", dom.Name, v.RDom.Name)
				}
			case v.Param != nil:
			case !pure[v.Name]:
				bad = ir.Errorf(ir.ErrDefinition, name, dir, "the update uses Var %s%s, which is not a pure argument on its left-hand side%s", v.Name, where, misplaced(f.fn.Args, args, v.Name)).
					WithLegal("Vars that appear bare on the left-hand side in their pure position, or RVars")
			}
			return bad == nil
		})
	}
	for _, a := range irArgs {
		check(a)
	}
	check(value.node)
	if dom != nil && bad == nil {
		if dom.Err != nil {
			bad = dom.Err
		} else if dom.Predicate != nil {
			where = " (in the Where condition of RDom " + dom.Name + ")"
			check(dom.Predicate)
		}
	}
	// A pure var of an update names one point of f per value: every use
	// of f in the update reads that same point in that position (Halide's
	// rule). The points are then independent, which is what lets a
	// schedule run them in parallel, on GPU threads or in any order.
	ir.WalkExprOnce(value.node, func(e ir.Expr) bool {
		c, ok := e.(*ir.Call)
		if !ok || c.Kind != ir.CallFunc || c.Ref != f || bad != nil {
			return bad == nil
		}
		for i, a := range f.fn.Args {
			if !pure[a] || i >= len(c.Args) {
				continue
			}
			if v, ok := c.Args[i].(*ir.Var); !ok || v.Name != a {
				bad = ir.Errorf(ir.ErrDefinition, name, dir, "the update reads %s with %s in position %d, where its left-hand side has the pure var %s: every use of %s in an update must have the pure vars in their places", name, ir.ExprString(c.Args[i]), i, a, name).
					WithLegal("%s in position %d, or make that dimension an RVar (or a pure Func of its own)", a, i)
			}
		}
		return bad == nil
	})
	if bad != nil {
		f.fail(bad)
		return
	}
	// Random numbers depend on the update's pure Vars and RVars.
	var free []ir.Expr
	for i, a := range f.fn.Args {
		if pure[a] {
			free = append(free, args[i].(Var).node)
		}
	}
	if dom != nil {
		for _, rv := range dom.Vars {
			free = append(free, &ir.Var{T: ir.Int32, Name: rv.Name, RDom: dom})
		}
	}
	var pred ir.Expr
	if dom != nil {
		pred = dom.Predicate
		dom.Used = true
	}
	randomIn := []*ir.Expr{&value.node, &pred}
	for i := range irArgs {
		randomIn = append(randomIn, &irArgs[i])
	}
	lowerRandom(free, randomIn...)
	var dims []ir.Dim
	if dom != nil {
		for _, rv := range dom.Vars {
			dims = append(dims, ir.Dim{Name: rv.Name, IsRVar: true})
		}
	}
	for _, a := range f.fn.Args {
		if pure[a] {
			dims = append(dims, ir.Dim{Name: a})
		}
	}
	// Undef arms of the value's top-level Selects become the predicate.
	v, cond, ok := peelUndef(value.node)
	if !ok {
		f.failf(ir.ErrDefinition, dir, "the update has Undef inside its value, not as the whole value, an arm of a top-level Select or an operand of arithmetic (which is Undef then): %s", value)
		f.err.(*ir.Error).Legal = "Undef as the update's whole value, or as an arm of Selects at the top of it (f(x) = Select(c, v, Undef(t)) stores v where c holds); arithmetic and casts of Undef are Undef (f(x) += Undef(t) stores nothing)"
		return
	}
	if v == nil { // undef everywhere: the update stores nothing
		v, cond = ir.Const(f.fn.T, 0), ir.IntConst(ir.Bool, 0)
	}
	value.node = v
	if cond != nil {
		if pred == nil {
			pred = cond
		} else {
			pred = ir.AndE(pred, cond)
		}
	}
	f.fn.Updates = append(f.fn.Updates, &ir.Definition{Args: irArgs, Value: value.node, RDom: dom, Predicate: pred, Schedule: ir.StageSchedule{Dims: dims}})
}

// misplaced says where the Var v, which is not pure in an update with
// arguments args, stands bare on its left-hand side, if it does, and
// which Var the pure definition (pure) has there.
func misplaced(pure []string, args []any, v string) string {
	for i, a := range args {
		if w, ok := a.(Var); ok && w.name == v && i < len(pure) {
			return fmt.Sprintf(": it is argument %d, where the pure definition has %s", i, pure[i])
		}
	}
	return ""
}

// frozen reports whether f is a wrapper (In) or a clone (CloneIn), whose
// definitions are its source's, and if so fails f: as Halide's
// wrap_frozen, a definition added to it would change what its consumers
// read, where In and CloneIn only schedule.
func (f *Func) frozen(directive string) bool {
	if f.err != nil || !(f.wrapped != nil || f.inputWrapper || f.clone) {
		return false
	}
	what := "a wrapper made by In"
	if f.clone {
		what = "a clone made by CloneIn"
	}
	f.fail(ir.Errorf(ir.ErrDefinition, f.fn.Name, directive, "%s is %s: it cannot be given a definition of its own", f.fn.Name, what).
		WithLegal("define the Func it wraps (before In or CloneIn), or a new Func that reads %s", f.fn.Name))
	return true
}

// constConverts reports whether the constant e keeps its value in t, as
// a Go untyped constant must (an update of a uint8 Func by 1.0 adds 1; by
// 1.5 or 300 it is refused rather than truncated or wrapped).
func constConverts(e ir.Expr, t Type) bool {
	switch c := e.(type) {
	case *ir.IntImm:
		return constFits(c, t)
	case *ir.FloatImm:
		switch {
		case t.IsFloat():
			return true
		case !t.IsIntOrUInt():
			return c.V == 0 || c.V == 1
		case c.V != math.Trunc(c.V):
			return false
		case t.IsUInt() && t.Bits == 64:
			return c.V >= 0 && c.V < 0x1p64
		}
		return c.V >= float64(t.Min()) && c.V < float64(t.Max())+1
	}
	return true
}

func constValue(e ir.Expr) float64 {
	switch c := e.(type) {
	case *ir.IntImm:
		return float64(c.V)
	case *ir.FloatImm:
		return c.V
	}
	return 0
}

// containsUndef reports whether e has an Undef anywhere.
func containsUndef(e ir.Expr) bool {
	found := false
	ir.WalkExprOnce(e, func(x ir.Expr) bool {
		found = found || ir.IsUndef(x)
		return !found
	})
	return found
}

// peelUndef takes the Undef arms out of an update's value: it returns the
// value to store (nil: none, the value is Undef everywhere) and the
// condition under which to store it (nil: always). Undef may be the whole
// value, an arm of Selects at its top, or an operand of arithmetic and
// casts over those (which are then Undef where it is); ok is false where
// it is anywhere else (inside a call's arguments or a Select's
// condition).
func peelUndef(e ir.Expr) (val, cond ir.Expr, ok bool) {
	if ir.IsUndef(e) {
		return nil, nil, true
	}
	if !containsUndef(e) {
		return e, nil, true
	}
	// Arithmetic on an Undef is Undef (Halide's RemoveUndef): the
	// operands' conditions guard the operation on their values, so
	// f(x) += Select(c, 3, Undef) stores f(x) + 3 where c holds.
	switch b := e.(type) {
	case *ir.Binary:
		va, ca, okA := peelUndef(b.A)
		vb, cb, okB := peelUndef(b.B)
		if !okA || !okB {
			return nil, nil, false
		}
		if va == nil || vb == nil {
			return nil, nil, true
		}
		return ir.Bin(b.Op, va, vb), andCond(ca, cb), true
	case *ir.Cast:
		v, c, ok := peelUndef(b.X)
		if !ok || v == nil {
			return nil, nil, ok
		}
		return &ir.Cast{T: b.T, X: v}, c, true
	}
	s, isSel := e.(*ir.Select)
	if !isSel {
		return nil, nil, false
	}
	if containsUndef(s.Cond) {
		return nil, nil, false
	}
	vt, ct, okT := peelUndef(s.True)
	vf, cf, okF := peelUndef(s.False)
	if !okT || !okF {
		return nil, nil, false
	}
	// An arm that stores always has condition true.
	always := func(_, c ir.Expr) ir.Expr {
		if c == nil {
			return ir.IntConst(ir.Bool, 1)
		}
		return c
	}
	notC := &ir.Not{X: s.Cond}
	switch {
	case vt == nil && vf == nil:
		return nil, nil, true
	case vt == nil && cf == nil:
		return vf, notC, true
	case vt == nil:
		return vf, ir.AndE(notC, cf), true
	case vf == nil && ct == nil:
		return vt, s.Cond, true
	case vf == nil:
		return vt, ir.AndE(s.Cond, ct), true
	}
	c := ir.Expr(&ir.Select{Cond: s.Cond, True: always(vt, ct), False: always(vf, cf)})
	if ct == nil && cf == nil {
		c = nil
	}
	return &ir.Select{Cond: s.Cond, True: vt, False: vf}, c, true
}
