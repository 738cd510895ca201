package lower

// storage_folding: a Func whose values are produced and read inside one
// serial loop, a window of them at each iteration, is stored as that
// window: the storage of the dimension the window moves along holds a
// fixed number of slices, the coordinate y at y mod the fold (Halide's
// StorageFolding). With StoreRoot().ComputeAt(g, y) on a 3-row stencil
// (sliding or not), f's allocation is 4 rows of the image's width instead
// of the whole image.
//
// f's storage in dimension d folds along the loop v, the innermost loop
// that holds every access of f in its Realize or, if f slid along loops
// inside that one (sliding_window), the outermost of those, when:
//   - v and every loop between the Realize and v run their iterations in
//     order on one thread (serial or unrolled), and f's memory is the
//     host's or a thread's own (not GPU shared memory, registers or a
//     block's global copy);
//   - the box of f that one iteration of v reads and writes in d (its
//     window) has both ends growing with v and at most a constant number
//     of values, c.
//
// A sliding Func's window is worked out on its region before sliding
// (unslid), which covers what one iteration reads and writes, except the
// rows a RoundUp split of its production writes past the window: a
// sliding Func with one is not folded. (A ShiftInwards split writes rows
// below the window, in increasing order and ending at its last row, so
// the last rows written, which the slots keep, are the window's.)
//
// A Func that slid along several nested loops reads, at an iteration of
// an outer one, what the one before wrote, in another run of the inner
// loops: folding along an inner loop would keep only the last run's
// values (the slots of row y - 1 hold the row's last columns), so the
// window is that of the outermost loop it slid along, which holds every
// reuse.
//
// Then no value is overwritten before its last read: a value written at
// iteration w and read at v >= w, and any other value written between,
// both lie in the window of one iteration (the windows' ends only grow),
// so their coordinates differ by less than c and cannot be equal modulo a
// fold of at least c. The fold is c rounded up to a power of two (the
// modulo is then a mask), or the extent FoldStorage gave, which must be at
// least c. Folding is skipped where the allocation is no larger than the
// fold, and for a Realize folded already (its folds are decided once).
//
// Before: allocation_bounds (Realizes have their box), sliding_window (the
// window is what one iteration computes and reads), compute_with (the
// window is worked out on the fused loops). After: a folded
// Realize has Folds set and the bounds [0, fold) in the folded dimension;
// storage_flattening indexes it modulo the fold.

import (
	"fmt"

	"github.com/gohalide/gohalide/bounds"
	"github.com/gohalide/gohalide/ir"
)

func storageFolding(st *State) error {
	fd := &folder{st: st, idx: bounds.NewIndex()}
	s := walkWithLets(st.Stmt, newRootLetValues(), func(s ir.Stmt) ir.Stmt {
		r, ok := s.(*ir.Realize)
		if !ok || fd.err != nil {
			return s
		}
		st.checkStop()
		return fd.fold(r)
	})
	if fd.err != nil {
		return fd.err
	}
	st.Stmt = s
	return nil
}

type folder struct {
	st  *State
	idx *bounds.Index
	err error
}

