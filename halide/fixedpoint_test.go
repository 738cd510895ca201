package halide_test

import (
	"fmt"
	"math/big"
	"math/rand"
	"testing"

	"github.com/gohalide/gohalide/halide"
	"github.com/gohalide/gohalide/ir"
)

// The fixed-point intrinsics and the truncating division on every integer
// type, on the CPU and on the GPU emulator, against references in math/big
// written from the definitions in Halide 14's IROperator.h (the exact
// value of the wide computation, then narrowed), not from its lowering.

var intTypes = []halide.Type{halide.Int8, halide.Int16, halide.Int32, halide.Int64,
	halide.UInt8, halide.UInt16, halide.UInt32, halide.UInt64}

// newIntBuf makes a 1-D buffer of n elements of the integer type t.
func newIntBuf(t halide.Type, n int) halide.BufferRef {
	switch t {
	case halide.Int8:
		return halide.NewBuffer[int8](n)
	case halide.Int16:
		return halide.NewBuffer[int16](n)
	case halide.Int32:
		return halide.NewBuffer[int32](n)
	case halide.Int64:
		return halide.NewBuffer[int64](n)
	case halide.UInt8:
		return halide.NewBuffer[uint8](n)
	case halide.UInt16:
		return halide.NewBuffer[uint16](n)
	case halide.UInt32:
		return halide.NewBuffer[uint32](n)
	case halide.UInt64:
		return halide.NewBuffer[uint64](n)
	}
	panic(fmt.Sprintf("newIntBuf: %s", t))
}

// at is b(x) for a buffer made by newIntBuf.
func at(b halide.BufferRef, x halide.Var) halide.Expr {
	return b.(interface{ At(...any) halide.Expr }).At(x)
}

func setInt(b halide.BufferRef, i int, v *big.Int) {
	u := wrapBits(v) // two's-complement bits; each conversion below truncates
	switch b := b.(type) {
	case *halide.Buffer[int8]:
		b.Set(int8(u), i)
	case *halide.Buffer[int16]:
		b.Set(int16(u), i)
	case *halide.Buffer[int32]:
		b.Set(int32(u), i)
	case *halide.Buffer[int64]:
		b.Set(int64(u), i)
	case *halide.Buffer[uint8]:
		b.Set(uint8(u), i)
	case *halide.Buffer[uint16]:
		b.Set(uint16(u), i)
	case *halide.Buffer[uint32]:
		b.Set(uint32(u), i)
	case *halide.Buffer[uint64]:
		b.Set(u, i)
	}
}

func getInt(b halide.BufferRef, i int) *big.Int {
	switch b := b.(type) {
	case *halide.Buffer[int8]:
		return big.NewInt(int64(b.Get(i)))
	case *halide.Buffer[int16]:
		return big.NewInt(int64(b.Get(i)))
	case *halide.Buffer[int32]:
		return big.NewInt(int64(b.Get(i)))
	case *halide.Buffer[int64]:
		return big.NewInt(b.Get(i))
	case *halide.Buffer[uint8]:
		return big.NewInt(int64(b.Get(i)))
	case *halide.Buffer[uint16]:
		return big.NewInt(int64(b.Get(i)))
	case *halide.Buffer[uint32]:
		return big.NewInt(int64(b.Get(i)))
	case *halide.Buffer[uint64]:
		return new(big.Int).SetUint64(b.Get(i))
	}
	panic(fmt.Sprintf("getInt: %T", b))
}

// wrapBits is the low 64 bits of v in two's complement.
func wrapBits(v *big.Int) uint64 {
	m := new(big.Int).Lsh(big.NewInt(1), 64)
	return new(big.Int).Mod(v, m).Uint64()
}

// tmin and tmax are the range of the integer type t.
func tmin(t halide.Type) *big.Int {
	if t.IsUInt() {
		return big.NewInt(0)
	}
	return new(big.Int).Neg(new(big.Int).Lsh(big.NewInt(1), uint(t.Bits-1)))
}

func tmax(t halide.Type) *big.Int {
	b := uint(t.Bits)
	if t.IsInt() {
		b--
	}
	return new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), b), big.NewInt(1))
}

// wrap reduces v to the range of t, modulo 2^bits.
func wrap(t halide.Type, v *big.Int) *big.Int {
	m := new(big.Int).Lsh(big.NewInt(1), uint(t.Bits))
	r := new(big.Int).Mod(v, m)
	if r.Cmp(tmax(t)) > 0 {
		r.Sub(r, m)
	}
	return r
}

