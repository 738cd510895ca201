package types_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// gpuTargets are the targets of the GPU schedules: the emulator, and CUDA
// in a build with -tags cuda (cuda_test.go).
var gpuTargets = []halide.Target{halide.Emulator}

// targetName names result k of realize: the CPU, then the GPU targets.
func targetName(k int) string {
	if k == 0 {
		return "CPU"
	}
	return gpuTargets[k-1].String()
}

// realize builds a pipeline with mk (fresh Funcs each time; gpu says
// whether to give it a GPU schedule), realizes n points of its output, of
// type out, on the CPU and on each GPU target, and returns the results in
// that order.
func realize(t *testing.T, out halide.Type, n int, mk func(x halide.Var, gpu bool) *halide.Func) [][]v {
	t.Helper()
	var res [][]v
	for k := 0; k <= len(gpuTargets); k++ {
		x := halide.NewVar("x")
		f := mk(x, k > 0)
		ob := newBuf(out, make([]v, n))
		p := halide.NewPipeline(f).WithOptions(halide.Options{Verify: true})
		if k > 0 {
			p = p.WithTarget(gpuTargets[k-1])
		}
		if err := p.Realize(ob); err != nil {
			t.Fatalf("%s: Realize: %v", targetName(k), err)
		}
		res = append(res, values(ob))
	}
	return res
}

// tile is the GPU schedule of a 1-D stage: blocks of 16 threads.
func tile(s *halide.Stage, x halide.Var) {
	s.GPUTile1D(x, halide.NewVar("bx"), halide.NewVar("tx"), 16, halide.GuardWithIf)
}

// check compares every target's results with the reference. On CUDA a
// float32 or float64 result may differ in its last bits where nvcc fused a
// multiply and an add (the CUDA target contracts; the 16-bit types round
// every result, which no FMA crosses).
func check(t *testing.T, out halide.Type, res [][]v, want []v, bits bool, what func(i int) string) {
	t.Helper()
	bad := 0
	for i := range want {
		for k, got := range res {
			ok := same(out, got[i], want[i], bits)
			if !ok && k > 0 && gpuTargets[k-1] == halide.CUDA && (out == halide.Float32 || out == halide.Float64) {
				// The CUDA target contracts a*b + c into an FMA: one
				// rounding fewer, so a result that cancels (a lerp near
				// 0) differs by about an ulp of its operands.
				ok = math.Abs(got[i].f-want[i].f) <= 1e-6*math.Max(math.Abs(want[i].f), 1)
			}
			if !ok && bad < 8 {
				bad++
				t.Errorf("%s on the %s: got %s, want %s", what(i), targetName(k), got[i].show(out), want[i].show(out))
			}
		}
	}
}

// TestCastEveryPair converts the samples of every type to every type.
func TestCastEveryPair(t *testing.T) {
	for _, from := range allTypes {
		for _, to := range allTypes {
			t.Run(from.String()+"_to_"+to.String(), func(t *testing.T) {
				in := samples(from)
				res := realize(t, to, len(in), func(x halide.Var, gpu bool) *halide.Func {
					ip := halide.NewImageParam("in", from, 1)
					ip.Set(newBuf(from, in))
					f := halide.NewFunc("f")
					f.Define(x).Is(halide.Cast(to, ip.At(x)))
					if gpu {
						tile(f.Stage(0), x)
					}
					return f
				})
				want := make([]v, len(in))
				for i, x := range in {
					want[i] = cast(from, to, x)
				}
				check(t, to, res, want, false, func(i int) string { return fmt.Sprintf("%v(%s %s)", to, from, in[i].show(from)) })
			})
		}
	}
}

// pairs returns every pair of the samples of t, as two columns.
func pairs(t halide.Type) (as, bs []v) {
	s := samples(t)
	for _, a := range s {
		for _, b := range s {
			as, bs = append(as, a), append(bs, b)
		}
	}
	return as, bs
}

var ops = []struct {
	name string
	fn   func(a, b halide.Expr) halide.Expr
	cmp  bool
}{
	{"add", func(a, b halide.Expr) halide.Expr { return a.Add(b) }, false},
	{"sub", func(a, b halide.Expr) halide.Expr { return a.Sub(b) }, false},
	{"mul", func(a, b halide.Expr) halide.Expr { return a.Mul(b) }, false},
	{"div", func(a, b halide.Expr) halide.Expr { return a.Div(b) }, false},
	{"mod", func(a, b halide.Expr) halide.Expr { return a.Mod(b) }, false},
	{"min", func(a, b halide.Expr) halide.Expr { return halide.Min(a, b) }, false},
	{"max", func(a, b halide.Expr) halide.Expr { return halide.Max(a, b) }, false},
	{"select", func(a, b halide.Expr) halide.Expr { return halide.Select(a.Lt(b), a, b) }, false},
	{"lt", func(a, b halide.Expr) halide.Expr { return a.Lt(b) }, true},
	{"le", func(a, b halide.Expr) halide.Expr { return a.Le(b) }, true},
	{"eq", func(a, b halide.Expr) halide.Expr { return a.Eq(b) }, true},
	{"ne", func(a, b halide.Expr) halide.Expr { return a.Ne(b) }, true},
}

