package halide_test

// A port of Halide's apps/compositing (compositing_generator.cpp, the
// newest Halide app): Porter-Duff compositing of a stack of six RGBA
// layers with a blend mode per layer read at run time from an ops buffer,
// a mini-interpreter that runs all five blend modes under an
// RDom::where(r[0] == ops(r[1])) and unrolls r[0] into a switch. The
// generator picks its arithmetic by target: float intermediates where the
// target has a GPU feature, uint16 fixed point (premultiplied colours) and
// uint8 alpha on the CPU. Both variants are ported as the generator writes
// them (a6Gen.gpu plays get_target().has_gpu_feature()), each with its
// own schedule as written: the CPU variant with the CPU schedule on the
// CPU, the GPU variant with the GPU schedule on the GPU emulator (and,
// built with -tags cuda, on a GPU: app_ports6_cuda_test.go). The output
// is 37 x 23 and the layers small random images (alpha 0 and 255 among
// random values) and the ops random in [0, 5), plus process.cpp's {4, 3,
// 2, 1, 0} and codes no mode has; every output value is checked against
// a plain-Go reference of the same arithmetic (a6RefCPU, a6RefGPU),
// written from the generator's source, not from our lowering: exactly on
// the CPU and on the emulator, within 1 in uint8 on a GPU (a6Check says
// why). The CPU variant's layers are 64 wide, whole vectors of 32, as the
// app's 1536-wide images are: its schedule reads them up to x = 63 for a
// 37-wide output, and refuses 37-wide layers as Halide's input bounds
// check does (TestAppPort6CompositingNarrowInputs). The library took
// every directive as written and gave the reference's values: no bug
// found.
//
// Spelled as a Halide user would: layer_vec are Tuples of the layers'
// channels, layer_muxed is mux of Tuples (MuxTuple), blended is a Tuple
// Func of four values (uint16 x 3 and uint8 on the CPU, float32 x 4 on
// the GPU) with an update over RDom r(0, 5, 0, 5).Where(r.x == ops(r.y)),
// and the output is mux(c, Tuple) (Mux of a Tuple). widening_mul,
// rounding_shift_right, saturating_cast and fast_integer_divide are
// WideningMul, RoundingShiftRight, SaturatingCast and FastIntegerDivide.
//
// Closest equivalents, not in our API as in Halide:
//   - Input<Buffer<uint8_t, 3>[6]> and Input<Buffer<int, 1>> are
//     ImageParams (layer_rgba_0 ... layer_rgba_5, ops): each variant's
//     pipeline is built once, as the generator is compiled once, and
//     realized for every case with new buffers Set on the params, as
//     process.cpp calls the compiled pipeline.
//   - natural_vector_size<uint8_t>() is taken as an AVX2 host's, 32
//     (a5NVS's 8 float32 lanes in bytes).
//   - gpu_tile(x, y, xi, yi, 32, 8), whose outer loops keep the names x
//     and y, is GPUTile(x, y, x, y, xi, yi, 32, 8).
//   - fast_integer_divide follows Halide's contract at the mirror's HEAD
//     (FastIntegerDivide.h since #9271): alpha 0 gives 0, not a division
//     by 256 as in older Halide. The reference does the same.
//   - the ESTIMATES block and the autoscheduler branch have no
//     counterpart (no autoscheduler); they do not change values.

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/gohalide/gohalide/halide"
)

const (
	a6Layers = 6  // num_layers
	a6Modes  = 5  // num_blend_modes
	a6NVS    = 32 // natural_vector_size<uint8_t>() on an AVX2 host
	a6W      = 37 // any small width that is not a multiple of the vector or tile size
	a6H      = 23 // likewise for the 8-row strips and tiles
	a6CPUInW = 64 // the CPU variant's layer width: 37 rounded up to whole vectors
)

// a6Gen is the generator: gpu is get_target().has_gpu_feature().
type a6Gen struct{ gpu bool }

// a6T is a Tuple of four values being built (Halide's Tuple in[i] =).
type a6T [4]halide.Expr

func a6Of(t halide.Tuple) a6T { return a6T{t.Elem(0), t.Elem(1), t.Elem(2), t.Elem(3)} }
func (v a6T) tuple() halide.Tuple {
	return halide.NewTuple(v[0], v[1], v[2], v[3])
}

