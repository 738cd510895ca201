package gpu

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
	"github.com/gohalide/gohalide/halide/ir"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// IR builders for hand-written kernels.

func iv(name string) ir.Expr                      { return ir.NewVar(name) }
func tv(t ir.Type, name string) ir.Expr           { return &ir.Var{T: t, Name: name} }
func ld(t ir.Type, buf string, i ir.Expr) ir.Expr { return &ir.Load{T: t, Buf: buf, Index: i} }
func st(buf string, i, v ir.Expr) ir.Stmt         { return &ir.Store{Buf: buf, Index: i, Value: v} }
func atomicSt(buf string, i, v ir.Expr) ir.Stmt {
	return &ir.Store{Buf: buf, Index: i, Value: v, Atomic: true}
}
func f32(v float64) ir.Expr { return ir.Const(ir.Float32, v) }
func letS(name string, v ir.Expr, body ...ir.Stmt) ir.Stmt {
	return &ir.LetStmt{Name: name, Value: v, Body: ir.MakeBlock(body...)}
}
func forS(kind ir.ForKind, name string, mn, ext ir.Expr, body ...ir.Stmt) ir.Stmt {
	return &ir.For{Name: name, Min: mn, Extent: ext, Kind: kind, Body: ir.MakeBlock(body...)}
}
func ifS(c ir.Expr, then ir.Stmt) ir.Stmt { return &ir.IfThenElse{Cond: c, Then: then} }
func call(t ir.Type, name string, args ...ir.Expr) ir.Expr {
	return &ir.Call{T: t, Kind: ir.CallIntrinsic, Name: name, Args: args}
}
func alloc(name string, t ir.Type, mem ir.MemoryType, body ir.Stmt, extents ...ir.Expr) ir.Stmt {
	return &ir.Allocate{Name: name, T: t, Memory: mem, Extents: extents, Body: body}
}
func scalar(name string, t ir.Type) ir.KernelArg { return ir.KernelArg{Name: name, T: t} }
func buffer(name string, t ir.Type, written bool) ir.KernelArg {
	return ir.KernelArg{Name: name, T: t, IsBuffer: true, Written: written}
}
func cast(t ir.Type, x ir.Expr) ir.Expr { return &ir.Cast{T: t, X: x} }
func add(xs ...ir.Expr) ir.Expr {
	s := xs[0]
	for _, x := range xs[1:] {
		s = ir.AddE(s, x)
	}
	return s
}

var (
	tx = iv(ir.ThreadID[0])
	ty = iv(ir.ThreadID[1])
	bx = iv(ir.BlockID[0])
	by = iv(ir.BlockID[1])
)

// brightenKernel is an elementwise kernel: one thread per pixel of a
// 1-D float image, a tail guard, float clamps and a conversion to uint8.
func brightenKernel() *ir.Kernel {
	x := iv("brighten.s0.x")
	v := tv(ir.Float32, "v")
	return &ir.Kernel{
		Name:  "brighten_s0_x",
		Grid:  [3]ir.Expr{ir.DivE(add(iv("brighten.extent.0"), ir.Int(255)), ir.Int(256)), ir.Int(1), ir.Int(1)},
		Block: [3]ir.Expr{ir.Int(256), ir.Int(1), ir.Int(1)},
		Args: []ir.KernelArg{
			buffer("input", ir.Float32, false),
			buffer("brighten", ir.UInt8, true),
			scalar("input.min.0", ir.Int32),
			scalar("brighten.min.0", ir.Int32),
			scalar("brighten.extent.0", ir.Int32),
			scalar("gain", ir.Float32),
			scalar("bias", ir.Float32),
		},
		Body: letS("brighten.s0.x", add(ir.MulE(bx, ir.Int(256)), tx, iv("brighten.min.0")),
			ifS(call(ir.Bool, ir.IntrinsicLikely, ir.LTE(x, add(iv("brighten.min.0"), iv("brighten.extent.0")))),
				letS("v", add(ir.MulE(ld(ir.Float32, "input", ir.SubE(x, iv("input.min.0"))), tv(ir.Float32, "gain")), tv(ir.Float32, "bias")),
					st("brighten", ir.SubE(x, iv("brighten.min.0")),
						cast(ir.UInt8, call(ir.Float32, ir.IntrinsicRound,
							ir.MulE(ir.MinE(ir.MaxE(v, f32(0)), f32(1)), f32(255)))))))),
	}
}

