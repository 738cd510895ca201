package fuzz

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand"
	"regexp"
	"runtime/debug"
	"sort"
	"strings"
	"time"

	"github.com/gohalide/gohalide/halide"
)

// Class is the outcome of one schedule.
type Class int

// The outcome classes. RejectLower is expected for illegal schedules;
// every other class but OK is a library defect (or a fuzzer bug).
const (
	OK          Class = iota
	RejectLower       // a typed *halide.Error from Lower / Compile
	// RejectSize is Realize's assertion that the output's size suits a
	// RoundUp or ShiftInwards split of the output (as in Halide): the
	// sizes are random, so this is expected.
	RejectSize
	RejectRealize // an error from Realize (the inputs are always valid)
	Wrong         // no error, wrong numbers
	Panic         // a panic escaped the library
	Internal      // ErrInternal, or an error that is not a *halide.Error
	Timeout       // the schedule ran past the per-schedule limit
	// The classes of random programs (Case.Prog).
	//
	// Invalid: the reference rejects the program (an int32 overflow,
	// too much work); the library is not run.
	Invalid
	// RejectExpected: the reference reads an input outside its buffer
	// (or a Func outside its Bound) and the library refuses the program
	// with a typed error, at Lower or at Realize, as it must.
	RejectExpected
	// WrongDiv: a wrong result that the reference reproduces when integer
	// division and modulo round down instead of being Euclidean: the
	// cause is a negative divisor (floor semantics in the library).
	WrongDiv
	// WrongRVar: a wrong result that goes away when the directives that
	// change the order of an update's RVar loops (reorder, tile,
	// vectorize, GPU loops and fuse on RVars) are dropped.
	WrongRVar
	// SlowRun: Realize ran past its deadline (most of the case's time
	// limit) and stopped with ErrCanceled: the schedule recomputes so much
	// that the interpreter cannot finish in time. Not a defect, but counted
	// (a Lower past its deadline is a Timeout: lowering must be fast).
	SlowRun
	// BadAccess: Realize stopped at a load or store outside a buffer the
	// library allocated and sized (the CPU interpreter and the GPU
	// emulator check every access): on a GPU, an out-of-bounds access.
	// A defect; the inputs are checked before, by assertions that are
	// RejectRealize (or RejectExpected).
	BadAccess
	numClasses
)

var classNames = [...]string{"ok", "rejected_lower", "rejected_size", "rejected_realize", "wrong", "panic", "internal", "timeout",
	"invalid_program", "refused_as_expected", "wrong_negative_divisor", "wrong_rvar_order", "slow_run", "out_of_bounds_access"}

func (c Class) String() string { return classNames[c] }

// IsDefect says whether the class is a library defect worth a repro.
func (c Class) IsDefect() bool {
	return c != OK && c != RejectLower && c != RejectSize && c != Invalid && c != RejectExpected && c != SlowRun
}

// IsWrong says whether the class is a wrong result (of any cause).
func (c Class) IsWrong() bool { return c == Wrong || c == WrongDiv || c == WrongRVar }

// Case is one schedule of one algorithm at one size.
type Case struct {
	Algo  string   `json:"algo"`
	GPU   bool     `json:"gpu"`
	Sizes []int    `json:"sizes"`
	Seed  int64    `json:"seed"` // of the inputs
	Sched Schedule `json:"schedule"`
	// RunSeed and Index say where the case came from (-seed, schedule #).
	RunSeed int64 `json:"run_seed"`
	Index   int   `json:"index"`
	// Prog is the random program of a program case (Algo is then
	// "prog" and Sizes are the output's extents).
	Prog *Prog `json:"program,omitempty"`
}

// algo returns the case's algorithm: its program's, or the fixed one
// called Algo.
func (c Case) algo() *Algo {
	if c.Prog != nil {
		return c.Prog.Algo()
	}
	return AlgoByName(c.Algo)
}

// Target is "gpu" (kernels on the emulator) or "cpu".
func (c Case) Target() string {
	if c.GPU {
		return "gpu"
	}
	return "cpu"
}

