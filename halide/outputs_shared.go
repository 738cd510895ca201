package halide

// Funcs that several outputs of a pipeline read (outputs.go). A Func that
// is not an output, is scheduled ComputeRoot and is read by two or more
// parts (directly, or through Funcs those parts compute) is a shared
// Func: it gets a part of its own, placed before the first part that reads
// it (after the parts it reads), which realizes it once into buffers (one
// per value) over the union of the regions the parts after it read; those
// parts read the buffers as inputs, as they read earlier outputs. At
// Realize, before any part runs, each reading part's input query
// (lower.Options.QueryInputs) says which region it reads for its output
// buffer, Params and inputs; the shared Funcs are sized from the last to
// the first, so a shared Func that reads another is sized before it.
//
// Where a reader's query cannot be built (its region depends on the
// shared buffer's own shape), a part fails to lower with the Func shared,
// or the Func cannot be placed, it is computed in each part that reads it
// instead, as a Func read by one part is: the plan with one shared Func
// fewer is tried.

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"sync/atomic"

	"github.com/gohalide/gohalide/cpu"
	"github.com/gohalide/gohalide/ir"
	"github.com/gohalide/gohalide/lower"
)

// noInputQueries, set by tests, counts every input query missing: the
// fallback.
var noInputQueries atomic.Bool

// callees returns the Funcs h's definitions call (through the wrappers its
// consumers read), once each, in the order met.
func callees(h *Func) []*Func {
	var out []*Func
	seen := map[*Func]bool{}
	for _, d := range h.fn.Stages() {
		if d == nil {
			continue
		}
		exprs := append(append([]ir.Expr{}, d.Args...), d.Evaluated()...)
		if d.RDom != nil {
			for _, rv := range d.RDom.Vars {
				exprs = append(exprs, rv.Min, rv.Extent)
			}
		}
		for _, e := range exprs {
			ir.WalkExpr(rewriteWrapped(h, e), func(x ir.Expr) bool {
				if c, ok := x.(*ir.Call); ok && c.Kind == ir.CallFunc {
					if k, ok := c.Ref.(*Func); ok && k != h && !seen[k] && k.fn != nil {
						seen[k] = true
						out = append(out, k)
					}
				}
				return true
			})
		}
	}
	return out
}

// directReads returns the Funcs of stop that the part computing x reads:
// those x calls, directly or through Funcs not in stop.
func directReads(x *Func, stop map[*Func]bool) []*Func {
	var out []*Func
	seen := map[*Func]bool{x: true}
	var walk func(h *Func)
	walk = func(h *Func) {
		for _, k := range callees(h) {
			if seen[k] {
				continue
			}
			seen[k] = true
			if stop[k] {
				out = append(out, k)
				continue
			}
			walk(k)
		}
	}
	walk(x)
	return out
}

// sharedCandidate reports whether f, a Func that is not an output, may be
// computed once for all its readers: scheduled ComputeRoot, with no
// region of its own (Bound) and no compute_with.
func sharedCandidate(f *Func) bool {
	s := &f.fn.Schedule
	if f.err != nil || f.fn.Pure == nil || s.Compute.Kind != ir.LevelRoot || len(s.Bounds) > 0 || len(s.OutputBounds) > 0 {
		return false
	}
	if s.Store.Kind == ir.LevelAt {
		return false
	}
	for _, d := range f.fn.Stages() {
		for _, c := range d.Cases() {
			if c.Schedule.ComputeWith != nil {
				return false
			}
		}
	}
	return true
}

// sharedFuncs returns the shared Funcs, leaving out those of excluded: the
// candidates that two or more parts read, where the parts are those of the
// outputs and of the shared Funcs themselves (worked out until it
// settles: a candidate read by one part is computed in that part).
func (m *outputs) sharedFuncs(excluded map[*Func]bool) map[*Func]bool {
	isOut := map[*Func]bool{}
	for _, f := range m.funcs {
		isOut[f] = true
	}
	// Every Func the outputs read, and which of them are named in a
	// compute_with (those stay where they are).
	all := map[*Func]bool{}
	withRef := map[*Func]bool{}
	var walk func(h *Func)
	walk = func(h *Func) {
		if all[h] {
			return
		}
		all[h] = true
		for _, d := range h.fn.Stages() {
			for _, c := range d.Cases() {
				if cw := c.Schedule.ComputeWith; cw != nil {
					if g, ok := cw.Ref.(*Func); ok {
						withRef[g] = true
					}
				}
			}
		}
		for _, k := range callees(h) {
			walk(k)
		}
	}
	for _, f := range m.funcs {
		if f.fn != nil {
			walk(f)
		}
	}
	shared := map[*Func]bool{}
	for f := range all {
		if !isOut[f] && !excluded[f] && !withRef[f] && sharedCandidate(f) {
			shared[f] = true
		}
	}
	for {
		stop := map[*Func]bool{}
		for f := range isOut {
			stop[f] = true
		}
		for f := range shared {
			stop[f] = true
		}
		count := map[*Func]int{}
		for x := range stop {
			for _, k := range directReads(x, stop) {
				count[k]++
			}
		}
		changed := false
		for f := range shared {
			if count[f] < 2 {
				delete(shared, f)
				changed = true
			}
		}
		if !changed {
			return shared
		}
	}
}

