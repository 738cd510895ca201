package errors_test

import (
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// TestErrCloneIn checks the misuses of CloneIn: no consumer, a consumer
// that already has a wrapper, a nil consumer, a clone its consumer never
// reads, and a Func with no definition.
func TestErrCloneIn(t *testing.T) {
	x := halide.NewVar("x")
	// f is read by g and h; out = g + h.
	chain := func() (out, f, g, h *halide.Func) {
		in := halide.NewImageParam("in", halide.Float32, 1)
		f, g, h, out = halide.NewFunc("f"), halide.NewFunc("g"), halide.NewFunc("h"), halide.NewFunc("out")
		f.Define(x).Is(in.At(x).Mul(2))
		g.Define(x).Is(f.At(x).Add(1))
		h.Define(x).Is(f.At(x.Add(1)))
		out.Define(x).Is(g.At(x).Add(h.At(x)))
		return out, f, g, h
	}
	runCases(t, []errCase{
		{
			name:      "no consumer",
			run:       func() error { out, f, _, _ := chain(); f.CloneIn(); return lowerErr(out) },
			code:      halide.ErrBadArgument,
			fn:        "f",
			directive: "clone_in",
			mentions:  []string{"clone_in of f names no consumer"},
			legal:     []string{"f.CloneIn(g, ...)", "f.In()"},
		},
		{
			name:      "a consumer with a wrapper already",
			run:       func() error { out, f, g, _ := chain(); f.In(g); f.CloneIn(g); return lowerErr(out) },
			code:      halide.ErrSchedule,
			fn:        "f",
			directive: "clone_in",
			mentions:  []string{"g already has a wrapper of f (In), so it cannot read a clone too"},
			legal:     []string{"one of f.In(g) and f.CloneIn(g) per consumer g"},
		},
		{
			name:      "a consumer with a clone already",
			run:       func() error { out, f, g, _ := chain(); f.CloneIn(g); f.In(g); return lowerErr(out) },
			code:      halide.ErrSchedule,
			fn:        "f",
			directive: "in",
			mentions:  []string{"g already reads a clone of f (f_clone_in_g, made by CloneIn), so it cannot read a wrapper too"},
			legal:     []string{"one of f.In(g) and f.CloneIn(g) per consumer g"},
		},
		{
			name:      "a nil consumer",
			run:       func() error { out, f, _, _ := chain(); f.CloneIn(nil); return lowerErr(out) },
			code:      halide.ErrNilObject,
			fn:        "f",
			directive: "clone_in",
			mentions:  []string{"a consumer of the wrapper of f is nil"},
		},
		{
			name: "a clone its consumer does not read",
			run: func() error {
				// out reads f through g and h, so f.CloneIn(out) would
				// clone f for g and h (Halide's transitive clone_in); k
				// does not read f at all.
				out, f, _, _ := chain()
				k, top := halide.NewFunc("k"), halide.NewFunc("top")
				k.Define(x).Is(halide.Cast(halide.Float32, x))
				top.Define(x).Is(out.At(x).Add(k.At(x)))
				f.CloneIn(k)
				return lowerErr(top)
			},
			code:      halide.ErrSchedule,
			fn:        "k",
			directive: "clone_in",
			mentions:  []string{"f.CloneIn(k) made the clone f_clone_in_k, but k does not read f"},
		},
		{
			name: "a Func with no definition",
			run: func() error {
				_, _, g, _ := chain()
				return halide.NewFunc("e").CloneIn(g).Err()
			},
			code:      halide.ErrUndefined,
			fn:        "e_clone_in_g",
			directive: "clone_in",
			mentions:  []string{"e has no definition to clone"},
		},
	})
}
