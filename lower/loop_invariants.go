package lower

// loop_invariants: in each kernel, the costly part of an expression that
// does not change along a serial loop is computed once before the loop,
// in a let, instead of at every iteration. Halide's LICM does the same.
// nvcc hoists cheap invariant arithmetic itself, but it keeps a costly
// one in the loop once the kernel holds many live values: local
// laplacian's gPyramid[1] runs its 8 levels k in a loop around 16 taps
// whose float-to-int conversion of the gray value (gh_toi32_f32, a
// dozen instructions of tests and selects) does not depend on k, and
// nvcc converted each again at every level.
//
// A subexpression is hoisted out of a serial loop when it is
//
//   - invariant: it names no variable bound in the loop (the loop's own,
//     a let's, an inner loop's) and reads no memory (no load: a store in
//     the loop, or another thread's, may change it); its calls are pure
//     math (no marker, no shuffle, no undef);
//   - costly: it holds a float-to-int conversion, a division or a
//     modulo, a float min or max (helpers in the CUDA code) or a math
//     function; cheap index arithmetic stays where nvcc can recompute it
//     rather than hold it in a register for the whole loop;
//   - maximal: no larger invariant expression holds it.
//
// The lets that open the loop's body (common_loads binds each load there)
// move out whole when their values are invariant: a load too, of a
// global buffer the kernel never writes at an invariant index. The first
// iteration would load it, so the loop is then guarded to run its lets
// only when it runs at all (an index may be valid only then).
//
// Every operation of the language is total (integer division by zero is
// 0, a float-to-int conversion saturates, NaN converts to 0), so computing
// a value the loop evaluates only on some paths, or a loop that runs no
// iteration, changes nothing. Equal values share one let. Loops inside
// are done first, so a value invariant in a nest leaves the outer loop
// too. The host statement is left alone.
//
// Before: common_loads (bindings are unique, so a name means one value in
// the loop), vector_access (the loops' bodies are final). After: kernel
// serial loops preceded by lets "<loop>.inv<n>" that hold their costly
// invariant values.

import (
	"strconv"

	"github.com/gohalide/gohalide/ir"
)

func loopInvariants(st *State) error {
	return optimizeKernels(st, "loop_invariants", func(k *ir.Kernel) *ir.Kernel {
		h := &invariantHoister{names: boundAndUsedNames(k.Body), readOnly: map[string]bool{}}
		for _, a := range k.Args {
			if a.IsBuffer && !a.Written && a.Scratch == nil {
				h.readOnly[a.Name] = true
			}
		}
		body := h.stmt(k.Body)
		if body == k.Body {
			return k
		}
		return k.WithBody(body)
	})
}

// invariantHoister hoists the costly invariant values of one kernel's
// serial loops.
type invariantHoister struct {
	names    map[string]bool // every name in the kernel, and those made here
	readOnly map[string]bool // the global buffers the kernel never writes
}

