package bounds

import (
	"math/rand"
	"testing"

	"github.com/gohalide/gohalide/ir"
)

func iv(lo, hi int64) Interval { return Interval{ir.Int(lo), ir.Int(hi)} }

func ivT(t ir.Type, lo, hi int64) Interval {
	return Interval{ir.IntConst(t, lo), ir.IntConst(t, hi)}
}

func tv(t ir.Type, name string) *ir.Var { return &ir.Var{T: t, Name: name} }

func call(t ir.Type, kind ir.CallKind, name string, args ...ir.Expr) ir.Expr {
	return &ir.Call{T: t, Kind: kind, Name: name, Args: args}
}

func intrin(t ir.Type, name string, args ...ir.Expr) ir.Expr {
	return call(t, ir.CallIntrinsic, name, args...)
}

func TestOf(t *testing.T) {
	var (
		x, y, r = ir.NewVar("x"), ir.NewVar("y"), ir.NewVar("r")
		e       = ir.NewVar("e") // in scope, unbounded
		i       = ir.NewVar("i") // in scope, [0, N-1]
		n, m    = ir.NewVar("N"), ir.NewVar("M")
		p       = tv(ir.UInt8, "p")
		u, v    = tv(ir.UInt32, "u"), tv(ir.UInt32, "v")
		f       = tv(ir.Float32, "f")
		g       = tv(ir.Float32, "g") // in scope, unbounded
		z       = tv(ir.UInt8, "z")   // free
		c       = ir.Int
	)
	scope := Scope{
		"x": iv(0, 10),
		"y": iv(-3, 5),
		"r": iv(0, 5),
		"e": Everything(),
		"i": {ir.Int(0), ir.SubE(n, ir.Int(1))},
		"p": ivT(ir.UInt8, 200, 250),
		"u": ivT(ir.UInt32, 5, 10),
		"v": ivT(ir.UInt32, 0, 3),
		"f": {ir.Const(ir.Float32, 1.5), ir.Const(ir.Float32, 7.9)},
		"g": Everything(),
	}
	f32 := func(v float64) ir.Expr { return ir.Const(ir.Float32, v) }
	cast := func(t ir.Type, e ir.Expr) ir.Expr { return &ir.Cast{T: t, X: e} }
	sel := func(cnd, a, b ir.Expr) ir.Expr { return &ir.Select{Cond: cnd, True: a, False: b} }
	let := func(name string, v, b ir.Expr) ir.Expr { return &ir.Let{Name: name, Value: v, Body: b} }
	tt := ir.NewVar("t")
	u8max := ivT(ir.UInt8, 0, 255)

	tests := []struct {
		name string
		e    ir.Expr
		want Interval
	}{
		{"const", c(5), iv(5, 5)},
		{"scoped var", x, iv(0, 10)},
		{"free var", n, Point(n)},
		{"free expr", ir.AddE(ir.MulE(n, c(2)), m), Point(ir.AddE(ir.MulE(n, c(2)), m))},
		{"add const", ir.AddE(x, c(3)), iv(3, 13)},
		{"add free", ir.AddE(x, n), Interval{n, ir.AddE(n, c(10))}},
		{"sub", ir.SubE(x, y), iv(-5, 13)},
		{"mul const", ir.MulE(x, c(4)), iv(0, 40)},
		{"mul neg const", ir.MulE(x, c(-2)), iv(-20, 0)},
		{"const mul", ir.MulE(c(-3), y), iv(-15, 9)},
		{"mul zero unbounded", ir.MulE(e, c(0)), iv(0, 0)},
		{"mul intervals", ir.MulE(x, y), iv(-30, 50)},
		{"mul mixed signs", ir.MulE(y, ir.SubE(y, c(1))), iv(-20, 20)},
		{"mul nonneg", ir.MulE(x, r), iv(0, 50)},
		{"mul symbolic", ir.MulE(i, c(8)), Interval{c(0), ir.MulE(ir.SubE(n, c(1)), c(8))}},
		{"mul free", ir.MulE(x, n), Interval{ir.MinE(c(0), ir.MulE(n, c(10))), ir.MaxE(c(0), ir.MulE(n, c(10)))}},
		{"mul unbounded", ir.MulE(e, x), Everything()},
		{"div const", ir.DivE(y, c(2)), iv(-2, 2)},
		{"div neg const", ir.DivE(y, c(-2)), iv(-2, 2)}, // Euclidean: -3 / -2 is 2, 5 / -2 is -2
		{"div negative range", ir.DivE(ir.SubE(y, c(10)), c(4)), iv(-4, -2)},
		{"div by zero", ir.DivE(x, c(0)), iv(0, 0)},
		{"div positive interval", ir.DivE(x, ir.AddE(r, c(1))), iv(0, 10)},
		{"div positive interval neg num", ir.DivE(ir.SubE(y, c(10)), ir.AddE(r, c(1))), iv(-13, -1)},
		{"div negative interval", ir.DivE(x, ir.SubE(c(-1), r)), iv(-10, 0)},
		{"div mixed interval", ir.DivE(x, y), iv(-10, 10)},
		{"div unbounded", ir.DivE(e, c(2)), Everything()},
		{"mod const", ir.ModE(y, c(4)), iv(0, 3)},
		{"mod within", ir.ModE(x, c(16)), iv(0, 10)},
		{"mod wraps", ir.ModE(x, c(4)), iv(0, 3)},
		{"mod negative range", ir.ModE(ir.SubE(y, c(10)), c(4)), iv(0, 3)},
		{"mod neg const", ir.ModE(y, c(-4)), iv(0, 3)}, // Euclidean: never negative
		{"mod neg const within", ir.ModE(x, c(-16)), iv(0, 10)},
		{"mod negative interval", ir.ModE(y, ir.SubE(c(-1), r)), iv(0, 5)},
		{"mod unbounded", ir.ModE(e, c(8)), iv(0, 7)},
		{"mod positive interval", ir.ModE(x, ir.AddE(r, c(1))), iv(0, 5)},
		{"mod mixed interval", ir.ModE(x, y), iv(0, 4)},
		{"mod mixed interval neg num", ir.ModE(ir.SubE(y, c(10)), y), iv(0, 4)},
		{"min", ir.MinE(x, y), iv(-3, 5)},
		{"max", ir.MaxE(x, y), iv(0, 10)},
		{"min free", ir.MinE(x, n), Interval{ir.MinE(c(0), n), ir.MinE(c(10), n)}},
		{"min unbounded", ir.MinE(e, c(5)), Interval{nil, c(5)}},
		{"max unbounded", ir.MaxE(e, c(5)), Interval{c(5), nil}},
		{"clamp", ir.MaxE(ir.MinE(ir.MulE(y, c(4)), c(15)), c(0)), iv(0, 15)},
		{"clamp unbounded", ir.MaxE(ir.MinE(e, c(10)), c(0)), iv(0, 10)},
		{"clamp symbolic", ir.MaxE(ir.MinE(e, ir.SubE(n, c(1))), c(0)),
			Interval{c(0), ir.MaxE(ir.SubE(n, c(1)), c(0))}},
		{"add unbounded", ir.AddE(e, c(1)), Everything()},
		{"select refined", sel(ir.LTE(x, c(5)), x, c(0)), iv(0, 4)},
		{"select refined else", sel(ir.LTE(x, c(5)), c(0), x), iv(0, 10)},
		{"select else refined", sel(ir.LEE(c(3), x), c(0), ir.MulE(x, c(10))), iv(0, 20)},
		{"select true", sel(ir.LTE(x, c(20)), x, c(-100)), iv(0, 10)},
		{"select false", sel(ir.Bin(ir.GT, x, c(20)), c(-100), y), iv(-3, 5)},
		{"select free cond", sel(ir.LTE(n, c(0)), x, y), iv(-3, 10)},
		{"select point", sel(ir.LTE(n, c(0)), n, m), Point(sel(ir.LTE(n, c(0)), n, m))},
		{"correlated", ir.SubE(ir.AddE(x, r), x), iv(0, 5)},
		{"correlated tile", ir.AddE(ir.SubE(ir.AddE(ir.AddE(ir.MulE(x, c(8)), y), c(7)), ir.AddE(ir.MulE(x, c(8)), y)), c(1)), iv(8, 8)},
		{"cast widen", cast(ir.Int32, p), iv(200, 250)},
		{"cast free", cast(ir.Int32, z), Point(cast(ir.Int32, z))},
		{"cast narrow fits", cast(ir.UInt8, x), ivT(ir.UInt8, 0, 10)},
		{"cast narrow overflows", cast(ir.UInt8, ir.AddE(x, c(250))), u8max},
		{"cast int16 fits", cast(ir.Int16, ir.MulE(x, c(1000))), ivT(ir.Int16, 0, 10000)},
		{"cast int16 overflows", cast(ir.Int16, ir.MulE(x, c(10000))), ivT(ir.Int16, -32768, 32767)},
		{"cast to float", cast(ir.Float32, x), Interval{f32(0), f32(10)}},
		{"cast float to int", cast(ir.Int32, f), iv(1, 7)},
		// The cast saturates, but int32's limits are infinite ends (an
		// end 2^31 - 1 + x would wrap where it is evaluated).
		{"cast unbounded float", cast(ir.Int32, g), Interval{}},
		{"cast to bool", cast(ir.Bool, ir.AddE(x, c(1))), Point(ir.True)},
		{"uint8 arithmetic", ir.AddE(ir.DivE(p, ir.IntConst(ir.UInt8, 2)), ir.IntConst(ir.UInt8, 10)), ivT(ir.UInt8, 110, 135)},
		{"uint8 overflow", ir.AddE(p, p), u8max},
		{"uint sub", ir.SubE(u, v), ivT(ir.UInt32, 2, 10)},
		{"uint sub wraps", ir.SubE(v, u), ivT(ir.UInt32, 0, 1<<32-1)},
		{"promise_clamped", intrin(ir.Int32, ir.IntrinsicPromiseClamped, ir.MulE(y, c(10)), c(0), c(15)), iv(0, 15)},
		{"promise_clamped inside", intrin(ir.Int32, ir.IntrinsicPromiseClamped, x, c(-5), c(100)), iv(0, 10)},
		// The value is min(max(x, lo), hi), which is hi when hi < lo: for
		// N <= 0 it is N - 1, below 0.
		{"promise_clamped symbolic", intrin(ir.Int32, ir.IntrinsicPromiseClamped, x, c(0), ir.SubE(n, c(1))),
			Interval{ir.MinE(ir.SubE(n, c(1)), c(0)), ir.MinE(ir.SubE(n, c(1)), c(10))}},
		{"promise_clamped unbounded", intrin(ir.Int32, ir.IntrinsicPromiseClamped, e, c(0), ir.SubE(n, c(1))),
			Interval{ir.MinE(ir.SubE(n, c(1)), c(0)), ir.SubE(n, c(1))}},
		{"unsafe_promise_clamped", intrin(ir.Int32, ir.IntrinsicUnsafePromiseClamped, ir.MulE(y, c(10)), c(0), c(15)), iv(0, 15)},
		{"unsafe_promise_clamped symbolic", intrin(ir.Int32, ir.IntrinsicUnsafePromiseClamped, e, c(0), ir.SubE(n, c(1))),
			Interval{c(0), ir.SubE(n, c(1))}},
		{"likely", intrin(ir.Int32, ir.IntrinsicLikely, x), iv(0, 10)},
		{"abs", intrin(ir.Int32, ir.IntrinsicAbs, y), iv(0, 5)},
		{"abs negative", intrin(ir.Int32, ir.IntrinsicAbs, ir.SubE(x, c(20))), iv(10, 20)},
		{"floor", intrin(ir.Float32, ir.IntrinsicFloor, f), Interval{f32(1), f32(7)}},
		{"sqrt unbounded", intrin(ir.Float32, ir.IntrinsicSqrt, g), Interval{f32(0), nil}},
		{"pow", intrin(ir.Float32, ir.IntrinsicPow, f, f32(2)), Everything()},
		{"load uint8", &ir.Load{T: ir.UInt8, Buf: "b", Index: x}, u8max},
		{"load int32", &ir.Load{T: ir.Int32, Buf: "b", Index: c(0)}, Everything()},
		{"load float", &ir.Load{T: ir.Float32, Buf: "b", Index: x}, Everything()},
		{"load uint8 widened", ir.AddE(cast(ir.Int32, &ir.Load{T: ir.UInt8, Buf: "b", Index: x}), c(1)), iv(1, 256)},
		{"func int16", call(ir.Int16, ir.CallFunc, "h", x, y), ivT(ir.Int16, -32768, 32767)},
		{"image bool", call(ir.Bool, ir.CallImage, "img", c(0)), Interval{ir.False, ir.True}},
		{"let", let("t", ir.MulE(x, c(2)), ir.AddE(tt, c(1))), iv(1, 21)},
		{"let free", let("t", ir.MulE(n, c(2)), ir.AddE(tt, x)), Interval{ir.MulE(n, c(2)), ir.AddE(ir.MulE(n, c(2)), c(10))}},
		{"let shadows", let("x", ir.AddE(x, c(100)), x), iv(100, 110)},
		{"lt true", ir.LTE(x, c(20)), Point(ir.True)},
		{"lt unknown", ir.LTE(x, c(5)), Interval{ir.False, ir.True}},
		{"ge false", ir.Bin(ir.GE, x, c(11)), Point(ir.False)},
		{"eq disjoint", ir.Bin(ir.EQ, x, c(11)), Point(ir.False)},
		{"ne disjoint", ir.Bin(ir.NE, x, c(-1)), Point(ir.True)},
		{"and", ir.AndE(ir.LTE(x, c(20)), ir.LTE(y, c(0))), Interval{ir.False, ir.True}},
		{"not", &ir.Not{X: ir.LTE(x, c(20))}, Point(ir.False)},
		{"cmp free", ir.LTE(n, c(3)), Point(ir.LTE(n, c(3)))},
	}
	for _, tc := range tests {
		got := Of(tc.e, scope)
		checkInterval(t, tc.name+": Of("+ir.ExprString(tc.e)+")", got, tc.want)
		// Where the expected ends are constants, the result must be too.
		for k, pair := range [2][2]ir.Expr{{got.Min, tc.want.Min}, {got.Max, tc.want.Max}} {
			if ir.IsConst(pair[1]) && !ir.IsConst(pair[0]) {
				t.Errorf("%s: end %d of %s is not a constant (want %s)", tc.name, k, got, tc.want)
			}
		}
	}
}

