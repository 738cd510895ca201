package halide_test

import (
	"fmt"
	"math"
	"math/rand"
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// Every public math builder of the package (the Expr methods and the free
// functions that make arithmetic, comparisons, logic, intrinsics, casts and
// inline reductions) evaluated through a pipeline, on the CPU and on the
// GPU emulator, on random non-zero inputs, against Go's math.
//
// Tolerances, |got - want| <= tol * max(1, |want|):
//   - float32 results: tolF32 = 4 ulp of float32 (4 * 2^-24). The CPU
//     executor and the emulator evaluate an intrinsic in float64 and round
//     the result to float32 once (0.5 ulp); the margin covers the rounding
//     of intermediate float32 results in the composite cases.
//   - float64 results: tolF64 = 4 ulp of float64 (4 * 2^-53): the same Go
//     math functions, so in practice exact.
//   - integer and boolean results: exact.
const (
	tolF32 = 4.0 / (1 << 24)
	tolF64 = 4.0 / (1 << 53)
)

// mathInputs is the number of random inputs per case: not a multiple of the
// emulator's block of 8 threads, so the last block is partial.
const mathInputs = 37

// mathCase is one builder on one input type.
type mathCase struct {
	name string
	in   halide.Type
	// gen draws an input (a value of type in, never zero).
	gen func(r *rand.Rand) float64
	// build makes the expression from the inputs a and b (and the RDom
	// of 4 taps for the inline reductions, over a second input dimension).
	build func(a, b halide.Expr) halide.Expr
	// out is the type build must give.
	out halide.Type
	// want computes the expected value in float64 from a and b.
	want func(a, b float64) float64
	tol  float64
}

// uniform returns a generator of values in [lo, hi), rounded to float32
// when f32, and never zero.
func uniform(lo, hi float64, f32 bool) func(*rand.Rand) float64 {
	return func(r *rand.Rand) float64 {
		for {
			v := lo + (hi-lo)*r.Float64()
			if f32 {
				v = float64(float32(v))
			}
			if v != 0 {
				return v
			}
		}
	}
}

// ints returns a generator of integers in [lo, hi], never zero.
func ints(lo, hi int) func(*rand.Rand) float64 {
	return func(r *rand.Rand) float64 {
		for {
			if v := lo + r.Intn(hi-lo+1); v != 0 {
				return float64(v)
			}
		}
	}
}

// halves returns a generator of values k + 0.5 and k for integers k in
// [lo, hi] (Round's ties, and exact integers), mixed with uniform ones.
func halves(lo, hi int, f32 bool) func(*rand.Rand) float64 {
	u := uniform(float64(lo), float64(hi), f32)
	return func(r *rand.Rand) float64 {
		switch r.Intn(3) {
		case 0:
			return float64(lo+r.Intn(hi-lo+1)) + 0.5
		case 1:
			return ints(lo, hi)(r)
		}
		return u(r)
	}
}

// euclidDiv and euclidMod are integer Div and Mod as documented (Halide's
// Euclidean division): the remainder is in [0, |b|), so the quotient rounds
// down for a positive divisor and up for a negative one; x/0 and x%0 are 0.
func euclidDiv(a, b float64) float64 {
	switch {
	case b == 0:
		return 0
	case b < 0:
		return -math.Floor(a / -b)
	}
	return math.Floor(a / b)
}

func euclidMod(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a - b*euclidDiv(a, b)
}

// floatMod is float Mod: a - b*floor(a/b), with the sign of the divisor.
func floatMod(a, b float64) float64 { return a - b*math.Floor(a/b) }

// b2f is a bool as 1 or 0 (comparisons and logic are cast to UInt8 to be
// stored).
func b2f(v bool) float64 {
	if v {
		return 1
	}
	return 0
}

func mathCases() []mathCase {
	f32, f64, i32, u8, i16, u32 := halide.Float32, halide.Float64, halide.Int32, halide.UInt8, halide.Int16, halide.UInt32
	pos32 := uniform(0.01, 100, true)
	any32 := uniform(-100, 100, true)
	any64 := uniform(-100, 100, false)
	anyInt := ints(-1000, 1000)
	asBool := func(e halide.Expr) halide.Expr { return halide.Cast(u8, e) }
	cases := []mathCase{
		// Arithmetic.
		{"Add", f32, any32, func(a, b halide.Expr) halide.Expr { return a.Add(b) }, f32,
			func(a, b float64) float64 { return a + b }, tolF32},
		{"Sub", i32, anyInt, func(a, b halide.Expr) halide.Expr { return a.Sub(b) }, i32,
			func(a, b float64) float64 { return a - b }, 0},
		{"Mul", f64, any64, func(a, b halide.Expr) halide.Expr { return a.Mul(b) }, f64,
			func(a, b float64) float64 { return a * b }, tolF64},
		{"Mul", i32, anyInt, func(a, b halide.Expr) halide.Expr { return a.Mul(b) }, i32,
			func(a, b float64) float64 { return a * b }, 0},
		{"Div", f32, any32, func(a, b halide.Expr) halide.Expr { return a.Div(b) }, f32,
			func(a, b float64) float64 { return a / b }, tolF32},
		{"Div", i32, anyInt, func(a, b halide.Expr) halide.Expr { return a.Div(b) }, i32, euclidDiv, 0},
		{"Mod", i32, anyInt, func(a, b halide.Expr) halide.Expr { return a.Mod(b) }, i32, euclidMod, 0},
		{"Mod", f64, any64, func(a, b halide.Expr) halide.Expr { return a.Mod(b) }, f64, floatMod, 1e-13},
		{"Neg", f32, any32, func(a, _ halide.Expr) halide.Expr { return a.Neg() }, f32,
			func(a, _ float64) float64 { return -a }, 0},
		{"Neg", i16, ints(-1000, 1000), func(a, _ halide.Expr) halide.Expr { return a.Neg() }, i16,
			func(a, _ float64) float64 { return -a }, 0},

		// Comparisons and logic.
		{"Lt", f32, any32, func(a, b halide.Expr) halide.Expr { return asBool(a.Lt(b)) }, u8,
			func(a, b float64) float64 { return b2f(a < b) }, 0},
		{"Le", i32, ints(-3, 3), func(a, b halide.Expr) halide.Expr { return asBool(a.Le(b)) }, u8,
			func(a, b float64) float64 { return b2f(a <= b) }, 0},
		{"Gt", i32, ints(-3, 3), func(a, b halide.Expr) halide.Expr { return asBool(a.Gt(b)) }, u8,
			func(a, b float64) float64 { return b2f(a > b) }, 0},
		{"Ge", f64, any64, func(a, b halide.Expr) halide.Expr { return asBool(a.Ge(b)) }, u8,
			func(a, b float64) float64 { return b2f(a >= b) }, 0},
		{"Eq", i32, ints(-3, 3), func(a, b halide.Expr) halide.Expr { return asBool(a.Eq(b)) }, u8,
			func(a, b float64) float64 { return b2f(a == b) }, 0},
		{"Ne", i32, ints(-3, 3), func(a, b halide.Expr) halide.Expr { return asBool(a.Ne(b)) }, u8,
			func(a, b float64) float64 { return b2f(a != b) }, 0},
		{"And", i32, ints(-3, 3), func(a, b halide.Expr) halide.Expr { return asBool(a.Gt(0).And(b.Lt(0))) }, u8,
			func(a, b float64) float64 { return b2f(a > 0 && b < 0) }, 0},
		{"Or", i32, ints(-3, 3), func(a, b halide.Expr) halide.Expr { return asBool(a.Gt(0).Or(b.Lt(0))) }, u8,
			func(a, b float64) float64 { return b2f(a > 0 || b < 0) }, 0},
		{"Not", i32, ints(-3, 3), func(a, _ halide.Expr) halide.Expr { return asBool(halide.Not(a.Gt(0))) }, u8,
			func(a, _ float64) float64 { return b2f(!(a > 0)) }, 0},

		// Min, Max, Clamp, Select.
		{"Min", f32, any32, func(a, b halide.Expr) halide.Expr { return halide.Min(a, b) }, f32, math.Min, 0},
		{"Min", i32, anyInt, func(a, b halide.Expr) halide.Expr { return halide.Min(a, b) }, i32, math.Min, 0},
		{"Max", f64, any64, func(a, b halide.Expr) halide.Expr { return halide.Max(a, b) }, f64, math.Max, 0},
		{"Max", u8, ints(1, 255), func(a, b halide.Expr) halide.Expr { return halide.Max(a, b) }, u8, math.Max, 0},
		{"Clamp", f32, any32, func(a, _ halide.Expr) halide.Expr { return halide.Clamp(a, -10, 20) }, f32,
			func(a, _ float64) float64 { return math.Min(math.Max(a, -10), 20) }, 0},
		{"Clamp", i32, anyInt, func(a, b halide.Expr) halide.Expr { return halide.Clamp(a, b, b.Add(500)) }, i32,
			func(a, b float64) float64 { return math.Min(math.Max(a, b), b+500) }, 0},
		{"Select", f32, any32, func(a, b halide.Expr) halide.Expr { return halide.Select(a.Lt(b), a.Mul(2), b) }, f32,
			func(a, b float64) float64 {
				if a < b {
					return 2 * a
				}
				return b
			}, tolF32},
		{"Select", i32, anyInt, func(a, b halide.Expr) halide.Expr { return halide.Select(a.Gt(0), a, b.Neg()) }, i32,
			func(a, b float64) float64 {
				if a > 0 {
					return a
				}
				return -b
			}, 0},

		// Intrinsics.
		{"Abs", f32, any32, func(a, _ halide.Expr) halide.Expr { return halide.Abs(a) }, f32,
			func(a, _ float64) float64 { return math.Abs(a) }, 0},
		// As in Halide, the abs of a signed integer is unsigned.
		{"Abs", i32, anyInt, func(a, _ halide.Expr) halide.Expr { return halide.Abs(a) }, u32,
			func(a, _ float64) float64 { return math.Abs(a) }, 0},
		{"Abs", i16, ints(-32768, 32767), func(a, _ halide.Expr) halide.Expr { return halide.Abs(a) }, halide.UInt16,
			func(a, _ float64) float64 { return math.Abs(a) }, 0},
		{"Abs", f64, any64, func(a, _ halide.Expr) halide.Expr { return halide.Abs(a) }, f64,
			func(a, _ float64) float64 { return math.Abs(a) }, 0},
		{"Sqrt", f32, pos32, func(a, _ halide.Expr) halide.Expr { return halide.Sqrt(a) }, f32,
			func(a, _ float64) float64 { return math.Sqrt(a) }, tolF32},
		{"Sqrt", f64, uniform(0.01, 1e6, false), func(a, _ halide.Expr) halide.Expr { return halide.Sqrt(a) }, f64,
			func(a, _ float64) float64 { return math.Sqrt(a) }, tolF64},
		// An integer argument is converted to float32.
		{"Sqrt", i32, ints(1, 10000), func(a, _ halide.Expr) halide.Expr { return halide.Sqrt(a) }, f32,
			func(a, _ float64) float64 { return math.Sqrt(a) }, tolF32},
		{"Exp", f32, uniform(-10, 10, true), func(a, _ halide.Expr) halide.Expr { return halide.Exp(a) }, f32,
			func(a, _ float64) float64 { return math.Exp(a) }, tolF32},
		{"Exp", f64, uniform(-30, 30, false), func(a, _ halide.Expr) halide.Expr { return halide.Exp(a) }, f64,
			func(a, _ float64) float64 { return math.Exp(a) }, tolF64},
		{"Log", f32, pos32, func(a, _ halide.Expr) halide.Expr { return halide.Log(a) }, f32,
			func(a, _ float64) float64 { return math.Log(a) }, tolF32},
		{"Log", f64, uniform(1e-6, 1e6, false), func(a, _ halide.Expr) halide.Expr { return halide.Log(a) }, f64,
			func(a, _ float64) float64 { return math.Log(a) }, tolF64},
		{"Pow", f32, uniform(0.1, 3, true), func(a, b halide.Expr) halide.Expr { return halide.Pow(a, b) }, f32,
			math.Pow, tolF32},
		{"Pow", f64, uniform(0.1, 10, false), func(a, b halide.Expr) halide.Expr { return halide.Pow(a, b.Sub(5)) }, f64,
			func(a, b float64) float64 { return math.Pow(a, b-5) }, tolF64},
		// An integer exponent is converted to the base's type.
		{"Pow", f32, uniform(-3, 3, true), func(a, _ halide.Expr) halide.Expr { return halide.Pow(a, 3) }, f32,
			func(a, _ float64) float64 { return math.Pow(a, 3) }, tolF32},
		{"Floor", f32, halves(-100, 100, true), func(a, _ halide.Expr) halide.Expr { return halide.Floor(a) }, f32,
			func(a, _ float64) float64 { return math.Floor(a) }, 0},
		{"Floor", f64, halves(-100, 100, false), func(a, _ halide.Expr) halide.Expr { return halide.Floor(a) }, f64,
			func(a, _ float64) float64 { return math.Floor(a) }, 0},
		{"Ceil", f32, halves(-100, 100, true), func(a, _ halide.Expr) halide.Expr { return halide.Ceil(a) }, f32,
			func(a, _ float64) float64 { return math.Ceil(a) }, 0},
		{"Ceil", f64, halves(-100, 100, false), func(a, _ halide.Expr) halide.Expr { return halide.Ceil(a) }, f64,
			func(a, _ float64) float64 { return math.Ceil(a) }, 0},
		// Halves go to the even neighbour.
		{"Round", f32, halves(-100, 100, true), func(a, _ halide.Expr) halide.Expr { return halide.Round(a) }, f32,
			func(a, _ float64) float64 { return math.RoundToEven(a) }, 0},
		{"Round", f64, halves(-100, 100, false), func(a, _ halide.Expr) halide.Expr { return halide.Round(a) }, f64,
			func(a, _ float64) float64 { return math.RoundToEven(a) }, 0},

		// Promises: Clamped clamps; UnsafePromiseClamped returns x as it
		// is (here it does hold).
		{"Clamped", i32, anyInt, func(a, _ halide.Expr) halide.Expr { return halide.Clamped(a, -100, 100) }, i32,
			func(a, _ float64) float64 { return math.Min(math.Max(a, -100), 100) }, 0},
		{"UnsafePromiseClamped", i32, anyInt, func(a, _ halide.Expr) halide.Expr { return halide.UnsafePromiseClamped(a, -1000, 1000) }, i32,
			func(a, _ float64) float64 { return a }, 0},

		// Constants.
		{"Inf", f32, any32, func(a, _ halide.Expr) halide.Expr { return halide.Min(a, halide.Inf(halide.Float32)) }, f32,
			func(a, _ float64) float64 { return a }, 0},
		{"Lit", f64, any64, func(a, _ halide.Expr) halide.Expr { return a.Add(halide.Lit(halide.Float64, 0.1)) }, f64,
			func(a, _ float64) float64 { return a + 0.1 }, tolF64},
		{"E", i32, anyInt, func(a, _ halide.Expr) halide.Expr { return a.Add(halide.E(int32(7))) }, i32,
			func(a, _ float64) float64 { return a + 7 }, 0},

		// Casts: float to int truncates toward zero; int to float rounds
		// to the nearest float; float64 to float32 rounds; integers wrap.
		{"Cast float32->int32", f32, any32, func(a, _ halide.Expr) halide.Expr { return halide.Cast(i32, a) }, i32,
			func(a, _ float64) float64 { return math.Trunc(a) }, 0},
		{"Cast float64->int16", f64, any64, func(a, _ halide.Expr) halide.Expr { return halide.Cast(i16, a) }, i16,
			func(a, _ float64) float64 { return math.Trunc(a) }, 0},
		{"Cast int32->float32", i32, ints(-1<<30, 1<<30), func(a, _ halide.Expr) halide.Expr { return halide.Cast(f32, a) }, f32,
			func(a, _ float64) float64 { return float64(float32(a)) }, 0},
		{"Cast float64->float32", f64, any64, func(a, _ halide.Expr) halide.Expr { return halide.Cast(f32, a) }, f32,
			func(a, _ float64) float64 { return float64(float32(a)) }, 0},
		{"Cast int32->uint8", i32, anyInt, func(a, _ halide.Expr) halide.Expr { return halide.Cast(u8, a) }, u8,
			func(a, _ float64) float64 { return float64(uint8(int32(a))) }, 0},
		{"Cast uint8->int16", u8, ints(1, 255), func(a, _ halide.Expr) halide.Expr { return halide.Cast(i16, a).Sub(128) }, i16,
			func(a, _ float64) float64 { return a - 128 }, 0},
	}
	return cases
}

// reductionCases are the inline reductions over an RDom r of 4 taps: the
// inputs are a[x + r] for each r (want gets a[x], ..., a[x+3] through a
// closure over the input slice).
type reductionCase struct {
	name  string
	build func(e halide.Expr) halide.Expr
	want  func(vs []float64) float64
	tol   float64
}

func reductionCases() []reductionCase {
	return []reductionCase{
		{"Sum", func(e halide.Expr) halide.Expr { return halide.Sum(e) }, func(vs []float64) float64 {
			s := 0.0
			for _, v := range vs {
				s += v
			}
			return s
		}, tolF32},
		{"Product", func(e halide.Expr) halide.Expr { return halide.Product(e) }, func(vs []float64) float64 {
			s := 1.0
			for _, v := range vs {
				s *= v
			}
			return s
		}, tolF32},
		{"Maximum", func(e halide.Expr) halide.Expr { return halide.Maximum(e) }, func(vs []float64) float64 {
			s := math.Inf(-1)
			for _, v := range vs {
				s = math.Max(s, v)
			}
			return s
		}, 0},
		{"Minimum", func(e halide.Expr) halide.Expr { return halide.Minimum(e) }, func(vs []float64) float64 {
			s := math.Inf(1)
			for _, v := range vs {
				s = math.Min(s, v)
			}
			return s
		}, 0},
	}
}

// buffer1 makes a 1-D buffer of type t holding vs.
func buffer1(t halide.Type, vs []float64) halide.BufferRef {
	switch t {
	case halide.Float32:
		return fill(halide.NewBuffer[float32](len(vs)), vs)
	case halide.Float64:
		return fill(halide.NewBuffer[float64](len(vs)), vs)
	case halide.Int32:
		return fill(halide.NewBuffer[int32](len(vs)), vs)
	case halide.Int16:
		return fill(halide.NewBuffer[int16](len(vs)), vs)
	case halide.UInt8:
		return fill(halide.NewBuffer[uint8](len(vs)), vs)
	case halide.UInt16:
		return fill(halide.NewBuffer[uint16](len(vs)), vs)
	case halide.UInt32:
		return fill(halide.NewBuffer[uint32](len(vs)), vs)
	}
	panic(fmt.Sprintf("buffer1: no buffer of %s in this test", t))
}

// numeric is the element types of this test (halide.Number has bool too).
type numeric interface {
	float32 | float64 | int32 | int16 | uint8 | uint16 | uint32
}

func fill[T numeric](b *halide.Buffer[T], vs []float64) *halide.Buffer[T] {
	for i, v := range vs {
		b.Set(T(v), i)
	}
	return b
}

// values reads a 1-D buffer made by buffer1 back as float64s.
func values(b halide.BufferRef) []float64 {
	switch b := b.(type) {
	case *halide.Buffer[float32]:
		return read(b)
	case *halide.Buffer[float64]:
		return read(b)
	case *halide.Buffer[int32]:
		return read(b)
	case *halide.Buffer[int16]:
		return read(b)
	case *halide.Buffer[uint8]:
		return read(b)
	case *halide.Buffer[uint16]:
		return read(b)
	case *halide.Buffer[uint32]:
		return read(b)
	}
	panic(fmt.Sprintf("values: %T", b))
}

func read[T numeric](b *halide.Buffer[T]) []float64 {
	out := make([]float64, b.Shape()[0].Extent)
	for i := range out {
		out[i] = float64(b.Get(i))
	}
	return out
}

// realizeMath defines f(x) = e on the CPU (gpu false) or on the GPU
// emulator (blocks of 8 threads) and realizes it over n points into a
// buffer of type out.
func realizeMath(t *testing.T, f *halide.Func, x halide.Var, out halide.Type, n int, gpu bool) []float64 {
	t.Helper()
	if gpu {
		f.GPUTile1D(x, halide.NewVar("bx"), halide.NewVar("tx"), 8, halide.GuardWithIf)
	}
	o := buffer1(out, make([]float64, n))
	if err := halide.NewPipeline(f).Realize(o); err != nil {
		t.Fatal(err)
	}
	return values(o)
}

// checkClose compares got with want element by element.
func checkClose(t *testing.T, inputs [][]float64, got, want []float64, tol float64) {
	t.Helper()
	bad := 0
	for i := range want {
		if math.Abs(got[i]-want[i]) <= tol*math.Max(1, math.Abs(want[i])) {
			continue
		}
		if bad++; bad <= 5 {
			var in []float64
			for _, v := range inputs {
				in = append(in, v[i])
			}
			t.Errorf("inputs %v: got %v, want %v (tolerance %g)", in, got[i], want[i], tol)
		}
	}
}

func TestMathBuilders(t *testing.T) {
	for i, c := range mathCases() {
		for _, target := range []string{"cpu", "emulator"} {
			t.Run(fmt.Sprintf("%s_%s_%s", c.name, c.in, target), func(t *testing.T) {
				rng := rand.New(rand.NewSource(int64(i + 1)))
				a, b := make([]float64, mathInputs), make([]float64, mathInputs)
				for j := range a {
					a[j], b[j] = c.gen(rng), c.gen(rng)
				}
				ap, bp := halide.NewImageParam("a", c.in, 1), halide.NewImageParam("b", c.in, 1)
				ap.Set(buffer1(c.in, a))
				bp.Set(buffer1(c.in, b))
				x := halide.NewVar("x")
				e := c.build(ap.At(x), bp.At(x))
				if err := e.Err(); err != nil {
					t.Fatal(err)
				}
				if e.Type() != c.out {
					t.Fatalf("type %s, want %s", e.Type(), c.out)
				}
				f := halide.NewFunc("f")
				f.Define(x).Is(e)
				got := realizeMath(t, f, x, c.out, mathInputs, target == "emulator")
				want := make([]float64, mathInputs)
				for j := range want {
					want[j] = c.want(a[j], b[j])
					if c.out == halide.Float32 {
						want[j] = float64(float32(want[j]))
					}
				}
				checkClose(t, [][]float64{a, b}, got, want, c.tol)
			})
		}
	}
}

// The inline reductions, over 4 taps of a float32 input.
func TestMathBuildersReductions(t *testing.T) {
	const taps = 4
	for i, c := range reductionCases() {
		for _, target := range []string{"cpu", "emulator"} {
			t.Run(c.name+"_"+target, func(t *testing.T) {
				rng := rand.New(rand.NewSource(int64(100 + i)))
				gen := uniform(-2, 2, true)
				a := make([]float64, mathInputs+taps-1)
				for j := range a {
					a[j] = gen(rng)
				}
				ap := halide.NewImageParam("a", halide.Float32, 1)
				ap.Set(buffer1(halide.Float32, a))
				x := halide.NewVar("x")
				r := halide.NewRDom("r", halide.Range(0, taps))
				e := c.build(ap.At(x.Add(r)))
				if err := e.Err(); err != nil {
					t.Fatal(err)
				}
				f := halide.NewFunc("f")
				f.Define(x).Is(e)
				got := realizeMath(t, f, x, halide.Float32, mathInputs, target == "emulator")
				want := make([]float64, mathInputs)
				for j := range want {
					want[j] = float64(float32(c.want(a[j : j+taps])))
				}
				checkClose(t, [][]float64{a[:mathInputs]}, got, want, c.tol)
			})
		}
	}
}

// Abs of a signed integer is unsigned, as in Halide, so the most negative
// value has an absolute value too: |int8(-128)| = uint8(128),
// |int32(-2^31)| = uint32(2^31), read from an input (CPU and emulator)
// and folded from a constant.
func TestAbsOfMostNegative(t *testing.T) {
	for _, gpu := range []bool{false, true} {
		in8 := halide.NewBuffer[int8](4)
		in32 := halide.NewBuffer[int32](4)
		for i, v := range []int32{math.MinInt32, -7, 0, math.MaxInt32} {
			in32.Set(v, i)
			in8.Set([]int8{-128, -7, 0, 127}[i], i)
		}
		x := halide.NewVar("x")
		f := halide.NewFunc("f")
		f.Define(x).Is(halide.NewTuple(halide.Abs(in8.At(x)), halide.Abs(in32.At(x)), halide.Abs(halide.E(int32(math.MinInt32)))))
		if gpu {
			f.GPUTile1D(x, halide.NewVar("bx"), halide.NewVar("tx"), 2)
		}
		a, b, c := halide.NewBuffer[uint8](4), halide.NewBuffer[uint32](4), halide.NewBuffer[uint32](4)
		if err := halide.NewPipeline(f).RealizeTuple(a, b, c); err != nil {
			t.Fatal(err)
		}
		for i, w := range []uint32{1 << 31, 7, 0, math.MaxInt32} {
			w8 := []uint8{128, 7, 0, 127}[i]
			if a.Get(i) != w8 || b.Get(i) != w || c.Get(i) != 1<<31 {
				t.Errorf("gpu %v, at %d: (%d, %d, %d), want (%d, %d, %d)", gpu, i, a.Get(i), b.Get(i), c.Get(i), w8, w, uint32(1<<31))
			}
		}
	}
}
