package lower

// inline_shared: the expression graphs inline_functions builds. Every node
// it makes is hash-consed (one node per structure), and substitution is
// memoized over the graph, so a chain of inlined Funcs that read their
// producers at repeated points (deep_inline_chain.cpp: each link reads the
// ten before it twice) costs the size of its graph, not of its tree.
// Where a definition's tree is much larger than its graph, the shared
// nodes become Let bindings at the top of the expression (Halide's
// inlining binds them by CSE), so the later passes see a value of the
// graph's size. A graph that is itself huge (a chain whose reads are at
// ever new places) is still an ErrExprTooLarge.

import (
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"

	"github.com/gohalide/gohalide/ir"
)

// Sharing is bound where the tree has more than minInlinedShareTree nodes
// and more than inlinedShareFactor times the graph's; smaller trees are
// left as they are (the expressions of ordinary pipelines).
const (
	minInlinedShareTree = 1 << 14
	inlinedShareFactor  = 4
)

// hashCons interns expression nodes by structure: two nodes whose fields
// are equal and whose children are the same interned nodes are one.
type hashCons struct {
	table map[consKey]ir.Expr
}

type consKey struct {
	kind    uint8
	t       ir.Type
	op      int
	name    string
	bits    uint64
	idx     int
	a, b, c ir.Expr
	rest    string
	ref     any
	ref2    any
}

func newHashCons() *hashCons { return &hashCons{table: map[consKey]ir.Expr{}} }

// size is the number of nodes interned so far.
func (h *hashCons) size() int { return len(h.table) }

// comparableRef returns r when it can be part of a map key.
func comparableRef(r any) (any, bool) {
	if r == nil {
		return nil, true
	}
	if reflect.TypeOf(r).Comparable() {
		return r, true
	}
	return nil, false
}

// key returns e's key, given that its children are interned; false for a
// node that is not interned.
func (h *hashCons) key(e ir.Expr) (consKey, bool) {
	switch e := e.(type) {
	case *ir.IntImm:
		return consKey{kind: 1, t: e.T, bits: uint64(e.V)}, true
	case *ir.FloatImm:
		return consKey{kind: 2, t: e.T, bits: math.Float64bits(e.V)}, true
	case *ir.Var:
		p, ok := comparableRef(e.Param)
		if !ok {
			return consKey{}, false
		}
		return consKey{kind: 3, t: e.T, name: e.Name, ref: p, ref2: e.RDom}, true
	case *ir.Cast:
		return consKey{kind: 4, t: e.T, a: e.X}, true
	case *ir.Binary:
		return consKey{kind: 5, op: int(e.Op), a: e.A, b: e.B}, true
	case *ir.Not:
		return consKey{kind: 6, a: e.X}, true
	case *ir.Select:
		return consKey{kind: 7, a: e.Cond, b: e.True, c: e.False}, true
	case *ir.Call:
		r, ok := comparableRef(e.Ref)
		if !ok {
			return consKey{}, false
		}
		k := consKey{kind: 8, t: e.T, op: int(e.Kind), name: e.Name, idx: e.Index, ref: r}
		args := e.Args
		for i, a := range []*ir.Expr{&k.a, &k.b, &k.c} {
			if i < len(args) {
				*a = args[i]
			}
		}
		if len(args) > 3 {
			var sb strings.Builder
			for _, a := range args[3:] {
				fmt.Fprintf(&sb, "%p,", a)
			}
			k.rest = sb.String()
		}
		k.rest += "#" + strconv.Itoa(len(args))
		return k, true
	case *ir.Load:
		return consKey{kind: 9, t: e.T, name: e.Buf, a: e.Index}, true
	case *ir.Let:
		return consKey{kind: 10, name: e.Name, a: e.Value, b: e.Body}, true
	}
	return consKey{}, false
}

// intern returns the node of e's structure, e's children being interned.
func (h *hashCons) intern(e ir.Expr) ir.Expr {
	k, ok := h.key(e)
	if !ok {
		return e
	}
	if x, found := h.table[k]; found {
		// A Call's extra arguments are keyed by address; the
		// addresses of interned nodes stay taken, so a match is one.
		return x
	}
	h.table[k] = e
	return e
}

// substitute replaces the free variables named in m in the interned e by
// their (interned) expressions, once per node of the graph. Let bindings
// that shadow a name stop its replacement in their bodies.
func (h *hashCons) substitute(e ir.Expr, m map[string]ir.Expr) ir.Expr {
	if len(m) == 0 {
		return e
	}
	memo := map[ir.Expr]ir.Expr{}
	var sub func(ir.Expr) ir.Expr
	sub = func(x ir.Expr) ir.Expr {
		if r, ok := memo[x]; ok {
			return r
		}
		var r ir.Expr
		switch x := x.(type) {
		case *ir.Var:
			r = x
			if y, ok := m[x.Name]; ok {
				r = y
			}
		case *ir.Let:
			if _, shadow := m[x.Name]; shadow {
				inner := make(map[string]ir.Expr, len(m))
				for k, v := range m {
					if k != x.Name {
						inner[k] = v
					}
				}
				v, b := sub(x.Value), h.substitute(x.Body, inner)
				r = x
				if v != x.Value || b != x.Body {
					r = h.intern(&ir.Let{Name: x.Name, Value: v, Body: b})
				}
			}
		}
		if r == nil {
			r = ir.MapExpr(x, sub)
			if r != x {
				r = h.intern(h.foldOffset(r))
			}
		}
		memo[x] = r
		return r
	}
	return sub(e)
}

