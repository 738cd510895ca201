package halide_test

import (
	"fmt"
	"strings"

	"github.com/gohalide/gohalide/halide"
)

func ExampleFunc_ComputeAtStage() {
	x := halide.NewVar("x")
	in := halide.NewImageParam("in", halide.Float32, 2)
	r := halide.NewRDom("r", halide.Range(0, 4))
	g := halide.NewFunc("g")
	g.Define(x).Is(in.At(x, 0).Mul(2))
	f := halide.NewFunc("f")
	f.Define(x).Is(0.0)
	f.Define(x).PlusEq(g.At(x).Mul(in.At(x, r)))
	// g is read only by f's update: compute it inside the update's loop
	// over x (stage 1), not inside the pure definition's (stage 0).
	g.ComputeAtStage(f.Update(0), x)
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
	//     produce g:
	//       for x:
	//         g(...) = ...
	//     consume g:
	//       for r$x in [0, 3]:
	//         f(...) = ...
}

func ExampleFunc_StoreRoot() {
	x, y := halide.NewVar("x"), halide.NewVar("y")
	in := halide.NewImageParam("in", halide.Float32, 2)
	g := halide.NewFunc("g")
	g.Define(x, y).Is(in.At(x, y).Mul(2))
	f := halide.NewFunc("f")
	f.Define(x, y).Is(g.At(x, y).Add(g.At(x, y.Add(1))))
	// Compute g inside f's loop over y (the two rows of g that row y of f
	// reads), but allocate it once, outside all loops: "store g" encloses
	// the whole of f.
	g.ComputeAt(f, y).StoreRoot()
	s, err := halide.NewPipeline(f).LoopNest()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(s)
	// Output:
	// store g:
	//   produce f:
	//     for y:
	//       produce g:
	//         for y:
	//           for x:
	//             g(...) = ...
	//       consume g:
	//         for x:
	//           f(...) = ...
}

func ExampleStage_Serial() {
	x, y := halide.NewVar("x"), halide.NewVar("y")
	in := halide.NewImageParam("in", halide.Float32, 2)
	f := halide.NewFunc("f")
	f.Define(x, y).Is(in.At(x, y).Mul(3))
	// A generic schedule made both loops parallel; Serial makes the inner
	// one an ordinary loop again (the last directive for a loop wins).
	f.Parallel(y).Parallel(x)
	f.Stage(0).Serial(x)
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

func ExampleFunc_FoldStorage() {
	x, y := halide.NewVar("x"), halide.NewVar("y")
	in := halide.NewImageParam("in", halide.Float32, 2)
	g := halide.NewFunc("g")
	g.Define(x, y).Is(in.At(x, y).Mul(2))
	f := halide.NewFunc("f")
	f.Define(x, y).Is(g.At(x, y.Sub(1)).Add(g.At(x, y)).Add(g.At(x, y.Add(1))))
	// g is stored for the whole of f and computed row by row: it slides
	// (each row of f computes one new row of g), and its storage holds
	// the 3 rows one row of f reads, folded to 3 slots instead of the 4 a
	// power of two would take.
	g.StoreRoot().ComputeAt(f, y).FoldStorage(y, 3)
	l, err := halide.NewPipeline(f).Lower()
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, line := range strings.Split(l.String(), "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "allocate g") || strings.HasPrefix(line, "let g.s0.y.min") {
			fmt.Println(line)
		}
	}
	// Output:
	// allocate g[float32 * (max((f.s0.x.max - f.min.0), -1) + 1) * 3] in Heap
	// let g.s0.y.min = unsafe_promise_clamped(select((f.s0.y <= f.min.1), (f.s0.y - 1), likely((f.s0.y + 1))), (f.s0.y - 1), (f.s0.y + 2))
}

func ExampleFunc_HoistStorage() {
	x, y := halide.NewVar("x"), halide.NewVar("y")
	xo, xi := halide.NewVar("xo"), halide.NewVar("xi")
	in := halide.NewImageParam("in", halide.Float32, 2)
	g := halide.NewFunc("g")
	g.Define(x, y).Is(in.At(x, y).Mul(2))
	f := halide.NewFunc("f")
	f.Define(x, y).Is(g.At(x.Sub(1), y).Add(g.At(x.Add(1), y)))
	f.Split(x, xo, xi, 8)
	// g is computed (and stored) per strip of 8 columns of f, but
	// allocated once per row: the allocation moves out of the strip loop,
	// sized for the largest strip (10 columns), while each strip is still
	// indexed from its own first column.
	g.ComputeAt(f, xo).HoistStorage(f, y)
	l, err := halide.NewPipeline(f).Lower()
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, line := range strings.Split(l.String(), "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "allocate g") || strings.HasPrefix(line, "for (") || strings.HasPrefix(line, "let g.min.0") {
			fmt.Println(line)
		}
	}
	// Output:
	// for (f.s0.y, f.min.1, ((f.s0.y.max - f.min.1) + 1)) {
	// allocate g[float32 * 10 * 1] in Stack
	// for (f.s0.x.xo, 0, (((f.s0.x.max - f.min.0) / 8) + 1)) {
	// let g.min.0 = (min(((f.s0.x.xo * 8) + f.min.0), (f.s0.x.max - 7)) - 1)
	// for (g.s0.x, g.s0.x.min, ((g.s0.x.max - g.s0.x.min) + 1)) {
	// for (f.s0.x.xi, 0, 8) {
}

