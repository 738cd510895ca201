package bounds

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/gohalide/gohalide/ir"
)

func fcall(name string, args ...ir.Expr) ir.Expr {
	return call(ir.Int32, ir.CallFunc, name, args...)
}

func checkBoxes(t *testing.T, what string, got map[string]Box, want map[string]Box) {
	t.Helper()
	for name, wb := range want {
		gb, ok := got[name]
		if !ok {
			t.Errorf("%s: no box for %s (got %v)", what, name, got)
			continue
		}
		if len(gb) != len(wb) {
			t.Errorf("%s: box of %s is %s, want %s", what, name, gb, wb)
			continue
		}
		for i := range wb {
			checkInterval(t, fmt.Sprintf("%s: %s dim %d", what, name, i), gb[i], wb[i])
		}
	}
	for name, gb := range got {
		if _, ok := want[name]; !ok {
			t.Errorf("%s: unexpected box %s %s", what, name, gb)
		}
	}
}

func loop(name string, min, extent ir.Expr, body ir.Stmt) ir.Stmt {
	return &ir.For{Name: name, Min: min, Extent: extent, Kind: ir.Serial, Body: body}
}

// The split loop nest of f(x) = g(x - 1) + g(x + 1) over [0, 30), with and
// without its tail guard.
func splitNest(guard bool) ir.Stmt {
	x := ir.NewVar("x")
	var body ir.Stmt = &ir.Provide{Func: "f", Args: []ir.Expr{x},
		Value: ir.AddE(fcall("g", ir.SubE(x, ir.Int(1))), fcall("g", ir.AddE(x, ir.Int(1))))}
	if guard {
		body = &ir.IfThenElse{Cond: intrin(ir.Bool, ir.IntrinsicLikely, ir.LEE(x, ir.Int(29))), Then: body}
	}
	return loop("x.xo", ir.Int(0), ir.Int(4),
		loop("x.xi", ir.Int(0), ir.Int(8),
			&ir.LetStmt{Name: "x", Value: ir.AddE(ir.MulE(ir.NewVar("x.xo"), ir.Int(8)), ir.NewVar("x.xi")), Body: body}))
}

func TestRequiredSplit(t *testing.T) {
	checkBoxes(t, "guarded Required", Required(splitNest(true), nil), map[string]Box{"g": {iv(-1, 30)}})
	checkBoxes(t, "guarded Provided", Provided(splitNest(true), nil), map[string]Box{"f": {iv(0, 29)}})
	checkBoxes(t, "guarded Touched", Touched(splitNest(true), nil), map[string]Box{"f": {iv(0, 29)}, "g": {iv(-1, 30)}})
	checkBoxes(t, "unguarded Required", Required(splitNest(false), nil), map[string]Box{"g": {iv(-1, 32)}})
	checkBoxes(t, "unguarded Provided", Provided(splitNest(false), nil), map[string]Box{"f": {iv(0, 31)}})
}

func TestRequiredLetInCall(t *testing.T) {
	y, tt, h := ir.NewVar("y"), ir.NewVar("t"), ir.NewVar("H")
	img := call(ir.UInt8, ir.CallImage, "in", tt, ir.AddE(tt, ir.Int(1)))
	s := loop("y", ir.Int(0), h, &ir.Provide{Func: "out", Args: []ir.Expr{y},
		Value: &ir.Let{Name: "t", Value: ir.MulE(y, ir.Int(2)), Body: &ir.Cast{T: ir.Int32, X: img}}})
	hm1x2 := ir.MulE(ir.SubE(h, ir.Int(1)), ir.Int(2))
	checkBoxes(t, "Required", Required(s, nil), map[string]Box{
		"in": {{ir.Int(0), hm1x2}, {ir.Int(1), ir.AddE(hm1x2, ir.Int(1))}},
	})
	checkBoxes(t, "Provided", Provided(s, nil), map[string]Box{"out": {{ir.Int(0), ir.SubE(h, ir.Int(1))}}})
	for name, b := range Touched(s, nil) {
		if b.DependsOn(func(n string) bool { return n == "t" || n == "y" }) {
			t.Errorf("box of %s %s mentions a bound name", name, b)
		}
	}
}

