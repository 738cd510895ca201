package differential_test

// The bitwise operators, shifts, Mux, Absd, Lerp and the saturating casts,
// realized on the CPU and on the GPU emulator over every integer type (and
// Float32, Float64 where they apply), on operands that include each type's
// ends, 0, -1 and shift amounts below 0, at the width and past it, against
// a plain-Go reference computed with math/big (not with the library's
// ir.Shift or casts).

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/gohalide/gohalide/halide"
)

var intTypes = []halide.Type{halide.Int8, halide.UInt8, halide.Int16, halide.UInt16, halide.Int32, halide.UInt32, halide.Int64, halide.UInt64}

// bigOf is the value of an element of integer type t carried as int64 (for
// uint64, its bit pattern).
func bigOf(t halide.Type, v int64) *big.Int {
	if t == halide.UInt64 {
		return new(big.Int).SetUint64(uint64(v))
	}
	return big.NewInt(v)
}

// bigRange is t's smallest and largest value.
func bigRange(t halide.Type) (lo, hi *big.Int) {
	one := big.NewInt(1)
	if t.IsUInt() {
		return big.NewInt(0), new(big.Int).Sub(new(big.Int).Lsh(one, uint(t.Bits)), one)
	}
	lo = new(big.Int).Neg(new(big.Int).Lsh(one, uint(t.Bits-1)))
	return lo, new(big.Int).Sub(new(big.Int).Lsh(one, uint(t.Bits-1)), one)
}

// bigWrap reduces v modulo 2^bits into t's range and returns it carried as
// int64.
func bigWrap(t halide.Type, v *big.Int) int64 {
	m := new(big.Int).Lsh(big.NewInt(1), uint(t.Bits))
	r := new(big.Int).Mod(v, m) // in [0, 2^bits)
	if _, hi := bigRange(t); r.Cmp(hi) > 0 {
		r.Sub(r, m)
	}
	if r.IsUint64() {
		return int64(r.Uint64())
	}
	return r.Int64()
}

// bigClamp clamps v to t's range and returns it carried as int64.
func bigClamp(t halide.Type, v *big.Int) int64 {
	lo, hi := bigRange(t)
	switch {
	case v.Cmp(lo) < 0:
		v = lo
	case v.Cmp(hi) > 0:
		v = hi
	}
	return bigWrap(t, v)
}

// refShift is a << n (left) or a >> n on the mathematical values: a * 2^n
// wrapped to t, or floor(a / 2^n); a negative n shifts the other way.
func refShift(t halide.Type, a, n int64, left bool) int64 {
	x, k := bigOf(t, a), bigOf(t, n)
	if k.Sign() < 0 {
		left = !left
		k.Neg(k)
	}
	if k.Cmp(big.NewInt(200)) > 0 {
		k.SetInt64(200) // past every width
	}
	if left {
		return bigWrap(t, new(big.Int).Lsh(x, uint(k.Int64())))
	}
	return bigWrap(t, new(big.Int).Rsh(x, uint(k.Int64()))) // Rsh rounds down
}

// edgeInts are operands of every type (wrapped to it): the ends of each
// type, small values of both signs and shift amounts around each width.
func edgeInts(t halide.Type) []int64 {
	lo, hi := bigRange(t)
	vs := []int64{bigWrap(t, lo), bigWrap(t, hi), bigWrap(t, new(big.Int).Add(lo, big.NewInt(1))), bigWrap(t, new(big.Int).Sub(hi, big.NewInt(1)))}
	for _, v := range []int64{0, 1, -1, 2, -2, 3, 5, -7, 100, -100} {
		vs = append(vs, t.Wrap(v))
	}
	for _, w := range []int64{int64(t.Bits)} {
		vs = append(vs, t.Wrap(w-1), t.Wrap(w), t.Wrap(w+1), t.Wrap(-w), t.Wrap(-w+1), t.Wrap(-w-1), t.Wrap(2*w))
	}
	return vs
}

// operands returns the pairs (a[i], b[i]): every pair of edge values, and
// random ones.
func operands(t halide.Type, rng *rand.Rand) (a, b []int64) {
	e := edgeInts(t)
	for _, x := range e {
		for _, y := range e {
			a, b = append(a, x), append(b, y)
		}
	}
	for range 200 {
		x := t.Wrap(int64(rng.Uint64()))
		y := t.Wrap(int64(rng.Uint64()))
		if rng.IntN(2) == 0 {
			y = t.Wrap(rng.Int64N(2*int64(t.Bits)+5) - int64(t.Bits) - 2) // a shift amount
		}
		a, b = append(a, x), append(b, y)
	}
	return a, b
}

