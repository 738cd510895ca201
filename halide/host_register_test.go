package halide_test

import (
	"strings"
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// TestRegisterOnTheHost: StoreIn(Register) of a Func computed on the host
// is a local array on the stack, as in Halide's CPU targets (Halide's
// compute_with two_compute_at test stores one so); the result is the
// algorithm's.
func TestRegisterOnTheHost(t *testing.T) {
	x, y := halide.NewVar("x"), halide.NewVar("y")
	f, out := halide.NewFunc("f"), halide.NewFunc("out")
	f.Define(x, y).Is(x.Mul(3).Add(y))
	out.Define(x, y).Is(f.At(x, y).Add(f.At(x.Add(1), y)))
	f.ComputeAt(out, y).StoreIn(halide.Register)
	p := halide.NewPipeline(out)
	l, err := p.Lower()
	if err != nil {
		t.Fatal(err)
	}
	if s := l.String(); !strings.Contains(s, "allocate f[") || !strings.Contains(s, "in Stack") {
		t.Errorf("f is not allocated on the stack:\n%s", s)
	}
	got := halide.NewBuffer[int32](6, 4)
	if err := p.Realize(got); err != nil {
		t.Fatal(err)
	}
	for j := range 4 {
		for i := range 6 {
			if want := int32(3*i + j + 3*(i+1) + j); got.Get(i, j) != want {
				t.Fatalf("out(%d, %d) = %d, want %d", i, j, got.Get(i, j), want)
			}
		}
	}
}
