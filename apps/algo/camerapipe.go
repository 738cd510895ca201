package algo

import (
	"fmt"
	"math/rand"

	"github.com/gohalide/gohalide/halide"
)

// CameraPipe is Halide's apps/camera_pipe (camera_pipe_generator.cpp at
// v14.0.0, with its Demosaic sub-generator), the FCam raw pipeline: a
// 10-bit Bayer raw image (uint16 [x, y], GRBG) in, an 8-bit RGB image
// (uint8 [x, y, c]) out, 32 columns and 24 rows smaller (process.cpp:
// 2592 x 1968 in, 2560 x 1920 out):
//
//	shifted(x, y)        = input(x + 16, y + 12)
//	denoised(x, y)       = clamp(shifted(x, y), 0, max of shifted(x±2, y), shifted(x, y±2))
//	deinterleaved(x,y,c) = mux(c, denoised(2x, 2y), (2x+1, 2y), (2x, 2y+1), (2x+1, 2y+1))
//	demosaic             = Halide's Demosaic: g_r, g_b chosen along the direction
//	                       of least difference, red and blue corrected by green's
//	                       second derivative, interleaved back (int16 [x, y, c])
//	matrix(x, y)         = int16(256 (m3200 alpha + m7000 (1 - alpha)))   alpha from 1/color_temp
//	corrected(x, y, c)   = int16((matrix(3, c) + sum_k matrix(k, c) demosaic(x, y, k)) / 256)
//	curve(v)             = the tone curve of FCam (gamma, contrast, black and white level) as a LUT
//	curved(x, y, c)      = curve(clamp(corrected(x, y, c), 0, 1023))
//	processed(x, y, c)   = u8_sat(curved + (curved - blur121(blur121(curved))) * sharpen_x32 / 32)
//
// Every Func is named as in Halide's generator (the anonymous ones after
// their variables there: g_gr, r_r, ..., the interleaved r, g and b). All
// the arithmetic is integer but the color matrix and the tone curve (float32,
// computed once, then cast to integers), so the output is compared exactly
// with the plain-Go reference (Reference), which computes the float32 steps
// in float32 (each operation rounded) and pow in float64 rounded to float32,
// as the CPU path and the emulator do. The float steps end in casts to
// integers (int16 for the matrix, uint8 for the curve), so a GPU whose
// float results differ in the last bits (CUDA contracts a*b+c into an FMA;
// its powf is within 2 ulp) gives the same integers unless a value lies
// within that error of an integer: with process.cpp's parameters none
// does (the curve's values lie at least 0.003 from one, the matrix's at
// least 0.009 (18 ulp), and contracting every a*b+c changes none of them; checked
// when this was written), so the output is compared exactly on every
// target.
//
// The schedules are in camerapipe_schedules.go.
type CameraPipe struct {
	// W and H are the output's width and height (even); InW and InH the
	// raw input's, at least W + 32 and H + 24 (the pipeline reads the
	// input's columns [8, W + 24) and rows [4, H + 20)).
	W, H, InW, InH int

	// Inputs, as Halide's generator names them.
	Input                     *halide.ImageParam // uint16 [x, y]
	Matrix3200, Matrix7000    *halide.ImageParam // float32 [4, 3]
	ColorTemp, Gamma          *halide.Param[float32]
	Contrast, SharpenStrength *halide.Param[float32]
	BlackLevel, WhiteLevel    *halide.Param[int32]

	// Vars, shared by all the Funcs as in the generator.
	X, Y, C halide.Var

	// The stages a schedule names.
	Shifted, Denoised, Deinterleaved *halide.Func
	// Demosaic's intermediates (scheduled) and its output.
	GR, GB, Demosaiced                 *halide.Func
	Matrix, Corrected                  *halide.Func
	Curve, Curved                      *halide.Func
	SharpenX32                         *halide.Func
	UnsharpY, Unsharp, Mask, Sharpened *halide.Func
	Processed                          *halide.Func

	// The parameters Inputs sets (process.cpp's).
	params cameraParams
	inBuf  *halide.Buffer[uint16]
	m3200  *halide.Buffer[float32]
	m7000  *halide.Buffer[float32]
}

