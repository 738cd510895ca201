package halide

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/gohalide/gohalide/ir"
)

// Stage is one definition of a Func (the pure definition is stage 0, update
// i is stage i+1), the handle for its loop directives.
type Stage struct {
	f   *Func
	idx int
	// spec, when set, is the case of the stage this handle schedules
	// (Specialize): its directives change that case's schedule.
	spec *ir.Definition
}

// Update returns the handle of update definition i.
func (f *Func) Update(i int) *Stage {
	f = f.begin("Update")
	s := &Stage{f: f, idx: i + 1}
	if i < 0 || i >= len(f.fn.Updates) {
		f.failf(ir.ErrSchedule, "Update", "%s has %d update definitions; there is no update %d", f.fn.Name, len(f.fn.Updates), i)
		s.idx = -1
	}
	return s
}

// stage0 returns the handle of f's pure definition (for a nil f, of a
// new Func that carries the error; see begin).
func (f *Func) stage0(directive string) *Stage {
	return &Stage{f: f.begin(directive), idx: 0}
}

// Err returns the first error recorded on the stage's Func (for a nil or
// zero Stage, which belongs to no Func, an ErrNilObject error).
func (s *Stage) Err() error {
	if s == nil || s.f == nil {
		return ir.Errorf(ir.ErrNilObject, "", "Stage", "a nil or zero Stage belongs to no Func; directives on it are lost").
			WithLegal("a Stage from Func.Update or Func.Stage")
	}
	return s.f.Err()
}

// begin is the start of every Stage directive: it reports whether the
// stage belongs to a Func (a nil or zero Stage does not, and the
// directive does nothing; Err says so) and moves the Func to a new
// generation (see Func.begin), recording a bad name among vs.
func (s *Stage) begin(directive string, vs ...VarOrRVar) bool {
	if s == nil || s.f == nil {
		return false
	}
	s.f.begin(directive, vs...)
	return true
}

// beginDef begins directive (see begin) and returns the definition it
// schedules (see def), or nil when there is none to schedule.
func (s *Stage) beginDef(directive string, vs ...VarOrRVar) *ir.Definition {
	if !s.begin(directive, vs...) {
		return nil
	}
	return s.def(directive)
}

// beginVars is beginDef for a directive on the loops vs: nil (with the
// error recorded) when the stage or a var is not usable.
func (s *Stage) beginVars(directive string, vs ...VarOrRVar) *ir.Definition {
	d := s.beginDef(directive, vs...)
	if d == nil || s.f.err != nil {
		return nil
	}
	if _, ok := s.vars(directive, vs...); !ok {
		return nil
	}
	return d
}

// beginDim is beginVars for a directive on the one loop v: the definition
// and v's index in its Dims, or false (with the error recorded).
func (s *Stage) beginDim(directive string, v VarOrRVar) (*ir.Definition, int, bool) {
	d := s.beginVars(directive, v)
	if d == nil {
		return nil, 0, false
	}
	i, ok := s.findDim(d, directive, v.varName())
	return d, i, ok
}

func (s *Stage) def(directive string) *ir.Definition {
	f := s.f
	if s.idx < 0 {
		return nil
	}
	if f.fn.Pure == nil {
		f.failf(ir.ErrSchedule, directive, "%s is scheduled before it has a definition", f.fn.Name)
		return nil
	}
	if s.spec != nil {
		return s.spec
	}
	return f.fn.Stages()[s.idx]
}

func (s *Stage) name() string {
	if s.idx == 0 {
		return s.f.fn.Name
	}
	return s.f.fn.Name + ".update(" + strconv.Itoa(s.idx-1) + ")"
}

func dimNames(d *ir.Definition) string {
	names := make([]string, len(d.Schedule.Dims))
	for i, x := range d.Schedule.Dims {
		names[len(names)-1-i] = x.Name
	}
	return strings.Join(names, ", ")
}

// findDim returns the index in Dims of the loop called short.
func (s *Stage) findDim(d *ir.Definition, directive, short string) (int, bool) {
	if s.f.inputWrapper && !s.hasShort(d, short) {
		short = s.f.implicitName(s, short)
	}
	found := -1
	for i, x := range d.Schedule.Dims {
		if ir.MatchDim(x.Name, short) {
			if found >= 0 {
				s.f.failf(ir.ErrUnknownVar, directive, "in %s, %s is ambiguous (matches %s and %s)", s.name(), short, d.Schedule.Dims[found].Name, x.Name)
				return 0, false
			}
			found = i
		}
	}
	if found < 0 {
		used, purified := false, ""
		for _, sp := range d.Schedule.Splits {
			if sp.Kind == ir.PurifyRVar && ir.MatchDim(sp.Old, short) {
				purified = sp.Outer
			} else if ir.MatchDim(sp.Old, short) || (sp.Kind == ir.FuseVars && (ir.MatchDim(sp.Inner, short) || ir.MatchDim(sp.Outer, short))) {
				used = true
			}
		}
		if purified != "" {
			s.f.fail(ir.Errorf(ir.ErrVarReused, s.f.fn.Name, directive, "in %s, the RVar %s is the pure var %s: rfactor made it a dimension of %s", s.name(), short, purified, s.f.fn.Name).
				WithLegal("the stage's loops, outermost first: %s", dimNames(d)))
		} else if used {
			s.f.fail(ir.Errorf(ir.ErrVarReused, s.f.fn.Name, directive, "in %s, %s was already split or fused away", s.name(), short).
				WithLegal("the stage's loops, outermost first: %s", dimNames(d)))
		} else {
			why := ""
			if i := slices.Index(s.f.fn.Args, short); i >= 0 && s.idx > 0 && i < len(d.Args) {
				// A pure Var loops in an update only where it stands
				// bare in its own position (Halide's define_update).
				why = fmt.Sprintf(": its left-hand side has %s in position %d, not the bare Var %s, so it does not loop over %s", ir.ExprString(d.Args[i]), i, short, short)
			}
			s.f.fail(ir.Errorf(ir.ErrUnknownVar, s.f.fn.Name, directive, "%s has no loop %s%s", s.name(), short, why).
				WithLegal("the stage's loops, outermost first: %s", dimNames(d)))
		}
		return 0, false
	}
	return found, true
}

func (s *Stage) hasShort(d *ir.Definition, short string) bool {
	for _, x := range d.Schedule.Dims {
		if ir.MatchDim(x.Name, short) {
			return true
		}
	}
	return false
}

// vars returns the names of vs, recording an error for a nil or unnamed var.
func (s *Stage) vars(directive string, vs ...VarOrRVar) ([]string, bool) {
	out := make([]string, len(vs))
	for i, v := range vs {
		if v == nil || v.varName() == "" {
			s.f.failf(ir.ErrUnknownVar, directive, "argument %d of %s is a nil or unnamed var", i, directive)
			return nil, false
		}
		out[i] = s.f.implicitName(s, v.varName())
	}
	return out, true
}

// implicitName maps Halide's names of an input wrapper's dimensions, the
// implicit Vars _0, _1, ... (ImplicitVar), to the wrapper's own Vars (x,
// y, ...: ImageParam.In), where the stage has no loop of that name.
func (f *Func) implicitName(s *Stage, name string) string {
	if !f.inputWrapper || !strings.HasPrefix(name, implicitPrefix) {
		return name
	}
	i, err := strconv.Atoi(name[len(implicitPrefix):])
	if err != nil || i < 0 || i >= len(f.fn.Args) || s.idx < 0 || f.fn.Pure == nil {
		return name
	}
	if d := s.def(""); d != nil && s.hasShort(d, name) {
		return name
	}
	return f.fn.Args[i]
}

