package perf

import (
	"fmt"
	"os"
	"runtime"
	"testing"
	"time"

	"github.com/gohalide/gohalide/halide"
)

// Lowering that scales (issue 18): the time and memory Lower takes grow
// about linearly with the number of Funcs, stages and kernels. Two shapes
// of Halide's apps, at growing depth, each with a CPU and a CUDA schedule:
//
//   - laplacian(J): the pyramids of Halide's local_laplacian with J levels
//     (apps/local_laplacian), written here with our API: a [1 3 3 1]/8
//     downsample whose x pass is inlined, a bilinear upsample with (x/2)
//     and (x/2 - 1 + 2*(x%2)) interpolation, a repeat-edge input, and the
//     data-dependent level index li clamped into the processed pyramid.
//     Its CPU schedule is the app's (levels 1 to 4 at root and in
//     parallel, their output pyramid stored at the output's row strips
//     and computed at its rows, folded; deeper levels at root); its CUDA
//     schedule is the app's too (3 GPU-tiled kernels per level).
//   - stencilChain(n): n 5-point stencils, camera_pipe-like, on a
//     constant-exterior input. CPU schedule: the output in 32x32 tiles,
//     rows of tiles in parallel, every stage computed per tile and
//     vectorized; CUDA schedule: every stage its own GPU-tiled kernel.
//
// go test ./tests/perf -run TestLowerScaling -v with GOHALIDE_LOWER_TABLE=1
// prints the table (1 to 32 levels or stages); without it the test lowers
// the two targets (a 10-level pyramid, a 32-stage chain) and
// checks generous bounds, so that CI stays fast.

// lowerCase is one pipeline shape at one depth.
type lowerCase struct {
	shape string
	gpu   bool
	build func(depth int, gpu bool) *halide.Pipeline
}

var lowerCases = []lowerCase{
	{"pyramid", false, laplacian},
	{"pyramid", true, laplacian},
	{"chain", false, stencilChain},
	{"chain", true, stencilChain},
}

func (c lowerCase) name() string {
	if c.gpu {
		return c.shape + "/cuda"
	}
	return c.shape + "/cpu"
}

