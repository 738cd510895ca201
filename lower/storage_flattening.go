package lower

// storage_flattening: turn multi-dimensional storage into flat buffers.
// Each Realize of f becomes lets for f.min.<d> (and f.stride.<d> where the
// stride is not constant) around `allocate f[T * e0 * e1 ...]`, with
// dimension 0 dense (or the first dimension of f's ReorderStorage order,
// in which order the extents are then listed); each Provide to f becomes a Store and each call a
// Load at the flat index sum((x_d - f.min.d) * stride_d). Inputs and the
// output use their buffer's min and stride variables.
//
// A Tuple Func (ir.Function.Types) splits here, as in Halide: one
// allocation per value, f.0, f.1, ... (ir.TupleElem), all of the
// Realize's shape and indexed by the same f.min / f.stride lets; a
// Provide of its values binds each to a let f.value.<i>, then stores them
// all, so an update reads only old values; a call of value i loads f.<i>.
// An atomic Tuple update stores each value with an atomic update of its
// own where each reads only its own element (hist += (1, 2)); where one
// reads another (an argmax), the lets and stores go inside an ir.Atomic of
// f, a lock over the whole Tuple (atomicNeedsLock; host code only).
// A Tuple output's buffers f.<i> have their own stride variables.
//
// Before: allocation_bounds, storage_folding, prefetch. After: no Realize, Provide, or Func or image
// Call is left. A host allocation whose size is not a constant is
// preceded by the run-time check that it fits int32 indices (sizeCheck).
// A store to a Func that traces its stores is followed by an
// ir.TraceStore of the value and coordinates. A dimension that storage_folding folded is indexed by the
// coordinate modulo its fold (Euclidean: never negative).
// A prefetch of a box (ir.PrefetchBox) becomes ir.PrefetchFlat: the flat
// index of the box's first element and the buffer's strides, one per
// value of a Tuple Func.

import (
	"github.com/gohalide/gohalide/ir"
)

type layout struct {
	mins, strides []ir.Expr
	// folds are the Realize's Folds (nil: none): a folded dimension is
	// indexed by the coordinate modulo its fold.
	folds []int64
}

func (l layout) index(args []ir.Expr) ir.Expr {
	var idx ir.Expr
	for d, a := range args {
		off := ir.SubE(a, l.mins[d])
		if d < len(l.folds) && l.folds[d] > 0 {
			off = ir.ModE(a, ir.Int(l.folds[d]))
		}
		term := ir.MulE(off, l.strides[d])
		if idx == nil {
			idx = term
		} else {
			idx = ir.AddE(idx, term)
		}
	}
	if idx == nil {
		return ir.Int(0)
	}
	return ir.Simplify(idx)
}

func bufferLayout(name string, dims int) layout {
	l := layout{}
	for d := 0; d < dims; d++ {
		l.mins = append(l.mins, v(BufferVar(name, "min", d)))
		l.strides = append(l.strides, v(BufferVar(name, "stride", d)))
	}
	return l
}

// storageOrder returns f's dimensions in storage order, innermost first.
func storageOrder(f *ir.Function) []int {
	order := make([]int, len(f.Args))
	for i := range order {
		order[i] = i
	}
	if len(f.Schedule.StorageOrder) == len(f.Args) {
		for i, name := range f.Schedule.StorageOrder {
			order[i] = argIndex(f, name)
		}
	}
	return order
}

