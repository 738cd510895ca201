package fuzz

import (
	"fmt"
	"hash/fnv"
	"math/rand"
	"slices"
	"sort"
	"strings"

	"github.com/gohalide/gohalide/halide"
)

// The generator keeps a model of every stage's loops (names innermost
// first, kinds, constant extents where known) and of where every Func is
// computed, and draws directives that are legal-looking for that model:
// GPU thread loops inside block loops, producers inside a kernel only at
// block or thread level, unroll and vectorize on loops of constant extent,
// parallel RVars only with Atomic on a scatter, and so on. A small share of
// draws breaks these rules on purpose so the library's rejections are
// exercised too.

// kind is the model's loop kind.
type kind int

const (
	kSerial kind = iota
	kParallel
	kVector
	kUnroll
	kBlock
	kThread
)

type mdim struct {
	name string
	rvar bool
	kind kind
	ext  int // constant extent, 0 if unknown
	// root is the algorithm's var the loop was split from ("" for a
	// fused loop).
	root string
}

type mstage struct {
	dims    []mdim // innermost first
	scatter bool
	assoc   bool // an associative update (StageSpec.Assoc): rfactor may apply
	ordered bool // associative but not commutative (StageSpec.Ordered)
	pure    bool // the stage is the pure definition
	output  bool // the stage is the output's pure definition
	single  bool // GPUSingleThread: every loop runs in one GPU thread
	// cases are the loops of the stage's specializations (the stage's own
	// dims are its default's).
	cases []*mstage
}

// inAllCases says whether every case of st has a loop called name (a
// producer can be computed or stored only there).
func (st *mstage) inAllCases(name string) bool {
	for _, c := range st.cases {
		if c.index(name) < 0 {
			return false
		}
	}
	return true
}

// ctx is where a Func is computed: on the host, at the level of a GPU
// block (inside block loops, outside thread loops) or inside a GPU thread.
type ctx int

const (
	ctxHost ctx = iota
	ctxBlock
	ctxThread
)

type mfunc struct {
	name      string
	stages    []*mstage
	consumers []StageRef
	inline    bool
	ctx       ctx // where the Func is computed
	scheduled bool
	// window is set when f is stored outside the loop it is computed in
	// (a sliding-window draw).
	window bool
	// level is where the Func is computed, as drawn ("root", or the
	// consumer, its stage and the loop); "" when inline.
	level string
}

type gen struct {
	rng    *rand.Rand
	gpu    bool
	a      *Algo
	s      Schedule
	funcs  map[string]*mfunc
	order  []string
	fresh  int
	broken bool // true once a deliberately illegal directive was drawn
	// curCase is the case of a specialization the loop directives being
	// drawn schedule (0: the stage's default); emit tags them with it.
	curCase int
}

// Generate draws a random schedule of a for the CPU or (gpu) the GPU.
func Generate(a *Algo, gpu bool, rng *rand.Rand) Schedule {
	g := &gen{rng: rng, gpu: gpu, a: a, funcs: map[string]*mfunc{}}
	for _, fs := range a.Funcs {
		mf := &mfunc{name: fs.Name, consumers: append([]StageRef(nil), fs.Consumers...)}
		for si, ss := range fs.Stages {
			st := &mstage{scatter: ss.Scatter, assoc: ss.Assoc, ordered: ss.Ordered, pure: si == 0}
			for _, dd := range ss.Dims {
				st.dims = append(st.dims, mdim{name: dd.Name, rvar: dd.RVar, root: dd.Name})
			}
			mf.stages = append(mf.stages, st)
		}
		g.funcs[fs.Name] = mf
		g.order = append(g.order, fs.Name)
	}
	// In wrappers first: a wrapper is scheduled right after its consumer.
	pIn := 0.25
	if gpu {
		pIn = 0.4
	}
	wrapped := map[[2]string]bool{} // {Src, consumer}: an In wrapper serves it
	for _, w := range a.Wraps {
		if g.rng.Float64() >= pIn {
			continue
		}
		name := w.WrapperName()
		if _, dup := g.funcs[name]; dup {
			continue
		}
		if _, ok := g.funcs[w.Consumer]; !ok {
			continue
		}
		// Sometimes the global wrapper, Src.In(): every consumer of Src
		// reads it, which for a Src with one consumer is the same.
		g.s = append(g.s, Directive{Op: OpIn, Func: w.Src, Consumer: w.Consumer, Wrapper: name, Tail: NoTail, Global: g.p(0.3)})
		wrapped[[2]string{w.Src, w.Consumer}] = true
		mf := &mfunc{name: name}
		st := &mstage{pure: true}
		for _, n := range w.Dims {
			st.dims = append(st.dims, mdim{name: n, root: n})
		}
		mf.stages = []*mstage{st}
		for _, cs := range w.ConsumerStages {
			mf.consumers = append(mf.consumers, StageRef{w.Consumer, cs})
		}
		g.funcs[name] = mf
		if src, ok := g.funcs[w.Src]; ok {
			// The source is now called by the wrapper instead.
			var cons []StageRef
			for _, c := range src.consumers {
				if c.Func != w.Consumer {
					cons = append(cons, c)
				}
			}
			src.consumers = append(cons, StageRef{name, 0})
		}
		// Insert after the consumer.
		for i, n := range g.order {
			if n == w.Consumer {
				g.order = append(g.order[:i+1], append([]string{name}, g.order[i+1:]...)...)
				break
			}
		}
	}
	g.clones(wrapped)
	g.rfactors()
	g.funcs[g.order[0]].stages[0].output = true
	outs := map[string]bool{}
	for _, name := range a.Outputs {
		if f := g.funcs[name]; f != nil {
			f.stages[0].output = true
			outs[name] = true
		}
	}
	for i, name := range g.order {
		if outs[name] {
			g.extraOutput(g.funcs[name])
			continue
		}
		g.schedule(g.funcs[name], i == 0)
	}
	if g.p(pCWFocus) && g.computeWithFocus() {
		return g.s
	}
	g.computeWiths()
	g.prefetches()
	return g.s
}

// prefetches sometimes has stages prefetch a Func or an input they read
// (Prefetch, PrefetchImage) at one of their loops, from that loop or one
// inside it, a few iterations ahead (or behind), with any strategy: a
// hint, so the result is the reference's. Mostly at a loop Lower takes
// (not vectorized nor inside a vectorized loop; in a kernel, the
// innermost thread loop or inside it); now and then at any loop, and the
// source may be computed inline or inside the loop (rejected_lower).
func (g *gen) prefetches() {
	if !g.p(0.3) {
		return
	}
	for _, name := range g.order {
		f := g.funcs[name]
		for si, st := range f.stages {
			if f.inline || len(st.dims) == 0 || !g.p(0.4) {
				continue
			}
			type source struct {
				name  string
				image int
			}
			var srcs []source
			for _, p := range g.order {
				if slices.Contains(g.funcs[p].consumers, StageRef{name, si}) {
					srcs = append(srcs, source{p, 0})
				}
			}
			for _, w := range g.a.Wraps {
				if _, isFunc := g.funcs[w.Src]; !isFunc && w.Consumer == name && slices.Contains(w.ConsumerStages, si) {
					srcs = append(srcs, source{w.Src, 1})
				}
			}
			if len(srcs) == 0 {
				continue
			}
			innermostThread, outermostGPU := -1, -1
			for i, d := range st.dims {
				if d.kind == kThread && innermostThread < 0 {
					innermostThread = i
				}
				if d.kind == kThread || d.kind == kBlock {
					outermostGPU = i
				}
			}
			var ats []int
			for i := range st.dims {
				legal := !(i <= outermostGPU && i > innermostThread)
				for _, d := range st.dims[i:] {
					legal = legal && d.kind != kVector
				}
				if legal || g.p(0.05) {
					ats = append(ats, i)
				}
			}
			if len(ats) == 0 {
				continue
			}
			at := g.pick(ats)
			from := g.rng.Intn(at + 1)
			src := srcs[g.rng.Intn(len(srcs))]
			g.emit(Directive{Op: OpPrefetch, Func: name, Stage: si, Consumer: src.name,
				Vars: []string{st.dims[at].name, st.dims[from].name},
				Ints: []int{g.pick([]int{1, 1, 2, 3, -1, 8}), g.rng.Intn(3), src.image}})
		}
	}
}

