package halide

import (
	"strconv"

	"github.com/gohalide/gohalide/ir"
)

// Boundary conditions wrap an input (or a Func over a stated region) in a
// Func defined everywhere: outside the region it is a constant
// (ConstantExterior) or the nearest edge value (RepeatEdge). Inside, the
// source is read at clamped coordinates, so bounds inference sees reads
// only within the region.

// Source is what a boundary condition can wrap: an *ImageParam, a
// *Buffer[T] or a *Func.
type Source interface {
	At(args ...any) Expr
	Name() string
}

func sourceBounds(src Source, bounds []RangeSpec) (dims int, mins, maxs []Expr, err error) {
	switch s := src.(type) {
	case nil:
		return 0, nil, nil, ir.Errorf(ir.ErrUndefined, "", "boundary condition", "the source is nil")
	case *ImageParam:
		if s == nil {
			return 0, nil, nil, ir.Errorf(ir.ErrUndefined, "", "boundary condition", "the source is a nil ImageParam")
		}
		if s.err != nil {
			return 0, nil, nil, s.err
		}
		dims = s.dims
		for i := 0; i < dims; i++ {
			mins = append(mins, s.Dim(i).Min())
			maxs = append(maxs, s.Dim(i).Max())
		}
	case *Func:
		if s == nil {
			return 0, nil, nil, ir.Errorf(ir.ErrUndefined, "", "boundary condition", "the source is a nil Func")
		}
		if s.err != nil {
			return 0, nil, nil, s.err
		}
		dims = s.Dims()
		if !s.Defined() {
			return 0, nil, nil, ir.Errorf(ir.ErrUndefined, s.Name(), "boundary condition", "%s has no definition", s.Name())
		}
		if len(bounds) != dims {
			return 0, nil, nil, ir.Errorf(ir.ErrArgCount, s.Name(), "boundary condition", "a boundary condition on Func %s needs %d bounds (one Range per dimension), got %d", s.Name(), dims, len(bounds))
		}
	default:
		d, ok := src.(interface {
			Dims() int
			DimExpr(int) Dimension
		})
		if !ok {
			return 0, nil, nil, ir.Errorf(ir.ErrType, "", "boundary condition", "cannot put a boundary condition on a %T", src)
		}
		dims = d.Dims()
		for i := 0; i < dims; i++ {
			mins = append(mins, d.DimExpr(i).Min())
			maxs = append(maxs, d.DimExpr(i).Max())
		}
	}
	if len(bounds) > 0 {
		if len(bounds) != dims {
			return 0, nil, nil, ir.Errorf(ir.ErrArgCount, src.Name(), "boundary condition", "%s has %d dimensions but %d bounds were given", src.Name(), dims, len(bounds))
		}
		mins, maxs = nil, nil
		for _, b := range bounds {
			mn := E(b.Min)
			mins = append(mins, mn)
			maxs = append(maxs, mn.Add(b.Extent).Sub(1))
		}
	}
	return dims, mins, maxs, nil
}

func boundary(kind string, src Source, bounds []RangeSpec, exterior *Expr) *Func {
	dims, mins, maxs, err := sourceBounds(src, bounds)
	name := "nil"
	if err == nil {
		name = src.Name()
	}
	f := newAnonFunc(name + "_" + kind)
	if err != nil {
		f.fail(err)
		return f
	}
	vars := make([]any, dims)
	clamped := make([]any, dims)
	var inside Expr
	for i := 0; i < dims; i++ {
		v := NewVar("_" + strconv.Itoa(i))
		if dims <= 4 {
			v = NewVar([]string{"x", "y", "z", "w"}[i])
		}
		vars[i] = v
		clamped[i] = Clamp(v, mins[i], maxs[i])
		in := v.Ge(mins[i]).And(v.Le(maxs[i]))
		if i == 0 {
			inside = in
		} else {
			inside = inside.And(in)
		}
	}
	value := src.At(clamped...)
	if exterior != nil {
		value = Select(inside, value, *exterior)
	}
	f.Define(vars...).Is(value)
	return f
}

// ConstantExterior returns src extended with value outside its region. For
// an input the region is its buffer's; for a Func, pass one Range per
// dimension.
func ConstantExterior(src Source, value any, bounds ...RangeSpec) *Func {
	v := E(value)
	return boundary("constant_exterior", src, bounds, &v)
}

// RepeatEdge returns src extended by repeating its edge values outside its
// region.
func RepeatEdge(src Source, bounds ...RangeSpec) *Func {
	return boundary("repeat_edge", src, bounds, nil)
}