// Result is the outcome of a Case.
type Result struct {
	Class Class
	// Code is the halide error code, if any.
	Code string
	// Msg is the error message, the mismatch summary or the panic.
	Msg string
	// Applied are the directives of the schedule that were applied.
	Applied Schedule
	Elapsed time.Duration
	// Lower is the time Lower (Compile) took.
	Lower time.Duration
	// Slid and Folded say that a Func's region slid along a loop and
	// that a Func's storage was folded (with Options.Windows).
	Slid, Folded bool
	// Nested says that a Func slid along two loops or more.
	Nested bool
}

// MakeCase draws case i of the run with seed: the algorithm, the target
// (CPU or GPU emulator), random odd sizes, an input seed and a schedule.
// It depends only on (seed, i).
func MakeCase(seed int64, i int, algos []*Algo) Case {
	rng := rand.New(rand.NewSource(seed*1_000_003 + int64(i)))
	a := algos[rng.Intn(len(algos))]
	gpu := rng.Intn(2) == 0
	sizes := a.Sizes(rng)
	inSeed := rng.Int63()
	return Case{Algo: a.Name, GPU: gpu, Sizes: sizes, Seed: inSeed, Sched: Generate(a, gpu, rng), RunSeed: seed, Index: i}
}

// Options of a run.
type Options struct {
	// Verify runs the IR verifier after every lowering pass.
	Verify bool
	// Timeout is the limit per schedule (0: 20 s).
	Timeout time.Duration
	// Target runs the GPU schedules' kernels on the emulator (default) or,
	// in a build with -tags cuda, on the GPU.
	Target halide.Target
	// Windows lowers every case that compiled a second time, up to
	// storage_folding, to tell whether a Func slid or folded
	// (Result.Slid, Result.Folded; the tables count them).
	Windows bool
}

// windows lowers the pipeline of out up to storage_folding and says
// whether a Func's region slides (sliding_window's select on the first
// iteration of a loop) and whether a Func's storage is folded.
func windows(out *halide.Func) (slid, folded, nested bool) {
	l, err := halide.NewPipeline(out).WithOptions(halide.Options{StopAfter: "storage_folding"}).Lower()
	if err != nil {
		return false, false, false
	}
	s := l.String()
	// nested: the slide lets of one Func's region (f.s0.) name two loops.
	along := map[string]map[string]bool{}
	for _, m := range slideLet.FindAllStringSubmatch(s, -1) {
		if along[m[1]] == nil {
			along[m[1]] = map[string]bool{}
		}
		along[m[1]][m[2]] = true
		nested = nested || len(along[m[1]]) > 1
	}
	return slideLet.MatchString(s), strings.Contains(s, " folded by "), nested
}

// slideLet matches the region let sliding_window writes: the min of a
// sliding Func's region at an iteration after the first starts past what
// the iteration before computed.
// (It is wrapped in the promise of its range, unsafe_promise_clamped.)
// The groups are the Func's stage prefix and the loop it slides along.
var slideLet = regexp.MustCompile(`let (\S+\.s\d+\.)\S+\.min = (?:unsafe_promise_clamped\()?select\(\((\S+) <= \S+\), .*likely\(max\(`)

// Run runs c. A run past opt.Timeout is abandoned (its goroutine keeps
// running) and reported as Timeout.
func Run(c Case, opt Options) Result {
	to := opt.Timeout
	if to == 0 {
		to = 20 * time.Second
	}
	done := make(chan Result, 1)
	start := time.Now()
	go func() { done <- runCase(c, opt) }()
	select {
	case r := <-done:
		r.Elapsed = time.Since(start)
		return r
	case <-time.After(to):
		return Result{Class: Timeout, Msg: fmt.Sprintf("no result after %v", to), Applied: c.Sched, Elapsed: to}
	}
}

