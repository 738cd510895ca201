package halide_test

// Ports of three more of Halide's apps/ generators (conv_layer,
// depthwise_separable_conv, cuda_mat_mul), written as app_ports_test.go
// writes its ports: the algorithm as the generator writes it, its CPU
// schedule (subtest "cpu") and its CUDA schedule (subtest "gpu", on the
// GPU emulator), every output value checked against a plain-Go reference
// (float64 accumulation) on random inputs from a fixed seed, with the
// tolerance stated at the check. The generators' autoscheduler branches
// (set_estimate calls) are left out: the estimates only feed the
// autoscheduler, which we do not have. Sizes are small. Where the faithful
// schedule is refused, the subtest asserts a typed *halide.Error
// (mpRefused) and a "_variant" subtest makes the smallest change that
// runs; the comment block at the end of the file lists each case.

import (
	"math"
	"math/rand"
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// ---------------------------------------------------------------------
// conv_layer (apps/conv_layer/conv_layer_generator.cpp) at N=2, CI=32,
// CO=32, W=H=10 (the generator's 5, 128, 128, 100, 80). set_stride is not
// in the API: the buffers made here are dense, with the strides the
// generator asks for; set_bounds is Dim(i).SetBounds.

type a2Conv struct {
	x, y, c, n          halide.Var
	r                   *halide.RDom
	input, filter, bias *halide.ImageParam
	conv, relu          *halide.Func
}

func a2ConvAlg(N, CI, CO, W, H int) *a2Conv {
	x, y, c, n := halide.NewVar("x"), halide.NewVar("y"), halide.NewVar("c"), halide.NewVar("n")
	input := halide.NewImageParam("input", halide.Float32, 4)
	filter := halide.NewImageParam("filter", halide.Float32, 4)
	bias := halide.NewImageParam("bias", halide.Float32, 1)
	conv, relu := halide.NewFunc("conv"), halide.NewFunc("relu")
	r := halide.NewRDom("r", halide.Range(0, CI), halide.Range(0, 3), halide.Range(0, 3))
	conv.Define(c, x, y, n).Is(bias.At(c))
	conv.Define(c, x, y, n).PlusEq(filter.At(c, r.Y(), r.Z(), r.X()).Mul(input.At(r.X(), x.Add(r.Y()), y.Add(r.Z()), n)))
	// Halide's max(0, conv(...)): the int 0 is matched to float.
	relu.Define(c, x, y, n).Is(halide.Max(0, conv.At(c, x, y, n)))

	relu.Dim(0).SetBounds(0, CO)
	relu.Dim(1).SetBounds(0, W)
	relu.Dim(2).SetBounds(0, H)
	relu.Dim(3).SetBounds(0, N)
	input.Dim(0).SetBounds(0, CI)
	input.Dim(1).SetBounds(0, W+2)
	input.Dim(2).SetBounds(0, H+2)
	input.Dim(3).SetBounds(0, N)
	filter.Dim(0).SetBounds(0, CO)
	filter.Dim(1).SetBounds(0, 3)
	filter.Dim(2).SetBounds(0, 3)
	filter.Dim(3).SetBounds(0, CI)
	bias.Dim(0).SetBounds(0, CO)
	return &a2Conv{x, y, c, n, r, input, filter, bias, conv, relu}
}

// scheduleCPU is the generator's CPU schedule for x86 with AVX2 (vec = 8,
// tile_w = 3, tile_h = 4).
func (a *a2Conv) scheduleCPU() {
	const vec, tileW, tileH = 8, 3, 4
	x, y, c, n, r := a.x, a.y, a.c, a.n, a.r
	co, ci, xo, xi := halide.NewVar("co"), halide.NewVar("ci"), halide.NewVar("xo"), halide.NewVar("xi")
	a.relu.Split(c, co, ci, vec*tileW).Split(x, xo, xi, tileH).Reorder(ci, xi, xo, y, n, co).
		Vectorize(ci, vec).Unroll(ci).Unroll(xi).Parallel(y).Parallel(n).Parallel(co)
	a.conv.ComputeAt(a.relu, xo).Vectorize(c, vec).Unroll(c).Unroll(x).Unroll(y).
		Update(0).Reorder(c, x, y, r.X(), r.Y(), r.Z(), n).Vectorize(c, vec).Unroll(c).Unroll(x).Unroll(y).Unroll(r.X(), 2)
	_0, _3 := halide.ImplicitVar(0), halide.ImplicitVar(3)
	a.filter.In().ComputeAt(a.conv, r.X()).Vectorize(_0, vec).Unroll(_0).Unroll(_3)
	a.input.In().ComputeAt(a.conv, x).Unroll(_0)
}

// scheduleGPU is the generator's CUDA schedule (with gpu_lanes).
// storeReg: conv.store_in(MemoryType::Register) as written.
func (a *a2Conv) scheduleGPU(storeReg bool) {
	x, y, c, n, r := a.x, a.y, a.c, a.n, a.r
	ni, no, xi, xo, yi, yo, ci, co, t := halide.NewVar("ni"), halide.NewVar("no"), halide.NewVar("xi"), halide.NewVar("xo"),
		halide.NewVar("yi"), halide.NewVar("yo"), halide.NewVar("ci"), halide.NewVar("co"), halide.NewVar("t")
	_, _ = ni, no // declared by the generator, unused there too
	rxo, rxi, rxii := halide.NewRVar("rxo"), halide.NewRVar("rxi"), halide.NewRVar("rxii")
	a.relu.ComputeRoot().Split(x, xo, xi, 5).Split(y, yo, yi, 5).Split(c, co, ci, 32).
		Reorder(xi, yi, ci, xo, yo, co, n).GPULanes(ci).Unroll(xi).Unroll(yi).Fuse(co, n, t).GPUBlocks(xo, yo, t)
	a.conv.ComputeAt(a.relu, xo)
	if storeReg {
		a.conv.StoreIn(halide.Register)
	}
	a.conv.GPULanes(c).Unroll(x).Unroll(y).
		Update(0).Split(r.X(), rxo, rxi, 16).Split(rxi, rxi, rxii, 2).Reorder(c, rxii, x, y, r.Y(), r.Z(), rxi, rxo).
		GPULanes(c).Unroll(x).Unroll(y).Unroll(r.Y()).Unroll(r.Z()).Unroll(rxii)
	_0, _1, _2 := halide.ImplicitVar(0), halide.ImplicitVar(1), halide.ImplicitVar(2)
	a.input.In().ComputeAt(a.conv, rxo).Vectorize(_0, 2).Split(_1, xo, xi, 4).Fuse(_0, xi, t).GPULanes(t).Unroll(xo).Unroll(_2)
}

func a2ConvRef(in, filter, bias *halide.Buffer[float32], CI int) func(c, x, y, n int) float32 {
	return func(c, x, y, n int) float32 {
		s := float64(bias.Get(c))
		for rz := 0; rz < 3; rz++ {
			for ry := 0; ry < 3; ry++ {
				for rx := 0; rx < CI; rx++ {
					s += float64(filter.Get(c, ry, rz, rx)) * float64(in.Get(rx, x+ry, y+rz, n))
				}
			}
		}
		return float32(math.Max(0, s))
	}
}

func TestAppPortConvLayer(t *testing.T) {
	const N, CI, CO, W, H = 2, 32, 32, 10, 10
	rng := rand.New(rand.NewSource(21))
	inb := apRandF32(rng, 0, 1, CI, W+2, H+2, N)
	fb := apRandF32(rng, -1, 1, CO, 3, 3, CI)
	bb := apRandF32(rng, -1, 1, CO)
	ref := a2ConvRef(inb, fb, bb, CI)
	for _, tc := range []struct {
		name     string
		gpu, reg bool
	}{{"cpu", false, false}, {"gpu", true, true}} {
		t.Run(tc.name, func(t *testing.T) {
			a := a2ConvAlg(N, CI, CO, W, H)
			a.input.Set(inb)
			a.filter.Set(fb)
			a.bias.Set(bb)
			if tc.gpu {
				a.scheduleGPU(tc.reg)
			} else {
				a.scheduleCPU()
			}
			ob := halide.NewBuffer[float32](CO, W, H, N)
			if err := apRun(a.relu, tc.gpu, ob); err != nil {
				t.Fatal(err)
			}
			// Tolerance 1e-4 (absolute plus relative): float32 sums of
			// 288 products of values in [-1, 1) x [0, 1), summed in the
			// order the schedule gives (the GPU schedule reorders the
			// RVars), against a float64 sum.
			apCheckF32(t, "relu", ob, 1e-4, func(c []int) float32 { return ref(c[0], c[1], c[2], c[3]) })
		})
	}
}

// ---------------------------------------------------------------------
// depthwise_separable_conv
// (apps/depthwise_separable_conv/depthwise_separable_conv_generator.cpp)
// at the shape the specialization is for (channel_multiplier 1, 32
// intermediate channels, 3x3), CO = 16, W = H = 8, N = 2; the CPU schedule
// also at a shape outside it (channel_multiplier 2, 16 intermediate
// channels). depthwise_filter.dim(1).set_stride(channel_multiplier) is
// not in the API (no set_stride): the filters made here are dense, so the
// stride is channel_multiplier as the generator asks. bound_extent is not
// in the API either (Bound fixes the min too): it is left out, the region
// it bounds having that extent already.

type a2DW struct {
	x, y, d, b                  halide.Var
	rc, dom                     *halide.RDom
	input, dwf, pwf, bias       *halide.ImageParam
	inputBounded, dc, pc, outpt *halide.Func
}

func a2DWAlg() *a2DW {
	x, y, d, b := halide.NewVar("x"), halide.NewVar("y"), halide.NewVar("d"), halide.NewVar("b")
	input := halide.NewImageParam("input", halide.Float32, 4)
	dwf := halide.NewImageParam("depthwise_filter", halide.Float32, 4)
	pwf := halide.NewImageParam("pointwise_filter", halide.Float32, 2)
	bias := halide.NewImageParam("bias", halide.Float32, 1)
	output := halide.NewFunc("output")

	// Halide's Func input_bounded is unnamed; NewFunc needs a name.
	inputBounded := halide.NewFunc("input_bounded")
	inBounds := x.Ge(0).And(x.Lt(input.Dim(1).Extent())).And(y.Ge(0)).And(y.Lt(input.Dim(2).Extent()))
	clampedX := halide.Clamp(x, 0, input.Dim(1).Max())
	clampedY := halide.Clamp(y, 0, input.Dim(2).Max())
	inputBounded.Define(d, x, y, b).Is(halide.Select(inBounds, input.At(d, clampedX, clampedY, b), float32(0)))

	channelMultiplier := dwf.Dim(0).Extent()
	dc := halide.NewFunc("depthwise_convolved")
	padW := dwf.Dim(2).Extent().Div(2)
	padH := dwf.Dim(3).Extent().Div(2)
	dom := halide.NewRDom("depthwise_filter_dom", halide.Range(0, dwf.Dim(0).Extent()),
		halide.Range(0, dwf.Dim(2).Extent()), halide.Range(0, dwf.Dim(3).Extent()))
	rd, rx, ry := dom.X(), dom.Y(), dom.Z()
	dc.Define(d, x, y, b).PlusEq(dwf.At(rd, d, rx, ry).Mul(
		inputBounded.At(d.Div(channelMultiplier), x.Add(rx).Sub(padW), y.Add(ry).Sub(padH), b)))

	pc := halide.NewFunc("pointwise_convolved")
	rc := halide.NewRDom("rc", halide.Range(0, pwf.Dim(1).Extent()))
	pc.Define(d, x, y, b).Is(bias.At(d))
	pc.Define(d, x, y, b).PlusEq(pwf.At(d, rc).Mul(dc.At(rc, x, y, b)))

	output.Define(d, x, y, b).Is(halide.Max(pc.At(d, x, y, b), float32(0)))
	return &a2DW{x, y, d, b, rc, dom, input, dwf, pwf, bias, inputBounded, dc, pc, output}
}

// specialize is the generator's output.specialize(...) after either
// schedule.
func (a *a2DW) specialize() {
	cm := a.dwf.Dim(0).Extent()
	inter := a.pwf.Dim(1).Extent()
	a.outpt.Specialize(cm.Eq(1).And(inter.Eq(inter.Div(32).Mul(32))).
		And(a.dwf.Dim(2).Extent().Eq(3)).And(a.dwf.Dim(3).Extent().Eq(3)))
}

// a2Tile3 is Halide's tile({x, y, z}, {xi, yi, zi}, {fx, fy, fz}, tail):
// the API's Tile takes two dimensions; each is split and the inner loops
// are put innermost, in order, as Halide's vector tile does.
func a2Tile3(s *halide.Stage, x, y, z, xi, yi, zi halide.Var, fx, fy, fz int, tail ...halide.TailStrategy) *halide.Stage {
	return s.Split(x, x, xi, fx, tail...).Split(y, y, yi, fy, tail...).Split(z, z, zi, fz, tail...).
		Reorder(xi, yi, zi, x, y, z)
}

// scheduleCPU is the generator's CPU schedule for x86 with AVX2 (16
// registers, vec = 8: tile_d = 2*8, tile_w = 3, tile_h = 2).
func (a *a2DW) scheduleCPU() {
	const vec = 8
	const tileD, tileW, tileH = 2 * vec, 3, 2
	x, y, d, b := a.x, a.y, a.d, a.b
	di, xi, yi := halide.NewVar("di"), halide.NewVar("xi"), halide.NewVar("yi")
	ro, ri := halide.NewRVar("ro"), halide.NewRVar("ri")
	rd, rx, ry := a.dom.X(), a.dom.Y(), a.dom.Z()
	a2Tile3(a.outpt.Stage(0), d, x, y, di, xi, yi, tileD, tileW, tileH).
		Vectorize(di).Unroll(xi).Unroll(yi).Fuse(y, b, b).Parallel(b)
	a.pc.ComputeAt(a.outpt, d).Vectorize(d).Unroll(x).Unroll(y).
		Update(0).Reorder(d, x, y, a.rc, b).Vectorize(d).Unroll(x).Unroll(y).Split(a.rc, ro, ri, tileD)
	a.dc.StoreIn(halide.Stack).ComputeAt(a.pc, ro).Vectorize(d).Reorder(x, y, d).Unroll(x).Unroll(y).
		Update(0).Vectorize(d).Reorder(x, y, d, rd, rx, ry, b).Unroll(x).Unroll(y)
	a.inputBounded.StoreIn(halide.Stack).ComputeAt(a.pc, ro).
		Tile(d, x, d, x, di, xi, vec, 4, halide.RoundUp).Vectorize(di).Unroll(xi)
}

// scheduleGPU is the generator's CUDA schedule.
func (a *a2DW) scheduleGPU() {
	x, y, d, b := a.x, a.y, a.d, a.b
	xi, yi, di, dii, xii, yii := halide.NewVar("xi"), halide.NewVar("yi"), halide.NewVar("di"),
		halide.NewVar("dii"), halide.NewVar("xii"), halide.NewVar("yii")
	ro, ri := halide.NewRVar("ro"), halide.NewRVar("ri")
	rd, rx, ry := a.dom.X(), a.dom.Y(), a.dom.Z()

	s := a2Tile3(a.outpt.Stage(0), d, x, y, di, xi, yi, 16, 4, 4)
	a2Tile3(s, di, xi, yi, dii, xii, yii, 1, 2, 2).
		GPUThreads(di, xi, yi).Fuse(y, b, b).GPUBlocks(d, x, b).Unroll(xii).Unroll(yii).Unroll(dii)

	a.pc.ComputeAt(a.outpt, di).Reorder(x, y, d).Unroll(x).Unroll(y).Unroll(d).
		Update(0).Unroll(x).Unroll(y).Unroll(d).Split(a.rc, ro, ri, 4).Reorder(ri, x, y, d, ro).Unroll(ri)

	// depthwise_convolved.in().in(): the second wrapper stages the loads
	// from the first (in shared) into registers. bound_extent(d, 4) is
	// left out (see above).
	dcIn := a.dc.In()
	dcIn.In().ComputeAt(a.pc, x).Vectorize(d).Unroll(x).Unroll(y)

	s = a2Tile3(dcIn.Stage(0), d, x, y, di, xi, yi, 32, 4, 4, halide.RoundUp)
	a2Tile3(s, di, xi, yi, dii, xii, yii, 2, 2, 2).
		GPUThreads(di, xi, yi).Unroll(xii).Unroll(yii).Unroll(dii)
	dcIn.ComputeAt(a.outpt, d)

	a.dc.ComputeAt(dcIn, di).Unroll(x).Unroll(y).Unroll(d).
		Update(0).Reorder(d, x, y, rx, ry, rd).Unroll(x).Unroll(y).Unroll(d)
}

func a2DWRef(in, dwf, pwf, bias *halide.Buffer[float32]) func(d, x, y, b int) float32 {
	W, H := in.Dim(1).Extent, in.Dim(2).Extent
	cm, fw, fh := dwf.Dim(0).Extent, dwf.Dim(2).Extent, dwf.Dim(3).Extent
	inter := pwf.Dim(1).Extent
	ib := func(d, x, y, b int) float64 {
		if x < 0 || x >= W || y < 0 || y >= H {
			return 0
		}
		return float64(in.Get(d, x, y, b))
	}
	dw := func(d, x, y, b int) float64 {
		var s float64
		for ry := 0; ry < fh; ry++ {
			for rx := 0; rx < fw; rx++ {
				for rd := 0; rd < cm; rd++ {
					s += float64(dwf.Get(rd, d, rx, ry)) * ib(apEuclidDiv(d, cm), x+rx-fw/2, y+ry-fh/2, b)
				}
			}
		}
		return s
	}
	return func(d, x, y, b int) float32 {
		s := float64(bias.Get(d))
		for rc := 0; rc < inter; rc++ {
			s += float64(pwf.Get(d, rc)) * dw(rc, x, y, b)
		}
		return float32(math.Max(s, 0))
	}
}

func TestAppPortDepthwiseSeparableConv(t *testing.T) {
	const CO, W, H, N = 16, 8, 8, 2
	type shape struct{ CI, CM int }
	spec, general := shape{32, 1}, shape{8, 2}
	// The channel read is d / channel_multiplier, a divisor that is the
	// filter's extent (depthwise 1 at the end of the file). The shape the
	// generator specializes for runs as written, and so does the other one
	// (cpu_unspecialized_shape, refused before); its _variant pads the
	// input buffer with 64 channels of random values on each
	// side (never used: the reference reads channels [0, CI) only).
	const pad = 64
	for _, tc := range []struct {
		name    string
		gpu     bool
		sh      shape
		refused bool
		padded  bool
	}{{"cpu", false, spec, false, false}, {"cpu_unspecialized_shape", false, general, false, false},
		{"cpu_unspecialized_shape_variant_padded_input", false, general, false, true}, {"gpu", true, spec, false, false}} {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewSource(22))
			inter := tc.sh.CI * tc.sh.CM
			inb := apRandF32(rng, 0, 1, tc.sh.CI, W, H, N)
			dwb := apRandF32(rng, -1, 1, tc.sh.CM, inter, 3, 3)
			pwb := apRandF32(rng, -1, 1, CO, inter)
			bb := apRandF32(rng, -1, 1, CO)
			ref := a2DWRef(inb, dwb, pwb, bb)
			a := a2DWAlg()
			if tc.padded {
				padded := apRandF32(rng, 0, 1, tc.sh.CI+2*pad, W, H, N).SetMin(-pad, 0, 0, 0)
				apEach(inb.Shape(), func(c []int) bool {
					padded.Set(inb.Get(c...), c...)
					return true
				})
				a.input.Set(padded)
			} else {
				a.input.Set(inb)
			}
			a.dwf.Set(dwb)
			a.pwf.Set(pwb)
			a.bias.Set(bb)
			if tc.gpu {
				a.scheduleGPU()
			} else {
				a.scheduleCPU()
			}
			a.specialize()
			ob := halide.NewBuffer[float32](CO, W, H, N)
			err := apRun(a.outpt, tc.gpu, ob)
			if tc.refused {
				mpRefused(t, err)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			// Tolerance 1e-4 (absolute plus relative): float32 sums of at
			// most 32 products of 9-to-18-term float32 sums, in the
			// schedule's order, against float64.
			apCheckF32(t, "output", ob, 1e-4, func(c []int) float32 { return ref(c[0], c[1], c[2], c[3]) })
		})
	}
}

