// progfuzz reproduction: rejected_realize on the CPU
// found as program 1099 of -seed 8 (19 directives before minimizing); input seed 3192205570092210818
// replay: go run ./tests/fuzz/cmd/progfuzz -replay <this file>
// error code: out_of_bounds
//
// result:
//   out_of_bounds: Func f0: Realize: store to f3 at index -4 is out of bounds [0, 7)

package main

import (
	"fmt"

	"github.com/gohalide/gohalide/halide"
)

func main() {
	v := halide.NewVar // loops made by the schedule
	_ = v
	x, y, z := halide.NewVar("x"), halide.NewVar("y"), halide.NewVar("z")
	_, _, _ = x, y, z
	pi := halide.NewParam[int32]("pi")
	pi.Set(3)
	pf := halide.NewParam[float32]("pf")
	pf.Set(0.5)

	f0 := halide.NewFunc("f0")
	f1 := halide.NewFunc("f1")
	f2 := halide.NewFunc("f2")
	f3 := halide.NewFunc("f3")
	f3.Define(x).Is(halide.E(float32(0)))
	f2.Define(x).Is(f3.At(x))
	f1.Define(x).Is(f2.At(x))
	f0.Define(x).Is(halide.Cast(halide.Int32, f1.At(x)))
	f3.Bound(x, -2, 7)
	// output: f0 realized over mins [0], extents [1]
	
	// schedule:
	f1_in_f0 := f1.In(f0)
	f1_in_f0.ComputeRoot()
	f1.ComputeAt(f1_in_f0, x)
	f3.ComputeAt(f1, x)
	f3.Split(x, v("xo3"), v("xi4"), 4, halide.GuardWithIf)
	f3.Split(v("xo3"), v("xo35"), v("xo36"), 3, halide.TailAuto)
	
	out := halide.NewBuffer[int32](1).SetMin(0)
	pl := halide.NewPipeline(f0)
	if l, err := pl.Lower(); err == nil { fmt.Println(l) }
	if err := pl.Realize(out); err != nil {
		fmt.Println("Realize:", err)
		return
	}
	want := []int32{0} // the reference (Halide's semantics), dimension 0 fastest
	bad := 0
	for i, w := range want {
		if g := out.Data()[i]; g != w {
			if bad < 5 {
				fmt.Printf("element %d: got %v, want %v\n", i, g, w)
			}
			bad++
		}
	}
	fmt.Printf("%d of %d elements wrong\n", bad, len(want))
}

// case: {"algo":"prog","gpu":false,"sizes":[1],"seed":3192205570092210818,"schedule":[{"op":"in","func":"f1","tail":-1,"consumer":"f0","wrapper":"f1_in_f0"},{"op":"compute_root","func":"f1_in_f0","tail":-1},{"op":"compute_at","func":"f1","vars":["x"],"tail":-1,"consumer":"f1_in_f0","consumer_stage":-1},{"op":"compute_at","func":"f3","vars":["x"],"tail":-1,"consumer":"f1","consumer_stage":-1},{"op":"split","func":"f3","vars":["x","xo3","xi4"],"ints":[4],"tail":1},{"op":"split","func":"f3","vars":["xo3","xo35","xo36"],"ints":[3],"tail":0}],"run_seed":8,"index":1099,"program":{"funcs":[{"name":"f0","dims":1,"pure":{"op":"cast","a":[{"op":"call","f":true,"n":"f1","a":[{"op":"v","n":"x"}]}]}},{"name":"f1","float":true,"dims":1,"pure":{"op":"call","f":true,"n":"f2","a":[{"op":"v","n":"x"}]}},{"name":"f2","float":true,"dims":1,"pure":{"op":"call","f":true,"n":"f3","a":[{"op":"v","n":"x"}]}},{"name":"f3","float":true,"dims":1,"pure":{"op":"c","f":true}}],"params":[{"name":"pi","value":3},{"name":"pf","float":true,"value":0.5}],"bounds":[{"func":"f3","dim":0,"min":-2,"ext":7}],"out_min":[0]}}