// implicitVar is v, or for an input wrapper's ImplicitVar(i) (Halide's
// _i) the wrapper's i-th pure var, as implicitName maps it for the
// loop directives: Bound and BoundExtent name pure vars too.
func (f *Func) implicitVar(v Var) Var {
	if f == nil || f.fn == nil || !f.inputWrapper {
		return v
	}
	if n := f.implicitName(&Stage{f: f, idx: 0}, v.name); n != v.name {
		return newVar(n)
	}
	return v
}

// Split splits loop old into outer and inner loops, inner of extent factor.
// tail optionally picks the tail strategy (default TailAuto); more than one
// is an ErrArgCount error.
func (s *Stage) Split(old, outer, inner VarOrRVar, factor int, tail ...TailStrategy) *Stage {
	if !s.begin("split", old, outer, inner) {
		return s
	}
	if n, ok := s.vars("split", old, outer, inner); ok && s.oneTail("split", tail) {
		s.split("split", n[0], n[1], n[2], factor, tail)
	}
	return s
}

// oneTail reports whether tail, the variadic TailStrategy of a split or
// tile, has at most one value; more is an ErrArgCount error (one strategy
// applies to every split the directive makes, as in Halide's split and
// tile; a second one would be ignored).
func (s *Stage) oneTail(directive string, tail []TailStrategy) bool {
	if len(tail) <= 1 {
		return true
	}
	s.f.fail(ir.Errorf(ir.ErrArgCount, s.f.fn.Name, directive, "in %s, %s is given %d tail strategies %v", s.name(), directive, len(tail), tail).
		WithLegal("at most one TailStrategy, which applies to every split %s makes (split separately for different strategies)", directive))
	return false
}

func (s *Stage) split(directive, old, outer, inner string, factor int, tail []TailStrategy) (string, string, bool) {
	d := s.def(directive)
	if d == nil || s.f.err != nil {
		return "", "", false
	}
	i, ok := s.findDim(d, directive, old)
	if !ok {
		return "", "", false
	}
	if factor <= 0 || factor > 1<<30 {
		s.f.failf(ir.ErrSchedule, directive, "in %s, split of %s by %d: the factor must be positive and at most 2^30", s.name(), old, factor)
		return "", "", false
	}
	if outer == inner {
		s.f.failf(ir.ErrVarReused, directive, "in %s, split of %s names both new loops %s", s.name(), old, outer)
		return "", "", false
	}
	for _, n := range []string{outer, inner} {
		if n != old && s.hasShort(d, n) {
			s.f.fail(ir.Errorf(ir.ErrVarReused, s.f.fn.Name, directive, "in %s, split of %s creates %s, which the stage already has", s.name(), old, n).
				WithLegal("fresh names; the stage's loops are %s", dimNames(d)))
			return "", "", false
		}
	}
	t := ir.TailAuto
	if len(tail) > 0 {
		t = tail[0]
	}
	if t > ir.RoundUp {
		s.f.fail(ir.Errorf(ir.ErrBadArgument, s.f.fn.Name, directive, "in %s, split of %s with TailStrategy(%d), which is not a tail strategy", s.name(), old, uint8(t)).
			WithLegal("TailAuto, GuardWithIf, ShiftInwards or RoundUp"))
		return "", "", false
	}
	dim := d.Schedule.Dims[i]
	q := dim.Name
	qo, qi := q+"."+outer, q+"."+inner
	d.Schedule.Splits = append(d.Schedule.Splits, ir.Split{Kind: ir.SplitVar, Old: q, Outer: qo, Inner: qi, Factor: factor, Tail: t})
	dims := append([]ir.Dim{}, d.Schedule.Dims[:i]...)
	dims = append(dims, ir.Dim{Name: qi, IsRVar: dim.IsRVar}, ir.Dim{Name: qo, Kind: dim.Kind, IsRVar: dim.IsRVar})
	dims = append(dims, d.Schedule.Dims[i+1:]...)
	d.Schedule.Dims = dims
	return qo, qi, true
}

// Fuse fuses loop inner and loop outer into one loop fused, at inner's
// place (fused = inner + outer * inner's extent). As in Halide, loops that
// are not next to each other are first reordered so that outer is just
// outside inner. In an update, a pure var fused with an RVar makes an RVar
// loop (fused must be an RVar): vectorizing it keeps the order, and
// running it in parallel or on the GPU needs Atomic() or
// AllowRaceConditions(), unless the RVar's iterations are independent.
func (s *Stage) Fuse(inner, outer, fused VarOrRVar) *Stage {
	const directive = "fuse"
	d := s.beginVars(directive, inner, outer, fused)
	if d == nil {
		return s
	}
	i, ok := s.findDim(d, directive, inner.varName())
	if !ok {
		return s
	}
	o, ok := s.findDim(d, directive, outer.varName())
	if !ok {
		return s
	}
	if o == i {
		// As Halide: "inner and outer fuse dimensions must be distinct".
		s.f.fail(ir.Errorf(ir.ErrVarReused, s.f.fn.Name, directive, "in %s, fuse names the loop %s as both the inner and the outer loop", s.name(), inner.varName()).
			WithLegal("two different loops of the stage"))
		return s
	}
	if k := d.Schedule.Dims[i].Kind; k != ir.Serial && k != d.Schedule.Dims[o].Kind {
		// The fused loop takes the outer loop's kind: the inner's would be
		// dropped silently (Halide fuses a vectorized Var with an impure
		// RVar into a vectorized RVar loop, and refuses that).
		ok := d.Schedule.Dims[o].Kind.String()
		if d.Schedule.Dims[o].Kind == ir.Serial {
			ok = "serial"
		}
		s.f.fail(ir.Errorf(ir.ErrSchedule, s.f.fn.Name, directive, "in %s, the inner loop %s is %s but the outer loop %s is %s: the fused loop would be %s, dropping the %s marking of %s", s.name(), inner.varName(), k, outer.varName(), ok, ok, k, inner.varName()).
			WithLegal("fuse the loops first, then mark the fused loop %s", fused.varName()))
		return s
	}
	if o != i+1 {
		// As Halide: outer moves to just outside inner first (a reorder,
		// which Lower checks as it checks Reorder).
		moved := d.Schedule.Dims[o]
		dims := append([]ir.Dim{}, d.Schedule.Dims[:o]...)
		dims = append(dims, d.Schedule.Dims[o+1:]...)
		if o < i {
			i--
		}
		dims = append(dims[:i+1], append([]ir.Dim{moved}, dims[i+1:]...)...)
		d.Schedule.Dims = dims
		o = i + 1
	}
	di, do := d.Schedule.Dims[i], d.Schedule.Dims[o]
	// A pure var fused with an RVar (in an update) makes a loop that counts
	// as an RVar loop, as in Halide: parallel or GPU loops over it need
	// Atomic() or AllowRaceConditions(), and the order rule applies to it.
	isRVar := di.IsRVar || do.IsRVar
	if di.IsRVar != do.IsRVar && !fused.isRVar() {
		// As Halide: "Can't fuse RVar ... into Var ...".
		s.f.fail(ir.Errorf(ir.ErrSchedule, s.f.fn.Name, directive, "in %s, fusing %s and %s, one of them an RVar, makes an RVar loop, but the fused %s is a Var", s.name(), inner.varName(), outer.varName(), fused.varName()).
			WithLegal("name the fused loop with an RVar (NewRVar(%q))", fused.varName()))
		return s
	}
	if fused.varName() != inner.varName() && fused.varName() != outer.varName() && s.hasShort(d, fused.varName()) {
		s.f.failf(ir.ErrVarReused, directive, "in %s, fuse creates %s, which the stage already has", s.name(), fused.varName())
		return s
	}
	q := di.Name + "." + fused.varName()
	d.Schedule.Splits = append(d.Schedule.Splits, ir.Split{Kind: ir.FuseVars, Old: q, Outer: do.Name, Inner: di.Name})
	dims := append([]ir.Dim{}, d.Schedule.Dims[:i]...)
	dims = append(dims, ir.Dim{Name: q, Kind: do.Kind, IsRVar: isRVar})
	dims = append(dims, d.Schedule.Dims[o+1:]...)
	d.Schedule.Dims = dims
	return s
}

