package gpu_test

// Issue 9: GPU memory sized right in every case. Each test checks exact
// sizes on the emulator (the per-block size, not the whole image's), and
// the values against a plain-Go reference on random inputs.

import (
	"errors"
	"math/rand"
	"strings"
	"testing"

	"github.com/gohalide/gohalide/halide"
	"github.com/gohalide/gohalide/report"
)

// sharedOf returns the allocation of Func name in the report (shared,
// register or global scratch): its bytes (at the last launch, when the
// size is known only then) and its size expression ("" when constant).
func sharedOf(t *testing.T, p *halide.Pipeline, name string) (int64, string) {
	t.Helper()
	reps, err := p.Report()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range reps {
		for _, a := range append(append(append([]report.Alloc{}, r.Shared...), r.Registers...), r.Global...) {
			if a.Func == name {
				return a.Bytes, a.Dynamic
			}
		}
	}
	t.Fatalf("no allocation of %s in the report %+v", name, reps)
	return 0, ""
}

// blockOf returns the block size of the first kernel at its last launch.
func blockOf(t *testing.T, p *halide.Pipeline, kernel string) []int64 {
	t.Helper()
	reps, err := p.Report()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range reps {
		if r.Name == kernel {
			return r.BlockValues
		}
	}
	t.Fatalf("no kernel %s in %+v", kernel, reps)
	return nil
}

func randomInput(rng *rand.Rand, n ...int) *halide.Buffer[float32] {
	b := halide.NewBuffer[float32](n...)
	b.Fill(func([]int) float32 { return rng.Float32()*2 - 1 + 0.25 })
	return b
}

// g(x) = f(x/2) with 64-wide blocks, f at g's block loop in shared memory:
// one block needs 33 floats (132 B) however wide the image (it was 1,024 B
// at 512 wide and 131,072 B at 65,536). The bound is a constant: the
// correlated division (m + 1)/2 - m/2 is at most 1.
func TestIssue9HalfResolutionPerBlock(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for _, n := range []int{512, 65536} {
		x, bx, tx := halide.NewVar("x"), halide.NewVar("bx"), halide.NewVar("tx")
		in := halide.NewImageParam("in", halide.Float32, 1)
		f, g := halide.NewFunc("f"), halide.NewFunc("g")
		f.Define(x).Is(in.At(x).Mul(2))
		g.Define(x).Is(f.At(x.Div(2)))
		g.GPUTile1D(x, bx, tx, 64)
		f.ComputeAt(g, bx).StoreIn(halide.GPUShared)
		ib := randomInput(rng, n/2)
		in.Set(ib)
		out := halide.NewBuffer[float32](n)
		p := portedRealize(t, g, out)
		portedCheck(t, "g", out, func(c []int) float32 { return 2 * ib.Get(c[0]/2) })
		if bytes, dyn := sharedOf(t, p, "f"); bytes != 132 || dyn != "" {
			t.Errorf("n = %d: f takes %d bytes (%q), want 132, a constant", n, bytes, dyn)
		}
	}
}

// g(x) = f(x*(255 - x)), tile 32, f at g's block loop: the footprint is
// not monotonic in the block, so the largest block is found on the host
// before the launch: block 0 (x in [0, 31]) needs [0, 31*255], 7,906
// floats = 31,624 B (the whole-image bound asked for 260,104 B, over the
// device's limit).
func TestIssue9NonMonotonic1D(t *testing.T) {
	x, bx, tx := halide.NewVar("x"), halide.NewVar("bx"), halide.NewVar("tx")
	in := halide.NewImageParam("in", halide.Float32, 1)
	f, g := halide.NewFunc("f"), halide.NewFunc("g")
	f.Define(x).Is(in.At(x).Mul(2))
	g.Define(x).Is(f.At(x.Mul(halide.E(int32(255)).Sub(x))))
	g.GPUTile1D(x, bx, tx, 32)
	f.ComputeAt(g, bx).StoreIn(halide.GPUShared)
	ib := randomInput(rand.New(rand.NewSource(2)), 255*255+1)
	in.Set(ib)
	out := halide.NewBuffer[float32](256)
	p := portedRealize(t, g, out)
	portedCheck(t, "g", out, func(c []int) float32 { return 2 * ib.Get(c[0]*(255-c[0])) })
	bytes, dyn := sharedOf(t, p, "f")
	if bytes != 31624 || dyn == "" {
		t.Errorf("f takes %d bytes (size %q), want 31624 computed at launch", bytes, dyn)
	}
}

