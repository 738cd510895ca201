package algo

import (
	"fmt"
	"math"
	"math/rand"

	"github.com/gohalide/gohalide/halide"
)

// BilateralGrid is Halide's apps/bilateral_grid (Chen, Paris and Durand's
// bilateral grid), ported from bilateral_grid_generator.cpp at Halide's
// v14.0.0 tag. With s = SSigma (the generator's s_sigma, 8) and the Param
// r_sigma:
//
//	clamped(x, y)          = input(clamp(x), clamp(y))            (RepeatEdge)
//	val                    = clamp(clamped(x*s + r.x - s/2, y*s + r.y - s/2), 0, 1)
//	histogram(x, y, z, c)  = 0
//	histogram(x, y, int(val * (1/r_sigma) + 0.5), c) += mux(c, {val, 1})
//	                                                    r in [0, s) x [0, s)
//	blurz(x, y, z, c)      = 5-tap [1 4 6 4 1] filter of histogram along z
//	blurx, blury           = the same filter along x, then along y
//	interpolated(x, y, c)  = trilinear sample of blury at (x/s, y/s, zv),
//	                         zv = clamp(input(x, y), 0, 1) * (1/r_sigma)
//	bilateral_grid(x, y)   = interpolated(x, y, 0) / interpolated(x, y, 1)
//
// The input and the output are float32 images W x H (x fastest). The
// histogram's z index is data-dependent (a scatter); its bounds, like
// Halide's, follow from the clamp of val and r_sigma.
//
// The reference (Reference) is plain Go in float32, with each operation in
// the order the algorithm writes it (explicit float32 conversions, so the
// Go compiler fuses nothing): the histogram's bin and the trilinear
// sample's bin are computed exactly as the pipeline computes them, so no
// sample lands in another bin on the CPU path and the emulator. Check
// allows a relative error (relative to max(1, |want|); the outputs are
// weighted means of values clamped to [0, 1]) of BilateralGridCPUTol on
// the CPU and the emulator, and of BilateralGridTol on CUDA (ForTarget);
// see BilateralGridTol for why.
type BilateralGrid struct {
	// float32Output is the output buffer of the algorithm's shape (NewOutput, Run).
	float32Output
	// W, H are the image's width and height; SSigma is s_sigma (a
	// GeneratorParam in Halide: a constant of the pipeline).
	W, H, SSigma int

	// Input is the float32 image; RSigma is r_sigma.
	Input  *halide.ImageParam
	RSigma *halide.Param[float32]

	// X, Y, Z, C are the generator's Vars; R is its RDom (s x s).
	X, Y, Z, C halide.Var
	R          *halide.RDom

	// The Funcs, named as in Halide.
	Clamped, Histogram, BlurZ, BlurX, BlurY, Interpolated, Output *halide.Func

	// Tol is the relative error Check allows: BilateralGridCPUTol, or
	// BilateralGridTol for outputs computed on CUDA (ForTarget).
	Tol float64

	in    *halide.Buffer[float32]
	sigma float32
}

// BilateralGridTol is the relative error Check allows. On the CPU path and
// the emulator the pipeline computes what the float32 reference computes,
// operation for operation: the error is 0 (the tests require it). CUDA
// compiles a*b + c into one fused multiply-add (nvcc's default), which
// rounds once instead of twice: with every multiply-add of the algorithm
// fused (the bins, the blur taps, the lerps), the reference moves by at
// most 3.6e-7 relative on the benchmark image (measured). A fused bin
// index, val*(1/r_sigma) + 0.5, can also put a sample whose value lies
// within an ulp of a bin boundary in the neighbouring bin: that moves a
// weight of at most 6^3 = 216 (the blurs' centre taps), times the
// sample's distance from the output's value (about r_sigma, 0.1), over the
// output's denominator, from about 700 (a pixel in sparse bins) to 10^5 on
// the test images: from 2e-4 up to 3e-2 at the worst pixel. Such a sample
// is rare (about 1e-7 of the random samples; the simulated fused
// reference flips none of the 3.9 million of the benchmark image), and an
// 8- or 16-bit image such as Halide's gray.png has none (at r_sigma 0.1
// the boundaries are (2n-1)/20, and k/255 and k/65535 are never within
// 1e-6 of one). So 1e-3 holds the fused rounding with a wide margin, and a
// wrong schedule moves outputs by far more (a pixel off by 1e-2 fails:
// TestBilateralGridCheckCatchesAnError).
const BilateralGridTol = 1e-3

