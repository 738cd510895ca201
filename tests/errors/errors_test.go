package errors_test

import (
	"errors"
	"testing"

	"github.com/gohalide/gohalide/halide"
)

func TestErrComputeAt(t *testing.T) {
	runCases(t, []errCase{
		{
			name: "var the consumer does not have",
			run: func() error {
				b := newBlur()
				b.g.ComputeAt(b.f, z)
				return lowerErr(b.f)
			},
			code: halide.ErrComputeAt, fn: "g", directive: "compute_at",
			mentions: []string{"f", "z"},
			legal:    []string{"y, x"},
		},
		{
			name: "var the consumer had before a split",
			run: func() error {
				b := newBlur()
				b.f.Split(x, xo, xi, 4)
				b.g.ComputeAt(b.f, x)
				return lowerErr(b.f)
			},
			// x is split away; the loops are y, x.xo, x.xi. matchDim would
			// accept "x" only as the last component of a loop name.
			code: halide.ErrComputeAt, fn: "g", directive: "compute_at",
			mentions: []string{"f", "x"},
			legal:    []string{"y, x.xo, x.xi"},
		},
		{
			name: "consumer that is not a consumer",
			run: func() error {
				in := halide.NewImageParam("in", halide.Float32, 2)
				g := halide.NewFunc("g")
				g.Define(x, y).Is(in.At(x, y).Mul(2))
				h := halide.NewFunc("h")
				h.Define(x, y).Is(in.At(x, y).Add(1))
				f := halide.NewFunc("f")
				f.Define(x, y).Is(g.At(x, y).Add(h.At(x, y)))
				h.ComputeRoot()
				g.ComputeAt(h, x) // h does not call g
				return lowerErr(f)
			},
			code: halide.ErrComputeAt, fn: "g", directive: "compute_at",
			mentions: []string{"h.s0.x", "g"},
			legal:    []string{"compute_root", "compute_at(f, y)", "compute_at(f, x)"},
		},
		{
			name: "loop that does not enclose every use",
			run: func() error {
				in := halide.NewImageParam("in", halide.Float32, 2)
				g := halide.NewFunc("g")
				g.Define(x, y).Is(in.At(x, y).Mul(2))
				f := halide.NewFunc("f")
				f.Define(x, y).Is(g.At(x, y))
				// ComputeAt(f, x) matches the loop x of every stage (as
				// Halide's LoopLevel(f, x)); the update, over RVars only,
				// has none, so its use of g lies outside every loop x.
				r := halide.NewRDom("r", halide.Range(0, 4), halide.Range(0, 4))
				f.Define(r.X(), r.Y()).PlusEq(g.At(r.X().Add(1), r.Y()))
				g.ComputeAt(f, x)
				return lowerErr(f)
			},
			code: halide.ErrComputeAt, fn: "g", directive: "compute_at",
			mentions: []string{"f.s0.x", "does not contain every use", "g"},
			legal:    []string{"compute_root"},
		},
		{
			name: "consumer computed inline",
			run: func() error {
				in := halide.NewImageParam("in", halide.Float32, 2)
				g := halide.NewFunc("g")
				g.Define(x, y).Is(in.At(x, y).Mul(2))
				h := halide.NewFunc("h")
				h.Define(x, y).Is(g.At(x, y).Add(1))
				f := halide.NewFunc("f")
				f.Define(x, y).Is(h.At(x, y))
				g.ComputeAt(h, x)
				return lowerErr(f)
			},
			code: halide.ErrComputeAt, fn: "g", directive: "compute_at",
			mentions: []string{"h", "inline"},
			legal:    []string{"h"},
		},
		{
			name: "Func not in the pipeline",
			run: func() error {
				b := newBlur()
				other := halide.NewFunc("other")
				other.Define(x, y).Is(0)
				b.g.ComputeAt(other, x)
				return lowerErr(b.f)
			},
			code: halide.ErrComputeAt, fn: "g", directive: "compute_at",
			mentions: []string{"other", "not a Func of this pipeline"},
		},
		{
			name: "own loops",
			run: func() error {
				b := newBlur()
				b.g.ComputeAt(b.g, x)
				return lowerErr(b.f)
			},
			code: halide.ErrComputeAt, fn: "g", directive: "compute_at",
			mentions: []string{"g", "own loops"},
		},
		{
			name: "the output",
			run: func() error {
				b := newBlur()
				b.g.ComputeRoot()
				b.f.ComputeAt(b.g, x)
				return lowerErr(b.f)
			},
			code: halide.ErrComputeAt, fn: "f", directive: "compute_at",
			mentions: []string{"f", "output"},
		},
		{
			name: "compute_root stored inside a loop",
			run: func() error {
				b := newBlur()
				b.g.ComputeRoot().StoreAt(b.f, y)
				return lowerErr(b.f)
			},
			code: halide.ErrComputeAt, fn: "g", directive: "store_at",
			mentions: []string{"g", "root"},
		},
		{
			name: "store level inside the compute level",
			run: func() error {
				b := newBlur()
				b.f.Split(x, xo, xi, 4)
				b.g.ComputeAt(b.f, y).StoreAt(b.f, xo)
				return lowerErr(b.f)
			},
			code: halide.ErrComputeAt, fn: "g", directive: "store_at",
			mentions: []string{"f.s0.x.xo", "g"},
			legal:    []string{"store_root"},
		},
		{
			name: "store_at a var the consumer does not have",
			run: func() error {
				b := newBlur()
				b.g.ComputeAt(b.f, x).StoreAt(b.f, z)
				return lowerErr(b.f)
			},
			code: halide.ErrComputeAt, fn: "g", directive: "store_at",
			mentions: []string{"f", "z"},
			legal:    []string{"y, x"},
		},
	})
}

