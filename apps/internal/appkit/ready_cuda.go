//go:build cuda

package appkit

import "github.com/gohalide/gohalide/gpu/cuda"

// cudaReady reports whether -target=cuda can run: a GPU and its driver.
func cudaReady() error {
	_, err := cuda.Default()
	return err
}
