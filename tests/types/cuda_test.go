//go:build cuda

package types_test

// With -tags cuda every test of this package runs its GPU schedules on the
// GPU too (the CUDA runtime registers itself), and the 16-bit float results
// must match the CPU's bit for bit:
//
//	go test -tags cuda ./tests/types/

import (
	_ "github.com/gohalide/gohalide/cudart"
	"github.com/gohalide/gohalide/halide"
)

func init() { gpuTargets = append(gpuTargets, halide.CUDA) }
