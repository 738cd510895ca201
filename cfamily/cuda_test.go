package cfamily

import (
	"bytes"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gohalide/gohalide/cpu"
	"github.com/gohalide/gohalide/ir"
)

// The golden tests' -update flag. Other tests of the package may use it
// through updateGolden (registering "update" again would panic).
func init() {
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite the golden files in testdata/")
	}
}

func updateGolden() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// IR builders for hand-written kernels.

func cuVar(name string) ir.Expr                       { return ir.NewVar(name) }
func cuTVar(t ir.Type, name string) ir.Expr           { return &ir.Var{T: t, Name: name} }
func cuLoad(t ir.Type, buf string, i ir.Expr) ir.Expr { return &ir.Load{T: t, Buf: buf, Index: i} }
func cuStore(buf string, i, v ir.Expr) ir.Stmt        { return &ir.Store{Buf: buf, Index: i, Value: v} }
func cuAtomic(buf string, i, v ir.Expr) ir.Stmt {
	return &ir.Store{Buf: buf, Index: i, Value: v, Atomic: true}
}
func cuF32(v float64) ir.Expr { return ir.Const(ir.Float32, v) }
func cuLet(name string, v ir.Expr, body ...ir.Stmt) ir.Stmt {
	return &ir.LetStmt{Name: name, Value: v, Body: ir.MakeBlock(body...)}
}
func cuFor(kind ir.ForKind, name string, mn, ext ir.Expr, body ...ir.Stmt) ir.Stmt {
	return &ir.For{Name: name, Min: mn, Extent: ext, Kind: kind, Body: ir.MakeBlock(body...)}
}
func cuIf(c ir.Expr, then ir.Stmt) ir.Stmt { return &ir.IfThenElse{Cond: c, Then: then} }
func cuCall(t ir.Type, name string, args ...ir.Expr) ir.Expr {
	return &ir.Call{T: t, Kind: ir.CallIntrinsic, Name: name, Args: args}
}
func cuAlloc(name string, t ir.Type, mem ir.MemoryType, body ir.Stmt, extents ...ir.Expr) ir.Stmt {
	return &ir.Allocate{Name: name, T: t, Memory: mem, Extents: extents, Body: body}
}
func cuScalar(name string, t ir.Type) ir.KernelArg { return ir.KernelArg{Name: name, T: t} }
func cuBuffer(name string, t ir.Type, written bool) ir.KernelArg {
	return ir.KernelArg{Name: name, T: t, IsBuffer: true, Written: written}
}
func cuCast(t ir.Type, x ir.Expr) ir.Expr { return &ir.Cast{T: t, X: x} }
func cuAdd(xs ...ir.Expr) ir.Expr {
	s := xs[0]
	for _, x := range xs[1:] {
		s = ir.AddE(s, x)
	}
	return s
}

var (
	cuTX = cuVar(ir.ThreadID[0])
	cuTY = cuVar(ir.ThreadID[1])
	cuBX = cuVar(ir.BlockID[0])
	cuBY = cuVar(ir.BlockID[1])
)

// cuBrightenKernel is an elementwise kernel: one thread per pixel of a
// 1-D float image, a tail guard, float clamps and a conversion to uint8.
func cuBrightenKernel() *ir.Kernel {
	x := cuVar("brighten.s0.x")
	v := cuTVar(ir.Float32, "v")
	return &ir.Kernel{
		Name:  "brighten_s0_x",
		Grid:  [3]ir.Expr{ir.DivE(cuAdd(cuVar("brighten.extent.0"), ir.Int(255)), ir.Int(256)), ir.Int(1), ir.Int(1)},
		Block: [3]ir.Expr{ir.Int(256), ir.Int(1), ir.Int(1)},
		Args: []ir.KernelArg{
			cuBuffer("input", ir.Float32, false),
			cuBuffer("brighten", ir.UInt8, true),
			cuScalar("input.min.0", ir.Int32),
			cuScalar("brighten.min.0", ir.Int32),
			cuScalar("brighten.extent.0", ir.Int32),
			cuScalar("gain", ir.Float32),
			cuScalar("bias", ir.Float32),
		},
		Body: cuLet("brighten.s0.x", cuAdd(ir.MulE(cuBX, ir.Int(256)), cuTX, cuVar("brighten.min.0")),
			cuIf(cuCall(ir.Bool, ir.IntrinsicLikely, ir.LTE(x, cuAdd(cuVar("brighten.min.0"), cuVar("brighten.extent.0")))),
				cuLet("v", cuAdd(ir.MulE(cuLoad(ir.Float32, "input", ir.SubE(x, cuVar("input.min.0"))), cuTVar(ir.Float32, "gain")), cuTVar(ir.Float32, "bias")),
					cuStore("brighten", ir.SubE(x, cuVar("brighten.min.0")),
						cuCast(ir.UInt8, cuCall(ir.Float32, ir.IntrinsicRound,
							ir.MulE(ir.MinE(ir.MaxE(v, cuF32(0)), cuF32(1)), cuF32(255)))))))),
	}
}