func (g *gen) p(x float64) bool { return g.rng.Float64() < x }

// pClone is the share of (Func, consumer) pairs the generator clones for
// that consumer (CloneIn), where the Func has another consumer too.
const pClone = 0.12

// clones draws CloneIn of Funcs for one of their consumers: the clone is a
// copy of the Func's stages (drawn before any directive of the Func, so
// its schedule is the default), called by that consumer only; what the
// Func calls is called by the clone too. wrapped holds the pairs an In
// wrapper already serves.
func (g *gen) clones(wrapped map[[2]string]bool) {
	for _, name := range append([]string(nil), g.order...) {
		src := g.funcs[name]
		if src == nil || name == g.order[0] || !g.isAlgoFunc(name) {
			continue
		}
		var consumers []string
		seen := map[string]bool{}
		for _, c := range src.consumers {
			if !seen[c.Func] && g.isAlgoFunc(c.Func) && !wrapped[[2]string{name, c.Func}] {
				seen[c.Func] = true
				consumers = append(consumers, c.Func)
			}
		}
		if len(seen) < 2 || !g.p(pClone) {
			continue
		}
		cons := consumers[g.rng.Intn(len(consumers))]
		clone := name + "_clone_in_" + cons
		if _, dup := g.funcs[clone]; dup {
			continue
		}
		g.s = append(g.s, Directive{Op: OpCloneIn, Func: name, Consumer: cons, Wrapper: clone, Tail: NoTail})
		mf := &mfunc{name: clone}
		for _, st := range src.stages {
			c := *st
			c.dims = append([]mdim(nil), st.dims...)
			c.cases = nil
			mf.stages = append(mf.stages, &c)
		}
		var rest []StageRef
		for _, c := range src.consumers {
			if c.Func == cons {
				mf.consumers = append(mf.consumers, c)
			} else {
				rest = append(rest, c)
			}
		}
		src.consumers = rest
		for _, qn := range g.order {
			q := g.funcs[qn]
			for _, c := range q.consumers {
				if c.Func == name {
					q.consumers = append(q.consumers, StageRef{clone, c.Stage})
				}
			}
		}
		g.funcs[clone] = mf
		for i, n := range g.order {
			if n == cons {
				g.order = append(g.order[:i+1], append([]string{clone}, g.order[i+1:]...)...)
				break
			}
		}
	}
}

// isAlgoFunc says whether name is one of the algorithm's own Funcs (not
// a wrapper, clone or intermediate the schedule made).
func (g *gen) isAlgoFunc(name string) bool {
	for _, fs := range g.a.Funcs {
		if fs.Name == name {
			return true
		}
	}
	return false
}

// pRFactor is the share of associative updates the generator rfactors
// (and of the intermediates' updates, again).
const pRFactor = 0.3

// rfactors draws rfactor of associative updates before anything is
// scheduled: sometimes after a split (keeping its outer or inner piece)
// or a fuse of the update's RVars, keeping one RVar (or piece), two, all
// or none. The intermediate f_intm joins the model as a Func computed
// just before its consumer f; f's update keeps the pieces and gets every
// pure var; the producers the update read are read by the intermediate.
func (g *gen) rfactors() {
	for k := 0; k < len(g.order); k++ {
		f := g.funcs[g.order[k]]
		for si := 1; si < len(f.stages); si++ {
			if f.stages[si].assoc && g.p(pRFactor) {
				g.rfactor(f, si, k)
			}
		}
	}
}

func (g *gen) rfactor(f *mfunc, si, at int) {
	st := f.stages[si]
	rvars := func() []int {
		var out []int
		for i, dd := range st.dims {
			if dd.rvar {
				out = append(out, i)
			}
		}
		return out
	}
	rv := rvars()
	if len(rv) == 0 {
		return
	}
	switch r := g.rng.Float64(); {
	case r < 0.4:
		i := g.pick(rv)
		g.split(f, si, st, i, g.factor(), g.tail(st, st.dims[i]))
	case r < 0.5:
		var cand []int
		for _, i := range rv {
			if i+1 < len(st.dims) && st.dims[i+1].rvar {
				cand = append(cand, i)
			}
		}
		if len(cand) > 0 {
			i := g.pick(cand)
			name := g.newName("rf")
			g.emit(Directive{Op: OpFuse, Func: f.name, Stage: si, Vars: []string{st.dims[i].name, st.dims[i+1].name, name}})
			dims := append([]mdim{}, st.dims[:i]...)
			dims = append(dims, mdim{name: name, rvar: true})
			st.dims = append(dims, st.dims[i+2:]...)
		}
	}
	rv = rvars()
	var keep []int
	switch r := g.rng.Float64(); {
	case r < 0.05:
	case r < 0.15:
		keep = rv
	default:
		keep = []int{g.pick(rv)}
		if len(rv) > 2 && g.p(0.3) {
			for _, i := range rv {
				if i != keep[0] {
					keep = append(keep, i)
					break
				}
			}
		}
	}
	var vars []string
	kept := map[int]string{}
	for _, i := range keep {
		u := g.newName("u")
		kept[i] = u
		vars = append(vars, st.dims[i].name, u)
	}
	name := f.name + "_intm"
	for n := 1; g.funcs[name] != nil; n++ {
		name = fmt.Sprintf("%s_intm_%d", f.name, n)
	}
	g.emit(Directive{Op: OpRFactor, Func: f.name, Stage: si, Vars: vars, Wrapper: name})
	// The intermediate: f's pure vars and the new ones; its update is
	// f's with the kept pieces pure.
	var args []mdim
	for _, dd := range f.stages[0].dims {
		args = append(args, mdim{name: dd.name, root: dd.root})
	}
	pure := &mstage{pure: true, dims: append([]mdim{}, args...)}
	up := &mstage{scatter: st.scatter, assoc: true, ordered: st.ordered}
	for i, dd := range st.dims {
		if u, ok := kept[i]; ok {
			pure.dims = append(pure.dims, mdim{name: u, root: u})
			dd = mdim{name: u, root: u}
		}
		up.dims = append(up.dims, dd)
	}
	im := &mfunc{name: name, stages: []*mstage{pure, up}, consumers: []StageRef{{f.name, si}}}
	// The producers f's update read are the intermediate's.
	for _, m := range g.funcs {
		for i, c := range m.consumers {
			if c == (StageRef{f.name, si}) {
				m.consumers[i] = StageRef{name, 1}
			}
		}
	}
	g.funcs[name] = im
	g.order = append(g.order[:at+1], append([]string{name}, g.order[at+1:]...)...)
	// f's update: its pure loops, the kept pieces, and every pure var it
	// did not have (outermost); its kept RVars write one point each
	// iteration, so parallel ones need Atomic, as a scatter's (not for an
	// ordered update, whose partial results must combine in order:
	// Atomic would assert they commute).
	var dims []mdim
	has := map[string]bool{}
	for i, dd := range st.dims {
		if _, ok := kept[i]; ok || !dd.rvar {
			dims = append(dims, dd)
			has[dd.root] = true
		}
	}
	for _, a := range args {
		if !has[a.name] {
			dims = append(dims, a)
		}
	}
	st.dims, st.scatter = dims, len(keep) > 0 && !st.ordered
}

func (g *gen) newName(base string) string {
	g.fresh++
	base = strings.NewReplacer("$", "", ".", "").Replace(base)
	if len(base) > 3 {
		base = base[:3]
	}
	return fmt.Sprintf("%s%d", base, g.fresh)
}

func (g *gen) emit(d Directive) {
	if d.Tail == 0 && d.Op != OpSplit && d.Op != OpTile && d.Op != OpGPUTile && d.Op != OpGPUTile1D && d.Op != OpGPUTile3D {
		d.Tail = NoTail
	}
	if d.Op != OpSpecialize && g.curCase > 0 {
		d.Case = g.curCase
	}
	if f, ok := g.funcs[d.Func]; ok {
		switch d.Op {
		case OpComputeRoot:
			f.level = "root"
		case OpComputeAt:
			f.level = fmt.Sprintf("%s/%d/%s", d.Consumer, d.ConsumerStage, d.Vars[0])
		}
	}
	g.s = append(g.s, d)
}

