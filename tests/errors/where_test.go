package errors_test

import (
	"testing"

	"github.com/gohalide/gohalide/halide"
)

func TestRDomWhere(t *testing.T) {
	runCases(t, []errCase{
		{
			name: "Where after an update uses the RDom",
			run: func() error {
				r := halide.NewRDom("r", halide.Range(0, 4))
				f := halide.NewFunc("f")
				f.Define(x).Is(int32(0))
				f.Define(x).PlusEq(r.X())
				r.Where(r.X().Lt(2))
				g := halide.NewFunc("g")
				g.Define(x).Is(int32(0))
				g.Define(x).PlusEq(r.X())
				return lowerErr(g)
			},
			code: halide.ErrDefinition, fn: "g", directive: "Where", mentions: []string{"already used"},
			legal: []string{"before defining the updates"},
		},
		{
			name: "Where of an int condition",
			run: func() error {
				r := halide.NewRDom("r", halide.Range(0, 4))
				r.Where(r.X().Add(1))
				f := halide.NewFunc("f")
				f.Define(x).Is(int32(0))
				f.Define(x).PlusEq(r.X())
				return lowerErr(f)
			},
			code: halide.ErrType, fn: "f", directive: "Where", mentions: []string{"not bool"},
			legal: []string{"comparison"},
		},
		{
			name: "Where over another RDom's RVar",
			run: func() error {
				r := halide.NewRDom("r", halide.Range(0, 4))
				s := halide.NewRDom("s", halide.Range(0, 4))
				r.Where(r.X().Lt(s.X()))
				f := halide.NewFunc("f")
				f.Define(x).Is(int32(0))
				f.Define(x).PlusEq(r.X())
				return lowerErr(f)
			},
			code: halide.ErrDefinition, fn: "f", directive: "Where", mentions: []string{"another RDom"},
			legal: []string{"the RVars of r"},
		},
		{
			name: "Where with a Var the update does not have",
			run: func() error {
				r := halide.NewRDom("r", halide.Range(0, 4))
				r.Where(r.X().Lt(y))
				f := halide.NewFunc("f")
				f.Define(x).Is(int32(0))
				f.Define(x).PlusEq(r.X())
				return lowerErr(f)
			},
			code: halide.ErrDefinition, fn: "f", directive: "Define (update)", mentions: []string{"Var y", "Where condition of RDom r"},
		},
	})
}
