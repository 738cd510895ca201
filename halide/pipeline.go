package halide

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"runtime/debug"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/gohalide/gohalide/cfamily"
	"github.com/gohalide/gohalide/cpu"
	"github.com/gohalide/gohalide/emulator"
	"github.com/gohalide/gohalide/ir"
	"github.com/gohalide/gohalide/lower"
	"github.com/gohalide/gohalide/report"
)

// Error is the error type of everything a user can cause; see the ErrorCode
// constants. Use errors.As to inspect one.
type Error = ir.Error

// ErrorCode classifies an Error.
type ErrorCode = ir.ErrorCode

// The error codes (see ir.ErrorCode for each one's meaning).
const (
	ErrComputeAt          = ir.ErrComputeAt
	ErrUnknownVar         = ir.ErrUnknownVar
	ErrVarReused          = ir.ErrVarReused
	ErrReorderDuplicate   = ir.ErrReorderDuplicate
	ErrDefinition         = ir.ErrDefinition
	ErrType               = ir.ErrType
	ErrArgCount           = ir.ErrArgCount
	ErrUnbounded          = ir.ErrUnbounded
	ErrBufferShape        = ir.ErrBufferShape
	ErrUndefined          = ir.ErrUndefined
	ErrSchedule           = ir.ErrSchedule
	ErrDuplicateName      = ir.ErrDuplicateName
	ErrRuntime            = ir.ErrRuntime
	ErrOutOfBounds        = ir.ErrOutOfBounds
	ErrSharedRace         = ir.ErrSharedRace
	ErrDivergentBarrier   = ir.ErrDivergentBarrier
	ErrUninitializedRead  = ir.ErrUninitializedRead
	ErrSpecializeFail     = ir.ErrSpecializeFail
	ErrNilObject          = ir.ErrNilObject
	ErrBadType            = ir.ErrBadType
	ErrBadArgument        = ir.ErrBadArgument
	ErrBadName            = ir.ErrBadName
	ErrRedefinition       = ir.ErrRedefinition
	ErrCycle              = ir.ErrCycle
	ErrCanceled           = ir.ErrCanceled
	ErrAllocationTooLarge = ir.ErrAllocationTooLarge
	ErrExprTooLarge       = ir.ErrExprTooLarge
	ErrTuple              = ir.ErrTuple
	ErrNotAssociative     = ir.ErrNotAssociative
	ErrInternal           = ir.ErrInternal
)

// Options control lowering.
type Options struct {
	// Debug: 1 logs pass names, 2 also the statement after every pass, 3
	// also sub-steps. Zero reads the environment variable GOHALIDE_DEBUG.
	Debug int
	// Log receives debug output (default os.Stderr).
	Log io.Writer
	// Verify runs the IR verifier after every pass.
	Verify bool
	// StopAfter stops lowering after the named pass (see lower.Passes), to
	// inspect intermediate IR with Lower. Realize ignores it.
	StopAfter string
	// MaxAllocationBytes is the most memory a Realize may allocate for
	// its Funcs: on the host and in the emulator's threads it bounds the
	// allocations in use at once (an allocation counts while the code in
	// its scope runs); a shared allocation of the emulator and each
	// device buffer are checked alone. Going over it is an
	// ErrAllocationTooLarge error naming the Func and the size, instead of
	// exhausting memory. Zero means a quarter of the physical memory
	// (cpu.DefaultMaxAllocationBytes); a negative value, no limit.
	MaxAllocationBytes int64
	// Trace, if set, receives every store to a Func that traces its
	// stores (Func.TraceStores), on the host and in the emulator's kernel
	// threads, as Halide's trace_stores does; calls may be concurrent (a
	// Parallel loop, the threads of a kernel). The CUDA target does not
	// report them.
	Trace func(TraceEvent)
	// Limits are the GPU's limits (threads per block, shared memory): the
	// ones lowering checks schedules against and the emulator checks
	// launches against. Zero means an sm_90 device (ir.SM90).
	Limits ir.DeviceLimits
}

// TraceEvent is one store to a Func that traces its stores: the Func,
// the coordinates and the value stored (converted to float64).
type TraceEvent struct {
	Func   string
	Coords []int
	Value  float64
}

// traceHook adapts Options.Trace to the executors' hook (nil without one).
func (o Options) traceHook() func(fn string, coords []int64, value float64) {
	if o.Trace == nil {
		return nil
	}
	user := o.Trace
	return func(fn string, coords []int64, value float64) {
		c := make([]int, len(coords))
		for i, v := range coords {
			c[i] = int(v)
		}
		user(TraceEvent{Func: fn, Coords: c, Value: value})
	}
}

// Pipeline is the output Func with everything it depends on, ready to
// inspect, lower and realize. A Pipeline compiles at its first Realize (or
// Compile), and again when a definition or directive of one of its Funcs
// (or an input's In or SetBounds) changed since: Realize always runs the
// schedule that LoopNest and Lower show.
type Pipeline struct {
	out *Func
	// multi is the record of a pipeline with several outputs (outputs.go),
	// whose parts are pipelines of one output each.
	multi *outputs
	// asInputs are, in a part of a pipeline with several outputs, the
	// outputs computed before it, which it reads from their buffers.
	asInputs map[*Func][]*ImageParam
	// queried names the inputs (of asInputs) whose region read the
	// lowering works out (lower.Options.QueryInputs): the buffers of
	// Funcs several outputs read (outputs_shared.go).
	queried []string
	opts    Options
	target  Target
	// err is the error of a Pipeline method called on a nil *Pipeline,
	// carried by the Pipeline it returned.
	err error

	mu       sync.Mutex
	compiled *compiled
}

// NewPipeline returns the pipeline that computes outs: one output Func,
// or several (Halide's Pipeline({f, g})), each computed over its own
// buffer; RealizeTuple takes one buffer per value of each output, in the
// order given here. An output that another output reads is computed first
// and read from its buffer (the reads must lie inside it); see outputs.go
// for how several outputs are lowered.
func NewPipeline(outs ...*Func) *Pipeline {
	if len(outs) > 1 {
		return newOutputs(outs)
	}
	p := &Pipeline{}
	if len(outs) == 1 {
		p.out = outs[0]
	}
	return p
}

// WithOptions sets the lowering options and returns p.
func (p *Pipeline) WithOptions(o Options) *Pipeline {
	if p == nil {
		return nilPipeline("WithOptions")
	}
	p.opts = o
	return p
}

// nilPipeline returns the Pipeline a method of a nil *Pipeline returns:
// its methods return the error.
func nilPipeline(directive string) *Pipeline {
	return &Pipeline{err: errNilPipeline(directive)}
}

func errNilPipeline(directive string) error {
	return ir.Errorf(ir.ErrNilObject, "", directive, "%s of a nil *Pipeline", directive).
		WithLegal("a Pipeline made by NewPipeline")
}

// check returns the error that stops every method of p: a nil Pipeline, an
// unknown pass in Options.StopAfter or an unknown Target.
func (p *Pipeline) check(directive string) error {
	if p == nil {
		return errNilPipeline(directive)
	}
	if p.err != nil {
		return p.err
	}
	if n := p.opts.StopAfter; n != "" {
		known := false
		names := make([]string, len(lower.Passes))
		for i, pass := range lower.Passes {
			names[i] = pass.Name
			known = known || pass.Name == n
		}
		if !known {
			return ir.Errorf(ir.ErrBadArgument, "", "Options.StopAfter", "there is no pass called %q", n).
				WithLegal("one of %s", strings.Join(names, ", "))
		}
	}
	return checkTarget(p.target)
}

