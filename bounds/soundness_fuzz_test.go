package bounds

// The bounds soundness fuzzer: random expressions in every type, over
// variables with random intervals (some ends infinite) and free symbolic
// variables; for each, Of computes an interval, and the expression is
// evaluated at sample points of the scope, exactly as the executor (package
// cpu) evaluates it, by the evaluator of eval_test.go. Every value must lie
// in the interval, with the ends evaluated at the same values of the free
// variables.
//
// Like Halide (and as Of's documentation says), the analysis assumes that
// signed 32- and 64-bit arithmetic does not overflow: a sample at which the
// expression or an interval end overflows such an operation is skipped and
// counted. All other arithmetic (8- and 16-bit, unsigned, casts) wraps, and
// the interval must account for it. Float samples whose value is NaN are
// skipped too: an interval does not bound NaN.
//
// A quick seeded run is part of go test ./bounds/. A long run:
//
//	go test ./bounds/ -run TestBoundsSoundness -samples=10000000 -v
//
// prints the number of expressions, samples, skipped samples and
// violations. FuzzBounds checks the same property for expressions decoded
// from the fuzzer's bytes:
//
//	go test ./bounds/ -run '^$' -fuzz FuzzBounds -fuzztime 60s

import (
	"flag"
	"fmt"
	"math"
	"math/rand"
	"strings"
	"testing"
	"time"

	"github.com/gohalide/gohalide/ir"
)

var (
	flagSamples = flag.Int("samples", 0, "TestBoundsSoundness: number of samples (0: the quick run)")
	flagSeed    = flag.Int64("fuzzseed", 1, "TestBoundsSoundness: seed of the random expressions")
)

// quickSamples is the size of the run that go test does by default: 10^6
// samples take about two seconds.
const quickSamples = 1_000_000

// samplesPerExpr is how many points of each expression's scope are tried.
const samplesPerExpr = 100

var fuzzTypes = []ir.Type{
	ir.Int8, ir.Int16, ir.Int32, ir.Int64,
	ir.UInt8, ir.UInt16, ir.UInt32, ir.UInt64,
	ir.Float16, ir.BFloat16, ir.Float32, ir.Float64, ir.Bool,
}

// chooser is the source of the generator's choices: a *rand.Rand, or the
// bytes of a fuzz input.
type chooser interface {
	Intn(n int) int
	Uint64() uint64
	Float64() float64
}

// byteChooser reads choices from a byte string; past its end every choice
// is 0.
type byteChooser struct{ b []byte }

func (c *byteChooser) next() byte {
	if len(c.b) == 0 {
		return 0
	}
	v := c.b[0]
	c.b = c.b[1:]
	return v
}

func (c *byteChooser) Intn(n int) int {
	if n <= 256 {
		return int(c.next()) % n
	}
	return int(c.Uint64() % uint64(n))
}

func (c *byteChooser) Uint64() uint64 {
	var v uint64
	for range 8 {
		v = v<<8 | uint64(c.next())
	}
	return v
}

func (c *byteChooser) Float64() float64 { return float64(c.Uint64()>>11) / (1 << 53) }

// fuzzCase is one generated expression with its scope.
type fuzzCase struct {
	e     ir.Expr
	scope Scope
	free  map[string]bool // the free (symbolic) variables
}

type fuzzGen struct {
	r     chooser
	scope Scope
	free  map[string]bool
	lets  int
}

func fuzzVarName(kind string, t ir.Type) string { return kind + "_" + t.String() }

func newFuzzCase(r chooser, depth int) fuzzCase {
	g := &fuzzGen{r: r, scope: Scope{}, free: map[string]bool{}}
	t := fuzzTypes[r.Intn(len(fuzzTypes))]
	e := g.expr(t, depth)
	return fuzzCase{e: e, scope: g.scope, free: g.free}
}

// key maps an integer value of type t to a uint64 whose unsigned order is
// the order of the values.
func key(t ir.Type, v int64) uint64 {
	if t.IsInt() {
		return uint64(v) ^ 1<<63
	}
	return uint64(v)
}

