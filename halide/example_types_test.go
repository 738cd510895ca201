package halide_test

import (
	"fmt"
	"math"

	"github.com/gohalide/gohalide/halide"
)

// The types' examples compute one small Func of each type and print it: on
// the CPU (Realize) and, where a GPU schedule is shown, on the GPU
// emulator, which computes the same bits.

// A Float16 pipeline: Buffer[F16] holds the IEEE binary16 bits. Every
// operation converts to float32, computes, and rounds back to Float16, to
// nearest even: 2048 + 1 is 2048 (the spacing of Float16 there is 2), 0.1
// is 0.099975586, and 65504 * 2 overflows to +Inf. Casting an integer to
// Float16 goes through float32.
func Example_float16() {
	x := halide.NewVar("x")
	in := halide.NewImageParam("in", halide.Float16, 1)
	f := halide.NewFunc("f")
	f.Define(x).Is(in.At(x).Mul(2).Add(halide.Cast(halide.Float16, x)))
	input := halide.NewBuffer[halide.F16](4)
	for i, v := range []float32{1024, 0.1, 65504, 1.5} {
		input.Data()[i] = halide.F16FromFloat32(v)
	}
	in.Set(input)
	out := halide.NewBuffer[halide.F16](4)
	if err := f.Realize(out); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(out.Data()) // F16 prints as its value
	fmt.Printf("%#04x\n", out.Get(2).Bits())

	// The same on the GPU emulator: the same bits.
	f.GPUTile1D(x, halide.NewVar("bx"), halide.NewVar("tx"), 2)
	gpu := halide.NewBuffer[halide.F16](4)
	if err := f.Realize(gpu); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(gpu.Data())
	// Output:
	// [2048 1.2001953 +Inf 6]
	// 0x7c00
	// [2048 1.2001953 +Inf 6]
}

// A BFloat16 pipeline: 8 bits of significand, float32's exponent range.
// A sum over an RDom rounds after every addition, so adding 1 to 256 does
// nothing (the spacing there is 2), while 1e30 is representable.
func Example_bfloat16() {
	x := halide.NewVar("x")
	r := halide.NewRDom("r", halide.Range(0, 4))
	ones := halide.NewFunc("ones")
	ones.Define(x).Is(halide.Lit(halide.BFloat16, 1))
	f := halide.NewFunc("f")
	f.Define(x).Is(halide.Select(halide.E(x).Eq(0), halide.Lit(halide.BFloat16, 256), halide.Lit(halide.BFloat16, 1e30)))
	f.Define(x).PlusEq(ones.At(r)) // adds 1 four times
	out := halide.NewBuffer[halide.BF16](2)
	if err := f.Realize(out); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(out.Data())
	fmt.Println(halide.BF16FromFloat32(3.14159), halide.BF16FromFloat32(3.14159).Bits())
	// Output:
	// [256 1.00025555e+30]
	// 3.140625 16457
}

// Float64 computes in IEEE double: 0.1 + 0.2 is not 0.3 in either type,
// but float32 rounds the sum to the float32 nearest 0.3.
func Example_float64() {
	x := halide.NewVar("x")
	f64, f32 := halide.NewFunc("f64"), halide.NewFunc("f32")
	f64.Define(x).Is(halide.Lit(halide.Float64, 0.1).Add(halide.Lit(halide.Float64, 0.2)).Mul(halide.Cast(halide.Float64, x)))
	f32.Define(x).Is(halide.Lit(halide.Float32, 0.1).Add(halide.Lit(halide.Float32, 0.2)).Mul(halide.Cast(halide.Float32, x)))
	a, b := halide.NewBuffer[float64](2), halide.NewBuffer[float32](2)
	if err := f64.Realize(a); err != nil {
		fmt.Println(err)
		return
	}
	if err := f32.Realize(b); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(a.Get(1), a.Get(1) == 0.3, b.Get(1), b.Get(1) == 0.3)
	// Output:
	// 0.30000000000000004 false 0.3 true
}

// Int64 arithmetic wraps at 64 bits; division and modulo are Euclidean
// (the remainder is never negative). Coordinates stay int32: an int64
// index is refused unless cast explicitly.
func Example_int64() {
	x := halide.NewVar("x")
	big := halide.Cast(halide.Int64, x).Mul(int64(1) << 40) // x * 2^40
	f := halide.NewFunc("f")
	f.Define(x).Is(halide.Select(halide.E(x).Eq(3), halide.E(int64(math.MaxInt64)).Add(int64(1)), big.Div(int64(-3))))
	out := halide.NewBuffer[int64](4)
	if err := f.Realize(out); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(out.Data())

	g := halide.NewFunc("g")
	g.Define(x).Is(f.At(halide.Cast(halide.Int64, x)))
	fmt.Println(halide.NewPipeline(g).Realize(halide.NewBuffer[int64](4)))
	// Output:
	// [0 -366503875925 -733007751850 -9223372036854775808]
	// type_mismatch: Func f: call: argument 0 of f is int64(x), of type int64; an implicit conversion to int32 could lose its value (legal: an int32 expression, or an explicit Cast(Int32, ...) where the value is known to fit)
}

// UInt64 holds values up to 2^64 - 1 (a Buffer[uint64] holds them as Go
// uint64s); comparison, division and min/max are unsigned.
func Example_uint64() {
	x := halide.NewVar("x")
	f := halide.NewFunc("f")
	top := halide.E(uint64(math.MaxUint64))
	f.Define(x).Is(halide.Select(halide.E(x).Eq(0), top, top.Div(halide.Cast(halide.UInt64, x).Add(uint64(1)))))
	out := halide.NewBuffer[uint64](3)
	if err := f.Realize(out); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(out.Data(), out.Get(1) > out.Get(2))
	// Output:
	// [18446744073709551615 9223372036854775807 6148914691236517205] true
}

// A Bool Func stores one byte per point (a Buffer[bool]); And, Or, Not
// and Select combine bools, and a cast makes a count of them.
func Example_bool() {
	x := halide.NewVar("x")
	r := halide.NewRDom("r", halide.Range(0, 10))
	even := halide.NewFunc("even")
	even.Define(x).Is(halide.E(x).Mod(2).Eq(0))
	small := halide.NewFunc("small")
	small.Define(x).Is(even.At(x).And(halide.E(x).Lt(5)).Or(halide.Not(even.At(x)).And(halide.E(x).Gt(7))))
	count := halide.NewFunc("count")
	count.Define(x).Is(0)
	count.Define(x).PlusEq(halide.Cast(halide.Int32, small.At(r)))
	even.ComputeRoot()
	flags := halide.NewBuffer[bool](10)
	if err := small.Realize(flags); err != nil {
		fmt.Println(err)
		return
	}
	n := halide.NewBuffer[int32](1)
	if err := count.Realize(n); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(flags.Data(), n.Get(0))
	// Output:
	// [true false true false true false false false false true] 4
}
