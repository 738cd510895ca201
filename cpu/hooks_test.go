package cpu

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/gohalide/gohalide/ir"
)

func TestCompileRejectsGPUConstructs(t *testing.T) {
	k := &ir.Kernel{Name: "blur_kernel", Body: &ir.Barrier{Reason: "r"}}
	for _, c := range []struct {
		s    ir.Stmt
		want []string
	}{
		{&ir.Launch{Kernel: k}, []string{"kernel blur_kernel", "GPU target", "emulator"}},
		{&ir.Barrier{Fence: ir.FenceShared, Reason: "tile loaded"}, []string{"tile loaded", "GPU target", "emulator"}},
	} {
		_, err := Compile(c.s)
		if err == nil {
			t.Errorf("Compile(%s) succeeded", ir.StmtString(c.s))
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("Compile(%s): error %q does not mention %q", ir.StmtString(c.s), err, w)
			}
		}
	}
	// Comments do nothing.
	p := mustCompile(t, ir.MakeBlock(&ir.Comment{Text: "hello"}, store("out", ir.Int(0), ir.Int(7))))
	out := []int32{0}
	mustRun(t, p, nil, map[string]any{"out": out})
	if out[0] != 7 {
		t.Errorf("out[0] = %d", out[0])
	}
}

type launchCall struct {
	ctx             any
	kernel          string
	grid, block     [3]int
	scalars, buffer map[string]any
}

