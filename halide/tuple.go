package halide

import (
	"strings"

	"github.com/gohalide/gohalide/ir"
)

// Tuple-valued Funcs, as in Halide: a Func may have several values at each
// point, of possibly different types,
//
//	f.Define(x).Is(halide.NewTuple(re, im))
//
// and a call picks one of them, f.AtTuple(x).Elem(0) (Halide's f(x)[0]).
// An update gives every value again,
//
//	f.Define().Is(halide.NewTuple(
//		halide.Select(in.At(r).Gt(f.AtTuple().Elem(1)), r, f.AtTuple().Elem(0)),
//		halide.Max(f.AtTuple().Elem(1), in.At(r))))
//
// and computes all of them from the old values before it stores any. Each
// value is stored in its own buffer, named f.0, f.1, ... (ir.TupleElem),
// over one region: the union of the uses of every value. A Tuple output is
// realized into one buffer per value (RealizeTuple), all of one shape.

// Tuple is the values of a Tuple Func at one point: the value of a
// definition (NewTuple, SelectTuple) or a call (Func.AtTuple).
type Tuple struct {
	elems []Expr
	err   error
}

// NewTuple returns the Tuple of values (each a Var, RVar, Param, Go number
// or Expr, as for E). A Tuple of one value defines an ordinary Func.
func NewTuple(values ...any) Tuple {
	if len(values) == 0 {
		return Tuple{err: ir.Errorf(ir.ErrTuple, "", "NewTuple", "a Tuple of no values").
			WithLegal("NewTuple(a, b, ...) with at least one value")}
	}
	t := Tuple{elems: make([]Expr, len(values))}
	for i, v := range values {
		t.elems[i] = E(v)
		if err := t.elems[i].err; err != nil && t.err == nil {
			t.err = err
		}
	}
	return t
}

// Len returns the number of values of t.
func (t Tuple) Len() int { return len(t.elems) }

// Elem returns value i of t (Halide's t[i]); an i out of range gives an
// Expr that carries an ErrTuple error.
func (t Tuple) Elem(i int) Expr {
	if t.err != nil {
		return Expr{err: t.err}
	}
	if i < 0 || i >= len(t.elems) {
		return Expr{err: ir.Errorf(ir.ErrTuple, "", "Tuple.Elem", "value %d of a Tuple of %d values", i, len(t.elems)).
			WithLegal("an index in [0, %d)", len(t.elems))}
	}
	return t.elems[i]
}

// Err returns the first error a value of t carries, if any.
func (t Tuple) Err() error {
	if t.err == nil && len(t.elems) == 0 {
		return ir.Errorf(ir.ErrTuple, "", "Tuple", "an empty Tuple (the zero value) has no values").
			WithLegal("a Tuple made by NewTuple, SelectTuple or Func.AtTuple")
	}
	return t.err
}