func ExampleFunc_TraceStores() {
	x := halide.NewVar("x")
	g := halide.NewFunc("g")
	g.Define(x).Is(x.Mul(x))
	f := halide.NewFunc("f")
	f.Define(x).Is(g.At(x).Add(g.At(x.Add(1))))
	g.ComputeAt(f, x).TraceStores()
	// g is computed at each x of f: the trace shows each point of g
	// stored twice, once for each x that reads it.
	p := halide.NewPipeline(f).WithOptions(halide.Options{Trace: func(ev halide.TraceEvent) {
		fmt.Println(ev.Func, ev.Coords, ev.Value)
	}})
	if err := p.Realize(halide.NewBuffer[int32](2)); err != nil {
		fmt.Println(err)
	}
	// Output:
	// g [0] 0
	// g [1] 1
	// g [1] 1
	// g [2] 4
}

func ExampleFunc_VectorizeTail() {
	x := halide.NewVar("x")
	f := halide.NewFunc("f")
	f.Define(x).Is(x.Mul(x))
	// Vectorize by 4 with a guarded tail: the 10 points are 2 full
	// vectors and a last one of 2 lanes, and nothing beyond point 9 is
	// computed (TailAuto would shift the last vector inwards instead).
	f.VectorizeTail(x, 4, halide.GuardWithIf)
	out := halide.NewBuffer[int32](10)
	if err := halide.NewPipeline(f).Realize(out); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(out.Data())
	// Output:
	// [0 1 4 9 16 25 36 49 64 81]
}

func ExampleFunc_ParallelTail() {
	x, y := halide.NewVar("x"), halide.NewVar("y")
	f := halide.NewFunc("f")
	f.Define(x, y).Is(x.Add(y))
	// Parallel tasks of 3 rows each: y is split into y (parallel over
	// the tasks) and y_par (the rows of one task, a serial loop), the
	// last task guarded.
	f.ParallelTail(y, 3, halide.GuardWithIf)
	s, err := halide.NewPipeline(f).LoopNest()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(s)
	out := halide.NewBuffer[int32](2, 7)
	if err := halide.NewPipeline(f).Realize(out); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(out.Data())
	// Output:
	// produce f:
	//   parallel y.y:
	//     for y.y_par in [0, 2]:
	//       for x:
	//         f(...) = ...
	// [0 1 1 2 2 3 3 4 4 5 5 6 6 7]
}

func ExampleFunc_UnrollTail() {
	x := halide.NewVar("x")
	f := halide.NewFunc("f")
	f.Define(x).Is(x.Add(1))
	// Unroll by 4 with RoundUp: the loop runs over whole groups of 4, and
	// no tail code is made. An output of 6 is realized over the 8 the
	// loop writes and the 6 asked for copied back (Halide's
	// realize(sizes)).
	f.UnrollTail(x, 4, halide.RoundUp)
	out := halide.NewBuffer[int32](6)
	if err := halide.NewPipeline(f).Realize(out); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(out.Data())
	// Output:
	// [1 2 3 4 5 6]
}

func ExampleFunc_In_global() {
	x := halide.NewVar("x")
	in := halide.NewImageParam("in", halide.Int32, 1)
	g := halide.NewFunc("g")
	g.Define(x).Is(in.At(x).Mul(2))
	h := halide.NewFunc("h")
	h.Define(x).Is(g.At(x).Add(1))
	f := halide.NewFunc("f")
	f.Define(x).Is(g.At(x).Add(h.At(x.Add(1))))
	// In() with no consumer is the global wrapper: f and h both read
	// g_in, a copy of g that can be scheduled on its own.
	g.ComputeRoot()
	g.In().ComputeRoot()
	h.ComputeRoot()
	s, err := halide.NewPipeline(f).LoopNest()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(s)
	buf := halide.NewBuffer[int32](5)
	buf.Fill(func(c []int) int32 { return int32(10 * c[0]) })
	in.Set(buf)
	out := halide.NewBuffer[int32](4)
	if err := halide.NewPipeline(f).Realize(out); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(out.Data())
	// Output:
	// produce g:
	//   for x:
	//     g(...) = ...
	// consume g:
	//   produce g_in:
	//     for x:
	//       g_in(...) = ...
	//   consume g_in:
	//     produce h:
	//       for x:
	//         h(...) = ...
	//     consume h:
	//       produce f:
	//         for x:
	//           f(...) = ...
	// [21 61 101 141]
}