// Lowered is a lowered pipeline.
type Lowered struct {
	// Stmt is the lowered statement.
	Stmt ir.Stmt
	// LoopNest is the loop nest before bounds inference.
	LoopNest string
	res      *lower.Result
	b        *built
	// multi and parts are those of a pipeline with several outputs: the
	// Lowered of each part, in the order they run (Stmt is their block).
	multi *outputs
	plan  *plan
	parts []*Lowered
	// err is the error of WithStmt(nil) or of WithStmt on a nil Lowered,
	// which Realize returns.
	err error
	// edited marks a Lowered of WithStmt: its output query (made for the
	// lowered statement) is not run.
	edited bool
}

// String returns the lowered statement as text.
func (l *Lowered) String() string {
	if l != nil && l.multi != nil {
		var parts []string
		for k, pl := range l.parts {
			parts = append(parts, fmt.Sprintf("%s\n%s", l.plan.title(k), pl.String()))
		}
		return strings.Join(parts, "\n")
	}
	if l == nil || l.Stmt == nil {
		return ""
	}
	return ir.StmtString(l.Stmt)
}

// check returns why l cannot run: nil, not made by Pipeline.Lower, or a
// WithStmt(nil).
func (l *Lowered) check(directive string) error {
	switch {
	case l == nil:
		return ir.Errorf(ir.ErrNilObject, "", directive, "%s of a nil *Lowered", directive).WithLegal("a Lowered from Pipeline.Lower")
	case l.err != nil:
		return l.err
	case l.multi != nil:
		for _, pl := range l.parts {
			if err := pl.check(directive); err != nil {
				return err
			}
		}
		return nil
	case l.res == nil || l.b == nil:
		return ir.Errorf(ir.ErrNilObject, "", directive, "%s of a zero Lowered (one not made by Pipeline.Lower)", directive).WithLegal("a Lowered from Pipeline.Lower")
	case l.Stmt == nil:
		return ir.Errorf(ir.ErrNilObject, l.res.Output, directive, "the lowered statement is nil, so nothing would be computed").WithLegal("a statement from Lower, or one edited from it, in WithStmt")
	}
	return nil
}

// imageRef is an input: an *ImageParam or a *Buffer used directly.
type imageRef struct {
	name string
	t    Type
	dims int
	p    *ImageParam // nil for a Buffer used directly
	buf  BufferRef
}

type built struct {
	lp     *lower.Pipeline
	images []imageRef
	params []paramValue
	// funcs and inputs are the Funcs and ImageParams built, with their
	// generations then (see stale).
	funcs     []*Func
	gens      []uint64
	inputs    []*ImageParam
	inputGens []uint64
	// readsOutputShape is set when a Func or directive reads the output
	// buffer's shape (Func.Dim): values may then depend on the buffer,
	// which Realize does not grow (realize_grow.go).
	readsOutputShape bool
}

// stale reports whether a Func or input of b changed since b was built.
func (b *built) stale() bool {
	for i, f := range b.funcs {
		if f.gen != b.gens[i] {
			return true
		}
	}
	for i, p := range b.inputs {
		if p.gen != b.inputGens[i] {
			return true
		}
	}
	return false
}

func recoverInternal(where string, err *error) {
	if r := recover(); r != nil {
		*err = &ir.Error{Code: ir.ErrInternal, Directive: where, Msg: fmt.Sprintf("compiler bug: %v\n%s", r, debug.Stack())}
	}
}

// rewriteWrapped redirects, in consumer g's definitions, calls to Funcs
// that have a wrapper for g.
func rewriteWrapped(g *Func, e ir.Expr) ir.Expr {
	var mut func(ir.Expr) ir.Expr
	mut = func(e ir.Expr) ir.Expr {
		e = ir.MapExpr(e, mut)
		if c, ok := e.(*ir.Call); ok && c.Kind == ir.CallImage {
			if p, ok := c.Ref.(*ImageParam); ok {
				if w, ok := wrapperFor(p.wrappers, g); ok {
					nc := *c
					nc.Kind, nc.Name, nc.Ref = ir.CallFunc, w.fn.Name, w
					return &nc
				}
			}
		}
		if c, ok := e.(*ir.Call); ok && c.Kind == ir.CallFunc {
			if f, ok := c.Ref.(*Func); ok && f != g { // an update's reads of its own Func stay
				// Follow wrappers of wrappers: g.In(h).In(h) wraps the wrapper.
				w := f
				for i := 0; i < 64; i++ {
					next, ok := wrapperFor(w.wrappers, g)
					if !ok {
						break
					}
					w = next
				}
				if w != f {
					nc := *c
					nc.Name, nc.Ref = w.fn.Name, w
					return &nc
				}
			}
		}
		return e
	}
	return mut(e)
}