// cuBlurKernel is a 3x3 box blur: the block's threads load an 18x18 tile of
// the input into shared memory together (324 points for 256 threads, so
// two rounds and a guard), wait at a barrier, then each computes one
// output point under a tail guard.
func cuBlurKernel() *ir.Kernel {
	const tile = 18
	i := cuVar("in_tile.s0.i")
	x, y := cuVar("blur.s0.x"), cuVar("blur.s0.y")
	x0, y0 := cuVar("blur.s0.x.base"), cuVar("blur.s0.y.base")
	clampX := cuCall(ir.Int32, ir.IntrinsicPromiseClamped,
		cuAdd(x0, ir.ModE(i, ir.Int(tile)), ir.Int(-1)), cuVar("input.min.0"), cuAdd(cuVar("input.min.0"), cuVar("input.extent.0"), ir.Int(-1)))
	clampY := cuCall(ir.Int32, ir.IntrinsicPromiseClamped,
		cuAdd(y0, ir.DivE(i, ir.Int(tile)), ir.Int(-1)), cuVar("input.min.1"), cuAdd(cuVar("input.min.1"), cuVar("input.extent.1"), ir.Int(-1)))
	var sum ir.Expr
	for dy := 0; dy < 3; dy++ {
		for dx := 0; dx < 3; dx++ {
			idx := cuAdd(ir.MulE(cuAdd(cuTY, ir.Int(int64(dy))), ir.Int(tile)), cuTX, ir.Int(int64(dx)))
			l := cuLoad(ir.Float32, "in_tile", ir.Simplify(idx))
			if sum == nil {
				sum = l
			} else {
				sum = ir.AddE(sum, l)
			}
		}
	}
	body := cuAlloc("in_tile", ir.Float32, ir.GPUShared, ir.MakeBlock(
		&ir.Comment{Text: "3x3 box blur, one 16x16 tile of blur per block"},
		cuLet("blur.s0.x.base", cuAdd(ir.MulE(cuBX, ir.Int(16)), cuVar("blur.min.0")),
			cuLet("blur.s0.y.base", cuAdd(ir.MulE(cuBY, ir.Int(16)), cuVar("blur.min.1")),
				&ir.ProducerConsumer{Func: "in_tile", Producer: true, Body: ir.MakeBlock(
					&ir.Comment{Text: "cooperative load: 324 points, 256 threads"},
					cuFor(ir.Serial, "in_tile.s0.r", ir.Int(0), ir.Int(2),
						cuLet("in_tile.s0.i", cuAdd(ir.MulE(cuVar("in_tile.s0.r"), ir.Int(256)), ir.MulE(cuTY, ir.Int(16)), cuTX),
							cuIf(ir.LTE(i, ir.Int(tile*tile)),
								cuStore("in_tile", i, cuLoad(ir.Float32, "input",
									cuAdd(ir.MulE(ir.SubE(clampY, cuVar("input.min.1")), cuVar("input.stride.1")), ir.SubE(clampX, cuVar("input.min.0")))))))),
				)},
				&ir.Barrier{Fence: ir.FenceShared, Reason: "in_tile is written by every thread of the block and read by its neighbours"},
				&ir.ProducerConsumer{Func: "in_tile", Producer: false, Body: cuLet("blur.s0.x", cuAdd(x0, cuTX),
					cuLet("blur.s0.y", cuAdd(y0, cuTY),
						cuIf(ir.AndE(ir.LTE(x, cuAdd(cuVar("blur.min.0"), cuVar("blur.extent.0"))), ir.LTE(y, cuAdd(cuVar("blur.min.1"), cuVar("blur.extent.1")))),
							cuStore("blur", cuAdd(ir.MulE(ir.SubE(y, cuVar("blur.min.1")), cuVar("blur.stride.1")), ir.SubE(x, cuVar("blur.min.0"))),
								ir.MulE(sum, cuF32(1.0/9)))))),
				}))), ir.Int(tile), ir.Int(tile))
	return &ir.Kernel{
		Name:  "blur_s0_y_y_blur_s0_x_x",
		Grid:  [3]ir.Expr{ir.DivE(cuAdd(cuVar("blur.extent.0"), ir.Int(15)), ir.Int(16)), ir.DivE(cuAdd(cuVar("blur.extent.1"), ir.Int(15)), ir.Int(16)), ir.Int(1)},
		Block: [3]ir.Expr{ir.Int(16), ir.Int(16), ir.Int(1)},
		Args: []ir.KernelArg{
			cuBuffer("input", ir.Float32, false),
			cuBuffer("blur", ir.Float32, true),
			cuScalar("input.min.0", ir.Int32), cuScalar("input.min.1", ir.Int32),
			cuScalar("input.extent.0", ir.Int32), cuScalar("input.extent.1", ir.Int32),
			cuScalar("input.stride.1", ir.Int32),
			cuScalar("blur.min.0", ir.Int32), cuScalar("blur.min.1", ir.Int32),
			cuScalar("blur.extent.0", ir.Int32), cuScalar("blur.extent.1", ir.Int32),
			cuScalar("blur.stride.1", ir.Int32),
		},
		Body:     body,
		Barriers: 1,
	}
}

// cuHistogramKernel is a scatter: each thread reads one uint8 pixel and adds
// to its bin with atomics (an int32 count, a float32 sum, a float32 max).
func cuHistogramKernel() *ir.Kernel {
	i := cuVar("hist.s1.r$x")
	bin := cuVar("hist.s1.bin")
	w := cuLoad(ir.Float32, "weights", i)
	return &ir.Kernel{
		Name:  "hist_s1_r_x",
		Grid:  [3]ir.Expr{ir.DivE(cuAdd(cuVar("input.extent.0"), ir.Int(127)), ir.Int(128)), ir.Int(1), ir.Int(1)},
		Block: [3]ir.Expr{ir.Int(128), ir.Int(1), ir.Int(1)},
		Args: []ir.KernelArg{
			cuBuffer("input", ir.UInt8, false),
			cuBuffer("weights", ir.Float32, false),
			cuBuffer("hist", ir.Int32, true),
			cuBuffer("hist_sum", ir.Float32, true),
			cuBuffer("hist_max", ir.Float32, true),
			cuScalar("input.extent.0", ir.Int32),
		},
		Body: cuLet("hist.s1.r$x", cuAdd(ir.MulE(cuBX, ir.Int(128)), cuTX),
			cuIf(ir.LTE(i, cuVar("input.extent.0")),
				cuLet("hist.s1.bin", ir.DivE(cuCast(ir.Int32, cuLoad(ir.UInt8, "input", i)), ir.Int(16)),
					cuAtomic("hist", bin, ir.AddE(cuLoad(ir.Int32, "hist", bin), ir.Int(1))),
					cuAtomic("hist_sum", bin, ir.AddE(cuLoad(ir.Float32, "hist_sum", bin), w)),
					cuAtomic("hist_max", bin, ir.MaxE(cuLoad(ir.Float32, "hist_max", bin), w))))),
	}
}

// cuMatmulKernel computes C = A B with a 4-element register accumulator
// per thread (four rows), unrolled loops over it and a serial loop over k.
func cuMatmulKernel() *ir.Kernel {
	x, y0 := cuVar("C.s0.x"), cuVar("C.s0.y.base")
	j, k := cuVar("C.s1.j"), cuVar("C.s1.r$k")
	row := cuAdd(y0, j)
	return &ir.Kernel{
		Name:  "C_s0_y_y_C_s0_x_x",
		Grid:  [3]ir.Expr{ir.DivE(cuAdd(cuVar("N"), ir.Int(15)), ir.Int(16)), ir.DivE(cuAdd(cuVar("M"), ir.Int(63)), ir.Int(64)), ir.Int(1)},
		Block: [3]ir.Expr{ir.Int(16), ir.Int(16), ir.Int(1)},
		Args: []ir.KernelArg{
			cuBuffer("A", ir.Float32, false), cuBuffer("B", ir.Float32, false), cuBuffer("C", ir.Float32, true),
			cuScalar("M", ir.Int32), cuScalar("N", ir.Int32), cuScalar("K", ir.Int32),
		},
		Body: cuAlloc("acc", ir.Float32, ir.Register, cuLet("C.s0.x", cuAdd(ir.MulE(cuBX, ir.Int(16)), cuTX),
			cuLet("C.s0.y.base", ir.MulE(cuAdd(ir.MulE(cuBY, ir.Int(16)), cuTY), ir.Int(4)),
				&ir.ProducerConsumer{Func: "acc", Producer: true, Body: ir.MakeBlock(
					cuFor(ir.Unrolled, "acc.s0.j", ir.Int(0), ir.Int(4), cuStore("acc", cuVar("acc.s0.j"), cuF32(0))),
					cuFor(ir.Serial, "C.s1.r$k", ir.Int(0), cuVar("K"),
						cuLet("b", cuLoad(ir.Float32, "B", cuAdd(ir.MulE(k, cuVar("N")), cuCall(ir.Int32, ir.IntrinsicPromiseClamped, x, ir.Int(0), ir.SubE(cuVar("N"), ir.Int(1))))),
							cuFor(ir.Unrolled, "C.s1.j", ir.Int(0), ir.Int(4),
								cuStore("acc", j, ir.AddE(cuLoad(ir.Float32, "acc", j),
									ir.MulE(cuLoad(ir.Float32, "A", cuAdd(ir.MulE(cuCall(ir.Int32, ir.IntrinsicPromiseClamped, row, ir.Int(0), ir.SubE(cuVar("M"), ir.Int(1))), cuVar("K")), k)), cuTVar(ir.Float32, "b"))))))),
				)},
				&ir.ProducerConsumer{Func: "acc", Producer: false, Body: cuFor(ir.Unrolled, "C.s2.j", ir.Int(0), ir.Int(4),
					cuIf(ir.AndE(ir.LTE(cuAdd(y0, cuVar("C.s2.j")), cuVar("M")), ir.LTE(x, cuVar("N"))),
						cuStore("C", cuAdd(ir.MulE(cuAdd(y0, cuVar("C.s2.j")), cuVar("N")), x), cuLoad(ir.Float32, "acc", cuVar("C.s2.j")))))},
			)), ir.Int(4)),
	}
}

