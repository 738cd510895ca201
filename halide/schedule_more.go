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

// ComputeWith fuses the loops of f's pure definition, from the outermost
// down to v, with the same loops of g's pure definition (Halide's
// f.compute_with(g, v, align)): at each iteration of the fused loops g's
// body runs, then f's, each where its own range has an iteration (the
// loops run over both ranges, lined up per loop by align: AlignAuto, which
// is NoAlign, where a loop is not named). f and g must be computed at the
// same loop level (ComputeAt or ComputeRoot), have no update definitions
// and no specializations, not read each other, and have the same loops
// (names and order) from the outermost down to v, all serial or unrolled,
// outside GPU kernels; Lower checks it and says what is legal. The fused
// loops change the order of computation, never the result.
func (f *Func) ComputeWith(g *Func, v VarOrRVar, align ...LoopAlign) *Func {
	const directive = "compute_with"
	f = f.begin(directive, v)
	if f.err != nil {
		return f
	}
	if v == nil {
		f.failf(ir.ErrBadArgument, directive, "%s.ComputeWith names no loop", f.fn.Name)
		return f
	}
	if err := g.nilErr(directive); err != nil {
		f.fail(withFunc(err, f.fn.Name, directive))
		return f
	}
	d := &ir.ComputeWithDirective{Func: g.fn.Name, Var: v.varName(), Align: map[string]ir.LoopAlignStrategy{}}
	for _, a := range align {
		if a.Var == nil {
			f.failf(ir.ErrBadArgument, directive, "an alignment of %s.ComputeWith(%s, %s) names no loop", f.fn.Name, g.fn.Name, v.varName())
			return f
		}
		if a.Strategy > ir.NoAlign {
			f.fail(ir.Errorf(ir.ErrBadArgument, f.fn.Name, directive, "%d is not a loop alignment", uint8(a.Strategy)).
				WithLegal("AlignAuto, AlignStart, AlignEnd or NoAlign"))
			return f
		}
		d.Align[a.Var.varName()] = a.Strategy
	}
	f.fn.Schedule.ComputeWith = d
	return f
}