func storageFlattening(st *State) error {
	layouts := map[string]layout{}
	out := st.Funcs[st.P.Output]
	layouts[out.Name] = bufferLayout(out.Name, len(out.Args))
	// Each value of a Tuple output has its buffer of its own, with its own
	// strides; the shapes are the same (Realize checks it).
	var outElems []layout
	if out.IsTuple() {
		for i := range out.Types {
			outElems = append(outElems, bufferLayout(ir.TupleElem(out.Name, i), len(out.Args)))
		}
	}
	// buffer returns the buffer and layout of value i of Func or input name.
	buffer := func(name string, i int) (string, layout) {
		l, ok := layouts[name]
		if !ok {
			panic("storage_flattening: no storage for " + name)
		}
		f, ok := st.Funcs[name]
		if !ok || !f.IsTuple() {
			return name, l
		}
		if name == out.Name {
			l = outElems[i]
		}
		return ir.TupleElem(name, i), l
	}
	for _, in := range st.P.Inputs {
		layouts[in.Name] = bufferLayout(in.Name, in.Dims)
	}
	var fe func(ir.Expr) ir.Expr
	fe = func(e ir.Expr) ir.Expr {
		e = ir.MapExpr(e, fe)
		if c, ok := e.(*ir.Call); ok && (c.Kind == ir.CallFunc || c.Kind == ir.CallImage) {
			buf, l := buffer(c.Name, c.Index)
			return &ir.Load{T: c.T, Buf: buf, Index: l.index(c.Args)}
		}
		return e
	}
	gpuDepth := 0 // the GPU loops around the statement being visited
	var fs func(ir.Stmt) ir.Stmt
	fs = func(s ir.Stmt) ir.Stmt {
		switch s := s.(type) {
		case *ir.For:
			if s.Kind == ir.GPUBlock || s.Kind == ir.GPUThread {
				gpuDepth++
				defer func() { gpuDepth-- }()
			}
		case *ir.Realize:
			var lets []let
			l := layout{mins: make([]ir.Expr, len(s.Bounds)), strides: make([]ir.Expr, len(s.Bounds)), folds: s.Folds}
			stride := ir.Expr(ir.Int(1))
			extents := make([]ir.Expr, len(s.Bounds))
			for d, r := range s.Bounds {
				if d < len(s.Folds) && s.Folds[d] > 0 {
					continue // indexed modulo the fold
				}
				mn := BufferVar(s.Func, "min", d)
				lets = append(lets, let{mn, r.Min})
				l.mins[d] = v(mn)
			}
			// Strides follow the storage order (ReorderStorage), innermost
			// first; the extents are listed in the same order.
			for i, d := range storageOrder(st.Funcs[s.Func]) {
				r := s.Bounds[d]
				if ir.IsConst(stride) {
					l.strides[d] = stride
				} else {
					sn := BufferVar(s.Func, "stride", d)
					lets = append(lets, let{sn, stride})
					l.strides[d] = v(sn)
				}
				extents[i] = r.Extent
				stride = ir.Simplify(ir.MulE(stride, r.Extent))
			}
			saved, had := layouts[s.Func]
			layouts[s.Func] = l
			body := fs(s.Body)
			if had {
				layouts[s.Func] = saved
			} else {
				delete(layouts, s.Func)
			}
			// A Tuple Func has one allocation per value, all of one shape
			// (Halide's f.0, f.1, ...).
			f := st.Funcs[s.Func]
			for i := f.Values() - 1; i >= 0; i-- {
				name := s.Func
				if f.IsTuple() {
					name = ir.TupleElem(s.Func, i)
				}
				body = &ir.Allocate{Name: name, T: f.ValueType(i), Memory: s.Memory, Extents: extents, PerThread: s.PerThread, InGlobal: s.InGlobal, Body: body}
			}
			alloc := wrapLets(body, lets)
			if gpuDepth == 0 {
				// Sizes computed in a kernel are checked before its
				// launch (gpu_kernels).
				if check := sizeCheck(s.Func, "allocation bounds", extents); check != nil {
					return ir.MakeBlock(check, alloc)
				}
			}
			return alloc
		case *ir.Provide:
			args := make([]ir.Expr, len(s.Args))
			for i, a := range s.Args {
				args[i] = fe(a)
			}
			f := st.Funcs[s.Func]
			values := ir.TupleValues(s.Value)
			// A value that is the element's own old value (a Tuple
			// update that leaves a value as it was, f(x) = {f(x)[0] + 1,
			// f(x)[1]}) is neither bound nor stored, as in Halide.
			same := func(i int, v ir.Expr) bool {
				c, ok := v.(*ir.Call)
				if !ok || c.Kind != ir.CallFunc || c.Name != s.Func || c.Index != i || len(c.Args) != len(s.Args) {
					return false
				}
				for k := range c.Args {
					if !ir.Equal(c.Args[k], s.Args[k]) {
						return false
					}
				}
				return true
			}
			if len(values) == 1 {
				if same(0, values[0]) {
					return &ir.Block{}
				}
				buf, l := buffer(s.Func, 0)
				return flatStore(f, buf, l.index(args), fe(s.Value), args, s.Atomic)
			}
			var stores []ir.Stmt
			if s.Atomic && !atomicNeedsLock(s) {
				// Each value reads only its own element: one atomic
				// read-modify-write per value, each on its own buffer.
				for i, val := range values {
					if same(i, val) {
						continue
					}
					buf, l := buffer(s.Func, i)
					stores = append(stores, flatStore(f, buf, l.index(args), fe(val), args, true))
				}
				return ir.MakeBlock(stores...)
			}
			// A Tuple Func's values are all computed before any is stored
			// (an update reads the old values): each is bound by a let,
			// then stored to its buffer. An atomic update whose values
			// read one another does all of it holding f's lock.
			var binds []let
			for i, val := range values {
				if same(i, val) {
					continue
				}
				name := s.Func + ".value." + itoa(i)
				binds = append(binds, let{name, fe(val)})
				buf, l := buffer(s.Func, i)
				stores = append(stores, flatStore(f, buf, l.index(args), &ir.Var{T: val.Type(), Name: name}, args, false))
			}
			body := wrapLets(ir.MakeBlock(stores...), binds)
			if s.Atomic {
				return &ir.Atomic{Func: s.Func, Body: body}
			}
			return body
		case *ir.Evaluate:
			if name, c, flat, ok := ir.IsPrefetch(s.X); ok && !flat {
				return flatPrefetch(st.Funcs[name], name, c, buffer, fe)
			}
		}
		return ir.MapStmt(s, fs, fe)
	}
	st.Stmt = fs(st.Stmt)
	st.flattened = true
	return nil
}