// ---------------------------------------------------------------------
// cuda_mat_mul (apps/cuda_mat_mul/mat_mul_generator.cpp) at size 128 (the
// generator's GeneratorParam size is 1024). The generator has one
// schedule, for CUDA ("gpu"); it has no CPU schedule: "cpu_same_loops" is
// its loop structure with the GPU loops left serial, on the CPU.
// set_host_alignment(16) and dim(1).set_stride(size) are not in the API
// (the buffers made here are dense, so the stride is size);
// dim(0).set_bounds is Dim(0).SetBounds.

type a2MM struct {
	x, y     halide.Var
	r        *halide.RDom
	A, B     *halide.ImageParam
	prod, mm *halide.Func
}

func a2MMAlg(size int) *a2MM {
	x, y := halide.NewVar("x"), halide.NewVar("y")
	A := halide.NewImageParam("A", halide.Float32, 2)
	B := halide.NewImageParam("B", halide.Float32, 2)
	out := halide.NewFunc("out")
	prod := halide.NewFunc("prod")
	r := halide.NewRDom("r", halide.Range(0, size))
	prod.Define(x, y).PlusEq(A.At(x, r).Mul(B.At(r, y)))
	out.Define(x, y).Is(prod.At(x, y))
	return &a2MM{x, y, r, A, B, prod, out}
}

