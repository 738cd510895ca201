package ir

import "sort"

// GPU constructs. After GPU lowering, each kernel is a Kernel: a body that
// every thread of every block runs (SPMD), in which the thread and block
// indices are the variables ThreadID[d] and BlockID[d]; the host statement
// starts it with a Launch.

// Barrier is gpu_thread_barrier(fence): every thread of the block waits
// until all have reached it, and the memory the fence names is made
// consistent. Reason says why the compiler put it there.
type Barrier struct {
	Fence  int
	Reason string
}

// Barrier fences (a bit mask).
const (
	FenceNone   = 0
	FenceDevice = 1
	FenceShared = 2
)

// Comment is a note carried to generated code (it does nothing).
type Comment struct{ Text string }

// LoadVector marks the start of Body: Lanes nested lets that bind Lanes
// consecutive elements of one buffer, let n0 = B[i], let n1 = B[i + 1],
// ..., where lowering proved i a multiple of Lanes and B's first element
// aligned to Lanes elements, so that a backend may load them as one vector
// (CUDA: float2, float4, int4). The lets and everything in their scope are
// Body; the mark changes nothing else (the CPU runs Body, checking that i
// is a multiple of Lanes).
type LoadVector struct {
	Lanes int
	Body  Stmt
}

// VectorLanes returns the loads of a LoadVector's lets, in lane order, and
// the statement in their scope; ok is false when Body does not start with
// Lanes lets of loads from one buffer.
func (s *LoadVector) VectorLanes() (names []string, loads []*Load, rest Stmt, ok bool) {
	rest = s.Body
	for len(loads) < s.Lanes {
		l, isLet := rest.(*LetStmt)
		if !isLet {
			return nil, nil, nil, false
		}
		ld, isLoad := l.Value.(*Load)
		if !isLoad || len(loads) > 0 && (ld.Buf != loads[0].Buf || ld.T != loads[0].T) {
			return nil, nil, nil, false
		}
		names = append(names, l.Name)
		loads = append(loads, ld)
		rest = l.Body
	}
	return names, loads, rest, s.Lanes > 0
}

// StoreVector marks Body, a Block of Lanes stores to one buffer at
// consecutive indexes, B[i] = v0; B[i + 1] = v1; ..., where i is a
// multiple of Lanes and B's first element is aligned to Lanes elements
// (lowering proved both, or an enclosing branch tests them), so that a
// backend may store the lanes as one vector. The values are evaluated
// before any lane is stored. The CPU runs the stores in order, checking
// that i is a multiple of Lanes.
type StoreVector struct {
	Lanes int
	Body  Stmt
}

// VectorStores returns the stores of a StoreVector in lane order; ok is
// false when Body is not Lanes non-atomic stores to one buffer, of one
// type, each at the previous index plus one.
func (s *StoreVector) VectorStores() (stores []*Store, ok bool) {
	b, isBlock := s.Body.(*Block)
	if !isBlock || len(b.Stmts) != s.Lanes || s.Lanes < 2 {
		return nil, false
	}
	for i, x := range b.Stmts {
		st, isStore := x.(*Store)
		if !isStore || st.Atomic {
			return nil, false
		}
		if i > 0 {
			first := stores[0]
			if st.Buf != first.Buf || st.Value.Type() != first.Value.Type() {
				return nil, false
			}
			if d, isConst := AsInt(Simplify(SubE(st.Index, first.Index))); !isConst || d != int64(i) {
				return nil, false
			}
		}
		stores = append(stores, st)
	}
	return stores, true
}

// VectorLanesOK reports whether n lanes of t make one vector that a GPU
// loads or stores with one instruction: 2 or 4 lanes of a 32-bit int or
// float, 2 of a float64 (16 bytes at most).
func VectorLanesOK(t Type, n int) bool {
	switch t {
	case Float32, Int32, UInt32:
		return n == 2 || n == 4
	case Float64:
		return n == 2
	}
	return false
}

func (*Barrier) isStmt()     {}
func (*Comment) isStmt()     {}
func (*LoadVector) isStmt()  {}
func (*StoreVector) isStmt() {}

// ThreadID and BlockID name the index variables of a kernel body (int32).
var (
	ThreadID = [3]string{"thread_id_x", "thread_id_y", "thread_id_z"}
	BlockID  = [3]string{"block_id_x", "block_id_y", "block_id_z"}
)