func TestErrUnknownVar(t *testing.T) {
	zo, zi := halide.NewVar("zo"), halide.NewVar("zi")
	runCases(t, []errCase{
		{
			name: "split",
			run: func() error {
				b := newBlur()
				b.f.Split(z, zo, zi, 4)
				return lowerErr(b.f)
			},
			code: halide.ErrUnknownVar, fn: "f", directive: "split",
			mentions: []string{"f", "z"},
			legal:    []string{"y, x"},
		},
		{
			name: "fuse",
			run: func() error {
				b := newBlur()
				b.f.Fuse(x, z, halide.NewVar("xz"))
				return lowerErr(b.f)
			},
			code: halide.ErrUnknownVar, fn: "f", directive: "fuse",
			mentions: []string{"f", "z"},
			legal:    []string{"y, x"},
		},
		{
			name: "reorder",
			run: func() error {
				b := newBlur()
				b.f.Reorder(y, z)
				return lowerErr(b.f)
			},
			code: halide.ErrUnknownVar, fn: "f", directive: "reorder",
			mentions: []string{"f", "z"},
			legal:    []string{"y, x"},
		},
		{
			name: "parallel",
			run: func() error {
				b := newBlur()
				b.f.Parallel(z)
				return lowerErr(b.f)
			},
			code: halide.ErrUnknownVar, fn: "f", directive: "parallel",
			mentions: []string{"f", "z"},
		},
		{
			name: "vectorize with a factor",
			run: func() error {
				b := newBlur()
				b.f.Vectorize(z, 4)
				return lowerErr(b.f)
			},
			code: halide.ErrUnknownVar, fn: "f", directive: "vectorize",
			mentions: []string{"f", "z"},
		},
		{
			name: "unroll",
			run: func() error {
				b := newBlur()
				b.f.Unroll(z)
				return lowerErr(b.f)
			},
			code: halide.ErrUnknownVar, fn: "f", directive: "unroll",
			mentions: []string{"f", "z"},
		},
		{
			name: "pure var absent from an update",
			run: func() error {
				in := halide.NewImageParam("in", halide.Float32, 1)
				r := halide.NewRDom("r", halide.Range(0, 4))
				f := halide.NewFunc("f")
				f.Define(x).Is(0.0)
				f.Define(0).PlusEq(in.At(r))
				f.Update(0).Split(x, xo, xi, 2)
				return lowerErr(f)
			},
			code: halide.ErrUnknownVar, fn: "f", directive: "split",
			mentions: []string{"f.update(0)", "x"},
			legal:    []string{"r$x"},
		},
		{
			name: "bound of a var that is not pure",
			run: func() error {
				b := newBlur()
				b.g.ComputeRoot().Bound(z, 0, 8)
				return lowerErr(b.f)
			},
			code: halide.ErrUnknownVar, fn: "g", directive: "bound",
			mentions: []string{"g", "z"},
			legal:    []string{"x, y"},
		},
	})
}

func TestErrVarReused(t *testing.T) {
	runCases(t, []errCase{
		{
			name: "split of an already split var",
			run: func() error {
				b := newBlur()
				b.f.Split(x, xo, xi, 4).Split(x, halide.NewVar("a"), halide.NewVar("b"), 2)
				return lowerErr(b.f)
			},
			code: halide.ErrVarReused, fn: "f", directive: "split",
			mentions: []string{"f", "x", "already split"},
			legal:    []string{"y, x.xo, x.xi"},
		},
		{
			name: "split creating an existing name",
			run: func() error {
				b := newBlur()
				b.f.Split(x, y, xi, 4)
				return lowerErr(b.f)
			},
			code: halide.ErrVarReused, fn: "f", directive: "split",
			mentions: []string{"f", "x", "y"},
			legal:    []string{"y, x"},
		},
		{
			name: "split creating a name an earlier split created",
			run: func() error {
				b := newBlur()
				b.f.Split(x, xo, xi, 4).Split(y, yo, xi, 4)
				return lowerErr(b.f)
			},
			code: halide.ErrVarReused, fn: "f", directive: "split",
			mentions: []string{"f", "y", "xi"},
		},
		{
			name: "split naming both loops alike",
			run: func() error {
				b := newBlur()
				b.f.Split(x, xi, xi, 4)
				return lowerErr(b.f)
			},
			code: halide.ErrVarReused, fn: "f", directive: "split",
			mentions: []string{"f", "x", "xi"},
		},
		{
			name: "fuse creating an existing name",
			run: func() error {
				in := halide.NewImageParam("in", halide.Float32, 3)
				f := halide.NewFunc("f")
				f.Define(x, y, z).Is(in.At(x, y, z))
				f.Fuse(x, y, z)
				return lowerErr(f)
			},
			code: halide.ErrVarReused, fn: "f", directive: "fuse",
			mentions: []string{"f", "z"},
		},
		{
			name: "reorder of a fused-away var",
			run: func() error {
				b := newBlur()
				b.f.Fuse(x, y, halide.NewVar("xy")).Reorder(x)
				return lowerErr(b.f)
			},
			code: halide.ErrVarReused, fn: "f", directive: "reorder",
			mentions: []string{"f", "x"},
			legal:    []string{"x.xy"},
		},
	})
}

func TestErrReorderDuplicate(t *testing.T) {
	runCases(t, []errCase{
		{
			name: "same var twice",
			run: func() error {
				b := newBlur()
				b.f.Reorder(x, y, x)
				return lowerErr(b.f)
			},
			code: halide.ErrReorderDuplicate, fn: "f", directive: "reorder",
			mentions: []string{"f", "x", "twice"},
			legal:    []string{"y, x"},
		},
		{
			name: "split var twice in an update",
			run: func() error {
				in := halide.NewImageParam("in", halide.Float32, 2)
				r := halide.NewRDom("r", halide.Range(0, 8))
				f := halide.NewFunc("f")
				f.Define(x).Is(0.0)
				f.Define(x).PlusEq(in.At(x, r))
				ro, ri := halide.NewRVar("ro"), halide.NewRVar("ri")
				f.Update(0).Split(r.X(), ro, ri, 4).Reorder(ri, x, ri)
				return lowerErr(f)
			},
			code: halide.ErrReorderDuplicate, fn: "f", directive: "reorder",
			mentions: []string{"f.update(0)", "ri"},
		},
	})
}

