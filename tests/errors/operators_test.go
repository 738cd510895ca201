package errors_test

import (
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// TestErrOperators: the bitwise operators, shifts, Mux, Absd, Lerp and the
// saturating casts refuse operands they do not take with an ErrType
// error naming the operator and what it takes.
func TestErrOperators(t *testing.T) {
	in := halide.NewImageParam("in", halide.Float32, 1)
	define := func(e halide.Expr) func() error {
		return func() error {
			f := halide.NewFunc("f")
			f.Define(x).Is(e)
			return lowerErr(f)
		}
	}
	integer := []string{"integer operands"}
	runCases(t, []errCase{
		{name: "shift of a float", run: define(in.At(x).Shl(1)),
			code: halide.ErrType, fn: "f", directive: "Shl", mentions: []string{"Shl", "float32"}, legal: integer},
		{name: "shift by a float", run: define(x.Shr(in.At(x))),
			code: halide.ErrType, fn: "f", directive: "Shr", mentions: []string{"Shr", "second", "float32"}, legal: integer},
		{name: "bitwise and of floats", run: define(in.At(x).BitAnd(in.At(x))),
			code: halide.ErrType, fn: "f", directive: "BitAnd", mentions: []string{"BitAnd", "float32"}, legal: integer},
		{name: "bitwise not of a float", run: define(halide.BitNot(in.At(x))),
			code: halide.ErrType, fn: "f", directive: "BitNot", mentions: []string{"BitNot", "float32"}, legal: integer},
		{name: "shift of bools", run: define(x.Lt(1).Shl(x.Lt(2))),
			code: halide.ErrType, fn: "f", directive: "Shl", mentions: []string{"Shl", "bool"}, legal: []string{"integer operands"}},
		{name: "bitwise and of a bool and an int", run: define(x.Lt(1).BitAnd(x)),
			code: halide.ErrType, fn: "f", directive: "BitAnd", mentions: []string{"bool", "int32"}},
		{name: "Mux with a float index", run: define(halide.Mux(in.At(x), 1, 2)),
			code: halide.ErrType, fn: "f", directive: "Mux", mentions: []string{"index", "float32"}, legal: []string{"integer index"}},
		{name: "Mux of no values", run: define(halide.Mux(x)),
			code: halide.ErrType, fn: "f", directive: "Mux", mentions: []string{"no values"}, legal: []string{"at least one value"}},
		{name: "Mux value that does not fit", run: define(halide.Mux(x, halide.Cast(halide.UInt8, x), 300)),
			code: halide.ErrType, fn: "f", directive: "Mux", mentions: []string{"300", "uint8"}},
		{name: "Absd of bools", run: define(halide.Absd(x.Lt(1), x.Lt(2))),
			code: halide.ErrType, fn: "f", directive: "Absd", mentions: []string{"Absd", "bool"}, legal: []string{"integer or float"}},
		{name: "Lerp of 64-bit integers", run: define(halide.Lerp(halide.Cast(halide.Int64, x), 3, 0.5)),
			code: halide.ErrType, fn: "f", directive: "Lerp", mentions: []string{"Lerp", "int64"}, legal: []string{"8, 16 or 32 bits"}},
		{name: "Lerp with an integer weight", run: define(halide.Lerp(in.At(x), 1.0, x)),
			code: halide.ErrType, fn: "f", directive: "Lerp", mentions: []string{"weight", "int32"}, legal: []string{"unsigned integer or float weight"}},
		{name: "saturating cast to bool", run: define(halide.SaturatingCast(halide.Bool, x)),
			code: halide.ErrType, fn: "f", directive: "SaturatingCast", mentions: []string{"bool"}, legal: []string{"integer or float target"}},
		{name: "saturating cast of a bool", run: define(halide.U8Sat(x.Lt(1))),
			code: halide.ErrType, fn: "f", directive: "SaturatingCast", mentions: []string{"bool"}, legal: []string{"integer or float operand"}},
	})
}