// computeWiths sometimes fuses stages of Funcs computed at one level
// (ComputeWith, pure definitions or updates) down to a loop both have,
// from the outermost, with one alignment; several draws at a level make
// chains and trees of fused stages. The two Funcs of a draw do not read
// each other (directly or not), and the one fused into the other is the
// later in g.order, so the draws make no cycle. Lower refuses the groups
// whose productions are not adjacent, whose loops differ in kind, or
// whose stages of one Func share a loop that is not a pure dimension,
// and the draws the rest of the schedule makes illegal (a Func's level
// is the drawn one; rootShared may move it to root later). A share of
// schedules (pCWFocus) is drawn by computeWithFocus instead.
func (g *gen) computeWiths() {
	type ref struct {
		f  *mfunc
		si int
	}
	byLevel := map[string][]ref{}
	var all []ref
	for _, name := range g.order {
		f := g.funcs[name]
		if f.level == "" || f.inline {
			continue
		}
		for si, st := range f.stages {
			if len(st.cases) > 0 || st.single || len(st.dims) == 0 {
				continue
			}
			byLevel[f.level] = append(byLevel[f.level], ref{f, si})
			all = append(all, ref{f, si})
		}
	}
	emit := func(c, p ref, v string) {
		g.emit(Directive{Op: OpComputeWith, Func: c.f.name, Stage: c.si, Consumer: p.f.name, ConsumerStage: p.si,
			Vars: []string{v}, Ints: []int{g.rng.Intn(4)}})
	}
	index := map[*mfunc]int{}
	for i, name := range g.order {
		index[g.funcs[name]] = i
	}
	// pick draws two stages of Funcs that do not read each other, the
	// one fused into the other always the later in g.order (so that the
	// draws make no cycle), trying a few times.
	pick := func(rs []ref) (c, p ref, ok bool) {
		for try := 0; try < 4 && !ok; try++ {
			c, p = rs[g.rng.Intn(len(rs))], rs[g.rng.Intn(len(rs))]
			if index[c.f] < index[p.f] {
				c, p = p, c
			}
			ok = c.f != p.f && !g.reads(c.f.name, p.f.name) && !g.reads(p.f.name, c.f.name)
		}
		return c, p, ok
	}
	drawn := false
	defer func() {
		// Groups at one level are rare: sometimes any two stages, fused
		// at the first one's outermost loop (Lower refuses two levels,
		// or loops that differ).
		if !drawn && len(all) >= 2 && g.p(0.1) {
			if c, p, ok := pick(all); ok {
				dims := p.f.stages[p.si].dims
				emit(c, p, dims[len(dims)-1].name)
			}
		}
	}()
	var levels []string
	for l := range byLevel {
		levels = append(levels, l)
	}
	sort.Strings(levels)
	for _, l := range levels {
		rs := byLevel[l]
		if len(rs) < 2 || !g.p(0.9) {
			continue
		}
		for n := 1 + g.rng.Intn(3); n > 0; n-- {
			c, p, ok := pick(rs)
			if !ok {
				continue
			}
			a, b := c.f.stages[c.si].dims, p.f.stages[p.si].dims
			var common []string
			for k := 1; k <= len(a) && k <= len(b); k++ {
				da, db := a[len(a)-k], b[len(b)-k]
				if da.name != db.name || (da.kind == kVector) != (db.kind == kVector) || !(da.kind == db.kind || ordered(da.kind) && ordered(db.kind)) {
					break
				}
				common = append(common, da.name)
			}
			if len(common) == 0 {
				continue
			}
			emit(c, p, common[g.rng.Intn(len(common))])
			drawn = true
		}
	}
}

// schedule draws the compute level and the loop directives of f.
func (g *gen) schedule(f *mfunc, isOutput bool) {
	f.scheduled = true
	f.ctx = ctxHost
	if !isOutput {
		g.computeLevel(f)
	}
	if f.inline {
		return
	}
	for si, st := range f.stages {
		g.loops(f, si, st)
	}
	g.memory(f, isOutput)
}

// extraOutput draws the schedule of an output of a pipeline with several
// outputs other than the first Func (Algo.Outputs): computed at the root,
// which it is without a directive; now and then ComputeInline or
// ComputeAt a consumer, which the library refuses (an output is computed
// at the root, as in Halide).
func (g *gen) extraOutput(f *mfunc) {
	switch r := g.rng.Float64(); {
	case r < 0.3:
		g.emit(Directive{Op: OpComputeRoot, Func: f.name})
	case r < 0.33:
		g.emit(Directive{Op: OpComputeInline, Func: f.name})
	case r < 0.36:
		if cons := g.effectiveConsumers(f, 0); len(cons) > 0 {
			ref := cons[g.rng.Intn(len(cons))]
			if cf := g.funcs[ref.Func]; cf != nil && len(cf.stages[ref.Stage].dims) > 0 {
				dims := cf.stages[ref.Stage].dims
				g.emit(Directive{Op: OpComputeAt, Func: f.name, Consumer: cf.name, ConsumerStage: ref.Stage, Vars: []string{dims[g.rng.Intn(len(dims))].name}})
			}
		}
	}
	g.schedule(f, true)
}

// effectiveConsumers are the non-inline stages that call f, looking
// through inline consumers.
func (g *gen) effectiveConsumers(f *mfunc, depth int) []StageRef {
	var out []StageRef
	for _, c := range f.consumers {
		cf := g.funcs[c.Func]
		if cf == nil {
			continue
		}
		if cf.inline && depth < 5 {
			out = append(out, g.effectiveConsumers(cf, depth+1)...)
		} else {
			out = append(out, c)
		}
	}
	return out
}

// transitiveConsumers are all scheduled non-inline Funcs that use f,
// directly or not.
func (g *gen) transitiveConsumers(f *mfunc) []string {
	seen := map[string]bool{}
	var out []string
	var walk func(m *mfunc, depth int)
	walk = func(m *mfunc, depth int) {
		if depth > 6 {
			return
		}
		for _, c := range m.consumers {
			cf := g.funcs[c.Func]
			if cf == nil || seen[c.Func] {
				continue
			}
			seen[c.Func] = true
			if !cf.inline {
				out = append(out, c.Func)
			}
			walk(cf, depth+1)
		}
	}
	walk(f, 0)
	return out
}

// loopCtx is the context inside loop index li of stage st of f.
func loopCtx(f *mfunc, st *mstage, li int) ctx {
	if st.single {
		return ctxThread // inside the stage's kernel of one thread
	}
	c := f.ctx
	for i := len(st.dims) - 1; i >= li; i-- {
		switch st.dims[i].kind {
		case kBlock:
			if c < ctxBlock {
				c = ctxBlock
			}
		case kThread:
			c = ctxThread
		}
	}
	return c
}