func TestErrDefinition(t *testing.T) {
	in := halide.NewImageParam("in", halide.Float32, 1)
	runCases(t, []errCase{
		{
			name: "RVar as a pure argument",
			run: func() error {
				r := halide.NewRDom("r", halide.Range(0, 4))
				f := halide.NewFunc("f")
				f.Define(r.X()).Is(1)
				return lowerErr(f)
			},
			code: halide.ErrDefinition, fn: "f", directive: "Define",
			mentions: []string{"f", "r$x", "RVar"},
		},
		{
			name: "RVar in a pure definition's value",
			run: func() error {
				r := halide.NewRDom("r", halide.Range(0, 4))
				f := halide.NewFunc("f")
				f.Define(x).Is(in.At(x.Add(r.X())))
				return lowerErr(f)
			},
			code: halide.ErrDefinition, fn: "f", directive: "Define",
			mentions: []string{"f", "r$x"},
			legal:    []string{"x"},
		},
		{
			name: "Var on the right that is not on the left",
			run: func() error {
				f := halide.NewFunc("f")
				f.Define(x).Is(in.At(y))
				return lowerErr(f)
			},
			code: halide.ErrDefinition, fn: "f", directive: "Define",
			mentions: []string{"f", "Var y"},
			legal:    []string{"x"},
		},
		{
			name: "expression as a pure argument",
			run: func() error {
				f := halide.NewFunc("f")
				f.Define(x.Add(1)).Is(in.At(x))
				return lowerErr(f)
			},
			code: halide.ErrDefinition, fn: "f", directive: "Define",
			mentions: []string{"f", "argument 0", "Vars"},
		},
		{
			name: "constant as a pure argument",
			run: func() error {
				f := halide.NewFunc("f")
				f.Define(x, 0).Is(in.At(x))
				return lowerErr(f)
			},
			code: halide.ErrDefinition, fn: "f", directive: "Define",
			mentions: []string{"f", "argument 1"},
		},
		{
			name: "repeated Var",
			run: func() error {
				f := halide.NewFunc("f")
				f.Define(x, x).Is(in.At(x))
				return lowerErr(f)
			},
			code: halide.ErrDefinition, fn: "f", directive: "Define",
			mentions: []string{"f", "Var x", "twice"},
		},
		{
			name: "two RDoms in one update",
			run: func() error {
				r1 := halide.NewRDom("r1", halide.Range(0, 4))
				r2 := halide.NewRDom("r2", halide.Range(0, 4))
				f := halide.NewFunc("f")
				f.Define(x).Is(0.0)
				f.Define(x).PlusEq(in.At(r1).Mul(in.At(r2)))
				return lowerErr(f)
			},
			code: halide.ErrDefinition, fn: "f", directive: "Define (update)",
			mentions: []string{"f", "r1", "r2"},
		},
		{
			name: "an update over an RDom before the pure definition",
			run: func() error {
				// PlusEq and the other operator updates define f as
				// Halide does (f = 0 first); an update written with Is
				// cannot be the first definition.
				f := halide.NewFunc("f")
				r := halide.NewRDom("r", halide.Range(0, 4))
				f.Define(r).Is(in.At(r))
				return lowerErr(f)
			},
			code: halide.ErrDefinition, fn: "f", directive: "Define",
			mentions: []string{"f", "pure definition"},
		},
		{
			name: "update with a pure Var in another position",
			run: func() error {
				f := halide.NewFunc("f")
				f.Define(x, y).Is(0)
				f.Define(y, x).PlusEq(1)
				return lowerErr(f)
			},
			code: halide.ErrDefinition, fn: "f", directive: "Define (update)",
			mentions: []string{"f", "Var y", "argument 0", "x"},
		},
		{
			name: "update using a Var that is not on its left",
			run: func() error {
				f := halide.NewFunc("f")
				f.Define(x, y).Is(0)
				f.Define(x, 0).Is(f.At(x, y))
				return lowerErr(f)
			},
			code: halide.ErrDefinition, fn: "f", directive: "Define (update)",
			mentions: []string{"f", "Var y"},
			legal:    []string{"RVars"},
		},
		{
			name: "RDom without dimensions",
			run: func() error {
				r := halide.NewRDom("r")
				f := halide.NewFunc("f")
				f.Define(x).Is(0)
				f.Define(x).PlusEq(in.At(r))
				return lowerErr(f)
			},
			code: halide.ErrDefinition, fn: "f", directive: "RDom",
			mentions: []string{"RDom r", "no dimensions"},
		},
		{
			name: "inline reduction without an RVar",
			run: func() error {
				f := halide.NewFunc("f")
				f.Define(x).Is(halide.Sum(in.At(x)))
				return lowerErr(f)
			},
			code: halide.ErrDefinition, fn: "f", directive: "sum",
			mentions: []string{"sum", "no RVar"},
		},
	})
}

