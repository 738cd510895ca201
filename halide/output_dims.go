package halide

import (
	"fmt"

	"github.com/gohalide/gohalide/ir"
)

// Dim returns dimension i of f's output buffer (Halide's f.dim(i) on an
// output Func): Min and Extent are Exprs (int32) whose values are those of
// the buffer passed to Realize. They may be used wherever an input's shape
// may (Bound, Specialize conditions, Func definitions, f's own included),
// in a pipeline whose output is f; Lower refuses them (ErrSchedule) in a
// pipeline with another output, and a dimension f does not have
// (ErrArgCount).
func (f *Func) Dim(i int) Dimension {
	if f == nil || f.fn == nil {
		return Dimension{owner: f, i: i}
	}
	return Dimension{owner: f, name: f.fn.Name, i: i}
}

// Width is f.Dim(0).Extent(), Halide's width() of an output.
func (f *Func) Width() Expr { return f.Dim(0).Extent() }

// Height is f.Dim(1).Extent(), Halide's height() of an output.
func (f *Func) Height() Expr { return f.Dim(1).Extent() }

// Channels is f.Dim(2).Extent(), Halide's channels() of an output.
func (f *Func) Channels() Expr { return f.Dim(2).Extent() }

// setOutputBounds records Dim(i).SetBounds(min, extent) of f's output
// buffer (see Dimension.SetBounds).
func (f *Func) setOutputBounds(i int, min, extent any) {
	f = f.begin("set_bounds")
	if f.err != nil {
		return
	}
	if n := len(f.fn.Args); i < 0 || f.fn.Pure != nil && i >= n {
		f.fail(dimRangeErr(f, i))
		return
	}
	var r ir.Range
	for _, b := range []struct {
		v    any
		end  *ir.Expr
		what string
	}{{min, &r.Min, "min"}, {extent, &r.Extent, "extent"}} {
		e := E(b.v)
		if e.err != nil {
			f.fail(withFunc(e.err, f.fn.Name, "set_bounds"))
			return
		}
		e, err := toInt32(f.fn.Name, "set_bounds", fmt.Sprintf("the %s of dimension %d of %s's output buffer", b.what, i, f.fn.Name), e, false)
		if err != nil {
			f.fail(err)
			return
		}
		*b.end = e.node
	}
	ob := f.fn.Schedule.OutputBounds
	for len(ob) <= i {
		ob = append(ob, ir.Range{})
	}
	ob[i] = r
	f.fn.Schedule.OutputBounds = ob
}

// checkOutputBounds checks the output buffer bounds of f (SetBounds on
// f.Dim) in a pipeline whose output is out.
func checkOutputBounds(f, out *Func) error {
	ob := f.fn.Schedule.OutputBounds
	if len(ob) == 0 {
		return nil
	}
	if f != out {
		return ir.Errorf(ir.ErrSchedule, f.fn.Name, "set_bounds", "%s.Dim(i).SetBounds constrains %s's output buffer, but the pipeline's output is %s", f.fn.Name, f.fn.Name, out.fn.Name).
			WithLegal("SetBounds on the dimensions of the pipeline's output Func (or Bound(v, min, extent) to fix the region of %s)", f.fn.Name)
	}
	if n := len(f.fn.Args); len(ob) > n {
		return dimRangeErr(f, len(ob)-1)
	}
	return nil
}

// outputDim is the Param of the Var of a field of an output buffer's
// dimension (Func.Dim): the pipeline checks that f is its output.
type outputDim struct {
	f *Func
	i int
}

// outputDimVar returns the Expr of field of dimension i of f's output
// buffer, or one carrying the error of a dimension that cannot be named.
func outputDimVar(f *Func, field string, i int) Expr {
	if err := f.nilErr("dim"); err != nil {
		return Expr{err: err}
	}
	if f.err != nil {
		return Expr{err: f.err}
	}
	if n := len(f.fn.Args); i < 0 || f.fn.Pure != nil && i >= n {
		return Expr{err: dimRangeErr(f, i)}
	}
	return bufVar(outputDim{f, i}, f.fn.Name, field, i)
}

func dimRangeErr(f *Func, i int) error {
	n := len(f.fn.Args)
	legal := fmt.Sprintf("a dimension in [0, %d]", n-1)
	if n == 0 {
		legal = "none: a Func of no dimensions has no shape"
	}
	return ir.Errorf(ir.ErrArgCount, f.fn.Name, "dim", "%s has %d dimensions; there is no dimension %d", f.fn.Name, n, i).WithLegal("%s", legal)
}

// checkOutputDim returns the error of a pipeline with output out that
// reads the output buffer shape d, or nil.
func checkOutputDim(d outputDim, out *Func) error {
	g := d.f
	if g != out {
		return ir.Errorf(ir.ErrSchedule, g.fn.Name, "dim", "the pipeline's output is %s, but its Funcs read the output buffer shape of %s (%s.Dim, Width or Height), which this pipeline has no buffer for", out.fn.Name, g.fn.Name, g.fn.Name).
			WithLegal("the Dim of the pipeline's output %s, or of an input (ImageParam.Dim)", out.fn.Name)
	}
	if d.i >= len(g.fn.Args) {
		return dimRangeErr(g, d.i)
	}
	if g.fn.Anonymous {
		return ir.Errorf(ir.ErrSchedule, g.fn.Name, "dim", "%s has no name of its own, so its output buffer's shape cannot be named", g.fn.Name).
			WithLegal("Dim of a Func made by NewFunc")
	}
	return nil
}