func (g a6Gen) premultiplyAlpha(in a6T) a6T {
	if g.gpu {
		const scale = float32(1) / 255 // 1 / 255.0f
		// Use floats on GPU for intermediates
		in[3] = in[3].Mul(scale)
		for i := 0; i < 3; i++ {
			in[i] = in[i].Mul(halide.E(scale).Mul(in[3]))
		}
	} else {
		// On CPU, use uint16s for color components with premultiplied
		// alpha, and uint8 for alpha.
		for i := 0; i < 3; i++ {
			in[i] = halide.WideningMul(in[i], in[3])
		}
	}
	return in
}

func (g a6Gen) normalize(in a6T) a6T {
	if in[0].Type().IsFloat() {
		for i := 0; i < 4; i++ {
			scale := halide.E(float32(255))
			if i < 3 {
				scale = halide.E(float32(255)).Div(in[3])
			}
			in[i] = in[i].Mul(scale)
			in[i] = halide.SaturatingCast(halide.UInt8, in[i])
		}
	} else {
		for i := 0; i < 3; i++ {
			in[i] = halide.FastIntegerDivide(in[i].Add(in[3].Div(2)), in[3])
			in[i] = halide.SaturatingCast(halide.UInt8, in[i])
		}
	}
	return in
}

func (g a6Gen) scale(a, b halide.Expr) halide.Expr {
	if a.Type().IsFloat() {
		return a.Mul(b)
	}
	if b.Type() != halide.UInt8 {
		panic("scale: b is " + b.Type().String()) // the generator's assert
	}
	c := halide.WideningMul(a, halide.Cast(a.Type(), b))
	// The below is equivalent to c = (c + 127) / 255;
	c = c.Add(halide.RoundingShiftRight(c, 8))
	c = halide.RoundingShiftRight(c, 8)
	return halide.Cast(a.Type(), c)
}

func (g a6Gen) invert(e halide.Expr) halide.Expr {
	if e.Type().IsFloat() {
		return halide.E(float32(1)).Sub(e)
	}
	return halide.BitNot(e)
}

// Various Porter-Duff blend modes, in terms of the operators above.
func (g a6Gen) over(a, b a6T) a6T {
	var c a6T
	for i := 0; i < 3; i++ {
		c[i] = b[i].Add(g.scale(a[i], g.invert(b[3])))
	}
	c[3] = b[3].Add(g.scale(a[3], g.invert(b[3])))
	return c
}

func (g a6Gen) atop(a, b a6T) a6T {
	var c a6T
	for i := 0; i < 3; i++ {
		c[i] = g.scale(b[i], a[3]).Add(g.scale(a[i], g.invert(b[3])))
	}
	c[3] = a[3]
	return c
}

func (g a6Gen) xor(a, b a6T) a6T {
	var c a6T
	for i := 0; i < 3; i++ {
		c[i] = g.scale(b[i], g.invert(a[3])).Add(g.scale(a[i], g.invert(b[3])))
	}
	c[3] = g.scale(b[3], g.invert(a[3])).Add(g.scale(a[3], g.invert(b[3])))
	return c
}

func (g a6Gen) in(a, b a6T) a6T {
	var c a6T
	for i := 0; i < 3; i++ {
		c[i] = g.scale(a[i], b[3])
	}
	c[3] = g.scale(a[3], b[3])
	return c
}

func (g a6Gen) out(a, b a6T) a6T {
	var c a6T
	for i := 0; i < 3; i++ {
		c[i] = g.scale(a[i], g.invert(b[3]))
	}
	c[3] = g.scale(a[3], g.invert(b[3]))
	return c
}

// a6In is the generator's Inputs.
type a6In struct {
	layerRGBA []*halide.ImageParam // Input<Buffer<uint8_t, 3>[num_layers]>
	ops       *halide.ImageParam   // Input<Buffer<int, 1>>
}

func a6NewIn() a6In {
	in := a6In{ops: halide.NewImageParam("ops", halide.Int32, 1)}
	for i := 0; i < a6Layers; i++ {
		in.layerRGBA = append(in.layerRGBA, halide.NewImageParam(fmt.Sprintf("layer_rgba_%d", i), halide.UInt8, 3))
	}
	return in
}

// set binds the inputs of one call.
func (in a6In) set(layers []*halide.Buffer[uint8], ops *halide.Buffer[int32]) {
	for i, l := range layers {
		in.layerRGBA[i].Set(l)
	}
	in.ops.Set(ops)
}