// The 2-D form: g(x, y) = f(x*(31 - x), y*(23 - y)) in 4x4 tiles. The
// largest block's footprint is the maximum over the blocks of the interval
// bounds of each coordinate, worked out here in plain Go.
func TestIssue9NonMonotonic2D(t *testing.T) {
	x, y := halide.NewVar("x"), halide.NewVar("y")
	bx, by, tx, ty := halide.NewVar("bx"), halide.NewVar("by"), halide.NewVar("tx"), halide.NewVar("ty")
	in := halide.NewImageParam("in", halide.Float32, 2)
	f, g := halide.NewFunc("f"), halide.NewFunc("g")
	f.Define(x, y).Is(in.At(x, y).Add(1))
	g.Define(x, y).Is(f.At(x.Mul(halide.E(int32(31)).Sub(x)), y.Mul(halide.E(int32(23)).Sub(y))))
	g.GPUTile(x, y, bx, by, tx, ty, 4, 4)
	f.ComputeAt(g, bx).StoreIn(halide.GPUShared)
	ib := randomInput(rand.New(rand.NewSource(3)), 32*32, 24*24)
	in.Set(ib)
	out := halide.NewBuffer[float32](32, 24)
	p := portedRealize(t, g, out)
	portedCheck(t, "g", out, func(c []int) float32 { return ib.Get(c[0]*(31-c[0]), c[1]*(23-c[1])) + 1 })
	// The footprint of a tile [a, a+3] of v*(k - v): the interval product
	// of [a, a+3] and [k-a-3, k-a].
	span := func(a, k int) int {
		p := []int{a * (k - a - 3), a * (k - a), (a + 3) * (k - a - 3), (a + 3) * (k - a)}
		lo, hi := p[0], p[0]
		for _, v := range p {
			lo, hi = min(lo, v), max(hi, v)
		}
		return hi - lo + 1
	}
	var want int
	for a := 0; a < 32; a += 4 {
		for b := 0; b < 24; b += 4 {
			want = max(want, span(a, 31)*span(b, 23))
		}
	}
	bytes, dyn := sharedOf(t, p, "f")
	if bytes != int64(4*want) || dyn == "" {
		t.Errorf("f takes %d bytes (size %q), want %d computed at launch", bytes, dyn, 4*want)
	}
	// The whole image's span, which a bound over every block gives.
	whole := (31*31 + 1) * (23*23 + 1) * 4
	if bytes >= int64(whole) {
		t.Errorf("f takes %d bytes, no less than the whole image's %d", bytes, whole)
	}
}

// g(x) = f(x) + f(2x), f per thread in shared memory: each block holds
// [x0, 2*(x0 + 15)], so the last block of a 100-wide output (x0 = 84)
// needs 115 floats = 460 B (the whole-image bound gave 796 B).
func TestIssue9PerThreadFootprint(t *testing.T) {
	x, xo, xi := halide.NewVar("x"), halide.NewVar("xo"), halide.NewVar("xi")
	f, g := halide.NewFunc("f"), halide.NewFunc("g")
	f.Define(x).Is(x)
	g.Define(x).Is(f.At(x).Add(f.At(x.Mul(2))))
	g.GPUTile1D(x, xo, xi, 16)
	f.ComputeAt(g, xi).StoreIn(halide.GPUShared)
	out := halide.NewBuffer[int32](100)
	p := portedRealize(t, g, out)
	portedCheck(t, "g", out, func(c []int) int32 { return int32(3 * c[0]) })
	if bytes, _ := sharedOf(t, p, "f"); bytes != 460 {
		t.Errorf("f takes %d bytes, want 460", bytes)
	}
}

