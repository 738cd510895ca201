package cpu

import (
	"context"
	"fmt"
	"reflect"
	"runtime"
	"sort"
	"sync"

	"github.com/gohalide/gohalide/half"
	"github.com/gohalide/gohalide/ir"
)

// Param is a free scalar variable of a compiled statement.
type Param struct {
	Name string
	T    ir.Type
}

// BufferArg is an external buffer of a compiled statement: one that is Loaded
// or Stored but not Allocated inside it.
type BufferArg struct {
	Name string
	T    ir.Type
}

// ErrorKind classifies run-time errors.
type ErrorKind uint8

// The kinds of run-time error.
const (
	// OutOfBounds: a Load or Store index outside [0, Size) of Buffer.
	OutOfBounds ErrorKind = iota + 1
	// AssertFailed: an AssertStmt's condition was false.
	AssertFailed
	// MissingArg: a scalar (Buffer empty) or buffer argument was not given.
	MissingArg
	// TypeMismatch: an argument's Go type does not fit its IR type.
	TypeMismatch
	// BadAllocation: an Allocate's size is negative or overflows.
	BadAllocation
	// Internal: an unexpected failure inside the executor.
	Internal
	// Canceled: the run's context was done (see Env); Cause is the
	// context's error.
	Canceled
	// AllocationTooLarge: an Allocate needs more bytes than the Env's
	// limit (Size is the bytes it needs).
	AllocationTooLarge
)

var errorKindNames = [...]string{OutOfBounds: "OutOfBounds", AssertFailed: "AssertFailed", MissingArg: "MissingArg",
	TypeMismatch: "TypeMismatch", BadAllocation: "BadAllocation", Internal: "Internal", Canceled: "Canceled",
	AllocationTooLarge: "AllocationTooLarge"}

func (k ErrorKind) String() string {
	if int(k) < len(errorKindNames) && errorKindNames[k] != "" {
		return errorKindNames[k]
	}
	return fmt.Sprintf("ErrorKind(%d)", k)
}

// Error is a run-time error of a Program. Buffer names the buffer (or, for a
// missing or mistyped scalar, the parameter) concerned; Index and Size are set
// for OutOfBounds (the offending index and the buffer's length) and Size for
// BadAllocation and AllocationTooLarge (the bytes needed). Msg is the
// complete message, which Error returns.
type Error struct {
	Kind   ErrorKind
	Buffer string
	Index  int64
	Size   int64
	Msg    string
	// User is, for a failed ir.AssertStmt that carries an ir.Error, that
	// error with its message completed (see Unwrap).
	User *ir.Error
	// Cause is, for Canceled, the context's error.
	Cause error
}

func (e *Error) Error() string { return e.Msg }

// Unwrap returns the user's error of a failed assertion that carries one,
// or the context's error of a canceled run.
func (e *Error) Unwrap() error {
	if e.User != nil {
		return e.User
	}
	return e.Cause
}

func oobError(op, buf string, index int64, size int) *Error {
	return &Error{Kind: OutOfBounds, Buffer: buf, Index: index, Size: int64(size),
		Msg: fmt.Sprintf("%s %s at index %d is out of bounds [0, %d)", op, buf, index, size)}
}

// Program is a compiled statement. It holds no per-run state: Run may be
// called from several goroutines at once.
type Program struct {
	root    stmtFn
	params  []paramSlot
	buffers []bufferSlot
	written []string
	nInts   int
	nFloats int
	nBufs   int
}

type paramSlot struct {
	Param
	slot int
}

type bufferSlot struct {
	BufferArg
	slot   int
	atomic bool
	check  func(v any) (any, bool)
}

// Params lists the free scalar variables of the statement (name and type),
// sorted by name. Each must be given to Run.
func (p *Program) Params() []Param {
	out := make([]Param, len(p.params))
	for i, x := range p.params {
		out[i] = x.Param
	}
	return out
}

// Written lists the external buffers that the statement stores to, sorted by
// name.
func (p *Program) Written() []string { return append([]string(nil), p.written...) }

// Buffers lists the external buffers of the statement (name and element
// type), sorted by name. Each must be given to Run.
func (p *Program) Buffers() []BufferArg {
	out := make([]BufferArg, len(p.buffers))
	for i, x := range p.buffers {
		out[i] = x.BufferArg
	}
	return out
}

// Run executes the program. scalars maps each parameter name to a Go number
// (any int, uint or float kind, or bool), which is converted to the
// parameter's type as a Cast would. buffers maps each external buffer name to
// a slice ([]float32, []float64, []int8 ... []int64, []uint8 ... []uint64,
// []bool, and []half.Float16 and []half.BFloat16 for the 16-bit floats)
// whose element type equals the buffer's element type. Stores write
// through to the given slices. Extra entries in either map are ignored.
// The error, if any, is an *Error, or the error a hook returned (see
// Options), unchanged.
func (p *Program) Run(scalars map[string]any, buffers map[string]any) error {
	return p.RunEnv(nil, nil, scalars, buffers)
}