// cuOpsKernel exercises every operator, type, cast and intrinsic, dynamic
// shared memory, lets in lazily evaluated positions and the atomic
// fallbacks. It is not meant to be read; it must compile.
func cuOpsKernel() *ir.Kernel {
	i := cuVar("i")
	var stmts []ir.Stmt
	types := []ir.Type{ir.Int8, ir.Int16, ir.Int32, ir.Int64, ir.UInt8, ir.UInt16, ir.UInt32, ir.UInt64, ir.Float32, ir.Float64, ir.Bool}
	var args []ir.KernelArg
	for _, t := range types {
		in, out := "in_"+cTypeSuffix(t), "out_"+cTypeSuffix(t)
		args = append(args, cuBuffer(in, t, false), cuBuffer(out, t, true))
		a := cuLoad(t, in, i)
		b := cuLoad(t, in, ir.AddE(i, ir.Int(1)))
		for _, op := range []ir.BinOp{ir.Add, ir.Sub, ir.Mul, ir.Div, ir.Mod, ir.Min, ir.Max} {
			if t.IsBool() && op != ir.Min && op != ir.Max {
				continue
			}
			stmts = append(stmts, cuStore(out, ir.Int(int64(op)), ir.Bin(op, a, b)))
		}
		stmts = append(stmts,
			cuStore("out_bool", ir.Int(int64(len(stmts))), ir.Bin(ir.LT, a, b)),
			cuStore("out_bool", ir.Int(int64(len(stmts)+1)), ir.Bin(ir.EQ, a, b)))
		for _, u := range types {
			stmts = append(stmts, cuStore("out_"+cTypeSuffix(u), ir.Int(int64(100+len(stmts))), cuCast(u, a)))
		}
		if !t.IsBool() {
			stmts = append(stmts,
				cuStore(out, ir.Int(20), ir.IntConst(t, -3)),
				cuStore(out, ir.Int(21), ir.Bin(ir.Add, a, ir.IntConst(t, -7))),
				cuStore(out, ir.Int(22), ir.Bin(ir.Div, a, ir.IntConst(t, 8))),
				cuStore(out, ir.Int(23), ir.Bin(ir.Mod, a, ir.IntConst(t, 8))),
				cuStore(out, ir.Int(24), cuCall(t, ir.IntrinsicAbs, a)),
				cuStore(out, ir.Int(25), cuCall(t, ir.IntrinsicPromiseClamped, a, ir.IntConst(t, 1), ir.IntConst(t, 9))),
				cuAtomic(out, ir.Int(26), ir.Bin(ir.Mul, cuLoad(t, out, ir.Int(26)), b)),
				cuAtomic(out, ir.Int(27), ir.Bin(ir.Add, cuLoad(t, out, ir.Int(27)), b)),
				cuAtomic(out, ir.Int(28), ir.Bin(ir.Min, b, cuLoad(t, out, ir.Int(28)))),
				cuAtomic(out, ir.Int(29), ir.Bin(ir.Sub, cuLoad(t, out, ir.Int(29)), b)),
			)
		}
	}
	f, d := cuLoad(ir.Float32, "in_f32", i), cuLoad(ir.Float64, "in_f64", i)
	for n, name := range []string{ir.IntrinsicSqrt, ir.IntrinsicExp, ir.IntrinsicLog, ir.IntrinsicFloor, ir.IntrinsicCeil, ir.IntrinsicRound} {
		stmts = append(stmts,
			cuStore("out_f32", ir.Int(int64(40+n)), cuCall(ir.Float32, name, f)),
			cuStore("out_f64", ir.Int(int64(40+n)), cuCall(ir.Float64, name, d)),
			cuStore("out_i32", ir.Int(int64(40+n)), cuCall(ir.Int32, name, cuLoad(ir.Int32, "in_i32", i))))
	}
	stmts = append(stmts,
		cuStore("out_f32", ir.Int(50), cuCall(ir.Float32, ir.IntrinsicPow, f, cuF32(2.5))),
		cuStore("out_f64", ir.Int(50), cuCall(ir.Float64, ir.IntrinsicPow, d, ir.Const(ir.Float64, -0.5))),
		cuStore("out_f32", ir.Int(51), ir.Const(ir.Float32, cuInf())),
		cuStore("out_f64", ir.Int(51), &ir.FloatImm{T: ir.Float64, V: cuNegInf()}),
		cuStore("out_i64", ir.Int(51), &ir.IntImm{T: ir.Int64, V: -1 << 63}),
		cuStore("out_i32", ir.Int(51), &ir.IntImm{T: ir.Int32, V: -1 << 31}),
		cuStore("out_u64", ir.Int(51), &ir.IntImm{T: ir.UInt64, V: -1}),
		cuStore("out_bool", ir.Int(51), &ir.Not{X: ir.Bin(ir.Or, ir.Bin(ir.And, ir.LTE(f, cuF32(1)), ir.LTE(d, ir.Const(ir.Float64, 2))), ir.True)}),
		// A let in a select arm is evaluated only when the arm is: a lambda.
		cuStore("out_f32", ir.Int(52), &ir.Select{Cond: ir.LTE(i, ir.Int(3)),
			True:  &ir.Let{Name: "t", Value: cuLoad(ir.Float32, "in_f32", ir.AddE(i, ir.Int(2))), Body: ir.MulE(cuTVar(ir.Float32, "t"), cuTVar(ir.Float32, "t"))},
			False: cuF32(0)}),
		// A let evaluated unconditionally is hoisted.
		cuStore("out_i32", ir.Int(52), &ir.Let{Name: "t", Value: ir.MulE(i, i), Body: ir.AddE(cuVar("t"), cuVar("t"))}),
		// Any function of the old value: an inline compare-and-swap loop.
		cuAtomic("out_f32", ir.Int(53), &ir.Select{Cond: ir.LTE(cuLoad(ir.Float32, "out_f32", ir.Int(53)), cuF32(0)), True: f, False: cuLoad(ir.Float32, "out_f32", ir.Int(53))}),
		cuAtomic("out_u8", ir.Int(53), ir.AddE(ir.MulE(cuLoad(ir.UInt8, "out_u8", ir.Int(53)), cuLoad(ir.UInt8, "out_u8", ir.Int(53))), ir.IntConst(ir.UInt8, 1))),
		// Dynamic shared memory.
		cuStore("dyn_a", cuTX, cuCast(ir.Float64, f)),
		cuStore("dyn_b", cuTX, cuCast(ir.UInt8, cuTX)),
		&ir.Barrier{Fence: ir.FenceShared, Reason: "dyn_a and dyn_b are read across threads"},
		cuStore("out_f64", ir.Int(54), cuLoad(ir.Float64, "dyn_a", ir.ModE(cuAdd(cuTX, ir.Int(1)), cuVar("n")))),
		cuStore("out_u8", ir.Int(54), cuLoad(ir.UInt8, "dyn_b", ir.ModE(cuAdd(cuTX, ir.Int(1)), cuVar("n")))),
		cuStore("out_i16", ir.Int(54), cuLoad(ir.Int16, "stat", ir.ModE(cuAdd(cuTX, ir.Int(1)), ir.Int(64)))),
		&ir.AssertStmt{Cond: ir.LTE(i, cuVar("n")), Message: "i < n"},
		&ir.Evaluate{X: cuLoad(ir.Int32, "in_i32", i)},
	)
	args = append(args, cuScalar("n", ir.Int32))
	body := cuLet("i", cuAdd(ir.MulE(cuBX, ir.Int(64)), cuTX), cuFor(ir.Vectorized, "inner", ir.Int(0), ir.Int(1), stmts...))
	body = cuAlloc("dyn_b", ir.UInt8, ir.GPUShared, body, cuVar("n"))
	body = cuAlloc("dyn_a", ir.Float64, ir.GPUShared, body, ir.AddE(cuVar("n"), ir.Int(1)))
	body = cuAlloc("stat", ir.Int16, ir.GPUShared, ir.MakeBlock(cuStore("stat", cuTX, ir.IntConst(ir.Int16, 1)), body), ir.Int(64))
	return &ir.Kernel{Name: "ops", Block: [3]ir.Expr{ir.Int(64), ir.Int(1), ir.Int(1)}, Args: args, Body: body}
}

