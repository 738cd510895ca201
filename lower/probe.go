package lower

// Probing: a cheap proof that an expression is not a constant.
//
// Several passes substitute the enclosing lets into an expression and
// simplify it only to learn whether it is a constant (gpu_registers: is a
// register array's index constant in this unrolled copy?). In a deep
// kernel the substituted expression holds every region let of the Funcs
// above it (hundreds of nodes) and most of the answers are "no". Two
// evaluations of the expression at different values of its free
// variables that differ prove it: Simplify returns an expression equal to
// its input at every point, so it cannot fold one that takes two values
// to a constant. Only integer and bool nodes are evaluated, exactly, in
// int64 with no intermediate value leaving its type (where one would,
// or a node is something else, the probe says nothing); a promise is
// evaluated as the clamp it promises, the world in which the simplifier
// may use it.

import (
	"math/bits"

	"github.com/gohalide/gohalide/ir"
)

// probeValue is the value of a free variable at probe point p: small, so
// that sums and products of a few of them stay well inside int32.
func probeValue(name string, p uint64) int64 {
	h := uint64(14695981039346656037) // FNV-1a
	for i := 0; i < len(name); i++ {
		h = (h ^ uint64(name[i])) * 1099511628211
	}
	return int64(((h^(p*0x9e3779b97f4a7c15))*0xff51afd7ed558ccd)>>58) - 32
}

// probeMemo keeps the values at probe points of the nodes many probed
// expressions hold (the lets' values letValues substitutes): shared says
// which, done holds their values.
type probeMemo struct {
	shared map[ir.Expr]bool
	done   map[probeKey]probeResult
}

type probeKey struct {
	e ir.Expr
	p uint64
}

type probeResult struct {
	v  int64
	ok bool
}

func newProbeMemo() *probeMemo {
	return &probeMemo{shared: map[ir.Expr]bool{}, done: map[probeKey]probeResult{}}
}

// notConstant reports whether e (with no let left to substitute) is
// proven to take two different values. m, when not nil, keeps the values
// of shared nodes.
func notConstant(e ir.Expr, m *probeMemo) bool {
	first, ok := probeEval(e, 1, nil, m)
	if !ok {
		return false
	}
	for p := uint64(2); p <= 3; p++ {
		v, ok := probeEval(e, p, nil, m)
		if !ok {
			return false
		}
		if v != first {
			return true
		}
	}
	return false
}

// probeEval evaluates e at probe point p; env holds the Let expressions
// in scope. ok is false where e is not evaluated exactly.
func probeEval(e ir.Expr, p uint64, env map[string]int64, m *probeMemo) (v int64, ok bool) {
	switch x := e.(type) {
	case *ir.IntImm:
		return x.V, true // (the common leaves skip the memo)
	case *ir.Var:
		if v, ok := env[x.Name]; ok {
			return v, true
		}
		if !x.T.IsInt() {
			return 0, false
		}
		v := probeValue(x.Name, p)
		return v, v >= x.T.Min() && v <= x.T.Max()
	}
	if m == nil || len(env) > 0 || !m.shared[e] {
		return probeNode(e, p, env, m)
	}
	k := probeKey{e, p}
	if r, seen := m.done[k]; seen {
		return r.v, r.ok
	}
	v, ok = probeNode(e, p, env, m)
	m.done[k] = probeResult{v, ok}
	return v, ok
}

// probeNode is probeEval of e's node, its children evaluated with
// probeEval.
func probeNode(e ir.Expr, p uint64, env map[string]int64, m *probeMemo) (v int64, ok bool) {
	t := e.Type()
	if !t.IsInt() && !t.IsBool() {
		return 0, false
	}
	fits := func(v int64) (int64, bool) {
		if t.IsBool() {
			return v, v == 0 || v == 1
		}
		return v, v >= t.Min() && v <= t.Max()
	}
	switch e := e.(type) {
	case *ir.IntImm:
		return e.V, true
	case *ir.Var:
		if v, ok := env[e.Name]; ok {
			return v, true
		}
		return fits(probeValue(e.Name, p))
	case *ir.Cast:
		x, ok := probeEval(e.X, p, env, m)
		if !ok || !t.IsInt() {
			return 0, false
		}
		return fits(x)
	case *ir.Not:
		x, ok := probeEval(e.X, p, env, m)
		return 1 - x, ok
	case *ir.Select:
		c, ok := probeEval(e.Cond, p, env, m)
		if !ok {
			return 0, false
		}
		if c != 0 {
			return probeEval(e.True, p, env, m)
		}
		return probeEval(e.False, p, env, m)
	case *ir.Let:
		x, ok := probeEval(e.Value, p, env, m)
		if !ok {
			return 0, false
		}
		inner := make(map[string]int64, len(env)+1)
		for k, v := range env {
			inner[k] = v
		}
		inner[e.Name] = x
		return probeEval(e.Body, p, inner, m)
	case *ir.Call:
		if e.Kind != ir.CallIntrinsic {
			return 0, false
		}
		switch {
		case e.Name == ir.IntrinsicLikely && len(e.Args) == 1:
			return probeEval(e.Args[0], p, env, m)
		case (e.Name == ir.IntrinsicPromiseClamped || e.Name == ir.IntrinsicUnsafePromiseClamped) && len(e.Args) == 3:
			x, ok1 := probeEval(e.Args[0], p, env, m)
			lo, ok2 := probeEval(e.Args[1], p, env, m)
			hi, ok3 := probeEval(e.Args[2], p, env, m)
			return min(max(x, lo), hi), ok1 && ok2 && ok3
		}
		return 0, false
	case *ir.Binary:
		if !e.A.Type().IsInt() && !e.A.Type().IsBool() {
			return 0, false
		}
		a, ok := probeEval(e.A, p, env, m)
		if !ok {
			return 0, false
		}
		b, ok := probeEval(e.B, p, env, m)
		if !ok {
			return 0, false
		}
		b2i := func(c bool) (int64, bool) {
			if c {
				return 1, true
			}
			return 0, true
		}
		switch e.Op {
		case ir.Add:
			s := a + b
			if (s > a) != (b > 0) {
				return 0, false
			}
			return fits(s)
		case ir.Sub:
			s := a - b
			if (s < a) != (b > 0) {
				return 0, false
			}
			return fits(s)
		case ir.Mul:
			hi, lo := bits.Mul64(uint64(abs64(a)), uint64(abs64(b)))
			if hi != 0 || lo > 1<<62 || a == -1<<63 || b == -1<<63 {
				return 0, false
			}
			return fits(a * b)
		case ir.Div:
			if b == 0 {
				return 0, true
			}
			if a == -1<<63 && b == -1 {
				return 0, false
			}
			return fits(ir.EuclidDiv(a, b))
		case ir.Mod:
			if b == 0 {
				return 0, true
			}
			if b == -1 {
				return 0, true
			}
			return ir.EuclidMod(a, b), true
		case ir.Min:
			return min(a, b), true
		case ir.Max:
			return max(a, b), true
		case ir.EQ:
			return b2i(a == b)
		case ir.NE:
			return b2i(a != b)
		case ir.LT:
			return b2i(a < b)
		case ir.LE:
			return b2i(a <= b)
		case ir.GT:
			return b2i(a > b)
		case ir.GE:
			return b2i(a >= b)
		case ir.And:
			return b2i(a != 0 && b != 0)
		case ir.Or:
			return b2i(a != 0 || b != 0)
		}
	}
	return 0, false
}

func abs64(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}
