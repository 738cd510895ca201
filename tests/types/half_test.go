package types_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// TestHalfOperators: the operators beyond arithmetic on the 16-bit floats
// (and float32 for comparison), each result rounded to the type: Abs,
// Absd, Lerp, Clamp, Sqrt, Floor, Ceil, Round.
func TestHalfOperators(t *testing.T) {
	for _, ty := range []halide.Type{halide.Float16, halide.BFloat16, halide.Float32} {
		as, bs := pairs(ty)
		r := func(x float64) v { return v{f: roundTo(ty, x)} }
		w := v{f: roundTo(ty, 0.3)} // Lit(ty, 0.3)
		for _, c := range []struct {
			name string
			fn   func(a, b halide.Expr) halide.Expr
			ref  func(a, b v) v
		}{
			{"abs", func(a, b halide.Expr) halide.Expr { return halide.Abs(a) }, func(a, b v) v { return v{f: math.Abs(a.f)} }},
			{"absd", func(a, b halide.Expr) halide.Expr { return halide.Absd(a, b) }, func(a, b v) v {
				return v{f: math.Abs(binary(ty, "sub", a, b).f)}
			}},
			{"lerp", func(a, b halide.Expr) halide.Expr { return halide.Lerp(a, b, halide.Lit(ty, 0.3)) }, func(a, b v) v {
				one := v{f: 1}
				return binary(ty, "add", binary(ty, "mul", a, binary(ty, "sub", one, w)), binary(ty, "mul", b, w))
			}},
			{"clamp", func(a, b halide.Expr) halide.Expr { return halide.Clamp(a, -2.5, 1000) }, func(a, b v) v {
				return v{f: math.Min(math.Max(a.f, -2.5), 1000)}
			}},
			{"sqrt", func(a, b halide.Expr) halide.Expr { return halide.Sqrt(a) }, func(a, b v) v { return r(math.Sqrt(a.f)) }},
			{"floor", func(a, b halide.Expr) halide.Expr { return halide.Floor(a) }, func(a, b v) v { return r(math.Floor(a.f)) }},
			{"ceil", func(a, b halide.Expr) halide.Expr { return halide.Ceil(a) }, func(a, b v) v { return r(math.Ceil(a.f)) }},
			{"round", func(a, b halide.Expr) halide.Expr { return halide.Round(a) }, func(a, b v) v { return r(math.RoundToEven(a.f)) }},
		} {
			t.Run(ty.String()+"_"+c.name, func(t *testing.T) {
				res := realize(t, ty, len(as), func(x halide.Var, gpu bool) *halide.Func {
					a, b := halide.NewImageParam("a", ty, 1), halide.NewImageParam("b", ty, 1)
					a.Set(newBuf(ty, as))
					b.Set(newBuf(ty, bs))
					f := halide.NewFunc("f")
					f.Define(x).Is(c.fn(a.At(x), b.At(x)))
					if gpu {
						tile(f.Stage(0), x)
					}
					return f
				})
				want := make([]v, len(as))
				for i := range as {
					want[i] = c.ref(as[i], bs[i])
				}
				check(t, ty, res, want, false, func(i int) string {
					return fmt.Sprintf("%s %s(%s, %s)", ty, c.name, as[i].show(ty), bs[i].show(ty))
				})
			})
		}
	}
}

// TestSaturatingCastToHalf: a saturating cast to a 16-bit float clamps to
// its finite range first (NaN stays NaN), from a wider float, from the
// other 16-bit type (BFloat16's 65536 is Float16's 65504, not +Inf) and
// from an integer wider than Float16's range.
func TestSaturatingCastToHalf(t *testing.T) {
	bfMax := math.Ldexp(2-math.Ldexp(1, -7), 127)
	for _, c := range []struct {
		from, to halide.Type
		in       []float64
		want     []float64
	}{
		{halide.Float32, halide.Float16, []float64{1e6, -1e6, 65519, 65520, 1.5, math.Inf(1), math.NaN()},
			[]float64{65504, -65504, 65504, 65504, 1.5, 65504, math.NaN()}},
		{halide.Float64, halide.Float16, []float64{1e300, -70000, 0.1}, []float64{65504, -65504, roundTo(halide.Float16, 0.1)}},
		{halide.BFloat16, halide.Float16, []float64{65536, -1e30, 256}, []float64{65504, -65504, 256}},
		{halide.Float32, halide.BFloat16, []float64{math.MaxFloat32, -3.4e38, 3}, []float64{bfMax, -bfMax, 3}},
		{halide.Int32, halide.Float16, []float64{100000, -100000, 2049}, []float64{65504, -65504, 2048}},
		{halide.UInt16, halide.Float16, []float64{65535, 7}, []float64{65504, 7}},
		{halide.Float16, halide.BFloat16, []float64{65504, 1.0 / 3}, []float64{65536, roundTo(halide.BFloat16, roundTo(halide.Float16, 1.0/3))}},
	} {
		t.Run(c.from.String()+"_to_"+c.to.String(), func(t *testing.T) {
			in := make([]v, len(c.in))
			for i, x := range c.in {
				if c.from.IsFloat() {
					in[i] = v{f: roundTo(c.from, x)}
				} else {
					in[i] = v{i: int64(x)}
				}
			}
			res := realize(t, c.to, len(in), func(x halide.Var, gpu bool) *halide.Func {
				a := halide.NewImageParam("a", c.from, 1)
				a.Set(newBuf(c.from, in))
				f := halide.NewFunc("f")
				f.Define(x).Is(halide.SaturatingCast(c.to, a.At(x)))
				if gpu {
					tile(f.Stage(0), x)
				}
				return f
			})
			want := make([]v, len(c.want))
			for i, w := range c.want {
				want[i] = v{f: w}
			}
			check(t, c.to, res, want, false, func(i int) string { return fmt.Sprintf("SaturatingCast(%v, %v %v)", c.to, c.from, c.in[i]) })
		})
	}
}

