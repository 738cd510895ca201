package fuzz

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"math/rand"
	"slices"
	"strings"

	"github.com/gohalide/gohalide/halide"
)

// GPUShare is the share of program cases with a GPU schedule.
const GPUShare = 0.4

// MakeProgCase draws program case i of the run with seed: a random
// program, the output's extents, an input seed, the target and a random
// schedule from the schedule generator. It depends only on (seed, i).
func MakeProgCase(seed int64, i int) Case {
	rng := rand.New(rand.NewSource(seed*1_000_003 + int64(i)))
	p, sizes := GenProg(rng)
	gpu := rng.Float64() < GPUShare
	inSeed := rng.Int63()
	// Several outputs are drawn from a source of their own, so that a
	// program of one output is the same as before they were drawn.
	if mrng := rand.New(rand.NewSource(seed*7_919_993 ^ (int64(i)*104_729 + 17))); mrng.Float64() < SeveralShare {
		p = severalOutputs(p, sizes, inSeed, mrng)
	}
	a := p.Algo()
	sched := rootShared(Generate(a, gpu, rng), a, rng)
	return Case{Algo: "prog", GPU: gpu, Sizes: sizes, Seed: inSeed, Sched: sched, RunSeed: seed, Index: i, Prog: p}
}

// rootShared computes most Funcs called by several Funcs at root: the
// schedule generator puts a Func inside the loops of one consumer, which
// the library refuses (rightly) when the Func has others; random programs
// share producers far more often than the fixed algorithms.
func rootShared(s Schedule, a *Algo, rng *rand.Rand) Schedule {
	shared := map[string]bool{}
	for _, f := range a.Funcs {
		cons := map[string]bool{}
		for _, c := range f.Consumers {
			cons[c.Func] = true
		}
		shared[f.Name] = len(cons) > 1 && rng.Float64() < 0.7
	}
	var out Schedule
	for _, d := range s {
		if shared[d.Func] {
			switch d.Op {
			case OpComputeAt:
				d = Directive{Op: OpComputeRoot, Func: d.Func, Tail: NoTail}
			case OpStoreAt, OpHoistStorage:
				continue
			}
		}
		out = append(out, d)
	}
	return out
}

// progInputs draws the inputs' data from seed: ints in [-3, 9], floats
// multiples of 1/4 in [-2, 2].
func progInputs(p *Prog, seed int64) map[string]*InputData {
	rng := rand.New(rand.NewSource(seed))
	out := map[string]*InputData{}
	for _, in := range p.Inputs {
		d := &InputData{Mins: in.Mins, Exts: in.Exts}
		n := 1
		for _, e := range in.Exts {
			n *= max(e, 0)
		}
		for k := 0; k < n; k++ {
			if in.Float {
				d.Vals = append(d.Vals, float64(rng.Intn(17)-8)/4)
			} else {
				d.Vals = append(d.Vals, float64(rng.Intn(13)-3))
			}
		}
		out[in.Name] = d
	}
	return out
}

func fillBuffer[T int32 | float32](b *halide.Buffer[T], d *InputData) {
	b.Fill(func(c []int) T {
		i, _ := d.index(c)
		return T(d.Vals[i])
	})
}

func readBuffer[T int32 | float32](b *halide.Buffer[T], mins, exts []int) []float64 {
	var out []float64
	forEach(exts, func(c []int) {
		a := make([]int, len(c))
		for i := range c {
			a[i] = c[i] + mins[i]
		}
		out = append(out, float64(b.Get(a...)))
	})
	return out
}

// compareVals compares the output with the reference: ints exactly,
// floats within Tolerance relative (the programs' floats are exact, so
// any difference is a real one).
func compareVals(got, want []float64, exts, mins []int) string {
	bad, first := 0, ""
	k := 0
	forEach(exts, func(c []int) {
		g, w := got[k], want[k]
		k++
		if g == w || (math.IsNaN(g) && math.IsNaN(w)) || math.Abs(g-w) <= Tolerance*math.Max(1, math.Abs(w)) {
			return
		}
		if bad == 0 {
			a := make([]int, len(c))
			for i := range c {
				a[i] = c[i] + mins[i]
			}
			first = fmt.Sprintf("out%v = %g, want %g", a, g, w)
		}
		bad++
	})
	if bad == 0 {
		return ""
	}
	return fmt.Sprintf("%d of %d points wrong; first: %s", bad, size(exts), first)
}

