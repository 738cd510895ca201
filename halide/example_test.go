package halide_test

import (
	"fmt"
	"strings"

	"github.com/gohalide/gohalide/halide"
)

// Each example builds a tiny pipeline, applies one directive and prints the
// loop nest (before bounds inference), or the lines of the lowered
// statement the directive shows up in.

// printLines prints the lines of s that contain any of subs.
func printLines(s string, subs ...string) {
	for _, line := range strings.Split(s, "\n") {
		for _, sub := range subs {
			if strings.Contains(line, sub) {
				fmt.Println(strings.TrimSpace(line))
				break
			}
		}
	}
}

func ExampleFunc_Split() {
	x, xo, xi := halide.NewVar("x"), halide.NewVar("xo"), halide.NewVar("xi")
	in := halide.NewImageParam("in", halide.Float32, 1)
	f := halide.NewFunc("f")
	f.Define(x).Is(in.At(x).Mul(2))
	f.Split(x, xo, xi, 8)
	s, err := halide.NewPipeline(f).LoopNest()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(s)
	// Output:
	// produce f:
	//   for x.xo:
	//     for x.xi in [0, 7]:
	//       f(...) = ...
}

func ExampleStage_Split() {
	x := halide.NewVar("x")
	ro, ri := halide.NewRVar("ro"), halide.NewRVar("ri")
	in := halide.NewImageParam("in", halide.Float32, 2)
	r := halide.NewRDom("r", halide.Range(0, 16))
	f := halide.NewFunc("f")
	f.Define(x).Is(0.0)
	f.Define(x).PlusEq(in.At(x, r))
	// Split the RVar of the update into 4 x 4; the tail (none here) would be
	// guarded.
	f.Update(0).Split(r.X(), ro, ri, 4)
	s, err := halide.NewPipeline(f).LoopNest()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(s)
	// Output:
	// produce f:
	//   for x:
	//     f(...) = ...
	//   for x:
	//     for r$x.ro in [0, 3]:
	//       for r$x.ri in [0, 3]:
	//         f(...) = ...
}

func ExampleFunc_Fuse() {
	x, y, xy := halide.NewVar("x"), halide.NewVar("y"), halide.NewVar("xy")
	in := halide.NewImageParam("in", halide.Float32, 2)
	f := halide.NewFunc("f")
	f.Define(x, y).Is(in.At(x, y).Add(1))
	f.Fuse(x, y, xy)
	s, err := halide.NewPipeline(f).LoopNest()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(s)
	// Output:
	// produce f:
	//   for x.xy:
	//     f(...) = ...
}

func ExampleStage_Fuse() {
	x := halide.NewVar("x")
	in := halide.NewImageParam("in", halide.Int32, 2)
	r := halide.NewRDom("r", halide.Range(0, 4))
	rx, ro, ri := halide.NewRVar("rx"), halide.NewRVar("ro"), halide.NewRVar("ri")
	f := halide.NewFunc("f")
	f.Define(x).Is(0)
	f.Define(x).PlusEq(in.At(x, r))
	// x and r fused into one RVar loop (x fastest), split and run in
	// parallel tasks with atomic adds: tasks may add to one f(x).
	f.Update(0).Reorder(x, r).Fuse(x, r, rx).Atomic().Split(rx, ro, ri, 16).Parallel(ro)
	s, err := halide.NewPipeline(f).LoopNest()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(s)
	// Output:
	// produce f:
	//   for x:
	//     f(...) = ...
	//   parallel x.rx.ro:
	//     for x.rx.ri in [0, 15]:
	//       f(...) = ...
}

func ExampleFunc_Reorder() {
	x, y, c := halide.NewVar("x"), halide.NewVar("y"), halide.NewVar("c")
	in := halide.NewImageParam("in", halide.Float32, 3)
	f := halide.NewFunc("f")
	f.Define(x, y, c).Is(in.At(x, y, c).Add(1))
	// Innermost first: c innermost, then x, then y.
	f.Reorder(c, x, y)
	s, err := halide.NewPipeline(f).LoopNest()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(s)
	// Output:
	// produce f:
	//   for y:
	//     for x:
	//       for c:
	//         f(...) = ...
}

