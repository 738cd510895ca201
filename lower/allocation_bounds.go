package lower

// allocation_bounds: size each realization. The box a Realize covers is the
// union of everything its body reads or writes of the Func (bounds.Touched:
// the loops and lets inside range, the rest stays symbolic), so rounded-up
// and shifted tails and scatters are covered. An extent with a constant
// upper bound (over all values of the enclosing loops) is replaced by that
// constant, so `allocate f[float32 * 16 * 8]` has a fixed size even when
// the last tile is smaller. BoundStorage fixes an extent (checked at
// run time where the region's size is known only then) and AlignStorage
// rounds one up to a multiple. Auto memory becomes Stack for small
// constant sizes and Heap otherwise.
//
// Before: bounds_inference, gpu_register_ownership (a register array is
// sized in one thread's local coordinates), sliding_window (storage
// covers what every iteration reads) and compute_with (sized from the
// fused loops). After: every Realize has Bounds.

import (
	"slices"

	"github.com/gohalide/gohalide/bounds"
	"github.com/gohalide/gohalide/ir"
)

// maxConstExtent caps the constant sizes taken from upper bounds; a bound
// larger than this is not useful as a fixed size.
const maxConstExtent = 1 << 28

// maxResolvedRegion is the most nodes an end of a region may have,
// resolved through the lets of its loop level, before it is simplified.
const maxResolvedRegion = 20 * bounds.MaxEndSize

// maxStackBytes is the largest Auto allocation placed on the stack.
const maxStackBytes = 64 << 10