// cameraParams are the scalar inputs of a run.
type cameraParams struct {
	colorTemp, gamma, contrast, sharpen float32
	blackLevel, whiteLevel              int32
}

// process.cpp's parameters: "./process raw.png 3700 2.0 50 1.0", black
// level 25, white level 1023.
var cameraDefaults = cameraParams{colorTemp: 3700, gamma: 2.0, contrast: 50, sharpen: 1.0, blackLevel: 25, whiteLevel: 1023}

// The color matrices of process.cpp (the Nokia N900's sensor, from FCam),
// row-major [3][4]; the buffers are [x = column, y = row].
var (
	cameraMatrix3200 = [3][4]float32{{1.6697, -0.2693, -0.4004, -42.4346},
		{-0.3576, 1.0615, 1.5949, -37.1158},
		{-0.2175, -1.8751, 6.9640, -26.6970}}
	cameraMatrix7000 = [3][4]float32{{2.2997, -0.4478, 0.1706, -39.0923},
		{-0.3826, 1.5906, -0.2080, -25.4311},
		{-0.0888, -0.7344, 2.2832, -20.0826}}
)

// avg averages two non-negative values rounding up, in the wider type
// (the generator's avg).
func avg(a, b halide.Expr) halide.Expr {
	t := a.Type()
	wider := halide.Type{Code: t.Code, Bits: t.Bits * 2}
	return halide.Cast(t, halide.Cast(wider, a).Add(b).Add(1).Div(2))
}

// blur121 is avg(avg(a, c), b).
func blur121(a, b, c halide.Expr) halide.Expr { return avg(avg(a, c), b) }

// maxN is Halide's variadic max.
func maxN(a halide.Expr, rest ...halide.Expr) halide.Expr {
	for _, b := range rest {
		a = halide.Max(a, b)
	}
	return a
}

// NewCameraPipe builds the algorithm for a W x H output (W and H even)
// from a (W+32) x (H+24) input.
func NewCameraPipe(W, H int) *CameraPipe { return newCameraPipe(W, H, W+32, H+24) }

// NewCameraPipeForInput builds the algorithm for an inW x inH raw input,
// with the output size process.cpp gives it: ((inW - 32) / 32) * 32 by
// ((inH - 24) / 32) * 32 (2560 x 1920 for the app's 2592 x 1968 image).
func NewCameraPipeForInput(inW, inH int) *CameraPipe {
	return newCameraPipe((inW-32)/32*32, (inH-24)/32*32, inW, inH)
}

func newCameraPipe(W, H, inW, inH int) *CameraPipe {
	p := &CameraPipe{W: W, H: H, InW: inW, InH: inH}
	p.Input = halide.NewImageParam("input", halide.UInt16, 2)
	p.Matrix3200 = halide.NewImageParam("matrix_3200", halide.Float32, 2)
	p.Matrix7000 = halide.NewImageParam("matrix_7000", halide.Float32, 2)
	p.ColorTemp = halide.NewParam[float32]("color_temp")
	p.Gamma = halide.NewParam[float32]("gamma")
	p.Contrast = halide.NewParam[float32]("contrast")
	p.SharpenStrength = halide.NewParam[float32]("sharpen_strength")
	p.BlackLevel = halide.NewParam[int32]("blackLevel")
	p.WhiteLevel = halide.NewParam[int32]("whiteLevel")
	x, y, c := halide.NewVar("x"), halide.NewVar("y"), halide.NewVar("c")
	p.X, p.Y, p.C = x, y, c

	// shift things inwards to give us enough padding on the boundaries so
	// that we don't need to check bounds.
	p.Shifted = halide.NewFunc("shifted")
	p.Shifted.Define(x, y).Is(p.Input.At(x.Add(16), y.Add(12)))
	p.Denoised = p.hotPixelSuppression(p.Shifted)
	p.Deinterleaved = p.deinterleave(p.Denoised)
	p.Demosaiced = p.demosaic(p.Deinterleaved)
	p.Corrected = p.colorCorrect(p.Demosaiced)
	p.Curved = p.applyCurve(p.Corrected)
	p.Sharpened = p.sharpen(p.Curved)
	p.Processed = halide.NewFunc("processed")
	p.Processed.Define(x, y, c).Is(p.Sharpened.At(x, y, c))
	return p
}