// BilateralGridCPUTol is the relative error Check allows for outputs
// computed on the CPU or the emulator, which compute what the reference
// computes: a few ulps of float32 at 1, for an equally valid evaluation
// order (none today: the tests require 0).
const BilateralGridCPUTol = 1e-6

// NewBilateralGrid builds the algorithm for a w x h image with s_sigma = s
// (Halide's default is 8).
func NewBilateralGrid(w, h, s int) *BilateralGrid {
	v := &BilateralGrid{W: w, H: h, SSigma: s, Tol: BilateralGridCPUTol}
	v.float32Output = float32Output{"bilateral_grid", func() []int { return []int{v.W, v.H} }}
	v.Input = halide.NewImageParam("input", halide.Float32, 2)
	v.RSigma = halide.NewParam[float32]("r_sigma")
	x, y, z, c := halide.NewVar("x"), halide.NewVar("y"), halide.NewVar("z"), halide.NewVar("c")
	v.X, v.Y, v.Z, v.C = x, y, z, c
	ss := int32(s)

	// Add a boundary condition.
	v.Clamped = halide.RepeatEdge(v.Input)

	// Construct the bilateral grid.
	v.R = halide.NewRDom("r", halide.Range(0, ss), halide.Range(0, ss))
	rx, ry := v.R.X(), v.R.Y()
	val := v.Clamped.At(x.Mul(ss).Add(rx).Sub(ss/2), y.Mul(ss).Add(ry).Sub(ss/2))
	val = halide.Clamp(val, float32(0), float32(1))
	invR := halide.E(float32(1)).Div(v.RSigma)
	zi := halide.Cast(halide.Int32, val.Mul(invR).Add(float32(0.5)))

	v.Histogram = halide.NewFunc("histogram")
	v.Histogram.Define(x, y, z, c).Is(float32(0))
	v.Histogram.Define(x, y, zi, c).PlusEq(halide.Mux(c, val, float32(1)))

	// Blur the grid using a five-tap filter.
	v.BlurZ, v.BlurX, v.BlurY = halide.NewFunc("blurz"), halide.NewFunc("blurx"), halide.NewFunc("blury")
	h5 := func(at func(d int32) halide.Expr) halide.Expr {
		return at(-2).Add(at(-1).Mul(float32(4))).Add(at(0).Mul(float32(6))).Add(at(1).Mul(float32(4))).Add(at(2))
	}
	v.BlurZ.Define(x, y, z, c).Is(h5(func(d int32) halide.Expr { return v.Histogram.At(x, y, z.Add(d), c) }))
	v.BlurX.Define(x, y, z, c).Is(h5(func(d int32) halide.Expr { return v.BlurZ.At(x.Add(d), y, z, c) }))
	v.BlurY.Define(x, y, z, c).Is(h5(func(d int32) halide.Expr { return v.BlurX.At(x, y.Add(d), z, c) }))

	// Take trilinear samples to compute the output.
	val = halide.Clamp(v.Input.At(x, y), float32(0), float32(1))
	zv := val.Mul(invR)
	zi = halide.Cast(halide.Int32, zv)
	zf := zv.Sub(zi)
	xf := halide.Cast(halide.Float32, x.Mod(ss)).Div(float32(s))
	yf := halide.Cast(halide.Float32, y.Mod(ss)).Div(float32(s))
	xi, yi := x.Div(ss), y.Div(ss)
	b := func(dx, dy, dz int32) halide.Expr { return v.BlurY.At(xi.Add(dx), yi.Add(dy), zi.Add(dz), c) }
	v.Interpolated = halide.NewFunc("interpolated")
	v.Interpolated.Define(x, y, c).Is(
		halide.Lerp(
			halide.Lerp(halide.Lerp(b(0, 0, 0), b(1, 0, 0), xf), halide.Lerp(b(0, 1, 0), b(1, 1, 0), xf), yf),
			halide.Lerp(halide.Lerp(b(0, 0, 1), b(1, 0, 1), xf), halide.Lerp(b(0, 1, 1), b(1, 1, 1), xf), yf),
			zf))

	// Normalize.
	v.Output = halide.NewFunc("bilateral_grid")
	v.Output.Define(x, y).Is(v.Interpolated.At(x, y, 0).Div(v.Interpolated.At(x, y, 1)))
	return v
}

