package cpu

import (
	"errors"
	"math"
	"strings"
	"sync"
	"testing"

	"github.com/gohalide/gohalide/ir"
)

// out[y*stride + x] = in[y*stride + x] * 2 + float(x - y) for a W x H nest.
func nest2D() ir.Stmt {
	x, y := v32("out.s0.x"), v32("out.s0.y")
	stride := v32("out.stride.1")
	idx := ir.AddE(ir.MulE(y, stride), x)
	val := ir.AddE(ir.MulE(load(ir.Float32, "in", idx), ir.Const(ir.Float32, 2)),
		&ir.Cast{T: ir.Float32, X: ir.SubE(x, y)})
	return &ir.ProducerConsumer{Func: "out", Producer: true, Body: loop("out.s0.y", ir.Int(0), v32("H"),
		loop("out.s0.x", ir.Int(0), v32("W"), store("out", idx, val)))}
}

func TestLoopNest2D(t *testing.T) {
	p := mustCompile(t, nest2D())
	wantParams := []Param{{"H", ir.Int32}, {"W", ir.Int32}, {"out.stride.1", ir.Int32}}
	if got := p.Params(); len(got) != len(wantParams) || got[0] != wantParams[0] || got[1] != wantParams[1] || got[2] != wantParams[2] {
		t.Errorf("Params() = %v, want %v", got, wantParams)
	}
	wantBufs := []BufferArg{{"in", ir.Float32}, {"out", ir.Float32}}
	if got := p.Buffers(); len(got) != 2 || got[0] != wantBufs[0] || got[1] != wantBufs[1] {
		t.Errorf("Buffers() = %v, want %v", got, wantBufs)
	}
	const W, H, S = 37, 23, 40
	in := make([]float32, S*H)
	for i := range in {
		in[i] = float32(i)*0.25 - 17
	}
	out := make([]float32, S*H)
	mustRun(t, p, map[string]any{"W": W, "H": int64(H), "out.stride.1": uint8(S)}, map[string]any{"in": in, "out": out})
	for y := 0; y < H; y++ {
		for x := 0; x < S; x++ {
			want := float32(0)
			if x < W {
				want = in[y*S+x]*2 + float32(x-y)
			}
			if got := out[y*S+x]; got != want {
				t.Fatalf("out[%d,%d] = %v, want %v", x, y, got, want)
			}
		}
	}
}

func TestSelectIsLazy(t *testing.T) {
	i := v32("i")
	n := v32("n")
	// out[i] = i < n ? in[i] : in[i + 1000]; the false arm is out of bounds.
	s := loop("i", ir.Int(0), n, store("out", i, &ir.Select{
		Cond:  ir.LTE(i, n),
		True:  load(ir.Int32, "in", i),
		False: load(ir.Int32, "in", ir.AddE(i, ir.Int(1000))),
	}))
	p := mustCompile(t, s)
	in := []int32{5, 6, 7, 8}
	out := make([]int32, 4)
	mustRun(t, p, map[string]any{"n": 4}, map[string]any{"in": in, "out": out})
	for k := range in {
		if out[k] != in[k] {
			t.Fatalf("out = %v, want %v", out, in)
		}
	}
	// And/Or short-circuit too.
	s2 := loop("i", ir.Int(0), n, store("b", i, ir.AndE(ir.LTE(i, ir.Int(2)),
		ir.Bin(ir.EQ, load(ir.Int32, "in", ir.AddE(i, ir.Int(2))), ir.Int(7)))))
	b := make([]bool, 4)
	mustRun(t, mustCompile(t, s2), map[string]any{"n": 4}, map[string]any{"in": in, "b": b})
	if want := []bool{true, false, false, false}; b[0] != want[0] || b[1] || b[2] || b[3] {
		t.Fatalf("b = %v, want %v", b, want)
	}
}

