package fuzz

import (
	_ "embed"

	"github.com/gohalide/gohalide/halide"
)

// bitops: Funcs of narrow types built from the operators beyond
// arithmetic, for the schedule fuzzer:
//
//	q(x, y)    = u8_sat(padded(x, y) * 40)                  (uint8)
//	edge(x, y) = absd(q(x-1, y), q(x+1, y))                 (uint8)
//	bitops(x, y) = mux(y & 3,
//	    int32(edge(x, y-1)) << 2 | int32(edge(x, y+1)),
//	    int32(edge(x, y)) >> 1,
//	    ~int32(q(x, y)),
//	    int32(lerp(q(x, y), edge(x, y), uint8(x * 37))))   (int32)
func bitopsAlgo() *Algo {
	return int2D{
		name: "bitops", maxW: 37, maxH: 23,
		funcs:    []FuncSpec{xyFunc("bitops"), xyFunc("edge", StageRef{"bitops", 0}), xyFunc("q", StageRef{"edge", 0}, StageRef{"bitops", 0})},
		paddedBy: "q",
		wraps:    []WrapSpec{xyWrap("q", "edge"), xyWrap("edge", "bitops")},
		define:   func(v int2DVars) map[string]*halide.Func { return bitopsFuncs(v.x, v.y, v.padded) },
		source:   func() string { return funcBody(bitopsSource, "bitopsFuncs") },
		want: func(ib *halide.Buffer[int32], W, H int) func(c []int) int64 {
			qv := func(x, y int) int64 { return min(max(int64(ib.Get(clampTo(x, W), clampTo(y, H)))*40, 0), 255) }
			ev := func(x, y int) int64 {
				a, b := qv(x-1, y), qv(x+1, y)
				if a > b {
					return a - b
				}
				return b - a
			}
			return func(c []int) int64 {
				x, y := c[0], c[1]
				switch y % 4 { // y >= 0 here
				case 0:
					return ev(x, y-1)*4 | ev(x, y+1)
				case 1:
					return ev(x, y) / 2
				case 2:
					return -1 - qv(x, y) // the bits of int32(q) flipped
				}
				w := int64(uint8(x * 37))
				return (qv(x, y)*(255-w) + ev(x, y)*w + 127) / 255 // rounded
			}
		},
	}.algo()
}

// bitopsFuncs defines q, edge and the output of bitops over padded. Its
// body, but for the return, is the Go that Source prints (read from this
// file, bitopsSource).
func bitopsFuncs(x, y halide.Var, padded *halide.Func) map[string]*halide.Func {
	q := halide.NewFunc("q")
	q.Define(x, y).Is(halide.U8Sat(padded.At(x, y).Mul(40)))
	edge := halide.NewFunc("edge")
	edge.Define(x, y).Is(halide.Absd(q.At(x.Sub(1), y), q.At(x.Add(1), y)))
	bitops := halide.NewFunc("bitops")
	i32 := func(e halide.Expr) halide.Expr { return halide.Cast(halide.Int32, e) }
	bitops.Define(x, y).Is(halide.Mux(y.BitAnd(3),
		i32(edge.At(x, y.Sub(1))).Shl(2).BitOr(i32(edge.At(x, y.Add(1)))),
		i32(edge.At(x, y)).Shr(1),
		halide.BitNot(i32(q.At(x, y))),
		i32(halide.Lerp(q.At(x, y), edge.At(x, y), halide.Cast(halide.UInt8, x.Mul(37))))))
	return map[string]*halide.Func{"bitops": bitops, "edge": edge, "q": q}
}

// bitopsSource is this file.
//
//go:embed algo_bitops.go
var bitopsSource string
