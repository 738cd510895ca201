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

// LoopAlignStrategy says how ComputeWith lines up a fused loop whose
// ranges differ in the two stages (Halide's LoopAlignStrategy).
type LoopAlignStrategy = ir.LoopAlignStrategy

// The loop alignments of ComputeWith.
const (
	AlignAuto  = ir.AlignAuto  // NoAlign, as in Halide
	AlignStart = ir.AlignStart // the first iterations coincide
	AlignEnd   = ir.AlignEnd   // the last iterations coincide
	NoAlign    = ir.NoAlign    // the union of the ranges, each at its own coordinates
)

// LoopAlign is the alignment of one fused loop of ComputeWith.
type LoopAlign struct {
	Var      VarOrRVar
	Strategy LoopAlignStrategy
}

// StageRef is a stage to fuse with (ComputeWith): a *Func, which is its
// pure definition, or a *Stage.
type StageRef interface {
	stageRef() *Stage
}

func (f *Func) stageRef() *Stage {
	if f == nil {
		return nil
	}
	return &Stage{f: f, idx: 0}
}

func (s *Stage) stageRef() *Stage { return s }

// ComputeWith fuses the loops of f's pure definition with the stage t
// (see Stage.ComputeWith; Halide's f.compute_with(t, v, align)).
func (f *Func) ComputeWith(t StageRef, v VarOrRVar, align ...LoopAlign) *Func {
	return f.stage0("compute_with").ComputeWith(t, v, align...).f
}

// ComputeWith fuses the loops of stage s, from the outermost down to v,
// with the same loops of stage t of another Func (Halide's
// Stage::compute_with): at each iteration of the fused loops t's body
// runs, then s's, each where its own range has an iteration (the loops
// run over both ranges, lined up per loop by align: AlignAuto, which is
// NoAlign, where a loop is not named). Chains and trees of compute_with
// join the Funcs into one group, produced one right after the other at
// one loop level (ComputeAt or ComputeRoot; Lower moves the Funcs
// between them out of the way); the Funcs of a group may not read each
// other; fused stages have no specializations and the same loops (by the
// names the schedule gave them, in order) from the outermost down to v,
// of one kind: serial or unrolled, parallel, vectorized, or GPU block and
// thread loops of kernels launched from the host (all of a kernel's
// block loops fused). A Func computed at one of the fused loops is
// computed at the innermost fused loop, and the other fused stages that
// read it read copies of it computed at theirs (Halide computes it once
// for all: the values are the same). Each
// Func's stages keep their order; stages of one Func that share a fused
// loop must each touch one slice of a pure dimension per iteration.
// Lower checks it all and says what is legal. The fused loops change the
// order of computation, never the result.
func (s *Stage) ComputeWith(t StageRef, v VarOrRVar, align ...LoopAlign) *Stage {
	const directive = "compute_with"
	d := s.beginDef(directive, v)
	if d == nil || s.f.err != nil {
		return s
	}
	f := s.f
	if v == nil {
		f.failf(ir.ErrBadArgument, directive, "%s.ComputeWith names no loop", s.name())
		return s
	}
	var ts *Stage
	if t != nil {
		ts = t.stageRef()
	}
	if ts == nil || ts.f == nil {
		var nf *Func
		f.fail(withFunc(nf.nilErr(directive), f.fn.Name, directive))
		return s
	}
	if err := ts.f.nilErr(directive); err != nil {
		f.fail(withFunc(err, f.fn.Name, directive))
		return s
	}
	if ts.idx < 0 || ts.spec != nil || s.spec != nil {
		f.fail(ir.Errorf(ir.ErrSchedule, f.fn.Name, directive, "%s.ComputeWith(%s, %s): a specialization case or a missing stage cannot be fused", s.name(), ts.name(), v.varName()).
			WithLegal("compute_with of a stage itself (a Func, or Func.Update(i)), without specializations"))
		return s
	}
	cw := &ir.ComputeWithDirective{Func: ts.f.fn.Name, Stage: ts.idx, Var: v.varName(), Align: map[string]ir.LoopAlignStrategy{}, Ref: ts.f}
	for _, a := range align {
		if a.Var == nil {
			f.failf(ir.ErrBadArgument, directive, "an alignment of %s.ComputeWith(%s, %s) names no loop", s.name(), ts.name(), v.varName())
			return s
		}
		if a.Strategy > ir.NoAlign {
			f.fail(ir.Errorf(ir.ErrBadArgument, f.fn.Name, directive, "%d is not a loop alignment", uint8(a.Strategy)).
				WithLegal("AlignAuto, AlignStart, AlignEnd or NoAlign"))
			return s
		}
		cw.Align[a.Var.varName()] = a.Strategy
	}
	d.Schedule.ComputeWith = cw
	return s
}