// RunContext is Run stopping when ctx is done (with a Canceled error whose
// Cause is ctx.Err()) and refusing allocations over maxBytes (0 means
// DefaultMaxAllocationBytes, a negative value no limit): see Env.
func (p *Program) RunContext(ctx context.Context, maxBytes int64, scalars, buffers map[string]any) error {
	env, release := NewEnv(ctx, maxBytes)
	defer release()
	return p.RunEnv(env, nil, scalars, buffers)
}

// RunCtx is Run passing ctx to every hook call of this run (see Options): the
// GPU emulator gives each thread its own context. RunCtx reads the two maps
// only before it starts executing the statement, so the caller may change
// them once the first hook has been called.
func (p *Program) RunCtx(ctx any, scalars map[string]any, buffers map[string]any) error {
	return p.RunEnv(nil, ctx, scalars, buffers)
}

// RunEnv is RunCtx in the environment env (nil: never stopped, with the
// default allocation limit), which the runs of one realization share:
// when env is stopped the run ends at its next loop iteration with a
// Canceled error, and an Allocate over env's limit fails with an
// AllocationTooLarge error.
func (p *Program) RunEnv(env *Env, ctx any, scalars map[string]any, buffers map[string]any) (err error) {
	f, err := p.bind(env, ctx, scalars, buffers, nil)
	if err != nil {
		return err
	}
	defer func() {
		if r := recover(); r != nil {
			err = panicError(r)
		}
	}()
	p.root(f)
	return nil
}

// bind makes the frame of a run: the scalars and buffers checked and put
// in their slots. The parameters named in vary are left at zero (a Runner
// sets them before each run).
func (p *Program) bind(env *Env, ctx any, scalars, buffers map[string]any, vary []string) (*frame, error) {
	if env == nil {
		env = background
	}
	if env.Stopped() {
		return nil, env.CanceledError()
	}
	f := &frame{
		env:    env,
		ints:   make([]int64, p.nInts),
		floats: make([]float64, p.nFloats),
		bufs:   make([]any, p.nBufs),
		mus:    make([]*sync.Mutex, p.nBufs),
		ctx:    ctx,
	}
params:
	for _, ps := range p.params {
		for _, name := range vary {
			if ps.Name == name {
				continue params
			}
		}
		v, ok := scalars[ps.Name]
		if !ok {
			return nil, &Error{Kind: MissingArg, Buffer: ps.Name, Msg: fmt.Sprintf("missing scalar argument %s (%v)", ps.Name, ps.T)}
		}
		i, fl, ok := convertScalar(ps.T, v)
		if !ok {
			return nil, &Error{Kind: TypeMismatch, Buffer: ps.Name, Msg: fmt.Sprintf("scalar argument %s: cannot use %T as %v", ps.Name, v, ps.T)}
		}
		if ps.T.IsFloat() {
			f.floats[ps.slot] = fl
		} else {
			f.ints[ps.slot] = i
		}
	}
	for _, bs := range p.buffers {
		v, ok := buffers[bs.Name]
		if !ok {
			return nil, &Error{Kind: MissingArg, Buffer: bs.Name, Msg: fmt.Sprintf("missing buffer argument %s ([]%v)", bs.Name, goElemName(bs.T))}
		}
		s, ok := bs.check(v)
		if !ok {
			return nil, &Error{Kind: TypeMismatch, Buffer: bs.Name, Msg: fmt.Sprintf("buffer argument %s: got %T, want []%s", bs.Name, v, goElemName(bs.T))}
		}
		f.bufs[bs.slot] = s
		if bs.atomic {
			f.mus[bs.slot] = new(sync.Mutex)
		}
	}
	return f, nil
}

// A Runner runs a Program again and again with the same arguments,
// changing only some integer parameters (and the hook context) between
// runs: the GPU emulator runs a kernel body once per thread this way. The
// arguments are checked and bound once and the frame is reused, so a run
// costs only the statement itself. Each run has exactly the semantics of
// RunEnv with the same arguments. A Runner is not safe for concurrent
// use; after a run that failed, make a new one.
type Runner struct {
	p *Program
	f *frame
}