// sat clamps v to the range of t.
func sat(t halide.Type, v *big.Int) *big.Int {
	if v.Cmp(tmin(t)) < 0 {
		return tmin(t)
	}
	if v.Cmp(tmax(t)) > 0 {
		return tmax(t)
	}
	return new(big.Int).Set(v)
}

func add(a, b *big.Int) *big.Int { return new(big.Int).Add(a, b) }
func sub(a, b *big.Int) *big.Int { return new(big.Int).Sub(a, b) }
func mul(a, b *big.Int) *big.Int { return new(big.Int).Mul(a, b) }
func pow2(n int64) *big.Int      { return new(big.Int).Lsh(big.NewInt(1), uint(n)) }

// floorDiv is floor(a / b) for b > 0.
func floorDiv(a, b *big.Int) *big.Int {
	q, m := new(big.Int).DivMod(a, b, new(big.Int)) // Euclidean; b > 0 so floor
	_ = m
	return q
}

// shiftExact is floor(a * 2^n): a left shift for n >= 0, a flooring right
// shift for n < 0.
func shiftExact(a *big.Int, n int64) *big.Int {
	if n >= 0 {
		if n > 200 {
			n = 200 // past every width: wraps to 0 anyway
		}
		return new(big.Int).Lsh(a, uint(n))
	}
	if n < -200 {
		n = -200
	}
	return floorDiv(a, pow2(-n))
}

// roundShift is a / 2^n rounded to nearest, ties up, for n > 0:
// floor((a + 2^(n-1)) / 2^n).
func roundShift(a *big.Int, n int64) *big.Int {
	if n > 200 {
		n = 200
	}
	return floorDiv(add(a, pow2(n-1)), pow2(n))
}

func wideOf(t halide.Type) halide.Type  { return ir.Type{Code: t.Code, Bits: 2 * t.Bits} }
func wideInt(t halide.Type) halide.Type { return ir.Type{Code: ir.IntCode, Bits: 2 * t.Bits} }

// fpCase is one operation: build from inputs a and b of type t (and c, a
// small non-negative amount of type t), the expected value from theirs.
type fpCase struct {
	name   string
	narrow bool // 8, 16 and 32 bits only
	amount bool // b is a shift amount: drawn small
	out    func(t halide.Type) halide.Type
	build  func(t halide.Type, a, b, c halide.Expr) halide.Expr
	want   func(t halide.Type, a, b, c *big.Int) *big.Int
}

func same(t halide.Type) halide.Type { return t }

