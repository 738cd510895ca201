package ir

import (
	"maps"
	"slices"
	"sort"
)

// The kernel record's rules that more than one package reads: the device
// limits, the shared pools' alignment, the arguments of a body, and the
// block's sizes.

// SharedPoolAlign is the alignment in bytes of the base of a kernel's
// static shared pool and of its dynamic shared region. Lowering relies on
// it (a vector of 16 bytes at an aligned pool offset is aligned:
// common_loads, vector_access) and the CUDA emitter declares the pools
// with it (__align__).
const SharedPoolAlign = 16

// DeviceLimits are the limits of the device kernels are lowered for and
// run on. Lowering refuses what a constant size breaks and checks at
// launch what is known only then; the emulator refuses a launch that
// breaks them.
type DeviceLimits struct {
	// MaxThreadsPerBlock is the most threads of one block.
	MaxThreadsPerBlock int64
	// MaxBlockDim is the most threads of a block in each dimension.
	MaxBlockDim [3]int64
	// MaxGridDim is the most blocks of a grid in each dimension.
	MaxGridDim [3]int64
	// MaxStaticShared is the most bytes of static shared memory per block.
	MaxStaticShared int64
	// MaxShared is the most bytes of shared memory per block, static and
	// dynamic together, with the opt-in for dynamic shared memory.
	MaxShared int64
}

// SM90 are the limits of an sm_90 device (H100).
var SM90 = DeviceLimits{
	MaxThreadsPerBlock: 1024,
	MaxBlockDim:        [3]int64{1024, 1024, 64},
	MaxGridDim:         [3]int64{1<<31 - 1, 65535, 65535},
	MaxStaticShared:    48 << 10,
	MaxShared:          227 << 10,
}

// OrDefault is l, or SM90 where l is the zero value.
func (l DeviceLimits) OrDefault() DeviceLimits {
	if l == (DeviceLimits{}) {
		return SM90
	}
	return l
}

// WithBody returns k with body as its body: k itself when body is k's
// body, otherwise a copy whose arguments are recomputed from body (global
// scratch buffers keep their sizes, whose variables stay arguments). The
// other facts are k's.
func (k *Kernel) WithBody(body Stmt) *Kernel {
	if body == k.Body {
		return k
	}
	nk := *k
	nk.Body = body
	nk.Args = KernelArgs(body, k.Args)
	return &nk
}

// KernelArgs returns the arguments of a kernel body: its free variables
// and the buffers it uses, buffers first, then scalars, each sorted by
// name, with Written set on the buffers it stores to. The thread and block
// indices are not arguments. scratch lists the global scratch buffers of
// the kernel (the arguments with Scratch set; other entries are ignored):
// they stay arguments with their sizes, and the variables of the sizes
// stay arguments too (the launch checks the copies with them) even where
// the body no longer uses them.
func KernelArgs(body Stmt, scratch []KernelArg) []KernelArg {
	stmts := []Stmt{body}
	for _, a := range scratch {
		if a.Scratch != nil {
			stmts = append(stmts, &Evaluate{X: a.Scratch})
		}
	}
	args := freeArgs(MakeBlock(stmts...))
	for _, a := range scratch {
		if a.Scratch == nil {
			continue
		}
		for i := range args {
			if args[i].Name == a.Name {
				args[i].Scratch, args[i].ScratchPerBlock = a.Scratch, a.ScratchPerBlock
			}
		}
	}
	return args
}

// freeArgs returns the free variables and the buffers of a kernel body,
// sorted by name (buffers first).
func freeArgs(body Stmt) []KernelArg {
	defined := map[string]int{}
	for _, n := range ThreadID {
		defined[n]++
	}
	for _, n := range BlockID {
		defined[n]++
	}
	scalars := map[string]Type{}
	bufs := map[string]*KernelArg{}
	allocated := map[string]int{}
	// inScope walks a binder's body with its name bound in scope (defined
	// or allocated).
	inScope := func(scope map[string]int, name string, body func()) {
		scope[name]++
		body()
		scope[name]--
	}
	var expr func(e Expr)
	expr = func(e Expr) {
		WalkExpr(e, func(x Expr) bool {
			switch x := x.(type) {
			case *Var:
				if defined[x.Name] == 0 {
					scalars[x.Name] = x.T
				}
			case *Load:
				if allocated[x.Buf] == 0 && bufs[x.Buf] == nil {
					bufs[x.Buf] = &KernelArg{Name: x.Buf, T: x.T, IsBuffer: true}
				}
			case *Let:
				expr(x.Value)
				inScope(defined, x.Name, func() { expr(x.Body) })
				return false
			}
			return true
		})
	}
	var stmt func(s Stmt)
	stmt = func(s Stmt) {
		switch x := s.(type) {
		case nil:
		case *LetStmt:
			expr(x.Value)
			inScope(defined, x.Name, func() { stmt(x.Body) })
		case *For:
			expr(x.Min)
			expr(x.Extent)
			inScope(defined, x.Name, func() { stmt(x.Body) })
		case *Allocate:
			for _, e := range x.Extents {
				expr(e)
			}
			inScope(allocated, x.Name, func() { stmt(x.Body) })
		case *Store:
			expr(x.Index)
			expr(x.Value)
			if allocated[x.Buf] == 0 {
				if bufs[x.Buf] == nil {
					bufs[x.Buf] = &KernelArg{Name: x.Buf, T: x.Value.Type(), IsBuffer: true}
				}
				bufs[x.Buf].Written = true
			}
		default:
			WalkStmt(s, func(y Stmt) bool {
				if y == s {
					return true
				}
				stmt(y)
				return false
			}, func(e Expr) bool { expr(e); return false })
		}
	}
	stmt(body)
	var out []KernelArg
	for _, n := range slices.Sorted(maps.Keys(bufs)) {
		out = append(out, *bufs[n])
	}
	for _, n := range slices.Sorted(maps.Keys(scalars)) {
		out = append(out, KernelArg{Name: n, T: scalars[n]})
	}
	return out
}

