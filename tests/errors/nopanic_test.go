package errors_test

import (
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// TestNoPanic gives directives and constructors bad arguments (zero or
// negative factors, missing stages, nil or zero values, undefined Funcs):
// each must lead to a *halide.Error from Lower or Realize, never a panic.
func TestNoPanic(t *testing.T) {
	cases := []struct {
		name string
		// sched applies bad directives to the blur pipeline.
		sched func(b blur)
	}{
		{"split by zero", func(b blur) { b.f.Split(x, xo, xi, 0) }},
		{"split by a negative factor", func(b blur) { b.f.Split(x, xo, xi, -3) }},
		{"update split by zero", func(b blur) {
			b.f.Define(x, y).PlusEq(1.0)
			b.f.Update(0).Split(x, xo, xi, 0)
		}},
		{"tile by zero", func(b blur) { b.f.Tile(x, y, xo, yo, xi, yi, 0, 0) }},
		{"tile by negative factors", func(b blur) { b.f.Tile(x, y, xo, yo, xi, yi, -4, 4) }},
		{"unroll by zero", func(b blur) { b.f.Unroll(x, 0) }},
		{"unroll by a negative factor", func(b blur) { b.f.Unroll(x, -2) }},
		{"vectorize by zero", func(b blur) { b.f.Vectorize(x, 0) }},
		{"vectorize by a negative factor", func(b blur) { b.f.Vectorize(x, -8) }},
		{"Update(5) of a Func with one update", func(b blur) {
			b.f.Define(x, y).PlusEq(1.0)
			b.f.Update(5).Split(x, xo, xi, 2).Parallel(x).Unroll(xi)
		}},
		{"Update(-1)", func(b blur) { b.f.Update(-1).Reorder(y, x) }},
		{"Update(0) of a Func without updates", func(b blur) { b.f.Update(0).Vectorize(x, 4) }},
		{"Update(5) then Atomic", func(b blur) { b.f.Update(5).Atomic() }},
		{"compute_at a missing update", func(b blur) { b.g.ComputeAtStage(b.f.Update(3), x) }},
		{"zero Var", func(b blur) { b.f.Split(halide.Var{}, xo, xi, 4) }},
		{"zero RVar", func(b blur) { b.f.Reorder(halide.RVar{}, x) }},
		{"nil var", func(b blur) { b.f.Split(nil, xo, xi, 4) }},
		{"nil vars in reorder", func(b blur) { b.f.Reorder(nil, nil) }},
		{"nil fused var", func(b blur) { b.f.Fuse(x, y, nil) }},
		{"compute_at a nil Func", func(b blur) { b.g.ComputeAt(nil, x) }},
		{"compute_at a nil var", func(b blur) { b.g.ComputeAt(b.f, nil) }},
		{"compute_at_stage of a nil stage", func(b blur) { b.g.ComputeAtStage(nil, x) }},
		{"store_at a nil Func", func(b blur) { b.g.ComputeRoot().StoreAt(nil, x) }},
		{"wrapper for a nil consumer", func(b blur) { b.g.In(nil) }},
		{"bound with nil", func(b blur) { b.g.ComputeRoot().Bound(x, nil, 4) }},
		{"bound with a negative extent", func(b blur) { b.g.ComputeRoot().Bound(x, 0, -4) }},
		{"bound with a zero Var", func(b blur) { b.g.ComputeRoot().Bound(halide.Var{}, 0, 4) }},
		{"unroll by a huge factor", func(b blur) { b.f.Unroll(x, 1<<31) }},
		{"vectorize of the whole output", func(b blur) { b.f.Vectorize(x) }},
		{"parallel over a split-away var", func(b blur) { b.f.Split(x, xo, xi, 4).Parallel(x) }},
		{"scheduling an undefined Func", func(b blur) {
			h := halide.NewFunc("h")
			h.Split(x, xo, xi, 4).Reorder(y, x).Parallel(y).Vectorize(x, 4).Unroll(x).Fuse(x, y, z)
			h.Update(0).Atomic()
			h.ComputeRoot().Bound(x, 0, 4).StoreIn(halide.Stack)
			b.g.ComputeAt(h, x)
			b.f.Define(x, y).PlusEq(h.At(x, y))
		}},
		{"compute_at an undefined Func", func(b blur) { b.g.ComputeAt(halide.NewFunc("h"), x) }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := safely(func() error {
				b := newBlur()
				c.sched(b)
				b.set(9, 2)
				p := halide.NewPipeline(b.f)
				if _, err := p.Lower(); err != nil {
					return err
				}
				return p.Realize(halide.NewBuffer[float32](8, 2))
			})
			if err == nil {
				t.Fatalf("no error")
			}
			var he *halide.Error
			if !asHalide(err, &he) {
				t.Fatalf("error is not a *halide.Error: %v", firstLine(err.Error()))
			}
			if he.Code == halide.ErrInternal {
				t.Errorf("internal error for a user mistake: %v", firstLine(he.Error()))
			}
			t.Logf("%v", firstLine(he.Error()))
		})
	}
}

