package lower

// storage_flattening: turn multi-dimensional storage into flat buffers.
// Each Realize of f becomes lets for f.min.<d> (and f.stride.<d> where the
// stride is not constant) around `allocate f[T * e0 * e1 ...]`, with
// dimension 0 dense (or the first dimension of f's ReorderStorage order,
// in which order the extents are then listed); each Provide to f becomes a Store and each call a
// Load at the flat index sum((x_d - f.min.d) * stride_d). Inputs and the
// output use their buffer's min and stride variables.
//
// Before: allocation_bounds, storage_folding. After: no Realize, Provide, or Func or image
// Call is left. A host allocation whose size is not a constant is
// preceded by the run-time check that it fits int32 indices (sizeCheck).
// A store to a Func that traces its stores is followed by an
// ir.TraceStore of the value and coordinates. A dimension that storage_folding folded is indexed by the
// coordinate modulo its fold (Euclidean: never negative).

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
	for _, in := range st.P.Inputs {
		layouts[in.Name] = bufferLayout(in.Name, in.Dims)
	}
	var fe func(ir.Expr) ir.Expr
	fe = func(e ir.Expr) ir.Expr {
		e = ir.MapExpr(e, fe)
		if c, ok := e.(*ir.Call); ok && (c.Kind == ir.CallFunc || c.Kind == ir.CallImage) {
			l, ok := layouts[c.Name]
			if !ok {
				panic("storage_flattening: no storage for " + c.Name)
			}
			return &ir.Load{T: c.T, Buf: c.Name, Index: l.index(c.Args)}
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
			alloc := wrapLets(&ir.Allocate{Name: s.Func, T: s.T, Memory: s.Memory, Extents: extents, PerThread: s.PerThread, InGlobal: s.InGlobal, Body: body}, lets)
			if gpuDepth == 0 {
				// Sizes computed in a kernel are checked before its
				// launch (gpu_kernels).
				if check := sizeCheck(s.Func, "allocation bounds", extents); check != nil {
					return ir.MakeBlock(check, alloc)
				}
			}
			return alloc
		case *ir.Provide:
			l, ok := layouts[s.Func]
			if !ok {
				panic("storage_flattening: no storage for " + s.Func)
			}
			args := make([]ir.Expr, len(s.Args))
			for i, a := range s.Args {
				args[i] = fe(a)
			}
			store := &ir.Store{Buf: s.Func, Index: l.index(args), Value: fe(s.Value), Atomic: s.Atomic}
			if f, ok := st.Funcs[s.Func]; ok && f.Schedule.TraceStores {
				// The trace reads back what was stored.
				stored := &ir.Load{T: f.T, Buf: s.Func, Index: store.Index}
				return ir.MakeBlock(store, &ir.Evaluate{X: ir.TraceStore(s.Func, stored, args)})
			}
			return store
		}
		return ir.MapStmt(s, fs, fe)
	}
	st.Stmt = fs(st.Stmt)
	st.flattened = true
	return nil
}