func TestLaunchHook(t *testing.T) {
	k := &ir.Kernel{
		Name:  "k",
		Grid:  [3]ir.Expr{ir.DivE(v32("n"), ir.Int(4)), ir.AddE(v32("i"), ir.Int(1)), nil},
		Block: [3]ir.Expr{ir.Int(4), ir.Int(1), ir.Int(1)},
		Args: []ir.KernelArg{
			{Name: "i", T: ir.Int32}, {Name: "scale", T: ir.Float32}, {Name: "flag", T: ir.Bool},
			{Name: "in", T: ir.Float32, IsBuffer: true}, {Name: "tmp", T: ir.UInt8, IsBuffer: true, Written: true},
		},
	}
	host := &ir.Allocate{Name: "tmp", T: ir.UInt8, Memory: ir.Heap, Extents: []ir.Expr{ir.Int(3)},
		Body: loop("i", ir.Int(0), ir.Int(2), &ir.LetStmt{Name: "flag", Value: ir.Bin(ir.EQ, v32("i"), ir.Int(1)),
			Body: &ir.Launch{Kernel: k}})}
	var calls []launchCall
	p, err := CompileWith(host, Options{Launch: func(ctx any, k *ir.Kernel, grid, block [3]int, scalars, buffers map[string]any) error {
		calls = append(calls, launchCall{ctx, k.Name, grid, block, scalars, buffers})
		return nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	wantParams := []Param{{"n", ir.Int32}, {"scale", ir.Float32}}
	if got := p.Params(); len(got) != 2 || got[0] != wantParams[0] || got[1] != wantParams[1] {
		t.Errorf("Params() = %v, want %v", got, wantParams)
	}
	if got := p.Buffers(); len(got) != 1 || got[0] != (BufferArg{"in", ir.Float32}) {
		t.Errorf("Buffers() = %v", got)
	}
	in := []float32{1, 2}
	if err := p.RunCtx("ctx", map[string]any{"n": 12, "scale": 0.5}, map[string]any{"in": in}); err != nil {
		t.Fatal(err)
	}
	if len(calls) != 2 {
		t.Fatalf("%d calls, want 2", len(calls))
	}
	for i, c := range calls {
		if c.ctx != "ctx" || c.kernel != "k" || c.grid != [3]int{3, i + 1, 1} || c.block != [3]int{4, 1, 1} {
			t.Errorf("call %d: %+v", i, c)
		}
		if c.scalars["i"] != int32(i) || c.scalars["scale"] != float32(0.5) || c.scalars["flag"] != (i == 1) {
			t.Errorf("call %d: scalars %v", i, c.scalars)
		}
		if s, ok := c.buffer["in"].([]float32); !ok || &s[0] != &in[0] {
			t.Errorf("call %d: in is %T, not the given slice", i, c.buffer["in"])
		}
		if s, ok := c.buffer["tmp"].([]uint8); !ok || len(s) != 3 {
			t.Errorf("call %d: tmp is %T %v", i, c.buffer["tmp"], c.buffer["tmp"])
		}
	}
	// A hook's error is returned unchanged, also from a parallel loop.
	boom := errors.New("boom")
	par := kloop(ir.Parallel, "i", ir.Int(0), ir.Int(8), &ir.Launch{Kernel: &ir.Kernel{Name: "k2"}})
	p2, err := CompileWith(par, Options{Launch: func(any, *ir.Kernel, [3]int, [3]int, map[string]any, map[string]any) error {
		return boom
	}})
	if err != nil {
		t.Fatal(err)
	}
	if err := p2.Run(nil, nil); err != boom {
		t.Errorf("Run: %v, want the hook's error", err)
	}
}

type access struct {
	ctx           any
	id            int
	index         int64
	write, atomic bool
}

func TestAccessAndBarrierHooks(t *testing.T) {
	// s[i] = in[i]; barrier; atomic acc[0] += s[i]; tmp is not watched.
	i := v32("i")
	body := loop("i", ir.Int(0), ir.Int(2), ir.MakeBlock(
		store("s", i, load(ir.Float32, "in", i)),
		&ir.Barrier{Reason: "b"},
		&ir.Store{Buf: "acc", Index: ir.Int(0), Value: ir.AddE(load(ir.Float32, "acc", ir.Int(0)), load(ir.Float32, "s", i)), Atomic: true},
		&ir.Allocate{Name: "tmp", T: ir.Float32, Memory: ir.Stack, Extents: []ir.Expr{ir.Int(1)},
			Body: store("tmp", ir.Int(0), load(ir.Float32, "s", i))},
	))
	var log []access
	var barriers []string
	ids := map[string]int{"s": 10, "acc": 11}
	p, err := CompileWith(body, Options{
		Barrier: func(ctx any, b *ir.Barrier) error { barriers = append(barriers, b.Reason); return nil },
		Watch: func(buf string) (int, bool) {
			id, ok := ids[buf]
			return id, ok
		},
		Access: func(ctx any, id int, index int64, write, atomic bool) error {
			log = append(log, access{ctx, id, index, write, atomic})
			return nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := p.Written(); len(got) != 2 || got[0] != "acc" || got[1] != "s" {
		t.Errorf("Written() = %v", got)
	}
	s, acc := make([]float32, 2), make([]float32, 1)
	if err := p.RunCtx(7, nil, map[string]any{"in": []float32{3, 4}, "s": s, "acc": acc}); err != nil {
		t.Fatal(err)
	}
	if acc[0] != 7 || len(barriers) != 2 {
		t.Errorf("acc = %v, barriers %v", acc, barriers)
	}
	want := []access{
		{7, 10, 0, true, false},
		{7, 11, 0, false, true}, {7, 10, 0, false, false}, {7, 11, 0, true, true},
		{7, 10, 0, false, false},
		{7, 10, 1, true, false},
		{7, 11, 0, false, true}, {7, 10, 1, false, false}, {7, 11, 0, true, true},
		{7, 10, 1, false, false},
	}
	if len(log) != len(want) {
		t.Fatalf("accesses %v, want %v", log, want)
	}
	for j := range want {
		if log[j] != want[j] {
			t.Errorf("access %d = %+v, want %+v", j, log[j], want[j])
		}
	}
	// An Access error stops the run; out-of-bounds indices are reported
	// to Access first, then fail as usual.
	stop := errors.New("stop")
	p, err = CompileWith(store("s", ir.Int(5), ir.Const(ir.Float32, 1)), Options{
		Watch: func(string) (int, bool) { return 0, true },
		Access: func(ctx any, id int, index int64, write, atomic bool) error {
			if ctx == "fail" {
				return stop
			}
			return nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.RunCtx("fail", nil, map[string]any{"s": s}); err != stop {
		t.Errorf("RunCtx: %v, want the hook's error", err)
	}
	var ce *Error
	if err := p.RunCtx(nil, nil, map[string]any{"s": s}); !errors.As(err, &ce) || ce.Kind != OutOfBounds {
		t.Errorf("RunCtx: %v, want OutOfBounds", err)
	}
}

func TestPoisonOption(t *testing.T) {
	// out[0] = tmp[1] for a fresh allocation tmp: 0 normally, NaN poisoned.
	s := &ir.Allocate{Name: "tmp", T: ir.Float32, Memory: ir.Stack, Extents: []ir.Expr{ir.Int(2)},
		Body: store("out", ir.Int(0), load(ir.Float32, "tmp", ir.Int(1)))}
	out := []float32{5}
	mustRun(t, mustCompile(t, s), nil, map[string]any{"out": out})
	if out[0] != 0 {
		t.Errorf("out[0] = %v, want 0", out[0])
	}
	p, err := CompileWith(s, Options{Poison: true})
	if err != nil {
		t.Fatal(err)
	}
	mustRun(t, p, nil, map[string]any{"out": out})
	if !math.IsNaN(float64(out[0])) {
		t.Errorf("out[0] = %v, want NaN", out[0])
	}
	ints := []int32{0, 0}
	Poison(ints)
	if uint32(ints[1]) != 0xA5A5A5A5 {
		t.Errorf("poisoned int32 = %#x", ints[1])
	}
}
