package halide

import (
	"fmt"
	"strconv"

	"github.com/gohalide/gohalide/ir"
)

// Boundary conditions wrap an input (or a Func over a stated region) in a
// Func defined everywhere, with Halide's BoundaryConditions semantics. For
// a region [min, min+n) of one dimension, a coordinate x outside it reads
//
//	ConstantExterior  a constant value
//	RepeatEdge        the nearest edge: clamp(x, min, min+n-1)
//	RepeatImage       the region tiled: min + (x-min) mod n
//	MirrorImage       the region reflected, edge included (period 2n):
//	                  min-1 reads min, min+n reads min+n-1
//	MirrorInterior    the region reflected, edge excluded (period 2n-2):
//	                  min-1 reads min+1, min+n reads min+n-2
//
// (mod is Euclidean, as the library's %, so the tiling and the reflections
// continue the same way on both sides, however far out x is.) Whatever the
// condition, the source is read at a coordinate clamped into the region,
// so bounds inference sees reads only within it.
//
// The region is the source's buffer when no bounds are given (an
// ImageParam or a Buffer); otherwise one RangeSpec per dimension, from the
// first: a dimension whose RangeSpec is Unbounded() (the zero RangeSpec),
// and every dimension after the last RangeSpec given, has no condition and
// is read as is, as in Halide, where a Region may hold undefined Ranges
// and be shorter than the Func's dimensions. A Func has no buffer, so it
// needs at least one RangeSpec.

// Source is what a boundary condition can wrap: an *ImageParam, a
// *Buffer[T] or a *Func.
type Source interface {
	At(args ...any) Expr
	Name() string
}

// Unbounded returns the RangeSpec that leaves a dimension without a
// boundary condition (Halide's undefined Range()): the zero RangeSpec.
// MirrorImage(in, Range(0, w), Unbounded(), Range(0, c)) mirrors x and c
// and reads y as is.
func Unbounded() RangeSpec { return RangeSpec{} }

// bcKind is one of the five boundary conditions.
type bcKind int

const (
	bcConstantExterior bcKind = iota
	bcRepeatEdge
	bcRepeatImage
	bcMirrorImage
	bcMirrorInterior
)

// bcNames are the public names of the conditions: the directive of their
// errors, and (in snake case) the suffix of the Funcs they make.
var bcNames = [...]struct{ api, suffix string }{
	bcConstantExterior: {"ConstantExterior", "constant_exterior"},
	bcRepeatEdge:       {"RepeatEdge", "repeat_edge"},
	bcRepeatImage:      {"RepeatImage", "repeat_image"},
	bcMirrorImage:      {"MirrorImage", "mirror_image"},
	bcMirrorInterior:   {"MirrorInterior", "mirror_interior"},
}

// bcRegion is a source's region: per dimension, whether it has a
// condition, and the min and extent of the region if it has.
type bcRegion struct {
	bounded    []bool
	mins, exts []Expr
}

