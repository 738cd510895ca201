package differential_test

import (
	"math"
	"math/rand"
	"strings"
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// Tuple-valued Funcs under CPU and GPU (emulator) schedules, against
// plain-Go references on random inputs: a row argmax (the inline Argmax
// and a hand-written Tuple update), and a running complex product, whose
// update needs both old values to compute either new one.

// Sizes not multiples of the split factors (so tails are exercised).
const tupleW, tupleH = 13, 11

// tupleInput returns a W x H buffer of small random integers as floats,
// so rows have ties (the first maximum must win).
func tupleInput(seed int64) *halide.Buffer[float32] {
	rng := rand.New(rand.NewSource(seed))
	in := halide.NewBuffer[float32](tupleW, tupleH)
	for y := 0; y < tupleH; y++ {
		for x := 0; x < tupleW; x++ {
			in.Set(float32(rng.Intn(7)-3), x, y)
		}
	}
	return in
}

// argmaxRows is the reference: the first column of each row's maximum,
// and the maximum.
func argmaxRows(in *halide.Buffer[float32]) ([]int32, []float32) {
	cols, vals := make([]int32, tupleH), make([]float32, tupleH)
	for y := 0; y < tupleH; y++ {
		best, bestV := int32(0), float32(math.Inf(-1))
		for x := 0; x < tupleW; x++ {
			if v := in.Get(x, y); v > bestV {
				best, bestV = int32(x), v
			}
		}
		cols[y], vals[y] = best, bestV
	}
	return cols, vals
}

// argmaxAlgo is out(x, y) = in(x, y) * max(y) + column(y), with the
// argmax of each row computed by the Tuple Func am (am(y) = (column,
// max)); inline says whether am is the inline Argmax or an explicit
// Tuple update.
type argmaxAlgo struct {
	in     *halide.Buffer[float32]
	am     *halide.Func
	out    *halide.Func
	x, y   halide.Var
	r      *halide.RDom
	inline bool
}

func newArgmaxAlgo(in *halide.Buffer[float32], inline bool) *argmaxAlgo {
	a := &argmaxAlgo{in: in, x: halide.NewVar("x"), y: halide.NewVar("y"), inline: inline}
	a.r = halide.NewRDom("r", halide.Range(0, tupleW))
	a.am = halide.NewFunc("am")
	if inline {
		t := halide.Argmax(in.At(a.r, a.y))
		a.am.Define(a.y).Is(halide.NewTuple(t.Elem(0), t.Elem(1)))
	} else {
		a.am.Define(a.y).Is(halide.NewTuple(0, halide.Inf(halide.Float32).Neg()))
		old := a.am.AtTuple(a.y)
		better := in.At(a.r, a.y).Gt(old.Elem(1))
		a.am.Define(a.y).Is(halide.SelectTuple(better, halide.NewTuple(a.r, in.At(a.r, a.y)), old))
	}
	t := a.am.AtTuple(a.y)
	a.out = halide.NewFunc("out")
	a.out.Define(a.x, a.y).Is(in.At(a.x, a.y).Mul(t.Elem(1)).Add(halide.Cast(halide.Float32, t.Elem(0))))
	return a
}

func (a *argmaxAlgo) check(t *testing.T, p *halide.Pipeline) {
	t.Helper()
	out := halide.NewBuffer[float32](tupleW, tupleH)
	if err := p.Realize(out); err != nil {
		t.Fatalf("Realize: %v", err)
	}
	cols, vals := argmaxRows(a.in)
	for y := 0; y < tupleH; y++ {
		for x := 0; x < tupleW; x++ {
			want := a.in.Get(x, y)*vals[y] + float32(cols[y])
			if got := out.Get(x, y); got != want {
				t.Fatalf("out(%d, %d) = %g, want %g (row max %g at %d)", x, y, got, want, vals[y], cols[y])
			}
		}
	}
}

func TestTupleArgmax(t *testing.T) {
	cases := []struct {
		name  string
		sched func(a *argmaxAlgo)
	}{
		{"default", func(a *argmaxAlgo) {}},
		{"root", func(a *argmaxAlgo) { a.am.ComputeRoot() }},
		{"at_y", func(a *argmaxAlgo) { a.am.ComputeAt(a.out, a.y) }},
		{"at_y_vectorized", func(a *argmaxAlgo) {
			a.am.ComputeAt(a.out, a.y)
			a.out.Vectorize(a.x, 4)
		}},
		{"root_parallel", func(a *argmaxAlgo) {
			yo, yi := halide.NewVar("yo"), halide.NewVar("yi")
			a.am.ComputeRoot().Split(a.y, yo, yi, 4).Parallel(yo)
			if !a.inline {
				a.am.Update(0).Parallel(a.y)
			}
			a.out.Parallel(a.y)
		}},
		{"gpu_tile_inline", func(a *argmaxAlgo) {
			bx, by, tx, ty := halide.NewVar("bx"), halide.NewVar("by"), halide.NewVar("tx"), halide.NewVar("ty")
			a.out.GPUTile(a.x, a.y, bx, by, tx, ty, 8, 4)
		}},
		{"gpu_root", func(a *argmaxAlgo) {
			bx, by, tx, ty := halide.NewVar("bx"), halide.NewVar("by"), halide.NewVar("tx"), halide.NewVar("ty")
			yo, yi := halide.NewVar("yo"), halide.NewVar("yi")
			a.am.ComputeRoot().Split(a.y, yo, yi, 4).GPUBlocks(yo).GPUThreads(yi)
			if !a.inline {
				a.am.Update(0).Split(a.y, yo, yi, 4, halide.GuardWithIf).GPUBlocks(yo).GPUThreads(yi)
			}
			a.out.GPUTile(a.x, a.y, bx, by, tx, ty, 8, 4)
		}},
		{"gpu_shared_at_block", func(a *argmaxAlgo) {
			// am is computed once per block, in shared memory, by the
			// block's threads together; out's threads read it. (With
			// the inline Argmax, its Func would be computed in shared
			// memory inside am's production, which is refused: see
			// tests/errors.)
			bx, by, tx, ty := halide.NewVar("bx"), halide.NewVar("by"), halide.NewVar("tx"), halide.NewVar("ty")
			a.out.GPUTile(a.x, a.y, bx, by, tx, ty, 8, 4)
			a.am.ComputeAt(a.out, bx).StoreIn(halide.GPUShared)
		}},
		{"gpu_shared_own_threads", func(a *argmaxAlgo) {
			bx, by, tx, ty := halide.NewVar("bx"), halide.NewVar("by"), halide.NewVar("tx"), halide.NewVar("ty")
			a.out.GPUTile(a.x, a.y, bx, by, tx, ty, 8, 4)
			a.am.ComputeAt(a.out, bx).StoreIn(halide.GPUShared).GPUThreads(a.y)
			if !a.inline {
				a.am.Update(0).GPUThreads(a.y)
			}
		}},
		{"gpu_registers_at_block", func(a *argmaxAlgo) {
			// Each thread of a row keeps that row's am in its registers.
			by, ty := halide.NewVar("by"), halide.NewVar("ty")
			a.out.Split(a.y, by, ty, 4).Reorder(ty, a.x, by).GPUBlocks(a.x, by).GPUThreads(ty)
			a.am.ComputeAt(a.out, a.x).StoreIn(halide.Register).GPUThreads(a.y)
			if !a.inline {
				a.am.Update(0).GPUThreads(a.y)
			}
		}},
		{"gpu_registers_at_thread", func(a *argmaxAlgo) {
			bx, by, tx, ty := halide.NewVar("bx"), halide.NewVar("by"), halide.NewVar("tx"), halide.NewVar("ty")
			a.out.GPUTile(a.x, a.y, bx, by, tx, ty, 8, 4)
			a.am.ComputeAt(a.out, tx).StoreIn(halide.Register)
		}},
	}
	for _, inline := range []bool{false, true} {
		for i, c := range cases {
			name := "update/" + c.name
			if inline {
				name = "inline/" + c.name
			}
			if inline && c.name == "gpu_shared_at_block" {
				continue
			}
			t.Run(name, func(t *testing.T) {
				a := newArgmaxAlgo(tupleInput(int64(100+i)), inline)
				c.sched(a)
				a.check(t, halide.NewPipeline(a.out).WithOptions(halide.Options{Verify: true}))
			})
		}
	}
}

// TestTupleComplexProduct: p(x) = prod over r of z(x, r), complex, with
// z a Tuple Func (re, im) and p's update computing both parts from the
// old ones; p is the output, realized into two buffers.
func TestTupleComplexProduct(t *testing.T) {
	const n, k = 10, 5
	cases := []struct {
		name  string
		sched func(z, p *halide.Func, x halide.Var)
	}{
		{"default", func(z, p *halide.Func, x halide.Var) {}},
		{"z_root", func(z, p *halide.Func, x halide.Var) { z.ComputeRoot() }},
		{"z_at_x_vectorized", func(z, p *halide.Func, x halide.Var) {
			z.ComputeAt(p, x)
			p.Vectorize(x, 4)
		}},
		{"gpu", func(z, p *halide.Func, x halide.Var) {
			bx, tx := halide.NewVar("bx"), halide.NewVar("tx")
			p.Split(x, bx, tx, 4).GPUBlocks(bx).GPUThreads(tx)
			p.Update(0).Split(x, bx, tx, 4).GPUBlocks(bx).GPUThreads(tx)
		}},
		{"gpu_z_shared", func(z, p *halide.Func, x halide.Var) {
			bx, tx := halide.NewVar("bx"), halide.NewVar("tx")
			p.Split(x, bx, tx, 4).GPUBlocks(bx).GPUThreads(tx)
			p.Update(0).Split(x, bx, tx, 4).GPUBlocks(bx).GPUThreads(tx)
			z.ComputeAtStage(p.Update(0), bx).StoreIn(halide.GPUShared)
		}},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rng := rand.New(rand.NewSource(int64(200 + i)))
			re, im := halide.NewBuffer[float32](n, k), halide.NewBuffer[float32](n, k)
			for y := 0; y < k; y++ {
				for x := 0; x < n; x++ {
					re.Set(rng.Float32()*2-1, x, y)
					im.Set(rng.Float32()*2-1, x, y)
				}
			}
			x, y := halide.NewVar("x"), halide.NewVar("y")
			r := halide.NewRDom("r", halide.Range(0, k))
			z := halide.NewFunc("z")
			z.Define(x, y).Is(halide.NewTuple(re.At(x, y), im.At(x, y)))
			p := halide.NewFunc("p")
			p.Define(x).Is(halide.NewTuple(float32(1), float32(0)))
			old, w := p.AtTuple(x), z.AtTuple(x, r)
			p.Define(x).Is(halide.NewTuple(
				old.Elem(0).Mul(w.Elem(0)).Sub(old.Elem(1).Mul(w.Elem(1))),
				old.Elem(0).Mul(w.Elem(1)).Add(old.Elem(1).Mul(w.Elem(0)))))
			c.sched(z, p, x)
			outRe, outIm := halide.NewBuffer[float32](n), halide.NewBuffer[float32](n)
			pl := halide.NewPipeline(p).WithOptions(halide.Options{Verify: true})
			if err := pl.RealizeTuple(outRe, outIm); err != nil {
				t.Fatalf("RealizeTuple: %v", err)
			}
			for xi := 0; xi < n; xi++ {
				pr, pi := 1.0, 0.0
				for j := 0; j < k; j++ {
					a, b := float64(re.Get(xi, j)), float64(im.Get(xi, j))
					pr, pi = pr*a-pi*b, pr*b+pi*a
				}
				// float32 against float64: a few ulps per step of k.
				if math.Abs(float64(outRe.Get(xi))-pr) > 1e-5 || math.Abs(float64(outIm.Get(xi))-pi) > 1e-5 {
					t.Fatalf("p(%d) = %g + %gi, want %g + %gi", xi, outRe.Get(xi), outIm.Get(xi), pr, pi)
				}
			}
		})
	}
}