func (g *gen) computeLevel(f *mfunc) {
	r := g.rng.Float64()
	pure := len(f.stages) == 1
	cons := g.effectiveConsumers(f, 0)
	switch {
	case pure && r < 0.2:
		// Inline: the default; say so explicitly half the time.
		f.inline = true
		if g.p(0.5) {
			g.emit(Directive{Op: OpComputeInline, Func: f.name})
		}
		return
	case r < 0.45 || len(cons) == 0:
		g.emit(Directive{Op: OpComputeRoot, Func: f.name})
		f.ctx = ctxHost
		if g.p(0.04) {
			g.storageSize(f)
		}
		return
	}
	ref := cons[g.rng.Intn(len(cons))]
	if g.p(0.15) {
		if tc := g.transitiveConsumers(f); len(tc) > 0 {
			cf := g.funcs[tc[g.rng.Intn(len(tc))]]
			ref = StageRef{cf.name, g.rng.Intn(len(cf.stages))}
		}
	}
	cf := g.funcs[ref.Func]
	st := cf.stages[ref.Stage]
	if len(st.dims) == 0 {
		g.emit(Directive{Op: OpComputeRoot, Func: f.name})
		return
	}
	pw := 0.3
	if g.a.PWindow > 0 {
		pw = g.a.PWindow
	}
	if ref.Stage == len(cf.stages)-1 && len(st.cases) == 0 && g.p(pw) && g.window(f, cf, st) {
		return
	}
	li := g.rng.Intn(len(st.dims))
	if g.gpu {
		// Prefer the innermost block loop and the thread loops of the
		// consumer's kernels (inside an outer block loop, the producer's
		// loops would lie between the block loops).
		var gpuLoops []int
		innerBlock := true
		for i, dd := range st.dims {
			if dd.kind == kThread || (dd.kind == kBlock && innerBlock) {
				gpuLoops = append(gpuLoops, i)
			}
			if dd.kind == kBlock {
				innerBlock = false
			}
		}
		if len(gpuLoops) > 0 && g.p(0.6) {
			// The innermost block loop or any thread loop.
			li = gpuLoops[g.rng.Intn(len(gpuLoops))]
		}
	}
	if !st.inAllCases(st.dims[li].name) && g.p(0.9) {
		// Mostly a loop every case of the consumer has (else Lower
		// refuses it).
		var common []int
		for i, dd := range st.dims {
			if st.inAllCases(dd.name) {
				common = append(common, i)
			}
		}
		if len(common) == 0 {
			g.emit(Directive{Op: OpComputeRoot, Func: f.name})
			f.ctx = ctxHost
			return
		}
		li = common[g.rng.Intn(len(common))]
	}
	cs := ref.Stage
	if ref.Stage == len(cf.stages)-1 && g.p(0.7) {
		cs = -1
	}
	g.emit(Directive{Op: OpComputeAt, Func: f.name, Consumer: cf.name, ConsumerStage: cs, Vars: []string{st.dims[li].name}})
	f.ctx = loopCtx(cf, st, li)
	// Store level: an enclosing loop of the same (last) stage, or root.
	if lj := li + g.rng.Intn(len(st.dims)-li); cs == -1 && st.inAllCases(st.dims[lj].name) && g.p(0.2) {
		g.emit(Directive{Op: OpStoreAt, Func: f.name, Consumer: cf.name, ConsumerStage: -1, Vars: []string{st.dims[lj].name}})
	} else if g.p(0.04) {
		g.emit(Directive{Op: OpStoreRoot, Func: f.name})
	}
	if g.p(0.03) {
		g.fold(f, "")
	}
	if g.p(0.04) {
		g.storageSize(f)
	}
	if cs == -1 && len(st.cases) == 0 && g.p(0.06) {
		g.hoist(f, cf, st, li)
	}
}

// ordered says whether a loop of kind k runs its iterations in order on
// one thread (a sliding window may move along it).
func ordered(k kind) bool { return k == kSerial || k == kUnroll }

// window draws a sliding-window schedule of f in the last stage st of its
// consumer cf: ComputeAt a serial (or unrolled) loop and StoreAt a loop
// strictly outside it, or StoreRoot, so that f's storage outlives the
// loop it is computed in and only the new part of its region is computed
// at each iteration. On the GPU the store level is most often the thread
// loop just outside a serial loop that a thread runs (see kernel). A
// share puts a parallel, vector or GPU loop between the two levels (no
// slide may happen across it), and some draws ask for a fold of f's
// storage, of a safe or an unsafe extent (Lower must refuse the unsafe
// ones). It says whether it drew anything.
func (g *gen) window(f, cf *mfunc, st *mstage) bool {
	// A pair: compute at dims[i], store at dims[j] (j == len(dims): root).
	type pair struct{ i, j int }
	var good, thread, bad []pair
	for i, di := range st.dims {
		if !ordered(di.kind) {
			continue
		}
		inOrder := true
		for j := i + 1; j <= len(st.dims); j++ {
			// Loops i..j-1 lie between the store level and the body of
			// the compute loop.
			inOrder = inOrder && ordered(st.dims[j-1].kind)
			pr := pair{i, j}
			switch {
			case !inOrder:
				bad = append(bad, pr)
			case j < len(st.dims) && st.dims[j].kind == kThread:
				thread = append(thread, pr)
			default:
				good = append(good, pr)
			}
		}
	}
	// Most stencils of the algorithms and of random chains move along y:
	// prefer compute loops split from y.
	alongY := func(ps []pair) []pair {
		var out []pair
		for _, p := range ps {
			if st.dims[p.i].root == "y" {
				out = append(out, p)
			}
		}
		if len(out) == 0 || g.p(0.3) {
			return ps
		}
		return out
	}
	good, thread = alongY(good), alongY(thread)
	var pr pair
	switch {
	case len(bad) > 0 && g.p(0.1):
		pr = bad[g.rng.Intn(len(bad))]
	case g.gpu && len(thread) > 0 && g.p(0.8):
		pr = thread[g.rng.Intn(len(thread))]
	case len(good) > 0:
		pr = good[g.rng.Intn(len(good))]
	case len(thread) > 0:
		pr = thread[g.rng.Intn(len(thread))]
	default:
		return false
	}
	root := pr.j == len(st.dims)
	if root && (g.gpu && loopCtx(cf, st, pr.i) != ctxHost || cf.ctx != ctxHost) && g.p(0.9) {
		// Root storage of a Func computed inside a kernel, or inside a
		// consumer that is itself computed in a loop: mostly store at
		// the outermost loop of the stage instead.
		if pr.j-1 <= pr.i {
			return false
		}
		pr.j--
		root = false
	}
	ci := st.dims[pr.i]
	g.emit(Directive{Op: OpComputeAt, Func: f.name, Consumer: cf.name, ConsumerStage: -1, Vars: []string{ci.name}})
	if root {
		g.emit(Directive{Op: OpStoreRoot, Func: f.name})
	} else {
		g.emit(Directive{Op: OpStoreAt, Func: f.name, Consumer: cf.name, ConsumerStage: -1, Vars: []string{st.dims[pr.j].name}})
	}
	f.ctx = loopCtx(cf, st, pr.i)
	f.window = true
	if g.p(0.4) {
		g.fold(f, ci.root)
	}
	if g.p(0.15) {
		g.hoist(f, cf, st, pr.i)
	}
	return true
}

// hoist draws HoistStorage of f, computed at loop li of consumer cf's last
// stage: a loop of that stage at or outside li (which may lie inside
// the store level: Lower refuses it), or the root. Loops crossed that are
// parallel or GPU loops are refused too.
func (g *gen) hoist(f *mfunc, cf *mfunc, st *mstage, li int) {
	k := li + g.rng.Intn(len(st.dims)-li+1)
	if k == len(st.dims) {
		g.emit(Directive{Op: OpHoistRoot, Func: f.name})
		return
	}
	g.emit(Directive{Op: OpHoistStorage, Func: f.name, Consumer: cf.name, ConsumerStage: -1, Vars: []string{st.dims[k].name}})
}

// fold draws FoldStorage of f: usually in the dimension of the loop the
// window moves along (along, the algorithm's var of the compute loop),
// by an extent that is safe for a 3-point stencil (4, 8, 16) or not (1,
// 2, 3 and 5 may be too small or, for a window that jumps, not safe).
func (g *gen) fold(f *mfunc, along string) {
	vars, v := g.storageVar(f)
	if v == "" {
		return
	}
	for _, n := range vars {
		if n == along && g.p(0.85) {
			v = n
		}
	}
	ext := []int{1, 2, 3, 4, 4, 5, 8, 8, 16}[g.rng.Intn(9)]
	g.emit(Directive{Op: OpFoldStorage, Func: f.name, Vars: []string{v}, Ints: []int{ext}})
}

// storageVar returns the pure vars of f that storage directives name (the
// roots of its pure definition's loops) and one drawn of them ("" if
// none).
func (g *gen) storageVar(f *mfunc) (vars []string, v string) {
	for _, dd := range f.stages[0].dims {
		if !dd.rvar && dd.root != "" {
			vars = append(vars, dd.root)
		}
	}
	if len(vars) == 0 {
		return nil, ""
	}
	return vars, vars[g.rng.Intn(len(vars))]
}

