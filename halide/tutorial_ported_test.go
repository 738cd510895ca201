package halide_test

// Ports of Halide's tutorial lessons (tutorial/lesson_*.cpp), written as
// a Halide user would write them with this package's API. Each
// TestTutorialPortedLessonNN is one lesson, each subtest one of its
// sections or schedules, with the lesson's algorithm and schedule
// directives. Every output is checked against a plain-Go reference:
// integers exactly, floats within the tolerance stated at the check.
// Inputs are random (never all zeros; t3Rand), sizes reduced where stated.
//
// Lessons ported: 01 basics, 02 input image, 03 and 04 debugging, 05
// scheduling 1, 06 realizing over shifted domains, 07 multi-stage
// pipelines, 08 scheduling 2, 09 update definitions, 12 using the GPU,
// 13 tuples, 14 types, 16 rgb generate, 17 predicated RDoms, 18 parallel
// associative reductions, 19 wrapper Funcs, 20 cloning Funcs, 22 JIT
// performance.
//
// Replaced, and why:
//   - load_image / PNG files (02, 07, 09, 12): a random uint8 image of the
//     same layout, smaller than the lesson's photograph.
//   - trace_stores' printed log (04, 05, 06, 08): Func.TraceStores with
//     Options.Trace; the tests compare the stores (their order where the
//     loop nest is serial, their multiset under Parallel) with the C loop
//     nests the lessons write next to each schedule, or count them per
//     Func where the lesson counts them.
//   - trace_loads (09): there is no load tracing; the section checks the
//     stores and the values only.
//   - print / print_when (04): there is no print intrinsic; the sections
//     check the values of the Exprs the lesson prints.
//   - compile_to_lowered_stmt (03): Pipeline.Lower and its String.
//   - print_loop_nest (05, 08): Pipeline.LoopNest, checked to run.
//   - Halide's Handle type (14): there is none (Go has no pointers in
//     Exprs); the lesson's type rules are asserted for every other type.
//   - benchmark() timings (09, 12, 22): values only; 22's ways of
//     compiling (from scratch, re-used Pipeline, Compile before Realize)
//     are checked to give the same values, its callable and Module
//     sections have no counterpart (no AOT or Callable API).
//   - GPU targets (12, 19): the GPU emulator (the default Target).
//
// Skipped lessons:
//   - 10 AOT compilation: no ahead-of-time compiler (compile_to_static_library).
//   - 11 cross compilation: no object-file targets to cross-compile to.
//   - 15 generators: no Generator framework (16's generator is ported as a
//     pipeline, its GeneratorParam as a Go loop over the layouts).
//   - 21 auto scheduler: no autoscheduler.
//   - 23 serialization: no serialization of pipelines.
//   - 24 async: no async / producer-consumer threads directive.
//
// Library bugs and gaps found (details at the end of the file):
//   - fixed: Argmin / Argmax of a bool were refused (lesson 13);
//     TestArgminBool.
//   - fixed: no interleaved buffers (lesson 16); NewInterleavedBuffer,
//     TestNewInterleavedBuffer.
//   - fixed: a constant given a type by Cast adapted to the other
//     operand's type like a Go number (lesson 14's rules): a wrong type
//     and value against Halide; TestCastConstantKeepsType.
//   - fixed (lower/sliding_window.go): store_root().compute_at(consumer,
//     x) slid along x only (40 stores, lesson 8's 25); it now slides
//     along y too, and lesson 8's root_x checks the lesson's nest.

import (
	"errors"
	"fmt"
	"github.com/gohalide/gohalide/halide"
	"math"
	"sort"
	"strings"
	"sync"
	"testing"
)

// ttStore is one store a traced Func made.
type ttStore struct {
	fn   string
	x, y int
	v    float64
}

// ttTraced realizes out into buf with every store of the Funcs that
// trace them recorded in order (Halide's trace_stores log).
func ttTraced(t *testing.T, out *halide.Func, buf halide.BufferRef) []ttStore {
	t.Helper()
	var mu sync.Mutex
	var log []ttStore
	p := halide.NewPipeline(out).WithOptions(halide.Options{Verify: true, Trace: func(e halide.TraceEvent) {
		s := ttStore{fn: e.Func, v: e.Value}
		if len(e.Coords) > 0 {
			s.x = e.Coords[0]
		}
		if len(e.Coords) > 1 {
			s.y = e.Coords[1]
		}
		mu.Lock()
		log = append(log, s)
		mu.Unlock()
	}})
	if err := t3Run(t, p, buf); err != nil {
		t.Fatal(err)
	}
	return log
}

// ttSameOrder fails unless got is want, store by store.
func ttSameOrder(t *testing.T, got, want []ttStore) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d stores, want %d: %v", len(got), len(want), got)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("store %d is %v, want %v", i, got[i], want[i])
		}
	}
}

// ttSameSet fails unless got and want hold the same stores in any order
// (a Parallel loop's stores).
func ttSameSet(t *testing.T, got, want []ttStore) {
	t.Helper()
	key := func(s []ttStore) []string {
		k := make([]string, len(s))
		for i, e := range s {
			k[i] = fmt.Sprint(e)
		}
		sort.Strings(k)
		return k
	}
	g, w := key(got), key(want)
	if strings.Join(g, ";") != strings.Join(w, ";") {
		t.Fatalf("stores %v, want %v", g, w)
	}
}

// ttLoopNest fails unless out's loop nest (print_loop_nest) can be made.
func ttLoopNest(t *testing.T, out ...*halide.Func) string {
	t.Helper()
	s, err := halide.NewPipeline(out...).LoopNest()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// ttNear2 compares a 2-D float32 buffer over [0, w) x [0, h) with ref
// within an absolute tolerance tol.
func ttNear2(t *testing.T, name string, b *halide.Buffer[float32], w, h int, tol float64, ref func(x, y int) float64) {
	t.Helper()
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			if got, want := float64(b.Get(x, y)), ref(x, y); math.Abs(got-want) > tol || math.IsNaN(got) {
				t.Fatalf("%s(%d, %d) = %v, want %v (tolerance %v)", name, x, y, got, want, tol)
			}
		}
	}
}

// ttSinf is C's sinf: the sine of a float32, rounded to float32.
func ttSinf(v float32) float64 { return float64(float32(math.Sin(float64(v)))) }

// lesson_01_basics.cpp
func TestTutorialPortedLesson01(t *testing.T) {
	gradient := halide.NewFunc("gradient")
	x, y := t3v("x"), t3v("y")
	e := x.Add(y)
	gradient.Define(x, y).Is(e)
	out := halide.NewBuffer[int32](800, 600)
	t3Realize(t, gradient, out)
	t3Check2(t, "gradient", out, 0, 800, 0, 600, func(i, j int) int32 { return int32(i + j) })
}

// lesson_02_input_image.cpp: a random 3-channel uint8 image replaces
// images/rgb.png.
func TestTutorialPortedLesson02(t *testing.T) {
	const W, H = 97, 61
	input := t3Rand[uint8](2, 255, W, H, 3)
	brighter := halide.NewFunc("brighter")
	x, y, c := t3v("x"), t3v("y"), t3v("c")
	value := input.At(x, y, c)
	value = halide.Cast(halide.Float32, value)
	value = value.Mul(float32(1.5))
	value = halide.Min(value, float32(255))
	value = halide.Cast(halide.UInt8, value)
	brighter.Define(x, y, c).Is(value)
	out := halide.NewBuffer[uint8](W, H, 3)
	t3Realize(t, brighter, out)
	for ch := 0; ch < 3; ch++ {
		for j := 0; j < H; j++ {
			for i := 0; i < W; i++ {
				want := uint8(min(float32(input.Get(i, j, ch))*1.5, 255))
				if got := out.Get(i, j, ch); got != want {
					t.Fatalf("brighter(%d, %d, %d) = %d, want %d", i, j, ch, got, want)
				}
			}
		}
	}
}

// lesson_03_debugging_1.cpp: compile_to_lowered_stmt becomes Lower and
// the statement's text.
func TestTutorialPortedLesson03(t *testing.T) {
	gradient := halide.NewFunc("gradient")
	x, y := t3v("x"), t3v("y")
	gradient.Define(x, y).Is(x.Add(y))
	out := halide.NewBuffer[int32](8, 8)
	t3Realize(t, gradient, out)
	t3Check2(t, "gradient", out, 0, 8, 0, 8, func(i, j int) int32 { return int32(i + j) })
	l, err := halide.NewPipeline(gradient).Lower()
	if err != nil {
		t.Fatal(err)
	}
	if s := l.String(); !strings.Contains(s, "gradient") {
		t.Fatalf("lowered statement does not name gradient:\n%s", s)
	}
}

// lesson_04_debugging_2.cpp: trace_stores maps to TraceStores; print and
// print_when have no counterpart, so those sections check the values of
// the Exprs they print; printing a complex Expr becomes evaluating it.
func TestTutorialPortedLesson04(t *testing.T) {
	x, y := t3v("x"), t3v("y")
	t.Run("trace_stores", func(t *testing.T) {
		gradient := halide.NewFunc("gradient")
		gradient.Define(x, y).Is(x.Add(y))
		gradient.TraceStores()
		var want []ttStore
		for j := 0; j < 8; j++ {
			for i := 0; i < 8; i++ {
				want = append(want, ttStore{"gradient", i, j, float64(i + j)})
			}
		}
		ttSameOrder(t, ttTraced(t, gradient, halide.NewBuffer[int32](8, 8)), want)

		pg := halide.NewFunc("parallel_gradient")
		pg.Define(x, y).Is(x.Add(y))
		pg.TraceStores()
		pg.Parallel(y)
		for i := range want {
			want[i].fn = "parallel_gradient"
		}
		ttSameSet(t, ttTraced(t, pg, halide.NewBuffer[int32](8, 8)), want)
	})
	// sin(x) + cos(y), with and without print(cos(y), ...) around the
	// second term (print returns its first argument): the same values.
	sinCos := func(i, j int) float64 {
		return float64(float32(ttSinf(float32(i)) + float64(float32(math.Cos(float64(j))))))
	}
	for _, tc := range []struct {
		name string
		w, h int
	}{{"print", 4, 4}, {"print_args", 4, 4}, {"print_when_point", 640, 480}, {"print_when_negative", 4, 4}} {
		t.Run(tc.name, func(t *testing.T) {
			f := halide.NewFunc("f")
			e := halide.Cos(y)
			f.Define(x, y).Is(halide.Sin(x).Add(e))
			out := halide.NewBuffer[float32](tc.w, tc.h)
			t3Realize(t, f, out)
			// 1e-6: a float32 sine and cosine of small integers against
			// Go's float64 ones rounded to float32, one ulp apart at most.
			ttNear2(t, "f", out, tc.w, tc.h, 1e-6, sinCos)
		})
	}
	t.Run("complex_expr", func(t *testing.T) {
		fizz, buzz := t3v("fizz"), t3v("buzz")
		e := halide.E(1)
		for i := 2; i < 100; i++ {
			switch {
			case i%3 == 0 && i%5 == 0:
				e = e.Add(fizz.Mul(buzz))
			case i%3 == 0:
				e = e.Add(fizz)
			case i%5 == 0:
				e = e.Add(buzz)
			default:
				e = e.Add(i)
			}
		}
		if e.String() == "" {
			t.Fatal("empty Expr text")
		}
		f := halide.NewFunc("fizzbuzz")
		f.Define(fizz, buzz).Is(e)
		out := halide.NewBuffer[int32](5, 7)
		t3Realize(t, f, out)
		t3Check2(t, "fizzbuzz", out, 0, 5, 0, 7, func(fz, bz int) int32 {
			v := 1
			for i := 2; i < 100; i++ {
				switch {
				case i%3 == 0 && i%5 == 0:
					v += fz * bz
				case i%3 == 0:
					v += fz
				case i%5 == 0:
					v += bz
				default:
					v += i
				}
			}
			return int32(v)
		})
	})
}

// ttGradient is the lessons' gradient(x, y) = x + y, tracing its stores.
func ttGradient(name string, x, y halide.Var) *halide.Func {
	g := halide.NewFunc(name)
	g.Define(x, y).Is(x.Add(y))
	g.TraceStores()
	return g
}