// TestTupleHoistStorage: a Tuple Func stored per row of its consumer and
// hoisted to the root, one allocation per value.
func TestTupleHoistStorage(t *testing.T) {
	in := tupleInput(300)
	x, y := halide.NewVar("x"), halide.NewVar("y")
	g := halide.NewFunc("g")
	g.Define(x, y).Is(halide.NewTuple(in.At(x, y), in.At(x, y).Mul(2)))
	out := halide.NewFunc("out")
	out.Define(x, y).Is(g.AtTuple(x, y).Elem(0).Add(g.AtTuple(x.Add(1), y).Elem(1)))
	g.ComputeAt(out, y).HoistStorageRoot()
	checkShift(t, in, out)
	l, err := halide.NewPipeline(out).Lower()
	if err != nil {
		t.Fatal(err)
	}
	s := l.String()
	for _, buf := range []string{"allocate g.0[", "allocate g.1["} {
		if n := strings.Count(s, buf); n != 1 {
			t.Errorf("%d allocations %q, want 1:\n%s", n, buf, s)
		}
	}
}

// checkShift realizes out(x, y) = g(x, y)[0] + g(x+1, y)[1], g = (in, in*2).
func checkShift(t *testing.T, in *halide.Buffer[float32], out *halide.Func) {
	t.Helper()
	res := halide.NewBuffer[float32](tupleW-1, tupleH)
	if err := halide.NewPipeline(out).WithOptions(halide.Options{Verify: true}).Realize(res); err != nil {
		t.Fatal(err)
	}
	for j := 0; j < tupleH; j++ {
		for i := 0; i < tupleW-1; i++ {
			if got, want := res.Get(i, j), in.Get(i, j)+2*in.Get(i+1, j); got != want {
				t.Fatalf("out(%d, %d) = %g, want %g", i, j, got, want)
			}
		}
	}
}