// TestArithmetic applies every operator to every pair of samples of each
// type (bool has its own test).
func TestArithmetic(t *testing.T) {
	for _, ty := range allTypes {
		if ty == halide.Bool {
			continue
		}
		as, bs := pairs(ty)
		for _, op := range ops {
			t.Run(ty.String()+"_"+op.name, func(t *testing.T) {
				out := ty
				if op.cmp {
					out = halide.Bool
				}
				res := realize(t, out, len(as), func(x halide.Var, gpu bool) *halide.Func {
					a, b := halide.NewImageParam("a", ty, 1), halide.NewImageParam("b", ty, 1)
					a.Set(newBuf(ty, as))
					b.Set(newBuf(ty, bs))
					f := halide.NewFunc("f")
					f.Define(x).Is(op.fn(a.At(x), b.At(x)))
					if gpu {
						tile(f.Stage(0), x)
					}
					return f
				})
				want := make([]v, len(as))
				for i := range as {
					want[i] = binary(ty, op.name, as[i], bs[i])
				}
				check(t, out, res, want, false, func(i int) string {
					return fmt.Sprintf("%s %s(%s, %s)", ty, op.name, as[i].show(ty), bs[i].show(ty))
				})
			})
		}
	}
}

// TestConstantOperands: a literal operand takes the other side's type (and
// is rounded to it), and a constant divisor takes the constant paths.
func TestConstantOperands(t *testing.T) {
	for _, ty := range allTypes {
		if ty == halide.Bool {
			continue
		}
		in := samples(ty)
		for _, k := range []int{3, 8, 1} {
			for _, op := range ops[:7] {
				t.Run(fmt.Sprintf("%s_%s_%d", ty, op.name, k), func(t *testing.T) {
					res := realize(t, ty, len(in), func(x halide.Var, gpu bool) *halide.Func {
						a := halide.NewImageParam("a", ty, 1)
						a.Set(newBuf(ty, in))
						f := halide.NewFunc("f")
						f.Define(x).Is(op.fn(a.At(x), halide.E(k)))
						if gpu {
							tile(f.Stage(0), x)
						}
						return f
					})
					kv := cast(halide.Int32, ty, v{i: int64(k)})
					want := make([]v, len(in))
					for i := range in {
						want[i] = binary(ty, op.name, in[i], kv)
					}
					check(t, ty, res, want, false, func(i int) string {
						return fmt.Sprintf("%s %s(%s, %d)", ty, op.name, in[i].show(ty), k)
					})
				})
			}
		}
	}
}

// TestBool: And, Or, Not, comparisons and Select of bools, stored as bools.
func TestBool(t *testing.T) {
	as, bs := pairs(halide.Bool)
	for _, c := range []struct {
		name string
		fn   func(a, b halide.Expr) halide.Expr
		ref  func(a, b bool) bool
	}{
		{"and", func(a, b halide.Expr) halide.Expr { return a.And(b) }, func(a, b bool) bool { return a && b }},
		{"or", func(a, b halide.Expr) halide.Expr { return a.Or(b) }, func(a, b bool) bool { return a || b }},
		{"not", func(a, b halide.Expr) halide.Expr { return halide.Not(a) }, func(a, b bool) bool { return !a }},
		{"eq", func(a, b halide.Expr) halide.Expr { return a.Eq(b) }, func(a, b bool) bool { return a == b }},
		{"ne", func(a, b halide.Expr) halide.Expr { return a.Ne(b) }, func(a, b bool) bool { return a != b }},
		{"select", func(a, b halide.Expr) halide.Expr { return halide.Select(a, b, halide.Not(b)) }, func(a, b bool) bool { return a == b }},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := realize(t, halide.Bool, len(as), func(x halide.Var, gpu bool) *halide.Func {
				a, b := halide.NewImageParam("a", halide.Bool, 1), halide.NewImageParam("b", halide.Bool, 1)
				a.Set(newBuf(halide.Bool, as))
				b.Set(newBuf(halide.Bool, bs))
				f := halide.NewFunc("f")
				f.Define(x).Is(c.fn(a.At(x), b.At(x)))
				if gpu {
					tile(f.Stage(0), x)
				}
				return f
			})
			want := make([]v, len(as))
			for i := range as {
				want[i] = v{i: b2i(c.ref(as[i].i != 0, bs[i].i != 0))}
			}
			check(t, halide.Bool, res, want, false, func(i int) string { return fmt.Sprintf("%s(%d, %d)", c.name, as[i].i, bs[i].i) })
		})
	}
}