// A thread per channel without Bound: the block size is the output's
// channel count, known at launch; over 1024 is a typed error at Realize.
func TestIssue9LaunchTimeBlockSize(t *testing.T) {
	c, x := halide.NewVar("c"), halide.NewVar("x")
	in := halide.NewImageParam("in", halide.Float32, 2)
	g := halide.NewFunc("g")
	g.Define(c, x).Is(in.At(c, x).Mul(3))
	g.GPUBlocks(x).GPUThreads(c)
	rng := rand.New(rand.NewSource(4))
	for _, channels := range []int{48, 200} {
		ib := randomInput(rng, channels, 10)
		in.Set(ib)
		out := halide.NewBuffer[float32](channels, 10)
		p := portedRealize(t, g, out)
		portedCheck(t, "g", out, func(c []int) float32 { return 3 * ib.Get(c...) })
		if b := blockOf(t, p, "kernel_g_s0"); len(b) != 3 || b[0] != int64(channels) || b[1] != 1 || b[2] != 1 {
			t.Errorf("block %v, want [%d 1 1]", b, channels)
		}
	}
	in.Set(randomInput(rng, 2000, 2))
	err := portedPipeline(g).Realize(halide.NewBuffer[float32](2000, 2))
	var he *halide.Error
	if !errors.As(err, &he) || he.Code != halide.ErrSchedule || he.Func != "g" || he.Directive != "gpu_threads" {
		t.Fatalf("got %v, want a schedule error of g's gpu_threads", err)
	}
}

// radiusBlur is g(x) = sum over |j| <= r of f(x + j), f(x) = 2 in(x), with
// the radius r a Param: f's footprint per point is 2r + 1, known at
// launch.
func radiusBlur(x halide.Var) (f, g *halide.Func, in *halide.ImageParam, r *halide.Param[int32]) {
	in = halide.NewImageParam("in", halide.Float32, 1)
	r = halide.NewParam[int32]("r")
	f, g = halide.NewFunc("f"), halide.NewFunc("g")
	f.Define(x).Is(in.At(x).Mul(2))
	k := halide.NewRDom("k", halide.Range(halide.E(int32(0)), r.Expr().Mul(2).Add(1)))
	g.Define(x).Is(halide.Sum(f.At(x.Add(k.X()).Sub(r.Expr()))))
	return f, g, in, r
}

// checkRadiusBlur compares out with radiusBlur's plain-Go reference
// (tolerance 1e-4).
func checkRadiusBlur(t *testing.T, out *halide.Buffer[float32], ib *halide.Buffer[float32], r int) {
	t.Helper()
	portedCheckFloat(t, "g", out, func(c []int) float64 {
		var s float64
		for j := -r; j <= r; j++ {
			s += 2 * float64(ib.Get(c[0]+j))
		}
		return s
	}, 1e-4)
}

// f in Heap inside the kernel, for a blur of radius r (a Param): global
// scratch allocated around the launch. At g's thread loop, one copy per
// thread of 2r+1 floats; at g's block loop, one copy per block of 32+2r
// floats, shared by the block's threads (produced together, with a
// barrier).
func TestIssue9HeapScratch(t *testing.T) {
	for _, c := range []struct {
		name  string
		block bool // f at g's block loop (else at its thread loop)
		radii []int32
		elems func(r int32) int32
	}{
		{"per thread", false, []int32{1, 4, 9}, func(r int32) int32 { return 2*r + 1 }},
		{"per block", true, []int32{2, 7}, func(r int32) int32 { return 32 + 2*r }},
	} {
		t.Run(c.name, func(t *testing.T) {
			x, bx, tx := halide.NewVar("x"), halide.NewVar("bx"), halide.NewVar("tx")
			f, g, in, r := radiusBlur(x)
			g.GPUTile1D(x, bx, tx, 32)
			at := tx
			if c.block {
				at = bx
			}
			f.ComputeAt(g, at).StoreIn(halide.Heap)
			ib := randomInput(rand.New(rand.NewSource(5)), 300).SetMin(-10)
			in.Set(ib)
			p := portedPipeline(g)
			for _, rv := range c.radii {
				r.Set(rv)
				out := halide.NewBuffer[float32](200)
				if err := p.Realize(out); err != nil {
					l, _ := p.Lower()
					t.Fatalf("%v\n%v", err, l)
				}
				checkRadiusBlur(t, out, ib, int(rv))
				if bytes, dyn := sharedOf(t, p, "f"); bytes != int64(4*c.elems(rv)) || dyn == "" {
					t.Errorf("r = %d: f's scratch copy is %d bytes (%q), want %d", rv, bytes, dyn, 4*c.elems(rv))
				}
			}
		})
	}
}

