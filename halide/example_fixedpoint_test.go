package halide_test

import (
	"fmt"

	"github.com/gohalide/gohalide/halide"
)

// The fixed-point intrinsics, Trunc and Fract, each on a few values of x
// (realize1 is in example_operators_test.go).

func ExampleSaturatingAdd() {
	x := halide.NewVar("x")
	f := halide.NewFunc("f")
	// 100 + 10x in int8: 127 from x = 3 on, where it would wrap.
	f.Define(x).Is(halide.SaturatingAdd(halide.Cast(halide.Int8, x.Mul(10)), int8(100)))
	realize1[int8](f, 5)
	// Output: [100 110 120 127 127]
}

func ExampleSaturatingSub() {
	x := halide.NewVar("x")
	f := halide.NewFunc("f")
	// 2 - x in uint8 stops at 0.
	f.Define(x).Is(halide.SaturatingSub(uint8(2), halide.Cast(halide.UInt8, x)))
	realize1[uint8](f, 5)
	// Output: [2 1 0 0 0]
}

func ExampleHalvingAdd() {
	x := halide.NewVar("x")
	f := halide.NewFunc("f")
	// (250 + x + 255) / 2 rounded down and up, without overflowing uint8.
	a := halide.Cast(halide.UInt8, x.Add(250))
	f.Define(x).Is(halide.HalvingAdd(a, uint8(255)))
	g := halide.NewFunc("g")
	g.Define(x).Is(halide.RoundingHalvingAdd(a, uint8(255)))
	realize1[uint8](f, 4)
	realize1[uint8](g, 4)
	// Output:
	// [252 253 253 254]
	// [253 253 254 254]
}

func ExampleWideningMul() {
	x := halide.NewVar("x")
	f := halide.NewFunc("f")
	// uint8 * int8 is an int16, exact.
	e := halide.WideningMul(halide.Cast(halide.UInt8, x.Add(253)), int8(-128))
	fmt.Println(e.Type())
	f.Define(x).Is(e)
	realize1[int16](f, 3)
	// Output:
	// int16
	// [-32384 -32512 -32640]
}

func ExampleRoundingShiftRight() {
	x := halide.NewVar("x")
	f := halide.NewFunc("f")
	// (x - 6) / 4 rounded to nearest, ties up: -6/4 = -1.5 gives -1,
	// -2/4 = -0.5 gives 0.
	f.Define(x).Is(halide.RoundingShiftRight(x.Sub(6), 2))
	realize1[int32](f, 7)
	// Output: [-1 -1 -1 -1 0 0 0]
}

func ExampleMulShiftRight() {
	x := halide.NewVar("x")
	f := halide.NewFunc("f")
	// Q15 products: 0.5 * 0.5 = 0.25 (8192), and -1 * -1 saturates to
	// just below 1 (32767).
	a := halide.Select(x.Eq(0), int16(16384), int16(-32768))
	f.Define(x).Is(halide.MulShiftRight(a, a, 15))
	g := halide.NewFunc("g")
	g.Define(x).Is(halide.RoundingMulShiftRight(a, int16(3), 15))
	realize1[int16](f, 2)
	realize1[int16](g, 2)
	// Output:
	// [8192 32767]
	// [2 -3]
}

func ExampleDivRoundToZero() {
	x := halide.NewVar("x")
	f := halide.NewFunc("f")
	g := halide.NewFunc("g")
	// C's / and % of -3 ... 3 by 2, against the Euclidean Div and Mod.
	f.Define(x).Is(halide.DivRoundToZero(x.Sub(3), 2))
	g.Define(x).Is(halide.ModRoundToZero(x.Sub(3), 2))
	realize1[int32](f, 7)
	realize1[int32](g, 7)
	h := halide.NewFunc("h")
	h.Define(x).Is(x.Sub(3).Div(2))
	realize1[int32](h, 7)
	// Output:
	// [-1 -1 0 0 0 1 1]
	// [-1 0 -1 0 1 0 1]
	// [-2 -1 -1 0 0 1 1]
}

func ExampleTrunc() {
	x := halide.NewVar("x")
	f := halide.NewFunc("f")
	// (x - 3) * 0.75 rounded toward zero.
	f.Define(x).Is(halide.Trunc(halide.Cast(halide.Float32, x.Sub(3)).Mul(0.75)))
	realize1[float32](f, 7)
	// Output: [-2 -1 -0 0 0 1 2]
}

func ExampleFract() {
	x := halide.NewVar("x")
	f := halide.NewFunc("f")
	// x - Trunc(x): the sign of x.
	f.Define(x).Is(halide.Fract(halide.Cast(halide.Float32, x.Sub(3)).Mul(0.75)))
	realize1[float32](f, 7)
	// Output: [-0.25 -0.5 -0.75 0 0.75 0.5 0.25]
}

func ExampleFastIntegerDivide() {
	x := halide.NewVar("x")
	f := halide.NewFunc("f")
	// x - 8 over the uint8 3 in int8: rounded toward negative infinity as
	// Halide's division is; the remainder is in [0, 3).
	n := halide.Cast(halide.Int8, x.Sub(8))
	f.Define(x).Is(halide.FastIntegerDivide(n, uint8(3)))
	g := halide.NewFunc("g")
	g.Define(x).Is(halide.FastIntegerModulo(n, uint8(3)))
	// A zero denominator gives 0 for both (Halide's FastIntegerDivide.h).
	h := halide.NewFunc("h")
	h.Define(x).Is(halide.FastIntegerDivide(n, halide.Cast(halide.UInt8, x.Mul(0))))
	realize1[int8](f, 10)
	realize1[int8](g, 10)
	realize1[int8](h, 3)
	// Output:
	// [-3 -3 -2 -2 -2 -1 -1 -1 0 0]
	// [1 2 0 1 2 0 1 2 0 1]
	// [0 0 0]
}
