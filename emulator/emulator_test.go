package emulator_test

import (
	"errors"
	"math"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/gohalide/gohalide/cpu"
	"github.com/gohalide/gohalide/emulator"
	"github.com/gohalide/gohalide/ir"
)

// IR builders for hand-made kernels.

func tid(d int) ir.Expr        { return ir.NewVar(ir.ThreadID[d]) }
func bid(d int) ir.Expr        { return ir.NewVar(ir.BlockID[d]) }
func ivar(name string) ir.Expr { return ir.NewVar(name) }

func ld(t ir.Type, buf string, idx ir.Expr) ir.Expr { return &ir.Load{T: t, Buf: buf, Index: idx} }
func st(buf string, idx, val ir.Expr) ir.Stmt       { return &ir.Store{Buf: buf, Index: idx, Value: val} }
func atomicAdd(t ir.Type, buf string, idx, val ir.Expr) ir.Stmt {
	return &ir.Store{Buf: buf, Index: idx, Value: ir.AddE(ld(t, buf, idx), val), Atomic: true}
}
func f32(v float64) ir.Expr { return ir.Const(ir.Float32, v) }

func shared(name string, t ir.Type, n ir.Expr, body ...ir.Stmt) ir.Stmt {
	return &ir.Allocate{Name: name, T: t, Memory: ir.GPUShared, Extents: []ir.Expr{n}, Body: ir.MakeBlock(body...)}
}

func barrier(reason string) ir.Stmt { return &ir.Barrier{Fence: ir.FenceShared, Reason: reason} }

func buf(name string, t ir.Type, written bool) ir.KernelArg {
	return ir.KernelArg{Name: name, T: t, IsBuffer: true, Written: written}
}

func scalar(name string, t ir.Type) ir.KernelArg { return ir.KernelArg{Name: name, T: t} }

func dims(x, y, z ir.Expr) [3]ir.Expr { return [3]ir.Expr{x, y, z} }

// gid is block_id_x * n + thread_id_x.
func gid(n int64) ir.Expr { return ir.AddE(ir.MulE(bid(0), ir.Int(n)), tid(0)) }

func launchOf(k *ir.Kernel) ir.Stmt { return &ir.Launch{Kernel: k} }

func asEmuError(t *testing.T, err error, kind emulator.ErrorKind) *emulator.EmulatorError {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want %v", kind)
	}
	var ee *emulator.EmulatorError
	if !errors.As(err, &ee) {
		t.Fatalf("error %T %q is not an *emulator.EmulatorError", err, err)
	}
	if ee.Kind != kind {
		t.Fatalf("error kind %v, want %v: %v", ee.Kind, kind, err)
	}
	if strings.Contains(ee.Msg, "\n") {
		t.Errorf("message has several lines: %q", ee.Msg)
	}
	return ee
}

// checkNoLeak fails when goroutines started during the test are still
// running shortly after it.
func checkNoLeak(t *testing.T) func() {
	before := runtime.NumGoroutine()
	return func() {
		t.Helper()
		deadline := time.Now().Add(2 * time.Second)
		for runtime.NumGoroutine() > before {
			if time.Now().After(deadline) {
				t.Errorf("goroutines leaked: %d before, %d after", before, runtime.NumGoroutine())
				return
			}
			time.Sleep(time.Millisecond)
		}
	}
}

// A grid of blocks of 32 threads: out[b*32 + t] = in[b*32 + t] * 2.
func TestSimpleKernel(t *testing.T) {
	k := &ir.Kernel{
		Name:  "scale",
		Grid:  dims(ir.DivE(ivar("n"), ir.Int(32)), ir.Int(1), ir.Int(1)),
		Block: dims(ir.Int(32), ir.Int(1), ir.Int(1)),
		Args:  []ir.KernelArg{buf("in", ir.Float32, false), buf("out", ir.Float32, true)},
		Body:  st("out", gid(32), ir.MulE(ld(ir.Float32, "in", gid(32)), f32(2))),
	}
	const n = 8 * 32
	in, out := make([]float32, n), make([]float32, n)
	for i := range in {
		in[i] = float32(i)*0.5 - 3
	}
	var e emulator.Emulator
	if err := e.Run(launchOf(k), map[string]any{"n": n}, map[string]any{"in": in, "out": out}); err != nil {
		t.Fatal(err)
	}
	for i := range out {
		if out[i] != in[i]*2 {
			t.Fatalf("out[%d] = %v, want %v", i, out[i], in[i]*2)
		}
	}
	if s := e.Stats(); s != (emulator.Stats{Launches: 1, Blocks: 8, Threads: 256}) {
		t.Errorf("Stats() = %+v", s)
	}
}