func TestRequiredFlat(t *testing.T) {
	i := ir.NewVar("i")
	load := func(idx ir.Expr) ir.Expr { return &ir.Load{T: ir.Float32, Buf: "src", Index: idx} }
	s := loop("i", ir.Int(0), ir.Int(16), &ir.Store{Buf: "buf", Index: ir.AddE(i, ir.Int(4)),
		Value: ir.AddE(load(ir.MulE(i, ir.Int(2))), load(ir.AddE(ir.MulE(i, ir.Int(2)), ir.Int(1))))})
	checkBoxes(t, "Required", Required(s, nil), map[string]Box{"src": {iv(0, 31)}})
	checkBoxes(t, "Provided", Provided(s, nil), map[string]Box{"buf": {iv(4, 19)}})
	checkBoxes(t, "Touched", Touched(s, nil), map[string]Box{"src": {iv(0, 31)}, "buf": {iv(4, 19)}})
}

func TestRequiredShadowing(t *testing.T) {
	x := ir.NewVar("x")
	scope := Scope{"x": iv(0, 9)}
	s := &ir.LetStmt{Name: "x", Value: ir.AddE(x, ir.Int(100)),
		Body: &ir.Provide{Func: "f", Args: []ir.Expr{x}, Value: fcall("g", x)}}
	checkBoxes(t, "Required", Required(s, scope), map[string]Box{"g": {iv(100, 109)}})
	checkBoxes(t, "Provided", Provided(s, scope), map[string]Box{"f": {iv(100, 109)}})
	if len(scope) != 1 || !ir.IsConstValue(scope["x"].Max, 9) {
		t.Fatalf("scope modified: %v", scope)
	}
	// A loop variable shadowing a free name used in the loop bounds.
	n := ir.NewVar("n")
	s2 := loop("n", ir.Int(0), n, &ir.Evaluate{X: fcall("g", n)})
	checkBoxes(t, "loop shadow", Required(s2, nil), map[string]Box{"g": {{ir.Int(0), ir.SubE(n, ir.Int(1))}}})
}

func TestRequiredConditions(t *testing.T) {
	x := ir.NewVar("x")
	ev := func(f string) ir.Stmt { return &ir.Evaluate{X: fcall(f, x)} }
	s := loop("x", ir.Int(0), ir.Int(10), &ir.IfThenElse{Cond: ir.LTE(x, ir.Int(5)), Then: ev("g"), Else: ev("h")})
	checkBoxes(t, "if/else", Required(s, nil), map[string]Box{"g": {iv(0, 4)}, "h": {iv(5, 9)}})

	s = loop("x", ir.Int(0), ir.Int(10), &ir.IfThenElse{
		Cond: ir.AndE(ir.Bin(ir.GE, x, ir.Int(2)), intrin(ir.Bool, ir.IntrinsicLikely, ir.LTE(x, ir.Int(7)))),
		Then: ev("g")})
	checkBoxes(t, "conjunction", Required(s, nil), map[string]Box{"g": {iv(2, 6)}})

	s = loop("x", ir.Int(0), ir.Int(10), &ir.IfThenElse{Cond: ir.LTE(ir.Int(3), x), Then: ev("g"), Else: ev("h")})
	checkBoxes(t, "var on the right", Required(s, nil), map[string]Box{"g": {iv(4, 9)}, "h": {iv(0, 3)}})

	sel := &ir.Select{Cond: ir.LTE(x, ir.Int(3)), True: fcall("g", x), False: fcall("h", x)}
	s = loop("x", ir.Int(0), ir.Int(10), &ir.Provide{Func: "f", Args: []ir.Expr{x}, Value: sel})
	checkBoxes(t, "select", Required(s, nil), map[string]Box{"g": {iv(0, 2)}, "h": {iv(3, 9)}})

	// A condition on a free variable does not narrow anything.
	n := ir.NewVar("N")
	s = loop("x", ir.Int(0), ir.Int(10), &ir.IfThenElse{Cond: ir.LTE(n, ir.Int(3)), Then: ev("g")})
	checkBoxes(t, "free condition", Required(s, nil), map[string]Box{"g": {iv(0, 9)}})

	// The cases of a specialization: an if on a free variable around the
	// loops, each branch reading g differently, needs one branch's box or
	// the other's (a select), not their union.
	w := ir.NewVar("w")
	ifw := ir.Bin(ir.EQ, w, ir.Int(8))
	s = &ir.IfThenElse{Cond: ifw,
		Then: loop("x", ir.Int(0), ir.Int(10), &ir.Evaluate{X: fcall("g", ir.AddE(x, ir.Int(7)))}),
		Else: loop("x", ir.Int(0), ir.Int(10), &ir.Evaluate{X: fcall("g", ir.AddE(x, ir.SubE(w, ir.Int(1))))})}
	selw := func(a, b ir.Expr) ir.Expr { return ir.Simplify(&ir.Select{Cond: ifw, True: a, False: b}) }
	checkBoxes(t, "cases", Required(s, nil), map[string]Box{"g": {{selw(ir.Int(7), ir.SubE(w, ir.Int(1))), selw(ir.Int(16), ir.AddE(w, ir.Int(8)))}}})
	// The same inside a loop: the select's ends are selected over it.
	s = loop("x", ir.Int(0), ir.Int(10), &ir.IfThenElse{Cond: ifw,
		Then: &ir.Evaluate{X: fcall("g", ir.AddE(x, ir.Int(7)))},
		Else: &ir.Evaluate{X: fcall("g", ir.AddE(x, ir.SubE(w, ir.Int(1))))}})
	checkBoxes(t, "cases in a loop", Required(s, nil), map[string]Box{"g": {{selw(ir.Int(7), ir.SubE(w, ir.Int(1))), selw(ir.Int(16), ir.AddE(w, ir.Int(8)))}}})
}

