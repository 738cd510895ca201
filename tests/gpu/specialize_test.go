package gpu_test

import (
	"math/rand"
	"strings"
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// TestSpecializeEmulator runs specialized GPU schedules on the emulator,
// taking every case, against a plain-Go reference: f(x, y) = (b ? g + 1 :
// g)(x, y) + g(x + 1, y), g = in * 2.
func TestSpecializeEmulator(t *testing.T) {
	type vars struct {
		f, g                 *halide.Func
		b                    *halide.Param[bool]
		w                    *halide.Param[int32]
		x, y, xo, yo, xi, yi halide.Var
	}
	cases := []struct {
		name  string
		sched func(v vars)
		// kernels is the number of kernels; blocks their block sizes.
		kernels int
		blocks  []string
	}{
		{"a kernel per case, each with its block size", func(v vars) {
			v.f.Specialize(v.w.Expr().Eq(8)).GPUTile(v.x, v.y, v.xo, v.yo, v.xi, v.yi, 8, 8)
			v.f.Specialize(v.b).GPUTile(v.x, v.y, v.xo, v.yo, v.xi, v.yi, 4, 2)
			v.f.GPUTile(v.x, v.y, v.xo, v.yo, v.xi, v.yi, 16, 4)
			v.g.ComputeAt(v.f, v.xo).StoreIn(halide.GPUShared).GPUThreads(v.x, v.y)
		}, 3, []string{"9 x 8", "5 x 2", "17 x 4"}},
		{"the GPU in one case, the CPU in the other", func(v vars) {
			v.f.Specialize(v.b).GPUTile(v.x, v.y, v.xo, v.yo, v.xi, v.yi, 8, 8)
			v.f.Parallel(v.y)
			v.g.ComputeRoot()
		}, 1, []string{"8 x 8"}},
		{"a producer's cases inside one kernel", func(v vars) {
			v.f.GPUTile(v.x, v.y, v.xo, v.yo, v.xi, v.yi, 8, 8)
			v.g.ComputeAt(v.f, v.xo).StoreIn(halide.GPUShared)
			v.g.Specialize(v.b).Split(v.x, v.xo, v.xi, 2).GPUThreads(v.xi, v.y)
			v.g.GPUThreads(v.x, v.y)
		}, 1, []string{"9 x 8"}},
		{"a producer's cases computed per block", func(v vars) {
			v.f.GPUTile(v.x, v.y, v.xo, v.yo, v.xi, v.yi, 8, 4)
			v.g.ComputeAt(v.f, v.xo)
			v.g.Specialize(v.w.Expr().Eq(8)).GPUThreads(v.x, v.y)
		}, 1, nil},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			x, y := halide.NewVar("x"), halide.NewVar("y")
			in := halide.NewImageParam("in", halide.Float32, 2)
			v := vars{f: halide.NewFunc("f"), g: halide.NewFunc("g"), b: halide.NewParam[bool]("b"), w: halide.NewParam[int32]("w"),
				x: x, y: y, xo: halide.NewVar("xo"), yo: halide.NewVar("yo"), xi: halide.NewVar("xi"), yi: halide.NewVar("yi")}
			v.g.Define(x, y).Is(in.At(x, y).Mul(2))
			v.f.Define(x, y).Is(halide.Select(v.b, v.g.At(x, y).Add(1), v.g.At(x, y)).Add(v.g.At(x.Add(1), y)))
			c.sched(v)
			p := halide.NewPipeline(v.f).WithOptions(halide.Options{Verify: true})
			l, err := p.Lower()
			if err != nil {
				t.Fatal(err)
			}
			if n := len(l.Kernels()); n != c.kernels {
				t.Fatalf("%d kernels, want %d:\n%s", n, c.kernels, l)
			}
			src, err := l.CUDA()
			if err != nil {
				t.Fatal(err)
			}
			if c.kernels > 1 && !strings.Contains(l.String(), "} else if (b) {") {
				t.Errorf("the lowered statement does not branch on the host between the kernels:\n%s", l)
			}
			if strings.Contains(c.name, "inside one kernel") && !strings.Contains(src, "if (b) {") {
				t.Errorf("the kernel does not show the producer's cases:\n%s", src)
			}
			rng := rand.New(rand.NewSource(int64(7200 + i)))
			for _, w := range []int32{8, 5} {
				for _, b := range []bool{false, true} {
					nx, ny := 16+rng.Intn(20), 8+rng.Intn(9)
					ib := halide.NewBuffer[float32](nx+1, ny)
					ib.Fill(func([]int) float32 { return rng.Float32() })
					in.Set(ib)
					v.w.Set(w)
					v.b.Set(b)
					out := halide.NewBuffer[float32](nx, ny)
					if err := p.Realize(out); err != nil {
						t.Fatalf("w=%d b=%v: %v", w, b, err)
					}
					for yy := 0; yy < ny; yy++ {
						for xx := 0; xx < nx; xx++ {
							want := ib.Get(xx, yy) * 2
							if b {
								want++
							}
							want += ib.Get(xx+1, yy) * 2
							if got := out.Get(xx, yy); got != want {
								t.Fatalf("w=%d b=%v: f(%d, %d) = %v, want %v", w, b, xx, yy, got, want)
							}
						}
					}
				}
			}
			r, err := p.Report()
			if err != nil {
				t.Fatal(err)
			}
			if c.kernels > 1 {
				// Each case's kernel says when it is launched, in the
				// report and in the CUDA source.
				for k, want := range []string{"(w == 8)", "((w != 8) && b)", "((w != 8) && !b)"} {
					if r[k].Case != want {
						t.Errorf("kernel %s: case %q, want %q", r[k].Name, r[k].Case, want)
					}
					if !strings.Contains(src, "// Launched when "+want) {
						t.Errorf("the CUDA source does not say when %s is launched", r[k].Name)
					}
				}
				var tab strings.Builder
				if err := halide.WriteTable(&tab, r); err != nil || !strings.Contains(tab.String(), "kernel_f_s0_2 if ((w != 8) && b)") {
					t.Errorf("the report's table does not show the cases (%v):\n%s", err, tab.String())
				}
			}
			for k, want := range c.blocks {
				if got := r[k].Block[0] + " x " + r[k].Block[1]; got != want {
					t.Errorf("kernel %s: block %s, want %s", r[k].Name, got, want)
				}
			}
		})
	}
}
