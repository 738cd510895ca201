//go:build cuda

package nvrtc_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gohalide/gohalide/cudart/nvrtc"
)

func TestCompile(t *testing.T) {
	src := `extern "C" __global__ void scale(float *__restrict__ out, const float *__restrict__ in, const int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = in[i] * 2.0f;
    }
}
`
	ptx, err := nvrtc.Compile(src, "scale.cu", "compute_90")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(ptx, ".entry scale") {
		t.Errorf("the PTX has no entry scale:\n%s", ptx)
	}
	_, err = nvrtc.Compile("this is not C", "bad.cu", "compute_90")
	if err == nil || !strings.Contains(err.Error(), "bad.cu") && !strings.Contains(err.Error(), "error") {
		t.Errorf("a bad source should fail with NVRTC's log, got %v", err)
	}
}

// TestSources compiles every .cu file in $GOHALIDE_CUDA_SOURCES with NVRTC
// for sm_90: CI writes there the kernels of every app schedule
// (tests/gpu TestKernelsCompileWithNVCC), to check that NVRTC — what the
// CUDA target compiles with at run time — accepts them, on a machine
// without a GPU.
func TestSources(t *testing.T) {
	dir := os.Getenv("GOHALIDE_CUDA_SOURCES")
	if dir == "" {
		t.Skip("set GOHALIDE_CUDA_SOURCES to a folder of .cu files to compile them")
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.cu"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no .cu files in %s", dir)
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		ptx, err := nvrtc.Compile(string(src), filepath.Base(f), "compute_90")
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if !strings.Contains(ptx, ".entry") {
			t.Errorf("%s: no kernel in the PTX", f)
		}
	}
	t.Logf("compiled %d files with NVRTC", len(files))
}
