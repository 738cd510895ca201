package halide_test

import (
	"errors"
	"math"
	"math/rand"
	"strings"
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// FastIntegerDivide and FastIntegerModulo against plain Go, on the CPU and
// on the GPU emulator (vectorized on the CPU; and on a GPU with -tags cuda): every 8 and 16-bit numerator over every uint8
// denominator, and 32-bit numerators at random (with the ends of the type,
// 0 and -1) over every denominator. The reference is written from
// FastIntegerDivide.h's contract, not from the lowering: the quotient
// rounded toward negative infinity, the remainder num - q*den wrapped to
// the numerator's type, and 0 for either where den is 0.

type fdInt interface {
	int8 | int16 | int32 | uint8 | uint16 | uint32
}

// fdRef is (q, r) of n over d as FastIntegerDivide.h defines them.
func fdRef[T fdInt](n T, d uint8) (T, T) {
	if d == 0 {
		return 0, 0
	}
	a, b := int64(n), int64(d)
	q := a / b
	if a%b != 0 && a < 0 {
		q-- // Go truncates; Halide floors
	}
	return T(q), T(a - q*b) // T(...) wraps an int8 remainder above 127
}

// fdCheck realizes (FastIntegerDivide, FastIntegerModulo) of num(x) over
// den(y) = y, for y in [0, 256), on the CPU or (gpu) on the emulator, and
// compares them with fdRef of nums[x].
func fdCheck[T fdInt](t *testing.T, typ halide.Type, num func(x halide.Var) halide.Expr, nums []T, gpu *halide.Target) {
	t.Helper()
	x, y := halide.NewVar("x"), halide.NewVar("y")
	d := halide.Cast(halide.UInt8, y)
	f := halide.NewFunc("fd")
	f.Define(x, y).Is(halide.NewTuple(halide.FastIntegerDivide(num(x), d), halide.FastIntegerModulo(num(x), d)))
	if gpu != nil {
		f.GPUTile(x, y, halide.NewVar("bx"), halide.NewVar("by"), halide.NewVar("tx"), halide.NewVar("ty"), 64, 4)
	} else {
		f.Vectorize(x, 16) // the vector path as well as the scalar one
	}
	if got := f.Types(); got[0] != typ || got[1] != typ {
		t.Fatalf("types %v, want %s", got, typ)
	}
	q, r := halide.NewBuffer[T](len(nums), 256), halide.NewBuffer[T](len(nums), 256)
	p := halide.NewPipeline(f)
	if gpu != nil {
		p = p.WithTarget(*gpu)
	}
	if err := p.RealizeTuple(q, r); err != nil {
		t.Fatal(err)
	}
	for dv := 0; dv < 256; dv++ {
		for i, n := range nums {
			wq, wr := fdRef(n, uint8(dv))
			if gq, gr := q.Get(i, dv), r.Get(i, dv); gq != wq || gr != wr {
				t.Fatalf("%s: %v / %d = %v rem %v, want %v rem %v", typ, n, dv, gq, gr, wq, wr)
			}
		}
	}
}

// fdAll is every value of an 8 or 16-bit T, from its minimum up.
func fdAll[T fdInt](lo int64, bits uint) []T {
	out := make([]T, 1<<bits)
	for i := range out {
		out[i] = T(lo + int64(i))
	}
	return out
}

// fdExhaustive checks every numerator of an 8 or 16-bit type: x + lo.
func fdExhaustive[T fdInt](t *testing.T, typ halide.Type, lo int64, gpu *halide.Target) {
	nums := fdAll[T](lo, uint(typ.Bits))
	fdCheck(t, typ, func(x halide.Var) halide.Expr { return halide.Cast(typ, x.Add(int32(lo))) }, nums, gpu)
}

// fdRandom checks 32-bit numerators from a buffer: random values and the
// ends of the type.
func fdRandom[T int32 | uint32](t *testing.T, typ halide.Type, gpu *halide.Target) {
	rng := rand.New(rand.NewSource(9)) // any fixed seed
	// 0, 1, -1 and -2 (or the two largest uint32s), and 2^31 - 1 and
	// 2^31 (int32's ends).
	nums := []T{0, 1, ^T(0), ^T(0) - 1, T(math.MaxInt32), T(math.MaxInt32) + 1}
	for len(nums) < 512 {
		nums = append(nums, T(rng.Uint32()))
	}
	in := halide.NewBuffer[T](len(nums))
	for i, v := range nums {
		in.Set(v, i)
	}
	fdCheck(t, typ, func(x halide.Var) halide.Expr { return in.At(x) }, nums, gpu)
}

// fdGPUTargets are the targets of the GPU runs: the emulator, and with
// -tags cuda a GPU as well (app_ports6_cuda_test.go).
var fdGPUTargets = []halide.Target{halide.Emulator}

func TestFastIntegerDivide(t *testing.T) {
	gpus := []*halide.Target{nil} // nil: the CPU
	for i := range fdGPUTargets {
		gpus = append(gpus, &fdGPUTargets[i])
	}
	for _, gpu := range gpus {
		name := "cpu"
		if gpu != nil {
			name = "gpu-" + gpu.String()
		}
		t.Run(name+"/int8", func(t *testing.T) { fdExhaustive[int8](t, halide.Int8, math.MinInt8, gpu) })
		t.Run(name+"/uint8", func(t *testing.T) { fdExhaustive[uint8](t, halide.UInt8, 0, gpu) })
		t.Run(name+"/int16", func(t *testing.T) { fdExhaustive[int16](t, halide.Int16, math.MinInt16, gpu) })
		t.Run(name+"/uint16", func(t *testing.T) { fdExhaustive[uint16](t, halide.UInt16, 0, gpu) })
		t.Run(name+"/int32", func(t *testing.T) { fdRandom[int32](t, halide.Int32, gpu) })
		t.Run(name+"/uint32", func(t *testing.T) { fdRandom[uint32](t, halide.UInt32, gpu) })
	}
}

// A constant denominator and a widened uint8 one are taken, as Halide's
// lossless_cast(UInt(8), den) takes them.
func TestFastIntegerDivideDenominators(t *testing.T) {
	x := halide.NewVar("x")
	n := halide.Cast(halide.Int16, x.Sub(50))
	f := halide.NewFunc("f")
	f.Define(x).Is(halide.NewTuple(
		halide.FastIntegerDivide(n, 7),
		halide.FastIntegerDivide(n, halide.Cast(halide.UInt16, halide.Cast(halide.UInt8, x))),
		halide.FastIntegerModulo(n, uint8(0))))
	a, b, c := halide.NewBuffer[int16](100), halide.NewBuffer[int16](100), halide.NewBuffer[int16](100)
	if err := halide.NewPipeline(f).RealizeTuple(a, b, c); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 100; i++ {
		q7, _ := fdRef(int16(i-50), 7)
		qx, _ := fdRef(int16(i-50), uint8(i))
		if a.Get(i) != q7 || b.Get(i) != qx || c.Get(i) != 0 {
			t.Fatalf("x=%d: %d %d %d, want %d %d 0", i, a.Get(i), b.Get(i), c.Get(i), q7, qx)
		}
	}
}

// Operands of other types are typed ErrType errors naming the function
// and what it takes.
func TestFastIntegerDivideRefusals(t *testing.T) {
	x := halide.NewVar("x")
	u8 := halide.Cast(halide.UInt8, x)
	for _, tc := range []struct {
		name string
		e    halide.Expr
		want string
	}{
		{"int64 numerator", halide.FastIntegerDivide(halide.Cast(halide.Int64, x), u8), "numerator"},
		{"float numerator", halide.FastIntegerModulo(halide.Cast(halide.Float32, x), u8), "numerator"},
		{"bool numerator", halide.FastIntegerDivide(x.Lt(1), u8), "numerator"},
		{"int8 denominator", halide.FastIntegerDivide(u8, halide.Cast(halide.Int8, x)), "UInt8 denominator"},
		{"uint16 denominator", halide.FastIntegerModulo(u8, halide.Cast(halide.UInt16, x)), "UInt8 denominator"},
		{"constant 256", halide.FastIntegerDivide(u8, 256), "UInt8 denominator"},
		{"constant -1", halide.FastIntegerModulo(u8, -1), "UInt8 denominator"},
		{"float denominator", halide.FastIntegerDivide(u8, 2.0), "UInt8 denominator"},
		{"nil", halide.FastIntegerDivide(nil, u8), ""},
	} {
		err := tc.e.Err()
		var he *halide.Error
		if err == nil || !errors.As(err, &he) {
			t.Errorf("%s: got %v, want a typed error", tc.name, err)
			continue
		}
		if tc.want != "" && (he.Code != halide.ErrType || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "Fast")) {
			t.Errorf("%s: %v (code %v), want ErrType naming the function and %q", tc.name, err, he.Code, tc.want)
		}
	}
}

// The CUDA target's source for every numerator type compiles with nvcc
// (skipped without a CUDA toolkit).
func TestFastIntegerDivideCUDACompiles(t *testing.T) {
	if _, ok := halide.NVCCPath(); !ok {
		t.Skip("no nvcc")
	}
	x := halide.NewVar("x")
	d := halide.Cast(halide.UInt8, x)
	var vs []any
	for _, typ := range []halide.Type{halide.Int8, halide.Int16, halide.Int32, halide.UInt8, halide.UInt16, halide.UInt32} {
		n := halide.Cast(typ, x.Mul(37).Sub(500))
		vs = append(vs, halide.FastIntegerDivide(n, d), halide.FastIntegerModulo(n, d))
	}
	f := halide.NewFunc("f")
	f.Define(x).Is(halide.NewTuple(vs...))
	f.GPUTile1D(x, halide.NewVar("bx"), halide.NewVar("tx"), 64)
	l, err := halide.NewPipeline(f).WithTarget(halide.CUDA).Lower()
	if err != nil {
		t.Fatal(err)
	}
	src, err := l.CUDA()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := halide.CheckWithNVCC(src); err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
}
