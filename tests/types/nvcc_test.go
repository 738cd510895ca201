package types_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gohalide/gohalide/cfamily"
	"github.com/gohalide/gohalide/halide"
)

// TestKernelsCompileWithNVCC compiles, with nvcc -arch=sm_90 (no warnings
// allowed), a kernel per type that reads inputs and a Param of the type,
// computes a producer of the type in shared memory and one in registers,
// and uses every operator on the type and a conversion to every type:
// the CUDA the emitter writes for each type is valid CUDA C++. Skipped
// without nvcc; tests/cuda runs the same operations on a GPU.
func TestKernelsCompileWithNVCC(t *testing.T) {
	if _, ok := cfamily.NVCCPath(); !ok {
		t.Skip("nvcc not found: install the CUDA 11.8 toolkit with scripts/install-cuda-toolkit.sh to run this check")
	}
	for _, ty := range allTypes {
		t.Run(ty.String(), func(t *testing.T) {
			x := halide.NewVar("x")
			bx, tx := halide.NewVar("bx"), halide.NewVar("tx")
			a, b := halide.NewImageParam("a", ty, 1), halide.NewImageParam("b", ty, 1)
			p := setParam(ty, samples(ty)[1])
			A, B := a.At(x), b.At(x)
			g := halide.NewFunc("g") // in shared memory
			h := halide.NewFunc("h") // in registers
			var e halide.Expr
			if ty == halide.Bool {
				g.Define(x).Is(A.And(B).Or(p))
				h.Define(x).Is(halide.Select(A, B.Ne(p), halide.Not(B)))
				e = halide.Cast(halide.Float64, g.At(x).Eq(h.At(x)))
			} else {
				g.Define(x).Is(A.Add(B).Mul(p).Sub(A.Div(B)).Add(A.Mod(B)))
				h.Define(x).Is(halide.Select(A.Lt(B).Or(A.Ge(p)), halide.Min(A, p), halide.Max(B, A.Div(3).Mod(7))))
				e = halide.Cast(halide.Float64, g.At(x).Add(h.At(x)))
				for _, op := range ops {
					e = e.Add(halide.Cast(halide.Float64, op.fn(g.At(x), h.At(x))))
				}
				if ty.IsFloat() {
					e = e.Add(halide.Cast(halide.Float64, halide.Sqrt(g.At(x)).Add(halide.Floor(A)).Add(halide.Exp(B)).Add(halide.Abs(A))))
				}
			}
			for _, to := range allTypes {
				e = e.Add(halide.Cast(halide.Float64, halide.Cast(to, g.At(x))))
			}
			f := halide.NewFunc("f")
			f.Define(x).Is(e)
			f.GPUTile1D(x, bx, tx, 32, halide.GuardWithIf)
			g.ComputeAt(f, bx).StoreIn(halide.GPUShared).GPUThreads(x)
			h.ComputeAt(f, tx)
			l, err := halide.NewPipeline(f).Lower()
			if err != nil {
				t.Fatal(err)
			}
			src, err := l.CUDA()
			if err != nil {
				t.Fatal(err)
			}
			if _, err := cfamily.CheckWithNVCC(src); err != nil {
				t.Fatalf("%v\n%s", err, src)
			}
			if dir := os.Getenv("GOHALIDE_CUDA_SOURCES"); dir != "" {
				// CI compiles these again with NVRTC (cudart/nvrtc).
				if err := os.WriteFile(filepath.Join(dir, "types_"+ty.String()+".cu"), []byte(src), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}