func ExampleFunc_Tile() {
	x, y := halide.NewVar("x"), halide.NewVar("y")
	xo, yo, xi, yi := halide.NewVar("xo"), halide.NewVar("yo"), halide.NewVar("xi"), halide.NewVar("yi")
	in := halide.NewImageParam("in", halide.Float32, 2)
	f := halide.NewFunc("f")
	f.Define(x, y).Is(in.At(x, y).Mul(3))
	f.Tile(x, y, xo, yo, xi, yi, 8, 4)
	s, err := halide.NewPipeline(f).LoopNest()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(s)
	// Output:
	// produce f:
	//   for y.yo:
	//     for x.xo:
	//       for y.yi in [0, 3]:
	//         for x.xi in [0, 7]:
	//           f(...) = ...
}

func ExampleFunc_Unroll() {
	x, y := halide.NewVar("x"), halide.NewVar("y")
	in := halide.NewImageParam("in", halide.Float32, 2)
	f := halide.NewFunc("f")
	f.Define(x, y).Is(in.At(x, y).Mul(3))
	// Split x by 4 and unroll the inner loop x_u.
	f.Unroll(x, 4)
	s, err := halide.NewPipeline(f).LoopNest()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(s)
	// Output:
	// produce f:
	//   for y:
	//     for x.x:
	//       unrolled x.x_u in [0, 3]:
	//         f(...) = ...
}

func ExampleFunc_Vectorize() {
	x, y := halide.NewVar("x"), halide.NewVar("y")
	in := halide.NewImageParam("in", halide.Float32, 2)
	f := halide.NewFunc("f")
	f.Define(x, y).Is(in.At(x, y).Mul(3))
	// Split x by 8 and vectorize the inner loop x_v.
	f.Vectorize(x, 8)
	s, err := halide.NewPipeline(f).LoopNest()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(s)
	// Output:
	// produce f:
	//   for y:
	//     for x.x:
	//       vectorized x.x_v in [0, 7]:
	//         f(...) = ...
}

func ExampleFunc_Parallel() {
	x, y := halide.NewVar("x"), halide.NewVar("y")
	in := halide.NewImageParam("in", halide.Float32, 2)
	f := halide.NewFunc("f")
	f.Define(x, y).Is(in.At(x, y).Mul(3))
	f.Parallel(y)
	s, err := halide.NewPipeline(f).LoopNest()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(s)
	// Output:
	// produce f:
	//   parallel y:
	//     for x:
	//       f(...) = ...
}

func ExampleFunc_ComputeRoot() {
	x, y := halide.NewVar("x"), halide.NewVar("y")
	in := halide.NewImageParam("in", halide.Float32, 2)
	g := halide.NewFunc("g")
	g.Define(x, y).Is(in.At(x, y).Mul(2))
	f := halide.NewFunc("f")
	f.Define(x, y).Is(g.At(x, y).Add(g.At(x.Add(1), y)))
	// All of g that f needs is computed before f starts.
	g.ComputeRoot()
	s, err := halide.NewPipeline(f).LoopNest()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(s)
	// Output:
	// produce g:
	//   for y:
	//     for x:
	//       g(...) = ...
	// consume g:
	//   produce f:
	//     for y:
	//       for x:
	//         f(...) = ...
}

func ExampleFunc_ComputeAt() {
	x, y := halide.NewVar("x"), halide.NewVar("y")
	in := halide.NewImageParam("in", halide.Float32, 2)
	g := halide.NewFunc("g")
	g.Define(x, y).Is(in.At(x, y).Mul(2))
	f := halide.NewFunc("f")
	f.Define(x, y).Is(g.At(x, y).Add(g.At(x, y.Add(1))))
	// One row of g (two rows, as f reads y and y+1) per row of f.
	g.ComputeAt(f, y)
	s, err := halide.NewPipeline(f).LoopNest()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(s)
	// Output:
	// produce f:
	//   for y:
	//     produce g:
	//       for y:
	//         for x:
	//           g(...) = ...
	//     consume g:
	//       for x:
	//         f(...) = ...
}