// planKey names a set of shared Funcs.
func planKey(shared map[*Func]bool) string {
	var keys []string
	for f := range shared {
		keys = append(keys, fmt.Sprintf("%p", f))
	}
	sort.Strings(keys)
	return strings.Join(keys, ",")
}

// planFor returns the plan of the shared Funcs shared, or the shared Funcs
// that cannot be placed.
func (m *outputs) planFor(shared map[*Func]bool) (*plan, map[*Func]bool) {
	key := planKey(shared)
	if pl, ok := m.plans[key]; ok {
		return pl, nil
	}
	stop := map[*Func]bool{}
	outIdx := map[*Func]int{}
	for i, f := range m.funcs {
		stop[f] = true
		outIdx[f] = i
	}
	for f := range shared {
		stop[f] = true
	}
	pl := &plan{shared: shared, readers: map[*Func][]int{}}
	placed := map[*Func]bool{}
	bad := map[*Func]bool{}
	visiting := map[*Func]bool{}
	var place func(x *Func) bool
	place = func(x *Func) bool {
		if placed[x] {
			return true
		}
		if visiting[x] {
			return false
		}
		visiting[x] = true
		defer delete(visiting, x)
		reads := directReads(x, stop)
		for _, k := range reads {
			if shared[k] {
				if !place(k) {
					bad[k] = true
					return false
				}
			} else if !placed[k] {
				// An output read before its part runs.
				return false
			}
		}
		placed[x] = true
		i, ok := outIdx[x]
		if !ok {
			i = -1
		}
		pl.nodes = append(pl.nodes, x)
		pl.out = append(pl.out, i)
		return true
	}
	for _, i := range m.order {
		if !place(m.funcs[i]) {
			if len(bad) == 0 {
				// Not from a shared Func: share none.
				for f := range shared {
					bad[f] = true
				}
			}
			return nil, bad
		}
	}
	pos := map[*Func]int{}
	for k, x := range pl.nodes {
		pos[x] = k
	}
	pl.reads = make([][]*Func, len(pl.nodes))
	for k, x := range pl.nodes {
		part := &Pipeline{out: x, asInputs: map[*Func][]*ImageParam{}}
		for _, y := range pl.nodes[:k] {
			part.asInputs[y] = m.imagesOf(y)
		}
		for _, y := range directReads(x, stop) {
			if shared[y] {
				pl.readers[y] = append(pl.readers[y], k)
				pl.reads[k] = append(pl.reads[k], y)
				for _, im := range m.imagesOf(y) {
					part.queried = append(part.queried, im.name)
				}
			}
		}
		pl.parts = append(pl.parts, part)
	}
	m.plans[key] = pl
	return pl, nil
}

// settle returns the plan the parts run by: the one with every shared
// Func whose parts lower (or compile) with it, as get gives them for
// each part. A shared Func whose own part fails, or one of whose readers
// fails or has no input query for it, is computed in its readers instead.
func (m *outputs) settle(get func(part *Pipeline) (*Lowered, error)) (*plan, []*Lowered, error) {
	m.planMu.Lock()
	defer m.planMu.Unlock()
	excluded := map[*Func]bool{}
	for {
		shared := m.sharedFuncs(excluded)
		pl, bad := m.planFor(shared)
		if pl == nil {
			for f := range bad {
				excluded[f] = true
			}
			continue
		}
		var ls []*Lowered
		bad = map[*Func]bool{}
		var firstErr error
		for k, part := range pl.parts {
			l, err := get(part)
			if err != nil {
				switch {
				case pl.out[k] < 0:
					bad[pl.nodes[k]] = true
				case len(pl.reads[k]) > 0:
					for _, f := range pl.reads[k] {
						bad[f] = true
					}
				default:
					firstErr = err
				}
				if firstErr == nil && len(shared) == 0 {
					firstErr = err
				}
				if firstErr != nil {
					break
				}
				continue
			}
			ls = append(ls, l)
			for _, f := range pl.reads[k] {
				for _, im := range m.imagesOf(f) {
					if l.res == nil || l.res.InputQueries[im.name] == nil || noInputQueries.Load() {
						bad[f] = true
					}
				}
			}
		}
		if firstErr != nil || len(bad) == 0 {
			if firstErr != nil && len(bad) > 0 && len(shared) > 0 {
				// Try without the Funcs that failed: the error may be
				// theirs.
				for f := range bad {
					excluded[f] = true
				}
				continue
			}
			return pl, ls, firstErr
		}
		for f := range bad {
			excluded[f] = true
		}
	}
}