// NewRunner checks and binds the arguments of the runs of p, as RunEnv
// does, except the integer parameters named in vary, which each run takes
// from SetInt (zero until set).
func (p *Program) NewRunner(env *Env, ctx any, scalars, buffers map[string]any, vary ...string) (*Runner, error) {
	for _, name := range vary {
		for _, ps := range p.params {
			if ps.Name == name && ps.T.IsFloat() {
				return nil, &Error{Kind: TypeMismatch, Buffer: name, Msg: fmt.Sprintf("parameter %s varies between runs but has type %v, not an integer type", name, ps.T)}
			}
		}
	}
	f, err := p.bind(env, ctx, scalars, buffers, vary)
	if err != nil {
		return nil, err
	}
	return &Runner{p: p, f: f}, nil
}

// Slot returns the handle of integer parameter name for SetInt, or -1 when
// the program has no integer parameter of that name (SetInt(-1, v) does
// nothing).
func (r *Runner) Slot(name string) int {
	for _, ps := range r.p.params {
		if ps.Name == name && !ps.T.IsFloat() {
			return ps.slot
		}
	}
	return -1
}

// SetInt sets the integer parameter of handle slot (from Slot) for the
// next runs. v must be a value of the parameter's type (RunEnv would wrap
// it; SetInt does not).
func (r *Runner) SetInt(slot int, v int64) {
	if slot >= 0 {
		r.f.ints[slot] = v
	}
}

// SetContext sets the value passed to the hooks in the next runs.
func (r *Runner) SetContext(ctx any) { r.f.ctx = ctx }

// Run runs the program once; its error is as RunEnv's.
func (r *Runner) Run() (err error) {
	if r.f.env.Stopped() {
		return r.f.env.CanceledError()
	}
	defer func() {
		if r := recover(); r != nil {
			err = panicError(r)
		}
	}()
	r.p.root(r.f)
	return nil
}

// panicError turns a recovered panic value into the error Run returns: a
// hook's error unchanged, otherwise an *Error.
func panicError(r any) error {
	if h, ok := r.(hookError); ok {
		return h.err
	}
	return toError(r)
}

// toError turns a recovered panic value into an *Error.
func toError(r any) *Error {
	switch r := r.(type) {
	case *Error:
		return r
	case outOfBounds:
		return oobError(r.op, r.name, r.i, r.n)
	case runtime.Error:
		return &Error{Kind: Internal, Msg: "internal error: " + r.Error()}
	}
	return &Error{Kind: Internal, Msg: fmt.Sprint("internal error: ", r)}
}

func goElemName(t ir.Type) string {
	if t.IsBool() {
		return "bool"
	}
	return t.String()
}

// sliceChecker returns a function reporting whether a value is a []T for the
// Go element type of t; nil for a type no buffer holds.
func sliceChecker(t ir.Type) func(any) (any, bool) { return elements[t].check }

// IsBufferSlice reports whether v is a slice that holds a buffer of some
// IR type ([]float32, []half.Float16, []bool, ...).
func IsBufferSlice(v any) bool {
	for _, ops := range elements {
		if _, ok := ops.check(v); ok {
			return true
		}
	}
	return false
}

// NewSlice returns a slice of n zero elements of the Go type that holds a
// buffer of t (the type Run wants: []float32 for Float32, []half.Float16
// for Float16, ...); a []float64 for a type no buffer holds.
func NewSlice(t ir.Type, n int) any {
	if mk := elements[t].make; mk != nil {
		return mk(n)
	}
	return make([]float64, n)
}

func newSliceOf[T any](n int) any { return make([]T, n) }

// elementOps are what the executor does with the buffers of one IR type,
// made for its Go element type: checking a slice, making one, allocating one in a frame, loading and storing an
// element (carried as an int64 or a float64; a bool as 0 or 1).
type elementOps struct {
	check      func(any) (any, bool)
	make       func(n int) any
	alloc      func(f *frame, slot int, n int64, reuse bool)
	loadInt    func(name string, slot int, idx value) func(*frame) int64
	loadFloat  func(name string, slot int, idx value) func(*frame) float64
	storeInt   func(name string, slot int, idx value, val func(*frame) int64) stmtFn
	storeFloat func(name string, slot int, idx value, val func(*frame) float64) stmtFn
	// binary is the integer operation in the Go type (integer types only).
	binary func(op ir.BinOp, a, b value) intFn
	// wrap is a carried value converted to the Go type and back: its
	// wrap-around (integer types only).
	wrap func(intFn) intFn
	// scalar converts a carried value to the Go type.
	scalar func(int64, float64) any
}

func intOps[T integer]() elementOps {
	return elementOps{check: checkSlice[T], make: newSliceOf[T], alloc: allocSlice[T], loadInt: loadElem[T, int64], storeInt: storeElem[T, int64],
		binary: intBinary[T], wrap: wrapT[T], scalar: func(i int64, _ float64) any { return T(i) }}
}