// TestTupleSlidingWindow: a Tuple Func read at y and y+1, computed per
// row and stored at the root (it slides: each row computes one new row of
// g) or folded to two rows.
func TestTupleSlidingWindow(t *testing.T) {
	for _, fold := range []bool{false, true} {
		in := tupleInput(400)
		x, y := halide.NewVar("x"), halide.NewVar("y")
		g := halide.NewFunc("g")
		g.Define(x, y).Is(halide.NewTuple(in.At(x, y), in.At(x, y).Mul(2)))
		mid := halide.NewFunc("mid")
		mid.Define(x, y).Is(halide.NewTuple(g.AtTuple(x, y).Elem(0).Add(g.AtTuple(x, y.Add(1)).Elem(0)), g.AtTuple(x, y).Elem(1).Add(g.AtTuple(x, y.Add(1)).Elem(1))))
		out := halide.NewFunc("out")
		out.Define(x, y).Is(mid.AtTuple(x, y).Elem(0).Add(mid.AtTuple(x.Add(1), y).Elem(1)))
		mid.ComputeRoot()
		g.StoreRoot().ComputeAt(mid, y)
		if fold {
			g.FoldStorage(y, 2)
		}
		res := halide.NewBuffer[float32](tupleW-1, tupleH-1)
		if err := halide.NewPipeline(out).WithOptions(halide.Options{Verify: true}).Realize(res); err != nil {
			t.Fatal(err)
		}
		for j := 0; j < tupleH-1; j++ {
			for i := 0; i < tupleW-1; i++ {
				want := in.Get(i, j) + in.Get(i, j+1) + 2*(in.Get(i+1, j)+in.Get(i+1, j+1))
				if got := res.Get(i, j); got != want {
					t.Fatalf("fold %v: out(%d, %d) = %g, want %g", fold, i, j, got, want)
				}
			}
		}
	}
}