// generate is generate(): the output Func, scheduled for g's target.
func (g a6Gen) generate(in a6In) *halide.Func {
	layers, ops := in.layerRGBA, in.ops
	x, y, c := halide.NewVar("x"), halide.NewVar("y"), halide.NewVar("c")

	// RGB and alpha potentially have different types, so we store them
	// as a Tuple
	var layerVec []halide.Tuple
	for i := 0; i < a6Layers; i++ {
		l := layers[i]
		layerVec = append(layerVec, halide.NewTuple(l.At(x, y, 0), l.At(x, y, 1), l.At(x, y, 2), l.At(x, y, 3)))
	}

	// Combine the separate layers into a single Func
	layerMuxed := halide.NewFunc("layer_muxed")
	k := halide.NewVar("k")
	layerMuxed.Define(x, y, k).Is(halide.MuxTuple(k, layerVec...))

	// Convert to premultiplied alpha in the working type (float on GPU,
	// uint16 on CPU)
	blended := halide.NewFunc("blended")
	blended.Define(x, y).Is(g.premultiplyAlpha(a6Of(layerVec[0])).tuple())

	// We will perform all blend modes on all layers, and then use an
	// RDom::where clause to restrict it to the desired blend mode for
	// each layer. If we then unroll over r[0], this compiles to a switch
	// statement.
	r := halide.NewRDom("r", halide.Range(0, a6Modes), halide.Range(0, a6Layers-1))
	r.Where(r.X().Eq(ops.At(r.Y())))
	a := a6Of(blended.AtTuple(x, y))
	b := g.premultiplyAlpha(a6Of(layerMuxed.AtTuple(x, y, r.Y().Add(1))))
	blends := []halide.Tuple{g.over(a, b).tuple(), g.atop(a, b).tuple(), g.xor(a, b).tuple(), g.in(a, b).tuple(), g.out(a, b).tuple()}
	blended.Define(x, y).Is(halide.MuxTuple(r.X(), blends...))

	// Divide by alpha and convert back to uint8.
	output := halide.NewFunc("output")
	output.Define(x, y, c).Is(halide.Mux(c, g.normalize(a6Of(blended.AtTuple(x, y))).tuple()))

	/* THE SCHEDULE */
	if g.gpu {
		// GPU schedule. 2.4ms on an RTX 2060
		xi, yi := halide.NewVar("xi"), halide.NewVar("yi")
		output.GPUTile(x, y, x, y, xi, yi, 32, 8)
		blended.Update(0).Unroll(r.X()).Unroll(r.Y())
	} else {
		// CPU schedule. 2ms on an i9-9960X at 3.1 GHz with 16 threads
		const vec = a6NVS
		yo, yi := halide.NewVar("yo"), halide.NewVar("yi")
		output.Split(y, yo, yi, 8).
			Parallel(yo).
			Vectorize(x, vec).
			Reorder(c, x, yi, yo).
			Bound(c, 0, 4).
			Unroll(c)

		// Compute the intermediate state per row of the output, so that
		// our switch over the op codes can be outside the loop over x.
		blended.StoreIn(halide.Stack).
			ComputeAt(output, yi).
			Vectorize(x, vec).
			Update(0).
			Reorder(x, r.X(), r.Y()).
			// Unroll over the possible blend modes to get a switch
			// statement.
			Unroll(r.X()).
			// Unroll over layers to remove the mux in layer_muxed.
			Unroll(r.Y()).
			Vectorize(x, vec)
	}
	return output
}

// ---------------------------------------------------------------------
// Inputs

// a6Inputs makes the six random w x a6H RGBA layers of seed: colours uniform in
// [0, 255], alpha 0 a quarter of the time, 255 a quarter, uniform
// otherwise.
func a6Inputs(seed int64, w int) []*halide.Buffer[uint8] {
	rng := rand.New(rand.NewSource(seed))
	out := make([]*halide.Buffer[uint8], a6Layers)
	for i := range out {
		b := halide.NewBuffer[uint8](w, a6H, 4)
		b.Fill(func(p []int) uint8 {
			if p[2] < 3 {
				return uint8(rng.Intn(256))
			}
			switch rng.Intn(4) {
			case 0:
				return 0
			case 1:
				return 255
			}
			return uint8(rng.Intn(256))
		})
		out[i] = b
	}
	return out
}

func a6Ops(v ...int32) *halide.Buffer[int32] {
	b := halide.NewBuffer[int32](len(v))
	for i, o := range v {
		b.Set(o, i)
	}
	return b
}

// ---------------------------------------------------------------------
// Plain-Go references