func (p *CameraPipe) hotPixelSuppression(in *halide.Func) *halide.Func {
	x, y := p.X, p.Y
	a := maxN(in.At(x.Sub(2), y), in.At(x.Add(2), y), in.At(x, y.Sub(2)), in.At(x, y.Add(2)))
	denoised := halide.NewFunc("denoised")
	denoised.Define(x, y).Is(halide.Clamp(in.At(x, y), 0, a))
	return denoised
}

func (p *CameraPipe) deinterleave(raw *halide.Func) *halide.Func {
	x, y, c := p.X, p.Y, p.C
	d := halide.NewFunc("deinterleaved")
	x2, y2 := x.Mul(2), y.Mul(2)
	d.Define(x, y, c).Is(halide.Mux(c,
		raw.At(x2, y2), raw.At(x2.Add(1), y2),
		raw.At(x2, y2.Add(1)), raw.At(x2.Add(1), y2.Add(1))))
	return d
}

// interleaveX is out(x, y) = select(x % 2 == 0, a(x/2, y), b(x/2, y)).
func (p *CameraPipe) interleaveX(name string, a, b *halide.Func) *halide.Func {
	x, y := p.X, p.Y
	out := halide.NewFunc(name)
	out.Define(x, y).Is(halide.Select(x.Mod(2).Eq(0), a.At(x.Div(2), y), b.At(x.Div(2), y)))
	return out
}

// interleaveY is out(x, y) = select(y % 2 == 0, a(x, y/2), b(x, y/2)).
func (p *CameraPipe) interleaveY(name string, a, b *halide.Func) *halide.Func {
	x, y := p.X, p.Y
	out := halide.NewFunc(name)
	out.Define(x, y).Is(halide.Select(y.Mod(2).Eq(0), a.At(x, y.Div(2)), b.At(x, y.Div(2))))
	return out
}