// TestArgmaxEdges checks Halide's results at the edges: a tie goes to the
// first point; a value never above the initial one (the lowest int32)
// leaves the coordinates 0, even where the RDom does not contain 0; and
// an argmin of r - x over the one point r = 3 is not mistaken by a
// comparison rearranged into an overflow (3 - x < 2^31 - 1 as
// 3 < x + 2^31 - 1; progfuzz -seed 771, program 1277), nor the first
// point's comparison with the initial value (r - x < 2^31 - 1 as
// r < x + 2^31 - 1; program 6159).
func TestArgmaxEdges(t *testing.T) {
	x := halide.NewVar("x")
	r := halide.NewRDom("r", halide.Range(2, 3))
	one := halide.NewRDom("one", halide.Range(3, 1))
	in := halide.NewBuffer[int32](5)
	for i, v := range []int32{0, 0, math.MinInt32, math.MinInt32, math.MinInt32} {
		in.Set(v, i)
	}
	cases := []struct {
		name      string
		value     halide.Tuple
		col, want int32
	}{
		{"never above the lowest", halide.Argmax(in.At(r)), 0, math.MinInt32},
		{"tie goes to the first", halide.Argmin(in.At(r)), 2, math.MinInt32},
		{"no overflow", halide.Argmin(one.X().Sub(x)), 3, 0},
		{"first point, no overflow", halide.Argmin(r.X().Sub(x)), 2, -1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := halide.NewFunc("f")
			f.Define(x).Is(c.value)
			col, val := halide.NewBuffer[int32](4), halide.NewBuffer[int32](4)
			if err := f.RealizeTuple(col, val); err != nil {
				t.Fatal(err)
			}
			want := c.want // at x = 3: 3 - 3 for "no overflow", 2 - 3 for the first point
			if col.Get(3) != c.col || val.Get(3) != want {
				t.Errorf("f(3) = (%d, %d), want (%d, %d)", col.Get(3), val.Get(3), c.col, want)
			}
		})
	}
}
