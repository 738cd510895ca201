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
	// ErrDuplicateName: two different Funcs or inputs share a name.
	ErrDuplicateName ErrorCode = "duplicate_name"
	// ErrRuntime: a run-time check failed (an assertion or an out-of-bounds access).
	ErrRuntime ErrorCode = "runtime"
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
}

func (e *Error) Error() string {
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
	e.Legal = fmt.Sprintf(format, args...)
	return e
}
