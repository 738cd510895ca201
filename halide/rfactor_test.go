package halide_test

import (
	"math"
	"math/rand"
	"strings"
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// RFactor against plain Go: every reduction op, over a 2-D RDom and over
// a split 1-D RDom (whose tail is guarded), with the intermediate computed
// at the root, at a loop of f, at f's merge loop, in parallel over the new
// dimension on the CPU, and on GPU blocks and threads on the emulator.
// Inputs are random and never zero (a zero would hide a product or a
// dropped term).

// Sizes: not multiples of the split factor 8 nor of one another, so that
// tails are partial; rfW * rfH values per point keep int32 products
// wrapping (which Go's int32 arithmetic reproduces exactly).
const (
	rfW, rfH = 13, 11 // the 2-D input, also the 1-D input's length rfW*rfH
	rfNX     = 5      // f's extent
	rfSplit  = 8      // the factor of the 1-D RDom's split
)

// rfOp is a reduction: its update (on f at x, with value v), the initial
// value of f, and the Go fold.
type rfOp struct {
	name   string
	update func(f *halide.Func, x halide.Var, v halide.Expr)
	init   int32
	fold   func(acc, v int32) int32
}

var rfOps = []rfOp{
	{"sum", func(f *halide.Func, x halide.Var, v halide.Expr) { f.Define(x).PlusEq(v) }, 5,
		func(a, v int32) int32 { return a + v }},
	{"product", func(f *halide.Func, x halide.Var, v halide.Expr) { f.Define(x).TimesEq(v) }, 3,
		func(a, v int32) int32 { return a * v }},
	{"min", func(f *halide.Func, x halide.Var, v halide.Expr) { f.Define(x).MinEq(v) }, 500,
		func(a, v int32) int32 { return min(a, v) }},
	{"max", func(f *halide.Func, x halide.Var, v halide.Expr) { f.Define(x).MaxEq(v) }, -500,
		func(a, v int32) int32 { return max(a, v) }},
	// Commuted and regrouped forms, which ProveAssociative recognizes.
	{"sum_commuted", func(f *halide.Func, x halide.Var, v halide.Expr) { f.Define(x).Is(v.Add(f.At(x)).Add(1)) }, 5,
		func(a, v int32) int32 { return a + v + 1 }},
	{"difference", func(f *halide.Func, x halide.Var, v halide.Expr) { f.Define(x).Is(f.At(x).Sub(v)) }, 5,
		func(a, v int32) int32 { return a - v }},
	{"max_commuted", func(f *halide.Func, x halide.Var, v halide.Expr) { f.Define(x).Is(halide.Max(v, f.At(x))) }, -500,
		func(a, v int32) int32 { return max(a, v) }},
	{"bitand", func(f *halide.Func, x halide.Var, v halide.Expr) { f.Define(x).Is(f.At(x).BitAnd(v.BitOr(0x7f0))) }, -1,
		func(a, v int32) int32 { return a & (v | 0x7f0) }},
	{"bitor", func(f *halide.Func, x halide.Var, v halide.Expr) { f.Define(x).Is(v.BitOr(f.At(x))) }, 0x100,
		func(a, v int32) int32 { return a | v }},
	{"bitxor", func(f *halide.Func, x halide.Var, v halide.Expr) { f.Define(x).Is(f.At(x).BitXor(v)) }, 7,
		func(a, v int32) int32 { return a ^ v }},
}

// rfShape is the RDom of f's update and what RFactor keeps of it.
type rfShape struct {
	name string
	// build defines f's update with op over input in (rfW x rfH, read as
	// a flat vector by the 1-D shape) and factors it; it returns the
	// intermediate, its new Var and the loop of f's update that runs over
	// the kept RVar (for ComputeAt).
	build func(op rfOp, f *halide.Func, x halide.Var, in *halide.ImageParam) (intm *halide.Func, u halide.Var, kept halide.VarOrRVar)
	// flat reads in as one vector of rfW*rfH values.
	flat bool
}

// rfValue is the value each shape reduces: the input plus a term in x,
// so every point of f gets its own result.
func rfValue(in halide.Expr, x halide.Var) halide.Expr { return in.Add(x.Mul(3)) }

var rfShapes = []rfShape{
	{"2d", func(op rfOp, f *halide.Func, x halide.Var, in *halide.ImageParam) (*halide.Func, halide.Var, halide.VarOrRVar) {
		r := halide.NewRDom("r", halide.Range(0, in.Dim(0).Extent()), halide.Range(0, in.Dim(1).Extent()))
		op.update(f, x, rfValue(in.At(r.X(), r.Y()), x))
		u := halide.NewVar("u")
		return f.Update(0).RFactor(halide.RFactorPair{R: r.Y(), V: u}), u, r.Y()
	}, false},
	{"1d_split", func(op rfOp, f *halide.Func, x halide.Var, in *halide.ImageParam) (*halide.Func, halide.Var, halide.VarOrRVar) {
		r := halide.NewRDom("r", halide.Range(0, in.Dim(0).Extent()))
		op.update(f, x, rfValue(in.At(r), x))
		u, rxo, rxi := halide.NewVar("u"), halide.NewRVar("rxo"), halide.NewRVar("rxi")
		return f.Update(0).Split(r, rxo, rxi, rfSplit).RFactor(halide.RFactorPair{R: rxo, V: u}), u, rxo
	}, true},
	{"1d_split_inner", func(op rfOp, f *halide.Func, x halide.Var, in *halide.ImageParam) (*halide.Func, halide.Var, halide.VarOrRVar) {
		r := halide.NewRDom("r", halide.Range(0, in.Dim(0).Extent()))
		op.update(f, x, rfValue(in.At(r), x))
		u, rxo, rxi := halide.NewVar("u"), halide.NewRVar("rxo"), halide.NewRVar("rxi")
		return f.Update(0).Split(r, rxo, rxi, rfSplit).RFactor(halide.RFactorPair{R: rxi, V: u}), u, rxi
	}, true},
	{"2d_fused", func(op rfOp, f *halide.Func, x halide.Var, in *halide.ImageParam) (*halide.Func, halide.Var, halide.VarOrRVar) {
		r := halide.NewRDom("r", halide.Range(0, in.Dim(0).Extent()), halide.Range(0, in.Dim(1).Extent()))
		op.update(f, x, rfValue(in.At(r.X(), r.Y()), x))
		u, rf := halide.NewVar("u"), halide.NewRVar("rf")
		return f.Update(0).Fuse(r.X(), r.Y(), rf).RFactor(halide.RFactorPair{R: rf, V: u}), u, rf
	}, false},
}

// rfSchedule schedules the intermediate of a shape.
type rfSchedule struct {
	name  string
	gpu   bool
	apply func(f, intm *halide.Func, x, u halide.Var, kept halide.VarOrRVar)
}

var rfSchedules = []rfSchedule{
	{"root", false, func(f, intm *halide.Func, x, u halide.Var, kept halide.VarOrRVar) { intm.ComputeRoot() }},
	{"at_x", false, func(f, intm *halide.Func, x, u halide.Var, kept halide.VarOrRVar) { intm.ComputeAt(f, x) }},
	{"at_kept", false, func(f, intm *halide.Func, x, u halide.Var, kept halide.VarOrRVar) { intm.ComputeAt(f, kept) }},
	{"parallel", false, func(f, intm *halide.Func, x, u halide.Var, kept halide.VarOrRVar) {
		intm.ComputeRoot().Parallel(u)
		intm.Update(0).Parallel(u)
	}},
	{"gpu_blocks_u", true, func(f, intm *halide.Func, x, u halide.Var, kept halide.VarOrRVar) {
		// The update's loops are r$x (or what is left of the RDom), u,
		// x: the thread loop x goes inside the block loop u.
		intm.ComputeRoot().GPUBlocks(u).GPUThreads(x)
		intm.Update(0).Reorder(x, u).GPUBlocks(u).GPUThreads(x)
	}},
	{"gpu_tile_u", true, func(f, intm *halide.Func, x, u halide.Var, kept halide.VarOrRVar) {
		// GuardWithIf: the Auto tail of a pure var of an update is
		// RoundUp (as in Halide), which would read past the input.
		ub, ut := halide.NewVar("ub"), halide.NewVar("ut")
		intm.ComputeRoot().GPUTile1D(u, ub, ut, 4)
		intm.Update(0).GPUTile1D(u, ub, ut, 4, halide.GuardWithIf)
	}},
	{"gpu_atomic_merge", true, func(f, intm *halide.Func, x, u halide.Var, kept halide.VarOrRVar) {
		// The split-K shape: the intermediate on the GPU, and f's merge
		// too, one block per kept RVar value adding into f atomically.
		intm.ComputeRoot().GPUBlocks(u).GPUThreads(x)
		intm.Update(0).Reorder(x, u).GPUBlocks(u).GPUThreads(x)
		f.Update(0).Atomic().Reorder(x, kept).GPUBlocks(kept).GPUThreads(x)
	}},
	{"gpu_tile_u_roundup", true, func(f, intm *halide.Func, x, u halide.Var, kept halide.VarOrRVar) {
		// RoundUp where it reads nothing past the input: the pieces of
		// a split RDom are guarded (its extent is not a multiple of
		// the factor), and so is a fused one (its outer RVar is
		// promised to stay in its range). (On an RVar purified whole,
		// RoundUp reads past the input, as in Halide: not drawn.)
		ub, ut := halide.NewVar("ub"), halide.NewVar("ut")
		intm.ComputeRoot().GPUTile1D(u, ub, ut, 4)
		intm.Update(0).GPUTile1D(u, ub, ut, 4, halide.RoundUp)
	}},
}

// rfInput returns an rfW x rfH buffer of random values, never zero, in
// [-lim, lim].
func rfInput(rng *rand.Rand, lim int) *halide.Buffer[int32] {
	b := halide.NewBuffer[int32](rfW, rfH)
	for y := 0; y < rfH; y++ {
		for x := 0; x < rfW; x++ {
			v := 0
			for v == 0 {
				v = rng.Intn(2*lim+1) - lim
			}
			b.Set(int32(v), x, y)
		}
	}
	return b
}

func TestRFactorMatchesReference(t *testing.T) {
	for _, op := range rfOps {
		for _, sh := range rfShapes {
			for _, sc := range rfSchedules {
				if sc.name == "gpu_tile_u_roundup" && sh.name == "2d" {
					continue
				}
				t.Run(op.name+"/"+sh.name+"/"+sc.name, func(t *testing.T) {
					rng := rand.New(rand.NewSource(int64(len(op.name)*1000 + len(sh.name)*10 + len(sc.name))))
					lim := 1000
					if op.name == "product" {
						lim = 9
					}
					buf := rfInput(rng, lim)
					x := halide.NewVar("x")
					dims := 2
					if sh.flat {
						dims = 1
					}
					in := halide.NewImageParam("in", halide.Int32, dims)
					f := halide.NewFunc("f")
					f.Define(x).Is(op.init)
					intm, u, kept := sh.build(op, f, x, in)
					if err := intm.Err(); err != nil {
						t.Fatalf("RFactor: %v", err)
					}
					sc.apply(f, intm, x, u, kept)
					if sh.flat {
						flat := halide.NewBuffer[int32](rfW * rfH)
						for i := 0; i < rfW*rfH; i++ {
							flat.Set(buf.Get(i%rfW, i/rfW), i)
						}
						in.Set(flat)
					} else {
						in.Set(buf)
					}
					p := halide.NewPipeline(f)
					out := halide.NewBuffer[int32](rfNX)
					if err := p.Realize(out); err != nil {
						t.Fatalf("Realize: %v", err)
					}
					if sc.gpu {
						l, err := p.Lower()
						if err != nil {
							t.Fatal(err)
						}
						if len(l.Kernels()) == 0 {
							t.Errorf("a GPU schedule made no kernel")
						}
					}
					for xv := 0; xv < rfNX; xv++ {
						want := op.init
						for y := 0; y < rfH; y++ {
							for xi := 0; xi < rfW; xi++ {
								want = op.fold(want, buf.Get(xi, y)+int32(3*xv))
							}
						}
						if got := out.Get(xv); got != want {
							t.Errorf("f(%d) = %d, want %d", xv, got, want)
						}
					}
				})
			}
		}
	}
}

// The classic two-stage GPU reduction: the float32 sum of a 2-D array.
// RFactor makes the columns pure; the intermediate sums each column on the
// GPU, one thread per column in blocks of 32 (consecutive threads read
// consecutive addresses at each step of r.y), and the output adds the
// column sums.
func TestRFactorGPUSum2D(t *testing.T) {
	const w, h = 300, 70
	rng := rand.New(rand.NewSource(2))
	buf := halide.NewBuffer[float32](w, h)
	want := 0.0
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			v := float32(rng.Float64()*2 - 1)
			for v == 0 {
				v = float32(rng.Float64())
			}
			buf.Set(v, x, y)
			want += float64(v)
		}
	}
	in := halide.NewImageParam("in", halide.Float32, 2)
	in.Set(buf)
	r := halide.NewRDom("r", halide.Range(0, in.Dim(0).Extent()), halide.Range(0, in.Dim(1).Extent()))
	sum := halide.NewFunc("sum")
	sum.Define().Is(float32(0))
	sum.Define().PlusEq(in.At(r.X(), r.Y()))
	u, ub, ut := halide.NewVar("u"), halide.NewVar("ub"), halide.NewVar("ut")
	intm := sum.Update(0).RFactor(halide.RFactorPair{R: r.X(), V: u})
	intm.ComputeRoot().GPUTile1D(u, ub, ut, 32)
	intm.Update(0).GPUTile1D(u, ub, ut, 32, halide.GuardWithIf)
	p := halide.NewPipeline(sum)
	l, err := p.Lower()
	if err != nil {
		t.Fatal(err)
	}
	if n := len(l.Kernels()); n != 2 {
		t.Errorf("%d kernels, want 2 (the intermediate's two stages)", n)
	}
	out := halide.NewBuffer[float32]()
	if err := p.Realize(out); err != nil {
		t.Fatal(err)
	}
	// 21,000 float32 terms summed in another order than want's float64
	// sum: each of the h-long column sums and the w-long merge rounds at
	// most once per addition, 2^-24 relative to partial sums bounded by
	// the sum of |v| (< w*h).
	if got := float64(out.Get()); math.Abs(got-want) > float64(w*h)*float64(w+h)/(1<<24) {
		t.Errorf("sum = %v, want %v", got, want)
	}
}