// TestHalfSchedules: a 3-point blur of a Float16 input through a Float16
// intermediate, under CPU schedules (split, vectorize, unroll, parallel,
// compute_at, store_at) and GPU ones (the intermediate in shared memory,
// in registers), against a reference that rounds every operation.
func TestHalfSchedules(t *testing.T) {
	const n = 157
	for _, ty := range []halide.Type{halide.Float16, halide.BFloat16} {
		in := make([]v, n+2)
		for i := range in {
			in[i] = v{f: roundTo(ty, math.Sin(float64(i))*float64(i%37)*17.3)}
		}
		third := v{f: roundTo(ty, 1.0/3)}
		want := make([]v, n)
		for i := range want {
			g := func(j int) v { return binary(ty, "mul", in[j], v{f: 2}) }
			s := binary(ty, "add", binary(ty, "add", g(i), g(i+1)), g(i+2))
			want[i] = binary(ty, "mul", s, third)
		}
		for _, sched := range []string{"root", "vectorize", "unroll_parallel", "compute_at", "store_at", "gpu_shared", "gpu_register"} {
			t.Run(ty.String()+"_"+sched, func(t *testing.T) {
				x := halide.NewVar("x")
				a := halide.NewImageParam("a", ty, 1)
				a.Set(newBuf(ty, in))
				g := halide.NewFunc("g")
				g.Define(x).Is(a.At(x).Mul(2))
				f := halide.NewFunc("f")
				f.Define(x).Is(g.At(x).Add(g.At(halide.E(x).Add(1))).Add(g.At(halide.E(x).Add(2))).Mul(halide.Lit(ty, 1.0/3)))
				xo, xi := halide.NewVar("xo"), halide.NewVar("xi")
				p := halide.NewPipeline(f)
				switch sched {
				case "root":
					g.ComputeRoot()
				case "vectorize":
					f.Vectorize(x, 8)
					g.ComputeRoot().Vectorize(x, 4)
				case "unroll_parallel":
					f.Split(x, xo, xi, 16, halide.GuardWithIf).Parallel(xo).Unroll(xi, 4)
					g.ComputeAt(f, xo)
				case "compute_at":
					g.ComputeAt(f, x)
				case "store_at":
					f.Split(x, xo, xi, 8)
					g.StoreRoot().ComputeAt(f, xi)
				case "gpu_shared":
					bx, tx := halide.NewVar("bx"), halide.NewVar("tx")
					f.GPUTile1D(x, bx, tx, 32, halide.GuardWithIf)
					g.ComputeAt(f, bx).StoreIn(halide.GPUShared).GPUThreads(x)
				case "gpu_register":
					bx, tx := halide.NewVar("bx"), halide.NewVar("tx")
					f.GPUTile1D(x, bx, tx, 32, halide.GuardWithIf)
					g.ComputeAt(f, tx)
				}
				out := newBuf(ty, make([]v, n))
				if err := p.Realize(out); err != nil {
					t.Fatal(err)
				}
				check(t, ty, [][]v{values(out)}, want, true, func(i int) string { return fmt.Sprintf("f(%d)", i) })
			})
		}
	}
}

// TestBoolInGPUMemory: a Bool Func in shared memory and in registers on the
// GPU, read by a Bool output.
func TestBoolInGPUMemory(t *testing.T) {
	const n = 77
	in := make([]v, n+1)
	for i := range in {
		in[i] = v{i: int64(i * 7 % 5)}
	}
	want := make([]v, n)
	for i := range want {
		want[i] = v{i: b2i((in[i].i > 1) != (in[i+1].i > 1))}
	}
	for _, memory := range []string{"shared", "register"} {
		t.Run(memory, func(t *testing.T) {
			res := realize(t, halide.Bool, n, func(x halide.Var, gpu bool) *halide.Func {
				a := halide.NewImageParam("a", halide.Int32, 1)
				a.Set(newBuf(halide.Int32, in))
				g := halide.NewFunc("g")
				g.Define(x).Is(a.At(x).Gt(1))
				f := halide.NewFunc("f")
				f.Define(x).Is(g.At(x).Ne(g.At(halide.E(x).Add(1))))
				if gpu {
					bx, tx := halide.NewVar("bx"), halide.NewVar("tx")
					f.GPUTile1D(x, bx, tx, 16, halide.GuardWithIf)
					if memory == "shared" {
						g.ComputeAt(f, bx).StoreIn(halide.GPUShared).GPUThreads(x)
					} else {
						g.ComputeAt(f, tx)
					}
				}
				return f
			})
			check(t, halide.Bool, res, want, false, func(i int) string { return fmt.Sprintf("f(%d)", i) })
		})
	}
}
