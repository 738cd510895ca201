//go:build cuda

package gpu_test

import (
	// The CUDA target's runtime: registers GPU 0 with halide.
	_ "github.com/gohalide/gohalide/cudart"
	"github.com/gohalide/gohalide/halide"
)

// testTarget: with -tags cuda, the ported Halide tests and the issue 9
// tests run on the GPU (scripts/gpu-check.sh runs them, also under
// compute-sanitizer).
const testTarget = halide.CUDA
