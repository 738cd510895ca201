//go:build !cuda

package gpu_test

import "github.com/gohalide/gohalide/halide"

// testTarget runs the ported Halide tests and the issue 9 tests on the GPU
// emulator; a build with -tags cuda runs them on the GPU
// (target_cuda_test.go).
const testTarget = halide.Emulator
