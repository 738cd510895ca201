package lower

// common_loads: in each kernel, every value is computed once and every
// memory value loaded once where the code can see that it has not changed,
// so that the emitted CUDA says what the hardware should do and does not
// rely on nvcc to find it. Unrolled tiles are the case it is for: the 4x4
// register tile of the tensor product's best schedule reads each of its 4
// + 4 shared operands 4 times per reduction step, and repeats the let that
// computes each row's index once per copy.
//
// It runs in four steps on each kernel body:
//
//  1. Every variable bound in the body (a LetStmt or a loop) gets a name
//     no binding in scope where it is bound has: unrolling copies a body,
//     and its lets, several times. The first binding keeps its name, the
//     others get a suffix (".1", ".2", ...); bindings in different loop
//     bodies or branches (the two sides of a partitioned body) keep
//     theirs. With no shadowing left, an expression's text is its value
//     everywhere it is in scope.
//  2. A let whose value contains no load and equals the value of a let in
//     scope is dropped, its uses renamed to the earlier one; a let that
//     is not last in its block first has its scope widened over the
//     statements after it (the unrolled copies of a tile each bind their
//     row's index in a let of their own). The expressions are simplified
//     again, since merged names make terms cancel.
//  3. Loads: along a straight line of statements (a Block and the bodies
//     of the lets, allocations and producer/consumer markers in its tail),
//     two loads with the same text read the same value unless a
//     statement between them may change it. The value is bound to a new
//     let before the first statement that evaluates it on every path, and
//     every later occurrence up to the next change reads the let. What
//     may change a value: a store to its buffer anywhere in a statement;
//     for shared memory also a barrier, after which other threads' writes
//     are visible. A global buffer the kernel writes (an output, a
//     scatter's atomics, global scratch) is never reused: other threads
//     may write it at any time. A load evaluated only on some paths (a
//     select's arm, the right side of && or ||) is never moved earlier,
//     since its index may be valid only on that path, but it reads a
//     let already bound. Innermost loads go first, so that a gather's
//     index load is bound before the load that uses it is compared.
//  4. Vectors (common_loads_vector.go): the lets of step 3 that load 2 or
//     4 consecutive elements of a shared array from an index proved a
//     multiple of 2 or 4, at an offset in the pool aligned as much, move
//     together under an ir.LoadVector mark, which the CUDA backend emits
//     as one float2 / float4 (int2, int4) load.
//
// The host statement is left alone: the CPU executor evaluates what it is
// given, and host code is not on the hot path. Each step returns the node
// it was given when it changed nothing under it, so a kernel the pass
// leaves as it was is the same *ir.Kernel ("unchanged").
//
// Before: gpu_partition (each branch of a partitioned body is its own
// straight line, the steady state's without guards). After: kernel bodies
// with unique binding names, no duplicate pure lets, and each load shared
// where it provably reads the same value.

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"

	"github.com/gohalide/gohalide/ir"
)

func commonLoads(st *State) error {
	return optimizeKernels(st, "common_loads", func(k *ir.Kernel) *ir.Kernel {
		// Each step returns the node it was given when it changed
		// nothing under it: the same body is the kernel as it was.
		body := commonLoadsKernel(k.Body, vectorAlignments(k))
		if body == k.Body {
			return k
		}
		return k.WithBody(body)
	})
}

// commonLoadsKernel returns body with the four steps applied. align gives
// the alignment in bytes of the first element of each buffer that may be
// loaded as vectors (step 4).
func commonLoadsKernel(body ir.Stmt, align map[string]int64) ir.Stmt {
	names := boundNames(body)
	body = uniqueBindings(body, names)
	// widenLets rebuilds a let chain that it widened before (the same
	// tree, of new nodes, on a second run): keep the old one then.
	if w := widenLets(body); w != body && !reflect.DeepEqual(w, body) {
		body = w
	}
	body = dedupeLets(body)
	// Merged lets make terms cancel: A_in[r + i*8 - r] is A_in[i*8].
	body = simplifyExprs(body)
	c := &loadSharing{names: names, shared: map[string]bool{}, written: map[string]bool{}, align: align}
	allocated := map[string]bool{}
	ir.WalkStmt(body, func(s ir.Stmt) bool {
		switch s := s.(type) {
		case *ir.Allocate:
			allocated[s.Name] = true
			if s.Memory == ir.GPUShared {
				c.shared[s.Name] = true
			}
		case *ir.Store:
			c.written[s.Buf] = true
		}
		return true
	}, nil)
	// A buffer allocated in the kernel is written by its own threads only
	// (registers) or ordered by barriers (shared); any other buffer the
	// kernel writes is global and may change under a thread's feet.
	for b := range allocated {
		delete(c.written, b)
	}
	return c.region(body, map[string]ir.Expr{})
}