// BlockSize is the block's size in each dimension where it is a constant,
// and 0 where it is known only at launch.
func (k *Kernel) BlockSize() [3]int64 {
	var out [3]int64
	for d, e := range k.Block {
		if e == nil {
			out[d] = 1
		} else if c, ok := AsInt(Simplify(e)); ok {
			out[d] = c
		}
	}
	return out
}

// Threads is the number of threads per block, or 0 when it is known only
// at launch.
func (k *Kernel) Threads() int64 {
	b := k.BlockSize()
	return b[0] * b[1] * b[2]
}

// ThreadsExpr is the number of threads per block.
func (k *Kernel) ThreadsExpr() Expr {
	return Simplify(MulE(MulE(k.Block[0], k.Block[1]), k.Block[2]))
}

// LinearThreadID is the index of the thread within its block (x fastest).
func (k *Kernel) LinearThreadID() Expr {
	b := k.BlockSize()
	e := Expr(NewVar(ThreadID[0]))
	if b[1] != 1 {
		e = AddE(e, MulE(NewVar(ThreadID[1]), k.Block[0]))
	}
	if b[2] != 1 {
		e = AddE(e, MulE(NewVar(ThreadID[2]), MulE(k.Block[0], k.Block[1])))
	}
	return Simplify(e)
}

// AllocOf is the record of allocation a: its element count is the
// product of its extents, a constant where that is one, else the
// expression (Dynamic: known only at launch). gpu_kernels records every
// allocation of a kernel with it.
func AllocOf(a *Allocate) KernelAlloc {
	ka := KernelAlloc{Func: a.Name, T: a.T, Memory: a.Memory}
	size := Expr(Int(1))
	for _, e := range a.Extents {
		size = Simplify(MulE(size, e))
	}
	if n, ok := AsInt(size); ok {
		ka.Elems = n
	} else {
		ka.Dynamic, ka.Size = true, size
	}
	return ka
}

// LayoutDynamic places the dynamic GPUShared allocations of allocs in the
// dynamic shared region, setting their DynOffset, and returns the region's
// size in bytes (nil when there are none). They go by decreasing element
// size, then in order, so that with power-of-two element sizes no padding
// comes between them and their offsets are plain sums.
func LayoutDynamic(allocs []KernelAlloc) Expr {
	var dyn []int
	for i, a := range allocs {
		if a.Memory == GPUShared && a.Dynamic {
			dyn = append(dyn, i)
		}
	}
	if len(dyn) == 0 {
		return nil
	}
	sort.SliceStable(dyn, func(i, j int) bool { return allocs[dyn[i]].T.Bytes() > allocs[dyn[j]].T.Bytes() })
	off := Expr(Int(0))
	for _, i := range dyn {
		a := &allocs[i]
		a.DynOffset = off
		off = Simplify(AddE(off, MulE(a.Size, Int(int64(a.T.Bytes())))))
	}
	return off
}

// Recorded returns k when its record lists its allocations (every kernel
// lowering makes) or its body has none. A kernel built by hand (in tests)
// with allocations and no record gets a copy whose record is derived from
// its body, by the rules lowering uses: element counts (AllocOf, the lets
// in scope substituted into shared sizes), the static pool without reuse
// (PackShared, every pair overlapping) and the dynamic region
// (LayoutDynamic).
func (k *Kernel) Recorded() *Kernel {
	if len(k.Allocs) > 0 || k.Body == nil {
		return k
	}
	v := &kernelVerifier{k: k, args: map[string]KernelArg{}}
	for _, a := range k.Args {
		v.args[a.Name] = a
	}
	shared, _ := v.sharedAllocs()
	var allocs []KernelAlloc
	isShared := map[*Allocate]bool{}
	for _, s := range shared {
		isShared[s.a] = true
		sized := *s.a // its size in one extent, the lets in scope substituted
		sized.Extents = []Expr{s.size}
		allocs = append(allocs, AllocOf(&sized))
	}
	WalkStmt(k.Body, func(x Stmt) bool {
		if a, ok := x.(*Allocate); ok && !isShared[a] && a.Memory != GPUShared {
			allocs = append(allocs, AllocOf(a))
		}
		return true
	}, nil)
	if len(allocs) == 0 {
		return k
	}
	nk := *k
	nk.Allocs = allocs
	var slots []SharedSlot
	var idx []int
	for i, a := range allocs {
		if a.Memory == GPUShared && !a.Dynamic {
			slots = append(slots, SharedSlot{Bytes: a.Bytes(), Align: int64(a.T.Bytes())})
			idx = append(idx, i)
		}
	}
	offsets, total := PackShared(slots, nil)
	for j, i := range idx {
		nk.Allocs[i].Offset = offsets[j]
	}
	nk.SharedBytes = total
	nk.DynamicSharedBytes = LayoutDynamic(nk.Allocs)
	return &nk
}