// storageSize draws AlignStorage or BoundStorage of f in one of its pure
// vars: alignments that pad a little or a lot (33 pads rows of 32 for
// the banks), bounds that may be too small (refused at Lower, or at run
// time as a size the schedule cannot hold); or AlignBounds / AlignExtent,
// which widen the region computed.
func (g *gen) storageSize(f *mfunc) {
	_, v := g.storageVar(f)
	if v == "" {
		return
	}
	switch r := g.rng.Float64(); {
	case r < 0.35:
		g.emit(Directive{Op: OpAlignStorage, Func: f.name, Vars: []string{v}, Ints: []int{[]int{2, 3, 4, 8, 33}[g.rng.Intn(5)]}})
	case r < 0.7:
		g.emit(Directive{Op: OpBoundStorage, Func: f.name, Vars: []string{v}, Ints: []int{[]int{4, 8, 16, 64, 256}[g.rng.Intn(5)]}})
	case r < 0.85:
		m := []int{2, 3, 4, 8}[g.rng.Intn(4)]
		g.emit(Directive{Op: OpAlignBounds, Func: f.name, Vars: []string{v}, Ints: []int{m, g.rng.Intn(m)}})
	default:
		g.emit(Directive{Op: OpAlignExtent, Func: f.name, Vars: []string{v}, Ints: []int{[]int{2, 3, 4, 8}[g.rng.Intn(4)]}})
	}
}

func (g *gen) memory(f *mfunc, isOutput bool) {
	if isOutput {
		if g.p(0.03) {
			g.emit(Directive{Op: OpStoreIn, Func: f.name, Mem: int(halide.Heap)})
		}
		return
	}
	// Each table holds cumulative probabilities: the first entry whose
	// bound r is below is chosen; above the last, no StoreIn.
	var table []memChoice
	switch {
	case !g.gpu:
		table = []memChoice{{0.15, halide.Stack}, {0.3, halide.Heap}, {0.33, halide.Register}, {0.35, halide.GPUShared}}
	case f.ctx == ctxBlock:
		// Register: one copy per thread, each thread's own points. Heap:
		// global scratch, one copy per block.
		table = []memChoice{{0.5, halide.GPUShared}, {0.7, halide.Register}, {0.8, halide.Heap}}
	case f.ctx == ctxThread && f.window:
		// A window slides only in a thread's own memory.
		table = []memChoice{{0.3, halide.Stack}, {0.5, halide.Heap}, {0.6, halide.Register}, {0.65, halide.GPUShared}}
	case f.ctx == ctxThread:
		// Heap: global scratch, one copy per thread.
		table = []memChoice{{0.35, halide.Register}, {0.65, halide.GPUShared}, {0.7, halide.Stack}, {0.78, halide.Heap}}
	default:
		table = []memChoice{{0.1, halide.Heap}, {0.13, halide.GPUShared}}
	}
	m, set := halide.MemoryAuto, false
	r := g.rng.Float64()
	for _, c := range table {
		if r < c.below {
			m, set = c.mem, true
			break
		}
	}
	if set {
		if g.p(0.05) {
			m, set = halide.MemoryAuto, true
		}
		g.emit(Directive{Op: OpStoreIn, Func: f.name, Mem: int(m)})
	}
}

// memChoice is one row of a table of memory types drawn by a random
// number: mem when it is below below (and above the rows before it).
type memChoice struct {
	below float64
	mem   halide.MemoryType
}

// loops draws the loop directives of stage si of f, sometimes with cases
// (Specialize) first.
func (g *gen) loops(f *mfunc, si int, st *mstage) {
	if g.p(0.1) {
		g.specialize(f, si, st)
	}
	g.stageLoops(f, si, st)
}

// specialize draws one or two cases of stage si of f, each with loop
// directives of its own drawn on a copy of the stage's loops as they are
// (a case inherits the schedule when Specialize is called). The
// conditions test a bool Param of the fuzzer's own or an input's extent,
// never what the algorithm computes, so the reference holds in every
// case. The default's loops, drawn after, are the ones the producers'
// compute levels see: a producer computed at a loop some case lacks is
// refused (rejected_lower).
func (g *gen) specialize(f *mfunc, si int, st *mstage) {
	n := 1 + g.rng.Intn(2)
	for c := 1; c <= n; c++ {
		cond := "spec"
		if g.p(0.5) {
			op := "ge"
			if g.p(0.3) {
				op = "eq"
			}
			cond = fmt.Sprintf("extent %d %d %s %d", g.rng.Intn(4), g.rng.Intn(3), op, 1+g.rng.Intn(40))
		}
		g.emit(Directive{Op: OpSpecialize, Func: f.name, Stage: si, Case: c, Cond: cond, Tail: NoTail})
		cs := &mstage{dims: append([]mdim(nil), st.dims...), scatter: st.scatter, pure: st.pure, output: st.output}
		st.cases = append(st.cases, cs)
		g.curCase = c
		g.stageLoops(f, si, cs)
		g.curCase = 0
	}
}

// stageLoops draws the loop directives of stage si of f (of its case
// g.curCase).
func (g *gen) stageLoops(f *mfunc, si int, st *mstage) {
	if g.gpu {
		switch f.ctx {
		case ctxHost:
			if g.p(0.9) {
				g.kernel(f, si, st)
			} else if len(st.cases) == 0 && g.p(0.5) {
				// A kernel of one thread, the stage's loops serial in it.
				g.emit(Directive{Op: OpGPUSingleThread, Func: f.name, Stage: si})
				st.single = true
			}
		case ctxBlock:
			if g.p(0.6) {
				g.threads(f, si, st)
			}
		}
	}
	n := []int{0, 1, 1, 2, 2, 3, 4}[g.rng.Intn(7)]
	for k := 0; k < n; k++ {
		g.transform(f, si, st)
	}
}

func (g *gen) factor() int {
	return []int{2, 2, 3, 4, 4, 8, 8, 16, 5, 7}[g.rng.Intn(10)]
}

func (g *gen) tail(st *mstage, d mdim) int {
	t := []int{NoTail, int(halide.TailAuto), int(halide.GuardWithIf), int(halide.ShiftInwards), int(halide.RoundUp)}[g.rng.Intn(5)]
	// The output's size is random and often smaller than the factor or
	// not a multiple of it: Realize refuses ShiftInwards and RoundUp
	// there (rejected_size); keep some.
	if st.output && t != int(halide.GuardWithIf) && g.p(0.7) {
		t = int(halide.GuardWithIf)
	}
	// ShiftInwards on an update and RoundUp on an RVar are illegal
	// (rejected at Lower); keep a few.
	if t == int(halide.ShiftInwards) && !st.pure && g.p(0.9) {
		t = int(halide.GuardWithIf)
	}
	if t == int(halide.RoundUp) && d.rvar && g.p(0.9) {
		t = int(halide.GuardWithIf)
	}
	return t
}

// split splits dim i of st into outer and inner, returning their indices
// (inner is i, outer i+1).
func (g *gen) split(f *mfunc, si int, st *mstage, i, factor, tail int) (string, string) {
	dd := st.dims[i]
	o, in := g.newName(dd.name+"o"), g.newName(dd.name+"i")
	g.emit(Directive{Op: OpSplit, Func: f.name, Stage: si, Vars: []string{dd.name, o, in}, Ints: []int{factor}, Tail: tail})
	g.applySplit(st, i, o, in, factor)
	return o, in
}

func (g *gen) applySplit(st *mstage, i int, o, in string, factor int) {
	dd := st.dims[i]
	dims := append([]mdim{}, st.dims[:i]...)
	dims = append(dims, mdim{name: in, rvar: dd.rvar, ext: factor, root: dd.root}, mdim{name: o, rvar: dd.rvar, kind: dd.kind, root: dd.root})
	st.dims = append(dims, st.dims[i+1:]...)
}

func (st *mstage) index(name string) int {
	for i, dd := range st.dims {
		if dd.name == name {
			return i
		}
	}
	return -1
}

// reorder applies Reorder(names...) (innermost first) to the model.
func (st *mstage) reorder(names []string) {
	idx := make([]int, len(names))
	for k, n := range names {
		idx[k] = st.index(n)
		if idx[k] < 0 {
			return
		}
	}
	slots := append([]int(nil), idx...)
	sortInts(slots)
	dims := append([]mdim(nil), st.dims...)
	for k, s := range slots {
		dims[s] = st.dims[idx[k]]
	}
	st.dims = dims
}