func TestErrType(t *testing.T) {
	in := halide.NewImageParam("in", halide.Float32, 1)
	runCases(t, []errCase{
		{
			name: "update value of another type",
			run: func() error {
				f := halide.NewFunc("f")
				f.Define(x).Is(halide.Cast(halide.Int32, in.At(x)))
				// The update reads f, so it is not a redefinition.
				f.Define(x).Is(halide.Select(f.At(x).Gt(0), in.At(x), 0.0))
				return lowerErr(f)
			},
			code: halide.ErrType, fn: "f", directive: "Define (update)",
			mentions: []string{"f", "float32", "int32"},
		},
		{
			name: "PlusEq of another type",
			run: func() error {
				f := halide.NewFunc("f")
				f.Define(x).Is(halide.Lit(halide.Int16, 0))
				f.Define(x).PlusEq(in.At(x))
				return lowerErr(f)
			},
			code: halide.ErrType, fn: "f", directive: "Define (update)",
			mentions: []string{"f", "float32", "int16"},
		},
		{
			name: "bool arithmetic",
			run: func() error {
				f := halide.NewFunc("f")
				f.Define(x).Is(x.Lt(1).Add(x.Gt(2)))
				return lowerErr(f)
			},
			code: halide.ErrType, fn: "f", directive: "Define",
			mentions: []string{"f", "bool"},
		},
		{
			name: "bool plus int",
			run: func() error {
				f := halide.NewFunc("f")
				f.Define(x).Is(x.Lt(1).Add(x))
				return lowerErr(f)
			},
			code: halide.ErrType, fn: "f", directive: "+",
			mentions: []string{"f", "bool", "int32"},
		},
		{
			name: "And of ints",
			run: func() error {
				f := halide.NewFunc("f")
				f.Define(x).Is(x.And(1))
				return lowerErr(f)
			},
			code: halide.ErrType, fn: "f", directive: "Define",
			mentions: []string{"f", "bool", "int32"},
		},
		{
			name: "float coordinate of an input",
			run: func() error {
				f := halide.NewFunc("f")
				f.Define(x).Is(in.At(halide.Cast(halide.Float32, x)))
				return lowerErr(f)
			},
			// The mistake is in f's definition; "in" is not a Func.
			code: halide.ErrType, fn: "f", directive: "call",
			mentions: []string{"in", "float32", "integers"},
		},
		{
			name: "float coordinate of a Func",
			run: func() error {
				g := halide.NewFunc("g")
				g.Define(x).Is(in.At(x))
				f := halide.NewFunc("f")
				f.Define(x).Is(g.At(halide.Cast(halide.Float32, x).Mul(0.5)))
				return lowerErr(f)
			},
			code: halide.ErrType, fn: "g", directive: "call",
			mentions: []string{"g", "float32", "integers"},
		},
		{
			name: "float scatter coordinate",
			run: func() error {
				f := halide.NewFunc("f")
				f.Define(x).Is(0.0)
				f.Define(in.At(x)).Is(1.0)
				return lowerErr(f)
			},
			code: halide.ErrType, fn: "f", directive: "Define (update)",
			mentions: []string{"f", "float32", "integers"},
		},
		{
			name: "Select with a non-bool condition",
			run: func() error {
				f := halide.NewFunc("f")
				f.Define(x).Is(halide.Select(x, 1, 2))
				return lowerErr(f)
			},
			code: halide.ErrType, fn: "f", directive: "Define",
			mentions: []string{"Select", "int32"},
		},
		{
			name: "constant that does not fit the other operand's type",
			run: func() error {
				f := halide.NewFunc("f")
				f.Define(x).Is(halide.Cast(halide.UInt8, x).Add(300))
				return lowerErr(f)
			},
			// Halide refuses: "Integer constant 300 will be implicitly
			// coerced to type uint8, which changes its value to 44".
			code: halide.ErrType, fn: "f", directive: "+",
			mentions: []string{"300", "uint8"},
		},
		{
			name: "float RDom bounds",
			run: func() error {
				r := halide.NewRDom("r", halide.Range(0, 2.5))
				f := halide.NewFunc("f")
				f.Define(x).Is(0.0)
				f.Define(x).PlusEq(in.At(r))
				return lowerErr(f)
			},
			code: halide.ErrType, fn: "f", directive: "RDom",
			mentions: []string{"RDom r", "float32"},
		},
		{
			name: "float bound",
			run: func() error {
				g := halide.NewFunc("g")
				g.Define(x).Is(in.At(x))
				g.ComputeRoot().Bound(x, 0, 2.5)
				f := halide.NewFunc("f")
				f.Define(x).Is(g.At(x))
				return lowerErr(f)
			},
			code: halide.ErrType, fn: "g", directive: "bound",
			mentions: []string{"g", "x", "float32"},
		},
	})
}

func TestErrArgCount(t *testing.T) {
	in := halide.NewImageParam("in", halide.Float32, 2)
	runCases(t, []errCase{
		{
			name: "Func called with too few arguments",
			run: func() error {
				g := halide.NewFunc("g")
				g.Define(x, y).Is(in.At(x, y))
				f := halide.NewFunc("f")
				f.Define(x).Is(g.At(x))
				return lowerErr(f)
			},
			code: halide.ErrArgCount, fn: "g", directive: "call",
			mentions: []string{"g", "2 arguments", "x, y", "called with 1"},
		},
		{
			name: "Func called with too many arguments",
			run: func() error {
				g := halide.NewFunc("g")
				g.Define(x).Is(in.At(x, 0))
				f := halide.NewFunc("f")
				f.Define(x, y).Is(g.At(x, y))
				return lowerErr(f)
			},
			code: halide.ErrArgCount, fn: "g", directive: "call",
			mentions: []string{"g", "1 arguments", "called with 2"},
		},
		{
			name: "ImageParam called with too few arguments",
			run: func() error {
				f := halide.NewFunc("f")
				f.Define(x).Is(in.At(x))
				return lowerErr(f)
			},
			code: halide.ErrArgCount, fn: "f", directive: "call",
			mentions: []string{"input in", "2 dimensions", "1 arguments"},
		},
		{
			name: "Buffer called with too many arguments",
			run: func() error {
				buf := halide.NewBuffer[float32](4)
				f := halide.NewFunc("f")
				f.Define(x).Is(buf.At(x, 0))
				return lowerErr(f)
			},
			code: halide.ErrArgCount, fn: "f", directive: "call",
			mentions: []string{"1 dimensions", "2 arguments"},
		},
		{
			name: "update with the wrong number of arguments",
			run: func() error {
				f := halide.NewFunc("f")
				f.Define(x, y).Is(in.At(x, y))
				f.Define(x).PlusEq(1.0)
				return lowerErr(f)
			},
			code: halide.ErrArgCount, fn: "f", directive: "Define (update)",
			mentions: []string{"f", "1 arguments", "x, y"},
		},
		{
			name: "boundary condition on a Func with more bounds than dimensions",
			run: func() error {
				g := halide.NewFunc("g")
				g.Define(x, y).Is(in.At(x, y))
				pad := halide.ConstantExterior(g, 0, halide.Range(0, 4), halide.Range(0, 4), halide.Range(0, 4))
				f := halide.NewFunc("f")
				f.Define(x, y).Is(pad.At(x, y))
				return lowerErr(f)
			},
			code: halide.ErrArgCount, fn: "g", directive: "ConstantExterior",
			mentions: []string{"g", "1 to 2 bounds", "got 3"},
			legal:    []string{"1 to 2 RangeSpecs"},
		},
		{
			name: "boundary condition on a Func with no bounds",
			run: func() error {
				g := halide.NewFunc("g")
				g.Define(x, y).Is(in.At(x, y))
				pad := halide.MirrorImage(g)
				f := halide.NewFunc("f")
				f.Define(x, y).Is(pad.At(x, y))
				return lowerErr(f)
			},
			code: halide.ErrArgCount, fn: "g", directive: "MirrorImage",
			mentions: []string{"g", "got 0"},
			legal:    []string{"no buffer"},
		},
	})
}

