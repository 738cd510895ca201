//go:build !cuda

package halide

import "github.com/gohalide/gohalide/ir"

// cudaDevice reports that this build has no CUDA support.
func cudaDevice() (launcher, error) {
	return nil, ir.Errorf(ir.ErrSchedule, "", "target cuda", "this program was built without CUDA support").
		WithLegal("build with -tags cuda against a CUDA toolkit (go build -tags cuda ./...; see docs/gpu.md), or use the emulator target")
}