func emptyOutput(sizes []int) bool {
	for _, n := range sizes {
		if n <= 0 {
			return true
		}
	}
	return false
}

// isCanceled says whether err is the ErrCanceled of a context deadline.
func isCanceled(err error) bool {
	var he *halide.Error
	return errors.As(err, &he) && he.Code == halide.ErrCanceled
}

// runProg runs a program case: the reference first (an invalid program
// stops there), then Lower and Realize, and for a wrong result the checks
// of its cause (causes: negative divisors, RVar order).
func runProg(c Case, opt Options) Result {
	return runProgCauses(c, opt, true)
}

func runProgCauses(c Case, opt Options, causes bool) (res Result) {
	p := c.Prog
	data := progInputs(p, c.Seed)
	ev := &Evaluator{P: p, Inputs: data}
	want, rerr := ev.RealizeOutputs(p.OutMin, c.Sizes)
	var re *RefError
	if rerr != nil {
		errors.As(rerr, &re)
		if re.Kind != "oob" {
			return Result{Class: Invalid, Code: re.Kind, Msg: re.Msg, Applied: c.Sched}
		}
	}
	inst := p.build()
	ctx, cancel, limit := deadline(opt)
	defer cancel()
	pl, failed := lowerCase(ctx, c, opt, inst, &res, limit)
	if failed != nil {
		r := *failed
		if (re != nil || ev.BoundViolation != "" || ev.SoftViolation != "") && r.Class == RejectLower {
			r.Class = RejectExpected
		}
		if len(p.Outputs) > 0 && r.Class == RejectLower && refusedOutputs.MatchString(r.Msg) {
			r.Class = RejectExpected
		}
		return r
	}
	if opt.Windows {
		res.Slid, res.Folded, res.Nested = windows(inst.Out)
	}
	for _, in := range p.Inputs {
		if in.Float {
			b := halide.NewBuffer[float32](in.Exts...).SetMin(in.Mins...)
			fillBuffer(b, data[in.Name])
			inst.Images[in.Name].Set(b)
		} else {
			b := halide.NewBuffer[int32](in.Exts...).SetMin(in.Mins...)
			fillBuffer(b, data[in.Name])
			inst.Images[in.Name].Set(b)
		}
	}
	obs := outputBuffers(p, c.Sizes)
	var err error
	if len(p.Outputs) == 0 {
		err = pl.RealizeContext(ctx, obs[0].bufs[0])
	} else {
		err = pl.RealizeTupleContext(ctx, allBufs(obs)...)
	}
	if err != nil {
		if isCanceled(err) {
			return slowRun(res, limit)
		}
		r := classify(err, RejectRealize, res.Applied)
		r.Lower, r.Slid, r.Folded, r.Nested = res.Lower, res.Slid, res.Folded, res.Nested
		switch {
		case (re != nil || ev.BoundViolation != "" || ev.SoftViolation != "") && (r.Class == RejectRealize || r.Class == RejectSize || r.Class == BadAccess):
			// A program that reads outside an input (through a
			// data-dependent index no assertion sees) may be stopped
			// at the read itself.
			r.Class = RejectExpected
		case r.Class == RejectRealize && outputOOB.MatchString(r.Msg) && shiftsAnOutput(res.Applied, p):
			r.Class = RejectSize
		case r.Class == RejectRealize && overComputesBy(r.Msg, res.Applied, false):
			r.Class = RejectSize
		case r.Class == RejectRealize && outputOOB.MatchString(r.Msg) && scattersOutput(p):
			// An update of the output at a data-dependent point
			// writes, for bounds inference, anywhere in the range of
			// its index (a clamp's whole range), which Realize checks
			// against the output buffer, as Halide does; the reference
			// writes only the points the data gives.
			r.Class = RejectSize
		case r.Class == RejectRealize && readsOutputByData(p, r.Msg):
			r.Class = RejectSize
		case r.Class == RejectRealize && boundTooSmall.MatchString(r.Msg):
			r.Class = RejectSize
		case r.Class == RejectRealize && clampedBeyond(p, r.Msg):
			// A data-dependent index clamped to a range wider than the
			// input's buffer: bounds inference takes the clamp's whole
			// range (as Halide does); the reference reads the values the
			// data gives.
			r.Class = RejectSize
		case r.Class == RejectRealize && inputOOB.MatchString(r.Msg) && hasWhere(p):
			// An RDom's Where condition refines the regions an update
			// reads only where bounds inference can solve it (a simple
			// comparison), as in Halide; elsewhere the whole RDom box is
			// read, past an input the reference (skipping the points the
			// condition excludes) never reads.
			r.Class = RejectSize
		case r.Class == RejectRealize && inputOOB.MatchString(r.Msg) && len(p.Bounds) > 0:
			// A Bound computes its Func over the whole bound, which may
			// read past an input the reference (computing what is
			// needed) never reads, as in Halide.
			r.Class = RejectSize
		case r.Class == RejectRealize && inputOOB.MatchString(r.Msg) && emptyOutput(c.Sizes):
			// The regions of loops that run no iteration are checked
			// as if they ran (a clamped read's box does not shrink), as
			// in Halide; the reference reads nothing.
			r.Class = RejectSize
		}
		return r
	}
	res.Class = OK
	if re != nil {
		// The library ran a program whose reference reads outside an
		// input: fine if that read is dead (a Func that ignores its
		// argument, inlined, never evaluates it, as in Halide). The
		// reference again with such reads giving 0 must then agree.
		// A schedule that rfactors an update of the output computes
		// only the output's region of it (the scatter outside goes to
		// the intermediate, which nothing reads): the reference drops
		// those writes too.
		lenient := &Evaluator{P: p, Inputs: data, Lenient: true, DropOutputScatter: rfactorsOutput(res.Applied, p.Funcs[0].Name)}
		w2, err := lenient.RealizeOutputs(p.OutMin, c.Sizes)
		var le *RefError
		if errors.As(err, &le) && le.Kind != "oob" {
			// The lenient reference stops for another reason (a NaN
			// or an overflow the program makes once the dead reads give
			// 0): the program is invalid, as it would be without them.
			return Result{Class: Invalid, Code: le.Kind, Msg: le.Msg, Applied: c.Sched}
		}
		if err != nil || compareOutputs(p, obs, w2) != "" {
			res.Class, res.Msg = Wrong, fmt.Sprintf("the reference refuses the program (%s) but Realize ran without an error", re.Msg)
		}
		return res
	}
	mismatch := compareOutputs(p, obs, want)
	if mismatch == "" {
		return res
	}
	res.Class, res.Msg = Wrong, mismatch
	if !causes {
		return res
	}
	fl := &Evaluator{P: p, Inputs: data, Floor: true}
	if w2, err := fl.RealizeOutputs(p.OutMin, c.Sizes); err == nil && compareOutputs(p, obs, w2) == "" {
		res.Class = WrongDiv
		res.Msg += " (the reference with floor division and modulo agrees: a negative divisor)"
		return res
	}
	if s := withoutRVarOrder(res.Applied); len(s) < len(res.Applied) {
		c2 := c
		c2.Sched = s
		if r2 := runProgCauses(c2, opt, false); r2.Class == OK {
			res.Class = WrongRVar
			res.Msg += " (right without the directives that reorder RVar loops)"
			return res
		}
	}
	if atomicAssignment(p, res.Applied) {
		// Atomic() is Halide's atomic(true): the user overrides the
		// associativity test, so an assignment whose iterations collide
		// may keep any iteration's value.
		res.Class = RejectExpected
		res.Msg += " (Atomic() on an update that assigns (=): any colliding iteration's value may stay, as Halide's atomic(true))"
	}
	return res
}