func cuInf() float64    { return math.Inf(1) }
func cuNegInf() float64 { return math.Inf(-1) }

var cuGoldenKernels = []struct {
	file    string
	kernels func() []*ir.Kernel
}{
	{"elementwise.cu", func() []*ir.Kernel { return []*ir.Kernel{cuBrightenKernel()} }},
	{"stencil_shared.cu", func() []*ir.Kernel { return []*ir.Kernel{cuBlurKernel()} }},
	{"scatter_atomic.cu", func() []*ir.Kernel { return []*ir.Kernel{cuHistogramKernel()} }},
	{"register_unrolled.cu", func() []*ir.Kernel { return []*ir.Kernel{cuMatmulKernel()} }},
	{"ops.cu", func() []*ir.Kernel { return []*ir.Kernel{cuOpsKernel()} }},
}

func TestCUDAGolden(t *testing.T) {
	for _, g := range cuGoldenKernels {
		t.Run(g.file, func(t *testing.T) {
			src, err := CUDASource(g.kernels()...)
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", g.file)
			if updateGolden() {
				if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test ./gpu -run TestCUDAGolden -update to create it)", err)
			}
			if diff := cmp.Diff(string(want), src); diff != "" {
				t.Errorf("%s differs (-want +got, -update to accept):\n%s", path, diff)
			}
		})
	}
}

func TestCUDANVCC(t *testing.T) {
	if _, ok := NVCCPath(); !ok {
		t.Skip("nvcc not found: install the CUDA toolkit with scripts/install-cuda-toolkit.sh (Debian's nvidia-cuda-toolkit) to compile the emitted kernels")
	}
	for _, g := range cuGoldenKernels {
		t.Run(g.file, func(t *testing.T) {
			ks := g.kernels()
			src, err := CUDASource(ks...)
			if err != nil {
				t.Fatal(err)
			}
			got, err := CheckWithNVCC(src)
			if err != nil {
				t.Fatal(err)
			}
			for _, k := range ks {
				info, err := CUDAInfo(k)
				if err != nil {
					t.Fatal(err)
				}
				p, ok := got[info.Name]
				if !ok {
					t.Fatalf("ptxas reported nothing for %s: %v", info.Name, got)
				}
				t.Logf("%s: %d registers, %d bytes smem (inferred %d), %d bytes stack", info.Name, p.Registers, p.SharedBytes, info.StaticSharedBytes, p.StackFrame)
				if p.SharedBytes != info.StaticSharedBytes {
					t.Errorf("%s: ptxas reports %d bytes of shared memory, CUDAInfo %d", info.Name, p.SharedBytes, info.StaticSharedBytes)
				}
				if p.Registers == 0 {
					t.Errorf("%s: ptxas reports no registers", info.Name)
				}
			}
		})
	}
}

func TestCUDAInfo(t *testing.T) {
	info, err := CUDAInfo(cuBlurKernel())
	if err != nil {
		t.Fatal(err)
	}
	// 18 x 18 float32 = 1296 bytes.
	if info.StaticSharedBytes != 1296 || info.DynamicSharedBytes != nil || info.Threads != 256 {
		t.Errorf("blur: %+v, want 1296 static bytes, no dynamic, 256 threads", info)
	}
	info, err = CUDAInfo(cuOpsKernel())
	if err != nil {
		t.Fatal(err)
	}
	// stat: 64 int16 = 128 bytes; dyn_a: (n + 1) float64, dyn_b: n uint8.
	if info.StaticSharedBytes != 128 {
		t.Errorf("ops: static shared %d, want 128", info.StaticSharedBytes)
	}
	// (n + 1) * 8 + n * 1, simplified.
	if got, want := ir.ExprString(info.DynamicSharedBytes), "((n * 9) + 8)"; got != want {
		t.Errorf("ops: dynamic shared %s, want %s", got, want)
	}
	if len(info.Shared) != 3 || info.Shared[1].Name != "dyn_a" || !ir.IsConstValue(info.Shared[1].Offset, 0) {
		t.Errorf("ops: shared layout %+v", info.Shared)
	}
}

func TestCUDAIdentifiers(t *testing.T) {
	for in, want := range map[string]string{
		"output.s1.r$x.p1": "output_s1_r_x_p1",
		"f":                "f",
		"int":              "int_",
		"min":              "min_",
		"0abc":             "v_0abc",
		"_x":               "v_x",
		"a..b":             "a_b",
		"gh_div_i32":       "v_gh_div_i32",
		"threadIdx":        "threadIdx_",
		"":                 "v",
	} {
		if got := cIdent(CUDA, in); got != want {
			t.Errorf("cIdent(%q) = %q, want %q", in, got, want)
		}
	}
	// Two IR names that map to one identifier stay distinct.
	k := &ir.Kernel{
		Name:  "k",
		Block: [3]ir.Expr{ir.Int(32), ir.Int(1), ir.Int(1)},
		Args:  []ir.KernelArg{cuBuffer("out", ir.Int32, true), cuScalar("a.b", ir.Int32), cuScalar("a$b", ir.Int32)},
		Body:  cuStore("out", cuTX, ir.AddE(cuVar("a.b"), cuVar("a$b"))),
	}
	src, err := CUDASource(k)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(src, "out[thread_id_x] = a_b + a_b_1;") {
		t.Errorf("colliding names not made unique:\n%s", src)
	}
}

