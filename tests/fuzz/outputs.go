package fuzz

// Random programs with several outputs: now and then (SeveralShare) a drawn
// program becomes a pipeline of two or three outputs, halide.NewPipeline
// of its first Func and one or two others, realized with RealizeTuple into
// one buffer per value of each output, each over a region of its own.
// The others are Funcs the first reads (computed in an earlier part of the
// pipeline, and read from their buffers: see halide/outputs.go) or a Func
// drawn for the purpose that reads the same inputs and Funcs but that no
// other output reads. The regions of the outputs another output reads
// cover what the reference reads of them, most of the time; otherwise the
// library must refuse the run (the reference says "oob"). The draws use a
// random source of their own, after the program's: a program of one
// output is drawn, scheduled and run as before.

import (
	"fmt"
	"math/rand"
	"regexp"
	"slices"
	"strings"

	"github.com/gohalide/gohalide/halide"
)

// POutput is an output of a pipeline with several outputs other than the
// program's first Func: Func, realized over [Min, Min+Ext) in each of its
// dimensions.
type POutput struct {
	Func string `json:"func"`
	Min  []int  `json:"min"`
	Ext  []int  `json:"ext"`
}

// SeveralShare is the share of programs drawn with several outputs
// (progfuzz -several); the draw of program i depends on it too.
var SeveralShare = 1.0 / 8

// outputNames lists the outputs in NewPipeline's order: Funcs[0] alone
// for a program of one output.
func (p *Prog) outputNames() []string {
	var names []string
	for _, o := range p.Outputs {
		names = append(names, o.Func)
	}
	at := min(max(p.MainAt, 0), len(names))
	return slices.Insert(names, at, p.Funcs[0].Name)
}

// region returns the region output name is realized over (sizes are the
// first Func's extents).
func (p *Prog) region(name string, sizes []int) (mins, exts []int) {
	for _, o := range p.Outputs {
		if o.Func == name {
			return o.Min, o.Ext
		}
	}
	return p.OutMin, sizes
}

// elemName is the name under which the evaluator computes value k of f.
func elemName(f *PFunc, k int) string {
	if k == 0 {
		return f.Name
	}
	return fmt.Sprintf("%s#%d", f.Name, k)
}

// otherOutputs evaluates the outputs of p.Outputs over their regions, one
// list per value, and then fails with "oob" if an output is read outside
// its region (by the Funcs of the outputs after it), unless Lenient.
func (ev *Evaluator) otherOutputs() [][][]float64 {
	var outs [][][]float64
	for _, o := range ev.P.Outputs {
		f := ev.P.Func(o.Func)
		if f == nil || len(o.Min) != f.Dims || len(o.Ext) != f.Dims {
			ev.fail("invalid", "output %s is not a Func of the program of %d dimensions", o.Func, len(o.Min))
		}
		var vals [][]float64
		for k := 0; k <= len(f.Tuple); k++ {
			fs := ev.funcs[elemName(f, k)]
			var v []float64
			forEach(o.Ext, func(c []int) {
				var q pt
				for i := range c {
					q[i] = c[i] + o.Min[i]
				}
				v = append(v, ev.value(fs, len(fs.f.Updates), q))
			})
			vals = append(vals, v)
		}
		outs = append(outs, vals)
	}
	if ev.Lenient {
		return outs
	}
	for _, o := range ev.P.Outputs {
		lo, hi, seen := ev.box(ev.P.Func(o.Func))
		for d := range o.Min {
			if seen && (lo[d] < o.Min[d] || hi[d] > o.Min[d]+o.Ext[d]-1) {
				ev.fail("oob", "output %s is read over [%d, %d] in dimension %d, outside its region [%d, %d]",
					o.Func, lo[d], hi[d], d, o.Min[d], o.Min[d]+o.Ext[d]-1)
			}
		}
	}
	return outs
}

// box is the box of the points of f (of any of its values) evaluated so
// far.
func (ev *Evaluator) box(f *PFunc) (lo, hi pt, seen bool) {
	for k := 0; k <= len(f.Tuple); k++ {
		fs := ev.funcs[elemName(f, k)]
		if fs == nil || !fs.seen {
			continue
		}
		if !seen {
			lo, hi, seen = fs.lo, fs.hi, true
			continue
		}
		for i := range lo {
			lo[i], hi[i] = min(lo[i], fs.lo[i]), max(hi[i], fs.hi[i])
		}
	}
	return lo, hi, seen
}

