package halide_test

import (
	"errors"
	"fmt"
	"strings"
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

// ComputeWith between stages (Halide's Stage::compute_with): update
// stages fused with other Funcs' stages, stages of one Func sharing a
// fused loop, chains and trees of fusions, down to the rows or the
// columns, with each alignment, computed at the root, at a row of the
// consumer, as GPU kernels fused at their block or thread loops (on the
// emulator) and as parallel loops: the output is the plain-Go
// reference's, bit for bit.
func TestComputeWithStages(t *testing.T) {
	type fns struct{ f, g, h *halide.Func }
	schedules := map[string]func(p fns, y, x halide.VarOrRVar, a halide.LoopAlignStrategy){
		"update_stage": func(p fns, y, _ halide.VarOrRVar, a halide.LoopAlignStrategy) {
			p.f.Update(1).ComputeWith(p.g.Update(0), y, halide.LoopAlign{Var: y, Strategy: a})
		},
		"stage3": func(p fns, y, _ halide.VarOrRVar, a halide.LoopAlignStrategy) {
			p.f.ComputeWith(p.g, y, halide.LoopAlign{Var: y, Strategy: a})
			p.f.Update(0).ComputeWith(p.g, y, halide.LoopAlign{Var: y, Strategy: a})
			p.f.Update(1).ComputeWith(p.g, y)
		},
		"stage3_down_to_x": func(p fns, y, x halide.VarOrRVar, a halide.LoopAlignStrategy) {
			p.f.ComputeWith(p.g, x, halide.LoopAlign{Var: y, Strategy: a})
			p.f.Update(0).ComputeWith(p.g, x, halide.LoopAlign{Var: x, Strategy: a})
			p.f.Update(1).ComputeWith(p.g, x)
		},
		"pairwise": func(p fns, y, x halide.VarOrRVar, a halide.LoopAlignStrategy) {
			p.f.ComputeWith(p.g, x, halide.LoopAlign{Var: y, Strategy: a}, halide.LoopAlign{Var: x, Strategy: a})
			p.f.Update(0).ComputeWith(p.g.Update(0), y, halide.LoopAlign{Var: y, Strategy: a})
			p.f.Update(1).ComputeWith(p.g.Update(1), x, halide.LoopAlign{Var: x, Strategy: a})
		},
		"zigzag": func(p fns, y, _ halide.VarOrRVar, a halide.LoopAlignStrategy) {
			p.f.ComputeWith(p.g, y, halide.LoopAlign{Var: y, Strategy: a})
			p.g.Update(0).ComputeWith(p.f.Update(0), y, halide.LoopAlign{Var: y, Strategy: a})
			p.f.Update(1).ComputeWith(p.g.Update(1), y)
		},
		"diagonal": func(p fns, y, _ halide.VarOrRVar, a halide.LoopAlignStrategy) {
			p.f.Update(1).ComputeWith(p.g.Update(0), y, halide.LoopAlign{Var: y, Strategy: a})
			p.g.Update(0).ComputeWith(p.h, y, halide.LoopAlign{Var: y, Strategy: a})
		},
		"chain": func(p fns, y, x halide.VarOrRVar, a halide.LoopAlignStrategy) {
			p.h.ComputeWith(p.g, y, halide.LoopAlign{Var: y, Strategy: a})
			p.g.ComputeWith(p.f, x, halide.LoopAlign{Var: x, Strategy: a})
		},
		"two_children": func(p fns, y, x halide.VarOrRVar, a halide.LoopAlignStrategy) {
			p.h.ComputeWith(p.f, x, halide.LoopAlign{Var: y, Strategy: a})
			p.g.Update(1).ComputeWith(p.f, y, halide.LoopAlign{Var: y, Strategy: a})
		},
	}
	aligns := []halide.LoopAlignStrategy{halide.AlignAuto, halide.AlignStart, halide.AlignEnd}
	for _, level := range []string{"root", "at_y", "gpu", "parallel"} {
		for name, sched := range schedules {
			for _, a := range aligns {
				t.Run(fmt.Sprintf("%s/%s/%v", level, name, a), func(t *testing.T) {
					x, y := halide.NewVar("x"), halide.NewVar("y")
					in := halide.NewImageParam("in", halide.Int32, 2)
					f, g, h := halide.NewFunc("f"), halide.NewFunc("g"), halide.NewFunc("h")
					f.Define(x, y).Is(in.At(x, y).Mul(3).Add(in.At(x.Add(1), y)))
					f.Define(x, y).Is(f.At(x, y).Mul(2).Add(in.At(x, y.Add(1))))
					f.Define(x, y).Is(f.At(x, y).Sub(x).Add(y))
					g.Define(x, y).Is(in.At(x, y).Sub(in.At(x, y.Add(1)).Mul(2)))
					g.Define(x, y).Is(g.At(x, y).Add(in.At(x.Add(2), y).Mul(5)))
					g.Define(x, y).Is(g.At(x, y).Mul(3).Sub(1))
					h.Define(x, y).Is(in.At(x, y).Add(7))
					out := halide.NewFunc("out")
					out.Define(x, y).Is(f.At(x.Sub(2), y).Add(f.At(x, y.Sub(1))).Add(g.At(x.Add(3), y)).Add(g.At(x, y.Add(2))).Add(h.At(x, y.Add(1))))
					fy, fx := halide.VarOrRVar(y), halide.VarOrRVar(x)
					for _, fn := range []*halide.Func{f, g, h} {
						// nil is the pure definition.
						stages := []*halide.Stage{nil}
						if fn != h {
							stages = append(stages, fn.Update(0), fn.Update(1))
						}
						switch level {
						case "root":
							fn.ComputeRoot()
						case "at_y":
							fn.ComputeAt(out, y)
						case "gpu":
							fn.ComputeRoot()
						case "parallel":
							fn.ComputeRoot()
						}
						for _, st := range stages {
							bx, by, tx, ty := halide.NewVar("bx"), halide.NewVar("by"), halide.NewVar("tx"), halide.NewVar("ty")
							switch level {
							case "gpu":
								if st == nil {
									fn.GPUTile(x, y, bx, by, tx, ty, 8, 4)
								} else {
									st.GPUTile(x, y, bx, by, tx, ty, 8, 4)
								}
							case "parallel":
								if st == nil {
									fn.Parallel(y)
								} else {
									st.Parallel(y)
								}
							}
						}
					}
					if level == "gpu" {
						// Fused at all block loops, or at all block and
						// thread loops.
						fy, fx = halide.NewVar("bx"), halide.NewVar("tx")
						out.GPUTile(x, y, halide.NewVar("bx"), halide.NewVar("by"), halide.NewVar("tx"), halide.NewVar("ty"), 16, 4)
					}
					sched(fns{f, g, h}, fy, fx, a)
					if level == "gpu" && strings.HasPrefix(name, "stage3") {
						// Stages of f share the split loops of y: refused.
						err := halide.NewPipeline(out).Compile()
						var he *halide.Error
						if !errors.As(err, &he) || he.Code != halide.ErrSchedule || !strings.Contains(he.Msg, "share the fused loop") {
							t.Fatalf("got %v, want an ErrSchedule saying the stages of f share a split loop", err)
						}
						return
					}
					const w, ht = 37, 11
					// Room for the GPU tiles' ShiftInwards tails.
					buf := halide.NewBuffer[int32](w+24, ht+16)
					rng := rand.New(rand.NewSource(11))
					buf.Fill(func([]int) int32 { return int32(rng.Intn(2000) - 1000) })
					buf.SetMin(-8, -6)
					in.Set(buf)
					res := halide.NewBuffer[int32](w, ht)
					if err := halide.NewPipeline(out).WithOptions(halide.Options{Verify: true}).Realize(res); err != nil {
						t.Fatal(err)
					}
					fv := func(x, y int) int32 {
						v := buf.Get(x, y)*3 + buf.Get(x+1, y)
						v = v*2 + buf.Get(x, y+1)
						return v - int32(x) + int32(y)
					}
					gv := func(x, y int) int32 {
						v := buf.Get(x, y) - buf.Get(x, y+1)*2
						v += buf.Get(x+2, y) * 5
						return v*3 - 1
					}
					hv := func(x, y int) int32 { return buf.Get(x, y) + 7 }
					for yy := 0; yy < ht; yy++ {
						for xx := 0; xx < w; xx++ {
							want := fv(xx-2, yy) + fv(xx, yy-1) + gv(xx+3, yy) + gv(xx, yy+2) + hv(xx, yy+1)
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
