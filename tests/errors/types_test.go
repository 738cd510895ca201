package errors_test

import (
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// TestErrTypes: what the scalar types refuse. Float16 and BFloat16
// operands together (neither holds the
// other's values: Halide would convert one silently); an int64 index into
// a Func (coordinates are int32, as in Halide); and a buffer of the other
// 16-bit float type.
func TestErrTypes(t *testing.T) {
	x := halide.NewVar("x")
	runCases(t, []errCase{
		{
			name: "Float16 plus BFloat16",
			run: func() error {
				a, b := halide.NewImageParam("a", halide.Float16, 1), halide.NewImageParam("b", halide.BFloat16, 1)
				f := halide.NewFunc("f")
				f.Define(x).Is(a.At(x).Add(b.At(x)))
				return lowerErr(f)
			},
			code: halide.ErrType, fn: "f", directive: "+",
			mentions: []string{"float16", "bfloat16"},
			legal:    []string{"Cast"},
		},
		{
			name: "int64 index",
			run: func() error {
				g := halide.NewFunc("g")
				g.Define(x).Is(x)
				f := halide.NewFunc("f")
				f.Define(x).Is(g.At(halide.Cast(halide.Int64, x).Add(int64(1) << 40)))
				return lowerErr(f)
			},
			code: halide.ErrType, fn: "g", directive: "call",
			mentions: []string{"int64", "int32"},
			legal:    []string{"int32"},
		},
		{
			name: "BFloat16 buffer for a Float16 input",
			run: func() error {
				in := halide.NewImageParam("in", halide.Float16, 1)
				in.Set(halide.NewBuffer[halide.BF16](4))
				f := halide.NewFunc("f")
				f.Define(x).Is(in.At(x))
				return f.Realize(halide.NewBuffer[halide.F16](4))
			},
			code: halide.ErrBufferShape, fn: "f", directive: "Realize",
			mentions: []string{"input in holds float16", "bfloat16"},
		},
	})
}