// ForTarget sets the tolerance of Check for outputs computed on t:
// BilateralGridTol on CUDA (fused multiply-adds), else BilateralGridCPUTol.
func (v *BilateralGrid) ForTarget(t halide.Target) {
	v.Tol = BilateralGridCPUTol
	if t == halide.CUDA {
		v.Tol = BilateralGridTol
	}
}

// Out returns the output Func.
func (v *BilateralGrid) Out() *halide.Func { return v.Output }

// BilateralGridRSigma is r_sigma of Halide's Makefile (filter ... 0.1) and
// of the generator's estimate.
const BilateralGridRSigma = 0.1

// Inputs makes a W x H image with values in [0, 1] (a ramp along x and y,
// a few vertical and horizontal edges, uniform noise) and a few values
// outside it (the algorithm clamps them), and sets r_sigma to
// BilateralGridRSigma.
func (v *BilateralGrid) Inputs(rng *rand.Rand) {
	v.SetInputs(BilateralGridImage(rng, v.W, v.H), BilateralGridRSigma)
}

// SetInputs sets the image and r_sigma.
func (v *BilateralGrid) SetInputs(in *halide.Buffer[float32], rSigma float32) {
	v.in, v.sigma = in, rSigma
	v.Input.Set(in)
	v.RSigma.Set(rSigma)
}

// InputBuffer returns the image Inputs or SetInputs set (nil before).
func (v *BilateralGrid) InputBuffer() *halide.Buffer[float32] { return v.in }

// BilateralGridImage returns a w x h test image: a smooth ramp, steps
// every 37 columns and 29 rows (edges the filter should keep), noise of
// amplitude 0.1, all in [0, 1], and one value in 64 pushed out of [0, 1]
// by up to 0.25 (the clamps).
func BilateralGridImage(rng *rand.Rand, w, h int) *halide.Buffer[float32] {
	b := halide.NewBuffer[float32](w, h)
	b.Fill(func(c []int) float32 {
		x, y := c[0], c[1]
		v := 0.5*float64(x)/float64(max(w, 1)) + 0.3*float64(y)/float64(max(h, 1))
		if (x/37+y/29)%2 == 1 {
			v += 0.15
		}
		v += 0.1 * rng.Float64()
		v = math.Min(v, 1)
		if rng.Intn(64) == 0 {
			v += 0.5 * (rng.Float64() - 0.5)
		}
		return float32(v)
	})
	return b
}