// Reorder reorders the named loops, innermost first; they take the places
// the same loops held before, and other loops stay where they are.
func (s *Stage) Reorder(vars ...VarOrRVar) *Stage {
	const directive = "reorder"
	d := s.beginVars(directive, vars...)
	if d == nil {
		return s
	}
	idx := make([]int, len(vars))
	seen := map[int]string{}
	for k, v := range vars {
		i, ok := s.findDim(d, directive, v.varName())
		if !ok {
			return s
		}
		if prev, dup := seen[i]; dup {
			s.f.fail(ir.Errorf(ir.ErrReorderDuplicate, s.f.fn.Name, directive, "in %s, reorder lists %s twice (as %s and %s)", s.name(), d.Schedule.Dims[i].Name, prev, v.varName()).
				WithLegal("each loop once; loops, outermost first: %s", dimNames(d)))
			return s
		}
		seen[i] = v.varName()
		idx[k] = i
	}
	slots := append([]int(nil), idx...)
	sortInts(slots)
	dims := append([]ir.Dim(nil), d.Schedule.Dims...)
	for k, slot := range slots {
		dims[slot] = d.Schedule.Dims[idx[k]]
	}
	d.Schedule.Dims = dims
	return s
}

func sortInts(a []int) {
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && a[j] < a[j-1]; j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
}

// Tile splits x and y by xf and yf and orders the loops xi, yi, xo, yo
// (innermost first).
func (s *Stage) Tile(x, y, xo, yo, xi, yi VarOrRVar, xf, yf int, tail ...TailStrategy) *Stage {
	if !s.begin("tile", x, y, xo, yo, xi, yi) || !s.oneTail("tile", tail) {
		return s
	}
	s.Split(x, xo, xi, xf, tail...)
	s.Split(y, yo, yi, yf, tail...)
	return s.Reorder(xi, yi, xo, yo)
}

func (s *Stage) setKind(directive string, v VarOrRVar, k ir.ForKind) *Stage {
	d, i, ok := s.beginDim(directive, v)
	if !ok {
		return s
	}
	if err := s.onGPULoop(d, i, directive, k); err != nil {
		s.f.fail(err)
		return s
	}
	d.Schedule.Dims[i].Kind = k
	return s
}

// onGPULoop returns the ErrSchedule error of parallel or vectorize (k,
// with factor if one was given) on loop i of d when it is a GPU block or
// thread loop, or nil. Marking the loop would replace its GPU kind: a
// parallel loop cannot run inside a kernel, and vectorizing would take
// the loop's threads (or blocks) away, leaving a smaller block or grid
// without a word. Vectorize with a factor on a thread loop is legal, as
// in Halide (gpu_tile(...).vectorize(xi, 4)): it splits the thread loop,
// which stays the thread loop, and each thread computes a vector.
func (s *Stage) onGPULoop(d *ir.Definition, i int, directive string, k ir.ForKind, factor ...int) error {
	dim := d.Schedule.Dims[i]
	if (k != ir.Parallel && k != ir.Vectorized) || (dim.Kind != ir.GPUBlock && dim.Kind != ir.GPUThread) {
		return nil
	}
	if k == ir.Vectorized && dim.Kind == ir.GPUThread && len(factor) > 0 {
		return nil
	}
	what := "thread"
	if dim.Kind == ir.GPUBlock {
		what = "block"
	}
	loops := dimNames(d)
	short := dim.Name[strings.LastIndex(dim.Name, ".")+1:]
	fail := func(why, legal string) error {
		return ir.Errorf(ir.ErrSchedule, s.f.fn.Name, directive, "in %s, %s names %s, a GPU %s loop: %s", s.name(), directive, dim.Name, what, why).
			WithLegal("%s; the stage's loops, outermost first: %s", legal, loops)
	}
	switch {
	case k == ir.Parallel:
		return fail("its iterations already run in parallel on the GPU, and a parallel loop cannot run inside a kernel",
			"drop parallel (it is for CPU loops, outside kernels)")
	case dim.Kind == ir.GPUBlock:
		return fail("it would stop being a block loop (or, with a factor, put a vector loop between the block and thread loops), and the kernel would lose that grid dimension",
			"vectorize a thread loop with a factor, or a loop inside the thread loops")
	default:
		return fail("it would stop being a thread loop, and the block would lose that dimension's threads",
			fmt.Sprintf("give a factor, %s.Vectorize(%s, 4): the thread loop is split, stays the thread loop, and each thread computes 4 points (the block is 4 times smaller along it, as in Halide); or vectorize a loop of a Func computed inside the thread loops", s.f.fn.Name, short))
	}
}

// splitAndMark splits v by factor with the tail strategy (outer keeps v's
// name, inner is v + suffix) and marks the inner loop k, or the outer one
// when outer is set; with no factor it marks v itself.
func (s *Stage) splitAndMark(directive, suffix string, v VarOrRVar, k ir.ForKind, outer bool, factor []int, tail []TailStrategy) *Stage {
	if !s.begin(directive, v) {
		return s
	}
	if len(factor) == 0 {
		return s.setKind(directive, v, k)
	}
	names, ok := s.vars(directive, v)
	if !ok {
		return s
	}
	name := names[0]
	if d := s.def(directive); d != nil && s.f.err == nil {
		if i, ok := s.findDim(d, directive, name); ok {
			if err := s.onGPULoop(d, i, directive, k, factor[0]); err != nil {
				s.f.fail(err)
				return s
			}
		}
	}
	// The inner loop is v+suffix, or v+suffix+"2", ... where an earlier
	// directive took that name (Unroll(x, 3).Unroll(x, 2), as Halide
	// allows).
	inner := name + suffix
	if d := s.def(directive); d != nil {
		for k := 2; s.hasShort(d, inner); k++ {
			inner = fmt.Sprintf("%s%s%d", name, suffix, k)
		}
	}
	qo, qi, ok := s.split(directive, name, name, inner, factor[0], tail)
	if ok {
		mark := qi
		if outer {
			mark = qo
		}
		d := s.def(directive)
		for i := range d.Schedule.Dims {
			if d.Schedule.Dims[i].Name == mark {
				d.Schedule.Dims[i].Kind = k
			}
		}
	}
	return s
}

