package halide

import (
	"sync/atomic"

	"github.com/gohalide/gohalide/ir"
)

// Random numbers, as Halide's random_float, random_uint and random_int: a
// fixed pseudo-random function of the point of the Func being defined, so
// a Func's value at a point is the same on every target, in every
// realization and under every schedule (random numbers are pure).
//
// A call made by RandomFloat is a placeholder: when a Func definition
// takes the value, the placeholder becomes a hash of its arguments (the
// seed if one is given and the call's own number), the number of the
// definition, and the definition's free variables (the pure Vars, and
// for an update its pure Vars and the RVars of its RDom), in Halide's
// order and with Halide's hash: a polynomial permutation of uint32
// (((C2*x) + C1)*x + C0, wrapping) folded over the arguments, the high
// half xored into the low. So b := a.Add(a) is 2*a where a is one call,
// while two calls of RandomFloat differ; and a Func g(x) = RandomFloat()
// read at g(x + 1) gives g's value at x + 1. The values are Halide's
// algorithm but not Halide's numbers (the calls and definitions are
// numbered in the order this process makes them, as Halide numbers its
// own).
//
// To use random numbers in an update, compute them in a pure Func and
// read it in the update, as Halide advises: the update's own random
// values depend on its RVars and pure Vars only.

// randomCall is the name of the placeholder intrinsic; no executor
// evaluates it (a definition replaces it).
const randomCall = "random$"

// The counters of calls and of definitions (Halide's random_number_counter
// and random_variable_counter).
var randomCalls, randomDefs atomic.Int32

// The coefficients of Halide's permutation polynomial of uint32 (C1 odd,
// C2 even).
const (
	randomC0 = 576942909
	randomC1 = 1121052041
	randomC2 = 1040796640
)

// RandomFloat returns a random float32 in [0, 1) that depends on the point
// of the Func being defined (Halide's random_float): see the package's
// notes on random numbers above. The optional seed is an Int32 Expr
// (a Param, a Var: RandomFloat(frame) differs per frame).
func RandomFloat(seed ...any) Expr { return random(ir.Float32, "RandomFloat", seed) }

// RandomUint returns a random uint32 (Halide's random_uint); the optional
// seed is Int32 or UInt32.
func RandomUint(seed ...any) Expr { return random(ir.UInt32, "RandomUint", seed) }

// RandomInt returns a random int32: RandomUint's bits (Halide's
// random_int).
func RandomInt(seed ...any) Expr { return random(ir.Int32, "RandomInt", seed) }

func random(t ir.Type, fn string, seed []any) Expr {
	if len(seed) > 1 {
		return Expr{err: ir.Errorf(ir.ErrType, "", fn, "%s takes at most one seed, not %d", fn, len(seed)).
			WithLegal("%s() or %s(seed) with one Int32 seed", fn, fn)}
	}
	var args []ir.Expr
	if len(seed) == 1 {
		s := E(seed[0])
		if s.err != nil {
			return Expr{err: s.err}
		}
		st := s.Type()
		if st != ir.Int32 && (t == ir.Float32 || st != ir.UInt32) {
			legal := "Int32"
			if t != ir.Float32 {
				legal = "Int32 or UInt32"
			}
			return Expr{err: ir.Errorf(ir.ErrType, "", fn, "the seed of %s is %s of type %s", fn, s, st).
				WithLegal("a seed of type %s (Cast(halide.Int32, seed))", legal)}
		}
		args = append(args, s.node)
	}
	id := randomCalls.Add(1) - 1
	args = append(args, ir.Int(int64(id)))
	return Expr{node: &ir.Call{T: t, Kind: ir.CallIntrinsic, Name: randomCall, Args: args}}
}

// hasRandom reports whether e holds a random placeholder.
func hasRandom(e ir.Expr) bool {
	found := false
	if e != nil {
		ir.WalkExprOnce(e, func(x ir.Expr) bool {
			found = found || isRandom(x)
			return !found
		})
	}
	return found
}