// protoBuffers are buffers of each element type, to make new ones from.
var protoBuffers = []BufferRef{
	(*Buffer[int8])(nil), (*Buffer[int16])(nil), (*Buffer[int32])(nil), (*Buffer[int64])(nil),
	(*Buffer[uint8])(nil), (*Buffer[uint16])(nil), (*Buffer[uint32])(nil), (*Buffer[uint64])(nil),
	(*Buffer[float32])(nil), (*Buffer[float64])(nil), (*Buffer[bool])(nil), (*Buffer[F16])(nil), (*Buffer[BF16])(nil),
}

// newBufferOf returns a new buffer of elements of type t over shape.
func newBufferOf(t Type, shape []BufDim) BufferRef {
	for _, p := range protoBuffers {
		if p.ElemType() == t {
			return p.withShape(shape)
		}
	}
	return nil
}

// queryScalars returns the scalars of a run of c into buffers of shape
// outShape (the output's values, of c's output types): the Params, the
// output's shape and the shapes of the inputs that have a buffer.
func (c *compiled) queryScalars(outShape []BufDim) (map[string]any, error) {
	res := c.l.res
	scalars := map[string]any{}
	shapeVars(scalars, res.Output, outShape)
	for i := range res.OutputTypes {
		shapeVars(scalars, ir.TupleElem(res.Output, i), outShape)
	}
	for _, pv := range c.l.b.params {
		v, ok := pv.value()
		if !ok {
			return nil, ir.Errorf(ir.ErrUndefined, res.Output, "Realize", "Param %s has no value; call Set before Realize", pv.Name())
		}
		scalars[pv.Name()] = v
	}
	for _, im := range c.l.b.images {
		buf := im.buf
		if im.p != nil {
			buf = im.p.buf
		}
		if buf != nil && buf.valid() {
			shapeVars(scalars, im.name, buf.Shape())
		}
	}
	return scalars, nil
}

// inputNeed returns the box (least min and greatest max per dimension)
// the part c reads of the inputs names (one Func's values, of dims
// dimensions), run into buffers of shape outShape: grown first as Realize
// grows them (realize_grow.go). An empty dimension has min > max.
func (c *compiled) inputNeed(outShape []BufDim, names []string, dims int) ([]int64, error) {
	scalars, err := c.queryScalars(outShape)
	if err != nil {
		return nil, err
	}
	if c.query != nil {
		for depth := 0; depth < maxGrowths; depth++ {
			shape, larger, err := c.outputNeedShape(nil, outShape, scalars, nil)
			if err != nil || !larger {
				break
			}
			outShape = shape
			if scalars, err = c.queryScalars(outShape); err != nil {
				return nil, err
			}
		}
	}
	box := make([]int64, 2*dims)
	for d := 0; d < dims; d++ {
		box[2*d], box[2*d+1] = math.MaxInt64, math.MinInt64
	}
	for _, name := range names {
		q := c.inputQueries[name]
		if q == nil {
			return nil, &ir.Error{Code: ir.ErrInternal, Func: c.l.res.Output, Directive: "Realize (input query)", Msg: "no input query for " + name}
		}
		need := make([]int32, 2*dims)
		for d := 0; d < dims; d++ {
			need[2*d], need[2*d+1] = math.MaxInt32, math.MinInt32
		}
		if err := q.RunEnv(nil, nil, scalars, map[string]any{lower.InputQueryBuffer: need}); err != nil {
			return nil, &ir.Error{Code: ir.ErrInternal, Func: c.l.res.Output, Directive: "Realize (input query)", Msg: err.Error(), Cause: err}
		}
		for d := 0; d < dims; d++ {
			if need[2*d] <= need[2*d+1] {
				box[2*d] = min(box[2*d], int64(need[2*d]))
				box[2*d+1] = max(box[2*d+1], int64(need[2*d+1]))
			}
		}
	}
	return box, nil
}