// Thread and block ids map x fastest; every thread runs once.
func TestThreadIndexing(t *testing.T) {
	lin := func(id [3]ir.Expr, n [3]int64) ir.Expr {
		return ir.AddE(id[0], ir.MulE(ir.Int(n[0]), ir.AddE(id[1], ir.MulE(ir.Int(n[1]), id[2]))))
	}
	tids := [3]ir.Expr{tid(0), tid(1), tid(2)}
	bids := [3]ir.Expr{bid(0), bid(1), bid(2)}
	block := [3]int64{4, 3, 2}
	grid := [3]int64{2, 3, 1}
	idx := ir.AddE(ir.MulE(lin(bids, grid), ir.Int(24)), lin(tids, block))
	code := ir.AddE(ir.AddE(ir.AddE(tid(0), ir.MulE(tid(1), ir.Int(10))), ir.MulE(tid(2), ir.Int(100))),
		ir.AddE(ir.MulE(bid(0), ir.Int(1000)), ir.MulE(bid(1), ir.Int(10000))))
	k := &ir.Kernel{
		Name: "ids", Grid: dims(ir.Int(2), ir.Int(3), ir.Int(1)), Block: dims(ir.Int(4), ir.Int(3), ir.Int(2)),
		Args: []ir.KernelArg{buf("out", ir.Int32, true)},
		Body: atomicAdd(ir.Int32, "out", idx, ir.AddE(code, ir.Int(1))),
	}
	out := make([]int32, 6*24)
	var e emulator.Emulator
	if err := e.Run(launchOf(k), nil, map[string]any{"out": out}); err != nil {
		t.Fatal(err)
	}
	for i := range out {
		tl, bl := i%24, i/24
		want := int32(tl%4 + 10*(tl/4%3) + 100*(tl/12) + 1000*(bl%2) + 10000*(bl/2) + 1)
		if out[i] != want {
			t.Fatalf("out[%d] = %d, want %d", i, out[i], want)
		}
	}
}

// stencilCase describes the cooperative stencil kernel and its planted bugs.
type stencilCase struct {
	tile         int64 // elements of the shared allocation (64 is right)
	noBarrier    bool
	guardBarrier bool // barrier only for thread_id_x < 16
}

// stencilKernel: each block of 32 threads loads a tile of 64 elements of in
// into shared memory (two per thread), then computes the 3-point stencil
// out[b*64 + j] = tile[max(j-1, 0)] + tile[j] + tile[min(j+1, 63)] for
// j = thread_id_x and thread_id_x + 32.
func stencilKernel(c stencilCase) *ir.Kernel {
	base := ir.MulE(bid(0), ir.Int(64))
	tx := tid(0)
	tx32 := ir.AddE(tx, ir.Int(32))
	tile := func(j ir.Expr) ir.Expr { return ld(ir.Float32, "tile", j) }
	stencil := func(j ir.Expr) ir.Stmt {
		v := ir.AddE(ir.AddE(tile(ir.MaxE(ir.SubE(j, ir.Int(1)), ir.Int(0))), tile(j)),
			tile(ir.MinE(ir.AddE(j, ir.Int(1)), ir.Int(63))))
		return st("out", ir.AddE(base, j), v)
	}
	var bar ir.Stmt = barrier("tile loaded")
	switch {
	case c.noBarrier:
		bar = &ir.Comment{Text: "no barrier"}
	case c.guardBarrier:
		bar = &ir.IfThenElse{Cond: ir.LTE(tx, ir.Int(16)), Then: bar}
	}
	body := shared("tile", ir.Float32, ir.Int(c.tile),
		&ir.Comment{Text: "cooperative load"},
		st("tile", tx, ld(ir.Float32, "in", ir.AddE(base, tx))),
		st("tile", tx32, ld(ir.Float32, "in", ir.AddE(base, tx32))),
		bar,
		stencil(tx),
		stencil(tx32))
	return &ir.Kernel{
		Name:  "stencil",
		Grid:  dims(ivar("blocks"), ir.Int(1), ir.Int(1)),
		Block: dims(ir.Int(32), ir.Int(1), ir.Int(1)),
		Args:  []ir.KernelArg{buf("in", ir.Float32, false), buf("out", ir.Float32, true)},
		Body:  &ir.LetStmt{Name: "unused", Value: tid(0), Body: body},
	}
}

func runStencil(t *testing.T, c stencilCase) ([]float32, []float32, error) {
	const blocks = 5
	in, out := make([]float32, blocks*64), make([]float32, blocks*64)
	for i := range in {
		in[i] = float32(i%17) - 4.5
	}
	var e emulator.Emulator
	err := e.Run(launchOf(stencilKernel(c)), map[string]any{"blocks": blocks}, map[string]any{"in": in, "out": out})
	return in, out, err
}

func TestSharedStencil(t *testing.T) {
	defer checkNoLeak(t)()
	in, out, err := runStencil(t, stencilCase{tile: 64})
	if err != nil {
		t.Fatal(err)
	}
	for i := range out {
		b, j := i/64*64, i%64
		want := in[b+max(j-1, 0)] + in[b+j] + in[b+min(j+1, 63)]
		if out[i] != want {
			t.Fatalf("out[%d] = %v, want %v", i, out[i], want)
		}
	}
}