func TestRequiredSymbolic(t *testing.T) {
	x, y, w, n := ir.NewVar("x"), ir.NewVar("y"), ir.NewVar("W"), ir.NewVar("N")
	s := loop("x", ir.Int(0), w, &ir.Provide{Func: "f", Args: []ir.Expr{x, y},
		Value: call(ir.Int32, ir.CallImage, "in", ir.AddE(x, ir.Int(1)), y)})
	scope := Scope{"y": {ir.Int(0), ir.SubE(n, ir.Int(1))}}
	checkBoxes(t, "Required", Required(s, scope), map[string]Box{
		"in": {{ir.Int(1), w}, {ir.Int(0), ir.SubE(n, ir.Int(1))}},
	})

	// An inner loop whose min depends on the outer loop variable.
	yo, yi := ir.NewVar("y.yo"), ir.NewVar("y")
	s = loop("y.yo", ir.Int(0), ir.Int(4), loop("y", ir.MulE(yo, ir.Int(8)), ir.Int(8), &ir.Evaluate{X: fcall("g", yi)}))
	checkBoxes(t, "nested", Required(s, nil), map[string]Box{"g": {iv(0, 31)}})

	// Boxes of one Func from several places are unioned.
	s = ir.MakeBlock(
		loop("x", ir.Int(0), ir.Int(4), &ir.Evaluate{X: fcall("g", x, ir.Int(0))}),
		loop("x", ir.Int(10), ir.Int(4), &ir.Evaluate{X: fcall("g", ir.Int(7), x)}),
	)
	checkBoxes(t, "union", Required(s, nil), map[string]Box{"g": {iv(0, 7), iv(0, 13)}})
}

func TestRequiredExpr(t *testing.T) {
	x := ir.NewVar("x")
	e := ir.AddE(fcall("g", x), fcall("g", ir.AddE(x, ir.Int(2))))
	checkBoxes(t, "RequiredExpr", RequiredExpr(e, Scope{"x": iv(0, 5)}), map[string]Box{"g": {iv(0, 7)}})
	// Reads inside the arguments of reads.
	e = fcall("g", &ir.Load{T: ir.Int32, Buf: "idx", Index: x})
	checkBoxes(t, "nested reads", RequiredExpr(e, Scope{"x": iv(0, 5)}), map[string]Box{"g": {Everything()}, "idx": {iv(0, 5)}})
}

func TestBoxHelpers(t *testing.T) {
	n := ir.NewVar("N")
	b := Box{iv(0, 9), Everything()}
	if s := b.String(); s != "{[0, 9], [-inf, +inf]}" {
		t.Errorf("String = %q", s)
	}
	if b.Bounded() || !(Box{iv(0, 1)}).Bounded() {
		t.Error("Bounded")
	}
	sym := Box{{ir.Int(0), ir.SubE(n, ir.Int(1))}}
	if !sym.DependsOn(func(s string) bool { return s == "N" }) || sym.DependsOn(func(s string) bool { return s == "M" }) {
		t.Error("DependsOn")
	}
	if u := Union(nil, sym); len(u) != 1 || u[0] != sym[0] {
		t.Errorf("Union(nil, b) = %v", u)
	}
	if u := Union(sym, nil); len(u) != 1 || u[0] != sym[0] {
		t.Errorf("Union(b, nil) = %v", u)
	}
	u := Union(Box{iv(0, 3), iv(5, 5)}, Box{iv(2, 8), iv(-1, 0)})
	if len(u) != 2 {
		t.Fatalf("Union = %v", u)
	}
	checkInterval(t, "Union dim 0", u[0], iv(0, 8))
	checkInterval(t, "Union dim 1", u[1], iv(-1, 5))
}

