package halide

import (
	"math"

	"github.com/gohalide/gohalide/ir"
)

// AlignBounds expands the region of f computed along its pure var v so
// that its min is congruent to remainder modulo modulus and its extent is
// a multiple of modulus (Halide's align_bounds): f.AlignBounds(x, 2, 0)
// computes f over an even number of points from an even x. (Halide's
// simplifier then also drops the tail of a split of x by 2 and decides x
// % 2 in each unrolled copy; ours does not use the alignment for that
// yet: the split keeps its tail strategy and the Select stays.) The
// region computed always contains the one needed,
// in every realization of f (compute_root, compute_at), and the storage
// grows with it; no check is added. Expanding the region computes points
// no consumer reads, which may read inputs past what the consumers need
// (give them a boundary condition where that is outside the input).
//
// modulus must be in [1, 2^31 - 1] and remainder in [0, modulus). A second
// alignment of the same var replaces the first. On the pipeline's output
// the region is the output buffer's, so the buffer given to Realize must
// be aligned itself: a buffer whose min or extent is not is an
// ErrBufferShape error of the run (Halide's output bounds check fails the
// same way). A Bound of the same var is refused by Lower (ErrSchedule): a
// fixed region is aligned by choosing its min and extent. A Func computed
// inline has no region of its own, and the directive does nothing (as in
// Halide); a sliding window (StoreAt outside ComputeAt) computes only the
// new points of each iteration, which are not aligned, and a FoldStorage
// of the aligned dimension may be refused (Lower does not prove that the
// aligned window moves forward).
func (f *Func) AlignBounds(v Var, modulus, remainder int) *Func {
	const directive = "align_bounds"
	f = f.beginPureVar(directive, v)
	if f.Err() != nil {
		return f
	}
	if modulus < 1 || modulus > math.MaxInt32 {
		f.fail(ir.Errorf(ir.ErrBadArgument, f.fn.Name, directive, "align_bounds of %s in %s to a modulus of %d", f.fn.Name, v.name, modulus).
			WithLegal("a modulus of at least 1 and at most 2^31 - 1 (coordinates are int32)"))
		return f
	}
	if remainder < 0 || remainder >= modulus {
		f.fail(ir.Errorf(ir.ErrBadArgument, f.fn.Name, directive, "align_bounds of %s in %s to a remainder of %d modulo %d", f.fn.Name, v.name, remainder, modulus).
			WithLegal("a remainder in [0, %d), for example %d", modulus, ((remainder%modulus)+modulus)%modulus))
		return f
	}
	f.setAlign(ir.AlignDirective{Var: v.name, Modulus: int64(modulus), Remainder: int64(remainder)})
	return f
}

// AlignExtent expands the region of f computed along its pure var v so
// that its extent is a multiple of modulus, leaving its min where it is
// (Halide's align_extent): f.AlignExtent(x, 32) computes f over 32, 64,
// ... points of x. The rules are AlignBounds's: modulus at least 1, the
// output's buffer must have such an extent, no Bound of the same var.
func (f *Func) AlignExtent(v Var, modulus int) *Func {
	const directive = "align_extent"
	f = f.beginPureVar(directive, v)
	if f.Err() != nil {
		return f
	}
	if modulus < 1 || modulus > math.MaxInt32 {
		f.fail(ir.Errorf(ir.ErrBadArgument, f.fn.Name, directive, "align_extent of %s in %s to a modulus of %d", f.fn.Name, v.name, modulus).
			WithLegal("a modulus of at least 1 and at most 2^31 - 1 (coordinates are int32)"))
		return f
	}
	f.setAlign(ir.AlignDirective{Var: v.name, Modulus: int64(modulus), ExtentOnly: true})
	return f
}

// setAlign records a, replacing an earlier alignment of its var.
func (f *Func) setAlign(a ir.AlignDirective) {
	s := &f.fn.Schedule
	for i := range s.Aligns {
		if s.Aligns[i].Var == a.Var {
			s.Aligns[i] = a
			return
		}
	}
	s.Aligns = append(s.Aligns, a)
}