func TestAllocateInLoop(t *testing.T) {
	const W, H = 16, 9
	x, y := v32("x"), v32("y")
	// for y: allocate tmp[W]; for x: tmp[x] = in[y*W+x]*3
	//        for x: out[y*W+x] = tmp[x] + tmp[W-1-x]
	body := &ir.Allocate{Name: "tmp", T: ir.Int32, Memory: ir.Heap, Extents: []ir.Expr{ir.Int(W)},
		Body: ir.MakeBlock(
			loop("x", ir.Int(0), ir.Int(W), store("tmp", x, ir.MulE(load(ir.Int32, "in", ir.AddE(ir.MulE(y, ir.Int(W)), x)), ir.Int(3)))),
			loop("x", ir.Int(0), ir.Int(W), store("out", ir.AddE(ir.MulE(y, ir.Int(W)), x),
				ir.AddE(load(ir.Int32, "tmp", x), load(ir.Int32, "tmp", ir.SubE(ir.Int(W-1), x))))),
		)}
	for _, kind := range []ir.ForKind{ir.Serial, ir.Parallel} {
		p := mustCompile(t, kloop(kind, "y", ir.Int(0), ir.Int(H), body))
		if len(p.Buffers()) != 2 {
			t.Fatalf("Buffers() = %v, want in and out only", p.Buffers())
		}
		in := make([]int32, W*H)
		for i := range in {
			in[i] = int32(i*7 - 50)
		}
		out := make([]int32, W*H)
		mustRun(t, p, nil, map[string]any{"in": in, "out": out})
		for yy := 0; yy < H; yy++ {
			for xx := 0; xx < W; xx++ {
				want := in[yy*W+xx]*3 + in[yy*W+W-1-xx]*3
				if got := out[yy*W+xx]; got != want {
					t.Fatalf("%v: out[%d,%d] = %d, want %d", kind, xx, yy, got, want)
				}
			}
		}
	}
}

func TestParallelAtomicScatter(t *testing.T) {
	const N, B = 100000, 7
	i := v32("i")
	bin := ir.ModE(load(ir.Int32, "in", i), ir.Int(B))
	// parallel for i: hist[in[i] % B] = hist[in[i] % B] + in[i] (atomic)
	s := kloop(ir.Parallel, "i", ir.Int(0), ir.Int(N), &ir.LetStmt{Name: "b", Value: bin,
		Body: &ir.Store{Buf: "hist", Index: v32("b"), Atomic: true,
			Value: ir.AddE(load(ir.Int64, "hist", v32("b")), &ir.Cast{T: ir.Int64, X: load(ir.Int32, "in", i)})}})
	p := mustCompile(t, s)
	in := make([]int32, N)
	for k := range in {
		in[k] = int32(k*2654435761%1000 - 500)
	}
	want := make([]int64, B)
	for _, v := range in {
		want[ir.EuclidMod(int64(v), B)] += int64(v)
	}
	for rep := 0; rep < 3; rep++ {
		hist := make([]int64, B)
		mustRun(t, p, nil, map[string]any{"in": in, "hist": hist})
		for k := range want {
			if hist[k] != want[k] {
				t.Fatalf("hist = %v, want %v", hist, want)
			}
		}
	}
}

func TestParallelNestedAndAllocate(t *testing.T) {
	// parallel y { allocate tmp[W]; parallel x { tmp[x] = x*y }; for x { out[y*W+x] = tmp[x] } }
	const W, H = 50, 40
	x, y := v32("x"), v32("y")
	s := kloop(ir.Parallel, "y", ir.Int(0), ir.Int(H), &ir.Allocate{Name: "tmp", T: ir.Int32, Extents: []ir.Expr{ir.Int(W)},
		Body: ir.MakeBlock(
			kloop(ir.Parallel, "x", ir.Int(0), ir.Int(W), store("tmp", x, ir.MulE(x, y))),
			loop("x", ir.Int(0), ir.Int(W), store("out", ir.AddE(ir.MulE(y, ir.Int(W)), x), load(ir.Int32, "tmp", x))),
		)})
	p := mustCompile(t, s)
	out := make([]int32, W*H)
	mustRun(t, p, nil, map[string]any{"out": out})
	for k, v := range out {
		if want := int32((k % W) * (k / W)); v != want {
			t.Fatalf("out[%d] = %d, want %d", k, v, want)
		}
	}
}