// KernelArg is an argument of a kernel: a scalar (a Param, a buffer's
// min/extent/stride, or a host loop variable) or a buffer.
type KernelArg struct {
	Name     string
	T        Type
	IsBuffer bool
	// Written is true for buffers the kernel stores to.
	Written bool
	// Scratch, for a buffer of global scratch (store_in(Heap) inside the
	// kernel), is the number of elements of one copy: copy c (the
	// thread's index in the grid, or the block's when ScratchPerBlock) is
	// elements [c*Scratch, (c+1)*Scratch). The emulator checks that each
	// thread stays in its copy.
	Scratch         Expr
	ScratchPerBlock bool
}

// KernelAlloc is one allocation of a kernel: its part of the kernel
// record. gpu_kernels creates it; gpu_shared_reuse sets the offsets. The
// emulator, the CUDA emitter and the report read it and recompute none of
// it.
type KernelAlloc struct {
	Func   string     // gpu_kernels
	T      Type       // gpu_kernels
	Memory MemoryType // gpu_memory decides it; gpu_kernels copies it here
	// Elems is the number of elements (per block for GPUShared, per
	// thread for Register); Dynamic is set when it is only known at launch,
	// in which case Size is the expression (over kernel arguments). Set by
	// gpu_kernels.
	Elems   int64
	Dynamic bool
	Size    Expr
	// SharedAcross lists the thread dimensions ("x", "y", "z") along which
	// the allocation is one copy shared by the block's threads, and
	// PerThread those along which each thread has its own part (the
	// dimensions of the thread loops its region depends on, which
	// allocation_bounds recorded on the Allocate). Set by gpu_kernels, from
	// Kernel.ThreadDims; only for GPUShared.
	SharedAcross []string
	PerThread    []string
	// PerBlock marks a Heap allocation (global scratch) of one copy per
	// block, shared by its threads; other Heap allocations of a kernel
	// are one copy per thread. Set by gpu_kernels.
	PerBlock bool
	// Offset is the byte offset of a static GPUShared allocation in the
	// kernel's static shared pool (Kernel.SharedBytes), set by
	// gpu_shared_reuse: allocations whose lifetimes do not overlap may have
	// overlapping bytes. It is a multiple of the element size.
	Offset int64
	// DynOffset is the byte offset of a dynamic GPUShared allocation in
	// the kernel's dynamic shared region (Kernel.DynamicSharedBytes bytes,
	// after the static pool), over the kernel's scalar arguments; nil for
	// every other allocation. Set by gpu_shared_reuse.
	DynOffset Expr
}

// Bytes is the allocation's size in bytes (0 when dynamic).
func (a KernelAlloc) Bytes() int64 { return a.Elems * int64(a.T.Bytes()) }

// Kernel is the one record of a GPU kernel's facts. A pass that decides a
// fact sets it in a new Kernel (a copy); no pass edits a Kernel in place,
// so a *Kernel in a Launch is a value, and one pointer means one kernel.
// Each field says which pass sets it. The emulator, the CUDA emitter and
// the report read it; Verify checks that a body and its record agree.
type Kernel struct {
	Name string // gpu_kernels
	// Grid and Block are the launch dimensions: Grid in terms of the host's
	// variables (gpu_kernels), Block the size in each dimension: a
	// constant, or an expression of the host's values where a thread
	// loop's extent is known only at launch (gpu_block_size decides it;
	// gpu_kernels replaces the max_over the blocks in it by a host let).
	Grid, Block [3]Expr
	// ThreadDims is the thread dimension (0 = x, 1 = y, 2 = z) of each
	// thread loop of the kernel, by loop name (gpu_block_size).
	ThreadDims map[string]int
	// Args are the buffers and scalars the body uses from the host
	// (gpu_kernels; WithBody recomputes them).
	Args []KernelArg
	// Body is run by every thread. Its GPUShared allocations come first,
	// one copy per block; other allocations are per thread. gpu_kernels
	// sets it; gpu_partition, common_loads and vector_access replace it
	// (WithBody).
	Body Stmt
	// Allocs are the kernel's allocations, in body order (gpu_kernels;
	// gpu_shared_reuse sets their offsets).
	Allocs []KernelAlloc
	// Barriers is the number of barriers in the body gpu_kernels extracted
	// (gpu_kernels), what one block reaches.
	Barriers int
	// SharedBytes is the size of the static shared pool that holds the
	// static GPUShared allocations at their Offsets (gpu_shared_reuse);
	// zero when the kernel has none.
	SharedBytes int64
	// DynamicSharedBytes is the size in bytes of the dynamic shared region
	// (the GPUShared allocations whose sizes are known only at launch, at
	// their DynOffsets), over the kernel's scalar arguments; nil when the
	// kernel has none (gpu_shared_reuse). The region comes after the
	// static pool; the kernel needs SharedBytes + DynamicSharedBytes.
	DynamicSharedBytes Expr
	// HostLets are the values the host computes before each launch and
	// passes as arguments: sizes known only at launch, such as the largest
	// shared footprint over the blocks (an IntrinsicMaxOver). The launch
	// statement binds them; they are listed here for reports (gpu_kernels).
	HostLets []HostLet
	// SingleThread lists the stages of shared productions that run on the
	// block's first thread only (nothing to deal out: gpu_cooperative).
	SingleThread []string
	// Shares are the kernel's cooperative productions, by the name of
	// their share loop: the serial loop in which the block's threads deal
	// out the points of a shared Func's stage (gpu_cooperative). Passes
	// read a loop's role here, never from its name.
	Shares map[string]ShareLoop
	// Checks are the host's checks before each launch of rules whose
	// values are known only then (AssertStmts with an Error): the block
	// size (gpu_kernels), the shared memory limit (gpu_shared_reuse).
	Checks []Stmt
	// Case is the condition under which the kernel is launched, where it
	// is one case of a specialization (the conditions of the cases on the
	// way to it; nil: every run). For reports.
	Case Expr
}