func TestErrUnbounded(t *testing.T) {
	runCases(t, []errCase{
		{
			name: "input read at a data-dependent index",
			run: func() error {
				in := halide.NewImageParam("in", halide.Float32, 1)
				idx := halide.NewImageParam("idx", halide.Int32, 1)
				f := halide.NewFunc("f")
				f.Define(x).Is(in.At(idx.At(x)))
				return lowerErr(f)
			},
			// The Func that reads in is f; "in" is an input, not a Func.
			code: halide.ErrUnbounded, fn: "f", directive: "bounds inference",
			mentions: []string{"in", "unbounded", "dimension 0"},
			legal:    []string{"Clamped"},
		},
		{
			name: "scatter into an intermediate",
			run: func() error {
				in := halide.NewImageParam("in", halide.Float32, 1)
				idx := halide.NewImageParam("idx", halide.Int32, 1)
				r := halide.NewRDom("r", halide.Range(0, 8))
				g := halide.NewFunc("g")
				g.Define(x).Is(0.0)
				g.Define(idx.At(r)).PlusEq(in.At(r))
				g.ComputeRoot()
				f := halide.NewFunc("f")
				f.Define(x).Is(g.At(x))
				return lowerErr(f)
			},
			code: halide.ErrUnbounded, fn: "g", directive: "bounds inference",
			mentions: []string{"g", "unbounded", "dimension 0"},
			legal:    []string{"Clamped"},
		},
		{
			name: "plain store scatter into an intermediate",
			run: func() error {
				in := halide.NewImageParam("in", halide.Float32, 1)
				idx := halide.NewImageParam("idx", halide.Int32, 1)
				r := halide.NewRDom("r", halide.Range(0, 8))
				g := halide.NewFunc("g")
				g.Define(x).Is(0.0)
				g.Define(idx.At(r)).Is(in.At(r)) // writes g anywhere, reads no g
				g.ComputeRoot()
				f := halide.NewFunc("f")
				f.Define(x).Is(g.At(x))
				return lowerErr(f)
			},
			// Caught when sizing g's allocation from what g's loops touch.
			code: halide.ErrUnbounded, fn: "g", directive: "allocation bounds",
			mentions: []string{"g", "unbounded", "dimension 0"},
		},
		{
			name: "scatter into the output",
			run: func() error {
				idx := halide.NewImageParam("idx", halide.Int32, 1)
				r := halide.NewRDom("r", halide.Range(0, 8))
				f := halide.NewFunc("f")
				f.Define(x).Is(0)
				f.Define(idx.At(r)).PlusEq(1)
				return lowerErr(f)
			},
			code: halide.ErrUnbounded, fn: "f", directive: "bounds inference",
			mentions: []string{"f", "unbounded", "dimension 0"},
		},
		{
			name: "compute_root producer read at a data-dependent index",
			run: func() error {
				in := halide.NewImageParam("in", halide.Float32, 1)
				idx := halide.NewImageParam("idx", halide.Int32, 1)
				g := halide.NewFunc("g")
				g.Define(x).Is(in.At(x).Mul(2))
				g.ComputeRoot()
				f := halide.NewFunc("f")
				f.Define(x).Is(g.At(idx.At(x)))
				return lowerErr(f)
			},
			code: halide.ErrUnbounded, fn: "g", directive: "bounds inference",
			mentions: []string{"g", "unbounded", "dimension 0", "x"},
			legal:    []string{"Clamped"},
		},
		{
			name: "bounded Func read at a data-dependent index",
			run: func() error {
				in := halide.NewImageParam("in", halide.Float32, 1)
				idx := halide.NewImageParam("idx", halide.Int32, 1)
				g := halide.NewFunc("g")
				g.Define(x).Is(in.At(x).Mul(2))
				g.ComputeRoot().Bound(x, 0, 16)
				f := halide.NewFunc("f")
				f.Define(x).Is(g.At(idx.At(x)))
				return lowerErr(f)
			},
			code: halide.ErrUnbounded, fn: "g", directive: "bound",
			mentions: []string{"g", "unbounded", "bound"},
		},
	})
}