// demosaic is Halide's Demosaic generator: deinterleaved (uint16 [x, y,
// 4]) in, int16 [x, y, 3] out. Its intermediates g_r and g_b are p.GR and
// p.GB.
func (p *CameraPipe) demosaic(deinterleaved *halide.Func) *halide.Func {
	x, y, c := p.X, p.Y, p.C
	chan_ := func(name string, k int) *halide.Func {
		f := halide.NewFunc(name)
		f.Define(x, y).Is(deinterleaved.At(x, y, k))
		return f
	}
	// The four channels we know: x_y is channel x at a site of channel y.
	gGR, rR, bB, gGB := chan_("g_gr", 0), chan_("r_r", 1), chan_("b_b", 2), chan_("g_gb", 3)
	xm1, xp1, ym1, yp1 := x.Sub(1), x.Add(1), y.Sub(1), y.Add(1)

	// Green at the red and blue sites: interpolate vertically or
	// horizontally, whichever differs least.
	// leastDiff averages v at (x, y) and (vx, vy), or h at (x, y) and
	// (hx, hy), whichever pair differs least.
	leastDiff := func(name string, v *halide.Func, vx, vy any, h *halide.Func, hx, hy any) *halide.Func {
		gv, gvd := avg(v.At(vx, vy), v.At(x, y)), halide.Absd(v.At(vx, vy), v.At(x, y))
		gh, ghd := avg(h.At(hx, hy), h.At(x, y)), halide.Absd(h.At(hx, hy), h.At(x, y))
		f := halide.NewFunc(name)
		f.Define(x, y).Is(halide.Select(ghd.Lt(gvd), gh, gv))
		return f
	}
	gR := leastDiff("g_r", gGB, x, ym1, gGR, xp1, y)
	gB := leastDiff("g_b", gGR, x, yp1, gGB, xm1, y)
	p.GR, p.GB = gR, gB

	// Red and blue at green sites: interpolate, then correct with green's
	// second derivative.
	def := func(name string, v halide.Expr) *halide.Func {
		f := halide.NewFunc(name)
		f.Define(x, y).Is(v)
		return f
	}
	correction := gGR.At(x, y).Sub(avg(gR.At(x, y), gR.At(xm1, y)))
	rGR := def("r_gr", correction.Add(avg(rR.At(xm1, y), rR.At(x, y))))
	correction = gGR.At(x, y).Sub(avg(gB.At(x, y), gB.At(x, ym1)))
	bGR := def("b_gr", correction.Add(avg(bB.At(x, y), bB.At(x, ym1))))
	correction = gGB.At(x, y).Sub(avg(gR.At(x, y), gR.At(x, yp1)))
	rGB := def("r_gb", correction.Add(avg(rR.At(x, y), rR.At(x, yp1))))
	correction = gGB.At(x, y).Sub(avg(gB.At(x, y), gB.At(xp1, y)))
	bGB := def("b_gb", correction.Add(avg(bB.At(x, y), bB.At(xp1, y))))

	// Red at blue and blue at red: along the diagonal of least
	// difference, corrected the same way. diagonal interpolates c (its
	// green gc) at a site whose green is g, between the points p1, p2 of
	// one diagonal and n1, n2 of the other.
	type at struct{ x, y any }
	diagonal := func(g, gc, c *halide.Func, p1, p2, n1, n2 at) halide.Expr {
		along := func(a, b at) (v, d halide.Expr) {
			correction := g.At(x, y).Sub(avg(gc.At(a.x, a.y), gc.At(b.x, b.y)))
			return correction.Add(avg(c.At(a.x, a.y), c.At(b.x, b.y))), halide.Absd(c.At(a.x, a.y), c.At(b.x, b.y))
		}
		pv, pd := along(p1, p2)
		nv, nd := along(n1, n2)
		return halide.Select(pd.Lt(nd), pv, nv)
	}
	rB := def("r_b", diagonal(gB, gR, rR, at{x, y}, at{xm1, yp1}, at{xm1, y}, at{x, yp1}))
	bR := def("b_r", diagonal(gR, gB, bB, at{x, y}, at{xp1, ym1}, at{xp1, y}, at{x, ym1}))

	// Interleave the resulting channels.
	r := p.interleaveY("r", p.interleaveX("r_top", rGR, rR), p.interleaveX("r_bottom", rB, rGB))
	g := p.interleaveY("g", p.interleaveX("g_top", gGR, gR), p.interleaveX("g_bottom", gB, gGB))
	b := p.interleaveY("b", p.interleaveX("b_top", bGR, bR), p.interleaveX("b_bottom", bB, bGB))

	// Some of the final additions of correction terms may have
	// underflowed, so the output is reinterpreted as signed.
	out := halide.NewFunc("demosaiced")
	out.Define(x, y, c).Is(halide.Cast(halide.Int16, halide.Mux(c, r.At(x, y), g.At(x, y), b.At(x, y))))
	return out
}

func (p *CameraPipe) colorCorrect(in *halide.Func) *halide.Func {
	x, y, c := p.X, p.Y, p.C
	// A color matrix interpolated between the two calibrated ones by
	// inverse kelvin. The constants are C++ float arithmetic in the
	// generator: rounded to float32 at each step here too.
	var inv3200, inv7000 float32 = 1.0 / 3200, 1.0 / 7000
	den := inv7000 - inv3200
	kelvin := p.ColorTemp.Expr()
	alpha := halide.E(float32(1)).Div(kelvin).Sub(inv3200).Div(den)
	val := p.Matrix3200.At(x, y).Mul(alpha).Add(p.Matrix7000.At(x, y).Mul(halide.E(float32(1)).Sub(alpha)))
	p.Matrix = halide.NewFunc("matrix")
	p.Matrix.Define(x, y).Is(halide.Cast(halide.Int16, val.Mul(float32(256)))) // Q8.8 fixed point

	m := p.Matrix
	ir := halide.Cast(halide.Int32, in.At(x, y, 0))
	ig := halide.Cast(halide.Int32, in.At(x, y, 1))
	ib := halide.Cast(halide.Int32, in.At(x, y, 2))
	row := func(k int) halide.Expr {
		v := m.At(3, k).Add(m.At(0, k).Mul(ir)).Add(m.At(1, k).Mul(ig)).Add(m.At(2, k).Mul(ib))
		return halide.Cast(halide.Int16, v.Div(256))
	}
	corrected := halide.NewFunc("corrected")
	corrected.Define(x, y, c).Is(halide.Mux(c, row(0), row(1), row(2)))
	return corrected
}