// Unroll unrolls loop v (its extent must be constant), or with a factor
// splits v and unrolls the inner loop (named v + "_u", or v + "_u2", ...
// where that name is taken).
func (s *Stage) Unroll(v VarOrRVar, factor ...int) *Stage {
	return s.splitAndMark("unroll", "_u", v, ir.Unrolled, false, factor, nil)
}

// UnrollTail is Unroll with a factor and the split's tail strategy (Halide's
// unroll(v, factor, tail)): Unroll(v, f) is UnrollTail(v, f, TailAuto).
func (s *Stage) UnrollTail(v VarOrRVar, factor int, tail TailStrategy) *Stage {
	return s.splitAndMark("unroll", "_u", v, ir.Unrolled, false, []int{factor}, []TailStrategy{tail})
}

// Vectorize marks loop v as vectorized (its extent must be constant), or
// with a factor splits v and vectorizes the inner loop (named v + "_v", or
// v + "_v2", ... where that name is taken).
func (s *Stage) Vectorize(v VarOrRVar, factor ...int) *Stage {
	return s.splitAndMark("vectorize", "_v", v, ir.Vectorized, false, factor, nil)
}

// VectorizeTail is Vectorize with a factor and the split's tail strategy
// (Halide's vectorize(v, factor, tail)).
func (s *Stage) VectorizeTail(v VarOrRVar, factor int, tail TailStrategy) *Stage {
	return s.splitAndMark("vectorize", "_v", v, ir.Vectorized, false, []int{factor}, []TailStrategy{tail})
}

// Parallel runs the iterations of loop v in parallel, or with a task size
// splits v by it (the inner loop is named v + "_par") and runs the outer
// loop's tasks in parallel, each task a serial loop of that size (Halide's
// parallel(v, task_size)).
func (s *Stage) Parallel(v VarOrRVar, taskSize ...int) *Stage {
	return s.splitAndMark("parallel", "_par", v, ir.Parallel, true, taskSize, nil)
}

// ParallelTail is Parallel with a task size and the split's tail strategy
// (Halide's parallel(v, task_size, tail)).
func (s *Stage) ParallelTail(v VarOrRVar, taskSize int, tail TailStrategy) *Stage {
	return s.splitAndMark("parallel", "_par", v, ir.Parallel, true, []int{taskSize}, []TailStrategy{tail})
}

// Serial makes loop v an ordinary sequential loop again.
func (s *Stage) Serial(v VarOrRVar) *Stage { return s.setKind("serial", v, ir.Serial) }

// Unscheduled marks the stage as left unscheduled on purpose, and returns
// it: Halide's Stage::unscheduled(), which silences its warning about a
// stage with no directive. It changes nothing here.
func (s *Stage) Unscheduled() *Stage { return s }

// Atomic makes the stage's stores atomic, so that a scatter whose
// iterations may collide can run in parallel (Halide's atomic(true): the
// update's iterations are taken to commute, as a histogram's do). Every
// type has atomic updates: a native atomic where the target has one, else
// a compare-and-swap loop (8- and 16-bit values, the 16-bit floats on
// their bits, operators with no native atomic). On a Tuple Func each value
// is an atomic update of its own when each reads only its own element
// (hist += (1, 2)); when one value reads another (an argmax), the update
// runs holding a lock over the whole Tuple, which only host loops have:
// in a GPU kernel Lower refuses it with an ErrSchedule.
func (s *Stage) Atomic() *Stage {
	if d := s.beginDef("atomic"); d != nil {
		d.Schedule.Atomic = true
	}
	return s
}

// AllowRaceConditions lets the stage's loops over RVars run in parallel or
// as GPU blocks or threads without Atomic() (Halide's
// allow_race_conditions), for a scatter whose points the user knows to be
// distinct (stream compaction) or whose collisions the user accepts. Where
// the points written are distinct the result is exact. Where two
// iterations write one point, the writes race: one of them wins, which
// one depends on the schedule and the target (on the CPU, parallel tasks
// run at once, so it may change from run to run; the GPU emulator runs
// blocks and threads one at a time, x fastest, so there the last in that
// order wins; on CUDA it is unspecified), and an update that reads points
// other iterations write reads either value. The emulator's race check of
// GPU shared memory still applies: threads of one block that touch one
// shared element, one of them writing, are reported (store such a Func in
// global memory, or keep its RVar loops off the threads).
//
// It changes nothing else: the order of RVars (Reorder) is still checked,
// and the stage's stores are plain, not atomic.
func (s *Stage) AllowRaceConditions() *Stage {
	if d := s.beginDef("allow_race_conditions"); d != nil {
		d.Schedule.AllowRaceConditions = true
	}
	return s
}

// Func-level forms of the stage directives apply to the pure definition.

// AllowRaceConditions is Stage.AllowRaceConditions on the pure definition
// (Halide's Func::allow_race_conditions). A pure definition's loops are
// over Vars, whose iterations write distinct points, so it allows nothing
// there; the updates' races are allowed on each update
// (f.Update(i).AllowRaceConditions()).
func (f *Func) AllowRaceConditions() *Func {
	return f.stage0("allow_race_conditions").AllowRaceConditions().f
}

// Split is Stage.Split on the pure definition.
func (f *Func) Split(old, outer, inner VarOrRVar, factor int, tail ...TailStrategy) *Func {
	return f.stage0("split").Split(old, outer, inner, factor, tail...).f
}

// Fuse is Stage.Fuse on the pure definition.
func (f *Func) Fuse(inner, outer, fused VarOrRVar) *Func {
	return f.stage0("fuse").Fuse(inner, outer, fused).f
}

// Reorder is Stage.Reorder on the pure definition.
func (f *Func) Reorder(vars ...VarOrRVar) *Func { return f.stage0("reorder").Reorder(vars...).f }

// Tile is Stage.Tile on the pure definition.
func (f *Func) Tile(x, y, xo, yo, xi, yi VarOrRVar, xf, yf int, tail ...TailStrategy) *Func {
	return f.stage0("tile").Tile(x, y, xo, yo, xi, yi, xf, yf, tail...).f
}

// Unroll is Stage.Unroll on the pure definition.
func (f *Func) Unroll(v VarOrRVar, factor ...int) *Func {
	return f.stage0("unroll").Unroll(v, factor...).f
}

// UnrollTail is Stage.UnrollTail on the pure definition.
func (f *Func) UnrollTail(v VarOrRVar, factor int, tail TailStrategy) *Func {
	return f.stage0("unroll").UnrollTail(v, factor, tail).f
}

// Vectorize is Stage.Vectorize on the pure definition.
func (f *Func) Vectorize(v VarOrRVar, factor ...int) *Func {
	return f.stage0("vectorize").Vectorize(v, factor...).f
}

// VectorizeTail is Stage.VectorizeTail on the pure definition.
func (f *Func) VectorizeTail(v VarOrRVar, factor int, tail TailStrategy) *Func {
	return f.stage0("vectorize").VectorizeTail(v, factor, tail).f
}

// Parallel is Stage.Parallel on the pure definition.
func (f *Func) Parallel(v VarOrRVar, taskSize ...int) *Func {
	return f.stage0("parallel").Parallel(v, taskSize...).f
}

