package halide

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"strings"
	"sync/atomic"

	"github.com/gohalide/gohalide/ir"
)

// BufDim is the shape of one dimension of a Buffer.
type BufDim struct{ Min, Extent, Stride int }

// BufferRef is implemented by every *Buffer[T]: the pipeline's inputs and
// outputs.
type BufferRef interface {
	Name() string
	ElemType() Type
	Shape() []BufDim
	rawData() any
	valid() bool
	shapeErr() error
	// withShape and copyFrom serve Realize into a buffer smaller than
	// what the schedule writes (realize_grow.go).
	withShape(shape []BufDim) BufferRef
	copyFrom(src BufferRef)
}

// Buffer is an N-dimensional array of T that users allocate, fill and read.
// Dimension 0 is the innermost (stride 1 for a new Buffer).
type Buffer[T Number] struct {
	name  string
	data  []T
	shape []BufDim
	// access is the first out-of-range Get or Set (see Err).
	access atomic.Pointer[ir.Error]
}

var bufferCount atomic.Int64

// NewBuffer returns a dense zero-filled buffer with the given extents and
// minimums 0.
//
// As in Halide's buffer_t, every extent and min is an int32 and so is every
// element offset (Halide without LargeBuffers): an extent must be in
// [0, 2^31-1] and the buffer may have at most 2^31-1 elements. A buffer
// outside these limits has no data; Err says why, Realize returns that
// error, Get returns zero values and Set and Fill do nothing.
func NewBuffer[T Number](extents ...int) *Buffer[T] {
	b := &Buffer[T]{name: fmt.Sprintf("b%d", bufferCount.Add(1))}
	n := 1
	for _, e := range extents {
		b.shape = append(b.shape, BufDim{Min: 0, Extent: e, Stride: n})
		if hi, lo := bits.Mul64(uint64(n), uint64(max(e, 0))); hi != 0 || lo > math.MaxInt64 {
			n = math.MaxInt64 // saturate: the shape is refused below
		} else {
			n = int(lo)
		}
	}
	if checkShape(b.name, b.shape) == nil {
		b.data = make([]T, n)
	}
	return b
}

// The limits of a buffer's shape: Halide's buffer_t holds mins, extents and
// strides as int32, and element offsets are int32 without LargeBuffers.
const (
	maxExtent   = math.MaxInt32
	maxElements = math.MaxInt32
)

// checkShape returns the error (ErrBufferShape) that makes the shape of
// buffer name unusable, or nil. Extents are checked before mins (an extent
// error is NewBuffer's, a min error SetMin's).
func checkShape(name string, shape []BufDim) *ir.Error {
	ext := make([]string, len(shape))
	for i, d := range shape {
		ext[i] = fmt.Sprint(d.Extent)
	}
	exts := strings.Join(ext, " x ")
	for i, d := range shape {
		if d.Extent < 0 || d.Extent > maxExtent {
			return ir.Errorf(ir.ErrBufferShape, "", "NewBuffer", "buffer %s (extents %s): dimension %d has extent %d", name, exts, i, d.Extent).
				WithLegal("an extent in [0, %d] (an int32, as in Halide's buffer_t)", maxExtent)
		}
	}
	// Every extent is at most 2^31-1 and n is capped at 2^31: no overflow.
	n := uint64(1)
	for _, d := range shape {
		n = min(n*uint64(d.Extent), maxElements+1)
	}
	if n > maxElements {
		return ir.Errorf(ir.ErrBufferShape, "", "NewBuffer", "buffer %s (extents %s) has more than %d elements", name, exts, maxElements).
			WithLegal("at most %d elements (element offsets are int32, as in Halide without LargeBuffers)", maxElements)
	}
	if n > 0 {
		// The last element's offset, sum (extent-1) * |stride|, must be
		// an int32 too (NewBuffer's dense strides always give n-1).
		var last uint64
		for i, d := range shape {
			st := uint64(d.Stride)
			if d.Stride < 0 {
				st = -st
			}
			hi, lo := bits.Mul64(uint64(d.Extent-1), st)
			if last += lo; hi != 0 || lo > maxElements || last > maxElements {
				return ir.Errorf(ir.ErrBufferShape, "", "NewBuffer", "buffer %s (extents %s): dimension %d has stride %d, which puts elements past offset %d", name, exts, i, d.Stride, maxElements).
					WithLegal("element offsets in [0, %d]", maxElements)
			}
		}
	}
	for i, d := range shape {
		if d.Min < math.MinInt32 || d.Min > math.MaxInt32-d.Extent {
			return ir.Errorf(ir.ErrBufferShape, "", "SetMin", "buffer %s (extents %s): dimension %d has min %d, so its coordinates [min, min+extent) do not fit in int32", name, exts, i, d.Min).
				WithLegal("a min in [%d, %d] for extent %d (min and min+extent must be int32s, as in Halide's buffer_t)", math.MinInt32, math.MaxInt32-d.Extent, d.Extent)
		}
	}
	return nil
}