// ttStores is the store log of a gradient that visits (x, y) in the
// order visit calls store.
func ttStores(name string, visit func(store func(x, y int))) []ttStore {
	var s []ttStore
	visit(func(x, y int) { s = append(s, ttStore{name, x, y, float64(x + y)}) })
	return s
}

// lesson_05_scheduling_1.cpp: each schedule's stores are compared, in
// order, with the C loop nest the lesson writes after it (as a set for
// the parallel one), and its loop nest is made (print_loop_nest).
func TestTutorialPortedLesson05(t *testing.T) {
	x, y := t3v("x"), t3v("y")
	rowMajor := func(w, h int) func(func(x, y int)) {
		return func(store func(x, y int)) {
			for j := 0; j < h; j++ {
				for i := 0; i < w; i++ {
					store(i, j)
				}
			}
		}
	}
	t.Run("default", func(t *testing.T) {
		g := ttGradient("gradient", x, y)
		ttSameOrder(t, ttTraced(t, g, halide.NewBuffer[int32](4, 4)), ttStores("gradient", rowMajor(4, 4)))
		// The loop nest the lesson says print_loop_nest prints (its
		// comment's "compute gradient:" is Halide's "produce").
		const want = "produce gradient:\n  for y:\n    for x:\n      gradient(...) = ...\n"
		if got := ttLoopNest(t, g); got != want {
			t.Fatalf("loop nest:\n%s\nwant:\n%s", got, want)
		}
	})
	t.Run("col_major", func(t *testing.T) {
		g := ttGradient("gradient_col_major", x, y)
		g.Reorder(y, x)
		ttSameOrder(t, ttTraced(t, g, halide.NewBuffer[int32](4, 4)), ttStores(g.Name(), func(store func(x, y int)) {
			for i := 0; i < 4; i++ {
				for j := 0; j < 4; j++ {
					store(i, j)
				}
			}
		}))
		ttLoopNest(t, g)
	})
	t.Run("split", func(t *testing.T) {
		g := ttGradient("gradient_split", x, y)
		xOuter, xInner := t3v("x_outer"), t3v("x_inner")
		g.Split(x, xOuter, xInner, 2)
		ttSameOrder(t, ttTraced(t, g, halide.NewBuffer[int32](4, 4)), ttStores(g.Name(), func(store func(x, y int)) {
			for j := 0; j < 4; j++ {
				for xo := 0; xo < 2; xo++ {
					for xi := 0; xi < 2; xi++ {
						store(xo*2+xi, j)
					}
				}
			}
		}))
		ttLoopNest(t, g)
	})
	t.Run("fused", func(t *testing.T) {
		// The lesson does not trace this one; the store order is the
		// fused loop's: fused / 4 is y, fused % 4 is x.
		g := ttGradient("gradient_fused", x, y)
		fused := t3v("fused")
		g.Fuse(x, y, fused)
		ttSameOrder(t, ttTraced(t, g, halide.NewBuffer[int32](4, 4)), ttStores(g.Name(), func(store func(x, y int)) {
			for f := 0; f < 16; f++ {
				store(f%4, f/4)
			}
		}))
		ttLoopNest(t, g)
	})
	t.Run("tiled", func(t *testing.T) {
		g := ttGradient("gradient_tiled", x, y)
		xOuter, xInner, yOuter, yInner := t3v("x_outer"), t3v("x_inner"), t3v("y_outer"), t3v("y_inner")
		g.Split(x, xOuter, xInner, 4)
		g.Split(y, yOuter, yInner, 4)
		g.Reorder(xInner, yInner, xOuter, yOuter)
		ttSameOrder(t, ttTraced(t, g, halide.NewBuffer[int32](8, 8)), ttStores(g.Name(), func(store func(x, y int)) {
			for yo := 0; yo < 2; yo++ {
				for xo := 0; xo < 2; xo++ {
					for yi := 0; yi < 4; yi++ {
						for xi := 0; xi < 4; xi++ {
							store(xo*4+xi, yo*4+yi)
						}
					}
				}
			}
		}))
		ttLoopNest(t, g)
	})
	t.Run("in_vectors", func(t *testing.T) {
		// Halide traces one vector store per x_outer; its lanes, in
		// order, are the stores here.
		g := ttGradient("gradient_in_vectors", x, y)
		xOuter, xInner := t3v("x_outer"), t3v("x_inner")
		g.Split(x, xOuter, xInner, 4)
		g.Vectorize(xInner)
		ttSameOrder(t, ttTraced(t, g, halide.NewBuffer[int32](8, 4)), ttStores(g.Name(), rowMajor(8, 4)))
		ttLoopNest(t, g)
	})
	t.Run("unroll", func(t *testing.T) {
		g := ttGradient("gradient_unroll", x, y)
		xOuter, xInner := t3v("x_outer"), t3v("x_inner")
		g.Split(x, xOuter, xInner, 2)
		g.Unroll(xInner)
		ttSameOrder(t, ttTraced(t, g, halide.NewBuffer[int32](4, 4)), ttStores(g.Name(), rowMajor(4, 4)))
		ttLoopNest(t, g)
	})
	t.Run("split_7x2", func(t *testing.T) {
		// The last x_outer is shifted inwards: x = min(x_outer*3, 4) +
		// x_inner, so x = 4 and 5 are stored twice.
		g := ttGradient("gradient_split_7x2", x, y)
		xOuter, xInner := t3v("x_outer"), t3v("x_inner")
		g.Split(x, xOuter, xInner, 3)
		out := halide.NewBuffer[int32](7, 2)
		ttSameOrder(t, ttTraced(t, g, out), ttStores(g.Name(), func(store func(x, y int)) {
			for j := 0; j < 2; j++ {
				for xo := 0; xo < 3; xo++ {
					for xi := 0; xi < 3; xi++ {
						store(min(xo*3, 4)+xi, j)
					}
				}
			}
		}))
		t3Check2(t, g.Name(), out, 0, 7, 0, 2, func(i, j int) int32 { return int32(i + j) })
		ttLoopNest(t, g)
	})
	t.Run("fused_tiles", func(t *testing.T) {
		g := ttGradient("gradient_fused_tiles", x, y)
		xOuter, yOuter, xInner, yInner, tileIndex := t3v("x_outer"), t3v("y_outer"), t3v("x_inner"), t3v("y_inner"), t3v("tile_index")
		g.Tile(x, y, xOuter, yOuter, xInner, yInner, 4, 4)
		g.Fuse(xOuter, yOuter, tileIndex)
		g.Parallel(tileIndex)
		ttSameSet(t, ttTraced(t, g, halide.NewBuffer[int32](8, 8)), ttStores(g.Name(), rowMajor(8, 8)))
		ttLoopNest(t, g)
	})
	t.Run("fast", func(t *testing.T) {
		g := halide.NewFunc("gradient_fast")
		g.Define(x, y).Is(x.Add(y))
		xOuter, yOuter, xInner, yInner, tileIndex := t3v("x_outer"), t3v("y_outer"), t3v("x_inner"), t3v("y_inner"), t3v("tile_index")
		g.Tile(x, y, xOuter, yOuter, xInner, yInner, 64, 64).
			Fuse(xOuter, yOuter, tileIndex).
			Parallel(tileIndex)
		xInnerOuter, yInnerOuter, xVectors, yPairs := t3v("x_inner_outer"), t3v("y_inner_outer"), t3v("x_vectors"), t3v("y_pairs")
		g.Tile(xInner, yInner, xInnerOuter, yInnerOuter, xVectors, yPairs, 4, 2).
			Vectorize(xVectors).
			Unroll(yPairs)
		out := halide.NewBuffer[int32](350, 250)
		t3Realize(t, g, out)
		t3Check2(t, g.Name(), out, 0, 350, 0, 250, func(i, j int) int32 { return int32(i + j) })
		ttLoopNest(t, g)
	})
}

// lesson_06_realizing_over_shifted_domains.cpp
func TestTutorialPortedLesson06(t *testing.T) {
	x, y := t3v("x"), t3v("y")
	gradient := ttGradient("gradient", x, y)
	result := halide.NewBuffer[int32](8, 8)
	log := ttTraced(t, gradient, result)
	t3Check2(t, "gradient", result, 0, 8, 0, 8, func(i, j int) int32 { return int32(i + j) })
	if len(log) != 64 {
		t.Fatalf("%d stores into an 8x8 buffer", len(log))
	}
	shifted := halide.NewBuffer[int32](5, 7).SetMin(100, 50)
	log = ttTraced(t, gradient, shifted)
	t3Check2(t, "gradient", shifted, 100, 105, 50, 57, func(i, j int) int32 { return int32(i + j) })
	// Only the 5x7 region from (100, 50) is computed.
	ttSameOrder(t, log, ttStores("gradient", func(store func(x, y int)) {
		for j := 50; j < 57; j++ {
			for i := 100; i < 105; i++ {
				store(i, j)
			}
		}
	}))
}

// ttBlur3 is lesson 7's 1-2-1 blur of a uint8 image in uint16, in x then
// y, of the image read through at (which clamps or not).
func ttBlur3(at func(x, y, c int) uint8, x, y, c int) uint8 {
	bx := func(x, y int) uint16 {
		return (uint16(at(x-1, y, c)) + 2*uint16(at(x, y, c)) + uint16(at(x+1, y, c))) / 4
	}
	return uint8((bx(x, y-1) + 2*bx(x, y) + bx(x, y+1)) / 4)
}

// lesson_07_multi_stage_pipelines.cpp: a random 3-channel uint8 image
// replaces images/rgb.png.
func TestTutorialPortedLesson07(t *testing.T) {
	const W, H = 67, 43
	x, y, c := t3v("x"), t3v("y"), t3v("c")
	input := t3Rand[uint8](7, 255, W, H, 3)
	blur := func(src func(x, y, c halide.Expr) halide.Expr) *halide.Func {
		input16 := halide.NewFunc("input_16")
		input16.Define(x, y, c).Is(halide.Cast(halide.UInt16, src(x.Expr, y.Expr, c.Expr)))
		blurX := halide.NewFunc("blur_x")
		blurX.Define(x, y, c).Is(input16.At(x.Sub(1), y, c).Add(input16.At(x, y, c).Mul(2)).Add(input16.At(x.Add(1), y, c)).Div(4))
		blurY := halide.NewFunc("blur_y")
		blurY.Define(x, y, c).Is(blurX.At(x, y.Sub(1), c).Add(blurX.At(x, y, c).Mul(2)).Add(blurX.At(x, y.Add(1), c)).Div(4))
		output := halide.NewFunc("output")
		output.Define(x, y, c).Is(halide.Cast(halide.UInt8, blurY.At(x, y, c)))
		return output
	}
	check := func(t *testing.T, out *halide.Buffer[uint8], x0, x1, y0, y1 int, at func(x, y, c int) uint8) {
		t.Helper()
		for ch := 0; ch < 3; ch++ {
			for j := y0; j < y1; j++ {
				for i := x0; i < x1; i++ {
					if got, want := out.Get(i, j, ch), ttBlur3(at, i, j, ch); got != want {
						t.Fatalf("output(%d, %d, %d) = %d, want %d", i, j, ch, got, want)
					}
				}
			}
		}
	}
	t.Run("shrunk_output", func(t *testing.T) {
		output := blur(func(x, y, c halide.Expr) halide.Expr { return input.At(x, y, c) })
		result := halide.NewBuffer[uint8](W-2, H-2, 3).SetMin(1, 1)
		t3Realize(t, output, result)
		check(t, result, 1, W-1, 1, H-1, func(x, y, c int) uint8 { return input.Get(x, y, c) })
	})
	t.Run("clamped", func(t *testing.T) {
		clamped := halide.NewFunc("clamped")
		clamped.Define(x, y, c).Is(input.At(halide.Clamp(x, 0, W-1), halide.Clamp(y, 0, H-1), c))
		output := blur(func(x, y, c halide.Expr) halide.Expr { return clamped.At(x, y, c) })
		result := halide.NewBuffer[uint8](W, H, 3)
		t3Realize(t, output, result)
		check(t, result, 0, W, 0, H, func(x, y, c int) uint8 { return input.Get(m2Clampi(x, 0, W-1), m2Clampi(y, 0, H-1), c) })
	})
}

