package halide

// Pipelines with several outputs: Halide's Pipeline({f, g}) and
// realize({f's buffer, g's buffer}). Halide computes every output at the
// root, each into its own buffer. Here each output is lowered as a
// pipeline of its own (a part), the parts run one after another in an
// order where an output comes before the outputs that read it, and a part
// reads the outputs computed before it from their buffers, as inputs: an
// output g that reads output f reads what f's part wrote (f is not
// computed again), and the input checks make sure g reads only inside f's
// buffer, which Halide requires too (an output is computed over its buffer
// only). A Func that several outputs read, that is not an output itself and
// is scheduled ComputeRoot is computed once for all of them, as Halide
// computes a compute_root Func: it is a part of its own, realized over
// the union of the regions the later parts read of it, which they read
// from its buffers (outputs_shared.go); where that cannot be worked out,
// and for a Func computed inline or at a loop, it is computed in each part
// that reads it, which costs time, never a value. Every output is computed at the root, as in Halide: an output
// scheduled ComputeAt is refused by its own part (ErrComputeAt, as the
// output of a pipeline of one output is), and ComputeInline of an output
// leaves it at the root. Not built: compute_with between two outputs (Halide fuses their
// loops; here they are in different loop nests), refused with a typed
// error.

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/gohalide/gohalide/cpu"
	"github.com/gohalide/gohalide/ir"
	"github.com/gohalide/gohalide/report"
)

// outputs is the record of a Pipeline with several outputs.
type outputs struct {
	funcs []*Func // the outputs, in the order NewPipeline got them
	// order lists the outputs' indices in the order their parts run
	// (the parts of shared Funcs go between them: see plan).
	order []int
	// images holds, for each output and each shared Func, one input per
	// value, which the parts after its own read it through.
	images map[*Func][]*ImageParam
	// plans are the plans made so far, by their shared Funcs (planKey),
	// each with its parts (and their compiled code).
	plans  map[string]*plan
	planMu sync.Mutex
	mu     sync.Mutex // one realization at a time binds the images
}

// plan is one way to run the outputs: the outputs and the shared Funcs
// (non-output Funcs scheduled ComputeRoot that two or more parts read),
// each computed by a part of its own, in the order they run.
type plan struct {
	nodes  []*Func // the Func part k computes
	out    []int   // its index in funcs, or -1 for a shared Func
	parts  []*Pipeline
	shared map[*Func]bool
	// readers lists, for each shared Func, the parts that read it.
	readers map[*Func][]int
	// reads lists, for each part, the shared Funcs it reads.
	reads [][]*Func
}

// newOutputs returns the Pipeline of several outputs (see NewPipeline).
func newOutputs(outs []*Func) *Pipeline {
	for i, f := range outs {
		if err := f.nilErr("NewPipeline"); err != nil {
			return &Pipeline{err: err}
		}
		if f.err != nil {
			return &Pipeline{err: f.err}
		}
		if f.fn.Pure == nil {
			return &Pipeline{err: ir.Errorf(ir.ErrUndefined, f.fn.Name, "NewPipeline", "%s has no definition", f.fn.Name)}
		}
		for _, g := range outs[:i] {
			if g == f {
				return &Pipeline{err: ir.Errorf(ir.ErrBadArgument, f.fn.Name, "NewPipeline", "%s is given twice as an output", f.fn.Name).
					WithLegal("each output once")}
			}
		}
	}
	// The parts are loop nests of their own: a stage of one output
	// cannot share loops with another output's.
	for _, f := range outs {
		for _, d := range f.fn.Stages() {
			for _, c := range d.Cases() {
				cw := c.Schedule.ComputeWith
				if cw == nil {
					continue
				}
				for _, g := range outs {
					if g != f && cw.Ref == g {
						return &Pipeline{err: ir.Errorf(ir.ErrSchedule, f.fn.Name, "compute_with", "%s.ComputeWith(%s, ...) fuses two outputs of the pipeline, and each output of a pipeline with several outputs is lowered as a loop nest of its own (Halide fuses them)", f.fn.Name, g.fn.Name).
							WithLegal("compute_with between Funcs that are not both outputs, or one output whose Tuple holds both values")}
					}
				}
			}
		}
	}
	m := &outputs{funcs: outs, images: map[*Func][]*ImageParam{}, plans: map[string]*plan{}}
	// The order: repeatedly the first output (in the user's order) that
	// reads no output not placed yet.
	placed := make([]bool, len(outs))
	for len(m.order) < len(outs) {
		next := -1
		for i, f := range outs {
			if placed[i] {
				continue
			}
			ready := true
			for j, g := range outs {
				if j != i && !placed[j] && readsFunc(f, g) {
					ready = false
					break
				}
			}
			if ready {
				next = i
				break
			}
		}
		if next < 0 {
			return &Pipeline{err: ir.Errorf(ir.ErrCycle, outs[0].fn.Name, "NewPipeline", "the outputs read one another in a cycle").
				WithLegal("outputs whose Funcs call no Func that calls them back")}
		}
		placed[next] = true
		m.order = append(m.order, next)
	}
	return &Pipeline{multi: m}
}