// a6Rsr is rounding_shift_right(c, 8) of a uint32 c, exactly: (c + 128)
// >> 8 without overflow.
func a6Rsr(c uint32) uint32 { return uint32((uint64(c) + 128) >> 8) }

// a6Scale16 and a6Scale8 are scale(a, b) of a uint16 and a uint8 a.
func a6Scale16(a uint16, b uint8) uint16 {
	c := uint32(a) * uint32(b)
	c += a6Rsr(c)
	return uint16(a6Rsr(c))
}

func a6Scale8(a, b uint8) uint8 {
	c := uint16(a) * uint16(b)
	c += uint16(a6Rsr(uint32(c)))
	return uint8(a6Rsr(uint32(c)))
}

// a6Px16 is a premultiplied CPU pixel: uint16 colours, uint8 alpha.
type a6Px16 struct {
	c [3]uint16
	a uint8
}

// a6RefCPU is the CPU variant's output(x, y, ch).
func a6RefCPU(layers []*halide.Buffer[uint8], ops []int32, x, y, ch int) uint8 {
	pre := func(l *halide.Buffer[uint8]) a6Px16 {
		a := l.Get(x, y, 3)
		var p a6Px16
		for i := 0; i < 3; i++ {
			p.c[i] = uint16(l.Get(x, y, i)) * uint16(a)
		}
		p.a = a
		return p
	}
	acc := pre(layers[0])
	for li := 1; li < a6Layers; li++ {
		a, b := acc, pre(layers[li])
		var c a6Px16
		switch ops[li-1] {
		case 0: // over
			for i := 0; i < 3; i++ {
				c.c[i] = b.c[i] + a6Scale16(a.c[i], ^b.a)
			}
			c.a = b.a + a6Scale8(a.a, ^b.a)
		case 1: // atop
			for i := 0; i < 3; i++ {
				c.c[i] = a6Scale16(b.c[i], a.a) + a6Scale16(a.c[i], ^b.a)
			}
			c.a = a.a
		case 2: // xor
			for i := 0; i < 3; i++ {
				c.c[i] = a6Scale16(b.c[i], ^a.a) + a6Scale16(a.c[i], ^b.a)
			}
			c.a = a6Scale8(b.a, ^a.a) + a6Scale8(a.a, ^b.a)
		case 3: // in
			for i := 0; i < 3; i++ {
				c.c[i] = a6Scale16(a.c[i], b.a)
			}
			c.a = a6Scale8(a.a, b.a)
		case 4: // out
			for i := 0; i < 3; i++ {
				c.c[i] = a6Scale16(a.c[i], ^b.a)
			}
			c.a = a6Scale8(a.a, ^b.a)
		default: // no op matches: the Where clause skips the layer
			c = acc
		}
		acc = c
	}
	if ch == 3 {
		return acc.a
	}
	// fast_integer_divide(c + a / 2, a), 0 where a is 0, saturated.
	if acc.a == 0 {
		return 0
	}
	q := (acc.c[ch] + uint16(acc.a/2)) / uint16(acc.a)
	return uint8(min(q, 255))
}

// a6F32Sat is saturating_cast(UInt(8), v) of a float32: truncated,
// clamped to [0, 255], NaN to 0 (Cast's rule; see the GPU check).
func a6F32Sat(v float32) uint8 {
	switch {
	case v != v || v <= 0:
		return 0
	case v >= 255:
		return 255
	}
	return uint8(v)
}

// a6RefGPU is the GPU variant's output(x, y, ch), each operation rounded
// to float32 in the generator's order (the explicit float32 conversions
// keep Go from fusing a multiply and an add).
func a6RefGPU(layers []*halide.Buffer[uint8], ops []int32, x, y, ch int) uint8 {
	const s = float32(1) / 255
	pre := func(l *halide.Buffer[uint8]) [4]float32 {
		var p [4]float32
		p[3] = float32(l.Get(x, y, 3)) * s
		for i := 0; i < 3; i++ {
			p[i] = float32(l.Get(x, y, i)) * float32(s*p[3])
		}
		return p
	}
	mul := func(a, b float32) float32 { return float32(a * b) }
	acc := pre(layers[0])
	for li := 1; li < a6Layers; li++ {
		a, b := acc, pre(layers[li])
		var c [4]float32
		switch ops[li-1] {
		case 0: // over
			for i := 0; i < 4; i++ {
				c[i] = b[i] + mul(a[i], 1-b[3])
			}
		case 1: // atop
			for i := 0; i < 3; i++ {
				c[i] = mul(b[i], a[3]) + mul(a[i], 1-b[3])
			}
			c[3] = a[3]
		case 2: // xor
			for i := 0; i < 4; i++ {
				c[i] = mul(b[i], 1-a[3]) + mul(a[i], 1-b[3])
			}
		case 3: // in
			for i := 0; i < 4; i++ {
				c[i] = mul(a[i], b[3])
			}
		case 4: // out
			for i := 0; i < 4; i++ {
				c[i] = mul(a[i], 1-b[3])
			}
		default:
			c = acc
		}
		acc = c
	}
	if ch == 3 {
		return a6F32Sat(mul(acc[3], 255))
	}
	return a6F32Sat(mul(acc[ch], float32(255)/acc[3]))
}