// foldOffset returns (y + c1) + c2, a node substitution made, as
// y + (c1 + c2) (likewise with -), for Int32 constants whose sum is one:
// a chain of stencils inlined reads its producer at x + k for a few k
// instead of at ever new nestings of offsets ((x - 1) + 1 and (x + 1) - 1
// are both x), so the graph stays small. The value is the same (int32
// arithmetic wraps, and the folded offset is in range).
func (h *hashCons) foldOffset(e ir.Expr) ir.Expr {
	outer, ok := e.(*ir.Binary)
	if !ok || outer.Op != ir.Add && outer.Op != ir.Sub {
		return e
	}
	c2, ok := outer.B.(*ir.IntImm)
	if !ok || c2.T != ir.Int32 {
		return e
	}
	inner, ok := outer.A.(*ir.Binary)
	if !ok || inner.Op != ir.Add && inner.Op != ir.Sub {
		return e
	}
	c1, ok := inner.B.(*ir.IntImm)
	if !ok || c1.T != ir.Int32 || inner.A.Type() != ir.Int32 {
		return e
	}
	k1, k2 := c1.V, c2.V
	if inner.Op == ir.Sub {
		k1 = -k1
	}
	if outer.Op == ir.Sub {
		k2 = -k2
	}
	k := k1 + k2
	switch {
	case k == 0:
		return inner.A
	case k > 0 && k <= math.MaxInt32:
		return ir.AddE(inner.A, h.intern(ir.Int(k)))
	case k < 0 && -k <= math.MaxInt32:
		return ir.SubE(inner.A, h.intern(ir.Int(-k)))
	}
	return e
}

// bindInlinedValue is bindInlined of a stage's value, value by value for a
// Tuple (whose values stay a tuple at the top).
func bindInlinedValue(e ir.Expr, prefix string, names []string) ir.Expr {
	vals := ir.TupleValues(e)
	if len(vals) < 2 {
		return bindInlined(e, prefix, names)
	}
	out := make([]ir.Expr, len(vals))
	changed := false
	for i, v := range vals {
		out[i] = bindInlined(v, fmt.Sprintf("%s.%d", prefix, i), names)
		changed = changed || out[i] != v
	}
	if !changed {
		return e
	}
	return ir.MakeTuple(out)
}

// bindInlined returns e with its shared nodes bound by Lets at its top
// (named prefix$inl0, ...) when its tree is much larger than its graph; e
// itself otherwise. names are names the bindings must not be confused
// with once printed (the Func's arguments).
//
// A node is bound when it has several parents in the graph and
//   - it holds no Let and no variable a Let of e binds (it would leave
//     its scope), nor an intrinsic that marks its place (likely, tuple,
//     undef, max_over);
//   - if it reads a Func, an image or memory, it is evaluated wherever e
//     is: at least one of its uses is outside the arms of every Select.
//     Bound at the top, it is then read where it already was, and bounds
//     inference, which sees through the Lets, finds the same regions.
//
// Pure arithmetic is bound wherever it is (as the front end's
// shared_exprs.go does): evaluating it where it was not has no effect.
func bindInlined(e ir.Expr, prefix string, names []string) ir.Expr {
	if e == nil {
		return nil
	}
	order, parents, tree := ir.Graph(e)
	if tree <= minInlinedShareTree || tree <= inlinedShareFactor*int64(len(order)) {
		return e
	}
	letNames := map[string]bool{}
	for _, x := range order {
		if l, ok := x.(*ir.Let); ok {
			letNames[l.Name] = true
		}
	}
	ok := map[ir.Expr]bool{}
	reads := map[ir.Expr]bool{}
	for _, x := range order {
		good, rd := true, false
		switch x := x.(type) {
		case *ir.Let:
			good = false
		case *ir.Var:
			good = !letNames[x.Name]
		case *ir.Load:
			rd = true
		case *ir.Call:
			switch x.Kind {
			case ir.CallFunc, ir.CallImage:
				rd = true
			default:
				switch x.Name {
				case ir.IntrinsicTuple, ir.IntrinsicUndef, ir.IntrinsicLikely, ir.IntrinsicMaxOver:
					good = false
				}
			}
		}
		ir.VisitExpr(x, func(c ir.Expr) {
			good = good && ok[c]
			rd = rd || reads[c]
		})
		ok[x], reads[x] = good, rd
	}
	// uncond: the nodes evaluated wherever e is (some path from e to
	// them passes through no Select arm).
	uncond := map[ir.Expr]bool{}
	var mark func(x ir.Expr)
	mark = func(x ir.Expr) {
		if uncond[x] {
			return
		}
		uncond[x] = true
		if s, isSel := x.(*ir.Select); isSel {
			mark(s.Cond)
			return
		}
		ir.VisitExpr(x, mark)
	}
	mark(e)
	return ir.BindShared(e, order, parents, func(x ir.Expr) bool {
		return ok[x] && (!reads[x] || uncond[x])
	}, prefix, "inl", names)
}
