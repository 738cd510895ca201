package lower

// Step 4 of common_loads: vector loads from shared memory.
//
// After step 3 each value a thread reads from a shared array several times
// is a let. A register tile reads a row of consecutive elements, one let
// each: GatherWeight[rc*64 + tx*4 + 0 .. 3]. When the index of the first
// is a multiple of the lane count n (2 or 4; n elements at most 16 bytes)
// and the array starts at a pool offset aligned to n elements, the n lets
// move together, to where the first of them was, under an ir.LoadVector
// mark, and CUDA loads them with one ld.shared.v4 instead of four.
//
// Moving a let earlier is the rule of step 3: no statement between may
// change the array (a store to it, a barrier). The moved lets read the
// first let's index plus a constant, so they use only names in scope
// there.
//
// Alignment is proved by a modulus analysis over the lets in scope
// (modRem): tx*4 + rc*64 is 0 mod 4 whatever tx and rc are.

import (
	"sort"

	"github.com/gohalide/gohalide/ir"
)

// vectorAlignments returns the byte alignment of the first element of each
// static shared array of k in its pool (ir.SharedPoolAlign at most).
func vectorAlignments(k *ir.Kernel) map[string]int64 {
	if k.SharedBytes == 0 {
		return nil // no layout recorded
	}
	out := map[string]int64{}
	for _, a := range k.Allocs {
		if a.Memory != ir.GPUShared || a.Dynamic || a.PerBlock {
			continue
		}
		al := int64(ir.SharedPoolAlign)
		for al > 1 && a.Offset%al != 0 {
			al /= 2
		}
		out[a.Func] = al
	}
	return out
}

// laneLet is a let of step 3 that loads an element of an alignable array.
type laneLet struct {
	pos      int // its item on the line
	let      *ir.LetStmt
	load     *ir.Load
	resolved ir.Expr // its index with the lets in scope substituted
	group    int     // which run of lets it joined (-1: none yet)
	offset   int64   // its index minus the first of its group's
}

// vectorize groups the lane lets of the line items into vector loads.
func (c *loadSharing) vectorize(items []lineItem, scope map[string]ir.Expr) []lineItem {
	if len(c.align) == 0 {
		return items
	}
	var lanes []*laneLet
	marked := 0 // lets left of a vector already marked (run again on its own output)
	for i, it := range items {
		if m, ok := it.s.(*ir.LoadVector); ok {
			marked = m.Lanes
			continue
		}
		l, ok := it.s.(*ir.LetStmt)
		if !ok || !it.opener {
			continue
		}
		if marked > 0 {
			marked--
			continue
		}
		ld, ok := l.Value.(*ir.Load)
		if !ok || c.align[ld.Buf] < 2*int64(ld.T.Bytes()) || ld.T.IsBool() || ld.T.Bytes() < 4 {
			continue
		}
		r := resolveLets(ld.Index, scope)
		if r == nil {
			continue
		}
		lanes = append(lanes, &laneLet{pos: i, let: l, load: ld, resolved: r, group: -1})
	}
	if len(lanes) < 2 {
		return items
	}
	kills := make([]func(string) bool, len(items))
	for i, it := range items {
		kills[i] = c.changes(it)
	}
	type vec struct {
		at    int        // the item the vector's lets go before
		lanes []*laneLet // in lane order
	}
	var vecs []vec
	used := map[*laneLet]bool{}
	for gi, first := range lanes {
		if first.group >= 0 {
			continue
		}
		// The lets that read the same array at a constant distance from
		// first, with no change to the array between.
		first.group, first.offset = gi, 0
		group := []*laneLet{first}
		for _, o := range lanes[gi+1:] {
			if o.group >= 0 || o.load.Buf != first.load.Buf || o.load.T != first.load.T ||
				changedBetween(kills, first.load.Buf, first.pos, o.pos) {
				continue
			}
			d, ok := ir.AsInt(ir.Simplify(ir.SubE(o.resolved, first.resolved)))
			if !ok {
				continue
			}
			o.group, o.offset = gi, d
			group = append(group, o)
		}
		if len(group) < 2 {
			continue
		}
		at := map[int64]*laneLet{}
		for _, l := range group {
			if at[l.offset] == nil {
				at[l.offset] = l
			}
		}
		offsets := make([]int64, 0, len(at))
		for d := range at {
			offsets = append(offsets, d)
		}
		sort.Slice(offsets, func(i, j int) bool { return offsets[i] < offsets[j] })
		m, r := modRem(first.resolved, scope, 0)
		elem := int64(first.load.T.Bytes())
		for _, n := range []int64{4, 2} {
			if n*elem > 16 || n*elem > c.align[first.load.Buf] {
				continue
			}
			for _, d := range offsets {
				// The window [d, d+n) starts at an index that is a
				// multiple of n, provably, and all its lanes are lets.
				if !multipleOf(m, r+d, n) {
					continue
				}
				win := make([]*laneLet, n)
				full := true
				for j := range win {
					win[j] = at[d+int64(j)]
					if win[j] == nil || used[win[j]] {
						full = false
						break
					}
				}
				if !full {
					continue
				}
				p := win[0].pos
				for _, l := range win {
					p = min(p, l.pos)
					used[l] = true
				}
				vecs = append(vecs, vec{p, win})
			}
		}
	}
	if len(vecs) == 0 {
		return items
	}
	// Rebuild the line: each vector's lets before its first item, the
	// lanes reading the index of the let that was there plus a constant.
	before := map[int][]ir.Stmt{}
	drop := map[int]bool{}
	for _, v := range vecs {
		var base *laneLet
		for _, l := range v.lanes {
			if l.pos == v.at {
				base = l
			}
			drop[l.pos] = true
		}
		list := []ir.Stmt{&ir.LoadVector{Lanes: len(v.lanes)}}
		for _, l := range v.lanes {
			idx := base.load.Index
			if d := l.offset - base.offset; d != 0 {
				idx = ir.Simplify(ir.AddE(idx, ir.Int(d)))
			}
			list = append(list, &ir.LetStmt{Name: l.let.Name, Value: &ir.Load{T: l.load.T, Buf: l.load.Buf, Index: idx}})
		}
		before[v.at] = append(before[v.at], list...)
	}
	var out []lineItem
	for i, it := range items {
		for _, s := range before[i] {
			out = append(out, lineItem{s: s, opener: true})
		}
		if !drop[i] {
			out = append(out, it)
		}
	}
	return out
}