// A histogram: the update writes at a computed bin, which RFactor keeps
// (the intermediate writes its bin for each row u), and the merge adds the
// rows' histograms at every bin.
func TestRFactorHistogram(t *testing.T) {
	const bins = 16
	rng := rand.New(rand.NewSource(3))
	buf := rfInput(rng, 20)
	in := halide.NewImageParam("in", halide.Int32, 2)
	in.Set(buf)
	x, u := halide.NewVar("x"), halide.NewVar("u")
	r := halide.NewRDom("r", halide.Range(0, in.Dim(0).Extent()), halide.Range(0, in.Dim(1).Extent()))
	hist := halide.NewFunc("hist")
	hist.Define(x).Is(int32(0))
	hist.Define(halide.Clamp(in.At(r.X(), r.Y()), 0, bins-1)).PlusEq(int32(1))
	intm := hist.Update(0).RFactor(halide.RFactorPair{R: r.Y(), V: u})
	intm.ComputeRoot().GPUBlocks(u).GPUThreads(x)
	intm.Update(0).GPUBlocks(u)
	p := halide.NewPipeline(hist)
	nest, err := p.LoopNest()
	if err != nil {
		t.Fatal(err)
	}
	// The merge runs over every bin, outside the rows.
	if !strings.Contains(nest, "for x:\n      for r$y:") {
		t.Errorf("the merge is not a loop over the bins outside r$y:\n%s", nest)
	}
	out := halide.NewBuffer[int32](bins)
	if err := p.Realize(out); err != nil {
		t.Fatal(err)
	}
	var want [bins]int32
	for y := 0; y < rfH; y++ {
		for xi := 0; xi < rfW; xi++ {
			want[min(max(buf.Get(xi, y), 0), bins-1)]++
		}
	}
	for b := 0; b < bins; b++ {
		if got := out.Get(b); got != want[b] {
			t.Errorf("hist(%d) = %d, want %d", b, got, want[b])
		}
	}
}

