package errors_test

import (
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// The mistakes of Prefetch: each is a typed error naming the Func that
// prefetches, the directive and what is legal; the ones that need the
// loop nest come from Lower.

// prefetching returns out(x, y) = g(x, y) + g(x, y + 1) with g(x, y) =
// in(x, y) * 2, and the input.
func prefetching() (out, g *halide.Func, in *halide.ImageParam) {
	in = halide.NewImageParam("in", halide.Float32, 2)
	g = halide.NewFunc("g")
	g.Define(x, y).Is(in.At(x, y).Mul(2))
	out = halide.NewFunc("out")
	out.Define(x, y).Is(g.At(x, y).Add(g.At(x, y.Add(1))))
	return out, g, in
}

func TestErrPrefetch(t *testing.T) {
	bx, by, tx, ty := gpuVars()
	xo, xi := halide.NewVar("xo"), halide.NewVar("xi")
	runCases(t, []errCase{
		{
			name: "unknown loop",
			run: func() error {
				out, g, _ := prefetching()
				g.ComputeRoot()
				out.Prefetch(g, z, z, 1)
				return lowerErr(out)
			},
			code: halide.ErrUnknownVar, fn: "out", directive: "prefetch",
			mentions: []string{"no loop z"},
			legal:    []string{"y, x"},
		},
		{
			name: "from outside at",
			run: func() error {
				out, g, _ := prefetching()
				g.ComputeRoot()
				out.Prefetch(g, x, y, 1)
				return lowerErr(out)
			},
			code: halide.ErrSchedule, fn: "out", directive: "prefetch",
			mentions: []string{"from loop y, which is outside x"},
			legal:    []string{"the loop at or a loop inside it"},
		},
		{
			name: "source inlined",
			run: func() error {
				out, g, _ := prefetching()
				out.Prefetch(g, y, y, 1)
				return lowerErr(out)
			},
			code: halide.ErrSchedule, fn: "out", directive: "prefetch",
			mentions: []string{"g, which is computed inline"},
			legal:    []string{"compute_root g"},
		},
		{
			name: "source computed inside at",
			run: func() error {
				out, g, _ := prefetching()
				g.ComputeAt(out, x)
				out.Prefetch(g, y, y, 1)
				return lowerErr(out)
			},
			code: halide.ErrSchedule, fn: "out", directive: "prefetch",
			mentions: []string{"g is not stored around that loop"},
			legal:    []string{"outside y"},
		},
		{
			name: "input not read",
			run: func() error {
				out, g, _ := prefetching()
				g.ComputeRoot()
				other := halide.NewImageParam("other", halide.Float32, 2)
				out.PrefetchImage(other, y, y, 1)
				return lowerErr(out)
			},
			code: halide.ErrSchedule, fn: "out", directive: "prefetch",
			mentions: []string{"input other", "does not read"},
		},
		{
			name: "float offset",
			run: func() error {
				out, g, _ := prefetching()
				g.ComputeRoot()
				out.Prefetch(g, y, y, 1.5)
				return lowerErr(out)
			},
			code: halide.ErrType, fn: "out", directive: "prefetch",
			mentions: []string{"offset", "float"},
			legal:    []string{"integer expression"},
		},
		{
			name: "offset of a loop var",
			run: func() error {
				out, g, _ := prefetching()
				g.ComputeRoot()
				out.Prefetch(g, y, y, x)
				return lowerErr(out)
			},
			code: halide.ErrSchedule, fn: "out", directive: "prefetch",
			mentions: []string{"not Params"},
			legal:    []string{"constants and Params"},
		},
		{
			name: "bad strategy",
			run: func() error {
				out, g, _ := prefetching()
				g.ComputeRoot()
				out.Prefetch(g, y, y, 1, halide.PrefetchBoundStrategy(7))
				return lowerErr(out)
			},
			code: halide.ErrBadArgument, fn: "out", directive: "prefetch",
			mentions: []string{"not a prefetch bound strategy"},
			legal:    []string{"PrefetchClamp"},
		},
		{
			name: "nil source",
			run: func() error {
				out, g, _ := prefetching()
				g.ComputeRoot()
				out.Prefetch(nil, y, y, 1)
				return lowerErr(out)
			},
			code: halide.ErrNilObject, fn: "out", directive: "prefetch",
		},
		{
			name: "vectorized at",
			run: func() error {
				out, g, _ := prefetching()
				g.ComputeRoot()
				out.Split(x, xo, xi, 4).Vectorize(xi).Prefetch(g, xi, xi, 1)
				return lowerErr(out)
			},
			code: halide.ErrSchedule, fn: "out", directive: "prefetch",
			mentions: []string{"vectorized"},
			legal:    []string{"outside the stage's vectorized loops"},
		},
		{
			name: "GPU block loop",
			run: func() error {
				out, g, in := prefetching()
				g.ComputeRoot().GPUTile(x, y, bx, by, tx, ty, 8, 8)
				out.GPUTile(x, y, bx, by, tx, ty, 8, 8).PrefetchImage(in, bx, tx, 1)
				return lowerErr(out)
			},
			code: halide.ErrSchedule, fn: "out", directive: "prefetch",
			mentions: []string{"GPU block loop"},
			legal:    []string{"innermost GPU thread loop"},
		},
	})
}