// ttNoValues drops the values from a store log (lesson 8 compares the
// order of float stores; their values are checked with a tolerance).
func ttNoValues(s []ttStore) []ttStore {
	for i := range s {
		s[i].v = 0
	}
	return s
}

// lesson_08_scheduling_2.cpp: each schedule's stores, producer's and
// consumer's interleaved, are compared in order with the C loop nest the
// lesson writes after it, and the consumer's values with a reference.
func TestTutorialPortedLesson08(t *testing.T) {
	x, y := t3v("x"), t3v("y")
	// sin(x*y) in float32, and the consumer's 2x2 average of it.
	prod := func(i, j int) float64 { return ttSinf(float32(i * j)) }
	cons := func(i, j int) float64 {
		return float64((float32(prod(i, j)) + float32(prod(i, j+1)) + float32(prod(i+1, j)) + float32(prod(i+1, j+1))) / 4)
	}
	algorithm := func(suffix string, trace bool) (producer, consumer *halide.Func) {
		producer, consumer = halide.NewFunc("producer_"+suffix), halide.NewFunc("consumer_"+suffix)
		producer.Define(x, y).Is(halide.Sin(x.Mul(y)))
		consumer.Define(x, y).Is(producer.At(x, y).Add(producer.At(x, y.Add(1))).Add(producer.At(x.Add(1), y)).Add(producer.At(x.Add(1), y.Add(1))).Div(float32(4)))
		if trace {
			consumer.TraceStores()
			producer.TraceStores()
		}
		return producer, consumer
	}
	// run realizes consumer over w x h and compares its stores with the
	// loop nest visit (P and C store a producer or consumer point).
	run := func(t *testing.T, producer, consumer *halide.Func, w, h int, visit func(P, C func(x, y int))) {
		t.Helper()
		out := halide.NewBuffer[float32](w, h)
		got := ttNoValues(ttTraced(t, consumer, out))
		var want []ttStore
		visit(func(i, j int) { want = append(want, ttStore{producer.Name(), i, j, 0}) },
			func(i, j int) { want = append(want, ttStore{consumer.Name(), i, j, 0}) })
		ttSameOrder(t, got, want)
		// 1e-6: four float32 sines of integers, each within an ulp of
		// Go's, averaged in float32.
		ttNear2(t, consumer.Name(), out, w, h, 1e-6, cons)
		ttLoopNest(t, consumer)
	}
	t.Run("default", func(t *testing.T) {
		producer, consumer := algorithm("default", true)
		// "If we look at the loop nest, the producer doesn't appear at
		// all. It has been inlined into the consumer."
		if nest := ttLoopNest(t, consumer); strings.Contains(nest, producer.Name()) {
			t.Fatalf("the inlined producer appears in the loop nest:\n%s", nest)
		}
		run(t, producer, consumer, 4, 4, func(P, C func(x, y int)) {
			for j := 0; j < 4; j++ {
				for i := 0; i < 4; i++ {
					C(i, j)
				}
			}
		})
	})
	t.Run("root", func(t *testing.T) {
		producer, consumer := algorithm("root", true)
		producer.ComputeRoot()
		run(t, producer, consumer, 4, 4, func(P, C func(x, y int)) {
			for j := 0; j < 5; j++ {
				for i := 0; i < 5; i++ {
					P(i, j)
				}
			}
			for j := 0; j < 4; j++ {
				for i := 0; i < 4; i++ {
					C(i, j)
				}
			}
		})
	})
	t.Run("y", func(t *testing.T) {
		producer, consumer := algorithm("y", true)
		producer.ComputeAt(consumer, y)
		run(t, producer, consumer, 4, 4, func(P, C func(x, y int)) {
			for j := 0; j < 4; j++ {
				for py := j; py < j+2; py++ {
					for px := 0; px < 5; px++ {
						P(px, py)
					}
				}
				for i := 0; i < 4; i++ {
					C(i, j)
				}
			}
		})
	})
	t.Run("root_y", func(t *testing.T) {
		// A sliding window: each row of producer is computed once.
		producer, consumer := algorithm("root_y", true)
		producer.StoreRoot()
		producer.ComputeAt(consumer, y)
		run(t, producer, consumer, 4, 4, func(P, C func(x, y int)) {
			for j := 0; j < 4; j++ {
				for py := j; py < j+2; py++ {
					if j > 0 && py == j {
						continue
					}
					for px := 0; px < 5; px++ {
						P(px, py)
					}
				}
				for i := 0; i < 4; i++ {
					C(i, j)
				}
			}
		})
	})
	t.Run("root_x", func(t *testing.T) {
		// The lesson's C nest: each producer point computed once (25
		// stores), the window sliding along x and along y.
		producer, consumer := algorithm("root_x", true)
		producer.StoreRoot().ComputeAt(consumer, x)
		run(t, producer, consumer, 4, 4, func(P, C func(x, y int)) {
			for j := 0; j < 4; j++ {
				for i := 0; i < 4; i++ {
					if j == 0 && i == 0 {
						P(i, j)
					}
					if j == 0 {
						P(i+1, j)
					}
					if i == 0 {
						P(i, j+1)
					}
					P(i+1, j+1)
					C(i, j)
				}
			}
		})
	})
	t.Run("tile", func(t *testing.T) {
		producer, consumer := algorithm("tile", true)
		xOuter, yOuter, xInner, yInner := t3v("x_outer"), t3v("y_outer"), t3v("x_inner"), t3v("y_inner")
		consumer.Tile(x, y, xOuter, yOuter, xInner, yInner, 4, 4)
		producer.ComputeAt(consumer, xOuter)
		run(t, producer, consumer, 8, 8, func(P, C func(x, y int)) {
			for yo := 0; yo < 2; yo++ {
				for xo := 0; xo < 2; xo++ {
					xb, yb := xo*4, yo*4
					for py := yb; py < yb+5; py++ {
						for px := xb; px < xb+5; px++ {
							P(px, py)
						}
					}
					for yi := 0; yi < 4; yi++ {
						for xi := 0; xi < 4; xi++ {
							C(xb+xi, yb+yi)
						}
					}
				}
			}
		})
	})
	t.Run("mixed", func(t *testing.T) {
		// Not traced in the lesson; values within its 0.001.
		producer, consumer := algorithm("mixed", false)
		yo, yi := t3v("yo"), t3v("yi")
		consumer.Split(y, yo, yi, 16)
		consumer.Parallel(yo)
		consumer.Vectorize(x, 4)
		producer.StoreAt(consumer, yo)
		producer.ComputeAt(consumer, yi)
		producer.Vectorize(x, 4)
		out := halide.NewBuffer[float32](160, 160)
		t3Realize(t, consumer, out)
		ttNear2(t, consumer.Name(), out, 160, 160, 0.001, cons)
		ttLoopNest(t, consumer)
	})
}