// blurKernel is a 3x3 box blur: the block's threads load an 18x18 tile of
// the input into shared memory together (324 points for 256 threads, so
// two rounds and a guard), wait at a barrier, then each computes one
// output point under a tail guard.
func blurKernel() *ir.Kernel {
	const tile = 18
	i := iv("in_tile.s0.i")
	x, y := iv("blur.s0.x"), iv("blur.s0.y")
	x0, y0 := iv("blur.s0.x.base"), iv("blur.s0.y.base")
	clampX := call(ir.Int32, ir.IntrinsicPromiseClamped,
		add(x0, ir.ModE(i, ir.Int(tile)), ir.Int(-1)), iv("input.min.0"), add(iv("input.min.0"), iv("input.extent.0"), ir.Int(-1)))
	clampY := call(ir.Int32, ir.IntrinsicPromiseClamped,
		add(y0, ir.DivE(i, ir.Int(tile)), ir.Int(-1)), iv("input.min.1"), add(iv("input.min.1"), iv("input.extent.1"), ir.Int(-1)))
	var sum ir.Expr
	for dy := 0; dy < 3; dy++ {
		for dx := 0; dx < 3; dx++ {
			idx := add(ir.MulE(add(ty, ir.Int(int64(dy))), ir.Int(tile)), tx, ir.Int(int64(dx)))
			l := ld(ir.Float32, "in_tile", ir.Simplify(idx))
			if sum == nil {
				sum = l
			} else {
				sum = ir.AddE(sum, l)
			}
		}
	}
	body := alloc("in_tile", ir.Float32, ir.GPUShared, ir.MakeBlock(
		&ir.Comment{Text: "3x3 box blur, one 16x16 tile of blur per block"},
		letS("blur.s0.x.base", add(ir.MulE(bx, ir.Int(16)), iv("blur.min.0")),
			letS("blur.s0.y.base", add(ir.MulE(by, ir.Int(16)), iv("blur.min.1")),
				&ir.ProducerConsumer{Func: "in_tile", Producer: true, Body: ir.MakeBlock(
					&ir.Comment{Text: "cooperative load: 324 points, 256 threads"},
					forS(ir.Serial, "in_tile.s0.r", ir.Int(0), ir.Int(2),
						letS("in_tile.s0.i", add(ir.MulE(iv("in_tile.s0.r"), ir.Int(256)), ir.MulE(ty, ir.Int(16)), tx),
							ifS(ir.LTE(i, ir.Int(tile*tile)),
								st("in_tile", i, ld(ir.Float32, "input",
									add(ir.MulE(ir.SubE(clampY, iv("input.min.1")), iv("input.stride.1")), ir.SubE(clampX, iv("input.min.0")))))))),
				)},
				&ir.Barrier{Fence: ir.FenceShared, Reason: "in_tile is written by every thread of the block and read by its neighbours"},
				&ir.ProducerConsumer{Func: "in_tile", Producer: false, Body: letS("blur.s0.x", add(x0, tx),
					letS("blur.s0.y", add(y0, ty),
						ifS(ir.AndE(ir.LTE(x, add(iv("blur.min.0"), iv("blur.extent.0"))), ir.LTE(y, add(iv("blur.min.1"), iv("blur.extent.1")))),
							st("blur", add(ir.MulE(ir.SubE(y, iv("blur.min.1")), iv("blur.stride.1")), ir.SubE(x, iv("blur.min.0"))),
								ir.MulE(sum, f32(1.0/9)))))),
				}))), ir.Int(tile), ir.Int(tile))
	return &ir.Kernel{
		Name:  "blur_s0_y_y_blur_s0_x_x",
		Grid:  [3]ir.Expr{ir.DivE(add(iv("blur.extent.0"), ir.Int(15)), ir.Int(16)), ir.DivE(add(iv("blur.extent.1"), ir.Int(15)), ir.Int(16)), ir.Int(1)},
		Block: [3]ir.Expr{ir.Int(16), ir.Int(16), ir.Int(1)},
		Args: []ir.KernelArg{
			buffer("input", ir.Float32, false),
			buffer("blur", ir.Float32, true),
			scalar("input.min.0", ir.Int32), scalar("input.min.1", ir.Int32),
			scalar("input.extent.0", ir.Int32), scalar("input.extent.1", ir.Int32),
			scalar("input.stride.1", ir.Int32),
			scalar("blur.min.0", ir.Int32), scalar("blur.min.1", ir.Int32),
			scalar("blur.extent.0", ir.Int32), scalar("blur.extent.1", ir.Int32),
			scalar("blur.stride.1", ir.Int32),
		},
		Body:     body,
		Barriers: 1,
	}
}

// histogramKernel is a scatter: each thread reads one uint8 pixel and adds
// to its bin with atomics (an int32 count, a float32 sum, a float32 max).
func histogramKernel() *ir.Kernel {
	i := iv("hist.s1.r$x")
	bin := iv("hist.s1.bin")
	w := ld(ir.Float32, "weights", i)
	return &ir.Kernel{
		Name:  "hist_s1_r_x",
		Grid:  [3]ir.Expr{ir.DivE(add(iv("input.extent.0"), ir.Int(127)), ir.Int(128)), ir.Int(1), ir.Int(1)},
		Block: [3]ir.Expr{ir.Int(128), ir.Int(1), ir.Int(1)},
		Args: []ir.KernelArg{
			buffer("input", ir.UInt8, false),
			buffer("weights", ir.Float32, false),
			buffer("hist", ir.Int32, true),
			buffer("hist_sum", ir.Float32, true),
			buffer("hist_max", ir.Float32, true),
			scalar("input.extent.0", ir.Int32),
		},
		Body: letS("hist.s1.r$x", add(ir.MulE(bx, ir.Int(128)), tx),
			ifS(ir.LTE(i, iv("input.extent.0")),
				letS("hist.s1.bin", ir.DivE(cast(ir.Int32, ld(ir.UInt8, "input", i)), ir.Int(16)),
					atomicSt("hist", bin, ir.AddE(ld(ir.Int32, "hist", bin), ir.Int(1))),
					atomicSt("hist_sum", bin, ir.AddE(ld(ir.Float32, "hist_sum", bin), w)),
					atomicSt("hist_max", bin, ir.MaxE(ld(ir.Float32, "hist_max", bin), w))))),
	}
}

