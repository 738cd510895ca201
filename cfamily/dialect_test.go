package cfamily

import (
	"strings"
	"testing"

	"github.com/gohalide/gohalide/ir"
)

// noBarriers is a dialect without barriers (as a C dialect for the CPU
// will be): the CUDA dialect otherwise.
type noBarriers struct{ cudaDialect }

func (noBarriers) Name() string    { return "barrier-free C" }
func (noBarriers) Barrier() string { return "" }

// TestDialectSeam: the printer takes what differs from the dialect. A
// kernel with a barrier prints __syncthreads() in CUDA and is an emission
// error, naming the dialect, in a dialect that has no barriers.
func TestDialectSeam(t *testing.T) {
	k := &ir.Kernel{
		Name:  "k",
		Grid:  [3]ir.Expr{ir.Int(1), ir.Int(1), ir.Int(1)},
		Block: [3]ir.Expr{ir.Int(32), ir.Int(1), ir.Int(1)},
		Args:  []ir.KernelArg{{Name: "out", T: ir.Float32, IsBuffer: true, Written: true}},
		Body: &ir.Block{Stmts: []ir.Stmt{
			&ir.Barrier{Fence: ir.FenceShared, Reason: "wait"},
			&ir.Store{Buf: "out", Index: ir.NewVar(ir.ThreadID[0]), Value: ir.Const(ir.Float32, 1)},
		}},
	}
	cuda := &module{d: CUDA, helpers: map[string]helper{}}
	text, _, err := cuda.kernel(k)
	if err != nil || !strings.Contains(text, "__syncthreads();") {
		t.Fatalf("CUDA: err %v, want __syncthreads() in:\n%s", err, text)
	}
	other := &module{d: noBarriers{}, helpers: map[string]helper{}}
	if _, _, err := other.kernel(k); err == nil || !strings.Contains(err.Error(), "barrier-free C") {
		t.Errorf("a barrier in a dialect without barriers: err %v, want an error naming the dialect", err)
	}
}

// TestCUDAFloatBits: the CUDA dialect spells NaN, the infinities and the
// zeros as the emitter always has (the golden files depend on it).
func TestCUDAFloatBits(t *testing.T) {
	for _, c := range []struct {
		t    ir.Type
		bits uint64
		want string
	}{
		{ir.Float32, 0, "__int_as_float(0)"},
		{ir.Float32, 0x80000000, "__int_as_float(0x80000000)"},
		{ir.Float32, 0x7fc00000, "__int_as_float(0x7fc00000)"},
		{ir.Float32, 0xff800000, "__int_as_float(0xff800000)"},
		{ir.Float64, 0, "__longlong_as_double(0ll)"},
		{ir.Float64, 0x7ff8000000000000, "__longlong_as_double(0x7ff8000000000000ll)"},
		{ir.Float64, 0xfff0000000000000, "__longlong_as_double(0xfff0000000000000ull)"},
		{ir.Float64, 0x8000000000000000, "__longlong_as_double(0x8000000000000000ull)"},
	} {
		if got := CUDA.FloatBits(c.t, c.bits); got != c.want {
			t.Errorf("FloatBits(%v, %#x) = %s, want %s", c.t, c.bits, got, c.want)
		}
	}
}
