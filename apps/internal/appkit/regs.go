package appkit

import (
	"runtime"
	"sync"

	"github.com/gohalide/gohalide/gpu"
	"github.com/gohalide/gohalide/halide"
)

// countRegisters fills the registers of each result from ptxas, run on the
// pipeline that ran its check (nil: skipped), several nvcc at a time (each
// takes about a second, most of it nvcc's start-up).
func countRegisters(rs []Result, ps []*halide.Pipeline) {
	if _, ok := gpu.NVCCPath(); !ok {
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
			if regs := ptxasRegisters(p); regs != nil {
				rs[i].Registers, rs[i].RegistersFrom = regs, "ptxas"
			}
		}()
	}
	wg.Wait()
}

// ptxasRegisters returns the registers per thread of each kernel as ptxas
// reports them, when nvcc is installed (nil otherwise). It runs nvcc once.
func ptxasRegisters(p *halide.Pipeline) map[string]int {
	if _, ok := gpu.NVCCPath(); !ok {
		return nil
	}
	l, err := p.Lower()
	if err != nil || len(l.Kernels()) == 0 {
		return nil
	}
	src, err := l.CUDA()
	if err != nil {
		return nil
	}
	info, err := gpu.CheckWithNVCC(src)
	if err != nil {
		return nil
	}
	out := map[string]int{}
	for _, k := range l.Kernels() {
		ci, err := gpu.CUDAInfo(k)
		if err != nil {
			continue
		}
		if pi, ok := info[ci.Name]; ok {
			out[k.Name] = pi.Registers
		}
	}
	return out
}
