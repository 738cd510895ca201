package golden

import (
	"strings"
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// TestBoundSizesAllocation: Func.Bound fixes the region computed, so the
// realization is that region: g.Bound(x, 0, 16) inside f's row loop is 16
// floats per row, a constant size that goes on the stack (as in Halide,
// where the bound becomes the Realize node's bounds). A run-time assertion
// already checks that the consumers read only inside the bound, so sizing
// the allocation from their reads as well is never needed.
func TestBoundSizesAllocation(t *testing.T) {
	x, y := halide.NewVar("x"), halide.NewVar("y")
	in := halide.NewImageParam("in", halide.Float32, 2)
	g := halide.NewFunc("g")
	g.Define(x, y).Is(in.At(x, y).Mul(2))
	f := halide.NewFunc("f")
	f.Define(x, y).Is(g.At(x, y).Add(g.At(x.Add(1), y)))
	g.ComputeAt(f, y).Bound(x, 0, 16)
	l, err := halide.NewPipeline(f).WithOptions(halide.Options{Verify: true}).Lower()
	if err != nil {
		t.Fatal(err)
	}
	var alloc string
	for _, line := range strings.Split(l.String(), "\n") {
		if strings.Contains(line, "allocate g[") {
			alloc = strings.TrimSpace(line)
		}
	}
	if want := "allocate g[float32 * 16 * 1] in Stack"; alloc != want {
		t.Errorf("got  %s\nwant %s", alloc, want)
	}
}