// ParallelTail is Stage.ParallelTail on the pure definition.
func (f *Func) ParallelTail(v VarOrRVar, taskSize int, tail TailStrategy) *Func {
	return f.stage0("parallel").ParallelTail(v, taskSize, tail).f
}

// TailStrategy says what a split does when the extent is not a multiple of
// the factor.
type TailStrategy = ir.TailStrategy

// The tail strategies (see ir.TailStrategy).
const (
	TailAuto     = ir.TailAuto
	GuardWithIf  = ir.GuardWithIf
	ShiftInwards = ir.ShiftInwards
	RoundUp      = ir.RoundUp
)

// MemoryType says where a Func's storage lives.
type MemoryType = ir.MemoryType

// The memory types.
const (
	MemoryAuto = ir.Auto
	Heap       = ir.Heap
	Stack      = ir.Stack
	Register   = ir.Register
	GPUShared  = ir.GPUShared
)

// ComputeRoot computes all of f that is needed before anything that uses it.
func (f *Func) ComputeRoot() *Func {
	return f.place("compute_root", computeLevel, ir.LoopLevel{Kind: ir.LevelRoot})
}

// ComputeAt computes the part of f that one iteration of loop v of
// consumer needs, inside that loop. As Halide's LoopLevel(consumer, v)
// (which names no stage), the level matches the loop v of every stage of
// consumer: f is computed in each of those loops that uses it (twice per
// iteration of y for ComputeAt(out, y) where out's pure definition and an
// update both read f). Every use of f must lie in one of them.
// ComputeAtStage names the loop of one stage.
func (f *Func) ComputeAt(consumer *Func, v VarOrRVar) *Func {
	return f.placeAt("compute_at", computeLevel, consumer, -1, v)
}

// ComputeAtStage is ComputeAt for a loop of a given stage of the consumer.
func (f *Func) ComputeAtStage(consumer *Stage, v VarOrRVar) *Func {
	var cf *Func
	stage := -1
	if consumer != nil {
		cf, stage = consumer.f, consumer.idx
	}
	return f.placeAt("compute_at", computeLevel, cf, stage, v)
}

// ComputeInline substitutes f into its consumers (the default for Funcs
// without updates).
func (f *Func) ComputeInline() *Func {
	return f.place("compute_inline", computeLevel, ir.LoopLevel{Kind: ir.LevelInline})
}

// StoreRoot allocates f's storage outside all loops.
func (f *Func) StoreRoot() *Func {
	return f.place("store_root", storeLevel, ir.LoopLevel{Kind: ir.LevelRoot})
}

// StoreAt allocates f's storage inside loop v of consumer (which must
// enclose the compute level): in each stage's loop v that holds a
// compute site of f (see ComputeAt).
func (f *Func) StoreAt(consumer *Func, v VarOrRVar) *Func {
	return f.placeAt("store_at", storeLevel, consumer, -1, v)
}

// HoistStorage allocates f's storage at the top of loop v of consumer
// while f keeps its store level (Halide's hoist_storage): each
// realization is still indexed from its own region, but the buffer is
// allocated once there, sized by the largest region any realization
// inside needs. v must enclose f's store level, f must be computed at a
// loop (compute_at), and the loops between must be serial.
func (f *Func) HoistStorage(consumer *Func, v VarOrRVar) *Func {
	return f.placeAt("hoist_storage", hoistLevel, consumer, -1, v)
}

// HoistStorageRoot allocates f's storage once, outside all loops, while f
// keeps its store level (Halide's hoist_storage_root); see HoistStorage.
func (f *Func) HoistStorageRoot() *Func {
	return f.place("hoist_storage_root", hoistLevel, ir.LoopLevel{Kind: ir.LevelRoot})
}

// A placement is the loop level of f that a directive sets: where f is
// computed, where its storage is allocated, or where that allocation is
// hoisted to (ir.FuncSchedule's Compute, Store and Hoist).
type placement int

const (
	computeLevel placement = iota
	storeLevel
	hoistLevel
)

// place begins directive on f and sets its level p to l. Setting the
// compute level also records whether the user asked for compute_inline.
func (f *Func) place(directive string, p placement, l ir.LoopLevel) *Func {
	f = f.begin(directive)
	f.setLevel(p, l)
	return f
}

// placeAt is place at loop v of stage stage of consumer (-1: its last
// stage). When consumer or v is missing, the error is recorded on f and
// no level changes.
func (f *Func) placeAt(directive string, p placement, consumer *Func, stage int, v VarOrRVar) *Func {
	f = f.begin(directive, v)
	switch {
	case consumer.nilErr("") != nil:
		f.failf(ir.ErrComputeAt, directive, "the consumer is nil (or a zero Func or Stage)")
	case v == nil || v.varName() == "":
		f.failf(ir.ErrComputeAt, directive, "the loop var is nil or unnamed")
	default:
		f.setLevel(p, ir.LoopLevel{Kind: ir.LevelAt, Func: consumer.fn.Name, Stage: stage, Var: v.varName(), Ref: consumer})
	}
	return f
}

func (f *Func) setLevel(p placement, l ir.LoopLevel) {
	s := &f.fn.Schedule
	switch p {
	case computeLevel:
		s.Compute, s.ExplicitInline = l, l.Kind == ir.LevelInline
	case storeLevel:
		s.Store = l
	case hoistLevel:
		s.Hoist = l
	}
}

// StoreIn picks the memory f is stored in.
func (f *Func) StoreIn(m MemoryType) *Func {
	f = f.begin("store_in")
	if m > ir.GPUShared {
		f.fail(ir.Errorf(ir.ErrBadArgument, f.fn.Name, "store_in", "%s is not a memory type", m).
			WithLegal("MemoryAuto, Heap, Stack, Register or GPUShared"))
		return f
	}
	f.fn.Schedule.Memory = m
	return f
}

// Bound fixes the region of f computed along pure var v to [min, min+extent).
// A RoundUp split of v must not run past it: with a constant extent the
// factor must divide it (Lower refuses it otherwise), and with one known
// only at run time Realize checks that before anything runs, as Halide's
// check that the bounds cover what the loops touch (ErrOutOfBounds on
// the split). The same holds for BoundExtent.
func (f *Func) Bound(v Var, min, extent any) *Func {
	v = f.implicitVar(v)
	f = f.begin("bound", v)
	mn, ext := E(min), E(extent)
	for _, e := range []Expr{mn, ext} {
		if e.err != nil {
			f.fail(withFunc(e.err, f.fn.Name, "bound"))
			return f
		}
		if !e.Type().IsIntOrUInt() {
			f.failf(ir.ErrType, "bound", "the bounds of %s must be integers, not %s", v.name, e.Type())
			return f
		}
	}
	f.fn.Schedule.Bounds = append(f.fn.Schedule.Bounds, ir.BoundDirective{Var: v.name, Min: convert(Int32, mn).node, Extent: convert(Int32, ext).node})
	return f
}