// boundNames returns every name bound or used in s, for fresh names.
func boundNames(s ir.Stmt) *nameSet {
	names := ir.Binders(s)
	ir.WalkStmt(s, func(ir.Stmt) bool { return true }, func(e ir.Expr) bool {
		if v, ok := e.(*ir.Var); ok {
			names[v.Name] = true
		}
		return true
	})
	return &nameSet{used: names, next: map[string]int{}}
}

// nameSet is the names in use, for fresh ones: next holds, per base, the
// suffix to try first (a kernel of thousands of unrolled copies of one let
// asks for thousands of names of one base; probing from 1 each time made
// that quadratic).
type nameSet struct {
	used map[string]bool
	next map[string]int
}

// fresh returns base, or base with a numeric suffix, not in use, and
// marks it used.
func (ns *nameSet) fresh(base string) string {
	n := base
	i := ns.next[base]
	if i == 0 {
		i = 1
	}
	for ; ns.used[n]; i++ {
		n = base + "." + strconv.Itoa(i)
	}
	ns.next[base] = i
	ns.used[n] = true
	return n
}

// uniqueBindings renames each let and loop of s whose name is already
// bound where it is (step 1): by an enclosing statement, or by an earlier
// let of the same straight line, over which widenLets will extend it.
// Bindings in different loop bodies or branches keep their names. names
// holds every name of s and receives the new ones.
func uniqueBindings(s ir.Stmt, names *nameSet) ir.Stmt {
	// A name used free in s (a kernel argument) counts as bound.
	seen := &scopeSet{m: freeNames(s)}
	var walk func(s ir.Stmt, ren map[string]ir.Expr) ir.Stmt
	bind := func(name string, t ir.Type, ren map[string]ir.Expr) (string, map[string]ir.Expr) {
		if !seen.m[name] {
			seen.add(name)
			return name, ren
		}
		n := names.fresh(name)
		seen.add(n)
		inner := copyRen(ren)
		inner[name] = &ir.Var{T: t, Name: n}
		return n, inner
	}
	walk = func(s ir.Stmt, ren map[string]ir.Expr) ir.Stmt {
		sub := func(e ir.Expr) ir.Expr { return ir.Substitute(e, ren) }
		switch x := s.(type) {
		case *ir.LetStmt:
			v := sub(x.Value)
			n, inner := bind(x.Name, x.Value.Type(), ren)
			body := walk(x.Body, inner)
			return ir.Edit(x, n != x.Name || v != x.Value || body != x.Body, func(l *ir.LetStmt) { l.Name, l.Value, l.Body = n, v, body })
		case *ir.For:
			mn, ext := sub(x.Min), sub(x.Extent)
			k := seen.mark()
			n, inner := bind(x.Name, ir.Int32, ren)
			body := walk(x.Body, inner)
			seen.restore(k)
			return ir.Edit(x, n != x.Name || mn != x.Min || ext != x.Extent || body != x.Body, func(l *ir.For) { l.Name, l.Min, l.Extent, l.Body = n, mn, ext, body })
		case *ir.IfThenElse:
			c := sub(x.Cond)
			k := seen.mark()
			then := walk(x.Then, ren)
			seen.restore(k)
			var els ir.Stmt
			if x.Else != nil {
				els = walk(x.Else, ren)
				seen.restore(k)
			}
			return ir.Edit(x, c != x.Cond || then != x.Then || els != x.Else, func(i *ir.IfThenElse) { i.Cond, i.Then, i.Else = c, then, els })
		}
		return ir.MapStmt(s, func(c ir.Stmt) ir.Stmt { return walk(c, ren) }, sub)
	}
	return walk(s, map[string]ir.Expr{})
}