// TestNoPanicValues gives constructors and Realize weird values.
func TestNoPanicValues(t *testing.T) {
	cases := []struct {
		name string
		run  func() error
	}{
		{"ImageParam with negative dimensions", func() error {
			in := halide.NewImageParam("in", halide.Float32, -1)
			f := halide.NewFunc("f")
			f.Define(x).Is(in.At(x))
			return lowerErr(f)
		}},
		{"dimension out of range of an ImageParam", func() error {
			in := halide.NewImageParam("in", halide.Float32, 1)
			f := halide.NewFunc("f")
			f.Define(x).Is(in.At(halide.Clamp(x, 0, in.Dim(3).Max())))
			in.Set(halide.NewBuffer[float32](4))
			return f.Realize(halide.NewBuffer[float32](4))
		}},
		{"SetBounds of a dimension out of range", func() error {
			in := halide.NewImageParam("in", halide.Float32, 1)
			in.Dim(-1).SetBounds(0, 4)
			in.Dim(7).SetBounds(0, 4)
			f := halide.NewFunc("f")
			f.Define(x).Is(in.At(x).Add(in.At(x.Add(100))))
			in.Set(halide.NewBuffer[float32](4))
			return f.Realize(halide.NewBuffer[float32](4))
		}},
		{"RDom dimension out of range", func() error {
			in := halide.NewImageParam("in", halide.Float32, 1)
			r := halide.NewRDom("r", halide.Range(0, 4))
			f := halide.NewFunc("f")
			f.Define(x).Is(0.0)
			f.Define(x).PlusEq(in.At(r.Z()))
			return lowerErr(f)
		}},
		{"RDom with nil bounds", func() error {
			in := halide.NewImageParam("in", halide.Float32, 1)
			r := halide.NewRDom("r", halide.Range(nil, nil))
			f := halide.NewFunc("f")
			f.Define(x).Is(0.0)
			f.Define(x).PlusEq(in.At(r))
			return lowerErr(f)
		}},
		{"nil argument of a call", func() error {
			in := halide.NewImageParam("in", halide.Float32, 1)
			f := halide.NewFunc("f")
			f.Define(x).Is(in.At(nil))
			return lowerErr(f)
		}},
		{"nil value", func() error {
			f := halide.NewFunc("f")
			f.Define(x).Is(nil)
			return lowerErr(f)
		}},
		{"zero Var as a pure argument", func() error {
			f := halide.NewFunc("f")
			f.Define(halide.Var{}).Is(1)
			return lowerErr(f)
		}},
		{"zero Expr as a value", func() error {
			f := halide.NewFunc("f")
			f.Define(x).Is(halide.Expr{})
			return lowerErr(f)
		}},
		{"zero Expr in arithmetic", func() error {
			f := halide.NewFunc("f")
			f.Define(x).Is(x.Add(halide.Expr{}))
			return lowerErr(f)
		}},
		{"nil Param", func() error {
			var k *halide.Param[int32]
			f := halide.NewFunc("f")
			f.Define(x).Is(x.Mul(k))
			return lowerErr(f)
		}},
		{"a Go string as an Expr", func() error {
			f := halide.NewFunc("f")
			f.Define(x).Is(x.Add("one"))
			return lowerErr(f)
		}},
		{"Realize into nil", func() error {
			b := newBlur()
			b.set(9, 2)
			return b.f.Realize(nil)
		}},
		{"Realize into a nil *Buffer", func() error {
			b := newBlur()
			b.set(9, 2)
			var out *halide.Buffer[float32]
			return b.f.Realize(out)
		}},
		{"input set to a nil *Buffer", func() error {
			b := newBlur()
			var in *halide.Buffer[float32]
			b.in.Set(in)
			return b.f.Realize(halide.NewBuffer[float32](8, 2))
		}},
		{"input set to nil", func() error {
			b := newBlur()
			b.in.Set(nil)
			return b.f.Realize(halide.NewBuffer[float32](8, 2))
		}},
		{"boundary condition on a nil Func", func() error {
			var g *halide.Func
			pad := halide.RepeatEdge(g)
			f := halide.NewFunc("f")
			f.Define(x).Is(pad.At(x))
			return lowerErr(f)
		}},
		{"boundary condition on a nil ImageParam", func() error {
			var in *halide.ImageParam
			pad := halide.ConstantExterior(in, 0)
			f := halide.NewFunc("f")
			f.Define(x).Is(pad.At(x))
			return lowerErr(f)
		}},
		{"Sum of nil", func() error {
			f := halide.NewFunc("f")
			f.Define(x).Is(halide.Sum(nil))
			return lowerErr(f)
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := safely(c.run)
			if err == nil {
				t.Fatalf("no error")
			}
			var he *halide.Error
			if !asHalide(err, &he) {
				t.Fatalf("error is not a *halide.Error: %v", firstLine(err.Error()))
			}
			if he.Code == halide.ErrInternal {
				t.Errorf("internal error for a user mistake: %v", firstLine(he.Error()))
			}
			t.Logf("%v", firstLine(he.Error()))
		})
	}
}
