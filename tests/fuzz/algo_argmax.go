package fuzz

import (
	_ "embed"
	"math"

	"github.com/gohalide/gohalide/halide"
)

// argmax: Tuple-valued Funcs for the schedule fuzzer,
//
//	v(x, y)      = (padded(x, y) * 3, padded(x, y) - x)       (Tuple int32, int32)
//	am(y)        = (0, int32 min, 0)
//	am(y)        = v(r, y)[0] > am(y)[1] ? (r, v(r, y)[0], v(r, y)[1]) : am(y)
//	                                                           (r over [0, W))
//	argmax(x, y) = am(y)[0] * 1000 + am(y)[1] + am(y)[2] * 7
//	               + in(clamp(x, 0, W-1), clamp(y, 0, H-1))
//
// am's update reads its old values to compute the new ones, so a schedule
// that stored one before computing the others would be wrong.
func argmaxAlgo() *Algo {
	return int2D{
		// Smaller than blur's: a schedule that recomputes am per point
		// of argmax costs W*W*H per row.
		name: "argmax", maxW: 29, maxH: 19,
		funcs: []FuncSpec{
			xyFunc("argmax"),
			{Name: "am", Stages: []StageSpec{{Dims: d("y")}, {Dims: d("r$x", "y"), Assoc: true, Ordered: true}}, Consumers: []StageRef{{"argmax", 0}}},
			xyFunc("v", StageRef{"am", 1}),
		},
		paddedBy: "v",
		wraps: []WrapSpec{
			{Src: "v", Consumer: "am", Dims: []string{"x", "y"}, ConsumerStages: []int{1}},
			{Src: "am", Consumer: "argmax", Dims: []string{"y"}, ConsumerStages: []int{0}},
		},
		rdom: true,
		define: func(v int2DVars) map[string]*halide.Func {
			return argmaxFuncs(v.x, v.y, v.r, v.in, v.padded, v.W, v.H)
		},
		source: func() string { return funcBody(argmaxSource, "argmaxFuncs") },
		want: func(ib *halide.Buffer[int32], W, H int) func(c []int) int64 {
			col, best, extra := make([]int64, H), make([]int64, H), make([]int64, H)
			for j := 0; j < H; j++ {
				col[j], best[j] = 0, math.MinInt32
				for i := 0; i < W; i++ {
					if val := int64(ib.Get(i, j)) * 3; val > best[j] {
						col[j], best[j], extra[j] = int64(i), val, int64(ib.Get(i, j))-int64(i)
					}
				}
			}
			return func(c []int) int64 {
				x, y := c[0], c[1]
				return col[y]*1000 + best[y] + extra[y]*7 + int64(ib.Get(clampTo(x, W), clampTo(y, H)))
			}
		},
	}.algo()
}

// argmaxFuncs defines v, am and the output of argmax over padded. Its
// body, but for the return, is the Go that Source prints (read from this
// file, argmaxSource).
func argmaxFuncs(x, y halide.Var, r *halide.RDom, in *halide.ImageParam, padded *halide.Func, W, H int) map[string]*halide.Func {
	v := halide.NewFunc("v")
	v.Define(x, y).Is(halide.NewTuple(padded.At(x, y).Mul(3), padded.At(x, y).Sub(x)))
	am := halide.NewFunc("am")
	am.Define(y).Is(halide.NewTuple(0, int32(math.MinInt32), 0))
	old, w := am.AtTuple(y), v.AtTuple(r, y)
	am.Define(y).Is(halide.SelectTuple(w.Elem(0).Gt(old.Elem(1)),
		halide.NewTuple(r, w.Elem(0), w.Elem(1)), old))
	argmax := halide.NewFunc("argmax")
	t := am.AtTuple(y)
	argmax.Define(x, y).Is(t.Elem(0).Mul(1000).Add(t.Elem(1)).Add(t.Elem(2).Mul(7)).
		Add(in.At(halide.Clamp(x, 0, W-1), halide.Clamp(y, 0, H-1))))
	return map[string]*halide.Func{"argmax": argmax, "am": am, "v": v}
}

// argmaxSource is this file.
//
//go:embed algo_argmax.go
var argmaxSource string