func (p *CameraPipe) applyCurve(in *halide.Func) *halide.Func {
	x, y, c := p.X, p.Y, p.C
	// copied from FCam (lutResample is 1 but on Hexagon, whose branch is
	// not ported).
	minRaw := p.BlackLevel.Expr()
	maxRaw := p.WhiteLevel.Expr()
	invRange := halide.E(float32(1)).Div(halide.Cast(halide.Float32, maxRaw.Sub(minRaw)))
	b := halide.E(float32(2)).Sub(halide.Pow(float32(2), p.Contrast.Expr().Div(float32(100))))
	a := halide.E(float32(2)).Sub(halide.E(float32(2)).Mul(b))
	// A linear luminance in [0, 1], gamma corrected.
	xf := halide.Clamp(halide.Cast(halide.Float32, x.Sub(minRaw)).Mul(invRange), float32(0), float32(1))
	g := halide.Pow(xf, halide.E(float32(1)).Div(p.Gamma.Expr()))
	// A piecewise quadratic contrast curve.
	omg := halide.E(float32(1)).Sub(g)
	z := halide.Select(g.Gt(float32(0.5)),
		halide.E(float32(1)).Sub(a.Mul(omg).Mul(omg).Add(b.Mul(omg))),
		a.Mul(g).Mul(g).Add(b.Mul(g)))
	val := halide.Cast(halide.UInt8, halide.Clamp(z.Mul(float32(255)).Add(float32(0.5)), float32(0), float32(255)))
	p.Curve = halide.NewFunc("curve")
	// makeLUT's guard band outside of (minRaw, maxRaw].
	p.Curve.Define(x).Is(halide.Select(x.Le(minRaw), 0, halide.Select(x.Gt(maxRaw), 255, val)))

	curved := halide.NewFunc("curved")
	// The clamp restricts the size of the LUT that compute_root allocates.
	curved.Define(x, y, c).Is(p.Curve.At(halide.Cast(halide.Int32, halide.Clamp(in.At(x, y, c), 0, 1023))))
	return curved
}

func (p *CameraPipe) sharpen(in *halide.Func) *halide.Func {
	x, y, c := p.X, p.Y, p.C
	// The sharpening strength in 2.5 fixed point: sharpening in [0, 4].
	p.SharpenX32 = halide.NewFunc("sharpen_strength_x32")
	p.SharpenX32.Define().Is(halide.U8Sat(p.SharpenStrength.Expr().Mul(float32(32))))

	// An unsharp mask, blurring in y, then in x.
	p.UnsharpY = halide.NewFunc("unsharp_y")
	p.UnsharpY.Define(x, y, c).Is(blur121(in.At(x, y.Sub(1), c), in.At(x, y, c), in.At(x, y.Add(1), c)))
	p.Unsharp = halide.NewFunc("unsharp")
	p.Unsharp.Define(x, y, c).Is(blur121(p.UnsharpY.At(x.Sub(1), y, c), p.UnsharpY.At(x, y, c), p.UnsharpY.At(x.Add(1), y, c)))
	p.Mask = halide.NewFunc("mask")
	p.Mask.Define(x, y, c).Is(halide.Cast(halide.Int16, in.At(x, y, c)).Sub(halide.Cast(halide.Int16, p.Unsharp.At(x, y, c))))
	// The mask weighted by the strength, added to the input.
	sharpened := halide.NewFunc("sharpened")
	sharpened.Define(x, y, c).Is(halide.U8Sat(in.At(x, y, c).Add(p.Mask.At(x, y, c).Mul(p.SharpenX32.At()).Div(32))))
	return sharpened
}

// Name returns "camera_pipe".
func (p *CameraPipe) Name() string { return "camera_pipe" }

// Out returns the output Func, processed.
func (p *CameraPipe) Out() *halide.Func { return p.Processed }

// InputWidth and InputHeight are the raw input's size.
func (p *CameraPipe) InputWidth() int  { return p.InW }
func (p *CameraPipe) InputHeight() int { return p.InH }