func unkey(t ir.Type, k uint64) int64 {
	if t.IsInt() {
		return int64(k ^ 1<<63)
	}
	return int64(k)
}

func typeMaxStored(t ir.Type) int64 {
	if t.IsUInt() && t.Bits == 64 {
		return -1
	}
	return t.Max()
}

// intConst is an interesting value of the integer or bool type t.
func (g *fuzzGen) intConst(t ir.Type) int64 {
	if t.IsBool() {
		return int64(g.r.Intn(2))
	}
	var v int64
	switch g.r.Intn(8) {
	case 0, 1:
		v = int64(g.r.Intn(9)) - 4
	case 2:
		v = t.Min() + int64(g.r.Intn(3))
	case 3:
		v = typeMaxStored(t) - int64(g.r.Intn(3))
	case 4:
		v = int64(g.r.Uint64())
	case 5:
		v = int64(1)<<g.r.Intn(int(t.Bits)) + int64(g.r.Intn(3)) - 1
		if g.r.Intn(2) == 0 {
			v = -v
		}
	default:
		v = int64(g.r.Intn(201)) - 100
	}
	return t.Wrap(v)
}

func (g *fuzzGen) floatConst(t ir.Type) float64 {
	var v float64
	switch g.r.Intn(6) {
	case 0:
		v = float64(g.r.Intn(9) - 4)
	case 1:
		v = (g.r.Float64() - 0.5) * 1e6
	case 2:
		v = (g.r.Float64() - 0.5) * 4
	case 3:
		v = (g.r.Float64() - 0.5) * 1e30
	default:
		v = float64(g.r.Intn(201) - 100)
	}
	// Finite, as a float32 constant always is (1e30 is no float16).
	return roundF(t, max(min(v, t.MaxFloat()), -t.MaxFloat()))
}

func (g *fuzzGen) constant(t ir.Type) ir.Expr {
	if t.IsFloat() {
		return ir.Const(t, g.floatConst(t))
	}
	return &ir.IntImm{T: t, V: g.intConst(t)}
}

// variable returns a scoped variable of type t (with a random interval,
// made the first time it is used) or a free one.
func (g *fuzzGen) variable(t ir.Type) ir.Expr {
	kind := [...]string{"a", "b", "p"}[g.r.Intn(3)]
	name := fuzzVarName(kind, t)
	v := &ir.Var{T: t, Name: name}
	if kind == "p" {
		g.free[name] = true
		return v
	}
	if _, ok := g.scope[name]; ok {
		return v
	}
	g.scope[name] = g.interval(t)
	return v
}

func (g *fuzzGen) interval(t ir.Type) Interval {
	var iv Interval
	switch {
	case t.IsFloat():
		lo, hi := g.floatConst(t), g.floatConst(t)
		if g.r.Intn(3) == 0 {
			hi = roundF(t, lo+float64(g.r.Intn(20)))
		}
		if hi < lo {
			lo, hi = hi, lo
		}
		iv = Interval{ir.Const(t, lo), ir.Const(t, hi)}
	default:
		lo, hi := g.intConst(t), g.intConst(t)
		if g.r.Intn(3) == 0 && !t.IsBool() {
			hi = t.Wrap(lo + int64(g.r.Intn(20)))
		}
		if key(t, hi) < key(t, lo) {
			lo, hi = hi, lo
		}
		iv = Interval{&ir.IntImm{T: t, V: lo}, &ir.IntImm{T: t, V: hi}}
	}
	if g.r.Intn(6) == 0 {
		iv.Min = nil
	}
	if g.r.Intn(6) == 0 {
		iv.Max = nil
	}
	return iv
}

