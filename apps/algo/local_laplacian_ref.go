package algo

import (
	"math"

	"github.com/gohalide/gohalide/halide"
)

// The plain-Go reference of LocalLaplacian: every Func of the generator
// computed in float32, in the generator's operation order, over the
// region its consumers read (worked out below level by level, as bounds
// inference does), with Euclidean division for the pyramid's coordinates.
// Go rounds every float32 operation and never contracts a multiply-add
// (it would need math.FMA), as the CPU and emulator targets do.

// llRect is a closed integer rectangle [x0, x1] x [y0, y1].
type llRect struct{ x0, x1, y0, y1 int }

func (r llRect) union(s llRect) llRect {
	return llRect{min(r.x0, s.x0), max(r.x1, s.x1), min(r.y0, s.y0), max(r.y1, s.y1)}
}

// floorDiv2 is x / 2 rounded down (Halide's division by 2).
func floorDiv2(x int) int {
	if x >= 0 {
		return x / 2
	}
	return -((-x + 1) / 2)
}

// upRegion is the region of f that upsample(f) reads over r.
func (r llRect) upRegion() llRect {
	return llRect{floorDiv2(r.x0 - 1), floorDiv2(r.x1 + 1), floorDiv2(r.y0 - 1), floorDiv2(r.y1 + 1)}
}

// downRegion is the region of f that downsample(f) reads over r.
func (r llRect) downRegion() llRect {
	return llRect{2*r.x0 - 1, 2*r.x1 + 2, 2*r.y0 - 1, 2*r.y1 + 2}
}

// llPlane is a float32 function of (x, y) stored over a rectangle.
type llPlane struct {
	r llRect
	w int
	v []float32
}

func newLLPlane(r llRect) *llPlane {
	w := r.x1 - r.x0 + 1
	return &llPlane{r: r, w: w, v: make([]float32, w*(r.y1-r.y0+1))}
}

func (p *llPlane) at(x, y int) float32 {
	if x < p.r.x0 || x > p.r.x1 || y < p.r.y0 || y > p.r.y1 {
		panic("local_laplacian reference: read outside a computed region")
	}
	return p.v[(x-p.r.x0)+p.w*(y-p.r.y0)]
}

func (p *llPlane) set(x, y int, v float32) { p.v[(x-p.r.x0)+p.w*(y-p.r.y0)] = v }

// fill computes f over r.
func llFill(r llRect, f func(x, y int) float32) *llPlane {
	p := newLLPlane(r)
	for y := r.y0; y <= r.y1; y++ {
		for x := r.x0; x <= r.x1; x++ {
			p.set(x, y, f(x, y))
		}
	}
	return p
}

// llDownsample is downsample(f) over r: downx over the rows downy reads,
// then downy.
func llDownsample(f *llPlane, r llRect) *llPlane {
	dx := llFill(llRect{r.x0, r.x1, 2*r.y0 - 1, 2*r.y1 + 2}, func(x, y int) float32 {
		return (f.at(2*x-1, y) + 3*(f.at(2*x, y)+f.at(2*x+1, y)) + f.at(2*x+2, y)) / 8
	})
	return llFill(r, func(x, y int) float32 {
		return (dx.at(x, 2*y-1) + 3*(dx.at(x, 2*y)+dx.at(x, 2*y+1)) + dx.at(x, 2*y+2)) / 8
	})
}

// llLerp is Lerp of floats: zero*(1-w) + one*w.
func llLerp(zero, one, w float32) float32 { return zero*(1-w) + one*w }

// llUpWeight is ((x % 2)*2 + 1) / 4 with a Euclidean remainder.
func llUpWeight(x int) float32 {
	m := x % 2
	if m < 0 {
		m += 2
	}
	return float32(m*2+1) / 4
}

// llUpsample is upsample(f) over r: upx over the rows upy reads, then upy.
func llUpsample(f *llPlane, r llRect) *llPlane {
	ux := llFill(llRect{r.x0, r.x1, floorDiv2(r.y0 - 1), floorDiv2(r.y1 + 1)}, func(x, y int) float32 {
		return llLerp(f.at(floorDiv2(x+1), y), f.at(floorDiv2(x-1), y), llUpWeight(x))
	})
	return llFill(r, func(x, y int) float32 {
		return llLerp(ux.at(x, floorDiv2(y+1)), ux.at(x, floorDiv2(y-1)), llUpWeight(y))
	})
}

