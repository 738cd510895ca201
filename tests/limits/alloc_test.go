package limits_test

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/gohalide/gohalide/cpu"
	"github.com/gohalide/gohalide/halide"
)

// bigIntermediate returns a pipeline whose compute_root intermediate f
// would take 4 GiB: the 2x2 output reads f at (x*65535, y*ystep) with ystep
// 16383, so f's region is 65536 x 16384 float32 values, 2^32 bytes (with
// ystep 32767, 2^31 values: more than int32 indices reach).
func bigIntermediate(gpu bool, ystep int) *halide.Pipeline {
	x, y := halide.NewVar("x"), halide.NewVar("y")
	f := halide.NewFunc("f")
	f.Define(x, y).Is(halide.Cast(halide.Float32, x.Add(y)))
	f.ComputeRoot()
	g := halide.NewFunc("g")
	g.Define(x, y).Is(f.At(x.Mul(65535), y.Mul(ystep)))
	if gpu {
		bx, by, tx, ty := halide.NewVar("bx"), halide.NewVar("by"), halide.NewVar("tx"), halide.NewVar("ty")
		f.GPUTile(x, y, bx, by, tx, ty, 16, 16)
		g.GPUTile(x, y, bx, by, tx, ty, 2, 2)
	}
	return halide.NewPipeline(g)
}

const fourGiB = 4 << 30

func TestAllocationLimit(t *testing.T) {
	for _, gpu := range []bool{false, true} {
		name := "cpu"
		if gpu {
			name = "emulator"
		}
		t.Run(name+"/small-limit", func(t *testing.T) {
			const limit = 1 << 30
			p := bigIntermediate(gpu, 16383).WithOptions(halide.Options{MaxAllocationBytes: limit})
			checkTooLarge(t, p.Realize(halide.NewBuffer[float32](2, 2)), limit)
		})
		t.Run(name+"/default-limit", func(t *testing.T) {
			limit := cpu.DefaultMaxAllocationBytes()
			if limit >= fourGiB {
				t.Skipf("the default limit here, a quarter of the memory, is %d bytes: a 4 GiB allocation is allowed", limit)
			}
			checkTooLarge(t, bigIntermediate(gpu, 16383).Realize(halide.NewBuffer[float32](2, 2)), limit)
		})
		t.Run(name+"/int32-elements", func(t *testing.T) {
			// 2^31 elements: refused before any allocation whatever the
			// limit, by the check that indices reach every element.
			err := bigIntermediate(gpu, 32767).WithOptions(halide.Options{MaxAllocationBytes: 1 << 40}).Realize(halide.NewBuffer[float32](2, 2))
			checkTooLarge(t, err, 2147483648)
		})
	}
	t.Run("under-the-limit", func(t *testing.T) {
		// The same pipeline on a 2x2 output read at (x*3, y*3): f is 4x4,
		// 64 bytes, exactly the limit.
		x, y := halide.NewVar("x"), halide.NewVar("y")
		f := halide.NewFunc("f")
		f.Define(x, y).Is(halide.Cast(halide.Float32, x.Add(y)))
		f.ComputeRoot()
		g := halide.NewFunc("g")
		g.Define(x, y).Is(f.At(x.Mul(3), y.Mul(3)))
		out := halide.NewBuffer[float32](2, 2)
		if err := halide.NewPipeline(g).WithOptions(halide.Options{MaxAllocationBytes: 64}).Realize(out); err != nil {
			t.Fatal(err)
		}
		if got := out.Get(1, 1); got != 6 {
			t.Errorf("g(1, 1) = %v, want 6", got)
		}
		err := halide.NewPipeline(g).WithOptions(halide.Options{MaxAllocationBytes: 63}).Realize(out)
		checkTooLarge(t, err, 63)
	})
}

func TestDefaultMaxAllocationBytes(t *testing.T) {
	n := cpu.DefaultMaxAllocationBytes()
	if n <= 0 || n > 1<<50 {
		t.Errorf("DefaultMaxAllocationBytes() = %d", n)
	}
	t.Logf("default allocation limit: %d bytes (%.1f GiB)", n, float64(n)/(1<<30))
}