// Inputs makes a random 10-bit raw image with structure (a diagonal
// gradient, so that the curve's guard bands, the clamps and both branches
// of the direction tests are exercised, plus uniform noise and a few hot
// and dead pixels for the hot-pixel suppression) and sets process.cpp's
// matrices and parameters.
func (p *CameraPipe) Inputs(rng *rand.Rand) {
	w, h := p.InputWidth(), p.InputHeight()
	in := halide.NewBuffer[uint16](w, h)
	in.Fill(func(c []int) uint16 {
		x, y := c[0], c[1]
		grad := (x*1100/w + y*300/h) - 100 // -100 .. 1300, clamped below
		v := grad + rng.Intn(200) - 100
		switch r := rng.Intn(100); {
		case r == 0:
			v = 1023 // hot
		case r == 1:
			v = 0 // dead
		case r < 10:
			v = rng.Intn(1024) // noise
		}
		return uint16(min(max(v, 0), 1023))
	})
	p.SetInputs(in, cameraDefaults)
}

// SetInputs sets the raw image in (of InputWidth x InputHeight) and the
// parameters, with process.cpp's matrices.
func (p *CameraPipe) SetInputs(in *halide.Buffer[uint16], prm cameraParams) {
	p.inBuf, p.params = in, prm
	p.m3200 = halide.NewBuffer[float32](4, 3)
	p.m7000 = halide.NewBuffer[float32](4, 3)
	for i := 0; i < 3; i++ {
		for j := 0; j < 4; j++ {
			p.m3200.Set(cameraMatrix3200[i][j], j, i)
			p.m7000.Set(cameraMatrix7000[i][j], j, i)
		}
	}
	p.Input.Set(in)
	p.Matrix3200.Set(p.m3200)
	p.Matrix7000.Set(p.m7000)
	p.ColorTemp.Set(prm.colorTemp)
	p.Gamma.Set(prm.gamma)
	p.Contrast.Set(prm.contrast)
	p.SharpenStrength.Set(prm.sharpen)
	p.BlackLevel.Set(prm.blackLevel)
	p.WhiteLevel.Set(prm.whiteLevel)
}

// RawInput returns the raw image Inputs made (nil before).
func (p *CameraPipe) RawInput() *halide.Buffer[uint16] { return p.inBuf }

// NewOutput returns a zeroed uint8 [W, H, 3].
func (p *CameraPipe) NewOutput() halide.BufferRef { return halide.NewBuffer[uint8](p.W, p.H, 3) }

// Run realizes pl into a new output buffer.
func (p *CameraPipe) Run(pl *halide.Pipeline) (halide.BufferRef, error) {
	return run(pl, p.NewOutput())
}

// Check compares out with Reference: the values must be identical.
func (p *CameraPipe) Check(out halide.BufferRef) (float64, error) {
	if p.inBuf == nil {
		return 0, ErrNoInputs
	}
	got, ok := out.(*halide.Buffer[uint8])
	if !ok || got == nil {
		return 1, fmt.Errorf("%s: the output is %T, want a *halide.Buffer[uint8]", p.Name(), out)
	}
	want := p.Reference()
	gs := got.Shape()
	if len(gs) != 3 || gs[0].Extent != p.W || gs[1].Extent != p.H || gs[2].Extent != 3 || gs[0].Min != 0 || gs[1].Min != 0 || gs[2].Min != 0 {
		return 1, fmt.Errorf("%s: output shape %v, want [0, %d) x [0, %d) x [0, 3)", p.Name(), gs, p.W, p.H)
	}
	bad, maxRel := 0, 0.0
	var first string
	for c := 0; c < 3; c++ {
		for y := 0; y < p.H; y++ {
			for x := 0; x < p.W; x++ {
				g, w := got.Get(x, y, c), want.Get(x, y, c)
				if g != w {
					if bad == 0 {
						first = fmt.Sprintf("output(%d, %d, %d) = %d, want %d", x, y, c, g, w)
					}
					bad++
					d := float64(g) - float64(w)
					if d < 0 {
						d = -d
					}
					maxRel = max(maxRel, d/max(1, float64(w)))
				}
			}
		}
	}
	if bad > 0 {
		return maxRel, fmt.Errorf("%s: %d of %d values differ; the first: %s", p.Name(), bad, 3*p.W*p.H, first)
	}
	return 0, nil
}