func TestStencilMissingBarrier(t *testing.T) {
	defer checkNoLeak(t)()
	_, _, err := runStencil(t, stencilCase{tile: 64, noBarrier: true})
	ee := asEmuError(t, err, emulator.SharedRace)
	// Thread 0 reads tile[1] for out[0] before thread 1 stores it.
	if ee.Kernel != "stencil" || ee.Buffer != "tile" || !ee.Shared || ee.Index != 1 ||
		ee.Thread != [3]int{1, 0, 0} || ee.OtherThread != [3]int{0, 0, 0} || ee.Block != [3]int{} {
		t.Errorf("error %+v", ee)
	}
	for _, s := range []string{"stencil", "tile[1]", "(1,0,0)", "(0,0,0)", "race"} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("message %q does not mention %q", err, s)
		}
	}
	t.Log(err)
}

func TestStencilSharedTooSmall(t *testing.T) {
	defer checkNoLeak(t)()
	_, _, err := runStencil(t, stencilCase{tile: 48})
	ee := asEmuError(t, err, emulator.OutOfBounds)
	// Thread 16 stores tile[16 + 32].
	if ee.Buffer != "tile" || !ee.Shared || ee.Index != 48 || ee.Size != 48 || ee.Thread != [3]int{16, 0, 0} {
		t.Errorf("error %+v", ee)
	}
	var ce *cpu.Error
	if !errors.As(err, &ce) || ce.Kind != cpu.OutOfBounds {
		t.Errorf("error does not wrap the cpu.OutOfBounds error: %v", err)
	}
	if !strings.Contains(err.Error(), "shared buffer tile") {
		t.Errorf("message %q does not name the shared buffer", err)
	}
	t.Log(err)
}

func TestStencilDivergentBarrier(t *testing.T) {
	defer checkNoLeak(t)()
	_, _, err := runStencil(t, stencilCase{tile: 64, guardBarrier: true})
	ee := asEmuError(t, err, emulator.DivergentBarrier)
	if ee.Barrier != "tile loaded" || ee.Thread != [3]int{16, 0, 0} || ee.OtherThread != [3]int{0, 0, 0} {
		t.Errorf("error %+v", ee)
	}
	if !strings.Contains(err.Error(), `"tile loaded"`) || !strings.Contains(err.Error(), "finished the kernel") {
		t.Errorf("message %q", err)
	}
	t.Log(err)
}

func TestDivergentBarrierNodes(t *testing.T) {
	defer checkNoLeak(t)()
	k := &ir.Kernel{
		Name: "twobarriers", Grid: dims(ir.Int(2), ir.Int(1), ir.Int(1)), Block: dims(ir.Int(8), ir.Int(1), ir.Int(1)),
		Body: &ir.IfThenElse{Cond: ir.LTE(tid(0), ir.Int(4)), Then: barrier("left"), Else: barrier("right")},
	}
	var e emulator.Emulator
	ee := asEmuError(t, e.Run(launchOf(k), nil, nil), emulator.DivergentBarrier)
	if ee.Barrier != "left" || ee.Thread != [3]int{4, 0, 0} || !strings.Contains(ee.Msg, `another barrier "right"`) {
		t.Errorf("error %+v", ee)
	}
	t.Log(ee)
}

// sumKernel: thread 0 zeroes acc[0]; after a barrier every thread adds its
// id to acc[0] (atomically or not); after another barrier thread 0 writes
// the block's sum.
func sumKernel(atomic bool) *ir.Kernel {
	add := st("acc", ir.Int(0), ir.AddE(ld(ir.Int32, "acc", ir.Int(0)), tid(0)))
	if atomic {
		add = atomicAdd(ir.Int32, "acc", ir.Int(0), tid(0))
	}
	first := func(s ir.Stmt) ir.Stmt { return &ir.IfThenElse{Cond: ir.Bin(ir.EQ, tid(0), ir.Int(0)), Then: s} }
	return &ir.Kernel{
		Name: "blocksum", Grid: dims(ir.Int(3), ir.Int(1), ir.Int(1)), Block: dims(ir.Int(32), ir.Int(1), ir.Int(1)),
		Args: []ir.KernelArg{buf("out", ir.Int32, true)},
		Body: shared("acc", ir.Int32, ir.Int(1),
			first(st("acc", ir.Int(0), ir.Int(0))),
			barrier("acc zeroed"),
			add,
			barrier("sum done"),
			first(st("out", bid(0), ld(ir.Int32, "acc", ir.Int(0))))),
	}
}

func TestSharedWriteRace(t *testing.T) {
	defer checkNoLeak(t)()
	var e emulator.Emulator
	out := make([]int32, 3)
	err := e.Run(launchOf(sumKernel(false)), nil, map[string]any{"out": out})
	ee := asEmuError(t, err, emulator.SharedRace)
	// Thread 0 reads and writes acc[0], then thread 1 reads it.
	if ee.Buffer != "acc" || ee.Index != 0 || ee.Thread != [3]int{1, 0, 0} || ee.OtherThread != [3]int{0, 0, 0} {
		t.Errorf("error %+v", ee)
	}
	t.Log(err)
}

