//go:build !cuda

package appkit

import "errors"

// errNoCUDA is the one error of -target=cuda in a build without -tags cuda.
var errNoCUDA = errors.New("this program was built without CUDA support; build it with -tags cuda against a CUDA toolkit (go build -tags cuda ./apps/...; see docs/gpu.md), or use -target=emulator")

// cudaReady reports that -target=cuda cannot run: no CUDA in this build.
func cudaReady() error { return errNoCUDA }
