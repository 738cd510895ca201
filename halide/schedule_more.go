package halide

import "github.com/gohalide/gohalide/ir"

// GPUSingleThread runs the stage as a GPU kernel of one block of one
// thread (Halide's gpu_single_thread): its loops stay serial, inside a
// block loop and a thread loop of extent 1 added outermost. It is for a
// small stage (a color matrix, a scalar) that the GPU stages read, so that
// it is computed on the device rather than on the host. The stage must
// have no GPU loops of its own, and its Func must be computed outside
// other kernels (compute_root, or at a serial loop outside any block
// loop); Lower refuses it inside another Func's GPU loops.
func (s *Stage) GPUSingleThread() *Stage {
	const directive = "gpu_single_thread"
	if !s.begin(directive) {
		return s
	}
	d := s.def(directive)
	if d == nil || s.f.err != nil {
		return s
	}
	for _, dim := range d.Schedule.Dims {
		if ir.IsSingleThreadDim(dim.Name) {
			return s // already a single thread
		}
		if dim.Kind == ir.GPUBlock || dim.Kind == ir.GPUThread {
			what := "thread"
			if dim.Kind == ir.GPUBlock {
				what = "block"
			}
			s.f.fail(ir.Errorf(ir.ErrSchedule, s.f.fn.Name, directive, "in %s, gpu_single_thread on a stage that already has the GPU %s loop %s", s.name(), what, dim.Name).
				WithLegal("either GPU loops (gpu_blocks, gpu_threads, gpu_tile) or gpu_single_thread, not both; the stage's loops, outermost first: %s", dimNames(d)))
			return s
		}
	}
	// Dims are innermost first: the thread loop, then the block loop.
	d.Schedule.Dims = append(d.Schedule.Dims,
		ir.Dim{Name: ir.SingleThreadDim, Kind: ir.GPUThread},
		ir.Dim{Name: ir.SingleBlockDim, Kind: ir.GPUBlock})
	return s
}

// GPUSingleThread runs f's pure definition as a GPU kernel of one thread
// (see Stage.GPUSingleThread).
func (f *Func) GPUSingleThread() *Func { return f.stage0("gpu_single_thread").GPUSingleThread().f }
