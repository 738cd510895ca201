package ir

import (
	"fmt"
	"strings"
)

// PrefetchBoundStrategy says what a prefetch does with the part of its box
// that lies outside the buffer it reads (Halide's PrefetchBoundStrategy).
type PrefetchBoundStrategy uint8

// The strategies.
const (
	// PrefetchGuardWithIf prefetches the box only where it lies wholly
	// inside the buffer (all or nothing, at each iteration): Halide's
	// default.
	PrefetchGuardWithIf PrefetchBoundStrategy = iota
	// PrefetchClamp prefetches the part of the box inside the buffer.
	PrefetchClamp
	// PrefetchNonFaulting is Halide's "the prefetch may reach outside the
	// buffer": no target of this project promises that an address
	// outside a buffer does not fault (C and CUDA leave it undefined), so
	// it is lowered as PrefetchClamp.
	PrefetchNonFaulting
)

func (s PrefetchBoundStrategy) String() string {
	switch s {
	case PrefetchGuardWithIf:
		return "GuardWithIf"
	case PrefetchClamp:
		return "Clamp"
	case PrefetchNonFaulting:
		return "NonFaulting"
	}
	return fmt.Sprintf("PrefetchBoundStrategy(%d)", uint8(s))
}

// PrefetchDirective is stage.prefetch(Source, At, From, Offset, Strategy):
// at the top of each iteration of the stage's loop At, the region of
// Source (a Func stored outside At, or an input) that the body of the loop
// From (At or a loop inside it) reads Offset iterations of From later is
// prefetched. A hint: it never changes a result (lower/prefetch.go).
type PrefetchDirective struct {
	Source string
	// Input marks a Source that is an input buffer (an ImageParam).
	Input    bool
	At, From string
	// Offset is an int32 expression of Params and constants.
	Offset   Expr
	Strategy PrefetchBoundStrategy
	// SourceRef is the front end's handle of a Func Source (see
	// LoopLevel.Ref).
	SourceRef any
}

// Prefetch statements are Evaluates of an intrinsic call whose name holds
// the buffer, as TraceStore's does, so that no pass takes the call for a
// read of the buffer: prefetch_pass's box form, then storage_flattening's
// flat form.
const (
	// IntrinsicPrefetch + f (min0, extent0, min1, extent1, ...) prefetches
	// the box of Func or input f with those mins and extents, in f's
	// coordinates (before storage flattening).
	IntrinsicPrefetch = "prefetch:"
	// IntrinsicPrefetchFlat + buf (index, extent0, stride0, extent1,
	// stride1, ...) prefetches the elements index + sum(i_d * stride_d)
	// of the flat buffer buf for 0 <= i_d < extent_d (after storage
	// flattening; Halide's prefetch call). Its type is the buffer's
	// element type.
	IntrinsicPrefetchFlat = "prefetch_flat:"
)

// PrefetchBox returns the statement that prefetches the box (one Range per
// dimension) of Func or input buf, of element type t.
func PrefetchBox(buf string, t Type, box []Range) Stmt {
	args := make([]Expr, 0, 2*len(box))
	for _, r := range box {
		args = append(args, r.Min, r.Extent)
	}
	return &Evaluate{&Call{T: t, Kind: CallIntrinsic, Name: IntrinsicPrefetch + buf, Args: args}}
}

// PrefetchFlat returns the statement that prefetches, from the flat buffer
// buf of element type t, the elements index + sum(i_d * strides[d]) for
// 0 <= i_d < extents[d].
func PrefetchFlat(buf string, t Type, index Expr, extents, strides []Expr) Stmt {
	args := []Expr{index}
	for d := range extents {
		args = append(args, extents[d], strides[d])
	}
	return &Evaluate{&Call{T: t, Kind: CallIntrinsic, Name: IntrinsicPrefetchFlat + buf, Args: args}}
}

// IsPrefetch reports whether e is a prefetch call (PrefetchBox or
// PrefetchFlat), of which buffer, and whether it is the flat form.
func IsPrefetch(e Expr) (buf string, c *Call, flat, ok bool) {
	c, ok = e.(*Call)
	if !ok || c.Kind != CallIntrinsic {
		return "", nil, false, false
	}
	switch {
	case strings.HasPrefix(c.Name, IntrinsicPrefetchFlat) && len(c.Args)%2 == 1:
		return strings.TrimPrefix(c.Name, IntrinsicPrefetchFlat), c, true, true
	case strings.HasPrefix(c.Name, IntrinsicPrefetch) && len(c.Args)%2 == 0:
		return strings.TrimPrefix(c.Name, IntrinsicPrefetch), c, false, true
	}
	return "", nil, false, false
}

// IsPrefetchStmt reports whether s is the Evaluate of a prefetch call.
func IsPrefetchStmt(s Stmt) bool {
	ev, ok := s.(*Evaluate)
	if !ok {
		return false
	}
	_, _, _, ok = IsPrefetch(ev.X)
	return ok
}

// prefetchString prints a prefetch call: `prefetch f[[min, extent], ...]`
// (the box, like a Realize's bounds) or `prefetch f[index] extents (e0,
// e1) strides (s0, s1)`.
func prefetchString(buf string, c *Call, flat bool) string {
	var b strings.Builder
	b.WriteString("prefetch ")
	b.WriteString(buf)
	if !flat {
		b.WriteString("[")
		for i := 0; i+1 < len(c.Args); i += 2 {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "[%s, %s]", ExprString(c.Args[i]), ExprString(c.Args[i+1]))
		}
		b.WriteString("]")
		return b.String()
	}
	fmt.Fprintf(&b, "[%s]", ExprString(c.Args[0]))
	var ext, str []string
	for i := 1; i+1 < len(c.Args); i += 2 {
		ext = append(ext, ExprString(c.Args[i]))
		str = append(str, ExprString(c.Args[i+1]))
	}
	fmt.Fprintf(&b, " extents (%s) strides (%s)", strings.Join(ext, ", "), strings.Join(str, ", "))
	return b.String()
}