func (p *Pipeline) build() (*built, error) {
	if p.out == nil {
		return nil, ir.Errorf(ir.ErrUndefined, "", "NewPipeline", "the pipeline has no output Func")
	}
	var order []*Func
	fns := map[*Func]*ir.Function{}
	state := map[*Func]int{} // 1 visiting, 2 done
	byName := map[string]any{}
	claim := func(name string, obj any, what string) error {
		if prev, ok := byName[name]; ok && prev != obj {
			return ir.Errorf(ir.ErrDuplicateName, name, "pipeline", "two different objects (%s and another) are both called %s", what, name).
				WithLegal("give every input and Param a distinct name")
		}
		byName[name] = obj
		return nil
	}
	var images []imageRef
	readsShape := false
	var params []paramValue
	noteLeaves := func(e ir.Expr) error {
		var err error
		ir.WalkExpr(e, func(x ir.Expr) bool {
			if err != nil {
				return false
			}
			var ref any
			switch x := x.(type) {
			case *ir.Call:
				if x.Kind == ir.CallImage {
					ref = x.Ref
				}
			case *ir.Var:
				ref = x.Param
			}
			switch r := ref.(type) {
			case *ImageParam:
				if byName[r.name] != r {
					if err = r.Err(); err != nil {
						return false
					}
					if err = claim(r.name, r, "an input"); err == nil {
						images = append(images, imageRef{name: r.name, t: r.t, dims: r.dims, p: r})
						for _, b := range r.bounds {
							for _, be := range []Expr{b.min, b.extent} {
								if be.node != nil {
									params = append(params, paramsIn(be.node)...)
								}
							}
						}
					}
				}
			case BufferRef:
				if byName[r.Name()] != r {
					if err = claim(r.Name(), r, "a buffer"); err == nil {
						images = append(images, imageRef{name: r.Name(), t: r.ElemType(), dims: len(r.Shape()), buf: r})
					}
				}
			case outputDim:
				// An output buffer's shape (Func.Dim): this pipeline's
				// output's.
				if err = checkOutputDim(r, p.out); err != nil {
					return false
				}
				readsShape = true
			case paramValue:
				if byName[r.Name()] != r {
					if err = claim(r.Name(), r, "a Param"); err == nil {
						params = append(params, r)
					}
				}
			}
			return true
		})
		return err
	}
	// Funcs get distinct names, as Halide's unique_name gives them (a
	// helper that makes a Func "blur" may be called twice): the first Func
	// visited, the output first, keeps its name, a later one of the same
	// name gets the first free name_1, name_2, .... A Func named as an
	// input or a Param is renamed below.
	funcNames := map[*Func]string{}
	funcOf := map[string]*Func{}
	nameFunc := func(f *Func) string {
		name := firstFree(f.fn.Name, func(n string) bool { return funcOf[n] != nil })
		funcOf[name], funcNames[f] = f, name
		return name
	}
	var stack []*Func // the Funcs being visited, consumers first
	var visit func(f *Func) error
	visit = func(f *Func) error {
		switch state[f] {
		case 1:
			return cycleError(stack, f)
		case 2:
			return nil
		}
		state[f] = 1
		if f.err != nil {
			return f.err
		}
		if err := f.nilErr("pipeline"); err != nil {
			return err
		}
		if f.fn.Pure == nil {
			return ir.Errorf(ir.ErrUndefined, f.fn.Name, "pipeline", "%s has no definition", f.fn.Name)
		}
		name := nameFunc(f)
		c := *f.fn
		c.Pure = nil
		c.Updates = nil
		var callees []*Func
		seen := map[*Func]bool{}
		for i, d := range f.fn.Stages() {
			nd := *d
			nd.Args = make([]ir.Expr, len(d.Args))
			for j, a := range d.Args {
				nd.Args[j] = p.readOutputs(rewriteWrapped(f, a))
			}
			// A value whose nodes are shared (built in Go from one Expr
			// used many times) gets Lets first (shared_exprs.go).
			prefix := fmt.Sprintf("%s.s%d", name, i)
			nd.Value = p.readOutputs(rewriteWrapped(f, bindSharedValue(d.Value, prefix)))
			if d.Predicate != nil {
				nd.Predicate = p.readOutputs(rewriteWrapped(f, bindShared(d.Predicate, prefix+".p")))
			}
			exprs := append(append([]ir.Expr{}, nd.Args...), nd.Evaluated()...)
			if d.RDom != nil {
				for _, rv := range d.RDom.Vars {
					exprs = append(exprs, rv.Min, rv.Extent)
				}
			}
			for _, e := range exprs {
				if err := noteLeaves(e); err != nil {
					return err
				}
				ir.WalkExpr(e, func(x ir.Expr) bool {
					if call, ok := x.(*ir.Call); ok && call.Kind == ir.CallFunc {
						if g, ok := call.Ref.(*Func); ok && g != f && !seen[g] {
							seen[g] = true
							callees = append(callees, g)
						}
					}
					return true
				})
			}
			for _, c := range specConds(d) {
				if err := noteLeaves(c); err != nil {
					return err
				}
			}
			// A prefetch's offset may read Params.
			for _, cd := range d.Cases() {
				for _, p := range cd.Schedule.Prefetches {
					if err := noteLeaves(p.Offset); err != nil {
						return err
					}
				}
			}
			if i == 0 {
				c.Pure = &nd
			} else {
				c.Updates = append(c.Updates, &nd)
			}
		}
		for _, b := range f.fn.Schedule.Bounds {
			if err := noteLeaves(b.Min); err != nil {
				return err
			}
			if err := noteLeaves(b.Extent); err != nil {
				return err
			}
		}
		if err := checkOutputBounds(f, p.out); err != nil {
			return err
		}
		for _, b := range f.fn.Schedule.OutputBounds {
			for _, e := range []ir.Expr{b.Min, b.Extent} {
				if err := noteLeaves(e); err != nil {
					return err
				}
			}
		}
		stack = append(stack, f)
		for _, g := range callees {
			if err := visit(g); err != nil {
				return err
			}
		}
		stack = stack[:len(stack)-1]
		state[f] = 2
		fns[f] = &c
		order = append(order, f)
		return nil
	}
	if err := visit(p.out); err != nil {
		return nil, err
	}
	// A wrapper made for a consumer of this pipeline must be used by it:
	// In() on a Func or input the consumer does not read at all (In and
	// CloneIn give a consumer that reads it through other Funcs the
	// wrapper in those Funcs, wrap_callers.go; one defined after the call
	// keeps it as named) would be ignored.
	unused := func(what string, wrappers map[*Func]*Func) error {
		for g, w := range wrappers {
			if state[g] == 2 && state[w] != 2 {
				if w.clone {
					return ir.Errorf(ir.ErrSchedule, g.fn.Name, "clone_in", "%s.CloneIn(%s) made the clone %s, but %s does not read %s, directly or through other Funcs, so the clone is never used", what, g.fn.Name, w.fn.Name, g.fn.Name, what).
						WithLegal("clone a Func that %s reads, directly or through other Funcs (defined before CloneIn)", g.fn.Name)
				}
				return ir.Errorf(ir.ErrSchedule, g.fn.Name, "in", "%s.In(%s) made the wrapper %s, but %s does not read %s, directly or through other Funcs, so the wrapper is never used", what, g.fn.Name, w.fn.Name, g.fn.Name, what).
					WithLegal("wrap a Func or input that %s reads, directly or through other Funcs (defined before In)", g.fn.Name)
			}
		}
		return nil
	}
	for _, f := range order {
		if err := unused(f.fn.Name, f.wrappers); err != nil {
			return nil, err
		}
	}
	for _, im := range images {
		if im.p != nil {
			if err := unused(im.name, im.p.wrappers); err != nil {
				return nil, err
			}
		}
	}
	// A Func named as an input or a Param gets a free name_1, name_2, ...;
	// the anonymous Funcs (inline reductions, boundary conditions) are
	// named by their kind, in realization order.
	taken := map[string]bool{}
	for _, f := range order {
		if !f.fn.Anonymous {
			taken[funcNames[f]] = true
		}
	}
	leaves := map[string]bool{}
	for _, im := range images {
		taken[im.name], leaves[im.name] = true, true
	}
	for _, pv := range params {
		taken[pv.Name()], leaves[pv.Name()] = true, true
	}
	fresh := func(base string) string {
		name := firstFree(base, func(n string) bool { return taken[n] })
		taken[name] = true
		return name
	}
	for _, f := range order {
		switch {
		case f.fn.Anonymous:
			funcNames[f] = fresh(f.fn.Name[:strings.LastIndex(f.fn.Name, "$")])
		case leaves[funcNames[f]]:
			funcNames[f] = fresh(funcNames[f])
		}
	}
	lp := &lower.Pipeline{Funcs: map[string]*ir.Function{}}
	for _, f := range order {
		fn := fns[f]
		resolveNames(fn, funcNames[f], funcNames)
		lp.Funcs[fn.Name] = fn
		lp.Order = append(lp.Order, fn.Name)
	}
	lp.Output = fns[p.out].Name
	for _, im := range images {
		in := lower.Input{Name: im.name, T: im.t, Dims: im.dims}
		if im.p != nil {
			for _, b := range im.p.bounds {
				var r ir.Range
				if b.min.node != nil && b.min.err == nil {
					r.Min = convert(Int32, b.min).node
				}
				if b.extent.node != nil && b.extent.err == nil {
					r.Extent = convert(Int32, b.extent).node
				}
				in.Bounds = append(in.Bounds, r)
			}
		}
		lp.Inputs = append(lp.Inputs, in)
	}
	sort.Slice(params, func(i, j int) bool { return params[i].Name() < params[j].Name() })
	params = dedupParams(params)
	for _, pv := range params {
		lp.Params = append(lp.Params, lower.Param{Name: pv.Name(), T: pv.typ()})
	}
	b := &built{lp: lp, images: images, params: params, readsOutputShape: readsShape}
	for _, f := range order {
		b.funcs = append(b.funcs, f)
		b.gens = append(b.gens, f.gen)
	}
	for _, im := range images {
		if im.p != nil {
			b.inputs = append(b.inputs, im.p)
			b.inputGens = append(b.inputGens, im.p.gen)
		}
	}
	return b, nil
}