// BoundExtent fixes the extent of f's region along the pure var v, not its
// min (Halide's bound_extent): bounds inference still finds where the
// region starts, and f computes extent points from there, so the loops
// over v have a constant extent (they can be unrolled or vectorized even
// where f is computed at a tile of another Func) and the allocation a
// fixed size. Realize checks that what is read of f fits in extent (for
// an output, that its buffer has that extent). v must not be aligned as
// well.
func (f *Func) BoundExtent(v Var, extent any) *Func {
	v = f.implicitVar(v)
	f = f.begin("bound_extent", v)
	ext := E(extent)
	if ext.err != nil {
		f.fail(withFunc(ext.err, f.fn.Name, "bound_extent"))
		return f
	}
	if !ext.Type().IsIntOrUInt() {
		f.failf(ir.ErrType, "bound_extent", "the extent of %s must be an integer, not %s", v.name, ext.Type())
		return f
	}
	f.fn.Schedule.Bounds = append(f.fn.Schedule.Bounds, ir.BoundDirective{Var: v.name, Extent: convert(Int32, ext).node})
	return f
}

// In returns a wrapper of f: a Func defined as a copy of f that replaces f
// in its consumers' definitions and can be scheduled on its own (for
// example computed at a tile of a consumer and stored in shared memory).
// With consumers, only they see the wrapper (f.In(g), Halide's f.in(g);
// several consumers share one wrapper); with none, every consumer of f but
// the wrapper itself and f's own per-consumer wrappers does (Halide's
// global f.in()). A consumer's own wrapper takes precedence over the
// global one. Calling In again with the same consumers returns the same
// wrapper.
func (f *Func) In(consumers ...*Func) *Func {
	f = f.begin("in")
	if err := f.err; err != nil {
		w := newFunc(wrapperName(f.fn.Name, consumers))
		w.fail(err)
		return w
	}
	w, err := wrap(&f.wrappers, f, f.fn.Name, false, consumers, func(name string) *Func {
		w := newFunc(name)
		if f.fn.Anonymous {
			// The pipeline names anonymous Funcs by the text before their "$".
			w = newAnonFunc(f.fn.Name[:strings.LastIndex(f.fn.Name, "$")] + name[len(f.fn.Name):])
		}
		if f.fn.Pure == nil {
			w.wrapped = f
			w.failf(ir.ErrUndefined, "in", "%s has no definition to wrap", f.fn.Name)
			return w
		}
		args := make([]any, len(f.fn.Args))
		for i, a := range f.fn.Args {
			args[i] = newVar(a)
		}
		w.Define(args...).Is(f.AtTuple(args...))
		w.wrapped = f // after its definition: frozen (see frozen)
		return w
	})
	if err == nil && w.clone {
		err = ir.Errorf(ir.ErrSchedule, f.fn.Name, "in", "%s already reads a clone of %s (%s, made by CloneIn), so it cannot read a wrapper too", strings.TrimPrefix(w.fn.Name, f.fn.Name+"_clone_in_"), f.fn.Name, w.fn.Name).
			WithLegal("one of %s.In(g) and %s.CloneIn(g) per consumer g", f.fn.Name, f.fn.Name)
	}
	if err != nil {
		f.fail(err)
		w = newFunc(wrapperName(f.fn.Name, consumers))
		w.fail(err)
	}
	return w
}

// wrapperName is the name of the wrapper of src for consumers: src_in for
// the global wrapper, src_in_g_h for consumers g and h.
func wrapperName(src string, consumers []*Func) string {
	name := src + "_in"
	for _, g := range consumers {
		if g.nilErr("") == nil {
			name += "_" + g.fn.Name
		} else {
			name += "_nil"
		}
	}
	return name
}

// wrap returns the wrapper of src (a Func, or an input) for consumers
// (none: the global wrapper), registered in *ws by consumer (nil for the
// global one), making it with mk the first time.
func wrap(ws *map[*Func]*Func, target any, src string, input bool, consumers []*Func, mk func(name string) *Func) (*Func, error) {
	fn, reads := src, src
	if input {
		fn, reads = "", "the input" // an input is not a Func
	}
	for _, g := range consumers {
		if g.nilErr("") != nil {
			return nil, ir.Errorf(ir.ErrNilObject, fn, "in", "a consumer of the wrapper of %s is nil (or a zero Func)", src).
				WithLegal("%s.In(g, ...) with each g a Func made by NewFunc that reads %s, or %s.In() for every consumer", src, reads, src)
		}
	}
	keys := directCallers(target, *ws, consumers)
	if len(keys) == 0 {
		keys = []*Func{nil}
	}
	var have, owner *Func // the wrapper one of keys already has, and that key
	missing := false
	for _, g := range keys {
		w, ok := (*ws)[g]
		if !ok {
			missing = true
			continue
		}
		if have != nil && w != have {
			return nil, shareErr(src, fn, g, w)
		}
		have, owner = w, g
	}
	if have != nil && missing {
		return nil, shareErr(src, fn, owner, have)
	}
	if have != nil {
		// Halide's wrap_custom_after_shared: asking for the wrapper of
		// fewer consumers than share it would schedule the others' too.
		in := map[*Func]bool{}
		for _, g := range keys {
			in[g] = true
		}
		var others []string
		for g, w := range *ws {
			if w == have && !in[g] && g != nil {
				others = append(others, g.fn.Name)
			}
		}
		if len(others) > 0 {
			slices.Sort(others)
			return nil, ir.Errorf(ir.ErrSchedule, fn, "in", "%s.In(%s) asks for a wrapper of %s for fewer consumers than share %s, which %s also read", src, funcNames(consumers), src, have.fn.Name, strings.Join(others, ", ")).
				WithLegal("the same consumers as the first call, %s.In(%s, %s); a consumer has at most one wrapper of %s", src, funcNames(consumers), strings.Join(others, ", "), src)
		}
		return have, nil
	}
	w := mk(wrapperName(src, consumers))
	if *ws == nil {
		*ws = map[*Func]*Func{}
	}
	for _, g := range keys {
		(*ws)[g] = w
	}
	return w, nil
}

// shareErr is the error of In (on src, the Func fn or an input) naming
// consumer g, which already has the wrapper w, with consumers that do not
// share it.
func funcNames(fs []*Func) string {
	var names []string
	for _, g := range fs {
		names = append(names, g.fn.Name)
	}
	return strings.Join(names, ", ")
}

func shareErr(src, fn string, g, w *Func) error {
	who := "every consumer (the global wrapper)"
	if g != nil {
		who = g.fn.Name
	}
	return ir.Errorf(ir.ErrSchedule, fn, "in", "%s already has a wrapper of %s for %s, not shared with the other consumers named", w.fn.Name, src, who).
		WithLegal("name every consumer that shares a wrapper in one call, %s.In(g, h); a consumer has at most one wrapper of %s", src, src)
}

// wrapperFor returns the wrapper in ws that replaces the wrapped Func or
// input in consumer g's definitions: g's own (In(g)), else the global one
// (In()), which neither itself nor the per-consumer wrappers see.
func wrapperFor(ws map[*Func]*Func, g *Func) (*Func, bool) {
	if w, ok := ws[g]; ok && w != g {
		return w, true
	}
	global, ok := ws[nil]
	if !ok || global == g {
		return nil, false
	}
	for _, w := range ws {
		if w == g {
			return nil, false // a per-consumer wrapper reads the original
		}
	}
	return global, true
}

// Stage returns the handle of stage i: 0 is the pure definition, i > 0 is
// update i-1 (so ComputeAtStage can name a loop of any stage).
func (f *Func) Stage(i int) *Stage {
	if i == 0 {
		return f.stage0("Stage")
	}
	return f.Update(i - 1)
}