// Err returns why the buffer cannot be used (an *Error with code
// ErrBufferShape: an extent, min or size outside the int32 limits of
// NewBuffer; ErrNilObject for a nil or zero Buffer, one not made by
// NewBuffer; ErrOutOfBounds or ErrArgCount for the first Get or Set with
// bad coordinates, which stays recorded), or nil. Realize returns the
// same error.
func (b *Buffer[T]) Err() error {
	if b == nil {
		return ir.Errorf(ir.ErrNilObject, "", "Buffer", "a nil *Buffer").WithLegal("a Buffer made by NewBuffer")
	}
	if err := checkShape(b.name, b.shape); err != nil {
		return err
	}
	if b.data == nil {
		return ir.Errorf(ir.ErrNilObject, "", "Buffer", "a zero Buffer (one not made by NewBuffer) has no data").WithLegal("a Buffer made by NewBuffer")
	}
	if e := b.access.Load(); e != nil {
		return e
	}
	return nil
}

func (b *Buffer[T]) shapeErr() error { return b.Err() }

// SetName names the buffer (as an input, the name appears in the lowered code).
// A nil Buffer stays nil.
func (b *Buffer[T]) SetName(name string) *Buffer[T] {
	if b != nil {
		b.name = name
	}
	return b
}

// SetMin sets the coordinates of the first element of each dimension. A
// min and min+extent must fit in int32; Err and Realize report one that
// does not.
func (b *Buffer[T]) SetMin(mins ...int) *Buffer[T] {
	if b == nil {
		return b
	}
	for i, m := range mins {
		if i < len(b.shape) {
			b.shape[i].Min = m
		}
	}
	return b
}

// Name returns the buffer's name.
func (b *Buffer[T]) Name() string {
	if b == nil {
		return ""
	}
	return b.name
}

// ElemType returns the element type.
func (b *Buffer[T]) ElemType() Type { return typeOf[T]() }

// Shape returns the dimensions.
func (b *Buffer[T]) Shape() []BufDim {
	if b == nil {
		return nil
	}
	return append([]BufDim(nil), b.shape...)
}

// Dims returns the number of dimensions.
func (b *Buffer[T]) Dims() int {
	if b == nil {
		return 0
	}
	return len(b.shape)
}

// Dim returns dimension i; a dimension the buffer does not have is the
// zero BufDim.
func (b *Buffer[T]) Dim(i int) BufDim {
	if b == nil || i < 0 || i >= len(b.shape) {
		return BufDim{}
	}
	return b.shape[i]
}

// Data returns the elements in storage order.
func (b *Buffer[T]) Data() []T {
	if b == nil {
		return nil
	}
	return b.data
}

func (b *Buffer[T]) rawData() any { return b.Data() }

func (b *Buffer[T]) valid() bool { return b != nil }

