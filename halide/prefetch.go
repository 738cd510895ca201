package halide

import "github.com/gohalide/gohalide/ir"

// PrefetchBoundStrategy says what a prefetch does with the part of its box
// outside the buffer it reads (Halide's PrefetchBoundStrategy).
type PrefetchBoundStrategy = ir.PrefetchBoundStrategy

// The prefetch bound strategies.
const (
	// PrefetchGuardWithIf prefetches the box at an iteration only where
	// it lies wholly inside the buffer (Halide's default).
	PrefetchGuardWithIf = ir.PrefetchGuardWithIf
	// PrefetchClamp prefetches the part of the box inside the buffer.
	PrefetchClamp = ir.PrefetchClamp
	// PrefetchNonFaulting is Halide's "may prefetch outside the buffer";
	// no target here promises such an address does not fault, so it is
	// PrefetchClamp.
	PrefetchNonFaulting = ir.PrefetchNonFaulting
)

// Prefetch asks that, at the top of each iteration of the stage's loop at,
// the region of src that the body of the loop from (at itself or a loop
// inside it) reads offset iterations of from later be fetched into the
// cache (Halide's Stage::prefetch(f, at, from, offset, strategy)). src is
// a Func stored in memory outside at (not inlined, not computed inside
// at); offset is an integer expression of constants and Params (Halide's
// default is 1); strategy (default PrefetchGuardWithIf) says what happens
// where the region leaves src's storage. The CUDA target issues
// prefetch.global.L2 once per 128-byte line of the region (of a Func in
// global memory; a Func in shared memory or registers is on chip and not
// prefetched); the CPU and the emulator do nothing. A prefetch is a hint:
// it never changes a result. Lower refuses a loop the stage does not
// have, a from outside at, a vectorized at, an inlined src and an offset
// that is not an integer, naming what is legal.
func (s *Stage) Prefetch(src *Func, at, from VarOrRVar, offset any, strategy ...PrefetchBoundStrategy) *Stage {
	const directive = "prefetch"
	if !s.begin(directive, at, from) {
		return s
	}
	if err := src.nilErr(directive); err != nil {
		s.f.fail(withFunc(err, s.f.fn.Name, directive))
		return s
	}
	return s.prefetch(src.fn.Name, src, at, from, offset, strategy)
}

// PrefetchImage is Prefetch of the input src (Halide's prefetch of an
// ImageParam): its region is clamped to, or guarded by, the bounds of the
// buffer set on src.
func (s *Stage) PrefetchImage(src *ImageParam, at, from VarOrRVar, offset any, strategy ...PrefetchBoundStrategy) *Stage {
	const directive = "prefetch"
	if !s.begin(directive, at, from) {
		return s
	}
	if err := src.Err(); err != nil {
		s.f.fail(withFunc(err, s.f.fn.Name, directive))
		return s
	}
	return s.prefetch(src.name, nil, at, from, offset, strategy)
}

// prefetch records a prefetch directive of the buffer src on the stage.
func (s *Stage) prefetch(src string, ref *Func, at, from VarOrRVar, offset any, strategy []PrefetchBoundStrategy) *Stage {
	const directive = "prefetch"
	d := s.def(directive)
	if d == nil || s.f.err != nil {
		return s
	}
	names, ok := s.vars(directive, at, from)
	if !ok {
		return s
	}
	off := E(offset)
	if off.err != nil {
		s.f.fail(withFunc(off.err, s.f.fn.Name, directive))
		return s
	}
	if !off.Type().IsIntOrUInt() {
		s.f.fail(ir.Errorf(ir.ErrType, s.f.fn.Name, directive, "the offset of the prefetch of %s in %s is a %s", src, s.name(), off.Type()).
			WithLegal("an integer expression of constants and Params (a number of iterations of %s)", names[1]))
		return s
	}
	st := PrefetchGuardWithIf
	if len(strategy) > 1 {
		s.f.fail(ir.Errorf(ir.ErrBadArgument, s.f.fn.Name, directive, "the prefetch of %s in %s has %d bound strategies", src, s.name(), len(strategy)).
			WithLegal("at most one PrefetchBoundStrategy"))
		return s
	}
	if len(strategy) == 1 {
		st = strategy[0]
		if st > PrefetchNonFaulting {
			s.f.fail(ir.Errorf(ir.ErrBadArgument, s.f.fn.Name, directive, "%d is not a prefetch bound strategy", uint8(st)).
				WithLegal("PrefetchGuardWithIf, PrefetchClamp or PrefetchNonFaulting"))
			return s
		}
	}
	d.Schedule.Prefetches = append(d.Schedule.Prefetches, ir.PrefetchDirective{
		Source: src, Input: ref == nil, At: names[0], From: names[1],
		Offset: convert(Int32, off).node, Strategy: st,
	})
	if ref != nil {
		ps := d.Schedule.Prefetches
		ps[len(ps)-1].SourceRef = ref
	}
	return s
}

// Prefetch is Stage.Prefetch on the pure definition.
func (f *Func) Prefetch(src *Func, at, from VarOrRVar, offset any, strategy ...PrefetchBoundStrategy) *Func {
	return f.stage0("prefetch").Prefetch(src, at, from, offset, strategy...).f
}

// PrefetchImage is Stage.PrefetchImage on the pure definition.
func (f *Func) PrefetchImage(src *ImageParam, at, from VarOrRVar, offset any, strategy ...PrefetchBoundStrategy) *Func {
	return f.stage0("prefetch").PrefetchImage(src, at, from, offset, strategy...).f
}
