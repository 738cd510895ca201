package fuzz

import (
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"strings"
)

// The reference of random programs: an evaluator written for the fuzzer
// that reads a Prog directly and shares no code with bounds inference or
// lowering. It follows Halide's semantics: a Func is defined on the whole
// infinite domain; its value at a point is the pure definition, then each
// update in order, each update iterating its RDom with the first
// dimension innermost, independently for each point of the pure vars the
// update keeps bare. It is lazy and memoized: stage k of f at p is
// computed from stage k-1 of f at the points the update does not write.
//
// Values are float64 holding an int32 (checked: a program whose value
// leaves int32 is invalid, not a test of wrapping) or a float32 (every
// float operation is rounded to float32, which is exact for +, -, * and /
// of float32 operands). Integer division and modulo are Euclidean, as in
// Halide (the remainder is never negative; x/0 and x%0 are 0); Floor
// makes them round down instead, to tell the wrong results a floor-
// division library gives for negative divisors from other bugs.

// RefError is why the reference has no value for a program.
type RefError struct {
	// Kind is "oob" (an input read outside its buffer with no boundary
	// condition, or a Func needed outside its Bound: the library must
	// refuse), "overflow" or "too_large" (the program is invalid).
	Kind string
	Msg  string
}

func (e *RefError) Error() string { return e.Kind + ": " + e.Msg }

// InputData is an input's buffer: mins, extents and values (dimension 0
// fastest).
type InputData struct {
	Mins, Exts []int
	Vals       []float64
}

func (d *InputData) index(c []int) (int, bool) {
	i, stride := 0, 1
	for k := range d.Mins {
		o := c[k] - d.Mins[k]
		if o < 0 || o >= d.Exts[k] {
			return 0, false
		}
		i += o * stride
		stride *= d.Exts[k]
	}
	return i, true
}

type pt [3]int

type sliceKey struct {
	stage int
	p     pt
}

type funcState struct {
	f      *PFunc
	vals   []map[pt]float64 // by stage
	slices map[sliceKey]map[pt]float64
	lo, hi pt // the box of points evaluated (final stage)
	seen   bool
}

// Evaluator evaluates a Prog on given inputs.
type Evaluator struct {
	P      *Prog
	Inputs map[string]*InputData
	// Floor selects floor division and modulo instead of Euclidean.
	Floor bool
	// BoundViolation, after Realize, says which Func the output needs
	// outside its Bound, if one does: the library may refuse the run.
	BoundViolation string
	// Limit bounds the number of expression nodes evaluated (0: 5e6).
	Limit int
	// Lenient makes a read outside an input give 0 instead of failing
	// (to tell a dead read from a live one).
	Lenient bool
	// DropOutputScatter skips the iterations of the output's updates
	// that write outside the output's region, instead of failing: what
	// a schedule that rfactors such an update computes (the merge writes
	// only the output's region; the intermediate holds the rest, which
	// nothing reads), as in Halide.
	DropOutputScatter bool
	// SoftViolation, after Realize, says where the arm of a select that is
	// not taken reads outside an input or overflows: the library may
	// refuse the run (its bounds of the arm), or run it.
	SoftViolation string
	spec          int

	funcs            map[string]*funcState
	steps            int
	outMins, outExts []int
}

// env binds the pure vars (valid up to n) and RVars of an evaluation.
type env struct {
	p     pt
	n     int
	bare  []bool // in an update: the pure vars it may use
	rvars map[string]int
	self  *funcState
	cur   func(q pt) float64 // self reads inside an update
}

func (ev *Evaluator) fail(kind, format string, args ...any) {
	err := &RefError{Kind: kind, Msg: fmt.Sprintf(format, args...)}
	if ev.spec > 0 && (kind == "oob" || kind == "overflow") {
		panic(specAbort{err})
	}
	panic(err)
}

// specAbort ends the evaluation of a select's arm that is not taken.
type specAbort struct{ err *RefError }

// speculate runs f, the evaluation of a select's arm that is not taken: a
// read outside an input or an overflow there ends it and is recorded in
// SoftViolation.
func (ev *Evaluator) speculate(f func()) {
	ev.spec++
	defer func() {
		ev.spec--
		if r := recover(); r != nil {
			sa, ok := r.(specAbort)
			if !ok {
				panic(r)
			}
			if ev.SoftViolation == "" {
				ev.SoftViolation = sa.err.Msg + " (in the arm of a select not taken)"
			}
		}
	}()
	f()
}

// Realize evaluates the output over [mins, mins+exts) and returns its
// values (dimension 0 fastest), or a *RefError.
func (ev *Evaluator) Realize(mins, exts []int) ([]float64, error) {
	outs, err := ev.RealizeOutputs(mins, exts)
	if err != nil {
		return nil, err
	}
	return outs[0][0], nil
}

