package halide_test

// Tests of AlignBounds and AlignExtent: the values against a plain-Go
// reference on random inputs, and the region each realization of the
// aligned Func computes, read from a trace of its stores (Func.TraceStores)
// or from the lowered statement and the kernel report. Their mistakes are
// in tests/errors/align_test.go.

import (
	"fmt"
	"math/rand"
	"sync"
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// alignCase is one alignment of g in x: AlignBounds(x, mod, rem), or
// AlignExtent(x, mod) where extentOnly is set (rem unused).
type alignCase struct {
	mod, rem   int
	extentOnly bool
}

func (c alignCase) String() string {
	if c.extentOnly {
		return fmt.Sprintf("AlignExtent(x, %d)", c.mod)
	}
	return fmt.Sprintf("AlignBounds(x, %d, %d)", c.mod, c.rem)
}

func (c alignCase) apply(g *halide.Func, x halide.Var) {
	if c.extentOnly {
		g.AlignExtent(x, c.mod)
	} else {
		g.AlignBounds(x, c.mod, c.rem)
	}
}

// want returns the region [lo, hi] that the alignment makes of the
// needed region [lo, hi], as Halide's align_bounds and align_extent
// define it: the smallest one that contains it whose extent is a multiple
// of mod and (AlignBounds) whose min is rem modulo mod.
func (c alignCase) want(lo, hi int) (int, int) {
	if !c.extentOnly {
		lo -= ((lo-c.rem)%c.mod + c.mod) % c.mod
	}
	ext := (hi - lo + 1 + c.mod - 1) / c.mod * c.mod
	return lo, lo + ext - 1
}

var alignCases = []alignCase{
	{mod: 4, rem: 0}, {mod: 4, rem: 1}, {mod: 3, rem: 2}, {mod: 7, rem: 5},
	{mod: 1, rem: 0}, {mod: 4, extentOnly: true}, {mod: 5, extentOnly: true},
}

// alignPipeline is f(x) = g(x - 1) + 2*g(x + 2) over the random input in
// (repeated at its edges), g(x) = 3*in(x) + x with an update g(x) += 1
// when update is set, and its reference.
func alignPipeline(in *halide.Buffer[int32], update bool) (f, g *halide.Func, x halide.Var, ref func(i int) int32) {
	x = halide.NewVar("x")
	e := halide.RepeatEdge(in)
	g = halide.NewFunc("g")
	g.Define(x).Is(e.At(x).Mul(3).Add(x))
	if update {
		g.Define(x).PlusEq(1)
	}
	f = halide.NewFunc("f")
	f.Define(x).Is(g.At(x.Sub(1)).Add(g.At(x.Add(2)).Mul(2)))
	n := len(in.Data())
	gv := func(i int) int32 {
		v := 3*in.Get(min(max(i, 0), n-1)) + int32(i)
		if update {
			v++
		}
		return v
	}
	return f, g, x, func(i int) int32 { return gv(i-1) + 2*gv(i+2) }
}

func alignInput(seed int64, n int) *halide.Buffer[int32] {
	rng := rand.New(rand.NewSource(seed))
	in := halide.NewBuffer[int32](n)
	for i := 0; i < n; i++ {
		in.Set(int32(rng.Intn(1000)-500), i)
	}
	return in
}

// productions splits a trace of the stores to g and f into the
// productions of g: each run of stores to g, with the stores to f that
// follow it (the points of f that read that production).
type production struct {
	g, f []int // the x stored, in order
}

func productions(events []halide.TraceEvent) []production {
	var ps []production
	inF := true
	for _, e := range events {
		switch e.Func {
		case "g":
			if inF {
				ps = append(ps, production{})
				inF = false
			}
			ps[len(ps)-1].g = append(ps[len(ps)-1].g, e.Coords[0])
		case "f":
			inF = true
			if len(ps) > 0 {
				ps[len(ps)-1].f = append(ps[len(ps)-1].f, e.Coords[0])
			}
		}
	}
	return ps
}

// region returns the min and max of xs and whether xs covers [min, max]
// with each point stored stages times.
func region(xs []int, stages int) (lo, hi int, ok bool) {
	lo, hi = xs[0], xs[0]
	count := map[int]int{}
	for _, v := range xs {
		lo, hi = min(lo, v), max(hi, v)
		count[v]++
	}
	for v := lo; v <= hi; v++ {
		if count[v] != stages {
			return lo, hi, false
		}
	}
	return lo, hi, len(count) == hi-lo+1
}

// TestAlignBoundsRegions computes g at each tile of f (and at the root),
// aligned in x, on the CPU: the values match the reference, and each
// production of g, read from the trace, computes exactly the aligned
// region of what its tile of f reads.
func TestAlignBoundsRegions(t *testing.T) {
	const n = 37 // not a multiple of the tile: the last tile shifts inwards
	in := alignInput(1, n)
	for _, c := range alignCases {
		for _, at := range []string{"compute_at", "compute_root"} {
			for _, update := range []bool{false, true} {
				name := fmt.Sprintf("%v/%s/update=%v", c, at, update)
				t.Run(name, func(t *testing.T) {
					f, g, x, ref := alignPipeline(in, update)
					xo, xi := halide.NewVar("xo"), halide.NewVar("xi")
					f.Split(x, xo, xi, 8)
					if at == "compute_at" {
						g.ComputeAt(f, xo)
					} else {
						g.ComputeRoot()
					}
					c.apply(g, x)
					f.TraceStores()
					g.TraceStores()
					var events []halide.TraceEvent
					out := halide.NewBuffer[int32](n)
					p := halide.NewPipeline(f).WithOptions(halide.Options{Verify: true, Trace: func(e halide.TraceEvent) {
						events = append(events, halide.TraceEvent{Func: e.Func, Coords: append([]int(nil), e.Coords...)})
					}})
					if err := p.Realize(out); err != nil {
						t.Fatal(err)
					}
					for i := 0; i < n; i++ {
						if got, want := out.Get(i), ref(i); got != want {
							t.Fatalf("f(%d) = %d, want %d", i, got, want)
						}
					}
					stages := 1
					if update {
						stages = 2
					}
					ps := productions(events)
					if want := map[string]int{"compute_at": 5, "compute_root": 1}[at]; len(ps) != want {
						t.Fatalf("%d productions of g, want %d", len(ps), want)
					}
					for k, pr := range ps {
						lo, hi, ok := region(pr.g, stages)
						if !ok {
							t.Fatalf("production %d of g stores %v: not each point of [%d, %d] %d times", k, pr.g, lo, hi, stages)
						}
						flo, fhi, _ := region(pr.f, 1)
						wlo, whi := c.want(flo-1, fhi+2)
						if lo != wlo || hi != whi {
							t.Fatalf("production %d of g (for f over [%d, %d], which reads [%d, %d]) computes [%d, %d], want [%d, %d]", k, flo, fhi, flo-1, fhi+2, lo, hi, wlo, whi)
						}
					}
				})
			}
		}
	}
}

// TestAlignBoundsGPU computes g, aligned in x, for each block of f in
// shared memory by the block's threads ("block"), or for each thread of f
// in its registers ("thread") or in shared memory, the block's threads
// producing the union of their regions together ("thread-shared"): the
// values match the reference on the emulator, and the trace of g's stores
// (made by the threads, in any order) shows every aligned region once.
// For "block", the shared allocation has the aligned region's constant
// bound.
func TestAlignBoundsGPU(t *testing.T) {
	const n = 45
	in := alignInput(2, n)
	for _, site := range []string{"block", "thread", "thread-shared"} {
		for _, c := range alignCases {
			t.Run(site+"/"+c.String(), func(t *testing.T) {
				f, g, x, ref := alignPipeline(in, false)
				bx, tx := halide.NewVar("bx"), halide.NewVar("tx")
				f.GPUTile1D(x, bx, tx, 8)
				switch site {
				case "block":
					g.ComputeAt(f, bx).StoreIn(halide.GPUShared).GPUThreads(x)
				case "thread":
					g.ComputeAt(f, tx)
				default:
					g.ComputeAt(f, tx).StoreIn(halide.GPUShared)
				}
				c.apply(g, x)
				g.TraceStores()
				var mu sync.Mutex
				stored := map[int]int{}
				p := halide.NewPipeline(f).WithOptions(halide.Options{Verify: true, Trace: func(e halide.TraceEvent) {
					mu.Lock()
					stored[e.Coords[0]]++
					mu.Unlock()
				}})
				rep, err := p.Report()
				if err != nil {
					t.Fatal(err)
				}
				if site == "block" {
					// The blocks' need is 11 points; the aligned region
					// has at most 11 + 2*(mod-1) (AlignBounds) or 11 +
					// mod-1 points, rounded down to a multiple of mod.
					need := 11
					most := (need + c.mod - 1) / c.mod * c.mod
					if !c.extentOnly {
						most = (need + c.mod - 1 + c.mod - 1) / c.mod * c.mod
					}
					if len(rep) != 1 || len(rep[0].Shared) != 1 || rep[0].Shared[0].Elements != int64(most) {
						t.Fatalf("report %+v, want one kernel with one shared allocation of %d elements", rep, most)
					}
				}
				out := halide.NewBuffer[int32](n)
				if err := p.Realize(out); err != nil {
					t.Fatal(err)
				}
				for i := 0; i < n; i++ {
					if got, want := out.Get(i), ref(i); got != want {
						t.Fatalf("f(%d) = %d, want %d", i, got, want)
					}
				}
				// Each block (tile [8b, 8b+7], the last shifted to
				// [n-8, n-1]) stores the aligned region of what it reads
				// once ("block"; "thread-shared", where the threads
				// compute the aligned union of their needs together), or
				// each thread the aligned region of what it reads.
				want := map[int]int{}
				for b := 0; b < (n+7)/8; b++ {
					t0 := min(8*b, n-8)
					switch site {
					case "block":
						lo, hi := c.want(t0-1, t0+9)
						for v := lo; v <= hi; v++ {
							want[v]++
						}
					case "thread":
						for i := t0; i < t0+8; i++ {
							lo, hi := c.want(i-1, i+2)
							for v := lo; v <= hi; v++ {
								want[v]++
							}
						}
					default:
						lo, hi := c.want(t0-1, t0+9)
						for v := lo; v <= hi; v++ {
							want[v]++
						}
					}
				}
				if fmt.Sprint(stored) != fmt.Sprint(want) {
					t.Fatalf("g stored %v (coordinate: times), want %v", stored, want)
				}
			})
		}
	}
}

// TestAlignBoundsOutput aligns the output itself: its region is its
// buffer's. An aligned buffer gives the values; one that is not is
// realized, as Halide's realize(sizes), over the aligned region around it
// and cropped to it (realize_grow.go), and holds the same values.
func TestAlignBoundsOutput(t *testing.T) {
	in := alignInput(3, 40)
	for _, tc := range []struct {
		c        alignCase
		min, ext int
	}{
		{alignCase{mod: 4, rem: 0}, 0, 36},
		{alignCase{mod: 4, rem: 0}, 0, 37},
		{alignCase{mod: 4, rem: 1}, 1, 36},
		{alignCase{mod: 4, rem: 1}, 0, 36},
		{alignCase{mod: 5, extentOnly: true}, 3, 35},
		{alignCase{mod: 5, extentOnly: true}, 3, 36},
	} {
		t.Run(fmt.Sprintf("%v/min=%d/extent=%d", tc.c, tc.min, tc.ext), func(t *testing.T) {
			f, _, x, ref := alignPipeline(in, false)
			tc.c.apply(f, x)
			out := halide.NewBuffer[int32](tc.ext).SetMin(tc.min)
			if err := f.Realize(out); err != nil {
				t.Fatal(err)
			}
			for i := tc.min; i < tc.min+tc.ext; i++ {
				if got, want := out.Get(i), ref(i); got != want {
					t.Fatalf("f(%d) = %d, want %d", i, got, want)
				}
			}
		})
	}
}

// TestAlignBoundsModulusOne checks that an alignment to modulus 1, which
// every region has, computes the same regions as no directive.
func TestAlignBoundsModulusOne(t *testing.T) {
	in := alignInput(4, 30)
	regions := func(align bool) []production {
		f, g, x, _ := alignPipeline(in, false)
		xo, xi := halide.NewVar("xo"), halide.NewVar("xi")
		f.Split(x, xo, xi, 8)
		g.ComputeAt(f, xo)
		if align {
			g.AlignBounds(x, 1, 0)
		}
		f.TraceStores()
		g.TraceStores()
		var events []halide.TraceEvent
		p := halide.NewPipeline(f).WithOptions(halide.Options{Trace: func(e halide.TraceEvent) {
			events = append(events, halide.TraceEvent{Func: e.Func, Coords: append([]int(nil), e.Coords...)})
		}})
		if err := p.Realize(halide.NewBuffer[int32](30)); err != nil {
			t.Fatal(err)
		}
		return productions(events)
	}
	if a, b := fmt.Sprint(regions(false)), fmt.Sprint(regions(true)); a != b {
		t.Fatalf("AlignBounds(x, 1, 0) changed the productions:\n%s\n%s", a, b)
	}
}

// TestAlignBoundsPorted ports Halide's test/correctness/align_bounds.cpp:
// h(x) = g(x - p) + g(x + p), g(x) = select(x % 2 == 0, f(x + 1), f(x - 1)
// + 8), g computed at the root and aligned, realized over [0, 10) for p =
// 3, 4, 5; the values and g's realized region (Halide traces it with
// trace_realizations; here the trace of g's stores). Not ported: Halide's
// check that the lowered code has no select left once g.unroll(x, 2)
// knows the parity of each copy (our simplifier does not use the
// alignment to decide x % 2), and the last case, a crash test of strided
// vector loads from an aligned buffer.
func TestAlignBoundsPorted(t *testing.T) {
	for _, tc := range []struct {
		name  string
		align func(g *halide.Func, x halide.Var)
		want  map[int32][2]int // p: min, extent of g's region
	}{
		{"align_bounds_2", func(g *halide.Func, x halide.Var) { g.AlignBounds(x, 2, 0).Unroll(x, 2) },
			map[int32][2]int{3: {-4, 18}, 4: {-4, 18}, 5: {-6, 22}}},
		{"align_bounds_2_1", func(g *halide.Func, x halide.Var) { g.AlignBounds(x, 2, 1).Unroll(x, 2) },
			map[int32][2]int{3: {-3, 16}, 4: {-5, 20}, 5: {-5, 20}}},
		{"align_extent_32", func(g *halide.Func, x halide.Var) { g.AlignExtent(x, 32) },
			map[int32][2]int{3: {-3, 32}, 4: {-4, 32}, 5: {-5, 32}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			x := halide.NewVar("x")
			f, g, h := halide.NewFunc("f"), halide.NewFunc("g"), halide.NewFunc("h")
			f.Define(x).Is(3)
			g.Define(x).Is(halide.Select(x.Mod(2).Eq(0), f.At(x.Add(1)), f.At(x.Sub(1)).Add(8)))
			p := halide.NewParam[int32]("p")
			h.Define(x).Is(g.At(x.Sub(p)).Add(g.At(x.Add(p))))
			f.ComputeRoot()
			g.ComputeRoot()
			tc.align(g, x)
			g.TraceStores()
			lo, hi := 0, 0
			pl := halide.NewPipeline(h).WithOptions(halide.Options{Verify: true, Trace: func(e halide.TraceEvent) {
				if lo > hi {
					lo, hi = e.Coords[0], e.Coords[0]
				}
				lo, hi = min(lo, e.Coords[0]), max(hi, e.Coords[0])
			}})
			for _, pv := range []int32{3, 4, 5} {
				p.Set(pv)
				lo, hi = 1, 0
				out := halide.NewBuffer[int32](10)
				if err := pl.Realize(out); err != nil {
					t.Fatal(err)
				}
				gv := func(v int) int32 { // f is 3 everywhere
					if v&1 == 0 {
						return 3
					}
					return 3 + 8
				}
				for i := 0; i < 10; i++ {
					if want := gv(i-int(pv)) + gv(i+int(pv)); out.Get(i) != want {
						t.Fatalf("p = %d: h(%d) = %d, want %d", pv, i, out.Get(i), want)
					}
				}
				if w := tc.want[pv]; lo != w[0] || hi-lo+1 != w[1] {
					t.Fatalf("p = %d: g computed over min %d, extent %d; Halide's is min %d, extent %d", pv, lo, hi-lo+1, w[0], w[1])
				}
			}
		})
	}
}