// The report prints a size known only at launch with its expression and
// its value at the last launch, and flags the stages that run on one
// thread: here a scatter into a shared histogram, which has nothing to
// deal out to the block's threads.
func TestIssue9ReportLaunchValuesAndSingleThread(t *testing.T) {
	x, bx, tx := halide.NewVar("x"), halide.NewVar("bx"), halide.NewVar("tx")
	in := halide.NewImageParam("in", halide.Int32, 1)
	r := halide.NewRDom("r", halide.Range(0, 64))
	// A histogram of in(0..63) in shared memory per block: its scatter
	// runs on the block's first thread.
	hist := halide.NewFunc("hist")
	hist.Define(x).Is(halide.E(int32(0)))
	hist.Define(halide.Clamped(in.At(r.X()), 0, 15)).PlusEq(1)
	// f(x*(63 - x)) under 16-wide blocks: sized on the host at launch.
	f, g := halide.NewFunc("f"), halide.NewFunc("g")
	f.Define(x).Is(in.At(x).Add(1))
	g.Define(x).Is(f.At(x.Mul(halide.E(int32(63)).Sub(x))).Add(hist.At(x.Mod(16))))
	g.GPUTile1D(x, bx, tx, 16)
	f.ComputeAt(g, bx).StoreIn(halide.GPUShared)
	hist.ComputeAt(g, bx).StoreIn(halide.GPUShared)
	ib := halide.NewBuffer[int32](64*64 + 1)
	rng := rand.New(rand.NewSource(8))
	ib.Fill(func([]int) int32 { return int32(rng.Intn(20)) + 1 })
	in.Set(ib)
	out := halide.NewBuffer[int32](64)
	p := portedRealize(t, g, out)
	counts := make([]int32, 16)
	for i := 0; i < 64; i++ {
		counts[min(max(ib.Get(i), 0), 15)]++
	}
	portedCheck(t, "g", out, func(c []int) int32 { return ib.Get(c[0]*(63-c[0])) + 1 + counts[c[0]%16] })
	reps, err := p.Report()
	if err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	if err := report.WriteTable(&sb, reps); err != nil {
		t.Fatal(err)
	}
	if len(reps) != 1 || len(reps[0].SingleThread) != 1 || reps[0].SingleThread[0] != "hist.s1" {
		t.Errorf("single-thread stages %v, want [hist.s1]", reps[0].SingleThread)
	}
	// Block 0 needs [0, 15*63]: 946 elements, 3,784 bytes.
	for _, want := range []string{"=946", "3784", "one thread", "hist.s1"} {
		if !strings.Contains(sb.String(), want) {
			t.Errorf("the table lacks %q:\n%s", want, sb.String())
		}
	}
}

// The static shared limit (48 KB) applies to the pool after reuse: a chain
// f1..f4 of about 16 KB each, each read only by the next, needs 64 KB
// unshared but two at a time in the pool, and runs.
func TestIssue9ReuseFitsStaticLimit(t *testing.T) {
	x, bx, xi, tx := halide.NewVar("x"), halide.NewVar("bx"), halide.NewVar("xi"), halide.NewVar("tx")
	g, fs, in := chainAlgorithm(x)
	g.Split(x, bx, xi, 4096).Split(xi, xi, tx, 256).GPUBlocks(bx).GPUThreads(tx)
	for _, f := range fs {
		xo, xj := halide.NewVar("xo"), halide.NewVar("xj")
		f.ComputeAt(g, bx).Split(x, xo, xj, 256).GPUThreads(xj).StoreIn(halide.GPUShared)
	}
	ib := randomInput(rand.New(rand.NewSource(9)), 8192+4)
	in.Set(ib)
	out := halide.NewBuffer[float32](8192)
	p := portedRealize(t, g, out)
	// g(x) = sum over k of C(4, k) in(x + k).
	portedCheckFloat(t, "g", out, func(c []int) float64 {
		x := c[0]
		return float64(ib.Get(x)) + 4*float64(ib.Get(x+1)) + 6*float64(ib.Get(x+2)) + 4*float64(ib.Get(x+3)) + float64(ib.Get(x+4))
	}, 1e-4)
	reps, err := p.Report()
	if err != nil {
		t.Fatal(err)
	}
	r := reps[0]
	if r.SharedBytes > 48<<10 || r.SharedBytesUnshared <= 48<<10 {
		t.Errorf("pool %d bytes, unshared %d: want the pool within 48 KB and the sum over it", r.SharedBytes, r.SharedBytesUnshared)
	}
}