// TestOfDoesNotModifyScope checks that lets and refinements never write to
// the caller's map.
func TestOfDoesNotModifyScope(t *testing.T) {
	x := ir.NewVar("x")
	scope := Scope{"x": iv(0, 10)}
	e := &ir.Let{Name: "x", Value: ir.Int(3), Body: &ir.Select{Cond: ir.LTE(x, ir.Int(5)), True: x, False: ir.Int(0)}}
	_ = Of(e, scope)
	if len(scope) != 1 || !ir.IsConstValue(scope["x"].Max, 10) {
		t.Fatalf("scope modified: %v", scope)
	}
}

func TestConstantBounds(t *testing.T) {
	var (
		x, v, m, n = ir.NewVar("x"), ir.NewVar("v"), ir.NewVar("M"), ir.NewVar("N")
		c          = ir.Int
		b          = tv(ir.Bool, "b")
	)
	type want struct {
		v  int64
		ok bool
	}
	load8 := &ir.Cast{T: ir.Int32, X: &ir.Load{T: ir.UInt8, Buf: "buf", Index: x}}
	tests := []struct {
		name   string
		e      ir.Expr
		s      Scope
		lo, hi want
	}{
		{"tail", ir.MinE(ir.SubE(m, ir.MulE(v, c(8))), c(8)), nil, want{}, want{8, true}},
		{"mod", ir.ModE(x, c(16)), nil, want{0, true}, want{15, true}},
		{"free", n, nil, want{}, want{}},
		{"const", c(42), nil, want{42, true}, want{42, true}},
		{"scoped", ir.MulE(x, c(2)), Scope{"x": iv(0, 10)}, want{0, true}, want{20, true}},
		{"scoped symbolic", x, Scope{"x": {c(0), ir.SubE(n, c(1))}}, want{0, true}, want{}},
		{"scoped min", x, Scope{"x": {c(0), ir.SubE(ir.MinE(n, c(16)), c(1))}}, want{0, true}, want{15, true}},
		{"select", &ir.Select{Cond: b, True: c(3), False: c(7)}, nil, want{3, true}, want{7, true}},
		{"select refined", &ir.Select{Cond: ir.LTE(x, c(10)), True: x, False: c(9)}, nil, want{}, want{9, true}},
		{"load", ir.AddE(load8, c(1)), nil, want{1, true}, want{256, true}},
		{"max", ir.MaxE(v, c(0)), nil, want{0, true}, want{}},
		{"sum", ir.AddE(ir.ModE(v, c(8)), ir.MinE(x, c(4))), nil, want{}, want{11, true}},
		{"clamp", ir.MaxE(ir.MinE(ir.AddE(x, n), c(63)), c(0)), nil, want{0, true}, want{63, true}},
		{"div", ir.DivE(ir.ModE(x, c(100)), c(8)), nil, want{0, true}, want{12, true}},
		{"correlated", ir.SubE(ir.AddE(x, c(5)), x), nil, want{5, true}, want{5, true}},
		// harris's gray.in() unrolled inside Iy.x (split by 2, with m the
		// ShiftInwards clamp of the tile): the division goes inside the
		// min, and the sum cancels v: min(v, 31) - v + 2 <= 2.
		{"division over a min", ir.AddE(ir.SubE(ir.DivE(ir.AddE(ir.SubE(ir.MinE(ir.AddE(ir.MulE(v, c(2)), ir.MinE(m, n)), ir.AddE(ir.MinE(m, n), c(62))), ir.MinE(m, n)), c(1)), c(2)), v), c(2)), nil, want{}, want{2, true}},
		{"division over a max", ir.SubE(v, ir.DivE(ir.MaxE(ir.MulE(v, c(4)), c(8)), c(4))), nil, want{}, want{0, true}},
	}
	for _, tc := range tests {
		lo, lok := ConstantLowerBound(tc.e, tc.s)
		hi, hok := ConstantUpperBound(tc.e, tc.s)
		if lok != tc.lo.ok || (lok && lo != tc.lo.v) {
			t.Errorf("%s: ConstantLowerBound(%s) = %d, %v; want %d, %v", tc.name, ir.ExprString(tc.e), lo, lok, tc.lo.v, tc.lo.ok)
		}
		if hok != tc.hi.ok || (hok && hi != tc.hi.v) {
			t.Errorf("%s: ConstantUpperBound(%s) = %d, %v; want %d, %v", tc.name, ir.ExprString(tc.e), hi, hok, tc.hi.v, tc.hi.ok)
		}
	}
}