// scopeSet is a set of names that can be put back as it was at a mark.
type scopeSet struct {
	m   map[string]bool
	log []string
}

func (s *scopeSet) add(n string) {
	if !s.m[n] {
		s.m[n] = true
		s.log = append(s.log, n)
	}
}
func (s *scopeSet) mark() int { return len(s.log) }
func (s *scopeSet) restore(k int) {
	for _, n := range s.log[k:] {
		delete(s.m, n)
	}
	s.log = s.log[:k]
}

// freeNames returns the names s uses outside any binding of them.
func freeNames(s ir.Stmt) map[string]bool {
	free := map[string]bool{}
	var walk func(s ir.Stmt, bound map[string]int)
	expr := func(e ir.Expr, bound map[string]int) {
		ir.WalkExpr(e, func(x ir.Expr) bool {
			if v, ok := x.(*ir.Var); ok && bound[v.Name] == 0 {
				free[v.Name] = true
			}
			return true
		})
	}
	walk = func(s ir.Stmt, bound map[string]int) {
		var name string
		switch x := s.(type) {
		case *ir.LetStmt:
			name = x.Name
		case *ir.For:
			name = x.Name
		}
		ir.VisitStmt(s, func(c ir.Stmt) {
			if name != "" {
				bound[name]++
				defer func() { bound[name]-- }()
			}
			walk(c, bound)
		}, func(e ir.Expr) { expr(e, bound) })
	}
	walk(s, map[string]int{})
	return free
}

// widenLets moves each let that is not last in its block over the
// statements after it: [let x = v in S; T] becomes let x = v in [S; T].
// The value is evaluated at the same point, and with unique names (step
// 1) T cannot mean another x. A straight line then has its lets in tail
// position, where line sees through them.
func widenLets(s ir.Stmt) ir.Stmt {
	var walk func(s ir.Stmt) ir.Stmt
	// seq is a then b, a's lets widened over b.
	var seq func(a, b ir.Stmt) ir.Stmt
	seq = func(a, b ir.Stmt) ir.Stmt {
		if b == nil {
			return a
		}
		switch x := a.(type) {
		case *ir.LetStmt:
			return ir.WithBody(x, seq(x.Body, b))
		case *ir.Block:
			for i := len(x.Stmts) - 1; i >= 0; i-- {
				b = seq(x.Stmts[i], b)
			}
			return b
		}
		return ir.MakeBlock(a, b)
	}
	walk = func(s ir.Stmt) ir.Stmt {
		if b, ok := s.(*ir.Block); ok {
			var acc ir.Stmt
			for i := len(b.Stmts) - 1; i >= 0; i-- {
				acc = seq(walk(b.Stmts[i]), acc)
			}
			if acc == nil {
				return &ir.Block{}
			}
			if a, ok := acc.(*ir.Block); ok {
				return ir.SameBlock(b, a.Stmts)
			}
			if len(b.Stmts) == 1 && acc == b.Stmts[0] {
				return b // a block of one statement left as it was
			}
			return acc
		}
		return ir.MapStmt(s, walk, nil)
	}
	return walk(s)
}

func copyRen(m map[string]ir.Expr) map[string]ir.Expr {
	out := make(map[string]ir.Expr, len(m)+1)
	for k, v := range m {
		out[k] = v
	}
	return out
}

// dedupeLets drops each let whose value, free of loads, equals that of a
// let in scope, and renames its uses within its scope (step 2). No
// binding shadows another (step 1), so a rename never meets a binding of
// the same name, and equal text means equal value.
func dedupeLets(s ir.Stmt) ir.Stmt {
	ren := map[string]ir.Expr{}
	inScope := map[string]string{} // a value's text -> the let that holds it
	var walk func(s ir.Stmt) ir.Stmt
	walk = func(s ir.Stmt) ir.Stmt {
		sub := func(e ir.Expr) ir.Expr { return ir.Substitute(e, ren) }
		l, ok := s.(*ir.LetStmt)
		if !ok {
			return ir.MapStmt(s, walk, sub)
		}
		v := sub(l.Value)
		if hasLoad(v) || ir.IsConst(v) {
			body := walk(l.Body)
			return ir.Edit(l, v != l.Value || body != l.Body, func(x *ir.LetStmt) { x.Value, x.Body = v, body })
		}
		key := ir.ExprString(v)
		if prev, ok := inScope[key]; ok {
			ren[l.Name] = &ir.Var{T: v.Type(), Name: prev}
			body := walk(l.Body)
			delete(ren, l.Name)
			return body
		}
		inScope[key] = l.Name
		body := walk(l.Body)
		delete(inScope, key)
		if body == nil {
			body = &ir.Block{}
		}
		return ir.Edit(l, v != l.Value || body != l.Body, func(x *ir.LetStmt) { x.Value, x.Body = v, body })
	}
	return walk(s)
}