func TestErrBufferShape(t *testing.T) {
	type realizeCase struct {
		name      string
		setup     func(b blur)
		out       halide.BufferRef
		fn        string
		mentions  []string
		sameAsOut bool
	}
	cases := []realizeCase{
		{name: "output dims", setup: func(b blur) { b.set(9, 4) }, out: halide.NewBuffer[float32](8),
			fn: "f", mentions: []string{"output", "1 dimensions", "f has 2"}},
		{name: "output type", setup: func(b blur) { b.set(9, 4) }, out: halide.NewBuffer[int32](8, 4),
			fn: "f", mentions: []string{"output", "int32", "float32"}},
		{name: "input dims", setup: func(b blur) { b.in.Set(halide.NewBuffer[float32](9)) }, out: halide.NewBuffer[float32](8, 4),
			fn: "f", mentions: []string{"input in", "2 dimensions", "has 1"}},
		{name: "input type", setup: func(b blur) { b.in.Set(halide.NewBuffer[uint8](9, 4)) }, out: halide.NewBuffer[float32](8, 4),
			fn: "f", mentions: []string{"input in", "float32", "uint8"}},
		{name: "SetBounds extent violated", setup: func(b blur) {
			b.in.Dim(0).SetBounds(0, 16)
			b.set(9, 4)
		}, out: halide.NewBuffer[float32](8, 4),
			// The pipeline is f's; Func "in" would name an input as a Func.
			fn: "f", mentions: []string{"input in", "extent 16", "dimension 0", "SetBounds", "9"}},
		{name: "SetBounds min violated", setup: func(b blur) {
			b.in.Dim(1).SetBounds(1, 4)
			b.set(9, 4)
		}, out: halide.NewBuffer[float32](8, 4),
			fn: "f", mentions: []string{"input in", "min 1", "dimension 1", "SetBounds", "0"}},
		{name: "output is the input", sameAsOut: true,
			fn: "f", mentions: []string{"output", "input in"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := newBlur()
			out := c.out
			if c.sameAsOut {
				out = b.set(9, 4)
			} else {
				c.setup(b)
			}
			err := safely(func() error { return halide.NewPipeline(b.f).Realize(out) })
			check(t, err, halide.ErrBufferShape, c.fn, "Realize", c.mentions...)
		})
	}
}

func TestErrUndefined(t *testing.T) {
	runCases(t, []errCase{
		{
			name: "Param not set",
			run: func() error {
				in := halide.NewImageParam("in", halide.Float32, 1)
				k := halide.NewParam[float32]("k")
				f := halide.NewFunc("f")
				f.Define(x).Is(in.At(x).Mul(k))
				in.Set(halide.NewBuffer[float32](4))
				return f.Realize(halide.NewBuffer[float32](4))
			},
			code: halide.ErrUndefined, fn: "f", directive: "Realize",
			mentions: []string{"Param k", "Set"},
		},
		{
			name: "ImageParam not set",
			run: func() error {
				in := halide.NewImageParam("in", halide.Float32, 1)
				f := halide.NewFunc("f")
				f.Define(x).Is(in.At(x))
				return f.Realize(halide.NewBuffer[float32](4))
			},
			code: halide.ErrUndefined, fn: "f", directive: "Realize",
			mentions: []string{"input in", "Set"},
		},
		{
			name: "Func never defined, called",
			run: func() error {
				g := halide.NewFunc("g")
				f := halide.NewFunc("f")
				f.Define(x).Is(g.At(x))
				return lowerErr(f)
			},
			code: halide.ErrUndefined, fn: "g", directive: "call",
			mentions: []string{"g", "definition"},
		},
		{
			name: "Func never defined, as the output",
			run: func() error {
				return lowerErr(halide.NewFunc("f"))
			},
			code: halide.ErrUndefined, fn: "f", directive: "pipeline",
			mentions: []string{"f", "no definition"},
		},
		{
			name: "no output Func",
			run: func() error {
				return lowerErr(nil)
			},
			code: halide.ErrUndefined, fn: "", directive: "NewPipeline",
			mentions: []string{"no output"},
		},
		{
			name: "wrapper of an undefined Func",
			run: func() error {
				g := halide.NewFunc("g")
				f := halide.NewFunc("f")
				w := g.In(f)
				f.Define(x).Is(w.At(x))
				return lowerErr(f)
			},
			code: halide.ErrUndefined, fn: "g_in_f", directive: "in",
			mentions: []string{"g", "no definition"},
		},
		{
			name: "boundary condition on an undefined Func",
			run: func() error {
				g := halide.NewFunc("g")
				pad := halide.RepeatEdge(g)
				f := halide.NewFunc("f")
				f.Define(x).Is(pad.At(x))
				return lowerErr(f)
			},
			code: halide.ErrUndefined, fn: "g", directive: "RepeatEdge",
			mentions: []string{"g", "no definition"},
		},
	})
}