func TestIntervalHelpers(t *testing.T) {
	n := ir.NewVar("N")
	if s := (Interval{}).String(); s != "[-inf, +inf]" {
		t.Errorf("Everything().String() = %q", s)
	}
	if s := iv(0, 7).String(); s != "[0, 7]" {
		t.Errorf("String = %q", s)
	}
	if !Point(n).IsPoint() || iv(0, 1).IsPoint() || !iv(3, 3).IsPoint() {
		t.Error("IsPoint")
	}
	if !iv(0, 1).IsBounded() || (Interval{Min: ir.Int(0)}).IsBounded() || !Everything().IsEverything() {
		t.Error("IsBounded / IsEverything")
	}
	checkInterval(t, "Union", Union(iv(0, 5), iv(3, 9)), iv(0, 9))
	checkInterval(t, "Union inf", Union(iv(0, 5), Interval{Max: ir.Int(2)}), Interval{nil, ir.Int(5)})
	checkInterval(t, "Intersect", Intersect(iv(0, 5), iv(3, 9)), iv(3, 5))
	checkInterval(t, "Intersect inf", Intersect(Interval{Max: n}, iv(3, 9)), Interval{ir.Int(3), ir.MinE(n, ir.Int(9))})
	checkInterval(t, "Intersect everything", Intersect(Everything(), Point(n)), Point(n))
}

