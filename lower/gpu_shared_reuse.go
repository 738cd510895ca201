package lower

// gpu_shared_reuse: lay out each kernel's static shared memory as one pool
// per block in which Funcs whose shared lifetimes do not overlap share
// bytes. A chain f1 -> f2 -> f3 -> f4 produced one after the other at the
// block level needs room for two neighbours at a time, not for all four.
//
// Lifetimes are positions on the kernel body's top-level spine (blocks,
// lets, producer/consumer markers, allocations and barriers, outside any
// loop or if), which every thread runs once per block in program order. A
// loop or an if at the top level is one position: a Func accessed anywhere
// inside it is live for all of it (so an iteration never sees another's
// bytes), and a barrier inside it does not count (it may not run). The
// lifetime of an allocation is the span from the first to the last
// position that names it. Two allocations may share bytes when their spans
// are disjoint and, if the block has more than one thread, a top-level
// barrier lies strictly between the end of the earlier and the start of
// the later: no thread can still be reading the first while another writes
// the second. Allocations that are never accessed conflict with nothing.
//
// Packing (ir.PackShared): widest element type first, then largest; each at
// the lowest offset aligned to its element size that overlaps no placed
// allocation it conflicts with (first fit). The pool's base is aligned to
// ir.SharedPoolAlign bytes, which the CUDA emitter declares. The offsets go
// on ir.KernelAlloc.Offset and the pool's size on ir.Kernel.SharedBytes;
// the CUDA emitter, the emulator and the report read them. Dynamic shared
// allocations (sizes known at
// launch) are not pooled: they keep their own region after the pool.
//
// The dynamic shared allocations get their offsets in the dynamic region
// (ir.KernelAlloc.DynOffset) and its size (ir.Kernel.DynamicSharedBytes).
// The limits (Options.Limits) apply here: the static pool to the static
// limit, a schedule error; the pool plus the dynamic region to the opt-in
// limit, a host check before each launch.
//
// Before: gpu_kernels (shared allocations hoisted, Kernel.Allocs filled),
// gpu_barriers (two Funcs share bytes only across a barrier). After: every kernel with shared memory has a layout,
// in a new *ir.Kernel in its Launch and in st.Kernels; a kernel without
// any, or laid out as it would be (its limit check made), is left as it
// was.

import (
	"fmt"
	"strings"

	"github.com/gohalide/gohalide/ir"
)

func gpuSharedReuse(st *State) error {
	st.sharedLaidOut = true
	return mapKernels(st, func(k *ir.Kernel) (*ir.Kernel, ir.Stmt, error) {
		nk := layoutShared(k)
		if nk.SharedBytes > 0 {
			st.logf(3, "  gpu_shared_reuse: %s\n", sharedLayoutText(nk))
		}
		check, err := sharedLimits(nk, st.limits)
		if err != nil {
			return nil, nil, err
		}
		if check != nil && nk == k && hasCheck(k, check) {
			// Laid out as it was, its check already made (the pass run
			// again on its own output).
			return k, nil, nil
		}
		if check != nil {
			if nk == k {
				c := *k
				nk = &c
			}
			nk.Checks = append(append([]ir.Stmt(nil), nk.Checks...), check)
		}
		return nk, check, nil
	})
}

