package algo

import (
	"fmt"
	"math"
	"math/rand"

	"github.com/gohalide/gohalide/halide"
)

// LocalLaplacian is Halide's apps/local_laplacian (Paris, Hasinoff and
// Kautz's local Laplacian filter, as local_laplacian_generator.cpp of
// Halide 14 writes it): a uint16 RGB image in, a uint16 RGB image out,
// with its detail enhanced (alpha) and its tones compressed or expanded
// (beta) through J-level Gaussian and Laplacian pyramids:
//
//	remap(x)        = alpha * fx * exp(-fx*fx/2), fx = float(x)/256   (a LUT)
//	clamped         = RepeatEdge(input)
//	floating(x,y,c) = clamped(x,y,c) / 65535
//	gray(x,y)       = 0.299 floating(x,y,0) + 0.587 floating(x,y,1) + 0.114 floating(x,y,2)
//	gPyramid[0](x,y,k) = beta*(gray - level) + level + remap(idx - 256k)
//	    level = k * (1/(levels-1)), idx = clamp(int(gray*(levels-1)*256), 0, (levels-1)*256)
//	gPyramid[j]     = downsample(gPyramid[j-1])                      j in [1, J)
//	lPyramid[J-1]   = gPyramid[J-1]
//	lPyramid[j]     = gPyramid[j] - upsample(gPyramid[j+1])
//	inGPyramid[0]   = gray; inGPyramid[j] = downsample(inGPyramid[j-1])
//	outLPyramid[j](x,y) = (1-lf) lPyramid[j](x,y,li) + lf lPyramid[j](x,y,li+1)
//	    level = inGPyramid[j](x,y) * (levels-1), li = clamp(int(level), 0, levels-2), lf = level - li
//	outGPyramid[J-1] = outLPyramid[J-1]
//	outGPyramid[j]  = upsample(outGPyramid[j+1]) + outLPyramid[j]
//	color(x,y,c)    = outGPyramid[0](x,y) * (floating(x,y,c) + 0.01) / (gray(x,y) + 0.01)
//	output(x,y,c)   = uint16(clamp(color, 0, 1) * 65535)
//
// downsample is the separable 1 3 3 1 filter at even points (downx, then
// downy), upsample bilinear interpolation (upx, then upy), as in Halide's
// generator. k runs over the levels intensity levels of the processed
// pyramids; gPyramid[0] reads the LUT at a data-dependent index and
// outLPyramid[j] reads lPyramid[j] at a data-dependent k.
//
// Where this differs from the generator: downsample and upsample name
// their Funcs (gPyramid_1_downx, ...; Halide's are anonymous), and are
// written with Implicit, Halide's _, as there. Its HalideTraceViz tags (add_trace_tag) and
// estimates (set_estimates, for the autoscheduler) have no counterpart
// and are left out; the sizes they give are the app's benchmark size.
// Halide's simplifier rewrites a float division by a constant into a
// multiplication by the rounded reciprocal (x / 65535.0f becomes
// x * (1/65535.0f)); we divide, as the generator writes it, so floating
// may differ from Halide 14's in the last bit, and through it a few
// output values by 1 (rarely more: see Check).
//
// # Check
//
// The reference (Reference) computes every Func in float32 in the
// generator's operation order, with exp in float64 rounded to float32 as
// every gohalide target does (ir.FloatMath1); so on the CPU and on the GPU
// emulator, which round every float operation as Go does, the output must
// be identical to it. The CUDA target lets nvcc contract a multiply and an
// add into an FMA (cfamily.CUDATarget; Halide 14's PTX back end does the
// same), which changes a float result in its last bit: a pixel whose
// value lies within that much of a rounding boundary of the final uint16
// conversion moves by 1, and where the change moves a data-dependent
// index (the LUT index of gPyramid[0], 1/256 of an intensity level, or
// li) across a boundary, a pixel can move by up to alpha/256 * 65535 *
// (floating+0.01)/(gray+0.01) (about 37 * 9 = 330 at alpha = 1/7 for a
// saturated blue pixel; the clamp to [0, 1] bounds it too). A plain-Go
// model of the reference that contracts every multiply-add of the
// algorithm (gray, gPyramid[0], downsample, lerp, outLPyramid) moves, at
// 384 x 640, 0.38% of the values by 1 and 0.003% by 2 to 44 (at 100 x
// 70, 0.3% by 1). So Check takes a tolerance, MaxDiff and MaxDiffFrac: 0
// (identical) by default, and CUDAMaxDiff and CUDAMaxDiffFrac on the CUDA
// target (ForTarget sets them). The same holds against Halide 14's CUDA
// output, whose PTX contracts too (the model above with Halide's
// reciprocal multiply for / 65535 gives the same counts).
type LocalLaplacian struct {
	// W, H: the image size (3 channels); J: the pyramid levels
	// (Halide's GeneratorParam pyramid_levels, 8).
	W, H, J int

	// Inputs: the image, and the scalars levels (the intensity levels of
	// the processed pyramids), alpha and beta.
	Input  *halide.ImageParam
	Levels *halide.Param[int32]
	Alpha  *halide.Param[float32]
	Beta   *halide.Param[float32]

	// LevelsV, AlphaV and BetaV are the values Inputs sets: those
	// Halide's process.cpp passes (levels 8, alpha 1/(levels-1), beta 1).
	LevelsV       int32
	AlphaV, BetaV float32

	// Vars: x, y, the channel c and the intensity level k.
	X, Y, C, K halide.Var

	// The Funcs, named as in Halide's generator. GPyramid, LPyramid,
	// InGPyramid, OutLPyramid and OutGPyramid have J entries; the
	// downsample and upsample helpers' Funcs are inline.
	Remap, Clamped, Floating, Gray       *halide.Func
	GPyramid, LPyramid                   []*halide.Func
	InGPyramid, OutLPyramid, OutGPyramid []*halide.Func
	Color, Output                        *halide.Func

	// MaxDiff is the largest |got - want| (in uint16 units) Check
	// accepts, and MaxDiffFrac the largest fraction of the values that
	// may differ by more than 1; both 0 (identical) unless ForTarget set
	// the CUDA target's tolerance.
	MaxDiff     int
	MaxDiffFrac float64

	inBuf *halide.Buffer[uint16]
}