// lesson_09_update_definitions.cpp: a random uint8 image replaces
// images/gray.png; trace_loads has no counterpart (the g section checks
// its stores); the spread section's NEON comparison and timing become a
// plain-Go reference.
func TestTutorialPortedLesson09(t *testing.T) {
	const W, H = 53, 41
	x, y := t3v("x"), t3v("y")
	input := t3Rand[uint8](9, 255, W, H)
	t.Run("updates", func(t *testing.T) {
		f := halide.NewFunc("f")
		f.Define(x, y).Is(x.Add(y))
		f.Define(3, 7).Is(42)
		f.Define(x, y).Is(f.At(x, y).Add(17))
		f.Define(x, 3).Is(f.At(x, 0).Mul(f.At(x, 10)))
		f.Define(0, y).Is(f.At(0, y).Div(f.At(3, y)))
		f.Define(x, 17).Is(x.Add(8))
		f.Define(0, y).Is(y.Mul(8))
		f.Define(x, x.Add(1)).Is(x.Add(8))
		f.Define(y.Div(2), y).Is(f.At(0, y).Mul(17))
		out := halide.NewBuffer[int32](100, 101)
		t3Realize(t, f, out)
		// Each update runs over the region realized: x in [0, 100), y in
		// [0, 101); f(x, x+1) over x with x+1 < 101, f(y/2, y) over y.
		var r [101][100]int32
		for j := 0; j < 101; j++ {
			for i := 0; i < 100; i++ {
				r[j][i] = int32(i + j)
			}
		}
		r[7][3] = 42
		for j := 0; j < 101; j++ {
			for i := 0; i < 100; i++ {
				r[j][i] += 17
			}
		}
		for i := 0; i < 100; i++ {
			r[3][i] = r[0][i] * r[10][i]
		}
		div := func(a, b int32) int32 { // Halide's division rounds down; b != 0 here
			q := a / b
			if (a%b != 0) && ((a < 0) != (b < 0)) {
				q--
			}
			return q
		}
		for j := 0; j < 101; j++ {
			r[j][0] = div(r[j][0], r[j][3])
		}
		for i := 0; i < 100; i++ {
			r[17][i] = int32(i + 8)
		}
		for j := 0; j < 101; j++ {
			r[j][0] = int32(j * 8)
		}
		for i := 0; i < 100; i++ {
			r[i+1][i] = int32(i + 8)
		}
		for j := 0; j < 101; j++ {
			r[j][j/2] = r[j][0] * 17
		}
		t3Check2(t, "f", out, 0, 100, 0, 101, func(i, j int) int32 { return r[j][i] })
	})
	t.Run("g_stores", func(t *testing.T) {
		g := halide.NewFunc("g")
		g.Define(x, y).Is(x.Add(y))
		g.Define(2, 1).Is(42)
		g.Define(x, 0).Is(g.At(x, 1))
		g.TraceStores()
		out := halide.NewBuffer[int32](4, 4)
		log := ttTraced(t, g, out)
		var result [4][4]int32
		var want []ttStore
		for j := 0; j < 4; j++ {
			for i := 0; i < 4; i++ {
				result[j][i] = int32(i + j)
				want = append(want, ttStore{"g", i, j, float64(i + j)})
			}
		}
		result[1][2] = 42
		want = append(want, ttStore{"g", 2, 1, 42})
		for i := 0; i < 4; i++ {
			result[0][i] = result[1][i]
			want = append(want, ttStore{"g", i, 0, float64(result[1][i])})
		}
		ttSameOrder(t, log, want)
		t3Check2(t, "g", out, 0, 4, 0, 4, func(i, j int) int32 { return result[j][i] })
	})
	t.Run("rdom", func(t *testing.T) {
		f := halide.NewFunc("f")
		f.Define(x, y).Is(halide.Cast(halide.Float32, x.Add(y)).Div(float32(100)))
		r := halide.NewRDom("r", halide.Range(0, 50))
		f.Define(x, r).Is(f.At(x, r).Mul(f.At(x, r)))
		out := halide.NewBuffer[float32](100, 100)
		t3Realize(t, f, out)
		// Exact: the same float32 division and product as the C loop
		// (the lesson allows 0.01).
		ttNear2(t, "f", out, 100, 100, 0, func(i, j int) float64 {
			v := float32(i+j) / 100
			if j < 50 {
				v = v * v
			}
			return float64(v)
		})
	})
	t.Run("histogram", func(t *testing.T) {
		histogram := halide.NewFunc("histogram")
		histogram.Define(x).Is(0)
		r := halide.NewRDom("r", halide.Range(0, W), halide.Range(0, H))
		histogram.Define(input.At(r.X(), r.Y())).PlusEq(1)
		out := halide.NewBuffer[int32](256)
		t3Realize(t, histogram, out)
		var c [256]int32
		for j := 0; j < H; j++ {
			for i := 0; i < W; i++ {
				c[input.Get(i, j)]++
			}
		}
		t3Check1(t, "histogram", out, 0, 256, func(i int) int32 { return c[i] })
	})
	t.Run("scheduling_updates", func(t *testing.T) {
		f := halide.NewFunc("f")
		f.Define(x, y).Is(x.Mul(y))
		f.Define(x, 0).Is(f.At(x, 8))
		f.Define(0, y).Is(f.At(8, y).Add(2))
		f.Vectorize(x, 4).Parallel(y)
		f.Update(0).Vectorize(x, 4)
		yo, yi := t3v("yo"), t3v("yi")
		f.Update(1).Split(y, yo, yi, 4).Parallel(yo)
		out := halide.NewBuffer[int32](16, 16)
		t3Realize(t, f, out)
		var c [16][16]int32
		for j := 0; j < 16; j++ {
			for i := 0; i < 16; i++ {
				c[j][i] = int32(i * j)
			}
		}
		for i := 0; i < 16; i++ {
			c[0][i] = c[8][i]
		}
		for j := 0; j < 16; j++ {
			c[j][0] = c[j][8] + 2
		}
		t3Check2(t, "f", out, 0, 16, 0, 16, func(i, j int) int32 { return c[j][i] })
	})
	// The producer-consumer sections: each realizes consumer over [0, 10).
	t.Run("reduction_producer_inlined", func(t *testing.T) {
		producer, consumer := halide.NewFunc("producer"), halide.NewFunc("consumer")
		producer.Define(x).Is(x.Mul(2))
		producer.Define(x).PlusEq(10)
		consumer.Define(x).Is(producer.At(x).Mul(2))
		out := halide.NewBuffer[int32](10)
		t3Realize(t, consumer, out)
		t3Check1(t, "consumer", out, 0, 10, func(i int) int32 { return int32(2 * (i*2 + 10)) })
	})
	t.Run("producer_at_reduction_consumer", func(t *testing.T) {
		producer, consumer := halide.NewFunc("producer"), halide.NewFunc("consumer")
		producer.Define(x).Is(x.Mul(17))
		consumer.Define(x).Is(producer.At(x).Mul(2))
		consumer.Define(x).PlusEq(50)
		producer.ComputeAt(consumer, x)
		out := halide.NewBuffer[int32](10)
		t3Realize(t, consumer, out)
		t3Check1(t, "consumer", out, 0, 10, func(i int) int32 { return int32(2*i*17 + 50) })
	})
	t.Run("producer_in_update", func(t *testing.T) {
		producer, consumer := halide.NewFunc("producer"), halide.NewFunc("consumer")
		producer.Define(x).Is(x.Mul(17))
		consumer.Define(x).Is(halide.E(100).Sub(x.Mul(10)))
		consumer.Define(x).PlusEq(producer.At(x))
		producer.ComputeAt(consumer, x)
		out := halide.NewBuffer[int32](10)
		t3Realize(t, consumer, out)
		t3Check1(t, "consumer", out, 0, 10, func(i int) int32 { return int32(100 - i*10 + i*17) })
	})
	t.Run("producer_in_both_stages", func(t *testing.T) {
		producer, consumer := halide.NewFunc("producer"), halide.NewFunc("consumer")
		producer.Define(x).Is(x.Mul(17))
		consumer.Define(x).Is(halide.E(170).Sub(producer.At(x)))
		consumer.Define(x).PlusEq(producer.At(x).Div(2))
		producer.ComputeAt(consumer, x)
		out := halide.NewBuffer[int32](10)
		t3Realize(t, consumer, out)
		t3Check1(t, "consumer", out, 0, 10, func(i int) int32 { return int32(170 - i*17 + i*17/2) })
	})
	consumerRef := func(i, j int) int32 {
		v := int32(i + j)
		if j == 0 {
			v += int32(i*i/10 + 8)
		}
		if i == 0 {
			v += int32(j*(9-j)/10 + 8)
		}
		return v
	}
	t.Run("producer_at_x_not_covering_both_updates", func(t *testing.T) {
		// "neither producer.compute_at(consumer, x) nor
		// producer.compute_at(consumer, y) will work": the update that
		// loops over y alone has no x loop to compute producer in.
		for _, v := range []halide.Var{x, y} {
			producer, consumer := halide.NewFunc("producer"), halide.NewFunc("consumer")
			producer.Define(x, y).Is(x.Mul(y).Div(10).Add(8))
			consumer.Define(x, y).Is(x.Add(y))
			consumer.Define(x, 0).PlusEq(producer.At(x, x))
			consumer.Define(0, y).PlusEq(producer.At(y, halide.E(9).Sub(y)))
			producer.ComputeAt(consumer, v)
			mpRefused(t, t3Try(t, consumer, halide.NewBuffer[int32](10, 10)))
		}
	})
	t.Run("producer_wrappers", func(t *testing.T) {
		producer, producer1, producer2, consumer2 := halide.NewFunc("producer"), halide.NewFunc("producer_1"), halide.NewFunc("producer_2"), halide.NewFunc("consumer_2")
		producer.Define(x, y).Is(x.Mul(y).Div(10).Add(8))
		producer1.Define(x, y).Is(producer.At(x, y))
		producer2.Define(x, y).Is(producer.At(x, y))
		consumer2.Define(x, y).Is(x.Add(y))
		consumer2.Define(x, 0).PlusEq(producer1.At(x, x))
		consumer2.Define(0, y).PlusEq(producer2.At(y, halide.E(9).Sub(y)))
		producer1.ComputeAt(consumer2, x)
		producer2.ComputeAt(consumer2, y)
		out := halide.NewBuffer[int32](10, 10)
		t3Realize(t, consumer2, out)
		t3Check2(t, "consumer_2", out, 0, 10, 0, 10, consumerRef)
	})
	t.Run("producer_at_rvar", func(t *testing.T) {
		producer, consumer := halide.NewFunc("producer"), halide.NewFunc("consumer")
		r := halide.NewRDom("r", halide.Range(0, 5))
		producer.Define(x).Is(x.Mod(8))
		consumer.Define(x).Is(x.Add(10))
		consumer.Define(x).PlusEq(r.X().Add(producer.At(x.Add(r.X()))))
		producer.ComputeAt(consumer, r.X())
		out := halide.NewBuffer[int32](10)
		t3Realize(t, consumer, out)
		t3Check1(t, "consumer", out, 0, 10, func(i int) int32 {
			v := i + 10
			for k := 0; k < 5; k++ {
				v += k + (i+k)%8
			}
			return int32(v)
		})
	})
	t.Run("local_sum_blur", func(t *testing.T) {
		clamped := halide.RepeatEdge(input)
		r := halide.NewRDom("r", halide.Range(-2, 5), halide.Range(-2, 5))
		localSum := halide.NewFunc("local_sum")
		localSum.Define(x, y).Is(0)
		localSum.Define(x, y).PlusEq(clamped.At(x.Add(r.X()), y.Add(r.Y())))
		blurry := halide.NewFunc("blurry")
		blurry.Define(x, y).Is(halide.Cast(halide.UInt8, localSum.At(x, y).Div(25)))
		out := halide.NewBuffer[uint8](W, H)
		t3Realize(t, blurry, out)
		t3Check2(t, "blurry", out, 0, W, 0, H, func(i, j int) uint8 {
			s := 0
			for ry := -2; ry <= 2; ry++ {
				for rx := -2; rx <= 2; rx++ {
					s += int(input.Get(m2Clampi(i+rx, 0, W-1), m2Clampi(j+ry, 0, H-1)))
				}
			}
			return uint8(s / 25)
		})
	})
	t.Run("inline_sum", func(t *testing.T) {
		r := halide.NewRDom("r", halide.Range(0, 100))
		f1 := halide.NewFunc("f1")
		f1.Define(x).Is(halide.Sum(r.X().Add(x)).Mul(7))
		anon := halide.NewFunc("anon")
		anon.Define(x).Is(0)
		anon.Define(x).PlusEq(r.X().Add(x))
		f2 := halide.NewFunc("f2")
		f2.Define(x).Is(anon.At(x).Mul(7))
		ref := func(i int) int32 { return int32((99*100/2 + 100*i) * 7) }
		for _, f := range []*halide.Func{f1, f2} {
			out := halide.NewBuffer[int32](10)
			t3Realize(t, f, out)
			t3Check1(t, f.Name(), out, 0, 10, ref)
		}
	})
	t.Run("spread", func(t *testing.T) {
		clamped := halide.NewFunc("clamped")
		clamped.Define(x, y).Is(input.At(halide.Clamp(x, 0, W-1), halide.Clamp(y, 0, H-1)))
		box := halide.NewRDom("box", halide.Range(-2, 5), halide.Range(-2, 5))
		spread := halide.NewFunc("spread")
		spread.Define(x, y).Is(halide.Maximum(clamped.At(x.Add(box.X()), y.Add(box.Y()))).Sub(halide.Minimum(clamped.At(x.Add(box.X()), y.Add(box.Y())))))
		yo, yi := t3v("yo"), t3v("yi")
		spread.Split(y, yo, yi, 32).Parallel(yo)
		spread.Vectorize(x, 16)
		clamped.StoreAt(spread, yo).ComputeAt(spread, yi)
		out := halide.NewBuffer[uint8](W, H)
		t3Realize(t, spread, out)
		t3Check2(t, "spread", out, 0, W, 0, H, func(i, j int) uint8 {
			lo, hi := uint8(255), uint8(0)
			for ry := -2; ry <= 2; ry++ {
				for rx := -2; rx <= 2; rx++ {
					v := input.Get(m2Clampi(i+rx, 0, W-1), m2Clampi(j+ry, 0, H-1))
					lo, hi = min(lo, v), max(hi, v)
				}
			}
			return hi - lo
		})
	})
}

// lesson_12_using_the_gpu.cpp: a random 3-channel uint8 image replaces
// images/rgb.png; the GPU schedule runs on the emulator (the default
// Target) instead of OpenCL or Metal, and is checked, as in the lesson,
// against the CPU schedule's output, which is checked against plain Go.
func TestTutorialPortedLesson12(t *testing.T) {
	const W, H = 45, 29
	input := t3Rand[uint8](12, 255, W, H, 3)
	x, y, c, i := t3v("x"), t3v("y"), t3v("c"), t3v("i")
	xo, yo, xi, yi := t3v("xo"), t3v("yo"), t3v("xi"), t3v("yi")
	type pipeline struct{ lut, padded, padded16, sharpen, curved *halide.Func }
	newPipeline := func() pipeline {
		var p pipeline
		p.lut, p.padded, p.padded16, p.sharpen, p.curved = halide.NewFunc("lut"), halide.NewFunc("padded"), halide.NewFunc("padded16"), halide.NewFunc("sharpen"), halide.NewFunc("curved")
		p.lut.Define(i).Is(halide.Cast(halide.UInt8, halide.Clamp(halide.Pow(halide.Cast(halide.Float32, i).Div(float32(255)), float32(1.2)).Mul(float32(255)), float32(0), float32(255))))
		p.padded.Define(x, y, c).Is(input.At(halide.Clamp(x, 0, W-1), halide.Clamp(y, 0, H-1), c))
		p.padded16.Define(x, y, c).Is(halide.Cast(halide.UInt16, p.padded.At(x, y, c)))
		p16 := p.padded16
		p.sharpen.Define(x, y, c).Is(p16.At(x, y, c).Mul(2).Sub(p16.At(x.Sub(1), y, c).Add(p16.At(x, y.Sub(1), c)).Add(p16.At(x.Add(1), y, c)).Add(p16.At(x, y.Add(1), c)).Div(4)))
		p.curved.Define(x, y, c).Is(p.lut.At(p.sharpen.At(x, y, c)))
		return p
	}
	// The plain-Go reference: uint16 arithmetic wraps, as in C.
	lut := func(v uint16) uint8 {
		f := float32(math.Pow(float64(float32(v)/255), float64(float32(1.2)))) * 255
		return uint8(min(max(f, 0), 255))
	}
	ref := func(xx, yy, cc int) uint8 {
		p := func(a, b int) uint16 { return uint16(input.Get(m2Clampi(a, 0, W-1), m2Clampi(b, 0, H-1), cc)) }
		s := p(xx, yy)*2 - (p(xx-1, yy)+p(xx, yy-1)+p(xx+1, yy)+p(xx, yy+1))/4
		return lut(s)
	}
	check := func(t *testing.T, out *halide.Buffer[uint8], want func(x, y, c int) uint8) {
		t.Helper()
		for cc := 0; cc < 3; cc++ {
			for yy := 0; yy < H; yy++ {
				for xx := 0; xx < W; xx++ {
					if got, w := out.Get(xx, yy, cc), want(xx, yy, cc); got != w {
						t.Fatalf("curved(%d, %d, %d) = %d, want %d", xx, yy, cc, got, w)
					}
				}
			}
		}
	}
	cpuOut := halide.NewBuffer[uint8](W, H, 3)
	t.Run("cpu", func(t *testing.T) {
		p := newPipeline()
		p.lut.ComputeRoot()
		p.curved.Reorder(c, x, y).Bound(c, 0, 3).Unroll(c)
		yo, yi := t3v("yo"), t3v("yi")
		p.curved.Split(y, yo, yi, 16).Parallel(yo)
		p.sharpen.ComputeAt(p.curved, yi)
		p.sharpen.Vectorize(x, 8)
		p.padded.StoreAt(p.curved, yo).ComputeAt(p.curved, yi)
		p.padded.Vectorize(x, 16)
		t3Realize(t, p.curved, cpuOut)
		check(t, cpuOut, ref)
	})
	t.Run("gpu", func(t *testing.T) {
		p := newPipeline()
		p.lut.ComputeRoot()
		block, thread := t3v("block"), t3v("thread")
		p.lut.Split(i, block, thread, 16)
		p.lut.GPUBlocks(block).GPUThreads(thread)
		p.curved.Reorder(c, x, y).Bound(c, 0, 3).Unroll(c)
		p.curved.GPUTile(x, y, xo, yo, xi, yi, 8, 8)
		p.padded.ComputeAt(p.curved, xo)
		p.padded.GPUThreads(x, y)
		out := halide.NewBuffer[uint8](W, H, 3)
		if err := t3Run(t, t3Pipe(nil, p.curved).WithTarget(halide.Emulator), out); err != nil {
			t.Fatal(err)
		}
		check(t, out, func(x, y, c int) uint8 { return cpuOut.Get(x, y, c) })
		// Two kernels: lut's and curved's (padded is computed in curved's).
		l, err := t3Pipe(nil, p.curved).Lower()
		if err != nil {
			t.Fatal(err)
		}
		if n := len(l.Kernels()); n != 2 {
			t.Fatalf("%d kernels, want 2 (lut, curved)", n)
		}
		// The CUDA source is made too (compiled only with -tags cuda).
		if _, err := l.CUDA(); err != nil {
			t.Fatal(err)
		}
	})
}