func isRandom(e ir.Expr) bool {
	c, ok := e.(*ir.Call)
	return ok && c.Kind == ir.CallIntrinsic && c.Name == randomCall
}

// lowerRandom replaces the random placeholders in es (a definition's
// values and left-hand side) by their hashes, with the definition's free
// variables vars and a new definition number (Halide's lower_random).
func lowerRandom(vars []ir.Expr, es ...*ir.Expr) {
	any := false
	for _, e := range es {
		any = any || hasRandom(*e)
	}
	if !any {
		return
	}
	tag := randomDefs.Add(1) - 1
	// The extra arguments, last to first: the tag, then the vars from the
	// innermost (last) out.
	extra := []ir.Expr{ir.Int(int64(tag))}
	for i := len(vars) - 1; i >= 0; i-- {
		extra = append(extra, vars[i])
	}
	done := map[ir.Expr]ir.Expr{} // (a value may be a graph of shared nodes)
	var f, f1 func(ir.Expr) ir.Expr
	f = func(x ir.Expr) ir.Expr {
		if r, ok := done[x]; ok {
			return r
		}
		r := f1(x)
		done[x] = r
		return r
	}
	f1 = func(x ir.Expr) ir.Expr {
		c, ok := x.(*ir.Call)
		if !ok || c.Kind != ir.CallIntrinsic || c.Name != randomCall {
			return ir.MapExpr(x, f)
		}
		args := append(append([]ir.Expr{}, c.Args...), extra...)
		r := randomUint32(args)
		switch c.T {
		case ir.Float32:
			// 23 random bits in the mantissa of a float in [1, 2), less
			// one; the clamp is for bounds inference.
			bits := ir.Bitwise(ir.IntrinsicBitOr, ir.IntConst(ir.UInt32, 127<<23), shr(r, ir.IntConst(ir.UInt32, 9)))
			v := ir.SubE(&ir.Call{T: ir.Float32, Kind: ir.CallIntrinsic, Name: ir.IntrinsicReinterpret, Args: []ir.Expr{bits}}, ir.Const(ir.Float32, 1))
			return ir.MinE(ir.MaxE(v, ir.Const(ir.Float32, 0)), ir.Const(ir.Float32, 1))
		case ir.Int32:
			return &ir.Call{T: ir.Int32, Kind: ir.CallIntrinsic, Name: ir.IntrinsicReinterpret, Args: []ir.Expr{r}}
		}
		return r
	}
	for _, e := range es {
		if *e != nil {
			*e = f(*e)
		}
	}
}

// randomUint32 is Halide's random_int of args (Int32 or UInt32 values):
// the permutation of the first, then of the sum of the result and each
// next, and finally r ^ (r >> 16). The permutation reads its argument
// twice: one node, which the front end's shared expressions bind once.
func randomUint32(args []ir.Expr) ir.Expr {
	u32 := func(e ir.Expr) ir.Expr {
		if e.Type() == ir.UInt32 {
			return e
		}
		if c, ok := e.(*ir.IntImm); ok {
			return ir.IntConst(ir.UInt32, int64(uint32(c.V)))
		}
		return &ir.Cast{T: ir.UInt32, X: e}
	}
	r := rng32(u32(args[0]))
	for _, a := range args[1:] {
		r = rng32(ir.AddE(r, u32(a)))
	}
	return ir.Bitwise(ir.IntrinsicBitXor, r, shr(r, ir.IntConst(ir.UInt32, 16)))
}

// rng32 is Halide's permutation of uint32: ((C2*x) + C1)*x + C0, wrapping.
func rng32(x ir.Expr) ir.Expr {
	c := func(v int64) ir.Expr { return ir.IntConst(ir.UInt32, v) }
	return ir.AddE(ir.MulE(ir.AddE(ir.MulE(c(randomC2), x), c(randomC1)), x), c(randomC0))
}