// CUDAMaxDiff and CUDAMaxDiffFrac are what Check accepts of an output
// computed on the CUDA target (FMA contraction; see LocalLaplacian): no
// value off by more than 512 (the bound above, with a margin), and at most
// 0.1% of the values off by more than 1 (30 times the model's 0.003%).
const (
	CUDAMaxDiff     = 512
	CUDAMaxDiffFrac = 0.001
)

// NewLocalLaplacian builds the filter of a w x h x 3 image with J pyramid
// levels (Halide's default is 8).
func NewLocalLaplacian(w, h, J int) *LocalLaplacian {
	v := &LocalLaplacian{W: w, H: h, J: J, LevelsV: 8, BetaV: 1}
	v.AlphaV = float32(1) / float32(v.LevelsV-1)
	v.Input = halide.NewImageParam("input", halide.UInt16, 3)
	v.Levels = halide.NewParam[int32]("levels")
	v.Alpha = halide.NewParam[float32]("alpha")
	v.Beta = halide.NewParam[float32]("beta")
	x, y, c, k := halide.NewVar("x"), halide.NewVar("y"), halide.NewVar("c"), halide.NewVar("k")
	v.X, v.Y, v.C, v.K = x, y, c, k
	levels := v.Levels.Expr()

	// Make the remapping function as a lookup table.
	v.Remap = halide.NewFunc("remap")
	fx := halide.Cast(halide.Float32, x).Div(256.0)
	v.Remap.Define(x).Is(v.Alpha.Expr().Mul(fx).Mul(halide.Exp(fx.Neg().Mul(fx).Div(2.0))))

	// Set a boundary condition, and convert to floating point.
	v.Clamped = halide.RepeatEdge(v.Input)
	v.Floating = halide.NewFunc("floating")
	v.Floating.Define(x, y, c).Is(v.Clamped.At(x, y, c).Div(65535.0))

	// Get the luminance channel.
	v.Gray = halide.NewFunc("gray")
	v.Gray.Define(x, y).Is(halide.E(0.299).Mul(v.Floating.At(x, y, 0)).
		Add(halide.E(0.587).Mul(v.Floating.At(x, y, 1))).
		Add(halide.E(0.114).Mul(v.Floating.At(x, y, 2))))

	// Make the processed Gaussian pyramid: a lookup into a LUT with 256
	// entries per intensity level.
	v.GPyramid = make([]*halide.Func, J)
	level := k.Mul(halide.E(1.0).Div(levels.Sub(1)))
	idx := v.Gray.At(x, y).Mul(halide.Cast(halide.Float32, levels.Sub(1))).Mul(256.0)
	idx = halide.Clamp(halide.Cast(halide.Int32, idx), 0, levels.Sub(1).Mul(256))
	v.GPyramid[0] = halide.NewFunc("gPyramid_0")
	v.GPyramid[0].Define(x, y, k).Is(v.Beta.Expr().Mul(v.Gray.At(x, y).Sub(level)).Add(level).
		Add(v.Remap.At(idx.Sub(k.Mul(256)))))
	for j := 1; j < J; j++ {
		down := v.downsample(fmt.Sprintf("gPyramid_%d", j), v.GPyramid[j-1])
		v.GPyramid[j] = halide.NewFunc(fmt.Sprintf("gPyramid_%d", j))
		v.GPyramid[j].Define(x, y, k).Is(down.At(x, y, k))
	}

	// Get its Laplacian pyramid.
	v.LPyramid = make([]*halide.Func, J)
	v.LPyramid[J-1] = halide.NewFunc(fmt.Sprintf("lPyramid_%d", J-1))
	v.LPyramid[J-1].Define(x, y, k).Is(v.GPyramid[J-1].At(x, y, k))
	for j := J - 2; j >= 0; j-- {
		up := v.upsample(fmt.Sprintf("lPyramid_%d", j), v.GPyramid[j+1])
		v.LPyramid[j] = halide.NewFunc(fmt.Sprintf("lPyramid_%d", j))
		v.LPyramid[j].Define(x, y, k).Is(v.GPyramid[j].At(x, y, k).Sub(up.At(x, y, k)))
	}

	// Make the Gaussian pyramid of the input.
	v.InGPyramid = make([]*halide.Func, J)
	v.InGPyramid[0] = halide.NewFunc("inGPyramid_0")
	v.InGPyramid[0].Define(x, y).Is(v.Gray.At(x, y))
	for j := 1; j < J; j++ {
		down := v.downsample(fmt.Sprintf("inGPyramid_%d", j), v.InGPyramid[j-1])
		v.InGPyramid[j] = halide.NewFunc(fmt.Sprintf("inGPyramid_%d", j))
		v.InGPyramid[j].Define(x, y).Is(down.At(x, y))
	}

	// Make the Laplacian pyramid of the output.
	v.OutLPyramid = make([]*halide.Func, J)
	for j := 0; j < J; j++ {
		// Split the input pyramid's value into integer and fractional
		// parts, and interpolate linearly between the nearest processed
		// pyramid levels.
		lv := v.InGPyramid[j].At(x, y).Mul(halide.Cast(halide.Float32, levels.Sub(1)))
		li := halide.Clamp(halide.Cast(halide.Int32, lv), 0, levels.Sub(2))
		lf := lv.Sub(halide.Cast(halide.Float32, li))
		v.OutLPyramid[j] = halide.NewFunc(fmt.Sprintf("outLPyramid_%d", j))
		v.OutLPyramid[j].Define(x, y).Is(halide.E(1.0).Sub(lf).Mul(v.LPyramid[j].At(x, y, li)).
			Add(lf.Mul(v.LPyramid[j].At(x, y, li.Add(1)))))
	}

	// Make the Gaussian pyramid of the output.
	v.OutGPyramid = make([]*halide.Func, J)
	v.OutGPyramid[J-1] = halide.NewFunc(fmt.Sprintf("outGPyramid_%d", J-1))
	v.OutGPyramid[J-1].Define(x, y).Is(v.OutLPyramid[J-1].At(x, y))
	for j := J - 2; j >= 0; j-- {
		up := v.upsample(fmt.Sprintf("outGPyramid_%d", j), v.OutGPyramid[j+1])
		v.OutGPyramid[j] = halide.NewFunc(fmt.Sprintf("outGPyramid_%d", j))
		v.OutGPyramid[j].Define(x, y).Is(up.At(x, y).Add(v.OutLPyramid[j].At(x, y)))
	}

	// Reintroduce color (eps avoids scaling up noise), and convert back
	// to 16 bits.
	const eps = 0.01
	v.Color = halide.NewFunc("color")
	v.Color.Define(x, y, c).Is(v.OutGPyramid[0].At(x, y).Mul(v.Floating.At(x, y, c).Add(eps)).
		Div(v.Gray.At(x, y).Add(eps)))
	v.Output = halide.NewFunc("output")
	v.Output.Define(x, y, c).Is(halide.Cast(halide.UInt16, halide.Clamp(v.Color.At(x, y, c), 0.0, 1.0).Mul(65535.0)))
	return v
}