func sortInts(a []int) {
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && a[j] < a[j-1]; j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
}

// serialPure returns the indices of the stage's serial pure loops (or, with
// rvars, its serial RVar loops).
func (st *mstage) serial(rvars bool) []int {
	var out []int
	for i, dd := range st.dims {
		if dd.kind == kSerial && dd.rvar == rvars {
			out = append(out, i)
		}
	}
	return out
}

func (g *gen) pick(a []int) int { return a[g.rng.Intn(len(a))] }

// kernel makes a stage computed on the host a GPU kernel: block loops
// outside thread loops, made from its pure loops (or, for a scatter, from
// its RVar loops with Atomic).
func (g *gen) kernel(f *mfunc, si int, st *mstage) {
	if st.assoc && !st.scatter && g.coin(pAllReduce) && g.allReduce(f, si, st) {
		return
	}
	pure := st.serial(false)
	rv := st.serial(true)
	useR := len(pure) == 0 || (st.scatter && g.p(0.4))
	if useR && len(rv) > 0 {
		if st.scatter && g.p(0.9) {
			g.emit(Directive{Op: OpAtomic, Func: f.name, Stage: si})
		}
		pure = rv
	} else if len(pure) == 0 {
		return
	}
	r := g.rng.Float64()
	var ds []int
	if len(pure) >= 3 && !st.dims[pure[0]].rvar && r < pGPUTile3D {
		ds = g.tile3D(st, pure)
	}
	switch {
	case ds != nil:
		// A 3-D tile of threads on three adjacent loops, usually the
		// innermost.
		fs := []int{[]int{2, 4, 8, 16}[g.rng.Intn(4)], []int{1, 2, 3, 4}[g.rng.Intn(4)], []int{1, 2, 3}[g.rng.Intn(3)]}
		tail := g.tail(st, st.dims[ds[0]])
		var ns, bs, ts []string
		for _, k := range ds {
			n := st.dims[k].name
			ns, bs, ts = append(ns, n), append(bs, g.newName(n+"b")), append(ts, g.newName(n+"t"))
		}
		g.emit(Directive{Op: OpGPUTile3D, Func: f.name, Stage: si, Vars: append(append(append([]string(nil), ns...), bs...), ts...), Ints: fs, Tail: tail})
		for k := range ns {
			g.applySplit(st, st.index(ns[k]), bs[k], ts[k], fs[k])
		}
		st.reorder(append(append([]string(nil), ts...), bs...))
		for k := range ns {
			st.dims[st.index(bs[k])].kind = kBlock
			st.dims[st.index(ts[k])].kind = kThread
		}
	case len(pure) >= 2 && r < 0.45:
		// A 2-D tile of threads, usually on the two innermost loops.
		a, b := pure[0], pure[1]
		if g.p(0.3) {
			a = g.pick(pure)
			for b = g.pick(pure); b == a; b = g.pick(pure) {
			}
		}
		if b < a && g.p(0.8) {
			a, b = b, a
		}
		fx := []int{2, 4, 8, 16}[g.rng.Intn(4)]
		fy := []int{1, 2, 3, 4, 8}[g.rng.Intn(5)]
		tail := g.tail(st, st.dims[a])
		xn, yn := st.dims[a].name, st.dims[b].name
		bx, by, tx, ty := g.newName(xn+"b"), g.newName(yn+"b"), g.newName(xn+"t"), g.newName(yn+"t")
		if g.p(0.5) {
			g.emit(Directive{Op: OpGPUTile, Func: f.name, Stage: si, Vars: []string{xn, yn, bx, by, tx, ty}, Ints: []int{fx, fy}, Tail: tail})
		} else {
			g.emit(Directive{Op: OpSplit, Func: f.name, Stage: si, Vars: []string{xn, bx, tx}, Ints: []int{fx}, Tail: tail})
			g.emit(Directive{Op: OpSplit, Func: f.name, Stage: si, Vars: []string{yn, by, ty}, Ints: []int{fy}, Tail: tail})
			g.emit(Directive{Op: OpReorder, Func: f.name, Stage: si, Vars: []string{tx, ty, bx, by}})
			g.emit(Directive{Op: OpGPUBlocks, Func: f.name, Stage: si, Vars: []string{bx, by}})
			g.emit(Directive{Op: OpGPUThreads, Func: f.name, Stage: si, Vars: []string{tx, ty}})
		}
		g.applySplit(st, st.index(xn), bx, tx, fx)
		g.applySplit(st, st.index(yn), by, ty, fy)
		st.reorder([]string{tx, ty, bx, by})
		st.dims[st.index(bx)].kind = kBlock
		st.dims[st.index(by)].kind = kBlock
		st.dims[st.index(tx)].kind = kThread
		st.dims[st.index(ty)].kind = kThread
	default:
		a := pure[0]
		if g.p(0.4) {
			a = g.pick(pure)
		}
		xn := st.dims[a].name
		fx := []int{2, 4, 8, 16, 32}[g.rng.Intn(5)]
		tail := g.tail(st, st.dims[a])
		bx, tx := g.newName(xn+"b"), g.newName(xn+"t")
		// A second block dimension: the loop just outside.
		var extra string
		if a+1 < len(st.dims) && st.dims[a+1].kind == kSerial && (st.dims[a+1].rvar == st.dims[a].rvar) && g.p(0.4) {
			extra = st.dims[a+1].name
		}
		if extra == "" && g.p(0.5) {
			g.emit(Directive{Op: OpGPUTile1D, Func: f.name, Stage: si, Vars: []string{xn, bx, tx}, Ints: []int{fx}, Tail: tail})
		} else {
			g.emit(Directive{Op: OpSplit, Func: f.name, Stage: si, Vars: []string{xn, bx, tx}, Ints: []int{fx}, Tail: tail})
			blocks := []string{bx}
			if extra != "" {
				blocks = append(blocks, extra)
			}
			g.emit(Directive{Op: OpGPUBlocks, Func: f.name, Stage: si, Vars: blocks})
			g.emit(Directive{Op: OpGPUThreads, Func: f.name, Stage: si, Vars: []string{tx}})
		}
		g.applySplit(st, a, bx, tx, fx)
		st.dims[st.index(bx)].kind = kBlock
		st.dims[st.index(tx)].kind = kThread
		if extra != "" {
			st.dims[st.index(extra)].kind = kBlock
		}
	}
	// Now and then keep a kernel's tail guards where they are.
	if r := g.rng.Float64(); r < 0.04 {
		g.emit(Directive{Op: OpNeverPartitionAll, Func: f.name, Stage: si})
	} else if r < 0.1 {
		g.emit(Directive{Op: OpNeverPartition, Func: f.name, Stage: si, Vars: []string{st.dims[g.rng.Intn(len(st.dims))].name}})
	}
	if g.p(0.45) {
		g.walkInThreads(f, si, st)
	}
}

// tile3D picks three adjacent serial loops of pure (the innermost most of
// the time), or, now and then, any three, in order; nil if there are none
// (GPUTile3D leaves the loops between them serial, between block loops).
func (g *gen) tile3D(st *mstage, pure []int) []int {
	var starts []int
	for k := 0; k+2 < len(pure); k++ {
		if pure[k+2]-pure[k] == 2 {
			starts = append(starts, k)
		}
	}
	if len(starts) == 0 || g.p(0.05) {
		if g.p(0.8) {
			return nil
		}
		ds := g.rng.Perm(len(pure))[:3]
		for k := range ds {
			ds[k] = pure[ds[k]]
		}
		sortInts(ds)
		return ds
	}
	k := starts[0]
	if g.p(0.3) {
		k = starts[g.rng.Intn(len(starts))]
	}
	return pure[k : k+3]
}

// pGPUTile3D is the share of GPU kernels of three or more serial loops
// tiled with GPUTile3D.
const pGPUTile3D = 0.2

// pAllReduce is the share of associative updates computed on the host
// that the generator makes an all-reduce across a block's threads.
const pAllReduce = 0.6

