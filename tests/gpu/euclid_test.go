package gpu_test

import (
	"math"
	"math/big"
	"strings"
	"testing"

	"github.com/gohalide/gohalide/cfamily"
	"github.com/gohalide/gohalide/halide"
)

// Integer Div and Mod are Euclidean, as in Halide (issue 17): the remainder
// is never negative, x/0 and x%0 are 0, MIN / -1 wraps. Each case below
// realizes f(x) = e on the CPU path and, under a GPU schedule, on the
// emulator, and compares with a plain-Go reference built on math/big (whose
// DivMod is Euclidean); the CUDA of the GPU form compiles with nvcc where
// nvcc exists. The divisors are negative constants (powers of two among
// them, which the CUDA emitter must not turn into a shift), a negative
// Param, and data of every sign, zero and MIN / -1 included; two cases use
// the quotient and remainder as indices of a producer, so bounds inference
// must size its region by the same rule.

// euclidRef is a / b (or a % b) in int32, Euclidean, by math/big.
func euclidRef(a, b int64, mod bool) int64 {
	if b == 0 {
		return 0
	}
	q, m := new(big.Int).DivMod(big.NewInt(a), big.NewInt(b), new(big.Int))
	if mod {
		return m.Int64()
	}
	return int64(int32(q.Int64())) // MIN / -1 = 2^31 wraps to MIN
}

func refDiv(a, b int64) int64 { return euclidRef(a, b, false) }
func refMod(a, b int64) int64 { return euclidRef(a, b, true) }

// The data: pairs of every sign, zero divisors, MIN / -1 and -128 / -1 (for
// the int8 case), then small values.
var euclidA, euclidB = func() ([]int32, []int32) {
	a := []int32{7, -7, 7, -7, 7, -7, 6, -6, 0, 5, -5, math.MinInt32, math.MinInt32, math.MaxInt32, math.MaxInt32, -128, -1, -1, 1, 16, -16, -17}
	b := []int32{2, 2, -2, -2, -3, 3, -3, -3, -4, 0, 0, -1, 1, math.MinInt32, -1, -1, 8, -8, -8, -8, -8, 8}
	for i := 0; len(a) < 45; i++ {
		a = append(a, int32((i*37)%101-50))
		b = append(b, int32((i*13)%19-9))
	}
	return a, b
}()

type euclidCase struct {
	name string
	// def defines f(x) from the inputs a and b, the Param d and the
	// producer p(x) = 3x + 1.
	def func(x halide.Var, a, b *halide.ImageParam, d halide.Expr, p *halide.Func) halide.Expr
	ref func(x, a, b, d int64) int64
	// cuda holds text the emitted CUDA must contain: by a negative
	// constant the helpers, by a positive power of two the shift and
	// the mask.
	cuda []string
}

const euclidD = -5