// An update whose left-hand side is an RVar (its iterations are already
// independent), factored on that RVar and then again: the intermediate's
// update writes f_intm(u, u), and its own intermediate runs the rows in
// parallel.
func TestRFactorTwiceAndOnALeftHandSideRVar(t *testing.T) {
	rng := rand.New(rand.NewSource(4))
	buf := rfInput(rng, 1000)
	in := halide.NewImageParam("in", halide.Int32, 2)
	in.Set(buf)
	x, u, v := halide.NewVar("x"), halide.NewVar("u"), halide.NewVar("v")
	r := halide.NewRDom("r", halide.Range(0, rfW), halide.Range(0, in.Dim(1).Extent()))
	f := halide.NewFunc("f")
	f.Define(x).Is(int32(1))
	f.Define(r.X()).PlusEq(in.At(r.X(), r.Y()))
	intm := f.Update(0).RFactor(halide.RFactorPair{R: r.X(), V: u})
	intm.ComputeRoot()
	intm2 := intm.Update(0).RFactor(halide.RFactorPair{R: r.Y(), V: v})
	intm2.ComputeRoot().Parallel(v)
	intm2.Update(0).Parallel(v)
	if intm.Name() != "f_intm" || intm2.Name() != "f_intm_intm" {
		t.Errorf("intermediates %s and %s, want f_intm and f_intm_intm", intm.Name(), intm2.Name())
	}
	out := halide.NewBuffer[int32](rfW + 2)
	if err := halide.NewPipeline(f).Realize(out); err != nil {
		t.Fatal(err)
	}
	for xv := 0; xv < rfW+2; xv++ {
		want := int32(1)
		for y := 0; y < rfH && xv < rfW; y++ {
			want += buf.Get(xv, y)
		}
		if got := out.Get(xv); got != want {
			t.Errorf("f(%d) = %d, want %d", xv, got, want)
		}
	}
}