// divisor is the right operand of a signed Div or Mod: more often than
// g.expr would, a negative constant (Euclidean division rounds up for it),
// an expression made negative, or one whose sign is unknown.
func (g *fuzzGen) divisor(t ir.Type, depth int) ir.Expr {
	switch g.r.Intn(6) {
	case 0:
		return &ir.IntImm{T: t, V: -1 - int64(g.r.Intn(9))}
	case 1:
		return &ir.IntImm{T: t, V: min(-1, -abs64(g.intConst(t)))}
	case 2:
		// A negative interval: -1 - |e| (min(e, -1 - e) is <= -1).
		e := g.expr(t, depth)
		return &ir.Binary{Op: ir.Min, A: e, B: &ir.Binary{Op: ir.Sub, A: &ir.IntImm{T: t, V: -1}, B: e}}
	case 3:
		// Sign unknown: a variable straddling zero or not.
		return g.variable(t)
	}
	return g.expr(t, depth)
}

func abs64(v int64) int64 {
	if v < 0 {
		return -v // MIN stays MIN, which is negative
	}
	return v
}

func (g *fuzzGen) otherType() ir.Type { return fuzzTypes[g.r.Intn(len(fuzzTypes))] }

func (g *fuzzGen) expr(t ir.Type, depth int) ir.Expr {
	if depth <= 0 || g.r.Intn(5) == 0 {
		if g.r.Intn(2) == 0 {
			return g.variable(t)
		}
		return g.constant(t)
	}
	d := depth - 1
	if t.IsBool() {
		switch g.r.Intn(8) {
		case 0, 1, 2:
			u := g.otherType()
			op := [...]ir.BinOp{ir.LT, ir.LE, ir.GT, ir.GE, ir.EQ, ir.NE}[g.r.Intn(6)]
			if u.IsBool() {
				op = [...]ir.BinOp{ir.EQ, ir.NE}[g.r.Intn(2)]
			}
			return &ir.Binary{Op: op, A: g.expr(u, d), B: g.expr(u, d)}
		case 3:
			return &ir.Binary{Op: [...]ir.BinOp{ir.And, ir.Or}[g.r.Intn(2)], A: g.expr(t, d), B: g.expr(t, d)}
		case 4:
			return &ir.Not{X: g.expr(t, d)}
		case 5:
			return &ir.Select{Cond: g.expr(ir.Bool, d), True: g.expr(t, d), False: g.expr(t, d)}
		case 6:
			return &ir.Cast{T: t, X: g.expr(g.otherType(), d)}
		}
		return &ir.Binary{Op: [...]ir.BinOp{ir.Min, ir.Max}[g.r.Intn(2)], A: g.expr(t, d), B: g.expr(t, d)}
	}
	switch g.r.Intn(17) {
	case 0, 1, 2, 3, 4, 5, 6:
		op := [...]ir.BinOp{ir.Add, ir.Sub, ir.Mul, ir.Div, ir.Mod, ir.Min, ir.Max}[g.r.Intn(7)]
		if (op == ir.Div || op == ir.Mod) && t.IsInt() {
			return &ir.Binary{Op: op, A: g.expr(t, d), B: g.divisor(t, d)}
		}
		return &ir.Binary{Op: op, A: g.expr(t, d), B: g.expr(t, d)}
	case 16:
		if t.IsIntOrUInt() && g.r.Intn(2) == 0 {
			return g.minMaxDiff(t, d)
		}
		// A correlated sum, min(a, b) - a + c (or max, or +a): the
		// case SeparateMinMax rewrites for constant bounds.
		a := g.expr(t, d)
		m := &ir.Binary{Op: [...]ir.BinOp{ir.Min, ir.Max}[g.r.Intn(2)], A: a, B: g.expr(t, d)}
		op := [...]ir.BinOp{ir.Sub, ir.Add}[g.r.Intn(2)]
		return &ir.Binary{Op: ir.Add, A: &ir.Binary{Op: op, A: m, B: a}, B: g.expr(t, d)}
	case 7, 8:
		return &ir.Select{Cond: g.expr(ir.Bool, d), True: g.expr(t, d), False: g.expr(t, d)}
	case 9, 10:
		return &ir.Cast{T: t, X: g.expr(g.otherType(), d)}
	case 11:
		if t.IsIntOrUInt() && g.r.Intn(2) == 0 {
			switch name := [...]string{ir.IntrinsicBitAnd, ir.IntrinsicBitOr, ir.IntrinsicBitXor, ir.IntrinsicBitNot,
				ir.IntrinsicShiftLeft, ir.IntrinsicShiftRight}[g.r.Intn(6)]; name {
			case ir.IntrinsicBitNot:
				return ir.Bitwise(name, g.expr(t, d))
			case ir.IntrinsicShiftRight:
				// A constant amount half the time: the case bounds
				// follow.
				if g.r.Intn(2) == 0 {
					return ir.Bitwise(name, g.expr(t, d), ir.IntConst(t, int64(g.r.Intn(int(t.Bits)+3))))
				}
				fallthrough
			default:
				return ir.Bitwise(name, g.expr(t, d), g.expr(t, d))
			}
		}
		return &ir.Call{T: t, Kind: ir.CallIntrinsic, Name: ir.IntrinsicAbs, Args: []ir.Expr{g.expr(t, d)}}
	case 12:
		if t.IsFloat() {
			name := [...]string{ir.IntrinsicFloor, ir.IntrinsicCeil, ir.IntrinsicRound, ir.IntrinsicSqrt}[g.r.Intn(4)]
			return &ir.Call{T: t, Kind: ir.CallIntrinsic, Name: name, Args: []ir.Expr{g.expr(t, d)}}
		}
		return &ir.Call{T: t, Kind: ir.CallIntrinsic, Name: ir.IntrinsicPromiseClamped,
			Args: []ir.Expr{g.expr(t, d), g.expr(t, d), g.expr(t, d)}}
	case 13:
		return &ir.Call{T: t, Kind: ir.CallIntrinsic, Name: ir.IntrinsicLikely, Args: []ir.Expr{g.expr(t, d)}}
	case 14:
		// A Func call: its value is data, unknown to the analysis.
		return &ir.Call{T: t, Kind: ir.CallFunc, Name: "f", Args: []ir.Expr{g.expr(ir.Int32, d)}}
	}
	// A let whose variable the body uses.
	u := g.otherType()
	name := fmt.Sprintf("l%d_%s", g.lets, u)
	g.lets++
	val := g.expr(u, d)
	body := g.expr(t, d)
	body = ir.Simplify(&ir.Select{Cond: &ir.Binary{Op: ir.EQ, A: &ir.Var{T: u, Name: name}, B: g.constant(u)},
		True: body, False: g.expr(t, d)})
	return &ir.Let{Name: name, Value: val, Body: body}
}

