package bounds

import (
	"fmt"
	"math"
	"math/rand"
	"sort"
	"testing"

	"github.com/gohalide/gohalide/half"
	"github.com/gohalide/gohalide/ir"
)

// A tiny reference evaluator for the IR, used to check intervals by value:
// ends that print differently (depending on the simplifier) are compared by
// evaluating them at sample assignments of their variables, and soundness is
// checked by evaluating expressions at points of their scopes.

type val struct {
	i int64
	f float64
}

type evalEnv map[string]val

// onRead, when set, is called with each Func, image or buffer element that
// eval reads.
var onRead func(name string, idx []int64)

// memValue is the deterministic content of Funcs, images and buffers.
func memValue(t ir.Type, name string, idx []int64) val {
	if onRead != nil {
		onRead(name, idx)
	}
	h := uint64(1469598103934665603)
	for _, c := range name {
		h = (h ^ uint64(c)) * 1099511628211
	}
	for _, x := range idx {
		h = (h ^ uint64(x)) * 1099511628211
		h ^= h >> 29
	}
	if t.IsFloat() {
		return val{f: float64(int64(h%2001) - 1000)}
	}
	return val{i: t.Wrap(int64(h))}
}

func eval(e ir.Expr, env evalEnv) val {
	switch e := e.(type) {
	case *ir.IntImm:
		return val{i: e.V}
	case *ir.FloatImm:
		return val{f: e.V}
	case *ir.Var:
		v, ok := env[e.Name]
		if !ok {
			panic(fmt.Sprintf("eval: unbound variable %s", e.Name))
		}
		return v
	case *ir.Cast:
		x := eval(e.X, env)
		return convert(e.X.Type(), e.T, x)
	case *ir.Binary:
		if e.Op == ir.And {
			if eval(e.A, env).i == 0 {
				return val{i: 0}
			}
			return val{i: b2i(eval(e.B, env).i != 0)}
		}
		if e.Op == ir.Or {
			if eval(e.A, env).i != 0 {
				return val{i: 1}
			}
			return val{i: b2i(eval(e.B, env).i != 0)}
		}
		t := e.A.Type()
		a, b := eval(e.A, env), eval(e.B, env)
		if t.IsFloat() {
			return floatOp(t, e.Op, a.f, b.f)
		}
		return intOp(t, e.Op, a.i, b.i)
	case *ir.Not:
		return val{i: b2i(eval(e.X, env).i == 0)}
	case *ir.Select:
		if eval(e.Cond, env).i != 0 {
			return eval(e.True, env)
		}
		return eval(e.False, env)
	case *ir.Call:
		args := make([]val, len(e.Args))
		for i, a := range e.Args {
			args[i] = eval(a, env)
		}
		if e.Kind != ir.CallIntrinsic {
			idx := make([]int64, len(args))
			for i, a := range args {
				idx[i] = a.i
			}
			return memValue(e.T, e.Name, idx)
		}
		return intrinsic(e, args)
	case *ir.Load:
		return memValue(e.T, e.Buf, []int64{eval(e.Index, env).i})
	case *ir.Let:
		inner := make(evalEnv, len(env)+1)
		for k, v := range env {
			inner[k] = v
		}
		inner[e.Name] = eval(e.Value, env)
		return eval(e.Body, inner)
	}
	panic(fmt.Sprintf("eval: %T", e))
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

func convert(from, to ir.Type, x val) val {
	switch {
	case to.IsFloat() && from.IsFloat():
		return val{f: roundF(to, x.f)}
	case to.IsFloat():
		// Convert directly to the target width, as the executor does:
		// going through float64 could round twice on the way to float32.
		unsigned64 := from.IsUInt() && from.Bits == 64
		switch {
		case unsigned64 && to.Bits <= 32:
			return val{f: roundF(to, float64(float32(uint64(x.i))))}
		case unsigned64:
			return val{f: float64(uint64(x.i))}
		case to.Bits <= 32:
			// A 16-bit float goes through float32 too.
			return val{f: roundF(to, float64(float32(x.i)))}
		}
		return val{f: float64(x.i)}
	case to.IsBool() && from.IsFloat():
		return val{i: b2i(x.f != 0)}
	case to.IsBool():
		return val{i: b2i(x.i != 0)}
	case from.IsFloat():
		return val{i: ir.FloatToInt(x.f, to)}
	}
	return val{i: to.Wrap(x.i)}
}

func roundF(t ir.Type, v float64) float64 {
	switch {
	case t == ir.Float16:
		return half.Float16FromFloat32(float32(v)).ToFloat64()
	case t == ir.BFloat16:
		return half.BFloat16FromFloat32(float32(v)).ToFloat64()
	case t.Bits == 32:
		return float64(float32(v))
	}
	return v
}

// signedOverflows counts the operations of signed 32- and 64-bit types
// whose exact result does not fit the type (and so wrapped) since it was
// last reset. Like Halide, the analysis assumes such arithmetic does not
// overflow; the soundness fuzzer skips the samples where it does.
var signedOverflows int

// intOp is an integer operation as the executor (package cpu) does it:
// results wrap to the type; unsigned values divide, compare and min/max as
// unsigned; Div and Mod are Euclidean (ir.EuclidDiv, ir.EuclidMod), x/0 and
// x%0 are 0.
func intOp(t ir.Type, op ir.BinOp, a, b int64) val {
	w := t.Wrap
	if t.IsInt() && t.Bits >= 32 {
		if signedOverflow(t, op, a, b) {
			signedOverflows++
		}
	}
	if t.IsUInt() && t.Bits == 64 {
		x, y := uint64(a), uint64(b)
		switch op {
		case ir.Div:
			if y == 0 {
				return val{i: 0}
			}
			return val{i: int64(x / y)}
		case ir.Mod:
			if y == 0 {
				return val{i: 0}
			}
			return val{i: int64(x % y)}
		case ir.Min:
			return val{i: int64(min(x, y))}
		case ir.Max:
			return val{i: int64(max(x, y))}
		case ir.LT:
			return val{i: b2i(x < y)}
		case ir.LE:
			return val{i: b2i(x <= y)}
		case ir.GT:
			return val{i: b2i(x > y)}
		case ir.GE:
			return val{i: b2i(x >= y)}
		}
	}
	switch op {
	case ir.Add:
		return val{i: w(a + b)}
	case ir.Sub:
		return val{i: w(a - b)}
	case ir.Mul:
		return val{i: w(a * b)}
	case ir.Div:
		if b == -1 {
			return val{i: w(-a)}
		}
		return val{i: w(ir.EuclidDiv(a, b))}
	case ir.Mod:
		if b == -1 {
			return val{i: 0}
		}
		return val{i: ir.EuclidMod(a, b)}
	case ir.Min:
		return val{i: min(a, b)}
	case ir.Max:
		return val{i: max(a, b)}
	case ir.EQ:
		return val{i: b2i(a == b)}
	case ir.NE:
		return val{i: b2i(a != b)}
	case ir.LT:
		return val{i: b2i(a < b)}
	case ir.LE:
		return val{i: b2i(a <= b)}
	case ir.GT:
		return val{i: b2i(a > b)}
	case ir.GE:
		return val{i: b2i(a >= b)}
	}
	panic("intOp " + op.String())
}

// signedOverflow reports whether a op b in the signed type t of 32 or 64
// bits leaves the range of t.
func signedOverflow(t ir.Type, op ir.BinOp, a, b int64) bool {
	if t.Bits == 32 {
		var r int64
		switch op {
		case ir.Add:
			r = a + b
		case ir.Sub:
			r = a - b
		case ir.Mul:
			r = a * b
		case ir.Div:
			r = ir.EuclidDiv(a, b)
		default:
			return false
		}
		return r != int64(int32(r))
	}
	switch op {
	case ir.Add:
		s := a + b
		return (a >= 0) == (b >= 0) && (s >= 0) != (a >= 0)
	case ir.Sub:
		d := a - b
		return (a >= 0) != (b >= 0) && (d >= 0) != (a >= 0)
	case ir.Mul:
		if a == 0 || b == 0 {
			return false
		}
		p := a * b
		return p/b != a || (a == -1 && b == math.MinInt64) || (b == -1 && a == math.MinInt64)
	case ir.Div:
		return a == math.MinInt64 && b == -1
	}
	return false
}

func floatOp(t ir.Type, op ir.BinOp, a, b float64) val {
	r := func(v float64) val { return val{f: roundF(t, v)} }
	switch op {
	case ir.Add:
		return r(a + b)
	case ir.Sub:
		return r(a - b)
	case ir.Mul:
		return r(a * b)
	case ir.Div:
		return r(a / b)
	case ir.Mod:
		return r(a - b*math.Floor(a/b))
	case ir.Min:
		return r(math.Min(a, b))
	case ir.Max:
		return r(math.Max(a, b))
	case ir.EQ:
		return val{i: b2i(a == b)}
	case ir.NE:
		return val{i: b2i(a != b)}
	case ir.LT:
		return val{i: b2i(a < b)}
	case ir.LE:
		return val{i: b2i(a <= b)}
	case ir.GT:
		return val{i: b2i(a > b)}
	case ir.GE:
		return val{i: b2i(a >= b)}
	}
	panic("floatOp " + op.String())
}

func intrinsic(e *ir.Call, args []val) val {
	t := e.T
	if t.IsFloat() {
		r := func(v float64) val { return val{f: roundF(t, v)} }
		switch e.Name {
		case ir.IntrinsicAbs:
			return r(math.Abs(args[0].f))
		case ir.IntrinsicSqrt:
			return r(math.Sqrt(args[0].f))
		case ir.IntrinsicExp:
			return r(math.Exp(args[0].f))
		case ir.IntrinsicLog:
			return r(math.Log(args[0].f))
		case ir.IntrinsicFloor:
			return r(math.Floor(args[0].f))
		case ir.IntrinsicCeil:
			return r(math.Ceil(args[0].f))
		case ir.IntrinsicRound:
			return r(math.RoundToEven(args[0].f))
		case ir.IntrinsicPow:
			return r(math.Pow(args[0].f, args[1].f))
		case ir.IntrinsicLikely, ir.IntrinsicUnsafePromiseClamped:
			return args[0]
		case ir.IntrinsicPromiseClamped:
			return r(math.Min(math.Max(args[0].f, args[1].f), args[2].f))
		}
	} else {
		switch e.Name {
		case ir.IntrinsicAbs:
			// As the executor: |x| of a signed value in int64, then
			// converted to the call's type.
			at := e.Args[0].Type()
			v := args[0].i
			if at.IsInt() && v < 0 {
				if at.Bits >= 32 && v == at.Min() {
					signedOverflows++
				}
				v = -v
			}
			return val{i: t.Wrap(v)}
		case ir.IntrinsicLikely, ir.IntrinsicUnsafePromiseClamped:
			return args[0]
		case ir.IntrinsicPromiseClamped:
			return intOp(t, ir.Min, intOp(t, ir.Max, args[0].i, args[1].i).i, args[2].i)
		case ir.IntrinsicBitAnd:
			return val{i: t.Wrap(args[0].i & args[1].i)}
		case ir.IntrinsicBitOr:
			return val{i: t.Wrap(args[0].i | args[1].i)}
		case ir.IntrinsicBitXor:
			return val{i: t.Wrap(args[0].i ^ args[1].i)}
		case ir.IntrinsicBitNot:
			return val{i: t.Wrap(^args[0].i)}
		case ir.IntrinsicShiftLeft, ir.IntrinsicShiftRight:
			return val{i: shiftBySteps(t, args[0].i, args[1].i, e.Name == ir.IntrinsicShiftLeft)}
		}
	}
	panic("intrinsic " + e.Name)
}

// shiftBySteps is a shifted by n one place at a time, apart from
// ir.Shift: doubling with wrap-around to the left, halving rounding down
// to the right, a negative n (signed types) the other way.
func shiftBySteps(t ir.Type, a, n int64, left bool) int64 {
	steps := uint64(n)
	if t.IsInt() && n < 0 {
		left, steps = !left, uint64(-(n+1))+1
	}
	steps = min(steps, 70)
	for range steps {
		switch {
		case left:
			a = t.Wrap(a * 2)
		case t.IsUInt():
			a = int64(uint64(a) / 2)
		default:
			a = a >> 1 // floor(a / 2); stays -1 or 0 at the end
		}
	}
	return a
}

// freeVars returns the sorted names of the variables of the expressions that
// are not bound by a Let inside them.
func freeVars(es ...ir.Expr) []string {
	set := map[string]bool{}
	var walk func(e ir.Expr, bound map[string]bool)
	walk = func(e ir.Expr, bound map[string]bool) {
		switch e := e.(type) {
		case nil:
			return
		case *ir.Var:
			if !bound[e.Name] {
				set[e.Name] = true
			}
			return
		case *ir.Let:
			walk(e.Value, bound)
			inner := map[string]bool{e.Name: true}
			for k := range bound {
				inner[k] = true
			}
			walk(e.Body, inner)
			return
		}
		ir.MapExpr(e, func(c ir.Expr) ir.Expr {
			walk(c, bound)
			return c
		})
	}
	for _, e := range es {
		walk(e, nil)
	}
	var names []string
	for n := range set {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// varTypes collects the type of each variable in the expressions.
func varTypes(es ...ir.Expr) map[string]ir.Type {
	m := map[string]ir.Type{}
	for _, e := range es {
		ir.WalkExpr(e, func(x ir.Expr) bool {
			if v, ok := x.(*ir.Var); ok {
				m[v.Name] = v.T
			}
			return true
		})
	}
	return m
}

// sameEnd reports whether two interval ends are equal: both infinite, or
// equal in value at sample assignments of their free variables.
func sameEnd(got, want ir.Expr, rng *rand.Rand) (bool, string) {
	if got == nil || want == nil {
		if got == nil && want == nil {
			return true, ""
		}
		return false, "one end infinite"
	}
	if got.Type() != want.Type() {
		return false, fmt.Sprintf("types %s and %s", got.Type(), want.Type())
	}
	names := freeVars(got, want)
	types := varTypes(got, want)
	trials := 40
	if len(names) == 0 {
		trials = 1
	}
	for k := 0; k < trials; k++ {
		env := evalEnv{}
		for _, n := range names {
			t := types[n]
			switch {
			case t.IsFloat():
				env[n] = val{f: float64(rng.Intn(201) - 100)}
			case t.IsBool():
				env[n] = val{i: int64(rng.Intn(2))}
			default:
				env[n] = val{i: t.Wrap(int64(rng.Intn(201) - 100))}
			}
		}
		g, w := eval(got, env), eval(want, env)
		if g != w {
			return false, fmt.Sprintf("at %v: %v != %v", env, g, w)
		}
	}
	return true, ""
}

func checkInterval(t *testing.T, what string, got, want Interval) {
	t.Helper()
	rng := rand.New(rand.NewSource(1))
	if ok, why := sameEnd(got.Min, want.Min, rng); !ok {
		t.Errorf("%s: got %s, want %s (min differs: %s)", what, got, want, why)
		return
	}
	if ok, why := sameEnd(got.Max, want.Max, rng); !ok {
		t.Errorf("%s: got %s, want %s (max differs: %s)", what, got, want, why)
	}
}

func TestEvaluatorSanity(t *testing.T) {
	x := ir.NewVar("x")
	e := ir.AddE(ir.ModE(ir.SubE(x, ir.Int(10)), ir.Int(4)), ir.DivE(ir.Int(-7), ir.Int(2)))
	if got := eval(e, evalEnv{"x": {i: 3}}); got.i != 1+(-4) {
		t.Fatalf("eval = %v", got)
	}
}