// matmulKernel computes C = A B with a 4-element register accumulator
// per thread (four rows), unrolled loops over it and a serial loop over k.
func matmulKernel() *ir.Kernel {
	x, y0 := iv("C.s0.x"), iv("C.s0.y.base")
	j, k := iv("C.s1.j"), iv("C.s1.r$k")
	row := add(y0, j)
	return &ir.Kernel{
		Name:  "C_s0_y_y_C_s0_x_x",
		Grid:  [3]ir.Expr{ir.DivE(add(iv("N"), ir.Int(15)), ir.Int(16)), ir.DivE(add(iv("M"), ir.Int(63)), ir.Int(64)), ir.Int(1)},
		Block: [3]ir.Expr{ir.Int(16), ir.Int(16), ir.Int(1)},
		Args: []ir.KernelArg{
			buffer("A", ir.Float32, false), buffer("B", ir.Float32, false), buffer("C", ir.Float32, true),
			scalar("M", ir.Int32), scalar("N", ir.Int32), scalar("K", ir.Int32),
		},
		Body: alloc("acc", ir.Float32, ir.Register, letS("C.s0.x", add(ir.MulE(bx, ir.Int(16)), tx),
			letS("C.s0.y.base", ir.MulE(add(ir.MulE(by, ir.Int(16)), ty), ir.Int(4)),
				&ir.ProducerConsumer{Func: "acc", Producer: true, Body: ir.MakeBlock(
					forS(ir.Unrolled, "acc.s0.j", ir.Int(0), ir.Int(4), st("acc", iv("acc.s0.j"), f32(0))),
					forS(ir.Serial, "C.s1.r$k", ir.Int(0), iv("K"),
						letS("b", ld(ir.Float32, "B", add(ir.MulE(k, iv("N")), call(ir.Int32, ir.IntrinsicPromiseClamped, x, ir.Int(0), ir.SubE(iv("N"), ir.Int(1))))),
							forS(ir.Unrolled, "C.s1.j", ir.Int(0), ir.Int(4),
								st("acc", j, ir.AddE(ld(ir.Float32, "acc", j),
									ir.MulE(ld(ir.Float32, "A", add(ir.MulE(call(ir.Int32, ir.IntrinsicPromiseClamped, row, ir.Int(0), ir.SubE(iv("M"), ir.Int(1))), iv("K")), k)), tv(ir.Float32, "b"))))))),
				)},
				&ir.ProducerConsumer{Func: "acc", Producer: false, Body: forS(ir.Unrolled, "C.s2.j", ir.Int(0), ir.Int(4),
					ifS(ir.AndE(ir.LTE(add(y0, iv("C.s2.j")), iv("M")), ir.LTE(x, iv("N"))),
						st("C", add(ir.MulE(add(y0, iv("C.s2.j")), iv("N")), x), ld(ir.Float32, "acc", iv("C.s2.j")))))},
			)), ir.Int(4)),
	}
}