func TestSharedAtomicSum(t *testing.T) {
	defer checkNoLeak(t)()
	var e emulator.Emulator
	out := make([]int32, 3)
	if err := e.Run(launchOf(sumKernel(true)), nil, map[string]any{"out": out}); err != nil {
		t.Fatal(err)
	}
	for b, v := range out {
		if v != 31*32/2 {
			t.Errorf("out[%d] = %d, want %d", b, v, 31*32/2)
		}
	}
	if s := e.Stats(); s.Barriers != 6 || s.Blocks != 3 || s.Threads != 96 {
		t.Errorf("Stats() = %+v", s)
	}
}

// Many threads scatter-add into a few global bins; int32 sums are exact.
func TestGlobalAtomics(t *testing.T) {
	const blocks, threads, bins = 6, 128, 5
	g := gid(threads)
	bin := ir.ModE(ir.MulE(g, ir.Int(7)), ir.Int(bins))
	k := &ir.Kernel{
		Name: "histogram", Grid: dims(ir.Int(blocks), ir.Int(1), ir.Int(1)), Block: dims(ir.Int(threads), ir.Int(1), ir.Int(1)),
		Args: []ir.KernelArg{buf("in", ir.Int32, false), buf("hist", ir.Int32, true)},
		Body: atomicAdd(ir.Int32, "hist", bin, ld(ir.Int32, "in", g)),
	}
	in := make([]int32, blocks*threads)
	want := make([]int32, bins)
	for i := range in {
		in[i] = int32(i%11 - 3)
		want[i*7%bins] += in[i]
	}
	hist := make([]int32, bins)
	var e emulator.Emulator
	if err := e.Run(launchOf(k), nil, map[string]any{"in": in, "hist": hist}); err != nil {
		t.Fatal(err)
	}
	for i := range hist {
		if hist[i] != want[i] {
			t.Errorf("hist[%d] = %d, want %d", i, hist[i], want[i])
		}
	}
}

// A host loop launches a kernel per iteration with the loop variable as a
// scalar argument; a second kernel's shared size is a scalar argument (a
// host let) and it reverses each block's slice through shared memory.
func TestHostLoopAndDynamicShared(t *testing.T) {
	defer checkNoLeak(t)()
	const threads = 32
	add := &ir.Kernel{
		Name: "addIter", Grid: dims(ir.DivE(ivar("n"), ir.Int(threads)), ir.Int(1), ir.Int(1)),
		Block: dims(ir.Int(threads), ir.Int(1), ir.Int(1)),
		Args:  []ir.KernelArg{scalar("it", ir.Int32), buf("data", ir.Float32, true)},
		Body: st("data", gid(threads), ir.AddE(ld(ir.Float32, "data", gid(threads)),
			&ir.Cast{T: ir.Float32, X: ivar("it")})),
	}
	// Each thread handles per = s/32 consecutive elements of the block's
	// slice of s elements: tile[tx*per + k] = data[b*s + tx*per + k]; then
	// out[b*s + i] = tile[s-1-i].
	s, per := ivar("s"), ivar("per")
	k := ivar("k")
	local := ir.AddE(ir.MulE(tid(0), per), k)
	global := ir.AddE(ir.MulE(bid(0), s), local)
	rev := &ir.Kernel{
		Name: "reverse", Grid: dims(ir.DivE(ivar("n"), s), ir.Int(1), ir.Int(1)),
		Block: dims(ir.Int(threads), ir.Int(1), ir.Int(1)),
		Args:  []ir.KernelArg{scalar("s", ir.Int32), scalar("per", ir.Int32), buf("data", ir.Float32, false), buf("out", ir.Float32, true)},
		Body: shared("tile", ir.Float32, s,
			&ir.For{Name: "k", Min: ir.Int(0), Extent: per, Body: st("tile", local, ld(ir.Float32, "data", global))},
			barrier("tile loaded"),
			&ir.For{Name: "k", Min: ir.Int(0), Extent: per, Body: st("out", global,
				ld(ir.Float32, "tile", ir.SubE(ir.SubE(s, ir.Int(1)), local)))}),
	}
	host := ir.MakeBlock(
		&ir.For{Name: "it", Min: ir.Int(0), Extent: ivar("iters"), Body: launchOf(add)},
		&ir.LetStmt{Name: "s", Value: ir.MulE(per, ir.Int(threads)), Body: launchOf(rev)})
	for _, p := range []int{1, 4} {
		const n, iters = 1024, 4
		data, out := make([]float32, n), make([]float32, n)
		for i := range data {
			data[i] = float32(i)
		}
		var e emulator.Emulator
		err := e.Run(host, map[string]any{"n": n, "iters": iters, "per": p}, map[string]any{"data": data, "out": out})
		if err != nil {
			t.Fatal(err)
		}
		size := p * threads
		for i := range out {
			j := i/size*size + size - 1 - i%size
			if want := float32(j + 0 + 1 + 2 + 3); out[i] != want {
				t.Fatalf("per=%d: out[%d] = %v, want %v", p, i, out[i], want)
			}
		}
		if got := e.Stats(); got.Launches != iters+1 || got.Blocks != iters*n/threads+int64(n/size) {
			t.Errorf("Stats() = %+v", got)
		}
	}
	// The dynamic size is exactly s: one element less is out of bounds.
	small := *rev
	small.Body = shared("tile", ir.Float32, ir.SubE(s, ir.Int(1)), rev.Body.(*ir.Allocate).Body)
	var e emulator.Emulator
	err := e.Launch(&small, [3]int{1, 1, 1}, [3]int{threads, 1, 1}, map[string]any{"s": int32(64), "per": int32(2)},
		map[string]any{"data": make([]float32, 64), "out": make([]float32, 64)})
	ee := asEmuError(t, err, emulator.OutOfBounds)
	if ee.Buffer != "tile" || ee.Size != 63 || ee.Index != 63 || ee.Thread != [3]int{31, 0, 0} {
		t.Errorf("error %+v", ee)
	}
}

