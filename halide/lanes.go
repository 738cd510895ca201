package halide

import "github.com/gohalide/gohalide/ir"

// GPULanes makes loop v the lanes of one warp (Halide's gpu_lanes): a GPU
// thread loop in thread dimension x whose extent is at most 32 (the warp
// size), in a block at most 32 threads wide in x. Its iterations are
// threads of the block (they count in the block size); what sets it apart
// from GPUThreads is the promise that they are the lanes of one warp, so a
// reduction over it is done with warp shuffles alone, without shared
// memory or barriers.
//
// An associative update (see RFactor) that reduces over an RVar whose loop
// is a lanes loop or a thread loop, into a point that does not depend on
// that RVar (sum(y) += intm(rxi, y) with rxi on lanes or threads), is
// lowered to an all-reduce across the threads: each thread combines its
// own values, the lanes of a warp combine theirs with shuffles, the warps
// of a block through shared memory, and one thread stores the result.
//
// The lanes loop must be the stage's innermost GPU thread loop, and its
// extent a constant of at most 32 once the loop nest is built; Lower
// refuses other schedules with an ErrSchedule error.
func (s *Stage) GPULanes(v VarOrRVar) *Stage {
	const directive = "gpu_lanes"
	d, i, ok := s.beginDim(directive, v)
	if !ok {
		return s
	}
	dims := d.Schedule.Dims
	switch {
	case dims[i].Kind == ir.GPUBlock:
		s.f.fail(ir.Errorf(ir.ErrSchedule, s.f.fn.Name, directive, "in %s, %s is a GPU block loop; lanes are threads of one warp inside a block", s.name(), dims[i].Name).
			WithLegal("mark a loop inside the block loops; the stage's loops, outermost first: %s", dimNames(d)))
		return s
	case dims[i].VThread:
		s.f.fail(ir.Errorf(ir.ErrSchedule, s.f.fn.Name, directive, "in %s, %s is a virtual thread loop (vthread); it cannot also be the lanes of a warp", s.name(), dims[i].Name).
			WithLegal("mark another loop; the stage's loops, outermost first: %s", dimNames(d)))
		return s
	}
	for j, x := range dims {
		if j != i && x.Lanes {
			s.f.fail(ir.Errorf(ir.ErrSchedule, s.f.fn.Name, directive, "in %s, %s is already the lanes loop; a stage has one", s.name(), x.Name).
				WithLegal("fuse the loops first and mark the fused loop"))
			return s
		}
		if j < i && x.Kind == ir.GPUThread {
			s.f.fail(ir.Errorf(ir.ErrSchedule, s.f.fn.Name, directive, "in %s, the thread loop %s is inside %s; the lanes loop is thread dimension x, the innermost thread loop", s.name(), x.Name, dims[i].Name).
				WithLegal("reorder so %s is inside every thread loop of the stage (loops, outermost first: %s)", dims[i].Name, dimNames(d)))
			return s
		}
	}
	dims[i].Kind = ir.GPUThread
	dims[i].Lanes = true
	return s
}

// GPULanes is Stage.GPULanes on the pure definition.
func (f *Func) GPULanes(v VarOrRVar) *Func {
	return f.stage0("gpu_lanes").GPULanes(v).f
}