// interp runs s, calling onRead for every read (through eval) and write for
// every Provide and Store.
func interp(s ir.Stmt, env evalEnv, write func(name string, idx []int64)) {
	switch s := s.(type) {
	case nil:
	case *ir.For:
		lo, ext := eval(s.Min, env).i, eval(s.Extent, env).i
		for v := lo; v < lo+ext; v++ {
			inner := copyEnv(env)
			inner[s.Name] = val{i: v}
			interp(s.Body, inner, write)
		}
	case *ir.LetStmt:
		inner := copyEnv(env)
		inner[s.Name] = eval(s.Value, env)
		interp(s.Body, inner, write)
	case *ir.IfThenElse:
		if eval(s.Cond, env).i != 0 {
			interp(s.Then, env, write)
		} else {
			interp(s.Else, env, write)
		}
	case *ir.Block:
		for _, x := range s.Stmts {
			interp(x, env, write)
		}
	case *ir.Provide:
		idx := make([]int64, len(s.Args))
		for i, a := range s.Args {
			idx[i] = eval(a, env).i
		}
		eval(s.Value, env)
		write(s.Func, idx)
	case *ir.Store:
		idx := eval(s.Index, env).i
		eval(s.Value, env)
		write(s.Buf, []int64{idx})
	case *ir.Evaluate:
		eval(s.X, env)
	default:
		panic(fmt.Sprintf("interp: %T", s))
	}
}

func copyEnv(env evalEnv) evalEnv {
	out := make(evalEnv, len(env)+1)
	for k, v := range env {
		out[k] = v
	}
	return out
}

// TestBoxesSound runs random loop nests and checks that every element read
// or written lies in the box Required or Provided computed.
func TestBoxesSound(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	g := &exprGen{rng: rng, vars: []string{"a", "b", "c"}}
	scope := Scope{"d": ivT(ir.UInt8, 3, 250), "w": ivT(ir.Int16, -300, 1000)}
	defer func() { onRead = nil }()
	gen := func() ir.Expr { return g.gen(ir.Int32, 2) }
	for k := 0; k < 400; k++ {
		a := ir.NewVar("a")
		g.vars = []string{"a", "b"}
		letValue := gen()
		g.vars = []string{"a", "b", "c"}
		read := &ir.Provide{Func: "f", Args: []ir.Expr{gen()},
			Value: ir.AddE(fcall("g", gen(), gen()), &ir.Load{T: ir.Int32, Buf: "h", Index: gen()})}
		other := &ir.Store{Buf: "o", Index: gen(),
			Value: &ir.Select{Cond: g.cond(2), True: fcall("g", gen(), gen()), False: fcall("g2", gen())}}
		var body ir.Stmt = &ir.IfThenElse{Cond: g.cond(2), Then: read, Else: other}
		body = &ir.LetStmt{Name: "c", Value: letValue, Body: body}
		innerMin := []ir.Expr{ir.Int(int64(rng.Intn(7) - 3)), ir.MulE(a, ir.Int(2)), ir.SubE(ir.Int(1), a)}[rng.Intn(3)]
		s := loop("a", ir.Int(int64(rng.Intn(7)-3)), ir.Int(int64(rng.Intn(5)+1)),
			loop("b", innerMin, ir.Int(int64(rng.Intn(5)+1)), body))

		req, prov := Required(s, scope), Provided(s, scope)
		check := func(kind string, boxes map[string]Box, name string, idx []int64, env evalEnv) {
			box, ok := boxes[name]
			if !ok || len(box) != len(idx) {
				t.Fatalf("%s of %s: no box of %d dims for %v in\n%s", kind, name, len(idx), boxes, ir.StmtString(s))
			}
			for i, v := range idx {
				iv := box[i]
				lo, hi := iv.Min, iv.Max
				if (lo != nil && v < eval(lo, env).i) || (hi != nil && v > eval(hi, env).i) {
					t.Fatalf("%s %s%v outside box %s (d=%d w=%d) in\n%s", kind, name, idx, box, env["d"].i, env["w"].i, ir.StmtString(s))
				}
			}
		}
		for trial := 0; trial < 3; trial++ {
			env := evalEnv{"d": {i: 3 + rng.Int63n(248)}, "w": {i: -300 + rng.Int63n(1301)}}
			onRead = func(name string, idx []int64) { check("read", req, name, idx, env) }
			interp(s, env, func(name string, idx []int64) { check("write", prov, name, idx, env) })
			onRead = nil
		}
	}
}