// GPUBlocks makes the given loops (innermost first) the block indices of
// a GPU kernel: the first is block x, then y, then z.
func (s *Stage) GPUBlocks(vars ...VarOrRVar) *Stage {
	return s.gpuLoops("gpu_blocks", ir.GPUBlock, vars)
}

// GPUThreads makes the given loops (innermost first) the thread indices of
// a GPU block: the first is thread x, then y, then z.
func (s *Stage) GPUThreads(vars ...VarOrRVar) *Stage {
	return s.gpuLoops("gpu_threads", ir.GPUThread, vars)
}

func (s *Stage) gpuLoops(directive string, k ir.ForKind, vars []VarOrRVar) *Stage {
	if !s.begin(directive, vars...) {
		return s
	}
	if len(vars) == 0 || len(vars) > 3 {
		s.f.fail(ir.Errorf(ir.ErrSchedule, s.f.fn.Name, directive, "%s takes 1 to 3 loops, not %d", directive, len(vars)).
			WithLegal("a GPU has 3 block and 3 thread dimensions; fuse loops first to use fewer"))
		return s
	}
	for _, v := range vars {
		s.setKind(directive, v, k)
	}
	return s
}

// GPUTile splits x and y into tiles of xf × yf threads: bx, by become the
// block indices and tx, ty the thread indices.
func (s *Stage) GPUTile(x, y, bx, by, tx, ty VarOrRVar, xf, yf int, tail ...TailStrategy) *Stage {
	if !s.begin("gpu_tile", x, y, bx, by, tx, ty) {
		return s
	}
	s.Tile(x, y, bx, by, tx, ty, xf, yf, tail...)
	return s.GPUBlocks(bx, by).GPUThreads(tx, ty)
}

// GPUTile1D splits x into blocks bx of xf threads tx.
func (s *Stage) GPUTile1D(x, bx, tx VarOrRVar, xf int, tail ...TailStrategy) *Stage {
	if !s.begin("gpu_tile", x, bx, tx) {
		return s
	}
	s.Split(x, bx, tx, xf, tail...)
	return s.GPUBlocks(bx).GPUThreads(tx)
}

// GPUTile3D splits x, y and z into tiles of xf × yf × zf threads (Halide's
// gpu_tile(x, y, z, bx, by, bz, tx, ty, tz, xf, yf, zf, tail)): bx, by, bz
// become the block indices and tx, ty, tz the thread indices, ordered tx,
// ty, tz, bx, by, bz (innermost first) in the places x, y and z held;
// loops between them stay where the splits left them (Halide's tile
// reorders the same way).
func (s *Stage) GPUTile3D(x, y, z, bx, by, bz, tx, ty, tz VarOrRVar, xf, yf, zf int, tail ...TailStrategy) *Stage {
	if !s.begin("gpu_tile", x, y, z, bx, by, bz, tx, ty, tz) {
		return s
	}
	// The three loops first, so that a missing one is reported with the
	// stage's loops as they were.
	d := s.def("gpu_tile")
	if d == nil || s.f.err != nil {
		return s
	}
	if _, ok := s.vars("gpu_tile", x, y, z); !ok {
		return s
	}
	for _, v := range []VarOrRVar{x, y, z} {
		if _, ok := s.findDim(d, "gpu_tile", v.varName()); !ok {
			return s
		}
	}
	s.Split(x, bx, tx, xf, tail...)
	s.Split(y, by, ty, yf, tail...)
	s.Split(z, bz, tz, zf, tail...)
	s.Reorder(tx, ty, tz, bx, by, bz)
	return s.GPUBlocks(bx, by, bz).GPUThreads(tx, ty, tz)
}

// GPUBlocks is Stage.GPUBlocks on the pure definition.
func (f *Func) GPUBlocks(vars ...VarOrRVar) *Func {
	return f.stage0("gpu_blocks").GPUBlocks(vars...).f
}

// GPUThreads is Stage.GPUThreads on the pure definition.
func (f *Func) GPUThreads(vars ...VarOrRVar) *Func {
	return f.stage0("gpu_threads").GPUThreads(vars...).f
}

// GPUTile is Stage.GPUTile on the pure definition.
func (f *Func) GPUTile(x, y, bx, by, tx, ty VarOrRVar, xf, yf int, tail ...TailStrategy) *Func {
	return f.stage0("gpu_tile").GPUTile(x, y, bx, by, tx, ty, xf, yf, tail...).f
}

// GPUTile3D is Stage.GPUTile3D on the pure definition.
func (f *Func) GPUTile3D(x, y, z, bx, by, bz, tx, ty, tz VarOrRVar, xf, yf, zf int, tail ...TailStrategy) *Func {
	return f.stage0("gpu_tile").GPUTile3D(x, y, z, bx, by, bz, tx, ty, tz, xf, yf, zf, tail...).f
}

// GPUTile1D is Stage.GPUTile1D on the pure definition.
func (f *Func) GPUTile1D(x, bx, tx VarOrRVar, xf int, tail ...TailStrategy) *Func {
	return f.stage0("gpu_tile").GPUTile1D(x, bx, tx, xf, tail...).f
}

// VThread makes loop v a virtual thread loop, like TVM's vthread: the loop
// stays in the schedule where it is (typically between the block and the
// thread loops, so the block's work is cut into strided parts), but
// lowering moves it just inside the stage's innermost GPU thread loop and
// unrolls it, so each thread computes the points of every virtual thread,
// interleaved. Its extent must be a constant.
func (s *Stage) VThread(v VarOrRVar) *Stage {
	d, i, ok := s.beginDim("vthread", v)
	if !ok {
		return s
	}
	if d.Schedule.Dims[i].IsRVar {
		s.f.failf(ir.ErrSchedule, "vthread", "in %s, %s is an RVar; virtual threads split pure vars (their iterations must be independent)", s.name(), v.varName())
		return s
	}
	d.Schedule.Dims[i].Kind = ir.Unrolled
	d.Schedule.Dims[i].VThread = true
	return s
}

// NeverPartition keeps the tail guards of the named loops' splits in
// their steady state (Halide's never_partition): on the GPU, the kernel
// is not copied into a version without them for the blocks where they
// hold (gpu_partition). A loop named is one of the stage's loops, or the
// root of some (x, for x.xo and x.xi). The CPU path does not partition
// loops, so there the directive changes nothing. Never a change of the
// answer: the guards are the same, only not moved.
func (s *Stage) NeverPartition(vars ...VarOrRVar) *Stage {
	const directive = "never_partition"
	d := s.beginVars(directive, vars...)
	if d == nil {
		return s
	}
	for _, v := range vars {
		found := false
		for i := range d.Schedule.Dims {
			if madeFrom(d.Schedule.Dims[i].Name, v.varName()) {
				d.Schedule.Dims[i].NeverPartition, found = true, true
			}
		}
		if !found {
			if _, ok := s.findDim(d, directive, v.varName()); !ok {
				return s
			}
		}
	}
	return s
}

// NeverPartitionAll is NeverPartition of every loop of the stage
// (Halide's never_partition_all).
func (s *Stage) NeverPartitionAll() *Stage {
	const directive = "never_partition_all"
	if !s.begin(directive) {
		return s
	}
	if d := s.def(directive); d != nil {
		d.Schedule.NeverPartition = true
	}
	return s
}