// opsKernel exercises every operator, type, cast and intrinsic, dynamic
// shared memory, lets in lazily evaluated positions and the atomic
// fallbacks. It is not meant to be read; it must compile.
func opsKernel() *ir.Kernel {
	i := iv("i")
	var stmts []ir.Stmt
	types := []ir.Type{ir.Int8, ir.Int16, ir.Int32, ir.Int64, ir.UInt8, ir.UInt16, ir.UInt32, ir.UInt64, ir.Float32, ir.Float64, ir.Bool}
	var args []ir.KernelArg
	for _, t := range types {
		in, out := "in_"+typeSuffix(t), "out_"+typeSuffix(t)
		args = append(args, buffer(in, t, false), buffer(out, t, true))
		a := ld(t, in, i)
		b := ld(t, in, ir.AddE(i, ir.Int(1)))
		for _, op := range []ir.BinOp{ir.Add, ir.Sub, ir.Mul, ir.Div, ir.Mod, ir.Min, ir.Max} {
			if t.IsBool() && op != ir.Min && op != ir.Max {
				continue
			}
			stmts = append(stmts, st(out, ir.Int(int64(op)), ir.Bin(op, a, b)))
		}
		stmts = append(stmts,
			st("out_bool", ir.Int(int64(len(stmts))), ir.Bin(ir.LT, a, b)),
			st("out_bool", ir.Int(int64(len(stmts)+1)), ir.Bin(ir.EQ, a, b)))
		for _, u := range types {
			stmts = append(stmts, st("out_"+typeSuffix(u), ir.Int(int64(100+len(stmts))), cast(u, a)))
		}
		if !t.IsBool() {
			stmts = append(stmts,
				st(out, ir.Int(20), ir.IntConst(t, -3)),
				st(out, ir.Int(21), ir.Bin(ir.Add, a, ir.IntConst(t, -7))),
				st(out, ir.Int(22), ir.Bin(ir.Div, a, ir.IntConst(t, 8))),
				st(out, ir.Int(23), ir.Bin(ir.Mod, a, ir.IntConst(t, 8))),
				st(out, ir.Int(24), call(t, ir.IntrinsicAbs, a)),
				st(out, ir.Int(25), call(t, ir.IntrinsicPromiseClamped, a, ir.IntConst(t, 1), ir.IntConst(t, 9))),
				atomicSt(out, ir.Int(26), ir.Bin(ir.Mul, ld(t, out, ir.Int(26)), b)),
				atomicSt(out, ir.Int(27), ir.Bin(ir.Add, ld(t, out, ir.Int(27)), b)),
				atomicSt(out, ir.Int(28), ir.Bin(ir.Min, b, ld(t, out, ir.Int(28)))),
				atomicSt(out, ir.Int(29), ir.Bin(ir.Sub, ld(t, out, ir.Int(29)), b)),
			)
		}
	}
	f, d := ld(ir.Float32, "in_f32", i), ld(ir.Float64, "in_f64", i)
	for n, name := range []string{ir.IntrinsicSqrt, ir.IntrinsicExp, ir.IntrinsicLog, ir.IntrinsicFloor, ir.IntrinsicCeil, ir.IntrinsicRound} {
		stmts = append(stmts,
			st("out_f32", ir.Int(int64(40+n)), call(ir.Float32, name, f)),
			st("out_f64", ir.Int(int64(40+n)), call(ir.Float64, name, d)),
			st("out_i32", ir.Int(int64(40+n)), call(ir.Int32, name, ld(ir.Int32, "in_i32", i))))
	}
	stmts = append(stmts,
		st("out_f32", ir.Int(50), call(ir.Float32, ir.IntrinsicPow, f, f32(2.5))),
		st("out_f64", ir.Int(50), call(ir.Float64, ir.IntrinsicPow, d, ir.Const(ir.Float64, -0.5))),
		st("out_f32", ir.Int(51), ir.Const(ir.Float32, math32Inf())),
		st("out_f64", ir.Int(51), &ir.FloatImm{T: ir.Float64, V: negInf()}),
		st("out_i64", ir.Int(51), &ir.IntImm{T: ir.Int64, V: -1 << 63}),
		st("out_i32", ir.Int(51), &ir.IntImm{T: ir.Int32, V: -1 << 31}),
		st("out_u64", ir.Int(51), &ir.IntImm{T: ir.UInt64, V: -1}),
		st("out_bool", ir.Int(51), &ir.Not{X: ir.Bin(ir.Or, ir.Bin(ir.And, ir.LTE(f, f32(1)), ir.LTE(d, ir.Const(ir.Float64, 2))), ir.True)}),
		// A let in a select arm is evaluated only when the arm is: a lambda.
		st("out_f32", ir.Int(52), &ir.Select{Cond: ir.LTE(i, ir.Int(3)),
			True:  &ir.Let{Name: "t", Value: ld(ir.Float32, "in_f32", ir.AddE(i, ir.Int(2))), Body: ir.MulE(tv(ir.Float32, "t"), tv(ir.Float32, "t"))},
			False: f32(0)}),
		// A let evaluated unconditionally is hoisted.
		st("out_i32", ir.Int(52), &ir.Let{Name: "t", Value: ir.MulE(i, i), Body: ir.AddE(iv("t"), iv("t"))}),
		// Any function of the old value: an inline compare-and-swap loop.
		atomicSt("out_f32", ir.Int(53), &ir.Select{Cond: ir.LTE(ld(ir.Float32, "out_f32", ir.Int(53)), f32(0)), True: f, False: ld(ir.Float32, "out_f32", ir.Int(53))}),
		atomicSt("out_u8", ir.Int(53), ir.AddE(ir.MulE(ld(ir.UInt8, "out_u8", ir.Int(53)), ld(ir.UInt8, "out_u8", ir.Int(53))), ir.IntConst(ir.UInt8, 1))),
		// Dynamic shared memory.
		st("dyn_a", tx, cast(ir.Float64, f)),
		st("dyn_b", tx, cast(ir.UInt8, tx)),
		&ir.Barrier{Fence: ir.FenceShared, Reason: "dyn_a and dyn_b are read across threads"},
		st("out_f64", ir.Int(54), ld(ir.Float64, "dyn_a", ir.ModE(add(tx, ir.Int(1)), iv("n")))),
		st("out_u8", ir.Int(54), ld(ir.UInt8, "dyn_b", ir.ModE(add(tx, ir.Int(1)), iv("n")))),
		st("out_i16", ir.Int(54), ld(ir.Int16, "stat", ir.ModE(add(tx, ir.Int(1)), ir.Int(64)))),
		&ir.AssertStmt{Cond: ir.LTE(i, iv("n")), Message: "i < n"},
		&ir.Evaluate{X: ld(ir.Int32, "in_i32", i)},
	)
	args = append(args, scalar("n", ir.Int32))
	body := letS("i", add(ir.MulE(bx, ir.Int(64)), tx), forS(ir.Vectorized, "inner", ir.Int(0), ir.Int(1), stmts...))
	body = alloc("dyn_b", ir.UInt8, ir.GPUShared, body, iv("n"))
	body = alloc("dyn_a", ir.Float64, ir.GPUShared, body, ir.AddE(iv("n"), ir.Int(1)))
	body = alloc("stat", ir.Int16, ir.GPUShared, ir.MakeBlock(st("stat", tx, ir.IntConst(ir.Int16, 1)), body), ir.Int(64))
	return &ir.Kernel{Name: "ops", Block: [3]ir.Expr{ir.Int(64), ir.Int(1), ir.Int(1)}, Args: args, Body: body}
}

