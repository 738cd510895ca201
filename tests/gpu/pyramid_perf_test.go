package gpu_test

import (
	"fmt"
	"math"
	"math/rand"
	"testing"
	"time"

	"github.com/gohalide/gohalide/halide"
)

// The emulator's speed on a deep pipeline (issue 18): a Gaussian-style
// pyramid of pyramidLevels [1 3 3 1] downsampling levels and as many
// upsampling levels (interpolating at x/2 and (x+1)/2), each level its own
// GPU kernel (compute_root, 8x8 thread tiles), over an input with repeated
// edges: 2*pyramidLevels = 20 kernels on a 64x64 image.
const (
	pyramidLevels = 10
	pyramidSize   = 64
)

var (
	pyramidWeights = []float32{1, 3, 3, 1}
	pyramidOff     = -1
	pyramidNorm    = float32(1.0 / 64)
)

// pyramid returns the output Func of the pyramid and its input.
// On the CPU path (gpu false) each level is computed at the root in plain
// loops, for comparison.
func pyramid(gpu bool) (*halide.Func, *halide.ImageParam) {
	x, y := halide.NewVar("x"), halide.NewVar("y")
	in := halide.NewImageParam("in", halide.Float32, 2)
	// down[0] is the input with repeated edges; down[i] halves down[i-1]
	// with the separable filter [1 3 3 1]/8 in each dimension.
	down := make([]*halide.Func, pyramidLevels+1)
	down[0] = halide.RepeatEdge(in)
	w := pyramidWeights
	for i := 1; i <= pyramidLevels; i++ {
		f := halide.NewFunc(fmt.Sprintf("down%d", i))
		var sum halide.Expr
		for j := range w {
			var row halide.Expr
			for k := range w {
				t := down[i-1].At(x.Mul(2).Add(k+pyramidOff), y.Mul(2).Add(j+pyramidOff)).Mul(w[k])
				if k == 0 {
					row = t
				} else {
					row = row.Add(t)
				}
			}
			row = row.Mul(w[j])
			if j == 0 {
				sum = row
			} else {
				sum = sum.Add(row)
			}
		}
		f.Define(x, y).Is(sum.Mul(pyramidNorm))
		down[i] = f
	}
	// up[pyramidLevels] is the top of the pyramid; up[i] mixes down[i]
	// with up[i+1] interpolated at x/2 and (x+1)/2.
	up := make([]*halide.Func, pyramidLevels+1)
	up[pyramidLevels] = down[pyramidLevels]
	for i := pyramidLevels - 1; i >= 0; i-- {
		f := halide.NewFunc(fmt.Sprintf("up%d", i))
		a := up[i+1].At(x.Div(2), y.Div(2))
		b := up[i+1].At(x.Add(1).Div(2), y.Add(1).Div(2))
		f.Define(x, y).Is(down[i].At(x, y).Mul(float32(0.5)).Add(a.Add(b).Mul(float32(0.25))))
		up[i] = f
	}
	bx, by, tx, ty := halide.NewVar("bx"), halide.NewVar("by"), halide.NewVar("tx"), halide.NewVar("ty")
	for i := 1; i <= pyramidLevels && !gpu; i++ {
		down[i].ComputeRoot()
		up[i-1].ComputeRoot()
	}
	for i := 1; i <= pyramidLevels && gpu; i++ {
		down[i].ComputeRoot().GPUTile(x, y, bx, by, tx, ty, 8, 8, halide.GuardWithIf)
	}
	for i := 0; i < pyramidLevels && gpu; i++ {
		up[i].ComputeRoot().GPUTile(x, y, bx, by, tx, ty, 8, 8, halide.GuardWithIf)
	}
	// A fixed output size, as a user of a deep pyramid would give it:
	// every level's region is then a constant.
	up[0].Bound(x, 0, pyramidSize).Bound(y, 0, pyramidSize)
	return up[0], in
}