// offset returns the storage index of coords, and false if coords are
// outside the buffer (the arithmetic cannot overflow, whatever the mins).
func (b *Buffer[T]) offset(coords []int) (int, bool) {
	if b == nil || len(coords) != len(b.shape) {
		return 0, false
	}
	off := 0
	for i, c := range coords {
		d := b.shape[i]
		// c - d.Min as an unsigned difference is exact when c >= d.Min.
		if c < d.Min || uint64(c)-uint64(d.Min) >= uint64(d.Extent) {
			return 0, false
		}
		off += int(uint64(c)-uint64(d.Min)) * d.Stride
	}
	if off < 0 || off >= len(b.data) {
		return 0, false
	}
	return off, true
}

// Element returns the element at coords, or an error: ErrArgCount when the
// number of coordinates is not the buffer's dimensions, ErrOutOfBounds
// when a coordinate is outside [min, min+extent) of its dimension (the
// error names the buffer, the coordinates and the ranges), and Err's
// error for a buffer without data.
func (b *Buffer[T]) Element(coords ...int) (T, error) {
	var zero T
	off, err := b.locate(coords, "Element")
	if err != nil {
		return zero, err
	}
	return b.data[off], nil
}

// SetElement stores v at coords, or returns the error Element would and
// stores nothing.
func (b *Buffer[T]) SetElement(v T, coords ...int) error {
	off, err := b.locate(coords, "SetElement")
	if err != nil {
		return err
	}
	b.data[off] = v
	return nil
}

// locate returns the storage index of coords, or the error of Element.
func (b *Buffer[T]) locate(coords []int, directive string) (int, error) {
	if b == nil || b.data == nil {
		return 0, b.Err()
	}
	if off, ok := b.offset(coords); ok {
		return off, nil
	}
	if len(coords) != len(b.shape) {
		return 0, ir.Errorf(ir.ErrArgCount, "", directive, "buffer %s has %d dimensions; %d coordinates were given", b.name, len(b.shape), len(coords)).
			WithLegal("%d coordinates", len(b.shape))
	}
	var ranges []string
	for _, d := range b.shape {
		ranges = append(ranges, fmt.Sprintf("[%d, %d)", d.Min, d.Min+d.Extent))
	}
	return 0, ir.Errorf(ir.ErrOutOfBounds, "", directive, "coordinates %v are outside buffer %s", coords, b.name).
		WithLegal("coordinates in %s", strings.Join(ranges, " x "))
}

// Get returns the element at coords. It never panics: out-of-range
// coordinates (or a wrong number of them) read as zero, and the first such
// access is recorded: Err and the next Realize that uses the buffer
// return its error. Element returns the error instead. A buffer without data
// (see Err; a nil or zero Buffer too) reads as zero.
func (b *Buffer[T]) Get(coords ...int) T {
	if off, ok := b.offset(coords); ok {
		return b.data[off]
	}
	var zero T
	b.recordAccess(coords, "Get")
	return zero
}

// Set stores v at coords. It never panics: out-of-range coordinates store
// nothing, and the first such access is recorded as Get's are.
// SetElement returns the error instead. On a buffer without data (see Err; a nil or
// zero Buffer too) it does nothing.
func (b *Buffer[T]) Set(v T, coords ...int) {
	if off, ok := b.offset(coords); ok {
		b.data[off] = v
		return
	}
	b.recordAccess(coords, "Set")
}

// recordAccess keeps the error of the first out-of-range Get or Set of a
// buffer with data.
func (b *Buffer[T]) recordAccess(coords []int, directive string) {
	if b == nil || b.data == nil {
		return
	}
	if _, err := b.locate(coords, directive); err != nil {
		var e *ir.Error
		if errors.As(err, &e) {
			b.access.CompareAndSwap(nil, e)
		}
	}
}