// atomicAssignment says whether s makes atomic an update of p that
// assigns (=) rather than reduces.
func atomicAssignment(p *Prog, s Schedule) bool {
	for _, d := range s {
		if d.Op != OpAtomic || d.Stage < 1 {
			continue
		}
		for _, f := range p.Funcs {
			if f.Name == d.Func && d.Stage-1 < len(f.Updates) && f.Updates[d.Stage-1].Op == "=" {
				return true
			}
		}
	}
	return false
}

// rfactorsOutput says whether schedule s rfactors an update of the
// output out.
func rfactorsOutput(s Schedule, out string) bool {
	for _, d := range s {
		if d.Op == OpRFactor && d.Func == out && d.Stage > 0 {
			return true
		}
	}
	return false
}

// scattersOutput says whether an update of the output has a left-hand
// side other than its pure vars (a constant, an RVar or data).
func scattersOutput(p *Prog) bool {
	for _, u := range p.Funcs[0].Updates {
		for i, a := range u.Args {
			if !pureArg(a, i) {
				return true
			}
		}
	}
	return false
}

// withoutRVarOrder drops the directives that may change the order of an
// update's RVar loops: Reorder, Tile, GPUTile, Fuse and Vectorize naming a
// loop made from an RVar, and the directives naming the loops they make.
func withoutRVarOrder(s Schedule) Schedule {
	rv := map[string]bool{}
	isR := func(n string) bool { return rv[n] || strings.Contains(n, "$") }
	gone := map[string]bool{}
	var out Schedule
	for _, d := range s {
		anyR, anyGone := false, false
		for _, n := range d.Vars {
			anyR = anyR || isR(n)
			anyGone = anyGone || gone[n]
		}
		// The loops the directive makes from RVar loops.
		made := func(from int, to ...int) {
			if from < len(d.Vars) && isR(d.Vars[from]) {
				for _, t := range to {
					if t < len(d.Vars) {
						rv[d.Vars[t]] = true
					}
				}
			}
		}
		switch d.Op {
		case OpSplit, OpGPUTile1D:
			made(0, 1, 2)
		case OpTile, OpGPUTile:
			made(0, 2, 4)
			made(1, 3, 5)
		case OpGPUTile3D:
			made(0, 3, 6)
			made(1, 4, 7)
			made(2, 5, 8)
		case OpFuse:
			made(0, 2)
			made(1, 2)
		case OpUnroll, OpVectorize:
			if len(d.Ints) > 0 && len(d.Vars) > 0 && isR(d.Vars[0]) {
				rv[d.Vars[0]+map[Op]string{OpUnroll: "_u", OpVectorize: "_v"}[d.Op]] = true
			}
		}
		drop := anyGone
		switch d.Op {
		case OpReorder, OpTile, OpGPUTile, OpGPUTile3D, OpFuse, OpVectorize:
			drop = drop || anyR
		}
		if drop {
			for _, n := range d.Vars {
				if d.Op != OpReorder {
					gone[n] = true
				}
			}
			continue
		}
		out = append(out, d)
	}
	return out
}