func TestConcurrentRuns(t *testing.T) {
	p := mustCompile(t, nest2D())
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			const W, H = 20, 10
			in := make([]float32, W*H)
			for i := range in {
				in[i] = float32(i + g)
			}
			out := make([]float32, W*H)
			if err := p.Run(map[string]any{"W": W, "H": H, "out.stride.1": W}, map[string]any{"in": in, "out": out}); err != nil {
				t.Error(err)
				return
			}
			for i := range out {
				if want := in[i]*2 + float32(i%W-i/W); out[i] != want {
					t.Errorf("goroutine %d: out[%d] = %v, want %v", g, i, out[i], want)
					return
				}
			}
		}()
	}
	wg.Wait()
}

func TestLetAndShadowing(t *testing.T) {
	// let a = 5 in (for a in [10, 13): out[a-10] = let a = a*2 in a + 1) ; out[3] = a
	a := v32("a")
	s := &ir.LetStmt{Name: "a", Value: ir.Int(5), Body: ir.MakeBlock(
		loop("a", ir.Int(10), ir.Int(3), store("out", ir.SubE(a, ir.Int(10)),
			&ir.Let{Name: "a", Value: ir.MulE(a, ir.Int(2)), Body: ir.AddE(a, ir.Int(1))})),
		store("out", ir.Int(3), a),
		&ir.IfThenElse{Cond: ir.LTE(a, ir.Int(5)), Then: store("out", ir.Int(4), ir.Int(1)), Else: store("out", ir.Int(4), ir.Int(2))},
		&ir.IfThenElse{Cond: ir.LTE(a, ir.Int(6)), Then: store("out", ir.Int(5), ir.Int(3))},
		&ir.Evaluate{X: ir.Int(0)},
	)}
	p := mustCompile(t, s)
	if len(p.Params()) != 0 {
		t.Fatalf("Params() = %v, want none", p.Params())
	}
	out := make([]int32, 6)
	mustRun(t, p, nil, map[string]any{"out": out})
	want := []int32{21, 23, 25, 5, 2, 3}
	for k := range want {
		if out[k] != want[k] {
			t.Fatalf("out = %v, want %v", out, want)
		}
	}
}

