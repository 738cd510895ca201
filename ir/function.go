package ir

import (
	"fmt"
	"strconv"
	"strings"
)

// This file holds the algorithm and schedule of a Func as lowering sees
// them: plain data recorded by the user API (package halide) and consumed by
// the passes in package lower.

// Function is one Func of a pipeline.
type Function struct {
	Name string
	// Args are the names of the pure variables, in argument order.
	Args []string
	T    Type
	// Types are the types of the values of a Tuple Func (Halide's Tuple:
	// f(x) = Tuple(a, b)), at least two, T being Types[0]; nil for a Func
	// of one value. The definitions' Values are then IntrinsicTuple calls
	// and calls of f pick a value (Call.Index). Each value is stored in its
	// own buffer (TupleElem), all of them over the same region.
	Types []Type
	// Pure is the pure definition; Updates are the update definitions in order.
	Pure    *Definition
	Updates []*Definition
	// Schedule is the Func-level schedule (where it is computed and stored).
	Schedule FuncSchedule
	// Anonymous is true for Funcs the library made (inline reductions,
	// boundary conditions), which are named by the pipeline.
	Anonymous bool
}

// Stages returns the pure definition followed by the updates.
func (f *Function) Stages() []*Definition {
	return append([]*Definition{f.Pure}, f.Updates...)
}

// Definition is one stage: f(Args) = Value, over the reduction domain RDom
// (nil for the pure definition and for updates without one).
type Definition struct {
	// Args are the left-hand side coordinates. In a pure definition they
	// are Vars named like Function.Args; in an update they are arbitrary
	// int32 expressions (a bare Var of a pure arg keeps that dimension pure).
	Args  []Expr
	Value Expr
	RDom  *ReductionDomain
	// Predicate is the condition under which an update runs at a point of
	// its RDom (the RDom's Where clauses when the update was defined); nil
	// runs it at every point.
	Predicate Expr
	// Schedule is the stage's loop structure.
	Schedule StageSchedule
	// Specializations are the stage's cases (Halide's Stage::specialize),
	// tested in order once per production of the stage: the first whose
	// Cond holds runs with its own Def.Schedule (and its own nested
	// Def.Specializations); when none holds, Schedule runs, or, where the
	// last one is a specialize_fail, the run fails. A case shares the
	// algorithm (Args, Value, RDom) with its stage: lowering reads only
	// the schedule and the nested specializations of Def.
	Specializations []Specialization
}

// Specialization is one case of a stage: a condition on Params and input
// shapes, the schedule the stage runs with when it holds, or, where Fail
// is set (specialize_fail, always last, with Cond true), the message of
// the error a run reports when no earlier case holds.
type Specialization struct {
	Cond Expr
	Def  *Definition
	Fail string
}

// Cases returns d followed by the definitions of its specializations, and
// theirs, depth first: every schedule the stage may run with (not d's own
// where a specialize_fail replaces it).
func (d *Definition) Cases() []*Definition {
	var out []*Definition
	if n := len(d.Specializations); n == 0 || d.Specializations[n-1].Fail == "" {
		out = append(out, d)
	}
	for _, s := range d.Specializations {
		if s.Def != nil {
			out = append(out, s.Def.Cases()...)
		}
	}
	return out
}

// CopySchedule returns a copy of d whose schedule (dims, splits and
// specializations, recursively) shares no slice with d's.
func (d *Definition) CopySchedule() *Definition {
	c := *d
	c.Schedule.Dims = append([]Dim(nil), d.Schedule.Dims...)
	c.Schedule.Splits = append([]Split(nil), d.Schedule.Splits...)
	c.Schedule.Prefetches = append([]PrefetchDirective(nil), d.Schedule.Prefetches...)
	c.Specializations = nil
	for _, s := range d.Specializations {
		if s.Def != nil {
			s.Def = s.Def.CopySchedule()
		}
		c.Specializations = append(c.Specializations, s)
	}
	return &c
}