// lesson_13_tuples.cpp: select with several conditions becomes nested
// Selects (Select takes one condition); the Complex struct becomes Go
// helpers over Tuples.
func TestTutorialPortedLesson13(t *testing.T) {
	x, y, c := t3v("x"), t3v("y"), t3v("c")
	t.Run("funcs", func(t *testing.T) {
		singleValued := halide.NewFunc("single_valued")
		singleValued.Define(x, y).Is(x.Add(y))
		colorImage := halide.NewFunc("color_image")
		colorImage.Define(x, y, c).Is(halide.Select(c.Eq(0), 245, halide.Select(c.Eq(1), 42, 132)))
		brighter := halide.NewFunc("brighter")
		brighter.Define(x, y, c).Is(colorImage.At(x, y, c).Add(10))
		out := halide.NewBuffer[int32](3, 2, 3)
		t3Realize(t, brighter, out)
		for cc, want := range []int32{255, 52, 142} {
			for j := 0; j < 2; j++ {
				for i := 0; i < 3; i++ {
					if got := out.Get(i, j, cc); got != want {
						t.Fatalf("brighter(%d, %d, %d) = %d, want %d", i, j, cc, got, want)
					}
				}
			}
		}
		sv := halide.NewBuffer[int32](5, 4)
		t3Realize(t, singleValued, sv)
		t3Check2(t, "single_valued", sv, 0, 5, 0, 4, func(i, j int) int32 { return int32(i + j) })
		var funcArray [3]*halide.Func
		for k := range funcArray {
			funcArray[k] = halide.NewFunc(fmt.Sprintf("func_array_%d", k))
		}
		funcArray[0].Define(x, y).Is(x.Add(y))
		funcArray[1].Define(x, y).Is(halide.Sin(x))
		funcArray[2].Define(x, y).Is(halide.Cos(y))
		fa0 := halide.NewBuffer[int32](5, 4)
		t3Realize(t, funcArray[0], fa0)
		t3Check2(t, funcArray[0].Name(), fa0, 0, 5, 0, 4, func(i, j int) int32 { return int32(i + j) })
		for k, ref := range []func(i, j int) float64{
			1: func(i, j int) float64 { return ttSinf(float32(i)) },
			2: func(i, j int) float64 { return float64(float32(math.Cos(float64(j)))) },
		} {
			if k == 0 {
				continue // the int32 Func, checked above
			}
			out := halide.NewBuffer[float32](5, 4)
			t3Realize(t, funcArray[k], out)
			// 1e-6: float32 sines and cosines of small integers.
			ttNear2(t, funcArray[k].Name(), out, 5, 4, 1e-6, ref)
		}
	})
	t.Run("multi_valued", func(t *testing.T) {
		multiValued := halide.NewFunc("multi_valued")
		multiValued.Define(x, y).Is(halide.NewTuple(x.Add(y), halide.Sin(x.Mul(y))))
		if multiValued.Values() != 2 {
			t.Fatalf("%d values, want 2", multiValued.Values())
		}
		im0, im1 := halide.NewBuffer[int32](80, 60), halide.NewBuffer[float32](80, 60)
		t3Realize(t, multiValued, im0, im1)
		if im0.Get(30, 40) != 30+40 {
			t.Fatalf("im0(30, 40) = %d", im0.Get(30, 40))
		}
		t3Check2(t, "multi_valued.0", im0, 0, 80, 0, 60, func(i, j int) int32 { return int32(i + j) })
		// 1e-4: float32 sines of integers up to 80*60, whose range
		// reduction costs a few ulps against Go's float64 sine.
		ttNear2(t, "multi_valued.1", im1, 80, 60, 1e-4, func(i, j int) float64 { return ttSinf(float32(i * j)) })
	})
	t.Run("tuple_elements", func(t *testing.T) {
		multiValued2 := halide.NewFunc("multi_valued_2")
		multiValued2.Define(x, y).Is(halide.NewTuple(x.Add(y), halide.Sin(x.Mul(y))))
		integerPart := multiValued2.AtTuple(x, y).Elem(0)
		floatingPart := multiValued2.AtTuple(x, y).Elem(1)
		consumer := halide.NewFunc("consumer")
		consumer.Define(x, y).Is(halide.NewTuple(integerPart.Add(10), floatingPart.Add(float32(10))))
		o0, o1 := halide.NewBuffer[int32](20, 10), halide.NewBuffer[float32](20, 10)
		t3Realize(t, consumer, o0, o1)
		t3Check2(t, "consumer.0", o0, 0, 20, 0, 10, func(i, j int) int32 { return int32(i + j + 10) })
		// 1e-5: float32 sines plus 10 (an ulp of 10 is 1e-6).
		ttNear2(t, "consumer.1", o1, 20, 10, 1e-5, func(i, j int) float64 { return ttSinf(float32(i*j)) + 10 })
	})
	t.Run("arg_max", func(t *testing.T) {
		inputFunc := halide.NewFunc("input_func")
		inputFunc.Define(x).Is(halide.Sin(x))
		input := halide.NewBuffer[float32](100)
		t3Realize(t, inputFunc, input)
		argMax := halide.NewFunc("arg_max")
		argMax.Define().Is(halide.NewTuple(0, input.At(0)))
		r := halide.NewRDom("r", halide.Range(1, 99))
		oldIndex, oldMax := argMax.AtTuple().Elem(0), argMax.AtTuple().Elem(1)
		newIndex := halide.Select(oldMax.Lt(input.At(r)), r, oldIndex)
		newMax := halide.Max(input.At(r), oldMax)
		argMax.Define().Is(halide.NewTuple(newIndex, newMax))
		r0, r1 := halide.NewBuffer[int32](), halide.NewBuffer[float32]()
		t3Realize(t, argMax, r0, r1)
		idx, best := int32(0), input.Get(0)
		for k := 1; k < 100; k++ {
			if best < input.Get(k) {
				idx = int32(k)
			}
			best = max(input.Get(k), best)
		}
		if r0.Data()[0] != idx || r1.Data()[0] != best {
			t.Fatalf("arg_max = (%d, %v), want (%d, %v)", r0.Data()[0], r1.Data()[0], idx, best)
		}
	})
	t.Run("mandelbrot", func(t *testing.T) {
		// Complex numbers as Tuples (real, imag).
		mul := func(a, b halide.Tuple) halide.Tuple {
			return halide.NewTuple(a.Elem(0).Mul(b.Elem(0)).Sub(a.Elem(1).Mul(b.Elem(1))), a.Elem(0).Mul(b.Elem(1)).Add(a.Elem(1).Mul(b.Elem(0))))
		}
		add := func(a, b halide.Tuple) halide.Tuple {
			return halide.NewTuple(a.Elem(0).Add(b.Elem(0)), a.Elem(1).Add(b.Elem(1)))
		}
		magSq := func(a halide.Tuple) halide.Expr { return a.Elem(0).Mul(a.Elem(0)).Add(a.Elem(1).Mul(a.Elem(1))) }
		mandelbrot := halide.NewFunc("mandelbrot")
		initial := halide.NewTuple(x.Div(float32(15)).Sub(float32(2.5)), y.Div(float32(6)).Sub(float32(2)))
		tv := t3v("t")
		mandelbrot.Define(x, y, tv).Is(halide.NewTuple(float32(0), float32(0)))
		r := halide.NewRDom("r", halide.Range(1, 12))
		current := mandelbrot.AtTuple(x, y, r.X().Sub(1))
		mandelbrot.Define(x, y, r.X()).Is(add(mul(current, current), initial))
		escapeCondition := magSq(mandelbrot.AtTuple(x, y, r.X())).Lt(float32(16))
		firstEscape := halide.Argmin(escapeCondition)
		escape := halide.NewFunc("escape")
		escape.Define(x, y).Is(firstEscape.Elem(0))
		out := halide.NewBuffer[int32](61, 25)
		t3Realize(t, escape, out)
		t3Check2(t, "escape", out, 0, 61, 0, 25, func(i, j int) int32 {
			// x / 15.0f: an int Var divided by a float is a float
			// division of float32(x).
			ir, ii := float32(i)/15-2.5, float32(j)/6-2
			re, im := float32(0), float32(0)
			for k := 1; k <= 12; k++ {
				re, im = re*re-im*im+ir, re*im+im*re+ii
				if !(re*re+im*im < 16) {
					return int32(k) // the first false: argmin of a bool
				}
			}
			return 0 // never false: Halide's argmin keeps its initial 0
		})
	})
}