// laplacian returns local_laplacian with J pyramid levels.
func laplacian(J int, gpu bool) *halide.Pipeline {
	x, y, c, k := halide.NewVar("x"), halide.NewVar("y"), halide.NewVar("c"), halide.NewVar("k")
	input := halide.NewImageParam("input", halide.UInt16, 3)
	levels := halide.NewParam[int32]("levels")
	alpha := halide.NewParam[float32]("alpha")
	beta := halide.NewParam[float32]("beta")
	f32 := func(e any) halide.Expr { return halide.Cast(halide.Float32, e) }

	// The [1 3 3 1]/8 downsample; the x pass is inlined.
	downsample := func(f *halide.Func, name string, args func(x, y any) []any) *halide.Func {
		dx, dy := halide.NewFunc(name+"_downx"), halide.NewFunc(name+"_downy")
		at := func(g *halide.Func, x, y any) halide.Expr { return g.At(args(x, y)...) }
		x2 := x.Mul(2)
		dx.Define(args(x, y)...).Is(at(f, x2.Sub(1), y).Add(at(f, x2, y).Add(at(f, x2.Add(1), y)).Mul(3.0)).Add(at(f, x2.Add(2), y)).Div(8.0))
		y2 := y.Mul(2)
		dy.Define(args(x, y)...).Is(at(dx, x, y2.Sub(1)).Add(at(dx, x, y2).Add(at(dx, x, y2.Add(1))).Mul(3.0)).Add(at(dx, x, y2.Add(2))).Div(8.0))
		return dy
	}
	// The bilinear upsample.
	upsample := func(f *halide.Func, name string, args func(x, y any) []any) *halide.Func {
		ux, uy := halide.NewFunc(name+"_upx"), halide.NewFunc(name+"_upy")
		at := func(g *halide.Func, x, y any) halide.Expr { return g.At(args(x, y)...) }
		ux.Define(args(x, y)...).Is(at(f, x.Div(2).Sub(1).Add(x.Mod(2).Mul(2)), y).Mul(0.25).Add(at(f, x.Div(2), y).Mul(0.75)))
		uy.Define(args(x, y)...).Is(at(ux, x, y.Div(2).Sub(1).Add(y.Mod(2).Mul(2))).Mul(0.25).Add(at(ux, x, y.Div(2)).Mul(0.75)))
		return uy
	}
	xyk := func(a, b any) []any { return []any{a, b, k} }
	xy := func(a, b any) []any { return []any{a, b} }

	remap := halide.NewFunc("remap")
	fx := f32(x).Div(256.0)
	remap.Define(x).Is(alpha.Expr().Mul(fx).Mul(halide.Exp(fx.Neg().Mul(fx).Div(2.0))))
	clamped := halide.RepeatEdge(input)
	floating := halide.NewFunc("floating")
	floating.Define(x, y, c).Is(f32(clamped.At(x, y, c)).Div(65535.0))
	gray := halide.NewFunc("gray")
	gray.Define(x, y).Is(floating.At(x, y, 0).Mul(0.299).Add(floating.At(x, y, 1).Mul(0.587)).Add(floating.At(x, y, 2).Mul(0.114)))

	gP := make([]*halide.Func, J)
	level := f32(k).Mul(halide.E(1.0).Div(f32(levels.Expr().Sub(1))))
	idx := halide.Clamp(halide.Cast(halide.Int32, gray.At(x, y).Mul(f32(levels.Expr().Sub(1))).Mul(256.0)), 0, levels.Expr().Sub(1).Mul(256))
	gP[0] = halide.NewFunc("gPyramid0")
	gP[0].Define(x, y, k).Is(beta.Expr().Mul(gray.At(x, y).Sub(level)).Add(level).Add(remap.At(idx.Sub(k.Mul(256)))))
	for j := 1; j < J; j++ {
		gP[j] = downsample(gP[j-1], fmt.Sprint("gPyramid", j), xyk)
	}
	lP := make([]*halide.Func, J)
	lP[J-1] = halide.NewFunc(fmt.Sprint("lPyramid", J-1))
	lP[J-1].Define(x, y, k).Is(gP[J-1].At(x, y, k))
	for j := J - 2; j >= 0; j-- {
		up := upsample(gP[j+1], fmt.Sprint("lPyramid", j), xyk)
		lP[j] = halide.NewFunc(fmt.Sprint("lPyramid", j))
		lP[j].Define(x, y, k).Is(gP[j].At(x, y, k).Sub(up.At(x, y, k)))
	}
	inG := make([]*halide.Func, J)
	inG[0] = halide.NewFunc("inGPyramid0")
	inG[0].Define(x, y).Is(gray.At(x, y))
	for j := 1; j < J; j++ {
		inG[j] = downsample(inG[j-1], fmt.Sprint("inGPyramid", j), xy)
	}
	outL := make([]*halide.Func, J)
	for j := range J {
		// The data-dependent level index, clamped into the pyramid.
		lv := inG[j].At(x, y).Mul(f32(levels.Expr().Sub(1)))
		li := halide.Clamp(halide.Cast(halide.Int32, lv), 0, levels.Expr().Sub(2))
		lf := lv.Sub(f32(li))
		outL[j] = halide.NewFunc(fmt.Sprint("outLPyramid", j))
		outL[j].Define(x, y).Is(halide.E(1.0).Sub(lf).Mul(lP[j].At(x, y, li)).Add(lf.Mul(lP[j].At(x, y, li.Add(1)))))
	}
	outG := make([]*halide.Func, J)
	outG[J-1] = halide.NewFunc(fmt.Sprint("outGPyramid", J-1))
	outG[J-1].Define(x, y).Is(outL[J-1].At(x, y))
	for j := J - 2; j >= 0; j-- {
		up := upsample(outG[j+1], fmt.Sprint("outGPyramid", j), xy)
		outG[j] = halide.NewFunc(fmt.Sprint("outGPyramid", j))
		outG[j].Define(x, y).Is(up.At(x, y).Add(outL[j].At(x, y)))
	}
	const eps = 0.01
	color := halide.NewFunc("color")
	color.Define(x, y, c).Is(outG[0].At(x, y).Mul(floating.At(x, y, c).Add(eps)).Div(gray.At(x, y).Add(eps)))
	output := halide.NewFunc("output")
	output.Define(x, y, c).Is(halide.Cast(halide.UInt16, halide.Clamp(color.At(x, y, c), 0.0, 1.0).Mul(65535.0)))

	xi, yi, yo := halide.NewVar("xi"), halide.NewVar("yi"), halide.NewVar("yo")
	remap.ComputeRoot()
	if gpu {
		output.ComputeRoot().GPUTile(x, y, x, y, xi, yi, 16, 8)
		for j := range J {
			bw, bh := 16, 8
			if j > 3 {
				bw, bh = 2, 2
			}
			if j > 0 {
				inG[j].ComputeRoot().GPUTile(x, y, x, y, xi, yi, bw, bh)
				gP[j].ComputeRoot().Reorder(k, x, y).GPUTile(x, y, x, y, xi, yi, bw, bh)
			}
			outG[j].ComputeRoot().GPUTile(x, y, x, y, xi, yi, bw, bh)
		}
		return halide.NewPipeline(output)
	}
	output.Reorder(c, x, y).Split(y, yo, yi, 64).Parallel(yo).Vectorize(x, 8)
	gray.ComputeRoot().Split(y, yo, y, 32).Parallel(yo).Vectorize(x, 8)
	for j := 1; j < min(J, 5); j++ {
		inG[j].ComputeRoot().Split(y, yo, y, 32).Parallel(yo).Vectorize(x, 8)
		gP[j].ComputeRoot().ReorderStorage(x, k, y).Reorder(k, y).Split(y, yo, y, 8).Parallel(yo).Vectorize(x, 8)
		outG[j].StoreAt(output, yo).ComputeAt(output, yi).Vectorize(x, 8)
	}
	outG[0].ComputeAt(output, yi).Vectorize(x, 8)
	for j := 5; j < J; j++ {
		inG[j].ComputeRoot()
		gP[j].ComputeRoot().Parallel(k)
		outG[j].ComputeRoot()
	}
	return halide.NewPipeline(output)
}

