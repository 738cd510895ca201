package types_test

// The reference: the value semantics of each type, written from the
// documentation (docs/design.md, "Types"), not from the executor's code.
// A value of any type is a v: integers and bools in i (uint64 as its bit
// pattern), floats in f (a 16-bit float as the float64 it stands for).

import (
	"fmt"
	"math"
	"math/big"

	"github.com/gohalide/gohalide/halide"
)

type v struct {
	i int64
	f float64
}

var allTypes = []halide.Type{
	halide.Int8, halide.Int16, halide.Int32, halide.Int64,
	halide.UInt8, halide.UInt16, halide.UInt32, halide.UInt64,
	halide.Float16, halide.BFloat16, halide.Float32, halide.Float64, halide.Bool,
}

// bigOf is the exact value of the integer x of type t.
func bigOf(t halide.Type, x int64) *big.Int {
	if t == halide.UInt64 {
		return new(big.Int).SetUint64(uint64(x))
	}
	return big.NewInt(x)
}

// wrapBig reduces the integer n modulo 2^bits into the range of t (bools:
// nonzero is 1) and returns it as t's int64 form.
func wrapBig(t halide.Type, n *big.Int) int64 {
	if t == halide.Bool {
		if n.Sign() != 0 {
			return 1
		}
		return 0
	}
	mod := new(big.Int).Lsh(big.NewInt(1), uint(t.Bits))
	r := new(big.Int).Mod(n, mod) // in [0, 2^bits)
	if t.IsInt() && r.Cmp(new(big.Int).Rsh(mod, 1)) >= 0 {
		r.Sub(r, mod)
	}
	if t == halide.UInt64 {
		return int64(r.Uint64())
	}
	return r.Int64()
}

// roundTo rounds x to the float type t: float16 and bfloat16 through
// float32, each rounding to nearest even.
func roundTo(t halide.Type, x float64) float64 {
	switch t {
	case halide.Float64:
		return x
	case halide.Float32:
		return float64(float32(x))
	case halide.Float16:
		return ref16(float32(x), 5, 10)
	case halide.BFloat16:
		return ref16(float32(x), 8, 7)
	}
	panic(t)
}

// ref16 rounds the float32 x to a binary format of e exponent bits and m
// fraction bits, ties to even, with math/big: the value it stands for.
func ref16(x float32, e, m int) float64 {
	if x != x {
		return float64(x)
	}
	bias := 1<<(e-1) - 1
	a := new(big.Float).SetFloat64(math.Abs(float64(x)))
	sign := 1.0
	if math.Signbit(float64(x)) {
		sign = -1
	}
	if a.Cmp(new(big.Float).SetMantExp(big.NewFloat(1), 1-bias)) < 0 {
		// Subnormal: a multiple of 2^(1-bias-m), ties to even.
		q := new(big.Float).SetMantExp(a, m-1+bias)
		n, _ := q.Int(nil)
		frac := new(big.Float).Sub(q, new(big.Float).SetInt(n))
		if c := frac.Cmp(big.NewFloat(0.5)); c > 0 || c == 0 && n.Bit(0) == 1 {
			n.Add(n, big.NewInt(1))
		}
		return sign * math.Ldexp(float64(n.Int64()), 1-bias-m)
	}
	r, _ := new(big.Float).SetPrec(uint(m + 1)).SetMode(big.ToNearestEven).Set(a).Float64()
	if maxv := math.Ldexp(2-math.Ldexp(1, -m), bias); r > maxv {
		return sign * math.Inf(1)
	}
	return sign * r
}

// floatToInt: truncate toward zero, saturate at the ends of t, NaN to 0.
func floatToInt(t halide.Type, x float64) int64 {
	if x != x {
		return 0
	}
	if math.IsInf(x, 0) {
		x = math.Copysign(math.MaxFloat64, x)
	}
	n, _ := new(big.Float).SetFloat64(math.Trunc(x)).Int(nil)
	lo, hi := big.NewInt(0), new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(t.Bits)), big.NewInt(1))
	if t.IsInt() {
		lo = new(big.Int).Neg(new(big.Int).Lsh(big.NewInt(1), uint(t.Bits-1)))
		hi = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(t.Bits-1)), big.NewInt(1))
	}
	if n.Cmp(lo) < 0 {
		n = lo
	}
	if n.Cmp(hi) > 0 {
		n = hi
	}
	return wrapBig(t, n)
}

