//go:build cuda

package cudart

// #cgo LDFLAGS: -lcuda
// #include <cuda.h>
import "C"

import (
	"fmt"
	"unsafe"

	"gorgonia.org/cu"
)

// setMaxDynamicShared opts a kernel in to more than 48 KB of dynamic shared
// memory (cuFuncSetAttribute MAX_DYNAMIC_SHARED_SIZE_BYTES), which
// gorgonia.org/cu v0.9.6 does not wrap. cu.Function holds only the
// CUfunction handle, so its address is the handle's.
func setMaxDynamicShared(fn cu.Function, bytes int) error {
	h := *(*C.CUfunction)(unsafe.Pointer(&fn))
	if r := C.cuFuncSetAttribute(h, C.CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, C.int(bytes)); r != C.CUDA_SUCCESS {
		return fmt.Errorf("cuFuncSetAttribute: CUresult %d", int(r))
	}
	return nil
}

// sharedOptin returns the most shared memory a block may use after opting
// in (cuDeviceGetAttribute MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, not wrapped
// by gorgonia.org/cu v0.9.6).
func sharedOptin(dev cu.Device) (int, error) {
	var v C.int
	if r := C.cuDeviceGetAttribute(&v, C.CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, C.CUdevice(dev)); r != C.CUDA_SUCCESS {
		return 0, fmt.Errorf("cuDeviceGetAttribute: CUresult %d", int(r))
	}
	return int(v), nil
}
