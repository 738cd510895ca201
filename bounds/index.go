package bounds

import "github.com/gohalide/gohalide/ir"

// Index remembers, for each statement it was asked about (by pointer:
// statements are immutable), the names of the Funcs, images and buffers
// the statement reads or writes, as a bit set. RequiredOf and TouchedOf use
// it to skip the parts of a statement that do not mention their name, so a
// pass that asks about every Func of a long pipeline does not walk the
// whole statement for each. An Index is not safe for concurrent use.
type Index struct {
	ids  map[string]int
	memo map[ir.Stmt][]uint64
	// Check, if set, is called at every statement a walk with this Index
	// visits; it may panic to abandon the walk (lowering does, when its
	// context is done).
	Check func()
}

// NewIndex returns an empty Index.
func NewIndex() *Index {
	return &Index{ids: map[string]int{}, memo: map[ir.Stmt][]uint64{}}
}

// Mentions reports whether s reads or writes name (a Call of a Func or
// image, a Load, a Provide or a Store).
func (x *Index) Mentions(s ir.Stmt, name string) bool {
	set := x.names(s)
	id, ok := x.ids[name]
	return ok && id/64 < len(set) && set[id/64]&(1<<(id%64)) != 0
}

func (x *Index) id(name string) int {
	id, ok := x.ids[name]
	if !ok {
		id = len(x.ids)
		x.ids[name] = id
	}
	return id
}

// names returns the set of s, computing (and remembering) it from its
// children's.
func (x *Index) names(s ir.Stmt) []uint64 {
	if s == nil {
		return nil
	}
	if set, ok := x.memo[s]; ok {
		return set
	}
	var set []uint64
	add := func(name string) {
		id := x.id(name)
		for len(set) <= id/64 {
			set = append(set, 0)
		}
		set[id/64] |= 1 << (id % 64)
	}
	union := func(o []uint64) {
		for len(set) < len(o) {
			set = append(set, 0)
		}
		for i, w := range o {
			set[i] |= w
		}
	}
	ir.VisitStmt(s, func(c ir.Stmt) { union(x.names(c)) }, func(e ir.Expr) {
		ir.WalkExpr(e, func(y ir.Expr) bool {
			switch y := y.(type) {
			case *ir.Call:
				if y.Kind != ir.CallIntrinsic {
					add(y.Name)
				}
			case *ir.Load:
				add(y.Buf)
			}
			return true
		})
	})
	switch s := s.(type) {
	case *ir.Provide:
		add(s.Func)
	case *ir.Store:
		add(s.Buf)
	}
	x.memo[s] = set
	return set
}