// intBuffer makes a 1-D buffer of integer type t holding vs.
func intBuffer(t halide.Type, vs []int64) halide.BufferRef {
	switch t {
	case halide.Int8:
		return fill(vs, func(v int64) int8 { return int8(v) })
	case halide.UInt8:
		return fill(vs, func(v int64) uint8 { return uint8(v) })
	case halide.Int16:
		return fill(vs, func(v int64) int16 { return int16(v) })
	case halide.UInt16:
		return fill(vs, func(v int64) uint16 { return uint16(v) })
	case halide.Int32:
		return fill(vs, func(v int64) int32 { return int32(v) })
	case halide.UInt32:
		return fill(vs, func(v int64) uint32 { return uint32(v) })
	case halide.Int64:
		return fill(vs, func(v int64) int64 { return v })
	case halide.UInt64:
		return fill(vs, func(v int64) uint64 { return uint64(v) })
	}
	panic(t)
}

func fill[T halide.Number, V any](vs []V, conv func(V) T) *halide.Buffer[T] {
	b := halide.NewBuffer[T](len(vs))
	for i, v := range vs {
		b.Data()[i] = conv(v)
	}
	return b
}

// realizeOp realizes out(x) = e on the CPU or the GPU emulator (a 1-D GPU
// tile of 8 threads) into a buffer of e's type, and returns the values as
// int64 bit patterns (integers) or float64 (floats).
func realizeOp(t *testing.T, e halide.Expr, n int, gpu bool) ([]int64, []float64) {
	t.Helper()
	x := v("x")
	f := halide.NewFunc("op")
	f.Define(x).Is(e)
	if gpu {
		f.GPUTile1D(x, v("bx"), v("tx"), 8, halide.GuardWithIf)
	}
	var ints []int64
	var floats []float64
	run := func(out halide.BufferRef) {
		if err := halide.NewPipeline(f).Realize(out); err != nil {
			t.Fatalf("%s (gpu %v): %v", e, gpu, err)
		}
	}
	switch e.Type() {
	case halide.Int8:
		ints = realizeInts[int8](run, n)
	case halide.UInt8:
		ints = realizeInts[uint8](run, n)
	case halide.Int16:
		ints = realizeInts[int16](run, n)
	case halide.UInt16:
		ints = realizeInts[uint16](run, n)
	case halide.Int32:
		ints = realizeInts[int32](run, n)
	case halide.UInt32:
		ints = realizeInts[uint32](run, n)
	case halide.Int64:
		ints = realizeInts[int64](run, n)
	case halide.UInt64:
		ints = realizeInts[uint64](run, n)
	case halide.Float32:
		b := halide.NewBuffer[float32](n)
		run(b)
		for _, v := range b.Data() {
			floats = append(floats, float64(v))
		}
	case halide.Float64:
		b := halide.NewBuffer[float64](n)
		run(b)
		floats = b.Data()
	default:
		t.Fatalf("%s has type %s", e, e.Type())
	}
	return ints, floats
}

func realizeInts[T int8 | uint8 | int16 | uint16 | int32 | uint32 | int64 | uint64](run func(halide.BufferRef), n int) []int64 {
	b := halide.NewBuffer[T](n)
	run(b)
	out := make([]int64, n)
	for i, v := range b.Data() {
		out[i] = int64(v)
	}
	return out
}

// intOp is one operator on a and b of type t, and its reference.
type intOp struct {
	name  string
	build func(a, b halide.Expr) halide.Expr
	out   func(t halide.Type) halide.Type
	ref   func(t halide.Type, a, b int64) int64
}

func same(t halide.Type) halide.Type { return t }

func unsigned(t halide.Type) halide.Type { return halide.Type{Code: halide.UInt8.Code, Bits: t.Bits} }