func ExampleRDom_Where() {
	x := halide.NewVar("x")
	in := halide.NewImageParam("in", halide.Int32, 1)
	// A running sum: out(x) is the sum of in(r) for r <= x, over the
	// points of r where the condition holds.
	r := halide.NewRDom("r", halide.Range(0, 8))
	r.Where(r.X().Le(x))
	f := halide.NewFunc("f")
	f.Define(x).Is(int32(0))
	f.Define(x).PlusEq(in.At(r.X()))
	buf := halide.NewBuffer[int32](8)
	buf.Fill(func(c []int) int32 { return int32(c[0] + 1) })
	in.Set(buf)
	out := halide.NewBuffer[int32](8)
	if err := halide.NewPipeline(f).Realize(out); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(out.Data())
	// Output:
	// [1 3 6 10 15 21 28 36]
}

func ExampleUndef() {
	x, y := halide.NewVar("x"), halide.NewVar("y")
	in := halide.NewImageParam("in", halide.Float32, 2)
	// A recursive filter down the columns: the pure definition computes
	// nothing (Undef), the first row is copied, and each further row
	// mixes in the one above it. Without Undef the pure definition would
	// be a pass that writes zeros the updates overwrite.
	r := halide.NewRDom("r", halide.Range(1, 2))
	f := halide.NewFunc("f")
	f.Define(x, y).Is(halide.Undef(halide.Float32))
	f.Define(x, 0).Is(in.At(x, 0))
	f.Define(x, r.X()).Is(f.At(x, r.X().Sub(1)).Mul(0.5).Add(in.At(x, r.X())))
	// An update that stores only where a condition holds.
	g := halide.NewFunc("g")
	g.Define(x).Is(x)
	g.Define(x).Is(halide.Select(x.Mod(2).Eq(0), g.At(x).Mul(10), halide.Undef(halide.Int32)))

	buf := halide.NewBuffer[float32](3, 3)
	buf.Fill(func(c []int) float32 { return float32(c[0] + 10*c[1]) })
	in.Set(buf)
	out := halide.NewBuffer[float32](3, 3)
	if err := halide.NewPipeline(f).Realize(out); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(out.Data())
	gout := halide.NewBuffer[int32](6)
	if err := halide.NewPipeline(g).Realize(gout); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(gout.Data())
	// Output:
	// [0 1 2 10 11.5 13 25 26.75 28.5]
	// [0 1 20 3 40 5]
}

// Two Funcs computed at the same level, their row loops fused: at each row
// y, f's row is computed, then g's (Halide's compute_with). Their regions
// differ (f is read one row further up): with AlignStart the loop over y
// starts at f's first row, and g's rows follow in step.
func ExampleFunc_ComputeWith() {
	x, y := halide.NewVar("x"), halide.NewVar("y")
	in := halide.NewImageParam("in", halide.Float32, 2)
	f := halide.NewFunc("f")
	f.Define(x, y).Is(in.At(x, y).Mul(2))
	g := halide.NewFunc("g")
	g.Define(x, y).Is(in.At(x, y).Add(1))
	out := halide.NewFunc("out")
	out.Define(x, y).Is(f.At(x, y.Sub(1)).Add(g.At(x, y)))
	f.ComputeRoot()
	g.ComputeRoot().ComputeWith(f, y, halide.LoopAlign{Var: y, Strategy: halide.AlignStart})
	l, err := halide.NewPipeline(out).WithOptions(halide.Options{StopAfter: "compute_with"}).Lower()
	if err != nil {
		fmt.Println(err)
		return
	}
	s := l.String()
	i := strings.LastIndex(s[:strings.Index(s, "produce f")], "\n") + 1
	j := strings.LastIndex(s[:strings.Index(s, "consume f")], "\n") + 1
	indent := strings.Index(s[i:], "produce f")
	for _, line := range strings.Split(strings.TrimRight(s[i:j], "\n"), "\n") {
		fmt.Println(line[indent:])
	}
	// Output:
	// produce f {
	//   produce g {
	//     for (f.s0.y, f.s0.y.min, max(((f.s0.y.max - f.s0.y.min) + 1), ((g.s0.y.max - g.s0.y.min) + 1))) {
	//       if ((f.s0.y < (f.s0.y.max + 1))) {
	//         for (f.s0.x, f.s0.x.min, ((f.s0.x.max - f.s0.x.min) + 1)) {
	//           f(f.s0.x, f.s0.y) = (in(f.s0.x, f.s0.y) * 2.0f)
	//         }
	//       }
	//       let g.s0.y = ((f.s0.y + g.s0.y.min) - f.s0.y.min)
	//       if ((g.s0.y < (g.s0.y.max + 1))) {
	//         for (g.s0.x, g.s0.x.min, ((g.s0.x.max - g.s0.x.min) + 1)) {
	//           g(g.s0.x, g.s0.y) = (in(g.s0.x, g.s0.y) + 1.0f)
	//         }
	//       }
	//     }
	//   }
	// }
}