var euclidCases = []euclidCase{
	{"a/b", func(x halide.Var, a, b *halide.ImageParam, d halide.Expr, p *halide.Func) halide.Expr {
		return a.At(x).Div(b.At(x))
	}, func(x, a, b, d int64) int64 { return refDiv(a, b) }, nil},
	{"a%b", func(x halide.Var, a, b *halide.ImageParam, d halide.Expr, p *halide.Func) halide.Expr {
		return a.At(x).Mod(b.At(x))
	}, func(x, a, b, d int64) int64 { return refMod(a, b) }, nil},
	{"a/-2 + a%-2", func(x halide.Var, a, b *halide.ImageParam, d halide.Expr, p *halide.Func) halide.Expr {
		return a.At(x).Div(-2).Mul(1000).Add(a.At(x).Mod(-2))
	}, func(x, a, b, d int64) int64 { return int64(int32(refDiv(a, -2)*1000 + refMod(a, -2))) },
		[]string{"gh_div_i32(a_value, -2)", "gh_mod_i32(a_value, -2)"}},
	{"a/-8 + a%-8", func(x halide.Var, a, b *halide.ImageParam, d halide.Expr, p *halide.Func) halide.Expr {
		return a.At(x).Div(-8).Mul(1000).Add(a.At(x).Mod(-8))
	}, func(x, a, b, d int64) int64 { return int64(int32(refDiv(a, -8)*1000 + refMod(a, -8))) },
		[]string{"gh_div_i32(a_value, -8)", "gh_mod_i32(a_value, -8)"}},
	{"a/8 + a%8", func(x halide.Var, a, b *halide.ImageParam, d halide.Expr, p *halide.Func) halide.Expr {
		return a.At(x).Div(8).Mul(1000).Add(a.At(x).Mod(8))
	}, func(x, a, b, d int64) int64 { return int64(int32(refDiv(a, 8)*1000 + refMod(a, 8))) },
		[]string{"a_value >> 3", "a_value & 7"}},
	{"a/-3 - a%-3", func(x halide.Var, a, b *halide.ImageParam, d halide.Expr, p *halide.Func) halide.Expr {
		return a.At(x).Div(-3).Sub(a.At(x).Mod(-3))
	}, func(x, a, b, d int64) int64 { return int64(int32(refDiv(a, -3) - refMod(a, -3))) }, nil},
	{"a/d, a%d", func(x halide.Var, a, b *halide.ImageParam, d halide.Expr, p *halide.Func) halide.Expr {
		return a.At(x).Div(d).Mul(1000).Add(a.At(x).Mod(d))
	}, func(x, a, b, d int64) int64 { return int64(int32(refDiv(a, d)*1000 + refMod(a, d))) }, nil},
	{"int8", func(x halide.Var, a, b *halide.ImageParam, d halide.Expr, p *halide.Func) halide.Expr {
		a8, b8 := halide.Cast(halide.Int8, a.At(x)), halide.Cast(halide.Int8, b.At(x))
		return halide.Cast(halide.Int32, a8.Div(b8)).Mul(1000).Add(halide.Cast(halide.Int32, a8.Mod(b8)))
	}, func(x, a, b, d int64) int64 {
		a8, b8 := int64(int8(a)), int64(int8(b))
		return int64(int8(refDiv(a8, b8)))*1000 + refMod(a8, b8)
	}, nil},
	{"p(x/-2) + p(x%-3)", func(x halide.Var, a, b *halide.ImageParam, d halide.Expr, p *halide.Func) halide.Expr {
		return p.At(x.Div(-2)).Mul(100).Add(p.At(x.Mod(-3)))
	}, func(x, a, b, d int64) int64 { return (3*refDiv(x, -2)+1)*100 + 3*refMod(x, -3) + 1 },
		[]string{"gh_div_i32(f_s0_x, -2)", "gh_mod_i32(f_s0_x, -3)"}},
	{"p((x-20)/-4) + p(x%d)", func(x halide.Var, a, b *halide.ImageParam, d halide.Expr, p *halide.Func) halide.Expr {
		return p.At(x.Sub(20).Div(-4)).Mul(100).Add(p.At(x.Mod(d)))
	}, func(x, a, b, d int64) int64 { return (3*refDiv(x-20, -4)+1)*100 + 3*refMod(x, d) + 1 }, nil},
}

// euclidPipeline builds case c, with a GPU schedule (1-D tiles of 8 over
// 45 points: a partial tile) or none.
func euclidPipeline(c euclidCase, onGPU bool) *halide.Pipeline {
	x, bx, tx := halide.NewVar("x"), halide.NewVar("bx"), halide.NewVar("tx")
	a, b := halide.NewImageParam("a", halide.Int32, 1), halide.NewImageParam("b", halide.Int32, 1)
	d := halide.NewParam[int32]("d")
	d.Set(euclidD)
	ab, bb := halide.NewBuffer[int32](len(euclidA)), halide.NewBuffer[int32](len(euclidB))
	for i := range euclidA {
		ab.Set(euclidA[i], i)
		bb.Set(euclidB[i], i)
	}
	a.Set(ab)
	b.Set(bb)
	p := halide.NewFunc("p")
	p.Define(x).Is(x.Mul(3).Add(1))
	p.ComputeRoot()
	f := halide.NewFunc("f")
	f.Define(x).Is(c.def(x, a, b, d.Expr(), p))
	if onGPU {
		f.GPUTile1D(x, bx, tx, 8, halide.GuardWithIf)
		p.GPUTile1D(x, bx, tx, 8, halide.GuardWithIf)
	}
	return halide.NewPipeline(f)
}

func TestEuclidDivModPipelines(t *testing.T) {
	_, haveNVCC := cfamily.NVCCPath()
	for _, c := range euclidCases {
		for _, onGPU := range []bool{false, true} {
			where := "cpu"
			if onGPU {
				where = "emulator"
			}
			t.Run(c.name+"/"+where, func(t *testing.T) {
				l, err := euclidPipeline(c, onGPU).Lower()
				if err != nil {
					t.Fatal(err)
				}
				out := halide.NewBuffer[int32](len(euclidA))
				if err := l.Realize(out); err != nil {
					t.Fatalf("%v\n%s", err, l)
				}
				for i := range euclidA {
					want := int32(c.ref(int64(i), int64(euclidA[i]), int64(euclidB[i]), euclidD))
					if got := out.Get(i); got != want {
						t.Errorf("x=%d a=%d b=%d: got %d, want %d", i, euclidA[i], euclidB[i], got, want)
					}
				}
				if !onGPU {
					return
				}
				src, err := l.CUDA()
				if err != nil {
					t.Fatal(err)
				}
				for _, want := range c.cuda {
					if !strings.Contains(src, want) {
						t.Errorf("the CUDA of %s lacks %q:\n%s", c.name, want, src)
					}
				}
				if haveNVCC {
					checkKernelsNVCC(t, l.Kernels())
				}
			})
		}
	}
}