func TestCUDAErrors(t *testing.T) {
	base := func(body ir.Stmt) *ir.Kernel {
		return &ir.Kernel{
			Name:  "k",
			Block: [3]ir.Expr{ir.Int(32), ir.Int(1), ir.Int(1)},
			Args:  []ir.KernelArg{cuBuffer("out", ir.Float32, true), cuBuffer("in", ir.Float32, false), cuScalar("n", ir.Int32)},
			Body:  body,
		}
	}
	cases := []struct {
		name string
		body ir.Stmt
		want string
	}{
		{"provide", &ir.Provide{Func: "f", Value: cuF32(1), Args: []ir.Expr{cuTX}}, "Provide to f"},
		{"realize", &ir.Realize{Func: "f", T: ir.Float32, Body: cuStore("out", cuTX, cuF32(0))}, "Realize of f"},
		{"intrinsic", cuStore("out", cuTX, cuCall(ir.Float32, "erf", cuF32(1))), "unknown intrinsic erf"},
		{"func cuCall", cuStore("out", cuTX, &ir.Call{T: ir.Float32, Kind: ir.CallFunc, Name: "g", Args: []ir.Expr{cuTX}}), "call to Func g"},
		{"unbound", cuStore("out", cuTX, cuCast(ir.Float32, cuVar("y"))), "variable y, which is not a scalar argument"},
		{"gpu loop", cuFor(ir.GPUThread, "t", ir.Int(0), ir.Int(4), cuStore("out", cuVar("t"), cuF32(0))), "loop t of kind gpu_thread inside the kernel body"},
		{"shared in loop", cuFor(ir.Serial, "r", ir.Int(0), ir.Int(4), cuAlloc("s", ir.Float32, ir.GPUShared, cuStore("s", cuVar("r"), cuF32(0)), ir.Int(4))), "inside loop r"},
		{"dynamic local", cuAlloc("s", ir.Float32, ir.Register, cuStore("s", cuTX, cuF32(0)), cuVar("n")), "non-constant extent"},
		{"read-only store", cuStore("in", cuTX, cuF32(0)), "not marked Written"},
		{"unknown cuBuffer", cuStore("nowhere", cuTX, cuF32(0)), "buffer nowhere"},
		{"shared size", cuAlloc("s", ir.Float32, ir.GPUShared, cuStore("s", cuTX, cuF32(0)), cuTX), "depends on thread_id_x"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := CUDASource(base(c.body))
			var ie *ir.Error
			if !errors.As(err, &ie) || ie.Code != ir.ErrInternal {
				t.Fatalf("got %v, want an *ir.Error with code %s", err, ir.ErrInternal)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %q does not mention %q", err, c.want)
			}
		})
	}
}

func TestParsePtxas(t *testing.T) {
	// Output of nvcc 11.8 -arch=sm_90 -cubin -Xptxas -v.
	out := `ptxas info    : 0 bytes gmem
ptxas info    : Compiling entry function 'k1' for 'sm_90'
ptxas info    : Function properties for k1
    8 bytes stack frame, 4 bytes spill stores, 4 bytes spill loads
ptxas info    : Used 22 registers, 48 bytes smem, 384 bytes cmem[0]
ptxas info    : Compiling entry function 'k2' for 'sm_90'
ptxas info    : Function properties for k2
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 16 registers
`
	got := parsePtxas(out)
	want := map[string]PtxasInfo{
		"k1": {Registers: 22, SharedBytes: 48, ConstBytes: 384, StackFrame: 8, SpillStores: 4, SpillLoads: 4},
		"k2": {Registers: 16},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("parsePtxas (-want +got):\n%s", diff)
	}
}

// ---------------------------------------------------------------------------
// The differential harness: the emitted CUDA against the CPU executor, on a
// real GPU.
//
// TestCUDAHarness writes $GOHALIDE_CUDA_HARNESS/harness.cu: the emitted
// kernels, their inputs, and the outputs the CPU executor (or, for the
// kernel with a barrier, a plain-Go reference) computes, with a main() that
// runs every kernel and compares the results bit for bit (any NaN equals any
// NaN; exp, log and pow may differ by one ulp, counted apart). Run it on the
// lent GPU:
//
//	GOHALIDE_CUDA_HARNESS=$PWD/.gpu/harness go test ./gpu -run TestCUDAHarness
//	# device, carrying .gpu:
//	cd .gpu/harness && nvcc -arch=sm_90 -o harness harness.cu && ./harness

// cuHarnessBuf is one buffer argument of a launch: its initial contents and
// the contents expected after the launch (nil: not checked).
type cuHarnessBuf struct {
	t          ir.Type
	init, want any // Go slices of the element type
}

type cuHarnessCase struct {
	name         string
	buf          string
	start, count int
	approx       bool // may differ by one ulp
}

type cuHarnessLaunch struct {
	kernel      *ir.Kernel
	grid, block [3]int
	scalars     map[string]any
	bufs        map[string]*cuHarnessBuf
	cases       []cuHarnessCase
}

func cuSlice(t ir.Type, n int) any {
	switch t {
	case ir.Int8:
		return make([]int8, n)
	case ir.Int16:
		return make([]int16, n)
	case ir.Int32:
		return make([]int32, n)
	case ir.Int64:
		return make([]int64, n)
	case ir.UInt8:
		return make([]uint8, n)
	case ir.UInt16:
		return make([]uint16, n)
	case ir.UInt32:
		return make([]uint32, n)
	case ir.UInt64:
		return make([]uint64, n)
	case ir.Float32:
		return make([]float32, n)
	case ir.Float64:
		return make([]float64, n)
	}
	return make([]bool, n)
}

func cuClone(s any) any {
	v := reflect.ValueOf(s)
	c := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
	reflect.Copy(c, v)
	return c.Interface()
}

// cuSet stores the float64 or int64 value v at s[i], converted to the
// element type.
func cuSet(s any, i int, v any) {
	e := reflect.ValueOf(s).Index(i)
	switch x := v.(type) {
	case float64:
		e.SetFloat(x)
	case int64:
		switch e.Kind() {
		case reflect.Bool:
			e.SetBool(x != 0)
		case reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			e.SetUint(uint64(x))
		case reflect.Float32, reflect.Float64:
			e.SetFloat(float64(x))
		default:
			e.SetInt(x)
		}
	}
}

// cuSpecialValues are 16 values of t that exercise its edge cases.
func cuSpecialValues(t ir.Type) []any {
	ints := func(vs ...int64) []any {
		out := make([]any, len(vs))
		for i, v := range vs {
			out[i] = v
		}
		return out
	}
	floats := func(vs ...float64) []any {
		out := make([]any, len(vs))
		for i, v := range vs {
			out[i] = v
		}
		return out
	}
	inf, nan := math.Inf(1), math.NaN()
	switch t {
	case ir.Int8:
		return ints(0, 1, -1, 2, -2, 7, -7, 8, -8, 100, -100, 127, -128, 3, -3, 126)
	case ir.Int16:
		return ints(0, 1, -1, 2, -2, 7, -7, 8, -8, 300, -300, 32767, -32768, 255, -256, 12345)
	case ir.Int32:
		return ints(0, 1, -1, 2, -2, 7, -7, 8, -8, 65536, -65536, math.MaxInt32, math.MinInt32, 46341, -46341, 1000000000)
	case ir.Int64:
		return ints(0, 1, -1, 2, -2, 7, -7, 8, -8, 1<<32, -(1 << 32), math.MaxInt64, math.MinInt64, 3037000500, -3037000500, 1e18)
	case ir.UInt8:
		return ints(0, 1, 2, 3, 7, 8, 9, 16, 17, 64, 100, 127, 128, 200, 254, 255)
	case ir.UInt16:
		return ints(0, 1, 2, 3, 7, 8, 255, 256, 300, 1000, 4097, 32767, 32768, 65280, 65534, 65535)
	case ir.UInt32:
		return ints(0, 1, 2, 3, 7, 8, 16, 46341, 65535, 65536, 100000, 1<<31-1, 1<<31, 3000000000, 1<<32-2, 1<<32-1)
	case ir.UInt64:
		return ints(0, 1, 2, 3, 7, 8, 16, 1<<32, 1<<32-1, 3037000500, 1<<62, 1<<63-1, -1<<63, -2, -1, 1e18)
	case ir.Float32:
		return floats(0, math.Copysign(0, -1), 1, -1, 0.5, -2.5, 2.5, 1e-40, 3e38, inf, -inf, nan, 1e19, -1e19, 0.1, 255.5)
	case ir.Float64:
		return floats(0, math.Copysign(0, -1), 1, -1, 0.5, -2.5, 2.5, 1e-310, 1.7e308, inf, -inf, nan, 1e19, -9.3e18, 0.1, 1e300)
	}
	return ints(0, 1, 1, 0, 1, 0, 0, 1, 1, 1, 0, 0, 0, 1, 0, 1)
}

