package appkit

import (
	"runtime"
	"sync"

	"github.com/gohalide/gohalide/halide"
)

// countRegisters fills the registers, stack frames and spills of each
// result from ptxas, run on the pipeline that ran its check (nil:
// skipped), several nvcc at a time (each takes about a second, most of it
// nvcc's start-up). It is for the targets off the GPU; on the GPU the
// driver measures the compiled kernels (compiledRegisters).
func countRegisters(rs []Result, ps []*halide.Pipeline) {
	if _, ok := halide.NVCCPath(); !ok {
		return
	}
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for i, p := range ps {
		if p == nil {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			if info := ptxasInfo(p); info != nil {
				rs[i].Ptxas = info
				rs[i].Registers, rs[i].RegistersFrom = map[string]int{}, "ptxas"
				for k, pi := range info {
					rs[i].Registers[k] = pi.Registers
				}
			}
		}()
	}
	wg.Wait()
}

// compiledRegisters returns the registers per thread of each kernel that
// the report measured on the GPU (KernelReport.Compiled, from the driver),
// by kernel name, and "driver"; nil and "" when none was measured.
func compiledRegisters(ks []halide.KernelReport) (map[string]int, string) {
	var out map[string]int
	for _, k := range ks {
		if k.Compiled == nil {
			continue
		}
		if out == nil {
			out = map[string]int{}
		}
		out[k.Name] = k.Compiled.Registers
	}
	if out == nil {
		return nil, ""
	}
	return out, "driver"
}

// ptxasInfo returns what ptxas reports for each kernel (registers, stack
// frame, spills), by kernel name, when nvcc is installed (nil otherwise).
// It runs nvcc once, on the source the CUDA target compiles (with FMA
// contraction: ptxas allocates registers differently without it).
func ptxasInfo(p *halide.Pipeline) map[string]halide.PtxasInfo {
	if _, ok := halide.NVCCPath(); !ok {
		return nil
	}
	l, err := p.Lower()
	if err != nil || len(l.Kernels()) == 0 {
		return nil
	}
	info, err := l.CheckWithNVCC()
	if err != nil {
		return nil
	}
	return info
}