// ---------------------------------------------------------------------
// The test

// a6GPUTargets are the targets the GPU variant runs on: the emulator, and
// with -tags cuda a GPU as well (app_ports6_cuda_test.go).
var a6GPUTargets = []halide.Target{halide.Emulator}

func TestAppPort6Compositing(t *testing.T) {
	cases := []struct {
		name string
		seed int64
		ops  []int32
	}{
		{"process_ops", 1, []int32{4, 3, 2, 1, 0}}, // process.cpp's op_codes
		// Codes no blend mode has: the Where clause skips those layers.
		{"unknown_ops", 2, []int32{0, 7, -1, 2, 5}},
	}
	rng := rand.New(rand.NewSource(6)) // any fixed seed
	for i := 0; i < 4; i++ {
		ops := make([]int32, a6Layers-1)
		for j := range ops {
			ops[j] = int32(rng.Intn(a6Modes))
		}
		cases = append(cases, struct {
			name string
			seed int64
			ops  []int32
		}{fmt.Sprintf("random%d", i), int64(10 + i), ops})
	}
	type run struct {
		gpu    bool
		target halide.Target
	}
	runs := []run{{false, halide.Emulator}} // the CPU variant has no kernel: it runs on the CPU
	for _, tg := range a6GPUTargets {
		runs = append(runs, run{true, tg})
	}
	for _, rn := range runs {
		gpu := rn.gpu
		// One pipeline per variant, as the generator is compiled once.
		in := a6NewIn()
		out := a6Gen{gpu: gpu}.generate(in)
		p := t3Pipe(nil, out).WithTarget(rn.target)
		for _, tc := range cases {
			name := "cpu/" + tc.name
			if gpu {
				name = "gpu-" + rn.target.String() + "/" + tc.name
			}
			t.Run(name, func(t *testing.T) {
				// The CPU schedule's update vectorizes x by 32 with
				// Halide's default tail for a pure var of an update,
				// RoundUp: blended is computed over whole vectors, and
				// reads the layers there. The app's 1536-wide images are
				// a multiple of 32; here the layers are 64 wide and the
				// output 37 (37 wide layers are refused, as Halide's
				// input bounds check refuses them: see below).
				w := a6W
				if !gpu {
					w = a6CPUInW
				}
				layers := a6Inputs(tc.seed, w)
				in.set(layers, a6Ops(tc.ops...))
				buf := halide.NewBuffer[uint8](a6W, a6H, 4)
				if err := t3Run(t, p, buf); err != nil {
					t.Fatal(err)
				}
				a6CheckNest(t, out, gpu)
				a6Check(t, layers, tc.ops, buf, gpu, rn.target == halide.Emulator)
			})
		}
	}
}

// a6CheckNest checks that the schedule made the loop nest the app's
// comments describe: on the CPU, blended per output row with its update's
// layers and blend modes unrolled outside the vectorized x loop (the
// switch over op codes outside the loop over x); on the GPU, blended
// computed in each thread of 32 x 8 tiles with both RVars unrolled.
func a6CheckNest(t *testing.T, out *halide.Func, gpu bool) {
	t.Helper()
	nest, err := halide.NewPipeline(out).LoopNest()
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"parallel y.yo:\n    for y.yi in [0, 7]:\n      produce blended:",
		"unrolled r$y in [0, 4]:\n            unrolled r$x in [0, 4]:\n              for x.x:\n                vectorized x.x_v in [0, 31]:",
		"unrolled c:\n            vectorized x.x_v in [0, 31]:\n              output(...) = ...",
	}
	if gpu {
		want = []string{
			"gpu_block y.y:\n      gpu_block x.x:\n        gpu_thread y.yi in [0, 7]:\n          gpu_thread x.xi in [0, 31]:\n            produce blended:",
			"unrolled r$y in [0, 4]:\n                    unrolled r$x in [0, 4]:",
		}
	}
	for _, w := range want {
		if !strings.Contains(nest, w) {
			t.Errorf("loop nest lacks %q:\n%s", w, nest)
		}
	}
}