// stencilChain returns n 5-point stencils in a row on a constant-exterior
// input.
func stencilChain(n int, gpu bool) *halide.Pipeline {
	x, y := halide.NewVar("x"), halide.NewVar("y")
	in := halide.NewImageParam("in", halide.Float32, 2)
	prev := halide.ConstantExterior(in, 0.0)
	stages := make([]*halide.Func, n)
	for i := range n {
		f := halide.NewFunc(fmt.Sprint("stage", i))
		p := prev
		f.Define(x, y).Is(p.At(x.Sub(1), y).Add(p.At(x, y).Mul(2.0)).Add(p.At(x.Add(1), y)).Add(p.At(x, y.Sub(1))).Add(p.At(x, y.Add(1))).Div(6.0))
		stages[i] = f
		prev = f
	}
	out := stages[n-1]
	xo, yo, xi, yi := halide.NewVar("xo"), halide.NewVar("yo"), halide.NewVar("xi"), halide.NewVar("yi")
	if gpu {
		for _, f := range stages {
			f.ComputeRoot().GPUTile(x, y, xo, yo, xi, yi, 16, 16)
		}
		return halide.NewPipeline(out)
	}
	out.Tile(x, y, xo, yo, xi, yi, 32, 32).Parallel(yo).Vectorize(xi, 8)
	for _, f := range stages[:n-1] {
		f.ComputeAt(out, xo).Vectorize(x, 8)
	}
	return halide.NewPipeline(out)
}

// lowerCost lowers the pipeline once and returns the time and the bytes
// and objects allocated.
func lowerCost(p *halide.Pipeline) (time.Duration, uint64, error) {
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Now()
	_, err := p.Lower()
	d := time.Since(start)
	runtime.ReadMemStats(&after)
	return d, after.TotalAlloc - before.TotalAlloc, err
}

// BenchmarkLowerScaling lowers each shape at each depth.
func BenchmarkLowerScaling(b *testing.B) {
	for _, c := range lowerCases {
		for _, depth := range []int{1, 2, 4, 8, 16, 32} {
			b.Run(fmt.Sprintf("%s/%d", c.name(), depth), func(b *testing.B) {
				b.ReportAllocs()
				for range b.N {
					if _, err := c.build(depth, c.gpu).Lower(); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// TestLowerScaling prints the table with GOHALIDE_LOWER_TABLE=1 (and -v);
// otherwise it lowers the targets, a 10-level pyramid and a
// 32-stage chain, under each schedule, and checks that each takes under
// 3 s (the target is 1 s; the rest is room for a loaded machine).
func TestLowerScaling(t *testing.T) {
	if os.Getenv("GOHALIDE_LOWER_TABLE") == "" {
		if testing.Short() {
			t.Skip("lowers deep pipelines")
		}
		for _, c := range lowerCases {
			depth := 32
			if c.shape == "pyramid" {
				depth = 10
			}
			d, bytes, err := lowerCost(c.build(depth, c.gpu))
			if err != nil {
				t.Fatalf("%s, depth %d: %v", c.name(), depth, err)
			}
			t.Logf("%s, depth %d: %v, %.1f MB", c.name(), depth, d, float64(bytes)/1e6)
			if d > 3*time.Second {
				t.Errorf("%s, depth %d: lowering took %v, want under 1 s", c.name(), depth, d)
			}
		}
		return
	}
	for _, c := range lowerCases {
		t.Logf("%s", c.name())
		t.Logf("%6s %12s %12s %10s %10s %8s", "depth", "time", "per level", "MB", "MB/level", "x prev")
		var prev time.Duration
		for _, depth := range []int{1, 2, 4, 8, 16, 32} {
			d, bytes, err := lowerCost(c.build(depth, c.gpu))
			if err != nil {
				t.Errorf("%s, depth %d: %v", c.name(), depth, err)
				break
			}
			ratio := ""
			if prev > 0 {
				ratio = fmt.Sprintf("%.2f", float64(d)/float64(prev))
			}
			prev = d
			t.Logf("%6d %12v %12v %10.1f %10.2f %8s", depth, d.Round(time.Microsecond), (d / time.Duration(depth)).Round(time.Microsecond),
				float64(bytes)/1e6, float64(bytes)/1e6/float64(depth), ratio)
			if d > 60*time.Second {
				t.Logf("stopping %s: too slow to go deeper", c.name())
				break
			}
		}
	}
}