// RealizeOutputs evaluates the output (Funcs[0]) over [mins, mins+exts)
// and the program's other outputs (Prog.Outputs) over their regions: the
// values of each (outs[0] the first Func's, outs[1+k] those of
// Outputs[k]), one list per value (dimension 0 fastest), or a *RefError.
// A read of another output outside its region is an "oob" error: the
// library reads it from its buffer (see outputs.go).
func (ev *Evaluator) RealizeOutputs(mins, exts []int) (outs [][][]float64, err error) {
	defer func() {
		if r := recover(); r != nil {
			re, ok := r.(*RefError)
			if !ok {
				panic(r)
			}
			outs, err = nil, re
		}
	}()
	var out []float64
	if ev.Limit == 0 {
		ev.Limit = 5_000_000
	}
	ev.funcs = map[string]*funcState{}
	ev.outMins, ev.outExts = mins, exts
	for _, f := range ev.P.Funcs {
		// The values of a Tuple Func after the first are Funcs of their
		// own, f#1, ...: they reduce independently (PFunc.Tuple).
		elems := []*PFunc{f}
		for k := range f.Tuple {
			elems = append(elems, f.element(k+1))
		}
		for _, e := range elems {
			fs := &funcState{f: e, slices: map[sliceKey]map[pt]float64{}}
			for s := 0; s <= len(e.Updates); s++ {
				fs.vals = append(fs.vals, map[pt]float64{})
			}
			ev.funcs[e.Name] = fs
		}
	}
	out0 := ev.funcs[ev.P.Funcs[0].Name]
	forEach(exts, func(c []int) {
		var p pt
		for i := range c {
			p[i] = c[i] + mins[i]
		}
		out = append(out, ev.value(out0, len(out0.f.Updates), p))
	})
	outs = append(outs, [][]float64{out})
	outs = append(outs, ev.otherOutputs()...)
	// A Func needed outside its Bound may be refused (or not, when the
	// schedule inlines it: Bound then has nothing to bound).
	for _, b := range ev.P.Bounds {
		names := []string{b.Func}
		if f := ev.P.Func(b.Func); f != nil {
			for k := range f.Tuple {
				names = append(names, fmt.Sprintf("%s#%d", b.Func, k+1))
			}
		}
		for _, n := range names {
			fs := ev.funcs[n]
			if fs != nil && fs.seen && (fs.lo[b.Dim] < b.Min || fs.hi[b.Dim] > b.Min+b.Ext-1) && ev.BoundViolation == "" {
				ev.BoundViolation = fmt.Sprintf("%s is needed over [%d, %d] in dimension %d, outside its Bound [%d, %d]",
					n, fs.lo[b.Dim], fs.hi[b.Dim], b.Dim, b.Min, b.Min+b.Ext-1)
			}
		}
	}
	return outs, nil
}

// value is stage k of f at p.
func (ev *Evaluator) value(fs *funcState, k int, p pt) float64 {
	if k == len(fs.f.Updates) {
		ev.touch(fs, p)
	}
	if v, ok := fs.vals[k][p]; ok {
		return v
	}
	var v float64
	f := fs.f
	switch {
	case f.BC != "":
		v = ev.boundary(f, p)
	case k == 0:
		v = ev.eval(f.Pure, &env{p: p, n: f.Dims})
	default:
		v = ev.update(fs, k, p)
	}
	fs.vals[k][p] = v
	return v
}

func (ev *Evaluator) touch(fs *funcState, p pt) {
	if !fs.seen {
		fs.lo, fs.hi, fs.seen = p, p, true
		return
	}
	for i := range p {
		fs.lo[i] = min(fs.lo[i], p[i])
		fs.hi[i] = max(fs.hi[i], p[i])
	}
}

// boundary is the boundary condition f at p: per dimension, the region
// [lo, lo+n) (the buffer's, or f.Region's) and the offset in it that p
// reads, worked out here by folding, not as the library does.
func (ev *Evaluator) boundary(f *PFunc, p pt) float64 {
	in := ev.Inputs[f.Src]
	c := make([]int, len(in.Mins))
	inside := true
	for i := range c {
		lo, n := in.Mins[i], in.Exts[i]
		if f.Region != nil {
			if i >= len(f.Region) || len(f.Region[i]) != 2 {
				c[i] = p[i] // no condition: read as is
				continue
			}
			lo, n = f.Region[i][0], f.Region[i][1]
		}
		if n <= 0 {
			ev.fail("oob", "boundary condition %s of the empty region [%d, %d) of input %s", f.Name, lo, lo+n, f.Src)
		}
		t := p[i] - lo
		o := bcOffset(f.BC, t, n)
		if o != t {
			inside = false
		}
		c[i] = lo + o
	}
	if f.BC == "const" && !inside {
		// The exterior value, but the condition is a select whose other
		// side reads c: bounds inference asks the input for it (as in
		// Halide), so a dimension without a condition must still be
		// inside the buffer.
		if _, ok := ev.Inputs[f.Src].index(c); !ok && !ev.Lenient {
			ev.fail("oob", "boundary condition %s reads input %s at %v (outside its buffer: mins %v, extents %v) on the side of its select it does not take", f.Name, f.Src, c, in.Mins, in.Exts)
		}
		return f.Exterior
	}
	return ev.readInput(f.Src, c)
}