// atomicNeedsLock reports whether the atomic Provide p of a Tuple Func
// needs a lock over all its values (an ir.Atomic): some value reads another
// element of the Func (an argmax's index reads the max). Where each value
// reads only its own element, each is an atomic update of its own buffer,
// and the values' updates may interleave without changing the result.
func atomicNeedsLock(p *ir.Provide) bool {
	values := ir.TupleValues(p.Value)
	if !p.Atomic || len(values) < 2 {
		return false
	}
	for i, v := range values {
		other := ir.ContainsExpr(v, func(x ir.Expr) bool {
			c, ok := x.(*ir.Call)
			return ok && c.Kind == ir.CallFunc && c.Name == p.Func && c.Index != i
		})
		if other {
			return true
		}
	}
	return false
}

// flatStore is the store of value at index of buffer buf of Func f (nil
// for none known), followed by its trace where f traces its stores.
func flatStore(f *ir.Function, buf string, index, value ir.Expr, args []ir.Expr, atomic bool) ir.Stmt {
	store := &ir.Store{Buf: buf, Index: index, Value: value, Atomic: atomic}
	if f != nil && f.Schedule.TraceStores {
		// The trace reads back what was stored.
		stored := &ir.Load{T: value.Type(), Buf: buf, Index: index}
		return ir.MakeBlock(store, &ir.Evaluate{X: ir.TraceStore(buf, stored, args)})
	}
	return store
}

// flatPrefetch is the flat form (ir.PrefetchFlat) of the prefetch c of the
// box of Func f (nil for an input) or input name: one per value of a Tuple
// Func, at the flat index of the box's first element with the buffer's
// strides. (prefetch drops the prefetches of folded Funcs.)
func flatPrefetch(f *ir.Function, name string, c *ir.Call, buffer func(string, int) (string, layout), fe func(ir.Expr) ir.Expr) ir.Stmt {
	n := 1
	if f != nil {
		n = f.Values()
	}
	var mins, extents []ir.Expr
	for i := 0; i+1 < len(c.Args); i += 2 {
		mins = append(mins, fe(c.Args[i]))
		extents = append(extents, fe(c.Args[i+1]))
	}
	var out []ir.Stmt
	for i := range n {
		buf, l := buffer(name, i)
		t := c.T
		if f != nil {
			t = f.ValueType(i)
		}
		out = append(out, ir.PrefetchFlat(buf, t, l.index(mins), extents, l.strides))
	}
	return ir.MakeBlock(out...)
}
