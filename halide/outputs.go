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
// only). A Func that several outputs read and that is not an output itself
// is computed in each part that reads it, where Halide computes a
// compute_root Func once for all its consumers: that costs time, never a
// value. Every output is computed at the root, as in Halide: an output
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

	"github.com/gohalide/gohalide/ir"
	"github.com/gohalide/gohalide/report"
)

// outputs is the record of a Pipeline with several outputs.
type outputs struct {
	funcs []*Func // the outputs, in the order NewPipeline got them
	// order lists the outputs' indices in the order their parts run.
	order []int
	// parts[k] computes funcs[order[k]], reading the outputs of the parts
	// before it through images.
	parts []*Pipeline
	// images holds, for each output, one input per value, which the
	// parts after its own read it through.
	images map[*Func][]*ImageParam
	mu     sync.Mutex // one realization at a time binds the images
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
	m := &outputs{funcs: outs, images: map[*Func][]*ImageParam{}}
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
	for k, i := range m.order {
		f := outs[i]
		part := &Pipeline{out: f, asInputs: map[*Func][]*ImageParam{}}
		for _, j := range m.order[:k] {
			part.asInputs[outs[j]] = m.imagesOf(outs[j])
		}
		m.parts = append(m.parts, part)
	}
	return &Pipeline{multi: m}
}

// imagesOf returns the inputs through which later parts read output f:
// one per value, called as f's buffers are (f, or f.0, f.1, ...).
func (m *outputs) imagesOf(f *Func) []*ImageParam {
	if ims, ok := m.images[f]; ok {
		return ims
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

// syncParts gives the parts p's options and target.
func (m *outputs) syncParts(p *Pipeline) {
	for _, part := range m.parts {
		part.opts = p.opts
		part.WithTarget(p.target)
	}
}

// name returns the name of the output part k computes.
func (m *outputs) name(k int) string { return m.funcs[m.order[k]].fn.Name }

// lowerAll lowers every part: a Lowered whose parts are theirs.
func (m *outputs) lowerAll(p *Pipeline, ctx context.Context, stopAfter string) (*Lowered, error) {
	m.syncParts(p)
	l := &Lowered{multi: m}
	var stmts []ir.Stmt
	var nests []string
	for k, part := range m.parts {
		pl, err := part.lower(ctx, stopAfter)
		if err != nil {
			return nil, err
		}
		l.parts = append(l.parts, pl)
		stmts = append(stmts, pl.Stmt)
		nests = append(nests, fmt.Sprintf("// output %s\n%s", m.name(k), pl.LoopNest))
	}
	l.Stmt = ir.MakeBlock(stmts...)
	l.LoopNest = strings.Join(nests, "\n")
	return l, nil
}

// compileAll compiles every part.
func (m *outputs) compileAll(p *Pipeline, ctx context.Context) error {
	m.syncParts(p)
	for _, part := range m.parts {
		if _, err := part.compile(ctx); err != nil {
			return err
		}
	}
	return nil
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

// realizeAll runs the parts in order into outs (see split), each reading
// the buffers of the outputs before it; run realizes one part. p, the
// Pipeline, gives the parts its options (nil: a Lowered's parts run).
func (m *outputs) realizeAll(p *Pipeline, directive string, outs []BufferRef, run func(k int, bufs []BufferRef) error) error {
	per, err := m.split(directive, outs)
	if err != nil {
		return err
	}
	if p != nil {
		m.syncParts(p)
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
	for k := range m.parts {
		if err := run(k, per[m.order[k]]); err != nil {
			return err
		}
	}
	return nil
}

// report concatenates the parts' reports.
func (m *outputs) report(p *Pipeline) ([]report.KernelReport, error) {
	m.syncParts(p)
	var all []report.KernelReport
	for _, part := range m.parts {
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
