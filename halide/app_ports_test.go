package halide_test

// Ports of Halide's apps/ generators (resize, interpolate, max_filter,
// unsharp, harris, ...) as a user would write them: each TestAppPortXxx
// is one generator, with its algorithm as written there and its schedules
// (the CPU schedule as subtest "cpu"; the GPU schedule, where the
// generator has one, as subtest "gpu" on the GPU emulator). Every output
// value is checked against a plain-Go reference computed from the
// algorithm on random inputs: integers exactly, floats with the tolerance
// stated at the check. Sizes are small (the emulator is slow). Where the
// faithful schedule is refused, the subtest asserts a typed *halide.Error
// (mpRefused) and a "variant" subtest makes the smallest change that
// runs; the comment block at the end of the file lists each case with
// its error text. Library bugs have a skipped TestAppPortBugN.

import (
	"math"
	"math/rand"
	"strconv"
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// apRandF32 fills a buffer with random floats in [lo, hi), never all zero.
func apRandF32(rng *rand.Rand, lo, hi float32, extents ...int) *halide.Buffer[float32] {
	b := halide.NewBuffer[float32](extents...)
	b.Fill(func([]int) float32 { return lo + (hi-lo)*rng.Float32() })
	return b
}

func apRandU8(rng *rand.Rand, extents ...int) *halide.Buffer[uint8] {
	b := halide.NewBuffer[uint8](extents...)
	b.Fill(func([]int) uint8 { return uint8(1 + rng.Intn(255)) })
	return b
}

func apRandU16(rng *rand.Rand, max int, extents ...int) *halide.Buffer[uint16] {
	b := halide.NewBuffer[uint16](extents...)
	b.Fill(func([]int) uint16 { return uint16(1 + rng.Intn(max)) })
	return b
}

// apRun realizes out on the CPU (gpu false) or on the GPU emulator.
func apRun(out *halide.Func, gpu bool, buf halide.BufferRef) error {
	p := halide.NewPipeline(out).WithOptions(halide.Options{Verify: true})
	if gpu {
		p = p.WithTarget(halide.Emulator)
	}
	return p.Realize(buf)
}

// apCheckF32 compares every value of a 3-D (or fewer) float buffer with
// ref, within tol (absolute plus relative to |want|).
func apCheckF32(t *testing.T, name string, b *halide.Buffer[float32], tol float64, ref func(c []int) float32) {
	t.Helper()
	apEach(b.Shape(), func(c []int) bool {
		got, want := b.Get(c...), ref(c)
		if math.Abs(float64(got)-float64(want)) > tol*(1+math.Abs(float64(want))) || math.IsNaN(float64(got)) {
			t.Errorf("%s%v = %v, want %v", name, c, got, want)
			return false
		}
		return true
	})
}

// apCheckInt compares every value of an integer buffer with ref exactly.
func apCheckInt[T uint8 | uint16 | int16 | int32 | uint32](t *testing.T, name string, b *halide.Buffer[T], ref func(c []int) T) {
	t.Helper()
	apEach(b.Shape(), func(c []int) bool {
		if got, want := b.Get(c...), ref(c); got != want {
			t.Errorf("%s%v = %v, want %v", name, c, got, want)
			return false
		}
		return true
	})
}

func apEach(shape []halide.BufDim, f func(c []int) bool) {
	c := make([]int, len(shape))
	var rec func(d int) bool
	rec = func(d int) bool {
		if d < 0 {
			return f(c)
		}
		for i := shape[d].Min; i < shape[d].Min+shape[d].Extent; i++ {
			c[d] = i
			if !rec(d - 1) {
				return false
			}
		}
		return true
	}
	rec(len(shape) - 1)
}

func apClampI(v, lo, hi int) int {
	if v < lo {
		return lo
	}
	if v > hi {
		return hi
	}
	return v
}

// ---------------------------------------------------------------------
// resize (apps/resize/resize_generator.cpp)

type apKernelInfo struct {
	name string
	taps int
	k    func(x halide.Expr) halide.Expr
	ref  func(x float32) float32
}

func apAbs32(x float32) float32 { return float32(math.Abs(float64(x))) }

var apResizeKernels = []apKernelInfo{
	{"box", 1,
		func(x halide.Expr) halide.Expr {
			xx := halide.Abs(x)
			return halide.Select(xx.Le(float32(0.5)), float32(1), float32(0))
		},
		func(x float32) float32 {
			if apAbs32(x) <= 0.5 {
				return 1
			}
			return 0
		}},
	{"linear", 2,
		func(x halide.Expr) halide.Expr {
			xx := halide.Abs(x)
			return halide.Select(xx.Lt(float32(1)), halide.E(float32(1)).Sub(xx), float32(0))
		},
		func(x float32) float32 {
			xx := apAbs32(x)
			if xx < 1 {
				return 1 - xx
			}
			return 0
		}},
	{"cubic", 4,
		func(x halide.Expr) halide.Expr {
			xx := halide.Abs(x)
			xx2 := xx.Mul(xx)
			xx3 := xx2.Mul(xx)
			a := float32(-0.5)
			return halide.Select(xx.Lt(float32(1)), xx3.Mul(a+2).Sub(xx2.Mul(a+3)).Add(float32(1)),
				halide.Select(xx.Lt(float32(2)), xx3.Mul(a).Sub(xx2.Mul(5*a)).Add(xx.Mul(8*a)).Sub(4*a),
					float32(0)))
		},
		func(x float32) float32 {
			xx := apAbs32(x)
			xx2 := xx * xx
			xx3 := xx2 * xx
			a := float32(-0.5)
			if xx < 1 {
				return (a+2)*xx3 - (a+3)*xx2 + 1
			}
			if xx < 2 {
				return a*xx3 - 5*a*xx2 + 8*a*xx - 4*a
			}
			return 0
		}},
	{"lanczos", 6,
		func(x halide.Expr) halide.Expr {
			sinc := func(x halide.Expr) halide.Expr {
				x = x.Mul(float32(3.14159265359))
				return halide.Sin(x).Div(x)
			}
			value := sinc(x).Mul(sinc(x.Div(float32(3))))
			value = halide.Select(x.Eq(float32(0)), float32(1), value)
			value = halide.Select(x.Gt(float32(3)).Or(x.Lt(float32(-3))), float32(0), value)
			return value
		},
		func(x float32) float32 {
			sinc := func(x float32) float32 {
				x *= float32(3.14159265359)
				return float32(math.Sin(float64(x))) / x
			}
			v := sinc(x) * sinc(x/3)
			if x == 0 {
				v = 1
			}
			if x > 3 || x < -3 {
				v = 0
			}
			return v
		}},
}

// apResize builds the resize generator for one interpolation type; input
// is a 3-D ImageParam of type t (Float32 or UInt8). schedule applies the
// generator's schedule.
func apResize(info apKernelInfo, upsample, explicitSums bool, input *halide.ImageParam, scale *halide.Param[float32], schedule func(s apResizeFuncs)) *halide.Func {
	x, y, c, k := halide.NewVar("x"), halide.NewVar("y"), halide.NewVar("c"), halide.NewVar("k")
	s := apResizeFuncs{x: x, y: y, c: c, k: k, input: input}
	asFloat := halide.NewFunc("as_float")
	s.resizedX, s.resizedY = halide.NewFunc("resized_x"), halide.NewFunc("resized_y")
	s.ukx, s.uky = halide.NewFunc("unnormalized_kernel_x"), halide.NewFunc("unnormalized_kernel_y")
	s.kx, s.ky = halide.NewFunc("kernel_x"), halide.NewFunc("kernel_y")
	s.ksx, s.ksy = halide.NewFunc("kernel_sum_x"), halide.NewFunc("kernel_sum_y")
	s.output = halide.NewFunc("output")
	s.upsample = upsample

	asFloat.Define(x, y, c).Is(halide.Cast(halide.Float32, input.At(x, y, c)))
	inv := halide.E(float32(1)).Div(scale)
	kernelScaling := halide.E(scale)
	invKernelScaling := inv
	if upsample {
		kernelScaling, invKernelScaling = halide.E(float32(1)), halide.E(float32(1))
	}
	kernelRadius := halide.E(float32(0.5) * float32(info.taps)).Mul(invKernelScaling)
	kernelTaps := halide.Cast(halide.Int32, halide.Ceil(halide.E(float32(info.taps)).Mul(invKernelScaling)))
	sourcex := x.Add(float32(0.5)).Mul(inv).Sub(float32(0.5))
	sourcey := y.Add(float32(0.5)).Mul(inv).Sub(float32(0.5))
	beginx := halide.Cast(halide.Int32, halide.Ceil(sourcex.Sub(kernelRadius)))
	beginy := halide.Cast(halide.Int32, halide.Ceil(sourcey.Sub(kernelRadius)))
	beginx = halide.Clamp(beginx, input.Dim(0).Min(), input.Dim(0).Max().Add(1).Sub(kernelTaps))
	beginy = halide.Clamp(beginy, input.Dim(1).Min(), input.Dim(1).Max().Add(1).Sub(kernelTaps))
	r := halide.NewRDom("r", halide.Range(0, kernelTaps))
	s.ukx.Define(x, k).Is(info.k(k.Add(beginx).Sub(sourcex).Mul(kernelScaling)))
	s.uky.Define(y, k).Is(info.k(k.Add(beginy).Sub(sourcey).Mul(kernelScaling)))
	if explicitSums {
		s.ksx.Define(x).Is(float32(0))
		s.ksx.Define(x).PlusEq(s.ukx.At(x, r))
		s.ksy.Define(y).Is(float32(0))
		s.ksy.Define(y).PlusEq(s.uky.At(y, r))
	} else {
		s.ksx.Define(x).Is(halide.Sum(s.ukx.At(x, r)))
		s.ksy.Define(y).Is(halide.Sum(s.uky.At(y, r)))
	}
	s.kx.Define(x, k).Is(s.ukx.At(x, k).Div(s.ksx.At(x)))
	s.ky.Define(y, k).Is(s.uky.At(y, k).Div(s.ksy.At(y)))
	var resized *halide.Func
	// sum defines f as Halide's f(x, y, c) = sum(e, name) does, or, with
	// explicitSums (the variant), as f(x, y, c) = 0; f(x, y, c) += e.
	sum := func(f *halide.Func, e halide.Expr) {
		if explicitSums {
			f.Define(x, y, c).Is(float32(0))
			f.Define(x, y, c).PlusEq(e)
		} else {
			f.Define(x, y, c).Is(halide.Sum(e))
		}
	}
	if upsample {
		sum(s.resizedX, s.kx.At(x, r).Mul(asFloat.At(halide.E(r).Add(beginx), y, c)))
		sum(s.resizedY, s.ky.At(y, r).Mul(s.resizedX.At(x, halide.E(r).Add(beginy), c)))
		resized = s.resizedY
	} else {
		sum(s.resizedY, s.ky.At(y, r).Mul(asFloat.At(x, halide.E(r).Add(beginy), c)))
		sum(s.resizedX, s.kx.At(x, r).Mul(s.resizedY.At(halide.E(r).Add(beginx), y, c)))
		resized = s.resizedX
	}
	if input.Type() == halide.Float32 {
		s.output.Define(x, y, c).Is(halide.Clamp(resized.At(x, y, c), float32(0), float32(1)))
	} else {
		s.output.Define(x, y, c).Is(halide.SaturatingCast(input.Type(), resized.At(x, y, c)))
	}
	schedule(s)
	return s.output
}

type apResizeFuncs struct {
	x, y, c, k                   halide.Var
	input                        *halide.ImageParam
	resizedX, resizedY, ukx, uky *halide.Func
	kx, ky, ksx, ksy, output     *halide.Func
	upsample                     bool
}

// apResizeSchedule is the generator's schedule (vec = 8, natural vector
// size of float on AVX2). specialize: whether to add the planar /
// packed_rgb / packed_rgba specializations.
func apResizeSchedule(specialize bool) func(s apResizeFuncs) {
	return func(s apResizeFuncs) {
		const vec = 8
		x, y, c, k := s.x, s.y, s.c, s.k
		xi, yi := halide.NewVar("xi"), halide.NewVar("yi")
		s.ukx.ComputeAt(s.kx, x).StoreIn(halide.Stack).Vectorize(x)
		s.ksx.ComputeAt(s.kx, x).Vectorize(x)
		s.kx.ComputeRoot().Reorder(k, x).Vectorize(x, vec)
		s.uky.ComputeAt(s.ky, y).Vectorize(y, vec)
		s.ksy.ComputeAt(s.ky, y).Vectorize(y)
		s.ky.ComputeAt(s.output, y).Reorder(k, y).Vectorize(y, vec)
		if s.upsample {
			s.output.Tile(x, y, x, y, xi, yi, 16, 64).Parallel(y).Vectorize(xi)
			s.resizedX.ComputeAt(s.output, x).HoistStorage(s.output, y).Vectorize(x)
			s.resizedY.ComputeAt(s.output, xi).Unroll(c)
		} else {
			s.output.Tile(x, y, x, y, xi, yi, 32, 8).Parallel(y).Vectorize(xi)
			s.resizedY.ComputeAt(s.output, y).Vectorize(x, vec)
			s.resizedX.ComputeAt(s.output, xi).Unroll(c)
		}
		if !specialize {
			return
		}
		in, out := s.input, s.output
		planar := out.Dim(0).Stride().Eq(1).And(in.Dim(0).Stride().Eq(1))
		packed := func(n int) halide.Expr {
			return out.Dim(0).Stride().Eq(n).And(out.Dim(2).Stride().Eq(1)).And(out.Dim(2).Min().Eq(0)).
				And(out.Dim(2).Extent().Eq(n)).And(in.Dim(0).Stride().Eq(n)).And(in.Dim(2).Stride().Eq(1)).
				And(in.Dim(2).Min().Eq(0)).And(in.Dim(2).Extent().Eq(n))
		}
		out.Specialize(planar)
		out.Specialize(packed(3)).Reorder(c, xi, yi, x, y).Unroll(c)
		out.Specialize(packed(4)).Reorder(c, xi, yi, x, y).Unroll(c)
	}
}

// apResizeRef is resize computed in plain Go float32 with the
// generator's order of operations. It returns the float value before the
// final clamp/saturating cast.
func apResizeRef(info apKernelInfo, upsample bool, in func(x, y, c int) float32, iw, ih int, scale float32) func(x, y, c int) float32 {
	inv := 1 / scale
	ks, iks := scale, inv
	if upsample {
		ks, iks = 1, 1
	}
	radius := float32(0.5) * float32(info.taps) * iks
	taps := int(float32(math.Ceil(float64(float32(info.taps) * iks))))
	src := func(x int) float32 { return (float32(x)+0.5)*inv - 0.5 }
	begin := func(x, ext int) int {
		b := int(float32(math.Ceil(float64(src(x) - radius))))
		return apClampI(b, 0, ext-1+1-taps)
	}
	kern := func(x, k, ext int) float32 {
		b := begin(x, ext)
		u := func(k int) float32 { return info.ref((float32(k+b) - src(x)) * ks) }
		var sum float32
		for r := 0; r < taps; r++ {
			sum += u(r)
		}
		return u(k) / sum
	}
	return func(x, y, c int) float32 {
		bx, by := begin(x, iw), begin(y, ih)
		var tot float32
		if upsample {
			for ry := 0; ry < taps; ry++ {
				var rx float32
				for r := 0; r < taps; r++ {
					rx += kern(x, r, iw) * in(r+bx, ry+by, c)
				}
				tot += kern(y, ry, ih) * rx
			}
		} else {
			for rx := 0; rx < taps; rx++ {
				var ry float32
				for r := 0; r < taps; r++ {
					ry += kern(y, r, ih) * in(rx+bx, r+by, c)
				}
				tot += kern(x, rx, iw) * ry
			}
		}
		return tot
	}
}

func TestAppPortResize(t *testing.T) {
	const iw, ih = 48, 40
	// resize 1, minimal: compute_at into a specialized stage of a Func
	// read through an inline sum() (it was refused: the sum's site was
	// taken per copy of the loop, one per case); with and without the sum.
	t.Run("specialize_sum_minimal", func(t *testing.T) {
		for _, useSum := range []bool{true, false} {
			x := halide.NewVar("x")
			r := halide.NewRDom("r", halide.Range(0, 3))
			p := halide.NewParam[int32]("p")
			p.Set(1)
			f, h := halide.NewFunc("f"), halide.NewFunc("h")
			f.Define(x).Is(x.Mul(2))
			if useSum {
				h.Define(x).Is(halide.Sum(f.At(x.Add(r))))
			} else {
				h.Define(x).Is(f.At(x).Add(f.At(x.Add(1))))
			}
			f.ComputeAt(h, x)
			h.Specialize(p.Expr().Eq(1))
			b := halide.NewBuffer[int32](10)
			err := apRun(h, false, b)
			if err != nil {
				t.Fatal(err)
			}
			if useSum {
				mpCheck1(t, "h", b, 10, func(x int) int32 { return int32(6*x + 6) })
				continue
			}
			mpCheck1(t, "h", b, 10, func(x int) int32 { return int32(2*x + 2*(x+1)) })
		}
	})
	for _, info := range apResizeKernels {
		for _, up := range []bool{false, true} {
			scale := float32(0.75)
			if up {
				scale = 1.6
			}
			ow, oh := int(float32(iw)*scale), int(float32(ih)*scale)
			name := info.name + "_down"
			if up {
				name = info.name + "_up"
			}
			// cpu: the generator as written (resize 2 at the end of the
			// file: upsampling hoists storage into each case).
			t.Run(name+"/cpu", func(t *testing.T) {
				rng := rand.New(rand.NewSource(1))
				inb := apRandF32(rng, 0, 1, iw, ih, 3)
				input := halide.NewImageParam("input", halide.Float32, 3)
				input.Set(inb)
				sp := halide.NewParam[float32]("scale_factor")
				sp.Set(scale)
				out := apResize(info, up, false, input, sp, apResizeSchedule(true))
				ob := halide.NewBuffer[float32](ow, oh, 3)
				if err := apRun(out, false, ob); err != nil {
					t.Fatal(err)
				}
				ref := apResizeRef(info, up, func(x, y, c int) float32 { return inb.Get(x, y, c) }, iw, ih, scale)
				// Tolerance 1e-4, as the variant below.
				apCheckF32(t, "output", ob, 1e-4, func(c []int) float32 {
					v := ref(c[0], c[1], c[2])
					return float32(math.Min(math.Max(float64(v), 0), 1))
				})
			})
			// variant: every sum() (kernel_sum_x/y, resized_x/y) is written
			// as an explicit pure definition and += update instead of the
			// inline sum(); upsampling also drops output's specializations
			// (the buffers here are planar, the case the first one takes).
			t.Run(name+"/cpu_variant_float", func(t *testing.T) {
				rng := rand.New(rand.NewSource(1))
				inb := apRandF32(rng, 0, 1, iw, ih, 3)
				input := halide.NewImageParam("input", halide.Float32, 3)
				input.Set(inb)
				sp := halide.NewParam[float32]("scale_factor")
				sp.Set(scale)
				out := apResize(info, up, true, input, sp, apResizeSchedule(!up))
				ob := halide.NewBuffer[float32](ow, oh, 3)
				if err := apRun(out, false, ob); err != nil {
					t.Fatal(err)
				}
				ref := apResizeRef(info, up, func(x, y, c int) float32 { return inb.Get(x, y, c) }, iw, ih, scale)
				// Tolerance 1e-4: sums of at most 8x8 products of values in
				// [0, 1] with kernel weights of magnitude <= ~1.2, in float32
				// (sin of the Lanczos kernel may differ by an ulp or two
				// between the library and Go's math.Sin).
				apCheckF32(t, "output", ob, 1e-4, func(c []int) float32 {
					v := ref(c[0], c[1], c[2])
					return float32(math.Min(math.Max(float64(v), 0), 1))
				})
			})
			t.Run(name+"/cpu_variant_uint8", func(t *testing.T) {
				rng := rand.New(rand.NewSource(2))
				inb := apRandU8(rng, iw, ih, 3)
				input := halide.NewImageParam("input", halide.UInt8, 3)
				input.Set(inb)
				sp := halide.NewParam[float32]("scale_factor")
				sp.Set(scale)
				out := apResize(info, up, true, input, sp, apResizeSchedule(!up))
				ob := halide.NewBuffer[uint8](ow, oh, 3)
				if err := apRun(out, false, ob); err != nil {
					t.Fatal(err)
				}
				ref := apResizeRef(info, up, func(x, y, c int) float32 { return float32(inb.Get(x, y, c)) }, iw, ih, scale)
				// Exact, except where the float reference lies within 1e-3
				// of an integer (the saturating cast truncates, and float32
				// sums in another order may land on either side).
				apEach(ob.Shape(), func(c []int) bool {
					v := ref(c[0], c[1], c[2])
					want := uint8(math.Min(math.Max(float64(v), 0), 255))
					got := ob.Get(c...)
					if got != want {
						near := math.Abs(float64(v)-math.Round(float64(v))) < 1e-3
						if !(near && (int(got)-int(want) == 1 || int(want)-int(got) == 1)) {
							t.Errorf("output%v = %d, want %d (%v)", c, got, want, v)
							return false
						}
					}
					return true
				})
			})
		}
	}
}

/*
Refused schedules (each faithful subtest asserts a typed *halide.Error):

resize 1 (downsampling as written, and the minimal case
TestAppPortResize/specialize_sum_minimal) runs now: a Func read through
an inline sum() in a specialized consumer was refused compute_at
("the loop h.s0.x does not contain every use of f"), because the sum's
site was looked for in one copy of the consumer's loop (one per case);
the copies of a loop now count together (innermostSite). Downsampling
as written is checked against the reference; the variant (each sum()
written as f(...) = 0; f(...) += e) is kept.

resize 2 (upsample) runs as written now: resized_x.compute_at(output,
x).hoist_storage(output, y) with output's three specializations (planar,
packed_rgb, packed_rgba) was refused ("the loop output.s0.y.y is in each
of 4 cases of the specialized stage of output; one allocation cannot be
hoisted to all of them"); each case's copy of the loop now gets an
allocation of its own, as Halide places one at each copy.

harris 1 and 2 run as written now (TestAppPortHarris/gpu). 1:
Ix.compute_with(Iy, x), both computed at output's GPU block loop x with
gpu_threads, was refused ("Ix is computed inside a GPU kernel, where
compute_with is not supported"); their thread loops are now fused inside
the kernel, and one gray.in() computed at Iy.x serves both. 2: a wrapper
computed at a loop of a consumer split by 2 (Iy.unroll(x, 2)), vectorized
by 2 and unrolled, gray.in().compute_at(Iy, x).vectorize(x, 2).unroll(x),
was refused because its extent, ((min(2*Iy.x + m, m + 62) - m + 1) / 2)
- Iy.x + 2 with m the ShiftInwards clamp of output's tile, did not
simplify to a constant; the constant bound (2) is now found, as Halide's
bound_constant_extent_loops finds it (the division distributes over the
min, and the correlated terms cancel).

iir_blur 1 runs as written now: the generator calls blur_cols_transpose
twice, and each call makes Funcs named "blur" and "transpose". It was
refused (duplicate_name); the pipeline now names the second call's
blur_1 and transpose_1, as Halide's unique names do (blur$1).

iir_blur 2 runs as written now (the CUDA schedule's gpu_lanes(x) of
blur, computed at transpose's block loop y of a 32x32 tile, and of its
updates and blur.in()). It was refused: "the lanes loop blur.s1.x has an
extent that is not a constant (((blur.s1.x.max - blur.s1.x.min) + 1))";
a lanes loop that reduces nothing is now bounded by its block's width in
x (at most 32), as TestGPULanesOfRegionInBlock checks on the minimal
f.compute_at(g, y).gpu_lanes(x) under g.tile(x, y, xi, yi, 32,
32).gpu_blocks(y).gpu_lanes(xi).

nl_means 1 runs as written now: the generator names two Funcs "d" (Func
dc("d") and Func d("d")), refused before as iir_blur's were.

hist 1 and 2 run as written now (TestAppPortHist/gpu: Y.clone_in(
hist_rows).compute_at(hist_rows, rxo).store_in(Register).gpu_lanes(x),
the clone 32 wide): the lanes loop was refused as iir_blur 2 was. The
gpu_variant (the clone's x split by 32 before gpu_lanes, stored in GPU
shared memory) is kept; with only the split and registers it is refused:
  schedule: Func Y_clone_in_hist_rows: store_in(Register): ... it cannot
  be proven that thread (tx=rx$x.rxi) of Y_clone_in_hist_rows produced
  that point (legal: store_in(GPUShared) ...)

lens_blur: random_float() is not in the API; the port replaces each
call by a hash of (x, y, z) and the call's index (the reference does the
same).

Sizes reduced for speed: resize 48x40x3 (scale 0.75 and 1.6),
interpolate 64x32x4 with 6 levels, max_filter 40x30x3 radius 3, unsharp
40x32x3, harris 62x32, iir_blur 32x40x3, nl_means 32x16x3 (patch 3,
search 3), hist 128x8x3, lens_blur 128x128x3 (slices 4, focus 2,
scale 0.5, 4 aperture samples), stencil_chain 60x24 (13 stencils on the CPU, 4
on the GPU), wavelet 20x12.

Not in the API: fast_exp (nl_means; Exp is used), strict_float (resize; plain float arithmetic is used,
which the library does not reassociate), output.dim(0).set_stride(Expr())
and input.dim(0).set_stride(Expr()) (buffers are always dense with stride
1 in dimension 0, so only resize's planar specialization is exercised),
sum(e, name) (the inline reduction's Func cannot be named).
*/

// ---------------------------------------------------------------------
// interpolate (apps/interpolate/interpolate_generator.cpp), with levels
// 6 instead of 10 (the image is 64x32: the schedules need multiples of
// 32, as Halide's do, since normalize is bounded to the input size).

type apInterp struct {
	x, y, c                                      halide.Var
	input                                        *halide.ImageParam
	downsampled, downx, interpolated, upsampledx []*halide.Func
	normalize                                    *halide.Func
}

func apFuncVector(name string, n int) []*halide.Func {
	fs := make([]*halide.Func, n)
	for i := range fs {
		fs[i] = halide.NewFunc(name + "_" + strconv.Itoa(i))
	}
	return fs
}

func apInterpolate(levels int) *apInterp {
	x, y, c := halide.NewVar("x"), halide.NewVar("y"), halide.NewVar("c")
	input := halide.NewImageParam("input", halide.Float32, 3)
	input.Dim(2).SetBounds(0, 4)
	downsampled := apFuncVector("downsampled", levels)
	downx := apFuncVector("downx", levels)
	interpolated := apFuncVector("interpolated", levels)
	upsampled := apFuncVector("upsampled", levels)
	upsampledx := apFuncVector("upsampledx", levels)
	clamped := halide.RepeatEdge(input)
	downsampled[0].Define(x, y, c).Is(halide.Select(c.Lt(3), clamped.At(x, y, c).Mul(clamped.At(x, y, 3)), clamped.At(x, y, 3)))
	for l := 1; l < levels; l++ {
		prev := downsampled[l-1]
		if l == 4 {
			w := input.Dim(0).Extent().Div(1 << (l - 1))
			h := input.Dim(1).Extent().Div(1 << (l - 1))
			lam := halide.NewFunc("lambda_" + strconv.Itoa(l))
			lam.Define(x, y, c).Is(prev.At(halide.Clamp(x, 0, w), halide.Clamp(y, 0, h), c))
			prev = lam
		}
		downx[l].Define(x, y, c).Is(prev.At(x.Mul(2).Sub(1), y, c).Add(prev.At(x.Mul(2), y, c).Mul(float32(2))).Add(prev.At(x.Mul(2).Add(1), y, c)).Mul(float32(0.25)))
		downsampled[l].Define(x, y, c).Is(downx[l].At(x, y.Mul(2).Sub(1), c).Add(downx[l].At(x, y.Mul(2), c).Mul(float32(2))).Add(downx[l].At(x, y.Mul(2).Add(1), c)).Mul(float32(0.25)))
	}
	interpolated[levels-1].Define(x, y, c).Is(downsampled[levels-1].At(x, y, c))
	for l := levels - 2; l >= 0; l-- {
		upsampledx[l].Define(x, y, c).Is(interpolated[l+1].At(x.Div(2), y, c).Add(interpolated[l+1].At(x.Add(1).Div(2), y, c)).Div(float32(2)))
		upsampled[l].Define(x, y, c).Is(upsampledx[l].At(x, y.Div(2), c).Add(upsampledx[l].At(x, y.Add(1).Div(2), c)).Div(float32(2)))
		alpha := halide.E(float32(1)).Sub(downsampled[l].At(x, y, 3))
		interpolated[l].Define(x, y, c).Is(downsampled[l].At(x, y, c).Add(alpha.Mul(upsampled[l].At(x, y, c))))
	}
	normalize := halide.NewFunc("normalize")
	normalize.Define(x, y, c).Is(interpolated[0].At(x, y, c).Div(interpolated[0].At(x, y, 3)))
	return &apInterp{x, y, c, input, downsampled, downx, interpolated, upsampledx, normalize}
}

func (a *apInterp) scheduleGPU(levels int) {
	x, y, c := a.x, a.y, a.c
	xi, yi, xii, yii := halide.NewVar("xi"), halide.NewVar("yi"), halide.NewVar("xii"), halide.NewVar("yii")
	a.normalize.NeverPartitionAll().Bound(x, 0, a.input.Dim(0).Extent()).Bound(y, 0, a.input.Dim(1).Extent()).Bound(c, 0, 3).
		Reorder(c, x, y).Tile(x, y, x, y, xi, yi, 32, 32, halide.RoundUp).Tile(xi, yi, xi, yi, xii, yii, 2, 2).
		GPUBlocks(x, y).GPUThreads(xi, yi).Unroll(xii).Unroll(yii).Unroll(c)
	for l := 1; l < levels; l++ {
		a.downsampled[l].ComputeRoot().NeverPartitionAll().Reorder(c, x, y).Unroll(c).GPUTile(x, y, x, y, xi, yi, 16, 16)
	}
	for l := 3; l < levels; l += 2 {
		a.interpolated[l].ComputeRoot().NeverPartitionAll().Reorder(c, x, y).Tile(x, y, x, y, xi, yi, 32, 32, halide.RoundUp).
			Tile(xi, yi, xi, yi, xii, yii, 2, 2).GPUBlocks(x, y).GPUThreads(xi, yi).Unroll(xii).Unroll(yii).Unroll(c)
	}
	a.upsampledx[1].ComputeAt(a.normalize, x).NeverPartitionAll().Reorder(c, x, y).Tile(x, y, x, y, xi, yi, 2, 1).
		Unroll(xi).Unroll(yi).Unroll(c).GPUThreads(x, y)
	a.interpolated[1].ComputeAt(a.normalize, x).NeverPartitionAll().Reorder(c, x, y).Tile(x, y, x, y, xi, yi, 2, 2).
		Unroll(xi).Unroll(yi).Unroll(c).GPUThreads(x, y)
	a.interpolated[2].ComputeAt(a.normalize, x).NeverPartitionAll().Reorder(c, x, y).Unroll(c).GPUThreads(x, y)
}

func (a *apInterp) scheduleCPU(levels int) {
	x, y, c := a.x, a.y, a.c
	xo, xi, yo, yi := halide.NewVar("xo"), halide.NewVar("xi"), halide.NewVar("yo"), halide.NewVar("yi")
	const vec = 8
	for l := 1; l < levels-1; l++ {
		a.downsampled[l].ComputeRoot().NeverPartition(x).Reorder(x, c, y).Split(y, yo, yi, 8).Parallel(yo).Vectorize(x, vec)
	}
	a.downsampled[0].CloneIn(a.downx[1]).StoreAt(a.downsampled[1], yo).ComputeAt(a.downsampled[1], yi).
		Reorder(c, x, y).Unroll(c).Vectorize(x, vec).NeverPartition(y)
	a.normalize.Bound(x, 0, a.input.Dim(0).Extent()).Bound(y, 0, a.input.Dim(1).Extent()).Bound(c, 0, 3).
		NeverPartition(y).Split(x, xo, xi, vec).Split(y, yo, yi, 32).Reorder(xi, c, xo, yi, yo).Unroll(c).Vectorize(xi).Parallel(yo)
	for l := 1; l < levels; l++ {
		a.interpolated[l].StoreAt(a.normalize, yo).ComputeAt(a.normalize, yi).NeverPartitionAll().Vectorize(x, vec)
	}
}

func apEuclidDiv(a, b int) int {
	q := a / b
	if a%b < 0 {
		if b > 0 {
			q--
		} else {
			q++
		}
	}
	return q
}

// apInterpRef is the interpolate algorithm in plain Go float32, memoized
// over (level, x, y, c).
func apInterpRef(in *halide.Buffer[float32], levels int) func(x, y, c int) float32 {
	w, h := in.Dim(0).Extent, in.Dim(1).Extent
	type key struct{ f, l, x, y, c int }
	memo := map[key]float32{}
	var down, downx, interp func(l, x, y, c int) float32
	clamped := func(x, y, c int) float32 { return in.Get(apClampI(x, 0, w-1), apClampI(y, 0, h-1), c) }
	prev := func(l, x, y, c int) float32 {
		if l == 4 {
			pw, ph := w/(1<<(l-1)), h/(1<<(l-1))
			x, y = apClampI(x, 0, pw), apClampI(y, 0, ph)
		}
		return down(l-1, x, y, c)
	}
	down = func(l, x, y, c int) float32 {
		k := key{0, l, x, y, c}
		if v, ok := memo[k]; ok {
			return v
		}
		var v float32
		if l == 0 {
			if c < 3 {
				v = clamped(x, y, c) * clamped(x, y, 3)
			} else {
				v = clamped(x, y, 3)
			}
		} else {
			v = (downx(l, x, y*2-1, c) + 2*downx(l, x, y*2, c) + downx(l, x, y*2+1, c)) * 0.25
		}
		memo[k] = v
		return v
	}
	downx = func(l, x, y, c int) float32 {
		k := key{1, l, x, y, c}
		if v, ok := memo[k]; ok {
			return v
		}
		v := (prev(l, x*2-1, y, c) + 2*prev(l, x*2, y, c) + prev(l, x*2+1, y, c)) * 0.25
		memo[k] = v
		return v
	}
	interp = func(l, x, y, c int) float32 {
		if l == levels-1 {
			return down(l, x, y, c)
		}
		k := key{2, l, x, y, c}
		if v, ok := memo[k]; ok {
			return v
		}
		upx := func(x, y int) float32 {
			return (interp(l+1, apEuclidDiv(x, 2), y, c) + interp(l+1, apEuclidDiv(x+1, 2), y, c)) / 2
		}
		up := (upx(x, apEuclidDiv(y, 2)) + upx(x, apEuclidDiv(y+1, 2))) / 2
		alpha := 1 - down(l, x, y, 3)
		v := down(l, x, y, c) + alpha*up
		memo[k] = v
		return v
	}
	return func(x, y, c int) float32 { return interp(0, x, y, c) / interp(0, x, y, 3) }
}

func TestAppPortInterpolate(t *testing.T) {
	const levels, w, h = 6, 64, 32
	rng := rand.New(rand.NewSource(3))
	// rgba in (0.05, 1): alpha never 0, so normalize never divides by 0.
	inb := apRandF32(rng, 0.05, 1, w, h, 4)
	ref := apInterpRef(inb, levels)
	for _, gpu := range []bool{false, true} {
		name := "cpu"
		if gpu {
			name = "gpu"
		}
		t.Run(name, func(t *testing.T) {
			a := apInterpolate(levels)
			a.input.Set(inb)
			if gpu {
				a.scheduleGPU(levels)
			} else {
				a.scheduleCPU(levels)
			}
			ob := halide.NewBuffer[float32](w, h, 3)
			if err := apRun(a.normalize, gpu, ob); err != nil {
				t.Fatal(err)
			}
			// Tolerance 1e-4 relative: the same float32 operations in the
			// same order; only the ratio of two sums of ~6 levels of
			// averages (values in (0.05, 1)) can round differently if the
			// compiler contracts or reorders.
			apCheckF32(t, "output", ob, 1e-4, func(c []int) float32 { return ref(c[0], c[1], c[2]) })
		})
	}
}

// ---------------------------------------------------------------------
// max_filter (apps/max_filter/max_filter_generator.cpp), radius 3 instead
// of 26 (the image is 40x30x3).

type apMax struct {
	x, y, c, t                                halide.Var
	r                                         *halide.RDom
	input                                     *halide.ImageParam
	vertLog, sliceForRadius, vert, fh, output *halide.Func
}

func apMaxFilter(radius int, castLog bool) *apMax {
	x, y, c, t := halide.NewVar("x"), halide.NewVar("y"), halide.NewVar("c"), halide.NewVar("t")
	input_ := halide.NewImageParam("input", halide.Float32, 3)
	input := halide.RepeatEdge(input_, halide.Range(input_.Dim(0).Min(), input_.Dim(0).Extent()),
		halide.Range(input_.Dim(1).Min(), input_.Dim(1).Extent()))
	slices := int(math.Ceil(float64(float32(math.Log(float64(radius)))/float32(math.Log(2))))) + 1
	vertLog := halide.NewFunc("vert_log")
	vertLog.Define(x, y, c, t).Is(input.At(x, y, c))
	r := halide.NewRDom("r", halide.Range(-radius, input_.Dim(1).Extent().Add(radius)), halide.Range(1, slices-1))
	rx, ry := halide.E(r.X()), halide.E(r.Y())
	vertLog.Define(x, r.X(), c, r.Y()).Is(halide.Max(vertLog.At(x, r.X(), c, ry.Sub(1)),
		vertLog.At(x, rx.Add(halide.Clamp(halide.E(int32(1)).Shl(ry.Sub(1)), 0, radius*2)), c, ry.Sub(1))))
	sliceForRadius := halide.NewFunc("slice_for_radius")
	arg := t.Mul(2).Add(1)
	if castLog {
		arg = halide.Cast(halide.Float32, arg)
	}
	sliceForRadius.Define(t).Is(halide.Cast(halide.Int32, halide.Floor(halide.Log(arg).Div(float32(math.Log(2))))))
	vert := halide.NewFunc("vert")
	slice := halide.Clamp(sliceForRadius.At(t), 0, slices)
	first := vertLog.At(x, y.Sub(t), c, slice)
	second := vertLog.At(x, y.Add(t).Add(1).Sub(halide.Clamp(halide.E(int32(1)).Shl(slice), 0, 2*radius)), c, slice)
	vert.Define(x, y, c, t).Is(halide.Max(first, second))
	fh := halide.NewFunc("filter_height")
	dy := halide.NewRDom("dy", halide.Range(0, radius+1))
	rr := float32(radius) + 0.25
	fh.Define(x).Is(halide.Sum(halide.Select(x.Mul(x).Add(halide.E(dy).Mul(dy)).Lt(rr*rr), 1, 0)))
	dx := halide.NewRDom("dx", halide.Range(-radius, 2*radius+1))
	output := halide.NewFunc("output")
	output.Define(x, y, c).Is(halide.Maximum(vert.At(halide.E(dx).Add(x), y, c, halide.Clamp(fh.At(dx), 0, radius+1))))
	return &apMax{x, y, c, t, r, input_, vertLog, sliceForRadius, vert, fh, output}
}

func apMaxRef(in *halide.Buffer[float32], radius int) func(x, y, c int) float32 {
	w, h := in.Dim(0).Extent, in.Dim(1).Extent
	slices := int(math.Ceil(float64(float32(math.Log(float64(radius)))/float32(math.Log(2))))) + 1
	var vl func(x, y, c, t int) float32
	vl = func(x, y, c, t int) float32 {
		if t < 1 || t > slices-1 || y < -radius || y >= h {
			return in.Get(apClampI(x, 0, w-1), apClampI(y, 0, h-1), c)
		}
		a := vl(x, y, c, t-1)
		b := vl(x, y+apClampI(1<<(t-1), 0, 2*radius), c, t-1)
		return float32(math.Max(float64(a), float64(b)))
	}
	sfr := func(t int) int {
		return int(float32(math.Floor(float64(float32(math.Log(float64(2*t+1))) / float32(math.Log(2))))))
	}
	vert := func(x, y, c, t int) float32 {
		s := apClampI(sfr(t), 0, slices)
		a := vl(x, y-t, c, s)
		b := vl(x, y+t+1-apClampI(1<<s, 0, 2*radius), c, s)
		return float32(math.Max(float64(a), float64(b)))
	}
	fh := func(x int) int {
		n := 0
		rr := float32(radius) + 0.25
		for dy := 0; dy <= radius; dy++ {
			if float32(x*x+dy*dy) < rr*rr {
				n++
			}
		}
		return n
	}
	return func(x, y, c int) float32 {
		m := float32(math.Inf(-1))
		for dx := -radius; dx <= radius; dx++ {
			m = float32(math.Max(float64(m), float64(vert(x+dx, y, c, apClampI(fh(dx), 0, radius+1)))))
		}
		return m
	}
}

func TestAppPortMaxFilter(t *testing.T) {
	const radius, w, h = 3, 40, 30
	rng := rand.New(rand.NewSource(4))
	inb := apRandF32(rng, -1, 1, w, h, 3)
	ref := apMaxRef(inb, radius)
	run := func(t *testing.T, gpu, castLog bool) error {
		m := apMaxFilter(radius, castLog)
		m.input.Set(inb)
		x, y, c, tt, r := m.x, m.y, m.c, m.t, m.r
		xi, xo, yi, tx := halide.NewVar("xi"), halide.NewVar("xo"), halide.NewVar("yi"), halide.NewVar("tx")
		m.sliceForRadius.ComputeRoot()
		m.fh.ComputeRoot()
		if gpu {
			m.output.GPUTile(x, y, x, y, xi, yi, 32, 8).GPUBlocks(x, y, c)
			m.vertLog.ComputeRoot().Reorder(c, tt, x, y).GPUTile(x, y, x, y, xi, yi, 16, 16, halide.RoundUp).
				Update(0).Split(x, xo, xi, 32, halide.RoundUp).Reorder(r.X(), r.Y(), xi, xo, c).GPUBlocks(xo, c).GPUThreads(xi)
		} else {
			m.output.ComputeRoot().Split(x, tx, x, 256).Reorder(x, y, c, tx).Fuse(c, tx, tt).Parallel(tt).Vectorize(x, 8)
			m.vertLog.ComputeAt(m.output, tt)
			m.vertLog.Vectorize(x, 8)
			m.vertLog.Update(0).Reorder(x, r.X(), r.Y(), c).Vectorize(x, 8)
			m.vert.ComputeAt(m.output, y).Vectorize(x, 8)
		}
		ob := halide.NewBuffer[float32](w, h, 3)
		if err := apRun(m.output, gpu, ob); err != nil {
			return err
		}
		// Exact: maxima of input values (no arithmetic on floats).
		apCheckF32(t, "output", ob, 0, func(c []int) float32 { return ref(c[0], c[1], c[2]) })
		return nil
	}
	for _, gpu := range []bool{false, true} {
		name := "cpu"
		if gpu {
			name = "gpu"
		}
		t.Run(name, func(t *testing.T) {
			if err := run(t, gpu, false); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// ---------------------------------------------------------------------
// unsharp (apps/unsharp/unsharp_generator.cpp), sigma 1.5, 40x32x3.

type apUnsharp struct {
	x, y, c                              halide.Var
	input                                *halide.ImageParam
	gray, blurY, ratio, output, kernelFn *halide.Func
}

func apUnsharpAlg(sigma float32) *apUnsharp {
	x, y, c := halide.NewVar("x"), halide.NewVar("y"), halide.NewVar("c")
	input := halide.NewImageParam("input", halide.Float32, 3)
	const kPi = float32(3.14159265358979310000)
	kernel := halide.NewFunc("kernel")
	kernel.Define(x).Is(halide.Exp(x.Neg().Mul(x).Div(2 * sigma * sigma)).Div(float32(math.Sqrt(float64(2*kPi))) * sigma))
	ib := halide.RepeatEdge(input)
	gray := halide.NewFunc("gray")
	gray.Define(x, y).Is(ib.At(x, y, 0).Mul(float32(0.299)).Add(ib.At(x, y, 1).Mul(float32(0.587))).Add(ib.At(x, y, 2).Mul(float32(0.114))))
	blurY := halide.NewFunc("blur_y")
	blurY.Define(x, y).Is(kernel.At(0).Mul(gray.At(x, y)).
		Add(kernel.At(1).Mul(gray.At(x, y.Sub(1)).Add(gray.At(x, y.Add(1))))).
		Add(kernel.At(2).Mul(gray.At(x, y.Sub(2)).Add(gray.At(x, y.Add(2))))).
		Add(kernel.At(3).Mul(gray.At(x, y.Sub(3)).Add(gray.At(x, y.Add(3))))))
	blurX := halide.NewFunc("blur_x")
	blurX.Define(x, y).Is(kernel.At(0).Mul(blurY.At(x, y)).
		Add(kernel.At(1).Mul(blurY.At(x.Sub(1), y).Add(blurY.At(x.Add(1), y)))).
		Add(kernel.At(2).Mul(blurY.At(x.Sub(2), y).Add(blurY.At(x.Add(2), y)))).
		Add(kernel.At(3).Mul(blurY.At(x.Sub(3), y).Add(blurY.At(x.Add(3), y)))))
	sharpen := halide.NewFunc("sharpen")
	sharpen.Define(x, y).Is(halide.E(float32(2)).Mul(gray.At(x, y)).Sub(blurX.At(x, y)))
	ratio := halide.NewFunc("ratio")
	ratio.Define(x, y).Is(sharpen.At(x, y).Div(gray.At(x, y)))
	output := halide.NewFunc("output")
	output.Define(x, y, c).Is(ratio.At(x, y).Mul(input.At(x, y, c)))
	return &apUnsharp{x, y, c, input, gray, blurY, ratio, output, kernel}
}

func apUnsharpRef(in *halide.Buffer[float32], sigma float32) func(x, y, c int) float32 {
	w, h := in.Dim(0).Extent, in.Dim(1).Extent
	const kPi = float32(3.14159265358979310000)
	kernel := func(x int) float32 {
		return float32(math.Exp(float64(float32(-x*x)/(2*sigma*sigma)))) / (float32(math.Sqrt(float64(2*kPi))) * sigma)
	}
	ib := func(x, y, c int) float32 { return in.Get(apClampI(x, 0, w-1), apClampI(y, 0, h-1), c) }
	gray := func(x, y int) float32 { return 0.299*ib(x, y, 0) + 0.587*ib(x, y, 1) + 0.114*ib(x, y, 2) }
	blurY := func(x, y int) float32 {
		return kernel(0)*gray(x, y) + kernel(1)*(gray(x, y-1)+gray(x, y+1)) + kernel(2)*(gray(x, y-2)+gray(x, y+2)) + kernel(3)*(gray(x, y-3)+gray(x, y+3))
	}
	blurX := func(x, y int) float32 {
		return kernel(0)*blurY(x, y) + kernel(1)*(blurY(x-1, y)+blurY(x+1, y)) + kernel(2)*(blurY(x-2, y)+blurY(x+2, y)) + kernel(3)*(blurY(x-3, y)+blurY(x+3, y))
	}
	return func(x, y, c int) float32 {
		return (2*gray(x, y) - blurX(x, y)) / gray(x, y) * in.Get(x, y, c)
	}
}

func TestAppPortUnsharp(t *testing.T) {
	const w, h, sigma = 40, 32, float32(1.5)
	rng := rand.New(rand.NewSource(5))
	// Values in [0.1, 1): gray is never near 0 (ratio divides by it).
	inb := apRandF32(rng, 0.1, 1, w, h, 3)
	ref := apUnsharpRef(inb, sigma)
	for _, gpu := range []bool{false, true} {
		name := "cpu"
		if gpu {
			name = "gpu"
		}
		t.Run(name, func(t *testing.T) {
			u := apUnsharpAlg(sigma)
			u.input.Set(inb)
			x, y, c := u.x, u.y, u.c
			xi, yi, yo := halide.NewVar("xi"), halide.NewVar("yi"), halide.NewVar("yo")
			if gpu {
				const tile = 32
				u.output.ComputeRoot().Reorder(c, x, y).GPUTile(x, y, x, y, xi, yi, tile, tile).Bound(c, 0, 3).Unroll(c)
				u.ratio.ComputeAt(u.output, xi)
				u.gray.ComputeAt(u.output, x).Tile(x, y, x, y, xi, yi, 2, 2).Unroll(xi).Unroll(yi).GPUThreads(x, y)
				u.blurY.ComputeAt(u.output, x).Unroll(x, 2).GPUThreads(x, y)
			} else {
				const vec = 8
				u.output.Split(y, yo, yi, 32).Vectorize(x, vec).Parallel(yo).Reorder(x, c, yi, yo)
				u.gray.ComputeAt(u.output, yi).StoreAt(u.output, yo).Vectorize(x, vec)
				u.blurY.ComputeAt(u.output, yi).StoreAt(u.output, yo).Vectorize(x, vec)
				u.ratio.ComputeAt(u.output, yi).StoreAt(u.output, yo).Vectorize(x, vec)
			}
			ob := halide.NewBuffer[float32](w, h, 3)
			if err := apRun(u.output, gpu, ob); err != nil {
				t.Fatal(err)
			}
			// Tolerance 1e-4 relative: float32 sums of 7x7 weighted values
			// in [0.1, 1) and a ratio; exp may differ by an ulp from Go's.
			apCheckF32(t, "output", ob, 1e-4, func(c []int) float32 { return ref(c[0], c[1], c[2]) })
		})
	}
}

// ---------------------------------------------------------------------
// harris (apps/harris/harris_generator.cpp). The input has no boundary
// condition: the output (62x32) is the input (68x38) less 3 pixels on
// each side, with min (3, 3).

type apHarris struct {
	x, y                 halide.Var
	input                *halide.ImageParam
	gray, ix, iy, output *halide.Func
}

func apHarrisAlg() *apHarris {
	x, y := halide.NewVar("x"), halide.NewVar("y")
	input := halide.NewImageParam("input", halide.Float32, 3)
	gray := halide.NewFunc("gray")
	gray.Define(x, y).Is(input.At(x, y, 0).Mul(float32(0.299)).Add(input.At(x, y, 1).Mul(float32(0.587))).Add(input.At(x, y, 2).Mul(float32(0.114))))
	g := func(dx, dy int) halide.Expr { return gray.At(x.Add(dx), y.Add(dy)) }
	iy := halide.NewFunc("Iy")
	iy.Define(x, y).Is(g(-1, -1).Mul(float32(-1.0 / 12)).Add(g(-1, 1).Mul(float32(1.0 / 12))).
		Add(g(0, -1).Mul(float32(-2.0 / 12))).Add(g(0, 1).Mul(float32(2.0 / 12))).
		Add(g(1, -1).Mul(float32(-1.0 / 12))).Add(g(1, 1).Mul(float32(1.0 / 12))))
	ix := halide.NewFunc("Ix")
	ix.Define(x, y).Is(g(-1, -1).Mul(float32(-1.0 / 12)).Add(g(1, -1).Mul(float32(1.0 / 12))).
		Add(g(-1, 0).Mul(float32(-2.0 / 12))).Add(g(1, 0).Mul(float32(2.0 / 12))).
		Add(g(-1, 1).Mul(float32(-1.0 / 12))).Add(g(1, 1).Mul(float32(1.0 / 12))))
	ixx, iyy, ixy := halide.NewFunc("Ixx"), halide.NewFunc("Iyy"), halide.NewFunc("Ixy")
	ixx.Define(x, y).Is(ix.At(x, y).Mul(ix.At(x, y)))
	iyy.Define(x, y).Is(iy.At(x, y).Mul(iy.At(x, y)))
	ixy.Define(x, y).Is(ix.At(x, y).Mul(iy.At(x, y)))
	sum3x3 := func(f *halide.Func) halide.Expr {
		s := f.At(x.Sub(1), y.Sub(1)).Add(f.At(x.Sub(1), y)).Add(f.At(x.Sub(1), y.Add(1)))
		s = s.Add(f.At(x, y.Sub(1))).Add(f.At(x, y)).Add(f.At(x, y.Add(1)))
		return s.Add(f.At(x.Add(1), y.Sub(1))).Add(f.At(x.Add(1), y)).Add(f.At(x.Add(1), y.Add(1)))
	}
	sxx, syy, sxy := halide.NewFunc("Sxx"), halide.NewFunc("Syy"), halide.NewFunc("Sxy")
	sxx.Define(x, y).Is(sum3x3(ixx))
	syy.Define(x, y).Is(sum3x3(iyy))
	sxy.Define(x, y).Is(sum3x3(ixy))
	det, trace := halide.NewFunc("det"), halide.NewFunc("trace")
	det.Define(x, y).Is(sxx.At(x, y).Mul(syy.At(x, y)).Sub(sxy.At(x, y).Mul(sxy.At(x, y))))
	trace.Define(x, y).Is(sxx.At(x, y).Add(syy.At(x, y)))
	output := halide.NewFunc("output")
	output.Define(x, y).Is(det.At(x, y).Sub(halide.E(float32(0.04)).Mul(trace.At(x, y)).Mul(trace.At(x, y))))
	return &apHarris{x, y, input, gray, ix, iy, output}
}

func apHarrisRef(in *halide.Buffer[float32]) func(x, y int) float32 {
	gray := func(x, y int) float32 { return 0.299*in.Get(x, y, 0) + 0.587*in.Get(x, y, 1) + 0.114*in.Get(x, y, 2) }
	iy := func(x, y int) float32 {
		return gray(x-1, y-1)*(-1.0/12) + gray(x-1, y+1)*(1.0/12) + gray(x, y-1)*(-2.0/12) + gray(x, y+1)*(2.0/12) + gray(x+1, y-1)*(-1.0/12) + gray(x+1, y+1)*(1.0/12)
	}
	ix := func(x, y int) float32 {
		return gray(x-1, y-1)*(-1.0/12) + gray(x+1, y-1)*(1.0/12) + gray(x-1, y)*(-2.0/12) + gray(x+1, y)*(2.0/12) + gray(x-1, y+1)*(-1.0/12) + gray(x+1, y+1)*(1.0/12)
	}
	sum3 := func(f func(x, y int) float32, x, y int) float32 {
		return f(x-1, y-1) + f(x-1, y) + f(x-1, y+1) + f(x, y-1) + f(x, y) + f(x, y+1) + f(x+1, y-1) + f(x+1, y) + f(x+1, y+1)
	}
	return func(x, y int) float32 {
		sxx := sum3(func(x, y int) float32 { return ix(x, y) * ix(x, y) }, x, y)
		syy := sum3(func(x, y int) float32 { return iy(x, y) * iy(x, y) }, x, y)
		sxy := sum3(func(x, y int) float32 { return ix(x, y) * iy(x, y) }, x, y)
		det := sxx*syy - sxy*sxy
		tr := sxx + syy
		return det - 0.04*tr*tr
	}
}

func TestAppPortHarris(t *testing.T) {
	const w, h = 62, 32
	rng := rand.New(rand.NewSource(6))
	inb := apRandF32(rng, 0, 1, w+6, h+6, 3)
	ref := apHarrisRef(inb)
	// gpu is the generator's CUDA schedule as written (harris 1 and 2 at
	// the end of the file); the variants drop Ix.compute_with(Iy, x), and
	// so give Ix and Iy a gray.in() each, with and without its unroll(x).
	for _, tc := range []struct {
		name    string
		gpu, cw bool
		unroll  bool
	}{{"cpu", false, true, true}, {"gpu", true, true, true},
		{"gpu_variant_unroll", true, false, true}, {"gpu_variant", true, false, false}} {
		gpu := tc.gpu
		t.Run(tc.name, func(t *testing.T) {
			a := apHarrisAlg()
			a.input.Set(inb)
			x, y := a.x, a.y
			xi, yi := halide.NewVar("xi"), halide.NewVar("yi")
			if gpu {
				a.output.GPUTile(x, y, x, y, xi, yi, 62, 14).Unroll(xi, 2)
				a.gray.ComputeAt(a.output, x).GPUThreads(x, y).Tile(x, y, x, y, xi, yi, 3, 2).Unroll(xi).Unroll(yi)
				if tc.cw {
					a.gray.In().ComputeAt(a.iy, x).Vectorize(x, 2).Unroll(x).Unroll(y)
				} else {
					// Without compute_with, Iy.x does not contain Ix's
					// uses of gray.in(): one wrapper for each consumer,
					// unrolled in x (gpu_variant_unroll) or not
					// (gpu_variant).
					gi, gx := a.gray.In(a.iy), a.gray.In(a.ix)
					gi.ComputeAt(a.iy, x).Vectorize(x, 2)
					gx.ComputeAt(a.ix, x).Vectorize(x, 2)
					if tc.unroll {
						gi.Unroll(x)
						gx.Unroll(x)
					}
					gi.Unroll(y)
					gx.Unroll(y)
				}
				a.ix.ComputeAt(a.output, x).GPUThreads(x, y).Unroll(x, 2)
				a.iy.ComputeAt(a.output, x).GPUThreads(x, y).Unroll(x, 2)
				if tc.cw {
					a.ix.ComputeWith(a.iy, x)
				}
				a.ix.In().ComputeAt(a.output, xi).Vectorize(x, 2).Unroll(x).Unroll(y)
				a.iy.In().ComputeAt(a.output, xi).Vectorize(x, 2).Unroll(x).Unroll(y)
			} else {
				const vec = 8
				a.output.Split(y, y, yi, 32).Parallel(y).Vectorize(x, vec)
				a.gray.StoreAt(a.output, y).ComputeAt(a.output, yi).Vectorize(x, vec)
				a.ix.StoreAt(a.output, y).ComputeAt(a.output, yi).Vectorize(x, vec)
				a.iy.StoreAt(a.output, y).ComputeAt(a.output, yi).Vectorize(x, vec)
				a.ix.ComputeWith(a.iy, x)
			}
			ob := halide.NewBuffer[float32](w, h).SetMin(3, 3)
			if err := apRun(a.output, gpu, ob); err != nil {
				t.Fatal(err)
			}
			// Tolerance 1e-4 relative plus absolute: det and trace^2 are
			// differences of float32 products of 9-term sums (values of
			// order 0.01 to 1); the library may round differently where
			// it contracts or reorders.
			apCheckF32(t, "output", ob, 1e-4, func(c []int) float32 { return ref(c[0], c[1]) })
		})
	}
}

// ---------------------------------------------------------------------
// iir_blur (apps/iir_blur/iir_blur_generator.cpp) on a 32x40x3 image
// (set_bounds to that size instead of 1536x2560; set_stride is not in the
// API). Schedules: "cpu", "gpu" (the CUDA one, with gpu_lanes) and
// "gpu_generic" (the one for GPUs without gpu_lanes).

func apBlurColsTranspose(input func(x, y, c any) halide.Expr, height, alpha halide.Expr, sched string) *halide.Func {
	x, y, c := halide.NewVar("x"), halide.NewVar("y"), halide.NewVar("c")
	const vec = 8
	blur := halide.NewFunc("blur")
	blur.Define(x, y, c).Is(halide.Undef(halide.Float32))
	blur.Define(x, 0, c).Is(input(x, 0, c))
	ry := halide.NewRDom("ry", halide.Range(1, height.Sub(1)))
	one := halide.E(float32(1))
	blur.Define(x, ry, c).Is(one.Sub(alpha).Mul(blur.At(x, halide.E(ry).Sub(1), c)).Add(alpha.Mul(input(x, ry, c))))
	flipRy := height.Sub(ry).Sub(1)
	blur.Define(x, flipRy, c).Is(one.Sub(alpha).Mul(blur.At(x, flipRy.Add(1), c)).Add(alpha.Mul(blur.At(x, flipRy, c))))
	transpose := halide.NewFunc("transpose")
	transpose.Define(x, y, c).Is(blur.At(y, x, c))
	switch sched {
	case "cpu":
		xo, yo, t, yi := halide.NewVar("xo"), halide.NewVar("yo"), halide.NewVar("t"), halide.NewVar("yi")
		transpose.ComputeRoot().Tile(x, y, xo, yo, x, y, vec, vec*4).Split(y, y, yi, vec).Vectorize(yi).Vectorize(x).Fuse(yo, c, t).Parallel(t)
		blur.ComputeAt(transpose, t)
		blur.Update(0).Unscheduled()
		blur.Update(1).Reorder(x, ry).Vectorize(x)
		blur.Update(2).Reorder(x, ry).Vectorize(x)
	case "gpu":
		const warp = 32
		xi, yi := halide.NewVar("xi"), halide.NewVar("yi")
		transpose.ComputeRoot().Tile(x, y, x, y, xi, yi, warp, warp).GPUBlocks(y, c).GPULanes(xi)
		blur.ComputeAt(transpose, y).StoreIn(halide.Heap).GPULanes(x)
		blur.Update(0).GPULanes(x)
		blur.Update(1).Unroll(ry, 8).GPULanes(x)
		blur.Update(2).Unroll(ry, 8).GPULanes(x)
		blur.In().AlignStorage(x, warp+1).ComputeAt(transpose, x).GPULanes(x)
	case "gpu_lanes_split":
		// The "gpu" schedule with the x of each stage of blur and of
		// blur.in() split by the warp size before gpu_lanes (iir_blur 2
		// at the end of the file).
		const warp = 32
		xi, yi := halide.NewVar("xi"), halide.NewVar("yi")
		transpose.ComputeRoot().Tile(x, y, x, y, xi, yi, warp, warp).GPUBlocks(y, c).GPULanes(xi)
		blur.ComputeAt(transpose, y).StoreIn(halide.Heap).Split(x, x, xi, warp).GPULanes(xi)
		blur.Update(0).Split(x, x, xi, warp).GPULanes(xi)
		blur.Update(1).Unroll(ry, 8).Split(x, x, xi, warp).GPULanes(xi)
		blur.Update(2).Unroll(ry, 8).Split(x, x, xi, warp).GPULanes(xi)
		blur.In().AlignStorage(x, warp+1).ComputeAt(transpose, x).Split(x, x, xi, warp).GPULanes(xi)
	case "gpu_generic":
		xi := halide.NewVar("xi")
		blur.ComputeRoot()
		for i := 0; i < 3; i++ {
			blur.Update(i).Split(x, x, xi, 32).GPUBlocks(x, c).GPUThreads(xi)
		}
	}
	return transpose
}

func apIIRRef(in *halide.Buffer[float32], alpha float32) func(x, y, c int) float32 {
	w, h, ch := in.Dim(0).Extent, in.Dim(1).Extent, in.Dim(2).Extent
	// blurT blurs the columns of src (w x h) and transposes: h x w.
	blurT := func(src [][][]float32, w, h int) [][][]float32 {
		out := make([][][]float32, ch)
		for c := 0; c < ch; c++ {
			out[c] = make([][]float32, w) // out[c][y=x_src][x=y_src]
			for x := 0; x < w; x++ {
				b := make([]float32, h)
				b[0] = src[c][0][x]
				for y := 1; y < h; y++ {
					b[y] = (1-alpha)*b[y-1] + alpha*src[c][y][x]
				}
				for r := 1; r < h; r++ {
					fy := h - r - 1
					b[fy] = (1-alpha)*b[fy+1] + alpha*b[fy]
				}
				out[c][x] = b
			}
		}
		return out
	}
	src := make([][][]float32, ch)
	for c := range src {
		src[c] = make([][]float32, h)
		for y := range src[c] {
			src[c][y] = make([]float32, w)
			for x := range src[c][y] {
				src[c][y][x] = in.Get(x, y, c)
			}
		}
	}
	t1 := blurT(src, w, h) // rows: w, cols: h
	t2 := blurT(t1, h, w)  // rows: h, cols: w
	return func(x, y, c int) float32 { return t2[c][y][x] }
}

func TestAppPortIIRBlur(t *testing.T) {
	const w, h, alphaV = 32, 40, float32(0.3)
	rng := rand.New(rand.NewSource(7))
	inb := apRandF32(rng, 0, 1, w, h, 3)
	ref := apIIRRef(inb, alphaV)
	for _, sched := range []string{"cpu", "gpu", "gpu_generic"} {
		// Both calls of blur_cols_transpose name their Funcs "blur" and
		// "transpose", as the generator's do (iir_blur 1 at the end of the
		// file): the pipeline names the second call's blur_1 and
		// transpose_1.
		t.Run(sched, func(t *testing.T) {
			input := halide.NewImageParam("input", halide.Float32, 3)
			input.Set(inb)
			alpha := halide.NewParam[float32]("alpha")
			alpha.Set(alphaV)
			width, height := input.Dim(0).Extent(), input.Dim(1).Extent()
			blurT := apBlurColsTranspose(func(x, y, c any) halide.Expr { return input.At(x, y, c) }, height, alpha.Expr(), sched)
			out := apBlurColsTranspose(func(x, y, c any) halide.Expr { return blurT.At(x, y, c) }, width, alpha.Expr(), sched)
			input.Dim(0).SetBounds(0, w)
			input.Dim(1).SetBounds(0, h)
			input.Dim(2).SetBounds(0, 3)
			out.Dim(0).SetBounds(0, w)
			out.Dim(1).SetBounds(0, h)
			out.Dim(2).SetBounds(0, 3)
			ob := halide.NewBuffer[float32](w, h, 3)
			if err := apRun(out, sched != "cpu", ob); err != nil {
				t.Fatal(err)
			}
			// Tolerance 1e-5 relative: the same float32 recurrences in
			// the same order (values stay in [0, 1)).
			apCheckF32(t, "output", ob, 1e-5, func(c []int) float32 { return ref(c[0], c[1], c[2]) })
		})
	}
}

// ---------------------------------------------------------------------
// nl_means (apps/nl_means/nl_means_generator.cpp) on a 32x16x3 image,
// patch_size 3, search_area 3, sigma 0.5. fast_exp is not in the API:
// Exp is used.

type apNLM struct {
	x, y, c, dx, dy               halide.Var
	sdom                          *halide.RDom
	input                         *halide.ImageParam
	d, blurDY, blurD, nlmSum, nlm *halide.Func
}

func apNLMAlg(patch, search int32, sigma float32, explicitSums bool) *apNLM {
	x, y, c := halide.NewVar("x"), halide.NewVar("y"), halide.NewVar("c")
	input := halide.NewImageParam("input", halide.Float32, 3)
	ps := halide.NewParam[int32]("patch_size")
	ps.Set(patch)
	sa := halide.NewParam[int32]("search_area")
	sa.Set(search)
	sg := halide.NewParam[float32]("sigma")
	sg.Set(sigma)
	invSigmaSq := halide.E(float32(-1)).Div(sg.Expr().Mul(sg).Mul(ps).Mul(ps))
	clamped := halide.RepeatEdge(input)
	dx, dy := halide.NewVar("dx"), halide.NewVar("dy")
	dc := halide.NewFunc("d")
	dc.Define(x, y, dx, dy, c).Is(halide.Pow(clamped.At(x, y, c).Sub(clamped.At(x.Add(dx), y.Add(dy), c)), float32(2)))
	// sum defines f(args) = sum(e), or f(args) = 0; f(args) += e.
	sum := func(f *halide.Func, e halide.Expr, args ...any) {
		if explicitSums {
			f.Define(args...).Is(float32(0))
			f.Define(args...).PlusEq(e)
		} else {
			f.Define(args...).Is(halide.Sum(e))
		}
	}
	channels := halide.NewRDom("channels", halide.Range(0, 3))
	d := halide.NewFunc("d")
	sum(d, dc.At(x, y, dx, dy, channels), x, y, dx, dy)
	patchDom := halide.NewRDom("patch_dom", halide.Range(ps.Expr().Div(2).Neg(), ps))
	blurDY := halide.NewFunc("blur_d_y")
	sum(blurDY, d.At(x, y.Add(patchDom), dx, dy), x, y, dx, dy)
	blurD := halide.NewFunc("blur_d")
	sum(blurD, blurDY.At(x.Add(patchDom), y, dx, dy), x, y, dx, dy)
	w := halide.NewFunc("w")
	w.Define(x, y, dx, dy).Is(halide.Exp(blurD.At(x, y, dx, dy).Mul(invSigmaSq)))
	cwa := halide.NewFunc("clamped_with_alpha")
	cwa.Define(x, y, c).Is(halide.Mux(c, clamped.At(x, y, 0), clamped.At(x, y, 1), clamped.At(x, y, 2), float32(1)))
	sdom := halide.NewRDom("s_dom", halide.Range(sa.Expr().Div(2).Neg(), sa), halide.Range(sa.Expr().Div(2).Neg(), sa))
	nlmSum := halide.NewFunc("non_local_means_sum")
	nlmSum.Define(x, y, c).PlusEq(w.At(x, y, sdom.X(), sdom.Y()).Mul(cwa.At(x.Add(sdom.X()), y.Add(sdom.Y()), c)))
	nlm := halide.NewFunc("non_local_means")
	nlm.Define(x, y, c).Is(halide.Clamp(nlmSum.At(x, y, c).Div(nlmSum.At(x, y, 3)), float32(0), float32(1)))
	nlm.Dim(2).SetBounds(0, 3)
	return &apNLM{x, y, c, dx, dy, sdom, input, d, blurDY, blurD, nlmSum, nlm}
}

func (a *apNLM) scheduleCPU() {
	x, y, c := a.x, a.y, a.c
	tx, ty := halide.NewVar("tx"), halide.NewVar("ty")
	const vec = 8
	a.nlm.ComputeRoot().Reorder(c, x, y).Tile(x, y, tx, ty, x, y, 16, 8).Parallel(ty).Vectorize(x, vec)
	a.blurDY.ComputeAt(a.nlm, tx).HoistStorage(a.nlm, ty).Reorder(y, x).Vectorize(x, vec)
	a.d.ComputeAt(a.nlm, tx).HoistStorage(a.nlm, ty).Vectorize(x, vec)
	a.nlmSum.ComputeAt(a.nlm, x).Reorder(c, x, y).Bound(c, 0, 4).Unroll(c).Vectorize(x, vec)
	a.nlmSum.Update(0).Reorder(c, x, y, a.sdom.X(), a.sdom.Y()).Unroll(c).Vectorize(x, vec)
	a.blurD.ComputeAt(a.nlmSum, x).Vectorize(x, vec)
}

func (a *apNLM) scheduleGPU(explicitSums bool) {
	x, y, c, dx := a.x, a.y, a.c, a.dx
	xi, yi, xii, yii := halide.NewVar("xi"), halide.NewVar("yi"), halide.NewVar("xii"), halide.NewVar("yii")
	a.nlm.ComputeRoot().Reorder(c, x, y).Unroll(c).GPUTile(x, y, x, y, xi, yi, 32, 16)
	a.nlmSum.ComputeRoot().GPUTile(x, y, x, y, xi, yi, 32, 16).
		Update(0).Reorder(c, a.sdom.X(), x, y, a.sdom.Y()).Tile(x, y, x, y, xi, yi, 32, 16).GPUBlocks(x, y).GPUThreads(xi, yi).Unroll(c)
	a.blurD.ComputeAtStage(a.nlmSum.Update(0), a.sdom.Y()).Tile(x, y, x, y, xi, yi, 128-6, 32-6).
		Tile(xi, yi, xi, yi, xii, yii, 32, 16).GPUThreads(xii, yii).GPUBlocks(x, y, dx)
	a.blurDY.ComputeAt(a.blurD, x).Tile(x, y, x, y, xi, yi, 32, 16).GPUThreads(xi, yi)
	a.d.ComputeAt(a.blurD, x).Tile(x, y, x, y, xi, yi, 32, 16).GPUThreads(xi, yi)
	if explicitSums {
		// The sums' update stages get their pure stage's loop
		// directives (Halide's inline sum is computed in the innermost
		// loop of its consumer).
		a.blurD.Update(0).Tile(x, y, x, y, xi, yi, 128-6, 32-6).
			Tile(xi, yi, xi, yi, xii, yii, 32, 16).GPUThreads(xii, yii).GPUBlocks(x, y, dx)
		a.blurDY.Update(0).Tile(x, y, x, y, xi, yi, 32, 16).GPUThreads(xi, yi)
		a.d.Update(0).Tile(x, y, x, y, xi, yi, 32, 16).GPUThreads(xi, yi)
	}
}

func apNLMRef(in *halide.Buffer[float32], patch, search int, sigma float32) func(x, y, c int) float32 {
	w, h := in.Dim(0).Extent, in.Dim(1).Extent
	inv := float32(-1) / (sigma * sigma * float32(patch) * float32(patch))
	cl := func(x, y, c int) float32 { return in.Get(apClampI(x, 0, w-1), apClampI(y, 0, h-1), c) }
	d := func(x, y, dx, dy int) float32 {
		var s float32
		for c := 0; c < 3; c++ {
			v := cl(x, y, c) - cl(x+dx, y+dy, c)
			s += v * v
		}
		return s
	}
	p0 := -apEuclidDiv(patch, 2)
	blurDY := func(x, y, dx, dy int) float32 {
		var s float32
		for r := p0; r < p0+patch; r++ {
			s += d(x, y+r, dx, dy)
		}
		return s
	}
	blurD := func(x, y, dx, dy int) float32 {
		var s float32
		for r := p0; r < p0+patch; r++ {
			s += blurDY(x+r, y, dx, dy)
		}
		return s
	}
	cwa := func(x, y, c int) float32 {
		if c == 3 {
			return 1
		}
		return cl(x, y, c)
	}
	s0 := -apEuclidDiv(search, 2)
	sum := func(x, y, c int) float32 {
		var s float32
		for sy := s0; sy < s0+search; sy++ {
			for sx := s0; sx < s0+search; sx++ {
				wt := float32(math.Exp(float64(blurD(x, y, sx, sy) * inv)))
				s += wt * cwa(x+sx, y+sy, c)
			}
		}
		return s
	}
	return func(x, y, c int) float32 {
		v := sum(x, y, c) / sum(x, y, 3)
		return float32(math.Min(math.Max(float64(v), 0), 1))
	}
}

func TestAppPortNLMeans(t *testing.T) {
	const w, h, patch, search, sigma = 32, 16, 3, 3, float32(0.5)
	rng := rand.New(rand.NewSource(8))
	inb := apRandF32(rng, 0, 1, w, h, 3)
	ref := apNLMRef(inb, patch, search, sigma)
	// The difference image Func and its channel sum are both named "d",
	// as in the generator (nl_means 1 at the end of the file). The
	// _explicit_sums subtests also write every sum() as f = 0; f += e (on
	// the GPU with the pure stage's tiles and GPU loops on the update
	// too), which gives the same values.
	for _, tc := range []struct {
		name     string
		gpu      bool
		explicit bool
	}{{"cpu", false, false}, {"cpu_explicit_sums", false, true},
		{"gpu", true, false}, {"gpu_explicit_sums", true, true}} {
		t.Run(tc.name, func(t *testing.T) {
			a := apNLMAlg(patch, search, sigma, tc.explicit)
			a.input.Set(inb)
			if tc.gpu {
				a.scheduleGPU(tc.explicit)
			} else {
				a.scheduleCPU()
			}
			ob := halide.NewBuffer[float32](w, h, 3)
			if err := apRun(a.nlm, tc.gpu, ob); err != nil {
				t.Fatal(err)
			}
			// Tolerance 1e-4 relative: a ratio of two sums of 9 weights
			// (exp of float32 sums of 27 squared differences) times values
			// in [0, 1]; exp may differ from Go's by an ulp.
			apCheckF32(t, "output", ob, 1e-4, func(c []int) float32 { return ref(c[0], c[1], c[2]) })
		})
	}
}

// ---------------------------------------------------------------------
// hist (apps/hist/hist_generator.cpp) on a 128x8x3 uint8 image (the GPU
// schedule's output tiles are 128x4). Schedules: "cpu" and "gpu" (the
// CUDA one, with atomics, gpu_lanes and GPU shared memory).

type apHist struct {
	x, y, c              halide.Var
	rx, ry               *halide.RDom
	input                *halide.ImageParam
	yf, cr, cb, histRows *halide.Func
	hist, cdf, eq, out   *halide.Func
}

func apHistAlg() *apHist {
	x, y, c := halide.NewVar("x"), halide.NewVar("y"), halide.NewVar("c")
	input := halide.NewImageParam("input", halide.UInt8, 3)
	f32 := func(e halide.Expr) halide.Expr { return halide.Cast(halide.Float32, e) }
	yf := halide.NewFunc("Y")
	yf.Define(x, y).Is(halide.E(float32(0.299)).Mul(input.At(x, y, 0)).Add(halide.E(float32(0.587)).Mul(input.At(x, y, 1))).Add(halide.E(float32(0.114)).Mul(input.At(x, y, 2))))
	cr := halide.NewFunc("Cr")
	r := input.At(x, y, 0)
	cr.Define(x, y).Is(r.Sub(yf.At(x, y)).Mul(float32(0.713)).Add(float32(128)))
	cb := halide.NewFunc("Cb")
	b := input.At(x, y, 2)
	cb.Define(x, y).Is(b.Sub(yf.At(x, y)).Mul(float32(0.564)).Add(float32(128)))
	_ = f32
	histRows := halide.NewFunc("hist_rows")
	histRows.Define(x, y).Is(int32(0))
	rx := halide.NewRDom("rx", halide.Range(0, input.Dim(0).Extent()))
	bin := halide.Cast(halide.Int32, halide.Clamp(yf.At(rx, y), 0, 255))
	histRows.Define(bin, y).PlusEq(int32(1))
	hist := halide.NewFunc("hist")
	hist.Define(x).Is(int32(0))
	ry := halide.NewRDom("ry", halide.Range(0, input.Dim(1).Extent()))
	hist.Define(x).PlusEq(histRows.At(x, ry))
	cdf := halide.NewFunc("cdf")
	cdf.Define(x).Is(hist.At(0))
	bd := halide.NewRDom("b", halide.Range(1, 255))
	cdf.Define(bd.X()).Is(cdf.At(halide.E(bd.X()).Sub(1)).Add(hist.At(bd.X())))
	cdfBin := halide.NewFunc("cdf_bin")
	cdfBin.Define(x, y).Is(halide.Cast(halide.UInt8, halide.Clamp(yf.At(x, y), 0, 255)))
	eq := halide.NewFunc("equalize")
	eq.Define(x, y).Is(halide.Clamp(cdf.At(cdfBin.At(x, y)).Mul(halide.E(float32(255)).Div(input.Dim(1).Extent().Mul(input.Dim(0).Extent()))), 0, 255))
	u8 := func(e halide.Expr) halide.Expr { return halide.Cast(halide.UInt8, e) }
	red := u8(halide.Clamp(eq.At(x, y).Add(cr.At(x, y).Sub(128).Mul(float32(1.4))), 0, 255))
	green := u8(halide.Clamp(eq.At(x, y).Sub(halide.E(float32(0.343)).Mul(cb.At(x, y).Sub(128))).Sub(halide.E(float32(0.711)).Mul(cr.At(x, y).Sub(128))), 0, 255))
	blue := u8(halide.Clamp(eq.At(x, y).Add(halide.E(float32(1.765)).Mul(cb.At(x, y).Sub(128))), 0, 255))
	out := halide.NewFunc("output")
	out.Define(x, y, c).Is(halide.Mux(c, red, green, blue))
	return &apHist{x, y, c, rx, ry, input, yf, cr, cb, histRows, hist, cdf, eq, out}
}

func (a *apHist) scheduleCPU() {
	x, y, c := a.x, a.y, a.c
	const vec = 8
	a.cdf.Bound(x, 0, 256)
	hin := a.histRows.In()
	a.yf.CloneIn(a.histRows).ComputeAt(hin, y).Vectorize(x, vec)
	a.histRows.Update(0).Unscheduled()
	hin.ComputeRoot().Vectorize(x, vec).Parallel(y, 4)
	a.histRows.ComputeAt(hin, y).Vectorize(x, vec).Update(0).Reorder(y, a.rx).Unroll(y)
	a.hist.ComputeRoot().Vectorize(x, vec).Update(0).Reorder(x, a.ry).Vectorize(x, vec).Unroll(x, 4).Parallel(x).Reorder(a.ry, x)
	a.cdf.ComputeRoot().Update(0).Unscheduled()
	a.out.Reorder(c, x, y).Bound(c, 0, 3).Unroll(c).Parallel(y, 8).Vectorize(x, vec*2)
}

func (a *apHist) scheduleGPU(variant bool) {
	x, y, c := a.x, a.y, a.c
	xi, yi := halide.NewVar("xi"), halide.NewVar("yi")
	rxo, rxi := halide.NewRVar("rxo"), halide.NewRVar("rxi")
	a.cdf.Bound(x, 0, 256)
	hin := a.histRows.In()
	hin.ComputeRoot().Split(x, x, xi, 64).Vectorize(xi, 2).Unroll(x).GPULanes(xi).GPUBlocks(y)
	a.histRows.StoreIn(halide.GPUShared).ComputeAt(hin, y).Split(x, x, xi, 64).Vectorize(xi, 2).Unroll(x).GPULanes(xi).
		Update(0).Split(a.rx, rxo, rxi, 32).Reorder(rxi, rxo, y).Atomic().GPULanes(rxi)
	if variant {
		// hist 1: split by the warp size before gpu_lanes, and (hist 2)
		// store_in(GPUShared) instead of Register.
		a.yf.CloneIn(a.histRows).ComputeAt(a.histRows, rxo).StoreIn(halide.GPUShared).Split(x, x, xi, 32).GPULanes(xi)
	} else {
		a.yf.CloneIn(a.histRows).ComputeAt(a.histRows, rxo).StoreIn(halide.Register).GPULanes(x)
	}
	a.hist.ComputeRoot().GPUTile1D(x, x, xi, 16).Update(0).GPUTile1D(x, x, xi, 16)
	a.cdf.ComputeRoot().GPUTile1D(x, x, xi, 16).Update(0).GPUSingleThread()
	a.out.ComputeRoot().Reorder(c, x, y).Bound(c, 0, 3).Unroll(c).GPUTile(x, y, x, y, xi, yi, 128, 4).Vectorize(xi, 4)
	a.cb.ComputeAt(a.out, xi).Vectorize(x)
	a.cr.ComputeAt(a.out, xi).Vectorize(x)
	a.eq.ComputeAt(a.out, xi).Vectorize(x)
	a.cdf.In().ComputeAt(a.out, x).Split(x, x, xi, 64).Vectorize(xi, 2).GPUThreads(xi, x)
}

func apHistRef(in *halide.Buffer[uint8]) func(x, y, c int) uint8 {
	w, h := in.Dim(0).Extent, in.Dim(1).Extent
	yf := func(x, y int) float32 {
		return float32(0.299)*float32(in.Get(x, y, 0)) + float32(0.587)*float32(in.Get(x, y, 1)) + float32(0.114)*float32(in.Get(x, y, 2))
	}
	clampF := func(v, lo, hi float32) float32 {
		return float32(math.Min(math.Max(float64(v), float64(lo)), float64(hi)))
	}
	var hist [256]int32
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			hist[int32(clampF(yf(x, y), 0, 255))]++
		}
	}
	var cdf [256]int32
	cdf[0] = hist[0]
	for i := 1; i < 256; i++ {
		cdf[i] = cdf[i-1] + hist[i]
	}
	return func(x, y, c int) uint8 {
		Y := yf(x, y)
		cr := (float32(in.Get(x, y, 0))-Y)*0.713 + 128
		cb := (float32(in.Get(x, y, 2))-Y)*0.564 + 128
		eq := clampF(float32(cdf[uint8(clampF(Y, 0, 255))])*(float32(255)/float32(h*w)), 0, 255)
		switch c {
		case 0:
			return uint8(clampF(eq+(cr-128)*1.4, 0, 255))
		case 1:
			return uint8(clampF(eq-0.343*(cb-128)-0.711*(cr-128), 0, 255))
		}
		return uint8(clampF(eq+1.765*(cb-128), 0, 255))
	}
}

func TestAppPortHist(t *testing.T) {
	const w, h = 128, 8
	rng := rand.New(rand.NewSource(9))
	inb := apRandU8(rng, w, h, 3)
	ref := apHistRef(inb)
	// gpu: the generator's schedule (hist 1 and 2 at the end of the file
	// run now); gpu_variant splits Y.clone_in(hist_rows)'s x by 32 before
	// gpu_lanes and stores it in GPU shared memory instead of registers.
	for _, tc := range []struct {
		name         string
		gpu, variant bool
	}{{"cpu", false, false}, {"gpu", true, false}, {"gpu_variant", true, true}} {
		gpu := tc.gpu
		t.Run(tc.name, func(t *testing.T) {
			a := apHistAlg()
			a.input.Set(inb)
			if gpu {
				a.scheduleGPU(tc.variant)
			} else {
				a.scheduleCPU()
			}
			ob := halide.NewBuffer[uint8](w, h, 3)
			err := apRun(a.out, gpu, ob)
			if err != nil {
				t.Fatal(err)
			}
			// Exact: the float32 operations of the reference are those of
			// the algorithm, in the same order.
			apCheckInt(t, "output", ob, func(c []int) uint8 { return ref(c[0], c[1], c[2]) })
		})
	}
}

// ---------------------------------------------------------------------
// stencil_chain (apps/stencil_chain/stencil_chain_generator.cpp) on a
// 60x24 uint16 image (the GPU tiles are 60x12), with 13 stencils on the
// CPU (two groups of group_size 11, as the schedule makes for 32) and 4
// on the GPU emulator. The CPU schedule's tile sizes use this image size
// in place of 1536x2560.

func apStencilChain(input *halide.ImageParam, stencils int) (stages []*halide.Func, output *halide.Func, x, y halide.Var) {
	x, y = halide.NewVar("x"), halide.NewVar("y")
	stages = append(stages, halide.RepeatEdge(input))
	for s := 0; s < stencils; s++ {
		f := halide.NewFunc("stage_" + strconv.Itoa(s))
		e := halide.Cast(halide.UInt16, 0)
		for i := -2; i <= 2; i++ {
			for j := -2; j <= 2; j++ {
				e = e.Add(halide.E((i + 3) * (j + 3)).Mul(stages[len(stages)-1].At(x.Add(i), y.Add(j))))
			}
		}
		f.Define(x, y).Is(e)
		stages = append(stages, f)
	}
	output = halide.NewFunc("output")
	output.Define(x, y).Is(stages[len(stages)-1].At(x, y))
	return stages, output, x, y
}

func apStencilRef(in *halide.Buffer[uint16], stencils int) func(x, y int) uint16 {
	w, h := in.Dim(0).Extent, in.Dim(1).Extent
	m := 2 * stencils
	cur := func(x, y int) uint16 { return in.Get(apClampI(x, 0, w-1), apClampI(y, 0, h-1)) }
	for s := 0; s < stencils; s++ {
		prev := cur
		mm := m - 2*(s+1)
		ww, hh := w+2*mm, h+2*mm
		buf := make([]uint16, ww*hh)
		for y := -mm; y < h+mm; y++ {
			for x := -mm; x < w+mm; x++ {
				var e uint16
				for i := -2; i <= 2; i++ {
					for j := -2; j <= 2; j++ {
						e += uint16((i+3)*(j+3)) * prev(x+i, y+j)
					}
				}
				buf[(y+mm)*ww+x+mm] = e
			}
		}
		cur = func(x, y int) uint16 { return buf[(y+mm)*ww+x+mm] }
	}
	return cur
}

func TestAppPortStencilChain(t *testing.T) {
	const w, h = 60, 24
	rng := rand.New(rand.NewSource(10))
	inb := apRandU16(rng, 65535, w, h)
	t.Run("cpu", func(t *testing.T) {
		const stencils = 13
		input := halide.NewImageParam("input", halide.UInt16, 2)
		input.Set(inb)
		stages, output, x, y := apStencilChain(input, stencils)
		const vec, groupSize = 8, 11
		yi, yo, xo, xi, tt := halide.NewVar("yi"), halide.NewVar("yo"), halide.NewVar("xo"), halide.NewVar("xi"), halide.NewVar("t")
		last := len(stages) - 1
		for j := last; j > 0; j -= groupSize {
			out := stages[j]
			if j == last {
				out = output
			}
			expansion := 4 * (last - j)
			ww, hh := w+expansion, h+expansion
			out.ComputeRoot().Tile(x, y, xo, yo, xi, yi, ww/4, hh/4).Fuse(xo, yo, tt).Parallel(tt).Vectorize(xi, vec)
			for i := maxi(0, j-groupSize+1); i < j; i++ {
				s := stages[i]
				s.StoreAt(out, tt).ComputeAt(out, yi).Vectorize(s.Args()[0], vec)
			}
		}
		ob := halide.NewBuffer[uint16](w, h)
		if err := apRun(output, false, ob); err != nil {
			t.Fatal(err)
		}
		ref := apStencilRef(inb, stencils)
		apCheckInt(t, "output", ob, func(c []int) uint16 { return ref(c[0], c[1]) })
	})
	t.Run("gpu", func(t *testing.T) {
		const stencils = 4
		input := halide.NewImageParam("input", halide.UInt16, 2)
		input.Set(inb)
		stages, output, _, _ := apStencilChain(input, stencils)
		xi, yi, xii, yii := halide.NewVar("xi"), halide.NewVar("yi"), halide.NewVar("xii"), halide.NewVar("yii")
		stages = append(stages[:len(stages)-1], output)
		for i := 1; i < len(stages); i++ {
			s, prev := stages[i], stages[i-1]
			x, y := s.Args()[0], s.Args()[1]
			s.ComputeRoot().GPUTile(x, y, x, y, xi, yi, 30*2, 12).Tile(xi, yi, xi, yi, xii, yii, 2, 2).Unroll(xii).Unroll(yii)
			px, py := prev.Args()[0], prev.Args()[1]
			prev.In().ComputeAt(s, x).Tile(px, py, px, py, xi, yi, 2, 2).Vectorize(xi).Unroll(yi).GPUThreads(px, py)
			prev.In().In().ComputeAt(s, xi).Vectorize(px, 2).Unroll(px).Unroll(py)
		}
		ob := halide.NewBuffer[uint16](w, h)
		if err := apRun(output, true, ob); err != nil {
			t.Fatal(err)
		}
		ref := apStencilRef(inb, stencils)
		apCheckInt(t, "output", ob, func(c []int) uint16 { return ref(c[0], c[1]) })
	})
}

// ---------------------------------------------------------------------
// wavelet (apps/wavelet/*_generator.cpp): haar_x, inverse_haar_x,
// daubechies_x, inverse_daubechies_x, each with its schedule (unroll of
// c or x by 2). These generators have no GPU schedule. Input 20x12
// (forward) or 10x12x2 (inverse).

const (
	apD0 = float32(0.4829629131445341)
	apD1 = float32(0.83651630373780772)
	apD2 = float32(0.22414386804201339)
	apD3 = float32(-0.12940952255126034)
)

func TestAppPortWavelet(t *testing.T) {
	const w, h = 20, 12
	rng := rand.New(rand.NewSource(11))
	fwd := apRandF32(rng, -1, 1, w, h)
	inv := apRandF32(rng, -1, 1, w/2, h, 2)
	x, y, c := halide.NewVar("x"), halide.NewVar("y"), halide.NewVar("c")
	cl2 := func(x, y int) float32 { return fwd.Get(apClampI(x, 0, w-1), apClampI(y, 0, h-1)) }
	cl3 := func(x, y, c int) float32 { return inv.Get(apClampI(x, 0, w/2-1), apClampI(y, 0, h-1), c) }
	d := func(v float32) halide.Expr { return halide.E(v) }
	// Tolerance 1e-6 relative: at most 4 products of float32 values, in
	// the same order as the reference.
	const tol = 1e-6
	t.Run("haar_x/cpu", func(t *testing.T) {
		in_ := halide.NewImageParam("in", halide.Float32, 2)
		in_.Set(fwd)
		in := halide.RepeatEdge(in_)
		out := halide.NewFunc("out")
		out.Define(x, y, c).Is(halide.Mux(c, in.At(x.Mul(2), y).Add(in.At(x.Mul(2).Add(1), y)),
			in.At(x.Mul(2), y).Sub(in.At(x.Mul(2).Add(1), y))).Div(2))
		out.Unroll(c, 2)
		ob := halide.NewBuffer[float32](w/2, h, 2)
		if err := apRun(out, false, ob); err != nil {
			t.Fatal(err)
		}
		apCheckF32(t, "out", ob, tol, func(p []int) float32 {
			a, b := cl2(2*p[0], p[1]), cl2(2*p[0]+1, p[1])
			if p[2] == 0 {
				return (a + b) / 2
			}
			return (a - b) / 2
		})
	})
	t.Run("daubechies_x/cpu", func(t *testing.T) {
		in_ := halide.NewImageParam("in", halide.Float32, 2)
		in_.Set(fwd)
		in := halide.RepeatEdge(in_)
		at := func(dx int) halide.Expr { return in.At(x.Mul(2).Add(dx), y) }
		out := halide.NewFunc("out")
		out.Define(x, y, c).Is(halide.Mux(c,
			d(apD0).Mul(at(-1)).Add(d(apD1).Mul(at(0))).Add(d(apD2).Mul(at(1))).Add(d(apD3).Mul(at(2))),
			d(apD3).Mul(at(-1)).Sub(d(apD2).Mul(at(0))).Add(d(apD1).Mul(at(1))).Sub(d(apD0).Mul(at(2)))))
		out.Unroll(c, 2)
		ob := halide.NewBuffer[float32](w/2, h, 2)
		if err := apRun(out, false, ob); err != nil {
			t.Fatal(err)
		}
		apCheckF32(t, "out", ob, tol, func(p []int) float32 {
			g := func(dx int) float32 { return cl2(2*p[0]+dx, p[1]) }
			if p[2] == 0 {
				return apD0*g(-1) + apD1*g(0) + apD2*g(1) + apD3*g(2)
			}
			return apD3*g(-1) - apD2*g(0) + apD1*g(1) - apD0*g(2)
		})
	})
	t.Run("inverse_haar_x/cpu", func(t *testing.T) {
		in_ := halide.NewImageParam("in", halide.Float32, 3)
		in_.Set(inv)
		in := halide.RepeatEdge(in_)
		out := halide.NewFunc("out")
		out.Define(x, y).Is(halide.Select(x.Mod(2).Eq(0),
			in.At(x.Div(2), y, 0).Add(in.At(x.Div(2), y, 1)),
			in.At(x.Div(2), y, 0).Sub(in.At(x.Div(2), y, 1))))
		out.Unroll(x, 2)
		ob := halide.NewBuffer[float32](w, h)
		if err := apRun(out, false, ob); err != nil {
			t.Fatal(err)
		}
		apCheckF32(t, "out", ob, tol, func(p []int) float32 {
			a, b := cl3(p[0]/2, p[1], 0), cl3(p[0]/2, p[1], 1)
			if p[0]%2 == 0 {
				return a + b
			}
			return a - b
		})
	})
	t.Run("inverse_daubechies_x/cpu", func(t *testing.T) {
		in_ := halide.NewImageParam("in", halide.Float32, 3)
		in_.Set(inv)
		in := halide.RepeatEdge(in_)
		at := func(dx, c int) halide.Expr { return in.At(x.Div(2).Add(dx), y, c) }
		out := halide.NewFunc("out")
		out.Define(x, y).Is(halide.Select(x.Mod(2).Eq(0),
			d(apD2).Mul(at(0, 0)).Add(d(apD1).Mul(at(0, 1))).Add(d(apD0).Mul(at(1, 0))).Add(d(apD3).Mul(at(1, 1))),
			d(apD3).Mul(at(0, 0)).Sub(d(apD0).Mul(at(0, 1))).Add(d(apD1).Mul(at(1, 0))).Sub(d(apD2).Mul(at(1, 1)))))
		out.Unroll(x, 2)
		ob := halide.NewBuffer[float32](w, h)
		if err := apRun(out, false, ob); err != nil {
			t.Fatal(err)
		}
		apCheckF32(t, "out", ob, tol, func(p []int) float32 {
			g := func(dx, c int) float32 { return cl3(p[0]/2+dx, p[1], c) }
			if p[0]%2 == 0 {
				return apD2*g(0, 0) + apD1*g(0, 1) + apD0*g(1, 0) + apD3*g(1, 1)
			}
			return apD3*g(0, 0) - apD0*g(0, 1) + apD1*g(1, 0) - apD2*g(1, 1)
		})
	})
}

// ---------------------------------------------------------------------
// lens_blur (apps/lens_blur/lens_blur_generator.cpp) on a 128x128x3
// stereo pair (the pyramid's 8 levels need 128 = 2^7), slices 4,
// focus_depth 2, blur_radius_scale 0.5, aperture_samples 4. random_float()
// is not in the API: each call is replaced by a hash of (x, y, z) and
// the call's index, the same in the reference.

type apLens struct {
	x, y, z, c, t                                   halide.Var
	s                                               *halide.RDom
	left, right                                     *halide.ImageParam
	push, pull                                      []*halide.Func
	cost, conf, depth, iwa, wy, w, out, fin, sw, sl *halide.Func
}

func apLensAlg(slicesV, focusV int32, scaleV float32, samplesV int32, w0, h0 int) *apLens {
	x, y, z, c := halide.NewVar("x"), halide.NewVar("y"), halide.NewVar("z"), halide.NewVar("c")
	leftIm := halide.NewImageParam("left_im", halide.UInt8, 3)
	rightIm := halide.NewImageParam("right_im", halide.UInt8, 3)
	slices := halide.NewParam[int32]("slices")
	slices.Set(slicesV)
	focus := halide.NewParam[int32]("focus_depth")
	focus.Set(focusV)
	scale := halide.NewParam[float32]("blur_radius_scale")
	scale.Set(scaleV)
	samples := halide.NewParam[int32]("aperture_samples")
	samples.Set(samplesV)
	f32 := func(e halide.Expr) halide.Expr { return halide.Cast(halide.Float32, e) }
	maxBlur := halide.Cast(halide.Int32, f32(halide.Max(slices.Expr().Sub(focus), focus)).Mul(scale))
	left := halide.RepeatEdge(leftIm)
	right := halide.RepeatEdge(rightIm)
	diff := halide.NewFunc("diff")
	diff.Define(x, y, z, c).Is(halide.Min(halide.Absd(left.At(x, y, c), right.At(x.Add(z.Mul(2)), y, c)),
		halide.Absd(left.At(x, y, c), right.At(x.Add(z.Mul(2)).Add(1), y, c))))
	cost := halide.NewFunc("cost")
	cost.Define(x, y, z).Is(halide.Pow(f32(diff.At(x, y, z, 0)), float32(2)).Add(halide.Pow(f32(diff.At(x, y, z, 1)), float32(2))).Add(halide.Pow(f32(diff.At(x, y, z, 2)), float32(2))))
	conf := halide.NewFunc("cost_confidence")
	{
		r := halide.NewRDom("r", halide.Range(0, slices))
		a := halide.Sum(halide.Pow(cost.At(x, y, r), float32(2))).Div(slices)
		b := halide.Pow(halide.Sum(cost.At(x, y, r).Div(slices)), float32(2))
		conf.Define(x, y).Is(a.Sub(b))
	}
	push := make([]*halide.Func, 8)
	push[0] = halide.NewFunc("cost_pyramid_push_0")
	push[0].Define(x, y, z, c).Is(halide.Mux(c, cost.At(x, y, z).Mul(conf.At(x, y)), conf.At(x, y)))
	downsample := func(f *halide.Func, i int) *halide.Func {
		downx, downy := halide.NewFunc("downx_"+strconv.Itoa(i)), halide.NewFunc("downy_"+strconv.Itoa(i))
		downx.Define(x, y, z, c).Is(f.At(x.Mul(2).Sub(1), y, z, c).Add(halide.E(float32(3)).Mul(f.At(x.Mul(2), y, z, c).Add(f.At(x.Mul(2).Add(1), y, z, c)))).Add(f.At(x.Mul(2).Add(2), y, z, c)).Div(float32(8)))
		downy.Define(x, y, z, c).Is(downx.At(x, y.Mul(2).Sub(1), z, c).Add(halide.E(float32(3)).Mul(downx.At(x, y.Mul(2), z, c).Add(downx.At(x, y.Mul(2).Add(1), z, c)))).Add(downx.At(x, y.Mul(2).Add(2), z, c)).Div(float32(8)))
		return downy
	}
	upsample := func(f *halide.Func, i int) *halide.Func {
		upx, upy := halide.NewFunc("upx_"+strconv.Itoa(i)), halide.NewFunc("upy_"+strconv.Itoa(i))
		upx.Define(x, y, z, c).Is(halide.E(float32(0.25)).Mul(f.At(x.Div(2).Sub(1).Add(x.Mod(2).Mul(2)), y, z, c)).Add(halide.E(float32(0.75)).Mul(f.At(x.Div(2), y, z, c))))
		upy.Define(x, y, z, c).Is(halide.E(float32(0.25)).Mul(upx.At(x, y.Div(2).Sub(1).Add(y.Mod(2).Mul(2)), z, c)).Add(halide.E(float32(0.75)).Mul(upx.At(x, y.Div(2), z, c))))
		return upy
	}
	wE, hE := leftIm.Dim(0).Extent(), leftIm.Dim(1).Extent()
	for i := 1; i < 8; i++ {
		d := downsample(push[i-1], i)
		wE, hE = wE.Div(2), hE.Div(2)
		push[i] = halide.RepeatEdge(d, halide.Range(0, wE), halide.Range(0, hE), halide.Unbounded(), halide.Unbounded())
	}
	pull := make([]*halide.Func, 8)
	pull[7] = halide.NewFunc("cost_pyramid_pull_7")
	pull[7].Define(x, y, z, c).Is(push[7].At(x, y, z, c))
	for i := 6; i >= 0; i-- {
		pull[i] = halide.NewFunc("cost_pyramid_pull_" + strconv.Itoa(i))
		pull[i].Define(x, y, z, c).Is(halide.Lerp(upsample(pull[i+1], i).At(x, y, z, c), push[i].At(x, y, z, c), float32(0.5)))
	}
	filtered := halide.NewFunc("filtered_cost")
	filtered.Define(x, y, z).Is(pull[0].At(x, y, z, 0).Div(pull[0].At(x, y, z, 1)))
	depth := halide.NewFunc("depth")
	{
		r := halide.NewRDom("r", halide.Range(0, slices))
		depth.Define(x, y).Is(halide.Argmin(filtered.At(x, y, r)).Elem(0))
	}
	br := halide.NewFunc("bokeh_radius")
	br.Define(x, y).Is(halide.Abs(depth.At(x, y).Sub(focus)).Mul(scale))
	brs := halide.NewFunc("bokeh_radius_squared")
	brs.Define(x, y).Is(halide.Pow(br.At(x, y), float32(2)))
	wy, wc := halide.NewFunc("worst_case_bokeh_radius_y"), halide.NewFunc("worst_case_bokeh_radius")
	{
		r := halide.NewRDom("r", halide.Range(maxBlur.Neg(), maxBlur.Mul(2).Add(1)))
		wy.Define(x, y).Is(halide.Maximum(br.At(x, y.Add(r))))
		wc.Define(x, y).Is(halide.Maximum(wy.At(x.Add(r), y)))
	}
	iwa := halide.NewFunc("input_with_alpha")
	iwa.Define(x, y, c).Is(halide.Mux(c, f32(left.At(x, y, 0)), f32(left.At(x, y, 1)), f32(left.At(x, y, 2)), float32(255)))
	output := halide.NewFunc("output")
	output.Define(x, y, c).Is(iwa.At(x, y, c))
	worst := wc.At(x, y)
	rnd := func(k int) halide.Expr {
		return f32(x.Mul(37).Add(y.Mul(101)).Add(z.Mul(13)).Add(k * 7).Mod(64)).Div(float32(64))
	}
	su := rnd(0).Sub(float32(0.5)).Mul(float32(2)).Mul(worst)
	sv := rnd(1).Sub(float32(0.5)).Mul(float32(2)).Mul(worst)
	su = halide.Clamp(halide.Cast(halide.Int32, su), maxBlur.Neg(), maxBlur)
	sv = halide.Clamp(halide.Cast(halide.Int32, sv), maxBlur.Neg(), maxBlur)
	sl := halide.NewFunc("sample_locations")
	sl.Define(x, y, z).Is(halide.NewTuple(su, sv))
	s := halide.NewRDom("s", halide.Range(0, samples))
	u, v := sl.AtTuple(x, y, z).Elem(0), sl.AtTuple(x, y, z).Elem(1)
	sx, sy := x.Add(u), y.Add(v)
	r2 := u.Mul(u).Add(v.Mul(v))
	within := r2.Lt(brs.At(x, y))
	thisWithin := r2.Lt(brs.At(sx, sy))
	inFront := depth.At(sx, sy).Lt(depth.At(x, y))
	sw := halide.NewFunc("sample_weight")
	sw.Define(x, y, z).Is(halide.Select(within.Or(inFront).And(thisWithin), float32(1), float32(0)))
	sx = x.Add(sl.AtTuple(x, y, s).Elem(0))
	sy = y.Add(sl.AtTuple(x, y, s).Elem(1))
	output.Define(x, y, c).PlusEq(sw.At(x, y, s).Mul(iwa.At(sx, sy, c)))
	fin := halide.NewFunc("final")
	fin.Define(x, y, c).Is(output.At(x, y, c).Div(output.At(x, y, 3)))
	_ = w0
	_ = h0
	return &apLens{x, y, z, c, halide.NewVar("t"), s, leftIm, rightIm, push, pull, cost, conf, depth, iwa, wy, wc, output, fin, sw, sl}
}

func (a *apLens) scheduleCPU() {
	x, y, z, c, t := a.x, a.y, a.z, a.c, a.t
	xi, yi := halide.NewVar("xi"), halide.NewVar("yi")
	a.push[0].ComputeRoot().Reorder(c, z, x, y).Bound(c, 0, 2).Unroll(c).Vectorize(x, 16).Parallel(y, 4)
	a.cost.ComputeAt(a.push[0], x).HoistStorage(a.push[0], y).Vectorize(x)
	a.conf.ComputeAt(a.push[0], x).Vectorize(x)
	for i := 1; i < 8; i++ {
		a.push[i].ComputeAt(a.pull[1], t).Vectorize(x, 8)
		if i > 1 {
			a.pull[i].ComputeAt(a.pull[1], t).Tile(x, y, x, y, xi, yi, 8, 2).Vectorize(xi).Unroll(yi)
		}
	}
	a.pull[1].ComputeRoot().Fuse(z, c, t).Parallel(t).Tile(x, y, x, y, xi, yi, 8, 2).Vectorize(xi).Unroll(yi)
	a.depth.ComputeRoot().Tile(x, y, x, y, xi, yi, 8, 2).Vectorize(xi).Unroll(yi).Parallel(y, 8)
	a.iwa.ComputeRoot().Reorder(c, x, y).Unroll(c).Vectorize(x, 8).Parallel(y, 8)
	a.wy.ComputeAt(a.fin, y).Vectorize(x, 8)
	a.fin.ComputeRoot().Reorder(c, x, y).Bound(c, 0, 3).Unroll(c).Vectorize(x, 8).Parallel(y)
	a.w.ComputeAt(a.fin, y).Vectorize(x, 8)
	a.out.ComputeAt(a.fin, x).Vectorize(x)
	a.out.Update(0).Reorder(c, x, a.s).Vectorize(x).Unroll(c)
	a.sw.ComputeAt(a.out, x).Unroll(x)
	a.sl.ComputeAt(a.out, x).Vectorize(x)
}

func (a *apLens) scheduleGPU() {
	x, y, z, c := a.x, a.y, a.z, a.c
	xi, yi, zi := halide.NewVar("xi"), halide.NewVar("yi"), halide.NewVar("zi")
	a.push[0].ComputeRoot().Reorder(c, z, x, y).Bound(c, 0, 2).Unroll(c).GPUTile(x, y, x, y, xi, yi, 16, 16)
	a.cost.ComputeAt(a.push[0], xi)
	a.conf.ComputeAt(a.push[0], xi)
	for i := 1; i < 8; i++ {
		a.push[i].ComputeRoot().GPUTile3D(x, y, z, x, y, z, xi, yi, zi, 8, 8, 8)
		a.pull[i].ComputeRoot().GPUTile3D(x, y, z, x, y, z, xi, yi, zi, 8, 8, 8)
	}
	a.depth.ComputeRoot().GPUTile(x, y, x, y, xi, yi, 16, 16)
	a.iwa.ComputeRoot().Reorder(c, x, y).Unroll(c).GPUTile(x, y, x, y, xi, yi, 16, 16)
	a.wy.ComputeRoot().GPUTile(x, y, x, y, xi, yi, 16, 16)
	a.w.ComputeRoot().GPUTile(x, y, x, y, xi, yi, 16, 16)
	a.fin.ComputeRoot().Reorder(c, x, y).Bound(c, 0, 3).Unroll(c).GPUTile(x, y, x, y, xi, yi, 16, 16)
	a.out.ComputeAt(a.fin, xi)
	a.out.Update(0).Reorder(c, x, a.s).Unroll(c)
	a.sw.ComputeAt(a.out, x)
	a.sl.ComputeAt(a.out, x)
}

func apLensRef(l, r *halide.Buffer[uint8], slices, focus int, scale float32, samples int) func(x, y, c int) float32 {
	W, H := l.Dim(0).Extent, l.Dim(1).Extent
	L := func(x, y, c int) uint8 { return l.Get(apClampI(x, 0, W-1), apClampI(y, 0, H-1), c) }
	R := func(x, y, c int) uint8 { return r.Get(apClampI(x, 0, W-1), apClampI(y, 0, H-1), c) }
	absd := func(a, b uint8) uint8 {
		if a > b {
			return a - b
		}
		return b - a
	}
	maxBlur := int(float32(max(slices-focus, focus)) * scale)
	cost := func(x, y, z int) float32 {
		var s float32
		for c := 0; c < 3; c++ {
			d := min(absd(L(x, y, c), R(x+2*z, y, c)), absd(L(x, y, c), R(x+2*z+1, y, c)))
			s += float32(d) * float32(d)
		}
		return s
	}
	conf := func(x, y int) float32 {
		var a, b float32
		for z := 0; z < slices; z++ {
			cz := cost(x, y, z)
			a += cz * cz
		}
		for z := 0; z < slices; z++ {
			b += cost(x, y, z) / float32(slices)
		}
		return a/float32(slices) - b*b
	}
	type key struct{ k, i, x, y, z, c int }
	memo := map[key]float32{}
	ws, hs := make([]int, 8), make([]int, 8)
	ws[0], hs[0] = W, H
	for i := 1; i < 8; i++ {
		ws[i], hs[i] = ws[i-1]/2, hs[i-1]/2
	}
	var push, pull func(i, x, y, z, c int) float32
	push = func(i, x, y, z, c int) float32 {
		if i > 0 {
			x, y = apClampI(x, 0, ws[i]-1), apClampI(y, 0, hs[i]-1)
		}
		k := key{0, i, x, y, z, c}
		if v, ok := memo[k]; ok {
			return v
		}
		var v float32
		if i == 0 {
			cf := conf(x, y)
			if c == 0 {
				v = cost(x, y, z) * cf
			} else {
				v = cf
			}
		} else {
			dx := func(yy int) float32 {
				f := func(xx int) float32 { return push(i-1, xx, yy, z, c) }
				return (f(2*x-1) + 3*(f(2*x)+f(2*x+1)) + f(2*x+2)) / 8
			}
			v = (dx(2*y-1) + 3*(dx(2*y)+dx(2*y+1)) + dx(2*y+2)) / 8
		}
		memo[k] = v
		return v
	}
	pull = func(i, x, y, z, c int) float32 {
		if i == 7 {
			return push(7, x, y, z, c)
		}
		k := key{1, i, x, y, z, c}
		if v, ok := memo[k]; ok {
			return v
		}
		upx := func(yy int) float32 {
			return 0.25*pull(i+1, apEuclidDiv(x, 2)-1+2*(x-2*apEuclidDiv(x, 2)), yy, z, c) + 0.75*pull(i+1, apEuclidDiv(x, 2), yy, z, c)
		}
		up := 0.25*upx(apEuclidDiv(y, 2)-1+2*(y-2*apEuclidDiv(y, 2))) + 0.75*upx(apEuclidDiv(y, 2))
		p := push(i, x, y, z, c)
		v := up*(1-0.5) + p*0.5
		memo[k] = v
		return v
	}
	depthMemo := map[[2]int]int{}
	depth := func(x, y int) int {
		if d, ok := depthMemo[[2]int{x, y}]; ok {
			return d
		}
		best, bi := float32(0), 0
		for z := 0; z < slices; z++ {
			f := pull(0, x, y, z, 0) / pull(0, x, y, z, 1)
			if z == 0 || f < best {
				best, bi = f, z
			}
		}
		depthMemo[[2]int{x, y}] = bi
		return bi
	}
	br := func(x, y int) float32 {
		d := depth(x, y) - focus
		if d < 0 {
			d = -d
		}
		return float32(d) * scale
	}
	brs := func(x, y int) float32 { b := br(x, y); return b * b }
	worst := func(x, y int) float32 {
		m := float32(math.Inf(-1))
		for rx := -maxBlur; rx <= maxBlur; rx++ {
			my := float32(math.Inf(-1))
			for ry := -maxBlur; ry <= maxBlur; ry++ {
				my = max(my, br(x+rx, y+ry))
			}
			m = max(m, my)
		}
		return m
	}
	iwa := func(x, y, c int) float32 {
		if c == 3 {
			return 255
		}
		return float32(L(x, y, c))
	}
	rnd := func(x, y, z, k int) float32 {
		v := (x*37 + y*101 + z*13 + k*7) % 64
		if v < 0 {
			v += 64
		}
		return float32(v) / 64
	}
	loc := func(x, y, z int) (int, int) {
		wr := worst(x, y)
		u := int((rnd(x, y, z, 0) - 0.5) * 2 * wr)
		v := int((rnd(x, y, z, 1) - 0.5) * 2 * wr)
		return apClampI(u, -maxBlur, maxBlur), apClampI(v, -maxBlur, maxBlur)
	}
	out := func(x, y, c int) float32 {
		o := iwa(x, y, c)
		for s := 0; s < samples; s++ {
			u, v := loc(x, y, s)
			r2 := float32(u*u + v*v)
			var wgt float32
			if (r2 < brs(x, y) || depth(x+u, y+v) < depth(x, y)) && r2 < brs(x+u, y+v) {
				wgt = 1
			}
			o += wgt * iwa(x+u, y+v, c)
		}
		return o
	}
	return func(x, y, c int) float32 { return out(x, y, c) / out(x, y, 3) }
}

func TestAppPortLensBlur(t *testing.T) {
	const w, h = 128, 128
	const slices, focus, scale, samples = 4, 2, float32(0.5), 4
	rng := rand.New(rand.NewSource(12))
	lb, rb := apRandU8(rng, w, h, 3), apRandU8(rng, w, h, 3)
	ref := apLensRef(lb, rb, slices, focus, scale, samples)
	t.Run("cpu", func(t *testing.T) {
		a := apLensAlg(slices, focus, scale, samples, w, h)
		a.left.Set(lb)
		a.right.Set(rb)
		a.scheduleCPU()
		ob := halide.NewBuffer[float32](w, h, 3)
		if err := apRun(a.fin, false, ob); err != nil {
			t.Fatal(err)
		}
		// Tolerance 1e-5 relative: the output is a ratio of sums of at
		// most 5 pixel values; the depth (an argmin of float ratios) must
		// match exactly for the values to agree.
		apCheckF32(t, "final", ob, 1e-5, func(c []int) float32 { return ref(c[0], c[1], c[2]) })
	})
	t.Run("gpu", func(t *testing.T) {
		a := apLensAlg(slices, focus, scale, samples, w, h)
		a.left.Set(lb)
		a.right.Set(rb)
		a.scheduleGPU()
		ob := halide.NewBuffer[float32](w, h, 3)
		if err := apRun(a.fin, true, ob); err != nil {
			t.Fatal(err)
		}
		// Tolerance as for cpu.
		apCheckF32(t, "final", ob, 1e-5, func(c []int) float32 { return ref(c[0], c[1], c[2]) })
	})
}