// outputable says whether f may be an output of a pipeline with several
// outputs: not stored in another type (its buffers would be of that
// type), no update writing outside its pure vars (the reference checks
// only the first Func's writes), no Bound.
func (p *Prog) outputable(f *PFunc) bool {
	if f.Pure != nil && hasOp(f.Pure, "tostore") {
		return false
	}
	for _, u := range f.Updates {
		for i, a := range u.Args {
			if !pureArg(a, i) {
				return false
			}
		}
	}
	for _, b := range p.Bounds {
		if b.Func == f.Name {
			return false
		}
	}
	return true
}

// maxOutputExtent bounds the extents of the outputs' regions: a Func read
// at data-dependent indices far away (a boundary condition's) would need
// a region the reference cannot evaluate point by point.
const maxOutputExtent = 64

// severalOutputs returns p with one or two outputs added (Prog.Outputs),
// or p itself when it has none that suits: a program reading the output
// buffer's shape (its Funcs would read the shape of each part's own
// output), or one the reference refuses.
func severalOutputs(p *Prog, sizes []int, inSeed int64, rng *rand.Rand) *Prog {
	if emptyOutput(sizes) {
		return p
	}
	for _, e := range p.allExprs() {
		if hasOp(e, "odim") {
			return p
		}
	}
	q := p.clone()
	var cands []string
	for _, f := range q.Funcs[1:] {
		if q.outputable(f) {
			cands = append(cands, f.Name)
		}
	}
	rng.Shuffle(len(cands), func(i, j int) { cands[i], cands[j] = cands[j], cands[i] })
	n := 1
	if rng.Float64() < 0.3 {
		n = 2
	}
	var chosen []string
	var free []bool // the region is drawn at random, not from what is read
	if rng.Float64() < 0.3 || len(cands) == 0 {
		if name := q.independent(rng); name != "" {
			chosen, free = append(chosen, name), append(free, true)
		}
	}
	for _, c := range cands {
		if len(chosen) < n {
			chosen, free = append(chosen, c), append(free, rng.Float64() < 0.08)
		}
	}
	if len(chosen) == 0 {
		return p
	}
	ev := &Evaluator{P: q, Inputs: progInputs(q, inSeed)}
	if _, err := ev.Realize(q.OutMin, sizes); err != nil {
		return p
	}
	for i, name := range chosen {
		f := q.Func(name)
		o := &POutput{Func: name}
		lo, hi, seen := ev.box(f)
		for d := 0; d < f.Dims; d++ {
			m, e := rng.Intn(9)-4, []int{1, 2, 3, 5, 7, 9}[rng.Intn(6)]
			switch {
			case seen && !free[i]:
				m = lo[d] - rng.Intn(3)
				e = hi[d] + rng.Intn(3) - m + 1
			case d < len(sizes):
				// In the first Func's region mostly: the inputs
				// cover it.
				m = q.OutMin[d] + rng.Intn(max(sizes[d], 1))
				e = 1 + rng.Intn(q.OutMin[d]+sizes[d]-m)
			}
			if e > maxOutputExtent {
				return p // what the first Func reads is too large a region
			}
			o.Min, o.Ext = append(o.Min, m), append(o.Ext, e)
		}
		q.Outputs = append(q.Outputs, o)
	}
	q.MainAt = rng.Intn(len(q.Outputs) + 1)
	// One output may read another: widen the regions to what the
	// outputs' regions read, twice over.
	for pass := 0; pass < 2; pass++ {
		ev := &Evaluator{P: q, Inputs: progInputs(q, inSeed), Lenient: true}
		if _, err := ev.RealizeOutputs(q.OutMin, sizes); err != nil {
			return p
		}
		for i, o := range q.Outputs {
			lo, hi, seen := ev.box(q.Func(o.Func))
			if !seen || free[i] {
				continue
			}
			for d := range o.Min {
				end := max(hi[d], o.Min[d]+o.Ext[d]-1)
				o.Min[d] = min(o.Min[d], lo[d])
				o.Ext[d] = end - o.Min[d] + 1
				if o.Ext[d] > maxOutputExtent {
					return p
				}
			}
		}
	}
	return q
}

