//go:build cuda

package appkit

import (
	"github.com/gohalide/gohalide/gpu/cuda"
	"github.com/gohalide/gohalide/halide"
)

// cudaReady reports whether -target=cuda can run: a GPU and its driver.
func cudaReady() error {
	_, err := cuda.Default()
	return err
}

// deviceRegisters returns the registers per thread of each kernel as the
// driver reports them for the compiled kernel.
func deviceRegisters(p *halide.Pipeline) (map[string]int, string) {
	d, err := cuda.Default()
	if err != nil {
		return nil, ""
	}
	l, err := p.Lower()
	if err != nil {
		return nil, ""
	}
	out := map[string]int{}
	for _, k := range l.Kernels() {
		if n, err := d.Registers(k); err == nil {
			out[k.Name] = n
		}
	}
	return out, "driver"
}