// Evaluated returns the expressions the definition evaluates at a point,
// besides its Args: the Value and the Predicate if there is one.
func (d *Definition) Evaluated() []Expr {
	if d.Predicate == nil {
		return []Expr{d.Value}
	}
	return []Expr{d.Value, d.Predicate}
}

// RVar is one dimension of a reduction domain.
type RVar struct {
	Name        string
	Min, Extent Expr
}

// ReductionDomain is the iteration space of an update.
type ReductionDomain struct {
	Name string
	Vars []RVar
	// Predicate is the conjunction of the domain's Where clauses (nil:
	// every point). An update copies it into its Definition.
	Predicate Expr
	// Used says an update was defined over the domain: a Where clause
	// added later would not reach it, so the front end refuses one.
	Used bool
	// Err is an error the front end recorded against the domain (a bad
	// Where clause); every update over the domain reports it.
	Err error
}

// LoopLevelKind is where a Func is computed or stored.
type LoopLevelKind uint8

// The loop level kinds.
const (
	// LevelInline substitutes the Func into its consumers (the default for
	// Funcs without updates). A Func with updates left at LevelInline is
	// computed at the innermost loop that contains all of its uses.
	LevelInline LoopLevelKind = iota
	// LevelRoot computes the Func once, outside all loops.
	LevelRoot
	// LevelAt computes the Func inside the loop Var of stage Stage of Func.
	LevelAt
)

// LoopLevel names a loop of the pipeline.
type LoopLevel struct {
	Kind LoopLevelKind
	Func string
	// Stage is the consumer's stage index (-1: its last stage).
	Stage int
	// Var is the loop's short name as the user wrote it (e.g. "xo").
	Var string
	// Ref is the front end's handle of the consumer Func: Func names are
	// made distinct when a pipeline is built (two Funcs may share one),
	// which resolves Ref into Func and clears it. Passes never see it.
	Ref any
}

// BoundDirective fixes the region of a pure var: Func.bound(var, min,
// extent), or only its extent (Func.bound_extent) when Min is nil, the min
// then being the one bounds inference finds.
type BoundDirective struct {
	Var         string
	Min, Extent Expr
}

// AlignDirective expands the region of a Func computed along the pure var
// Var (Func.align_bounds, align_extent): its extent is rounded up to a
// multiple of Modulus and, unless ExtentOnly, its min down to the nearest
// value congruent to Remainder modulo Modulus (0 <= Remainder < Modulus).
type AlignDirective struct {
	Var                string
	Modulus, Remainder int64
	ExtentOnly         bool
}

// FuncSchedule is the Func-level part of a schedule.
type FuncSchedule struct {
	Compute LoopLevel
	// Store is where the storage is allocated; LevelInline (the zero value)
	// means "at the compute level".
	Store LoopLevel
	// Hoist is where the storage is allocated when it is hoisted out of
	// the store level (hoist_storage, lower/hoist_storage.go); LevelInline
	// (the zero value) means "not hoisted".
	Hoist  LoopLevel
	Memory MemoryType
	Bounds []BoundDirective
	// Aligns are the align_bounds and align_extent directives, at most
	// one per pure var (lower/bounds_inference.go applies them).
	Aligns []AlignDirective
	// OutputBounds holds the min and extent promised for each dimension
	// of the Func's output buffer (Func.Dim(d).SetBounds; nil Min or
	// Extent where there is none), which count only where the Func is a
	// pipeline's output. Realize checks them; lowering uses them as
	// constants.
	OutputBounds []Range
	// StorageOrder lists the pure vars in the order of their storage
	// strides, innermost first (nil: argument order).
	StorageOrder []string
	// ExplicitInline records that the user asked for compute_inline.
	ExplicitInline bool
	// TraceStores reports every store to the Func to the trace hook.
	TraceStores bool
	// Folds are the fold_storage directives: storage of the dimension Var
	// holds Extent slices, reused modulo Extent (lower/storage_folding.go).
	Folds []FoldDirective
	// StorageDims are the align_storage and bound_storage directives, at
	// most one entry per pure var (lower/allocation_bounds.go applies
	// them).
	StorageDims []StorageDim
}