func runCase(c Case, opt Options) (res Result) {
	defer func() {
		if r := recover(); r != nil {
			res = Result{Class: Panic, Msg: fmt.Sprintf("panic: %v\n%s", r, debug.Stack()), Applied: res.Applied}
		}
	}()
	if c.Prog != nil {
		return runProg(c, opt)
	}
	a := AlgoByName(c.Algo)
	if a == nil {
		return Result{Class: Internal, Code: "fuzzer", Msg: "unknown algorithm " + c.Algo}
	}
	inst := a.Build(c.Sizes)
	ctx, cancel, limit := deadline(opt)
	defer cancel()
	p, failed := lowerCase(ctx, c, opt, inst, &res, limit)
	if failed != nil {
		return *failed
	}
	if opt.Windows {
		res.Slid, res.Folded, res.Nested = windows(inst.Out)
	}
	mismatch, err := inst.Run(ctx, p, c.Seed)
	if isCanceled(err) {
		return slowRun(res, limit)
	}
	if err != nil {
		r := classify(err, RejectRealize, res.Applied)
		r.Slid, r.Folded, r.Nested = res.Slid, res.Folded, res.Nested
		if r.Class == RejectRealize && outputOOB.MatchString(r.Msg) && shiftsOutput(res.Applied, a.Funcs[0].Name) {
			r.Class = RejectSize
		}
		if r.Class == RejectRealize && overComputes(r.Msg, res.Applied) {
			r.Class = RejectSize
		}
		return r
	}
	if mismatch != "" {
		return Result{Class: Wrong, Msg: mismatch, Applied: res.Applied, Slid: res.Slid, Folded: res.Folded, Nested: res.Nested}
	}
	return Result{Class: OK, Applied: res.Applied, Slid: res.Slid, Folded: res.Folded, Nested: res.Nested}
}

// deadline returns the context of a case's Lower and Realize: they stop
// at limit, before Run's (opt.Timeout, 20 s by default), so that a slow
// case ends (nothing is left running) and says where it was: a slow
// Lower is a Timeout (lowerTimeout: lowering must be fast), a slow
// Realize a SlowRun (slowRun: a schedule that recomputes much on the
// interpreter, or whose parallel loops have tiny tasks).
func deadline(opt Options) (ctx context.Context, cancel context.CancelFunc, limit time.Duration) {
	to := opt.Timeout
	if to == 0 {
		to = 20 * time.Second
	}
	limit = to * 8 / 10
	ctx, cancel = context.WithTimeout(context.Background(), limit)
	return ctx, cancel, limit
}

// compile makes the pipeline of inst for case c (on c's target) and
// lowers it under ctx, recording the time in res.Lower.
func compile(ctx context.Context, c Case, opt Options, inst *Instance, res *Result) (*halide.Pipeline, error) {
	outs := inst.Outs
	if outs == nil {
		outs = []*halide.Func{inst.Out}
	}
	p := halide.NewPipeline(outs...).WithOptions(halide.Options{Verify: opt.Verify})
	if c.GPU {
		p.WithTarget(opt.Target)
	}
	t0 := time.Now()
	err := p.CompileContext(ctx)
	res.Lower = time.Since(t0)
	return p, err
}

// lowerCase applies c's schedule to inst and lowers it under ctx: the
// pipeline, or the Result of a Lower that failed (a Timeout past the
// deadline limit, else rejected at Lower).
func lowerCase(ctx context.Context, c Case, opt Options, inst *Instance, res *Result, limit time.Duration) (*halide.Pipeline, *Result) {
	res.Applied = inst.Apply(c.Sched)
	p, err := compile(ctx, c, opt, inst, res)
	if isCanceled(err) {
		r := lowerTimeout(*res, limit, err)
		return nil, &r
	}
	if err != nil {
		r := classify(err, RejectLower, res.Applied)
		r.Lower = res.Lower
		return nil, &r
	}
	return p, nil
}

func lowerTimeout(res Result, limit time.Duration, err error) Result {
	return Result{Class: Timeout, Code: "lower", Msg: fmt.Sprintf("Lower ran past %v: %v", limit, err), Applied: res.Applied, Lower: res.Lower}
}