func ExampleFunc_ComputeInline() {
	x, y := halide.NewVar("x"), halide.NewVar("y")
	in := halide.NewImageParam("in", halide.Float32, 2)
	g := halide.NewFunc("g")
	g.Define(x, y).Is(in.At(x, y).Mul(2))
	f := halide.NewFunc("f")
	f.Define(x, y).Is(g.At(x, y).Add(g.At(x.Add(1), y)))
	// The default for a Func without updates: g has no loops of its own.
	g.ComputeInline()
	s, err := halide.NewPipeline(f).LoopNest()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(s)
	// Output:
	// produce f:
	//   for y:
	//     for x:
	//       f(...) = ...
}

func ExampleFunc_StoreAt() {
	x, y := halide.NewVar("x"), halide.NewVar("y")
	yo, yi := halide.NewVar("yo"), halide.NewVar("yi")
	in := halide.NewImageParam("in", halide.Float32, 2)
	g := halide.NewFunc("g")
	g.Define(x, y).Is(in.At(x, y).Mul(2))
	f := halide.NewFunc("f")
	f.Define(x, y).Is(g.At(x, y).Add(g.At(x, y.Add(1))))
	f.Split(y, yo, yi, 8)
	// Allocate g once per strip of 8 rows of f, and compute it row by row.
	g.ComputeAt(f, yi).StoreAt(f, yo)
	s, err := halide.NewPipeline(f).LoopNest()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(s)
	// Output:
	// produce f:
	//   for y.yo:
	//     store g:
	//       for y.yi in [0, 7]:
	//         produce g:
	//           for y:
	//             for x:
	//               g(...) = ...
	//         consume g:
	//           for x:
	//             f(...) = ...
}

func ExampleFunc_StoreIn() {
	x, y := halide.NewVar("x"), halide.NewVar("y")
	xo, xi := halide.NewVar("xo"), halide.NewVar("xi")
	in := halide.NewImageParam("in", halide.Float32, 2)
	g := halide.NewFunc("g")
	g.Define(x, y).Is(in.At(x, y).Mul(2))
	f := halide.NewFunc("f")
	f.Define(x, y).Is(g.At(x, y).Add(g.At(x.Add(1), y)))
	f.Split(x, xo, xi, 8)
	g.ComputeAt(f, xo).StoreIn(halide.Heap)
	// The memory type shows in the lowered statement, not the loop nest.
	l, err := halide.NewPipeline(f).Lower()
	if err != nil {
		fmt.Println(err)
		return
	}
	printLines(l.String(), "allocate", "free")
	// Output:
	// allocate g[float32 * 9 * 1] in Heap
	// free g
}

func ExampleFunc_Bound() {
	x, y := halide.NewVar("x"), halide.NewVar("y")
	in := halide.NewImageParam("in", halide.Float32, 2)
	g := halide.NewFunc("g")
	g.Define(x, y).Is(in.At(x, y).Mul(2))
	f := halide.NewFunc("f")
	f.Define(x, y).Is(g.At(x, y).Add(g.At(x.Add(1), y)))
	// Compute g over x in [0, 16) whatever f needs (checked at run time).
	g.ComputeAt(f, y).Bound(x, 0, 16)
	l, err := halide.NewPipeline(f).Lower()
	if err != nil {
		fmt.Println(err)
		return
	}
	printLines(l.String(), "for (g.s0.x", "the bound of g")
	// Output:
	// assert(((0 <= f.min.0) && (f.s0.x.max <= 14)), "the bound of g in x is too small: it must cover [min, max] =", f.min.0, (f.s0.x.max + 1))
	// for (g.s0.x, 0, 16) {
}

func ExampleFunc_Update() {
	x := halide.NewVar("x")
	xo, xi := halide.NewVar("xo"), halide.NewVar("xi")
	in := halide.NewImageParam("in", halide.Float32, 2)
	r := halide.NewRDom("r", halide.Range(0, 8))
	f := halide.NewFunc("f")
	f.Define(x).Is(0.0)
	f.Define(x).PlusEq(in.At(x, r))
	// Each stage has its own schedule: the pure stage is vectorized, the
	// update is split and its loops reordered so that r is outermost.
	f.Vectorize(x, 4)
	f.Update(0).Split(x, xo, xi, 4).Reorder(xi, xo, r.X())
	s, err := halide.NewPipeline(f).LoopNest()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(s)
	// Output:
	// produce f:
	//   for x.x:
	//     vectorized x.x_v in [0, 3]:
	//       f(...) = ...
	//   for r$x in [0, 7]:
	//     for x.xo:
	//       for x.xi in [0, 3]:
	//         f(...) = ...
}