// imagesOf returns the inputs through which later parts read output f:
// one per value, called as f's buffers are (f, or f.0, f.1, ...).
func (m *outputs) imagesOf(f *Func) []*ImageParam {
	if ims, ok := m.images[f]; ok {
		return ims
	}
	isOut := false
	for _, g := range m.funcs {
		isOut = isOut || g == f
	}
	if !isOut {
		// A shared Func: a name no output's images and no other shared
		// Func's have.
		for _, g := range m.funcs {
			m.imagesOf(g)
		}
		base := firstFree(f.fn.Name, func(n string) bool {
			for g, ims := range m.images {
				for _, im := range ims {
					if im.name == n || g.fn.Name == n || ir.TupleBase(im.name) == n {
						return true
					}
				}
			}
			return false
		})
		return m.newImages(f, base)
	}
	// Outputs of one name (Funcs may share one) are read as f, f_1, ....
	base, same := f.fn.Name, 0
	for _, g := range m.funcs {
		if g == f {
			break
		}
		if g.fn.Name == f.fn.Name {
			same++
		}
	}
	if same > 0 {
		base = fmt.Sprintf("%s_%d", base, same)
	}
	return m.newImages(f, base)
}

// newImages makes the images of f, named after base.
func (m *outputs) newImages(f *Func, base string) []*ImageParam {
	n := f.fn.Values()
	ims := make([]*ImageParam, n)
	for i := range ims {
		name := base
		if f.fn.IsTuple() {
			name = ir.TupleElem(base, i)
		}
		ims[i] = &ImageParam{name: name, t: f.fn.ValueType(i), dims: len(f.fn.Args)}
	}
	m.images[f] = ims
	return ims
}

// readsFunc reports whether f calls g, directly or through other Funcs
// (and the wrappers its consumers read).
func readsFunc(f, g *Func) bool {
	seen := map[*Func]bool{}
	var walk func(h *Func) bool
	walk = func(h *Func) bool {
		if seen[h] || h.fn == nil {
			return false
		}
		seen[h] = true
		found := false
		for _, d := range h.fn.Stages() {
			if d == nil {
				continue
			}
			for _, e := range append(append([]ir.Expr{}, d.Args...), d.Evaluated()...) {
				ir.WalkExpr(rewriteWrapped(h, e), func(x ir.Expr) bool {
					if found {
						return false
					}
					if c, ok := x.(*ir.Call); ok && c.Kind == ir.CallFunc {
						if k, ok := c.Ref.(*Func); ok && k != h {
							found = k == g || walk(k)
						}
					}
					return !found
				})
				if found {
					return true
				}
			}
		}
		return false
	}
	return walk(f)
}

// readOutputs replaces, in e, the calls of the outputs computed by earlier
// parts by reads of their buffers.
func (p *Pipeline) readOutputs(e ir.Expr) ir.Expr {
	if len(p.asInputs) == 0 || e == nil {
		return e
	}
	var mut func(ir.Expr) ir.Expr
	mut = func(e ir.Expr) ir.Expr {
		e = ir.MapExpr(e, mut)
		if c, ok := e.(*ir.Call); ok && c.Kind == ir.CallFunc {
			if f, ok := c.Ref.(*Func); ok {
				if ims, ok := p.asInputs[f]; ok && c.Index >= 0 && c.Index < len(ims) {
					im := ims[c.Index]
					return &ir.Call{T: c.T, Kind: ir.CallImage, Name: im.name, Args: c.Args, Ref: im}
				}
			}
		}
		return e
	}
	return mut(e)
}

// syncParts gives the parts of every plan p's options and target.
func (m *outputs) syncParts(p *Pipeline) {
	m.planMu.Lock()
	defer m.planMu.Unlock()
	for _, pl := range m.plans {
		for _, part := range pl.parts {
			part.opts = p.opts
			part.WithTarget(p.target)
		}
	}
}

// syncPlan gives the parts of pl p's options and target.
func syncPlan(pl *plan, p *Pipeline) {
	for _, part := range pl.parts {
		part.opts = p.opts
		part.WithTarget(p.target)
	}
}

// title is the line that heads part k in the printed statement.
func (pl *plan) title(k int) string {
	if pl.out[k] >= 0 {
		return "// output " + pl.nodes[k].fn.Name
	}
	var readers []string
	for _, r := range pl.readers[pl.nodes[k]] {
		readers = append(readers, pl.nodes[r].fn.Name)
	}
	return fmt.Sprintf("// shared %s (computed once for %s)", pl.nodes[k].fn.Name, strings.Join(readers, ", "))
}

// settleWith settles the plan (outputs_shared.go) with the parts lowered
// (or compiled) by get, each part given p's options first.
func (m *outputs) settleWith(p *Pipeline, get func(part *Pipeline) (*Lowered, error)) (*plan, []*Lowered, error) {
	return m.settle(func(part *Pipeline) (*Lowered, error) {
		part.opts = p.opts
		part.WithTarget(p.target)
		return get(part)
	})
}

