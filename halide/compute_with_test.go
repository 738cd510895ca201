package halide_test

import (
	"errors"
	"fmt"
	"math/rand"
	"strings"
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
	for _, level := range []string{"root", "at_y", "sliding", "gpu_consumer", "gpu_thread", "gpu_block_threads", "gpu_block_shared"} {
		for _, a := range aligns {
			for _, down := range []string{"y", "x"} {
				if level == "gpu_block_threads" && down == "y" {
					continue // thread loops all fused or none (TestErrComputeWith)
				}
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
					case "gpu_thread", "gpu_block_threads", "gpu_block_shared":
						// Inside the kernel: computed by each thread, or
						// at the block, by thread loops of their own (as
						// harris's Ix and Iy) or by the block's threads
						// together (shared memory).
						bx, by, tx, ty := halide.NewVar("bx"), halide.NewVar("by"), halide.NewVar("tx"), halide.NewVar("ty")
						out.GPUTile(x, y, bx, by, tx, ty, 8, 4, halide.GuardWithIf)
						at := tx
						if level != "gpu_thread" {
							at = bx
						}
						f.ComputeAt(out, at)
						g.ComputeAt(out, at)
					}
					f.Split(x, xo, xi, 4).Vectorize(xi)
					g.Split(x, xo, xi, 4).Vectorize(xi)
					if level == "gpu_block_threads" {
						f.GPUThreads(xo, y)
						g.GPUThreads(xo, y)
					}
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

// cwFuncs are the Funcs of the compute_with stage tests: f and g with
// two updates each, h pure.
type cwFuncs struct{ f, g, h *halide.Func }

// runComputeWithCase builds out = f(x-2, y) + f(x, y-1) + g(x+3, y) +
// g(x, y+2) + h(x, y+1), computes f, g and h at level ("root", "at_y",
// "parallel": root with every stage parallel in y, "gpu": root with every
// stage a GPU kernel of 8x4 tiles), lets sched fuse them (y and x are the
// outer and inner loops to fuse: on the GPU the innermost block loop and
// the innermost thread loop) and checks the output against the plain-Go
// reference, bit for bit. It returns Realize's error (the test fails on
// a wrong value).
func runComputeWithCase(t *testing.T, level string, sched func(p cwFuncs, y, x halide.VarOrRVar)) error {
	t.Helper()
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
		stages := []*halide.Stage{fn.Stage(0)}
		if fn != h {
			stages = append(stages, fn.Update(0), fn.Update(1))
		}
		if level == "at_y" {
			fn.ComputeAt(out, y)
		} else {
			fn.ComputeRoot()
		}
		for _, st := range stages {
			switch level {
			case "gpu":
				st.GPUTile(x, y, halide.NewVar("bx"), halide.NewVar("by"), halide.NewVar("tx"), halide.NewVar("ty"), 8, 4)
			case "parallel":
				st.Parallel(y)
			case "vector":
				st.Split(x, halide.NewVar("xo"), halide.NewVar("xi"), 4, halide.GuardWithIf).Vectorize(halide.NewVar("xi"))
			}
		}
	}
	if level == "vector" {
		fy, fx = halide.NewVar("xo"), halide.NewVar("xi")
	}
	if level == "gpu" {
		fy, fx = halide.NewVar("bx"), halide.NewVar("tx")
		out.GPUTile(x, y, halide.NewVar("bx"), halide.NewVar("by"), halide.NewVar("tx"), halide.NewVar("ty"), 16, 4)
	}
	sched(cwFuncs{f, g, h}, fy, fx)
	const w, ht = 37, 11
	// Room for the GPU tiles' ShiftInwards tails.
	buf := halide.NewBuffer[int32](w+24, ht+16)
	rng := rand.New(rand.NewSource(11))
	buf.Fill(func([]int) int32 { return int32(rng.Intn(2000) - 1000) })
	buf.SetMin(-8, -6)
	in.Set(buf)
	res := halide.NewBuffer[int32](w, ht)
	if err := halide.NewPipeline(out).WithOptions(halide.Options{Verify: true}).Realize(res); err != nil {
		return err
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
	return nil
}

// ComputeWith between stages (Halide's Stage::compute_with, after its
// update_stage tests): update stages fused with other Funcs' stages,
// stages of one Func sharing a fused loop, chains and trees of fusions,
// down to the rows or the columns, with each alignment, at each level of
// runComputeWithCase.
func TestComputeWithStages(t *testing.T) {
	type fns = cwFuncs
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
	for _, level := range []string{"root", "at_y", "gpu", "parallel"} {
		for name, sched := range schedules {
			for _, a := range []halide.LoopAlignStrategy{halide.AlignAuto, halide.AlignStart, halide.AlignEnd} {
				t.Run(fmt.Sprintf("%s/%s/%v", level, name, a), func(t *testing.T) {
					err := runComputeWithCase(t, level, func(p cwFuncs, y, x halide.VarOrRVar) { sched(p, y, x, a) })
					if level == "gpu" && strings.HasPrefix(name, "stage3") {
						// Stages of f share the split loops of y: refused.
						var he *halide.Error
						if !errors.As(err, &he) || he.Code != halide.ErrSchedule || !strings.Contains(he.Msg, "share the fused loop") {
							t.Fatalf("got %v, want an ErrSchedule saying the stages of f share a split loop", err)
						}
						return
					}
					if err != nil {
						t.Fatal(err)
					}
				})
			}
		}
	}
}

// Random sets of one to four compute_with directives between random
// stages of f, g and h, down to a random one of the two loops, with random
// alignments, at every level (vector: x split by 4 and its inner loop
// vectorized, fused down to xo or xi): each lowers to the reference's output or is
// refused with an ErrSchedule at Lower (never a wrong value, a panic or
// another error), and most run.
func TestComputeWithRandomStages(t *testing.T) {
	rng := rand.New(rand.NewSource(cwSeed))
	ok, refused := map[string]int{}, map[string]int{}
	for i := 0; i < int(cwCases); i++ {
		level := []string{"root", "at_y", "gpu", "parallel", "vector"}[i%5]
		type edge struct{ c, cs, p, ps, v, a int }
		var edges []edge
		for n := 1 + rng.Intn(4); n > 0; n-- {
			c, p := rng.Intn(3), rng.Intn(3)
			stages := func(f int) int { return []int{3, 3, 1}[f] }
			edges = append(edges, edge{c, rng.Intn(stages(c)), p, rng.Intn(stages(p)), rng.Intn(2), rng.Intn(4)})
		}
		err := runComputeWithCase(t, level, func(p cwFuncs, y, x halide.VarOrRVar) {
			fs := []*halide.Func{p.f, p.g, p.h}
			for _, e := range edges {
				v := []halide.VarOrRVar{y, x}[e.v]
				fs[e.c].Stage(e.cs).ComputeWith(fs[e.p].Stage(e.ps), v, halide.LoopAlign{Var: v, Strategy: halide.LoopAlignStrategy(e.a)})
			}
		})
		if err != nil {
			var he *halide.Error
			if !errors.As(err, &he) || he.Code != halide.ErrSchedule {
				t.Fatalf("case %d (%s, %v): %v", i, level, edges, err)
			}
			refused[level]++
			continue
		}
		ok[level]++
	}
	t.Logf("ran %v, refused %v", ok, refused)
	for _, level := range []string{"root", "at_y", "gpu", "parallel", "vector"} {
		if ok[level] < 10 {
			t.Errorf("only %d random cases at %s ran", ok[level], level)
		}
	}
}

// cwSeed and cwCases set TestComputeWithRandomStages' draws (a longer run:
// change them here).
var cwSeed, cwCases int64 = 5, 240

// TestComputeWithBoundaryConditions fuses two boundary-condition Funcs,
// which the pipeline renames (they are anonymous until then): the
// directive follows the rename (a fuzzer case found it refused as "not
// computed in this pipeline").
func TestComputeWithBoundaryConditions(t *testing.T) {
	x, y := halide.NewVar("x"), halide.NewVar("y")
	rng := rand.New(rand.NewSource(5))
	const w, h = 9, 6
	in0, in1 := halide.NewImageParam("in0", halide.Int32, 2), halide.NewImageParam("in1", halide.Int32, 2)
	b0, b1 := halide.NewBuffer[int32](w, h), halide.NewBuffer[int32](w, h)
	for j := range h {
		for i := range w {
			b0.Set(int32(rng.Intn(100)), i, j)
			b1.Set(int32(rng.Intn(100)), i, j)
		}
	}
	in0.Set(b0)
	in1.Set(b1)
	e0 := halide.RepeatEdge(in0)
	e1 := halide.ConstantExterior(in1, int32(-7))
	e0.ComputeRoot()
	e1.ComputeRoot()
	e0.ComputeWith(e1, y, halide.LoopAlign{Var: y, Strategy: halide.AlignStart})
	out := halide.NewFunc("out")
	out.Define(x, y).Is(e0.At(x.Sub(1), y).Add(e1.At(x.Add(1), y.Sub(1)).Mul(3)))
	got := halide.NewBuffer[int32](w, h)
	if err := halide.NewPipeline(out).Realize(got); err != nil {
		t.Fatal(err)
	}
	clampI := func(v, hi int) int { return min(max(v, 0), hi-1) }
	for j := range h {
		for i := range w {
			a := b0.Get(clampI(i-1, w), j)
			c := int32(-7)
			if i+1 < w && j-1 >= 0 {
				c = b1.Get(i+1, j-1)
			}
			if want := a + 3*c; got.Get(i, j) != want {
				t.Fatalf("out(%d, %d) = %d, want %d", i, j, got.Get(i, j), want)
			}
		}
	}
}

// TestComputeWithFuncBetween fuses f and g with h realized between them in
// the order of productions (out reads f, h, g in that order): h moves out
// of the way (it reads neither), and the result is exact.
func TestComputeWithFuncBetween(t *testing.T) {
	x, y := halide.NewVar("x"), halide.NewVar("y")
	rng := rand.New(rand.NewSource(9))
	const w, hgt = 11, 7
	in := halide.NewImageParam("in", halide.Int32, 2)
	ib := halide.NewBuffer[int32](w, hgt)
	for j := range hgt {
		for i := range w {
			ib.Set(int32(rng.Intn(200)-100), i, j)
		}
	}
	in.Set(ib)
	f, g, h := halide.NewFunc("f"), halide.NewFunc("g"), halide.NewFunc("h")
	f.Define(x, y).Is(in.At(x, y).Mul(2))
	h.Define(x, y).Is(in.At(x, y).Sub(1))
	g.Define(x, y).Is(in.At(x, y).Add(1))
	out := halide.NewFunc("out")
	out.Define(x, y).Is(f.At(x, y).Add(h.At(x, y)).Add(g.At(x, y).Mul(3)))
	f.ComputeRoot()
	h.ComputeRoot()
	g.ComputeRoot().ComputeWith(f, y)
	got := halide.NewBuffer[int32](w, hgt)
	if err := halide.NewPipeline(out).Realize(got); err != nil {
		t.Fatal(err)
	}
	for j := range hgt {
		for i := range w {
			v := ib.Get(i, j)
			if want := 2*v + (v - 1) + 3*(v+1); got.Get(i, j) != want {
				t.Fatalf("out(%d, %d) = %d, want %d", i, j, got.Get(i, j), want)
			}
		}
	}
}

// TestComputeWithProducerAtFusedLoop: a, b and c each read src at their
// own offsets; random compute_with directives join them down to y or x (with random alignments), and src is computed at a random
// loop of one of them, which compute_with_levels moves to the innermost
// fused loop, giving the other fused readers copies. Every case runs exact
// or is refused with a typed error (src at x where a fusion stops at y);
// most run.
func TestComputeWithProducerAtFusedLoop(t *testing.T) {
	rng := rand.New(rand.NewSource(cwSeed + 1))
	ok, refused := map[string]int{}, 0
	for i := 0; i < int(cwCases); i++ {
		level := []string{"root", "parallel", "vector"}[i%3]
		x, y := halide.NewVar("x"), halide.NewVar("y")
		xo, xi := halide.NewVar("xo"), halide.NewVar("xi")
		in := halide.NewImageParam("in", halide.Int32, 2)
		src := halide.NewFunc("src")
		src.Define(x, y).Is(in.At(x, y).Mul(5).Add(1))
		var fs []*halide.Func
		offs := [3][2]int{}
		for k, name := range []string{"a", "b", "c"} {
			dx, dy := rng.Intn(3)-1, rng.Intn(3)-1
			offs[k] = [2]int{dx, dy}
			f := halide.NewFunc(name)
			f.Define(x, y).Is(src.At(x.Add(dx), y.Add(dy)).Mul(int32(k + 2)).Add(src.At(x, y)))
			f.ComputeRoot()
			switch level {
			case "parallel":
				f.Parallel(y)
			case "vector":
				f.Split(x, xo, xi, 4, halide.GuardWithIf).Vectorize(xi)
			}
			fs = append(fs, f)
		}
		fy, fx := halide.VarOrRVar(y), halide.VarOrRVar(x)
		if level == "vector" {
			fx = xo
		}
		loops := []halide.VarOrRVar{fy, fx}
		// A chain or a star over a, b and c (a reader of src left out of
		// the fusion would not be inside src's loop).
		perm := rng.Perm(3)
		n := 3
		for k := 1; k < n; k++ {
			parent := perm[0]
			if rng.Intn(2) == 0 {
				parent = perm[k-1]
			}
			v := loops[rng.Intn(2)]
			fs[perm[k]].ComputeWith(fs[parent], v, halide.LoopAlign{Var: v, Strategy: halide.LoopAlignStrategy(rng.Intn(4))})
		}
		src.ComputeAt(fs[perm[rng.Intn(n)]], loops[rng.Intn(2)])
		out := halide.NewFunc("out")
		out.Define(x, y).Is(fs[0].At(x, y).Add(fs[1].At(x.Add(1), y)).Add(fs[2].At(x, y.Add(1))))
		const w, ht = 19, 9
		buf := halide.NewBuffer[int32](w+6, ht+6).SetMin(-3, -3)
		buf.Fill(func([]int) int32 { return int32(rng.Intn(2000) - 1000) })
		in.Set(buf)
		res := halide.NewBuffer[int32](w, ht)
		if err := halide.NewPipeline(out).WithOptions(halide.Options{Verify: true}).Realize(res); err != nil {
			var he *halide.Error
			if !errors.As(err, &he) || he.Code != halide.ErrSchedule && he.Code != halide.ErrComputeAt && he.Code != halide.ErrOutOfBounds {
				t.Fatalf("case %d (%s): %v", i, level, err)
			}
			refused++
			continue
		}
		sv := func(x, y int) int32 { return buf.Get(x, y)*5 + 1 }
		fv := func(k, x, y int) int32 { return sv(x+offs[k][0], y+offs[k][1])*int32(k+2) + sv(x, y) }
		for yy := 0; yy < ht; yy++ {
			for xx := 0; xx < w; xx++ {
				want := fv(0, xx, yy) + fv(1, xx+1, yy) + fv(2, xx, yy+1)
				if got := res.Get(xx, yy); got != want {
					t.Fatalf("case %d (%s): out(%d, %d) = %d, want %d", i, level, xx, yy, got, want)
				}
			}
		}
		ok[level]++
	}
	t.Logf("ran %v, refused %d", ok, refused)
	for _, level := range []string{"root", "parallel", "vector"} {
		if ok[level] < 10 {
			t.Errorf("only %d cases ran at %s", ok[level], level)
		}
	}
}
