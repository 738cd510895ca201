package errors_test

import (
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// TestWideIndex checks the indices whose range is unbounded or spans more
// than an int32 extent holds: the region of the Func they read cannot be
// sized, and Lower says so, naming the index (it used to wrap the extent
// 2^32 to 0 and allocate nothing). The first three ranges are the whole of
// int32 after the cast, which bounds treats as unbounded (an end 2^31 - 1
// would wrap at the next + x); the last is two constants 2^32 - 10 apart.
func TestWideIndex(t *testing.T) {
	x := halide.NewVar("x")
	read := func(index func(in *halide.ImageParam) halide.Expr) func() error {
		return func() error {
			in := halide.NewImageParam("in", halide.UInt32, 1)
			f := halide.NewFunc("f")
			f.Define(x).Is(x)
			g := halide.NewFunc("g")
			g.Define(x).Is(f.At(index(in)))
			f.ComputeRoot()
			_, err := halide.NewPipeline(g).Lower()
			return err
		}
	}
	legal := []string{"clamp the index", "Bound the Func"}
	runCases(t, []errCase{
		{
			name:      "int32 of uint32",
			run:       read(func(in *halide.ImageParam) halide.Expr { return halide.Cast(halide.Int32, in.At(x)) }),
			code:      halide.ErrUnbounded,
			fn:        "f",
			directive: "bounds inference",
			mentions:  []string{"dimension 0 (x)", "[-inf, +inf]", "the index int32(in(g.s0.x)) is unbounded"},
			legal:     legal,
		},
		{
			name: "int32 of uint16 times 65536",
			run: read(func(in *halide.ImageParam) halide.Expr {
				return halide.Cast(halide.Int32, halide.Cast(halide.UInt16, in.At(x))).Mul(65536)
			}),
			code:      halide.ErrUnbounded,
			fn:        "f",
			directive: "bounds inference",
			mentions:  []string{"[-inf, +inf]", "the index (int32(uint16(in(g.s0.x))) * 65536) is unbounded"},
			legal:     legal,
		},
		{
			name: "int32 of an unclamped float",
			run: read(func(in *halide.ImageParam) halide.Expr {
				return halide.Cast(halide.Int32, halide.Cast(halide.Float32, in.At(x)))
			}),
			code:      halide.ErrUnbounded,
			fn:        "f",
			directive: "bounds inference",
			// A float32 of a uint32 is at least 0.
			mentions: []string{"[0, +inf]", "the index int32(float32(in(g.s0.x))) is unbounded"},
			legal:    legal,
		},
		{
			name: "two extreme constants",
			run: read(func(in *halide.ImageParam) halide.Expr {
				return halide.Select(in.At(x).Gt(uint32(5)), int32(-2147483643), int32(2147483642))
			}),
			code:      halide.ErrUnbounded,
			fn:        "f",
			directive: "bounds inference",
			mentions:  []string{"[-2147483643, 2147483642]", "4294967286 points", "the index select("},
			legal:     legal,
		},
	})
}

// TestRegionTooComplex checks a Func read at so many different places
// that its region is an expression of thousands of nodes: Lower stops
// with ErrExprTooLarge naming it, quickly, instead of simplifying the
// region again in every later pass (seconds, in random programs).
func TestRegionTooComplex(t *testing.T) {
	runCases(t, []errCase{{
		name: "600 reads",
		run: func() error {
			x := halide.NewVar("x")
			in := halide.NewImageParam("in", halide.Int32, 1)
			f := halide.NewFunc("f")
			f.Define(x).Is(x)
			f.ComputeRoot()
			sum := halide.E(int32(0))
			for i := 1; i <= 600; i++ {
				// x*i plus a clamped data-dependent offset: no two ends
				// differ by a constant, so the union keeps them all.
				sum = sum.Add(f.At(x.Mul(i).Add(halide.Clamp(in.At(halide.Clamp(x, 0, 9)), 0, i))))
			}
			g := halide.NewFunc("g")
			g.Define(x).Is(sum)
			_, err := halide.NewPipeline(g).Lower()
			return err
		},
		code:      halide.ErrExprTooLarge,
		fn:        "f",
		directive: "bounds inference",
		mentions:  []string{"region of f in dimension 0", "2000 nodes", "read at too many different places"},
		legal:     []string{"at the root or at outer loops", "Bound it"},
	}})
}
