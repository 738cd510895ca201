package errors_test

import (
	"errors"
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// TestErrRFactor checks every rfactor Lower refuses, as Halide's
// Stage::rfactor does: the pure definition, an update without an RDom,
// one that is not f(args) op e for an associative op (each way it can
// fail), an RVar that is not the update's or was split or fused away, a
// pure var named as an RVar, an RVar named twice, and a new Var that
// clashes with a var of the Func or a loop of the update. Each names the
// Func, the stage, the condition and what would be legal; the
// intermediate RFactor returns carries the same error.
func TestErrRFactor(t *testing.T) {
	u, v := halide.NewVar("u"), halide.NewVar("v")
	// sum(x) = 0; sum(x) op= in(r.x, r.y, x) for the update given.
	alg := func(update func(f *halide.Func, r *halide.RDom, in *halide.ImageParam)) (*halide.Func, *halide.RDom) {
		in := halide.NewImageParam("in", halide.Int32, 3)
		r := halide.NewRDom("r", halide.Range(0, 8), halide.Range(0, 8))
		f := halide.NewFunc("f")
		f.Define(x).Is(int32(0))
		update(f, r, in)
		return f, r
	}
	plus := func(f *halide.Func, r *halide.RDom, in *halide.ImageParam) {
		f.Define(x).PlusEq(in.At(r.X(), r.Y(), x))
	}
	// lowerBoth returns Lower's error, after checking that the
	// intermediate carries an error with the same code.
	lowerBoth := func(t *testing.T, f, intm *halide.Func) error {
		err := lowerErr(f)
		var a, b *halide.Error
		if !errors.As(err, &a) || !errors.As(intm.Err(), &b) || a.Code != b.Code {
			t.Errorf("the intermediate's error %v is not Lower's %v", intm.Err(), err)
		}
		return err
	}
	const assocLegal = "op +, -, *, min, max, or the logical or bitwise and, or, xor"
	cases := []struct {
		errCase
		make func() (*halide.Func, *halide.Func)
	}{
		{make: func() (*halide.Func, *halide.Func) {
			f, r := alg(plus)
			return f, f.Stage(0).RFactor(halide.RFactorPair{R: r.Y(), V: u})
		}, errCase: errCase{name: "pure definition",
			code: halide.ErrSchedule, fn: "f", directive: "rfactor",
			mentions: []string{"its pure definition"}, legal: []string{"f.Update(i).RFactor"}}},
		{make: func() (*halide.Func, *halide.Func) {
			f, r := alg(plus)
			f.Define(x).Is(f.At(x).Add(1))
			return f, f.Update(1).RFactor(halide.RFactorPair{R: r.Y(), V: u})
		}, errCase: errCase{name: "update without an RDom",
			code: halide.ErrSchedule, fn: "f", directive: "rfactor",
			mentions: []string{"f.update(1)", "reduces over no RDom"}, legal: []string{"an update that reduces over an RDom"}}},
		{make: func() (*halide.Func, *halide.Func) {
			f, r := alg(func(f *halide.Func, r *halide.RDom, in *halide.ImageParam) {
				f.Define(x).Is(f.At(x).Mul(2).Add(in.At(r.X(), r.Y(), x)))
			})
			return f, f.Update(0).RFactor(halide.RFactorPair{R: r.Y(), V: u})
		}, errCase: errCase{name: "not associative: f*2 + e",
			code: halide.ErrNotAssociative, fn: "f", directive: "rfactor",
			mentions: []string{"f.update(0)", "is not f(x) op e", "cannot be combined"}, legal: []string{assocLegal}}},
		{make: func() (*halide.Func, *halide.Func) {
			in := halide.NewImageParam("in", halide.Int32, 3)
			r := halide.NewRDom("r", halide.Range(0, 8), halide.Range(0, 8))
			f := halide.NewFunc("f")
			f.Define(x).Is(halide.NewTuple(int32(1<<30), int32(0)))
			old, val := f.AtTuple(x), in.At(r.X(), r.Y(), x)
			f.Define(x).Is(halide.SelectTuple(val.Lt(old.Elem(0)), halide.NewTuple(val, r.X()), old))
			return f, f.Update(0).RFactor(halide.RFactorPair{R: r.X(), V: u})
		}, errCase: errCase{name: "argmin keeping an inner RVar",
			code: halide.ErrNotAssociative, fn: "f", directive: "rfactor",
			mentions: []string{"f.update(0)", "keeps the RVar loop r$x", "not r$y", "argmin", "not commutative"}, legal: []string{"keep the outermost RVar loops (r$y, r$x"}}},
		{make: func() (*halide.Func, *halide.Func) {
			f, r := alg(func(f *halide.Func, r *halide.RDom, in *halide.ImageParam) {
				f.Define(x).Is(in.At(r.X(), r.Y(), x))
			})
			return f, f.Update(0).RFactor(halide.RFactorPair{R: r.Y(), V: u})
		}, errCase: errCase{name: "not a reduction: the value does not read f",
			code: halide.ErrNotAssociative, fn: "f", directive: "rfactor",
			mentions: []string{"does not read f(x)", "replaces the value"}, legal: []string{assocLegal}}},
		{make: func() (*halide.Func, *halide.Func) {
			f, r := alg(func(f *halide.Func, r *halide.RDom, in *halide.ImageParam) {
				f.Define(x).Is(in.At(r.X(), r.Y(), x).Sub(f.At(x)))
			})
			return f, f.Update(0).RFactor(halide.RFactorPair{R: r.Y(), V: u})
		}, errCase: errCase{name: "not associative: e - f",
			code: halide.ErrNotAssociative, fn: "f", directive: "rfactor",
			mentions: []string{"is not f(x) op e"}, legal: []string{assocLegal}}},
		{make: func() (*halide.Func, *halide.Func) {
			in := halide.NewImageParam("in", halide.Int32, 1)
			r := halide.NewRDom("r", halide.Range(0, 8), halide.Range(0, 8))
			f := halide.NewFunc("f")
			f.Define(x).Is(int32(0))
			f.Define(r.X()).Is(f.At(r.X()).Add(f.At(r.X().Add(1))).Add(in.At(r.Y())))
			return f, f.Update(0).RFactor(halide.RFactorPair{R: r.Y(), V: u})
		}, errCase: errCase{name: "not associative: e reads f elsewhere",
			code: halide.ErrNotAssociative, fn: "f", directive: "rfactor",
			mentions: []string{"f(r$x)", "e that does not read f"}, legal: []string{"e not reading f"}}},
		{make: func() (*halide.Func, *halide.Func) {
			in := halide.NewImageParam("in", halide.Int32, 1)
			r := halide.NewRDom("r", halide.Range(0, 8))
			f := halide.NewFunc("f")
			f.Define(x).Is(int32(0))
			f.Define(halide.Clamp(f.At(0), 0, 7)).PlusEq(in.At(r))
			return f, f.Update(0).RFactor(halide.RFactorPair{R: r.X(), V: u})
		}, errCase: errCase{name: "the left-hand side reads f",
			code: halide.ErrNotAssociative, fn: "f", directive: "rfactor",
			mentions: []string{"argument 0 of the left-hand side", "reads f"}, legal: []string{"does not read f"}}},
		{make: func() (*halide.Func, *halide.Func) {
			f, _ := alg(plus)
			other := halide.NewRDom("s", halide.Range(0, 4))
			return f, f.Update(0).RFactor(halide.RFactorPair{R: other, V: u})
		}, errCase: errCase{name: "an RVar of another RDom",
			code: halide.ErrUnknownVar, fn: "f", directive: "rfactor",
			mentions: []string{"f.update(0) has no loop s$x"}, legal: []string{"r$y, r$x"}}},
		{make: func() (*halide.Func, *halide.Func) {
			f, r := alg(plus)
			return f, f.Update(0).Split(r.Y(), halide.NewRVar("ryo"), halide.NewRVar("ryi"), 4).
				RFactor(halide.RFactorPair{R: r.Y(), V: u})
		}, errCase: errCase{name: "an RVar split away",
			code: halide.ErrVarReused, fn: "f", directive: "rfactor",
			mentions: []string{"r$y was already split or fused away"}, legal: []string{"r$y.ryo", "r$y.ryi"}}},
		{make: func() (*halide.Func, *halide.Func) {
			f, _ := alg(plus)
			return f, f.Update(0).RFactor(halide.RFactorPair{R: x, V: u})
		}, errCase: errCase{name: "a pure var",
			code: halide.ErrSchedule, fn: "f", directive: "rfactor",
			mentions: []string{"x is a pure var"}, legal: []string{"RVars of the update: r$y, r$x"}}},
		{make: func() (*halide.Func, *halide.Func) {
			f, r := alg(plus)
			return f, f.Update(0).RFactor(halide.RFactorPair{R: r.Y(), V: u}, halide.RFactorPair{R: r.Y(), V: v})
		}, errCase: errCase{name: "an RVar named twice",
			code: halide.ErrVarReused, fn: "f", directive: "rfactor",
			mentions: []string{"names r$y twice"}, legal: []string{"each RVar once"}}},
		{make: func() (*halide.Func, *halide.Func) {
			f, r := alg(plus)
			return f, f.Update(0).RFactor(halide.RFactorPair{R: r.Y(), V: x})
		}, errCase: errCase{name: "the new Var is a var of f",
			code: halide.ErrVarReused, fn: "f", directive: "rfactor",
			mentions: []string{"add the dimension x"}, legal: []string{"a fresh Var"}}},
		{make: func() (*halide.Func, *halide.Func) {
			f, r := alg(plus)
			return f, f.Update(0).RFactor(halide.RFactorPair{R: r.Y(), V: u}, halide.RFactorPair{R: r.X(), V: u})
		}, errCase: errCase{name: "one new Var for two RVars",
			code: halide.ErrVarReused, fn: "f", directive: "rfactor",
			mentions: []string{"add the dimension u"}, legal: []string{"a fresh Var for each RVar"}}},
		{make: func() (*halide.Func, *halide.Func) {
			f, r := alg(plus)
			return f, f.Update(0).Split(x, xo, xi, 2).RFactor(halide.RFactorPair{R: r.Y(), V: xo})
		}, errCase: errCase{name: "the new Var is a loop of the update",
			code: halide.ErrVarReused, fn: "f", directive: "rfactor",
			mentions: []string{"add the dimension xo"}, legal: []string{"x.xo"}}},
		{make: func() (*halide.Func, *halide.Func) {
			f, r := alg(plus)
			return f, f.Update(0).RFactor(halide.RFactorPair{R: nil, V: u}, halide.RFactorPair{R: r.Y(), V: v})
		}, errCase: errCase{name: "a nil RVar",
			code: halide.ErrUnknownVar, fn: "f", directive: "rfactor",
			mentions: []string{"pair 0 of rfactor has a nil or unnamed RVar"}, legal: []string{"r$y, r$x"}}},
		{make: func() (*halide.Func, *halide.Func) {
			f, r := alg(plus)
			return f, f.Update(0).RFactor(halide.RFactorPair{R: r, V: u})
		}, errCase: errCase{name: "a 2-D RDom for one RVar",
			code: halide.ErrUnknownVar, fn: "f", directive: "rfactor",
			mentions: []string{"the 2-dimensional RDom r"}, legal: []string{"r.X(), r.Y()"}}},
		{make: func() (*halide.Func, *halide.Func) {
			f, r := alg(plus)
			intm := f.Update(0).RFactor(halide.RFactorPair{R: r.Y(), V: u})
			intm.Update(0).Parallel(r.Y())
			return intm, intm
		}, errCase: errCase{name: "scheduling an RVar rfactor made pure",
			code: halide.ErrVarReused, fn: "f_intm", directive: "parallel",
			mentions: []string{"the RVar r$y is the pure var u"}, legal: []string{"x, u, r$x"}}},
	}
	for _, c := range cases {
		c.run = func() error {
			f, intm := c.make()
			if c.directive != "rfactor" {
				return lowerErr(f)
			}
			return lowerBoth(t, f, intm)
		}
		runCases(t, []errCase{c.errCase})
	}
	// A nil Stage belongs to no Func; the intermediate says so.
	var s *halide.Stage
	check(t, s.RFactor().Err(), halide.ErrNilObject, "", "rfactor", "nil or zero Stage")
}