func ExampleFunc_In() {
	x, y := halide.NewVar("x"), halide.NewVar("y")
	xo, xi := halide.NewVar("xo"), halide.NewVar("xi")
	in := halide.NewImageParam("in", halide.Float32, 2)
	g := halide.NewFunc("g")
	g.Define(x, y).Is(in.At(x, y).Mul(2))
	f := halide.NewFunc("f")
	f.Define(x, y).Is(g.At(x, y).Add(g.At(x.Add(1), y)))
	f.Split(x, xo, xi, 8)
	// g is computed at the root; f reads a copy of it made per tile.
	g.ComputeRoot()
	g.In(f).ComputeAt(f, xo)
	s, err := halide.NewPipeline(f).LoopNest()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(s)
	// Output:
	// produce g:
	//   for y:
	//     for x:
	//       g(...) = ...
	// consume g:
	//   produce f:
	//     for y:
	//       for x.xo:
	//         produce g_in_f:
	//           for y:
	//             for x:
	//               g_in_f(...) = ...
	//         consume g_in_f:
	//           for x.xi in [0, 7]:
	//             f(...) = ...
}

func ExampleStage_Atomic() {
	x := halide.NewVar("x")
	idx := halide.NewImageParam("idx", halide.Int32, 1)
	r := halide.NewRDom("r", halide.Range(0, idx.Dim(0).Extent()))
	hist := halide.NewFunc("hist")
	hist.Define(x).Is(0)
	hist.Define(halide.Clamped(idx.At(r), 0, 15)).PlusEq(1)
	// Iterations of r may hit the same bin: parallel needs atomic stores.
	hist.Update(0).Atomic().Parallel(r.X())
	s, err := halide.NewPipeline(hist).LoopNest()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(s)
	// Output:
	// produce hist:
	//   for x:
	//     hist(...) = ...
	//   parallel r$x:
	//     hist(...) = ...
}

func ExampleStage_AllowRaceConditions() {
	x := halide.NewVar("x")
	keep := halide.NewImageParam("keep", halide.Int32, 1)
	pos := halide.NewImageParam("pos", halide.Int32, 1)
	r := halide.NewRDom("r", halide.Range(0, keep.Dim(0).Extent()))
	// Stream compaction: the kept indexes r go to their ranks pos(r),
	// distinct for the kept ones. Lowering cannot prove that, so the
	// parallel RVar loop needs AllowRaceConditions (or Atomic).
	out := halide.NewFunc("out")
	out.Define(x).Is(-1)
	out.Define(halide.Clamp(pos.At(r), 0, 99)).Is(halide.Select(keep.At(r).Eq(1), r, halide.Undef(halide.Int32)))
	out.Update(0).AllowRaceConditions().Parallel(r.X(), 16)
	s, err := halide.NewPipeline(out).LoopNest()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(s)
	// Output:
	// produce out:
	//   for x:
	//     out(...) = ...
	//   parallel r$x.r$x:
	//     for r$x.r$x_par in [0, 15]:
	//       if (keep(out.s1.r$x) == 1):
	//         out(...) = ...
}

func ExampleFunc_AllowRaceConditions() {
	x := halide.NewVar("x")
	f := halide.NewFunc("f")
	f.Define(x).Is(x.Mul(2))
	// Halide's Func-level form marks the pure definition, whose loops are
	// over Vars and never race: it changes nothing there.
	f.AllowRaceConditions().Parallel(x)
	s, err := halide.NewPipeline(f).LoopNest()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(s)
	// Output:
	// produce f:
	//   parallel x:
	//     f(...) = ...
}

func ExampleSum() {
	x := halide.NewVar("x")
	in := halide.NewImageParam("in", halide.Float32, 1)
	r := halide.NewRDom("r", halide.Range(-1, 3))
	f := halide.NewFunc("f")
	// A 3-tap box filter: Sum makes an anonymous Func "sum" computed inside
	// f's innermost loop.
	f.Define(x).Is(halide.Sum(in.At(x.Add(r))))
	s, err := halide.NewPipeline(f).LoopNest()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(s)
	// Output:
	// produce f:
	//   for x:
	//     produce sum:
	//       for x:
	//         sum(...) = ...
	//       for x:
	//         for r$x in [-1, 1]:
	//           sum(...) = ...
	//     consume sum:
	//       f(...) = ...
}