// sharedLimits checks a laid-out kernel's shared memory against the
// device: its static pool against the limit of static shared memory (a
// schedule error here), and, when some sizes are known only at launch, the
// pool plus the dynamic region against the opt-in limit, which it returns
// as a host check to run before each launch.
func sharedLimits(k *ir.Kernel, limits ir.DeviceLimits) (ir.Stmt, error) {
	biggest := ir.KernelAlloc{}
	var dynamic []string
	for _, a := range k.Allocs {
		if a.Memory != ir.GPUShared {
			continue
		}
		if a.Dynamic {
			dynamic = append(dynamic, a.Func)
		} else if a.Bytes() > biggest.Bytes() {
			biggest = a
		}
	}
	if k.SharedBytes > limits.MaxStaticShared {
		return nil, ir.Errorf(ir.ErrSchedule, biggest.Func, "store_in(GPUShared)", "kernel %s needs %d bytes of static shared memory (%s); the device allows %d", k.Name, k.SharedBytes, allocList(k.Allocs), limits.MaxStaticShared).
			WithLegal("smaller tiles, or fewer Funcs in shared memory")
	}
	if len(dynamic) == 0 {
		return nil, nil
	}
	bytes := ir.Simplify(ir.AddE(ir.Int(k.SharedBytes), k.DynamicSharedBytes))
	return &ir.AssertStmt{
		// In int64: the sizes are checked not to wrap (noWrapCheck), but
		// their bytes could.
		Cond:    ir.Simplify(ir.LTE(widen(bytes), ir.IntConst(ir.Int64, limits.MaxShared))),
		Message: fmt.Sprintf("kernel %s needs %s bytes of shared memory (sizes known at launch: %s), over the device's limit of %d bytes per block; it needs", k.Name, ir.ExprString(bytes), strings.Join(dynamic, ", "), limits.MaxShared),
		Args:    []ir.Expr{bytes},
		Error:   &ir.Error{Code: ir.ErrSchedule, Func: dynamic[0], Directive: "store_in(GPUShared)", Legal: "smaller tiles, or fewer Funcs in shared memory"},
	}, nil
}

// layoutShared returns a copy of k with its shared memory laid out: the
// static pool, and the dynamic region (ir.LayoutDynamic). A kernel with no
// shared allocation is returned as it was.
func layoutShared(k *ir.Kernel) *ir.Kernel {
	var idx, dyn []int // indices in k.Allocs of the static and the dynamic shared allocations
	names := map[string]int{}
	for i, a := range k.Allocs {
		if a.Memory != ir.GPUShared {
			continue
		}
		if a.Dynamic {
			dyn = append(dyn, i)
			continue
		}
		if _, dup := names[a.Func]; dup {
			panic(fmt.Sprintf("kernel %s has two shared allocations named %s", k.Name, a.Func))
		}
		names[a.Func] = len(idx)
		idx = append(idx, i)
	}
	if len(idx) == 0 && len(dyn) == 0 {
		return k
	}
	nk := *k
	nk.Allocs = append([]ir.KernelAlloc(nil), k.Allocs...)
	nk.DynamicSharedBytes = ir.LayoutDynamic(nk.Allocs)
	if len(idx) == 0 {
		return sameLayout(k, &nk)
	}
	spans, barriers := sharedLifetimes(k.Body, names)
	threads := int64(1)
	for _, d := range k.Block {
		n, ok := ir.AsInt(d)
		if !ok {
			threads = 2 // unknown: as if several
			break
		}
		threads *= n
	}
	// apart reports whether a's lifetime ends, and every thread is past a
	// barrier, before b's begins.
	apart := func(a, b lifetime) bool {
		if a.last >= b.first {
			return false
		}
		if threads <= 1 {
			return true
		}
		for _, q := range barriers {
			if a.last < q && q < b.first {
				return true
			}
		}
		return false
	}
	slots := make([]ir.SharedSlot, len(idx))
	for j, i := range idx {
		a := nk.Allocs[i]
		slots[j] = ir.SharedSlot{Bytes: a.Bytes(), Align: int64(a.T.Bytes())}
	}
	offsets, total := ir.PackShared(slots, func(i, j int) bool {
		a, b := spans[i], spans[j]
		if !a.used || !b.used {
			return false
		}
		return !apart(a, b) && !apart(b, a)
	})
	for j, i := range idx {
		nk.Allocs[i].Offset = offsets[j]
	}
	if len(dyn) > 0 {
		// The dynamic pool (extern __shared__, aligned to
		// ir.SharedPoolAlign) starts after the static one, which the
		// device pads to that alignment (ptxas reports a 2436-byte
		// static pool beside a dynamic one as 2448 bytes): the static
		// size the launch and the limits count is the padded one.
		total = (total + ir.SharedPoolAlign - 1) / ir.SharedPoolAlign * ir.SharedPoolAlign
	}
	// Whole 4-byte words, for the same reason as the runtime's device
	// allocations: an atomic update of an 8- or 16-bit element is a
	// compare-and-swap of the aligned word that holds it.
	nk.SharedBytes = (total + 3) &^ 3
	return sameLayout(k, &nk)
}