// downsample is Halide's downsample: the 1 3 3 1 filter along x
// (name_downx), then along y (name_downy, returned), of f(x, y, _...),
// for a Func of any number of dimensions after x and y (Implicit).
func (v *LocalLaplacian) downsample(name string, f *halide.Func) *halide.Func {
	x, y := v.X, v.Y
	downx := halide.NewFunc(name + "_downx")
	downx.Define(x, y, halide.Implicit).Is(f.At(x.Mul(2).Sub(1), y, halide.Implicit).
		Add(halide.E(3.0).Mul(f.At(x.Mul(2), y, halide.Implicit).Add(f.At(x.Mul(2).Add(1), y, halide.Implicit)))).
		Add(f.At(x.Mul(2).Add(2), y, halide.Implicit)).Div(8.0))
	downy := halide.NewFunc(name + "_downy")
	downy.Define(x, y, halide.Implicit).Is(downx.At(x, y.Mul(2).Sub(1), halide.Implicit).
		Add(halide.E(3.0).Mul(downx.At(x, y.Mul(2), halide.Implicit).Add(downx.At(x, y.Mul(2).Add(1), halide.Implicit)))).
		Add(downx.At(x, y.Mul(2).Add(2), halide.Implicit)).Div(8.0))
	return downy
}

// upsample is Halide's upsample: bilinear interpolation along x
// (name_upx), then along y (name_upy, returned), of f(x, y, _...).
func (v *LocalLaplacian) upsample(name string, f *halide.Func) *halide.Func {
	x, y := v.X, v.Y
	upx := halide.NewFunc(name + "_upx")
	upx.Define(x, y, halide.Implicit).Is(halide.Lerp(f.At(x.Add(1).Div(2), y, halide.Implicit), f.At(x.Sub(1).Div(2), y, halide.Implicit),
		x.Mod(2).Mul(2).Add(1).Div(4.0)))
	upy := halide.NewFunc(name + "_upy")
	upy.Define(x, y, halide.Implicit).Is(halide.Lerp(upx.At(x, y.Add(1).Div(2), halide.Implicit), upx.At(x, y.Sub(1).Div(2), halide.Implicit),
		y.Mod(2).Mul(2).Add(1).Div(4.0)))
	return upy
}