func TestIntrinsics(t *testing.T) {
	i := v32("i")
	x := load(ir.Float32, "in", i)
	call := func(name string, tt ir.Type, args ...ir.Expr) ir.Expr {
		return &ir.Call{T: tt, Kind: ir.CallIntrinsic, Name: name, Args: args}
	}
	exprs := []ir.Expr{
		call(ir.IntrinsicAbs, ir.Float32, x),
		call(ir.IntrinsicSqrt, ir.Float32, call(ir.IntrinsicAbs, ir.Float32, x)),
		call(ir.IntrinsicExp, ir.Float32, x),
		call(ir.IntrinsicLog, ir.Float32, call(ir.IntrinsicAbs, ir.Float32, x)),
		call(ir.IntrinsicPow, ir.Float32, call(ir.IntrinsicAbs, ir.Float32, x), ir.Const(ir.Float32, 1.5)),
		call(ir.IntrinsicFloor, ir.Float32, x),
		call(ir.IntrinsicCeil, ir.Float32, x),
		call(ir.IntrinsicRound, ir.Float32, x),
		call(ir.IntrinsicPromiseClamped, ir.Float32, x, ir.Const(ir.Float32, -1), ir.Const(ir.Float32, 1)),
		call(ir.IntrinsicUnsafePromiseClamped, ir.Float32, x, ir.Const(ir.Float32, -1), ir.Const(ir.Float32, 1)),
		call(ir.IntrinsicLikely, ir.Float32, x),
	}
	in := []float32{-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 3.7, -3.7, 0}
	refs := []func(float64) float64{
		func(v float64) float64 { return abs(v) },
		func(v float64) float64 { return sqrt(abs(v)) },
		exp, func(v float64) float64 { return log(abs(v)) },
		func(v float64) float64 { return pow(abs(v), 1.5) },
		floor, ceil, roundEven,
		func(v float64) float64 { return max(-1, min(v, 1)) },
		func(v float64) float64 { return v },
		func(v float64) float64 { return v },
	}
	for k, e := range exprs {
		p := mustCompile(t, loop("i", ir.Int(0), ir.Int(int64(len(in))), store("out", i, e)))
		out := make([]float32, len(in))
		mustRun(t, p, nil, map[string]any{"in": in, "out": out})
		for j, v := range in {
			if want := float32(refs[k](float64(v))); out[j] != want {
				t.Errorf("%s at %v = %v, want %v", ir.ExprString(e), v, out[j], want)
			}
		}
	}
	// Integer abs and clamp.
	xi := load(ir.Int8, "a", i)
	ints := []int8{-128, -5, 0, 7, 127}
	p := mustCompile(t, ir.MakeBlock(
		loop("i", ir.Int(0), ir.Int(int64(len(ints))), store("u", i, call(ir.IntrinsicAbs, ir.UInt8, xi))),
		loop("i", ir.Int(0), ir.Int(int64(len(ints))), store("c", i, call(ir.IntrinsicPromiseClamped, ir.Int8, xi, ir.IntConst(ir.Int8, -3), ir.IntConst(ir.Int8, 3)))),
	))
	u := make([]uint8, len(ints))
	cl := make([]int8, len(ints))
	mustRun(t, p, nil, map[string]any{"a": ints, "u": u, "c": cl})
	if want := []uint8{128, 5, 0, 7, 127}; string(u) != string(want) {
		t.Errorf("abs = %v, want %v", u, want)
	}
	if want := []int8{-3, -3, 0, 3, 3}; cl[0] != want[0] || cl[1] != want[1] || cl[2] != want[2] || cl[3] != want[3] || cl[4] != want[4] {
		t.Errorf("clamp = %v, want %v", cl, want)
	}
}