// coin reports true with probability p, drawn from the schedule drawn so
// far rather than from g.rng: a case that does not draw an all-reduce is
// the case the generator drew before it could (the fuzzers' seeds and
// the quick tests keep their schedules).
func (g *gen) coin(p float64) bool {
	h := fnv.New64a()
	for _, d := range g.s {
		fmt.Fprint(h, d.Op, d.Func, d.Stage, d.Vars, d.Ints, d.Tail, ";")
	}
	return rand.New(rand.NewSource(int64(h.Sum64()))).Float64() < p
}

// allReduce makes an associative update a kernel whose thread loop is an
// RVar (lowered to an all-reduce: warp shuffles, then shared memory): a
// pure loop is the block loop, an RVar loop is split (GuardWithIf, a
// factor that often is not a multiple of 32) and its inner part runs on
// the threads, or on the lanes of a warp (GPULanes) when it is at most 32;
// sometimes the outer part runs inside the threads (each thread sums a
// strided slice). It reports whether it drew one.
func (g *gen) allReduce(f *mfunc, si int, st *mstage) bool {
	pure, rv := st.serial(false), st.serial(true)
	if len(pure) == 0 || len(rv) == 0 {
		return false
	}
	b := st.dims[g.pick(pure)].name
	a := rv[0]
	if g.p(0.3) {
		a = g.pick(rv)
	}
	fx := []int{3, 8, 20, 32, 32, 64, 100}[g.rng.Intn(7)]
	ro, ri := g.split(f, si, st, a, fx, int(halide.GuardWithIf))
	order := []string{ri, ro, b}
	if g.p(0.5) {
		order = []string{ro, ri, b}
	}
	g.emit(Directive{Op: OpReorder, Func: f.name, Stage: si, Vars: order})
	st.reorder(order)
	g.emit(Directive{Op: OpGPUBlocks, Func: f.name, Stage: si, Vars: []string{b}})
	if fx <= 32 && g.p(0.5) {
		g.emit(Directive{Op: OpGPULanes, Func: f.name, Stage: si, Vars: []string{ri}})
	} else {
		g.emit(Directive{Op: OpGPUThreads, Func: f.name, Stage: si, Vars: []string{ri}})
	}
	st.dims[st.index(b)].kind = kBlock
	st.dims[st.index(ri)].kind = kThread
	return true
}

// walkInThreads moves the serial pure loop just outside a stage's GPU
// loops inside its thread loops: each thread walks it (a column per
// thread), and a producer computed in that loop and stored at the thread
// loop slides along it, in the thread's own memory.
func (g *gen) walkInThreads(f *mfunc, si int, st *mstage) {
	gpuLoop := func(i int) bool { return st.dims[i].kind == kThread || st.dims[i].kind == kBlock }
	lo := 0
	for lo < len(st.dims) && !gpuLoop(lo) {
		lo++
	}
	hi := lo
	for hi+1 < len(st.dims) && gpuLoop(hi+1) {
		hi++
	}
	if hi+1 >= len(st.dims) || st.dims[hi+1].kind != kSerial || st.dims[hi+1].rvar {
		return
	}
	names := []string{st.dims[hi+1].name}
	for k := lo; k <= hi; k++ {
		names = append(names, st.dims[k].name)
	}
	g.emit(Directive{Op: OpReorder, Func: f.name, Stage: si, Vars: names})
	st.reorder(names)
}

// threads gives a stage computed at block level thread loops: a pure loop
// split with the inner part the threads, or a loop marked as is.
func (g *gen) threads(f *mfunc, si int, st *mstage) {
	pure := st.serial(false)
	if len(pure) == 0 {
		return
	}
	a := pure[0]
	if g.p(0.3) {
		a = g.pick(pure)
	}
	if g.p(0.25) {
		g.emit(Directive{Op: OpGPUThreads, Func: f.name, Stage: si, Vars: []string{st.dims[a].name}})
		st.dims[a].kind = kThread
		return
	}
	if g.p(0.3) {
		// A tile per thread: the outer part of the split is the thread
		// loop and each thread walks the inner part, unrolled or
		// serial (what a Func stored in registers at the block level
		// wants: each thread reads back its own tile).
		o, in := g.split(f, si, st, a, []int{2, 3, 4}[g.rng.Intn(3)], g.tail(st, st.dims[a]))
		g.emit(Directive{Op: OpGPUThreads, Func: f.name, Stage: si, Vars: []string{o}})
		st.dims[st.index(o)].kind = kThread
		if g.p(0.5) {
			g.emit(Directive{Op: OpUnroll, Func: f.name, Stage: si, Vars: []string{in}})
			st.dims[st.index(in)].kind = kUnroll
		}
		return
	}
	xn := st.dims[a].name
	fx := []int{2, 4, 8, 16}[g.rng.Intn(4)]
	o, in := g.split(f, si, st, a, fx, g.tail(st, st.dims[a]))
	_ = o
	g.emit(Directive{Op: OpGPUThreads, Func: f.name, Stage: si, Vars: []string{in}})
	st.dims[st.index(in)].kind = kThread
	_ = xn
}

// transform draws one loop directive on serial loops of the stage.
func (g *gen) transform(f *mfunc, si int, st *mstage) {
	var ser []int
	for i, dd := range st.dims {
		if dd.kind == kSerial {
			ser = append(ser, i)
		}
	}
	if len(ser) == 0 {
		return
	}
	inKernel := g.gpu && (f.ctx != ctxHost || hasKind(st, kBlock) || st.single)
	r := g.rng.Float64()
	switch {
	case r < 0.3: // split
		i := g.pick(ser)
		g.split(f, si, st, i, g.factor(), g.tail(st, st.dims[i]))
	case r < 0.38: // tile
		var pure []int
		for _, i := range ser {
			if !st.dims[i].rvar {
				pure = append(pure, i)
			}
		}
		if len(pure) < 2 {
			return
		}
		a, b := pure[0], pure[1]
		xn, yn := st.dims[a].name, st.dims[b].name
		fx, fy := g.factor(), g.factor()
		tail := g.tail(st, st.dims[a])
		xo, yo, xi, yi := g.newName(xn+"o"), g.newName(yn+"o"), g.newName(xn+"i"), g.newName(yn+"i")
		g.emit(Directive{Op: OpTile, Func: f.name, Stage: si, Vars: []string{xn, yn, xo, yo, xi, yi}, Ints: []int{fx, fy}, Tail: tail})
		g.applySplit(st, a, xo, xi, fx)
		g.applySplit(st, st.index(yn), yo, yi, fy)
		st.reorder([]string{xi, yi, xo, yo})
	case r < 0.46: // fuse two adjacent serial loops of the same kind
		// (sometimes a pure var with an RVar of an update: an RVar loop)
		mixed := si > 0 && g.rng.Intn(4) == 0
		var cand []int
		for _, i := range ser {
			if i+1 < len(st.dims) && st.dims[i+1].kind == kSerial && (st.dims[i+1].rvar == st.dims[i].rvar) != mixed {
				cand = append(cand, i)
			}
		}
		if len(cand) == 0 {
			return
		}
		i := g.pick(cand)
		in, out := st.dims[i], st.dims[i+1]
		name := g.newName("f")
		if mixed {
			name = g.newName(fusedRVarPrefix)
		}
		g.emit(Directive{Op: OpFuse, Func: f.name, Stage: si, Vars: []string{in.name, out.name, name}})
		ext := 0
		if in.ext > 0 && out.ext > 0 {
			ext = in.ext * out.ext
		}
		dims := append([]mdim{}, st.dims[:i]...)
		dims = append(dims, mdim{name: name, rvar: in.rvar || out.rvar, ext: ext})
		st.dims = append(dims, st.dims[i+2:]...)
	case r < 0.6: // reorder serial loops
		if len(ser) < 2 {
			return
		}
		perm := g.rng.Perm(len(ser))
		k := 2 + g.rng.Intn(len(ser)-1)
		names := make([]string, k)
		for j := 0; j < k; j++ {
			names[j] = st.dims[ser[perm[j]]].name
		}
		g.emit(Directive{Op: OpReorder, Func: f.name, Stage: si, Vars: names})
		st.reorder(names)
	case r < 0.8: // unroll or vectorize
		op, k, suffix := OpUnroll, kUnroll, "_u"
		if g.p(0.45) {
			op, k, suffix = OpVectorize, kVector, "_v"
		}
		var known []int
		for _, i := range ser {
			if st.dims[i].ext > 0 && st.dims[i].ext <= 16 {
				known = append(known, i)
			}
		}
		if len(known) > 0 && g.p(0.75) {
			i := g.pick(known)
			g.emit(Directive{Op: op, Func: f.name, Stage: si, Vars: []string{st.dims[i].name}})
			st.dims[i].kind = k
			return
		}
		i := g.pick(ser)
		dd := st.dims[i]
		// An RVar's loop (r$x) split this way would make an inner loop
		// r$x_v that a user cannot name (Var names may not hold '$'):
		// Split with names of one's own reaches the same schedules.
		if st.index(dd.name+suffix) >= 0 || strings.ContainsAny(dd.name, "_$") {
			return
		}
		fac := []int{2, 3, 4}[g.rng.Intn(3)]
		tail := NoTail
		if g.p(0.5) {
			tail = g.tail(st, dd) // UnrollTail / VectorizeTail
		}
		g.emit(Directive{Op: op, Func: f.name, Stage: si, Vars: []string{dd.name}, Ints: []int{fac}, Tail: tail})
		// The outer loop keeps the name; the inner is name+suffix.
		g.applySplit(st, i, dd.name, dd.name+suffix, fac)
		st.dims[st.index(dd.name+suffix)].kind = k
	default: // parallel
		if inKernel {
			return
		}
		var cand []int
		for _, i := range ser {
			dd := st.dims[i]
			if !dd.rvar || (st.scatter && g.p(0.5)) || g.p(0.05) {
				cand = append(cand, i)
			}
		}
		if len(cand) == 0 {
			return
		}
		i := g.pick(cand)
		if st.dims[i].rvar && st.scatter && g.p(0.85) {
			g.emit(Directive{Op: OpAtomic, Func: f.name, Stage: si})
		}
		dd := st.dims[i]
		if !dd.rvar && g.p(0.3) && st.index(dd.name+"_par") < 0 && !strings.ContainsAny(dd.name, "_$") {
			// Parallel(v, task size): the outer loop keeps the name
			// and runs in parallel; the inner is name+"_par".
			fac := []int{2, 3, 4}[g.rng.Intn(3)]
			tail := NoTail
			if g.p(0.5) {
				tail = g.tail(st, dd)
			}
			g.emit(Directive{Op: OpParallel, Func: f.name, Stage: si, Vars: []string{dd.name}, Ints: []int{fac}, Tail: tail})
			g.applySplit(st, i, dd.name, dd.name+"_par", fac)
			st.dims[st.index(dd.name)].kind = kParallel
			return
		}
		g.emit(Directive{Op: OpParallel, Func: f.name, Stage: si, Vars: []string{dd.name}})
		st.dims[i].kind = kParallel
	}
}

