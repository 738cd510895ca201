package errors_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// TestBufferAccessOutOfRange: Element and SetElement return typed errors
// for out-of-range coordinates and a wrong number of them; Get and Set
// never panic, read zero and store nothing, and record the first bad
// access, which Err and the next Realize into the buffer return.
func TestBufferAccessOutOfRange(t *testing.T) {
	b := halide.NewBuffer[int32](4, 3).SetMin(10, -1)
	b.Set(7, 11, 0)
	if v, err := b.Element(11, 0); err != nil || v != 7 {
		t.Fatalf("Element(11, 0) = %d, %v; want 7, nil", v, err)
	}
	for _, c := range []struct {
		coords []int
		code   halide.ErrorCode
		text   string
	}{
		{[]int{9, 0}, halide.ErrOutOfBounds, "[10, 14) x [-1, 2)"},
		{[]int{13, 2}, halide.ErrOutOfBounds, "[10, 14) x [-1, 2)"},
		{[]int{10}, halide.ErrArgCount, "2 coordinates"},
	} {
		_, err := b.Element(c.coords...)
		var e *halide.Error
		if !errors.As(err, &e) || e.Code != c.code || !strings.Contains(err.Error(), c.text) {
			t.Errorf("Element(%v): %v; want code %s mentioning %q", c.coords, err, c.code, c.text)
		}
		if err := b.SetElement(1, c.coords...); !errors.As(err, &e) || e.Code != c.code {
			t.Errorf("SetElement(%v): %v; want code %s", c.coords, err, c.code)
		}
	}
	if b.Err() != nil {
		t.Fatalf("Element and SetElement recorded an error: %v", b.Err())
	}
	// Get and Set: zero, nothing stored, the first bad access recorded.
	if v := b.Get(100, 0); v != 0 {
		t.Errorf("Get out of range = %d, want 0", v)
	}
	b.Set(5, 0, 0, 0)
	var e *halide.Error
	if err := b.Err(); !errors.As(err, &e) || e.Code != halide.ErrOutOfBounds || !strings.Contains(err.Error(), "[100 0]") {
		t.Fatalf("Err after a bad Get: %v; want the Get's ErrOutOfBounds", err)
	}
	for _, v := range b.Data() {
		if v != 0 && v != 7 {
			t.Fatalf("a bad Set stored %d", v)
		}
	}
	x, y := halide.NewVar("x"), halide.NewVar("y")
	f := halide.NewFunc("f")
	f.Define(x, y).Is(x.Add(y))
	if err := halide.NewPipeline(f).Realize(b); !errors.As(err, &e) || e.Code != halide.ErrOutOfBounds {
		t.Errorf("Realize into the buffer: %v; want its recorded ErrOutOfBounds", err)
	}
}
