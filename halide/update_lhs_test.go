package halide_test

// Halide's rules for the left-hand side of an update (Function.cpp,
// define_update): an argument is pure only as the bare Var the pure
// definition has at that position, and a pure Var may appear in other
// arguments too. With g(x, y) pure, g(x, x) = ... loops over x alone and
// writes the diagonal, and g(y, y) = ... loops over y alone (y is bare in
// position 1). A second definition with the pure Vars is an update, and
// a pure definition may leave points with an Undef arm of a Select.
//
// Each case is checked against a plain-Go reference on random inputs, on
// the CPU and on the GPU emulator, with a few schedules of the updates'
// pure vars.

import (
	"math"
	"math/rand"
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// lhsSchedule schedules the Funcs of a case; each case names its own.
type lhsSchedule struct {
	name string
	set  func(fs map[string]*halide.Func)
}

func lhsRealize(t *testing.T, out *halide.Func, b halide.BufferRef) {
	t.Helper()
	if err := halide.NewPipeline(out).WithOptions(halide.Options{Verify: true}).Realize(b); err != nil {
		t.Fatal(err)
	}
}

// lhsSrc is a Func reading a random n x n int32 buffer (values in [1,
// 100]), its coordinates clamped, and the buffer.
func lhsSrc(seed int64, n int) (*halide.Func, *halide.Buffer[int32]) {
	rng := rand.New(rand.NewSource(seed))
	a := halide.NewBuffer[int32](n, n)
	a.Fill(func([]int) int32 { return int32(1 + rng.Intn(100)) })
	x, y := halide.NewVar("x"), halide.NewVar("y")
	src := halide.NewFunc("src")
	src.Define(x, y).Is(a.At(halide.Clamp(x, 0, n-1), halide.Clamp(y, 0, n-1)))
	return src, a
}

func clampi(v, lo, hi int) int { return max(lo, min(v, hi)) }

// TestUpdateLHSDiagonalChain is reduction_chain.cpp with random inputs
// and values that depend on the order of the stages: updates along the
// diagonal, pure in x (position 0) or in y (position 1), and one next to
// it (g(x, x + 1)).
func TestUpdateLHSDiagonalChain(t *testing.T) {
	const n = 12
	build := func() (map[string]*halide.Func, *halide.Buffer[int32]) {
		src, a := lhsSrc(7, n)
		x, y := halide.NewVar("x"), halide.NewVar("y")
		g, out := halide.NewFunc("g"), halide.NewFunc("out")
		g.Define(x, y).Is(src.At(x, y))
		g.Define(x, x).Is(g.At(x, x.Sub(1)).Add(g.At(x, x.Add(1))).Add(src.At(x, x).Mul(2)))
		g.Define(y, y).Is(g.At(y.Sub(1), y).Mul(3).Sub(g.At(y.Add(1), y)))
		g.Define(x, x.Add(1)).Is(g.At(x, x).Add(g.At(x, x.Add(2))))
		out.Define(x, y).Is(g.At(x.Sub(1), y.Sub(1)).Add(g.At(x.Add(1), y.Add(1))).Add(g.At(x, y)))
		return map[string]*halide.Func{"src": src, "g": g, "out": out}, a
	}
	// The reference: g's stages as functions of the whole plane.
	ref := func(a *halide.Buffer[int32]) func(x, y int) int32 {
		src := func(x, y int) int32 { return a.Get(clampi(x, 0, n-1), clampi(y, 0, n-1)) }
		g0 := src
		g1 := func(x, y int) int32 {
			if x == y {
				return g0(x, x-1) + g0(x, x+1) + 2*src(x, x)
			}
			return g0(x, y)
		}
		g2 := func(x, y int) int32 {
			if x == y {
				return 3*g1(y-1, y) - g1(y+1, y)
			}
			return g1(x, y)
		}
		g3 := func(x, y int) int32 {
			if y == x+1 {
				return g2(x, x) + g2(x, x+2)
			}
			return g2(x, y)
		}
		return func(x, y int) int32 { return g3(x-1, y-1) + g3(x+1, y+1) + g3(x, y) }
	}
	x, y := halide.NewVar("x"), halide.NewVar("y")
	xo, xi, yo, yi := halide.NewVar("xo"), halide.NewVar("xi"), halide.NewVar("yo"), halide.NewVar("yi")
	bx, by, tx, ty := halide.NewVar("bx"), halide.NewVar("by"), halide.NewVar("tx"), halide.NewVar("ty")
	for _, s := range []lhsSchedule{
		{"root", func(fs map[string]*halide.Func) { fs["g"].ComputeRoot() }},
		{"parallel_vectorize", func(fs map[string]*halide.Func) {
			g := fs["g"]
			g.ComputeRoot().Parallel(y).Vectorize(x, 4)
			g.Update(0).Parallel(x)
			g.Update(1).Vectorize(y, 4)
			g.Update(2).Vectorize(x, 8)
			fs["out"].Parallel(y)
		}},
		{"split", func(fs map[string]*halide.Func) {
			g := fs["g"]
			g.ComputeRoot()
			g.Update(0).Split(x, xo, xi, 5)
			g.Update(1).Split(y, yo, yi, 3).Parallel(yo)
			g.Update(2).Split(x, xo, xi, 4, halide.GuardWithIf)
		}},
		{"compute_at_rows", func(fs map[string]*halide.Func) {
			// g per row of out: its region in y is 3 rows, while the
			// diagonal updates write (x, x) over g's region in x.
			fs["g"].ComputeAt(fs["out"], y)
		}},
		{"store_root_compute_at", func(fs map[string]*halide.Func) {
			fs["g"].StoreRoot().ComputeAt(fs["out"], x)
			fs["src"].ComputeAt(fs["out"], y)
		}},
		{"gpu", func(fs map[string]*halide.Func) {
			g := fs["g"]
			g.ComputeRoot().GPUTile(x, y, bx, by, tx, ty, 4, 4)
			g.Update(0).GPUTile1D(x, bx, tx, 4)
			g.Update(1).GPUTile1D(y, by, ty, 8)
			g.Update(2).GPUTile1D(x, bx, tx, 3)
			fs["out"].GPUTile(x, y, bx, by, tx, ty, 4, 4)
		}},
		{"gpu_compute_at_block", func(fs map[string]*halide.Func) {
			fs["out"].GPUTile(x, y, bx, by, tx, ty, 4, 4)
			fs["g"].ComputeAt(fs["out"], bx)
			fs["g"].Update(0).GPUThreads(x)
			fs["g"].Update(1).GPUThreads(y)
			fs["g"].Update(2).GPUThreads(x)
		}},
	} {
		t.Run(s.name, func(t *testing.T) {
			fs, a := build()
			s.set(fs)
			out := halide.NewBuffer[int32](n, n)
			lhsRealize(t, fs["out"], out)
			m2Check2(t, "out", out, 0, n, 0, n, ref(a))
		})
	}
}

// TestUpdateLHSStencilChain is stencil_chain_in_update_definitions.cpp on
// a random input: each iteration copies the diagonal up and down (pure in
// x) and blurs it (pure in y); the region of each stage is a trapezoid.
func TestUpdateLHSStencilChain(t *testing.T) {
	const iters, extent, n = 6, 13, 40
	rng := rand.New(rand.NewSource(5))
	in := halide.NewBuffer[float32](n)
	in.Fill(func([]int) float32 { return rng.Float32() + 0.5 })
	const off = 10 // in's index of x = 0
	build := func() map[string]*halide.Func {
		x, y := halide.NewVar("x"), halide.NewVar("y")
		f, g, h := halide.NewFunc("f"), halide.NewFunc("g"), halide.NewFunc("h")
		f.Define(x).Is(in.At(halide.Clamp(x.Add(off), 0, n-1)))
		g.Define(x, y).Is(halide.Undef(halide.Float32))
		g.Define(x, x).Is(f.At(x))
		for i := 0; i < iters; i++ {
			g.Define(x, x.Add(1)).Is(g.At(x, x))
			g.Define(x, x.Sub(1)).Is(g.At(x, x))
			g.Define(y, y).Is(g.At(y, y).Add(g.At(y.Sub(1), y)).Add(g.At(y.Add(1), y)).Div(float32(3)))
		}
		h.Define(x).Is(g.At(x, x))
		return map[string]*halide.Func{"f": f, "g": g, "h": h}
	}
	// The diagonal over [-iters-1, extent+iters], blurred iters times.
	lo := -iters - 1
	diag := make([]float32, extent+2*iters+2)
	for i := range diag {
		diag[i] = in.Get(clampi(i+lo+off, 0, n-1))
	}
	for it := 0; it < iters; it++ {
		nd := append([]float32(nil), diag...)
		for i := 1; i < len(diag)-1; i++ {
			nd[i] = (diag[i] + diag[i-1] + diag[i+1]) / 3
		}
		diag = nd
	}
	x, y := halide.NewVar("x"), halide.NewVar("y")
	xo, xi := halide.NewVar("xo"), halide.NewVar("xi")
	bx, tx := halide.NewVar("bx"), halide.NewVar("tx")
	for _, s := range []lhsSchedule{
		{"root", func(fs map[string]*halide.Func) { fs["g"].ComputeRoot() }},
		{"parallel_split", func(fs map[string]*halide.Func) {
			g := fs["g"]
			g.ComputeRoot()
			for k := 1; k <= 1+3*iters; k++ {
				v := x
				if k > 1 && (k-1)%3 == 0 {
					v = y
				}
				if k%2 == 0 {
					g.Update(k - 1).Parallel(v)
				} else {
					g.Update(k-1).Split(v, xo, xi, 4).Vectorize(xi)
				}
			}
		}},
		{"gpu", func(fs map[string]*halide.Func) {
			g := fs["g"]
			g.ComputeRoot()
			for k := 1; k <= 1+3*iters; k++ {
				v := x
				if k > 1 && (k-1)%3 == 0 {
					v = y
				}
				g.Update(k-1).GPUTile1D(v, bx, tx, 8)
			}
			fs["h"].GPUTile1D(x, bx, tx, 8)
		}},
	} {
		t.Run(s.name, func(t *testing.T) {
			fs := build()
			s.set(fs)
			out := halide.NewBuffer[float32](extent)
			lhsRealize(t, fs["h"], out)
			for i := 0; i < extent; i++ {
				got, want := out.Get(i), diag[i-lo]
				if math.Abs(float64(got-want)) > 1e-5 {
					t.Fatalf("h(%d) = %v, want %v", i, got, want)
				}
			}
		})
	}
}

// TestUpdateLHSDiagonalCoverage reads g in one row only, while g's
// diagonal update writes (x, x) over g's whole region in x: the
// allocation covers the writes, and the read row sees its diagonal point
// updated. A second update reads g far from the diagonal (g(x, x + 5)),
// which the pure stage computes.
func TestUpdateLHSDiagonalCoverage(t *testing.T) {
	const n, row = 16, 3
	src, a := lhsSrc(11, n)
	x, y := halide.NewVar("x"), halide.NewVar("y")
	bx, tx := halide.NewVar("bx"), halide.NewVar("tx")
	for _, gpu := range []bool{false, true} {
		name := "cpu"
		if gpu {
			name = "gpu"
		}
		t.Run(name, func(t *testing.T) {
			g, out := halide.NewFunc("g"), halide.NewFunc("out")
			g.Define(x, y).Is(src.At(x, y))
			g.Define(x, x).Is(g.At(x, x.Add(5)).Sub(g.At(x, x)))
			out.Define(x).Is(g.At(x, row).Mul(10).Add(g.At(x.Add(1), row)))
			g.ComputeRoot()
			if gpu {
				g.Update(0).GPUTile1D(x, bx, tx, 4)
				out.GPUTile1D(x, bx, tx, 4)
			}
			b := halide.NewBuffer[int32](n)
			lhsRealize(t, out, b)
			s := func(x, y int) int32 { return a.Get(clampi(x, 0, n-1), clampi(y, 0, n-1)) }
			gv := func(x, y int) int32 {
				if x == y {
					return s(x, x+5) - s(x, x)
				}
				return s(x, y)
			}
			m2Check1(t, "out", b, 0, n, func(x int) int32 { return gv(x, row)*10 + gv(x+1, row) })
		})
	}
}

// TestUpdateLHSPureVarsUpdate: a second definition with the pure Vars is
// an update even where it does not read the Func (f(x) = x;
// f(x) = f(x) * 2 and f(x) = in(x) + x); h(x) = undef then
// h(x) = select(x % 2 == 0, in(x), undef) stores the even points and
// leaves the odd ones of the output buffer; and the pure definition
// h(x) = select(x % 2 == 0, in(x), undef) does the same in one stage.
func TestUpdateLHSPureVarsUpdate(t *testing.T) {
	const n = 37
	rng := rand.New(rand.NewSource(3))
	in := halide.NewBuffer[int32](n)
	in.Fill(func([]int) int32 { return int32(1 + rng.Intn(1000)) })
	x, xo, xi := halide.NewVar("x"), halide.NewVar("xo"), halide.NewVar("xi")
	bx, tx := halide.NewVar("bx"), halide.NewVar("tx")
	// Each schedule gets f and its number of updates.
	schedules := []struct {
		name string
		set  func(f *halide.Func, updates int)
	}{
		{"cpu", func(*halide.Func, int) {}},
		{"vectorize", func(f *halide.Func, k int) {
			f.Vectorize(x, 4)
			for i := 0; i < k; i++ {
				f.Update(i).Vectorize(x, 8)
			}
		}},
		{"split_parallel", func(f *halide.Func, k int) {
			f.Split(x, xo, xi, 5).Parallel(xo)
			for i := 0; i < k; i++ {
				f.Update(i).Split(x, xo, xi, 6).Parallel(xo)
			}
		}},
		{"gpu", func(f *halide.Func, k int) {
			f.GPUTile1D(x, bx, tx, 8)
			for i := 0; i < k; i++ {
				f.Update(i).GPUTile1D(x, bx, tx, 4)
			}
		}},
	}
	for _, s := range schedules {
		t.Run("twice/"+s.name, func(t *testing.T) {
			f := halide.NewFunc("f")
			f.Define(x).Is(x)
			f.Define(x).Is(f.At(x).Mul(2))
			f.Define(x).Is(in.At(x).Add(f.At(x)).Add(x)) // 3x + in(x)
			f.Define(x).Is(in.At(x).Sub(x))              // does not read f
			f.Define(x).Is(f.At(x).Mul(3))
			s.set(f, 4)
			b := halide.NewBuffer[int32](n)
			lhsRealize(t, f, b)
			m2Check1(t, "f", b, 0, n, func(x int) int32 { return 3 * (in.Get(x) - int32(x)) })
		})
		for _, form := range []string{"update", "pure"} {
			t.Run("undef_select_"+form+"/"+s.name, func(t *testing.T) {
				h := halide.NewFunc("h")
				sel := halide.Select(x.Mod(2).Eq(0), in.At(x), halide.Undef(halide.Int32))
				k := 0
				if form == "update" {
					h.Define(x).Is(halide.Undef(halide.Int32))
					h.Define(x).Is(sel)
					k = 1
				} else {
					h.Define(x).Is(sel)
				}
				s.set(h, k)
				old := make([]int32, n)
				for i := range old {
					old[i] = -int32(1 + rng.Intn(1000))
				}
				b := halide.NewBuffer[int32](n)
				b.Fill(func(c []int) int32 { return old[c[0]] })
				lhsRealize(t, h, b)
				m2Check1(t, "h", b, 0, n, func(x int) int32 {
					if x%2 == 0 {
						return in.Get(x)
					}
					return old[x]
				})
			})
		}
	}
}

// TestUpdateLHSDiagonalReduction: g(x, x) += src(r, x) over an RDom r,
// pure in x: run serially, with x parallel, with x on GPU threads, and
// factored by RFactor (r's loop in parallel in the intermediate).
func TestUpdateLHSDiagonalReduction(t *testing.T) {
	const n = 9
	x, y, u := halide.NewVar("x"), halide.NewVar("y"), halide.NewVar("u")
	bx, tx := halide.NewVar("bx"), halide.NewVar("tx")
	for _, sched := range []string{"serial", "parallel", "gpu", "rfactor"} {
		t.Run(sched, func(t *testing.T) {
			src, a := lhsSrc(13, n)
			r := halide.NewRDom("r", halide.Range(0, n))
			g := halide.NewFunc("g")
			g.Define(x, y).Is(src.At(y, x))
			g.Define(x, x).PlusEq(src.At(r, x))
			switch sched {
			case "parallel":
				g.Update(0).Parallel(x)
			case "gpu":
				g.Update(0).GPUTile1D(x, bx, tx, 4)
			case "rfactor":
				g.Update(0).RFactor(halide.RFactorPair{R: r.X(), V: u}).ComputeRoot().Update(0).Parallel(u)
			}
			b := halide.NewBuffer[int32](n, n)
			lhsRealize(t, g, b)
			m2Check2(t, "g", b, 0, n, 0, n, func(x, y int) int32 {
				v := a.Get(y, x)
				if x == y {
					for i := 0; i < n; i++ {
						v += a.Get(i, x)
					}
				}
				return v
			})
		})
	}
}

// TestUpdateLHSDiagonalTuple: a Tuple Func's update along the diagonal
// gives both values, computed from the old ones.
func TestUpdateLHSDiagonalTuple(t *testing.T) {
	const n = 10
	x, y := halide.NewVar("x"), halide.NewVar("y")
	bx, tx := halide.NewVar("bx"), halide.NewVar("tx")
	for _, gpu := range []bool{false, true} {
		src, a := lhsSrc(17, n)
		g := halide.NewFunc("g")
		g.Define(x, y).Is(halide.NewTuple(src.At(x, y), src.At(y, x).Mul(2)))
		old := g.AtTuple(x, x)
		g.Define(x, x.Add(1)).Is(halide.NewTuple(old.Elem(1).Add(g.AtTuple(x, x.Add(1)).Elem(0)), old.Elem(0)))
		if gpu {
			g.Update(0).GPUTile1D(x, bx, tx, 4)
		}
		// g(x, x + 1) for x in [0, n) writes up to y = n.
		b0, b1 := halide.NewBuffer[int32](n, n+1), halide.NewBuffer[int32](n, n+1)
		if err := halide.NewPipeline(g).WithOptions(halide.Options{Verify: true}).RealizeTuple(b0, b1); err != nil {
			t.Fatal(err)
		}
		s := func(x, y int) int32 { return a.Get(clampi(x, 0, n-1), clampi(y, 0, n-1)) }
		m2Check2(t, "g[0]", b0, 0, n, 0, n+1, func(x, y int) int32 {
			if y == x+1 {
				return 2*s(x, x) + s(x, y)
			}
			return s(x, y)
		})
		m2Check2(t, "g[1]", b1, 0, n, 0, n+1, func(x, y int) int32 {
			if y == x+1 {
				return s(x, x)
			}
			return 2 * s(y, x)
		})
	}
}