// Keeping every RVar leaves an intermediate without an RDom (one point
// per value of the RVars); keeping none leaves f's update without one.
func TestRFactorAllAndNone(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	buf := rfInput(rng, 1000)
	for _, keep := range []string{"all", "none"} {
		t.Run(keep, func(t *testing.T) {
			in := halide.NewImageParam("in", halide.Int32, 2)
			in.Set(buf)
			x, u, v := halide.NewVar("x"), halide.NewVar("u"), halide.NewVar("v")
			r := halide.NewRDom("r", halide.Range(0, in.Dim(0).Extent()), halide.Range(0, in.Dim(1).Extent()))
			f := halide.NewFunc("f")
			f.Define(x).Is(int32(-3))
			f.Define(x).MaxEq(in.At(r.X(), r.Y()).Mul(x.Add(1)))
			var pairs []halide.RFactorPair
			if keep == "all" {
				pairs = []halide.RFactorPair{{R: r.Y(), V: v}, {R: r.X(), V: u}}
			}
			intm := f.Update(0).RFactor(pairs...)
			intm.ComputeRoot()
			out := halide.NewBuffer[int32](rfNX)
			if err := halide.NewPipeline(f).Realize(out); err != nil {
				t.Fatal(err)
			}
			if keep == "all" && intm.Dims() != 3 {
				t.Errorf("the intermediate has %d dimensions, want 3 (x, u, v)", intm.Dims())
			}
			for xv := 0; xv < rfNX; xv++ {
				want := int32(-3)
				for y := 0; y < rfH; y++ {
					for xi := 0; xi < rfW; xi++ {
						want = max(want, buf.Get(xi, y)*int32(xv+1))
					}
				}
				if got := out.Get(xv); got != want {
					t.Errorf("f(%d) = %d, want %d", xv, got, want)
				}
			}
		})
	}
}