func intOps() []intOp {
	ops := []intOp{
		{"and", func(a, b halide.Expr) halide.Expr { return a.BitAnd(b) }, same,
			func(t halide.Type, a, b int64) int64 { return t.Wrap(a & b) }},
		{"or", func(a, b halide.Expr) halide.Expr { return a.BitOr(b) }, same,
			func(t halide.Type, a, b int64) int64 { return t.Wrap(a | b) }},
		{"xor", func(a, b halide.Expr) halide.Expr { return a.BitXor(b) }, same,
			func(t halide.Type, a, b int64) int64 { return t.Wrap(a ^ b) }},
		{"not", func(a, b halide.Expr) halide.Expr { return halide.BitNot(a) }, same,
			func(t halide.Type, a, b int64) int64 {
				return bigWrap(t, new(big.Int).Sub(big.NewInt(-1), bigOf(t, a)))
			}},
		{"shl", func(a, b halide.Expr) halide.Expr { return a.Shl(b) }, same,
			func(t halide.Type, a, b int64) int64 { return refShift(t, a, b, true) }},
		{"shr", func(a, b halide.Expr) halide.Expr { return a.Shr(b) }, same,
			func(t halide.Type, a, b int64) int64 { return refShift(t, a, b, false) }},
		{"absd", func(a, b halide.Expr) halide.Expr { return halide.Absd(a, b) }, unsigned,
			func(t halide.Type, a, b int64) int64 {
				return bigWrap(unsigned(t), new(big.Int).Abs(new(big.Int).Sub(bigOf(t, a), bigOf(t, b))))
			}},
		{"mux", func(a, b halide.Expr) halide.Expr { return halide.Mux(b, a, 5, 9) }, same,
			func(t halide.Type, a, b int64) int64 {
				switch b {
				case 0:
					return a
				case 1:
					return 5
				}
				return 9
			}},
	}
	for _, to := range intTypes {
		ops = append(ops, intOp{"sat_" + to.String(), func(a, b halide.Expr) halide.Expr { return halide.SaturatingCast(to, a) },
			func(halide.Type) halide.Type { return to },
			func(t halide.Type, a, b int64) int64 { return bigClamp(to, bigOf(t, a)) }})
	}
	return ops
}

func TestOperatorsIntegers(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 29))
	for _, ty := range intTypes {
		a, b := operands(ty, rng)
		ina, inb := halide.NewImageParam("a", ty, 1), halide.NewImageParam("b", ty, 1)
		ina.Set(intBuffer(ty, a))
		inb.Set(intBuffer(ty, b))
		x := v("x")
		for _, op := range intOps() {
			e := op.build(ina.At(x), inb.At(x))
			if e.Type() != op.out(ty) {
				t.Fatalf("%s of %s has type %s, want %s", op.name, ty, e.Type(), op.out(ty))
			}
			for _, gpu := range []bool{false, true} {
				got, _ := realizeOp(t, e, len(a), gpu)
				for i := range a {
					want := op.ref(ty, a[i], b[i])
					if got[i] != want {
						t.Errorf("%s %s (gpu %v): a=%d b=%d: got %d, want %d", op.name, ty, gpu, a[i], b[i], got[i], want)
						break
					}
				}
			}
		}
	}
}

// edgeFloats are float operands: the ends of the integer types around
// the saturating casts, halves, infinities, NaN, -0 and float32's ends.
var edgeFloats = []float64{0, math.Copysign(0, -1), 0.5, -0.5, 0.99, -0.99, 1, -1, 1.5, -1.5, 2.5, 127.5, 128, -128.5, -129, 255.5, 256,
	32767.5, 65535.9, 65536, -32768.9, 2147483647, 2147483648, -2147483649, 4294967295.5, 4294967296, 1e19, 1.8446744073709552e19, -9.3e18,
	math.MaxFloat32, -math.MaxFloat32, 1e39, -1e39, math.Inf(1), math.Inf(-1), math.NaN(), 3.25, -7.75, 1e-40}

// refSatFloat is Halide's saturating cast of the float v to the integer
// type t: NaN to 0, else truncated and clamped to t's range.
func refSatFloat(t halide.Type, v float64) int64 {
	if math.IsNaN(v) {
		return 0
	}
	if math.IsInf(v, 0) {
		v = math.Copysign(1e30, v)
	}
	bf, _ := new(big.Float).SetFloat64(math.Trunc(v)).Int(nil)
	return bigClamp(t, bf)
}

