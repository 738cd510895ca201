//go:build cuda

package cuda_test

import (
	"math"
	"strings"
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// TestDivConstCUDA divides every value of a narrow integer type, converted
// to float32, by constants that image pipelines use and by awkward ones
// (a pixel / 65535.0f): the CUDA code computes these with gh_divc_f32, a
// multiply by the reciprocal and one FMA correction, instead of a
// division, where the compiler has proven it exact for every value the
// integer can take. The GPU's bits must equal the CPU's and the correctly
// rounded float32 quotient (float64 division rounded, exact for float32
// operands), for every input.
func TestDivConstCUDA(t *testing.T) {
	types := []struct {
		t      halide.Type
		lo, hi int64
	}{{halide.UInt8, 0, 255}, {halide.UInt16, 0, 65535}, {halide.Int16, -32768, 32767}, {halide.Int8, -128, 127}}
	consts := []float32{65535, 255, 1023, 3, 7, 0.1, -12.5e-3, 1e30}
	for _, ty := range types {
		vs := make([]int64, 0, ty.hi-ty.lo+1)
		for v := ty.lo; v <= ty.hi; v++ {
			vs = append(vs, v)
		}
		in := halide.NewImageParam("in", ty.t, 1)
		in.Set(intBuf(ty.t, vs))
		for _, c := range consts {
			x := halide.NewVar("x")
			f := halide.NewFunc("q")
			f.Define(x).Is(halide.Cast(halide.Float32, in.At(x)).Div(c))
			var got [2][]float32
			for i, gpu := range []bool{false, true} {
				p := halide.NewPipeline(f)
				if gpu {
					f.GPUTile1D(x, halide.NewVar("bx"), halide.NewVar("tx"), 128, halide.GuardWithIf)
					p = p.WithTarget(halide.CUDA)
					l, err := p.Lower()
					if err != nil {
						t.Fatal(err)
					}
					if src, err := l.CUDA(); err != nil || !strings.Contains(src, "gh_divc_f32(") {
						t.Fatalf("%v / %v: the CUDA source does not divide with gh_divc_f32 (%v):\n%s", ty.t, c, err, src)
					}
				}
				out := halide.NewBuffer[float32](len(vs))
				if err := p.Realize(out); err != nil {
					t.Fatalf("%v / %v (gpu %v): %v", ty.t, c, gpu, err)
				}
				got[i] = out.Data()
			}
			for i, v := range vs {
				want := float32(float64(float32(v)) / float64(c))
				if math.Float32bits(got[0][i]) != math.Float32bits(want) || math.Float32bits(got[1][i]) != math.Float32bits(want) {
					t.Fatalf("%v(%d) / %v: CPU %v, GPU %v, want %v", ty.t, v, c, got[0][i], got[1][i], want)
				}
			}
		}
	}
}