func TestErrSchedule(t *testing.T) {
	in := halide.NewImageParam("in", halide.Float32, 2)
	reduction := func() (*halide.Func, *halide.RDom) {
		r := halide.NewRDom("r", halide.Range(0, 10))
		f := halide.NewFunc("f")
		f.Define(x).Is(0.0)
		f.Define(x).PlusEq(in.At(x, r))
		return f, r
	}
	ro, ri := halide.NewRVar("ro"), halide.NewRVar("ri")
	runCases(t, []errCase{
		{
			name: "unroll of a non-constant extent",
			run: func() error {
				b := newBlur()
				b.f.Unroll(x)
				return lowerErr(b.f)
			},
			code: halide.ErrSchedule, fn: "f", directive: "unroll",
			mentions: []string{"f.s0.x", "constant"},
			legal:    []string{"split"},
		},
		{
			name: "vectorize of a non-constant extent",
			run: func() error {
				b := newBlur()
				b.g.ComputeAt(b.f, y).Vectorize(x)
				return lowerErr(b.f)
			},
			code: halide.ErrSchedule, fn: "g", directive: "vectorize",
			mentions: []string{"g.s0.x", "constant"},
		},
		{
			name: "unroll of too many iterations",
			run: func() error {
				b := newBlur()
				b.f.Unroll(x, 5000)
				return lowerErr(b.f)
			},
			code: halide.ErrSchedule, fn: "f", directive: "unroll",
			mentions: []string{"f.s0.x.x_u", "5000", "1024"},
		},
		{
			name: "compute_inline of a Func with updates",
			run: func() error {
				g, _ := reduction()
				g.ComputeInline()
				f := halide.NewFunc("out")
				f.Define(x).Is(g.At(x))
				return lowerErr(f)
			},
			code: halide.ErrSchedule, fn: "f", directive: "compute_inline",
			mentions: []string{"f", "update"},
			legal:    []string{"compute_root"},
		},
		{
			name: "ShiftInwards in an update",
			run: func() error {
				f, _ := reduction()
				f.Update(0).Split(x, xo, xi, 4, halide.ShiftInwards)
				return lowerErr(f)
			},
			code: halide.ErrSchedule, fn: "f", directive: "split",
			mentions: []string{"ShiftInwards", "x", "update 0"},
			legal:    []string{"GuardWithIf"},
		},
		{
			name: "RoundUp of an RVar",
			run: func() error {
				f, r := reduction()
				f.Update(0).Split(r.X(), ro, ri, 4, halide.RoundUp)
				return lowerErr(f)
			},
			code: halide.ErrSchedule, fn: "f", directive: "split",
			mentions: []string{"RoundUp", "r$x"},
			legal:    []string{"GuardWithIf"},
		},
		{
			name: "parallel RVar without Atomic",
			run: func() error {
				f, r := reduction()
				f.Update(0).Parallel(r.X())
				return lowerErr(f)
			},
			code: halide.ErrSchedule, fn: "f", directive: "parallel",
			mentions: []string{"r$x", "race"},
			legal:    []string{"Atomic"},
		},
		{
			name: "parallel split RVar without Atomic",
			run: func() error {
				f, r := reduction()
				f.Update(0).Split(r.X(), ro, ri, 2).Parallel(ro)
				return lowerErr(f)
			},
			code: halide.ErrSchedule, fn: "f", directive: "parallel",
			mentions: []string{"r$x.ro", "race"},
			legal:    []string{"Atomic"},
		},
		{
			name: "split by zero",
			run: func() error {
				b := newBlur()
				b.f.Split(x, xo, xi, 0)
				return lowerErr(b.f)
			},
			code: halide.ErrSchedule, fn: "f", directive: "split",
			mentions: []string{"x", "by 0", "positive"},
		},
		{
			name: "split factor that does not fit in int32",
			run: func() error {
				b := newBlur()
				b.f.Split(x, xo, xi, 1<<40)
				return lowerErr(b.f)
			},
			// Lowering wraps the factor to 0: the output is then never
			// written and Realize reports success.
			code: halide.ErrSchedule, fn: "f", directive: "split",
			mentions: []string{"x", "1099511627776"},
		},
		{
			name: "update that does not exist",
			run: func() error {
				f, _ := reduction()
				f.Update(5).Split(x, xo, xi, 2)
				return lowerErr(f)
			},
			code: halide.ErrSchedule, fn: "f", directive: "Update",
			mentions: []string{"f", "1 update", "update 5"},
		},
		{
			name: "scheduled before it is defined",
			run: func() error {
				f := halide.NewFunc("f")
				f.Split(x, xo, xi, 2)
				f.Define(x, y).Is(in.At(x, y))
				return lowerErr(f)
			},
			code: halide.ErrSchedule, fn: "f", directive: "split",
			mentions: []string{"f", "before", "definition"},
		},
		{
			// Legal into an RVar (an RVar loop), as in Halide; not into a Var.
			name: "fuse of a pure var and an RVar into a Var",
			run: func() error {
				f, r := reduction()
				f.Update(0).Fuse(r.X(), x, halide.NewVar("rx"))
				return lowerErr(f)
			},
			code: halide.ErrSchedule, fn: "f", directive: "fuse",
			mentions: []string{"RVar", "r$x", "x", "rx is a Var"},
			legal:    []string{"NewRVar"},
		},
		{
			name: "RoundUp of an inner loop of the output",
			run: func() error {
				b := newBlur()
				b.f.Split(x, xo, xi, 8).Split(xi, halide.NewVar("a"), halide.NewVar("b"), 3, halide.RoundUp)
				return lowerErr(b.f)
			},
			code: halide.ErrSchedule, fn: "f", directive: "split",
			mentions: []string{"x.xi", "8", "3", "RoundUp"},
			legal:    []string{"GuardWithIf"},
		},
	})
}

// Funcs that share a name, or share one with an input or a Param, are
// renamed (halide/unique_names_test.go); inputs and Params may not.
func TestErrDuplicateName(t *testing.T) {
	runCases(t, []errCase{
		{
			name: "two inputs",
			run: func() error {
				a := halide.NewImageParam("in", halide.Float32, 1)
				b := halide.NewImageParam("in", halide.Float32, 1)
				f := halide.NewFunc("f")
				f.Define(x).Is(a.At(x).Add(b.At(x)))
				return lowerErr(f)
			},
			code: halide.ErrDuplicateName, fn: "in", directive: "pipeline",
			mentions: []string{"in", "input"},
		},
		{
			name: "two Params",
			run: func() error {
				a := halide.NewParam[int32]("k")
				b := halide.NewParam[int32]("k")
				f := halide.NewFunc("f")
				f.Define(x).Is(x.Mul(a).Add(b))
				return lowerErr(f)
			},
			code: halide.ErrDuplicateName, fn: "k", directive: "pipeline",
			mentions: []string{"k", "Param"},
		},
	})
}