// StorageDim sizes the storage of a Func in dimension Var: Bound, when not
// 0, is its extent (bound_storage: at least what the realization needs, a
// run-time error otherwise); Align, when not 0, rounds the extent up to a
// multiple of Align elements (align_storage), so the strides of the
// dimensions stored outside Var are multiples of Align.
type StorageDim struct {
	Var          string
	Align, Bound int64
}

// FoldDirective asks that the storage of a Func in dimension Var be folded
// to Extent slices.
type FoldDirective struct {
	Var    string
	Extent int64
}

// TailStrategy says how a split handles an extent that is not a multiple of
// the factor.
type TailStrategy uint8

// The tail strategies.
const (
	// TailAuto is Halide's default: GuardWithIf for reduction variables,
	// ShiftInwards for pure definitions, and in updates GuardWithIf for
	// outputs, bounded Funcs and vars that stem from the inner var of an
	// earlier split, RoundUp otherwise. Where the threads of a block would
	// recompute each other's points (a shared Func, a thread-level split),
	// ShiftInwards becomes GuardWithIf (lower/schedule_functions.go).
	TailAuto TailStrategy = iota
	// GuardWithIf wraps the body in an if that skips the points past the end.
	GuardWithIf
	// ShiftInwards moves the last iteration back so it ends at the end
	// (recomputing some points; the extent must be at least the factor).
	ShiftInwards
	// RoundUp computes past the end (the extent is rounded up to a multiple
	// of the factor; for outputs the extent must be a multiple).
	RoundUp
)

func (t TailStrategy) String() string {
	if t > RoundUp {
		return fmt.Sprintf("TailStrategy(%d)", uint8(t))
	}
	return [...]string{"Auto", "GuardWithIf", "ShiftInwards", "RoundUp"}[t]
}

// SplitKind distinguishes splits from fuses.
type SplitKind uint8

// The split kinds.
const (
	SplitVar SplitKind = iota
	FuseVars
	// PurifyRVar replaces a loop over an RVar (or a piece of one) by a
	// loop over a pure var: rfactor's intermediate (halide/rfactor.go)
	// computes each value of the RVar at its own point of the new
	// dimension, as Halide's purify does.
	PurifyRVar
)

// Split is one split or fuse of a stage's loop variables. Names are
// qualified within the stage (e.g. "x.xo"), without the "f.s0." prefix.
type Split struct {
	Kind SplitKind
	// For SplitVar: Old is split into Outer and Inner with Factor.
	// For FuseVars: Inner and Outer are fused into Old (the fused var).
	// For PurifyRVar: Old (an RVar or a piece of one, which has no loop
	// any more) takes the value of the pure var Outer, whose loop runs
	// over the Func's region in that dimension.
	Old, Outer, Inner string
	Factor            int
	Tail              TailStrategy
}

// Dim is one loop of a stage, innermost first in StageSchedule.Dims.
type Dim struct {
	Name   string // qualified within the stage, e.g. "x.xo" or "r$y.p1"
	Kind   ForKind
	IsRVar bool
	// VThread marks a virtual thread loop (TVM's vthread): lowering moves it
	// just inside the stage's innermost GPU thread loop and unrolls it, so
	// each thread does the work of several virtual threads, interleaved.
	VThread bool
	// Lanes marks a GPU thread loop whose iterations are the lanes of one
	// warp (Halide's gpu_lanes): thread dimension x, at most 32
	// iterations, in a block at most 32 threads wide in x. Kind is
	// GPUThread; lanes count as threads of the block.
	Lanes bool
	// NeverPartition keeps the tail guards of the splits that made this
	// loop (and of the splits of it) inside the loop's steady state:
	// gpu_partition does not make a copy of a kernel without them
	// (Halide's never_partition).
	NeverPartition bool
}