func allocationBounds(st *State) error {
	var err error
	sc := &walkScope{lets: newRootLetValues(), kernelLets: newLetValues(), levelLets: newRootLetValues(), levelFilter: regionLetNames(st)}
	idx := bounds.NewIndex() // which statements mention which Funcs
	idx.Check = st.checkStop
	lv := sc.lets
	s := walkScoped(st.Stmt, sc, func(x ir.Stmt) ir.Stmt {
		r, ok := x.(*ir.Realize)
		if !ok || err != nil {
			return x
		}
		st.checkStop()
		f := st.Funcs[r.Func]
		inner, inKernel := kernelLoops(sc.loops)
		var threads []*ir.For
		for _, l := range inner {
			if l.Kind == ir.GPUThread {
				threads = append(threads, l)
			}
		}
		mem := r.Memory // decided by gpu_memory
		box := bounds.TouchedOf(r.Body, st.values, r.Func, idx)
		// A Func.bound fixes the region (bounds_inference checks that it
		// covers what is read), so it also fixes the allocation, widened
		// to what the production writes where that is bounded: a
		// ShiftInwards split whose extent is smaller than its factor
		// computes points before the region's min (as in Halide), and they
		// need storage. (An unbounded write, a scatter the bound promises
		// to keep inside, leaves the bound.)
		var written bounds.Box
		if len(f.Schedule.Bounds) > 0 {
			written = bounds.ProvidedOf(r.Body, st.values, r.Func, idx)
		}
		for _, b := range f.Schedule.Bounds {
			if b.Min == nil {
				// bound_extent: the regions are extent wide from the
				// mins found, and the box they touch is the storage.
				continue
			}
			if box == nil {
				box = make(bounds.Box, len(f.Args))
			}
			d := argIndex(f, b.Var)
			fixed := bounds.Interval{Min: b.Min, Max: ir.Simplify(ir.SubE(ir.AddE(b.Min, b.Extent), ir.Int(1)))}
			if d < len(written) && written[d].IsBounded() {
				fixed = bounds.Union(fixed, written[d])
			}
			box[d] = fixed
		}
		if mem == ir.GPUShared && box != nil {
			// One copy per block: the union of the region over the block's
			// threads. Only the kernel's own lets are seen through (they
			// hide the thread loops), as bounds_inference does for the
			// region lets: the bounds name out.s0.x.max where the loops
			// and those lets do, not a second spelling of it that the
			// CUDA compiler cannot match (TestSharedBoundsNameKernelLets).
			box = sharedUnion(box, threads, sc.kernelLets)
		}
		for d := range box {
			if err = regionTooComplex(f, "allocation bounds", d, box[d]); err != nil {
				return x
			}
		}
		ranges := make([]ir.Range, len(f.Args))
		var checks []ir.Stmt // bound_storage's run-time checks
		atLeast := make([]int64, len(f.Args))
		allConst := true
		elems := int64(1)
		for d := range f.Args {
			if box == nil {
				ranges[d] = ir.Range{Min: ir.Int(0), Extent: ir.Int(0)}
				continue
			}
			iv := box[d]
			if iv.IsBounded() {
				// A region resolved through the lets of its loop level is
				// a tree that can be exponential in the length of a chain
				// of Funcs that each read the next at two places (the lets
				// share it as a DAG; simplifying or walking it would not):
				// past maxResolvedRegion nodes (which simplifying may
				// shrink) the allocation is refused, as the box walk
				// refuses a region past bounds.MaxEndSize.
				for _, e := range []ir.Expr{iv.Min, iv.Max} {
					if exprSize(ir.Substitute(e, lv.vals), maxResolvedRegion) > maxResolvedRegion {
						panic(bounds.TooComplex{Name: f.Name, Dim: d})
					}
				}
			}
			if !inKernel && iv.IsBounded() {
				// Outside kernels the box sees through the region lets
				// of its loop level (those of f and of the Funcs computed
				// after it there) where they are small (letValues), as
				// it does inside a kernel, where they stay at their
				// productions inside the Realize.
				iv = bounds.Interval{Min: sc.levelLets.resolve(iv.Min), Max: sc.levelLets.resolve(iv.Max)}
			}
			if !iv.IsBounded() {
				err = ir.Errorf(ir.ErrUnbounded, f.Name, "allocation bounds", "%s is written or read in an unbounded way in dimension %d (%s): %s", f.Name, d, f.Args[d], iv).
					WithLegal("clamp scatter coordinates or promise their range with Clamped / UnsafePromiseClamped")
				return x
			}
			mn := ir.Simplify(iv.Min)
			// The extent's exact lower bound, before int32 arithmetic
			// could wrap it (sizeTooLarge).
			if n, ok := extentLowerBound(bounds.Interval{Min: lv.resolve(iv.Min), Max: lv.resolve(iv.Max)}); ok {
				atLeast[d] = n
			}
			ext := ir.Simplify(ir.AddE(ir.SubE(iv.Max, iv.Min), ir.Int(1)))
			var sd ir.StorageDim
			if sd, err = storageDirective(f, d); err != nil {
				return x
			}
			if sd.Bound != 0 {
				upper := func(e ir.Expr) (int64, bool) {
					if c, ok := bounds.ConstantUpperBound(lv.resolve(e), nil); ok {
						return c, true
					}
					if up := blockMax(e, sc.loops, sc.lets); inKernel && up != nil {
						return ir.AsInt(ir.Simplify(up))
					}
					return 0, false
				}
				var check *ir.AssertStmt
				if ext, check, err = boundStorage(f, d, sd, ext, upper, inKernel); err != nil {
					return x
				}
				if check != nil {
					checks = append(checks, check)
				}
			}
			if c, ok := bounds.ConstantUpperBound(lv.resolve(ext), nil); ok && c <= maxConstExtent {
				if c < 0 {
					c = 0
				}
				ext = ir.Int(c)
			}
			if _, ok := ir.AsInt(ext); !ok && inKernel {
				if mem == ir.Register && f.Schedule.Memory == ir.Auto {
					// The default memory of a per-thread Func (gpu_memory
					// picked registers) whose size is known only at
					// launch: per-thread global scratch, as Halide does.
					mem = ir.Heap
					st.logf(3, "  allocation_bounds: %s in Heap: a per-thread extent known only at launch in dimension %d\n", f.Name, d)
				}
				if ext, err = kernelExtent(f, d, mem, ext, sc); err != nil {
					return x
				}
			}
			ext = alignStorage(sd, ext)
			if c, ok := ir.AsInt(ext); ok {
				elems *= max(c, 0)
				ext = ir.Int(max(c, 0))
			} else {
				// An empty region (a guarded-off tail iteration) has
				// max < min; it needs no storage, not a negative amount.
				ext = ir.Simplify(ir.MaxE(ext, ir.Int(0)))
				allConst = false
			}
			ranges[d] = ir.Range{Min: mn, Extent: ext}
		}
		if err = sizeTooLarge(f, "allocation bounds", atLeast); err != nil {
			return x
		}
		if mem == ir.Auto {
			mem = ir.Heap
			if allConst && elems*pointBytes(f) <= maxStackBytes {
				mem = ir.Stack
			}
		}
		st.logf(3, "  allocation_bounds: %s in %s, extents %s\n", r.Func, mem, rangeList(ranges))
		if mem == r.Memory && slices.EqualFunc(ranges, r.Bounds, func(a, b ir.Range) bool { return ir.Equal(a.Min, b.Min) && ir.Equal(a.Extent, b.Extent) }) {
			return r // sized as it was
		}
		c := *r
		c.Memory, c.Bounds = mem, ranges
		if len(checks) > 0 {
			return &ir.Block{Stmts: append(checks, &c)}
		}
		return &c
	})
	if err != nil {
		return err
	}
	st.Stmt = s
	return nil
}

