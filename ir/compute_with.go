package ir

// LoopAlignStrategy says how compute_with lines up a fused loop of two
// stages whose ranges differ (Halide's LoopAlignStrategy).
type LoopAlignStrategy uint8

// The strategies.
const (
	// AlignAuto is NoAlign, as in Halide.
	AlignAuto LoopAlignStrategy = iota
	// AlignStart shifts the stage's loop so that its first iteration is
	// the other stage's first.
	AlignStart
	// AlignEnd shifts it so that its last iteration is the other's last.
	AlignEnd
	// NoAlign runs both over the union of their ranges, each at its own
	// coordinates.
	NoAlign
)

func (s LoopAlignStrategy) String() string {
	switch s {
	case AlignAuto:
		return "Auto"
	case AlignStart:
		return "AlignStart"
	case AlignEnd:
		return "AlignEnd"
	case NoAlign:
		return "NoAlign"
	}
	return "LoopAlignStrategy(?)"
}

// ComputeWithDirective is s.compute_with(Func stage Stage, Var, Align):
// the loops of stage s from the outermost down to Var run fused with the
// same loops of stage Stage of Func (computed at the same level), the
// other stage's body first at each iteration.
type ComputeWithDirective struct {
	Func string
	// Stage is the other Func's stage: 0 its pure definition, i+1 update i.
	Stage int
	Var   string
	// Align is the strategy of each fused loop by its short name (absent:
	// AlignAuto).
	Align map[string]LoopAlignStrategy
	// Ref is the front end's handle of the other Func (see LoopLevel.Ref).
	Ref any
}