// TestOfSound evaluates random expressions at random points of their scope
// and checks that every value lies in the interval Of computed.
func TestOfSound(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	scope := Scope{
		"a": iv(-5, 7),
		"b": iv(0, 9),
		"c": iv(-20, -3),
		"d": ivT(ir.UInt8, 3, 250),
		"w": ivT(ir.Int16, -300, 1000),
	}
	ranges := map[string][2]int64{"a": {-5, 7}, "b": {0, 9}, "c": {-20, -3}, "d": {3, 250}, "w": {-300, 1000}}
	g := &exprGen{rng: rng}
	for k := 0; k < 3000; k++ {
		e := g.gen(ir.Int32, 4)
		got := Of(e, scope)
		for _, end := range []ir.Expr{got.Min, got.Max} {
			if end != nil && !ir.IsConst(end) {
				t.Fatalf("Of(%s) = %s: non-constant end", ir.ExprString(e), got)
			}
		}
		for s := 0; s < 40; s++ {
			env := evalEnv{}
			for name, r := range ranges {
				var v int64
				switch rng.Intn(4) {
				case 0:
					v = r[0]
				case 1:
					v = r[1]
				default:
					v = r[0] + rng.Int63n(r[1]-r[0]+1)
				}
				env[name] = val{i: v}
			}
			x := eval(e, env).i
			if (got.Min != nil && x < got.Min.(*ir.IntImm).V) || (got.Max != nil && x > got.Max.(*ir.IntImm).V) {
				t.Fatalf("Of(%s) = %s, but the value at %v is %d", ir.ExprString(e), got, env, x)
			}
		}
	}
}