// independent adds to p a Func no other reads, of the same inputs and
// Funcs, and returns its name ("" when the draw does not suit).
func (p *Prog) independent(rng *rand.Rand) string {
	g := &pgen{rng: rng, p: p, raw: map[string]bool{}}
	k := len(p.Funcs)
	for p.Func(fmt.Sprintf("f%d", k)) != nil {
		k++
	}
	f := &PFunc{Name: fmt.Sprintf("f%d", k), Float: g.p_(0.4), Dims: g.intn(1, 3)}
	c := &ectx{inputs: p.Inputs, reduce: true}
	for _, h := range p.Funcs[1:] {
		if !hasOp(h.Pure, "tostore") {
			c.callees = append(c.callees, h)
		}
	}
	for d := 0; d < f.Dims; d++ {
		c.vars = append(c.vars, d)
	}
	nr := len(p.RDoms)
	f.Pure = g.expr(f.Float, 3, c)
	if g.p_(0.3) {
		g.update(f, c)
	}
	ok := p.outputable(f)
	for _, e := range p.exprsOf(f) {
		ok = ok && !hasOp(e, "odim")
	}
	if !ok {
		p.RDoms = p.RDoms[:nr]
		return ""
	}
	// Funcs[0] stays first; f calls only Funcs after it.
	p.Funcs = slices.Insert(p.Funcs, 1, f)
	return f.Name
}

// outBuf is the buffers of one output of a run.
type outBuf struct {
	name       string
	mins, exts []int
	bufs       []halide.BufferRef
	got        []func() []float64 // the values of each buffer
}

// outputBuffers makes the buffers of p's outputs, in NewPipeline's order.
func outputBuffers(p *Prog, sizes []int) []outBuf {
	var out []outBuf
	for _, name := range p.outputNames() {
		f := p.Func(name)
		mins, exts := p.region(name, sizes)
		ob := outBuf{name: name, mins: mins, exts: exts}
		for k := 0; k <= len(f.Tuple); k++ {
			if f.valueFloat(k) {
				b := halide.NewBuffer[float32](exts...).SetMin(mins...)
				ob.bufs, ob.got = append(ob.bufs, b), append(ob.got, func() []float64 { return readBuffer(b, mins, exts) })
			} else {
				b := halide.NewBuffer[int32](exts...).SetMin(mins...)
				ob.bufs, ob.got = append(ob.bufs, b), append(ob.got, func() []float64 { return readBuffer(b, mins, exts) })
			}
		}
		out = append(out, ob)
	}
	return out
}

// allBufs lists the buffers of the outputs, as RealizeTuple takes them.
func allBufs(obs []outBuf) []halide.BufferRef {
	var out []halide.BufferRef
	for _, ob := range obs {
		out = append(out, ob.bufs...)
	}
	return out
}

// compareOutputs compares what the outputs hold with the reference's
// values (want from RealizeOutputs): "" when they agree, else the first
// mismatch, naming the output (and the value of a Tuple) of a program
// with several outputs.
func compareOutputs(p *Prog, obs []outBuf, want [][][]float64) string {
	for _, ob := range obs {
		w := want[0]
		for k, o := range p.Outputs {
			if o.Func == ob.name {
				w = want[1+k]
			}
		}
		for v, got := range ob.got {
			if m := compareVals(got(), w[v], ob.exts, ob.mins); m != "" {
				if len(p.Outputs) == 0 {
					return m
				}
				name := ob.name
				if len(ob.got) > 1 {
					name = fmt.Sprintf("%s.%d", name, v)
				}
				return fmt.Sprintf("output %s: %s", name, m)
			}
		}
	}
	return ""
}

// refusedOutputs matches the library's refusals of what a pipeline with
// several outputs does not take by design: compute_with of two outputs,
// an output computed at another Func's loop.
var refusedOutputs = regexp.MustCompile(`fuses two outputs of the pipeline|is the output; it is always computed at the root`)