func hasKind(st *mstage, k kind) bool {
	for _, dd := range st.dims {
		if dd.kind == k {
			return true
		}
	}
	return false
}

// pCWFocus is the share of schedules that test compute_with itself (see
// computeWithFocus).
const pCWFocus = 0.1

// reads says whether Func a reads Func b, directly or through other
// Funcs (the model's, wrappers and intermediates included) or inline
// reductions.
func (g *gen) reads(a, b string) bool {
	seen := map[string]bool{b: true}
	work := []string{b}
	for len(work) > 0 {
		n := work[len(work)-1]
		work = work[:len(work)-1]
		var next []string
		if f := g.funcs[n]; f != nil {
			for _, c := range f.consumers {
				next = append(next, c.Func)
			}
		}
		if fs := g.a.Func(n); fs != nil {
			next = append(next, fs.ReducedIn...)
		}
		for _, c := range next {
			if c == a {
				return true
			}
			if !seen[c] {
				seen[c] = true
				work = append(work, c)
			}
		}
	}
	return false
}

// computeWithFocus draws a schedule made to test compute_with: two
// Funcs of the algorithm that do not read each other (nor are the
// output, nor internal boundary-condition Funcs, whose names hold '$'),
// computed at root, one stage of one fused with a stage of the other
// along a pure loop both have, from the outermost, with any alignment;
// sometimes both fused loops are split alike first (GuardWithIf) and the
// fusion is along the outer piece, and sometimes the fused loop is
// parallel (on the GPU, a block loop) in both. The rest of the schedule
// is simplified so that it lowers: a Func drawn at a loop is computed
// inline (one stage) or at root (updates), and only In and CloneIn
// wrappers and the compute levels are kept (no loop, storage, rfactor,
// specialize or prefetch directives).
// It says whether it found such a pair (else the schedule is unchanged).
func (g *gen) computeWithFocus() bool {
	type cand struct {
		name string
		si   int
		vars []string // pure loops, outermost first
	}
	var cands []cand
	for fi, fs := range g.a.Funcs {
		if fi == 0 || len(fs.Consumers) == 0 || strings.Contains(fs.Name, "$") {
			continue
		}
		for si, ss := range fs.Stages {
			var vars []string
			for k := len(ss.Dims) - 1; k >= 0 && !ss.Dims[k].RVar; k-- {
				vars = append(vars, ss.Dims[k].Name)
			}
			if len(vars) > 0 {
				cands = append(cands, cand{fs.Name, si, vars})
			}
		}
	}
	type pair struct {
		c, p   cand
		common []string
	}
	var pairs []pair
	for _, c := range cands {
		for _, p := range cands {
			if c.name == p.name || g.reads(c.name, p.name) || g.reads(p.name, c.name) {
				continue
			}
			var common []string
			for k := 0; k < len(c.vars) && k < len(p.vars) && c.vars[k] == p.vars[k]; k++ {
				common = append(common, c.vars[k])
			}
			if len(common) > 0 {
				pairs = append(pairs, pair{c, p, common})
			}
		}
	}
	if len(pairs) == 0 {
		return false
	}
	pr := pairs[g.rng.Intn(len(pairs))]
	// Keep the wrappers and the compute levels (at root) of the others.
	exists := map[string]bool{}
	for _, fs := range g.a.Funcs {
		exists[fs.Name] = true
	}
	var s Schedule
	for _, d := range g.s {
		switch d.Op {
		case OpIn, OpCloneIn:
			exists[d.Wrapper] = true
		case OpComputeRoot, OpComputeInline:
		case OpComputeAt:
			d = Directive{Op: OpComputeRoot, Func: d.Func, Tail: NoTail}
			if f := g.funcs[d.Func]; f != nil && len(f.stages) == 1 {
				d.Op = OpComputeInline
			}
		default:
			continue
		}
		if d.Op != OpIn && d.Op != OpCloneIn && (!exists[d.Func] || d.Func == pr.c.name || d.Func == pr.p.name) {
			continue
		}
		s = append(s, d)
	}
	g.s = s
	g.curCase = 0
	g.emit(Directive{Op: OpComputeRoot, Func: pr.c.name})
	g.emit(Directive{Op: OpComputeRoot, Func: pr.p.name})
	v := pr.common[g.rng.Intn(len(pr.common))]
	if g.p(0.3) {
		o, in := g.newName(v+"o"), g.newName(v+"i")
		factor := 2 + g.rng.Intn(3)
		for _, r := range []cand{pr.c, pr.p} {
			g.emit(Directive{Op: OpSplit, Func: r.name, Stage: r.si, Vars: []string{v, o, in}, Ints: []int{factor}, Tail: int(halide.GuardWithIf)})
		}
		v = o
	}
	if g.p(0.3) {
		op := OpParallel
		if g.gpu {
			op = OpGPUBlocks
		}
		for _, r := range []cand{pr.c, pr.p} {
			g.emit(Directive{Op: op, Func: r.name, Stage: r.si, Vars: []string{v}})
		}
	}
	g.emit(Directive{Op: OpComputeWith, Func: pr.c.name, Stage: pr.c.si, Consumer: pr.p.name, ConsumerStage: pr.p.si,
		Vars: []string{v}, Ints: []int{g.rng.Intn(4)}})
	return true
}