// exprGen generates random expressions over the scoped variables of
// TestOfSound.
type exprGen struct {
	rng  *rand.Rand
	vars []string // int32 variables to use (default a, b, c)
}

func (g *exprGen) leaf(t ir.Type) ir.Expr {
	switch t {
	case ir.Int32:
		switch g.rng.Intn(6) {
		case 0:
			return ir.Int(int64(g.rng.Intn(21) - 10))
		case 1, 2, 3:
			if g.vars != nil {
				return ir.NewVar(g.vars[g.rng.Intn(len(g.vars))])
			}
			return ir.NewVar([]string{"a", "b", "c"}[g.rng.Intn(3)])
		case 4:
			return &ir.Cast{T: ir.Int32, X: tv(ir.UInt8, "d")}
		default:
			return &ir.Cast{T: ir.Int32, X: &ir.Load{T: ir.UInt8, Buf: "buf", Index: ir.NewVar("a")}}
		}
	case ir.UInt8:
		if g.rng.Intn(2) == 0 {
			return tv(ir.UInt8, "d")
		}
		return ir.IntConst(ir.UInt8, int64(g.rng.Intn(256)))
	case ir.Int16:
		if g.rng.Intn(2) == 0 {
			return tv(ir.Int16, "w")
		}
		return ir.IntConst(ir.Int16, int64(g.rng.Intn(2001)-1000))
	}
	panic("leaf type")
}