// cycleError is the error of Funcs that call each other: stack holds the
// Funcs being visited, consumers first, and g (on it) is called again.
func cycleError(stack []*Func, g *Func) error {
	i := len(stack) - 1
	for i > 0 && stack[i] != g {
		i--
	}
	var names []string
	for _, f := range stack[i:] {
		names = append(names, f.fn.Name)
	}
	names = append(names, g.fn.Name)
	return ir.Errorf(ir.ErrCycle, g.fn.Name, "pipeline", "the Funcs call each other in a cycle (%s), so none of them can be computed first", strings.Join(names, " calls ")).
		WithLegal("Funcs that form a graph without cycles: a Func may read itself only in its own updates")
}

func dedupParams(ps []paramValue) []paramValue {
	var out []paramValue
	for i, p := range ps {
		if i > 0 && ps[i-1] == p {
			continue
		}
		out = append(out, p)
	}
	return out
}

func paramsIn(e ir.Expr) []paramValue {
	var out []paramValue
	ir.WalkExpr(e, func(x ir.Expr) bool {
		if v, ok := x.(*ir.Var); ok {
			if pv, ok := v.Param.(paramValue); ok {
				out = append(out, pv)
			}
		}
		return true
	})
	return out
}

// renameFunction renames anonymous Funcs in fn (its name, its calls, its
// loop levels, its prefetches' sources and the Funcs its stages are
// computed with).
// firstFree is base, or the first of base_1, base_2, ... that is not used.
func firstFree(base string, used func(string) bool) string {
	name := base
	for i := 1; used(name); i++ {
		name = fmt.Sprintf("%s_%d", base, i)
	}
	return name
}

// resolveNames gives fn, the pipeline's copy of the definitions of a
// Func, the pipeline's names (names, by Func): its own (name), those of
// the Funcs its expressions read and of the output buffer shape they read
// (Func.Dim), of the consumers of its loop levels and of its compute_with
// and prefetch directives. It clears the front end's handles
// (ir.LoopLevel.Ref and the like), so that no pass sees them. A handle of
// a Func outside the pipeline keeps the name the user gave it. What it
// changes that the user's Func still holds (RDoms, specializations,
// directives) it copies first.
func resolveNames(fn *ir.Function, name string, names map[*Func]string) {
	fn.Name = name
	nameOf := func(ref any, name string) string {
		if f, ok := ref.(*Func); ok {
			if n, ok := names[f]; ok {
				return n
			}
		}
		return name
	}
	var mut func(ir.Expr) ir.Expr
	mut = func(e ir.Expr) ir.Expr {
		if e == nil {
			return nil
		}
		e = ir.MapExpr(e, mut)
		switch x := e.(type) {
		case *ir.Call:
			if x.Kind != ir.CallFunc {
				break
			}
			if n := nameOf(x.Ref, x.Name); n != x.Name {
				nc := *x
				nc.Name = n
				return &nc
			}
		case *ir.Var:
			// The output buffer's shape (Func.Dim): f.min.0, ... are
			// named after the output Func.
			if d, ok := x.Param.(outputDim); ok {
				if n := nameOf(d.f, d.f.fn.Name); n != d.f.fn.Name && strings.HasPrefix(x.Name, d.f.fn.Name+".") {
					nv := *x
					nv.Name = n + x.Name[len(d.f.fn.Name):]
					return &nv
				}
			}
		}
		return e
	}
	for _, d := range fn.Stages() {
		for i, a := range d.Args {
			d.Args[i] = mut(a)
		}
		d.Value, d.Predicate = mut(d.Value), mut(d.Predicate)
		if d.RDom != nil {
			r := *d.RDom
			r.Vars = slices.Clone(r.Vars)
			for i := range r.Vars {
				r.Vars[i].Min, r.Vars[i].Extent = mut(r.Vars[i].Min), mut(r.Vars[i].Extent)
			}
			r.Predicate = mut(r.Predicate)
			if r.Predicate != d.RDom.Predicate || !slices.Equal(r.Vars, d.RDom.Vars) {
				d.RDom = &r
			}
		}
		resolveCase(d, mut, nameOf)
	}
	sc := &fn.Schedule
	for _, l := range []*ir.LoopLevel{&sc.Compute, &sc.Store, &sc.Hoist} {
		l.Func, l.Ref = nameOf(l.Ref, l.Func), nil
	}
	sc.Bounds = slices.Clone(sc.Bounds)
	for i := range sc.Bounds {
		sc.Bounds[i].Min, sc.Bounds[i].Extent = mut(sc.Bounds[i].Min), mut(sc.Bounds[i].Extent)
	}
	sc.OutputBounds = slices.Clone(sc.OutputBounds)
	for i := range sc.OutputBounds {
		sc.OutputBounds[i].Min, sc.OutputBounds[i].Extent = mut(sc.OutputBounds[i].Min), mut(sc.OutputBounds[i].Extent)
	}
}

// resolveCase resolves the names in the schedule of case d of a stage
// (the stage itself, the pipeline's copy, at the top) and in its
// specializations, theirs and their cases', recursively: conditions
// (mut), prefetches and compute_with (nameOf). The cases are still the
// user's: it copies them.
func resolveCase(d *ir.Definition, mut func(ir.Expr) ir.Expr, nameOf func(ref any, name string) string) {
	if len(d.Schedule.Prefetches) > 0 {
		ps := slices.Clone(d.Schedule.Prefetches)
		for i, p := range ps {
			if !p.Input {
				ps[i].Source = nameOf(p.SourceRef, p.Source)
			}
			ps[i].SourceRef, ps[i].Offset = nil, mut(p.Offset)
		}
		d.Schedule.Prefetches = ps
	}
	if cw := d.Schedule.ComputeWith; cw != nil {
		c := *cw
		c.Func, c.Ref = nameOf(cw.Ref, cw.Func), nil
		d.Schedule.ComputeWith = &c
	}
	if len(d.Specializations) == 0 {
		return
	}
	specs := slices.Clone(d.Specializations)
	for i := range specs {
		specs[i].Cond = mut(specs[i].Cond)
		if specs[i].Def != nil {
			c := *specs[i].Def
			resolveCase(&c, mut, nameOf)
			specs[i].Def = &c
		}
	}
	d.Specializations = specs
}

// Lower runs the lowering passes and returns the lowered statement.
func (p *Pipeline) Lower() (l *Lowered, err error) {
	return p.LowerContext(context.Background())
}

// LowerContext is Lower stopping when ctx is done: the passes that can
// take long check ctx as they go and return an ErrCanceled error, and
// leave nothing running.
func (p *Pipeline) LowerContext(ctx context.Context) (l *Lowered, err error) {
	if err := p.check("Lower"); err != nil {
		return nil, err
	}
	return p.lower(ctx, p.opts.StopAfter)
}

func (p *Pipeline) lower(ctx context.Context, stopAfter string) (l *Lowered, err error) {
	defer recoverInternal("Lower", &err)
	if err := p.check("Lower"); err != nil {
		return nil, err
	}
	if p.multi != nil {
		return p.multi.lowerAll(p, ctx, stopAfter)
	}
	b, err := p.build()
	if err != nil {
		return nil, err
	}
	res, err := lower.Lower(b.lp, lower.Options{Context: ctx, Debug: p.opts.Debug, Log: p.opts.Log, Verify: p.opts.Verify, StopAfter: stopAfter, Limits: p.opts.Limits, QueryInputs: p.queried})
	if err != nil {
		return nil, err
	}
	return &Lowered{Stmt: res.Stmt, LoopNest: res.LoopNest, res: res, b: b}, nil
}

