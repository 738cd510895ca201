package differential_test

import (
	"fmt"
	"math"
	"math/rand"
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// The boundary conditions, realized on the CPU and on the emulator under a
// GPU schedule, against a plain-Go reference: every condition, over
// regions of extent 1, 2 and odd extents, with a nonzero min, read several
// periods away on both sides (and reflected, at -x), on an ImageParam, a
// Buffer read directly and a Func with explicit bounds, and on a subset of
// the dimensions.

// bcKind names a boundary condition and its reference.
type bcKind struct {
	name string
	make func(src halide.Source, bounds ...halide.RangeSpec) *halide.Func
	// at returns the offset in [0, n) that offset t of a region of extent
	// n reads, or -1 for the exterior constant.
	at func(t, n int) int
}

// exterior is ConstantExterior's value: no input value (inputs are in
// [1, 2)) and not 0; positive, so that out = bc + 3 bc never cancels.
const exterior = 7

// emod is the Euclidean remainder, in [0, n) for n > 0.
func emod(a, n int) int { return ((a % n) + n) % n }

var bcKinds = []bcKind{
	{"ConstantExterior", func(src halide.Source, b ...halide.RangeSpec) *halide.Func {
		return halide.ConstantExterior(src, float32(exterior), b...)
	}, func(t, n int) int {
		if t < 0 || t >= n {
			return -1
		}
		return t
	}},
	{"RepeatEdge", halide.RepeatEdge, func(t, n int) int { return min(max(t, 0), n-1) }},
	{"RepeatImage", halide.RepeatImage, func(t, n int) int { return emod(t, n) }},
	// Reflected with the edge: ... 1 0 | 0 1 ... n-1 | n-1 n-2 ...
	{"MirrorImage", halide.MirrorImage, func(t, n int) int {
		t = emod(t, 2*n)
		if t >= n {
			t = 2*n - 1 - t
		}
		return t
	}},
	// Reflected without the edge: ... 2 1 | 0 1 ... n-1 | n-2 ...; a
	// region of one element reads it everywhere.
	{"MirrorInterior", halide.MirrorInterior, func(t, n int) int {
		if n == 1 {
			return 0
		}
		t = emod(t, 2*(n-1))
		if t >= n {
			t = 2*(n-1) - t
		}
		return t
	}},
}

// bcRegion is a region of a 2-D input: its min and extent in x, and
// whether y has a condition too (when not, y is read as is).
type bcRegion struct {
	minX, extX int
	yBounded   bool
}

// gpuTargets are where the GPU schedules run: the emulator, and CUDA in a
// build with -tags cuda (cuda_test.go).
var gpuTargets = []halide.Target{halide.Emulator}

// bcSchedule schedules the output and the boundary Func.
type bcSchedule struct {
	name string
	gpu  bool
	s    func(out, bc *halide.Func, x, y halide.Var)
}

var bcSchedules = []bcSchedule{
	{"cpu-inline", false, func(out, bc *halide.Func, x, y halide.Var) {}},
	{"cpu-root-vectorized", false, func(out, bc *halide.Func, x, y halide.Var) {
		bc.ComputeRoot().Vectorize(x, 4)
		out.Vectorize(x, 4)
	}},
	{"emulator-inline", true, func(out, bc *halide.Func, x, y halide.Var) {
		out.GPUTile(x, y, v("bx"), v("by"), v("tx"), v("ty"), 8, 4)
	}},
	{"emulator-root", true, func(out, bc *halide.Func, x, y halide.Var) {
		bc.ComputeRoot().GPUTile(x, y, v("bx"), v("by"), v("tx"), v("ty"), 4, 4)
		out.GPUTile(x, y, v("bx"), v("by"), v("tx"), v("ty"), 8, 4)
	}},
}

// TestBoundaryConditions realizes out(x, y) = bc(x, y) + 3 bc(-x, y) over
// an output reaching several periods past both ends of the region in x
// (and in y when it has a condition), and checks every value.
func TestBoundaryConditions(t *testing.T) {
	// The input is W x H with its min at (inMinX, inMinY); regions in x
	// lie inside it. Extents 1 and 2 are the degenerate periods, 3, 5
	// and 7 odd ones.
	const W, H, inMinX, inMinY = 9, 5, -2, 3
	regions := []bcRegion{
		{inMinX, W, true},     // the whole buffer (no bounds given)
		{inMinX + 3, 1, true}, // extent 1
		{0, 2, true},          // extent 2
		{1, 3, false},         // odd, y unbounded
		{inMinX + 1, 5, true}, // odd, nonzero min
		{inMinX, 7, false},    // odd, y unbounded
	}
	sources := []string{"ImageParam", "Buffer", "Func"}
	seed := int64(1)
	for _, k := range bcKinds {
		for ri, r := range regions {
			for _, src := range sources {
				for _, sc := range bcSchedules {
					targets := []halide.Target{halide.Emulator}
					if sc.gpu {
						targets = gpuTargets
					}
					for _, tg := range targets {
						seed++
						name := fmt.Sprintf("%s/region%d_x[%d,+%d]_ybounded=%v/%s/%s", k.name, ri, r.minX, r.extX, r.yBounded, src, sc.name)
						if sc.gpu {
							name += "/" + tg.String()
						}
						t.Run(name, func(t *testing.T) {
							checkBoundary(t, k, r, ri == 0, src, sc, tg, W, H, inMinX, inMinY, seed)
						})
					}
				}
			}
		}
	}
}

func checkBoundary(t *testing.T, k bcKind, r bcRegion, whole bool, src string, sc bcSchedule, tg halide.Target, W, H, inMinX, inMinY int, seed int64) {
	rng := rand.New(rand.NewSource(seed))
	ib := halide.NewBuffer[float32](W, H).SetMin(inMinX, inMinY)
	ib.Fill(func([]int) float32 { return 1 + rng.Float32() })
	x, y := v("x"), v("y")
	// The region: the whole buffer, or [minX, minX+extX) in x and, in y,
	// the buffer's rows or no condition.
	yRange := halide.Range(inMinY, H)
	if !r.yBounded {
		yRange = halide.Unbounded()
	}
	bounds := []halide.RangeSpec{halide.Range(r.minX, r.extX), yRange}
	if whole && src != "Func" {
		bounds = nil
	}
	var source halide.Source
	var in *halide.ImageParam
	scale := float32(1)
	switch src {
	case "ImageParam":
		in = halide.NewImageParam("in", halide.Float32, 2)
		in.Set(ib)
		source = in
	case "Buffer":
		source = ib
	case "Func":
		// g is the input times 2, over the input's buffer.
		in = halide.NewImageParam("in", halide.Float32, 2)
		in.Set(ib)
		g := halide.NewFunc("g")
		g.Define(x, y).Is(in.At(x, y).Mul(float32(2)))
		g.ComputeRoot()
		source, scale = g, 2
	}
	bc := k.make(source, bounds...)
	out := halide.NewFunc("out")
	out.Define(x, y).Is(bc.At(x, y).Add(bc.At(x.Neg(), y).Mul(float32(3))))
	sc.s(out, bc, x, y)

	// The output reaches 3 periods (of the longest, 2n) past each end of
	// the region in x; in y, past the buffer by 2 periods when y has a
	// condition, the buffer's rows when not.
	reach := 3*2*r.extX + 1
	outMinX, outExtX := r.minX-reach, r.extX+2*reach
	outMinY, outExtY := inMinY, H
	if r.yBounded {
		outMinY, outExtY = inMinY-4*H-1, H+8*H+2
	}
	ob := halide.NewBuffer[float32](outExtX, outExtY).SetMin(outMinX, outMinY)
	p := halide.NewPipeline(out).WithOptions(halide.Options{Verify: true}).WithTarget(tg)
	if err := p.Realize(ob); err != nil {
		t.Fatalf("Realize: %v", err)
	}
	if l, err := p.Lower(); err == nil && sc.gpu && len(l.Kernels()) == 0 {
		t.Fatalf("the GPU schedule made no kernel:\n%s", l.LoopNest)
	}

	ref := func(xx, yy int) float64 {
		ox := k.at(xx-r.minX, r.extX)
		oy := yy - inMinY
		if r.yBounded {
			oy = k.at(oy, H)
		}
		if ox < 0 || oy < 0 {
			return exterior
		}
		return float64(scale * ib.Get(r.minX+ox, inMinY+oy))
	}
	bad := 0
	for yy := outMinY; yy < outMinY+outExtY; yy++ {
		for xx := outMinX; xx < outMinX+outExtX; xx++ {
			want := ref(xx, yy) + 3*ref(-xx, yy)
			got := float64(ob.Get(xx, yy))
			if math.Abs(got-want) > 1e-5*math.Abs(want) {
				if bad < 3 {
					t.Errorf("out(%d, %d) = %v, want %v", xx, yy, got, want)
				}
				bad++
			}
		}
	}
	if bad > 0 {
		t.Fatalf("%d of %d outputs wrong", bad, outExtX*outExtY)
	}
}
