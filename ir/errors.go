package ir

import (
	"fmt"
	"strings"
)

// ErrorCode classifies an error a user can cause.
type ErrorCode string

// The error codes. Each has a test in tests/ that triggers it.
const (
	// ErrComputeAt: compute_at or store_at names a loop that is not in the
	// consumer's loop nest, or one that does not enclose every use.
	ErrComputeAt ErrorCode = "compute_at"
	// ErrUnknownVar: a directive names a var the stage does not have.
	ErrUnknownVar ErrorCode = "unknown_var"
	// ErrVarReused: a directive creates a var the stage already has, or
	// uses a var that an earlier directive consumed.
	ErrVarReused ErrorCode = "var_reused"
	// ErrReorderDuplicate: reorder lists one var twice.
	ErrReorderDuplicate ErrorCode = "reorder_duplicate"
	// ErrDefinition: a Var or RDom is misused in a definition (an RVar in a
	// pure definition, a Var on the right that is not on the left, a
	// non-Var argument in a pure definition, a repeated Var, ...).
	ErrDefinition ErrorCode = "definition"
	// ErrType: the types of a definition or an operation do not match.
	ErrType ErrorCode = "type_mismatch"
	// ErrArgCount: a Func or buffer is called with the wrong number of arguments.
	ErrArgCount ErrorCode = "arg_count"
	// ErrUnbounded: a Func or input is accessed in a way bounds inference
	// cannot bound.
	ErrUnbounded ErrorCode = "unbounded_access"
	// ErrBufferShape: a buffer passed at Realize does not match the
	// pipeline (dimensions, type, bounds).
	ErrBufferShape ErrorCode = "buffer_shape"
	// ErrUndefined: a Func is used before it has a definition, or a Param or
	// input has no value at Realize.
	ErrUndefined ErrorCode = "undefined"
	// ErrSchedule: a directive is illegal for another reason (stated).
	ErrSchedule ErrorCode = "schedule"
	// ErrDuplicateName: two different inputs or Params share a name (Funcs
	// that share one are renamed).
	ErrDuplicateName ErrorCode = "duplicate_name"
	// ErrRuntime: a run-time check failed (an assertion: a tail, a buffer's
	// bounds, a Bound's coverage, ...). The run-time codes below are
	// kinds of it: errors.Is(err, ErrRuntime) holds for them too.
	ErrRuntime ErrorCode = "runtime"
	// ErrOutOfBounds: a load or store at run time fell outside its buffer
	// (a broken UnsafePromiseClamped, a scatter out of range), on the CPU
	// or in a kernel on the emulator.
	ErrOutOfBounds ErrorCode = "out_of_bounds"
	// ErrSharedRace: the emulator saw two threads of a block access one
	// shared element between two barriers, at least one writing.
	ErrSharedRace ErrorCode = "shared_race"
	// ErrDivergentBarrier: the emulator saw some threads of a block wait at
	// a barrier that others did not reach.
	ErrDivergentBarrier ErrorCode = "divergent_barrier"
	// ErrUninitializedRead: the emulator saw a thread read a shared element
	// that no thread of its block had written.
	ErrUninitializedRead ErrorCode = "uninitialized_read"
	// ErrSpecializeFail: a stage with a specialize_fail ran with none of
	// its specializations' conditions true; the message is the one given
	// to SpecializeFail.
	ErrSpecializeFail ErrorCode = "specialize_fail"
	// ErrNilObject: a method was called on a nil or zero-value object (a
	// Func, Stage, Pipeline, Lowered, Buffer, ImageParam, Param or RDom not
	// made by its constructor), or given nil where it needs one.
	ErrNilObject ErrorCode = "nil_object"
	// ErrBadType: a Type that is not one of the scalar types (Int8 ...
	// Float64, Bool) was given to Cast, Lit, NewImageParam, ...
	ErrBadType ErrorCode = "bad_type"
	// ErrBadName: a Func, Var, RVar, RDom, Param or ImageParam was given
	// an empty name or one containing '.' or '$', which the compiler uses
	// to build names of its own (blur.s0.x, r$x, sum$1).
	ErrBadName ErrorCode = "bad_name"
	// ErrBadArgument: an argument is outside its range: an unknown Target,
	// TailStrategy or MemoryType value, a negative run count, an unknown
	// pass name in Options.StopAfter.
	ErrBadArgument ErrorCode = "bad_argument"
	// ErrRedefinition is no longer reported: a second definition with the
	// pure Vars is an update, as in Halide (it was refused as replacing
	// the pure definition). The code stays so that code naming it builds.
	ErrRedefinition ErrorCode = "redefinition"
	// ErrCycle: Funcs call each other in a cycle (f reads g and g reads f,
	// through any definition), so neither can be computed first.
	ErrCycle ErrorCode = "cycle"
	// ErrCanceled: Lower, Compile, Realize or Benchmark was stopped by its context (a
	// cancellation or a deadline); errors.Is(err, context.Canceled) or
	// context.DeadlineExceeded holds through Cause.
	ErrCanceled ErrorCode = "canceled"
	// ErrAllocationTooLarge: an allocation (of a Func's buffer on the host,
	// in the emulator or on the device) would need more bytes than
	// Options.MaxAllocationBytes allows, or more elements than int32
	// indices reach (2^31 - 1).
	ErrAllocationTooLarge ErrorCode = "allocation_too_large"
	// ErrExprTooLarge: inlining made an expression larger than the limit
	// (a chain of inlined Funcs each reading its producer several times
	// grows exponentially).
	ErrExprTooLarge ErrorCode = "expression_too_large"
	// ErrTuple: a Tuple Func is misused: called without picking one of
	// its values, given a definition with a different number or types of
	// values, realized into the wrong number of buffers, or given a
	// directive that does not support Tuples (Atomic).
	ErrTuple ErrorCode = "tuple"
	// ErrNotAssociative: rfactor of an update that is not f(args) =
	// f(args) op e for an associative and commutative op (+, *, min, max,
	// and, or, xor) and an e that does not read f, so that its partial
	// results cannot be combined.
	ErrNotAssociative ErrorCode = "not_associative"
	// ErrInternal: a compiler invariant failed (a bug); the message names the pass.
	ErrInternal ErrorCode = "internal"
)

