//go:build !cuda

package appkit

import "github.com/gohalide/gohalide/halide"

// deviceRegisters needs the CUDA build; without it, ptxas's count is used.
func deviceRegisters(p *halide.Pipeline) map[string]int { return ptxasRegisters(p) }
