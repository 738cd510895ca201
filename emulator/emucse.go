package emulator

// Common subexpressions of a kernel body, for the emulator.
//
// The emulator runs a kernel's body once per thread through the cpu
// package's closures, which evaluate every node of every expression: the
// index of each tap of a stencil over an input with repeated edges,
// min(max(2x - 1, in.min.0), in.min.0 + in.extent.0 - 1) - in.min.0, is
// rebuilt for every load that shares it. emuCSE binds each pure
// subexpression that occurs more than once in a Store (its index and value
// together) to a let before the Store, so that it is evaluated once per
// thread. Pure means built only from constants, variables, casts, Not,
// Select and binary operators: no Load (whose order the access checks and
// out-of-bounds errors depend on), no Call, no Let (a Store with a Let or
// a max_over, which bind variables, is left as it is). The cpu package
// defines every such operation for every operand (division by zero is
// zero), so evaluating one early, even where a Select or an And would not
// have evaluated it, changes nothing but the time. A Store that is the
// whole body of a loop is left as it is: the cpu package runs such loops in
// batches, which a let in between would prevent, and so are the bodies of
// vector loads and stores (ir.LoadVector, ir.StoreVector), whose shape the
// cpu package checks.

import (
	"fmt"
	"math"

	"github.com/gohalide/gohalide/ir"
)

// emuCSEPrefix starts the names of the lets emuCSE makes; no lowered
// variable has a name with it.
const emuCSEPrefix = "gpu.emulator.cse."

// emuCSE returns s with the common subexpressions of each Store bound to
// lets (s itself when there are none).
func emuCSE(s ir.Stmt) ir.Stmt {
	c := &emuCSEr{}
	return c.stmt(s)
}

type emuCSEr struct {
	n int // lets made so far, for their names
}

func (c *emuCSEr) stmt(s ir.Stmt) ir.Stmt {
	switch s := s.(type) {
	case *ir.Store:
		return c.store(s)
	case *ir.For:
		if _, ok := s.Body.(*ir.Store); ok {
			return s
		}
	case *ir.LoadVector, *ir.StoreVector:
		// Their bodies are lane-by-lane accesses of a fixed shape.
		return s
	}
	return ir.MapStmt(s, c.stmt, nil)
}

// emuNode is what emuCSE knows of a subexpression: a number naming its
// structure (equal numbers, equal expressions), whether it is pure, and
// how many times it is used.
type emuNode struct {
	id    int
	pure  bool
	leaf  bool // a constant or a variable: nothing to save
	count int
}

// emuCSEStore is the state of emuCSE on one Store.
type emuCSEStore struct {
	keys  map[string]int       // structural key -> id
	nodes map[ir.Expr]*emuNode // by node
	byID  map[int]*emuNode     // the first node of each id
	vars  map[int]*ir.Var      // the let of each id bound so far
	lets  []*ir.LetStmt
}

func (c *emuCSEr) store(st *ir.Store) ir.Stmt {
	// A subexpression of a Let's body or of a max_over may use the
	// variable they bind: such Stores are left as they are.
	binds := false
	for _, e := range []ir.Expr{st.Index, st.Value} {
		ir.WalkExpr(e, func(x ir.Expr) bool {
			if _, ok := x.(*ir.Let); ok {
				binds = true
			}
			if _, ok := ir.IsMaxOver(x); ok {
				binds = true
			}
			return !binds
		})
	}
	if binds {
		return st
	}
	s := &emuCSEStore{keys: map[string]int{}, nodes: map[ir.Expr]*emuNode{}, byID: map[int]*emuNode{}, vars: map[int]*ir.Var{}}
	s.count(st.Index)
	s.count(st.Value)
	any := false
	for _, n := range s.byID {
		if n.pure && !n.leaf && n.count > 1 {
			any = true
			break
		}
	}
	if !any {
		return st
	}
	ns := *st
	ns.Index = s.rewrite(c, st.Index)
	ns.Value = s.rewrite(c, st.Value)
	out := ir.Stmt(&ns)
	for i := len(s.lets) - 1; i >= 0; i-- {
		s.lets[i].Body = out
		out = s.lets[i]
	}
	return out
}

// node returns what is known of e, numbering its structure.
func (s *emuCSEStore) node(e ir.Expr) *emuNode {
	if n, ok := s.nodes[e]; ok {
		return n
	}
	var key string
	pure, leaf := true, false
	child := func(x ir.Expr) int {
		n := s.node(x)
		pure = pure && n.pure
		return n.id
	}
	switch e := e.(type) {
	case *ir.IntImm:
		key, leaf = fmt.Sprintf("i %v %d", e.T, e.V), true
	case *ir.FloatImm:
		key, leaf = fmt.Sprintf("f %v %d", e.T, math.Float64bits(e.V)), true
	case *ir.Var:
		key, leaf = fmt.Sprintf("v %v %s", e.T, e.Name), true
	case *ir.Cast:
		key = fmt.Sprintf("c %v %d", e.T, child(e.X))
	case *ir.Binary:
		key = fmt.Sprintf("b %d %d %d", e.Op, child(e.A), child(e.B))
	case *ir.Not:
		key = fmt.Sprintf("n %d", child(e.X))
	case *ir.Select:
		key = fmt.Sprintf("s %d %d %d", child(e.Cond), child(e.True), child(e.False))
	default:
		// Loads, calls and lets are never shared; their children are
		// numbered (a load's index may share with others) but they are
		// not pure.
		ir.VisitExpr(e, func(x ir.Expr) { child(x) })
		pure = false
		key = fmt.Sprintf("u %d", len(s.keys))
	}
	id, ok := s.keys[key]
	if !ok {
		id = len(s.keys)
		s.keys[key] = id
	}
	n := &emuNode{id: id, pure: pure, leaf: leaf}
	s.nodes[e] = n
	return n
}

// count counts the uses of the subexpressions of e: a subexpression seen
// before counts once more, without its own subexpressions, which it holds
// only once when bound to a let.
func (s *emuCSEStore) count(e ir.Expr) {
	n := s.node(e)
	first, ok := s.byID[n.id]
	if !ok {
		first = n
		s.byID[n.id] = n
	}
	first.count++
	if first.count > 1 {
		return
	}
	ir.VisitExpr(e, s.count)
}

// rewrite returns e with each subexpression used more than once replaced
// by its let (made at its first occurrence, after those of its own
// subexpressions).
func (s *emuCSEStore) rewrite(c *emuCSEr, e ir.Expr) ir.Expr {
	n := s.node(e)
	first := s.byID[n.id]
	if !n.pure || n.leaf || first == nil || first.count < 2 {
		return ir.MapExpr(e, func(x ir.Expr) ir.Expr { return s.rewrite(c, x) })
	}
	if v, ok := s.vars[n.id]; ok {
		return v
	}
	value := ir.MapExpr(e, func(x ir.Expr) ir.Expr { return s.rewrite(c, x) })
	v := &ir.Var{T: e.Type(), Name: fmt.Sprintf("%s%d", emuCSEPrefix, c.n)}
	c.n++
	s.vars[n.id] = v
	s.lets = append(s.lets, &ir.LetStmt{Name: v.Name, Value: value})
	return v
}
