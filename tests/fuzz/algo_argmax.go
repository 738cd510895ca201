package fuzz

import (
	"fmt"
	"math"
	"math/rand"

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
	return &Algo{
		Name:      "argmax",
		SizeNames: []string{"W", "H"},
		// Smaller than blur's: a schedule that recomputes am per point
		// of argmax costs W*W*H per row.
		Sizes: func(rng *rand.Rand) []int { return []int{prime(rng, 5, 29), prime(rng, 5, 19)} },
		Funcs: []FuncSpec{
			{Name: "argmax", Stages: []StageSpec{{Dims: d("x", "y")}}},
			{Name: "am", Stages: []StageSpec{{Dims: d("y")}, {Dims: d("r$x", "y")}}, Consumers: []StageRef{{"argmax", 0}}},
			{Name: "v", Stages: []StageSpec{{Dims: d("x", "y")}}, Consumers: []StageRef{{"am", 1}}},
			{Name: "padded", Stages: []StageSpec{{Dims: d("x", "y")}}, Consumers: []StageRef{{"v", 0}}},
		},
		Wraps: []WrapSpec{
			{Src: "v", Consumer: "am", Dims: []string{"x", "y"}, ConsumerStages: []int{1}},
			{Src: "am", Consumer: "argmax", Dims: []string{"y"}, ConsumerStages: []int{0}},
		},
		Known: map[string]string{"r$x": "r.X()"},
		Build: func(sz []int) *Instance {
			W, H := sz[0], sz[1]
			x, y, in, padded := int2DInput()
			r := halide.NewRDom("r", halide.Range(0, W))
			v, am, out := argmaxFuncs(x, y, r, in, padded, W, H)
			return int2DInstance(W, H, in, map[string]*halide.Func{"argmax": out, "am": am, "v": v, "padded": padded}, map[string]halide.VarOrRVar{"x": x, "y": y, "r$x": r.X()}, out, func(ib *halide.Buffer[int32]) func(c []int) int64 {
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
			})
		},
		Source: func(sz []int) string {
			return fmt.Sprintf(`// argmax, W = %d, H = %d
x, y := halide.NewVar("x"), halide.NewVar("y")
in := halide.NewImageParam("in", halide.Int32, 2) // [W, H], values in ±[1, 9]
padded := halide.RepeatEdge(in)
r := halide.NewRDom("r", halide.Range(0, W))
v := halide.NewFunc("v")
v.Define(x, y).Is(halide.NewTuple(padded.At(x, y).Mul(3), padded.At(x, y).Sub(x)))
am := halide.NewFunc("am")
am.Define(y).Is(halide.NewTuple(0, int32(math.MinInt32), 0))
old, w := am.AtTuple(y), v.AtTuple(r, y)
am.Define(y).Is(halide.SelectTuple(w.Elem(0).Gt(old.Elem(1)),
	halide.NewTuple(r, w.Elem(0), w.Elem(1)), old))
argmax := halide.NewFunc("argmax")
t := am.AtTuple(y)
argmax.Define(x, y).Is(t.Elem(0).Mul(1000).Add(t.Elem(1)).Add(t.Elem(2).Mul(7)).Add(padded.At(x, y)))
// output: argmax realized over [W, H]
`, sz[0], sz[1])
		},
	}
}

// argmaxFuncs defines v, am and the output of argmax over padded (the
// definitions Source prints).
func argmaxFuncs(x, y halide.Var, r *halide.RDom, in *halide.ImageParam, padded *halide.Func, W, H int) (v, am, out *halide.Func) {
	v = halide.NewFunc("v")
	v.Define(x, y).Is(halide.NewTuple(padded.At(x, y).Mul(3), padded.At(x, y).Sub(x)))
	am = halide.NewFunc("am")
	am.Define(y).Is(halide.NewTuple(0, int32(math.MinInt32), 0))
	old, w := am.AtTuple(y), v.AtTuple(r, y)
	am.Define(y).Is(halide.SelectTuple(w.Elem(0).Gt(old.Elem(1)),
		halide.NewTuple(r, w.Elem(0), w.Elem(1)), old))
	out = halide.NewFunc("argmax")
	t := am.AtTuple(y)
	out.Define(x, y).Is(t.Elem(0).Mul(1000).Add(t.Elem(1)).Add(t.Elem(2).Mul(7)).
		Add(in.At(halide.Clamp(x, 0, W-1), halide.Clamp(y, 0, H-1))))
	return v, am, out
}