var cuAllTypes = []ir.Type{ir.Int8, ir.Int16, ir.Int32, ir.Int64, ir.UInt8, ir.UInt16, ir.UInt32, ir.UInt64, ir.Float32, ir.Float64, ir.Bool}

// cuSemanticsLaunch builds a kernel that applies every operator, cast and
// intrinsic to all 256 pairs of special values of each type, plus atomics
// that all threads apply to one element.
func cuSemanticsLaunch(t *testing.T) *cuHarnessLaunch {
	const n = 256
	i := cuTX
	l := &cuHarnessLaunch{grid: [3]int{1, 1, 1}, block: [3]int{n, 1, 1}, bufs: map[string]*cuHarnessBuf{}}
	var stmts []ir.Stmt
	nCases := map[ir.Type]int{}
	var args []ir.KernelArg
	addCase := func(name string, u ir.Type, x ir.Expr, approx bool) {
		out := "out_" + cTypeSuffix(u)
		c := nCases[u]
		nCases[u]++
		stmts = append(stmts, cuStore(out, cuAdd(ir.Int(int64(c*n)), i), x))
		l.cases = append(l.cases, cuHarnessCase{name: name, buf: out, start: c * n, count: n, approx: approx})
	}
	for _, cuTY := range cuAllTypes {
		sfx := cTypeSuffix(cuTY)
		ina, inb := "a_"+sfx, "b_"+sfx
		args = append(args, cuBuffer(ina, cuTY, false), cuBuffer(inb, cuTY, false))
		av, bv := cuSlice(cuTY, n), cuSlice(cuTY, n)
		vals := cuSpecialValues(cuTY)
		for k := 0; k < n; k++ {
			cuSet(av, k, vals[k/16])
			cuSet(bv, k, vals[k%16])
		}
		l.bufs[ina] = &cuHarnessBuf{t: cuTY, init: av}
		l.bufs[inb] = &cuHarnessBuf{t: cuTY, init: bv}
		a, b := cuLoad(cuTY, ina, i), cuLoad(cuTY, inb, i)
		for _, op := range []ir.BinOp{ir.Add, ir.Sub, ir.Mul, ir.Div, ir.Mod, ir.Min, ir.Max} {
			if cuTY.IsBool() && op != ir.Min && op != ir.Max {
				continue
			}
			addCase(sfx+" "+opWord[op], cuTY, ir.Bin(op, a, b), false)
		}
		for _, op := range []ir.BinOp{ir.EQ, ir.NE, ir.LT, ir.LE, ir.GT, ir.GE} {
			addCase(sfx+" "+op.String(), ir.Bool, ir.Bin(op, a, b), false)
		}
		for _, u := range cuAllTypes {
			if u != cuTY {
				addCase(sfx+" to "+cTypeSuffix(u), u, cuCast(u, a), false)
			}
		}
		addCase(sfx+" select", cuTY, &ir.Select{Cond: ir.Bin(ir.LT, a, b), True: a, False: b}, false)
		if cuTY.IsBool() {
			addCase("bool and", ir.Bool, ir.AndE(a, b), false)
			addCase("bool or", ir.Bool, ir.Bin(ir.Or, a, b), false)
			addCase("bool not", ir.Bool, &ir.Not{X: a}, false)
			continue
		}
		for _, k := range []int64{8, -3, 0, 3} {
			c := ir.IntConst(cuTY, k)
			addCase(fmt.Sprintf("%s cuAdd %d", sfx, k), cuTY, ir.Bin(ir.Add, a, c), false)
			addCase(fmt.Sprintf("%s sub %d", sfx, k), cuTY, ir.Bin(ir.Sub, a, c), false)
			addCase(fmt.Sprintf("%s mul %d", sfx, k), cuTY, ir.Bin(ir.Mul, a, c), false)
			addCase(fmt.Sprintf("%s div %d", sfx, k), cuTY, ir.Bin(ir.Div, a, c), false)
			addCase(fmt.Sprintf("%s mod %d", sfx, k), cuTY, ir.Bin(ir.Mod, a, c), false)
		}
		addCase(sfx+" abs", cuTY, cuCall(cuTY, ir.IntrinsicAbs, a), false)
		addCase(sfx+" promise_clamped", cuTY, cuCall(cuTY, ir.IntrinsicPromiseClamped, a, ir.IntConst(cuTY, 1), ir.IntConst(cuTY, 100)), false)
		for _, name := range []string{ir.IntrinsicSqrt, ir.IntrinsicExp, ir.IntrinsicLog, ir.IntrinsicFloor, ir.IntrinsicCeil, ir.IntrinsicRound} {
			approx := name == ir.IntrinsicExp || name == ir.IntrinsicLog
			if cuTY.IsFloat() {
				addCase(sfx+" "+name, cuTY, cuCall(cuTY, name, a), approx)
			} else {
				addCase(sfx+" "+name+" to cuF32", ir.Float32, cuCall(ir.Float32, name, a), approx)
				addCase(sfx+" "+name+" to i32", ir.Int32, cuCall(ir.Int32, name, a), approx)
			}
		}
		if cuTY.IsFloat() {
			addCase(sfx+" pow", cuTY, cuCall(cuTY, ir.IntrinsicPow, a, b), true)
			addCase(sfx+" mul-cuAdd", cuTY, ir.AddE(ir.MulE(a, b), a), false)
			addCase(sfx+" let in select", cuTY, &ir.Select{Cond: ir.Bin(ir.LT, a, b),
				True:  &ir.Let{Name: "t", Value: ir.MulE(a, b), Body: ir.SubE(ir.MulE(cuTVar(cuTY, "t"), a), cuTVar(cuTY, "t"))},
				False: b}, false)
		}
	}
	// Atomics: every thread updates element k of atomic_T.
	for _, cuTY := range cuAllTypes {
		if cuTY.IsBool() {
			continue
		}
		sfx := cTypeSuffix(cuTY)
		name := "atomic_" + sfx
		ops := []ir.BinOp{ir.Add, ir.Sub, ir.Mul, ir.Min, ir.Max}
		if cuTY.IsFloat() {
			ops = []ir.BinOp{ir.Min, ir.Max} // the others depend on the order
		}
		init := cuSlice(cuTY, len(ops)+1)
		for k := range len(ops) + 1 {
			cuSet(init, k, int64(1))
		}
		args = append(args, cuBuffer(name, cuTY, true))
		l.bufs[name] = &cuHarnessBuf{t: cuTY, init: init}
		a := cuLoad(cuTY, "a_"+sfx, i)
		for k, op := range ops {
			cell := ir.Int(int64(k))
			stmts = append(stmts, cuAtomic(name, cell, ir.Bin(op, cuLoad(cuTY, name, cell), a)))
			l.cases = append(l.cases, cuHarnessCase{name: "atomic " + sfx + " " + opWord[op], buf: name, start: k, count: 1})
		}
		// An inline compare-and-swap loop: keep the largest non-NaN value.
		cell := ir.Int(int64(len(ops)))
		old := cuLoad(cuTY, name, cell)
		stmts = append(stmts, cuAtomic(name, cell, &ir.Select{Cond: ir.Bin(ir.GT, a, old), True: a, False: old}))
		l.cases = append(l.cases, cuHarnessCase{name: "atomic " + sfx + " select", buf: name, start: len(ops), count: 1})
	}
	for _, u := range cuAllTypes {
		out := "out_" + cTypeSuffix(u)
		args = append(args, cuBuffer(out, u, true))
		l.bufs[out] = &cuHarnessBuf{t: u, init: cuSlice(u, nCases[u]*n)}
	}
	l.kernel = &ir.Kernel{
		Name:  "semantics",
		Grid:  [3]ir.Expr{ir.Int(1), ir.Int(1), ir.Int(1)},
		Block: [3]ir.Expr{ir.Int(n), ir.Int(1), ir.Int(1)},
		Args:  args,
		Body:  ir.MakeBlock(stmts...),
	}
	cuRunOnCPU(t, l)
	return l
}

