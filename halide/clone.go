package halide

import (
	"slices"
	"strings"

	"github.com/gohalide/gohalide/ir"
)

// CloneIn returns a copy of f that replaces f in the definitions of the
// named consumers only (Halide's clone_in): the clone has f's definitions
// (its pure definition and updates, an update's reads of f reading the
// clone) and f's schedule as it is when CloneIn is called, and from then
// on a schedule of its own. Where In puts a wrapper between f and its
// consumers (the wrapper reads f, which is still computed), CloneIn
// computes f twice, once for the consumers named and once for the others:
// each copy can be computed where its consumers want it (f inlined into
// one consumer and computed at the root for another, say). Several
// consumers named in one call share one clone (f_clone_in_g_h); a
// consumer that reads f only through other Funcs gives the clone to those
// that read f, as In does (Halide's transitive clone_in); calling
// CloneIn again with the same consumers returns the same clone. A consumer
// has at most one wrapper or clone of f (ErrSchedule otherwise), and
// CloneIn needs at least one consumer (In() wraps f for all of them).
func (f *Func) CloneIn(consumers ...*Func) *Func {
	const directive = "clone_in"
	f = f.begin(directive)
	name := cloneName(f.fn.Name, consumers)
	if err := f.err; err != nil {
		c := newFunc(name)
		c.fail(err)
		return c
	}
	if len(consumers) == 0 {
		err := ir.Errorf(ir.ErrBadArgument, f.fn.Name, directive, "clone_in of %s names no consumer", f.fn.Name).
			WithLegal("%s.CloneIn(g, ...) with the consumers that should read the clone, or %s.In() for a wrapper that every consumer reads", f.fn.Name, f.fn.Name)
		f.fail(err)
		c := newFunc(name)
		c.fail(err)
		return c
	}
	c, err := wrap(&f.wrappers, f, f.fn.Name, false, consumers, func(string) *Func {
		c := newFunc(name)
		if f.fn.Anonymous {
			// The pipeline names anonymous Funcs by the text before their "$".
			c = newAnonFunc(f.fn.Name[:strings.LastIndex(f.fn.Name, "$")] + name[len(f.fn.Name):])
		}
		c.clone = true
		if f.fn.Pure == nil {
			c.failf(ir.ErrUndefined, directive, "%s has no definition to clone", f.fn.Name)
			return c
		}
		c.fn = cloneFunction(f.fn, c.fn.Name, f, c)
		c.fn.Anonymous = f.fn.Anonymous
		return c
	})
	if err == nil && !c.clone {
		err = ir.Errorf(ir.ErrSchedule, f.fn.Name, directive, "%s already has a wrapper of %s (In), so it cannot read a clone too", strings.TrimPrefix(c.fn.Name, f.fn.Name+"_in_"), f.fn.Name).
			WithLegal("one of %s.In(g) and %s.CloneIn(g) per consumer g", f.fn.Name, f.fn.Name)
	}
	if err != nil {
		f.fail(withDirective(err, directive))
		c = newFunc(name)
		c.fail(withDirective(err, directive))
	}
	return c
}

// cloneName is the name of the clone of src for consumers:
// src_clone_in_g_h.
func cloneName(src string, consumers []*Func) string {
	return src + "_clone" + wrapperName(src, consumers)[len(src):]
}

// withDirective returns err with its directive set to directive when err is
// a *ir.Error made for another one (wrap reports as "in").
func withDirective(err error, directive string) error {
	if e, ok := err.(*ir.Error); ok {
		c := *e
		c.Directive = directive
		return &c
	}
	return err
}

// cloneFunction returns a copy of fn named name whose definitions and
// schedule share no slice with fn's, its reads of the Func src (fn's
// handle) reading clone instead.
func cloneFunction(fn *ir.Function, name string, src, clone *Func) *ir.Function {
	c := *fn
	c.Name = name
	c.Args = slices.Clone(fn.Args)
	c.Types = slices.Clone(fn.Types)
	c.Schedule.Bounds = slices.Clone(fn.Schedule.Bounds)
	c.Schedule.Aligns = slices.Clone(fn.Schedule.Aligns)
	c.Schedule.StorageOrder = slices.Clone(fn.Schedule.StorageOrder)
	c.Schedule.Folds = slices.Clone(fn.Schedule.Folds)
	c.Schedule.StorageDims = slices.Clone(fn.Schedule.StorageDims)
	self := func(e ir.Expr) ir.Expr {
		if e == nil {
			return nil
		}
		var mut func(ir.Expr) ir.Expr
		mut = func(e ir.Expr) ir.Expr {
			e = ir.MapExpr(e, mut)
			if call, ok := e.(*ir.Call); ok && call.Kind == ir.CallFunc && call.Ref == src {
				d := *call
				d.Name, d.Ref = name, clone
				return &d
			}
			return e
		}
		return mut(e)
	}
	// rename renames the reads of src in d and in its cases (CopySchedule
	// made them copies of their own).
	var rename func(d *ir.Definition)
	rename = func(d *ir.Definition) {
		d.Value, d.Predicate = self(d.Value), self(d.Predicate)
		d.Args = slices.Clone(d.Args)
		for i, a := range d.Args {
			d.Args[i] = self(a)
		}
		for _, s := range d.Specializations {
			if s.Def != nil {
				rename(s.Def)
			}
		}
	}
	def := func(d *ir.Definition) *ir.Definition {
		if d == nil {
			return nil
		}
		d = d.CopySchedule()
		rename(d)
		return d
	}
	c.Pure = def(fn.Pure)
	c.Updates = nil
	for _, u := range fn.Updates {
		c.Updates = append(c.Updates, def(u))
	}
	return &c
}
