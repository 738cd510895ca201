package halide_test

import (
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// TestCastConstantKeepsType: a constant given a type by Cast keeps it
// against an operand of another type, by Halide's match_types (tutorial
// lesson 14, rules 3 to 7: only a C++ int, here a Go number or E(v),
// adapts to the other side). Cast(Int32, 2) used to adapt like the
// literal 2: u8.Mul(Cast(Int32, 2)) was a uint8 and wrapped (200 * 2 =
// 144), and u8.Add(Cast(Int32, 300)) was refused with "the constant 300
// does not fit in uint8 ... (legal: ... or an explicit Cast of one
// side)", whose advice did not work.
func TestCastConstantKeepsType(t *testing.T) {
	x := halide.NewVar("x")
	u8 := halide.Cast(halide.UInt8, x.Add(200)) // 200 at x = 0
	for _, c := range []struct {
		name string
		e    halide.Expr
		want halide.Type
		val  float64 // at x = 0
	}{
		{"u8*int32(2)", u8.Mul(halide.Cast(halide.Int32, 2)), halide.Int32, 400},
		{"int32(2)*u8", halide.Cast(halide.Int32, 2).Mul(u8), halide.Int32, 400},
		{"u8+int32(300)", u8.Add(halide.Cast(halide.Int32, 300)), halide.Int32, 500},
		{"u8+float32(0.5)", u8.Add(halide.Cast(halide.Float32, float32(0.5))), halide.Float32, 200.5},
		// A Go number still adapts (Halide's C++ int): uint8 arithmetic.
		{"u8*2", u8.Mul(2), halide.UInt8, 144},
		{"u8*E(2)", u8.Mul(halide.E(2)), halide.UInt8, 144},
	} {
		t.Run(c.name, func(t *testing.T) {
			if err := c.e.Err(); err != nil {
				t.Fatal(err)
			}
			if c.e.Type() != c.want {
				t.Fatalf("%v has type %v, want %v", c.e, c.e.Type(), c.want)
			}
			f := halide.NewFunc("f")
			f.Define(x).Is(halide.Cast(halide.Float64, c.e))
			out := halide.NewBuffer[float64](1)
			if err := halide.NewPipeline(f).WithOptions(halide.Options{Verify: true}).Realize(out); err != nil {
				t.Fatal(err)
			}
			if got := out.Get(0); got != c.val {
				t.Fatalf("%v = %v at x = 0, want %v", c.e, got, c.val)
			}
		})
	}
}