// cast converts x of type from to type to.
func cast(from, to halide.Type, x v) v {
	switch {
	case from == to:
		return x
	case to == halide.Bool && from.IsFloat():
		return v{i: b2i(x.f != 0)}
	case to == halide.Bool:
		return v{i: b2i(x.i != 0)}
	case from.IsFloat() && to.IsFloat():
		return v{f: roundTo(to, x.f)}
	case from.IsFloat():
		return v{i: floatToInt(to, x.f)}
	case to.IsFloat():
		// Integers convert to float32 (once, to nearest even) unless
		// the target is float64; 16-bit floats round from there.
		n := bigOf(from, x.i)
		prec := uint(24)
		if to == halide.Float64 {
			prec = 53
		}
		f, _ := new(big.Float).SetPrec(prec).SetMode(big.ToNearestEven).SetInt(n).Float64()
		if to.Bits == 16 {
			f = roundTo(to, f)
		}
		return v{f: f}
	}
	return v{i: wrapBig(to, bigOf(from, x.i))}
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// cmpInt compares integers of type t.
func cmpInt(t halide.Type, a, b int64) int { return bigOf(t, a).Cmp(bigOf(t, b)) }

// binary computes a op b in type t; comparisons give a bool (i).
func binary(t halide.Type, op string, a, b v) v {
	if t.IsFloat() {
		x, y := a.f, b.f
		r := func(z float64) v { return v{f: roundTo(t, z)} }
		switch op {
		case "add":
			return r(x + y)
		case "sub":
			return r(x - y)
		case "mul":
			return r(x * y)
		case "div":
			return r(x / y)
		case "mod":
			return r(x - y*math.Floor(x/y))
		case "min":
			return v{f: math.Min(x, y)}
		case "max":
			return v{f: math.Max(x, y)}
		case "lt":
			return v{i: b2i(x < y)}
		case "le":
			return v{i: b2i(x <= y)}
		case "eq":
			return v{i: b2i(x == y)}
		case "ne":
			return v{i: b2i(x != y)}
		case "select":
			if x < y {
				return a
			}
			return b
		}
		panic(op)
	}
	x, y := bigOf(t, a.i), bigOf(t, b.i)
	w := func(n *big.Int) v { return v{i: wrapBig(t, n)} }
	switch op {
	case "add":
		return w(new(big.Int).Add(x, y))
	case "sub":
		return w(new(big.Int).Sub(x, y))
	case "mul":
		return w(new(big.Int).Mul(x, y))
	case "div", "mod":
		// Euclidean (big.Int's DivMod): the remainder is in [0, |y|);
		// by zero, 0; the quotient wraps (MIN / -1 is MIN).
		if y.Sign() == 0 {
			return v{}
		}
		q, m := new(big.Int).DivMod(x, y, new(big.Int))
		if op == "div" {
			return w(q)
		}
		return w(m)
	case "min":
		if cmpInt(t, a.i, b.i) <= 0 {
			return a
		}
		return b
	case "max":
		if cmpInt(t, a.i, b.i) >= 0 {
			return a
		}
		return b
	case "lt":
		return v{i: b2i(cmpInt(t, a.i, b.i) < 0)}
	case "le":
		return v{i: b2i(cmpInt(t, a.i, b.i) <= 0)}
	case "eq":
		return v{i: b2i(a.i == b.i)}
	case "ne":
		return v{i: b2i(a.i != b.i)}
	case "select":
		if cmpInt(t, a.i, b.i) < 0 {
			return a
		}
		return b
	}
	panic(op)
}

// same reports whether got is want, a NaN matching any NaN unless bits is
// set (then a float must match bit for bit, its NaN payload included).
func same(t halide.Type, got, want v, bits bool) bool {
	if !t.IsFloat() {
		return got.i == want.i
	}
	if math.IsNaN(got.f) && math.IsNaN(want.f) && !bits {
		return true
	}
	if t == halide.Float32 || t.Bits == 16 {
		return math.Float32bits(float32(got.f)) == math.Float32bits(float32(want.f))
	}
	return math.Float64bits(got.f) == math.Float64bits(want.f)
}

func (x v) show(t halide.Type) string {
	switch {
	case t.IsFloat():
		return fmt.Sprintf("%v (%#x)", x.f, math.Float64bits(x.f))
	case t == halide.UInt64:
		return fmt.Sprint(uint64(x.i))
	}
	return fmt.Sprint(x.i)
}
