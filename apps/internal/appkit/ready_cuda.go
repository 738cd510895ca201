//go:build cuda

package appkit

import "github.com/gohalide/gohalide/cudart"

// cudaReady reports whether -target=cuda can run: a GPU and its driver.
// Importing cudart also registers GPU 0 as halide's CUDA device.
func cudaReady() error {
	_, err := cudart.Default()
	return err
}