func sourceRegion(directive string, src Source, bounds []RangeSpec) (dims int, r bcRegion, err error) {
	switch s := src.(type) {
	case nil:
		return 0, r, ir.Errorf(ir.ErrUndefined, "", directive, "the source is nil")
	case *ImageParam:
		if s == nil {
			return 0, r, ir.Errorf(ir.ErrUndefined, "", directive, "the source is a nil ImageParam")
		}
		if s.err != nil {
			return 0, r, s.err
		}
		dims = s.dims
		for i := 0; i < dims; i++ {
			r.bounded = append(r.bounded, true)
			r.mins = append(r.mins, s.Dim(i).Min())
			r.exts = append(r.exts, s.Dim(i).Extent())
		}
	case *Func:
		if s == nil {
			return 0, r, ir.Errorf(ir.ErrUndefined, "", directive, "the source is a nil Func")
		}
		if s.err != nil {
			return 0, r, s.err
		}
		dims = s.Dims()
		if !s.Defined() {
			return 0, r, ir.Errorf(ir.ErrUndefined, s.Name(), directive, "%s has no definition", s.Name())
		}
		if len(bounds) == 0 || len(bounds) > dims {
			return 0, r, ir.Errorf(ir.ErrArgCount, s.Name(), directive, "%s on Func %s needs 1 to %d bounds (a Range or Unbounded() per dimension, from the first), got %d", directive, s.Name(), dims, len(bounds)).
				WithLegal("1 to %d RangeSpecs: a Func has no buffer to take its region from", dims)
		}
	default:
		d, ok := src.(interface {
			Dims() int
			DimExpr(int) Dimension
		})
		if !ok {
			return 0, r, ir.Errorf(ir.ErrType, "", directive, "cannot put a boundary condition on a %T", src).
				WithLegal("an *ImageParam, a *Buffer[T] or a *Func")
		}
		dims = d.Dims()
		for i := 0; i < dims; i++ {
			r.bounded = append(r.bounded, true)
			r.mins = append(r.mins, d.DimExpr(i).Min())
			r.exts = append(r.exts, d.DimExpr(i).Extent())
		}
	}
	if len(bounds) == 0 {
		return dims, r, nil
	}
	if len(bounds) > dims {
		return 0, r, ir.Errorf(ir.ErrArgCount, src.Name(), directive, "%s has %d dimensions but %d bounds were given", src.Name(), dims, len(bounds)).
			WithLegal("at most %d RangeSpecs (a Range or Unbounded() per dimension, from the first); none for the whole buffer", dims)
	}
	r = bcRegion{bounded: make([]bool, dims), mins: make([]Expr, dims), exts: make([]Expr, dims)}
	for i, b := range bounds {
		if b.Min == nil && b.Extent == nil {
			continue
		}
		if b.Min == nil || b.Extent == nil {
			return 0, r, ir.Errorf(ir.ErrBadArgument, src.Name(), directive, "dimension %d of %s has a partly undefined bound (min %v, extent %v)", i, src.Name(), b.Min, b.Extent).
				WithLegal("Range(min, extent) with both given, or Unbounded() for no condition in that dimension")
		}
		what := func(end string) string {
			return fmt.Sprintf("the %s of dimension %d of the region of %s", end, i, src.Name())
		}
		mn, ext := E(b.Min), E(b.Extent)
		for _, e := range []Expr{mn, ext} {
			if e.err != nil {
				return 0, r, e.err
			}
		}
		if mn, err = toInt32(src.Name(), directive, what("min"), mn, false); err != nil {
			return 0, r, err
		}
		if ext, err = toInt32(src.Name(), directive, what("extent"), ext, false); err != nil {
			return 0, r, err
		}
		if c, ok := ext.node.(*ir.IntImm); ok && c.V <= 0 {
			return 0, r, ir.Errorf(ir.ErrBadArgument, src.Name(), directive, "dimension %d of the region of %s has extent %d: an empty region has no value to extend", i, src.Name(), c.V).
				WithLegal("an extent of at least 1, or Unbounded() for no condition in that dimension")
		}
		r.bounded[i], r.mins[i], r.exts[i] = true, mn, ext
	}
	return dims, r, nil
}

// coordinate returns where the condition k reads dimension x of its
// source, whose region is [mn, mn+ext): x clamped into the region for
// RepeatEdge and ConstantExterior (which selects its value outside), x
// mapped periodically into it for the others. The result is clamped into
// the region in every case, so that bounds inference proves the read in
// bounds without reasoning about %; inside the region it is x.
func coordinate(k bcKind, x Var, mn, ext Expr) Expr {
	mx := mn.Add(ext).Sub(1)
	c := x.Sub(mn) // zero origin
	switch k {
	case bcRepeatImage:
		c = c.Mod(ext) // [0, ext)
	case bcMirrorImage:
		c = c.Mod(ext.Mul(2)) // [0, 2 ext)
		c = Select(c.Ge(ext), ext.Mul(2).Sub(1).Sub(c), c)
	case bcMirrorInterior:
		// The period is 2 (ext-1); an extent of 1 has period 0, where
		// the Max makes it 1, so that every x reads the one element
		// (as in Halide, whose x % 0 is 0) and no target divides by 0.
		limit := ext.Sub(1)
		c = c.Mod(Max(limit.Mul(2), 1)) // [0, 2 limit)
		c = limit.Sub(Abs(c.Sub(limit)))
	default:
		return Clamp(x, mn, mx)
	}
	return Clamp(c.Add(mn), mn, mx)
}