// minimizeProg shrinks a failing program case: directives deleted, updates
// and Funcs dropped (a dropped Func's calls become a constant), Bounds
// dropped, expressions replaced by a child, RDoms and the output shrunk,
// while the failure stays the same.
func minimizeProg(c Case, r Result, try func(Case) (Result, bool)) (Case, Result) {
	accept := func(c2 Case) bool {
		r2, ok := try(c2)
		if ok {
			c, r = c2, r2
			c.Sched = r2.Applied
		}
		return ok
	}
	with := func(mut func(p *Prog) bool) bool {
		c2 := c
		c2.Prog = c.Prog.clone()
		if !mut(c2.Prog) {
			return false
		}
		c2.Prog.prune()
		return accept(c2)
	}
	for pass := 0; pass < 3; pass++ {
		changed := false
		for i := len(c.Sched) - 1; i >= 0; i-- {
			c2 := c
			c2.Sched = c.Sched.Without(i)
			if accept(c2) {
				changed = true
				i = min(i, len(c.Sched))
			}
		}
		// Updates, last first.
		for fi := 0; fi < len(c.Prog.Funcs); fi++ {
			f := c.Prog.Funcs[fi]
			for k := len(f.Updates) - 1; k >= 0; k-- {
				name := f.Name
				c2 := c
				c2.Prog = c.Prog.clone()
				g := c2.Prog.Func(name)
				if g == nil || k >= len(g.Updates) {
					continue
				}
				g.dropUpdate(k)
				c2.Sched = dropStage(c.Sched, name, k+1)
				if accept(c2) {
					changed = true
				}
			}
		}
		// Funcs.
		for fi := len(c.Prog.Funcs) - 1; fi >= 1; fi-- {
			if fi >= len(c.Prog.Funcs) {
				continue
			}
			name := c.Prog.Funcs[fi].Name
			if with(func(p *Prog) bool { return p.replaceCalls(name) }) {
				changed = true
			}
		}
		for bi := len(c.Prog.Bounds) - 1; bi >= 0; bi-- {
			if bi < len(c.Prog.Bounds) && with(func(p *Prog) bool {
				p.Bounds = append(p.Bounds[:bi], p.Bounds[bi+1:]...)
				return true
			}) {
				changed = true
			}
		}
		// Expressions: a node replaced by one of its children of the same
		// type.
		for k := 0; k < c.Prog.nodes(); k++ {
			for child := 0; child < 3; child++ {
				if with(func(p *Prog) bool { return p.hoist(k, child) }) {
					changed = true
					break
				}
			}
		}
		for ri := range c.Prog.RDoms {
			for d := range c.Prog.RDoms[ri].Exts {
				if c.Prog.RDoms[ri].Exts[d] > 1 && with(func(p *Prog) bool { p.RDoms[ri].Exts[d] = 1; return true }) {
					changed = true
				}
			}
		}
		if shrinkSizes(func() []int { return c.Sizes }, func(sizes []int) bool {
			c2 := c
			c2.Sizes = sizes
			return accept(c2)
		}) {
			changed = true
		}
		if !changed {
			break
		}
	}
	return c, r
}