// LoopNest returns the loop nest the schedule makes (before bounds
// inference), like Halide's print_loop_nest.
func (p *Pipeline) LoopNest() (string, error) {
	l, err := p.Lower()
	if err != nil {
		return "", err
	}
	return l.LoopNest, nil
}

type compiled struct {
	l    *Lowered
	prog *cpu.Program
	// query is the compiled output query (realize_grow.go); nil for a
	// statement without one.
	query *cpu.Program
	// inputQueries are the compiled input queries, by input
	// (outputs_shared.go).
	inputQueries map[string]*cpu.Program
	// verify (Options.Verify) makes a failure of the query an error.
	verify   bool
	launcher launcher
	// resident is set while benchmarking: the device keeps its buffers
	// and none is marked changed between runs.
	resident bool

	mu       sync.Mutex
	launches map[string]report.Launch // the last launch of each kernel
}

// Compile lowers the pipeline and prepares it to run (Realize does this on
// first use).
func (p *Pipeline) Compile() (err error) {
	return p.CompileContext(context.Background())
}

// CompileContext is Compile stopping when ctx is done (see LowerContext).
func (p *Pipeline) CompileContext(ctx context.Context) (err error) {
	if err := p.check("Compile"); err != nil {
		return err
	}
	if p.multi != nil {
		defer recoverInternal("Compile", &err)
		_, err = p.multi.compileAll(p, ctx)
		return err
	}
	_, err = p.compile(ctx)
	return err
}

