package gpu_test

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/gohalide/gohalide/apps/algo"
	"github.com/gohalide/gohalide/cfamily"
	"github.com/gohalide/gohalide/halide"
	"github.com/gohalide/gohalide/ir"
	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden CUDA files")

// pipelines are the GPU pipelines of the tests and apps, by name.
func pipelines() map[string]*halide.Func {
	out := map[string]*halide.Func{}
	for _, c := range algo.GPUCases() {
		out[c.Name] = c.New().Out()
	}
	for _, level := range []string{"block", "thread"} {
		f, _, _ := stencil(level)
		out["stencil_"+level] = f
	}
	for _, memory := range []string{"shared", "registers"} {
		out["tuple_argmax_"+memory] = tupleArgmax(memory)
	}
	for _, level := range []string{"block", "thread"} {
		out["align_bounds_"+level] = alignedStencil(level, false, halide.NewImageParam("in", halide.Int32, 2))
		out["align_extent_"+level] = alignedStencil(level, true, halide.NewImageParam("in", halide.Int32, 2))
	}
	out["tuple_elem_updates"] = tupleElemUpdates(halide.NewImageParam("in", halide.Int32, 2))
	return out
}

// TestKernelsCompileWithNVCC compiles every kernel of every GPU pipeline of
// the tests and apps with nvcc -arch=sm_90 and checks that the static
// shared memory ptxas reports is the size the compiler inferred, and that
// no kernel has a stack frame or spills (a register array with a stack
// frame is in local memory; issue 10: no app kernel with a stack frame).
func TestKernelsCompileWithNVCC(t *testing.T) {
	if _, ok := cfamily.NVCCPath(); !ok {
		t.Skip("nvcc not found: install the CUDA 11.8 toolkit with scripts/install-cuda-toolkit.sh to run this check")
	}
	for name, f := range pipelines() {
		t.Run(name, func(t *testing.T) {
			l, err := halide.NewPipeline(f).Lower()
			if err != nil {
				t.Fatal(err)
			}
			ks := l.Kernels()
			if len(ks) == 0 {
				t.Fatal("no kernels")
			}
			src := checkKernelsNVCC(t, ks)
			if dir := os.Getenv("GOHALIDE_CUDA_SOURCES"); dir != "" {
				// CI compiles these again with NVRTC (cudart/nvrtc).
				if err := os.WriteFile(filepath.Join(dir, name+".cu"), []byte(src), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

// checkKernelsNVCC compiles ks with nvcc -arch=sm_90 in the form the CUDA
// target compiles (FMA contraction on: ptxas allocates registers
// differently without it) and checks what ptxas reports for each: the
// static shared memory is the pool the compiler inferred, and there is no
// stack frame and no spill (a register array with a stack frame is in
// local memory; issue 10: no app kernel with a stack frame). It returns
// the source.
func checkKernelsNVCC(t *testing.T, ks []*ir.Kernel) string {
	t.Helper()
	return checkKernelsNVCCStack(t, ks, 0)
}

// checkKernelsNVCCStack is checkKernelsNVCC allowing a stack frame of up to
// stack bytes (CUDA's double-precision sin, cos and tan reduce a large
// argument in a local array) but still no spills.
func checkKernelsNVCCStack(t *testing.T, ks []*ir.Kernel, stack int) string {
	t.Helper()
	src, err := cfamily.CUDATargetSource(ks...)
	if err != nil {
		t.Fatal(err)
	}
	info, err := cfamily.CheckWithNVCC(src)
	if err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	for _, k := range ks {
		ci, err := cfamily.CUDAInfo(k)
		if err != nil {
			t.Fatal(err)
		}
		p, ok := info[ci.Name]
		if !ok {
			t.Fatalf("ptxas reported no function %s (got %v)", ci.Name, info)
		}
		if p.SharedBytes != k.SharedBytes {
			t.Errorf("%s: ptxas reports %d bytes of shared memory, the compiler inferred %d", ci.Name, p.SharedBytes, k.SharedBytes)
		}
		if p.StackFrame > int64(stack) || p.SpillStores+p.SpillLoads != 0 {
			t.Errorf("%s: ptxas reports a %d-byte stack frame, %d bytes of spill stores and %d of spill loads", ci.Name, p.StackFrame, p.SpillStores, p.SpillLoads)
		}
		t.Logf("%s: %d threads, %d registers, %d bytes shared, %d bytes stack", ci.Name, ci.Threads, p.Registers, p.SharedBytes, p.StackFrame)
	}
	return src
}

// TestGoldenCUDA compares the CUDA of a few small pipelines with the files
// in testdata (go test -update rewrites them).
func TestGoldenCUDA(t *testing.T) {
	all := pipelines()
	for _, name := range []string{"tensorproduct_A", "stencil_block", "gemm_tiled_shared", "tuple_argmax_shared"} {
		t.Run(name, func(t *testing.T) {
			l, err := halide.NewPipeline(all[name]).Lower()
			if err != nil {
				t.Fatal(err)
			}
			src, err := cfamily.CUDASource(l.Kernels()...)
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", name+".cu")
			if *update {
				if err := os.MkdirAll("testdata", 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if diff := cmp.Diff(string(want), src); diff != "" {
				t.Errorf("CUDA of %s differs from %s (-want +got):\n%s", name, path, diff)
			}
		})
	}
}
