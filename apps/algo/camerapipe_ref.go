package algo

import (
	"math"

	"github.com/gohalide/gohalide/halide"
)

// The plain-Go reference of CameraPipe: the generator's arithmetic in Go's
// integer types (uint16 and int16 wrap as Halide's do, divisions are
// Euclidean), the float32 steps each rounded (explicit conversions keep Go
// from fusing a multiply and an add).

// plane is a 2-D array of int64 over [x0, x0+w) x [y0, y0+h).
type plane struct {
	x0, y0, w, h int
	v            []int64
}

func newPlane(x0, y0, w, h int) *plane {
	return &plane{x0: x0, y0: y0, w: w, h: h, v: make([]int64, w*h)}
}

func (p *plane) at(x, y int) int64 {
	x, y = x-p.x0, y-p.y0
	if x < 0 || y < 0 || x >= p.w || y >= p.h {
		panic("camera_pipe reference: read outside a plane")
	}
	return p.v[y*p.w+x]
}

func (p *plane) fill(f func(x, y int) int64) *plane {
	for y := 0; y < p.h; y++ {
		for x := 0; x < p.w; x++ {
			p.v[y*p.w+x] = f(x+p.x0, y+p.y0)
		}
	}
	return p
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

func avg16(a, b int64) int64 { return int64(uint16((uint32(uint16(a)) + uint32(uint16(b)) + 1) / 2)) }
func avg8(a, b int64) int64  { return int64(uint8((uint16(uint8(a)) + uint16(uint8(b)) + 1) / 2)) }
func absd64(a, b int64) int64 {
	if a < b {
		return b - a
	}
	return a - b
}

// u16 wraps v to uint16.
func u16(v int64) int64 { return int64(uint16(v)) }

// CameraLUT returns the tone curve for the parameters (the generator's
// curve over [0, 1024)).
func cameraLUT(prm cameraParams) [1024]uint8 {
	var lut [1024]uint8
	minRaw, maxRaw := prm.blackLevel, prm.whiteLevel
	invRange := float32(1) / float32(maxRaw-minRaw)
	b := float32(2) - float32(math.Pow(2, float64(prm.contrast/float32(100))))
	a := float32(2) - float32(float32(2)*b)
	invGamma := float32(1) / prm.gamma
	for x := int32(0); x < 1024; x++ {
		xf := float32(float32(x-minRaw) * invRange)
		xf = float32(math.Min(math.Max(float64(xf), 0), 1))
		g := float32(math.Pow(float64(xf), float64(invGamma)))
		var z float32
		if g > 0.5 {
			o := float32(1) - g
			z = float32(1) - (float32(float32(float32(a*o)*o)) + float32(b*o))
		} else {
			z = float32(float32(float32(a*g)*g)) + float32(b*g)
		}
		v := float32(float32(z*255) + 0.5)
		v = float32(math.Min(math.Max(float64(v), 0), 255))
		switch {
		case x <= minRaw:
			lut[x] = 0
		case x > maxRaw:
			lut[x] = 255
		default:
			lut[x] = uint8(v)
		}
	}
	return lut
}

// cameraMatrix returns the Q8.8 color matrix [row][col] for the color
// temperature.
func cameraMatrix(m3200, m7000 *halide.Buffer[float32], kelvin float32) [3][4]int64 {
	var inv3200, inv7000 float32 = 1.0 / 3200, 1.0 / 7000
	den := inv7000 - inv3200
	alpha := float32(float32(float32(1)/kelvin)-inv3200) / den
	var m [3][4]int64
	for y := 0; y < 3; y++ {
		for x := 0; x < 4; x++ {
			val := float32(m3200.Get(x, y)*alpha) + float32(m7000.Get(x, y)*float32(1-alpha))
			m[y][x] = int64(int16(float32(val * 256)))
		}
	}
	return m
}

// Reference computes the output of the pipeline on the inputs Inputs made
// (nil before).
func (p *CameraPipe) Reference() *halide.Buffer[uint8] {
	if p.inBuf == nil {
		return nil
	}
	W, H := p.W, p.H
	in := p.inBuf
	sh := func(x, y int) int64 { return int64(in.Get(x+16, y+12)) }
	// Full-resolution denoised over [-6, W+6) x [-6, H+6).
	den := newPlane(-6, -6, W+12, H+12).fill(func(x, y int) int64 {
		a := max(sh(x-2, y), sh(x+2, y), sh(x, y-2), sh(x, y+2))
		return min(max(sh(x, y), 0), a)
	})
	// Half resolution: the four channels over [-3, W/2+3) x [-3, H/2+3).
	hw, hh := W/2+6, H/2+6
	ch := func(dx, dy int) *plane {
		return newPlane(-3, -3, hw, hh).fill(func(x, y int) int64 { return den.at(2*x+dx, 2*y+dy) })
	}
	gGR, rR, bB, gGB := ch(0, 0), ch(1, 0), ch(0, 1), ch(1, 1)
	gR := newPlane(-2, -2, W/2+4, H/2+4).fill(func(x, y int) int64 {
		gv := avg16(gGB.at(x, y-1), gGB.at(x, y))
		gvd := absd64(gGB.at(x, y-1), gGB.at(x, y))
		gh := avg16(gGR.at(x+1, y), gGR.at(x, y))
		ghd := absd64(gGR.at(x+1, y), gGR.at(x, y))
		if ghd < gvd {
			return gh
		}
		return gv
	})
	gB := newPlane(-2, -2, W/2+4, H/2+4).fill(func(x, y int) int64 {
		gv := avg16(gGR.at(x, y+1), gGR.at(x, y))
		gvd := absd64(gGR.at(x, y+1), gGR.at(x, y))
		gh := avg16(gGB.at(x-1, y), gGB.at(x, y))
		ghd := absd64(gGB.at(x-1, y), gGB.at(x, y))
		if ghd < gvd {
			return gh
		}
		return gv
	})
	corr := func(g, a, b, c, d int64) int64 { return u16(u16(g-avg16(a, b)) + avg16(c, d)) }
	rGR := func(x, y int) int64 {
		return corr(gGR.at(x, y), gR.at(x, y), gR.at(x-1, y), rR.at(x-1, y), rR.at(x, y))
	}
	bGR := func(x, y int) int64 {
		return corr(gGR.at(x, y), gB.at(x, y), gB.at(x, y-1), bB.at(x, y), bB.at(x, y-1))
	}
	rGB := func(x, y int) int64 {
		return corr(gGB.at(x, y), gR.at(x, y), gR.at(x, y+1), rR.at(x, y), rR.at(x, y+1))
	}
	bGB := func(x, y int) int64 {
		return corr(gGB.at(x, y), gB.at(x, y), gB.at(x+1, y), bB.at(x, y), bB.at(x+1, y))
	}
	rB := func(x, y int) int64 {
		rp := corr(gB.at(x, y), gR.at(x, y), gR.at(x-1, y+1), rR.at(x, y), rR.at(x-1, y+1))
		rpd := absd64(rR.at(x, y), rR.at(x-1, y+1))
		rn := corr(gB.at(x, y), gR.at(x-1, y), gR.at(x, y+1), rR.at(x-1, y), rR.at(x, y+1))
		rnd := absd64(rR.at(x-1, y), rR.at(x, y+1))
		if rpd < rnd {
			return rp
		}
		return rn
	}
	bR := func(x, y int) int64 {
		bp := corr(gR.at(x, y), gB.at(x, y), gB.at(x+1, y-1), bB.at(x, y), bB.at(x+1, y-1))
		bpd := absd64(bB.at(x, y), bB.at(x+1, y-1))
		bn := corr(gR.at(x, y), gB.at(x+1, y), gB.at(x, y-1), bB.at(x+1, y), bB.at(x, y-1))
		bnd := absd64(bB.at(x+1, y), bB.at(x, y-1))
		if bpd < bnd {
			return bp
		}
		return bn
	}
	type f2 func(x, y int) int64
	at := func(pl *plane) f2 { return pl.at }
	// interleave picks by the parities of x and y: (even, even), (odd,
	// even), (even, odd), (odd, odd).
	interleave := func(ee, oe, eo, oo f2) f2 {
		return func(x, y int) int64 {
			hx, hy := int(floorDiv(int64(x), 2)), int(floorDiv(int64(y), 2))
			switch x - 2*hx + 2*(y-2*hy) {
			case 0:
				return ee(hx, hy)
			case 1:
				return oe(hx, hy)
			case 2:
				return eo(hx, hy)
			}
			return oo(hx, hy)
		}
	}
	rgb := [3]f2{
		interleave(rGR, at(rR), rB, rGB),
		interleave(at(gGR), at(gR), at(gB), at(gGB)),
		interleave(bGR, bR, at(bB), bGB),
	}
	m := cameraMatrix(p.m3200, p.m7000, p.params.colorTemp)
	lut := cameraLUT(p.params)
	// curved over [-1, W+1) x [-1, H+1), per channel.
	var curved [3]*plane
	for c := range curved {
		curved[c] = newPlane(-1, -1, W+2, H+2)
	}
	for y := -1; y < H+1; y++ {
		for x := -1; x < W+1; x++ {
			var d [3]int64
			for k := range d {
				d[k] = int64(int16(rgb[k](x, y)))
			}
			for c := 0; c < 3; c++ {
				v := int64(int32(m[c][3]) + int32(m[c][0])*int32(d[0]) + int32(m[c][1])*int32(d[1]) + int32(m[c][2])*int32(d[2]))
				corrected := int64(int16(floorDiv(v, 256)))
				curved[c].v[(y+1)*(W+2)+(x+1)] = int64(lut[min(max(corrected, 0), 1023)])
			}
		}
	}
	ss := float32(p.params.sharpen * 32)
	ssx32 := int64(uint8(math.Min(math.Max(float64(ss), 0), 255)))
	out := halide.NewBuffer[uint8](W, H, 3)
	for c := 0; c < 3; c++ {
		cv := curved[c]
		uy := func(x, y int) int64 { return avg8(avg8(cv.at(x, y-1), cv.at(x, y+1)), cv.at(x, y)) }
		for y := 0; y < H; y++ {
			for x := 0; x < W; x++ {
				in := cv.at(x, y)
				unsharp := avg8(avg8(uy(x-1, y), uy(x+1, y)), uy(x, y))
				mask := int64(int16(in - unsharp))
				v := int64(int16(in + floorDiv(int64(int16(mask*ssx32)), 32)))
				out.Set(uint8(min(max(v, 0), 255)), x, y, c)
			}
		}
	}
	return out
}