// Error is the error type for everything a user can cause. Use errors.As to
// inspect it.
type Error struct {
	Code      ErrorCode
	Func      string // the Func concerned, if any
	Directive string // the directive or construct, e.g. "split", "compute_at", "Define"
	Msg       string // what is wrong
	Legal     string // what would be legal, if it can be said
	// Cause is the error this one reports, if any (a *emulator.EmulatorError,
	// a *cpu.Error, a context's error): errors.As and errors.Is reach it
	// through Unwrap.
	Cause error
}

// Error makes an ErrorCode an error value, so that errors.Is(err, code)
// tells whether err is (or wraps) an *Error with that code.
func (c ErrorCode) Error() string { return string(c) }

// runtimeKinds are the codes that are kinds of ErrRuntime.
var runtimeKinds = map[ErrorCode]bool{
	ErrOutOfBounds: true, ErrSharedRace: true, ErrDivergentBarrier: true, ErrUninitializedRead: true,
	ErrSpecializeFail: true,
}

// Is reports whether target is e's code, or ErrRuntime for a run-time
// code (ErrOutOfBounds, ErrSharedRace, ...). errors.Is uses it.
func (e *Error) Is(target error) bool {
	c, ok := target.(ErrorCode)
	if !ok || e == nil {
		return false
	}
	return c == e.Code || (c == ErrRuntime && runtimeKinds[e.Code])
}

// Unwrap returns the Cause.
func (e *Error) Unwrap() error {
	if e == nil {
		return nil
	}
	return e.Cause
}

func (e *Error) Error() string {
	if e == nil {
		return "<nil>"
	}
	var b strings.Builder
	b.WriteString(string(e.Code))
	if e.Func != "" {
		fmt.Fprintf(&b, ": Func %s", e.Func)
	}
	if e.Directive != "" {
		fmt.Fprintf(&b, ": %s", e.Directive)
	}
	b.WriteString(": ")
	b.WriteString(e.Msg)
	if e.Legal != "" {
		b.WriteString(" (legal: ")
		b.WriteString(e.Legal)
		b.WriteString(")")
	}
	return b.String()
}

// Errorf builds an *Error.
func Errorf(code ErrorCode, fn, directive, format string, args ...any) *Error {
	return &Error{Code: code, Func: fn, Directive: directive, Msg: fmt.Sprintf(format, args...)}
}

// WithLegal sets what would be legal and returns e.
func (e *Error) WithLegal(format string, args ...any) *Error {
	if e == nil {
		return nil
	}
	e.Legal = fmt.Sprintf(format, args...)
	return e
}
