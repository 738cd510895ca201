//go:build cuda

package halide_test

import (
	_ "github.com/gohalide/gohalide/cudart" // the CUDA runtime: registers GPU 0

	"github.com/gohalide/gohalide/halide"
)

// With -tags cuda, the compositing port's GPU variant and the
// FastIntegerDivide tests run on the GPU as well as on the emulator.
func init() {
	a6GPUTargets = append(a6GPUTargets, halide.CUDA)
	fdGPUTargets = append(fdGPUTargets, halide.CUDA)
}
