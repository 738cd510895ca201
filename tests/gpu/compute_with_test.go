package gpu_test

import (
	"math/rand"
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// compute_with of GPU kernels (Halide's multiple_outputs_on_gpu test, with
// update stages): f and g, each a pure definition and an update, every
// stage a kernel of 16x8 tiles; g's stages fused with f's at every block
// and thread loop (g's pure definition lined up at the start of f's), so
// four kernels become two. Checked against plain Go (on the GPU with
// -tags cuda, on the emulator otherwise) and by the kernel count.
func TestComputeWithGPUKernels(t *testing.T) {
	x, y := halide.NewVar("x"), halide.NewVar("y")
	bx, by, tx, ty := halide.NewVar("bx"), halide.NewVar("by"), halide.NewVar("tx"), halide.NewVar("ty")
	in := halide.NewImageParam("in", halide.Int32, 2)
	f, g, out := halide.NewFunc("f"), halide.NewFunc("g"), halide.NewFunc("out")
	f.Define(x, y).Is(in.At(x, y).Mul(3))
	f.Define(x, y).Is(f.At(x, y).Add(x).Sub(y))
	g.Define(x, y).Is(in.At(x.Add(1), y).Sub(1))
	g.Define(x, y).Is(g.At(x, y).Mul(2))
	out.Define(x, y).Is(f.At(x, y).Add(g.At(x, y.Add(1))))
	for _, fn := range []*halide.Func{f, g} {
		fn.ComputeRoot()
		for _, st := range []*halide.Stage{fn.Stage(0), fn.Update(0)} {
			st.GPUTile(x, y, bx, by, tx, ty, 16, 8, halide.GuardWithIf)
		}
	}
	out.GPUTile(x, y, bx, by, tx, ty, 16, 8, halide.GuardWithIf)
	g.ComputeWith(f, tx, halide.LoopAlign{Var: bx, Strategy: halide.AlignStart})
	g.Update(0).ComputeWith(f.Update(0), bx)

	const w, h = 133, 70
	data := halide.NewBuffer[int32](w+1, h+1)
	rng := rand.New(rand.NewSource(9))
	data.Fill(func([]int) int32 { return int32(rng.Intn(20000) - 10000) })
	in.Set(data)
	p := halide.NewPipeline(out).WithOptions(halide.Options{Verify: true})
	buf := halide.NewBuffer[int32](w, h)
	if err := p.Realize(buf); err != nil {
		t.Fatal(err)
	}
	for yy := 0; yy < h; yy++ {
		for xx := 0; xx < w; xx++ {
			fv := data.Get(xx, yy)*3 + int32(xx) - int32(yy)
			gv := (data.Get(xx+1, yy+1) - 1) * 2
			if got := buf.Get(xx, yy); got != fv+gv {
				t.Fatalf("out(%d, %d) = %d, want %d", xx, yy, got, fv+gv)
			}
		}
	}
	rep, err := p.Report()
	if err != nil {
		t.Fatal(err)
	}
	if len(rep) != 3 {
		t.Fatalf("%d kernels, want 3 (f's and g's pure definitions in one, their updates in one, and out)", len(rep))
	}
}