func (a *a2MM) schedule(size int, gpu bool) {
	x, y, r := a.x, a.y, a.r
	xi, yi, xii, yii := halide.NewVar("xi"), halide.NewVar("yi"), halide.NewVar("xii"), halide.NewVar("yii")
	a.mm.Bound(x, 0, size).Bound(y, 0, size).Tile(x, y, x, y, xi, yi, 64, 16).Tile(xi, yi, xi, yi, xii, yii, 4, 8)
	if gpu {
		a.mm.GPUBlocks(x, y).GPUThreads(xi, yi)
	}
	a.mm.Unroll(xii).Unroll(yii)
	a.prod.ComputeAt(a.mm, xi).Vectorize(x).Unroll(y).
		Update(0).Reorder(x, y, r).Vectorize(x).Unroll(y).Unroll(r, 8)
	_0, _1 := halide.ImplicitVar(0), halide.ImplicitVar(1)
	a.A.In().ComputeAt(a.prod, r).Vectorize(_0).Unroll(_1)
	a.B.In().ComputeAt(a.prod, r).Vectorize(_0).Unroll(_1)
	for _, p := range []*halide.ImageParam{a.A, a.B} {
		p.Dim(0).SetBounds(0, size)
	}
	a.mm.Dim(0).SetBounds(0, size)
	// "Always specify bounds for outputs".
	a.mm.Bound(x, 0, size).Bound(y, 0, size)
}