func TestUninitializedSharedRead(t *testing.T) {
	defer checkNoLeak(t)()
	// Threads store tile[t] for t < 31 only; thread 31 reads tile[31].
	k := &ir.Kernel{
		Name: "uninit", Grid: dims(ir.Int(2), ir.Int(1), ir.Int(1)), Block: dims(ir.Int(32), ir.Int(1), ir.Int(1)),
		Args: []ir.KernelArg{buf("out", ir.Float32, true)},
		Body: shared("tile", ir.Float32, ir.Int(32),
			&ir.IfThenElse{Cond: ir.LTE(tid(0), ir.Int(31)), Then: st("tile", tid(0), f32(1))},
			barrier("tile written"),
			st("out", gid(32), ld(ir.Float32, "tile", tid(0)))),
	}
	out := make([]float32, 64)
	var e emulator.Emulator
	ee := asEmuError(t, e.Run(launchOf(k), nil, map[string]any{"out": out}), emulator.UninitializedRead)
	if ee.Buffer != "tile" || ee.Index != 31 || ee.Thread != [3]int{31, 0, 0} || ee.Block != [3]int{} {
		t.Errorf("error %+v", ee)
	}
	t.Log(ee)
	// Without the check, the poison shows in the result.
	e2 := emulator.Emulator{NoUninitCheck: true}
	if err := e2.Run(launchOf(k), nil, map[string]any{"out": out}); err != nil {
		t.Fatal(err)
	}
	if out[30] != 1 || !math.IsNaN(float64(out[31])) || !math.IsNaN(float64(out[63])) {
		t.Errorf("out[30], out[31], out[63] = %v, %v, %v; want 1, NaN, NaN", out[30], out[31], out[63])
	}
}

func TestLaunchNeedsGPUTarget(t *testing.T) {
	k := stencilKernel(stencilCase{tile: 64})
	_, err := cpu.Compile(launchOf(k))
	if err == nil || !strings.Contains(err.Error(), "GPU target") || !strings.Contains(err.Error(), "emulator") ||
		!strings.Contains(err.Error(), "stencil") {
		t.Errorf("cpu.Compile of a launch: %v", err)
	}
	_, err = cpu.Compile(barrier("b"))
	if err == nil || !strings.Contains(err.Error(), "GPU target") {
		t.Errorf("cpu.Compile of a barrier: %v", err)
	}
}

func TestBadKernels(t *testing.T) {
	body := st("out", tid(0), &ir.Cast{T: ir.Float32, X: ivar("m")})
	cases := []struct {
		name string
		k    *ir.Kernel
		want string
	}{
		{"free variable", &ir.Kernel{Args: []ir.KernelArg{buf("out", ir.Float32, true)}, Body: body},
			"variable m, which is not a scalar argument"},
		{"unlisted buffer", &ir.Kernel{Args: []ir.KernelArg{scalar("m", ir.Int32)}, Body: body},
			"buffer out, which is not a buffer argument"},
		{"not written", &ir.Kernel{Args: []ir.KernelArg{scalar("m", ir.Int32), buf("out", ir.Float32, false)}, Body: body},
			"not marked Written"},
		{"arg type", &ir.Kernel{Args: []ir.KernelArg{scalar("m", ir.Int64), buf("out", ir.Float32, true)}, Body: body},
			"its argument has type int64"},
		{"shared under loop", &ir.Kernel{Args: []ir.KernelArg{buf("out", ir.Float32, true)},
			Body: &ir.For{Name: "i", Min: ir.Int(0), Extent: ir.Int(2), Body: shared("s", ir.Float32, ir.Int(4), st("s", ir.Int(0), f32(0)))}},
			"inside loop i"},
		{"thread-dependent shared size", &ir.Kernel{Args: []ir.KernelArg{buf("out", ir.Float32, true)},
			Body: shared("s", ir.Float32, ir.AddE(tid(0), ir.Int(1)), st("s", ir.Int(0), f32(0)))},
			"depends on thread_id_x"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.k.Name = "bad"
			var e emulator.Emulator
			err := e.Launch(c.k, [3]int{1, 1, 1}, [3]int{4, 1, 1}, map[string]any{"m": int32(1)},
				map[string]any{"out": make([]float32, 4)})
			ee := asEmuError(t, err, emulator.BadKernel)
			if !strings.Contains(ee.Msg, c.want) || !strings.Contains(ee.Msg, "kernel bad") {
				t.Errorf("message %q does not say %q", ee.Msg, c.want)
			}
		})
	}
}