// shiftsAnOutput is shiftsOutput for any output of p.
func shiftsAnOutput(s Schedule, p *Prog) bool {
	for _, name := range p.outputNames() {
		if shiftsOutput(s, name) {
			return true
		}
	}
	return false
}

// goOutputs prints the buffers of p's outputs, NewPipeline and the
// RealizeTuple of a program with several outputs (for the reproductions).
func goOutputs(p *Prog, sizes []int, gpu bool) string {
	var b strings.Builder
	var bufs []string
	for _, name := range p.outputNames() {
		f := p.Func(name)
		mins, exts := p.region(name, sizes)
		for k := 0; k <= len(f.Tuple); k++ {
			bn := name + "Buf"
			if f.Tuple != nil {
				bn = fmt.Sprintf("%sBuf%d", name, k)
			}
			fmt.Fprintf(&b, "%s := halide.NewBuffer[%s](%s).SetMin(%s)\n", bn, goType(f.valueFloat(k)), joinInts(exts), joinInts(mins))
			bufs = append(bufs, bn)
		}
	}
	fmt.Fprintf(&b, "pl := halide.NewPipeline(%s)\n", strings.Join(p.outputNames(), ", "))
	if gpu {
		b.WriteString("pl.WithTarget(halide.Emulator) // GPU schedule: kernels on the emulator\n")
	}
	fmt.Fprintf(&b, "if err := pl.RealizeTuple(%s); err != nil {\n\tfmt.Println(\"RealizeTuple:\", err)\n\treturn\n}\n", strings.Join(bufs, ", "))
	return b.String()
}

// goCheckOutputs prints the comparison of every output buffer with the
// reference's values (want from RealizeOutputs).
func goCheckOutputs(p *Prog, sizes []int, want [][][]float64) string {
	var b strings.Builder
	b.WriteString("bad := 0\ncheck := func(name string, got []float64, want []float64) {\n\tfor i, w := range want {\n\t\tif g := got[i]; g != w {\n\t\t\tif bad < 5 {\n\t\t\t\tfmt.Printf(\"%s element %d: got %v, want %v\\n\", name, i, g, w)\n\t\t\t}\n\t\t\tbad++\n\t\t}\n\t}\n}\n")
	for _, name := range p.outputNames() {
		f := p.Func(name)
		w := want[0]
		for k, o := range p.Outputs {
			if o.Func == name {
				w = want[1+k]
			}
		}
		for k := 0; k <= len(f.Tuple); k++ {
			bn := name + "Buf"
			if f.Tuple != nil {
				bn = fmt.Sprintf("%sBuf%d", name, k)
			}
			fmt.Fprintf(&b, "{\n\tvar got []float64\n\tfor _, v := range %s.Data() {\n\t\tgot = append(got, float64(v))\n\t}\n\tcheck(%q, got, []float64{%s}) // the reference, dimension 0 fastest\n}\n", bn, bn, joinVals(w[k]))
		}
	}
	b.WriteString("fmt.Printf(\"%d elements wrong\\n\", bad)\n")
	return b.String()
}

// readsOutputByData says whether msg is a refusal of a read of another
// output's buffer (an input that is not one of p's) and a Func of p reads
// an output at an index computed from data: bounds inference then takes
// the index's whole range (a clamp's, a modulo's), as Halide does, where
// the reference reads the points the data gives.
func readsOutputByData(p *Prog, msg string) bool {
	m := inputOOB.FindStringSubmatch(msg)
	if m == nil || len(p.Outputs) == 0 {
		return false
	}
	name, _, _ := strings.Cut(strings.TrimPrefix(m[0], "reads input "), " ")
	if p.Input(name) != nil {
		return false
	}
	outs := map[string]bool{}
	for _, o := range p.outputNames() {
		outs[o] = true
	}
	found := false
	for _, e := range p.allExprs() {
		e.walk(func(x *PExpr) bool {
			if x.Op == "call" && outs[x.N] {
				for _, a := range x.A {
					found = found || hasOp(a, "call", "in")
				}
			}
			return !found
		})
	}
	return found
}