func TestBoxStringsMentionNoBoundNames(t *testing.T) {
	for name, b := range Touched(splitNest(true), nil) {
		if strings.Contains(b.String(), "x.x") {
			t.Errorf("box of %s mentions loop variables: %s", name, b)
		}
	}
}

func BenchmarkRequiredSplit(b *testing.B) {
	s := splitNest(true)
	b.ReportAllocs()
	for b.Loop() {
		Required(s, nil)
	}
}

func BenchmarkOfSymbolic(b *testing.B) {
	x, y, n := ir.NewVar("x"), ir.NewVar("y"), ir.NewVar("N")
	e := ir.MaxE(ir.MinE(ir.AddE(ir.MulE(x, ir.Int(8)), ir.DivE(y, ir.Int(3))), ir.SubE(n, ir.Int(1))), ir.Int(0))
	scope := Scope{"x": {ir.Int(0), ir.SubE(ir.DivE(n, ir.Int(8)), ir.Int(1))}, "y": iv(-2, 17)}
	b.ReportAllocs()
	for b.Loop() {
		Of(e, scope)
	}
}

// A promise in a let inside a loop that may run no iteration is false
// there when the loop's region is empty: a box end that reads the let as
// one point (the loop's variable ranged out) is evaluated outside the
// loop, so its value is clamped into the promise's range; where the loop
// surely runs the end keeps the promise as it is.
func TestPromiseInLoopThatMayNotRun(t *testing.T) {
	lo, hi, f := ir.NewVar("lo"), ir.NewVar("hi"), ir.NewVar("f")
	// A let the loop's variable does not reach (as a fused var's outer
	// half over a region one row high).
	promise := intrin(ir.Int32, ir.IntrinsicUnsafePromiseClamped, lo, lo, hi)
	nest := func(extent ir.Expr) ir.Stmt {
		return loop("f", ir.Int(0), extent,
			&ir.LetStmt{Name: "i", Value: promise,
				Body: &ir.Provide{Func: "out", Args: []ir.Expr{f}, Value: fcall("g", ir.NewVar("i"))}})
	}
	// The loop runs no iteration when hi < lo.
	b := Required(nest(ir.AddE(ir.MaxE(ir.SubE(hi, lo), ir.Int(-1)), ir.Int(1))), nil)["g"]
	if len(b) != 1 {
		t.Fatalf("box of g is %v", b)
	}
	for _, c := range []struct{ lo, hi int64 }{{3, 9}, {5, 5}, {7, 2}} {
		m := map[string]ir.Expr{"lo": ir.Int(c.lo), "hi": ir.Int(c.hi)}
		gotLo, ok1 := ir.AsInt(ir.Simplify(ir.Substitute(dropPromise(b[0].Min), m)))
		gotHi, ok2 := ir.AsInt(ir.Simplify(ir.Substitute(dropPromise(b[0].Max), m)))
		if !ok1 || !ok2 {
			t.Fatalf("lo=%d hi=%d: box %s does not fold", c.lo, c.hi, b)
		}
		// Where the loop runs, g is read at lo; where it does not, the
		// region may be anything inside [lo, hi] or at hi, never past it.
		want := c.lo
		if c.hi < c.lo {
			want = c.hi
		}
		if gotLo != want || gotHi != want {
			t.Errorf("lo=%d hi=%d: g's region is [%d, %d], want [%d, %d]", c.lo, c.hi, gotLo, gotHi, want, want)
		}
	}
	// A loop that runs keeps the promise unclamped.
	b = Required(nest(ir.Int(1)), nil)["g"]
	if got := ir.ExprString(b[0].Min); got != "unsafe_promise_clamped(lo, lo, hi)" {
		t.Errorf("in a loop that runs, g's region starts at %s, want unsafe_promise_clamped(lo, lo, hi)", got)
	}
}

// dropPromise replaces each unsafe promise in e by the value it promises
// about (what the code evaluates).
func dropPromise(e ir.Expr) ir.Expr {
	var f func(ir.Expr) ir.Expr
	f = func(x ir.Expr) ir.Expr {
		x = ir.MapExpr(x, f)
		if isUnsafePromise(x) {
			return x.(*ir.Call).Args[0]
		}
		return x
	}
	return f(e)
}