func TestBadLaunches(t *testing.T) {
	ok := &ir.Kernel{Name: "k", Args: []ir.KernelArg{buf("out", ir.Float32, true)}, Body: st("out", tid(0), f32(1))}
	big := &ir.Kernel{Name: "k", Body: shared("s", ir.Float32, ir.Int(13000), st("s", tid(0), f32(1)))}
	dyn := &ir.Kernel{Name: "k", Args: []ir.KernelArg{scalar("n", ir.Int32)},
		Body: shared("s", ir.Float32, ivar("n"), st("s", tid(0), f32(1)))}
	cases := []struct {
		name        string
		k           *ir.Kernel
		grid, block [3]int
		scalars     map[string]any
		want        string
	}{
		{"zero grid", ok, [3]int{0, 1, 1}, [3]int{4, 1, 1}, nil, "grid (0,1,1)"},
		{"too many threads", ok, [3]int{1, 1, 1}, [3]int{64, 32, 1}, nil, "2048 threads"},
		{"block z", ok, [3]int{1, 1, 1}, [3]int{1, 1, 65}, nil, "dimension 2"},
		{"static shared", big, [3]int{1, 1, 1}, [3]int{4, 1, 1}, nil, "static shared memory of 52000 bytes"},
		{"dynamic shared", dyn, [3]int{1, 1, 1}, [3]int{4, 1, 1}, map[string]any{"n": 60000}, "shared memory of 240000 bytes"},
		{"missing scalar", dyn, [3]int{1, 1, 1}, [3]int{4, 1, 1}, nil, "missing scalar argument n"},
		{"missing buffer", &ir.Kernel{Name: "k", Args: []ir.KernelArg{buf("zz", ir.Float32, true)}, Body: st("zz", tid(0), f32(1))},
			[3]int{1, 1, 1}, [3]int{4, 1, 1}, nil, "missing buffer argument zz"},
		{"mistyped buffer", &ir.Kernel{Name: "k", Args: []ir.KernelArg{buf("out", ir.Int32, true)}, Body: st("out", tid(0), ir.Int(1))},
			[3]int{1, 1, 1}, [3]int{4, 1, 1}, nil, "buffer argument out: got []float32, want []int32"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var e emulator.Emulator
			err := e.Launch(c.k, c.grid, c.block, c.scalars, map[string]any{"out": make([]float32, 4)})
			ee := asEmuError(t, err, emulator.BadLaunch)
			if !strings.Contains(ee.Msg, c.want) {
				t.Errorf("message %q does not say %q", ee.Msg, c.want)
			}
		})
	}
	// 60000 floats fit when the limit is raised.
	lim := ir.SM90
	lim.MaxShared = 1 << 20
	e := emulator.Emulator{Limits: lim}
	if err := e.Launch(dyn, [3]int{1, 1, 1}, [3]int{4, 1, 1}, map[string]any{"n": 60000}, nil); err != nil {
		t.Error(err)
	}
}

// A failing thread stops the launch, ends the block's goroutines and the
// host program returns the kernel's error.
func TestErrorStopsLaunch(t *testing.T) {
	defer checkNoLeak(t)()
	// Thread 100 of block 2 fails an out-of-bounds store after two barriers.
	bad := ir.AndE(ir.Bin(ir.EQ, bid(0), ir.Int(2)), ir.Bin(ir.EQ, tid(0), ir.Int(100)))
	k := &ir.Kernel{
		Name: "failing", Grid: dims(ir.Int(4), ir.Int(1), ir.Int(1)), Block: dims(ir.Int(256), ir.Int(1), ir.Int(1)),
		Args: []ir.KernelArg{buf("out", ir.Int32, true)},
		Body: ir.MakeBlock(barrier("one"), barrier("two"),
			st("out", &ir.Select{Cond: bad, True: ir.Int(1 << 20), False: gid(256)}, tid(0)),
			barrier("three")),
	}
	out := make([]int32, 4*256)
	var e emulator.Emulator
	host := &ir.For{Name: "rep", Min: ir.Int(0), Extent: ir.Int(3), Body: launchOf(k)}
	ee := asEmuError(t, e.Run(host, nil, map[string]any{"out": out}), emulator.OutOfBounds)
	if ee.Block != [3]int{2, 0, 0} || ee.Thread != [3]int{100, 0, 0} || ee.Buffer != "out" || ee.Shared {
		t.Errorf("error %+v", ee)
	}
	if s := e.Stats(); s.Launches != 1 || s.Blocks != 3 {
		t.Errorf("Stats() = %+v", s)
	}
}