func slowRun(res Result, limit time.Duration) Result {
	return Result{Class: SlowRun, Code: "realize", Msg: fmt.Sprintf("Realize ran past %v (lowered in %v)", limit, res.Lower), Applied: res.Applied, Lower: res.Lower, Slid: res.Slid, Folded: res.Folded, Nested: res.Nested}
}

func classify(err error, as Class, applied Schedule) Result {
	var he *halide.Error
	if !errors.As(err, &he) {
		return Result{Class: Internal, Code: "untyped", Msg: fmt.Sprintf("%T: %v", err, err), Applied: applied}
	}
	if he.Code == halide.ErrInternal {
		return Result{Class: Internal, Code: string(he.Code), Msg: he.Error(), Applied: applied}
	}
	switch he.Code {
	case halide.ErrSharedRace, halide.ErrDivergentBarrier, halide.ErrUninitializedRead:
		// The emulator caught the generated code (the generators draw no
		// AllowRaceConditions): a library bug, counted with the internal
		// errors under its own code.
		return Result{Class: Internal, Code: string(he.Code), Msg: he.Error(), Applied: applied}
	}
	if as == RejectRealize && sizeAssertion.MatchString(he.Msg) {
		as = RejectSize
	}
	if as == RejectRealize && badAccess.MatchString(he.Msg) {
		as = BadAccess
	}
	return Result{Class: as, Code: string(he.Code), Msg: he.Error(), Applied: applied}
}

// badAccess matches the interpreter's (and the emulator's) stop at an
// access outside a buffer (cpu/program.go).
var badAccess = regexp.MustCompile(`at index -?\d+ is out of bounds \[0, \d+\)`)

// outputOOB matches Realize's check that the output buffer covers the
// region the pipeline writes.
var outputOOB = regexp.MustCompile(`Output buffer \S+ is accessed outside its bounds`)

// shiftsOutput says whether the schedule splits a loop of the output Func
// with a tail strategy other than GuardWithIf (TailAuto is ShiftInwards on
// the output's pure definition). A split nested in another may then need
// more than the output's extent, which Realize refuses, as Halide does;
// the direct check (sizeAssertion) covers only the first split of a
// dimension.
func shiftsOutput(s Schedule, out string) bool {
	for _, d := range s {
		if d.Func != out {
			continue
		}
		switch d.Op {
		case OpSplit, OpTile, OpGPUTile, OpGPUTile1D, OpGPUTile3D:
			if d.Tail != int(halide.GuardWithIf) {
				return true
			}
		case OpUnroll, OpVectorize, OpParallel:
			if len(d.Ints) > 0 && d.Tail != int(halide.GuardWithIf) {
				return true
			}
		}
	}
	return false
}

// inputOOB matches Realize's check that an input covers what the
// pipeline reads (an ErrOutOfBounds): the range read, then the buffer's.
var inputOOB = regexp.MustCompile(`reads input \S+ over \[(-?[0-9]+), (-?[0-9]+)\] in dimension [0-9]+, but the buffer covers \[(-?[0-9]+), (-?[0-9]+)\]`)

// overComputes says whether an input read beyond its buffer is explained
// by over-computation the schedule asks for: splits with RoundUp or
// ShiftInwards (TailAuto included) compute beyond the region needed, as
// in Halide, by at most the product of the schedule's split factors, and
// the inputs' halo (pad) covers only so much. A read further out than
// that is a bounds bug.
func overComputes(msg string, s Schedule) bool { return overComputesBy(msg, s, true) }