// TestUpdatesAndReductions: a pure definition, an update that adds a
// second input, one that multiplies by a Param, and a sum over an RDom of
// 5 points, in every type; and the same through a producer Func of the
// type computed in GPU shared memory and one in registers.
func TestUpdatesAndReductions(t *testing.T) {
	for _, ty := range allTypes {
		if ty == halide.Bool {
			continue
		}
		in := samples(ty)
		n := len(in)
		pv := samples(ty)[5] // -3, or 2^-... for floats: see samples
		for _, memory := range []string{"root", "shared", "register"} {
			t.Run(ty.String()+"_"+memory, func(t *testing.T) {
				res := realize(t, ty, n, func(x halide.Var, gpu bool) *halide.Func {
					a := halide.NewImageParam("a", ty, 1)
					a.Set(newBuf(ty, in))
					p := setParam(ty, pv)
					g := halide.NewFunc("g")
					g.Define(x).Is(a.At(halide.E(x).Mod(n)))
					g.Define(x).Is(g.At(x).Add(a.At(halide.E(x).Add(1).Mod(n))))
					g.Define(x).Is(g.At(x).Mul(p))
					r := halide.NewRDom("r", halide.Range(0, 5))
					f := halide.NewFunc("f")
					f.Define(x).Is(halide.Lit(ty, 0))
					f.Define(x).PlusEq(g.At(halide.E(x).Add(r)))
					if gpu {
						bx, tx := halide.NewVar("bx"), halide.NewVar("tx")
						f.GPUTile1D(x, bx, tx, 16, halide.GuardWithIf)
						f.Update(0).GPUTile1D(x, halide.NewVar("bx"), halide.NewVar("tx"), 16, halide.GuardWithIf)
						switch memory {
						case "shared":
							g.ComputeAt(f, bx).StoreIn(halide.GPUShared)
							g.Update(0).GPUThreads(x)
							g.Update(1).GPUThreads(x)
							g.GPUThreads(x)
						case "register":
							g.ComputeAt(f, tx)
						default:
							g.ComputeRoot()
							tile(g.Stage(0), x)
							tile(g.Update(0), x)
							tile(g.Update(1), x)
						}
					} else if memory != "root" {
						g.ComputeAt(f, x)
					} else {
						g.ComputeRoot()
					}
					return f
				})
				gv := func(i int) v {
					s := binary(ty, "add", in[((i%n)+n)%n], in[(i+1)%n])
					return binary(ty, "mul", s, pv)
				}
				want := make([]v, n)
				for i := range want {
					acc := cast(halide.Int32, ty, v{})
					for r := 0; r < 5; r++ {
						acc = binary(ty, "add", acc, gv(i+r))
					}
					want[i] = acc
				}
				check(t, ty, res, want, false, func(i int) string { return fmt.Sprintf("%s f(%d)", ty, i) })
			})
		}
	}
}

// setParam returns a Param of type t set to x, as an Expr.
func setParam(t halide.Type, x v) halide.Expr {
	switch t {
	case halide.Int8:
		return param("p", int8(x.i))
	case halide.Int16:
		return param("p", int16(x.i))
	case halide.Int32:
		return param("p", int32(x.i))
	case halide.Int64:
		return param("p", x.i)
	case halide.UInt8:
		return param("p", uint8(x.i))
	case halide.UInt16:
		return param("p", uint16(x.i))
	case halide.UInt32:
		return param("p", uint32(x.i))
	case halide.UInt64:
		return param("p", uint64(x.i))
	case halide.Float16:
		return param("p", halide.F16FromFloat32(float32(x.f)))
	case halide.BFloat16:
		return param("p", halide.BF16FromFloat32(float32(x.f)))
	case halide.Float32:
		return param("p", float32(x.f))
	case halide.Float64:
		return param("p", x.f)
	}
	return param("p", x.i != 0)
}

func param[T halide.Number](name string, x T) halide.Expr {
	p := halide.NewParam[T](name)
	p.Set(x)
	return p.Expr()
}