// fold returns r with its storage folded where it may be (see the top of
// the file), or an error for an explicit FoldStorage that is not safe.
func (fd *folder) fold(r *ir.Realize) ir.Stmt {
	f, ok := fd.st.Funcs[r.Func]
	if !ok || r.Folds != nil {
		// Not a Func's, or folded already: its folds are decided once.
		return r
	}
	explicit := map[int]int64{}
	for _, fdir := range f.Schedule.Folds {
		explicit[argIndex(f, fdir.Var)] = fdir.Extent
	}
	refuse := func(d int, format string, args ...any) ir.Stmt {
		fd.st.logf(3, "  storage_folding: %s not folded: %s\n", f.Name, fmt.Sprintf(format, args...))
		if ext, ok := explicit[d]; ok && fd.err == nil {
			fd.err = ir.Errorf(ir.ErrSchedule, f.Name, "fold_storage", "folding the storage of %s in %s by %d is not safe: %s", f.Name, f.Args[d], ext, fmt.Sprintf(format, args...)).
				WithLegal("compute and store %s so that one serial loop holds every access of it and moves forward along %s (StoreAt outside the loop, ComputeAt in it), or drop the fold", f.Name, f.Args[d])
		}
		return r
	}
	anyDim := -1
	for d := range explicit {
		anyDim = d
	}
	if r.Memory == ir.GPUShared || r.Memory == ir.Register || r.InGlobal {
		return refuse(anyDim, "%s is stored in %s, which is not folded", f.Name, r.Memory)
	}
	if fd.st.slid[f.Name] && roundsUp(f) {
		// A sliding Func computes only its new rows, and a RoundUp split
		// of them writes rows past the window, into the slots of rows it
		// still needs (the window below is the region before sliding,
		// which does not see that).
		return refuse(anyDim, "it slides and a RoundUp split computes it past its window, over rows it still reads")
	}
	loop, ok := innermostLoopOf(r.Body, r.Func)
	if !ok {
		return refuse(anyDim, "no loop inside its storage holds every access of it")
	}
	path := loopsDownTo(r.Body, loop)
	for i, l := range path {
		if fd.st.slidAlong[f.Name][l.Name] {
			// f slid along l (and maybe loops inside it): an iteration of
			// l reads what earlier ones wrote, across the runs of the
			// loops inside it, so the window is one iteration of l's.
			loop, path = l, path[:i+1]
			break
		}
	}
	for _, l := range path {
		if l.Kind != ir.Serial && l.Kind != ir.Unrolled {
			return refuse(anyDim, "the loop %s between its storage and its window is %s, so its iterations do not run in order", l.Name, l.Kind)
		}
	}
	// The window of one iteration of loop, in terms of its variable and
	// what lies outside the Realize (the lets between are resolved).
	lv := letsDownTo(r.Body, loop)
	box := bounds.TouchedOf(unslid(loop.Body), fd.st.values, r.Func, nil)
	v := &ir.Var{T: ir.Int32, Name: loop.Name}
	next := map[string]ir.Expr{loop.Name: ir.AddE(v, ir.Int(1))}
	grows := func(e ir.Expr) bool { return growsWith(e, loop.Name, next) }
	folds := make([]int64, len(r.Bounds))
	folded := false
	for d := range r.Bounds {
		ext, isExplicit := explicit[d]
		if box == nil || d >= len(box) || !box[d].IsBounded() {
			if isExplicit {
				return refuse(d, "its window along %s is not bounded", loop.Name)
			}
			continue
		}
		lo, hi := lv.resolve(box[d].Min), lv.resolve(box[d].Max)
		if !ir.Uses(lo, loop.Name) && !ir.Uses(hi, loop.Name) && !isExplicit {
			fd.st.logf(3, "  storage_folding: %s not folded in %s: its window [%s, %s] does not move along %s\n", f.Name, f.Args[d], ir.ExprString(lo), ir.ExprString(hi), loop.Name)
			continue // the window does not move: nothing to gain
		}
		if !grows(lo) || !grows(hi) {
			return refuse(d, "its window along %s, [%s, %s], does not move forward", loop.Name, ir.ExprString(lo), ir.ExprString(hi))
		}
		c, ok := bounds.ConstantUpperBound(ir.Simplify(ir.AddE(ir.SubE(hi, lo), ir.Int(1))), nil)
		if !ok || c > maxConstExtent {
			return refuse(d, "its window along %s, [%s, %s], has no constant size", loop.Name, ir.ExprString(lo), ir.ExprString(hi))
		}
		c = max(c, 1)
		if isExplicit {
			if ext < c {
				fd.err = ir.Errorf(ir.ErrSchedule, f.Name, "fold_storage", "folding the storage of %s in %s by %d is not safe: one iteration of %s reads and writes %d values of it along %s", f.Name, f.Args[d], ext, loop.Name, c, f.Args[d]).
					WithLegal("fold by at least %d", c)
				return r
			}
		} else {
			ext = nextPow2(c)
			if alloc, ok := ir.AsInt(r.Bounds[d].Extent); ok && alloc <= ext {
				continue // no smaller than it is
			}
		}
		folds[d] = ext
		folded = true
		fd.st.logf(3, "  storage_folding: %s folded by %d in %s along %s\n", f.Name, ext, f.Args[d], loop.Name)
	}
	if !folded {
		return r
	}
	c := *r
	c.Folds = folds
	c.Bounds = append([]ir.Range(nil), r.Bounds...)
	for d, n := range folds {
		if n > 0 {
			c.Bounds[d] = ir.Range{Min: ir.Int(0), Extent: ir.Int(n)}
		}
	}
	return &c
}