func (h *invariantHoister) stmt(s ir.Stmt) ir.Stmt {
	s = ir.MapStmt(s, h.stmt, nil)
	loop, ok := s.(*ir.For)
	if !ok || loop.Kind != ir.Serial {
		return s
	}
	inner := boundAndUsedNames(nil)
	inner[loop.Name] = true
	ir.WalkStmt(loop.Body, func(x ir.Stmt) bool {
		switch x := x.(type) {
		case *ir.LetStmt:
			inner[x.Name] = true
		case *ir.For:
			inner[x.Name] = true
		case *ir.Allocate:
			inner[x.Name] = true
		}
		return true
	}, func(e ir.Expr) bool {
		if l, ok := e.(*ir.Let); ok {
			inner[l.Name] = true
		}
		return true
	})
	// The lets that open the body run at every iteration, before
	// anything else: one whose value is invariant moves out whole, a load
	// of a buffer the kernel never writes included, as long as the loop
	// runs at least once (the first iteration would load it).
	var lets []*ir.LetStmt
	loads := false
	body := loop.Body
	for {
		l, ok := body.(*ir.LetStmt)
		if !ok || !h.invariantValue(l.Value, inner) {
			break
		}
		lets = append(lets, &ir.LetStmt{Name: l.Name, Value: l.Value})
		loads = loads || ir.ContainsExpr(l.Value, func(e ir.Expr) bool { _, is := e.(*ir.Load); return is })
		delete(inner, l.Name)
		body = l.Body
	}
	memo := map[ir.Expr]invariance{}
	var hoist func(e ir.Expr) ir.Expr
	hoist = func(e ir.Expr) ir.Expr {
		switch inv := classify(e, inner, memo); {
		case inv.invariant && inv.costly:
			for _, l := range lets {
				if ir.Equal(l.Value, e) {
					return &ir.Var{T: e.Type(), Name: l.Name}
				}
			}
			name := h.fresh(loop.Name + ".inv")
			lets = append(lets, &ir.LetStmt{Name: name, Value: e})
			return &ir.Var{T: e.Type(), Name: name}
		case !inv.costly:
			return e // nothing costly below either
		}
		return ir.MapExpr(e, hoist)
	}
	var walk func(ir.Stmt) ir.Stmt
	walk = func(x ir.Stmt) ir.Stmt {
		switch x := x.(type) {
		case *ir.LoadVector, *ir.StoreVector:
			return x // their loads and stores keep the shape vector_access gave them
		case *ir.LetStmt:
			// A let of a costly invariant value moves out whole,
			// rather than becoming a copy of a new one: an inner
			// loop's hoisted lets leave the nest without a chain of
			// aliases.
			// It takes a new name (or the name of a let already
			// hoisted with its value): a let of the same name may be
			// bound in another branch of the body, which common_loads
			// leaves alone.
			if inv := classify(x.Value, inner, memo); inv.invariant && inv.costly {
				v := hoist(x.Value).(*ir.Var)
				return walk(ir.SubstituteStmt(x.Body, map[string]ir.Expr{x.Name: v}))
			}
		}
		return ir.MapStmt(x, walk, hoist)
	}
	body = walk(body)
	if len(lets) == 0 {
		return s
	}
	out := ir.Stmt(&ir.For{Name: loop.Name, Min: loop.Min, Extent: loop.Extent, Kind: loop.Kind, Body: body})
	for i := len(lets) - 1; i >= 0; i-- {
		lets[i].Body = out
		out = lets[i]
	}
	if loads {
		out = &ir.IfThenElse{Cond: ir.LTE(ir.Int(0), loop.Extent), Then: out}
	}
	return out
}

// invariantValue reports whether a let's value e may be computed once
// before a loop binding inner: it names nothing the loop binds, and what it
// reads is in buffers the kernel never writes, at invariant indices.
func (h *invariantHoister) invariantValue(e ir.Expr, inner map[string]bool) bool {
	ok := true
	ir.WalkExpr(e, func(x ir.Expr) bool {
		switch x := x.(type) {
		case *ir.Var:
			ok = ok && !inner[x.Name]
		case *ir.Let:
			ok = false
		case *ir.Load:
			ok = ok && h.readOnly[x.Buf]
		case *ir.Call:
			ok = ok && x.Kind == ir.CallIntrinsic && pureIntrinsic[x.Name]
		}
		return ok
	})
	return ok
}

// fresh returns base followed by the first number that makes a name not
// used in the kernel yet.
func (h *invariantHoister) fresh(base string) string {
	for n := 0; ; n++ {
		name := base + strconv.Itoa(n)
		if !h.names[name] {
			h.names[name] = true
			return name
		}
	}
}

// invariance is what classify finds of an expression.
type invariance struct {
	invariant bool // names nothing bound in the loop, reads no memory
	costly    bool // holds an operation worth a register (see the file comment)
}

