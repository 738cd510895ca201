package halide_test

import (
	"fmt"

	"github.com/gohalide/gohalide/halide"
)

// Each operator example defines f(x) over x in [0, n), realizes it on the
// CPU and prints its values.

// realize1 realizes f over [0, n) and prints the values.
func realize1[T halide.Number](f *halide.Func, n int) {
	out := halide.NewBuffer[T](n)
	if err := f.Realize(out); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(out.Data())
}

func ExampleExpr_BitAnd() {
	x := halide.NewVar("x")
	f := halide.NewFunc("f")
	// The low two bits of x, with bit 4 set, flipped by 1.
	f.Define(x).Is(x.BitAnd(3).BitOr(16).BitXor(1))
	realize1[int32](f, 6)
	// Output: [17 16 19 18 17 16]
}

func ExampleBitNot() {
	x := halide.NewVar("x")
	f := halide.NewFunc("f")
	f.Define(x).Is(halide.BitNot(halide.Cast(halide.UInt8, x)))
	realize1[uint8](f, 4)
	// Output: [255 254 253 252]
}

func ExampleExpr_Shl() {
	x := halide.NewVar("x")
	f := halide.NewFunc("f")
	// 1 << (x - 2): a negative amount shifts right, 32 or more gives 0.
	f.Define(x).Is(halide.E(8).Shl(x.Sub(4)))
	realize1[int32](f, 6)
	fmt.Println(halide.E(1).Shl(32), halide.E(-8).Shr(1))
	// Output:
	// [0 1 2 4 8 16]
	// shift_left(1, 32) shift_right(-8, 1)
}

func ExampleExpr_Shr() {
	x := halide.NewVar("x")
	f := halide.NewFunc("f")
	// Arithmetic: -100 >> x is floor(-100 / 2^x), -1 from 7 on.
	f.Define(x).Is(halide.E(-100).Shr(x.Mul(2)))
	realize1[int32](f, 6)
	// Output: [-100 -25 -7 -2 -1 -1]
}

func ExampleMux() {
	x := halide.NewVar("x")
	f := halide.NewFunc("f")
	// x - 1 = -1 and 3, 4 are out of range: the last value.
	f.Define(x).Is(halide.Mux(x.Sub(1), 10, 20, 30))
	realize1[int32](f, 5)
	// Output: [30 10 20 30 30]
}

func ExampleAbsd() {
	x := halide.NewVar("x")
	f := halide.NewFunc("f")
	// |(x*64 - 128) - 127| for int8 operands, in uint8: no overflow at
	// -128 against 127.
	f.Define(x).Is(halide.Absd(halide.Cast(halide.Int8, x.Mul(64).Sub(128)), int8(127)))
	realize1[uint8](f, 4)
	// Output: [255 191 127 63]
}

func ExampleLerp() {
	x := halide.NewVar("x")
	f := halide.NewFunc("f")
	f.Define(x).Is(halide.Lerp(float32(10), float32(20), halide.Cast(halide.Float32, x).Div(4)))
	realize1[float32](f, 5)
	// Integers: the uint8 weight 85*x is the fraction 85*x/255, and the
	// result rounds to nearest: (10*170 + 200*85) / 255 = 73.3 is 73.
	g := halide.NewFunc("g")
	g.Define(x).Is(halide.Lerp(uint8(10), uint8(200), halide.Cast(halide.UInt8, x.Mul(85))))
	realize1[uint8](g, 4)
	// Output:
	// [10 12.5 15 17.5 20]
	// [10 73 137 200]
}

func ExampleSaturatingCast() {
	x := halide.NewVar("x")
	f := halide.NewFunc("f")
	// (x - 2) * 100 clamped to uint8's [0, 255].
	f.Define(x).Is(halide.U8Sat(x.Sub(2).Mul(100)))
	realize1[uint8](f, 6)
	g := halide.NewFunc("g")
	g.Define(x).Is(halide.I8Sat(halide.Cast(halide.Float32, x).Mul(100).Sub(150)))
	realize1[int8](g, 5)
	// Output:
	// [0 0 0 100 200 255]
	// [-128 -50 50 127 127]
}

func ExamplePow() {
	x := halide.NewVar("x")
	f := halide.NewFunc("f")
	// An integer base with a constant integer exponent stays an integer:
	// x*x*x of a uint8 wraps (6^3 = 216, 7^3 = 343 - 256 = 87).
	f.Define(x).Is(halide.Pow(halide.Cast(halide.UInt8, x), 3))
	realize1[uint8](f, 8)
	// A negative exponent divides: 1/x^2 is 0 for |x| > 1.
	fmt.Println(halide.Pow(x, -2).Type(), halide.Pow(x, 0))
	// Any other exponent makes a float32 pow.
	fmt.Println(halide.Pow(halide.Cast(halide.UInt8, x), x).Type())
	// Output:
	// [0 1 8 27 64 125 216 87]
	// int32 1
	// float32
}