func TestAppPortCudaMatMul(t *testing.T) {
	const size = 128
	rng := rand.New(rand.NewSource(23))
	ab := apRandF32(rng, -1, 1, size, size)
	bb := apRandF32(rng, -1, 1, size, size)
	ref := func(x, y int) float32 {
		var s float64
		for r := 0; r < size; r++ {
			s += float64(ab.Get(x, r)) * float64(bb.Get(r, y))
		}
		return float32(s)
	}
	for _, tc := range []struct {
		name string
		gpu  bool
	}{{"gpu", true}, {"cpu_same_loops", false}} {
		t.Run(tc.name, func(t *testing.T) {
			a := a2MMAlg(size)
			a.A.Set(ab)
			a.B.Set(bb)
			a.schedule(size, tc.gpu)
			ob := halide.NewBuffer[float32](size, size)
			if err := apRun(a.mm, tc.gpu, ob); err != nil {
				t.Fatal(err)
			}
			// Tolerance 1e-4 (absolute plus relative): a float32 sum of
			// 128 products of values in [-1, 1), in order, against float64.
			apCheckF32(t, "out", ob, 1e-4, func(c []int) float32 { return ref(c[0], c[1]) })
		})
	}
}

// TestAppPort2DivBounds is depthwise 1 reduced: f(x) = in(x / p) over
// [0, 16) with p = 2 (a Param, or the extent of a buffer's dimension)
// reads in over [0, 7], and runs with an 8-element input, as in Halide
// (the bounds of a / b, b a single symbolic point of unknown sign, are
// select(b >= 0, a.min / b, a.max / b) .. select(b >= 0, a.max / b,
// a.min / b), exact at run time). It was refused (the quotient was
// bounded by [-15, 15]). A constant divisor is exact too.
func TestAppPort2DivBounds(t *testing.T) {
	for _, kind := range []string{"param", "dim_extent", "const"} {
		t.Run(kind, func(t *testing.T) {
			x := halide.NewVar("x")
			in := halide.NewImageParam("in", halide.Int32, 1)
			k := halide.NewImageParam("k", halide.Int32, 1)
			p := halide.NewParam[int32]("p")
			p.Set(2)
			div := map[string]halide.Expr{"param": p.Expr(), "dim_extent": k.Dim(0).Extent(), "const": halide.E(2)}[kind]
			f := halide.NewFunc("f")
			f.Define(x).Is(in.At(x.Div(div)).Add(k.At(0)))
			ib := halide.NewBuffer[int32](8)
			ib.Fill(func(c []int) int32 { return int32(10 * c[0]) })
			in.Set(ib)
			kb := halide.NewBuffer[int32](2)
			k.Set(kb)
			ob := halide.NewBuffer[int32](16)
			if err := halide.NewPipeline(f).Realize(ob); err != nil {
				t.Fatal(err)
			}
			mpCheck1(t, "f", ob, 16, func(x int) int32 { return int32(10 * (x / 2)) })
		})
	}
}