// classify returns e's invariance in a loop that binds the names inner.
func classify(e ir.Expr, inner map[string]bool, memo map[ir.Expr]invariance) invariance {
	if r, ok := memo[e]; ok {
		return r
	}
	r := invariance{invariant: true}
	switch x := e.(type) {
	case *ir.Var:
		r.invariant = !inner[x.Name]
	case *ir.Load, *ir.Let:
		r.invariant = false
	case *ir.Call:
		r.invariant = x.Kind == ir.CallIntrinsic && pureIntrinsic[x.Name]
		r.costly = x.Kind == ir.CallIntrinsic && costlyIntrinsic[x.Name]
	case *ir.Cast:
		r.costly = x.T.IsIntOrUInt() && x.X.Type().IsFloat()
	case *ir.Binary:
		switch x.Op {
		case ir.Div, ir.Mod:
			r.costly = true
		case ir.Min, ir.Max:
			r.costly = x.A.Type().IsFloat()
		}
	}
	ir.VisitExpr(e, func(c ir.Expr) {
		cr := classify(c, inner, memo)
		r.invariant = r.invariant && cr.invariant
		r.costly = r.costly || cr.costly
	})
	memo[e] = r
	return r
}

// pureIntrinsic lists the intrinsics that compute a value from their
// arguments alone: loop_invariants may evaluate them anywhere.
var pureIntrinsic = map[string]bool{
	ir.IntrinsicAbs: true, ir.IntrinsicSqrt: true, ir.IntrinsicExp: true, ir.IntrinsicLog: true,
	ir.IntrinsicPow: true, ir.IntrinsicFloor: true, ir.IntrinsicCeil: true, ir.IntrinsicRound: true,
	ir.IntrinsicSin: true, ir.IntrinsicCos: true, ir.IntrinsicTan: true, ir.IntrinsicAsin: true,
	ir.IntrinsicAcos: true, ir.IntrinsicAtan: true, ir.IntrinsicSinh: true, ir.IntrinsicCosh: true,
	ir.IntrinsicTanh: true, ir.IntrinsicAsinh: true, ir.IntrinsicAcosh: true, ir.IntrinsicAtanh: true,
	ir.IntrinsicTrunc: true, ir.IntrinsicIsNaN: true, ir.IntrinsicIsInf: true, ir.IntrinsicIsFinite: true,
	ir.IntrinsicPopcount: true, ir.IntrinsicCountLeadingZeros: true, ir.IntrinsicCountTrailingZeros: true,
	ir.IntrinsicReinterpret: true, ir.IntrinsicBitAnd: true, ir.IntrinsicBitOr: true,
	ir.IntrinsicBitXor: true, ir.IntrinsicBitNot: true, ir.IntrinsicShiftLeft: true, ir.IntrinsicShiftRight: true,
	ir.IntrinsicStrictFloat: true,
}

// costlyIntrinsic lists the pure intrinsics worth a register: the math
// functions.
var costlyIntrinsic = map[string]bool{
	ir.IntrinsicSqrt: true, ir.IntrinsicExp: true, ir.IntrinsicLog: true, ir.IntrinsicPow: true,
	ir.IntrinsicSin: true, ir.IntrinsicCos: true, ir.IntrinsicTan: true, ir.IntrinsicAsin: true,
	ir.IntrinsicAcos: true, ir.IntrinsicAtan: true, ir.IntrinsicSinh: true, ir.IntrinsicCosh: true,
	ir.IntrinsicTanh: true, ir.IntrinsicAsinh: true, ir.IntrinsicAcosh: true, ir.IntrinsicAtanh: true,
}

// boundAndUsedNames returns the names s binds or uses (an empty set for
// nil).
func boundAndUsedNames(s ir.Stmt) map[string]bool {
	names := map[string]bool{}
	if s == nil {
		return names
	}
	ir.WalkStmt(s, func(x ir.Stmt) bool {
		switch x := x.(type) {
		case *ir.LetStmt:
			names[x.Name] = true
		case *ir.For:
			names[x.Name] = true
		case *ir.Allocate:
			names[x.Name] = true
		}
		return true
	}, func(e ir.Expr) bool {
		switch x := e.(type) {
		case *ir.Var:
			names[x.Name] = true
		case *ir.Let:
			names[x.Name] = true
		}
		return true
	})
	return names
}
