package halide

import (
	"fmt"
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

// Type returns the type of the Func's values (valid once defined).
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

// At calls the Func at the given coordinates.
func (f *Func) At(args ...any) Expr {
	if err := f.nilErr("call"); err != nil {
		return Expr{err: err}
	}
	if f.err != nil {
		return Expr{err: f.err}
	}
	if f.fn.Pure == nil {
		return Expr{err: ir.Errorf(ir.ErrUndefined, f.fn.Name, "call", "Func %s is called before it has a definition", f.fn.Name)}
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
// TimesEq, MinEq or MaxEq.
type Definer struct {
	f    *Func
	args []any
}

// Define starts a definition of f at args. The first definition of a Func is
// its pure definition, whose arguments must be distinct Vars; later ones are
// updates, whose arguments may be any integer expressions (a scatter).
func (f *Func) Define(args ...any) Definer { return Definer{f, args} }

// Is defines f(args) = value. On a Func that has a pure definition it is
// an update; one that would replace the pure definition (the pure Vars on
// the left, no RDom, a value that does not read f) is an ErrRedefinition
// error.
func (d Definer) Is(value any) *Func {
	f := d.f.begin("Define")
	v := E(value)
	switch {
	case f.fn.Pure == nil:
		f.definePure(d.args, v)
	case v.err == nil && f.redefines(d.args, v):
		f.fail(ir.Errorf(ir.ErrRedefinition, f.fn.Name, "Define", "%s already has a pure definition; a second one, %s(%s) = %s, would replace it", f.fn.Name, f.fn.Name, strings.Join(f.fn.Args, ", "), v).
			WithLegal("one pure definition per Func; an update reads %s or reduces over an RDom (for example %s.Define(...).PlusEq(...)); or define a new Func", f.fn.Name, f.fn.Name))
	default:
		f.defineUpdate(d.args, v, nil)
	}
	return f
}

// redefines reports whether f(args) = value would be a second pure
// definition: args are f's pure Vars in order and value reads neither f
// nor an RDom.
func (f *Func) redefines(args []any, value Expr) bool {
	if len(args) != len(f.fn.Args) {
		return false
	}
	for i, a := range args {
		if v, ok := a.(Var); !ok || v.name != f.fn.Args[i] {
			return false
		}
	}
	pure := true
	ir.WalkExpr(value.node, func(e ir.Expr) bool {
		switch e := e.(type) {
		case *ir.Var:
			pure = pure && e.RDom == nil
		case *ir.Call:
			pure = pure && !(e.Kind == ir.CallFunc && (e.Ref == f || e.Name == f.fn.Name))
		}
		return pure
	})
	return pure
}

func (d Definer) reduce(op ir.BinOp, name string, value any) *Func {
	f := d.f.begin(name)
	if f.fn.Pure == nil {
		f.failf(ir.ErrDefinition, name, "%s needs a pure definition of %s first", name, f.fn.Name)
		return f
	}
	f.defineUpdate(d.args, E(value), &op)
	return f
}

// PlusEq defines the update f(args) = f(args) + value.
func (d Definer) PlusEq(value any) *Func { return d.reduce(ir.Add, "PlusEq", value) }

// TimesEq defines the update f(args) = f(args) * value.
func (d Definer) TimesEq(value any) *Func { return d.reduce(ir.Mul, "TimesEq", value) }

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
	var bad error
	ir.WalkExpr(value.node, func(e ir.Expr) bool {
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
	dims := make([]ir.Dim, len(vars))
	for i, v := range vars {
		dims[i] = ir.Dim{Name: v}
	}
	f.fn.Pure = &ir.Definition{Args: irArgs, Value: value.node, Schedule: ir.StageSchedule{Dims: dims}}
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
		self := &ir.Call{T: f.fn.T, Kind: ir.CallFunc, Name: name, Args: irArgs, Ref: f}
		v := value.node
		if ir.IsConst(v) && v.Type() != f.fn.T {
			v = ir.Const(f.fn.T, constValue(v))
		}
		if v.Type() != f.fn.T {
			f.failf(ir.ErrType, dir, "the update's value has type %s but %s has type %s", v.Type(), name, f.fn.T)
			return
		}
		value = Expr{node: ir.Bin(*op, self, v)}
	}
	if value.Type() != f.fn.T {
		if ir.IsConst(value.node) {
			value = Expr{node: ir.Const(f.fn.T, constValue(value.node))}
		} else {
			f.failf(ir.ErrType, dir, "the update's value has type %s but %s has type %s", value.Type(), name, f.fn.T)
			return
		}
	}
	// Pure dimensions: bare Vars of the pure definition, in their position.
	pure := map[string]bool{}
	for i, a := range args {
		v, ok := a.(Var)
		if !ok {
			continue
		}
		if v.name != f.fn.Args[i] {
			f.failf(ir.ErrDefinition, dir, "Var %s is argument %d of the update but the pure definition has %s there", v.name, i, f.fn.Args[i])
			return
		}
		pure[v.name] = true
	}
	var dom *ir.ReductionDomain
	var bad error
	check := func(e ir.Expr) {
		ir.WalkExpr(e, func(e ir.Expr) bool {
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
				bad = ir.Errorf(ir.ErrDefinition, name, dir, "the update uses Var %s, which is not a pure argument on its left-hand side", v.Name).
					WithLegal("Vars that appear bare on the left-hand side in their pure position, or RVars")
			}
			return bad == nil
		})
	}
	for _, a := range irArgs {
		check(a)
	}
	check(value.node)
	// A pure var of an update names one point of f per value: every use
	// of f in the update reads that same point in that position (Halide's
	// rule). The points are then independent, which is what lets a
	// schedule run them in parallel, on GPU threads or in any order.
	ir.WalkExpr(value.node, func(e ir.Expr) bool {
		c, ok := e.(*ir.Call)
		if !ok || c.Kind != ir.CallFunc || c.Name != name || bad != nil {
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
	f.fn.Updates = append(f.fn.Updates, &ir.Definition{Args: irArgs, Value: value.node, RDom: dom, Schedule: ir.StageSchedule{Dims: dims}})
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
