package errors_test

import (
	"strings"
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// A consumer has at most one wrapper of a Func or input: In naming it
// beside consumers that do not share that wrapper is refused.
func TestInWrapperSharing(t *testing.T) {
	runCases(t, []errCase{
		{
			name: "Func.In(f, h) after Func.In(f)",
			run: func() error {
				b := definedBlur()
				h := halide.NewFunc("h")
				h.Define(x, y).Is(b.g.At(x, y))
				b.g.In(b.f)
				b.g.In(b.f, h)
				return lowerErr(b.f)
			},
			code: halide.ErrSchedule, fn: "g", directive: "in", mentions: []string{"g_in_f", "already has a wrapper"},
			legal: []string{"g.In(g, h)"},
		},
		{
			name: "ImageParam.In(h, g) after ImageParam.In(g)",
			run: func() error {
				// h reads in directly, as g does (f reads it only through
				// g, so in.In(f) would wrap in in g, as Halide's transitive
				// in does).
				b := definedBlur()
				h := halide.NewFunc("h")
				h.Define(x, y).Is(b.in.At(x, y))
				b.in.In(b.g)
				b.in.In(h, b.g)
				return lowerErr(b.f)
			},
			code: halide.ErrSchedule, directive: "in", mentions: []string{"in_in_g"},
			legal: []string{"in.In(g, h)"},
		},
	})
}

// The global wrapper and a consumer's own wrapper: the consumer reads its
// own, everyone else the global one, and the answer does not change.
func TestInGlobalAndOwnWrapper(t *testing.T) {
	b := definedBlur()
	h := halide.NewFunc("h")
	h.Define(x, y).Is(b.g.At(x, y).Add(b.f.At(x, y)))
	b.g.ComputeRoot()
	b.f.ComputeRoot()
	b.g.In().ComputeRoot()
	b.g.In(b.f).ComputeRoot()
	s, err := halide.NewPipeline(h).LoopNest()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"produce g_in:", "produce g_in_f:"} {
		if !strings.Contains(s, want) {
			t.Errorf("loop nest lacks %q:\n%s", want, s)
		}
	}
	out := halide.NewBuffer[float32](6, 2)
	if err := halide.NewPipeline(h).Realize(out); err != nil {
		t.Fatal(err)
	}
	for yy := 0; yy < 2; yy++ {
		for xx := 0; xx < 6; xx++ {
			in := func(x int) float32 { return float32(x + 100*yy) }
			g := func(x int) float32 { return 2 * in(x) }
			want := g(xx) + g(xx) + g(xx+1)
			if got := out.Data()[xx+6*yy]; got != want {
				t.Errorf("h(%d, %d) = %v, want %v", xx, yy, got, want)
			}
		}
	}
}
