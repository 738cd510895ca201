package errors_test

import (
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// TestErrTuple checks the mistakes with Tuple Funcs: a call used as one
// value, an update with the wrong number or types of values, a reduction
// operator (PlusEq, ...) on a Tuple Func, an atomic update that needs a
// lock inside a GPU kernel, and realizing a Tuple output
// into the wrong buffers. Each names the Func, the directive and what
// would be legal.
func TestErrTuple(t *testing.T) {
	x := halide.NewVar("x")
	// f(x) = (x, float32(x)): a Tuple Func of an int32 and a float32.
	tuple := func() *halide.Func {
		f := halide.NewFunc("f")
		f.Define(x).Is(halide.NewTuple(x, halide.Cast(halide.Float32, x)))
		return f
	}
	consumer := func(v halide.Expr) *halide.Func {
		g := halide.NewFunc("g")
		g.Define(x).Is(v)
		return g
	}
	runCases(t, []errCase{
		{
			name: "call used as one value",
			run: func() error {
				f := tuple()
				return lowerErr(consumer(f.At(x)))
			},
			code:      halide.ErrTuple,
			fn:        "f",
			directive: "call",
			mentions:  []string{"f is a Tuple Func of 2 values"},
			legal:     []string{"f.AtTuple(args...).Elem(i)"},
		},
		{
			name: "Tuple used as one value",
			run: func() error {
				f := tuple()
				return lowerErr(consumer(halide.E(f.AtTuple(x)).Add(1)))
			},
			code:      halide.ErrTuple,
			fn:        "g",
			directive: "Define",
			mentions:  []string{"a Tuple of 2 values is not one expression"},
			legal:     []string{"t.Elem(i)"},
		},
		{
			name: "value index out of range",
			run: func() error {
				f := tuple()
				return lowerErr(consumer(f.AtTuple(x).Elem(2)))
			},
			code:      halide.ErrTuple,
			fn:        "g",
			directive: "Tuple.Elem",
			mentions:  []string{"value 2 of a Tuple of 2 values"},
			legal:     []string{"[0, 2)"},
		},
		{
			name: "update with too few values",
			run: func() error {
				f := tuple()
				f.Define(x).Is(halide.NewTuple(f.AtTuple(x).Elem(0).Add(1)))
				return lowerErr(f)
			},
			code:      halide.ErrTuple,
			fn:        "f",
			directive: "Define (update)",
			mentions:  []string{"the update gives 1 values but f has 2"},
			legal:     []string{"(int32, float32)"},
		},
		{
			name: "update with one value",
			run: func() error {
				f := tuple()
				f.Define(x).Is(f.AtTuple(x).Elem(0).Add(1))
				return lowerErr(f)
			},
			code:      halide.ErrTuple,
			fn:        "f",
			directive: "Define (update)",
			mentions:  []string{"the update gives one value"},
			legal:     []string{"NewTuple"},
		},
		{
			name: "update value of another type",
			run: func() error {
				f := tuple()
				old := f.AtTuple(x)
				f.Define(x).Is(halide.NewTuple(old.Elem(1), old.Elem(0)))
				return lowerErr(f)
			},
			code:      halide.ErrType,
			fn:        "f",
			directive: "Define (update)",
			mentions:  []string{"value 0 of the update has type float32 but value 0 of f has type int32"},
			legal:     []string{"Cast"},
		},
		{
			name: "PlusEq",
			run: func() error {
				f := tuple()
				f.Define(x).PlusEq(1)
				return lowerErr(f)
			},
			code:      halide.ErrTuple,
			fn:        "f",
			directive: "PlusEq",
			mentions:  []string{"PlusEq of the Tuple Func f, which has 2 values, with one value, 1"},
			legal:     []string{"PlusEq with a Tuple of 2 values (NewTuple)"},
		},
		{
			name: "MaxEq of a Tuple of the wrong length",
			run: func() error {
				f := tuple()
				f.Define(x).MaxEq(halide.NewTuple(1, 2, 3))
				return lowerErr(f)
			},
			code:      halide.ErrTuple,
			fn:        "f",
			directive: "MaxEq",
			mentions:  []string{"MaxEq of the Tuple Func f, which has 2 values, with a Tuple of 3 values"},
			legal:     []string{"MaxEq with a Tuple of 2 values"},
		},
		{
			name: "rfactor of a Tuple whose index does not follow its key (not an argmax)",
			run: func() error {
				in := halide.NewImageParam("in", halide.Float32, 1)
				r := halide.NewRDom("r", halide.Range(0, 10))
				f := halide.NewFunc("f")
				f.Define().Is(halide.NewTuple(int32(0), float32(0)))
				old := f.AtTuple()
				// The index is taken where the new value is smaller,
				// the key keeps the larger: not an argmax.
				worse := in.At(r).Lt(old.Elem(1))
				f.Define().Is(halide.NewTuple(halide.Select(worse, r, old.Elem(0)), halide.Max(old.Elem(1), in.At(r))))
				f.Update(0).RFactor(halide.RFactorPair{R: r, V: halide.NewVar("u")})
				return lowerErr(f)
			},
			code:      halide.ErrNotAssociative,
			fn:        "f",
			directive: "rfactor",
			mentions:  []string{"are neither each f()[i] op e_i", "nor an argmin or argmax"},
			legal:     []string{"an argmin or argmax"},
		},
		{
			name: "SelectTuple of different lengths",
			run: func() error {
				f := tuple()
				f.Define(x).Is(halide.SelectTuple(x.Gt(0), f.AtTuple(x), halide.NewTuple(1, 2, 3)))
				return lowerErr(f)
			},
			code:      halide.ErrTuple,
			fn:        "f",
			directive: "SelectTuple",
			mentions:  []string{"the Tuples have 2 and 3 values"},
			legal:     []string{"the same number of values"},
		},
		{
			name: "atomic update whose values read one another, in a kernel",
			run: func() error {
				in := halide.NewImageParam("in", halide.Int32, 1)
				r := halide.NewRDom("r", halide.Range(0, 128))
				f := tuple()
				k := halide.Clamped(in.At(r), 0, 9)
				old := f.AtTuple(k)
				// The values swap: each reads the other, so the update
				// needs a lock over both, which a kernel does not have.
				f.Define(k).Is(halide.NewTuple(halide.Cast(halide.Int32, old.Elem(1)).Add(1), halide.Cast(halide.Float32, old.Elem(0)).Add(2)))
				ro, ri := halide.NewRVar("ro"), halide.NewRVar("ri")
				f.Update(0).Atomic().Split(r.X(), ro, ri, 32).GPUBlocks(ro).GPUThreads(ri)
				f.Bound(x, 0, 10)
				return lowerErr(f)
			},
			code:      halide.ErrSchedule,
			fn:        "f",
			directive: "atomic",
			mentions:  []string{"values read one another", "a lock"},
			legal:     []string{"outside the kernel", "each value reads only its own element"},
		},
		{
			name: "Realize into one buffer",
			run: func() error {
				return tuple().Realize(halide.NewBuffer[int32](4))
			},
			code:      halide.ErrTuple,
			fn:        "f",
			directive: "Realize",
			mentions:  []string{"f is a Tuple Func of 2 values, realized into 1 buffers"},
			legal:     []string{"RealizeTuple", "(int32, float32)"},
		},
		{
			name: "RealizeTuple into buffers of the wrong type",
			run: func() error {
				return tuple().RealizeTuple(halide.NewBuffer[int32](4), halide.NewBuffer[int32](4))
			},
			code:      halide.ErrBufferShape,
			fn:        "f",
			directive: "Realize",
			mentions:  []string{"output buffer 1 holds int32 but f computes float32"},
		},
		{
			name: "RealizeTuple into buffers of different shapes",
			run: func() error {
				return tuple().RealizeTuple(halide.NewBuffer[int32](4), halide.NewBuffer[float32](5))
			},
			code:      halide.ErrBufferShape,
			fn:        "f",
			directive: "RealizeTuple",
			mentions:  []string{"output buffer 1 covers [0, 5) in dimension 0 but output buffer 0 covers [0, 4)"},
			legal:     []string{"buffers of one shape"},
		},
		{
			name: "RealizeTuple of a Func of one value into two buffers",
			run: func() error {
				return consumer(x.Add(0)).RealizeTuple(halide.NewBuffer[int32](4), halide.NewBuffer[int32](4))
			},
			code:      halide.ErrTuple,
			fn:        "g",
			directive: "RealizeTuple",
			mentions:  []string{"g has one value, realized into 2 buffers"},
			legal:     []string{"one buffer"},
		},
		{
			name: "shared inline Argmax inside a shared production",
			run: func() error {
				y := halide.NewVar("y")
				bx, by, tx, ty := halide.NewVar("bx"), halide.NewVar("by"), halide.NewVar("tx"), halide.NewVar("ty")
				in := halide.NewImageParam("in", halide.Float32, 2)
				r := halide.NewRDom("r", halide.Range(0, 8))
				am := halide.NewFunc("am")
				am.Define(y).Is(halide.Argmax(in.At(r, y)).Elem(0))
				out := halide.NewFunc("out")
				out.Define(x, y).Is(in.At(x, y).Add(halide.Cast(halide.Float32, am.At(y))))
				out.GPUTile(x, y, bx, by, tx, ty, 8, 4)
				am.ComputeAt(out, bx).StoreIn(halide.GPUShared)
				return lowerErr(out)
			},
			code:      halide.ErrSchedule,
			fn:        "argmax",
			directive: "compute_at",
			mentions:  []string{"argmax is stored in GPU shared memory and computed inside the production of am"},
			legal:     []string{"give am its own gpu_threads"},
		},
	})
}