// minMaxDiff is a difference of two mins (or maxes) whose operands differ
// by constants, k*min(x + c1, r + c2) - k*min(x + c3, r + c4) + e, the
// operands in either order and a constant of each pair often zero (a
// shared operand): the width of a region clamped at the end of a loop,
// which bounds keeps linked (ir.DiffBounds, env.sharedMinMaxDiff).
func (g *fuzzGen) minMaxDiff(t ir.Type, d int) ir.Expr {
	x, r := g.expr(t, d), g.expr(t, d)
	off := func(e ir.Expr) ir.Expr {
		switch g.r.Intn(4) {
		case 0, 1:
			return e
		case 2:
			return &ir.Binary{Op: ir.Add, A: e, B: &ir.IntImm{T: t, V: t.Wrap(int64(g.r.Intn(65) - 32))}}
		}
		return &ir.Binary{Op: ir.Add, A: e, B: g.constant(t)}
	}
	op := [...]ir.BinOp{ir.Min, ir.Max}[g.r.Intn(2)]
	mk := func() ir.Expr {
		a, b := off(x), off(r)
		if g.r.Intn(2) == 0 {
			a, b = b, a
		}
		return &ir.Binary{Op: op, A: a, B: b}
	}
	m1, m2 := mk(), mk()
	if g.r.Intn(3) == 0 {
		k := &ir.IntImm{T: t, V: t.Wrap(int64(g.r.Intn(17) - 8))}
		m1, m2 = &ir.Binary{Op: ir.Mul, A: m1, B: k}, &ir.Binary{Op: ir.Mul, A: m2, B: k}
	}
	e := ir.Expr(&ir.Binary{Op: ir.Sub, A: m1, B: m2})
	if g.r.Intn(2) == 0 {
		e = &ir.Binary{Op: ir.Add, A: e, B: g.expr(t, d)}
	}
	return e
}