// lesson_14_types.cpp: Halide's type rules, asserted on this package's
// Types. There is no Handle type (Go Exprs hold no pointers): its
// assertions are left out. Type.with_bits becomes a Type literal with
// the bits changed, type_of<T> the element type of a Buffer[T], and
// evaluate<T> realizing a one-point Func (t3Eval).
func TestTutorialPortedLesson14(t *testing.T) {
	x := t3v("x")
	valid := []halide.Type{halide.UInt8, halide.UInt16, halide.UInt32, halide.UInt64, halide.Int8, halide.Int16, halide.Int32, halide.Int64, halide.Float32, halide.Float64}
	withBits := func(ty halide.Type, bits int) halide.Type { ty.Bits = uint8(bits); return ty }
	t.Run("types", func(t *testing.T) {
		if halide.UInt8.Bits != 8 || !halide.Int8.IsInt() {
			t.Fatal("UInt(8).bits() or Int(8).is_int()")
		}
		if ty := withBits(halide.UInt8, 2*int(halide.UInt8.Bits)); ty != halide.UInt16 {
			t.Fatalf("UInt(8).with_bits(16) = %v", ty)
		}
		if ty := f3Type[float32](); ty != halide.Float32 {
			t.Fatalf("type_of<float>() = %v", ty)
		}
		for _, c := range []struct {
			what string
			got  halide.Type
			want halide.Type
		}{
			{"Expr(x)", x.Type(), halide.Int32},
			{"sin(x)", halide.Sin(x).Type(), halide.Float32},
			{"cast(UInt(8), x)", halide.Cast(halide.UInt8, x).Type(), halide.UInt8},
		} {
			if c.got != c.want {
				t.Fatalf("%s has type %v, want %v", c.what, c.got, c.want)
			}
		}
		f1 := halide.NewFunc("f1")
		f1.Define(x).Is(halide.Cast(halide.UInt8, x))
		if ts := f1.Types(); len(ts) != 1 || ts[0] != halide.UInt8 {
			t.Fatalf("f1.types() = %v", ts)
		}
		f2 := halide.NewFunc("f2")
		f2.Define(x).Is(halide.NewTuple(x, halide.Sin(x)))
		if ts := f2.Types(); len(ts) != 2 || ts[0] != halide.Int32 || ts[1] != halide.Float32 {
			t.Fatalf("f2.types() = %v", ts)
		}
	})
	t.Run("type_coercion", func(t *testing.T) {
		u8, u16, u32 := halide.Cast(halide.UInt8, x), halide.Cast(halide.UInt16, x), halide.Cast(halide.UInt32, x)
		s8, s16, s32, s64 := halide.Cast(halide.Int8, x), halide.Cast(halide.Int16, x), halide.Cast(halide.Int32, x), halide.Cast(halide.Int64, x)
		f32, f64 := halide.Cast(halide.Float32, x), halide.Cast(halide.Float64, x)
		for _, ty := range valid {
			e := halide.Cast(ty, x)
			if got := e.Add(e).Type(); got != ty {
				t.Fatalf("(e + e) of %v has type %v", ty, got)
			}
		}
		for _, c := range []struct {
			what string
			e    halide.Expr
			want halide.Type
		}{
			// Rule 3: a float and an int: the float.
			{"u8 + f32", u8.Add(f32), halide.Float32},
			{"f32 + s64", f32.Add(s64), halide.Float32},
			{"u16 + f64", u16.Add(f64), halide.Float64},
			{"f64 + s32", f64.Add(s32), halide.Float64},
			// Rule 4: two floats: the wider.
			{"f64 + f32", f64.Add(f32), halide.Float64},
			// Rule 5: an int constant takes the other operand's type.
			// "3 + s16" is E(3).Add(s16): E of a Go int is such a constant.
			{"u32 + 3", u32.Add(3), halide.UInt32},
			{"3 + s16", halide.E(3).Add(s16), halide.Int16},
			// Rule 6: both unsigned or both signed: the wider.
			{"u32 + u8", u32.Add(u8), halide.UInt32},
			{"s16 + s64", s16.Add(s64), halide.Int64},
			// Rule 7: signed and unsigned: signed, of the greater width.
			{"u8 + s32", u8.Add(s32), halide.Int32},
			{"u32 + s8", u32.Add(s8), halide.Int32},
			{"u32 + s32", u32.Add(s32), halide.Int32},
		} {
			if err := c.e.Err(); err != nil {
				t.Fatalf("%s: %v", c.what, err)
			}
			if got := c.e.Type(); got != c.want {
				t.Fatalf("%s has type %v, want %v", c.what, got, c.want)
			}
		}
		// Rule 5's overflow: "Expr bad = u8 + 257" is an error.
		var he *halide.Error
		if err := u8.Add(257).Err(); !errors.As(err, &he) {
			t.Fatalf("u8 + 257: %v, want a typed error", err)
		}
		// Rule 7 zero-extends the unsigned operand: u8 255 + s32 0 is
		// 255, not -1.
		if v := t3Eval[int32](t, halide.Cast(halide.UInt8, 255).Add(halide.Cast(halide.Int32, 0))); v != 255 {
			t.Fatalf("uint8(255) + int32(0) = %d", v)
		}
		// Casts: widening an unsigned int zero-extends, widening a
		// signed int sign-extends, then it is reinterpreted.
		if v := t3Eval[int32](t, halide.Cast(halide.Int32, halide.Cast(halide.UInt8, 255))); v != 255 {
			t.Fatalf("int32(uint8(255)) = %d", v)
		}
		if v := t3Eval[uint16](t, halide.Cast(halide.UInt16, halide.Cast(halide.Int8, -1))); v != 65535 {
			t.Fatalf("uint16(int8(-1)) = %d", v)
		}
	})
	t.Run("generic_average", func(t *testing.T) {
		average := func(a, b halide.Expr) halide.Expr {
			if a.Type() != b.Type() {
				t.Fatalf("average of %v and %v", a.Type(), b.Type())
			}
			if a.Type().IsFloat() {
				return a.Add(b).Div(2)
			}
			narrow := a.Type()
			wider := withBits(narrow, 2*int(narrow.Bits))
			a, b = halide.Cast(wider, a), halide.Cast(wider, b)
			return halide.Cast(narrow, a.Add(b).Div(2))
		}
		for _, c := range []struct {
			e    halide.Expr
			want halide.Type
		}{
			{average(halide.Cast(halide.Float32, x), halide.E(float32(3))), halide.Float32},
			{average(x.Expr, halide.E(3)), halide.Int32},
			{average(halide.Cast(halide.UInt8, x), halide.Cast(halide.UInt8, 3)), halide.UInt8},
		} {
			if got := c.e.Type(); got != c.want {
				t.Fatalf("average has type %v, want %v", got, c.want)
			}
		}
		// And its values: the uint8 average does not overflow.
		f := halide.NewFunc("avg")
		f.Define(x).Is(average(halide.Cast(halide.UInt8, x), halide.Cast(halide.UInt8, halide.E(255).Sub(x))))
		out := halide.NewBuffer[uint8](256)
		t3Realize(t, f, out)
		t3Check1(t, "avg", out, 0, 256, func(i int) uint8 { return uint8((i + 255 - i) / 2) })
	})
}

// lesson_16_rgb_generate.cpp (with lesson_16_rgb_run.cpp's checks): the
// Brighten generator becomes a Go function per layout (its
// GeneratorParam), run on planar buffers (NewBuffer) and interleaved
// ones (NewInterleavedBuffer, Halide's Buffer::make_interleaved).
// Dimension has no set_stride: the interleaved layout's stride
// constraints (dim(0) stride 3, dim(2) stride 1) are not declared, only
// its bounds on c; Halide's default constraint that dim(0) has stride 1
// does not exist either, so every layout here is what the lesson's
// "either" is, and its schedule decides only the loop nest.
func TestTutorialPortedLesson16(t *testing.T) {
	const W, H = 37, 11
	x, y, c := t3v("x"), t3v("y"), t3v("c")
	brighten := func(layout string) (*halide.Func, *halide.ImageParam, *halide.Param[uint8]) {
		input := halide.NewImageParam("input", halide.UInt8, 3)
		offset := halide.NewParam[uint8]("offset")
		brighter := halide.NewFunc("brighter")
		brighter.Define(x, y, c).Is(input.At(x, y, c).Add(offset.Expr()))
		brighter.Vectorize(x, 16)
		switch layout {
		case "planar":
		case "interleaved":
			input.Dim(2).SetBounds(0, 3)
			brighter.Dim(2).SetBounds(0, 3)
			brighter.Reorder(c, x, y).Unroll(c)
		case "either":
		case "specialized":
			inputIsPlanar := input.Dim(0).Stride().Eq(1)
			inputIsInterleaved := input.Dim(0).Stride().Eq(3).And(input.Dim(2).Stride().Eq(1)).And(input.Dim(2).Extent().Eq(3))
			outputIsPlanar := brighter.Dim(0).Stride().Eq(1)
			outputIsInterleaved := brighter.Dim(0).Stride().Eq(3).And(brighter.Dim(2).Stride().Eq(1)).And(brighter.Dim(2).Extent().Eq(3))
			brighter.Specialize(inputIsPlanar.And(outputIsPlanar))
			brighter.Specialize(inputIsInterleaved.And(outputIsInterleaved)).Reorder(c, x, y).Unroll(c)
		}
		return brighter, input, offset
	}
	planar := func() *halide.Buffer[uint8] { return halide.NewBuffer[uint8](W, H, 3) }
	interleaved := func() *halide.Buffer[uint8] { return halide.NewInterleavedBuffer[uint8](W, H, 3) }
	for _, tc := range []struct {
		layout  string
		in, out func() *halide.Buffer[uint8]
	}{
		{"planar", planar, planar},
		{"interleaved", interleaved, interleaved},
		{"either", planar, planar},
		{"either", interleaved, interleaved},
		{"either", planar, interleaved},
		{"specialized", planar, planar},
		{"specialized", interleaved, interleaved},
		{"specialized", interleaved, planar}, // neither case: the unspecialized schedule
	} {
		name := fmt.Sprintf("%s/%s_to_%s", tc.layout, layoutName(tc.in()), layoutName(tc.out()))
		t.Run(name, func(t *testing.T) {
			brighter, input, offset := brighten(tc.layout)
			in := tc.in()
			rng := t3Rand[uint8](16, 255, W, H, 3)
			in.Fill(func(p []int) uint8 { return rng.Get(p...) })
			input.Set(in)
			offset.Set(37)
			out := tc.out()
			t3Realize(t, brighter, out)
			for ch := 0; ch < 3; ch++ {
				for j := 0; j < H; j++ {
					for i := 0; i < W; i++ {
						if got, want := out.Get(i, j, ch), in.Get(i, j, ch)+37; got != want {
							t.Fatalf("brighter(%d, %d, %d) = %d, want %d", i, j, ch, got, want)
						}
					}
				}
			}
		})
	}
}

func layoutName(b *halide.Buffer[uint8]) string {
	if b.Dim(0).Stride == 1 {
		return "planar"
	}
	return "interleaved"
}

// lesson_17_predicated_rdom.cpp
func TestTutorialPortedLesson17(t *testing.T) {
	x, y := t3v("x"), t3v("y")
	t.Run("circle", func(t *testing.T) {
		circle := halide.NewFunc("circle")
		circle.Define(x, y).Is(x.Add(y))
		r := halide.NewRDom("r", halide.Range(0, 7), halide.Range(0, 7))
		r.Where(r.X().Sub(3).Mul(r.X().Sub(3)).Add(r.Y().Sub(3).Mul(r.Y().Sub(3))).Le(10))
		circle.Define(r.X(), r.Y()).TimesEq(2)
		out := halide.NewBuffer[int32](7, 7)
		t3Realize(t, circle, out)
		t3Check2(t, "circle", out, 0, 7, 0, 7, func(i, j int) int32 {
			if (i-3)*(i-3)+(j-3)*(j-3) <= 10 {
				return int32(2 * (i + j))
			}
			return int32(i + j)
		})
	})
	t.Run("triangle", func(t *testing.T) {
		triangle := halide.NewFunc("triangle")
		triangle.Define(x, y).Is(x.Add(y))
		r := halide.NewRDom("r", halide.Range(0, 8), halide.Range(0, 10))
		r.Where(r.X().Add(r.Y()).Gt(5))
		r.Where(r.Y().Mul(3).Sub(r.X().Mul(2)).Lt(15))
		r.Where(r.X().Mul(4).Sub(r.Y()).Lt(20))
		triangle.Define(r.X(), r.Y()).TimesEq(2)
		out := halide.NewBuffer[int32](10, 10)
		t3Realize(t, triangle, out)
		t3Check2(t, "triangle", out, 0, 10, 0, 10, func(i, j int) int32 {
			if i < 8 && i+j > 5 && 3*j-2*i < 15 && 4*i-j < 20 {
				return int32(2 * (i + j))
			}
			return int32(i + j)
		})
	})
	t.Run("func_in_predicate", func(t *testing.T) {
		f, g := halide.NewFunc("f"), halide.NewFunc("g")
		f.Define(x, y).Is(x.Mul(2).Add(y))
		g.Define(x, y).Is(x.Add(y))
		r1 := halide.NewRDom("r1", halide.Range(0, 5), halide.Range(0, 5))
		r1.Where(f.At(r1.X(), r1.Y()).Ge(4))
		r1.Where(f.At(r1.X(), r1.Y()).Le(7))
		f.Define(r1.X(), r1.Y()).DivEq(10)
		f.ComputeRoot()
		r2 := halide.NewRDom("r2", halide.Range(1, 3), halide.Range(1, 3))
		r2.Where(f.At(r2.X(), r2.Y()).Lt(1))
		g.Define(r2.X(), r2.Y()).PlusEq(17)
		out := halide.NewBuffer[int32](5, 5)
		t3Realize(t, g, out)
		var cf [5][5]int
		for j := 0; j < 5; j++ {
			for i := 0; i < 5; i++ {
				cf[j][i] = 2*i + j
				if cf[j][i] >= 4 && cf[j][i] <= 7 {
					cf[j][i] /= 10
				}
			}
		}
		t3Check2(t, "g", out, 0, 5, 0, 5, func(i, j int) int32 {
			if i >= 1 && i < 4 && j >= 1 && j < 4 && cf[j][i] < 1 {
				return int32(i + j + 17)
			}
			return int32(i + j)
		})
	})
}