// Fill sets every element to f(coords). On a buffer whose shape is outside
// the limits of NewBuffer or without data (see Err), or with a nil f, it
// does nothing.
func (b *Buffer[T]) Fill(f func(coords []int) T) {
	if f == nil || b.Err() != nil {
		return
	}
	n := len(b.data)
	if n == 0 {
		return
	}
	coords := make([]int, len(b.shape))
	for i, d := range b.shape {
		coords[i] = d.Min
	}
	for k := 0; k < n; k++ {
		off, _ := b.offset(coords)
		b.data[off] = f(coords)
		for i := range coords {
			coords[i]++
			if coords[i] < b.shape[i].Min+b.shape[i].Extent {
				break
			}
			coords[i] = b.shape[i].Min
		}
	}
}

// At reads the buffer as a pipeline input.
func (b *Buffer[T]) At(args ...any) Expr {
	if b == nil || (b.data == nil && b.shape == nil) {
		return Expr{err: b.Err()}
	}
	return imageCall(b.name, b.ElemType(), len(b.shape), b, args)
}

// ImageParam is a typed N-dimensional input whose buffer is supplied with
// Set before Realize.
type ImageParam struct {
	err      error
	wrappers map[*Func]*Func
	name     string
	t        Type
	dims     int
	buf      BufferRef
	bounds   []dimBounds
	// gen is the input's generation: it changes with In and SetBounds,
	// which change what a Pipeline compiles (see Func.gen).
	gen uint64
}

type dimBounds struct{ min, extent Expr }

// NewImageParam declares an input called name of element type t with dims
// dimensions.
func NewImageParam(name string, t Type, dims int) *ImageParam {
	p := &ImageParam{name: name, t: t, dims: dims}
	if err := checkType(t, "", "NewImageParam"); err != nil {
		p.err = err
	}
	if err := checkName("ImageParam", "NewImageParam", name); err != nil && p.err == nil {
		p.err = err
	}
	if dims < 0 {
		p.err = ir.Errorf(ir.ErrArgCount, "", "NewImageParam", "input %s has %d dimensions; the number must be at least 0", name, dims)
		p.dims = 0
	}
	p.bounds = make([]dimBounds, p.dims)
	return p
}

// Name returns the input's name.
func (p *ImageParam) Name() string {
	if p == nil {
		return ""
	}
	return p.name
}

// Type returns the element type.
func (p *ImageParam) Type() Type {
	if p == nil {
		return Type{}
	}
	return p.t
}

// Dims returns the number of dimensions.
func (p *ImageParam) Dims() int {
	if p == nil {
		return 0
	}
	return p.dims
}

// Err returns the first error recorded on the input (by NewImageParam, In
// or SetBounds; for a nil or zero ImageParam, an ErrNilObject error), or
// nil. A pipeline that reads the input returns it.
func (p *ImageParam) Err() error {
	switch {
	case p == nil:
		return ir.Errorf(ir.ErrNilObject, "", "ImageParam", "a nil *ImageParam").WithLegal("an input made by NewImageParam")
	case p.err != nil:
		return p.err
	case p.t == Type{}:
		return ir.Errorf(ir.ErrNilObject, "", "ImageParam", "a zero ImageParam (one not made by NewImageParam)").WithLegal("an input made by NewImageParam")
	}
	return nil
}

// In returns a wrapper of the input: a Func equal to the input that
// replaces it in its consumers' definitions and can be scheduled on its own
// (for example computed at a tile of a consumer and stored in GPU shared
// memory). As Func.In: with consumers only they see it (a consumer that
// reads the input through other Funcs, a boundary condition say, gives it
// to those that read the input), with none every reader of the input
// does; calling In again with the same consumers
// returns the same wrapper. Its Vars are x, y, z, w, x_, ...; its
// directives may also name them as Halide does, by the implicit Vars
// ImplicitVar(0), ImplicitVar(1), ... (_0, _1, ...).
func (p *ImageParam) In(consumers ...*Func) *Func {
	if err := p.Err(); err != nil {
		w := newFunc("")
		w.fail(err)
		return w
	}
	p.gen = generations.Add(1)
	w, err := wrap(&p.wrappers, p, p.name, true, consumers, func(name string) *Func {
		w := newFunc(name)
		args := make([]any, p.dims)
		for i := range args {
			args[i] = newVar([]string{"x", "y", "z", "w"}[i%4] + strings.Repeat("_", i/4))
		}
		w.Define(args...).Is(p.At(args...))
		w.inputWrapper = true
		return w
	})
	if err != nil {
		p.err = err
		w = newFunc(wrapperName(p.name, consumers))
		w.fail(err)
	}
	return w
}