// regionLetNames returns the names of the region lets of every Func but
// the output (bounds_inference).
func regionLetNames(st *State) map[string]bool {
	names := map[string]bool{}
	for _, f := range st.Funcs {
		if f.Name == st.P.Output {
			continue
		}
		for k := range f.Stages() {
			for _, a := range f.Args {
				p := stagePrefix(f.Name, k) + a
				names[p+".min"], names[p+".max"] = true, true
			}
		}
	}
	return names
}

func rangeList(rs []ir.Range) string {
	s := ""
	for i, r := range rs {
		if i > 0 {
			s += " x "
		}
		s += ir.ExprString(r.Extent)
	}
	return s
}

// sharedUnion returns the union over the block's threads of a shared
// Func's box.
func sharedUnion(box bounds.Box, threads []*ir.For, lv letValues) bounds.Box {
	scope := bounds.Scope{}
	for _, l := range threads {
		mn := lv.resolve(l.Min)
		scope[l.Name] = bounds.Interval{Min: mn, Max: ir.Simplify(ir.SubE(ir.AddE(mn, lv.resolve(l.Extent)), ir.Int(1)))}
	}
	if len(threads) == 0 {
		return box
	}
	out := make(bounds.Box, len(box))
	for d, iv := range box {
		if iv.Min != nil {
			out[d].Min = bounds.Of(lv.resolve(iv.Min), scope).Min
		}
		if iv.Max != nil {
			out[d].Max = bounds.Of(lv.resolve(iv.Max), scope).Max
		}
	}
	return out
}

// kernelExtent bounds a non-constant extent of an allocation inside a
// kernel by one size for every block and thread (blockMax): a constant
// where one can be proved, else a size the host computes before each
// launch. Registers need constant sizes.
func kernelExtent(f *ir.Function, d int, m ir.MemoryType, ext ir.Expr, sc *walkScope) (ir.Expr, error) {
	up := blockMax(ext, sc.loops, sc.lets)
	if up == nil {
		return nil, ir.Errorf(ir.ErrUnbounded, f.Name, "store_in("+m.String()+")", "the %s allocation of %s has no upper bound in dimension %d: %s", m, f.Name, d, ir.ExprString(sc.lets.resolve(ext)))
	}
	if _, ok := ir.AsInt(up); !ok && m == ir.Register {
		return nil, ir.Errorf(ir.ErrSchedule, f.Name, "store_in(Register)", "the register allocation of %s has an extent in dimension %d that is not a constant: %s", f.Name, d, ir.ExprString(sc.lets.resolve(ext))).
			WithLegal("split the loops so each thread computes a constant-size piece, Bound the Func, or store_in(Heap) (per-thread global scratch)")
	}
	return up, nil
}