// Name returns "local_laplacian".
func (v *LocalLaplacian) Name() string { return "local_laplacian" }

// Out returns the output Func.
func (v *LocalLaplacian) Out() *halide.Func { return v.Output }

// ForTarget sets the tolerance of Check for outputs computed on t: the
// CUDA target's (CUDAMaxDiff, CUDAMaxDiffFrac), or none (identical).
func (v *LocalLaplacian) ForTarget(t halide.Target) {
	v.MaxDiff, v.MaxDiffFrac = 0, 0
	if t == halide.CUDA {
		v.MaxDiff, v.MaxDiffFrac = CUDAMaxDiff, CUDAMaxDiffFrac
	}
}

// Inputs makes a W x H x 3 image: uniform random values in [0, 65535]
// plus per-channel gradients along x and y (so that gray spans the LUT
// and the levels) and a saturated stripe (0 and 65535: the clamps), and
// sets levels, alpha and beta as Halide's process.cpp does (8, 1/7, 1).
func (v *LocalLaplacian) Inputs(rng *rand.Rand) {
	v.inBuf = LocalLaplacianInput(rng, v.W, v.H)
	v.Input.Set(v.inBuf)
	v.Levels.Set(v.LevelsV)
	v.Alpha.Set(v.AlphaV)
	v.Beta.Set(v.BetaV)
}