// Set supplies the buffer the next Realize reads. On a nil ImageParam it
// does nothing (a pipeline cannot read a nil input).
func (p *ImageParam) Set(b BufferRef) {
	if p != nil {
		p.buf = b
	}
}

// At reads the input at the given coordinates.
func (p *ImageParam) At(args ...any) Expr {
	if err := p.Err(); err != nil {
		return Expr{err: err}
	}
	return imageCall(p.name, p.t, p.dims, p, args)
}

// Dimension is one dimension of an input (ImageParam.Dim, Buffer.DimExpr)
// or of the output buffer (Func.Dim), as expressions for the algorithm.
type Dimension struct {
	owner any
	name  string
	i     int
	p     *ImageParam
}

// Dim returns dimension i of the input.
func (p *ImageParam) Dim(i int) Dimension { return Dimension{owner: p, name: p.Name(), i: i, p: p} }

// DimExpr returns dimension i of the buffer used as an input.
func (b *Buffer[T]) DimExpr(i int) Dimension { return Dimension{owner: b, name: b.Name(), i: i} }

func bufVar(owner any, name, field string, i int) Expr {
	return Expr{node: &ir.Var{T: ir.Int32, Name: fmt.Sprintf("%s.%s.%d", name, field, i), Param: owner}}
}

// Min returns the first coordinate of the dimension.
func (d Dimension) Min() Expr { return d.field("min") }

// Extent returns the size of the dimension.
func (d Dimension) Extent() Expr { return d.field("extent") }

func (d Dimension) field(f string) Expr {
	dims := -1
	switch o := d.owner.(type) {
	case *ImageParam:
		if err := o.Err(); err != nil {
			return Expr{err: err}
		}
		dims = o.dims
	case BufferRef:
		if o != nil && o.valid() {
			dims = len(o.Shape())
		}
	case *Func:
		return outputDimVar(o, f, d.i)
	}
	if d.i < 0 || d.i >= dims {
		return Expr{err: ir.Errorf(ir.ErrArgCount, "", "Dim", "%s has %d dimensions; there is no dimension %d", d.name, dims, d.i)}
	}
	return bufVar(d.owner, d.name, f, d.i)
}

// Max returns the last coordinate of the dimension.
func (d Dimension) Max() Expr { return d.Min().Add(d.Extent()).Sub(1) }

// Stride returns the distance in elements between neighbours in the dimension.
func (d Dimension) Stride() Expr { return d.field("stride") }

// SetBounds promises that the dimension has the given min and extent; the
// compiler may rely on it, and Realize checks it. On a dimension of an
// output Func (Func.Dim) it constrains the output buffer, in a pipeline
// whose output is the Func (Lower refuses it in another).
func (d Dimension) SetBounds(min, extent any) Dimension {
	if f, ok := d.owner.(*Func); ok {
		f.setOutputBounds(d.i, min, extent)
		return d
	}
	if d.p == nil {
		return d
	}
	d.p.gen = generations.Add(1)
	if d.i < 0 || d.i >= len(d.p.bounds) {
		if d.p.err == nil {
			d.p.err = ir.Errorf(ir.ErrArgCount, "", "SetBounds", "%s has %d dimensions; there is no dimension %d", d.name, d.p.dims, d.i)
		}
		return d
	}
	b := dimBounds{E(min), E(extent)}
	for _, be := range []struct {
		e    *Expr
		what string
	}{{&b.min, "min"}, {&b.extent, "extent"}} {
		if be.e.err != nil {
			if d.p.err == nil {
				d.p.err = be.e.err
			}
			return d
		}
		// The bound is an int32: a constant must fit; a wider Param is
		// checked at Realize.
		v, err := toInt32("", "SetBounds", fmt.Sprintf("the %s of dimension %d of %s", be.what, d.i, d.name), *be.e, false)
		if err != nil {
			if d.p.err == nil {
				d.p.err = err
			}
			return d
		}
		*be.e = v
	}
	d.p.bounds[d.i] = b
	return d
}