// bcOffset is the offset in [0, n) that offset t of a region of extent n
// reads under the boundary condition bc.
func bcOffset(bc string, t, n int) int {
	switch bc {
	case "tile":
		r := t % n
		if r < 0 {
			r += n
		}
		return r
	case "mirror":
		// Reflect about -1/2 (t and -1-t read the same), then fold
		// [0, inf) into runs of n, every other run backwards.
		if t < 0 {
			t = -1 - t
		}
		if q, r := t/n, t%n; q%2 == 1 {
			return n - 1 - r
		} else {
			return r
		}
	case "mirror_int":
		// Reflect about 0 (t and -t read the same), then fold [0, inf)
		// into runs of n-1, every other run backwards; a region of one
		// element reads it everywhere.
		if n == 1 {
			return 0
		}
		if t < 0 {
			t = -t
		}
		if q, r := t/(n-1), t%(n-1); q%2 == 1 {
			return n - 1 - r
		} else {
			return r
		}
	}
	// "repeat" and "const" (which reads the edge only inside).
	return min(max(t, 0), n-1)
}

func (ev *Evaluator) readInput(name string, c []int) float64 {
	in := ev.Inputs[name]
	i, ok := in.index(c)
	if !ok && ev.Lenient {
		return 0
	}
	if !ok {
		ev.fail("oob", "input %s is read at %v, outside its buffer (mins %v, extents %v)", name, c, in.Mins, in.Exts)
	}
	return in.Vals[i]
}

// update computes stage k of f at p: the slice of p (the points that share
// p's values of the pure vars the update keeps bare), once.
func (ev *Evaluator) update(fs *funcState, k int, p pt) float64 {
	u := fs.f.Updates[k-1]
	key := sliceKey{stage: k}
	var bare [3]bool
	for i, a := range u.Args {
		if pureArg(a, i) {
			bare[i] = true
			key.p[i] = p[i]
		}
	}
	written, ok := fs.slices[key]
	if !ok {
		written = map[pt]float64{}
		fs.slices[key] = written
		// A slice left unfinished (the evaluation of a select's arm not
		// taken ended in it) is not kept.
		done := false
		defer func() {
			if !done {
				delete(fs.slices, key)
			}
		}()
		cur := func(q pt) float64 {
			if v, ok := written[q]; ok {
				return v
			}
			return ev.value(fs, k-1, q)
		}
		e := &env{p: key.p, n: fs.f.Dims, bare: bare[:], rvars: map[string]int{}, self: fs, cur: cur}
		step := func() {
			var q pt
			for i, a := range u.Args {
				q[i] = int(ev.eval(a, e))
			}
			if ev.DropOutputScatter && fs == ev.funcs[ev.P.Funcs[0].Name] && ev.outside(q) {
				return
			}
			val := u.Value
			if val.Op == "sel" && val.A[2].Op == "undef" {
				// select(c, v, undef): no store where c fails.
				if ev.eval(val.A[0], e) == 0 {
					return
				}
				val = val.A[1]
			}
			rhs := ev.eval(val, e)
			old := cur(q)
			var v float64
			switch u.Op {
			case "+=":
				v = ev.arith(fs.f.Float, old+rhs)
			case "-=":
				v = ev.arith(fs.f.Float, old-rhs)
			case "*=":
				v = ev.arith(fs.f.Float, old*rhs)
			case "max=":
				v = math.Max(old, rhs)
			case "min=":
				v = math.Min(old, rhs)
			default:
				v = rhs
			}
			// An update of the output may write outside the output's
			// region: Realize realizes the region written and copies
			// the part asked for back, as Halide's realize(sizes).
			written[q] = v
		}
		if u.RDom < 0 {
			step()
		} else {
			ev.iterate(ev.P.RDoms[u.RDom], e, step)
		}
		done = true
	}
	if v, ok := written[p]; ok {
		return v
	}
	return ev.value(fs, k-1, p)
}

// outside says whether q lies outside the output's region.
func (ev *Evaluator) outside(q pt) bool {
	for i := range ev.outMins {
		if q[i] < ev.outMins[i] || q[i] >= ev.outMins[i]+ev.outExts[i] {
			return true
		}
	}
	return false
}

