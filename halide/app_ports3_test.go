package halide_test

// Ports of Halide's apps/blur, apps/linear_blur, apps/gaussian_blur and
// apps/bgu generators, written as app_ports_test.go writes its ports: the
// algorithm as the generator writes it, its CPU schedule ("cpu") and its
// GPU schedule(s) ("gpu...", on the GPU emulator), each output value
// checked against a plain-Go reference on random inputs from a fixed seed
// (floats within the tolerance stated at the check). Autoscheduler paths
// and set_estimate calls are skipped. Where the faithful schedule is
// refused, the subtest asserts the typed *halide.Error (mpRefused) and a
// "_variant" subtest makes the smallest change that runs; the comment block
// at the end lists each refusal with its error text.

import (
	"math"
	"math/rand"
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// ---------------------------------------------------------------------
// blur (apps/blur/halide_blur_generator.cpp)

// a3Blur builds the generator's algorithm on a uint16 input.
func a3Blur(input *halide.ImageParam) (blurX, blurY *halide.Func, x, y halide.Var) {
	x, y = halide.NewVar("x"), halide.NewVar("y")
	blurX, blurY = halide.NewFunc("blur_x"), halide.NewFunc("blur_y")
	blurX.Define(x, y).Is(input.At(x, y).Add(input.At(x.Add(1), y)).Add(input.At(x.Add(2), y)).Div(3))
	blurY.Define(x, y).Is(blurX.At(x, y).Add(blurX.At(x, y.Add(1))).Add(blurX.At(x, y.Add(2))).Div(3))
	return
}

func TestAppPortBlur(t *testing.T) {
	type sched func(bx, by *halide.Func, x, y halide.Var, in *halide.ImageParam)
	xi, yi, yInner := halide.NewVar("xi"), halide.NewVar("yi"), halide.NewVar("y_inner")
	const tileX, tileY = 32, 8
	cases := []struct {
		name string
		gpu  bool
		w, h int
		s    sched
	}{
		// CPU schedule.
		{"cpu", false, 64, 64, func(bx, by *halide.Func, x, y halide.Var, _ *halide.ImageParam) {
			by.Split(y, y, yi, 32).Parallel(y).Vectorize(x, 16)
			bx.StoreAt(by, y).ComputeAt(by, x).Vectorize(x, 16)
		}},
		// Hexagon schedule with .hexagon() dropped (no Hexagon offload in
		// the API): prefetch, split by 128, vectors of 256 and 128.
		{"hvx_on_cpu", false, 256, 128, func(bx, by *halide.Func, x, y halide.Var, in *halide.ImageParam) {
			by.ComputeRoot().PrefetchImage(in, y, y, 2).Split(y, y, yi, 128).Parallel(y).Vectorize(x, 256)
			bx.StoreAt(by, y).ComputeAt(by, yi).Vectorize(x, 128)
		}},
		// GPU schedules (schedule=inline, cache, slide, slide_vector).
		{"gpu_inline", true, 64, 32, func(bx, by *halide.Func, x, y halide.Var, _ *halide.ImageParam) {
			by.GPUTile(x, y, x, y, xi, yi, tileX, tileY)
		}},
		{"gpu_cache", true, 64, 32, func(bx, by *halide.Func, x, y halide.Var, _ *halide.ImageParam) {
			by.GPUTile(x, y, x, y, xi, yi, tileX, tileY)
			bx.ComputeAt(by, x).GPUThreads(x, y)
		}},
		{"gpu_slide", true, 64, 32, func(bx, by *halide.Func, x, y halide.Var, _ *halide.ImageParam) {
			by.Split(y, y, yInner, tileY).Reorder(yInner, x).Unroll(yInner).GPUTile(x, y, x, y, xi, yi, tileX, 1)
		}},
		{"gpu_slide_vector", true, 64, 32, func(bx, by *halide.Func, x, y halide.Var, _ *halide.ImageParam) {
			const factor = 4 / 2 // sizeof(int) / sizeof(short)
			by.Vectorize(x, factor).Split(y, y, yInner, tileY).Reorder(yInner, x).Unroll(yInner).GPUTile(x, y, x, y, xi, yi, tileX, 1)
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewSource(3))
			// Values up to 60000: sums of three wrap in uint16, as in Halide.
			inb := apRandU16(rng, 60000, tc.w+2, tc.h+2)
			in := halide.NewImageParam("input", halide.UInt16, 2)
			in.Set(inb)
			bx, by, x, y := a3Blur(in)
			tc.s(bx, by, x, y, in)
			out := halide.NewBuffer[uint16](tc.w, tc.h)
			if err := apRun(by, tc.gpu, out); err != nil {
				t.Fatal(err)
			}
			blx := func(x, y int) uint16 {
				return (inb.Get(x, y) + inb.Get(x+1, y) + inb.Get(x+2, y)) / 3
			}
			apCheckInt(t, "blur_y", out, func(c []int) uint16 {
				x, y := c[0], c[1]
				return (blx(x, y) + blx(x, y+1) + blx(x, y+2)) / 3
			})
		})
	}
}

// ---------------------------------------------------------------------
// linear_blur (apps/linear_blur: linear_blur_generator.cpp composes the
// srgb_to_linear, simple_blur and linear_to_srgb generators through their
// stubs). linear_blur itself has no manual schedule (it asserts
// using_autoscheduler(); its estimates are skipped); the schedules here are
// the three sub-generators' schedule() bodies, which is what the stubs
// apply.

type a3LinearBlur struct {
	x, y, c                                     halide.Var
	linear, blurX, blurOut, srgb, output, input *halide.Func
}