func TestOperatorsFloats(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 31))
	for _, ft := range []halide.Type{halide.Float32, halide.Float64} {
		var a, b, w []float64
		for _, x := range edgeFloats {
			for _, y := range []float64{0, -1, 0.5, 300, math.Inf(1), math.NaN()} {
				a, b, w = append(a, x), append(b, y), append(w, []float64{0, 0.25, 1, -0.5, 1.5}[len(a)%5])
			}
		}
		for range 300 {
			a, b, w = append(a, rng.NormFloat64()*1e3), append(b, rng.NormFloat64()*1e3), append(w, rng.Float64())
		}
		round := func(v float64) float64 {
			if ft == halide.Float32 {
				return float64(float32(v))
			}
			return v
		}
		for i := range a {
			a[i], b[i], w[i] = round(a[i]), round(b[i]), round(w[i])
		}
		buf := func(vs []float64) halide.BufferRef {
			if ft == halide.Float32 {
				return fill(vs, func(v float64) float32 { return float32(v) })
			}
			return fill(vs, func(v float64) float64 { return v })
		}
		ina, inb, inw := halide.NewImageParam("a", ft, 1), halide.NewImageParam("b", ft, 1), halide.NewImageParam("w", ft, 1)
		ina.Set(buf(a))
		inb.Set(buf(b))
		inw.Set(buf(w))
		x := v("x")
		A, B, W := ina.At(x), inb.At(x), inw.At(x)
		sameFloat := func(got, want float64) bool {
			return got == want && math.Signbit(got) == math.Signbit(want) || math.IsNaN(got) && math.IsNaN(want)
		}
		type floatCase struct {
			name string
			e    halide.Expr
			ref  func(i int) float64
		}
		cases := []floatCase{
			{"absd", halide.Absd(A, B), func(i int) float64 { return math.Abs(round(a[i] - b[i])) }},
			{"lerp", halide.Lerp(A, B, W), func(i int) float64 {
				return round(round(a[i]*round(1-w[i])) + round(b[i]*w[i]))
			}},
		}
		if ft == halide.Float64 {
			cases = append(cases, floatCase{"sat_float32", halide.SaturatingCast(halide.Float32, A), func(i int) float64 {
				return float64(float32(math.Max(math.Min(a[i], math.MaxFloat32), -math.MaxFloat32)))
			}})
		}
		for _, c := range cases {
			for _, gpu := range []bool{false, true} {
				_, got := realizeOp(t, c.e, len(a), gpu)
				for i := range a {
					if want := c.ref(i); !sameFloat(got[i], want) {
						t.Errorf("%s %s (gpu %v): a=%g b=%g w=%g: got %g, want %g", c.name, ft, gpu, a[i], b[i], w[i], got[i], want)
						break
					}
				}
			}
		}
		for _, to := range intTypes {
			e := halide.SaturatingCast(to, A)
			for _, gpu := range []bool{false, true} {
				got, _ := realizeOp(t, e, len(a), gpu)
				for i := range a {
					if want := refSatFloat(to, a[i]); got[i] != want {
						t.Errorf("sat %s of %s (gpu %v): %g: got %d, want %d", to, ft, gpu, a[i], got[i], want)
						break
					}
				}
			}
		}
	}
}

// TestOperatorsPrint: the IR the builders make, as the library prints it
// (Halide's intrinsic names; a saturating cast is a clamp and a cast).
func TestOperatorsPrint(t *testing.T) {
	x := v("x")
	for _, c := range []struct {
		e    halide.Expr
		want string
	}{
		{x.Shl(3), "shift_left(x, 3)"},
		{halide.BitNot(x), "bitwise_not(x)"},
		{halide.U8Sat(x), "uint8(min(max(x, 0), 255))"},
		// On bools the bitwise operators are the logical ones.
		{x.Lt(1).BitXor(x.Gt(2)), "((x < 1) != (x > 2))"},
		{halide.BitNot(x.Lt(1)), "!(x < 1)"},
	} {
		if got := fmt.Sprint(c.e); got != c.want {
			t.Errorf("got %s, want %s", got, c.want)
		}
	}
}