// benchKernel: 1024 threads per block pass four barriers, reversing and
// rotating a 1024-element shared tile.
func benchKernel() *ir.Kernel {
	const n = 1024
	tx := tid(0)
	g := gid(n)
	tile := func(i ir.Expr) ir.Expr { return ld(ir.Float32, "tile", i) }
	r := func() ir.Expr { return ld(ir.Float32, "r", ir.Int(0)) }
	body := ir.MakeBlock(
		st("tile", tx, ld(ir.Float32, "in", g)),
		barrier("1"),
		st("r", ir.Int(0), tile(ir.SubE(ir.Int(n-1), tx))),
		barrier("2"),
		st("tile", tx, ir.MulE(r(), f32(2))),
		barrier("3"),
		st("r", ir.Int(0), ir.AddE(r(), tile(ir.ModE(ir.AddE(tx, ir.Int(1)), ir.Int(n))))),
		barrier("4"),
		st("out", g, ir.AddE(r(), tile(tx))))
	return &ir.Kernel{
		Name: "bench", Grid: dims(ir.Int(16), ir.Int(1), ir.Int(1)), Block: dims(ir.Int(n), ir.Int(1), ir.Int(1)),
		Args: []ir.KernelArg{buf("in", ir.Float32, false), buf("out", ir.Float32, true)},
		Body: shared("tile", ir.Float32, ir.Int(n),
			&ir.Allocate{Name: "r", T: ir.Float32, Memory: ir.Register, Extents: []ir.Expr{ir.Int(1)}, Body: body}),
	}
}

func benchWant(in []float32) []float32 {
	const n = 1024
	out := make([]float32, len(in))
	for b := 0; b < len(in)/n; b++ {
		x := in[b*n : b*n+n]
		for t := range n {
			r := x[n-1-t]
			rot := x[n-1-(t+1)%n] * 2
			out[b*n+t] = r + rot + r*2
		}
	}
	return out
}

func TestBarrierKernel16x1024(t *testing.T) {
	defer checkNoLeak(t)()
	in, out := make([]float32, 16*1024), make([]float32, 16*1024)
	for i := range in {
		in[i] = float32(i%1000) * 0.25
	}
	var e emulator.Emulator
	start := time.Now()
	if err := e.Run(launchOf(benchKernel()), nil, map[string]any{"in": in, "out": out}); err != nil {
		t.Fatal(err)
	}
	t.Logf("16 blocks × 1024 threads, 4 barriers: %v", time.Since(start))
	want := benchWant(in)
	for i := range out {
		if out[i] != want[i] {
			t.Fatalf("out[%d] = %v, want %v", i, out[i], want[i])
		}
	}
	if s := e.Stats(); s.Barriers != 64 || s.Threads != 16*1024 {
		t.Errorf("Stats() = %+v", s)
	}
}

func BenchmarkBarrierKernel16x1024(b *testing.B) {
	k := benchKernel()
	in, out := make([]float32, 16*1024), make([]float32, 16*1024)
	bufs := map[string]any{"in": in, "out": out}
	for _, c := range []struct {
		name string
		e    *emulator.Emulator
	}{{"checked", &emulator.Emulator{}}, {"unchecked", &emulator.Emulator{NoRaceCheck: true, NoUninitCheck: true}}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if err := c.e.Launch(k, [3]int{16, 1, 1}, [3]int{1024, 1, 1}, nil, bufs); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/(16*1024), "ns/thread")
		})
	}
}

// The same threads without barriers run on one goroutine.
func BenchmarkSimpleKernel16x1024(b *testing.B) {
	k := &ir.Kernel{
		Name: "scale", Args: []ir.KernelArg{buf("in", ir.Float32, false), buf("out", ir.Float32, true)},
		Body: st("out", gid(1024), ir.MulE(ld(ir.Float32, "in", gid(1024)), f32(2))),
	}
	in, out := make([]float32, 16*1024), make([]float32, 16*1024)
	bufs := map[string]any{"in": in, "out": out}
	var e emulator.Emulator
	for b.Loop() {
		if err := e.Launch(k, [3]int{16, 1, 1}, [3]int{1024, 1, 1}, nil, bufs); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/(16*1024), "ns/thread")
}

// tileLoopKernel: a serial loop over 4 tiles of 32 elements; each iteration
// loads a tile cooperatively, waits, lets every thread sum the whole tile
// into a register and (unless noSecond) waits again before the next load.
func tileLoopKernel(noSecond, noInit bool) *ir.Kernel {
	kt, j := ivar("kt"), ivar("j")
	acc := func() ir.Expr { return ld(ir.Float32, "acc", ir.Int(0)) }
	var second ir.Stmt = barrier("tile consumed")
	if noSecond {
		second = nil
	}
	var init ir.Stmt = st("acc", ir.Int(0), f32(0))
	if noInit {
		init = nil
	}
	body := ir.MakeBlock(
		init,
		&ir.For{Name: "kt", Min: ir.Int(0), Extent: ir.Int(4), Body: ir.MakeBlock(
			st("tile", tid(0), ld(ir.Float32, "in", ir.AddE(ir.MulE(kt, ir.Int(32)), tid(0)))),
			barrier("tile loaded"),
			&ir.For{Name: "j", Min: ir.Int(0), Extent: ir.Int(32), Body: st("acc", ir.Int(0), ir.AddE(acc(), ld(ir.Float32, "tile", j)))},
			second)},
		st("out", gid(32), ir.MulE(acc(), &ir.Cast{T: ir.Float32, X: ir.AddE(ir.AddE(tid(0), bid(0)), ir.Int(1))})))
	return &ir.Kernel{
		Name: "tileloop", Grid: dims(ir.Int(3), ir.Int(1), ir.Int(1)), Block: dims(ir.Int(32), ir.Int(1), ir.Int(1)),
		Args: []ir.KernelArg{buf("in", ir.Float32, false), buf("out", ir.Float32, true)},
		Body: shared("tile", ir.Float32, ir.Int(32),
			&ir.Allocate{Name: "acc", T: ir.Float32, Memory: ir.Register, Extents: []ir.Expr{ir.Int(1)}, Body: body}),
	}
}