// cuRunOnCPU computes the expected outputs of a kernel without barriers by
// running its body on the CPU executor for every block and thread.
func cuRunOnCPU(t *testing.T, l *cuHarnessLaunch) {
	body := l.kernel.Body
	for d := 2; d >= 0; d-- {
		body = cuFor(ir.Serial, ir.ThreadID[d], ir.Int(0), ir.Int(int64(l.block[d])), body)
	}
	for d := 2; d >= 0; d-- {
		body = cuFor(ir.Serial, ir.BlockID[d], ir.Int(0), ir.Int(int64(l.grid[d])), body)
	}
	p, err := cpu.Compile(body)
	if err != nil {
		t.Fatalf("cpu.Compile(%s): %v", l.kernel.Name, err)
	}
	bufs := map[string]any{}
	for name, b := range l.bufs {
		b.want = cuClone(b.init)
		bufs[name] = b.want
	}
	if err := p.Run(l.scalars, bufs); err != nil {
		t.Fatalf("cpu run of %s: %v", l.kernel.Name, err)
	}
	for _, a := range l.kernel.Args {
		if a.IsBuffer && !a.Written {
			l.bufs[a.Name].want = nil
		}
	}
	if len(l.cases) == 0 {
		for _, a := range l.kernel.Args {
			if a.Written {
				n := reflect.ValueOf(l.bufs[a.Name].init).Len()
				l.cases = append(l.cases, cuHarnessCase{name: l.kernel.Name + " " + a.Name, buf: a.Name, count: n})
			}
		}
	}
}

func cuRandomFloats(n int, seed uint64, scale float32) []float32 {
	out := make([]float32, n)
	x := seed
	for i := range out {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		out[i] = float32(int64(x%2001)-1000) / 1000 * scale
	}
	return out
}

func cuGoldenLaunches(t *testing.T) []*cuHarnessLaunch {
	var out []*cuHarnessLaunch
	// brighten: 1000 pixels, a partial last block.
	{
		const w = 1000
		l := &cuHarnessLaunch{kernel: cuBrightenKernel(), grid: [3]int{(w + 255) / 256, 1, 1}, block: [3]int{256, 1, 1},
			scalars: map[string]any{"input.min.0": 0, "brighten.min.0": 0, "brighten.extent.0": w, "gain": float32(1.7), "bias": float32(0.3)},
			bufs: map[string]*cuHarnessBuf{
				"input":    {t: ir.Float32, init: cuRandomFloats(w, 1, 1)},
				"brighten": {t: ir.UInt8, init: make([]uint8, w)},
			}}
		cuRunOnCPU(t, l)
		out = append(out, l)
	}
	// histogram: weights are multiples of 1/4, so float sums are exact in
	// any order.
	{
		const w = 5000
		in := make([]uint8, w)
		weights := make([]float32, w)
		for i := range in {
			in[i] = uint8(i * 37 % 256)
			weights[i] = float32(i%13) * 0.25
		}
		l := &cuHarnessLaunch{kernel: cuHistogramKernel(), grid: [3]int{(w + 127) / 128, 1, 1}, block: [3]int{128, 1, 1},
			scalars: map[string]any{"input.extent.0": w},
			bufs: map[string]*cuHarnessBuf{
				"input": {t: ir.UInt8, init: in}, "weights": {t: ir.Float32, init: weights},
				"hist": {t: ir.Int32, init: make([]int32, 16)}, "hist_sum": {t: ir.Float32, init: make([]float32, 16)},
				"hist_max": {t: ir.Float32, init: make([]float32, 16)},
			}}
		cuRunOnCPU(t, l)
		out = append(out, l)
	}
	// matmul: 70 x 50 times 50 x 90; the products and sums are rounded
	// one by one, so the GPU must not fuse them into FMAs.
	{
		const M, N, K = 70, 90, 50
		l := &cuHarnessLaunch{kernel: cuMatmulKernel(), grid: [3]int{(N + 15) / 16, (M + 63) / 64, 1}, block: [3]int{16, 16, 1},
			scalars: map[string]any{"M": M, "N": N, "K": K},
			bufs: map[string]*cuHarnessBuf{
				"A": {t: ir.Float32, init: cuRandomFloats(M*K, 2, 1.3)}, "B": {t: ir.Float32, init: cuRandomFloats(K*N, 3, 0.7)},
				"C": {t: ir.Float32, init: make([]float32, M*N)},
			}}
		cuRunOnCPU(t, l)
		out = append(out, l)
	}
	// blur: the CPU executor does not run barriers; a plain-Go reference.
	{
		const W, H = 100, 37
		in := cuRandomFloats(W*H, 4, 10)
		want := make([]float32, W*H)
		clamp := func(v, lo, hi int) int { return min(max(v, lo), hi) }
		for y := 0; y < H; y++ {
			for x := 0; x < W; x++ {
				var s float32
				for dy := -1; dy <= 1; dy++ {
					for dx := -1; dx <= 1; dx++ {
						s = s + in[clamp(y+dy, 0, H-1)*W+clamp(x+dx, 0, W-1)]
					}
				}
				want[y*W+x] = float32(s * float32(1.0/9))
			}
		}
		l := &cuHarnessLaunch{kernel: cuBlurKernel(), grid: [3]int{(W + 15) / 16, (H + 15) / 16, 1}, block: [3]int{16, 16, 1},
			scalars: map[string]any{"input.min.0": 0, "input.min.1": 0, "input.extent.0": W, "input.extent.1": H, "input.stride.1": W,
				"blur.min.0": 0, "blur.min.1": 0, "blur.extent.0": W, "blur.extent.1": H, "blur.stride.1": W},
			bufs: map[string]*cuHarnessBuf{
				"input": {t: ir.Float32, init: in},
				"blur":  {t: ir.Float32, init: make([]float32, W*H), want: want},
			},
			cases: []cuHarnessCase{{name: "blur", buf: "blur", count: W * H}}}
		out = append(out, l)
	}
	return out
}