func fpCases() []fpCase {
	uintOf := func(t halide.Type) halide.Type { return ir.Type{Code: ir.UIntCode, Bits: t.Bits} }
	return []fpCase{
		{name: "SaturatingAdd", out: same,
			build: func(_ halide.Type, a, b, _ halide.Expr) halide.Expr { return halide.SaturatingAdd(a, b) },
			want:  func(t halide.Type, a, b, _ *big.Int) *big.Int { return sat(t, add(a, b)) }},
		{name: "SaturatingSub", out: same,
			build: func(_ halide.Type, a, b, _ halide.Expr) halide.Expr { return halide.SaturatingSub(a, b) },
			want:  func(t halide.Type, a, b, _ *big.Int) *big.Int { return sat(t, sub(a, b)) }},
		{name: "HalvingAdd", out: same,
			build: func(_ halide.Type, a, b, _ halide.Expr) halide.Expr { return halide.HalvingAdd(a, b) },
			want:  func(t halide.Type, a, b, _ *big.Int) *big.Int { return floorDiv(add(a, b), big.NewInt(2)) }},
		{name: "RoundingHalvingAdd", out: same,
			build: func(_ halide.Type, a, b, _ halide.Expr) halide.Expr { return halide.RoundingHalvingAdd(a, b) },
			want: func(t halide.Type, a, b, _ *big.Int) *big.Int {
				return floorDiv(add(add(a, b), big.NewInt(1)), big.NewInt(2))
			}},
		{name: "HalvingSub", out: same,
			build: func(_ halide.Type, a, b, _ halide.Expr) halide.Expr { return halide.HalvingSub(a, b) },
			want:  func(t halide.Type, a, b, _ *big.Int) *big.Int { return wrap(t, floorDiv(sub(a, b), big.NewInt(2))) }},
		{name: "RoundingHalvingSub", out: same,
			build: func(_ halide.Type, a, b, _ halide.Expr) halide.Expr { return halide.RoundingHalvingSub(a, b) },
			want: func(t halide.Type, a, b, _ *big.Int) *big.Int {
				return wrap(t, floorDiv(add(sub(a, b), big.NewInt(1)), big.NewInt(2)))
			}},
		{name: "WideningAdd", narrow: true, out: wideOf,
			build: func(_ halide.Type, a, b, _ halide.Expr) halide.Expr { return halide.WideningAdd(a, b) },
			want:  func(t halide.Type, a, b, _ *big.Int) *big.Int { return add(a, b) }},
		{name: "WideningSub", narrow: true, out: wideInt,
			build: func(_ halide.Type, a, b, _ halide.Expr) halide.Expr { return halide.WideningSub(a, b) },
			want:  func(t halide.Type, a, b, _ *big.Int) *big.Int { return sub(a, b) }},
		{name: "WideningMul", narrow: true, out: wideOf,
			build: func(_ halide.Type, a, b, _ halide.Expr) halide.Expr { return halide.WideningMul(a, b) },
			want:  func(t halide.Type, a, b, _ *big.Int) *big.Int { return mul(a, b) }},
		{name: "WideningShiftLeft", narrow: true, amount: true, out: wideOf,
			build: func(_ halide.Type, a, b, _ halide.Expr) halide.Expr { return halide.WideningShiftLeft(a, b) },
			want: func(t halide.Type, a, b, _ *big.Int) *big.Int {
				return wrap(wideOf(t), shiftExact(a, b.Int64()))
			}},
		{name: "WideningShiftRight", narrow: true, amount: true, out: wideOf,
			build: func(_ halide.Type, a, b, _ halide.Expr) halide.Expr { return halide.WideningShiftRight(a, b) },
			want: func(t halide.Type, a, b, _ *big.Int) *big.Int {
				return wrap(wideOf(t), shiftExact(a, -b.Int64()))
			}},
		{name: "RoundingShiftRight", amount: true, out: same,
			build: func(_ halide.Type, a, b, _ halide.Expr) halide.Expr { return halide.RoundingShiftRight(a, b) },
			want: func(t halide.Type, a, b, _ *big.Int) *big.Int {
				if n := b.Int64(); n > 0 {
					return roundShift(a, n)
				}
				return wrap(t, shiftExact(a, -b.Int64()))
			}},
		{name: "RoundingShiftLeft", amount: true, out: same,
			build: func(_ halide.Type, a, b, _ halide.Expr) halide.Expr { return halide.RoundingShiftLeft(a, b) },
			want: func(t halide.Type, a, b, _ *big.Int) *big.Int {
				if n := b.Int64(); n < 0 {
					return roundShift(a, -n)
				}
				return wrap(t, shiftExact(a, b.Int64()))
			}},
		{name: "MulShiftRight", narrow: true, out: same,
			build: func(t halide.Type, a, b, c halide.Expr) halide.Expr {
				return halide.MulShiftRight(a, b, halide.Cast(uintOf(t), c))
			},
			want: func(t halide.Type, a, b, c *big.Int) *big.Int { return sat(t, shiftExact(mul(a, b), -c.Int64())) }},
		{name: "RoundingMulShiftRight", narrow: true, out: same,
			build: func(t halide.Type, a, b, c halide.Expr) halide.Expr {
				return halide.RoundingMulShiftRight(a, b, halide.Cast(uintOf(t), c))
			},
			want: func(t halide.Type, a, b, c *big.Int) *big.Int {
				if q := c.Int64(); q > 0 {
					return sat(t, roundShift(mul(a, b), q))
				}
				return sat(t, mul(a, b))
			}},
		{name: "MulShiftRightConst", narrow: true, out: same,
			build: func(t halide.Type, a, b, _ halide.Expr) halide.Expr {
				return halide.MulShiftRight(a, b, int(t.Bits)-1)
			},
			want: func(t halide.Type, a, b, _ *big.Int) *big.Int {
				return sat(t, shiftExact(mul(a, b), -int64(t.Bits-1)))
			}},
		{name: "RoundingMulShiftRightConst", narrow: true, out: same,
			build: func(t halide.Type, a, b, _ halide.Expr) halide.Expr {
				return halide.RoundingMulShiftRight(a, b, int(t.Bits)-1)
			},
			want: func(t halide.Type, a, b, _ *big.Int) *big.Int {
				return sat(t, roundShift(mul(a, b), int64(t.Bits-1)))
			}},
		{name: "DivRoundToZero", out: same,
			build: func(_ halide.Type, a, b, _ halide.Expr) halide.Expr { return halide.DivRoundToZero(a, b) },
			want: func(t halide.Type, a, b, _ *big.Int) *big.Int {
				if b.Sign() == 0 {
					return big.NewInt(0) // as Div (Halide leaves it undefined)
				}
				return wrap(t, new(big.Int).Quo(a, b)) // Quo truncates; min / -1 wraps
			}},
		{name: "ModRoundToZero", out: same,
			build: func(_ halide.Type, a, b, _ halide.Expr) halide.Expr { return halide.ModRoundToZero(a, b) },
			want: func(t halide.Type, a, b, _ *big.Int) *big.Int {
				if b.Sign() == 0 {
					return big.NewInt(0)
				}
				return new(big.Int).Rem(a, b)
			}},
	}
}