func math32Inf() float64 { return math.Inf(1) }
func negInf() float64    { return math.Inf(-1) }

var goldenKernels = []struct {
	file    string
	kernels func() []*ir.Kernel
}{
	{"elementwise.cu", func() []*ir.Kernel { return []*ir.Kernel{brightenKernel()} }},
	{"stencil_shared.cu", func() []*ir.Kernel { return []*ir.Kernel{blurKernel()} }},
	{"scatter_atomic.cu", func() []*ir.Kernel { return []*ir.Kernel{histogramKernel()} }},
	{"register_unrolled.cu", func() []*ir.Kernel { return []*ir.Kernel{matmulKernel()} }},
	{"ops.cu", func() []*ir.Kernel { return []*ir.Kernel{opsKernel()} }},
}

func TestCUDAGolden(t *testing.T) {
	for _, g := range goldenKernels {
		t.Run(g.file, func(t *testing.T) {
			src, err := CUDASource(g.kernels()...)
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", g.file)
			if *update {
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
	for _, g := range goldenKernels {
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
	info, err := CUDAInfo(blurKernel())
	if err != nil {
		t.Fatal(err)
	}
	// 18 x 18 float32 = 1296 bytes.
	if info.StaticSharedBytes != 1296 || info.DynamicSharedBytes != nil || info.Threads != 256 {
		t.Errorf("blur: %+v, want 1296 static bytes, no dynamic, 256 threads", info)
	}
	info, err = CUDAInfo(opsKernel())
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
		if got := cIdent(in); got != want {
			t.Errorf("cIdent(%q) = %q, want %q", in, got, want)
		}
	}
	// Two IR names that map to one identifier stay distinct.
	k := &ir.Kernel{
		Name:  "k",
		Block: [3]ir.Expr{ir.Int(32), ir.Int(1), ir.Int(1)},
		Args:  []ir.KernelArg{buffer("out", ir.Int32, true), scalar("a.b", ir.Int32), scalar("a$b", ir.Int32)},
		Body:  st("out", tx, ir.AddE(iv("a.b"), iv("a$b"))),
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
			Args:  []ir.KernelArg{buffer("out", ir.Float32, true), buffer("in", ir.Float32, false), scalar("n", ir.Int32)},
			Body:  body,
		}
	}
	cases := []struct {
		name string
		body ir.Stmt
		want string
	}{
		{"provide", &ir.Provide{Func: "f", Value: f32(1), Args: []ir.Expr{tx}}, "Provide to f"},
		{"realize", &ir.Realize{Func: "f", T: ir.Float32, Body: st("out", tx, f32(0))}, "Realize of f"},
		{"intrinsic", st("out", tx, call(ir.Float32, "tanh", f32(1))), "unknown intrinsic tanh"},
		{"func call", st("out", tx, &ir.Call{T: ir.Float32, Kind: ir.CallFunc, Name: "g", Args: []ir.Expr{tx}}), "call to Func g"},
		{"unbound", st("out", tx, cast(ir.Float32, iv("y"))), "variable y is not bound"},
		{"gpu loop", forS(ir.GPUThread, "t", ir.Int(0), ir.Int(4), st("out", iv("t"), f32(0))), "GPU loops"},
		{"shared in loop", forS(ir.Serial, "r", ir.Int(0), ir.Int(4), alloc("s", ir.Float32, ir.GPUShared, st("s", iv("r"), f32(0)), ir.Int(4))), "inside loop r"},
		{"dynamic local", alloc("s", ir.Float32, ir.Register, st("s", tx, f32(0)), iv("n")), "non-constant extent"},
		{"read-only store", st("in", tx, f32(0)), "not marked Written"},
		{"unknown buffer", st("nowhere", tx, f32(0)), "buffer nowhere"},
		{"shared size", alloc("s", ir.Float32, ir.GPUShared, st("s", tx, f32(0)), tx), "depends on thread_id_x"},
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

// harnessBuf is one buffer argument of a launch: its initial contents and
// the contents expected after the launch (nil: not checked).
type harnessBuf struct {
	t          ir.Type
	init, want any // Go slices of the element type
}

type harnessCase struct {
	name         string
	buf          string
	start, count int
	approx       bool // may differ by one ulp
}

type harnessLaunch struct {
	kernel      *ir.Kernel
	grid, block [3]int
	scalars     map[string]any
	bufs        map[string]*harnessBuf
	cases       []harnessCase
}

func goSlice(t ir.Type, n int) any {
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

func cloneSlice(s any) any {
	v := reflect.ValueOf(s)
	c := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
	reflect.Copy(c, v)
	return c.Interface()
}

// setSlice stores the float64 or int64 value v at s[i], converted to the
// element type.
func setSlice(s any, i int, v any) {
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

// specialValues are 16 values of t that exercise its edge cases.
func specialValues(t ir.Type) []any {
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

var allTypes = []ir.Type{ir.Int8, ir.Int16, ir.Int32, ir.Int64, ir.UInt8, ir.UInt16, ir.UInt32, ir.UInt64, ir.Float32, ir.Float64, ir.Bool}

// semanticsLaunch builds a kernel that applies every operator, cast and
// intrinsic to all 256 pairs of special values of each type, plus atomics
// that all threads apply to one element.
func semanticsLaunch(t *testing.T) *harnessLaunch {
	const n = 256
	i := tx
	l := &harnessLaunch{grid: [3]int{1, 1, 1}, block: [3]int{n, 1, 1}, bufs: map[string]*harnessBuf{}}
	var stmts []ir.Stmt
	nCases := map[ir.Type]int{}
	var args []ir.KernelArg
	addCase := func(name string, u ir.Type, x ir.Expr, approx bool) {
		out := "out_" + typeSuffix(u)
		c := nCases[u]
		nCases[u]++
		stmts = append(stmts, st(out, add(ir.Int(int64(c*n)), i), x))
		l.cases = append(l.cases, harnessCase{name: name, buf: out, start: c * n, count: n, approx: approx})
	}
	for _, ty := range allTypes {
		sfx := typeSuffix(ty)
		ina, inb := "a_"+sfx, "b_"+sfx
		args = append(args, buffer(ina, ty, false), buffer(inb, ty, false))
		av, bv := goSlice(ty, n), goSlice(ty, n)
		vals := specialValues(ty)
		for k := 0; k < n; k++ {
			setSlice(av, k, vals[k/16])
			setSlice(bv, k, vals[k%16])
		}
		l.bufs[ina] = &harnessBuf{t: ty, init: av}
		l.bufs[inb] = &harnessBuf{t: ty, init: bv}
		a, b := ld(ty, ina, i), ld(ty, inb, i)
		for _, op := range []ir.BinOp{ir.Add, ir.Sub, ir.Mul, ir.Div, ir.Mod, ir.Min, ir.Max} {
			if ty.IsBool() && op != ir.Min && op != ir.Max {
				continue
			}
			addCase(sfx+" "+binOpWord[op], ty, ir.Bin(op, a, b), false)
		}
		for _, op := range []ir.BinOp{ir.EQ, ir.NE, ir.LT, ir.LE, ir.GT, ir.GE} {
			addCase(sfx+" "+op.String(), ir.Bool, ir.Bin(op, a, b), false)
		}
		for _, u := range allTypes {
			if u != ty {
				addCase(sfx+" to "+typeSuffix(u), u, cast(u, a), false)
			}
		}
		addCase(sfx+" select", ty, &ir.Select{Cond: ir.Bin(ir.LT, a, b), True: a, False: b}, false)
		if ty.IsBool() {
			addCase("bool and", ir.Bool, ir.AndE(a, b), false)
			addCase("bool or", ir.Bool, ir.Bin(ir.Or, a, b), false)
			addCase("bool not", ir.Bool, &ir.Not{X: a}, false)
			continue
		}
		for _, k := range []int64{8, -3, 0, 3} {
			c := ir.IntConst(ty, k)
			addCase(fmt.Sprintf("%s add %d", sfx, k), ty, ir.Bin(ir.Add, a, c), false)
			addCase(fmt.Sprintf("%s sub %d", sfx, k), ty, ir.Bin(ir.Sub, a, c), false)
			addCase(fmt.Sprintf("%s mul %d", sfx, k), ty, ir.Bin(ir.Mul, a, c), false)
			addCase(fmt.Sprintf("%s div %d", sfx, k), ty, ir.Bin(ir.Div, a, c), false)
			addCase(fmt.Sprintf("%s mod %d", sfx, k), ty, ir.Bin(ir.Mod, a, c), false)
		}
		addCase(sfx+" abs", ty, call(ty, ir.IntrinsicAbs, a), false)
		addCase(sfx+" promise_clamped", ty, call(ty, ir.IntrinsicPromiseClamped, a, ir.IntConst(ty, 1), ir.IntConst(ty, 100)), false)
		for _, name := range []string{ir.IntrinsicSqrt, ir.IntrinsicExp, ir.IntrinsicLog, ir.IntrinsicFloor, ir.IntrinsicCeil, ir.IntrinsicRound} {
			approx := name == ir.IntrinsicExp || name == ir.IntrinsicLog
			if ty.IsFloat() {
				addCase(sfx+" "+name, ty, call(ty, name, a), approx)
			} else {
				addCase(sfx+" "+name+" to f32", ir.Float32, call(ir.Float32, name, a), approx)
				addCase(sfx+" "+name+" to i32", ir.Int32, call(ir.Int32, name, a), approx)
			}
		}
		if ty.IsFloat() {
			addCase(sfx+" pow", ty, call(ty, ir.IntrinsicPow, a, b), true)
			addCase(sfx+" mul-add", ty, ir.AddE(ir.MulE(a, b), a), false)
			addCase(sfx+" let in select", ty, &ir.Select{Cond: ir.Bin(ir.LT, a, b),
				True:  &ir.Let{Name: "t", Value: ir.MulE(a, b), Body: ir.SubE(ir.MulE(tv(ty, "t"), a), tv(ty, "t"))},
				False: b}, false)
		}
	}
	// Atomics: every thread updates element k of atomic_T.
	for _, ty := range allTypes {
		if ty.IsBool() {
			continue
		}
		sfx := typeSuffix(ty)
		name := "atomic_" + sfx
		ops := []ir.BinOp{ir.Add, ir.Sub, ir.Mul, ir.Min, ir.Max}
		if ty.IsFloat() {
			ops = []ir.BinOp{ir.Min, ir.Max} // the others depend on the order
		}
		init := goSlice(ty, len(ops)+1)
		for k := range len(ops) + 1 {
			setSlice(init, k, int64(1))
		}
		args = append(args, buffer(name, ty, true))
		l.bufs[name] = &harnessBuf{t: ty, init: init}
		a := ld(ty, "a_"+sfx, i)
		for k, op := range ops {
			cell := ir.Int(int64(k))
			stmts = append(stmts, atomicSt(name, cell, ir.Bin(op, ld(ty, name, cell), a)))
			l.cases = append(l.cases, harnessCase{name: "atomic " + sfx + " " + binOpWord[op], buf: name, start: k, count: 1})
		}
		// An inline compare-and-swap loop: keep the largest non-NaN value.
		cell := ir.Int(int64(len(ops)))
		old := ld(ty, name, cell)
		stmts = append(stmts, atomicSt(name, cell, &ir.Select{Cond: ir.Bin(ir.GT, a, old), True: a, False: old}))
		l.cases = append(l.cases, harnessCase{name: "atomic " + sfx + " select", buf: name, start: len(ops), count: 1})
	}
	for _, u := range allTypes {
		out := "out_" + typeSuffix(u)
		args = append(args, buffer(out, u, true))
		l.bufs[out] = &harnessBuf{t: u, init: goSlice(u, nCases[u]*n)}
	}
	l.kernel = &ir.Kernel{
		Name:  "semantics",
		Grid:  [3]ir.Expr{ir.Int(1), ir.Int(1), ir.Int(1)},
		Block: [3]ir.Expr{ir.Int(n), ir.Int(1), ir.Int(1)},
		Args:  args,
		Body:  ir.MakeBlock(stmts...),
	}
	runOnCPU(t, l)
	return l
}

// runOnCPU computes the expected outputs of a kernel without barriers by
// running its body on the CPU executor for every block and thread.
func runOnCPU(t *testing.T, l *harnessLaunch) {
	body := l.kernel.Body
	for d := 2; d >= 0; d-- {
		body = forS(ir.Serial, ir.ThreadID[d], ir.Int(0), ir.Int(int64(l.block[d])), body)
	}
	for d := 2; d >= 0; d-- {
		body = forS(ir.Serial, ir.BlockID[d], ir.Int(0), ir.Int(int64(l.grid[d])), body)
	}
	p, err := cpu.Compile(body)
	if err != nil {
		t.Fatalf("cpu.Compile(%s): %v", l.kernel.Name, err)
	}
	bufs := map[string]any{}
	for name, b := range l.bufs {
		b.want = cloneSlice(b.init)
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
				l.cases = append(l.cases, harnessCase{name: l.kernel.Name + " " + a.Name, buf: a.Name, count: n})
			}
		}
	}
}

func randomFloats(n int, seed uint64, scale float32) []float32 {
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

func goldenLaunches(t *testing.T) []*harnessLaunch {
	var out []*harnessLaunch
	// brighten: 1000 pixels, a partial last block.
	{
		const w = 1000
		l := &harnessLaunch{kernel: brightenKernel(), grid: [3]int{(w + 255) / 256, 1, 1}, block: [3]int{256, 1, 1},
			scalars: map[string]any{"input.min.0": 0, "brighten.min.0": 0, "brighten.extent.0": w, "gain": float32(1.7), "bias": float32(0.3)},
			bufs: map[string]*harnessBuf{
				"input":    {t: ir.Float32, init: randomFloats(w, 1, 1)},
				"brighten": {t: ir.UInt8, init: make([]uint8, w)},
			}}
		runOnCPU(t, l)
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
		l := &harnessLaunch{kernel: histogramKernel(), grid: [3]int{(w + 127) / 128, 1, 1}, block: [3]int{128, 1, 1},
			scalars: map[string]any{"input.extent.0": w},
			bufs: map[string]*harnessBuf{
				"input": {t: ir.UInt8, init: in}, "weights": {t: ir.Float32, init: weights},
				"hist": {t: ir.Int32, init: make([]int32, 16)}, "hist_sum": {t: ir.Float32, init: make([]float32, 16)},
				"hist_max": {t: ir.Float32, init: make([]float32, 16)},
			}}
		runOnCPU(t, l)
		out = append(out, l)
	}
	// matmul: 70 x 50 times 50 x 90; the products and sums are rounded
	// one by one, so the GPU must not fuse them into FMAs.
	{
		const M, N, K = 70, 90, 50
		l := &harnessLaunch{kernel: matmulKernel(), grid: [3]int{(N + 15) / 16, (M + 63) / 64, 1}, block: [3]int{16, 16, 1},
			scalars: map[string]any{"M": M, "N": N, "K": K},
			bufs: map[string]*harnessBuf{
				"A": {t: ir.Float32, init: randomFloats(M*K, 2, 1.3)}, "B": {t: ir.Float32, init: randomFloats(K*N, 3, 0.7)},
				"C": {t: ir.Float32, init: make([]float32, M*N)},
			}}
		runOnCPU(t, l)
		out = append(out, l)
	}
	// blur: the CPU executor does not run barriers; a plain-Go reference.
	{
		const W, H = 100, 37
		in := randomFloats(W*H, 4, 10)
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
		l := &harnessLaunch{kernel: blurKernel(), grid: [3]int{(W + 15) / 16, (H + 15) / 16, 1}, block: [3]int{16, 16, 1},
			scalars: map[string]any{"input.min.0": 0, "input.min.1": 0, "input.extent.0": W, "input.extent.1": H, "input.stride.1": W,
				"blur.min.0": 0, "blur.min.1": 0, "blur.extent.0": W, "blur.extent.1": H, "blur.stride.1": W},
			bufs: map[string]*harnessBuf{
				"input": {t: ir.Float32, init: in},
				"blur":  {t: ir.Float32, init: make([]float32, W*H), want: want},
			},
			cases: []harnessCase{{name: "blur", buf: "blur", count: W * H}}}
		out = append(out, l)
	}
	return out
}

func sliceBytes(t *testing.T, s any) []byte {
	var b bytes.Buffer
	if err := binary.Write(&b, binary.LittleEndian, s); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func cArray(b *strings.Builder, name string, data []byte) {
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

// harnessSource writes the harness translation unit.
func harnessSource(t *testing.T, launches []*harnessLaunch) string {
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
// ---- host side of the differential harness (generated by gpu/cuda_test.go)

#define CHECK(x) do { cudaError_t err_ = (x); if (err_ != cudaSuccess) { \
    printf("CUDA error %s at %s:%d: %s\n", cudaGetErrorName(err_), __FILE__, __LINE__, cudaGetErrorString(err_)); return 2; } } while (0)

static int failures = 0, checked = 0, ulp_ok = 0;

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
        } else if (kind == 2) {
            double gf, wf;
            memcpy(&gf, g, 8); memcpy(&wf, w, 8);
            if (gf != gf && wf != wf) continue;
            if (approx && (gi - wi == 1 || wi - gi == 1)) { ulp_ok++; continue; }
        }
        if (bad < 4) {
            printf("MISMATCH %s [%d] (pair %d, %d): got 0x%llx want 0x%llx\n", name, i - start, (i - start) / 16, (i - start) % 16,
                   (unsigned long long)gi, (unsigned long long)wi);
        }
        bad++;
    }
    if (bad) { failures++; printf("FAIL %s: %d of %d values differ\n", name, bad, count); }
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
				v, _ := l.scalars[a.Name]
				fmt.Fprintf(&m, "        %s s%d = (%s)%v;\n", cType(a.T), ai, cType(a.T), v)
				params = append(params, fmt.Sprintf("s%d", ai))
				continue
			}
			hb := l.bufs[a.Name]
			init := sliceBytes(t, hb.init)
			arr := fmt.Sprintf("l%d_%s_init", li, cIdent(a.Name))
			cArray(&data, arr, init)
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
				want := sliceBytes(t, hb.want)
				arr := fmt.Sprintf("l%d_%s_want", li, cIdent(a.Name))
				cArray(&data, arr, want)
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
	fmt.Fprintf(&m, `    printf("harness: %d cases, %%d values, %%d values within 1 ulp (exp, log, pow), %%d cases differ\n", checked, ulp_ok, failures);
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
	launches := append([]*harnessLaunch{semanticsLaunch(t)}, goldenLaunches(t)...)
	src := harnessSource(t, launches)
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
	}
}