// InputBuffer returns the image Inputs made (nil before Inputs).
func (v *LocalLaplacian) InputBuffer() *halide.Buffer[uint16] { return v.inBuf }

// LocalLaplacianInput is the random image of Inputs: a third noise, two
// thirds a gradient that differs per channel, and every 16th column
// saturated (0 or 65535 by row parity).
func LocalLaplacianInput(rng *rand.Rand, w, h int) *halide.Buffer[uint16] {
	b := halide.NewBuffer[uint16](w, h, 3)
	d := b.Data()
	for c := 0; c < 3; c++ {
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				var g float64
				switch c {
				case 0:
					g = float64(x) / float64(max(w-1, 1))
				case 1:
					g = float64(y) / float64(max(h-1, 1))
				default:
					g = float64(x+y) / float64(max(w+h-2, 1))
				}
				val := 65535 * (2*g + rng.Float64()) / 3
				if x%16 == 5 {
					val = float64(65535 * (y % 2))
				}
				d[x+w*(y+h*c)] = uint16(math.Min(65535, math.Max(0, val)))
			}
		}
	}
	return b
}

// NewOutput returns a zeroed W x H x 3 uint16 output buffer.
func (v *LocalLaplacian) NewOutput() halide.BufferRef {
	return halide.NewBuffer[uint16](v.W, v.H, 3)
}

// Run realizes p into a new output buffer.
func (v *LocalLaplacian) Run(p *halide.Pipeline) (halide.BufferRef, error) {
	return run(p, v.NewOutput())
}

// Reference computes the output in plain Go (see LocalLaplacian, Check).
func (v *LocalLaplacian) Reference() *halide.Buffer[uint16] {
	if v.inBuf == nil {
		return halide.NewBuffer[uint16](v.W, v.H, 3)
	}
	return LocalLaplacianReference(v.inBuf, v.J, v.LevelsV, v.AlphaV, v.BetaV)
}

// Check compares out with Reference: identical, or within MaxDiff and
// MaxDiffFrac when set. The error it returns is the largest difference
// divided by 65535.
func (v *LocalLaplacian) Check(out halide.BufferRef) (float64, error) {
	if v.inBuf == nil {
		return 0, ErrNoInputs
	}
	got, ok := out.(*halide.Buffer[uint16])
	if !ok || got == nil {
		return math.Inf(1), fmt.Errorf("%s: the output is %T, want a *halide.Buffer[uint16]", v.Name(), out)
	}
	want := v.Reference()
	gs := got.Shape()
	if len(gs) != 3 || gs[0].Extent != v.W || gs[1].Extent != v.H || gs[2].Extent != 3 || gs[0].Min != 0 || gs[1].Min != 0 || gs[2].Min != 0 {
		return math.Inf(1), fmt.Errorf("%s: output shape %v, want [0, %d) x [0, %d) x [0, 3)", v.Name(), gs, v.W, v.H)
	}
	g, w := got.Data(), want.Data()
	maxDiff, over1, worst := 0, 0, -1
	for i := range w {
		d := int(g[i]) - int(w[i])
		if d < 0 {
			d = -d
		}
		if d > 1 {
			over1++
		}
		if d > maxDiff {
			maxDiff, worst = d, i
		}
	}
	rel := float64(maxDiff) / 65535
	if maxDiff == 0 {
		return 0, nil
	}
	wx, wy, wc := worst%v.W, worst/v.W%v.H, worst/(v.W*v.H)
	differ := fmt.Sprintf("output(%d, %d, %d) = %d, want %d; %d of %d values differ by more than 1", wx, wy, wc, g[worst], w[worst], over1, len(w))
	if v.MaxDiff == 0 {
		return rel, fmt.Errorf("%s: %s (want identical)", v.Name(), differ)
	}
	if maxDiff > v.MaxDiff || float64(over1) > v.MaxDiffFrac*float64(len(w)) {
		return rel, fmt.Errorf("%s: %s (the tolerance is %d, and at most %.2g%% of the values off by more than 1)", v.Name(), differ, v.MaxDiff, 100*v.MaxDiffFrac)
	}
	return rel, nil
}