func a3BuildLinearBlur(input *halide.ImageParam, width, height *halide.Param[int32]) *a3LinearBlur {
	x, y, c := halide.NewVar("x"), halide.NewVar("y"), halide.NewVar("c")
	I := halide.Implicit
	// srgb_to_linear (its Input<Func> srgb is the input image).
	srgbIn := halide.NewFunc("srgb_in")
	srgbIn.Define(x, y, c).Is(input.At(x, y, c))
	linear := halide.NewFunc("linear")
	s := srgbIn.At(x, y, I)
	linear.Define(x, y, I).Is(halide.Select(s.Le(float32(0.04045)), s.Div(float32(12.92)),
		halide.Pow(s.Add(float32(0.055)).Div(float32(1.0+0.055)), float32(2.4))))
	// simple_blur.
	in := halide.RepeatEdge(linear, halide.Range(0, width), halide.Range(0, height))
	blurX, blurOut := halide.NewFunc("blur_x"), halide.NewFunc("blur_output")
	blurX.Define(x, y, I).Is(in.At(x, y, I).Add(in.At(x.Add(1), y, I)).Add(in.At(x.Add(2), y, I)).Div(float32(3)))
	blurOut.Define(x, y, I).Is(blurX.At(x, y, I).Add(blurX.At(x, y.Add(1), I)).Add(blurX.At(x, y.Add(2), I)).Div(float32(3)))
	// linear_to_srgb.
	srgb := halide.NewFunc("srgb")
	l := blurOut.At(x, y, I)
	srgb.Define(x, y, I).Is(halide.Select(l.Le(float32(.0031308)), l.Mul(float32(12.92)),
		halide.E(float32(1+.055)).Mul(halide.Pow(l, float32(1.0/2.4))).Sub(float32(.055))))
	output := halide.NewFunc("output")
	output.Define(x, y, c).Is(srgb.At(x, y, c))
	return &a3LinearBlur{x, y, c, linear, blurX, blurOut, srgb, output, srgbIn}
}

func a3LinearBlurRef(inb *halide.Buffer[float32]) func(x, y, c int) float32 {
	w, h := inb.Dim(0).Extent, inb.Dim(1).Extent
	toLin := func(s float32) float32 {
		if s <= 0.04045 {
			return s / 12.92
		}
		return float32(math.Pow(float64((s+0.055)/float32(1.0+0.055)), float64(float32(2.4))))
	}
	lin := func(x, y, c int) float32 { return toLin(inb.Get(apClampI(x, 0, w-1), apClampI(y, 0, h-1), c)) }
	bx := func(x, y, c int) float32 { return (lin(x, y, c) + lin(x+1, y, c) + lin(x+2, y, c)) / 3 }
	return func(x, y, c int) float32 {
		l := (bx(x, y, c) + bx(x, y+1, c) + bx(x, y+2, c)) / 3
		if l <= .0031308 {
			return l * 12.92
		}
		return float32(1+.055)*float32(math.Pow(float64(l), float64(float32(1.0/2.4)))) - .055
	}
}

func TestAppPortLinearBlur(t *testing.T) {
	const w, h, ch = 32, 24, 3
	run := func(t *testing.T, sched func(a *a3LinearBlur)) error {
		rng := rand.New(rand.NewSource(4))
		inb := apRandF32(rng, 0.001, 1, w, h, ch)
		input := halide.NewImageParam("input", halide.Float32, 3)
		input.Set(inb)
		wp, hp := halide.NewParam[int32]("width"), halide.NewParam[int32]("height")
		wp.Set(w)
		hp.Set(h)
		a := a3BuildLinearBlur(input, wp, hp)
		sched(a)
		out := halide.NewBuffer[float32](w, h, ch)
		if err := apRun(a.output, false, out); err != nil {
			return err
		}
		ref := a3LinearBlurRef(inb)
		// Tolerance 1e-5 (relative): pow in float32 against Go's float64
		// math.Pow rounded to float32.
		apCheckF32(t, "output", out, 1e-5, func(c []int) float32 { return ref(c[0], c[1], c[2]) })
		return nil
	}
	// The three sub-generators' schedules as written (their Output<Func>s
	// are not compute_root'd by the stubs: they are inlined into their
	// consumers, as in Halide).
	subSchedules := func(a *a3LinearBlur) {
		yi := halide.NewVar("yi")
		a.linear.Split(a.y, a.y, yi, 8).Parallel(a.y).Vectorize(a.x, 8)
		a.blurOut.Split(a.y, a.y, yi, 8).Parallel(a.y).Vectorize(a.x, 8)
		a.blurX.StoreAt(a.blurOut, a.y).ComputeAt(a.blurOut, yi).Vectorize(a.x, 8)
		a.srgb.Split(a.y, a.y, yi, 8).Parallel(a.y).Vectorize(a.x, 8)
	}
	// Refused (linear_blur 1 at the end): blur_x.compute_at(output, yi)
	// while simple_blur's output is inlined into linear_to_srgb.
	t.Run("cpu", func(t *testing.T) {
		mpRefused(t, run(t, subSchedules))
	})
	// variant: each sub-generator's Output<Func> computed at root (what
	// a stub-composed pipeline needs for its schedule to apply).
	t.Run("cpu_variant", func(t *testing.T) {
		if err := run(t, func(a *a3LinearBlur) {
			subSchedules(a)
			a.linear.ComputeRoot()
			a.blurOut.ComputeRoot()
			a.srgb.ComputeRoot()
		}); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("default", func(t *testing.T) {
		if err := run(t, func(*a3LinearBlur) {}); err != nil {
			t.Fatal(err)
		}
	})
}