func floatOps[T float32 | float64]() elementOps {
	return elementOps{check: checkSlice[T], make: newSliceOf[T], alloc: allocSlice[T], loadFloat: loadElem[T, float64], storeFloat: storeElem[T, float64],
		scalar: func(_ int64, fl float64) any { return T(fl) }}
}

// elements holds the elementOps of every type a buffer may hold.
var elements = map[ir.Type]elementOps{
	ir.Bool: {check: checkSlice[bool], make: newSliceOf[bool], alloc: allocSlice[bool],
		loadInt: func(name string, slot int, idx value) func(*frame) int64 {
			return loadConv(name, slot, idx, func(b bool) int64 {
				if b {
					return 1
				}
				return 0
			})
		},
		storeInt: func(name string, slot int, idx value, val func(*frame) int64) stmtFn {
			return storeConv(name, slot, idx, val, func(v int64) bool { return v != 0 })
		},
		scalar: func(i int64, _ float64) any { return i != 0 }},
	ir.Int8:     intOps[int8](),
	ir.Int16:    intOps[int16](),
	ir.Int32:    intOps[int32](),
	ir.Int64:    intOps[int64](),
	ir.UInt8:    intOps[uint8](),
	ir.UInt16:   intOps[uint16](),
	ir.UInt32:   intOps[uint32](),
	ir.UInt64:   intOps[uint64](),
	ir.Float32:  floatOps[float32](),
	ir.Float64:  floatOps[float64](),
	ir.Float16:  halfOps(func(h half.Float16) float64 { return h.ToFloat64() }, half.Float16FromFloat64),
	ir.BFloat16: halfOps(func(h half.BFloat16) float64 { return h.ToFloat64() }, half.BFloat16FromFloat64),
}

// halfOps are the elementOps of a 16-bit float type, whose buffers hold
// its bits (half.Float16 or half.BFloat16): a value is carried as the
// float64 it stands for (a value of the type, so storing it is exact).
func halfOps[T half.Float16 | half.BFloat16](to func(T) float64, from func(float64) T) elementOps {
	return elementOps{check: checkSlice[T], make: newSliceOf[T], alloc: allocSlice[T],
		loadFloat: func(name string, slot int, idx value) func(*frame) float64 {
			return loadConv(name, slot, idx, to)
		},
		storeFloat: func(name string, slot int, idx value, val func(*frame) float64) stmtFn {
			return storeConv(name, slot, idx, val, from)
		},
		scalar: func(_ int64, fl float64) any { return from(fl) }}
}

// checkSlice returns v itself (not a new interface value, which would
// allocate) when it is a []T.
func checkSlice[T any](v any) (any, bool) {
	_, ok := v.([]T)
	return v, ok
}

// convertScalar converts a Go number to the representation of type t.
func convertScalar(t ir.Type, v any) (int64, float64, bool) {
	var i int64
	var u uint64
	var fl float64
	var kind int // 0 signed, 1 unsigned, 2 float
	// reflect reads every kind of number, named types included, without
	// allocating.
	rv := reflect.ValueOf(v)
	if !rv.IsValid() {
		return 0, 0, false
	}
	switch h := v.(type) {
	case half.Float16:
		rv = reflect.ValueOf(h.ToFloat64())
	case half.BFloat16:
		rv = reflect.ValueOf(h.ToFloat64())
	}
	switch rv.Kind() {
	case reflect.Bool:
		if rv.Bool() {
			i = 1
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		i = rv.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		u, kind = rv.Uint(), 1
	case reflect.Float32, reflect.Float64:
		fl, kind = rv.Float(), 2
	default:
		return 0, 0, false
	}
	if t.IsFloat() {
		// As a Cast converts: an integer goes to float32 directly (not
		// through float64) unless t is float64.
		switch {
		case kind == 0 && t.Bits < 64:
			fl = float64(float32(i))
		case kind == 0:
			fl = float64(i)
		case kind == 1 && t.Bits < 64:
			fl = float64(float32(u))
		case kind == 1:
			fl = float64(u)
		}
		return 0, ir.RoundFloat(t, fl), true
	}
	switch kind {
	case 1:
		i = int64(u)
	case 2:
		if t.IsBool() {
			if fl != 0 {
				i = 1
			}
			return i, 0, true
		}
		i = ir.FloatToInt(fl, t)
	}
	return t.Wrap(i), 0, true
}

func sortedParams(m map[string]*paramSlot) []paramSlot {
	out := make([]paramSlot, 0, len(m))
	for _, p := range m {
		out = append(out, *p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

func sortedBuffers(m map[string]*bufInfo) []bufferSlot {
	out := make([]bufferSlot, 0, len(m))
	for _, b := range m {
		out = append(out, bufferSlot{BufferArg{b.name, b.t}, b.slot, b.atomic, sliceChecker(b.t)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}