// sample sets env to a random point: scoped variables within their
// intervals, free variables anywhere in their types (finite for floats).
func (g *fuzzGen) sample(c *fuzzCase, names []string, types map[string]ir.Type, env evalEnv) {
	for _, n := range names {
		t := types[n]
		iv, scoped := c.scope[n]
		if t.IsFloat() {
			lo, hi := -1e30, 1e30
			switch {
			case t.Bits == 64:
				lo, hi = -1e300, 1e300
			case t.IsHalf():
				lo, hi = -roundF(t, min(1e30, t.MaxFloat())), roundF(t, min(1e30, t.MaxFloat()))
			}
			if scoped && iv.Min != nil {
				lo = iv.Min.(*ir.FloatImm).V
			}
			if scoped && iv.Max != nil {
				hi = iv.Max.(*ir.FloatImm).V
			}
			if !scoped {
				lo, hi = g.floatConst(t), g.floatConst(t)
				hi = max(lo, hi)
			}
			var v float64
			switch g.r.Intn(5) {
			case 0:
				v = lo
			case 1:
				v = hi
			default:
				v = lo + (hi-lo)*g.r.Float64()
				v = min(max(roundF(t, v), lo), hi)
			}
			env[n] = val{f: v}
			continue
		}
		klo, khi := key(t, t.Min()), key(t, typeMaxStored(t))
		if t.IsBool() {
			klo, khi = 0, 1
		}
		if scoped && iv.Min != nil {
			klo = key(t, iv.Min.(*ir.IntImm).V)
		}
		if scoped && iv.Max != nil {
			khi = key(t, iv.Max.(*ir.IntImm).V)
		}
		var k uint64
		switch r := g.r.Intn(6); {
		case r == 0:
			k = klo
		case r == 1:
			k = khi
		case r == 2 && !scoped:
			k = key(t, g.intConst(t))
		case r == 3 && khi-klo > 40:
			// Near an end: ranges whose ends are far apart are
			// otherwise hardly ever sampled close to them.
			if g.r.Intn(2) == 0 {
				k = klo + uint64(g.r.Intn(20))
			} else {
				k = khi - uint64(g.r.Intn(20))
			}
		default:
			span := khi - klo + 1
			if span == 0 {
				k = g.r.Uint64()
			} else {
				k = klo + g.r.Uint64()%span
			}
		}
		env[n] = val{i: unkey(t, k)}
	}
}

// contains reports whether v lies in [lo, hi] in the order of type t.
func contains(t ir.Type, lo, hi *val, v val) bool {
	if t.IsFloat() {
		return (lo == nil || lo.f <= v.f) && (hi == nil || v.f <= hi.f)
	}
	k := key(t, v.i)
	return (lo == nil || key(t, lo.i) <= k) && (hi == nil || k <= key(t, hi.i))
}

type fuzzStats struct {
	exprs, samples, skipped, violations int
	reports                             []string
}