// NeverPartition is Stage.NeverPartition on the pure definition.
func (f *Func) NeverPartition(vars ...VarOrRVar) *Func {
	return f.stage0("never_partition").NeverPartition(vars...).f
}

// NeverPartitionAll is Stage.NeverPartitionAll on the pure definition.
func (f *Func) NeverPartitionAll() *Func {
	return f.stage0("never_partition_all").NeverPartitionAll().f
}

// madeFrom reports whether the qualified loop name is the loop short or
// one split from it: "x.xo" and "x.xo.xi" from "xo" or "x".
func madeFrom(qualified, short string) bool {
	for q := qualified; q != ""; {
		if ir.MatchDim(q, short) {
			return true
		}
		i := strings.LastIndex(q, ".")
		if i < 0 {
			return false
		}
		q = q[:i]
	}
	return false
}

// VThread is Stage.VThread on the pure definition.
func (f *Func) VThread(v VarOrRVar) *Func { return f.stage0("vthread").VThread(v).f }

// ReorderStorage sets the order of f's dimensions in memory, innermost
// (stride 1) first; the vars must be all of f's pure vars. It changes only
// the layout of f's allocation (for example so that the threads of a warp
// read consecutive words of a shared tile), not what is computed.
func (f *Func) ReorderStorage(vars ...Var) *Func {
	const directive = "reorder_storage"
	vs := make([]VarOrRVar, len(vars))
	for i, v := range vars {
		vs[i] = v
	}
	f = f.begin(directive, vs...)
	if f.fn.Pure == nil {
		f.failf(ir.ErrSchedule, directive, "%s is scheduled before it has a definition", f.fn.Name)
		return f
	}
	seen := map[string]bool{}
	var order []string
	for _, v := range vars {
		found := false
		for _, a := range f.fn.Args {
			found = found || a == v.name
		}
		if !found {
			f.fail(ir.Errorf(ir.ErrUnknownVar, f.fn.Name, directive, "%s has no pure var %s", f.fn.Name, v.name).
				WithLegal("a permutation of %s", strings.Join(f.fn.Args, ", ")))
			return f
		}
		if seen[v.name] {
			f.failf(ir.ErrReorderDuplicate, directive, "reorder_storage lists %s twice", v.name)
			return f
		}
		seen[v.name] = true
		order = append(order, v.name)
	}
	if len(order) != len(f.fn.Args) {
		f.fail(ir.Errorf(ir.ErrSchedule, f.fn.Name, directive, "reorder_storage lists %d of the %d pure vars of %s", len(order), len(f.fn.Args), f.fn.Name).
			WithLegal("a permutation of all of %s", strings.Join(f.fn.Args, ", ")))
		return f
	}
	f.fn.Schedule.StorageOrder = order
	return f
}

// FoldStorage folds f's storage in dimension v to extent slices: the
// allocation holds extent values along v, the coordinate y at y mod
// extent, as Halide's fold_storage. It is legal when f is produced and
// read inside one serial loop whose iterations touch at most extent
// values of f along v and move forward (a sliding window, or a window
// recomputed at each iteration); Lower refuses a fold that could
// overwrite a value before its last read, naming the smallest safe
// extent. Without it, Lower folds such storage to the next power of two
// of the window on its own.
func (f *Func) FoldStorage(v Var, extent int) *Func {
	const directive = "fold_storage"
	f = f.beginStorage(directive, v, extent)
	if f.Err() != nil {
		return f
	}
	for i, d := range f.fn.Schedule.Folds {
		if d.Var == v.name {
			f.fn.Schedule.Folds[i].Extent = int64(extent)
			return f
		}
	}
	f.fn.Schedule.Folds = append(f.fn.Schedule.Folds, ir.FoldDirective{Var: v.name, Extent: int64(extent)})
	return f
}

// AlignStorage pads the storage of f in dimension v to a multiple of
// alignment elements (Halide's align_storage): the extent of every
// allocation of f in v is rounded up, so the strides of the dimensions
// stored outside v are multiples of alignment. Padding the rows of a
// shared tile is the usual way to spread a warp's column accesses over
// the shared-memory banks (the report's "bank conflicts" column shows the
// effect). The computed region does not change.
func (f *Func) AlignStorage(v Var, alignment int) *Func {
	f = f.beginStorage("align_storage", v, alignment)
	if f.Err() == nil {
		f.storageDim(v.name).Align = int64(alignment)
	}
	return f
}

// BoundStorage fixes the extent of f's storage in dimension v to extent
// elements, whatever the region computed (Halide's bound_storage with a
// constant): an allocation whose size was known only at run time gets a
// constant one (on the stack, or in registers inside a GPU kernel). When
// the region a realization needs is larger, Lower fails where that is
// known then, and the run fails before it computes anything otherwise
// (ErrSchedule); inside a GPU kernel the region's size must have a
// constant bound.
func (f *Func) BoundStorage(v Var, extent int) *Func {
	f = f.beginStorage("bound_storage", v, extent)
	if f.Err() == nil {
		f.storageDim(v.name).Bound = int64(extent)
	}
	return f
}

// beginStorage begins a directive on the storage of f in its pure var v
// with a size n (an extent or an alignment) that must be at least 1.
func (f *Func) beginStorage(directive string, v Var, n int) *Func {
	f = f.beginPureVar(directive, v)
	if f.Err() == nil && n < 1 {
		f.fail(ir.Errorf(ir.ErrBadArgument, f.fn.Name, directive, "%s of %s in %s by %d", directive, f.fn.Name, v.name, n).
			WithLegal("a size of at least 1"))
	}
	return f
}

// beginPureVar begins a directive on f's pure var v: f must have its
// pure definition, and v be one of its Vars.
func (f *Func) beginPureVar(directive string, v Var) *Func {
	f = f.begin(directive, v)
	if f.Err() != nil {
		return f
	}
	if f.fn.Pure == nil {
		f.failf(ir.ErrSchedule, directive, "%s is scheduled before it has a definition", f.fn.Name)
		return f
	}
	if !slices.Contains(f.fn.Args, v.name) {
		f.fail(ir.Errorf(ir.ErrUnknownVar, f.fn.Name, directive, "%s has no pure var %s", f.fn.Name, v.name).
			WithLegal("one of %s", strings.Join(f.fn.Args, ", ")))
		return f
	}
	return f
}

// storageDim returns f's StorageDim entry for the var v, adding it.
func (f *Func) storageDim(v string) *ir.StorageDim {
	sd := &f.fn.Schedule
	for i := range sd.StorageDims {
		if sd.StorageDims[i].Var == v {
			return &sd.StorageDims[i]
		}
	}
	sd.StorageDims = append(sd.StorageDims, ir.StorageDim{Var: v})
	return &sd.StorageDims[len(sd.StorageDims)-1]
}

// TraceStores makes every store to f call Options.Trace with f's name, the
// coordinates and the value (as Halide's trace_stores), on the CPU and the
// emulator: a schedule's recomputation shows as repeated coordinates, and
// a sliding window as each point stored once. A Tuple Func reports each
// value's store under its buffer's name, f.0, f.1, ...
func (f *Func) TraceStores() *Func {
	f = f.begin("trace_stores")
	f.fn.Schedule.TraceStores = true
	return f
}