// simplifyExprs simplifies every expression of s, leaving its statements
// as they are (ir.SimplifyStmt would substitute lets back).
func simplifyExprs(s ir.Stmt) ir.Stmt {
	var walk func(ir.Stmt) ir.Stmt
	walk = func(s ir.Stmt) ir.Stmt { return ir.MapStmt(s, walk, ir.Simplify) }
	return walk(s)
}

// loadSharing is step 3.
type loadSharing struct {
	names   *nameSet
	shared  map[string]bool  // GPUShared allocations: barriers publish others' writes
	written map[string]bool  // global buffers the kernel writes: never shared
	align   map[string]int64 // step 4: buffers that may be loaded as vectors
}

// lineItem is one statement of a straight line. An opener (a let, an
// allocation or a producer/consumer marker in tail position) has the rest
// of the line as its body; its Body field is ignored until the line is
// rebuilt.
type lineItem struct {
	s      ir.Stmt
	opener bool
}

// line flattens s into a straight line of items.
func line(s ir.Stmt, out []lineItem) []lineItem {
	switch x := s.(type) {
	case nil:
		return out
	case *ir.Block:
		for i, y := range x.Stmts {
			if i == len(x.Stmts)-1 {
				return line(y, out)
			}
			out = append(out, lineItem{s: y})
		}
		return out
	case *ir.LetStmt:
		return line(x.Body, append(out, lineItem{s: x, opener: true}))
	case *ir.Allocate:
		return line(x.Body, append(out, lineItem{s: x, opener: true}))
	case *ir.ProducerConsumer:
		return line(x.Body, append(out, lineItem{s: x, opener: true}))
	case *ir.LoadVector:
		// Step 4's mark: its lanes are the lets after it on the line.
		return line(x.Body, append(out, lineItem{s: x, opener: true}))
	}
	return append(out, lineItem{s: s})
}

// rebuild is the inverse of line, for items made from orig, the line of
// s: the statements of s that hold a tail of the line that is as it was
// (s itself, an opener, an opener's body) are kept, not rebuilt.
func rebuild(s ir.Stmt, items, orig []lineItem) ir.Stmt {
	var acc ir.Stmt
	end := len(items)
	n, m := len(items), len(orig)
	c := 0 // items and orig end with the same c items
	for c < n && c < m && items[n-1-c] == orig[m-1-c] {
		c++
	}
	// The largest statement of s that holds only items of that tail: s,
	// an opener (with its body) or an opener's body.
	for o := m - c; o < m || o == 0 && c == m; o++ {
		if o == 0 {
			acc = s
		} else if orig[o].opener {
			acc = orig[o].s
		} else if orig[o-1].opener {
			acc = openerBody(orig[o-1].s)
		} else {
			continue
		}
		end = n - (m - o)
		break
	}
	for i := end - 1; i >= 0; i-- {
		it := items[i]
		if !it.opener {
			acc = ir.MakeBlock(it.s, acc)
			continue
		}
		body := acc
		if body == nil {
			body = &ir.Block{}
		}
		switch x := it.s.(type) {
		case *ir.LetStmt:
			acc = &ir.LetStmt{Name: x.Name, Value: x.Value, Body: body}
		case *ir.Allocate:
			a := *x
			a.Body = body
			acc = &a
		case *ir.ProducerConsumer:
			acc = &ir.ProducerConsumer{Func: x.Func, Producer: x.Producer, Body: body}
		case *ir.LoadVector:
			acc = &ir.LoadVector{Lanes: x.Lanes, Body: body}
		}
	}
	if acc == nil {
		return &ir.Block{}
	}
	return acc
}

