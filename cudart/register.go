//go:build cuda

package cudart

import "github.com/gohalide/gohalide/halide"

// init makes GPU 0 the device of halide's CUDA target: a program that
// imports this package (built with -tags cuda) can realize pipelines with
// halide.CUDA.
func init() {
	halide.RegisterCUDA(func() (halide.CUDADevice, error) {
		d, err := Default()
		if err != nil {
			return nil, err
		}
		return d, nil
	})
}