func ExampleConstantExterior() {
	x, y := halide.NewVar("x"), halide.NewVar("y")
	in := halide.NewImageParam("in", halide.Float32, 2)
	// pad is in where in is defined and 0 outside.
	pad := halide.ConstantExterior(in, 0)
	f := halide.NewFunc("f")
	f.Define(x, y).Is(pad.At(x.Sub(1), y).Add(pad.At(x.Add(1), y)))
	pad.ComputeRoot()
	s, err := halide.NewPipeline(f).LoopNest()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(s)
	ib := halide.NewBuffer[float32](4, 1)
	ib.Fill(func(c []int) float32 { return float32(c[0] + 1) })
	in.Set(ib)
	out := halide.NewBuffer[float32](4, 1)
	if err := halide.NewPipeline(f).Realize(out); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(out.Data())
	// Output:
	// produce in_constant_exterior:
	//   for y:
	//     for x:
	//       in_constant_exterior(...) = ...
	// consume in_constant_exterior:
	//   produce f:
	//     for y:
	//       for x:
	//         f(...) = ...
	// [2 4 6 3]
}

func ExamplePipeline_Lower() {
	x, y := halide.NewVar("x"), halide.NewVar("y")
	xo, xi := halide.NewVar("xo"), halide.NewVar("xi")
	in := halide.NewImageParam("in", halide.Float32, 2)
	g := halide.NewFunc("g")
	g.Define(x, y).Is(in.At(x, y).Mul(2))
	f := halide.NewFunc("f")
	f.Define(x, y).Is(g.At(x, y).Add(g.At(x.Add(1), y)))
	f.Split(x, xo, xi, 4)
	// g is 5 floats per tile of f: a constant size, so it goes on the stack.
	g.ComputeAt(f, xo)
	l, err := halide.NewPipeline(f).Lower()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(l)
	// Output:
	// assert((4 <= f.extent.0), "f splits x by 4 with ShiftInwards, so the output's extent in dimension 0 must be at least 4; it is", f.extent.0)
	// assert((f.min.0 <= min(f.min.0, ((f.min.0 + f.extent.0) - 4))), "Output buffer f is accessed outside its bounds in dimension 0: accessed [min, max], buffer [min, max] =", min(f.min.0, ((f.min.0 + f.extent.0) - 4)), ((f.min.0 + f.extent.0) - 1), f.min.0, ((f.min.0 + f.extent.0) - 1))
	// assert(((in.min.0 <= min(f.min.0, ((f.min.0 + f.extent.0) - 4))) && ((f.min.0 + f.extent.0) <= ((in.min.0 + in.extent.0) - 1))), "Input buffer in is accessed outside its bounds in dimension 0: accessed [min, max], buffer [min, max] =", min(f.min.0, ((f.min.0 + f.extent.0) - 4)), (f.min.0 + f.extent.0), in.min.0, ((in.min.0 + in.extent.0) - 1))
	// assert(((in.min.1 <= f.min.1) && ((f.min.1 + f.extent.1) <= (in.min.1 + in.extent.1))), "Input buffer in is accessed outside its bounds in dimension 1: accessed [min, max], buffer [min, max] =", f.min.1, ((f.min.1 + f.extent.1) - 1), in.min.1, ((in.min.1 + in.extent.1) - 1))
	// let f.s0.x.max = ((f.min.0 + f.extent.0) - 1)
	// let f.s0.y.max = ((f.min.1 + f.extent.1) - 1)
	// produce f {
	//   for (f.s0.y, f.min.1, ((f.s0.y.max - f.min.1) + 1)) {
	//     for (f.s0.x.xo, 0, (((f.s0.x.max - f.min.0) / 4) + 1)) {
	//       let g.s0.x.min = min(((f.s0.x.xo * 4) + f.min.0), (f.s0.x.max - 3))
	//       let g.s0.x.max = (min(((f.s0.x.xo * 4) + f.min.0), (f.s0.x.max - 3)) + 4)
	//       let g.min.0 = min(((f.s0.x.xo * 4) + f.min.0), (f.s0.x.max - 3))
	//       allocate g[float32 * 5 * 1] in Stack
	//       produce g {
	//         for (g.s0.x, g.s0.x.min, ((g.s0.x.max - g.s0.x.min) + 1)) {
	//           g[(g.s0.x - g.min.0)] = (in[(((g.s0.x - in.min.0) * in.stride.0) + ((f.s0.y - in.min.1) * in.stride.1))] * 2.0f)
	//         }
	//       }
	//       consume g {
	//         for (f.s0.x.xi, 0, 4) {
	//           let f.s0.x = (min(((f.s0.x.xo * 4) + f.min.0), (f.s0.x.max - 3)) + f.s0.x.xi)
	//           f[(((f.s0.x - f.min.0) * f.stride.0) + ((f.s0.y - f.min.1) * f.stride.1))] = (g[(f.s0.x - g.min.0)] + g[((f.s0.x - g.min.0) + 1)])
	//         }
	//       }
	//       free g
	//     }
	//   }
	// }
}

