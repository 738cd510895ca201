package gpu_test

// Shared memory reuse (gpu_shared_reuse): Funcs of one kernel whose shared
// lifetimes do not overlap share bytes of the kernel's static pool. The
// tests check the exact layouts, run the pipelines on the emulator (which
// checks the aliasing) against plain-Go references, compile the CUDA with
// nvcc when it is installed and compare ptxas's shared bytes with the
// pool, and plant a wrong reuse that the emulator must catch.

import (
	"errors"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/gohalide/gohalide/cfamily"
	"github.com/gohalide/gohalide/emulator"
	"github.com/gohalide/gohalide/halide"
	"github.com/gohalide/gohalide/ir"
	"github.com/gohalide/gohalide/report"
)

// reuseChain is g(x) = f4(x) with f1(x) = in(x) + in(x+1) and f_i(x) =
// f_{i-1}(x) + f_{i-1}(x+1), float32, g in 64-wide blocks of 64 threads and
// each f_i computed at g's block loop in GPUShared, produced by the block's
// threads (its own gpu_threads). A block's f4 is 64 floats, f3 65, f2 66 and
// f1 67; each is read only by the next, across a barrier.
func reuseChain() (*halide.Func, *halide.ImageParam) {
	x, bx, tx := halide.NewVar("x"), halide.NewVar("bx"), halide.NewVar("tx")
	g, fs, in := chainAlgorithm(x)
	g.GPUTile1D(x, bx, tx, 64)
	for _, f := range fs {
		xo, xi := halide.NewVar("xo"), halide.NewVar("xi")
		f.ComputeAt(g, bx).Split(x, xo, xi, 64).GPUThreads(xi).StoreIn(halide.GPUShared)
	}
	return g, in
}

// chainAlgorithm defines the chain of reuseChain, unscheduled: g, f1..f4
// and the input.
func chainAlgorithm(x halide.Var) (*halide.Func, []*halide.Func, *halide.ImageParam) {
	in := halide.NewImageParam("in", halide.Float32, 1)
	var prev *halide.Func
	fs := make([]*halide.Func, 4)
	for i := range fs {
		f := halide.NewFunc(fmt.Sprintf("f%d", i+1))
		if prev == nil {
			f.Define(x).Is(in.At(x).Add(in.At(x.Add(1))))
		} else {
			f.Define(x).Is(prev.At(x).Add(prev.At(x.Add(1))))
		}
		fs[i], prev = f, f
	}
	g := halide.NewFunc("g")
	g.Define(x).Is(fs[3].At(x))
	return g, fs, in
}

// reuseTypes is a chain of nine Funcs of nine types, f1 int8 ... f8 uint64,
// f9 float32: f_i(x) = T_i(f_{i-1}(x)) + T_i(f_{i-1}(x+1)) from an int8
// input, g(x) = f9(x), in 32-wide blocks, each f_i at g's block loop in
// GPUShared. A block's f_i has 32 + 9 - i elements.
var reuseTypeList = []halide.Type{halide.Int8, halide.UInt8, halide.Int16, halide.UInt16, halide.Int32, halide.UInt32, halide.Int64, halide.UInt64, halide.Float32}

func reuseTypes() (*halide.Func, *halide.ImageParam) {
	x, bx, tx := halide.NewVar("x"), halide.NewVar("bx"), halide.NewVar("tx")
	in := halide.NewImageParam("in", halide.Int8, 1)
	prev := func(t halide.Type, e any) halide.Expr { return halide.Cast(t, in.At(e)) }
	fs := make([]*halide.Func, len(reuseTypeList))
	for i, t := range reuseTypeList {
		f := halide.NewFunc(fmt.Sprintf("f%d", i+1))
		f.Define(x).Is(prev(t, x).Add(prev(t, x.Add(1))))
		fs[i] = f
		prev = func(t halide.Type, e any) halide.Expr { return halide.Cast(t, f.At(e)) }
	}
	g := halide.NewFunc("g")
	g.Define(x).Is(fs[len(fs)-1].At(x))
	g.GPUTile1D(x, bx, tx, 32)
	for _, f := range fs {
		xo, xi := halide.NewVar("xo"), halide.NewVar("xi")
		f.ComputeAt(g, bx).Split(x, xo, xi, 32).GPUThreads(xi).StoreIn(halide.GPUShared)
	}
	return g, in
}

// reuseLayout is one static shared allocation: its Func, offset and bytes.
type reuseLayout struct {
	Func          string
	Offset, Bytes int64
}

// sharedLayoutOf returns the static shared layout of the only kernel of l.
func sharedLayoutOf(t *testing.T, l *halide.Lowered) (*ir.Kernel, []reuseLayout, int64) {
	t.Helper()
	ks := l.Kernels()
	if len(ks) != 1 {
		t.Fatalf("%d kernels, want 1", len(ks))
	}
	var out []reuseLayout
	var sum int64
	for _, a := range ks[0].Allocs {
		if a.Memory == ir.GPUShared && !a.Dynamic {
			out = append(out, reuseLayout{a.Func, a.Offset, a.Bytes()})
			sum += a.Bytes()
			if a.Offset%int64(a.T.Bytes()) != 0 {
				t.Errorf("%s (%v) at byte %d: not aligned to its element size", a.Func, a.T, a.Offset)
			}
		}
	}
	return ks[0], out, sum
}

