package halide

import "github.com/gohalide/gohalide/ir"

// Dim returns dimension i of f's output buffer (Halide's f.dim(i) on an
// output Func): Min and Extent are Exprs (int32) whose values are those of
// the buffer passed to Realize. They may be used wherever an input's shape
// may (Bound, Specialize conditions, other Funcs' definitions), in a
// pipeline whose output is f; Lower refuses them (ErrSchedule) in a
// pipeline with another output. f must be defined first.
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

// outputDimErr says why dimension i of the output Func f cannot be named,
// or returns nil.
func outputDimErr(f *Func, field string, i int) error {
	if err := f.nilErr("dim"); err != nil {
		return err
	}
	if f.err != nil {
		return f.err
	}
	if f.fn.Pure == nil {
		return ir.Errorf(ir.ErrUndefined, f.fn.Name, "dim", "%s.Dim(%d).%s: %s is not defined yet, so its dimensions are unknown", f.fn.Name, i, field, f.fn.Name).
			WithLegal("define %s before naming its output buffer's shape", f.fn.Name)
	}
	if f.fn.Anonymous {
		return ir.Errorf(ir.ErrSchedule, f.fn.Name, "dim", "%s has no name of its own, so its output buffer's shape cannot be named", f.fn.Name).
			WithLegal("Dim of a Func made by NewFunc")
	}
	if n := len(f.fn.Args); i < 0 || i >= n {
		return ir.Errorf(ir.ErrArgCount, f.fn.Name, "dim", "%s has %d dimensions; there is no dimension %d", f.fn.Name, n, i).
			WithLegal("a dimension in [0, %d]", n-1)
	}
	return nil
}

// notOutputDimErr is the error of a pipeline that reads the output buffer
// shape of g, which is not its output out.
func notOutputDimErr(g *Func, out string) error {
	return ir.Errorf(ir.ErrSchedule, g.fn.Name, "dim", "the pipeline's output is %s, but its Funcs read the output buffer shape of %s (%s.Dim, Width or Height), which this pipeline has no buffer for", out, g.fn.Name, g.fn.Name).
		WithLegal("the Dim of the pipeline's output %s, or of an input (ImageParam.Dim)", out)
}