// lowerAll lowers every part: a Lowered whose parts are theirs.
func (m *outputs) lowerAll(p *Pipeline, ctx context.Context, stopAfter string) (*Lowered, error) {
	pl, parts, err := m.settleWith(p, func(part *Pipeline) (*Lowered, error) {
		if stopAfter != "" {
			// A statement stopped early has no queries: lower as a
			// full one would run, to settle which Funcs are shared.
			if _, err := part.lower(ctx, ""); err != nil {
				return nil, err
			}
		}
		return part.lower(ctx, stopAfter)
	})
	if err != nil {
		return nil, err
	}
	l := &Lowered{multi: m, plan: pl, parts: parts}
	var stmts []ir.Stmt
	var nests []string
	for k, part := range parts {
		stmts = append(stmts, part.Stmt)
		nests = append(nests, fmt.Sprintf("%s\n%s", pl.title(k), part.LoopNest))
	}
	l.Stmt = ir.MakeBlock(stmts...)
	l.LoopNest = strings.Join(nests, "\n")
	return l, nil
}

// compileAll compiles every part and returns the plan they run by.
func (m *outputs) compileAll(p *Pipeline, ctx context.Context) (*plan, error) {
	pl, _, err := m.settleWith(p, func(part *Pipeline) (*Lowered, error) {
		c, err := part.compile(ctx)
		if err != nil {
			return nil, err
		}
		return c.l, nil
	})
	return pl, err
}

// split returns the buffers of each output, in the order of m.funcs: outs
// holds one buffer per value of each output, in that order.
func (m *outputs) split(directive string, outs []BufferRef) ([][]BufferRef, error) {
	want := 0
	var names []string
	for _, f := range m.funcs {
		want += f.fn.Values()
		names = append(names, fmt.Sprintf("%s (%d)", f.fn.Name, f.fn.Values()))
	}
	if len(outs) != want {
		return nil, ir.Errorf(ir.ErrBufferShape, m.funcs[0].fn.Name, directive, "the pipeline has %d outputs with %d values in all, and %s got %d buffers", len(m.funcs), want, directive, len(outs)).
			WithLegal("RealizeTuple with one buffer per value of each output, in the order NewPipeline got them: %s", strings.Join(names, ", "))
	}
	var per [][]BufferRef
	for _, f := range m.funcs {
		n := f.fn.Values()
		per = append(per, outs[:n])
		outs = outs[n:]
	}
	return per, nil
}

// realizeAll runs the parts of pl in order into outs (see split), each
// reading the buffers of the parts before it; the shared Funcs' buffers
// are made first (sizeShared, with the allocation limit limit: 0 the
// default, negative none). comp gives part k's compiled code and run
// realizes part k into bufs.
func (m *outputs) realizeAll(pl *plan, limit int64, directive string, outs []BufferRef, comp func(k int) (*compiled, error), run func(k int, bufs []BufferRef) error) error {
	per, err := m.split(directive, outs)
	if err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for i, f := range m.funcs {
		for v, im := range m.imagesOf(f) {
			im.Set(per[i][v])
		}
	}
	defer func() {
		for _, ims := range m.images {
			for _, im := range ims {
				im.Set(nil)
			}
		}
	}()
	shared := map[*Func][]BufferRef{}
	empty := map[*Func]bool{}
	bufsOf := func(k int) []BufferRef {
		if i := pl.out[k]; i >= 0 {
			return per[i]
		}
		return shared[pl.nodes[k]]
	}
	if len(pl.readers) > 0 {
		if limit == 0 {
			limit = cpu.DefaultMaxAllocationBytes()
		}
		if err := m.sizeShared(pl, limit, bufsOf, comp, shared, empty); err != nil {
			return err
		}
	}
	for k := range pl.parts {
		if pl.out[k] < 0 && empty[pl.nodes[k]] {
			continue
		}
		if err := run(k, bufsOf(k)); err != nil {
			return err
		}
	}
	return nil
}

// report concatenates the parts' reports.
func (m *outputs) report(p *Pipeline) ([]report.KernelReport, error) {
	pl, err := m.compileAll(p, context.Background())
	if err != nil {
		return nil, err
	}
	var all []report.KernelReport
	for _, part := range pl.parts {
		r, err := part.Report()
		if err != nil {
			return nil, err
		}
		all = append(all, r...)
	}
	return all, nil
}

// errSeveralOutputs is the error of a method that takes one output buffer
// on a pipeline with several outputs.
func (m *outputs) errSeveralOutputs(directive string) error {
	return ir.Errorf(ir.ErrBadArgument, m.funcs[0].fn.Name, directive, "%s takes one output buffer, and the pipeline has %d outputs", directive, len(m.funcs)).
		WithLegal("RealizeTuple with one buffer per value of each output, in the order NewPipeline got them")
}