// openerBody is the body of an opener of a line (see line).
func openerBody(s ir.Stmt) ir.Stmt {
	switch x := s.(type) {
	case *ir.LetStmt:
		return x.Body
	case *ir.Allocate:
		return x.Body
	case *ir.ProducerConsumer:
		return x.Body
	case *ir.LoadVector:
		return x.Body
	}
	panic(fmt.Sprintf("common_loads: %T is not an opener", s))
}

// header applies f to the expressions a statement evaluates before any of
// its child statements (all of them, for a statement without children).
func header(s ir.Stmt, f func(ir.Expr) ir.Expr) ir.Stmt {
	return ir.MapStmt(s, nil, f)
}

// region shares the loads of the straight line s, after those of the
// lines inside its statements. lets are the values of the lets in scope.
func (c *loadSharing) region(s ir.Stmt, lets map[string]ir.Expr) ir.Stmt {
	items := line(s, nil)
	orig := slices.Clone(items)
	scope := make(map[string]ir.Expr, len(lets)+len(items))
	for n, v := range lets {
		scope[n] = v
	}
	for i, it := range items {
		if it.opener {
			if l, ok := it.s.(*ir.LetStmt); ok {
				scope[l.Name] = l.Value
			}
			continue
		}
		items[i].s = ir.MapStmt(it.s, func(b ir.Stmt) ir.Stmt { return c.region(b, scope) }, nil)
	}
	// Innermost loads first: each round binds the loads whose index
	// loads nothing; a gather's outer load becomes innermost once its
	// index load is a let.
	for round := 0; round < 8; round++ {
		var changed bool
		items, changed = c.shareInnermost(items)
		if !changed {
			break
		}
	}
	for _, it := range items {
		if l, ok := it.s.(*ir.LetStmt); ok && it.opener {
			scope[l.Name] = l.Value
		}
	}
	items = c.vectorize(items, scope)
	return rebuild(s, items, orig)
}

// occurrence is where a load's text appears on the line.
type occurrence struct {
	item          int
	unconditional bool
}

// shareInnermost binds the innermost loads evaluated more than once along
// the line between two changes of their value.
func (c *loadSharing) shareInnermost(items []lineItem) ([]lineItem, bool) {
	type loadInfo struct {
		load *ir.Load
		occ  []occurrence
	}
	loads := map[string]*loadInfo{}
	var order []string
	for i, it := range items {
		header(it.s, func(e ir.Expr) ir.Expr {
			innermostLoads(e, true, nil, func(l *ir.Load, uncond bool) {
				if c.written[l.Buf] {
					return
				}
				key := ir.ExprString(l)
				li := loads[key]
				if li == nil {
					li = &loadInfo{load: l}
					loads[key] = li
					order = append(order, key)
				}
				li.occ = append(li.occ, occurrence{i, uncond})
			})
			return e
		})
	}
	// Statements that may change each buffer's values (by item).
	kills := make([]func(buf string) bool, len(items))
	for i, it := range items {
		kills[i] = c.changes(it)
	}
	type binding struct {
		key      string
		name     string
		from, to int // the items whose occurrences read the let
	}
	before := map[int][]*ir.LetStmt{} // lets to insert before an item
	var binds []binding
	for _, key := range order {
		li := loads[key]
		if len(li.occ) < 2 {
			continue
		}
		// Split the occurrences at the statements that change the
		// buffer: an occurrence at item i is evaluated before i's own
		// stores.
		start := 0
		for start < len(li.occ) {
			end := start + 1
			for end < len(li.occ) && !changedBetween(kills, li.load.Buf, li.occ[end-1].item, li.occ[end].item) {
				end++
			}
			group := li.occ[start:end]
			start = end
			// The let goes before the first item that evaluates the
			// load on every path; it serves the occurrences from there.
			h := -1
			for j, o := range group {
				if o.unconditional {
					h = j
					break
				}
			}
			if h < 0 || len(group)-h < 2 {
				continue
			}
			from, to := group[h].item, group[len(group)-1].item
			if l, ok := items[from].s.(*ir.LetStmt); ok && items[from].opener && ir.Equal(l.Value, li.load) {
				// Already bound: later occurrences read that let.
				if from == to {
					continue
				}
				binds = append(binds, binding{key, l.Name, from + 1, to})
				continue
			}
			name := c.names.fresh(li.load.Buf + ".value")
			before[from] = append(before[from], &ir.LetStmt{Name: name, Value: li.load})
			binds = append(binds, binding{key, name, from, to})
		}
	}
	if len(binds) == 0 {
		return items, false
	}
	// Replace the occurrences, item by item.
	byItem := map[int]map[string]ir.Expr{}
	for _, b := range binds {
		for i := b.from; i <= b.to; i++ {
			if byItem[i] == nil {
				byItem[i] = map[string]ir.Expr{}
			}
			byItem[i][b.key] = &ir.Var{T: loads[b.key].load.T, Name: b.name}
		}
	}
	var out []lineItem
	for i, it := range items {
		for _, l := range before[i] {
			out = append(out, lineItem{s: l, opener: true})
		}
		if m := byItem[i]; m != nil {
			it.s = header(it.s, func(e ir.Expr) ir.Expr { return replaceLoads(e, m) })
		}
		out = append(out, it)
	}
	return out, true
}