func (t Tuple) String() string {
	if err := t.Err(); err != nil {
		return "<error: " + err.Error() + ">"
	}
	parts := make([]string, len(t.elems))
	for i, e := range t.elems {
		parts[i] = e.String()
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// SelectTuple returns a where cond holds and b elsewhere, value by value
// (Halide's select of Tuples); a and b must have the same number of
// values. cond is one condition for every value, or a Tuple of conditions,
// one per value (Halide's select(Tuple(c0, c1), a, b)): value i is then
// Select(cond.Elem(i), a.Elem(i), b.Elem(i)), and cond must have as many
// values as a and b.
func SelectTuple(cond any, a, b Tuple) Tuple {
	for _, t := range []Tuple{a, b} {
		if err := t.Err(); err != nil {
			return Tuple{err: err}
		}
	}
	if a.Len() != b.Len() {
		return Tuple{err: ir.Errorf(ir.ErrTuple, "", "SelectTuple", "the Tuples have %d and %d values", a.Len(), b.Len()).
			WithLegal("two Tuples with the same number of values")}
	}
	conds := make([]any, a.Len())
	if c, ok := cond.(Tuple); ok {
		if err := c.Err(); err != nil {
			return Tuple{err: err}
		}
		if c.Len() != a.Len() {
			return Tuple{err: ir.Errorf(ir.ErrTuple, "", "SelectTuple", "the Tuple of conditions has %d values but the Tuples it selects between have %d", c.Len(), a.Len()).
				WithLegal("one condition for every value, or a Tuple of %d conditions, one per value", a.Len())}
		}
		for i := range conds {
			conds[i] = c.elems[i]
		}
	} else {
		for i := range conds {
			conds[i] = cond
		}
	}
	out := Tuple{elems: make([]Expr, a.Len())}
	for i := range out.elems {
		out.elems[i] = Select(conds[i], a.elems[i], b.elems[i])
		if err := out.elems[i].err; err != nil {
			return Tuple{err: err}
		}
	}
	return out
}

// MuxTuple returns values[index], value by value (Halide's mux of
// Tuples): value i is Mux(index, values[0].Elem(i), values[1].Elem(i),
// ...), so an index out of range gives the last Tuple. The Tuples must
// have the same number of values.
func MuxTuple(index any, values ...Tuple) Tuple {
	if len(values) == 0 {
		return Tuple{err: ir.Errorf(ir.ErrTuple, "", "MuxTuple", "MuxTuple of no Tuples").
			WithLegal("at least one Tuple")}
	}
	for _, t := range values {
		if err := t.Err(); err != nil {
			return Tuple{err: err}
		}
	}
	n := values[0].Len()
	for j, t := range values {
		if t.Len() != n {
			return Tuple{err: ir.Errorf(ir.ErrTuple, "", "MuxTuple", "Tuple %d has %d values but Tuple 0 has %d", j, t.Len(), n).
				WithLegal("Tuples with the same number of values")}
		}
	}
	out := Tuple{elems: make([]Expr, n)}
	for i := range out.elems {
		arms := make([]any, len(values))
		for j, t := range values {
			arms[j] = t.elems[i]
		}
		out.elems[i] = Mux(index, arms...)
		if err := out.elems[i].err; err != nil {
			return Tuple{err: err}
		}
	}
	return out
}

// Values returns the number of values of f at each point: more than one
// for a Tuple Func, 1 otherwise (0 for a nil, zero or undefined Func).
func (f *Func) Values() int {
	if f.nilErr("") != nil || f.fn.Pure == nil {
		return 0
	}
	return f.fn.Values()
}

// Types returns the types of f's values (one for a Func of one value).
func (f *Func) Types() []Type {
	if f.nilErr("") != nil || f.fn.Pure == nil {
		return nil
	}
	ts := make([]Type, f.fn.Values())
	for i := range ts {
		ts[i] = f.fn.ValueType(i)
	}
	return ts
}

// AtTuple calls f at the given coordinates and returns all its values
// (Halide's f(x) of a Tuple Func); pick one with Elem. On a Func of one
// value it returns a Tuple of that value.
func (f *Func) AtTuple(args ...any) Tuple {
	c := f.call(args)
	if c.err != nil {
		return Tuple{err: c.err}
	}
	call := c.node.(*ir.Call)
	t := Tuple{elems: make([]Expr, f.fn.Values())}
	for i := range t.elems {
		ci := *call
		ci.T, ci.Index = f.fn.ValueType(i), i
		t.elems[i] = Expr{node: &ci}
	}
	return t
}

// Elem narrows the left-hand side to value i of a Tuple Func (Halide's
// f(x)[i]): f.Define(x).Elem(i).Is(e) is the update f(x)[i] = e and
// f.Define(x).Elem(i).PlusEq(e) is f(x)[i] += e (so for MinusEq, TimesEq,
// DivEq, MinEq and MaxEq); the other values keep their old values. It is
// the update with Undef for every other value, as Halide writes it, and
// follows the rules of one: the new value must have the type of value i
// (a constant adapts to it; f(x)[i] + e is typed as written), f must
// already have its pure definition, with more than one value, and i must
// be in [0, f.Values()). A mistake is an ErrTuple, ErrUndefined or ErrType
// error of f whose directive is Elem.Is, Elem.PlusEq, ...
func (d Definer) Elem(i int) Definer {
	d.elem, d.hasElem = i, true
	d.elems++
	return d
}

// elemUpdate defines the update of value d.elem of d.f alone: f(args)[i] =
// value (op nil) or f(args)[i] op= value, as the update of every value
// with Undef for the others (Halide's FuncTupleElementRef).
func (d Definer) elemUpdate(op *ir.BinOp, name string, value any) *Func {
	dir := "Elem." + name
	f := d.f.begin(dir)
	if f.err != nil || f.frozen(dir) {
		return f
	}
	fn, i := f.fn, d.elem
	switch {
	case d.elems > 1:
		f.fail(ir.Errorf(ir.ErrTuple, fn.Name, dir, "Elem is called %d times on one left-hand side of %s", d.elems, fn.Name).
			WithLegal("one Elem(i): %s.Define(args...).Elem(i).%s(value)", fn.Name, name))
		return f
	case fn.Pure == nil:
		f.fail(ir.Errorf(ir.ErrUndefined, fn.Name, dir, "value %d of %s is updated before %s has a pure definition", i, fn.Name, fn.Name).
			WithLegal("define %s with a Tuple first, %s.Define(vars...).Is(NewTuple(...)), then update its values", fn.Name, fn.Name))
		return f
	case !fn.IsTuple():
		f.fail(ir.Errorf(ir.ErrTuple, fn.Name, dir, "%s has one value, not a Tuple, so it has no value %d to update alone", fn.Name, i).
			WithLegal("%s.Define(args...).%s(value) without Elem", fn.Name, name))
		return f
	case i < 0 || i >= len(fn.Types):
		f.fail(ir.Errorf(ir.ErrTuple, fn.Name, dir, "value %d of %s, which has %d values", i, fn.Name, len(fn.Types)).
			WithLegal("Elem(i) with i in [0, %d)", len(fn.Types)))
		return f
	}
	e := E(value)
	if e.err != nil {
		f.fail(withFunc(e.err, fn.Name, dir))
		return f
	}
	vals := make([]any, len(fn.Types))
	for j := range vals {
		vals[j] = Undef(fn.Types[j])
	}
	vals[i] = e
	whole := Definer{f: f, args: d.args}
	if op == nil {
		whole.Is(NewTuple(vals...))
	} else {
		whole.reduce(*op, name, NewTuple(vals...))
	}
	// The update's errors (a value of another type, a bad left-hand side)
	// are this directive's: f had none before it.
	if ie, ok := f.err.(*ir.Error); ok && ie.Func == fn.Name {
		c := *ie
		c.Directive = dir
		f.err = &c
	}
	return f
}

// errTupleCall is the error of a call of the Tuple Func f used as one
// value.
func errTupleCall(f *ir.Function, directive string) error {
	return ir.Errorf(ir.ErrTuple, f.Name, directive, "%s is a Tuple Func of %d values; a call of it is not one value", f.Name, len(f.Types)).
		WithLegal("pick a value with %s.AtTuple(args...).Elem(i), i in [0, %d)", f.Name, len(f.Types))
}

// tupleValue returns the IR value of a definition of f with the values of
// t, each converted to the type of f's value (a constant adapts to it) or
// an ErrTuple or ErrType error; dir is the directive.
func (f *Func) tupleValue(t Tuple, dir string) (Expr, error) {
	if err := t.Err(); err != nil {
		return Expr{}, withFunc(err, f.fn.Name, dir)
	}
	if f.fn.Pure == nil {
		if t.Len() == 1 {
			return t.elems[0], nil
		}
		nodes := make([]ir.Expr, t.Len())
		for i, e := range t.elems {
			nodes[i] = e.node
			if ir.IsUndef(e.node) {
				// An Undef value of the pure definition (Halide leaves
				// it undefined until an update writes it) holds 0.
				nodes[i] = ir.Const(e.node.Type(), 0)
			}
		}
		return Expr{node: ir.MakeTuple(nodes)}, nil
	}
	if t.Len() != f.fn.Values() {
		return Expr{}, ir.Errorf(ir.ErrTuple, f.fn.Name, dir, "the update gives %d values but %s has %d", t.Len(), f.fn.Name, f.fn.Values()).
			WithLegal("a Tuple of %d values, of types %s", f.fn.Values(), typeList(f))
	}
	nodes := make([]ir.Expr, t.Len())
	for i, e := range t.elems {
		want := f.fn.ValueType(i)
		n := retypeUndef(e.node, want)
		if n.Type() != want {
			if !ir.IsConst(n) {
				return Expr{}, ir.Errorf(ir.ErrType, f.fn.Name, dir, "value %d of the update has type %s but value %d of %s has type %s", i, n.Type(), i, f.fn.Name, want).
					WithLegal("values of types %s (Cast converts)", typeList(f))
			}
			n = ir.Const(want, constValue(n))
		}
		nodes[i] = n
	}
	if len(nodes) == 1 {
		return Expr{node: nodes[0]}, nil
	}
	return Expr{node: ir.MakeTuple(nodes)}, nil
}

// retypeUndef returns e with each Undef at its top (e itself, or an arm of
// the Selects at its top) of type t: an update's Undef value of a Tuple
// leaves the value as it was, whatever type Undef was written with.
func retypeUndef(e ir.Expr, t ir.Type) ir.Expr {
	if ir.IsUndef(e) {
		return &ir.Call{T: t, Kind: ir.CallIntrinsic, Name: ir.IntrinsicUndef}
	}
	if s, ok := e.(*ir.Select); ok && s.True.Type() != t && containsUndef(s) {
		return &ir.Select{Cond: s.Cond, True: retypeUndef(s.True, t), False: retypeUndef(s.False, t)}
	}
	return e
}

// keepOldValues returns the update value v of the Tuple Func f, at args,
// with the Undefs in each value resolved as Halide's RemoveUndef does: a
// value that is Undef, or an expression of one, is not written (it keeps
// its old value, f(args)[i]); an Undef arm of a Select makes the value
// written only where the other arm is taken (f(x)[1] + select(c, e,
// undef) writes f(x)[1] + e where c holds). So Tuple(f(x)[0] + 1, undef)
// updates value 0 alone.
func keepOldValues(f *Func, args []ir.Expr, v ir.Expr) ir.Expr {
	vals := ir.TupleValues(v)
	if len(vals) < 2 {
		return v
	}
	out := make([]ir.Expr, len(vals))
	changed := false
	for i, e := range vals {
		out[i] = e
		if !containsUndef(e) {
			continue
		}
		changed = true
		old := &ir.Call{T: f.fn.ValueType(i), Kind: ir.CallFunc, Name: f.fn.Name, Args: args, Index: i, Ref: f}
		value, when, defined := removeUndef(e)
		switch {
		case !defined:
			out[i] = old
		case when == nil:
			out[i] = value
		default:
			out[i] = &ir.Select{Cond: when, True: value, False: old}
		}
	}
	if !changed {
		return v
	}
	return ir.MakeTuple(out)
}

// removeUndef splits e into the value it has where it is defined and the
// condition under which it is (nil: always); defined is false where e is
// undefined everywhere (Undef, or an expression of one outside a Select's
// arm).
func removeUndef(e ir.Expr) (value, when ir.Expr, defined bool) {
	if ir.IsUndef(e) {
		return nil, nil, false
	}
	if !containsUndef(e) {
		return e, nil, true
	}
	if sel, ok := e.(*ir.Select); ok {
		if containsUndef(sel.Cond) {
			return nil, nil, false
		}
		vt, wt, okt := removeUndef(sel.True)
		vf, wf, okf := removeUndef(sel.False)
		switch {
		case !okt && !okf:
			return nil, nil, false
		case !okt:
			return vf, andCond(&ir.Not{X: sel.Cond}, wf), true
		case !okf:
			return vt, andCond(sel.Cond, wt), true
		}
		var w ir.Expr
		if wt != nil || wf != nil {
			if wt == nil {
				wt = ir.True
			}
			if wf == nil {
				wf = ir.True
			}
			w = &ir.Select{Cond: sel.Cond, True: wt, False: wf}
		}
		return &ir.Select{Cond: sel.Cond, True: vt, False: vf}, w, true
	}
	var when2 ir.Expr
	defined = true
	value = ir.MapExpr(e, func(c ir.Expr) ir.Expr {
		if !defined {
			return c
		}
		v, w, ok := removeUndef(c)
		if !ok {
			defined = false
			return c
		}
		when2 = andCond(when2, w)
		return v
	})
	if !defined {
		return nil, nil, false
	}
	return value, when2, true
}

func andCond(a, b ir.Expr) ir.Expr {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	}
	return ir.AndE(a, b)
}

func typeList(f *Func) string {
	parts := make([]string, f.fn.Values())
	for i := range parts {
		parts[i] = f.fn.ValueType(i).String()
	}
	return "(" + strings.Join(parts, ", ") + ")"
}
