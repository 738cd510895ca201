package errors_test

import (
	"errors"
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// TestBadNames: a name that is empty or contains '.' or '$' (which the
// compiler uses in names of its own: blur.s0.x, r$x, sum$1) is an
// ErrBadName error, from every constructor that takes a name. The
// constructors cannot return errors, so the error is recorded and comes
// back from Lower, naming the Func that uses the bad name.
func TestBadNames(t *testing.T) {
	legal := []string{"without '.' or '$'"}
	runCases(t, []errCase{
		{
			// The case: "img.s2" reads as stage 2 of a Func img.
			name: "NewFunc with a dot",
			run: func() error {
				f := halide.NewFunc("img.s2")
				f.Define(x).Is(x)
				return lowerErr(f)
			},
			code: halide.ErrBadName, fn: "img.s2", directive: "NewFunc",
			mentions: []string{`the name "img.s2" of Func contains '.'`},
			legal:    []string{"without '.' or '$'", `"img_s2"`},
		},
		{
			name: "NewFunc with a dollar, used by another Func",
			run: func() error {
				g := halide.NewFunc("sum$1")
				g.Define(x).Is(x)
				f := halide.NewFunc("f")
				f.Define(x).Is(g.At(x).Add(1))
				return lowerErr(f)
			},
			code: halide.ErrBadName, fn: "sum$1", directive: "NewFunc",
			mentions: []string{`"sum$1"`, `contains '$'`},
			legal:    legal,
		},
		{
			name: "NewFunc with an empty name",
			run: func() error {
				f := halide.NewFunc("")
				f.Define(x).Is(x)
				return lowerErr(f)
			},
			code: halide.ErrBadName, fn: "", directive: "NewFunc",
			mentions: []string{`the name "" of Func is empty`},
			legal:    legal,
		},
		{
			name: "NewVar in a pure definition",
			run: func() error {
				v := halide.NewVar("x.0")
				f := halide.NewFunc("f")
				f.Define(v).Is(v.Mul(2))
				return lowerErr(f)
			},
			code: halide.ErrBadName, fn: "f", directive: "NewVar",
			mentions: []string{`the name "x.0" of Var contains '.'`},
			legal:    legal,
		},
		{
			// A bad name that appears only as a new loop of a directive.
			name: "NewVar in split",
			run: func() error {
				f := halide.NewFunc("f")
				f.Define(x).Is(x)
				f.Split(x, halide.NewVar("x$o"), xi, 4)
				return lowerErr(f)
			},
			code: halide.ErrBadName, fn: "f", directive: "NewVar",
			mentions: []string{`"x$o"`, "contains '$'"},
			legal:    legal,
		},
		{
			name: "NewVar in compute_at",
			run: func() error {
				b := newBlur()
				b.g.ComputeAt(b.f, halide.NewVar("y.yo"))
				return lowerErr(b.f)
			},
			code: halide.ErrBadName, fn: "g", directive: "NewVar",
			mentions: []string{`"y.yo"`},
			legal:    legal,
		},
		{
			name: "NewRVar in an RVar split",
			run: func() error {
				r := halide.NewRDom("r", halide.Range(0, 8))
				f := halide.NewFunc("f")
				f.Define(x).Is(0)
				f.Define(x).PlusEq(r.X())
				f.Update(0).Split(r.X(), halide.NewRVar("r.xo"), halide.NewRVar("rxi"), 2)
				return lowerErr(f)
			},
			code: halide.ErrBadName, fn: "f", directive: "NewRVar",
			mentions: []string{`the name "r.xo" of RVar contains '.'`},
			legal:    legal,
		},
		{
			name: "NewRDom",
			run: func() error {
				r := halide.NewRDom("r$", halide.Range(0, 8))
				f := halide.NewFunc("f")
				f.Define(x).Is(0)
				f.Define(x).PlusEq(r.X())
				return lowerErr(f)
			},
			code: halide.ErrBadName, fn: "f", directive: "NewRDom",
			mentions: []string{`the name "r$" of RDom contains '$'`},
			legal:    legal,
		},
		{
			name: "NewParam",
			run: func() error {
				p := halide.NewParam[int32]("p.0")
				f := halide.NewFunc("f")
				f.Define(x).Is(x.Add(p))
				return lowerErr(f)
			},
			code: halide.ErrBadName, fn: "f", directive: "NewParam",
			mentions: []string{`the name "p.0" of Param contains '.'`},
			legal:    legal,
		},
		{
			name: "NewImageParam",
			run: func() error {
				in := halide.NewImageParam("in.min", halide.Float32, 1)
				f := halide.NewFunc("f")
				f.Define(x).Is(in.At(x))
				return lowerErr(f)
			},
			code: halide.ErrBadName, fn: "f", directive: "NewImageParam",
			mentions: []string{`the name "in.min" of ImageParam contains '.'`},
			legal:    legal,
		},
	})
}

// TestBadNameMessage shows the whole message of the case, and that
// errors.Is finds the code through Realize as well as Lower.
func TestBadNameMessage(t *testing.T) {
	f := halide.NewFunc("img.s2")
	f.Define(x).Is(x)
	err := halide.NewPipeline(f).Realize(halide.NewBuffer[int32](4))
	// The text below is ir.Error's format: code, Func, directive, message
	// and what is legal.
	const want = `bad_name: Func img.s2: NewFunc: the name "img.s2" of Func contains '.' (legal: a non-empty name without '.' or '$' (the compiler uses them in the names it makes: blur.s0.x, r$x, sum$1), for example "img_s2")`
	if err == nil || err.Error() != want {
		t.Errorf("Realize error:\n got %v\nwant %s", err, want)
	}
	if !errors.Is(err, halide.ErrBadName) {
		t.Errorf("errors.Is(%v, ErrBadName) = false", err)
	}
}

// TestGoodNamesStillWork guards the library's own names: wrappers,
// boundary conditions and inline reductions make Funcs and Vars whose
// names contain '$' or come from other names, and must not trip the check.
func TestGoodNamesStillWork(t *testing.T) {
	in := halide.NewImageParam("in", halide.Float32, 1)
	r := halide.NewRDom("r", halide.Range(-1, 3))
	padded := halide.RepeatEdge(in)
	f := halide.NewFunc("f")
	f.Define(x).Is(halide.Sum(padded.At(x.Add(r))).Add(padded.At(x)))
	padded.In(f).ComputeRoot()
	b := halide.NewBuffer[float32](8)
	b.Fill(func(c []int) float32 { return float32(c[0]) })
	in.Set(b)
	out := halide.NewBuffer[float32](8)
	if err := halide.NewPipeline(f).Realize(out); err != nil {
		t.Fatal(err)
	}
	// f(3) = in(2) + in(3) + in(4) + in(3), with in(x) = x.
	if got := out.Get(3); got != 12 {
		t.Errorf("f(3) = %v, want 12", got)
	}
}