/*
Findings (each app's subtests, and what the port had to change).

conv_layer: "cpu" (the x86 AVX2 schedule: vec 8, tile_w 3, tile_h 4,
filter.in() and input.in() with implicit-var directives) and "gpu" (the
CUDA schedule: gpu_lanes on relu's ci, conv in registers with gpu_lanes
on c and the RVar split twice and reordered around r.y/r.z, input.in()
with vectorize/split/fuse/gpu_lanes on _0, _1) both run as written and
match the reference. The report shows input_in in shared memory (784
floats: 16 channels x 7 x 7) and conv in 25 registers per thread.
Not in the API: set_stride (the buffers are dense with the strides the
generator asks for). The generator's unused Vars ni, no are declared too.

depthwise_separable_conv: "cpu" and "gpu" run as written. They were
refused at Realize (depthwise 1): the input channel is d /
channel_multiplier, with channel_multiplier =
depthwise_filter.dim(0).extent(), and a quotient by a non-constant was
bounded as [-|a|, |a|] ("reads input input over [-31, 48] in dimension
0, but the buffer covers [0, 31]"). Now a quotient by a Param or a
buffer's extent is bounded by select(b >= 0, a.min / b, a.max / b) ..
select(b >= 0, a.max / b, a.min / b), as Halide's, and the buffer checks
of a specialization's case see the values its condition fixes
(channel_multiplier == 1), so that the ends of input_bounded's RoundUp
region stay linked.
  cpu_unspecialized_shape (channel_multiplier 2, 8 input channels, the
  case the specialization does not cover; not a shape Halide's own test
  runs) was refused: "out_of_bounds: Func input_bounded: Realize: Func
  input_bounded reads input input over [0, 14] in dimension 0, but the
  buffer covers [0, 7]". It runs now: a region end that selects on the
  specialization's condition inside it is ranged over a loop once per
  value of the condition (bounds/box.go rangeEnd), so the case that does
  not run no longer widens the other's. Variant: the input padded by 64
  channels on each side (cpu_unspecialized_shape_variant_padded_input).
  Not in the API: the vector form of tile (tile({d, x, y}, {di, xi, yi},
  {...})): a2Tile3 splits each and reorders the inner loops innermost, as
  Halide's does; bound_extent (left out: the regions it bounds have that
  extent already, and vectorize(d) without a factor is accepted);
  set_stride on depthwise_filter.dim(1) (the buffer is dense, so its
  stride is channel_multiplier). Func input_bounded is unnamed in the
  generator (named here). fuse(y, b, b) (the fused loop named as one of
  its parts) is accepted.

cuda_mat_mul: "gpu" (the generator's only schedule) runs as written at
size 128 (a 2 x 8 grid) and matches; "cpu_same_loops" is the same schedule with its GPU
loops left serial, on the CPU (the generator has no CPU schedule). Not in
the API: set_host_alignment(16) and dim(1).set_stride(size).

No wrong value, panic or internal error was found in these three apps.
*/
