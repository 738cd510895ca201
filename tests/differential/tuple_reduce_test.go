package differential_test

import (
	"math"
	"math/rand"
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// TestTupleReductions reduces each row of a random matrix to a Tuple of
// four values with different operators and types — the sum (float32),
// the maximum, the product of signs (int32) and a count of positives
// (int32) — written as one Is, and the sum and the count again as PlusEq
// of a Tuple,
// under serial, rfactor-parallel and rfactor-GPU schedules (the emulator),
// against plain Go: the sum within 1e-4 relative (rfactor reassociates
// it), the rest exactly.
func TestTupleReductions(t *testing.T) {
	const w, h = 103, 7
	y := halide.NewVar("y")
	ro, ri, u := halide.NewRVar("ro"), halide.NewRVar("ri"), halide.NewVar("u")
	ub, ut := halide.NewVar("ub"), halide.NewVar("ut")
	cases := []struct {
		name     string
		schedule func(f *halide.Func, r *halide.RDom)
	}{
		{"serial", func(f *halide.Func, r *halide.RDom) {}},
		{"rfactor, chunks in parallel", func(f *halide.Func, r *halide.RDom) {
			intm := f.Update(0).Split(r, ro, ri, 16).RFactor(halide.RFactorPair{R: ro, V: u})
			intm.ComputeRoot().Update(0).Parallel(u)
		}},
		{"rfactor, rows reduced by GPU threads", func(f *halide.Func, r *halide.RDom) {
			intm := f.Update(0).Split(r, ro, ri, 8, halide.GuardWithIf).RFactor(halide.RFactorPair{R: ro, V: u})
			intm.ComputeRoot().GPUTile1D(u, ub, ut, 4)
			intm.Update(0).GPUTile1D(u, ub, ut, 4, halide.GuardWithIf)
		}},
		{"rfactor, partials in shared memory per row", func(f *halide.Func, r *halide.RDom) {
			intm := f.Update(0).Split(r, ro, ri, 16, halide.GuardWithIf).RFactor(halide.RFactorPair{R: ro, V: u})
			f.GPUBlocks(y)
			f.Update(0).GPUBlocks(y)
			intm.ComputeAt(f, y).StoreIn(halide.GPUShared).GPUThreads(u)
			intm.Update(0).GPUThreads(u)
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := halide.NewImageParam("in", halide.Float32, 2)
			r := halide.NewRDom("r", halide.Range(0, w))
			// mixed: four values, four operators, one Is.
			f := halide.NewFunc("f")
			f.Define(y).Is(halide.NewTuple(float32(0), float32(math.Inf(-1)), int32(1), int32(0)))
			v := in.At(r, y)
			sign := halide.Select(v.Lt(float32(0)), halide.E(int32(-1)), halide.E(int32(1)))
			pos := halide.Select(v.Gt(float32(0)), halide.E(int32(1)), halide.E(int32(0)))
			old := f.AtTuple(y)
			f.Define(y).Is(halide.NewTuple(old.Elem(0).Add(v), halide.Max(old.Elem(1), v), old.Elem(2).Mul(sign), old.Elem(3).Add(pos)))
			// sums: the sum and the count of positives again, by PlusEq of
			// a Tuple, scheduled alike (a second output: its own pipeline).
			sums := halide.NewFunc("sums")
			sums.Define(y).Is(halide.NewTuple(float32(0), int32(0)))
			sums.Define(y).PlusEq(halide.NewTuple(v, pos))
			c.schedule(sums, r)
			c.schedule(f, r)
			rng := rand.New(rand.NewSource(11))
			b := halide.NewBuffer[float32](w, h)
			b.Fill(func([]int) float32 { return rng.Float32()*2 - 1 })
			in.Set(b)
			outs := []halide.BufferRef{halide.NewBuffer[float32](h), halide.NewBuffer[float32](h), halide.NewBuffer[int32](h), halide.NewBuffer[int32](h)}
			if err := halide.NewPipeline(f).WithOptions(halide.Options{Verify: true}).RealizeTuple(outs...); err != nil {
				t.Fatal(err)
			}
			sumsOut := []halide.BufferRef{halide.NewBuffer[float32](h), halide.NewBuffer[int32](h)}
			if err := halide.NewPipeline(sums).WithOptions(halide.Options{Verify: true}).RealizeTuple(sumsOut...); err != nil {
				t.Fatal(err)
			}
			for j := 0; j < h; j++ {
				sum, mx, sgn, npos := 0.0, float32(math.Inf(-1)), int32(1), int32(0)
				for i := 0; i < w; i++ {
					x := b.Get(i, j)
					sum += float64(x)
					mx = max(mx, x)
					if x < 0 {
						sgn = -sgn
					}
					if x > 0 {
						npos++
					}
				}
				gs := outs[0].(*halide.Buffer[float32]).Get(j)
				if math.Abs(float64(gs)-sum) > 1e-4*math.Max(1, math.Abs(sum)) {
					t.Errorf("row %d: sum %g, want %g", j, gs, sum)
				}
				if g := outs[1].(*halide.Buffer[float32]).Get(j); g != mx {
					t.Errorf("row %d: max %g, want %g", j, g, mx)
				}
				if g := outs[2].(*halide.Buffer[int32]).Get(j); g != sgn {
					t.Errorf("row %d: sign %d, want %d", j, g, sgn)
				}
				if g := outs[3].(*halide.Buffer[int32]).Get(j); g != npos {
					t.Errorf("row %d: positives %d, want %d", j, g, npos)
				}
				if g := sumsOut[0].(*halide.Buffer[float32]).Get(j); math.Abs(float64(g)-sum) > 1e-4*math.Max(1, math.Abs(sum)) {
					t.Errorf("row %d: sums.0 %g, want %g", j, g, sum)
				}
				if g := sumsOut[1].(*halide.Buffer[int32]).Get(j); g != npos {
					t.Errorf("row %d: sums.1 %d, want %d", j, g, npos)
				}
			}
		})
	}
}
