package ir

import (
	"fmt"
	"strings"
)

// Graph returns the nodes of e, an expression graph (nodes may be shared),
// children first, the number of parents of each (e has 1), and the size
// of e as a tree, saturating at 2^40.
func Graph(e Expr) (order []Expr, parents map[Expr]int, tree int64) {
	parents = map[Expr]int{}
	sizes := map[Expr]int64{}
	var visit func(x Expr) int64
	visit = func(x Expr) int64 {
		parents[x]++
		if n, seen := sizes[x]; seen {
			return n
		}
		n := int64(1)
		VisitExpr(x, func(c Expr) {
			n += visit(c)
			if n > 1<<40 {
				n = 1 << 40
			}
		})
		sizes[x] = n
		order = append(order, x)
		return n
	}
	tree = visit(e)
	return order, parents, tree
}

// BindShared returns e, an expression graph whose nodes order lists
// children first and parents counts the parents of, with every node that
// has two or more parents and that bindable accepts bound to a Let at e's
// top, so that a graph whose tree is exponentially larger prints and
// evaluates in its own size. A Var or a constant is never bound, nor e
// itself. The Lets, outermost first in order, are named prefix$<word>0,
// prefix$<word>1, ...: the numbers start past any <word><k> that a name
// of e or of reserved ends with, so a binding is never confused with
// them once printed as C (prefix_<word><k>). It returns e itself when
// nothing is bound.
//
// The front end's shared expressions (halide/shared_exprs.go, word cse)
// and inlining (lower/inline_shared.go, word inl) bind this way, each
// with its own rule of what may be bound.
func BindShared(e Expr, order []Expr, parents map[Expr]int, bindable func(Expr) bool, prefix, word string, reserved []string) Expr {
	skip := 0
	check := func(name string) {
		if i := strings.LastIndexAny(name, ".$"); i >= 0 {
			name = name[i+1:]
		}
		var k int
		if _, err := fmt.Sscanf(name, word+"%d", &k); err == nil && k >= skip {
			skip = k + 1
		}
	}
	for _, n := range reserved {
		check(n)
	}
	for _, x := range order {
		if v, ok := x.(*Var); ok {
			check(v.Name)
		}
	}
	bound := map[Expr]*Var{}
	built := map[Expr]Expr{}
	var rebuild func(x Expr) Expr
	rebuild = func(x Expr) Expr {
		if v, ok := bound[x]; ok {
			return v
		}
		if b, ok := built[x]; ok {
			return b
		}
		b := MapExpr(x, rebuild)
		built[x] = b
		return b
	}
	var binds []*Let
	for _, x := range order {
		if parents[x] < 2 || x == e || !bindable(x) {
			continue
		}
		switch x.(type) {
		case *Var, *IntImm, *FloatImm:
			continue
		}
		value := rebuild(x)
		v := &Var{T: x.Type(), Name: fmt.Sprintf("%s$%s%d", prefix, word, len(binds)+skip)}
		bound[x] = v
		binds = append(binds, &Let{Name: v.Name, Value: value})
	}
	if len(binds) == 0 {
		return e
	}
	body := rebuild(e)
	for i := len(binds) - 1; i >= 0; i-- {
		body = &Let{Name: binds[i].Name, Value: binds[i].Value, Body: body}
	}
	return body
}