// With layers only as wide as the output, the CPU schedule reads them
// past their end (x up to 63, RoundUp of the update's vectorized x), and
// is refused, as Halide's input bounds check ("Input buffer ... is
// accessed at 63, which is beyond the max (36)") refuses it.
func TestAppPort6CompositingNarrowInputs(t *testing.T) {
	in := a6NewIn()
	out := a6Gen{}.generate(in)
	in.set(a6Inputs(1, a6W), a6Ops(4, 3, 2, 1, 0))
	err := t3Run(t, t3Pipe(nil, out), halide.NewBuffer[uint8](a6W, a6H, 4))
	mpRefused(t, err)
	if !strings.Contains(err.Error(), "over [0, 63]") {
		t.Errorf("refusal %q does not name the read [0, 63]", err)
	}
}

// a6Check compares buf with the reference of its variant. The CPU
// variant is integer arithmetic and must match exactly. The GPU variant
// computes in float32 and truncates to uint8; the tolerance is 1 in
// uint8. The emulator rounds each operation to float32 in the order the
// generator writes, as the reference does, so it matches exactly (the
// test logs how many values differ); 1 is allowed because a GPU target
// may legally contract a * b + c into one fused multiply-add (CUDA does
// by default), which moves an intermediate by an ulp, and the final
// truncation of 255 * c / alpha can then fall on the other side of an
// integer, but not further: a few ulps of relative error in a value at
// most 255 is far below 1. Where the final alpha is 0 the colours are
// 255 * 0 / 0 = NaN, which Cast (and CUDA's saturating conversion)
// makes 0, or c / 0 = +Inf for a colour left above 0 by rounding, which
// saturates to 255: the reference follows the same rule, but a contracted
// multiply-add can decide between those two, so there the colours are
// compared only by the emulator's exact count, not by the tolerance
// (on CUDA they are not compared).
func a6Check(t *testing.T, layers []*halide.Buffer[uint8], ops []int32, buf *halide.Buffer[uint8], gpu, emulator bool) {
	t.Helper()
	off, atZero := 0, 0
	for y := 0; y < a6H; y++ {
		for x := 0; x < a6W; x++ {
			for ch := 0; ch < 4; ch++ {
				got := buf.Get(x, y, ch)
				if !gpu {
					if want := a6RefCPU(layers, ops, x, y, ch); got != want {
						t.Fatalf("output(%d, %d, %d) = %d, want %d", x, y, ch, got, want)
					}
					continue
				}
				want := a6RefGPU(layers, ops, x, y, ch)
				if got == want {
					continue
				}
				if ch < 3 && a6RefGPU(layers, ops, x, y, 3) == 0 {
					atZero++
					continue
				}
				if d := int(got) - int(want); d < -1 || d > 1 {
					t.Fatalf("output(%d, %d, %d) = %d, want %d (within 1)", x, y, ch, got, want)
				}
				off++
			}
		}
	}
	if gpu {
		t.Logf("%d values off by 1; %d colours at alpha 0 differ", off, atZero)
		if emulator && off+atZero != 0 {
			t.Errorf("the emulator rounds as the reference does: %d values differ, want 0", off+atZero)
		}
	}
}

// The GPU variant's kernels as the CUDA target prints them compile with
// nvcc (skipped without a CUDA toolkit; no GPU is needed).
func TestAppPort6CompositingCUDACompiles(t *testing.T) {
	if _, ok := halide.NVCCPath(); !ok {
		t.Skip("no nvcc")
	}
	in := a6NewIn()
	out := a6Gen{gpu: true}.generate(in)
	in.set(a6Inputs(1, a6W), a6Ops(4, 3, 2, 1, 0))
	l, err := halide.NewPipeline(out).WithTarget(halide.CUDA).Lower()
	if err != nil {
		t.Fatal(err)
	}
	src, err := l.CUDA()
	if err != nil {
		t.Fatal(err)
	}
	info, err := halide.CheckWithNVCC(src)
	if err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	if len(info) == 0 {
		t.Errorf("nvcc reports no kernels:\n%s", src)
	}
	t.Logf("%d kernels: %v", len(info), info)
}