// A one-dimensional RDom names its loop in directives, like r.X().
func ExampleRDom_split() {
	x := halide.NewVar("x")
	r := halide.NewRDom("r", halide.Range(0, 16))
	in := halide.NewImageParam("in", halide.Float32, 1)
	f := halide.NewFunc("f")
	f.Define(x).Is(float32(0))
	f.Define(x).PlusEq(in.At(x.Add(r)))
	ro, ri := halide.NewRVar("ro"), halide.NewRVar("ri")
	f.Update(0).Split(r, ro, ri, 4)
	nest, err := halide.NewPipeline(f).LoopNest()
	if err != nil {
		fmt.Println(err)
	}
	fmt.Print(nest)
	// Output:
	// produce f:
	//   for x:
	//     f(...) = ...
	//   for x:
	//     for r$x.ro in [0, 3]:
	//       for r$x.ri in [0, 3]:
	//         f(...) = ...
}

// ReorderStorage changes the layout of a Func's allocation: here g is
// stored with y innermost (stride 1) and x outer (stride 8 = g's extent in y).
func ExampleFunc_ReorderStorage() {
	x, y := halide.NewVar("x"), halide.NewVar("y")
	in := halide.NewImageParam("in", halide.Float32, 2)
	g := halide.NewFunc("g")
	g.Define(x, y).Is(in.At(x, y).Mul(2))
	f := halide.NewFunc("f")
	f.Define(x, y).Is(g.At(x, y))
	f.Bound(x, 0, 4).Bound(y, 0, 8)
	g.ComputeRoot().ReorderStorage(y, x)
	l, err := halide.NewPipeline(f).Lower()
	if err != nil {
		fmt.Println(err)
	}
	for _, line := range strings.Split(l.String(), "\n") {
		if strings.Contains(line, "allocate g") || strings.Contains(line, "  g[") {
			fmt.Println(strings.TrimSpace(line))
		}
	}
	// Output:
	// allocate g[float32 * 8 * 4] in Stack
	// g[((g.s0.x * 8) + g.s0.y)] = (in[(((g.s0.x - in.min.0) * in.stride.0) + ((g.s0.y - in.min.1) * in.stride.1))] * 2.0f)
}

// Element and SetElement are Get and Set with an error for coordinates
// outside the buffer; Get and Set never panic: a bad access reads zero,
// stores nothing, and stays recorded in Err.
func ExampleBuffer_Element() {
	b := halide.NewBuffer[float32](3, 2).SetName("img")
	if err := b.SetElement(1.5, 2, 1); err != nil {
		fmt.Println(err)
	}
	v, err := b.Element(2, 1)
	fmt.Println(v, err)
	_, err = b.Element(3, 1)
	fmt.Println(err)
	fmt.Println(b.Get(5, 5), b.Err() != nil)
	// Output:
	// 1.5 <nil>
	// out_of_bounds: Element: coordinates [3 1] are outside buffer img (legal: coordinates in [0, 3) x [0, 2))
	// 0 true
}