func (p *Pipeline) compile(ctx context.Context) (c *compiled, err error) {
	if err := p.check("Compile"); err != nil {
		return nil, err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.compiled != nil && !p.compiled.l.b.stale() {
		return p.compiled, nil
	}
	p.compiled = nil
	defer recoverInternal("Compile", &err)
	l, err := p.lower(ctx, "")
	if err != nil {
		return nil, err
	}
	if p.compiled, err = l.compile(p.target, p.opts); err != nil {
		return nil, err
	}
	return p.compiled, nil
}

// compile prepares a lowered statement to run: the host code on the CPU,
// kernels on the target.
func (l *Lowered) compile(t Target, opts Options) (*compiled, error) {
	lr, err := newLauncher(t, opts.traceHook(), opts.Limits)
	if err != nil {
		return nil, err
	}
	c := &compiled{l: l, launcher: lr, launches: map[string]report.Launch{}, verify: opts.Verify}
	// Buffers the host code writes (Funcs computed on the host, between
	// launches) change under the device's copy: each launch that takes one
	// uploads it again.
	// The host's own allocations that it never writes are written only by
	// kernels: their device copies need no upload.
	hostWritten, hostAllocated := map[string]bool{}, map[string]bool{}
	ir.WalkStmt(l.Stmt, func(s ir.Stmt) bool {
		switch s := s.(type) {
		case *ir.Store:
			hostWritten[s.Buf] = true
		case *ir.Allocate:
			hostAllocated[s.Name] = true
		}
		return true
	}, nil)
	d, isDevice := lr.(CUDADevice)
	if ks := l.Kernels(); isDevice && len(ks) > 0 {
		// The device compiles the text Lowered.CUDA prints, not a
		// version of its own.
		src, err := cudaSource(ks)
		if err != nil {
			return nil, err
		}
		if err := d.Load(src, ks); err != nil {
			return nil, deviceError("Compile (CUDA)", err)
		}
	}
	var release func(ctx any, buf any)
	if isDevice {
		// An allocation of the host code that ends gives its device
		// copy back (the device reuses the memory for the next run's).
		release = func(_ any, buf any) { d.Release(buf) }
	}
	prog, err := cpu.CompileWith(l.Stmt, cpu.Options{
		Trace:   opts.traceHook(),
		Release: release,
		Launch: func(ctx any, k *ir.Kernel, grid, block [3]int, scalars, buffers map[string]any) error {
			c.mu.Lock()
			l := report.Launch{Grid: grid, Block: block}
			if dynamicSizes(k) {
				// The report evaluates the sizes known only at launch.
				l.Scalars = ir.ScalarConsts(scalars)
			}
			c.launches[k.Name] = l
			c.mu.Unlock()
			if isDevice {
				for name, b := range buffers {
					switch {
					case hostWritten[name]:
						d.MarkHostDirty(b)
					case hostAllocated[name]:
						d.MarkDeviceOnly(b)
					}
				}
			}
			env, _ := ctx.(*cpu.Env)
			return c.launcher.LaunchEnv(env, k, grid, block, scalars, buffers)
		},
	})
	if err != nil {
		return nil, &ir.Error{Code: ir.ErrInternal, Directive: "cpu.Compile", Msg: err.Error()}
	}
	c.prog = prog
	if q := l.res.OutputQuery; q != nil && !l.edited && l.b != nil && !l.b.readsOutputShape {
		if c.query, err = cpu.Compile(q); err != nil {
			if opts.Verify {
				return nil, &ir.Error{Code: ir.ErrInternal, Directive: "cpu.Compile (output query)", Msg: err.Error()}
			}
			// Without the query Realize only refuses an output buffer
			// smaller than what the schedule writes.
			c.query = nil
		}
	}
	if err := c.compileInputQueries(l); err != nil {
		return nil, err
	}
	return c, nil
}

// WithStmt returns a copy of l whose statement is s: a lowered program
// edited by hand (for experiments, or to check that the emulator catches a
// planted bug). Run it with Realize.
//
// A nil s, or a nil l, gives a Lowered whose Realize returns an
// ErrNilObject error.
func (l *Lowered) WithStmt(s ir.Stmt) *Lowered {
	if l == nil {
		return &Lowered{err: l.check("WithStmt")}
	}
	if l.multi != nil {
		return &Lowered{err: ir.Errorf(ir.ErrBadArgument, l.multi.funcs[0].fn.Name, "WithStmt", "WithStmt of a pipeline with %d outputs, lowered as one statement per output", len(l.multi.funcs)).
			WithLegal("WithStmt on the Lowered of a pipeline of one output")}
	}
	c := *l
	c.Stmt = s
	c.edited = true
	if s == nil && c.err == nil {
		fn := ""
		if l.res != nil {
			fn = l.res.Output
		}
		c.err = ir.Errorf(ir.ErrNilObject, fn, "WithStmt", "WithStmt(nil): the statement to run is nil, so Realize would compute nothing").
			WithLegal("a statement from Lower (Lowered.Stmt), or one edited from it")
	}
	return &c
}

// Realize runs this lowered statement into out, with the inputs and Params
// of the pipeline it came from. Its kernels run on the GPU emulator (this
// is for inspecting and checking edited statements, not for speed).
//
// The output buffer after a failed Realize is as Pipeline.Realize says.
func (l *Lowered) Realize(out BufferRef) error { return l.realize("Realize", out) }

// RealizeTuple is Realize of a Tuple output, into one buffer per value
// (see Pipeline.RealizeTuple).
func (l *Lowered) RealizeTuple(outs ...BufferRef) error { return l.realize("RealizeTuple", outs...) }

// realize is Realize and RealizeTuple, the method's name in errors.
func (l *Lowered) realize(method string, outs ...BufferRef) (err error) {
	defer recoverInternal(method, &err)
	if err := l.check(method); err != nil {
		return err
	}
	if l.multi != nil {
		if method == "Realize" {
			return l.multi.errSeveralOutputs(method)
		}
		cs := make([]*compiled, len(l.parts))
		comp := func(k int) (*compiled, error) {
			if cs[k] == nil {
				c, err := l.parts[k].compile(Emulator, Options{})
				if err != nil {
					return nil, err
				}
				cs[k] = c
			}
			return cs[k], nil
		}
		return l.multi.realizeAll(l.plan, 0, method, outs, comp, func(k int, bufs []BufferRef) error {
			c, err := comp(k)
			if err != nil {
				return err
			}
			return c.run(bufs...)
		})
	}
	c, err := l.compile(Emulator, Options{})
	if err != nil {
		return err
	}
	return c.run(outs...)
}

// Kernels returns the GPU kernels of the lowered pipeline (none for a nil
// or zero Lowered).
func (l *Lowered) Kernels() []*ir.Kernel {
	if l != nil && l.multi != nil {
		var ks []*ir.Kernel
		for _, pl := range l.parts {
			ks = append(ks, pl.Kernels()...)
		}
		return ks
	}
	if l == nil || l.res == nil {
		return nil
	}
	return l.res.Kernels
}

// CUDA returns the CUDA C source of the pipeline's kernels, one
// extern "C" __global__ function per kernel: exactly the text the CUDA
// target compiles (cfamily.CUDATargetSource). Float multiplies and adds in
// it may contract into FMAs, so the GPU's results can differ from the
// emulator's in the last bits, except in a kernel that holds a
// StrictFloat, which rounds every operation as the CPU does;
// cfamily.CUDASource gives that form for every kernel.
func (l *Lowered) CUDA() (src string, err error) {
	defer recoverInternal("CUDA", &err)
	if l != nil && l.multi != nil {
		// One translation unit per output (the parts compile apart,
		// and a Func two outputs read has a kernel in each).
		var srcs []string
		for k, pl := range l.parts {
			src, err := pl.CUDA()
			if err != nil {
				return "", err
			}
			srcs = append(srcs, fmt.Sprintf("%s\n%s", l.plan.title(k), src))
		}
		return strings.Join(srcs, "\n"), nil
	}
	if l == nil || l.res == nil {
		return "", l.check("CUDA")
	}
	return cudaSource(l.Kernels())
}

// cudaSource is the one place the CUDA target's source is made: both
// Lowered.CUDA and the device's Load take it from here.
func cudaSource(kernels []*ir.Kernel) (string, error) {
	return cfamily.CUDATargetSource(kernels...)
}

// Report describes the pipeline's kernels: launch dimensions (with their
// values in the last Realize, if any), shared and register allocations and
// barriers. A pipeline without GPU schedules has no kernels. If a
// schedule changed since the last Realize, Report compiles the new one
// and its kernels have no launch values yet.
//
// On the CUDA target, each kernel launched since the pipeline compiled
// also says what its compiled code uses (KernelReport.Compiled: registers,
// local memory, static shared memory, as the driver reports them). On the
// emulator Compiled is nil: it compiles no GPU code to measure.
func (p *Pipeline) Report() (r []report.KernelReport, err error) {
	defer recoverInternal("Report", &err)
	if p != nil && p.err == nil && p.multi != nil {
		return p.multi.report(p)
	}
	c, err := p.compile(context.Background())
	if err != nil {
		return nil, err
	}
	kernels := c.l.Kernels()
	c.mu.Lock()
	r = report.Report(kernels, c.launches)
	launched := make([]bool, len(kernels))
	for i, k := range kernels {
		_, launched[i] = c.launches[k.Name]
	}
	c.mu.Unlock()
	if m, ok := c.launcher.(CUDADevice); ok {
		for i, k := range kernels {
			// A kernel not launched was not compiled for the device:
			// the report does not compile it to measure it. One whose
			// compilation failed (Realize said so) has nothing to
			// measure either.
			if !launched[i] {
				continue
			}
			if info, err := m.Attributes(k); err == nil {
				r[i].Compiled = &info
			}
		}
	}
	return r, nil
}

// Realize computes the output into out, whose shape (dimensions, mins and
// extents) says which region to compute. Inputs and Params must have been
// Set. If a Func changed since the last Realize, the pipeline compiles
// again first.
//
// After a failed Realize, out holds what the run wrote before it stopped.
// An error found before the run (a bad schedule, a buffer of the wrong
// shape or type, a Param or input not Set) leaves out untouched. An error
// during the run (an assertion, an access out of bounds, an emulator
// finding) stops it where it happened: the elements computed before are
// written and the others keep their old values, in no order a program
// should depend on (kernels and parallel loops run in any order). Treat
// the contents as undefined.
func (p *Pipeline) Realize(out BufferRef) error {
	return p.RealizeContext(context.Background(), out)
}

// RealizeContext is Realize stopping when ctx is done: the CPU code and
// the emulator stop within a loop iteration or a block, and the error is
// an ErrCanceled error that wraps ctx.Err() (errors.Is(err,
// context.Canceled) or context.DeadlineExceeded holds). A kernel already
// running on a GPU is not interrupted; the run stops before the next
// launch. The output buffer is then partly written, as after any failed
// Realize.
func (p *Pipeline) RealizeContext(ctx context.Context, out BufferRef) (err error) {
	return p.realize(ctx, "Realize", []BufferRef{out})
}

// RealizeTuple runs the pipeline of a Tuple output into one buffer per
// value (Halide's Realization): outs[i] receives value i and holds its
// type; all have the same dimensions, mins and extents (their strides may
// differ). Each value's buffer is called f.i (ir.TupleElem) in the lowered
// statement. On an output of one value it is Realize.
func (p *Pipeline) RealizeTuple(outs ...BufferRef) error {
	return p.RealizeTupleContext(context.Background(), outs...)
}

// RealizeTupleContext is RealizeTuple stopping when ctx is done, as
// RealizeContext.
func (p *Pipeline) RealizeTupleContext(ctx context.Context, outs ...BufferRef) error {
	return p.realize(ctx, "RealizeTuple", outs)
}

func (p *Pipeline) realize(ctx context.Context, directive string, outs []BufferRef) (err error) {
	defer recoverInternal(directive, &err)
	if p != nil && p.err == nil && p.multi != nil {
		if directive == "Realize" {
			return p.multi.errSeveralOutputs(directive)
		}
		pl, err := p.multi.compileAll(p, ctx)
		if err != nil {
			return err
		}
		return p.multi.realizeAll(pl, p.opts.MaxAllocationBytes, directive, outs, func(k int) (*compiled, error) {
			return pl.parts[k].compile(ctx)
		}, func(k int, bufs []BufferRef) error {
			return pl.parts[k].realize(ctx, directive, bufs)
		})
	}
	c, err := p.compile(ctx)
	if err != nil {
		return err
	}
	env, release := cpu.NewEnv(ctx, p.opts.MaxAllocationBytes)
	defer release()
	return c.runEnv(env, outs...)
}

func (c *compiled) run(outs ...BufferRef) error { return c.runEnv(nil, outs...) }

// runEnv runs the pipeline into outs (one buffer per value of the output)
// in env (nil: not cancelable, the default allocation limit).
func (c *compiled) runEnv(env *cpu.Env, outs ...BufferRef) error {
	return c.runDepth(env, 0, outs...)
}

// runDepth is runEnv after depth growths of the output (realize_grow.go).
func (c *compiled) runDepth(env *cpu.Env, depth int, outs ...BufferRef) error {
	scalars, buffers, err := c.bind(outs)
	if err != nil {
		return err
	}
	if c.query != nil && !c.resident && depth < maxGrowths {
		// A schedule may write past the buffers (a tail, a scatter):
		// realize into buffers of the region it writes and copy back, as
		// Halide's realize(sizes).
		shape, larger, err := c.outputNeed(env, outs[0], scalars, buffers)
		switch {
		case err != nil && c.verify && !env.Stopped():
			return &ir.Error{Code: ir.ErrInternal, Func: c.l.res.Output, Directive: "Realize (output query)", Msg: err.Error(), Cause: err}
		case err == nil && larger:
			return c.runGrown(env, outs, shape, depth)
		}
	}
	name := c.l.res.Output
	if d, ok := c.launcher.(CUDADevice); ok && !c.resident {
		// The host may have changed any buffer since the last run: the
		// device uploads each again before a kernel reads it.
		for _, b := range buffers {
			d.MarkHostDirty(b)
		}
	}
	// The host's hook context is env, which the launches pass on.
	if err := c.prog.RunEnv(env, env, scalars, buffers); err != nil {
		var ce *cpu.Error
		var ee *emulator.EmulatorError
		var ue *ir.Error
		switch {
		case env.Stopped():
			return &ir.Error{Code: ir.ErrCanceled, Func: name, Directive: "Realize", Msg: fmt.Sprintf("stopped: %v", env.Err()), Cause: env.Err()}
		case errors.As(err, &ce) && ce.Kind == cpu.AllocationTooLarge:
			e := ir.Errorf(ir.ErrAllocationTooLarge, ce.Buffer, "Realize", "%s", ce.Msg).
				WithLegal("at most Options.MaxAllocationBytes = %d bytes in use at once: raise the limit, or compute %s in smaller pieces (compute_at inside a tile loop)", env.MaxAllocationBytes(), ce.Buffer)
			e.Cause = err
			return e
		case errors.As(err, &ue):
			// A run-time check of a user's rule (a size known only at
			// launch) reports its own typed error.
			return ue
		case errors.As(err, &ee):
			return &ir.Error{Code: emulatorCode(ee), Func: name, Directive: "Realize (GPU emulator)", Msg: ee.Error(), Cause: err}
		case errors.As(err, &ce):
			return &ir.Error{Code: cpuCode(ce), Func: name, Directive: "Realize", Msg: ce.Error(), Cause: err}
		}
		return &ir.Error{Code: ir.ErrRuntime, Func: name, Directive: "Realize", Msg: err.Error(), Cause: err}
	}
	return nil
}

// emulatorCode is the error code of an emulator finding: its own code for
// a race, a divergent barrier, an uninitialized shared read or an access
// out of bounds, ErrRuntime for the others.
func emulatorCode(e *emulator.EmulatorError) ir.ErrorCode {
	switch e.Kind {
	case emulator.OutOfBounds:
		return ir.ErrOutOfBounds
	case emulator.SharedRace:
		return ir.ErrSharedRace
	case emulator.DivergentBarrier:
		return ir.ErrDivergentBarrier
	case emulator.UninitializedRead:
		return ir.ErrUninitializedRead
	}
	var ce *cpu.Error
	if errors.As(e.Err, &ce) {
		return cpuCode(ce)
	}
	return ir.ErrRuntime
}

// cpuCode is the error code of a run-time error of the CPU executor.
func cpuCode(e *cpu.Error) ir.ErrorCode {
	if e.Kind == cpu.OutOfBounds {
		return ir.ErrOutOfBounds
	}
	return ir.ErrRuntime
}

// Realize is NewPipeline(f).Realize(out).
func (f *Func) Realize(out BufferRef) error {
	if err := f.nilErr("Realize"); err != nil && (f == nil || f.err == nil) {
		return err
	}
	return NewPipeline(f).Realize(out)
}

// RealizeTuple is NewPipeline(f).RealizeTuple(outs...).
func (f *Func) RealizeTuple(outs ...BufferRef) error {
	if err := f.nilErr("RealizeTuple"); err != nil && (f == nil || f.err == nil) {
		return err
	}
	return NewPipeline(f).RealizeTuple(outs...)
}

func shapeVars(scalars map[string]any, name string, shape []BufDim) {
	for d, s := range shape {
		scalars[lower.BufferVar(name, "min", d)] = int32(s.Min)
		scalars[lower.BufferVar(name, "extent", d)] = int32(s.Extent)
		scalars[lower.BufferVar(name, "stride", d)] = int32(s.Stride)
	}
}

// bind checks the buffers and Params against the pipeline and returns the
// executor's arguments.
func (c *compiled) bind(outs []BufferRef) (map[string]any, map[string]any, error) {
	res := c.l.res
	name := res.Output
	types := res.OutputTypes
	if types == nil {
		types = []ir.Type{res.OutputType}
	}
	if len(outs) != len(types) {
		if len(types) > 1 {
			return nil, nil, ir.Errorf(ir.ErrTuple, name, "Realize", "%s is a Tuple Func of %d values, realized into %d buffers", name, len(types), len(outs)).
				WithLegal("RealizeTuple with one buffer per value, of types %s in order", typeNames(types))
		}
		return nil, nil, ir.Errorf(ir.ErrTuple, name, "RealizeTuple", "%s has one value, realized into %d buffers", name, len(outs)).
			WithLegal("Realize (or RealizeTuple) with one buffer")
	}
	scalars := map[string]any{}
	buffers := map[string]any{}
	for i, out := range outs {
		what, buf := "the output buffer", name
		if len(types) > 1 {
			what, buf = fmt.Sprintf("output buffer %d", i), ir.TupleElem(name, i)
		}
		if out == nil || !out.valid() {
			return nil, nil, ir.Errorf(ir.ErrNilObject, name, "Realize", "%s is nil", what).WithLegal("a Buffer made by NewBuffer")
		}
		if err := shapeError(name, what, out); err != nil {
			return nil, nil, err
		}
		if out.ElemType() != types[i] {
			return nil, nil, ir.Errorf(ir.ErrBufferShape, name, "Realize", "%s holds %s but %s computes %s", what, out.ElemType(), name, types[i])
		}
		if len(out.Shape()) != res.OutputDims {
			return nil, nil, ir.Errorf(ir.ErrBufferShape, name, "Realize", "%s has %d dimensions but %s has %d", what, len(out.Shape()), name, res.OutputDims)
		}
		for j := 0; j < i; j++ {
			if outs[j] == out {
				return nil, nil, ir.Errorf(ir.ErrBufferShape, name, "RealizeTuple", "output buffers %d and %d are the same buffer", j, i).
					WithLegal("a buffer of its own for each value of %s", name)
			}
		}
		if i > 0 {
			a, b := outs[0].Shape(), out.Shape()
			for d := range a {
				if a[d].Min != b[d].Min || a[d].Extent != b[d].Extent {
					return nil, nil, ir.Errorf(ir.ErrBufferShape, name, "RealizeTuple", "output buffer %d covers [%d, %d) in dimension %d but output buffer 0 covers [%d, %d)", i, b[d].Min, b[d].Min+b[d].Extent, d, a[d].Min, a[d].Min+a[d].Extent).
						WithLegal("buffers of one shape for all the values of %s", name)
				}
			}
		}
		buffers[buf] = out.rawData()
		if i == 0 {
			// The output's region is buffer 0's (the others have its shape).
			shapeVars(scalars, name, out.Shape())
		}
		if len(types) > 1 {
			shapeVars(scalars, buf, out.Shape())
		}
	}
	for _, pv := range c.l.b.params {
		v, ok := pv.value()
		if !ok {
			return nil, nil, ir.Errorf(ir.ErrUndefined, name, "Realize", "Param %s has no value; call Set before Realize", pv.Name())
		}
		scalars[pv.Name()] = v
	}
	for _, im := range c.l.b.images {
		buf := im.buf
		if im.p != nil {
			buf = im.p.buf
		}
		if buf == nil || !buf.valid() {
			return nil, nil, ir.Errorf(ir.ErrUndefined, name, "Realize", "input %s has no buffer (or a nil one); call Set before Realize", im.name)
		}
		if im.p != nil && im.p.err != nil {
			return nil, nil, im.p.err
		}
		if err := shapeError(name, "input "+im.name, buf); err != nil {
			return nil, nil, err
		}
		for _, out := range outs {
			if buf == out {
				return nil, nil, ir.Errorf(ir.ErrBufferShape, name, "Realize", "the output buffer is also the input %s", im.name)
			}
		}
		if buf.ElemType() != im.t {
			return nil, nil, ir.Errorf(ir.ErrBufferShape, name, "Realize", "input %s holds %s but the buffer given holds %s", im.name, im.t, buf.ElemType())
		}
		shape := buf.Shape()
		if len(shape) != im.dims {
			return nil, nil, ir.Errorf(ir.ErrBufferShape, name, "Realize", "input %s has %d dimensions but the buffer given has %d", im.name, im.dims, len(shape))
		}
		if im.p != nil {
			for d, b := range im.p.bounds {
				if err := checkDimBound(name, "input "+im.name, d, b.min.node, b.extent.node, shape[d], scalars); err != nil {
					return nil, nil, err
				}
			}
		}
		shapeVars(scalars, im.name, shape)
		buffers[im.name] = buf.rawData()
	}
	if err := checkInt32Bounds(name, c.l.b.lp, scalars); err != nil {
		return nil, nil, err
	}
	if f := c.l.b.lp.Funcs[name]; f != nil {
		shape := outs[0].Shape()
		for d, b := range f.Schedule.OutputBounds {
			if d < len(shape) {
				if err := checkDimBound(name, "the output buffer", d, b.Min, b.Extent, shape[d], scalars); err != nil {
					return nil, nil, err
				}
			}
		}
	}
	return scalars, buffers, nil
}

// dynamicSizes reports whether a kernel has an allocation whose size is
// known only at launch.
func dynamicSizes(k *ir.Kernel) bool {
	for _, a := range k.Allocs {
		if a.Dynamic {
			return true
		}
	}
	return false
}

// shapeError returns the error of a buffer whose shape is outside the
// limits of NewBuffer (an extent, min or size that is not an int32), as an
// error of Realize of fn; what is "the output buffer" or "input NAME".
func shapeError(fn, what string, b BufferRef) error {
	err := b.shapeErr()
	if err == nil {
		return nil
	}
	var he *ir.Error
	if !errors.As(err, &he) {
		return err
	}
	return &ir.Error{Code: he.Code, Func: fn, Directive: "Realize", Msg: fmt.Sprintf("%s: %s", what, he.Msg), Legal: he.Legal}
}

// checkInt32Bounds checks, with this Realize's Params and buffer shapes,
// the int32 bounds that convert a wider integer (a Param[int64] or
// Param[uint32] as an RDom extent, an input's SetBounds or a Func's Bound):
// the value must fit in int32, not wrap. For an RDom, the last value of
// each RVar must fit too.
func checkInt32Bounds(fn string, lp *lower.Pipeline, scalars map[string]any) error {
	m := ir.ScalarConsts(scalars)
	// value returns e's value, and whether it is known; err if e narrows
	// a wider value that does not fit in int32.
	value := func(e ir.Expr, what, directive string) (int64, bool, error) {
		if e == nil {
			return 0, false, nil
		}
		if c, ok := e.(*ir.Cast); ok && c.T == ir.Int32 && c.X.Type().IsIntOrUInt() {
			x, ok := ir.Simplify(ir.Substitute(c.X, m)).(*ir.IntImm)
			if !ok {
				return 0, false, nil
			}
			if !constFits(x, ir.Int32) {
				val := ir.ExprString(c.X) + " = " + constString(x) + " here"
				if ir.IsConst(c.X) {
					val = "the constant " + constString(x)
				}
				return 0, false, ir.Errorf(ir.ErrType, fn, "Realize", "%s (%s) is %s, which does not fit in int32", what, directive, val).
					WithLegal("a value in [%d, %d]", math.MinInt32, math.MaxInt32)
			}
			return x.V, true, nil
		}
		v, ok := ir.AsInt(ir.Simplify(ir.Substitute(e, m)))
		return v, ok, nil
	}
	for _, name := range lp.Order {
		f := lp.Funcs[name]
		for _, d := range f.Stages() {
			if d.RDom == nil {
				continue
			}
			for i, rv := range d.RDom.Vars {
				mn, okm, err := value(rv.Min, fmt.Sprintf("the min of dimension %d of RDom %s", i, d.RDom.Name), "RDom")
				if err != nil {
					return err
				}
				ext, oke, err := value(rv.Extent, fmt.Sprintf("the extent of dimension %d of RDom %s", i, d.RDom.Name), "RDom")
				if err != nil {
					return err
				}
				if okm && oke && ext > 0 && mn+ext-1 > math.MaxInt32 {
					return ir.Errorf(ir.ErrType, fn, "Realize", "dimension %d of RDom %s runs from %d to %d here, past the largest int32", i, d.RDom.Name, mn, mn+ext-1).
						WithLegal("min + extent - 1 at most %d (an RVar is an int32)", math.MaxInt32)
				}
			}
		}
		for _, b := range f.Schedule.Bounds {
			for _, e := range []ir.Expr{b.Min, b.Extent} {
				if _, _, err := value(e, fmt.Sprintf("the bound of %s along %s", f.Name, b.Var), "bound"); err != nil {
					return err
				}
			}
		}
	}
	for _, in := range lp.Inputs {
		for d, r := range in.Bounds {
			for _, e := range []ir.Expr{r.Min, r.Extent} {
				if _, _, err := value(e, fmt.Sprintf("the bound of dimension %d of input %s", d, in.Name), "SetBounds"); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// checkDimBound checks the SetBounds (min and extent, either nil) of
// dimension d of an input or of the output (what) against the buffer
// given.
func checkDimBound(fn, what string, d int, min, extent ir.Expr, s BufDim, scalars map[string]any) error {
	m := ir.ScalarConsts(scalars)
	eval := func(e ir.Expr) (int64, bool) {
		if e == nil {
			return 0, false
		}
		if c, ok := e.(*ir.Cast); ok && c.T == ir.Int32 {
			// A wider bound must not wrap to the buffer's value (see
			// checkInt32Bounds, which reports it).
			if x, ok := ir.Simplify(ir.Substitute(c.X, m)).(*ir.IntImm); ok && !constFits(x, ir.Int32) {
				return 0, false
			}
		}
		return ir.AsInt(ir.Simplify(ir.Substitute(e, m)))
	}
	if mn, ok := eval(min); ok && int(mn) != s.Min {
		return ir.Errorf(ir.ErrBufferShape, fn, "Realize", "%s must have min %d in dimension %d (SetBounds) but the buffer's min is %d", what, mn, d, s.Min)
	}
	if ext, ok := eval(extent); ok && int(ext) != s.Extent {
		return ir.Errorf(ir.ErrBufferShape, fn, "Realize", "%s must have extent %d in dimension %d (SetBounds) but the buffer's extent is %d", what, ext, d, s.Extent)
	}
	return nil
}

func typeNames(ts []ir.Type) string {
	parts := make([]string, len(ts))
	for i, t := range ts {
		parts[i] = t.String()
	}
	return "(" + strings.Join(parts, ", ") + ")"
}