// fpInputs draws n values of t: the ends of its range and their
// neighbours, small values, then random bits. amount draws shift amounts
// instead, in [-(bits+2), 2*bits+2] (not negative for unsigned types).
func fpInputs(t halide.Type, n int, amount bool, r *rand.Rand) []*big.Int {
	var vs []*big.Int
	if amount {
		lo, hi := -int64(t.Bits)-2, 2*int64(t.Bits)+2
		if t.IsUInt() {
			lo = 0
		}
		for len(vs) < n {
			vs = append(vs, big.NewInt(lo+r.Int63n(hi-lo+1)))
		}
		return vs
	}
	one := big.NewInt(1)
	for _, v := range []*big.Int{tmin(t), tmax(t), add(tmin(t), one), sub(tmax(t), one), big.NewInt(0), one, big.NewInt(2), big.NewInt(3)} {
		vs = append(vs, v)
	}
	if t.IsInt() {
		vs = append(vs, big.NewInt(-1), big.NewInt(-2), big.NewInt(-3))
	}
	for len(vs) < n {
		v := wrap(t, new(big.Int).SetUint64(r.Uint64()))
		if r.Intn(4) == 0 { // small values too
			v = big.NewInt(r.Int63n(41) - 20)
			if t.IsUInt() && v.Sign() < 0 {
				v.Neg(v)
			}
		}
		vs = append(vs, v)
	}
	return vs
}

func TestFixedPointOps(t *testing.T) {
	const n = 203 // not a multiple of the emulator's block of 8 threads
	for _, c := range fpCases() {
		for _, ty := range intTypes {
			if c.narrow && ty.Bits == 64 {
				continue
			}
			r := rand.New(rand.NewSource(int64(ty.Bits)*31 + int64(ty.Code)))
			as := fpInputs(ty, n, false, r)
			bs := fpInputs(ty, n, c.amount, r)
			// b's ends against a's: a pair of every two of the ends.
			for i := 0; i < 11 && !c.amount; i++ {
				bs[i] = as[(i*7)%11]
			}
			cs := make([]*big.Int, n)
			for i := range cs {
				cs[i] = big.NewInt(r.Int63n(2*int64(ty.Bits) + 2))
			}
			for _, target := range []string{"cpu", "emulator"} {
				t.Run(fmt.Sprintf("%s/%s/%s", c.name, ty, target), func(t *testing.T) {
					ab, bb, cb := newIntBuf(ty, n), newIntBuf(ty, n), newIntBuf(ty, n)
					for i := 0; i < n; i++ {
						setInt(ab, i, as[i])
						setInt(bb, i, bs[i])
						setInt(cb, i, cs[i])
					}
					x := halide.NewVar("x")
					e := c.build(ty, at(ab, x), at(bb, x), at(cb, x))
					if err := e.Err(); err != nil {
						t.Fatal(err)
					}
					out := c.out(ty)
					if e.Type() != out {
						t.Fatalf("type %s, want %s", e.Type(), out)
					}
					f := halide.NewFunc("f")
					f.Define(x).Is(e)
					if target == "emulator" {
						f.GPUTile1D(x, halide.NewVar("bx"), halide.NewVar("tx"), 8, halide.GuardWithIf)
					}
					ob := newIntBuf(out, n)
					if err := halide.NewPipeline(f).Realize(ob); err != nil {
						t.Fatal(err)
					}
					bad := 0
					for i := 0; i < n; i++ {
						want := c.want(ty, as[i], bs[i], cs[i])
						if got := getInt(ob, i); got.Cmp(want) != 0 {
							if bad++; bad <= 5 {
								t.Errorf("%s(%v, %v; %v) = %v, want %v", c.name, as[i], bs[i], cs[i], got, want)
							}
						}
					}
				})
			}
		}
	}
}