// storageDirective returns f's align_storage / bound_storage entry for
// dimension d (ir.StorageDim; zero when none) and the directive's name for
// errors. A dimension fold_storage folds is sized by the fold, so neither
// directive may name it.
func storageDirective(f *ir.Function, d int) (ir.StorageDim, error) {
	v := f.Args[d]
	var sd ir.StorageDim
	for _, s := range f.Schedule.StorageDims {
		if s.Var == v {
			sd = s
		}
	}
	directive := "align_storage"
	if sd.Bound != 0 {
		directive = "bound_storage"
	}
	if sd.Align == 0 && sd.Bound == 0 {
		return sd, nil
	}
	for _, fd := range f.Schedule.Folds {
		if fd.Var == v {
			return sd, ir.Errorf(ir.ErrSchedule, f.Name, directive, "fold_storage folds the storage of %s in %s to %d, and %s sizes it too", f.Name, v, fd.Extent, directive).
				WithLegal("one of fold_storage and align_storage / bound_storage per dimension")
		}
	}
	return sd, nil
}

// boundStorage applies bound_storage (sd.Bound, when not 0) to need, the
// extent a realization of f needs in dimension d (exact, possibly known
// only at run time; upper gives its constant upper bound where there is
// one). A need larger than the bound is an error at Lower when need has a
// constant value; when it is known only at run time and its constant upper
// bound (if any) exceeds the bound, a check is returned, to run before the
// allocation (outside a kernel; inside one, need must have a constant
// bound).
func boundStorage(f *ir.Function, d int, sd ir.StorageDim, need ir.Expr, upper func(ir.Expr) (int64, bool), inKernel bool) (ir.Expr, *ir.AssertStmt, error) {
	const directive = "bound_storage"
	v := f.Args[d]
	if c, ok := ir.AsInt(need); ok {
		if c > sd.Bound {
			return nil, nil, ir.Errorf(ir.ErrSchedule, f.Name, directive, "bound_storage of %s in %s is %d, but a realization of %s needs %d elements in %s", f.Name, v, sd.Bound, f.Name, c, v).
				WithLegal("a bound of at least %d", c)
		}
		return ir.Int(sd.Bound), nil, nil
	}
	if c, ok := upper(need); ok && c <= sd.Bound {
		return ir.Int(sd.Bound), nil, nil
	}
	if inKernel {
		return nil, nil, ir.Errorf(ir.ErrSchedule, f.Name, directive, "bound_storage of %s in %s inside a GPU kernel: the region's extent, %s, has no constant bound of at most %d", f.Name, v, ir.ExprString(need), sd.Bound).
			WithLegal("Bound %s's region in %s, or split its consumer's loops so each block or thread computes a constant-size piece", f.Name, v)
	}
	e := ir.Errorf(ir.ErrSchedule, f.Name, directive, "bound_storage of %s in %s is %d, but a realization of %s needs %%s elements in %s", f.Name, v, sd.Bound, f.Name, v).
		WithLegal("a larger bound_storage, or a smaller input or output")
	check := &ir.AssertStmt{Cond: ir.LEE(need, ir.Int(sd.Bound)), Message: e.Msg, Args: []ir.Expr{need}, Error: e}
	return ir.Int(sd.Bound), check, nil
}

// alignStorage rounds ext up to a multiple of sd.Align (align_storage).
func alignStorage(sd ir.StorageDim, ext ir.Expr) ir.Expr {
	if sd.Align <= 1 {
		return ext
	}
	a := ir.Int(sd.Align)
	return ir.Simplify(ir.MulE(ir.DivE(ir.AddE(ext, ir.Int(sd.Align-1)), a), a))
}

// pointBytes is the bytes one point of f takes: one value of each of a
// Tuple Func's buffers.
func pointBytes(f *ir.Function) int64 {
	var n int64
	for i := 0; i < f.Values(); i++ {
		n += int64(f.ValueType(i).Bytes())
	}
	return n
}
