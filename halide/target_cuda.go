//go:build cuda

package halide

import "github.com/gohalide/gohalide/gpu/cuda"

// cudaDevice returns GPU 0 (built with -tags cuda).
func cudaDevice() (launcher, error) {
	d, err := cuda.Default()
	if err != nil {
		return nil, err
	}
	return d, nil
}