func TestErrRuntime(t *testing.T) {
	runCases(t, []errCase{
		{
			name: "output smaller than a ShiftInwards split factor",
			run: func() error {
				b := newBlur()
				b.f.Split(x, xo, xi, 8, halide.ShiftInwards)
				b.set(6, 2)
				return b.f.Realize(halide.NewBuffer[float32](5, 2))
			},
			// Realize computes f over the 8 columns the split writes
			// ([-3, 4]), as Halide's realize(sizes), which reads the
			// input past its 6 columns.
			code: halide.ErrOutOfBounds, fn: "f", directive: "Realize",
			mentions: []string{"reads input in over [-3, 5]", "writes f over [-3, 5) x [0, 2)", "buffer's [0, 5) x [0, 2)", "ShiftInwards"},
		},
		{
			name: "output extent not a multiple of a RoundUp factor",
			run: func() error {
				b := newBlur()
				b.f.Split(x, xo, xi, 4, halide.RoundUp)
				b.set(11, 2)
				return b.f.Realize(halide.NewBuffer[float32](10, 2))
			},
			// Realize computes f over the 12 columns the split writes,
			// which reads the input past its 11 columns.
			code: halide.ErrOutOfBounds, fn: "f", directive: "Realize",
			mentions: []string{"reads input in over [0, 12]", "writes f over [0, 12) x [0, 2)", "RoundUp"},
		},
		{
			name: "input too small",
			run: func() error {
				b := newBlur()
				b.set(8, 2) // f reads in(x+1): it needs 9 columns
				return b.f.Realize(halide.NewBuffer[float32](8, 2))
			},
			// A kind of runtime error: input_bounds_test.go checks it.
			code: halide.ErrOutOfBounds, fn: "f", directive: "Realize",
			mentions: []string{"reads input in over [0, 8] in dimension 0", "[0, 7]"},
		},
		{
			name: "bound too small",
			run: func() error {
				b := newBlur()
				b.g.ComputeRoot().Bound(x, 0, 4)
				b.set(9, 2)
				return b.f.Realize(halide.NewBuffer[float32](8, 2))
			},
			code: halide.ErrRuntime, fn: "f", directive: "Realize",
			mentions: []string{"bound of g", "x", "too small"},
		},
	})
}

// TestErrRuntimeBrokenPromise breaks an UnsafePromiseClamped promise: the
// out-of-bounds load is reported as an error (not a panic), and the output
// is left untouched past the point the program stopped.
func TestErrRuntimeBrokenPromise(t *testing.T) {
	const n, bad = 8, 5
	in := halide.NewImageParam("in", halide.Float32, 1)
	idx := halide.NewImageParam("idx", halide.Int32, 1)
	f := halide.NewFunc("f")
	f.Define(x).Is(in.At(halide.UnsafePromiseClamped(idx.At(x), 0, in.Dim(0).Max())))
	ib := halide.NewBuffer[float32](n)
	ib.Fill(func(c []int) float32 { return float32(10 * c[0]) })
	ix := halide.NewBuffer[int32](n)
	ix.Fill(func(c []int) int32 { return int32(n - 1 - c[0]) })
	ix.Set(1000, bad) // the promise says [0, 7]
	in.Set(ib)
	idx.Set(ix)
	out := halide.NewBuffer[float32](n)
	const sentinel = -1
	out.Fill(func([]int) float32 { return sentinel })
	err := safely(func() error { return halide.NewPipeline(f).Realize(out) })
	check(t, err, halide.ErrOutOfBounds, "f", "Realize", "in", "1000", "out of bounds")
	if !errors.Is(err, halide.ErrRuntime) {
		t.Errorf("errors.Is(%v, ErrRuntime) is false; an access out of bounds is a run-time error", err)
	}
	for i := 0; i < n; i++ {
		got := out.Get(i)
		switch {
		case i < bad && got != float32(10*(n-1-i)):
			t.Errorf("out(%d) = %v, want %v (computed before the bad load)", i, got, 10*(n-1-i))
		case i >= bad && got != sentinel:
			t.Errorf("out(%d) = %v, want it untouched (%v)", i, got, sentinel)
		}
	}
}

// TestErrRuntimeBrokenScatterPromise breaks the promise of a scatter into
// the output: the store out of bounds is reported and nothing outside the
// buffer's region is written.
func TestErrRuntimeBrokenScatterPromise(t *testing.T) {
	const n = 6
	idx := halide.NewImageParam("idx", halide.Int32, 1)
	r := halide.NewRDom("r", halide.Range(0, idx.Dim(0).Extent()))
	f := halide.NewFunc("f")
	f.Define(x).Is(0)
	f.Define(halide.UnsafePromiseClamped(idx.At(r), 0, n-1)).PlusEq(1)
	ix := halide.NewBuffer[int32](4)
	copy(ix.Data(), []int32{1, 3, n + 100, 2})
	idx.Set(ix)
	out := halide.NewBuffer[int32](n)
	err := safely(func() error { return halide.NewPipeline(f).Realize(out) })
	check(t, err, halide.ErrOutOfBounds, "f", "Realize", "f", "out of bounds")
	want := []int32{0, 1, 0, 1, 0, 0} // 1 and 3 were counted before the bad store
	for i, w := range want {
		if got := out.Get(i); got != w {
			t.Errorf("out(%d) = %d, want %d", i, got, w)
		}
	}
}

// A Func computed inline has no loops and no storage: Halide's
// validate_schedule_inlined_function refuses a parallel, vectorized,
// unrolled or GPU loop of it, and a store level.
func TestErrInlinedSchedule(t *testing.T) {
	pipeline := func() (f, g *halide.Func) {
		in := halide.NewImageParam("in", halide.Float32, 1)
		g = halide.NewFunc("g")
		g.Define(x).Is(in.At(x).Mul(2))
		f = halide.NewFunc("f")
		f.Define(x).Is(g.At(x).Add(g.At(x.Add(1))))
		return f, g
	}
	xo, xi := halide.NewVar("xo"), halide.NewVar("xi")
	runCases(t, []errCase{
		{
			name: "vectorize",
			run: func() error {
				f, g := pipeline()
				g.Vectorize(x, 4)
				return lowerErr(f)
			},
			code: halide.ErrSchedule, fn: "g", directive: "vectorize",
			mentions: []string{"computed inline", "vectorized"},
			legal:    []string{"compute_root or compute_at g"},
		},
		{
			name: "parallel",
			run: func() error {
				f, g := pipeline()
				g.Split(x, xo, xi, 8).Parallel(xo)
				return lowerErr(f)
			},
			code: halide.ErrSchedule, fn: "g", directive: "parallel",
			mentions: []string{"computed inline", "x.xo"},
			legal:    []string{"drop the parallel"},
		},
		{
			name: "store_root",
			run: func() error {
				f, g := pipeline()
				g.StoreRoot()
				return lowerErr(f)
			},
			code: halide.ErrSchedule, fn: "g", directive: "store_at",
			mentions: []string{"computed inline", "no storage"},
			legal:    []string{"compute_root or compute_at g"},
		},
	})
}