// compileInputQueries compiles the input queries of l into c.
func (c *compiled) compileInputQueries(l *Lowered) error {
	if l.edited || l.res == nil || len(l.res.InputQueries) == 0 {
		return nil
	}
	c.inputQueries = map[string]*cpu.Program{}
	for name, q := range l.res.InputQueries {
		prog, err := cpu.Compile(q)
		if err != nil {
			return &ir.Error{Code: ir.ErrInternal, Directive: "cpu.Compile (input query)", Msg: err.Error()}
		}
		c.inputQueries[name] = prog
	}
	return nil
}

// sizeShared makes the buffers of the shared Funcs of pl, last first: the
// union of the regions their readers read, given the readers' buffers
// (bufsOf) and compiled code (comp). It binds each shared Func's images
// to them. A shared Func no part reads gets buffers of one element, and
// empty[f] is set: its part need not run.
func (m *outputs) sizeShared(pl *plan, limit int64, bufsOf func(k int) []BufferRef, comp func(k int) (*compiled, error), shared map[*Func][]BufferRef, empty map[*Func]bool) error {
	for k := len(pl.nodes) - 1; k >= 0; k-- {
		f := pl.nodes[k]
		if pl.out[k] >= 0 {
			continue
		}
		ims := m.imagesOf(f)
		names := make([]string, len(ims))
		for i, im := range ims {
			names[i] = im.name
		}
		dims := len(f.fn.Args)
		box := make([]int64, 2*dims)
		for d := 0; d < dims; d++ {
			box[2*d], box[2*d+1] = math.MaxInt64, math.MinInt64
		}
		for _, r := range pl.readers[f] {
			c, err := comp(r)
			if err != nil {
				return err
			}
			rb := bufsOf(r)
			if len(rb) == 0 || rb[0] == nil || !rb[0].valid() {
				// The reader's own Realize says what is wrong.
				continue
			}
			need, err := c.inputNeed(rb[0].Shape(), names, dims)
			if err != nil {
				return err
			}
			for d := 0; d < dims; d++ {
				box[2*d] = min(box[2*d], need[2*d])
				box[2*d+1] = max(box[2*d+1], need[2*d+1])
			}
		}
		shape := make([]BufDim, dims)
		bytes := int64(0)
		n := int64(1)
		for d := 0; d < dims; d++ {
			if box[2*d] > box[2*d+1] {
				empty[f] = true
			}
		}
		for d := 0; d < dims; d++ {
			if empty[f] {
				shape[d] = BufDim{Min: 0, Extent: 1}
				continue
			}
			lo, hi := box[2*d], box[2*d+1]
			if hi-lo+1 > math.MaxInt32 || lo < math.MinInt32 || hi > math.MaxInt32 {
				return ir.Errorf(ir.ErrAllocationTooLarge, f.fn.Name, "Realize", "%s, computed once for the outputs that read it, is read over [%d, %d] in dimension %d, too large a buffer", f.fn.Name, lo, hi, d)
			}
			shape[d] = BufDim{Min: int(lo), Extent: int(hi - lo + 1)}
			n = min(n*(hi-lo+1), 1<<40)
		}
		for i := range ims {
			bytes += n * int64((f.fn.ValueType(i).Bits+7)/8)
		}
		if limit > 0 && bytes > limit {
			return ir.Errorf(ir.ErrAllocationTooLarge, f.fn.Name, "Realize", "%s, computed once at the root for the outputs that read it, is read over %s: %d bytes, over the limit of %d", f.fn.Name, regionString(shape), bytes, limit).
				WithLegal("a larger Options.MaxAllocationBytes, or outputs that read less of %s", f.fn.Name)
		}
		bufs := make([]BufferRef, len(ims))
		for i, im := range ims {
			b := newBufferOf(f.fn.ValueType(i), shape)
			if b == nil {
				return &ir.Error{Code: ir.ErrInternal, Func: f.fn.Name, Directive: "Realize", Msg: fmt.Sprintf("no buffer of type %s", f.fn.ValueType(i))}
			}
			if err := b.shapeErr(); err != nil {
				return ir.Errorf(ir.ErrBufferShape, f.fn.Name, "Realize", "%s, computed once for the outputs that read it, is read over %s, and a buffer of that region cannot be made: %v", f.fn.Name, regionString(shape), err)
			}
			bufs[i] = b
			im.Set(b)
		}
		shared[f] = bufs
	}
	return nil
}