// changedBetween reports whether an item in [a, b) may change buf's
// values after a's own loads (a's stores come after its loads).
func changedBetween(kills []func(string) bool, buf string, a, b int) bool {
	for i := a; i < b; i++ {
		if kills[i](buf) {
			return true
		}
	}
	return false
}

// changes returns the test of whether item it may change a buffer's
// values: a store to it anywhere inside, a barrier for shared memory,
// anything for an Evaluate (a call whose effects are not known).
func (c *loadSharing) changes(it lineItem) func(string) bool {
	if it.opener {
		return func(string) bool { return false }
	}
	if _, ok := it.s.(*ir.Evaluate); ok {
		return func(string) bool { return true }
	}
	_, writes := ir.Accesses(it.s)
	barrier := containsBarrier(it.s)
	return func(buf string) bool { return writes[buf] || barrier && c.shared[buf] }
}

// innermostLoads calls f for each load of e whose index loads nothing,
// with whether e evaluates it on every path. Loads under an expression
// let whose variable they use are skipped: their value is the let's.
func innermostLoads(e ir.Expr, uncond bool, bound map[string]bool, f func(*ir.Load, bool)) {
	switch x := e.(type) {
	case *ir.Load:
		if hasLoad(x.Index) {
			innermostLoads(x.Index, uncond, bound, f)
			return
		}
		if len(bound) > 0 && ir.UsesAny(x.Index, func(n string) bool { return bound[n] }) {
			return
		}
		f(x, uncond)
		return
	case *ir.Select:
		innermostLoads(x.Cond, uncond, bound, f)
		innermostLoads(x.True, false, bound, f)
		innermostLoads(x.False, false, bound, f)
		return
	case *ir.Binary:
		if x.Op == ir.And || x.Op == ir.Or {
			innermostLoads(x.A, uncond, bound, f)
			innermostLoads(x.B, false, bound, f)
			return
		}
	case *ir.Let:
		innermostLoads(x.Value, uncond, bound, f)
		inner := map[string]bool{x.Name: true}
		for n := range bound {
			inner[n] = true
		}
		innermostLoads(x.Body, uncond, inner, f)
		return
	}
	ir.VisitExpr(e, func(y ir.Expr) { innermostLoads(y, uncond, bound, f) })
}

// replaceLoads replaces the loads of e whose text is a key of m, except
// under an expression let that binds a variable they use.
func replaceLoads(e ir.Expr, m map[string]ir.Expr) ir.Expr {
	var rep func(e ir.Expr, bound map[string]bool) ir.Expr
	rep = func(e ir.Expr, bound map[string]bool) ir.Expr {
		switch x := e.(type) {
		case *ir.Load:
			if len(bound) == 0 || !ir.UsesAny(x.Index, func(n string) bool { return bound[n] }) {
				if v, ok := m[ir.ExprString(x)]; ok {
					return v
				}
			}
		case *ir.Let:
			v := rep(x.Value, bound)
			inner := map[string]bool{x.Name: true}
			for n := range bound {
				inner[n] = true
			}
			b := rep(x.Body, inner)
			if v == x.Value && b == x.Body {
				return x
			}
			return &ir.Let{Name: x.Name, Value: v, Body: b}
		}
		return ir.MapExpr(e, func(y ir.Expr) ir.Expr { return rep(y, bound) })
	}
	return rep(e, nil)
}