// refLerp is Halide's integer lerp of the values z and o of type t by the
// weight w, worked out on the mathematical values: the weight as a
// fraction of U = 2^bits - 1 (an unsigned weight of wb bits rescaled, a
// float one truncated from w * U, saturated), then
// round((z'(U - w') + o'w') / U) for the values offset by t's minimum.
func refLerp(t halide.Type, z, o int64, wb uint8, wu uint64, wf float64, float32Weight bool) int64 {
	U := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(t.Bits)), big.NewInt(1))
	var w *big.Int
	switch {
	case wb == 0: // a float weight
		u := math.Ldexp(1, int(t.Bits)) - 1
		var p float64
		switch {
		case t.Bits == 32:
			p = u * wf
		case float32Weight:
			p = float64(float32(u) * float32(wf))
		default:
			p = u * wf
		}
		w = big.NewInt(refSatFloat(halide.Int64, p)) // in range of int64 either way
		if w.Sign() < 0 {
			w.SetInt64(0)
		}
		if w.Cmp(U) > 0 {
			w.Set(U)
		}
	case wb == t.Bits:
		w = new(big.Int).SetUint64(wu)
	case wb < t.Bits:
		f := new(big.Int).Div(U, big.NewInt(int64(1)<<wb-1))
		w = new(big.Int).Mul(new(big.Int).SetUint64(wu), f)
	default:
		wmax := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(wb)), big.NewInt(1))
		w = new(big.Int).Div(new(big.Int).SetUint64(wu), new(big.Int).Div(wmax, U))
	}
	lo, _ := bigRange(t)
	zp, op := new(big.Int).Sub(bigOf(t, z), lo), new(big.Int).Sub(bigOf(t, o), lo)
	sum := new(big.Int).Mul(zp, new(big.Int).Sub(U, w))
	sum.Add(sum, new(big.Int).Mul(op, w))
	sum.Add(sum, new(big.Int).Div(U, big.NewInt(2)))
	q := new(big.Int).Div(sum, U)
	return bigWrap(t, q.Add(q, lo))
}

func TestOperatorsLerpIntegers(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 37))
	weights := []float64{0, 0.25, 0.5, 1, 1.5, -0.5, 1.0 / 3, 0.999, math.NaN()}
	for _, ty := range intTypes {
		if ty.Bits == 64 {
			continue
		}
		a, b := operands(ty, rng)
		ina, inb := halide.NewImageParam("a", ty, 1), halide.NewImageParam("b", ty, 1)
		ina.Set(intBuffer(ty, a))
		inb.Set(intBuffer(ty, b))
		ws := make([]float64, len(a))
		wus := make([]int64, len(a))
		for i := range ws {
			ws[i] = weights[i%len(weights)]
			wus[i] = int64(rng.Uint64())
			if i%3 == 0 {
				wus[i] = []int64{0, 1, -1, 255, 256, 65535, 1 << 31}[i%7]
			}
		}
		for _, wt := range []halide.Type{halide.UInt8, halide.UInt16, halide.UInt32, halide.UInt64, halide.Float32, halide.Float64} {
			inw := halide.NewImageParam("w", wt, 1)
			switch {
			case wt == halide.Float32:
				inw.Set(fill(ws, func(v float64) float32 { return float32(v) }))
			case wt == halide.Float64:
				inw.Set(fill(ws, func(v float64) float64 { return v }))
			default:
				wrapped := make([]int64, len(wus))
				for i, v := range wus {
					wrapped[i] = wt.Wrap(v)
				}
				inw.Set(intBuffer(wt, wrapped))
			}
			x := v("x")
			e := halide.Lerp(ina.At(x), inb.At(x), inw.At(x))
			if err := e.Err(); err != nil {
				t.Fatal(err)
			}
			for _, gpu := range []bool{false, true} {
				got, _ := realizeOp(t, e, len(a), gpu)
				for i := range a {
					var want int64
					if wt.IsFloat() {
						wf := ws[i]
						if wt == halide.Float32 {
							wf = float64(float32(wf)) // what the buffer holds
						}
						want = refLerp(ty, a[i], b[i], 0, 0, wf, wt == halide.Float32)
					} else {
						want = refLerp(ty, a[i], b[i], wt.Bits, uint64(wt.Wrap(wus[i])), 0, false)
					}
					if got[i] != want {
						t.Errorf("lerp %s by %s (gpu %v): a=%d b=%d w=%g/%d: got %d, want %d", ty, wt, gpu, a[i], b[i], ws[i], uint64(wt.Wrap(wus[i])), got[i], want)
						break
					}
				}
			}
		}
	}
}