// check computes the interval of c and tries n sample points against it.
func (s *fuzzStats) check(r chooser, c fuzzCase, n int) {
	s.exprs++
	t := c.e.Type()
	iv := Of(c.e, c.scope)
	fail := func(msg string) {
		s.violations++
		if len(s.reports) < 20 {
			var scope []string
			for _, name := range freeVars(c.e) {
				if iv, ok := c.scope[name]; ok {
					scope = append(scope, name+" in "+iv.String())
				}
			}
			s.reports = append(s.reports, fmt.Sprintf("%s\n  e = %s\n  scope: %s\n  interval %s",
				msg, ir.ExprString(c.e), strings.Join(scope, ", "), iv))
		}
	}
	for _, end := range []ir.Expr{iv.Min, iv.Max} {
		if end == nil {
			continue
		}
		if end.Type() != t {
			fail(fmt.Sprintf("end %s has type %s, not %s", ir.ExprString(end), end.Type(), t))
			return
		}
		for _, name := range freeVars(end) {
			if !c.free[name] {
				fail(fmt.Sprintf("end %s refers to %s, which is not free", ir.ExprString(end), name))
				return
			}
		}
	}
	// The constant bounds (ConstantUpperBound / ConstantLowerBound, which
	// also try SeparateMinMax) must hold too; uint64 values past 2^63 do
	// not fit their int64 results, so that type is left out.
	constInts := t.IsIntOrUInt() && t != ir.UInt64 && t.Bits > 1
	chi, chok := ConstantUpperBound(c.e, c.scope)
	clo, clok := ConstantLowerBound(c.e, c.scope)
	// Of works on the simplified expression, and the simplifier, like
	// Halide's, assumes signed 32/64-bit arithmetic does not overflow (it
	// moves terms across comparisons): a point where the simplified form
	// overflows is skipped like one where the expression itself does.
	simplified := ir.Simplify(c.e)
	names := freeVars(c.e)
	types := varTypes(c.e)
	env := evalEnv{}
	g := &fuzzGen{r: r}
	for range n {
		g.sample(&c, names, types, env)
		s.samples++
		signedOverflows = 0
		v := eval(c.e, env)
		eval(simplified, env)
		var lo, hi *val
		if iv.Min != nil {
			x := eval(iv.Min, env)
			lo = &x
		}
		if iv.Max != nil {
			x := eval(iv.Max, env)
			hi = &x
		}
		if signedOverflows > 0 || (t.IsFloat() && math.IsNaN(v.f)) {
			s.skipped++
			continue
		}
		if constInts && ((chok && v.i > chi) || (clok && v.i < clo)) {
			fail(fmt.Sprintf("value %d not in the constant bounds [%d (%v), %d (%v)]", v.i, clo, clok, chi, chok))
			return
		}
		if !contains(t, lo, hi, v) {
			var at []string
			for _, name := range names {
				x := env[name]
				if types[name].IsFloat() {
					at = append(at, fmt.Sprintf("%s=%v", name, x.f))
				} else {
					at = append(at, fmt.Sprintf("%s=%d", name, x.i))
				}
			}
			str := func(p *val) string {
				switch {
				case p == nil:
					return "inf"
				case t.IsFloat():
					return fmt.Sprint(p.f)
				}
				return fmt.Sprint(p.i)
			}
			val := fmt.Sprint(v.i)
			if t.IsFloat() {
				val = fmt.Sprint(v.f)
			}
			fail(fmt.Sprintf("value %s not in [%s, %s] at %s", val, str(lo), str(hi), strings.Join(at, " ")))
			return
		}
	}
}

func TestBoundsSoundness(t *testing.T) {
	total := *flagSamples
	if total <= 0 {
		total = quickSamples
		if testing.Short() {
			total /= 10
		}
	}
	rng := rand.New(rand.NewSource(*flagSeed))
	var s fuzzStats
	start := time.Now()
	for s.samples < total {
		c := newFuzzCase(rng, 1+rng.Intn(4))
		s.check(rng, c, samplesPerExpr)
	}
	t.Logf("seed %d: %d expressions, %d samples (%d skipped: signed 32/64-bit overflow or NaN), %d violations, in %v",
		*flagSeed, s.exprs, s.samples, s.skipped, s.violations, time.Since(start).Round(time.Millisecond))
	if *flagSamples > 0 {
		fmt.Printf("bounds soundness: seed %d: %d expressions, %d samples, %d skipped, %d violations\n",
			*flagSeed, s.exprs, s.samples, s.skipped, s.violations)
	}
	for _, r := range s.reports {
		t.Error(r)
	}
}

func FuzzBounds(f *testing.F) {
	rng := rand.New(rand.NewSource(1))
	for range 16 {
		b := make([]byte, 64)
		rng.Read(b)
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c := &byteChooser{b: data}
		fc := newFuzzCase(c, 1+c.Intn(4))
		var s fuzzStats
		s.check(rand.New(rand.NewSource(int64(len(data)))), fc, 50)
		for _, r := range s.reports {
			t.Error(r)
		}
	})
}