// dropStage removes the directives of stage s of f (update s-1 dropped)
// and renumbers the later stages.
func dropStage(sched Schedule, f string, s int) Schedule {
	var out Schedule
	for _, d := range sched {
		switch d.Op {
		case OpComputeAt, OpStoreAt, OpHoistStorage:
			if d.Consumer == f && d.ConsumerStage >= 0 {
				if d.ConsumerStage == s {
					continue
				}
				if d.ConsumerStage > s {
					d.ConsumerStage--
				}
			}
		case OpComputeRoot, OpComputeInline, OpStoreRoot, OpStoreIn, OpFoldStorage, OpAlignStorage, OpBoundStorage, OpAlignBounds, OpAlignExtent, OpHoistRoot, OpIn:
		default:
			if d.Func == f {
				if d.Stage == s {
					continue
				}
				if d.Stage > s {
					d.Stage--
				}
			}
		}
		out = append(out, d)
	}
	return out
}

// replaceCalls replaces every call of Func name by the constant 1.
func (p *Prog) replaceCalls(name string) bool {
	found := false
	for _, f := range p.Funcs {
		for s := 0; s <= len(f.Updates); s++ {
			for _, e := range f.stageExprs(s) {
				e.walk(func(x *PExpr) bool {
					if x.Op == "call" && x.N == name {
						*x = PExpr{Op: "c", F: x.F, V: 1}
						found = true
						return false
					}
					return true
				})
			}
		}
	}
	return found
}

// allExprs lists the program's top-level expressions.
func (p *Prog) allExprs() []*PExpr {
	var out []*PExpr
	for _, f := range p.Funcs {
		for s := 0; s <= len(f.Updates); s++ {
			out = append(out, f.stageExprs(s)...)
		}
	}
	return out
}

// nodes counts the expression nodes of p.
func (p *Prog) nodes() int {
	n := 0
	for _, e := range p.allExprs() {
		e.walk(func(*PExpr) bool { n++; return true })
	}
	return n
}