func (g *exprGen) cond(depth int) ir.Expr {
	ops := []ir.BinOp{ir.LT, ir.LE, ir.GT, ir.GE, ir.EQ, ir.NE}
	c := ir.Bin(ops[g.rng.Intn(len(ops))], g.gen(ir.Int32, depth-1), g.gen(ir.Int32, depth-1))
	switch g.rng.Intn(5) {
	case 0:
		return ir.AndE(c, g.cond(depth-1))
	case 1:
		return ir.Bin(ir.Or, c, g.cond(depth-1))
	case 2:
		return &ir.Not{X: c}
	case 3:
		return intrin(ir.Bool, ir.IntrinsicLikely, c)
	}
	return c
}

func (g *exprGen) gen(t ir.Type, depth int) ir.Expr {
	if depth <= 0 || g.rng.Intn(5) == 0 {
		return g.leaf(t)
	}
	if t != ir.Int32 {
		switch g.rng.Intn(4) {
		case 0:
			return &ir.Cast{T: t, X: g.gen(ir.Int32, depth-1)}
		case 1:
			return g.leaf(t)
		}
		ops := []ir.BinOp{ir.Add, ir.Sub, ir.Mul, ir.Div, ir.Mod, ir.Min, ir.Max}
		return ir.Bin(ops[g.rng.Intn(len(ops))], g.gen(t, depth-1), g.gen(t, depth-1))
	}
	sub := func() ir.Expr { return g.gen(ir.Int32, depth-1) }
	switch g.rng.Intn(17) {
	case 0, 1:
		return ir.AddE(sub(), sub())
	case 2:
		return ir.SubE(sub(), sub())
	case 3:
		return ir.MulE(sub(), sub())
	case 4:
		return ir.DivE(sub(), sub())
	case 5:
		return ir.ModE(sub(), sub())
	case 6:
		return ir.MinE(sub(), sub())
	case 7:
		return ir.MaxE(sub(), sub())
	case 8:
		return &ir.Select{Cond: g.cond(depth - 1), True: sub(), False: sub()}
	case 9:
		return ir.MulE(sub(), ir.Int(int64(g.rng.Intn(9)-4)))
	case 10:
		if g.rng.Intn(2) == 0 {
			return ir.DivE(sub(), ir.Int(int64(g.rng.Intn(9)-4)))
		}
		return ir.ModE(sub(), ir.Int(int64(g.rng.Intn(9)-4)))
	case 11:
		// A let, sometimes shadowing a scoped variable.
		names := []string{"a", "t0", "t1"}
		name := names[g.rng.Intn(len(names))]
		return &ir.Let{Name: name, Value: sub(), Body: ir.AddE(ir.NewVar(name), sub())}
	case 12:
		nt := []ir.Type{ir.UInt8, ir.Int16}[g.rng.Intn(2)]
		return &ir.Cast{T: ir.Int32, X: g.gen(nt, depth-1)}
	case 13:
		return intrin(ir.Int32, ir.IntrinsicAbs, sub())
	case 14:
		// The IR lets bounds inference assume min <= max.
		lo := sub()
		return intrin(ir.Int32, ir.IntrinsicPromiseClamped, sub(), lo, ir.MaxE(lo, sub()))
	case 15:
		return intrin(ir.Int32, ir.IntrinsicLikely, sub())
	}
	return &ir.Cast{T: ir.Int32, X: g.cond(depth - 1)}
}
