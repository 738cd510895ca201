package halide_test

import (
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// TestArgminBool: Argmin and Argmax of a bool Expr (Halide's, which
// tutorial lesson 13 uses for the first escape of a Mandelbrot
// iteration) give the first point where the condition is false (true),
// and the value as a bool; where there is none, coordinate 0 and the
// initial value (true for argmin), as Halide's (InlineReductions.cpp
// starts from the type's max or min and takes only a better value).
// They were refused ("argmin of a bool expression").
func TestArgminBool(t *testing.T) {
	// Row y of in holds 1 + x%3 below x = y and 10 + x from there on:
	// in(x, y) < 4 is false from x = y on (never in row 6).
	const W, H = 6, 7
	in := halide.NewBuffer[int32](W, H)
	in.Fill(func(c []int) int32 {
		if c[0] >= c[1] {
			return 10 + int32(c[0])
		}
		return 1 + int32(c[0]%3)
	})
	y := halide.NewVar("y")
	r := halide.NewRDom("r", halide.Range(1, W-1))
	small := in.At(r, y).Lt(4)
	for _, tc := range []struct {
		name  string
		arg   halide.Tuple
		first func(row int) int32 // the first r where the answer holds, or 0 for none
	}{
		{"argmin", halide.Argmin(small), func(row int) int32 {
			for x := 1; x < W; x++ {
				if x >= row {
					return int32(x)
				}
			}
			return 0
		}},
		{"argmax", halide.Argmax(halide.Not(small)), func(row int) int32 {
			for x := 1; x < W; x++ {
				if x >= row {
					return int32(x)
				}
			}
			return 0
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.arg.Err(); err != nil {
				t.Fatal(err)
			}
			if ty := tc.arg.Elem(1).Type(); ty != halide.Bool {
				t.Fatalf("value has type %v, want bool", ty)
			}
			f := halide.NewFunc("f")
			f.Define(y).Is(halide.NewTuple(tc.arg.Elem(0), halide.Cast(halide.UInt8, tc.arg.Elem(1))))
			idx, val := halide.NewBuffer[int32](H), halide.NewBuffer[uint8](H)
			if err := f.RealizeTuple(idx, val); err != nil {
				t.Fatal(err)
			}
			for row := 0; row < H; row++ {
				want, wantVal := tc.first(row), uint8(1)
				if want == 0 {
					wantVal = 0 // none: coordinate 0, the initial value
				}
				if tc.name == "argmin" {
					wantVal = 1 - wantVal // argmin finds false
				}
				if idx.Get(row) != want || val.Get(row) != wantVal {
					t.Fatalf("row %d: (%d, %d), want (%d, %d)", row, idx.Get(row), val.Get(row), want, wantVal)
				}
			}
		})
	}
}