func TestBarrierInLoop(t *testing.T) {
	defer checkNoLeak(t)()
	in, out := make([]float32, 128), make([]float32, 96)
	var sum float32
	for i := range in {
		in[i] = float32(i % 9)
		sum += in[i]
	}
	var e emulator.Emulator
	if err := e.Run(launchOf(tileLoopKernel(false, false)), nil, map[string]any{"in": in, "out": out}); err != nil {
		t.Fatal(err)
	}
	for i := range out {
		if want := sum * float32(i%32+i/32+1); out[i] != want {
			t.Fatalf("out[%d] = %v, want %v", i, out[i], want)
		}
	}
	if s := e.Stats(); s.Barriers != 3*8 {
		t.Errorf("Stats() = %+v", s)
	}
	// Without the second barrier, the next tile overwrites the one that
	// other threads still read.
	ee := asEmuError(t, e.Run(launchOf(tileLoopKernel(true, false)), nil, map[string]any{"in": in, "out": out}), emulator.SharedRace)
	if ee.Buffer != "tile" || ee.Index != 0 || ee.Thread != [3]int{1, 0, 0} || ee.OtherThread != [3]int{0, 0, 0} {
		t.Errorf("error %+v", ee)
	}
	t.Log(ee)
	// Per-thread allocations are not zeroed either: an accumulator that is
	// not initialized gives NaN.
	if err := e.Run(launchOf(tileLoopKernel(false, true)), nil, map[string]any{"in": in, "out": out}); err != nil {
		t.Fatal(err)
	}
	if !math.IsNaN(float64(out[0])) {
		t.Errorf("out[0] = %v, want NaN", out[0])
	}
}

// The checks can be turned off; the poison then shows in the results.
func TestChecksOff(t *testing.T) {
	defer checkNoLeak(t)()
	k := stencilKernel(stencilCase{tile: 64, noBarrier: true})
	run := func(e *emulator.Emulator) ([]float32, error) {
		in, out := make([]float32, 64), make([]float32, 64)
		for i := range in {
			in[i] = 1
		}
		err := e.Run(launchOf(k), map[string]any{"blocks": 1}, map[string]any{"in": in, "out": out})
		return out, err
	}
	if _, err := run(&emulator.Emulator{NoRaceCheck: true}); err == nil {
		t.Error("no error without the race check")
	} else {
		asEmuError(t, err, emulator.UninitializedRead)
	}
	out, err := run(&emulator.Emulator{NoRaceCheck: true, NoUninitCheck: true})
	if err != nil {
		t.Fatal(err)
	}
	// Thread 0 computed out[0] from tile[1] before thread 1 stored it.
	if !math.IsNaN(float64(out[0])) || out[63] != 3 {
		t.Errorf("out[0], out[63] = %v, %v; want NaN, 3", out[0], out[63])
	}
}

// Global scratch (store_in(Heap) in a kernel): each thread owns a copy of
// 4 elements. A thread that writes into its neighbour's copy is caught,
// though the index is inside the buffer.
func TestGlobalScratchCopies(t *testing.T) {
	const blocks, threads, per = 3, 8, 4
	g := gid(threads)
	run := func(shift int64) error {
		arg := buf("f", ir.Float32, true)
		arg.Scratch = ir.Int(per)
		k := &ir.Kernel{
			Name: "scratch", Grid: dims(ir.Int(blocks), ir.Int(1), ir.Int(1)), Block: dims(ir.Int(threads), ir.Int(1), ir.Int(1)),
			Args: []ir.KernelArg{arg},
			Body: &ir.Store{Buf: "f", Index: ir.AddE(ir.MulE(g, ir.Int(per)), ir.Int(shift)), Value: &ir.FloatImm{T: ir.Float32, V: 1.5}},
		}
		var e emulator.Emulator
		return e.Run(launchOf(k), nil, map[string]any{"f": make([]float32, blocks*threads*per)})
	}
	if err := run(per - 1); err != nil {
		t.Fatalf("in its own copy: %v", err)
	}
	ee := asEmuError(t, run(per), emulator.OutOfBounds)
	// Thread 0 of block 0 writes element 4, the first of thread 1's copy.
	if ee.Buffer != "f" || ee.Index != per || ee.Size != per || ee.Thread != [3]int{0, 0, 0} || !strings.Contains(ee.Msg, "outside the thread's copy [0, 4)") {
		t.Errorf("error %+v", ee)
	}
}