// unslid returns s with the region lets that sliding_window rewrote back
// at the region's own min (the promise's lower end): the same accesses of
// each Func at one iteration, and more writes, which is what a window that
// holds every access needs, with ends that compare across iterations.
func unslid(s ir.Stmt) ir.Stmt {
	var mut func(ir.Stmt) ir.Stmt
	mut = func(s ir.Stmt) ir.Stmt {
		if l, ok := s.(*ir.LetStmt); ok {
			if c, ok := l.Value.(*ir.Call); ok && c.Name == ir.IntrinsicUnsafePromiseClamped && len(c.Args) == 3 {
				if _, slid := c.Args[0].(*ir.Select); slid {
					return &ir.LetStmt{Name: l.Name, Value: c.Args[1], Body: mut(l.Body)}
				}
			}
		}
		return ir.MapStmt(s, mut, nil)
	}
	return mut(s)
}

// roundsUp says whether a split of f's pure definition has a RoundUp tail.
func roundsUp(f *ir.Function) bool {
	for _, c := range f.Pure.Cases() {
		for _, sp := range c.Schedule.Splits {
			if sp.Kind == ir.SplitVar && sp.Tail == ir.RoundUp {
				return true
			}
		}
	}
	return false
}

func nextPow2(c int64) int64 {
	p := int64(1)
	for p < c {
		p <<= 1
	}
	return p
}

// innermostLoopOf returns the innermost loop of s that holds every access
// (read or write) of f in s.
func innermostLoopOf(s ir.Stmt, f string) (*ir.For, bool) {
	var best *ir.For
	if l, ok := s.(*ir.For); ok && !readsFunc(l.Min, f) && !readsFunc(l.Extent, f) {
		best = l
	}
	for {
		var next ir.Stmt
		n := 0
		for _, c := range children(s) {
			if mentions(c, f) {
				next = c
				n++
			}
		}
		if n != 1 || stmtMentionsOwn(s, f) {
			return best, best != nil
		}
		if l, ok := next.(*ir.For); ok {
			if readsFunc(l.Min, f) || readsFunc(l.Extent, f) {
				return best, best != nil
			}
			best = l
		}
		s = next
	}
}

// children returns the statements directly inside s.
func children(s ir.Stmt) []ir.Stmt {
	var out []ir.Stmt
	ir.VisitStmt(s, func(c ir.Stmt) { out = append(out, c) }, nil)
	return out
}

// stmtMentionsOwn says whether s's own expressions (not those of the
// statements inside it) access f.
func stmtMentionsOwn(s ir.Stmt, f string) bool {
	own := false
	ir.VisitStmt(s, nil, func(e ir.Expr) { own = own || readsFunc(e, f) })
	if p, ok := s.(*ir.Provide); ok && p.Func == f {
		own = true
	}
	return own
}

// mentions says whether s reads or writes f.
func mentions(s ir.Stmt, f string) bool {
	found := false
	ir.WalkStmt(s, func(x ir.Stmt) bool {
		if p, ok := x.(*ir.Provide); ok && p.Func == f {
			found = true
		}
		return !found
	}, func(e ir.Expr) bool {
		if c, ok := e.(*ir.Call); ok && c.Kind == ir.CallFunc && c.Name == f {
			found = true
		}
		return !found
	})
	return found
}

// loopsDownTo returns the loops of s that enclose target, target included.
func loopsDownTo(s ir.Stmt, target *ir.For) []*ir.For {
	var path []*ir.For
	var walk func(ir.Stmt) bool
	walk = func(x ir.Stmt) bool {
		if x == ir.Stmt(target) {
			path = append(path, target)
			return true
		}
		l, isLoop := x.(*ir.For)
		if isLoop {
			path = append(path, l)
		}
		for _, c := range children(x) {
			if walk(c) {
				return true
			}
		}
		if isLoop {
			path = path[:len(path)-1]
		}
		return false
	}
	walk(s)
	return path
}

// letsDownTo returns the values of the lets of s that enclose target.
func letsDownTo(s ir.Stmt, target *ir.For) letValues {
	lv := newLetValues()
	var walk func(ir.Stmt) bool
	walk = func(x ir.Stmt) bool {
		if x == ir.Stmt(target) {
			return true
		}
		if l, ok := x.(*ir.LetStmt); ok {
			undo := lv.bind(l.Name, l.Value)
			if walk(l.Body) {
				return true
			}
			undo()
			return false
		}
		for _, c := range children(x) {
			if walk(c) {
				return true
			}
		}
		return false
	}
	walk(s)
	return lv
}