// overComputesBy is overComputes; padded says the inputs' buffers start
// at -pad with the halo the fixed algorithms read (random programs' inputs
// cover exactly what their reference may read: no halo).
func overComputesBy(msg string, s Schedule, padded bool) bool {
	m := inputOOB.FindStringSubmatch(msg)
	if m == nil {
		return false
	}
	var v [4]int
	for i := range v {
		fmt.Sscan(m[i+1], &v[i])
	}
	over := max(v[2]-v[0], v[1]-v[3])
	// A guarded split inside a shifted or rounded-up one scales the
	// shift by its factor too: the bound is the product of all factors.
	prod, shifts := 1, false
	for _, d := range s {
		switch d.Op {
		case OpSplit, OpTile, OpGPUTile, OpGPUTile1D, OpGPUTile3D, OpUnroll, OpVectorize, OpParallel:
			for _, f := range d.Ints {
				prod = min(prod*f, 1<<30) // many splits: no overflow
			}
			if d.Tail != int(halide.GuardWithIf) && len(d.Ints) > 0 {
				shifts = true
			}
		case OpAlignBounds, OpAlignExtent:
			// An aligned region reaches up to a modulus past the
			// region needed.
			prod = min(prod*d.Ints[0], 1<<30)
			shifts = true
		}
	}
	halo := 0
	if padded {
		halo = max(-v[2], 0) // the inputs' halo starts at -pad
	}
	// Indices scaled by the program (x*2, say) scale the over-computation
	// with them: up to 3 times the factors for random programs.
	if !padded {
		prod *= 3
	}
	return shifts && over+halo <= prod
}

// boundTooSmall matches Realize's check that a Func's Bound covers the
// region bounds inference needs of it: random programs draw random Bounds,
// and the needed region is bounds inference's (clamps and selects give
// their whole range, as in Halide), not the points the data reads.
var boundTooSmall = regexp.MustCompile(`the bound of \S+ in \S+ is too small`)

// sizeAssertion matches Realize's checks of the output's size against
// its RoundUp and ShiftInwards splits.
var sizeAssertion = regexp.MustCompile(`splits \S+ by [0-9]+ with (RoundUp|ShiftInwards), so the output's extent in dimension [0-9]+ must be|bound_storage of \S+ in \S+ is [0-9]+, but a realization of \S+ needs`)

var digits = regexp.MustCompile(`[0-9]+`)

// msgKey is the first line of an error message with numbers replaced, so
// that one bug at different sizes gives one key.
func msgKey(msg string) string {
	line, _, _ := strings.Cut(msg, "\n")
	line = digits.ReplaceAllString(line, "#")
	if len(line) > 160 {
		line = line[:160]
	}
	return line
}

// sameFailure says whether r2 is the same failure as r (for the
// minimizer): the same class, and for errors the same code and message key.
func sameFailure(r, r2 Result) bool {
	if r.Class != r2.Class {
		return false
	}
	switch r.Class {
	case RejectRealize, BadAccess, Internal, RejectLower, RejectExpected:
		return r.Code == r2.Code && msgKey(r.Msg) == msgKey(r2.Msg)
	case Panic:
		return msgKey(r.Msg) == msgKey(r2.Msg)
	}
	return true
}

// smallSizes are the sizes the minimizer tries, smallest first.
var smallSizes = []int{1, 2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31}

// shrinkSizes is the minimizers' step over sizes: each size in turn is
// set to the first of smallSizes below it that accept takes (a copy of
// the sizes, one changed). sizes returns the case's sizes as they are
// now (after what accept took). It reports whether accept took any.
func shrinkSizes(sizes func() []int, accept func([]int) bool) bool {
	changed := false
	for si := range sizes() {
		for _, v := range smallSizes {
			if v >= sizes()[si] {
				break
			}
			s := append([]int(nil), sizes()...)
			s[si] = v
			if accept(s) {
				changed = true
				break
			}
		}
	}
	return changed
}

// Minimize deletes directives one at a time and shrinks the sizes while
// the failure stays the same, spending at most budget runs.
func Minimize(c Case, r Result, opt Options, budget int) (Case, Result) {
	runs := 0
	try := func(c2 Case) (Result, bool) {
		if runs >= budget {
			return Result{}, false
		}
		runs++
		r2 := Run(c2, opt)
		return r2, sameFailure(r, r2)
	}
	c.Sched = r.Applied
	if c.Prog != nil {
		return minimizeProg(c, r, try)
	}
	for pass := 0; pass < 3; pass++ {
		changed := false
		for i := len(c.Sched) - 1; i >= 0; i-- {
			c2 := c
			c2.Sched = c.Sched.Without(i)
			if r2, ok := try(c2); ok {
				c, r = c2, r2
				c.Sched = r2.Applied
				changed = true
				if i > len(c.Sched) {
					i = len(c.Sched)
				}
			}
		}
		if shrinkSizes(func() []int { return c.Sizes }, func(sizes []int) bool {
			c2 := c
			c2.Sizes = sizes
			r2, ok := try(c2)
			if ok {
				c, r = c2, r2
			}
			return ok
		}) {
			changed = true
		}
		if !changed || runs >= budget {
			break
		}
	}
	return c, r
}