// sameLayout returns k when nk, a copy of it with its shared memory laid
// out, has the layout k had, else nk.
func sameLayout(k, nk *ir.Kernel) *ir.Kernel {
	if nk.SharedBytes != k.SharedBytes || !ir.Equal(nk.DynamicSharedBytes, k.DynamicSharedBytes) {
		return nk
	}
	for i, a := range nk.Allocs {
		if a.Offset != k.Allocs[i].Offset || !ir.Equal(a.DynOffset, k.Allocs[i].DynOffset) {
			return nk
		}
	}
	return k
}

// hasCheck reports whether k's host checks hold check already.
func hasCheck(k *ir.Kernel, check ir.Stmt) bool {
	want := check.(*ir.AssertStmt)
	for _, c := range k.Checks {
		if a, ok := c.(*ir.AssertStmt); ok && a.Message == want.Message && ir.Equal(a.Cond, want.Cond) {
			return true
		}
	}
	return false
}

// lifetime is the span of top-level positions that name an allocation.
type lifetime struct {
	first, last int
	used        bool
}

// sharedLifetimes returns the lifetime of each allocation of names (by its
// index there) and the positions of the top-level barriers.
func sharedLifetimes(body ir.Stmt, names map[string]int) ([]lifetime, []int) {
	spans := make([]lifetime, len(names))
	var barriers []int
	pos := 0
	touch := func(name string) {
		i, ok := names[name]
		if !ok {
			return
		}
		if !spans[i].used {
			spans[i] = lifetime{first: pos, last: pos, used: true}
		}
		spans[i].last = pos
	}
	exprs := func(e ir.Expr) bool {
		switch e := e.(type) {
		case *ir.Load:
			touch(e.Buf)
		case *ir.Var:
			touch(e.Name)
		case *ir.Call:
			touch(e.Name)
		}
		return true
	}
	// item records everything s names at one position.
	item := func(s ir.Stmt) {
		ir.WalkStmt(s, func(x ir.Stmt) bool {
			switch x := x.(type) {
			case *ir.Store:
				touch(x.Buf)
			case *ir.Provide:
				touch(x.Func)
			case *ir.Realize:
				touch(x.Func)
			case *ir.Allocate:
				touch(x.Name)
			case *ir.ProducerConsumer:
				touch(x.Func)
				// A Tuple Func's production names its values' buffers.
				for i := 0; ; i++ {
					if _, ok := names[ir.TupleElem(x.Func, i)]; !ok {
						break
					}
					touch(ir.TupleElem(x.Func, i))
				}
			}
			return true
		}, exprs)
		pos++
	}
	var spine func(s ir.Stmt)
	spine = func(s ir.Stmt) {
		switch s := s.(type) {
		case nil:
		case *ir.Block:
			for _, x := range s.Stmts {
				spine(x)
			}
		case *ir.LetStmt:
			ir.WalkExpr(s.Value, exprs)
			pos++
			spine(s.Body)
		case *ir.ProducerConsumer:
			spine(s.Body)
		case *ir.Allocate:
			for _, e := range s.Extents {
				ir.WalkExpr(e, exprs)
			}
			pos++
			spine(s.Body)
		case *ir.Barrier:
			barriers = append(barriers, pos)
			pos++
		default:
			item(s)
		}
	}
	spine(body)
	return spans, barriers
}

// sharedLayoutText describes a kernel's shared pool, for the debug log.
func sharedLayoutText(k *ir.Kernel) string {
	var parts []string
	var sum int64
	for _, a := range k.Allocs {
		if a.Memory == ir.GPUShared && !a.Dynamic {
			parts = append(parts, fmt.Sprintf("%s at %d (%d bytes)", a.Func, a.Offset, a.Bytes()))
			sum += a.Bytes()
		}
	}
	return fmt.Sprintf("%s: %d bytes of shared memory (%d without reuse): %s", k.Name, k.SharedBytes, sum, strings.Join(parts, ", "))
}