func TestSharedReuseChainLayout(t *testing.T) {
	g, _ := reuseChain()
	l, err := halide.NewPipeline(g).Lower()
	if err != nil {
		t.Fatal(err)
	}
	k, got, sum := sharedLayoutOf(t, l)
	// Widest first, then largest: f1 (67 floats, 268 bytes) at 0; f2 (264)
	// overlaps f1's lifetime, so after it at 268; f3 (260) only overlaps
	// f2 and f4, so back at 0; f4 (256) overlaps f3, so at 260 (over f2's
	// bytes, dead by then). The pool is f2's end, 532 bytes, where one
	// array per Func takes 268 + 264 + 260 + 256 = 1048.
	want := []reuseLayout{{"f1", 0, 268}, {"f2", 268, 264}, {"f3", 0, 260}, {"f4", 260, 256}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("layout %v, want %v", got, want)
	}
	if k.SharedBytes != 532 || sum != 1048 {
		t.Errorf("pool %d bytes (sum %d), want 532 (sum 1048)", k.SharedBytes, sum)
	}
}

func TestSharedReuseMixedTypesLayout(t *testing.T) {
	g, _ := reuseTypes()
	l, err := halide.NewPipeline(g).Lower()
	if err != nil {
		t.Fatal(err)
	}
	k, got, sum := sharedLayoutOf(t, l)
	// f_i has 41 - i elements: f1 40 int8 (40 bytes), f2 39 uint8 (39),
	// f3 38 int16 (76), f4 37 uint16 (74), f5 36 int32 (144), f6 35 uint32
	// (140), f7 34 int64 (272), f8 33 uint64 (264), f9 32 float32 (128).
	// f_i's lifetime overlaps f_{i-1}'s and f_{i+1}'s only. Placed widest
	// first, then largest: f7 at 0, f8 at 272 (after f7), f5 at 0, f6 at
	// 272 (after f7 and f5), f9 at 0 (only f8 is in its way), f3 at 0, f4
	// at 144 (after f5 and f3), f1 at 0, f2 at 76 (after f3 and f1). The
	// pool ends with f8 at 536; the sum is 1177.
	want := []reuseLayout{
		{"f1", 0, 40}, {"f2", 76, 39}, {"f3", 0, 76}, {"f4", 144, 74}, {"f5", 0, 144},
		{"f6", 272, 140}, {"f7", 0, 272}, {"f8", 272, 264}, {"f9", 0, 128},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("layout %v, want %v", got, want)
	}
	if k.SharedBytes != 536 || sum != 1177 {
		t.Errorf("pool %d bytes (sum %d), want 536 (sum 1177)", k.SharedBytes, sum)
	}
}

// TestSharedReuseChainEmulator runs the chain on the emulator (which checks
// the aliasing) on random inputs and compares with a plain-Go reference.
// Exact: every value is a float32 sum of the same two float32 operands in
// the same order on both sides, rounded to nearest.
func TestSharedReuseChainEmulator(t *testing.T) {
	const n = 300 // not a multiple of 64: the last block is shifted inwards
	g, in := reuseChain()
	rng := rand.New(rand.NewSource(9))
	ib := halide.NewBuffer[float32](n + 4)
	vals := make([]float32, n+4)
	for i := range vals {
		// Never zero: magnitudes in [0.5, 1.5), both signs.
		v := 0.5 + rng.Float32()
		if rng.Intn(2) == 0 {
			v = -v
		}
		vals[i] = v
		ib.Set(v, i)
	}
	in.Set(ib)
	out := halide.NewBuffer[float32](n)
	p := halide.NewPipeline(g).WithOptions(halide.Options{Verify: true})
	if err := p.Realize(out); err != nil {
		t.Fatal(err)
	}
	level := vals
	for s := 0; s < 4; s++ {
		next := make([]float32, len(level)-1)
		for i := range next {
			next[i] = level[i] + level[i+1]
		}
		level = next
	}
	for x := 0; x < n; x++ {
		if got := out.Get(x); got != level[x] {
			t.Fatalf("g(%d) = %v, want %v", x, got, level[x])
		}
	}
}