// ShareLoop is a cooperative production: the Func whose stage the loop
// deals out, and the let that binds each thread's flat index in it (""
// for a stage with nothing to deal out, run by the block's first thread).
type ShareLoop struct {
	Func, Index string
}

// HostLet is a value computed on the host before a launch.
type HostLet struct {
	Name  string
	Value Expr
}

// SharedSlot is an allocation to place in a shared pool: its size in bytes
// and its element size (its alignment, a power of two).
type SharedSlot struct {
	Bytes, Align int64
}

// PackShared places slots in one pool and returns their byte offsets and
// the pool's size. Slots i and j whose lifetimes overlap (overlap(i, j),
// nil meaning always) get disjoint bytes; others may share. The algorithm:
// slots in order of decreasing alignment, then decreasing size, then
// index; each goes at the lowest offset, a multiple of its alignment, where
// it overlaps no placed slot that it conflicts with (first fit). Widest
// first, with power-of-two alignments, means every candidate offset (0 or
// the end of a placed slot) is already aligned.
func PackShared(slots []SharedSlot, overlap func(i, j int) bool) (offsets []int64, total int64) {
	order := make([]int, len(slots))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		x, y := slots[order[a]], slots[order[b]]
		if x.Align != y.Align {
			return x.Align > y.Align
		}
		return x.Bytes > y.Bytes
	})
	offsets = make([]int64, len(slots))
	var placed []int
	for _, i := range order {
		s := slots[i]
		align := max(s.Align, 1)
		var busy [][2]int64
		for _, j := range placed {
			if overlap == nil || overlap(i, j) || overlap(j, i) {
				busy = append(busy, [2]int64{offsets[j], offsets[j] + slots[j].Bytes})
			}
		}
		sort.Slice(busy, func(a, b int) bool { return busy[a][0] < busy[b][0] })
		off := int64(0)
		for _, r := range busy {
			if off+s.Bytes <= r[0] {
				break
			}
			if r[1] > off {
				off = (r[1] + align - 1) / align * align
			}
		}
		offsets[i] = off
		total = max(total, off+s.Bytes)
		placed = append(placed, i)
	}
	return offsets, total
}

// Launch runs a kernel from the host statement.
type Launch struct{ Kernel *Kernel }

func (*Launch) isStmt() {}

// The loops gpu_single_thread adds outermost to a stage (Halide's
// Stage::gpu_single_thread): a block loop and a thread loop of extent 1,
// so that the stage runs as a kernel of one block of one thread. They
// stand for no variable of the stage.
const (
	SingleBlockDim  = "__gpu_single_block"
	SingleThreadDim = "__gpu_single_thread"
)

// IsSingleThreadDim reports whether the loop (qualified or short name) is
// one that gpu_single_thread added.
func IsSingleThreadDim(name string) bool {
	return MatchDim(name, SingleBlockDim) || MatchDim(name, SingleThreadDim)
}