// lesson_18_parallel_associative_reductions.cpp: the 8x8 input is random,
// as in the lesson.
func TestTutorialPortedLesson18(t *testing.T) {
	x, y, i, u, v := t3v("x"), t3v("y"), t3v("i"), t3v("u"), t3v("v")
	input := halide.NewBuffer[uint8](8, 8)
	rng := t3Rand[uint8](18, 255, 8, 8)
	input.Fill(func(p []int) uint8 { return rng.Get(p...) })
	var want [8]int32
	for yy := 0; yy < 8; yy++ {
		for xx := 0; xx < 8; xx++ {
			want[input.Get(xx, yy)/32]++
		}
	}
	check := func(t *testing.T, f *halide.Func) {
		t.Helper()
		out := halide.NewBuffer[int32](8)
		t3Realize(t, f, out)
		t3Check1(t, f.Name(), out, 0, 8, func(k int) int32 { return want[k] })
	}
	t.Run("serial", func(t *testing.T) {
		histogram := halide.NewFunc("hist_serial")
		histogram.Define(i).Is(0)
		r := halide.NewRDom("r", halide.Range(0, 8), halide.Range(0, 8))
		histogram.Define(input.At(r.X(), r.Y()).Div(32)).PlusEq(1)
		histogram.Vectorize(i, 8)
		check(t, histogram)
	})
	t.Run("parallel_manual", func(t *testing.T) {
		intermediate := halide.NewFunc("intm_par_manual")
		intermediate.Define(i, y).Is(0)
		rx := halide.NewRDom("rx", halide.Range(0, 8))
		intermediate.Define(input.At(rx.X(), y).Div(32), y).PlusEq(1)
		histogram := halide.NewFunc("merge_par_manual")
		histogram.Define(i).Is(0)
		ry := halide.NewRDom("ry", halide.Range(0, 8))
		histogram.Define(i).PlusEq(intermediate.At(i, ry.X()))
		intermediate.ComputeRoot().Update(0).Parallel(y)
		intermediate.Vectorize(i, 8)
		histogram.Vectorize(i, 8)
		check(t, histogram)
	})
	t.Run("rfactor_parallel", func(t *testing.T) {
		histogram := halide.NewFunc("hist_rfactor_par")
		histogram.Define(x).Is(0)
		r := halide.NewRDom("r", halide.Range(0, 8), halide.Range(0, 8))
		histogram.Define(input.At(r.X(), r.Y()).Div(32)).PlusEq(1)
		intermediate := histogram.Update(0).RFactor(halide.RFactorPair{R: r.Y(), V: y})
		intermediate.ComputeRoot().Update(0).Parallel(y)
		intermediate.Vectorize(x, 8)
		histogram.Vectorize(x, 8)
		check(t, histogram)
	})
	t.Run("rfactor_vectorize", func(t *testing.T) {
		histogram := halide.NewFunc("hist_rfactor_vec")
		histogram.Define(x).Is(0)
		r := halide.NewRDom("r", halide.Range(0, 8), halide.Range(0, 8))
		histogram.Define(input.At(r.X(), r.Y()).Div(32)).PlusEq(1)
		intermediate := histogram.Update(0).RFactor(halide.RFactorPair{R: r.X(), V: u})
		intermediate.ComputeRoot().Update(0).Vectorize(u, 8)
		intermediate.Vectorize(x, 8)
		histogram.Vectorize(x, 8)
		check(t, histogram)
	})
	t.Run("rfactor_tile", func(t *testing.T) {
		histogram := halide.NewFunc("hist_rfactor_tile")
		histogram.Define(x).Is(0)
		r := halide.NewRDom("r", halide.Range(0, 8), halide.Range(0, 8))
		histogram.Define(input.At(r.X(), r.Y()).Div(32)).PlusEq(1)
		rxOuter, rxInner := halide.NewRVar("rx_outer"), halide.NewRVar("rx_inner")
		ryOuter, ryInner := halide.NewRVar("ry_outer"), halide.NewRVar("ry_inner")
		histogram.Update(0).
			Split(r.X(), rxOuter, rxInner, 4).
			Split(r.Y(), ryOuter, ryInner, 4)
		intermediate := histogram.Update(0).RFactor(halide.RFactorPair{R: rxOuter, V: u}, halide.RFactorPair{R: ryOuter, V: v})
		intermediate.ComputeRoot().Update(0).Parallel(u).Parallel(v)
		intermediate.Update(0).Reorder(rxInner, ryInner, u, v)
		intermediate.Vectorize(x, 8)
		histogram.Vectorize(x, 8)
		check(t, histogram)
	})
}

// lesson_19_wrapper_funcs.cpp: the GPU section runs on the emulator
// (instead of OpenCL or Metal); img.in(blur)'s implicit _0, _1 are
// ImplicitVar(0), ImplicitVar(1).
func TestTutorialPortedLesson19(t *testing.T) {
	x, y, xo, yo, xi, yi := t3v("x"), t3v("y"), t3v("xo"), t3v("yo"), t3v("xi"), t3v("yi")
	fgh := func(suffix string, hArgs func(x, y halide.Var) (halide.Expr, halide.Expr)) (f, g, h *halide.Func) {
		f, g, h = halide.NewFunc("f_"+suffix), halide.NewFunc("g_"+suffix), halide.NewFunc("h_"+suffix)
		f.Define(x, y).Is(x.Add(y))
		g.Define(x, y).Is(f.At(x, y).Mul(2))
		hx, hy := hArgs(x, y)
		h.Define(x, y).Is(halide.E(3).Add(g.At(x, y)).Sub(f.At(hx, hy)))
		return f, g, h
	}
	same := func(x, y halide.Var) (halide.Expr, halide.Expr) { return x.Expr, y.Expr }
	hRef := func(i, j int) int32 { return int32(3 + 2*(i+j) - (i + j)) }
	t.Run("local", func(t *testing.T) {
		f, g := halide.NewFunc("f_local"), halide.NewFunc("g_local")
		f.Define(x, y).Is(x.Add(y))
		g.Define(x, y).Is(f.At(x, y).Mul(2).Add(3))
		f.ComputeRoot()
		fInG := f.In(g)
		fInG.ComputeRoot()
		fInG.TraceStores()
		trace := map[string]int{}
		out := halide.NewBuffer[int32](5, 5)
		if err := t3Run(t, t3Pipe(trace, g), out); err != nil {
			t.Fatal(err)
		}
		t3Check2(t, "g_local", out, 0, 5, 0, 5, func(i, j int) int32 { return int32(2*(i+j) + 3) })
		if n := trace[fInG.Name()]; n != 25 {
			t.Fatalf("the wrapper %s stored %d points, want 25 (%v)", fInG.Name(), n, trace)
		}
	})
	t.Run("local_by_hand", func(t *testing.T) {
		fInG, f, g := halide.NewFunc("f_in_g"), halide.NewFunc("f"), halide.NewFunc("g")
		f.Define(x, y).Is(x.Add(y))
		fInG.Define(x, y).Is(f.At(x, y))
		g.Define(x, y).Is(fInG.At(x, y).Mul(2).Add(3))
		f.ComputeRoot()
		fInG.ComputeRoot()
		g.ComputeRoot()
		out := halide.NewBuffer[int32](5, 5)
		t3Realize(t, g, out)
		t3Check2(t, "g", out, 0, 5, 0, 5, func(i, j int) int32 { return int32(2*(i+j) + 3) })
	})
	t.Run("global", func(t *testing.T) {
		f, g, h := fgh("global", same)
		f.ComputeRoot()
		g.ComputeRoot()
		h.ComputeRoot()
		f.In().ComputeRoot()
		out := halide.NewBuffer[int32](5, 5)
		t3Realize(t, h, out)
		t3Check2(t, "h_global", out, 0, 5, 0, 5, hRef)
	})
	t.Run("unique", func(t *testing.T) {
		f, g, h := fgh("unique", same)
		f.ComputeRoot()
		g.ComputeRoot()
		h.ComputeRoot()
		f.In(g).ComputeAt(g, y)
		f.In(h).ComputeAt(h, y)
		out := halide.NewBuffer[int32](5, 5)
		t3Realize(t, h, out)
		t3Check2(t, "h_unique", out, 0, 5, 0, 5, hRef)
	})
	t.Run("sched", func(t *testing.T) {
		f, g, h := fgh("sched", func(x, y halide.Var) (halide.Expr, halide.Expr) { return x.Add(93), y.Sub(87) })
		g.ComputeRoot()
		h.ComputeRoot()
		f.In(g).ComputeAt(g, y)
		f.In(h).ComputeAt(h, y)
		f.In(g).Vectorize(x, 4)
		f.In(h).Split(x, xo, xi, 2).Reorder(xo, xi)
		out := halide.NewBuffer[int32](8, 8)
		t3Realize(t, h, out)
		t3Check2(t, "h_sched", out, 0, 8, 0, 8, func(i, j int) int32 { return int32(3 + 2*(i+j) - (i + 93 + j - 87)) })
	})
	t.Run("transpose", func(t *testing.T) {
		f, g := halide.NewFunc("f_transpose"), halide.NewFunc("g_transpose")
		f.Define(x, y).Is(halide.Sin(x.Add(y).Mul(halide.Sqrt(y)).Div(float32(10))))
		f.ComputeRoot()
		g.Define(x, y).Is(f.At(y, x))
		fTile := f.In(g)
		g.Tile(x, y, xo, yo, xi, yi, 4, 4).
			Vectorize(xi).
			Unroll(yi)
		fTile.ComputeAt(g, xo).
			ReorderStorage(y, x).
			Vectorize(x).
			Unroll(y)
		out := halide.NewBuffer[float32](16, 16)
		t3Realize(t, g, out)
		// 1e-5: a float32 sine of values up to 3.2 computed from a
		// float32 square root, against the same in Go's float64 math
		// rounded at each step.
		ttNear2(t, "g_transpose", out, 16, 16, 1e-5, func(i, j int) float64 {
			xx, yy := j, i // g(x, y) = f(y, x)
			return ttSinf(float32(xx+yy) * float32(math.Sqrt(float64(yy))) / 10)
		})
	})
	t.Run("gpu", func(t *testing.T) {
		img := halide.NewImageParam("img", halide.Int32, 2)
		blur := halide.NewFunc("blur")
		blur.Define(x, y).Is(img.At(x.Sub(1), y.Sub(1)).Add(img.At(x, y.Sub(1))).Add(img.At(x.Add(1), y.Sub(1))).
			Add(img.At(x.Sub(1), y)).Add(img.At(x, y)).Add(img.At(x.Add(1), y)).
			Add(img.At(x.Sub(1), y.Add(1))).Add(img.At(x, y.Add(1))).Add(img.At(x.Add(1), y.Add(1))))
		blur.ComputeRoot().GPUTile(x, y, xo, yo, xi, yi, 8, 8)
		img.In(blur).ComputeAt(blur, xo).GPUThreads(halide.ImplicitVar(0), halide.ImplicitVar(1))
		l, err := t3Pipe(nil, blur).Lower()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := l.CUDA(); err != nil {
			t.Fatal(err)
		}
		input := halide.NewBuffer[int32](258, 258).SetMin(-1, -1)
		input.Fill(func(p []int) int32 { return int32(p[0]*17 + p[1]%4) }) // C's %, as the lesson's loop
		img.Set(input)
		out := halide.NewBuffer[int32](256, 256)
		if err := t3Run(t, t3Pipe(nil, blur).WithTarget(halide.Emulator), out); err != nil {
			t.Fatal(err)
		}
		t3Check2(t, "blur", out, 0, 256, 0, 256, func(i, j int) int32 {
			s := int32(0)
			for dy := -1; dy <= 1; dy++ {
				for dx := -1; dx <= 1; dx++ {
					s += input.Get(i+dx, j+dy)
				}
			}
			return s
		})
	})
	t.Run("group", func(t *testing.T) {
		f, g := halide.NewFunc("f_group"), halide.NewFunc("g_group")
		f.Define(x, y).Is(halide.Sin(x.Sub(y)))
		r := halide.NewRDom("r", halide.Range(1, 7))
		f.Define(r.X(), y).Is(f.At(r.X(), y).Add(f.At(r.X().Sub(1), y)).Div(float32(2)))
		f.Define(halide.E(7).Sub(r.X()), y).Is(f.At(halide.E(7).Sub(r.X()), y).Add(f.At(halide.E(8).Sub(r.X()), y)).Div(float32(2)))
		g.Define(x, y).Is(f.At(x.Add(y).Mod(8), x.Sub(y).Mod(8)))
		f.In(g).ComputeRoot()
		f.ComputeAt(f.In(g), y)
		f.Vectorize(x, 4)
		f.In(g).Vectorize(x, 4)
		out := halide.NewBuffer[float32](8, 8)
		t3Realize(t, g, out)
		row := func(yy int) [8]float32 {
			var a [8]float32
			for k := range a {
				a[k] = float32(ttSinf(float32(k - yy)))
			}
			for k := 1; k < 8; k++ {
				a[k] = (a[k] + a[k-1]) / 2
			}
			for k := 1; k < 8; k++ {
				a[7-k] = (a[7-k] + a[8-k]) / 2
			}
			return a
		}
		mod8 := func(v int) int { return ((v % 8) + 8) % 8 } // Halide's % rounds down
		// 1e-6: float32 sines averaged in float32 the same way.
		ttNear2(t, "g_group", out, 8, 8, 1e-6, func(i, j int) float64 { return float64(row(mod8(i - j))[mod8(i+j)]) })
	})
}