// hoist replaces node k (in walk order) by its child, if that child has
// the same type; it says whether it did.
func (p *Prog) hoist(k, child int) bool {
	n, ok := 0, false
	for _, e := range p.allExprs() {
		e.walk(func(x *PExpr) bool {
			if n > k {
				return false
			}
			n++
			if n-1 < k {
				return true
			}
			if child < len(x.A) && x.Op != "<" && x.Op != "==" && x.Op != "cast" && !(x.Op == "sel" && child == 0) {
				if a := x.A[child]; a.F == x.F && a.Op != "<" && a.Op != "==" {
					*x = *a
					ok = true
				}
			}
			return false
		})
	}
	return ok
}

// progRepro prints a reproduction of a program case: a standalone Go
// program (package main) that builds the program, binds the inputs'
// data, applies the schedule, realizes the output and compares it with
// the reference's values, followed by the case as JSON for -replay.
func progRepro(c Case, r Result, original int) string {
	p := c.Prog
	var b strings.Builder
	fmt.Fprintf(&b, "// progfuzz reproduction: %s on the %s\n", r.Class, map[bool]string{true: "GPU emulator", false: "CPU"}[c.GPU])
	fmt.Fprintf(&b, "// found as program %d of -seed %d (%d directives before minimizing); input seed %d\n", c.Index, c.RunSeed, original, c.Seed)
	fmt.Fprintf(&b, "// replay: go run ./tests/fuzz/cmd/progfuzz -replay <this file>\n")
	writeResult(&b, r)
	b.WriteString("\npackage main\n\nimport (\n\t\"fmt\"\n\n\t\"github.com/gohalide/gohalide/halide\"\n)\n\nfunc main() {\n")
	var body strings.Builder
	body.WriteString("v := halide.NewVar // loops made by the schedule\n_ = v\n")
	body.WriteString(p.algoSource(c.Sizes))
	data := progInputs(p, c.Seed)
	for _, in := range p.Inputs {
		t := goType(in.Float)
		fmt.Fprintf(&body, "%sData := []%s{%s} // dimension 0 fastest\n", in.Name, t, joinVals(data[in.Name].Vals))
		fmt.Fprintf(&body, "%sBuf := halide.NewBuffer[%s](%s).SetMin(%s)\n", in.Name, t, joinInts(in.Exts), joinInts(in.Mins))
		fmt.Fprintf(&body, "copy(%sBuf.Data(), %sData)\n%s.Set(%sBuf)\n", in.Name, in.Name, in.Name, in.Name)
	}
	body.WriteString("\n// schedule:\n")
	// The conditions of Specialize: the instance's bool Param, as the
	// run set it, and the inputs in name order.
	inst := p.build()
	applied := inst.Apply(c.Sched)
	if inst.spec != nil {
		fmt.Fprintf(&body, "spec := halide.NewParam[bool](%q)\nspec.Set(%v)\n", inst.spec.Name(), inst.spec.Get())
	}
	for _, d := range c.Sched {
		if d.Op == OpSpecialize && strings.HasPrefix(d.Cond, "extent ") && len(p.Inputs) > 0 {
			names := slices.Sorted(maps.Keys(inst.Images))
			fmt.Fprintf(&body, "input := func(k int) *halide.ImageParam { return []*halide.ImageParam{%s}[k%%%d] }\n", strings.Join(names, ", "), len(names))
			break
		}
	}
	// What ran (a Specialize whose condition the program cannot test
	// is skipped); the handles a directive makes but no later one uses
	// are marked used, so that the reproduction compiles.
	for _, l := range strings.SplitAfter(applied.GoSource(p.Algo().Known), "\n") {
		body.WriteString(l)
		if name, _, ok := strings.Cut(l, " := "); ok && !strings.ContainsAny(name, " (") {
			fmt.Fprintf(&body, "_ = %s\n", name)
		}
	}
	t := goType(p.Funcs[0].Float)
	ev := &Evaluator{P: p, Inputs: data}
	if len(p.Outputs) > 0 {
		body.WriteString("\n" + goOutputs(p, c.Sizes, c.GPU))
		if want, err := ev.RealizeOutputs(p.OutMin, c.Sizes); err == nil {
			body.WriteString(goCheckOutputs(p, c.Sizes, want))
		} else {
			fmt.Fprintf(&body, "// the reference refuses this program: %s\nfmt.Println(\"RealizeTuple ran; the reference refuses the program\")\n", err)
		}
	} else {
		fmt.Fprintf(&body, "\nout := halide.NewBuffer[%s](%s).SetMin(%s)\n", t, joinInts(c.Sizes), joinInts(p.OutMin))
		fmt.Fprintf(&body, "pl := halide.NewPipeline(%s)\n", p.Funcs[0].Name)
		if c.GPU {
			body.WriteString("pl.WithTarget(halide.Emulator) // GPU schedule: kernels on the emulator\n")
		}
		body.WriteString("if err := pl.Realize(out); err != nil {\n\tfmt.Println(\"Realize:\", err)\n\treturn\n}\n")
		if want, err := ev.Realize(p.OutMin, c.Sizes); err == nil {
			fmt.Fprintf(&body, "want := []%s{%s} // the reference (Halide's semantics), dimension 0 fastest\n", t, joinVals(want))
			body.WriteString("bad := 0\nfor i, w := range want {\n\tif g := out.Data()[i]; g != w {\n\t\tif bad < 5 {\n\t\t\tfmt.Printf(\"element %d: got %v, want %v\\n\", i, g, w)\n\t\t}\n\t\tbad++\n\t}\n}\nfmt.Printf(\"%d of %d elements wrong\\n\", bad, len(want))\n")
		} else {
			fmt.Fprintf(&body, "// the reference refuses this program: %s\nfmt.Println(\"Realize ran; the reference refuses the program\")\n", err)
		}
	}
	for _, l := range strings.Split(strings.TrimRight(body.String(), "\n"), "\n") {
		b.WriteString("\t" + l + "\n")
	}
	b.WriteString("}\n")
	js, _ := json.Marshal(c)
	fmt.Fprintf(&b, "\n// case: %s\n", js)
	return b.String()
}

