package halide_test

import (
	"fmt"

	"github.com/gohalide/gohalide/halide"
)

// RandomFloat is a pseudo-random function of the point being defined:
// noise(x) is the same value wherever and however often it is read, so
// the two reads of noise at x below agree, and one call added to itself is
// twice itself.
func ExampleRandomFloat() {
	x := halide.NewVar("x")
	noise, f := halide.NewFunc("noise"), halide.NewFunc("f")
	noise.Define(x).Is(halide.RandomFloat())
	f.Define(x).Is(noise.At(x).Sub(noise.At(x)))
	out := halide.NewBuffer[float32](8)
	if err := f.Realize(out); err != nil {
		fmt.Println(err)
		return
	}
	vals := halide.NewBuffer[float32](8)
	if err := noise.Realize(vals); err != nil {
		fmt.Println(err)
		return
	}
	inRange := true
	for i := 0; i < 8; i++ {
		inRange = inRange && vals.Get(i) >= 0 && vals.Get(i) < 1
	}
	fmt.Println(out.Data(), inRange)
	// Output:
	// [0 0 0 0 0 0 0 0] true
}