// Reference computes the output in plain Go, in float32, operation by
// operation as the pipeline does (see BilateralGrid).
func (v *BilateralGrid) Reference() *halide.Buffer[float64] {
	ref := halide.NewBuffer[float64](v.W, v.H)
	if v.in == nil {
		return ref
	}
	w, h, s := v.W, v.H, v.SSigma
	in := func(x, y int) float32 {
		return v.in.Get(min(max(x, 0), w-1), min(max(y, 0), h-1))
	}
	clamp01 := func(f float32) float32 { return min(max(f, 0), 1) }
	invR := float32(1) / v.sigma

	// The grid covers what the output reads: x/s and x/s+1 for x in [0,
	// w), and z from the bins of the output's samples (int(val*invR) and
	// one more) widened by the blurs' 2 on each side; bins outside get no
	// samples and are 0.
	gw, gh := (w-1)/s+2, (h-1)/s+2
	zmax := int(clamp01(1)*invR) + 1 // the largest z the output reads
	zlo, zhi := -2, zmax+2           // histogram's z range
	nz := zhi - zlo + 1
	// The blurs along x and y need the grid 2 cells beyond on each side.
	const m = 2
	gwm, ghm := gw+2*m, gh+2*m
	hist := make([]float32, 2*nz*ghm*gwm)
	hidx := func(x, y, z, c int) int { return ((c*nz+(z-zlo))*ghm+(y+m))*gwm + (x + m) }
	for gy := -m; gy < gh+m; gy++ {
		for gx := -m; gx < gw+m; gx++ {
			for ry := 0; ry < s; ry++ {
				for rx := 0; rx < s; rx++ {
					val := clamp01(in(gx*s+rx-s/2, gy*s+ry-s/2))
					zi := int(int32(float32(val*invR) + 0.5))
					if zi < zlo || zi > zhi {
						continue // a bin no output reads
					}
					hist[hidx(gx, gy, zi, 0)] = hist[hidx(gx, gy, zi, 0)] + val
					hist[hidx(gx, gy, zi, 1)] = hist[hidx(gx, gy, zi, 1)] + 1
				}
			}
		}
	}
	h5 := func(a, b, c, d, e float32) float32 {
		return float32(float32(float32(float32(a+float32(b*4))+float32(c*6))+float32(d*4)) + e)
	}
	hz := func(x, y, z, c int) float32 {
		if z < zlo || z > zhi {
			return 0
		}
		return hist[hidx(x, y, z, c)]
	}
	// blurz on [-2, gw+2) x [-2, gh+2), blurx on [0, gw) x [-2, gh+2),
	// blury on [0, gw) x [0, gh), each for z in [0, zmax].
	nzo := zmax + 1
	bz := make([]float32, 2*nzo*ghm*gwm)
	for c := 0; c < 2; c++ {
		for z := 0; z < nzo; z++ {
			for y := -m; y < gh+m; y++ {
				for x := -m; x < gw+m; x++ {
					bz[((c*nzo+z)*ghm+y+m)*gwm+x+m] = h5(hz(x, y, z-2, c), hz(x, y, z-1, c), hz(x, y, z, c), hz(x, y, z+1, c), hz(x, y, z+2, c))
				}
			}
		}
	}
	at := func(a []float32, x, y, z, c int) float32 { return a[((c*nzo+z)*ghm+y+m)*gwm+x+m] }
	bx := make([]float32, len(bz))
	by := make([]float32, len(bz))
	for c := 0; c < 2; c++ {
		for z := 0; z < nzo; z++ {
			for y := -m; y < gh+m; y++ {
				for x := 0; x < gw; x++ {
					bx[((c*nzo+z)*ghm+y+m)*gwm+x+m] = h5(at(bz, x-2, y, z, c), at(bz, x-1, y, z, c), at(bz, x, y, z, c), at(bz, x+1, y, z, c), at(bz, x+2, y, z, c))
				}
			}
			for y := 0; y < gh; y++ {
				for x := 0; x < gw; x++ {
					by[((c*nzo+z)*ghm+y+m)*gwm+x+m] = h5(at(bx, x, y-2, z, c), at(bx, x, y-1, z, c), at(bx, x, y, z, c), at(bx, x, y+1, z, c), at(bx, x, y+2, z, c))
				}
			}
		}
	}
	lerp := func(a, b, t float32) float32 { return float32(a*float32(1-t)) + float32(b*t) }
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			val := clamp01(v.in.Get(x, y))
			zv := float32(val * invR)
			zi := int(int32(zv))
			zf := zv - float32(zi)
			xf := float32(float32(x%s) / float32(s))
			yf := float32(float32(y%s) / float32(s))
			xi, yi := x/s, y/s
			var out [2]float32
			for c := 0; c < 2; c++ {
				b := func(dx, dy, dz int) float32 { return at(by, xi+dx, yi+dy, zi+dz, c) }
				out[c] = lerp(
					lerp(lerp(b(0, 0, 0), b(1, 0, 0), xf), lerp(b(0, 1, 0), b(1, 1, 0), xf), yf),
					lerp(lerp(b(0, 0, 1), b(1, 0, 1), xf), lerp(b(0, 1, 1), b(1, 1, 1), xf), yf),
					zf)
			}
			ref.Set(float64(out[0]/out[1]), x, y)
		}
	}
	return ref
}

// Check compares out with Reference, within Tol.
func (v *BilateralGrid) Check(out halide.BufferRef) (float64, error) {
	return check(v.Name(), v.in != nil, out, v.Reference, v.Tol)
}

// String describes the size, e.g. "1536x2560 s_sigma=8 r_sigma=0.1".
func (v *BilateralGrid) String() string {
	return fmt.Sprintf("%dx%d s_sigma=%d r_sigma=%g", v.W, v.H, v.SSigma, BilateralGridRSigma)
}
