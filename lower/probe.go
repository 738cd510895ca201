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

// probePoints is how many points a probe evaluates, in one walk.
const probePoints = 3

// probeVals are the values of an expression at the probe points.
type probeVals [probePoints]int64

// probeMemo keeps the values at the probe points of the nodes many probed
// expressions hold (the lets' values letValues substitutes): a shared
// node maps to nil until its values are known.
type probeMemo struct {
	done map[ir.Expr]*probeResult
}

type probeResult struct {
	v  probeVals
	ok bool
}

func newProbeMemo() *probeMemo { return &probeMemo{done: map[ir.Expr]*probeResult{}} }

// share marks e as a node that many probed expressions hold.
func (m *probeMemo) share(e ir.Expr) {
	if _, ok := m.done[e]; !ok {
		m.done[e] = nil
	}
}

// notConstant reports whether e (with no let left to substitute) is
// proven to take two different values. m, when not nil, keeps the values
// of shared nodes.
func notConstant(e ir.Expr, m *probeMemo) bool {
	v, ok := probeEval(e, nil, m)
	if !ok {
		return false
	}
	for _, x := range v[1:] {
		if x != v[0] {
			return true
		}
	}
	return false
}

// probeEval evaluates e at the probe points; env holds the values of the
// Let expressions in scope. ok is false where e is not evaluated exactly
// at every point.
func probeEval(e ir.Expr, env map[string]probeVals, m *probeMemo) (v probeVals, ok bool) {
	switch x := e.(type) {
	case *ir.IntImm:
		for i := range v {
			v[i] = x.V
		}
		return v, true // (the common leaves skip the memo)
	case *ir.Var:
		if v, ok := env[x.Name]; ok {
			return v, true
		}
		if !x.T.IsInt() {
			return v, false
		}
		for i := range v {
			v[i] = probeValue(x.Name, uint64(i+1))
			if v[i] < x.T.Min() || v[i] > x.T.Max() {
				return v, false
			}
		}
		return v, true
	}
	if m == nil || len(env) > 0 {
		return probeNode(e, env, m)
	}
	r, shared := m.done[e]
	if r != nil {
		return r.v, r.ok
	}
	v, ok = probeNode(e, env, m)
	if shared {
		m.done[e] = &probeResult{v, ok}
	}
	return v, ok
}

// probeNode is probeEval of e's node, its children evaluated with
// probeEval.
func probeNode(e ir.Expr, env map[string]probeVals, m *probeMemo) (v probeVals, ok bool) {
	t := e.Type()
	if !t.IsInt() && !t.IsBool() {
		return v, false
	}
	fits := func(v probeVals) (probeVals, bool) {
		for _, x := range v {
			if t.IsBool() && x != 0 && x != 1 || !t.IsBool() && (x < t.Min() || x > t.Max()) {
				return v, false
			}
		}
		return v, true
	}
	switch e := e.(type) {
	case *ir.Cast:
		x, ok := probeEval(e.X, env, m)
		if !ok || !t.IsInt() {
			return v, false
		}
		return fits(x)
	case *ir.Not:
		x, ok := probeEval(e.X, env, m)
		for i := range v {
			v[i] = 1 - x[i]
		}
		return v, ok
	case *ir.Select:
		c, ok1 := probeEval(e.Cond, env, m)
		a, ok2 := probeEval(e.True, env, m)
		b, ok3 := probeEval(e.False, env, m)
		for i := range v {
			if c[i] != 0 {
				v[i] = a[i]
			} else {
				v[i] = b[i]
			}
		}
		return v, ok1 && ok2 && ok3
	case *ir.Let:
		x, ok := probeEval(e.Value, env, m)
		if !ok {
			return v, false
		}
		inner := make(map[string]probeVals, len(env)+1)
		for k, v := range env {
			inner[k] = v
		}
		inner[e.Name] = x
		return probeEval(e.Body, inner, m)
	case *ir.Call:
		if e.Kind != ir.CallIntrinsic {
			return v, false
		}
		switch {
		case e.Name == ir.IntrinsicLikely && len(e.Args) == 1:
			return probeEval(e.Args[0], env, m)
		case (e.Name == ir.IntrinsicPromiseClamped || e.Name == ir.IntrinsicUnsafePromiseClamped) && len(e.Args) == 3:
			x, ok1 := probeEval(e.Args[0], env, m)
			lo, ok2 := probeEval(e.Args[1], env, m)
			hi, ok3 := probeEval(e.Args[2], env, m)
			for i := range v {
				v[i] = min(max(x[i], lo[i]), hi[i])
			}
			return v, ok1 && ok2 && ok3
		}
		return v, false
	case *ir.Binary:
		if !e.A.Type().IsInt() && !e.A.Type().IsBool() {
			return v, false
		}
		a, ok := probeEval(e.A, env, m)
		if !ok {
			return v, false
		}
		b, ok := probeEval(e.B, env, m)
		if !ok {
			return v, false
		}
		for i := range v {
			if v[i], ok = probeBinary(e.Op, a[i], b[i]); !ok {
				return v, false
			}
		}
		return fits(v)
	}
	return v, false
}

// probeBinary is a op b, exactly; ok is false where it leaves int64.
func probeBinary(op ir.BinOp, a, b int64) (int64, bool) {
	b2i := func(c bool) (int64, bool) {
		if c {
			return 1, true
		}
		return 0, true
	}
	switch op {
	case ir.Add:
		s := a + b
		return s, (s > a) == (b > 0)
	case ir.Sub:
		s := a - b
		return s, (s < a) == (b > 0)
	case ir.Mul:
		hi, lo := bits.Mul64(uint64(abs64(a)), uint64(abs64(b)))
		if hi != 0 || lo > 1<<62 || a == -1<<63 || b == -1<<63 {
			return 0, false
		}
		return a * b, true
	case ir.Div:
		if b == 0 {
			return 0, true
		}
		if a == -1<<63 && b == -1 {
			return 0, false
		}
		return ir.EuclidDiv(a, b), true
	case ir.Mod:
		if b == 0 || b == -1 {
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
	return 0, false
}

func abs64(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}