// Floats and bools: min and max of float32 values (exact in any order)
// and the logical and, or and xor of bools.
func TestRFactorFloatAndBool(t *testing.T) {
	rng := rand.New(rand.NewSource(6))
	const n = 45
	fb := halide.NewBuffer[float32](n)
	vals := make([]float32, n)
	for i := range vals {
		for vals[i] == 0 {
			vals[i] = float32(rng.NormFloat64())
		}
		fb.Set(vals[i], i)
	}
	type boolCase struct {
		name   string
		update func(f *halide.Func, v halide.Expr)
		init   bool
		fold   func(a, b bool) bool
	}
	for _, c := range []boolCase{
		{"and", func(f *halide.Func, v halide.Expr) { f.Define().Is(f.At().And(v)) }, true, func(a, b bool) bool { return a && b }},
		{"or", func(f *halide.Func, v halide.Expr) { f.Define().Is(v.Or(f.At())) }, false, func(a, b bool) bool { return a || b }},
		{"xor", func(f *halide.Func, v halide.Expr) { f.Define().Is(f.At().BitXor(v)) }, true, func(a, b bool) bool { return a != b }},
		{"float_min", nil, false, nil},
		{"float_max", nil, false, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := halide.NewImageParam("in", halide.Float32, 1)
			in.Set(fb)
			r := halide.NewRDom("r", halide.Range(0, in.Dim(0).Extent()))
			rxo, rxi, u := halide.NewRVar("rxo"), halide.NewRVar("rxi"), halide.NewVar("u")
			f := halide.NewFunc("f")
			switch c.name {
			case "float_min":
				f.Define().Is(float32(1e30))
				f.Define().MinEq(in.At(r))
			case "float_max":
				f.Define().Is(float32(-1e30))
				f.Define().MaxEq(in.At(r))
			default:
				f.Define().Is(halide.Lit(halide.Bool, map[bool]float64{false: 0, true: 1}[c.init]))
				c.update(f, in.At(r).Gt(0.5))
			}
			intm := f.Update(0).Split(r, rxo, rxi, 4).RFactor(halide.RFactorPair{R: rxo, V: u})
			intm.ComputeRoot().Parallel(u)
			intm.Update(0).Parallel(u)
			switch c.name {
			case "float_min", "float_max":
				out := halide.NewBuffer[float32]()
				if err := halide.NewPipeline(f).Realize(out); err != nil {
					t.Fatal(err)
				}
				want := vals[0]
				for _, v := range vals {
					if c.name == "float_min" {
						want = min(want, v)
					} else {
						want = max(want, v)
					}
				}
				if got := out.Get(); got != want {
					t.Errorf("got %v, want %v", got, want)
				}
			default:
				out := halide.NewBuffer[bool]()
				if err := halide.NewPipeline(f).Realize(out); err != nil {
					t.Fatal(err)
				}
				want := c.init
				for _, v := range vals {
					want = c.fold(want, v > 0.5)
				}
				if got := out.Get(); got != want {
					t.Errorf("got %v, want %v", got, want)
				}
			}
		})
	}
}