// checkTooLarge checks that err is an ErrAllocationTooLarge error naming f
// and the limit.
func checkTooLarge(t *testing.T, err error, limit int64) {
	t.Helper()
	var he *halide.Error
	if !errors.As(err, &he) || he.Code != halide.ErrAllocationTooLarge {
		t.Fatalf("got %v, want an ErrAllocationTooLarge error", err)
	}
	if he.Func != "f" {
		t.Errorf("Func = %q, want f", he.Func)
	}
	msg := err.Error()
	for _, want := range []string{"allocation of f", strconv.FormatInt(limit, 10)} {
		if !strings.Contains(msg, want) {
			t.Errorf("message %q does not mention %q", msg, want)
		}
	}
	t.Logf("%v", err)
}

// TestAllocationLimitInKernel checks the limit on an allocation inside a
// kernel on the emulator: each thread of g computes the 1,000 values of f
// it reads (4,000 bytes) in its own allocation.
func TestAllocationLimitInKernel(t *testing.T) {
	x, bx, tx := halide.NewVar("x"), halide.NewVar("bx"), halide.NewVar("tx")
	r := halide.NewRDom("r", halide.Range(0, 1000))
	f := halide.NewFunc("f")
	f.Define(x).Is(halide.Cast(halide.Float32, x))
	g := halide.NewFunc("g")
	g.Define(x).Is(halide.Sum(f.At(x.Add(r.X()))))
	g.GPUTile1D(x, bx, tx, 8)
	f.ComputeAt(g, tx)
	p := halide.NewPipeline(g)
	if l, err := p.Lower(); err != nil {
		t.Fatal(err)
	} else if len(l.Kernels()) != 1 {
		t.Fatalf("%d kernels, want 1", len(l.Kernels()))
	}
	out := halide.NewBuffer[float32](16)
	if err := p.Realize(out); err != nil {
		t.Fatal(err)
	}
	p = halide.NewPipeline(g).WithOptions(halide.Options{MaxAllocationBytes: 1000})
	checkTooLarge(t, p.Realize(out), 1000)
}

// TestAllocationLimitIsTotal checks that the limit bounds the bytes in use
// at once: e and f, both compute_root and both read by g, are live
// together, 64 bytes each (4x4 float32). Under a limit of 100 each fits
// alone but the second to be allocated is refused, with the bytes of the
// first in the message; under 128 both fit.
func TestAllocationLimitIsTotal(t *testing.T) {
	x, y := halide.NewVar("x"), halide.NewVar("y")
	e := halide.NewFunc("e")
	e.Define(x, y).Is(halide.Cast(halide.Float32, x))
	e.ComputeRoot()
	f := halide.NewFunc("f")
	f.Define(x, y).Is(halide.Cast(halide.Float32, y))
	f.ComputeRoot()
	g := halide.NewFunc("g")
	g.Define(x, y).Is(e.At(x.Mul(3), y.Mul(3)).Add(f.At(x.Mul(3), y.Mul(3))))
	out := halide.NewBuffer[float32](2, 2)
	err := halide.NewPipeline(g).WithOptions(halide.Options{MaxAllocationBytes: 100}).Realize(out)
	var he *halide.Error
	if !errors.As(err, &he) || he.Code != halide.ErrAllocationTooLarge {
		t.Fatalf("got %v, want an ErrAllocationTooLarge error", err)
	}
	if he.Func != "e" && he.Func != "f" {
		t.Errorf("Func = %q, want e or f", he.Func)
	}
	for _, want := range []string{"allocation of " + he.Func, "64 bytes", "still in use", "100"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("message %q does not mention %q", err.Error(), want)
		}
	}
	if err := halide.NewPipeline(g).WithOptions(halide.Options{MaxAllocationBytes: 128}).Realize(out); err != nil {
		t.Fatal(err)
	}
	if got := out.Get(1, 1); got != 6 {
		t.Errorf("g(1, 1) = %v, want 6", got)
	}
}