// pyramidRef computes the pyramid's output in plain Go, with the same
// float32 operations in the same order, each level over the range of
// coordinates (the same in x and y) its readers need.
func pyramidRef(in []float32, W, H int) []float32 {
	floorDiv := func(a int) int {
		if a < 0 {
			return -((-a + 1) / 2)
		}
		return a / 2
	}
	type level struct {
		lo, hi int // the range computed, inclusive
		v      []float32
	}
	at := func(l *level, x, y int) float32 {
		n := l.hi - l.lo + 1
		return l.v[(y-l.lo)*n+x-l.lo]
	}
	// The ranges, from the output down: up[i+1] is read at [lo/2, (hi+1)/2],
	// down[i] by up[i] at [lo, hi] and by down[i+1] at [2lo+off, 2hi+off+taps-1].
	w := pyramidWeights
	var up, down [pyramidLevels + 1]level
	up[0].lo, up[0].hi = 0, max(W, H)-1
	for i := 1; i <= pyramidLevels; i++ {
		up[i].lo, up[i].hi = floorDiv(up[i-1].lo), floorDiv(up[i-1].hi+1)
	}
	down[pyramidLevels].lo, down[pyramidLevels].hi = up[pyramidLevels].lo, up[pyramidLevels].hi
	for i := pyramidLevels - 1; i >= 1; i-- {
		down[i].lo = min(up[i].lo, 2*down[i+1].lo+pyramidOff)
		down[i].hi = max(up[i].hi, 2*down[i+1].hi+pyramidOff+len(w)-1)
	}
	// down[0] is the input with repeated edges.
	src := func(i, x, y int) float32 {
		if i == 1 {
			return in[min(max(y, 0), H-1)*W+min(max(x, 0), W-1)]
		}
		return at(&down[i-1], x, y)
	}
	for i := 1; i <= pyramidLevels; i++ {
		l := &down[i]
		n := l.hi - l.lo + 1
		l.v = make([]float32, n*n)
		for y := l.lo; y <= l.hi; y++ {
			for x := l.lo; x <= l.hi; x++ {
				var sum float32
				for j := range w {
					var row float32
					for k := range w {
						t := src(i, 2*x+k+pyramidOff, 2*y+j+pyramidOff) * w[k]
						if k == 0 {
							row = t
						} else {
							row += t
						}
					}
					row *= w[j]
					if j == 0 {
						sum = row
					} else {
						sum += row
					}
				}
				l.v[(y-l.lo)*n+x-l.lo] = sum * pyramidNorm
			}
		}
	}
	up[pyramidLevels].v = down[pyramidLevels].v
	for i := pyramidLevels - 1; i >= 0; i-- {
		l := &up[i]
		n := l.hi - l.lo + 1
		l.v = make([]float32, n*n)
		for y := l.lo; y <= l.hi; y++ {
			for x := l.lo; x <= l.hi; x++ {
				a := at(&up[i+1], floorDiv(x), floorDiv(y))
				b := at(&up[i+1], floorDiv(x+1), floorDiv(y+1))
				var d float32
				if i == 0 {
					d = src(1, x, y)
				} else {
					d = at(&down[i], x, y)
				}
				l.v[(y-l.lo)*n+x-l.lo] = d*0.5 + (a+b)*0.25
			}
		}
	}
	out := make([]float32, W*H)
	for y := range H {
		for x := range W {
			out[y*W+x] = at(&up[0], x, y)
		}
	}
	return out
}

// pyramidSetup lowers the pyramid and fills its input.
func pyramidSetup(tb testing.TB, gpu bool) (*halide.Pipeline, *halide.Buffer[float32], []float32) {
	f, in := pyramid(gpu)
	rng := rand.New(rand.NewSource(18))
	ib := halide.NewBuffer[float32](pyramidSize, pyramidSize)
	ib.Fill(func([]int) float32 { return rng.Float32() })
	in.Set(ib)
	p := halide.NewPipeline(f)
	start := time.Now()
	if err := p.Compile(); err != nil {
		tb.Fatal(err)
	}
	tb.Logf("lowered and compiled in %v", time.Since(start))
	return p, halide.NewBuffer[float32](pyramidSize, pyramidSize), pyramidRef(ib.Data(), pyramidSize, pyramidSize)
}

// TestPyramidEmulator runs the 20-kernel pyramid on the emulator, checks
// it against the plain-Go reference and bounds its time. The issue asks
// for under 5 s on a 2-core machine; the bound here is looser (20 s) so
// that a busy CI machine passes, while a return to the old speed (about a
// minute for a pipeline of this size) fails.
func TestPyramidEmulator(t *testing.T) {
	if testing.Short() {
		t.Skip("slow in -short mode")
	}
	p, out, want := pyramidSetup(t, true)
	r, err := p.Report()
	if err != nil {
		t.Fatal(err)
	}
	if len(r) < 2*pyramidLevels {
		t.Fatalf("%d kernels, want at least %d", len(r), 2*pyramidLevels)
	}
	start := time.Now()
	if err := p.Realize(out); err != nil {
		t.Fatal(err)
	}
	elapsed := time.Since(start)
	t.Logf("%d kernels on a %dx%d image: emulated in %v", len(r), pyramidSize, pyramidSize, elapsed)
	for i, v := range out.Data() {
		if math.Abs(float64(v-want[i])) > 1e-5 {
			t.Fatalf("out[%d] = %v, want %v", i, v, want[i])
		}
	}
	if elapsed > 20*time.Second {
		t.Errorf("the emulator took %v for the pyramid, want well under 20 s (the target is 5 s)", elapsed)
	}
}

// BenchmarkPyramid times one realization of the 20-kernel pyramid on the
// emulator, and of the same pyramid on the CPU path (plain loops, no
// kernels), which bounds what the emulator can reach (lowering and
// compiling excluded).
func BenchmarkPyramid(b *testing.B) {
	for _, target := range []string{"emulator", "cpu"} {
		b.Run(target, func(b *testing.B) {
			p, out, _ := pyramidSetup(b, target == "emulator")
			b.ResetTimer()
			for range b.N {
				if err := p.Realize(out); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
