//go:build cuda

package halide

import "github.com/gohalide/gohalide/cudart"

// cudaDevice returns GPU 0 (built with -tags cuda).
func cudaDevice() (launcher, error) {
	d, err := cudart.Default()
	if err != nil {
		return nil, err
	}
	return d, nil
}
