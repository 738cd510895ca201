package ir

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

func (*Barrier) isStmt() {}
func (*Comment) isStmt() {}

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
}

// KernelAlloc describes one allocation of a kernel, for reports.
type KernelAlloc struct {
	Func   string
	T      Type
	Memory MemoryType
	// Elems is the number of elements (per block for GPUShared, per
	// thread for Register); Dynamic is set when it is only known at launch,
	// in which case Elems is the expression (over kernel arguments).
	Elems   int64
	Dynamic bool
	Size    Expr
	// SharedAcross lists the thread dimensions ("x", "y", "z") along which
	// the allocation is one copy shared by the block's threads.
	SharedAcross []string
}

// Bytes is the allocation's size in bytes (0 when dynamic).
func (a KernelAlloc) Bytes() int64 { return a.Elems * int64(a.T.Bytes()) }

// Kernel is one GPU kernel.
type Kernel struct {
	Name string
	// Grid and Block are the launch dimensions: Grid in terms of the host's
	// variables, Block constants.
	Grid, Block [3]Expr
	Args        []KernelArg
	// Body is run by every thread. Its GPUShared allocations come first,
	// one copy per block; other allocations are per thread.
	Body     Stmt
	Allocs   []KernelAlloc
	Barriers int
}

// Launch runs a kernel from the host statement.
type Launch struct{ Kernel *Kernel }

func (*Launch) isStmt() {}