// Signature groups minimized failures: the class, the error code and
// message key, and the directive kinds of the minimized schedule.
func Signature(c Case, r Result) string {
	var ops []string
	for _, d := range c.Sched {
		s := string(d.Op)
		if d.Tail != NoTail && (d.Op == OpSplit || d.Op == OpTile || d.Op == OpGPUTile || d.Op == OpGPUTile1D || d.Op == OpGPUTile3D) {
			s += "(" + strings.TrimPrefix(tailName(d.Tail), "halide.") + ")"
		}
		if d.Op == OpStoreIn {
			s += "(" + strings.TrimPrefix(memName(d.Mem), "halide.") + ")"
		}
		if d.Op == OpComputeAt && d.ConsumerStage >= 0 {
			s += "(stage)"
		}
		ops = append(ops, s)
	}
	sort.Strings(ops)
	key := r.Class.String()
	if !r.Class.IsWrong() {
		key += " " + r.Code + " " + msgKey(r.Msg)
	}
	return key + " | " + c.Target() + " | " + strings.Join(ops, " ")
}

// Repro returns the text of a reproduction: a header with the algorithm,
// sizes, seed and outcome, Go code for the algorithm and the schedule, and
// the case as JSON for -replay.
func Repro(c Case, r Result, original int) string {
	if c.Prog != nil {
		return progRepro(c, r, original)
	}
	a := AlgoByName(c.Algo)
	var b strings.Builder
	fmt.Fprintf(&b, "// schedfuzz reproduction: %s on the %s\n", r.Class, map[bool]string{true: "GPU emulator", false: "CPU"}[c.GPU])
	fmt.Fprintf(&b, "// algorithm: %s, sizes:", c.Algo)
	for i, n := range a.SizeNames {
		fmt.Fprintf(&b, " %s=%d", n, c.Sizes[i])
	}
	fmt.Fprintf(&b, "\n// input seed: %d (found as schedule %d of -seed %d; %d directives before minimizing)\n", c.Seed, c.Index, c.RunSeed, original)
	fmt.Fprintf(&b, "// replay: go run ./tests/fuzz/cmd/schedfuzz -replay <this file>\n")
	writeResult(&b, r)
	b.WriteString("\nv := halide.NewVar // loops made by the schedule\n\n")
	b.WriteString(a.Source(c.Sizes))
	b.WriteString("\n// schedule:\n")
	b.WriteString(c.Sched.GoSource(a.Known))
	js, _ := json.Marshal(c)
	fmt.Fprintf(&b, "\n// case: %s\n", js)
	return b.String()
}

// ParseRepro returns the case in a repro's "// case: " line.
func ParseRepro(text string) (Case, error) {
	for _, l := range strings.Split(text, "\n") {
		if s, ok := strings.CutPrefix(l, "// case: "); ok {
			var c Case
			err := json.Unmarshal([]byte(s), &c)
			return c, err
		}
	}
	return Case{}, errors.New("no \"// case: \" line")
}

// writeResult writes a reproduction's comment lines for its outcome: the
// error code, if any, and the message (cut at 3000 bytes).
func writeResult(b *strings.Builder, r Result) {
	if r.Code != "" {
		fmt.Fprintf(b, "// error code: %s\n", r.Code)
	}
	b.WriteString("//\n// result:\n")
	msg := r.Msg
	if len(msg) > 3000 {
		msg = msg[:3000] + "..."
	}
	for _, l := range strings.Split(msg, "\n") {
		b.WriteString("//   " + l + "\n")
	}
}