func imageCall(name string, t Type, dims int, ref any, args []any) Expr {
	args, err := expandImplicit("", "call", "input "+name, dims, args)
	if err != nil {
		return Expr{err: err}
	}
	if len(args) != dims {
		return Expr{err: ir.Errorf(ir.ErrArgCount, "", "call", "input %s has %d dimensions but is called with %d arguments", name, dims, len(args))}
	}
	as, err := indexArgs("", "call", name, args)
	if err != nil {
		return Expr{err: err}
	}
	return Expr{node: &ir.Call{T: t, Kind: ir.CallImage, Name: name, Args: as, Ref: ref}}
}

// indexArgs converts the coordinates of a call of name (or the left-hand
// side of a definition) to int32 expressions; errors name fn and directive.
func indexArgs(fn, directive, name string, args []any) ([]ir.Expr, error) {
	out := make([]ir.Expr, len(args))
	for i, a := range args {
		e := E(a)
		if e.err != nil {
			return nil, withFunc(e.err, fn, directive)
		}
		t := e.Type()
		if !t.IsIntOrUInt() {
			return nil, ir.Errorf(ir.ErrType, fn, directive, "argument %d of %s is %s; coordinates must be integers", i, name, t)
		}
		// As in Halide, a coordinate is an int32: a constant must fit and
		// a wider expression needs an explicit Cast.
		e, err := toInt32(fn, directive, fmt.Sprintf("argument %d of %s", i, name), e, true)
		if err != nil {
			return nil, err
		}
		out[i] = e.node
	}
	return out, nil
}

// Param is a typed scalar input set before Realize.
type Param[T Number] struct {
	name string
	val  T
	set  bool
	err  error // a bad name (see checkName): every expression of p carries it
}

// NewParam declares a scalar input called name (not empty, without '.'
// or '$'; a bad name is an ErrBadName error that every expression using
// the Param carries).
func NewParam[T Number](name string) *Param[T] {
	return &Param[T]{name: name, err: checkName("Param", "NewParam", name)}
}

// Set gives the parameter its value for the next Realize. On a nil Param
// it does nothing (a pipeline cannot read a nil Param).
func (p *Param[T]) Set(v T) {
	if p != nil {
		p.val, p.set = v, true
	}
}

// Get returns the parameter's value (zero for a nil Param).
func (p *Param[T]) Get() T {
	if p == nil {
		var z T
		return z
	}
	return p.val
}

// Name returns the parameter's name.
func (p *Param[T]) Name() string {
	if p == nil {
		return ""
	}
	return p.name
}

func (p *Param[T]) toExpr() Expr {
	if p == nil {
		return Expr{err: ir.Errorf(ir.ErrNilObject, "", "Expr", "a nil *Param is not an expression").WithLegal("a Param made by NewParam")}
	}
	if p.err != nil {
		return Expr{err: p.err}
	}
	return Expr{node: &ir.Var{T: typeOf[T](), Name: p.name, Param: p}}
}

// Expr returns the parameter as an expression.
func (p *Param[T]) Expr() Expr { return p.toExpr() }

// paramValue is implemented by every *Param[T].
type paramValue interface {
	Name() string
	value() (any, bool)
	typ() Type
}

func (p *Param[T]) typ() Type { return typeOf[T]() }

func (p *Param[T]) value() (any, bool) { return p.val, p.set }