// lesson_20_cloning_funcs.cpp: the last section does not realize
// anything in the lesson; here it realizes g and h as two outputs of one
// Pipeline.
func TestTutorialPortedLesson20(t *testing.T) {
	x, y := t3v("x"), t3v("y")
	t.Run("single", func(t *testing.T) {
		f, g, h := halide.NewFunc("f_single"), halide.NewFunc("g_single"), halide.NewFunc("h_single")
		f.Define(x, y).Is(x.Add(y))
		g.Define(x, y).Is(f.At(x, y).Mul(2).Add(3))
		h.Define(x, y).Is(f.At(x, y).Add(g.At(x, y)).Add(10))
		f.ComputeRoot()
		g.ComputeRoot()
		h.ComputeRoot()
		fCloneInG := f.CloneIn(g)
		fCloneInG.ComputeRoot()
		// The clone and f are each computed once, over h's 5x5.
		f.TraceStores()
		fCloneInG.TraceStores()
		trace := map[string]int{}
		out := halide.NewBuffer[int32](5, 5)
		if err := t3Run(t, t3Pipe(trace, h), out); err != nil {
			t.Fatal(err)
		}
		t3Check2(t, "h_single", out, 0, 5, 0, 5, func(i, j int) int32 { return int32(i + j + 2*(i+j) + 3 + 10) })
		if trace[f.Name()] != 25 || trace[fCloneInG.Name()] != 25 {
			t.Fatalf("stores %v, want 25 of %s and of its clone %s", trace, f.Name(), fCloneInG.Name())
		}
	})
	t.Run("single_by_hand", func(t *testing.T) {
		fCloneInG, f, g, h := halide.NewFunc("f_clone_in_g"), halide.NewFunc("f"), halide.NewFunc("g"), halide.NewFunc("h")
		f.Define(x, y).Is(x.Add(y))
		fCloneInG.Define(x, y).Is(x.Add(y))
		g.Define(x, y).Is(fCloneInG.At(x, y).Mul(2).Add(3))
		h.Define(x, y).Is(f.At(x, y).Add(g.At(x, y)).Add(10))
		f.ComputeRoot()
		fCloneInG.ComputeRoot()
		g.ComputeRoot()
		h.ComputeRoot()
		out := halide.NewBuffer[int32](5, 5)
		t3Realize(t, h, out)
		t3Check2(t, "h", out, 0, 5, 0, 5, func(i, j int) int32 { return int32(i + j + 2*(i+j) + 3 + 10) })
	})
	t.Run("group", func(t *testing.T) {
		f, g, h, out := halide.NewFunc("f_group"), halide.NewFunc("g_group"), halide.NewFunc("h_group"), halide.NewFunc("out_group")
		f.Define(x, y).Is(x.Add(y))
		g.Define(x, y).Is(f.At(x, y).Mul(2))
		h.Define(x, y).Is(f.At(x, y).Add(10))
		out.Define(x, y).Is(f.At(x, y).Add(g.At(x, y)).Add(h.At(x, y)))
		f.ComputeRoot()
		g.ComputeRoot()
		h.ComputeRoot()
		out.ComputeRoot()
		f.CloneIn(g, h).ComputeRoot()
		buf := halide.NewBuffer[int32](5, 5)
		t3Realize(t, out, buf)
		t3Check2(t, "out_group", buf, 0, 5, 0, 5, func(i, j int) int32 { return int32(4*(i+j) + 10) })
	})
	t.Run("different_regions", func(t *testing.T) {
		// g needs f(0) and h needs f(99): the clone computes one point
		// for g, f one point for h, instead of f over [0, 99].
		f, g, h := halide.NewFunc("f"), halide.NewFunc("g"), halide.NewFunc("h")
		f.Define(x).Is(x)
		g.Define(x).Is(f.At(0).Mul(2))
		h.Define(x).Is(f.At(99).Add(10))
		f.ComputeRoot()
		clone := f.CloneIn(g)
		clone.ComputeRoot()
		f.TraceStores()
		clone.TraceStores()
		trace := map[string]int{}
		gb, hb := halide.NewBuffer[int32](4), halide.NewBuffer[int32](4)
		if err := t3Run(t, t3Pipe(trace, g, h), gb, hb); err != nil {
			t.Fatal(err)
		}
		t3Check1(t, "g", gb, 0, 4, func(int) int32 { return 0 })
		t3Check1(t, "h", hb, 0, 4, func(int) int32 { return 109 })
		if trace[f.Name()] != 1 || trace[clone.Name()] != 1 {
			t.Fatalf("stores %v, want one of f and one of its clone", trace)
		}
	})
}

// lesson_22_jit_performance.cpp: values only. Its ways of running the
// transpose (a new Pipeline per Realize, one Pipeline realized again,
// Compile before Realize, a new output buffer per Realize or one re-used)
// are checked to give the transpose; the callable, std::function,
// invalidate_cache and Module sections have no counterpart (no Callable,
// JIT cache control or AOT Module API) and are left out.
func TestTutorialPortedLesson22(t *testing.T) {
	makePipeline := func() *halide.Pipeline {
		input, output := halide.NewFunc("input"), halide.NewFunc("output")
		x, y := t3v("x"), t3v("y")
		input.Define(x, y).Is(halide.Cast(halide.UInt16, x.Add(y)))
		input.ComputeRoot()
		output.Define(x, y).Is(input.At(y, x))
		xi, yi := t3v("xi"), t3v("yi")
		// tile(x, y, xi, yi, 8, 8): the outer loops keep the names x, y.
		output.Tile(x, y, x, y, xi, yi, 8, 8).Vectorize(xi).Unroll(yi)
		blockTranspose := input.In(output).ComputeAt(output, x).Vectorize(x).Unroll(y)
		blockTranspose.In(output).ReorderStorage(y, x).ComputeAt(output, x).Vectorize(x).Unroll(y)
		return t3Pipe(nil, output)
	}
	const N = 1024 // the lesson's size
	check := func(t *testing.T, b *halide.Buffer[uint16]) {
		t.Helper()
		t3Check2(t, "output", b, 0, N, 0, N, func(i, j int) uint16 { return uint16(i + j) })
	}
	t.Run("from_scratch", func(t *testing.T) {
		for k := 0; k < 2; k++ {
			result := halide.NewBuffer[uint16](N, N)
			if err := t3Run(t, makePipeline(), result); err != nil {
				t.Fatal(err)
			}
			check(t, result)
		}
	})
	t.Run("reuse_pipeline", func(t *testing.T) {
		p := makePipeline()
		for k := 0; k < 2; k++ {
			result := halide.NewBuffer[uint16](N, N)
			if err := t3Run(t, p, result); err != nil {
				t.Fatal(err)
			}
			check(t, result)
		}
	})
	t.Run("compile_before_realize", func(t *testing.T) {
		p := makePipeline()
		if err := p.Compile(); err != nil {
			t.Fatal(err)
		}
		result := halide.NewBuffer[uint16](N, N)
		for k := 0; k < 2; k++ { // the same buffer realized again
			if err := t3Run(t, p, result); err != nil {
				t.Fatal(err)
			}
			check(t, result)
		}
	})
}

/*
NOTES ON THE PORT

Fixed in halide/ (each with a focused test):

1. Argmin / Argmax of a bool Expr (lesson 13's Mandelbrot:
   argmin(escape_condition)) were refused: "type_mismatch: Func escape:
   Define: argmin of a bool expression". Halide orders false < true.
   reduction.go now reduces the bool as a UInt8 of 0 or 1 from bool's own
   end (true for argmin, false for argmax), so that where the condition
   never changes the result is Halide's coordinate 0, and gives the value
   back as a bool (TestArgminBool).

2. Buffers were always planar (NewBuffer's dense strides), so lesson 16's
   interleaved layout could not be run. NewInterleavedBuffer (Halide's
   Buffer::make_interleaved, buffer_interleaved.go) makes one; lowering
   already reads strides at run time, so the CPU and the emulator's
   kernels read and write it (TestNewInterleavedBuffer).

3. Lesson 14's rule 5 (an int constant takes the other operand's type)
   is for C++ ints only: match_types does not special-case constant
   Exprs. Here every constant Expr adapted, including one given a type by
   Cast: u8.Mul(Cast(Int32, 2)) was a uint8 that wrapped (200 * 2 = 144;
   Halide: int32 400), and u8.Add(Cast(Int32, 300)) was refused with
   "type_mismatch: +: the constant 300 does not fit in uint8, the type of
   the other operand of + (legal: a constant in [0, 255], or an explicit
   Cast of one side)", advice that did not work for Int32. Cast of a
   constant to its own type now keeps the type (an identity cast, folded
   when lowering); the package's own conversions use convert, which
   keeps the old behaviour. A Go number and E(v) still adapt, standing in
   for Halide's C++ int (TestCastConstantKeepsType).

Fixed since (nested sliding, lower/sliding_window.go): lesson 8's
   producer.store_root().compute_at(consumer, x) stored 40 points of
   producer for a 4x4 consumer, the lesson's 25 (the window slid along x
   but not y); root_x now checks the lesson's nest, 25 stores.

Missing API (closest equivalent used, as the file header says): print
   and print_when, trace_loads, Dimension.set_stride (and Halide's
   default stride-1 constraint on dimension 0), the Handle type,
   select with several conditions (nested Selects), realize({sizes})
   returning a new buffer, Callable / compile_to_module /
   invalidate_cache.
*/