// LocalLaplacianReference computes Halide's local_laplacian of in (W x H
// x 3, uint16) with J pyramid levels and the parameters levels, alpha and
// beta, in plain Go.
func LocalLaplacianReference(in *halide.Buffer[uint16], J int, levels int32, alpha, beta float32) *halide.Buffer[uint16] {
	W, H := in.Dim(0).Extent, in.Dim(1).Extent
	out := halide.NewBuffer[uint16](W, H, 3)
	if W <= 0 || H <= 0 {
		return out
	}
	data := in.Data()
	clampI := func(v, lo, hi int) int { return max(lo, min(v, hi)) }
	floating := func(x, y, c int) float32 {
		x, y = clampI(x, 0, W-1), clampI(y, 0, H-1)
		return float32(data[x+W*(y+H*c)]) / 65535
	}
	gray := func(x, y int) float32 {
		return 0.299*floating(x, y, 0) + 0.587*floating(x, y, 1) + 0.114*floating(x, y, 2)
	}
	remap := func(i int) float32 {
		fx := float32(i) / 256
		return alpha * fx * float32(math.Exp(float64(-fx*fx/2)))
	}
	nk := int(levels)

	// The regions: outGPyramid[0] over the image; level j+1 of the output
	// pyramids over what upsample reads of level j; gPyramid[j] and
	// inGPyramid[j] over what level j reads of them and what level j+1's
	// downsample reads.
	outR := make([]llRect, J)
	outR[0] = llRect{0, W - 1, 0, H - 1}
	for j := 1; j < J; j++ {
		outR[j] = outR[j-1].upRegion()
	}
	gR := make([]llRect, J)
	gR[J-1] = outR[J-1]
	for j := J - 2; j >= 0; j-- {
		gR[j] = outR[j].union(gR[j+1].downRegion())
	}

	// The processed Gaussian pyramids, one per k, and the input's.
	levelOf := func(k int) float32 { return float32(k) * (1 / float32(levels-1)) }
	g := make([][]*llPlane, J)
	g[0] = make([]*llPlane, nk)
	for k := 0; k < nk; k++ {
		level := levelOf(k)
		g[0][k] = llFill(gR[0], func(x, y int) float32 {
			gy := gray(x, y)
			idx := int(int32(gy * float32(levels-1) * 256))
			idx = clampI(idx, 0, int(levels-1)*256)
			return beta*(gy-level) + level + remap(idx-256*k)
		})
	}
	inG := make([]*llPlane, J)
	inG[0] = llFill(gR[0], gray)
	for j := 1; j < J; j++ {
		g[j] = make([]*llPlane, nk)
		for k := 0; k < nk; k++ {
			g[j][k] = llDownsample(g[j-1][k], gR[j])
		}
		inG[j] = llDownsample(inG[j-1], gR[j])
	}

	// The Laplacian pyramids, over the output pyramids' regions.
	l := make([][]*llPlane, J)
	for j := 0; j < J; j++ {
		l[j] = make([]*llPlane, nk)
		for k := 0; k < nk; k++ {
			if j == J-1 {
				gk := g[j][k]
				l[j][k] = llFill(outR[j], gk.at)
				continue
			}
			up := llUpsample(g[j+1][k], outR[j])
			gk := g[j][k]
			l[j][k] = llFill(outR[j], func(x, y int) float32 { return gk.at(x, y) - up.at(x, y) })
		}
	}
	outL := func(j, x, y int) float32 {
		level := inG[j].at(x, y) * float32(levels-1)
		li := clampI(int(int32(level)), 0, int(levels-2))
		lf := level - float32(li)
		return (1-lf)*l[j][li].at(x, y) + lf*l[j][li+1].at(x, y)
	}
	outG := make([]*llPlane, J)
	outG[J-1] = llFill(outR[J-1], func(x, y int) float32 { return outL(J-1, x, y) })
	for j := J - 2; j >= 0; j-- {
		up := llUpsample(outG[j+1], outR[j])
		outG[j] = llFill(outR[j], func(x, y int) float32 { return up.at(x, y) + outL(j, x, y) })
	}

	const eps = float32(0.01)
	od := out.Data()
	for c := 0; c < 3; c++ {
		for y := 0; y < H; y++ {
			for x := 0; x < W; x++ {
				color := outG[0].at(x, y) * (floating(x, y, c) + eps) / (gray(x, y) + eps)
				v := float32(math.Max(float64(min(color, 1)), 0)) * 65535
				od[x+W*(y+H*c)] = uint16(v)
			}
		}
	}
	return out
}