// TestSharedReuseMixedTypesEmulator runs the nine-type chain on the
// emulator and compares exactly with Go's arithmetic on the same types
// (inputs in [1, 6]: no value wraps, and the float32 ones are integers
// below 2^24).
func TestSharedReuseMixedTypesEmulator(t *testing.T) {
	const n = 100
	g, in := reuseTypes()
	rng := rand.New(rand.NewSource(11))
	ib := halide.NewBuffer[int8](n + 9)
	vals := make([]int64, n+9)
	for i := range vals {
		vals[i] = 1 + rng.Int63n(6)
		ib.Set(int8(vals[i]), i)
	}
	in.Set(ib)
	out := halide.NewBuffer[float32](n)
	p := halide.NewPipeline(g).WithOptions(halide.Options{Verify: true})
	if err := p.Realize(out); err != nil {
		t.Fatal(err)
	}
	// Each level wraps to its type as Go's conversions do.
	wrap := []func(int64) int64{
		func(v int64) int64 { return int64(int8(v)) }, func(v int64) int64 { return int64(uint8(v)) },
		func(v int64) int64 { return int64(int16(v)) }, func(v int64) int64 { return int64(uint16(v)) },
		func(v int64) int64 { return int64(int32(v)) }, func(v int64) int64 { return int64(uint32(v)) },
		func(v int64) int64 { return v }, func(v int64) int64 { return v },
		func(v int64) int64 { return int64(float32(v)) },
	}
	level := vals
	for _, w := range wrap {
		next := make([]int64, len(level)-1)
		for i := range next {
			next[i] = w(w(level[i]) + w(level[i+1]))
		}
		level = next
	}
	for x := 0; x < n; x++ {
		if got := out.Get(x); got != float32(level[x]) {
			t.Fatalf("g(%d) = %v, want %v", x, got, level[x])
		}
	}
}

// TestSharedReusePlanted lays f2 over f1's bytes, though f2 is written
// while f1 is still read, and checks that the emulator refuses the run.
func TestSharedReusePlanted(t *testing.T) {
	g, in := reuseChain()
	ib := halide.NewBuffer[float32](132)
	ib.Fill(func(c []int) float32 { return 1 + float32(c[0]%7) })
	in.Set(ib)
	l, err := halide.NewPipeline(g).Lower()
	if err != nil {
		t.Fatal(err)
	}
	k := l.Kernels()[0]
	for i := range k.Allocs {
		if k.Allocs[i].Func == "f2" {
			// f1 is at 0, 268 bytes; f2 at 4 overlaps it, one element on.
			k.Allocs[i].Offset = 4
		}
	}
	err = l.Realize(halide.NewBuffer[float32](128))
	var ee *emulator.EmulatorError
	if err == nil {
		t.Fatal("a wrong reuse ran without an error")
	}
	msg := err.Error()
	if !strings.Contains(msg, "f1") || !strings.Contains(msg, "f2") {
		t.Errorf("the error does not name f1 and f2: %v", err)
	}
	if errors.As(err, &ee) && ee.Kind != emulator.SharedReuse && ee.Kind != emulator.SharedRace {
		t.Errorf("error kind %v, want SharedReuse or SharedRace: %v", ee.Kind, err)
	}
	if !strings.Contains(msg, "shared memory reuse") && !strings.Contains(msg, "shared memory race") {
		t.Errorf("error %v, want a shared memory reuse or race", err)
	}
	t.Log(err)
}

// TestSharedReuseNVCC compiles the chain and the nine types with nvcc and
// checks that ptxas's shared memory is the pool.
func TestSharedReuseNVCC(t *testing.T) {
	if _, ok := cfamily.NVCCPath(); !ok {
		t.Skip("nvcc not found: install the CUDA 11.8 toolkit with scripts/install-cuda-toolkit.sh to run this check")
	}
	for name, build := range map[string]func() (*halide.Func, *halide.ImageParam){"chain": reuseChain, "types": reuseTypes} {
		t.Run(name, func(t *testing.T) {
			g, _ := build()
			l, err := halide.NewPipeline(g).Lower()
			if err != nil {
				t.Fatal(err)
			}
			k := l.Kernels()[0]
			src, err := cfamily.CUDASource(k)
			if err != nil {
				t.Fatal(err)
			}
			info, err := cfamily.CheckWithNVCC(src)
			if err != nil {
				t.Fatalf("%v\n%s", err, src)
			}
			ci, err := cfamily.CUDAInfo(k)
			if err != nil {
				t.Fatal(err)
			}
			if p := info[ci.Name]; p.SharedBytes != k.SharedBytes || ci.StaticSharedBytes != k.SharedBytes {
				t.Errorf("ptxas reports %d bytes of shared memory, CUDAInfo %d, the pool is %d", p.SharedBytes, ci.StaticSharedBytes, k.SharedBytes)
			}
		})
	}
}

// The report of the chain: each shared allocation's offset in the pool, and
// the pool's size next to what one array per Func would take.
func Example_sharedReuseReport() {
	g, _ := reuseChain()
	l, err := halide.NewPipeline(g).Lower()
	if err != nil {
		fmt.Println(err)
		return
	}
	var b strings.Builder
	if err := report.WriteTable(&b, report.Report(l.Kernels(), nil)); err != nil {
		fmt.Println(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(b.String()), "\n") {
		fmt.Println(strings.TrimRight(line, " "))
	}
	// Output:
	// kernel       grid                                 block  memory  func  type     elements  bytes  offset  shared across  bank conflicts  barriers  shared total
	// kernel_g_s0  (((g.s0.x.max - g.min.0) / 64) + 1)  64     shared  f1    float32  67        268    0       x              none            4         532 (1048 unshared)
	//                                                          shared  f2    float32  66        264    268     x              none
	//                                                          shared  f3    float32  65        260    0       x              none
	//                                                          shared  f4    float32  64        256    260     x              none
}