func goType(float bool) string {
	if float {
		return "float32"
	}
	return "int32"
}

func joinInts(a []int) string {
	s := make([]string, len(a))
	for i, v := range a {
		s[i] = fmt.Sprint(v)
	}
	return strings.Join(s, ", ")
}

func joinVals(a []float64) string {
	s := make([]string, len(a))
	for i, v := range a {
		s[i] = fmt.Sprint(v)
	}
	return strings.Join(s, ", ")
}

// clampedBeyond says whether msg is an input-bounds refusal whose accessed
// range starts or ends at (or a stencil offset of at most 3 from) a
// constant bound of a clamp in the program.
func clampedBeyond(p *Prog, msg string) bool {
	m := inputOOB.FindStringSubmatch(msg)
	if m == nil {
		return false
	}
	var lo, hi int
	fmt.Sscan(m[1], &lo)
	fmt.Sscan(m[2], &hi)
	found := false
	var walk func(e *PExpr)
	walk = func(e *PExpr) {
		if e == nil || found {
			return
		}
		if e.Op == "clamp" && len(e.A) == 3 && e.A[1].Op == "c" && e.A[2].Op == "c" {
			// The clamped value may index the input directly or, a
			// stencil offset away, through a Func it indexes.
			if abs(int(e.A[1].V)-lo) <= 3 || abs(int(e.A[2].V)-hi) <= 3 {
				found = true
			}
		}
		if e.Op == "sat" {
			// A saturating cast clamps to its type's range.
			tlo, thi := satRange(e.N)
			if abs(int(tlo)-lo) <= 3 || abs(int(thi)-hi) <= 3 {
				found = true
			}
		}
		for _, a := range e.A {
			walk(a)
		}
	}
	for _, e := range p.allExprs() {
		walk(e)
	}
	return found
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// hasWhere reports whether an RDom of p has a Where condition.
func hasWhere(p *Prog) bool {
	for _, r := range p.RDoms {
		if r.Where != nil {
			return true
		}
	}
	return false
}