// An In wrapper made for the Func before RFactor is what the intermediate
// reads: here a row of the input, computed in the intermediate's loop over
// the rows.
func TestRFactorReadsThroughWrappers(t *testing.T) {
	const bins = 16
	rng := rand.New(rand.NewSource(7))
	buf := rfInput(rng, 20)
	in := halide.NewImageParam("in", halide.Int32, 2)
	in.Set(buf)
	x, u := halide.NewVar("x"), halide.NewVar("u")
	r := halide.NewRDom("r", halide.Range(0, in.Dim(0).Extent()), halide.Range(0, in.Dim(1).Extent()))
	hist := halide.NewFunc("hist")
	hist.Define(x).Is(int32(0))
	hist.Define(halide.Clamp(in.At(r.X(), r.Y()), 0, bins-1)).PlusEq(int32(1))
	w := in.In(hist)
	intm := hist.Update(0).RFactor(halide.RFactorPair{R: r.Y(), V: u})
	intm.ComputeRoot()
	w.ComputeAtStage(intm.Update(0), u)
	p := halide.NewPipeline(hist)
	nest, err := p.LoopNest()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(nest, "for u:\n    produce in_in_hist:") {
		t.Errorf("the wrapper is not computed in the intermediate's loop over u:\n%s", nest)
	}
	out := halide.NewBuffer[int32](bins)
	if err := p.Realize(out); err != nil {
		t.Fatal(err)
	}
	var want [bins]int32
	for y := 0; y < rfH; y++ {
		for xi := 0; xi < rfW; xi++ {
			want[min(max(buf.Get(xi, y), 0), bins-1)]++
		}
	}
	for b := 0; b < bins; b++ {
		if got := out.Get(b); got != want[b] {
			t.Errorf("hist(%d) = %d, want %d", b, got, want[b])
		}
	}
}
