//go:build cuda

package differential_test

import (
	_ "github.com/gohalide/gohalide/cudart" // the CUDA runtime: registers GPU 0

	"github.com/gohalide/gohalide/halide"
)

// With -tags cuda, the GPU schedules of the boundary-condition tests run
// on the GPU as well as on the emulator.
func init() { gpuTargets = append(gpuTargets, halide.CUDA) }
