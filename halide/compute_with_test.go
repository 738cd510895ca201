package halide_test

import (
	"fmt"
	"math/rand"
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// ComputeWith with each alignment, on producers whose regions differ (one
// read at x-2..x, the other at x..x+3, rows y-1..y and y..y+2), computed
// at the root, at a loop of the consumer, and stored outside it (sliding):
// the output is the same as without the fusion, on the CPU path and with
// the consumer on the emulator.
func TestComputeWith(t *testing.T) {
	aligns := []halide.LoopAlignStrategy{halide.AlignAuto, halide.AlignStart, halide.AlignEnd, halide.NoAlign}
	for _, level := range []string{"root", "at_y", "sliding", "gpu_consumer"} {
		for _, a := range aligns {
			for _, down := range []string{"y", "x"} {
				t.Run(fmt.Sprintf("%s/%v/%s", level, a, down), func(t *testing.T) {
					x, y := halide.NewVar("x"), halide.NewVar("y")
					in := halide.NewImageParam("in", halide.Int32, 2)
					f := halide.NewFunc("f")
					f.Define(x, y).Is(in.At(x, y).Mul(3).Add(in.At(x.Add(1), y)))
					g := halide.NewFunc("g")
					g.Define(x, y).Is(in.At(x, y).Sub(in.At(x, y.Add(1)).Mul(2)))
					out := halide.NewFunc("out")
					out.Define(x, y).Is(f.At(x.Sub(2), y).Add(f.At(x, y.Sub(1))).Add(g.At(x.Add(3), y)).Add(g.At(x, y.Add(2))))
					xo, xi := halide.NewVar("xo"), halide.NewVar("xi")
					switch level {
					case "root":
						f.ComputeRoot()
						g.ComputeRoot()
					case "at_y":
						f.ComputeAt(out, y)
						g.ComputeAt(out, y)
					case "sliding":
						f.ComputeAt(out, y).StoreRoot()
						g.ComputeAt(out, y).StoreRoot()
					case "gpu_consumer":
						f.ComputeRoot()
						g.ComputeRoot()
						out.GPUTile(x, y, xo, y, xi, halide.NewVar("yi"), 8, 4, halide.GuardWithIf)
					}
					f.Split(x, xo, xi, 4).Vectorize(xi)
					g.Split(x, xo, xi, 4).Vectorize(xi)
					var v halide.Var = xo
					if down == "y" {
						v = y
					}
					g.ComputeWith(f, v, halide.LoopAlign{Var: y, Strategy: a}, halide.LoopAlign{Var: v, Strategy: a})
					const w, h = 37, 11
					buf := halide.NewBuffer[int32](w+8, h+6)
					rng := rand.New(rand.NewSource(7))
					buf.Fill(func([]int) int32 { return int32(rng.Intn(2000) - 1000) })
					buf.SetMin(-3, -2)
					in.Set(buf)
					res := halide.NewBuffer[int32](w, h)
					if err := halide.NewPipeline(out).WithOptions(halide.Options{Verify: true}).Realize(res); err != nil {
						t.Fatal(err)
					}
					fv := func(x, y int) int32 { return buf.Get(x, y)*3 + buf.Get(x+1, y) }
					gv := func(x, y int) int32 { return buf.Get(x, y) - buf.Get(x, y+1)*2 }
					for yy := 0; yy < h; yy++ {
						for xx := 0; xx < w; xx++ {
							want := fv(xx-2, yy) + fv(xx, yy-1) + gv(xx+3, yy) + gv(xx, yy+2)
							if got := res.Get(xx, yy); got != want {
								t.Fatalf("out(%d, %d) = %d, want %d", xx, yy, got, want)
							}
						}
					}
				})
			}
		}
	}
}