// OutermostVar names the level just outside every loop of a stage
// (Halide's Var::outermost(), "__outermost"): as the hoist level of
// HoistStorage, the allocation is placed around the stage's loop nest.
const OutermostVar = "__outermost"

// MatchDim reports whether the qualified loop name of a stage (e.g.
// "x.xo") is what a user calls short: the same, or ending in "." + short.
func MatchDim(qualified, short string) bool {
	return qualified == short || strings.HasSuffix(qualified, "."+short)
}

// StageSchedule is the loop structure of one stage.
type StageSchedule struct {
	// Dims are the stage's loops, innermost first.
	Dims   []Dim
	Splits []Split
	// Atomic marks an update whose scatter may collide between parallel
	// iterations; its stores are made atomic.
	Atomic bool
	// AllowRaceConditions lets the stage's RVar loops run in parallel or
	// as GPU blocks or threads although its iterations may write the same
	// point (Halide's allow_race_conditions): the user accepts that
	// colliding writes race.
	AllowRaceConditions bool
	// NeverPartition is never_partition_all: no tail guard of the stage
	// is partitioned away (see Dim.NeverPartition).
	NeverPartition bool
	// Prefetches are the stage's prefetch directives, in the order given
	// (lower/prefetch.go).
	Prefetches []PrefetchDirective
	// ComputeWith fuses the stage's outer loops with another Func's
	// stage (compute_with; lower/compute_with.go); nil when not.
	ComputeWith *ComputeWithDirective
}

// IsTuple reports whether f is a Tuple Func: one with several values per
// point (Types), each stored in its own buffer (TupleElem).
func (f *Function) IsTuple() bool { return len(f.Types) > 1 }

// Values returns the number of values of f at each point: len(Types) for
// a Tuple Func, else 1.
func (f *Function) Values() int {
	if f.IsTuple() {
		return len(f.Types)
	}
	return 1
}

// ValueType returns the type of value i of f.
func (f *Function) ValueType(i int) Type {
	if f.IsTuple() {
		return f.Types[i]
	}
	return f.T
}

// ValueTypes returns the types of f's values, one for a single-valued Func.
func (f *Function) ValueTypes() []Type {
	ts := make([]Type, f.Values())
	for i := range ts {
		ts[i] = f.ValueType(i)
	}
	return ts
}

// TupleElem returns the name of the buffer that holds value i of the
// Tuple Func f: "f.0", "f.1", ... (as in Halide). A user's Func name has
// no '.' (ErrBadName), so it cannot collide with a user's Func; the
// compiler's other names with '.' name loops and buffer variables
// (f.s0.x, f.min.0), never buffers.
func TupleElem(f string, i int) string { return f + "." + strconv.Itoa(i) }

// TupleBase returns the Func whose value a buffer named by TupleElem
// holds ("f" for "f.1"), and name itself for any other buffer.
func TupleBase(name string) string {
	i := strings.LastIndexByte(name, '.')
	if i <= 0 || i == len(name)-1 {
		return name
	}
	for _, c := range name[i+1:] {
		if c < '0' || c > '9' {
			return name
		}
	}
	return name[:i]
}

// TupleValues returns the values of an IntrinsicTuple call, or e alone.
func TupleValues(e Expr) []Expr {
	if c, ok := e.(*Call); ok && c.Kind == CallIntrinsic && c.Name == IntrinsicTuple {
		return c.Args
	}
	return []Expr{e}
}

// MakeTuple returns the IntrinsicTuple call of values (at least two).
func MakeTuple(values []Expr) Expr {
	return &Call{T: values[0].Type(), Kind: CallIntrinsic, Name: IntrinsicTuple, Args: values}
}