func boundary(k bcKind, src Source, bounds []RangeSpec, exterior *bcExterior) *Func {
	directive := bcNames[k].api
	dims, r, err := sourceRegion(directive, src, bounds)
	name := "nil"
	if err == nil {
		name = src.Name()
	}
	f := newAnonFunc(name + "_" + bcNames[k].suffix)
	if err != nil {
		f.fail(err)
		return f
	}
	vars := make([]any, dims)
	coords := make([]any, dims)
	var inside *Expr
	for i := 0; i < dims; i++ {
		v := NewVar("_" + strconv.Itoa(i))
		if dims <= 4 {
			v = NewVar([]string{"x", "y", "z", "w"}[i])
		}
		vars[i] = v
		if !r.bounded[i] {
			coords[i] = v
			continue
		}
		coords[i] = coordinate(k, v, r.mins[i], r.exts[i])
		in := v.Ge(r.mins[i]).And(v.Le(r.mins[i].Add(r.exts[i]).Sub(1)))
		if inside != nil {
			in = inside.And(in)
		}
		inside = &in
	}
	// A Tuple Func is extended value by value, ConstantExterior's with
	// the Tuple's values (Halide's boundary conditions of a Tuple Func).
	if sf, ok := src.(*Func); ok && sf.Values() > 1 {
		values := sf.AtTuple(coords...)
		if exterior != nil && inside != nil {
			ext := exterior.tuple
			if ext.Len() != values.Len() {
				f.fail(ir.Errorf(ir.ErrTuple, sf.Name(), directive, "%s is a Tuple Func of %d values and the exterior value has %d", sf.Name(), values.Len(), ext.Len()).
					WithLegal("ConstantExterior(%s, halide.NewTuple(...)) with one value per value of %s", sf.Name(), sf.Name()))
				return f
			}
			elems := make([]any, values.Len())
			for i := range elems {
				elems[i] = Select(*inside, values.Elem(i), ext.Elem(i))
			}
			values = NewTuple(elems...)
		}
		f.Define(vars...).Is(values)
		return f
	}
	value := src.At(coords...)
	if exterior != nil && inside != nil {
		value = Select(*inside, value, exterior.value)
	}
	f.Define(vars...).Is(value)
	return f
}

// bcExterior is ConstantExterior's value: one value, or a Tuple of them
// for a Tuple Func.
type bcExterior struct {
	value Expr
	tuple Tuple
}

// ConstantExterior returns src extended with value outside its region. For
// an input the region is its buffer's; for a Func, pass one Range per
// dimension (or Unbounded() for a dimension without a condition). For a
// Tuple Func, value is a Tuple of as many values (each may be Undef).
//
// Each boundary condition extends every value of a Tuple Func.
func ConstantExterior(src Source, value any, bounds ...RangeSpec) *Func {
	ext := &bcExterior{}
	if t, ok := value.(Tuple); ok {
		ext.tuple = t
		ext.value = t.Elem(0)
		if t.Len() == 1 {
			ext.tuple = NewTuple(ext.value)
		}
	} else {
		ext.value = E(value)
		ext.tuple = NewTuple(ext.value)
	}
	return boundary(bcConstantExterior, src, bounds, ext)
}

// RepeatEdge returns src extended by repeating its edge values outside its
// region: x reads clamp(x, min, min+n-1).
func RepeatEdge(src Source, bounds ...RangeSpec) *Func {
	return boundary(bcRepeatEdge, src, bounds, nil)
}

// RepeatImage returns src tiled periodically outside its region: x reads
// min + (x-min) mod n, so min-1 reads min+n-1 and min+n reads min.
func RepeatImage(src Source, bounds ...RangeSpec) *Func {
	return boundary(bcRepeatImage, src, bounds, nil)
}

// MirrorImage returns src reflected across its edges, the edge included
// (period 2n): min-1 reads min, min-2 reads min+1, min+n reads min+n-1.
func MirrorImage(src Source, bounds ...RangeSpec) *Func {
	return boundary(bcMirrorImage, src, bounds, nil)
}

// MirrorInterior returns src reflected across its edges, the edge
// excluded (period 2n-2): min-1 reads min+1, min+n reads min+n-2. An
// extent of 1 reads its one element everywhere; one of 2 alternates.
func MirrorInterior(src Source, bounds ...RangeSpec) *Func {
	return boundary(bcMirrorInterior, src, bounds, nil)
}
