package halide_test

import (
	"errors"
	"math/rand"
	"strings"
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// SetBounds on a dimension of the output Func constrains the output
// buffer (Halide's output_buffer().dim(d).set_bounds): lowering uses the
// promised min and extent as constants, and Realize refuses a buffer of
// another shape; in a pipeline with another output it is refused at
// Lower.
func TestOutputSetBounds(t *testing.T) {
	x, y := halide.NewVar("x"), halide.NewVar("y")
	in := halide.NewImageParam("in", halide.Int32, 2)
	f := halide.NewFunc("f")
	f.Define(x, y).Is(in.At(x, y).Mul(3).Add(x))
	f.Dim(0).SetBounds(0, 8)
	f.Dim(1).SetBounds(2, 5)
	f.Vectorize(x, 4)

	rng := rand.New(rand.NewSource(5))
	ib := halide.NewBuffer[int32](8, 7)
	for i := range ib.Data() {
		ib.Data()[i] = rng.Int31n(1000) - 500
	}
	in.Set(ib)
	p := halide.NewPipeline(f)
	l, err := p.Lower()
	if err != nil {
		t.Fatal(err)
	}
	// The loops over the output run over the promised region.
	if s := l.String(); !strings.Contains(s, "for (f.s0.y, 2, 5)") || !strings.Contains(s, "for (f.s0.x.x, 0, 2)") {
		t.Errorf("the loops of f do not have the promised constant bounds:\n%s", s)
	}
	out := halide.NewBuffer[int32](8, 5).SetMin(0, 2)
	if err := p.Realize(out); err != nil {
		t.Fatal(err)
	}
	for yy := 2; yy < 7; yy++ {
		for xx := 0; xx < 8; xx++ {
			want := ib.Data()[yy*8+xx]*3 + int32(xx)
			if got := out.Data()[(yy-2)*8+xx]; got != want {
				t.Fatalf("f(%d, %d) = %d, want %d", xx, yy, got, want)
			}
		}
	}
	var he *halide.Error
	for _, bad := range []halide.BufferRef{
		halide.NewBuffer[int32](8, 5),              // min 0 in y, not 2
		halide.NewBuffer[int32](9, 5).SetMin(0, 2), // extent 9 in x, not 8
	} {
		err := p.Realize(bad)
		if !errors.As(err, &he) || he.Code != halide.ErrBufferShape || !strings.Contains(err.Error(), "(SetBounds)") {
			t.Errorf("Realize into a buffer of another shape: %v, want ErrBufferShape naming SetBounds", err)
		}
	}

	g := halide.NewFunc("g")
	g.Define(x, y).Is(f.At(x, y).Add(1))
	err = halide.NewPipeline(g).Realize(halide.NewBuffer[int32](8, 5).SetMin(0, 2))
	if !errors.As(err, &he) || he.Code != halide.ErrSchedule || he.Func != "f" {
		t.Errorf("SetBounds on a Func that is not the output: %v, want ErrSchedule naming f", err)
	}
}