// iterate runs body for every point of r where its Where condition holds,
// its first dimension innermost, with the RVars bound in e.rvars.
func (ev *Evaluator) iterate(r *PRDom, e *env, body func()) {
	rv := e.rvars
	exts := append([]int(nil), r.Exts...)
	forEach(exts, func(c []int) {
		for d := range c {
			rv[rvarName(r, d)] = r.Mins[d] + c[d]
		}
		if r.Where == nil || ev.eval(r.Where, e) != 0 {
			body()
		}
	})
	for d := range r.Mins {
		delete(rv, rvarName(r, d))
	}
}

// arith rounds a float result to float32 or checks an int result.
func (ev *Evaluator) arith(float bool, v float64) float64 {
	if float {
		return float64(float32(v))
	}
	if v < math.MinInt32 || v > math.MaxInt32 {
		ev.fail("overflow", "an int32 value %g overflows", v)
	}
	return v
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// Div and Mod of the reference.
func (ev *Evaluator) div(a, b float64) float64 {
	x, y := int64(a), int64(b)
	if y == 0 {
		return 0
	}
	q := x / y
	if ev.Floor {
		if x%y != 0 && (x < 0) != (y < 0) {
			q--
		}
		return float64(q)
	}
	if x%y < 0 {
		if y > 0 {
			q--
		} else {
			q++
		}
	}
	return float64(q)
}

func (ev *Evaluator) mod(a, b float64) float64 {
	x, y := int64(a), int64(b)
	if y == 0 {
		return 0
	}
	return float64(x - int64(ev.div(a, b))*y)
}

// eval evaluates e. Both arms of a select and every argument are
// evaluated, so that the reference reads every point the expression may
// read, as bounds inference does (see "sel" for the arm not taken).
func (ev *Evaluator) eval(e *PExpr, en *env) float64 {
	ev.steps++
	if ev.steps > ev.Limit {
		ev.fail("too_large", "more than %d expression nodes evaluated", ev.Limit)
	}
	a := func(i int) float64 { return ev.eval(e.A[i], en) }
	switch e.Op {
	case "c":
		return e.V
	case "v":
		for i, n := range varNames {
			if n == e.N {
				if i >= en.n || (en.bare != nil && !en.bare[i]) {
					break
				}
				return float64(en.p[i])
			}
		}
		ev.fail("invalid", "var %s unbound", e.N)
	case "r":
		v, ok := en.rvars[e.N]
		if !ok {
			ev.fail("invalid", "RVar %s unbound", e.N)
		}
		return float64(v)
	case "odim":
		if e.R < 0 || e.R >= len(ev.outExts) {
			ev.fail("invalid", "the output has no dimension %d", e.R)
		}
		switch e.N {
		case "min":
			return float64(ev.outMins[e.R])
		case "max":
			return float64(ev.outMins[e.R] + ev.outExts[e.R] - 1)
		}
		return float64(ev.outExts[e.R])
	case "p":
		for _, pa := range ev.P.Params {
			if pa.Name == e.N {
				return pa.Value
			}
		}
		ev.fail("invalid", "no param %s", e.N)
	case "call":
		var q pt
		for i := range e.A {
			q[i] = int(a(i))
		}
		name := e.N
		if e.V > 0 {
			name = fmt.Sprintf("%s#%d", e.N, int(e.V))
		}
		if en.self != nil && name == en.self.f.Name {
			return en.cur(q)
		}
		fs := ev.funcs[name]
		if fs == nil {
			ev.fail("invalid", "no Func %s", name)
		}
		return ev.value(fs, len(fs.f.Updates), q)
	case "in":
		c := make([]int, len(e.A))
		for i := range c {
			c[i] = int(a(i))
		}
		return ev.readInput(e.N, c)
	case "+":
		return ev.arith(e.F, a(0)+a(1))
	case "-":
		return ev.arith(e.F, a(0)-a(1))
	case "*":
		return ev.arith(e.F, a(0)*a(1))
	case "/":
		x, y := a(0), a(1)
		if e.F {
			if y == 0 {
				ev.fail("invalid", "float division by zero")
			}
			return ev.arith(true, x/y)
		}
		return ev.arith(false, ev.div(x, y))
	case "%":
		x, y := a(0), a(1)
		return ev.arith(false, ev.mod(x, y))
	case "min":
		return math.Min(a(0), a(1))
	case "max":
		return math.Max(a(0), a(1))
	case "clamp":
		x, lo, hi := a(0), a(1), a(2)
		return math.Min(math.Max(x, lo), hi)
	case "sel":
		// The arm not taken is evaluated too, so that the reference reads
		// every point the expression may read, as bounds inference does;
		// but a read outside an input there (or an overflow) is only a
		// reason the library may refuse the program, not an error: the
		// library evaluates the arm that is taken, and its bounds may
		// see that the other is never taken here (SoftViolation).
		c := a(0)
		taken, other := 1, 2
		if c == 0 {
			taken, other = 2, 1
		}
		v := a(taken)
		ev.speculate(func() { a(other) })
		return v
	case "<":
		return b2f(a(0) < a(1))
	case "==":
		return b2f(a(0) == a(1))
	case "cast":
		x := a(0)
		if e.F {
			if !e.A[0].F {
				// An integer has no negative zero: a product such as
				// 0 * -1 computed in float64 here is -0, and as a float
				// it must be +0 (atan2 tells them apart).
				x += 0
			}
			return float64(float32(x))
		}
		t := math.Trunc(x)
		if math.IsNaN(t) || t < math.MinInt32 || t > math.MaxInt32 {
			// NaN too: Halide leaves its conversion undefined (the
			// library makes it 0), as the other NaN values here.
			ev.fail("overflow", "int32(%g) overflows", x)
		}
		return t
	case "&", "|", "^", "~", "<<", ">>":
		return ev.bitwise(e.Op, a(0), func() float64 { return a(1) })
	case "popcount", "clz", "ctz":
		u := uint32(int32(a(0)))
		switch e.Op {
		case "popcount":
			return float64(bits.OnesCount32(u))
		case "clz":
			return float64(bits.LeadingZeros32(u))
		}
		return float64(bits.TrailingZeros32(u)) // 32 for 0
	case "sin":
		return float64(float32(math.Sin(a(0))))
	case "tanh":
		return float64(float32(math.Tanh(a(0))))
	case "trunc":
		return math.Trunc(a(0)) // exact in float32, -0 kept
	case "fract":
		v := a(0)
		return ev.arith(true, v-math.Trunc(v))
	case "fx":
		return ev.fixedPoint(e, a(0), a(1))
	case "atan2":
		return float64(float32(math.Atan2(a(0), a(1))))
	case "mux":
		// A select chain: index k in [0, n-1) takes value k, any other
		// the last; the values not taken are read speculatively, as
		// "sel"'s other arm.
		n := len(e.A) - 1
		k := int64(a(0))
		if k < 0 || k >= int64(n) {
			k = int64(n - 1)
		}
		v := a(int(k) + 1)
		for i := 1; i <= n; i++ {
			if i != int(k)+1 {
				ev.speculate(func() { a(i) })
			}
		}
		return v
	case "absd":
		x, y := a(0), a(1)
		if e.F {
			return ev.arith(true, math.Abs(ev.arith(true, x-y)))
		}
		return wrap32(math.Abs(x - y)) // exact: |x - y| < 2^32
	case "lerp":
		z, o, w := a(0), a(1), a(2)
		if !e.F {
			return lerpInt32(z, o, w, e.N)
		}
		f := func(v float64) float64 { return ev.arith(true, v) }
		return f(f(z*f(1-w)) + f(o*w))
	case "sat":
		v := a(0)
		lo, hi := satRange(e.N)
		if e.A[0].F {
			if v != v {
				return 0
			}
			v = math.Trunc(v)
		}
		return wrap32(math.Min(math.Max(v, lo), hi))
	case "typed":
		return ev.typed(e, a(0), a(1))
	case "tostore":
		return ev.store(e, a(0))
	case "fromstore":
		return a(0) // the stored value is kept converted back (store)
	case "sum", "maximum", "minimum":
		r := ev.P.RDoms[e.R]
		sub := &env{p: en.p, n: en.n, bare: en.bare, rvars: map[string]int{}}
		var acc float64
		switch {
		case e.Op == "sum":
			acc = 0
		case e.Op == "maximum" && e.F:
			acc = math.Inf(-1)
		case e.Op == "maximum":
			acc = math.MinInt32
		case e.F:
			acc = math.Inf(1)
		default:
			acc = math.MaxInt32
		}
		ev.iterate(r, sub, func() {
			v := ev.eval(e.A[0], sub)
			switch e.Op {
			case "sum":
				acc = ev.arith(e.F, acc+v)
			case "maximum":
				acc = math.Max(acc, v)
			default:
				acc = math.Min(acc, v)
			}
		})
		return acc
	case "argmax", "argmin":
		// Halide's argmax: the first point (first dimension innermost)
		// where A[0] beats every earlier one; before any, the
		// coordinates 0 and the lowest (highest) value of its type.
		r := ev.P.RDoms[e.R]
		sub := &env{p: en.p, n: en.n, bare: en.bare, rvars: map[string]int{}}
		coords := make([]int, len(r.Mins))
		best := math.Inf(-1)
		switch {
		case e.Op == "argmin" && e.A[0].F:
			best = math.Inf(1)
		case e.Op == "argmin":
			best = math.MaxInt32
		case !e.A[0].F:
			best = math.MinInt32
		}
		ev.iterate(r, sub, func() {
			v := ev.eval(e.A[0], sub)
			if (e.Op == "argmax" && v > best) || (e.Op == "argmin" && v < best) {
				best = v
				for d := range coords {
					coords[d] = sub.rvars[rvarName(r, d)]
				}
			}
		})
		if e.N == "v" {
			return best
		}
		return float64(coords[e.N[0]-'0'])
	}
	ev.fail("invalid", "unknown expression %q", e.Op)
	return 0
}

// wrap32 is the integer v (|v| < 2^53) wrapped to int32, as a cast to
// int32 of a wider integer wraps.
func wrap32(v float64) float64 {
	return float64(int32(uint32(int64(v) & 0xffffffff)))
}

// satRange is the range of a "sat" target type.
func satRange(name string) (lo, hi float64) {
	bits := map[byte]int{'8': 8, '1': 16, '3': 32}[name[1]]
	if name[0] == 'u' {
		return 0, math.Ldexp(1, bits) - 1
	}
	return -math.Ldexp(1, bits-1), math.Ldexp(1, bits-1) - 1
}

// bitwise evaluates the bitwise operator op of int32 values: a on its
// own for "~", a and b() otherwise. A shift by a negative amount shifts
// the other way; by 32 or more it gives 0 (or -1, right, for a negative
// a). Shifts are computed as multiplications and floor divisions by
// powers of two, the left one wrapped to int32, rather than with Go's
// shift operators, so that the reference does not share the library's
// arithmetic.
func (ev *Evaluator) bitwise(op string, a float64, b func() float64) float64 {
	x := int32(a)
	switch op {
	case "~":
		return float64(^x)
	case "&":
		return float64(x & int32(b()))
	case "|":
		return float64(x | int32(b()))
	case "^":
		return float64(x ^ int32(b()))
	}
	n := b()
	left := op == "<<"
	if n < 0 {
		left, n = !left, -n
	}
	if left {
		if n >= 32 {
			return 0
		}
		return wrap32(math.Mod(a*math.Ldexp(1, int(n)), math.Ldexp(1, 32)))
	}
	if n >= 32 {
		n = 31 // floor(a / 2^31) is already 0 or -1 for an int32 a
	}
	return math.Floor(a / math.Ldexp(1, int(n)))
}

// lerpInt32 is Halide's lerp of the int32 values z and o by the weight w
// of kind: "f" a float32 value, else the int32 w wrapped to "u8", "u16" or
// "u32". The weight becomes a fraction of U = 2^32 - 1 (an 8-bit one
// times 0x01010101, a 16-bit one times 0x00010001, a float one truncated
// from U*w in float64 and saturated, NaN to 0); the values, offset by
// 2^31, are mixed as round((z(U - w) + o w) / U), exactly in uint64.
func lerpInt32(z, o, w float64, kind string) float64 {
	const U = 1<<32 - 1
	var wu uint64
	switch kind {
	case "f":
		p := U * w
		switch {
		case p != p || p <= 0:
			wu = 0
		case p >= U:
			wu = U
		default:
			wu = uint64(p) // truncates
		}
	case "u8":
		wu = uint64(uint8(int64(w))) * 0x01010101
	case "u16":
		wu = uint64(uint16(int64(w))) * 0x00010001
	default:
		wu = uint64(uint32(int64(w)))
	}
	zu, ou := uint64(int64(z)+1<<31), uint64(int64(o)+1<<31)
	q := (zu*(U-wu) + ou*wu + U/2) / U
	return float64(int64(q) - 1<<31)
}

// typed evaluates a "typed" expression: x op y in the type N names, the
// operands (int32 or float32 values, as e.F says) converted to it and the
// result converted back, as the docs define the conversions (written here
// again: float to integer truncates and saturates, NaN to 0; integer to
// a 16-bit float goes through float32; integers wrap). A result that is
// not finite makes the program invalid, as float division by zero does
// elsewhere (the reference's int32 cast does not model NaN).
func (ev *Evaluator) typed(e *PExpr, x, y float64) float64 {
	tn, op, _ := strings.Cut(e.N, ":")
	b := func(c bool) float64 { return b2f(c) }
	switch tn {
	case "f16", "bf16", "f64":
		rnd := func(v float64) float64 { return v }
		if tn != "f64" {
			mbits, emin, maxv := 10, -14, 65504.0
			if tn == "bf16" {
				mbits, emin, maxv = 7, -126, math.Ldexp(2-math.Ldexp(1, -7), 127)
			}
			rnd = func(v float64) float64 { return roundFloat(float64(float32(v)), mbits, emin, maxv) }
		}
		a, c := rnd(x), rnd(y)
		var r float64
		switch op {
		case "+":
			r = rnd(a + c)
		case "-":
			r = rnd(a - c)
		case "*":
			r = rnd(a * c)
		case "/":
			r = rnd(a / c)
		case "%":
			r = rnd(a - c*math.Floor(a/c))
		case "min":
			r = math.Min(a, c)
		case "max":
			r = math.Max(a, c)
		case "<":
			return b(a < c)
		default:
			return b(a == c)
		}
		if math.IsNaN(r) || math.IsInf(r, 0) {
			ev.fail("overflow", "%s is %v in %s", e.N, r, tn)
		}
		if e.F {
			return float64(float32(r))
		}
		return satInt32(r)
	}
	// i64 and u64: the bit patterns in a uint64, wrapping.
	conv := func(v float64, float bool) uint64 {
		if !float {
			return uint64(int64(v))
		}
		v = math.Trunc(v)
		switch {
		case v != v:
			return 0
		case tn == "u64" && v <= 0:
			return 0
		case tn == "u64" && v >= math.Ldexp(1, 64):
			return math.MaxUint64
		case tn == "u64":
			return uint64(v)
		case v <= math.MinInt64:
			return 1 << 63
		case v >= math.Ldexp(1, 63):
			return math.MaxInt64
		}
		return uint64(int64(v))
	}
	a, c := conv(x, e.A[0].F), conv(y, e.A[1].F)
	signed := tn == "i64"
	less := func(p, q uint64) bool {
		if signed {
			return int64(p) < int64(q)
		}
		return p < q
	}
	var r uint64
	switch op {
	case "+":
		r = a + c
	case "-":
		r = a - c
	case "*":
		r = a * c
	case "/", "%":
		q, m := euclid64(a, c, signed)
		r = q
		if op == "%" {
			r = m
		}
	case "min":
		r = a
		if less(c, a) {
			r = c
		}
	case "max":
		r = a
		if less(a, c) {
			r = c
		}
	case "<":
		return b(less(a, c))
	default:
		return b(a == c)
	}
	if e.F {
		if signed {
			return float64(float32(int64(r)))
		}
		return float64(float32(r))
	}
	return float64(int32(uint32(r)))
}

// store is the value v (float32 or int32, as e.F says) stored in a Func
// of type e.N and read back as float32 or int32: the library's
// conversions, to T and back (a float to an integer type truncates and
// saturates, NaN to 0; an integer wraps to a narrower integer; a float32
// rounds to a 16-bit float to nearest even, infinite past its range).
// Every read of a stored Func converts back, so the evaluator keeps this
// value as the Func's.
func (ev *Evaluator) store(e *PExpr, v float64) float64 {
	t := e.N
	switch t {
	case "f64":
		return v // float32 and int32 values are float64s exactly
	case "f16", "bf16":
		mbits, emin, maxv := 10, -14, 65504.0
		if t == "bf16" {
			mbits, emin, maxv = 7, -126, math.Ldexp(2-math.Ldexp(1, -7), 127)
		}
		r := roundFloat(float64(float32(v)), mbits, emin, maxv)
		if math.IsNaN(r) || math.IsInf(r, 0) {
			ev.fail("overflow", "%v stored as %s is %v", v, t, r)
		}
		if e.F {
			return r
		}
		return satInt32(r)
	}
	if e.F {
		// Truncated and saturated to the type (NaN to 0), then back to
		// float32.
		x := math.Trunc(v)
		if x != x {
			x = 0
		}
		switch t {
		case "u8":
			return min(max(x, 0), math.MaxUint8)
		case "i16":
			return min(max(x, math.MinInt16), math.MaxInt16)
		case "u64":
			if x >= math.Ldexp(1, 64) {
				return float64(float32(uint64(math.MaxUint64)))
			}
			return float64(float32(uint64(max(x, 0))))
		}
		if x >= math.Ldexp(1, 63) { // i64
			return float64(float32(int64(math.MaxInt64)))
		}
		return float64(float32(int64(max(x, math.MinInt64))))
	}
	// An int32 wraps to the type's width, then back to int32.
	i := int64(v)
	switch t {
	case "u8":
		return float64(uint8(i))
	case "i16":
		return float64(int16(i))
	case "u64":
		return float64(int32(uint32(uint64(i))))
	}
	return float64(int32(i)) // i64: sign-extended and back
}

// euclid64 is the Euclidean quotient and remainder of the 64-bit values a
// and b (bit patterns, signed or not): the remainder is in [0, |b|), x/0
// and x%0 are 0, and MIN / -1 wraps to MIN.
func euclid64(a, b uint64, signed bool) (q, r uint64) {
	if b == 0 {
		return 0, 0
	}
	if !signed {
		return a / b, a % b
	}
	x, y := int64(a), int64(b)
	if y == -1 {
		return uint64(-x), 0 // -MIN wraps to MIN
	}
	qq, rr := x/y, x%y
	if rr < 0 {
		if y > 0 {
			qq, rr = qq-1, rr+y
		} else {
			qq, rr = qq+1, rr-y
		}
	}
	return uint64(qq), uint64(rr)
}

// roundFloat rounds v (a float32 value) to a float format with mbits
// fraction bits, smallest normal exponent emin and largest finite value
// maxv, ties to even: scaled so that the format's spacing at v is 1,
// rounded to an integer, scaled back (subnormals have the spacing of the
// smallest normals). Beyond maxv it is infinite.
func roundFloat(v float64, mbits, emin int, maxv float64) float64 {
	if v != v || v == 0 || math.IsInf(v, 0) {
		return v
	}
	_, e := math.Frexp(v) // |v| in [2^(e-1), 2^e)
	exp := max(e-1, emin)
	ulp := math.Ldexp(1, exp-mbits)
	r := math.RoundToEven(v/ulp) * ulp
	if math.Abs(r) > maxv {
		return math.Copysign(math.Inf(1), v)
	}
	return r
}

// satInt32 converts the float v to int32 as a cast does: truncated,
// saturated, NaN to 0.
func satInt32(v float64) float64 {
	switch {
	case v != v:
		return 0
	case v <= math.MinInt32:
		return math.MinInt32
	case v >= math.MaxInt32:
		return math.MaxInt32
	}
	return math.Trunc(v)
}

// fixedPoint evaluates an "fx" expression from the definitions of Halide
// 14's IROperator.h (the exact value of the wide computation, narrowed),
// on x and y converted (wrapped) to the type T: saturating sums and
// differences clamp, halving sums round down (or up with "rhadd"),
// RoundingShiftRight by n > 0 rounds a / 2^n to nearest, ties up, and by
// n <= 0 is a << -n wrapped to T, MulShiftRight is the exact product
// shifted right (rounding down) and clamped to T, and DivRoundToZero and
// ModRoundToZero are Go's (C's) / and % (for unsigned types Halide's /
// and %, which give 0 for a zero divisor). The result is converted to
// int32 (wrapped). A signed division by zero and MIN / -1 are undefined
// in Halide (and refused as an overflow here).
func (ev *Evaluator) fixedPoint(e *PExpr, x, y float64) float64 {
	op, tn, _ := strings.Cut(e.N, ":")
	lo, hi := satRange(tn)
	bits := map[byte]uint{'8': 8, '1': 16, '3': 32}[tn[1]]
	m := int64(1) << bits
	wrapT := func(v int64) int64 { return ((v-int64(lo))%m+m)%m + int64(lo) }
	clampT := func(v int64) int64 { return min(max(v, int64(lo)), int64(hi)) }
	floorDiv := func(a, b int64) int64 { // b > 0
		q := a / b
		if a%b != 0 && a < 0 {
			q--
		}
		return q
	}
	a, b := wrapT(int64(x)), wrapT(int64(y))
	var r int64
	switch op {
	case "sadd":
		r = clampT(a + b)
	case "ssub":
		r = clampT(a - b)
	case "hadd":
		r = floorDiv(a+b, 2)
	case "rhadd":
		r = floorDiv(a+b+1, 2)
	case "rshr":
		switch n := b; {
		case n > 40: // |a| < 2^32 <= 2^(n-1): rounds to 0
			r = 0
		case n > 0:
			r = floorDiv(a+int64(1)<<(n-1), int64(1)<<n)
		case -n >= int64(bits):
			r = 0
		default:
			r = wrapT(a << -n)
		}
	case "mulshr":
		p := new(big.Int).Mul(big.NewInt(a), big.NewInt(b))
		p.Rsh(p, uint(e.V)) // Rsh of a negative big.Int rounds down
		switch {
		case p.Cmp(big.NewInt(int64(hi))) > 0:
			r = int64(hi)
		case p.Cmp(big.NewInt(int64(lo))) < 0:
			r = int64(lo)
		default:
			r = p.Int64()
		}
	case "divz", "modz":
		if b == 0 && lo == 0 {
			r = 0 // unsigned: Halide's / and %, by zero 0
			break
		}
		if b == 0 || a == int64(lo) && b == -1 && lo < 0 {
			ev.fail("overflow", "%s(%d, %d) in %s is undefined in Halide", op, a, b, tn)
		}
		if r = a / b; op == "modz" {
			r = a % b
		}
	default:
		ev.fail("invalid", "unknown fx op %s", op)
	}
	return wrap32(float64(r))
}