func cuBytes(t *testing.T, s any) []byte {
	var b bytes.Buffer
	if err := binary.Write(&b, binary.LittleEndian, s); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func cuArray(b *strings.Builder, name string, data []byte) {
	fmt.Fprintf(b, "static const unsigned char %s[%d] = {", name, max(len(data), 1))
	for i, x := range data {
		if i%24 == 0 {
			b.WriteString("\n   ")
		}
		fmt.Fprintf(b, " %d,", x)
	}
	if len(data) == 0 {
		b.WriteString("0")
	}
	b.WriteString("\n};\n")
}

// cuHarnessSource writes the harness translation unit.
func cuHarnessSource(t *testing.T, launches []*cuHarnessLaunch) string {
	var kernels []*ir.Kernel
	for _, l := range launches {
		kernels = append(kernels, l.kernel)
	}
	src, err := CUDASource(kernels...)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("#include <cstdio>\n#include <cstring>\n#include <cuda_runtime.h>\n\n")
	b.WriteString(src)
	b.WriteString(`
// ---- host side of the differential harness (generated by cfamily/cuda_test.go)

#define CHECK(x) do { cudaError_t err_ = (x); if (err_ != cudaSuccess) { \
    printf("CUDA error %s at %s:%d: %s\n", cudaGetErrorName(err_), __FILE__, __LINE__, cudaGetErrorString(err_)); return 2; } } while (0)

static int failures = 0, checked = 0, ulp_ok = 0, known = 0;

// kind: 0 integer or bool, 1 float32, 2 float64.
static void compare(const char *name, int kind, int size, const unsigned char *got, const unsigned char *want,
                    int start, int count, int approx) {
    int bad = 0;
    for (int i = start; i < start + count; i++) {
        const unsigned char *g = got + (size_t)i * size, *w = want + (size_t)i * size;
        checked++;
        if (memcmp(g, w, size) == 0) continue;
        long long gi = 0, wi = 0;
        memcpy(&gi, g, size);
        memcpy(&wi, w, size);
        if (kind == 1) {
            float gf, wf;
            memcpy(&gf, g, 4); memcpy(&wf, w, 4);
            if (gf != gf && wf != wf) continue;
            if (approx && (gi - wi == 1 || wi - gi == 1)) { ulp_ok++; continue; }
            if (bad < 4) printf("%s %s [%d] (pair %d, %d): got %.9g want %.9g\n", approx ? "KNOWN" : "MISMATCH", name,
                                i - start, (i - start) / 16, (i - start) % 16, gf, wf);
        } else if (kind == 2) {
            double gf, wf;
            memcpy(&gf, g, 8); memcpy(&wf, w, 8);
            if (gf != gf && wf != wf) continue;
            if (approx && (gi - wi == 1 || wi - gi == 1)) { ulp_ok++; continue; }
            if (bad < 4) printf("%s %s [%d] (pair %d, %d): got %.17g want %.17g\n", approx ? "KNOWN" : "MISMATCH", name,
                                i - start, (i - start) / 16, (i - start) % 16, gf, wf);
        } else if (bad < 4) {
            printf("MISMATCH %s [%d] (pair %d, %d): got 0x%llx want 0x%llx\n", name, i - start, (i - start) / 16, (i - start) % 16,
                   (unsigned long long)gi, (unsigned long long)wi);
        }
        bad++;
    }
    if (bad && approx) {
        known += bad;
        printf("KNOWN %s: %d of %d values differ by more than 1 ulp (CUDA's libdevice against Go's math)\n", name, bad, count);
    } else if (bad) {
        failures++;
        printf("FAIL %s: %d of %d values differ\n", name, bad, count);
    }
}

`)
	var m strings.Builder
	m.WriteString(`int main() {
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    printf("device: %s (sm_%d%d)\n", prop.name, prop.major, prop.minor);
`)
	var data strings.Builder
	cases := 0
	for li, l := range launches {
		info, err := CUDAInfo(l.kernel)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&m, "    {\n        // launch %d: %s\n", li, info.Name)
		var params []string
		for ai, a := range l.kernel.Args {
			if !a.IsBuffer {
				v := l.scalars[a.Name]
				fmt.Fprintf(&m, "        %s s%d = (%s)%v;\n", cType(a.T), ai, cType(a.T), v)
				params = append(params, fmt.Sprintf("s%d", ai))
				continue
			}
			hb := l.bufs[a.Name]
			init := cuBytes(t, hb.init)
			arr := fmt.Sprintf("l%d_%s_init", li, cIdent(CUDA, a.Name))
			cuArray(&data, arr, init)
			fmt.Fprintf(&m, "        void *d%d; CHECK(cudaMalloc(&d%d, %d));\n", ai, ai, max(len(init), 1))
			fmt.Fprintf(&m, "        CHECK(cudaMemcpy(d%d, %s, %d, cudaMemcpyHostToDevice));\n", ai, arr, len(init))
			params = append(params, fmt.Sprintf("(%s *)d%d", cType(a.T), ai))
		}
		fmt.Fprintf(&m, "        %s<<<dim3(%d, %d, %d), dim3(%d, %d, %d)>>>(%s);\n", info.Name,
			l.grid[0], l.grid[1], l.grid[2], l.block[0], l.block[1], l.block[2], strings.Join(params, ", "))
		m.WriteString("        CHECK(cudaGetLastError());\n        CHECK(cudaDeviceSynchronize());\n")
		for ai, a := range l.kernel.Args {
			if !a.IsBuffer {
				continue
			}
			hb := l.bufs[a.Name]
			if hb.want != nil {
				want := cuBytes(t, hb.want)
				arr := fmt.Sprintf("l%d_%s_want", li, cIdent(CUDA, a.Name))
				cuArray(&data, arr, want)
				fmt.Fprintf(&m, "        static unsigned char h%d[%d];\n", ai, max(len(want), 1))
				fmt.Fprintf(&m, "        CHECK(cudaMemcpy(h%d, d%d, %d, cudaMemcpyDeviceToHost));\n", ai, ai, len(want))
				kind := 0
				if a.T.IsFloat() {
					kind = int(a.T.Bits) / 32
				}
				for _, c := range l.cases {
					if c.buf != a.Name {
						continue
					}
					approx := 0
					if c.approx {
						approx = 1
					}
					fmt.Fprintf(&m, "        compare(%q, %d, %d, h%d, %s, %d, %d, %d);\n", c.name, kind, a.T.Bytes(), ai, arr, c.start, c.count, approx)
					cases++
				}
			}
			fmt.Fprintf(&m, "        CHECK(cudaFree(d%d));\n", ai)
		}
		m.WriteString("    }\n")
	}
	fmt.Fprintf(&m, `    printf("harness: %d cases, %%d values, exp/log/pow: %%d values within 1 ulp, %%d further apart; %%d cases differ\n", checked, ulp_ok, known, failures);
    return failures ? 1 : 0;
}
`, cases)
	return b.String() + "\n// ---- data\n" + data.String() + "\n" + m.String()
}

func TestCUDAHarness(t *testing.T) {
	dir := os.Getenv("GOHALIDE_CUDA_HARNESS")
	if dir == "" {
		t.Skip("set GOHALIDE_CUDA_HARNESS to a directory to write the GPU differential harness there")
	}
	launches := append([]*cuHarnessLaunch{cuSemanticsLaunch(t)}, cuGoldenLaunches(t)...)
	src := cuHarnessSource(t, launches)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "harness.cu")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s (%d bytes)", path, len(src))
	if nvcc, ok := NVCCPath(); ok {
		out, err := exec.Command(nvcc, "-arch=sm_90", "-o", filepath.Join(dir, "harness"), path).CombinedOutput()
		if err != nil {
			t.Fatalf("nvcc: %v\n%s", err, out)
		}
		if strings.Contains(string(out), "warning") {
			t.Errorf("nvcc warned:\n%s", out)
		}
	}
}