// multipleOf reports whether a value known to be r mod m (m = 0: exactly
// r) is a multiple of n.
func multipleOf(m, r, n int64) bool {
	if m != 0 && m%n != 0 {
		return false
	}
	return ((r%n)+n)%n == 0
}

// resolveLets substitutes the values of the lets in scope into e until no
// let is left, or returns nil when that grows e past a few thousand nodes.
func resolveLets(e ir.Expr, scope map[string]ir.Expr) ir.Expr {
	for range 32 {
		changed := false
		next := ir.Substitute(e, scopeOf(e, scope, &changed))
		if !changed {
			return ir.Simplify(e)
		}
		e = next
		if exprSize(e, 4000) > 4000 {
			return nil
		}
	}
	return nil
}

// scopeOf returns the lets of scope that e uses.
func scopeOf(e ir.Expr, scope map[string]ir.Expr, used *bool) map[string]ir.Expr {
	m := map[string]ir.Expr{}
	ir.WalkExpr(e, func(x ir.Expr) bool {
		if v, ok := x.(*ir.Var); ok {
			if val, ok := scope[v.Name]; ok {
				m[v.Name] = val
				*used = true
			}
		}
		return true
	})
	return m
}

// modRem returns (m, r) such that the integer e is r modulo m, whatever
// its free variables are (m = 0: e is exactly r; m = 1: nothing is known).
// The lets of scope are looked through.
func modRem(e ir.Expr, scope map[string]ir.Expr, depth int) (int64, int64) {
	if depth > 64 {
		return 1, 0
	}
	norm := func(m, r int64) (int64, int64) {
		if m < 0 {
			m = -m
		}
		if m > 0 {
			r = ((r % m) + m) % m
		}
		return m, r
	}
	switch x := e.(type) {
	case *ir.IntImm:
		return 0, x.V
	case *ir.Var:
		if v, ok := scope[x.Name]; ok {
			return modRem(v, scope, depth+1)
		}
		return 1, 0
	case *ir.Binary:
		m1, r1 := modRem(x.A, scope, depth+1)
		m2, r2 := modRem(x.B, scope, depth+1)
		switch x.Op {
		case ir.Add:
			return norm(ir.GCD(m1, m2), r1+r2)
		case ir.Sub:
			return norm(ir.GCD(m1, m2), r1-r2)
		case ir.Mul:
			switch {
			case m1 == 0:
				return norm(m2*r1, r1*r2)
			case m2 == 0:
				return norm(m1*r2, r1*r2)
			}
			return norm(ir.GCD(m1*m2, ir.GCD(m1*r2, m2*r1)), r1*r2)
		case ir.Min, ir.Max:
			return norm(ir.GCD(ir.GCD(m1, m2), r1-r2), r1)
		}
	case *ir.Select:
		m1, r1 := modRem(x.True, scope, depth+1)
		m2, r2 := modRem(x.False, scope, depth+1)
		return norm(ir.GCD(ir.GCD(m1, m2), r1-r2), r1)
	}
	return 1, 0
}