func TestErrors(t *testing.T) {
	i := v32("i")
	n := v32("n")
	t.Run("load out of bounds", func(t *testing.T) {
		p := mustCompile(t, loop("i", ir.Int(0), n, store("out", i, load(ir.Float32, "f", ir.AddE(i, ir.Int(120))))))
		err := p.Run(map[string]any{"n": 20}, map[string]any{"f": make([]float32, 128), "out": make([]float32, 20)})
		var e *Error
		if !errors.As(err, &e) || e.Kind != OutOfBounds || e.Buffer != "f" || e.Index != 128 || e.Size != 128 {
			t.Fatalf("err = %#v", err)
		}
		if want := "load of f at index 128 is out of bounds [0, 128)"; err.Error() != want {
			t.Errorf("message %q, want %q", err.Error(), want)
		}
	})
	t.Run("store out of bounds", func(t *testing.T) {
		p := mustCompile(t, loop("i", ir.Int(0), n, store("out", i, ir.AddE(i, ir.Int(100)))))
		backing := make([]int32, 20)
		for k := range backing {
			backing[k] = -7
		}
		out := backing[:10]
		err := p.Run(map[string]any{"n": 15}, map[string]any{"out": out})
		var e *Error
		if !errors.As(err, &e) || e.Kind != OutOfBounds || e.Buffer != "out" || e.Index != 10 || e.Size != 10 {
			t.Fatalf("err = %v", err)
		}
		if !strings.Contains(err.Error(), "store to out at index 10 is out of bounds [0, 10)") {
			t.Errorf("message %q", err.Error())
		}
		for k := range backing {
			want := int32(-7)
			if k < 10 {
				want = int32(k + 100)
			}
			if backing[k] != want {
				t.Fatalf("backing[%d] = %d, want %d", k, backing[k], want)
			}
		}
		// Negative index.
		p = mustCompile(t, store("out", ir.Int(-1), ir.Int(3)))
		if err := p.Run(nil, map[string]any{"out": out}); !errors.As(err, &e) || e.Kind != OutOfBounds || e.Index != -1 {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("parallel out of bounds", func(t *testing.T) {
		p := mustCompile(t, kloop(ir.Parallel, "i", ir.Int(0), n, store("out", i, load(ir.Int32, "in", i))))
		err := p.Run(map[string]any{"n": 1000}, map[string]any{"in": make([]int32, 500), "out": make([]int32, 1000)})
		var e *Error
		if !errors.As(err, &e) || e.Kind != OutOfBounds || e.Buffer != "in" {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("assert", func(t *testing.T) {
		p := mustCompile(t, &ir.AssertStmt{Cond: ir.LEE(n, ir.Int(10)), Message: "n is too large:", Args: []ir.Expr{n, ir.Int(10)}})
		if err := p.Run(map[string]any{"n": 3}, nil); err != nil {
			t.Fatal(err)
		}
		err := p.Run(map[string]any{"n": 30}, nil)
		var e *Error
		if !errors.As(err, &e) || e.Kind != AssertFailed {
			t.Fatalf("err = %v", err)
		}
		if want := "assertion failed: n is too large: 30 10"; err.Error() != want {
			t.Errorf("message %q, want %q", err.Error(), want)
		}
	})
	t.Run("assert with a typed error", func(t *testing.T) {
		// Error.Msg, when set, is a format for the values of Args; the
		// user's error comes back through Unwrap.
		p := mustCompile(t, &ir.AssertStmt{Cond: ir.LEE(n, ir.Int(10)), Message: "n is too large:", Args: []ir.Expr{n, ir.Int(10)},
			Error: &ir.Error{Code: ir.ErrOutOfBounds, Func: "f", Msg: "n is %s, past %s"}})
		err := p.Run(map[string]any{"n": 30}, nil)
		var ue *ir.Error
		if !errors.As(err, &ue) || ue.Code != ir.ErrOutOfBounds || ue.Msg != "n is 30, past 10" {
			t.Fatalf("err = %v, want an out_of_bounds error with the message \"n is 30, past 10\"", err)
		}
	})
	t.Run("missing and mistyped", func(t *testing.T) {
		p := mustCompile(t, loop("i", ir.Int(0), n, store("out", i, ir.Const(ir.Float32, 1))))
		var e *Error
		if err := p.Run(map[string]any{"n": 3}, nil); !errors.As(err, &e) || e.Kind != MissingArg || e.Buffer != "out" {
			t.Errorf("missing buffer: err = %v", err)
		}
		if err := p.Run(nil, map[string]any{"out": make([]float32, 3)}); !errors.As(err, &e) || e.Kind != MissingArg || e.Buffer != "n" {
			t.Errorf("missing scalar: err = %v", err)
		}
		err := p.Run(map[string]any{"n": 3}, map[string]any{"out": make([]float64, 3)})
		if !errors.As(err, &e) || e.Kind != TypeMismatch || e.Buffer != "out" {
			t.Errorf("wrong slice type: err = %v", err)
		} else if !strings.Contains(err.Error(), "[]float64") || !strings.Contains(err.Error(), "[]float32") {
			t.Errorf("wrong slice type message: %q", err.Error())
		}
		if err := p.Run(map[string]any{"n": "3"}, map[string]any{"out": make([]float32, 3)}); !errors.As(err, &e) || e.Kind != TypeMismatch {
			t.Errorf("wrong scalar type: err = %v", err)
		}
	})
	t.Run("bad allocation", func(t *testing.T) {
		p := mustCompile(t, &ir.Allocate{Name: "tmp", T: ir.Float32, Extents: []ir.Expr{n, ir.Int(4)}, Body: store("tmp", ir.Int(0), ir.Const(ir.Float32, 1))})
		if err := p.Run(map[string]any{"n": 2}, nil); err != nil {
			t.Fatal(err)
		}
		var e *Error
		if err := p.Run(map[string]any{"n": -2}, nil); !errors.As(err, &e) || e.Kind != BadAllocation || e.Buffer != "tmp" {
			t.Errorf("negative: err = %v", err)
		}
		p = mustCompile(t, &ir.Allocate{Name: "tmp", T: ir.Float32, Extents: []ir.Expr{ir.IntConst(ir.Int64, 1<<40), ir.IntConst(ir.Int64, 1<<40)}, Body: nil})
		if err := p.Run(nil, nil); !errors.As(err, &e) || e.Kind != BadAllocation {
			t.Errorf("overflow: err = %v", err)
		}
	})
}

func TestCompileErrors(t *testing.T) {
	i := v32("i")
	cases := []struct {
		s    ir.Stmt
		want string
	}{
		{kloop(ir.GPUBlock, "f.s0.x.block", ir.Int(0), ir.Int(4), store("out", i, ir.Int(1))), "f.s0.x.block"},
		{kloop(ir.GPUThread, "f.s0.x.thread", ir.Int(0), ir.Int(4), store("out", i, ir.Int(1))), "GPU"},
		{&ir.Provide{Func: "f", Value: ir.Int(1), Args: []ir.Expr{ir.Int(0)}}, "statement is not lowered: found Provide to f"},
		{&ir.Realize{Func: "g", T: ir.Int32, Body: nil}, "statement is not lowered: found Realize of g"},
		{store("out", ir.Int(0), &ir.Call{T: ir.Int32, Kind: ir.CallFunc, Name: "h", Args: []ir.Expr{ir.Int(0)}}), "not lowered"},
		{store("out", ir.Int(0), &ir.Call{T: ir.Int32, Kind: ir.CallIntrinsic, Name: "frobnicate"}), "frobnicate"},
		{store("out", ir.Int(0), ir.AddE(ir.Int(1), ir.IntConst(ir.Int64, 1))), "types"},
		{ir.MakeBlock(store("out", ir.Int(0), ir.Int(1)), store("out", ir.Int(1), ir.Const(ir.Float32, 1))), "out"},
	}
	for _, c := range cases {
		_, err := Compile(c.s)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Compile(%s) error = %v, want one containing %q", ir.StmtString(c.s), err, c.want)
		}
	}
	_, err := Compile(cases[0].s)
	if !strings.Contains(err.Error(), "GPU target") || !strings.Contains(err.Error(), "emulator") {
		t.Errorf("GPU loop error %q should mention a GPU target and the emulator", err)
	}
}

func TestScalarConversion(t *testing.T) {
	// out = [p8, pu, pf, pb] for params of several types given Go values of other kinds.
	s := ir.MakeBlock(
		store("o8", ir.Int(0), &ir.Var{T: ir.Int8, Name: "p8"}),
		store("ou", ir.Int(0), &ir.Var{T: ir.UInt64, Name: "pu"}),
		store("of", ir.Int(0), &ir.Var{T: ir.Float32, Name: "pf"}),
		store("ob", ir.Int(0), &ir.Var{T: ir.Bool, Name: "pb"}),
	)
	p := mustCompile(t, s)
	o8, ou, of, ob := make([]int8, 1), make([]uint64, 1), make([]float32, 1), make([]bool, 1)
	mustRun(t, p, map[string]any{"p8": 300, "pu": uint64(1<<63 + 5), "pf": 0.1, "pb": true},
		map[string]any{"o8": o8, "ou": ou, "of": of, "ob": ob})
	if o8[0] != 44 || ou[0] != 1<<63+5 || of[0] != float32(0.1) || !ob[0] {
		t.Fatalf("got %v %v %v %v", o8, ou, of, ob)
	}
}

func TestMiscExprs(t *testing.T) {
	i := v32("i")
	fi := &ir.Cast{T: ir.Float64, X: i}
	// Lets binding every combination of int and float values and bodies,
	// Not, Or, float Select, bool buffers and atomic stores to an Allocate.
	s := ir.MakeBlock(
		loop("i", ir.Int(0), ir.Int(4), ir.MakeBlock(
			store("f", i, &ir.Let{Name: "u", Value: ir.MulE(fi, ir.Const(ir.Float64, 0.5)),
				Body: &ir.Let{Name: "k", Value: ir.AddE(i, ir.Int(1)),
					Body: &ir.Select{Cond: ir.LTE(i, ir.Int(2)),
						True:  ir.AddE(&ir.Var{T: ir.Float64, Name: "u"}, &ir.Cast{T: ir.Float64, X: v32("k")}),
						False: ir.Const(ir.Float64, -1)}}}),
			store("n", i, &ir.Let{Name: "u", Value: fi, Body: &ir.Cast{T: ir.Int32, X: ir.MulE(&ir.Var{T: ir.Float64, Name: "u"}, ir.Const(ir.Float64, 3))}}),
			store("bl", i, &ir.Not{X: ir.Bin(ir.Or, ir.Bin(ir.EQ, i, ir.Int(1)), load(ir.Bool, "bl", i))}),
			&ir.Evaluate{X: load(ir.Bool, "bl", i)},
		)),
		&ir.Allocate{Name: "acc", T: ir.UInt16, Extents: []ir.Expr{ir.Int(1)}, Body: ir.MakeBlock(
			kloop(ir.Parallel, "i", ir.Int(0), ir.Int(1000), &ir.Store{Buf: "acc", Index: ir.Int(0), Atomic: true,
				Value: ir.AddE(load(ir.UInt16, "acc", ir.Int(0)), ir.IntConst(ir.UInt16, 70))}),
			store("n", ir.Int(4), &ir.Cast{T: ir.Int32, X: load(ir.UInt16, "acc", ir.Int(0))}),
		)},
	)
	p := mustCompile(t, s)
	f := make([]float64, 4)
	n := make([]int32, 5)
	bl := []bool{false, false, true, false}
	mustRun(t, p, nil, map[string]any{"f": f, "n": n, "bl": bl})
	if want := []float64{1, 2.5, -1, -1}; f[0] != want[0] || f[1] != want[1] || f[2] != want[2] || f[3] != want[3] {
		t.Errorf("f = %v, want %v", f, want)
	}
	if want := []int32{0, 3, 6, 9, 70000 % 65536}; n[0] != want[0] || n[1] != want[1] || n[2] != want[2] || n[3] != want[3] || n[4] != want[4] {
		t.Errorf("n = %v, want %v", n, want)
	}
	if want := []bool{true, false, false, true}; bl[0] != want[0] || bl[1] != want[1] || bl[2] != want[2] || bl[3] != want[3] {
		t.Errorf("bl = %v, want %v", bl, want)
	}
}

func TestFloatToIntSaturation(t *testing.T) {
	in := []float64{1e30, -1e30, math.NaN(), 1.8e19, -0.9, 9.2e18}
	p := mustCompile(t, loop("i", ir.Int(0), ir.Int(6), ir.MakeBlock(
		store("s", v32("i"), &ir.Cast{T: ir.Int64, X: load(ir.Float64, "in", v32("i"))}),
		store("u", v32("i"), &ir.Cast{T: ir.UInt64, X: load(ir.Float64, "in", v32("i"))}),
	)))
	s, u := make([]int64, 6), make([]uint64, 6)
	mustRun(t, p, nil, map[string]any{"in": in, "s": s, "u": u})
	big := 9.2e18
	wantS := []int64{math.MaxInt64, math.MinInt64, 0, math.MaxInt64, 0, int64(big)}
	wantU := []uint64{math.MaxUint64, 0, 0, 18000000000000000000, 0, uint64(big)} // negative values saturate at 0
	for k := range in {
		if s[k] != wantS[k] || u[k] != wantU[k] {
			t.Errorf("cast of %v = %d / %d, want %d / %d", in[k], s[k], u[k], wantS[k], wantU[k])
		}
	}
}
