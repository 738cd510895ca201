package emulator

// The GPU emulator: runs host statements that launch kernels on the CPU,
// with GPU semantics and checks. See doc.go for the model.

import (
	"errors"
	"fmt"
	"iter"
	"reflect"
	"strings"
	"sync"

	"github.com/gohalide/gohalide/cpu"
	"github.com/gohalide/gohalide/ir"
)

// Emulator runs lowered programs whose kernels execute on the CPU with GPU
// semantics. The zero value is ready to use with every check on. Set the
// fields before the first Run or Launch. An Emulator caches compiled host
// statements and kernels by pointer (IR nodes are immutable) and may be used
// from several goroutines at once.
type Emulator struct {
	// NoRaceCheck turns off the shared-memory race check.
	NoRaceCheck bool
	// NoUninitCheck turns off the check that reports a read of shared
	// memory no thread of the block has written since the allocation.
	// Shared memory is still filled with a emuPoison value (NaN for floats,
	// bytes 0xA5 for integers, true for bools) at the start of each block.
	NoUninitCheck bool
	// Trace, if set, receives the stores to Funcs that trace them
	// (cpu.Options.Trace), from the kernels' threads (concurrently).
	Trace func(fn string, coords []int64, value float64)
	// Limits are the device's limits the launches are checked against
	// (zero: ir.SM90), the ones lowering used.
	Limits ir.DeviceLimits

	mu      sync.Mutex
	kernels map[*ir.Kernel]*emuKernel
	hosts   map[ir.Stmt]*cpu.Program
	stats   Stats
}

// Stats counts what an Emulator has run.
type Stats struct {
	Launches int64 // kernel launches
	Blocks   int64 // blocks run
	Threads  int64 // threads run
	Barriers int64 // barriers passed, counted once per block
}

// Stats returns the counts of everything run so far.
func (e *Emulator) Stats() Stats {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.stats
}

// ErrorKind classifies the errors of the emulator.
type ErrorKind uint8

// The kinds of EmulatorError.
const (
	// OutOfBounds: a load or store outside a global or shared buffer.
	OutOfBounds ErrorKind = iota + 1
	// SharedRace: two threads of a block accessed the same shared element
	// between two barriers, at least one writing, not both atomically.
	SharedRace
	// UninitializedRead: a thread read a shared element that no thread of
	// the block has written since the allocation.
	UninitializedRead
	// DivergentBarrier: some threads of a block wait at a barrier that
	// others finished the kernel without reaching or where others wait at
	// a different barrier.
	DivergentBarrier
	// BadLaunch: invalid launch dimensions, shared memory over the device
	// limit, or missing or mistyped arguments.
	BadLaunch
	// BadKernel: the kernel cannot be compiled or does not respect the
	// kernel contract (a variable or buffer that is not an argument, a
	// store to an argument not marked Written, a misplaced shared
	// allocation, ...): a bug of the compiler that made it.
	BadKernel
	// ThreadFailed: another run-time error in a thread (a failed
	// assertion, a bad allocation size).
	ThreadFailed
	// Internal: a failure of the emulator itself.
	Internal
	// SharedReuse: an allocation of the kernel's static shared pool read an
	// element it had written, but another allocation laid out on the same
	// bytes (ir.KernelAlloc.Offset) wrote them since: their lifetimes
	// overlap, so the layout's reuse is wrong.
	SharedReuse
	// Canceled: the run's cpu.Env was stopped (its context is done); Err
	// is the *cpu.Error, which wraps the context's error.
	Canceled
	// AllocationTooLarge: an allocation of a thread or of the block's
	// shared memory needs more bytes than the cpu.Env allows.
	AllocationTooLarge
	// DivergentShuffle: a thread of a warp evaluates a warp shuffle that
	// another thread of its warp does not reach with it (it ended, waits
	// at a barrier or at another shuffle).
	DivergentShuffle
)

func (k ErrorKind) String() string {
	switch k {
	case OutOfBounds:
		return "OutOfBounds"
	case SharedRace:
		return "SharedRace"
	case UninitializedRead:
		return "UninitializedRead"
	case DivergentBarrier:
		return "DivergentBarrier"
	case BadLaunch:
		return "BadLaunch"
	case BadKernel:
		return "BadKernel"
	case ThreadFailed:
		return "ThreadFailed"
	case Internal:
		return "Internal"
	case SharedReuse:
		return "SharedReuse"
	case Canceled:
		return "Canceled"
	case DivergentShuffle:
		return "DivergentShuffle"
	case AllocationTooLarge:
		return "AllocationTooLarge"
	}
	return fmt.Sprintf("ErrorKind(%d)", k)
}

// EmulatorError is an error found while running a kernel. Fields that do
// not apply to the Kind are zero.
type EmulatorError struct {
	Kind   ErrorKind
	Kernel string
	// Buffer is the buffer (the Func, for shared memory) accessed.
	Buffer string
	// Shared is set when Buffer is a GPUShared allocation of the kernel.
	Shared bool
	// Barrier is the Reason of the barrier (DivergentBarrier).
	Barrier string
	// Block and Thread are the indices of the thread that failed (for
	// DivergentBarrier: a thread that did not arrive at the barrier).
	Block, Thread [3]int
	// OtherThread is, for SharedRace, the thread of the earlier of the two
	// accesses, for SharedReuse the thread that wrote the other allocation
	// and, for DivergentBarrier, a thread waiting at the barrier.
	OtherThread [3]int
	// Other is, for SharedReuse, the allocation that wrote the bytes.
	Other string
	// Index is the flat element index (OutOfBounds, SharedRace,
	// UninitializedRead, SharedReuse); Size the buffer's length
	// (OutOfBounds).
	Index, Size int64
	// Msg is the whole one-line message that Error returns.
	Msg string
	// Err is the underlying error (a *cpu.Error), if any.
	Err error
}

func (e *EmulatorError) Error() string {
	if e == nil {
		return "<nil>"
	}
	return e.Msg
}

// Unwrap returns the underlying error.
func (e *EmulatorError) Unwrap() error {
	if e == nil {
		return nil
	}
	return e.Err
}

func emuDim3(d [3]int) string { return fmt.Sprintf("(%d,%d,%d)", d[0], d[1], d[2]) }

// Compile compiles a host statement whose ir.Launch statements run their
// kernels on the emulator. Its Params and Buffers are those of the host
// statement, kernel arguments included.
func (e *Emulator) Compile(host ir.Stmt) (*cpu.Program, error) {
	e.mu.Lock()
	p, ok := e.hosts[host]
	e.mu.Unlock()
	if ok {
		return p, nil
	}
	p, err := cpu.CompileWith(host, cpu.Options{
		Launch: func(ctx any, k *ir.Kernel, grid, block [3]int, scalars, buffers map[string]any) error {
			env, _ := ctx.(*cpu.Env)
			return e.LaunchEnv(env, k, grid, block, scalars, buffers)
		},
	})
	if err != nil {
		return nil, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.hosts == nil {
		e.hosts = map[ir.Stmt]*cpu.Program{}
	}
	e.hosts[host] = p
	return p, nil
}

// Run compiles (once) and runs a host statement; each ir.Launch in it runs
// its kernel with Launch. Arguments are as for cpu.Program.Run. The error is
// a *cpu.Error for errors of the host code, an *EmulatorError for errors in
// kernels, or the compile error.
func (e *Emulator) Run(host ir.Stmt, scalars, buffers map[string]any) error {
	return e.RunEnv(nil, host, scalars, buffers)
}

// RunEnv is Run in the environment env (see cpu.Env; nil: never stopped,
// the default allocation limit), shared by the host code and every thread
// of every kernel it launches: a stopped env ends the run at the next
// block or loop iteration of a thread.
func (e *Emulator) RunEnv(env *cpu.Env, host ir.Stmt, scalars, buffers map[string]any) error {
	p, err := e.Compile(host)
	if err != nil {
		return err
	}
	// The host's hook context is the Env: its launches pass it on.
	return p.RunEnv(env, env, scalars, buffers)
}

// Launch runs kernel k over grid × block threads. scalars holds the values
// of the kernel's scalar arguments and buffers the slices of its buffer
// arguments (see cpu.Options.Launch). The blocks run one after another in
// order (x fastest); the threads of a block run one at a time, in order of
// their linear index (x fastest), each until it reaches a barrier or ends.
// The error, if any, is an *EmulatorError.
func (e *Emulator) Launch(k *ir.Kernel, grid, block [3]int, scalars, buffers map[string]any) error {
	return e.LaunchEnv(nil, k, grid, block, scalars, buffers)
}

// LaunchEnv is Launch in the environment env (see RunEnv): the launch
// stops between blocks, and the threads at their next loop iteration,
// once env is stopped, with a Canceled error; allocations are checked
// against env's limit.
func (e *Emulator) LaunchEnv(env *cpu.Env, k *ir.Kernel, grid, block [3]int, scalars, buffers map[string]any) (err error) {
	defer func() {
		if r := recover(); r != nil {
			name := ""
			if k != nil {
				name = k.Name
			}
			err = &EmulatorError{Kind: Internal, Kernel: name,
				Msg: fmt.Sprintf("gpu emulator: kernel %s: internal error: %v", name, r)}
		}
	}()
	if k == nil {
		return &EmulatorError{Kind: BadKernel, Msg: "gpu emulator: launch of a nil kernel"}
	}
	kc, err := e.kernel(k)
	if err != nil {
		return err
	}
	l, err := e.newLaunch(env, kc, grid, block, scalars, buffers)
	if err != nil {
		return err
	}
	err = l.run()
	e.mu.Lock()
	e.stats.Launches++
	e.stats.Blocks += l.blocksRun
	e.stats.Threads += l.blocksRun * int64(len(l.threads))
	e.stats.Barriers += l.barriers
	e.mu.Unlock()
	return err
}

// emuKernel is a compiled kernel.
type emuKernel struct {
	k          *ir.Kernel   // its record (ir.Kernel.Recorded)
	prog       *cpu.Program // the body without its shared allocations
	shared     []emuSharedAlloc
	sizes      *cpu.Program // stores the dynamic sizes into emuSizeBuf
	nSizes     int
	hasBarrier bool
	scalarArgs []ir.KernelArg
	bufferArgs []ir.KernelArg
	scratch    []ir.KernelArg // the buffer arguments that are global scratch
}

type emuSharedAlloc struct {
	name   string
	t      ir.Type
	rec    ir.KernelAlloc // its record: elements (or size) and offset
	static bool           // the size is a constant (static shared memory)
	size   int            // position of a dynamic size in the sizes buffer
}

const emuSizeBuf = "gpu.emulator.shared_sizes"

func (e *Emulator) kernel(k *ir.Kernel) (*emuKernel, error) {
	e.mu.Lock()
	kc, ok := e.kernels[k]
	e.mu.Unlock()
	if ok {
		return kc, nil
	}
	kc, err := emuCompileKernel(k, e.Trace)
	if err != nil {
		return nil, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.kernels == nil {
		e.kernels = map[*ir.Kernel]*emuKernel{}
	}
	e.kernels[k] = kc
	return kc, nil
}

func emuBadKernel(k *ir.Kernel, format string, args ...any) *EmulatorError {
	return &EmulatorError{Kind: BadKernel, Kernel: k.Name,
		Msg: fmt.Sprintf("gpu emulator: kernel %s: ", k.Name) + fmt.Sprintf(format, args...)}
}

// errEmuAbort ends the threads of a block that is stopped.
var errEmuAbort = errors.New("gpu emulator: block aborted")

func emuIsIndexVar(name string) bool {
	for d := range 3 {
		if name == ir.ThreadID[d] || name == ir.BlockID[d] {
			return true
		}
	}
	return false
}

func emuCompileKernel(k *ir.Kernel, trace func(fn string, coords []int64, value float64)) (*emuKernel, error) {
	// The contract (ir.Kernel.Verify), then the record's facts: the
	// emulator recomputes none of them.
	if err := k.Verify(); err != nil {
		return nil, emuBadKernel(k, "%v", err)
	}
	k = k.Recorded()
	kc := &emuKernel{k: k}
	for _, a := range k.Args {
		if a.IsBuffer {
			kc.bufferArgs = append(kc.bufferArgs, a)
		} else {
			kc.scalarArgs = append(kc.scalarArgs, a)
		}
	}

	// Strip the shared allocations.
	st := &emuStripper{}
	body := st.stmt(k.Body)
	ids := map[string]int{}
	for i, a := range st.allocs {
		ids[a.Name] = i
	}
	// Global scratch buffers are watched too, after the shared ones: each
	// thread must stay in its copy.
	for _, a := range kc.bufferArgs {
		if a.Scratch != nil {
			ids[a.Name] = len(st.allocs) + len(kc.scratch)
			kc.scratch = append(kc.scratch, a)
		}
	}

	// The shared allocations as recorded, and the dynamic sizes (over the
	// scalar arguments) as one program.
	var sizeStmts []ir.Stmt
	dynamic := func(e ir.Expr) int {
		sizeStmts = append(sizeStmts, &ir.Store{Buf: emuSizeBuf, Index: ir.Int(int64(kc.nSizes)), Value: &ir.Cast{T: ir.Int64, X: e}})
		kc.nSizes++
		return kc.nSizes - 1
	}
	for _, a := range st.allocs {
		sa := emuSharedAlloc{name: a.Name, t: a.T}
		for _, r := range k.Allocs {
			if r.Func == a.Name && r.Memory == ir.GPUShared && !r.PerBlock {
				sa.rec = r
				break
			}
		}
		sa.static = !sa.rec.Dynamic
		if !sa.static {
			sa.size = dynamic(sa.rec.Size)
		}
		kc.shared = append(kc.shared, sa)
	}
	if kc.nSizes > 0 {
		dynamic(k.DynamicSharedBytes)
		p, err := cpu.Compile(ir.MakeBlock(sizeStmts...))
		if err != nil {
			return nil, emuBadKernel(k, "sizes of the shared allocations: %v", err)
		}
		kc.sizes = p
	}

	// The body, run by every thread.
	ir.WalkStmt(body, func(s ir.Stmt) bool {
		if _, ok := s.(*ir.Barrier); ok {
			kc.hasBarrier = true
		}
		return true
	}, nil)
	// Threads meet at warp shuffles as at barriers (each yields there).
	kc.hasBarrier = kc.hasBarrier || ir.HasShuffle(body)
	opts := cpu.Options{
		Barrier: emuBarrier,
		Shuffle: emuShuffle,
		Watch: func(buf string) (int, bool) {
			id, ok := ids[buf]
			return id, ok
		},
		Access: emuAccess,
		Poison: true,
		Trace:  trace,
	}
	prog, err := cpu.CompileWith(body, opts)
	if err != nil {
		return nil, emuBadKernel(k, "%v", err)
	}
	// The body is checked as lowering made it (above); the threads run it
	// with its common subexpressions bound to lets (emucse.go), which
	// computes the same values with the same accesses in the same order.
	if cse := emuCSE(body); cse != body {
		if prog, err = cpu.CompileWith(cse, opts); err != nil {
			return nil, &EmulatorError{Kind: Internal, Kernel: k.Name,
				Msg: fmt.Sprintf("gpu emulator: kernel %s: internal error: the body with its common subexpressions bound does not compile: %v", k.Name, err)}
		}
	}
	kc.prog = prog
	return kc, nil
}

// emuStripper takes the GPUShared allocations out of a kernel body: the
// allocations in body order (ir.Kernel.Verify checked where they are).
type emuStripper struct {
	allocs []*ir.Allocate
}

func (s *emuStripper) stmt(x ir.Stmt) ir.Stmt {
	switch x := x.(type) {
	case *ir.Allocate:
		if x.Memory == ir.GPUShared {
			s.allocs = append(s.allocs, x)
			return s.stmt(x.Body)
		}
		a := *x
		a.Body = s.stmt(x.Body)
		return &a
	case *ir.LetStmt:
		l := *x
		l.Body = s.stmt(x.Body)
		return &l
	case *ir.ProducerConsumer:
		pc := *x
		pc.Body = s.stmt(x.Body)
		return &pc
	case *ir.Block:
		out := make([]ir.Stmt, len(x.Stmts))
		for i, y := range x.Stmts {
			out[i] = s.stmt(y)
		}
		return &ir.Block{Stmts: out}
	}
	return x // no shared allocation below (ir.Kernel.Verify)
}

// emuLaunch is the state of one kernel launch.
type emuLaunch struct {
	e          *Emulator
	env        *cpu.Env // nil: never stopped, the default limit
	kc         *emuKernel
	grid, dims [3]int
	scalars    map[string]any // scalar args
	buffers    map[string]any // buffer args and the shared buffers
	shared     []emuSharedBuf
	threads    []*emuThread
	checkRace  bool
	checkInit  bool

	blockID [3]int
	blockNo uint32         // serial number of the current block, from 1
	epoch   uint32         // serial number of the current barrier interval, from 1
	phase   int            // barriers the current block has passed
	race    *EmulatorError // the first race found
	uninit  *EmulatorError // the first uninitialized read found
	reuse   *EmulatorError // the first read of bytes another allocation wrote
	// scratchElems is the size of one copy of each global scratch buffer
	// (kc.scratch) at this launch.
	scratchElems []int64
	pool         *emuPool // the static shared pool, when allocations share bytes
	// runner runs the body for every thread of a kernel without barriers
	// (made at the first thread; the threads of a kernel with barriers have
	// their own).
	runner    *emuRunner
	blocksRun int64
	barriers  int64
}

type emuSharedBuf struct {
	name   string
	t      ir.Type
	data   any // the []T given to the threads
	shadow []emuCell
	// In a pool whose allocations share bytes (pooled): the byte offset,
	// the length, and the block that last wrote each element.
	pooled bool
	off, n int64
	wrote  []uint32
}

// emuPool is the shadow of a static shared pool in which allocations share
// bytes (ir.KernelAlloc.Offset). Each allocation keeps its own slice of
// data, but the race check and the ownership of bytes are tracked here per
// granule of the pool (the smallest element size of its allocations), so
// that aliased bytes are one memory: a thread writing f3 races with one
// reading f1 at the same bytes, and a read of f1 after f3 wrote its bytes
// is a SharedReuse error.
type emuPool struct {
	gran  int64
	cells []emuCell // race state; written is the block that last wrote it
	owner []int32   // the allocation (shared index) that last wrote it
	who   []int32   // the allocation that last accessed it
	by    []int32   // the thread that last wrote it
}

// emuCell is the race and initialization state of one shared element. The
// roles (thread numbers within the block, -1 for none) belong to the
// barrier interval epoch; they are reset lazily when a later interval
// touches the element.
type emuCell struct {
	epoch   uint32
	written uint32 // blockNo of the block that last wrote it, 0 if none
	writer  int32  // a thread that stored it non-atomically
	reader  [2]int32
	atomic  [2]int32
}

type emuThread struct {
	l  *emuLaunch
	n  int32 // linear index in the block
	id [3]int
	at *ir.Barrier // the barrier it stopped at in the current phase
	// shfl is the warp shuffle the thread waits at (at is emuShuffleAt),
	// with the thread's value; res is the value it reads there.
	shfl      *ir.Call
	shI, resI int64
	shF, resF float64
	done      bool  // it ended
	err       error // the error it ended with
	next      func() (*ir.Barrier, bool)
	stop      func()
	yield     func(*ir.Barrier) bool
	// runner runs the body for this thread in a kernel with barriers.
	runner *emuRunner
}

// emuIndexVars are the index variables, which change from thread to
// thread: ThreadID x, y, z then BlockID x, y, z.
var emuIndexVars = []string{ir.ThreadID[0], ir.ThreadID[1], ir.ThreadID[2], ir.BlockID[0], ir.BlockID[1], ir.BlockID[2]}

// emuRunner is a cpu.Runner of a kernel's body with the handles of its
// index variables.
type emuRunner struct {
	r     *cpu.Runner
	slots [6]int // of emuIndexVars
}

func (e *Emulator) newLaunch(env *cpu.Env, kc *emuKernel, grid, block [3]int, scalars, buffers map[string]any) (*emuLaunch, error) {
	k := kc.k
	bad := func(format string, args ...any) error {
		return &EmulatorError{Kind: BadLaunch, Kernel: k.Name,
			Msg: fmt.Sprintf("gpu emulator: kernel %s: ", k.Name) + fmt.Sprintf(format, args...)}
	}
	limits := e.Limits.OrDefault()
	maxThreads := int(limits.MaxThreadsPerBlock)
	maxStatic, maxShared := limits.MaxStaticShared, limits.MaxShared
	nThreads := 1
	for d := range 3 {
		if grid[d] < 1 || int64(grid[d]) > limits.MaxGridDim[d] {
			return nil, bad("grid %s: dimension %d must be in [1, %d]", emuDim3(grid), d, limits.MaxGridDim[d])
		}
		if block[d] < 1 || int64(block[d]) > limits.MaxBlockDim[d] {
			return nil, bad("block %s: dimension %d must be in [1, %d]", emuDim3(block), d, limits.MaxBlockDim[d])
		}
		nThreads *= block[d]
	}
	if nThreads > maxThreads {
		return nil, bad("block %s has %d threads, more than the limit of %d", emuDim3(block), nThreads, maxThreads)
	}
	l := &emuLaunch{e: e, env: env, kc: kc, grid: grid, dims: block,
		scalars:   make(map[string]any, len(kc.scalarArgs)+6),
		buffers:   make(map[string]any, len(kc.bufferArgs)+len(kc.shared)),
		checkRace: !e.NoRaceCheck, checkInit: !e.NoUninitCheck}
	for _, a := range kc.scalarArgs {
		v, ok := scalars[a.Name]
		if !ok {
			return nil, bad("missing scalar argument %s (%v)", a.Name, a.T)
		}
		l.scalars[a.Name] = v
	}
	// The size of a copy of each global scratch buffer: the host sized the
	// buffer as the copies in the grid times it.
	for _, a := range kc.scratch {
		copies := int64(grid[0]) * int64(grid[1]) * int64(grid[2])
		if !a.ScratchPerBlock {
			copies *= int64(block[0]) * int64(block[1]) * int64(block[2])
		}
		n := int64(reflect.ValueOf(buffers[a.Name]).Len())
		if copies <= 0 || n%copies != 0 {
			return nil, bad("global scratch %s has %d elements, not a multiple of its %d copies", a.Name, n, copies)
		}
		l.scratchElems = append(l.scratchElems, n/copies)
	}
	for _, a := range kc.bufferArgs {
		v, ok := buffers[a.Name]
		if !ok {
			return nil, bad("missing buffer argument %s", a.Name)
		}
		l.buffers[a.Name] = v
	}
	// Shared memory, as the record gives it: element counts (dynamic ones
	// evaluated for this launch), the static pool's offsets and size, the
	// dynamic region's size.
	if len(kc.shared) > 0 {
		sizes := make([]int64, kc.nSizes)
		if kc.sizes != nil {
			if err := kc.sizes.Run(l.scalars, map[string]any{emuSizeBuf: sizes}); err != nil {
				return nil, bad("sizes of the shared allocations: %v", err)
			}
		}
		var parts []string
		var offsets []int64
		var staticIDs []int
		for id, sa := range kc.shared {
			n := sa.rec.Elems
			if !sa.static {
				n = sizes[sa.size]
				if n < 0 || n > maxShared {
					return nil, bad("shared allocation %s has size %d elements (negative or over the limit of %d bytes)", sa.name, n, maxShared)
				}
			} else {
				offsets = append(offsets, sa.rec.Offset)
				staticIDs = append(staticIDs, id)
			}
			bytes := n * int64(sa.t.Bytes())
			parts = append(parts, fmt.Sprintf("%s %d", sa.name, bytes))
			if ce := l.env.CheckAllocation(sa.name, bytes); ce != nil {
				return nil, &EmulatorError{Kind: AllocationTooLarge, Kernel: k.Name, Buffer: sa.name, Shared: true, Size: bytes,
					Msg: fmt.Sprintf("gpu emulator: kernel %s: shared %s", k.Name, ce.Msg), Err: ce}
			}
			sb := emuSharedBuf{name: sa.name, t: sa.t, data: cpu.NewSlice(sa.t, int(n)), n: n}
			l.shared = append(l.shared, sb)
			l.buffers[sa.name] = sb.data
		}
		static, total := k.SharedBytes, k.SharedBytes
		if kc.sizes != nil {
			total += sizes[kc.nSizes-1] // the dynamic region
		}
		if static <= maxShared {
			l.pool = emuNewPool(l.shared, staticIDs, offsets, static)
		}
		for i := range l.shared {
			sb := &l.shared[i]
			if sb.pooled {
				sb.wrote = make([]uint32, sb.n)
			} else if l.checkRace || l.checkInit {
				sb.shadow = make([]emuCell, sb.n)
			}
		}
		if static > maxStatic {
			return nil, bad("static shared memory of %d bytes (%s) is over the limit of %d bytes", static, strings.Join(parts, ", "), maxStatic)
		}
		if total > maxShared {
			return nil, bad("shared memory of %d bytes (%s) is over the limit of %d bytes", total, strings.Join(parts, ", "), maxShared)
		}
	}
	l.threads = make([]*emuThread, nThreads)
	for i := range l.threads {
		t := &emuThread{l: l, n: int32(i)}
		t.id = [3]int{i % block[0], i / block[0] % block[1], i / (block[0] * block[1])}
		l.threads[i] = t
	}
	return l, nil
}

func (l *emuLaunch) run() error {
	defer l.stopThreads()
	for bz := 0; bz < l.grid[2]; bz++ {
		for by := 0; by < l.grid[1]; by++ {
			for bx := 0; bx < l.grid[0]; bx++ {
				if l.env.Stopped() {
					ce := l.env.CanceledError()
					return &EmulatorError{Kind: Canceled, Kernel: l.kc.k.Name, Block: [3]int{bx, by, bz},
						Msg: fmt.Sprintf("gpu emulator: kernel %s: %s before block %s", l.kc.k.Name, ce.Msg, emuDim3([3]int{bx, by, bz})), Err: ce}
				}
				if err := l.runBlock([3]int{bx, by, bz}); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// newRunner binds the arguments of the launch for runs of the body with
// hook context ctx.
func (l *emuLaunch) newRunner(ctx any) (*emuRunner, error) {
	r, err := l.kc.prog.NewRunner(l.env, ctx, l.scalars, l.buffers, emuIndexVars...)
	if err != nil {
		return nil, err
	}
	er := &emuRunner{r: r}
	for i, name := range emuIndexVars {
		er.slots[i] = r.Slot(name)
	}
	return er, nil
}

// setIndex sets the index variables of thread t of the current block.
func (er *emuRunner) setIndex(t *emuThread, block [3]int) {
	for d := range 3 {
		er.r.SetInt(er.slots[d], int64(t.id[d]))
		er.r.SetInt(er.slots[3+d], int64(block[d]))
	}
}

func (l *emuLaunch) runBlock(id [3]int) error {
	l.blockID = id
	l.blockNo++
	l.epoch++
	l.blocksRun++
	l.phase = 0
	for i := range l.shared {
		cpu.Poison(l.shared[i].data)
	}
	if !l.kc.hasBarrier {
		// No barrier: each thread runs to its end in turn, on this
		// goroutine, with one runner for all.
		for _, t := range l.threads {
			if l.runner == nil {
				r, err := l.newRunner(t)
				if err != nil {
					return l.threadError(t, err)
				}
				l.runner = r
			}
			l.runner.r.SetContext(t)
			l.runner.setIndex(t, id)
			if err := l.runner.r.Run(); err != nil {
				if p := l.pending(); p != nil {
					return p
				}
				return l.threadError(t, err)
			}
		}
		return l.pending()
	}
	// Each thread is a coroutine (iter.Pull) that yields at every barrier and
	// at its end; this goroutine resumes the threads in turn.
	for _, t := range l.threads {
		t.done, t.err = false, nil
	}
	shuffles := false // resume only the threads at a warp shuffle
	for {
		for _, t := range l.threads {
			if shuffles {
				if t.shfl == nil {
					continue
				}
				t.shfl = nil
			}
			if l.phase == 0 {
				if t.next == nil {
					t.next, t.stop = iter.Pull(t.run)
				}
			}
			at, ok := t.next()
			if !ok {
				l.stopThreads()
				return &EmulatorError{Kind: Internal, Kernel: l.kc.k.Name, Block: l.blockID, Thread: t.id,
					Msg: l.prefix(t) + "internal error: the thread's coroutine ended"}
			}
			if at == emuEnd {
				at, t.done = nil, true
				if t.err != nil {
					l.stopThreads()
					if p := l.pending(); p != nil {
						return p
					}
					return l.threadError(t, t.err)
				}
			}
			t.at = at
		}
		if shuffles = l.anyShuffle(); shuffles {
			if err := l.exchange(); err != nil {
				l.stopThreads()
				return err
			}
			continue
		}
		var waiting, ended, other *emuThread
		for _, t := range l.threads {
			switch {
			case t.done:
				if ended == nil {
					ended = t
				}
			case waiting == nil:
				waiting = t
			case t.at != waiting.at && other == nil:
				other = t
			}
		}
		if waiting != nil && (ended != nil || other != nil) {
			err := l.divergent(waiting, ended, other)
			l.stopThreads()
			return err
		}
		if p := l.pending(); p != nil {
			l.stopThreads()
			return p
		}
		if waiting == nil {
			return nil // every thread ended
		}
		l.barriers++
		l.epoch++
		l.phase++
	}
}

// emuEnd is what a thread's coroutine yields when the thread ends.
var emuEnd = &ir.Barrier{Reason: "end of the kernel"}

// run is the coroutine of thread t: it runs t in each block, yielding at
// every barrier (see emuBarrier) and emuEnd at the end, until stopped.
func (t *emuThread) run(yield func(*ir.Barrier) bool) {
	l := t.l
	t.yield = yield
	for {
		if t.runner == nil {
			t.runner, t.err = l.newRunner(t)
		}
		if t.runner != nil {
			t.runner.setIndex(t, l.blockID)
			t.err = t.runner.r.Run()
		}
		if t.err == errEmuAbort || !yield(emuEnd) {
			return
		}
	}
}

// stopThreads ends the coroutines of the threads (those waiting at a
// barrier return errEmuAbort from it).
func (l *emuLaunch) stopThreads() {
	for _, t := range l.threads {
		if t.stop != nil {
			t.stop()
			t.next, t.stop = nil, nil
		}
	}
}

func emuBarrier(ctx any, b *ir.Barrier) error {
	t, ok := ctx.(*emuThread)
	if !ok || t.yield == nil {
		return errors.New("gpu emulator: barrier reached outside a thread of a block")
	}
	if !t.yield(b) {
		return errEmuAbort
	}
	return nil
}

func emuBarrierName(b *ir.Barrier) string {
	if b.Reason != "" {
		return fmt.Sprintf("%q", b.Reason)
	}
	return fmt.Sprintf("(fence %d)", b.Fence)
}

func (l *emuLaunch) prefix(t *emuThread) string {
	return fmt.Sprintf("gpu emulator: kernel %s, block %s, thread %s: ", l.kc.k.Name, emuDim3(l.blockID), emuDim3(t.id))
}

func (l *emuLaunch) divergent(waiting, ended, other *emuThread) error {
	b := waiting.at
	e := &EmulatorError{Kind: DivergentBarrier, Kernel: l.kc.k.Name, Barrier: b.Reason,
		Block: l.blockID, OtherThread: waiting.id}
	var what string
	if ended != nil {
		e.Thread = ended.id
		what = "finished the kernel without reaching it"
	} else {
		e.Thread = other.id
		what = "waits at another barrier " + emuBarrierName(other.at)
	}
	e.Msg = fmt.Sprintf("gpu emulator: kernel %s, block %s: divergent barrier %s: thread %s waits at it but thread %s %s (every thread of a block must reach the same barriers)",
		l.kc.k.Name, emuDim3(l.blockID), emuBarrierName(b), emuDim3(waiting.id), emuDim3(e.Thread), what)
	return e
}

// threadError turns the error of a thread's run into an *EmulatorError.
func (l *emuLaunch) threadError(t *emuThread, err error) error {
	var ee *EmulatorError
	if errors.As(err, &ee) {
		return ee
	}
	e := &EmulatorError{Kind: ThreadFailed, Kernel: l.kc.k.Name, Block: l.blockID, Thread: t.id, Err: err}
	var ce *cpu.Error
	if errors.As(err, &ce) {
		switch ce.Kind {
		case cpu.OutOfBounds:
			e.Kind, e.Buffer, e.Index, e.Size = OutOfBounds, ce.Buffer, ce.Index, ce.Size
			for _, s := range l.shared {
				if s.name == ce.Buffer {
					e.Shared = true
				}
			}
			where := "global"
			if e.Shared {
				where = "shared"
			}
			e.Msg = l.prefix(t) + ce.Msg + " (" + where + " buffer " + ce.Buffer + ")"
			return e
		case cpu.MissingArg, cpu.TypeMismatch:
			e.Kind, e.Buffer = BadLaunch, ce.Buffer
			e.Msg = fmt.Sprintf("gpu emulator: kernel %s: %s", l.kc.k.Name, ce.Msg)
			return e
		case cpu.Internal:
			e.Kind = Internal
		case cpu.Canceled:
			e.Kind = Canceled
		case cpu.AllocationTooLarge:
			e.Kind, e.Buffer, e.Size = AllocationTooLarge, ce.Buffer, ce.Size
		}
	}
	e.Msg = l.prefix(t) + err.Error()
	return e
}

// emuAccess checks an access of a shared buffer. The first race and the
// first uninitialized read are recorded, not returned: they are reported
// when the barrier interval ends (after a divergent barrier, which is the
// likelier cause) or when a thread fails (before its error, which they may
// have caused). A read of an element that no thread has written yet becomes
// a race when another thread writes it in the same interval.
func emuAccess(ctx any, id int, index int64, write, atomic bool) error {
	t := ctx.(*emuThread)
	l := t.l
	if n := len(l.kc.shared); id >= n {
		return l.scratchAccess(t, id-n, index, write)
	}
	sb := &l.shared[id]
	if sb.pooled {
		l.poolAccess(t, id, index, write, atomic)
		return nil
	}
	if uint64(index) >= uint64(len(sb.shadow)) {
		return nil // out of bounds (reported by cpu), or no checks
	}
	c := &sb.shadow[index]
	if l.checkInit && !write && c.written != l.blockNo {
		l.uninitRead(t, sb, index)
	}
	if write {
		c.written = l.blockNo
	}
	l.raceCheck(t, c, sb, index, write, atomic, nil)
	return nil
}

// scratchAccess checks that an access of global scratch stays in the
// accessing thread's copy (or its block's).
func (l *emuLaunch) scratchAccess(t *emuThread, i int, index int64, write bool) error {
	a := l.kc.scratch[i]
	n := l.scratchElems[i]
	copyID := int64(l.blockID[0]) + int64(l.grid[0])*(int64(l.blockID[1])+int64(l.grid[1])*int64(l.blockID[2]))
	what := "block"
	if !a.ScratchPerBlock {
		copyID = copyID*int64(len(l.threads)) + int64(t.n)
		what = "thread"
	}
	lo := copyID * n
	if index >= lo && index < lo+n {
		return nil
	}
	op := "read"
	if write {
		op = "write"
	}
	return &EmulatorError{Kind: OutOfBounds, Kernel: l.kc.k.Name, Buffer: a.Name, Block: l.blockID, Thread: t.id, Index: index, Size: n,
		Msg: l.prefix(t) + fmt.Sprintf("%s of global scratch %s[%d], outside the %s's copy [%d, %d)", op, a.Name, index, what, lo, lo+n)}
}

func (l *emuLaunch) uninitRead(t *emuThread, sb *emuSharedBuf, index int64) {
	if l.uninit == nil {
		l.uninit = &EmulatorError{Kind: UninitializedRead, Kernel: l.kc.k.Name, Buffer: sb.name, Shared: true,
			Block: l.blockID, Thread: t.id, Index: index,
			Msg: l.prefix(t) + fmt.Sprintf("read of shared %s[%d], which no thread of the block has written since its allocation", sb.name, index)}
	}
}

// raceCheck records t's access to the shared element (or pool granule) of
// cell c in the current barrier interval and the first race it makes.
// alias, if not nil, names the allocation that last accessed the bytes
// (in a pool whose allocations share them).
func (l *emuLaunch) raceCheck(t *emuThread, c *emuCell, sb *emuSharedBuf, index int64, write, atomic bool, alias *emuSharedBuf) {
	if !l.checkRace {
		return
	}
	if c.epoch != l.epoch {
		*c = emuCell{epoch: l.epoch, written: c.written, writer: -1, reader: [2]int32{-1, -1}, atomic: [2]int32{-1, -1}}
	}
	me := t.n
	if l.race == nil {
		other, otherDid := int32(-1), ""
		pick := func(ids [2]int32) int32 {
			if ids[0] >= 0 && ids[0] != me {
				return ids[0]
			}
			if ids[1] >= 0 && ids[1] != me {
				return ids[1]
			}
			return -1
		}
		switch {
		case c.writer >= 0 && c.writer != me:
			other, otherDid = c.writer, "wrote it"
		case write:
			if o := pick(c.reader); o >= 0 {
				other, otherDid = o, "read it"
			} else if o := pick(c.atomic); o >= 0 && !atomic {
				other, otherDid = o, "updated it atomically"
			}
		case !atomic:
			if o := pick(c.atomic); o >= 0 {
				other, otherDid = o, "updated it atomically"
			}
		}
		if other >= 0 {
			did := "reads it"
			switch {
			case atomic:
				did = "updates it atomically"
			case write:
				did = "writes it"
			}
			note := ""
			if alias != nil && alias != sb {
				note = fmt.Sprintf(" (its bytes are shared with %s in the shared pool; the other access may be to %s)", alias.name, alias.name)
			}
			o := l.threads[other].id
			l.race = &EmulatorError{Kind: SharedRace, Kernel: l.kc.k.Name, Buffer: sb.name, Shared: true,
				Block: l.blockID, Thread: t.id, OtherThread: o, Index: index,
				Msg: fmt.Sprintf("gpu emulator: kernel %s, block %s: shared memory race on %s[%d]%s: thread %s %s after thread %s %s, with no barrier between them (%s)",
					l.kc.k.Name, emuDim3(l.blockID), sb.name, index, note, emuDim3(t.id), did, emuDim3(o), otherDid, l.interval())}
		}
	}
	switch {
	case atomic:
		emuAddRole(&c.atomic, me)
	case write:
		c.writer = me
	default:
		emuAddRole(&c.reader, me)
	}
}

// emuNewPool returns the shadow of the static shared pool when two of its
// allocations (shared, at the indices ids, offsets) share bytes, and marks
// them pooled; nil when none do (each then keeps its own shadow).
func emuNewPool(shared []emuSharedBuf, ids []int, offsets []int64, size int64) *emuPool {
	aliased := false
	gran := int64(0)
	for i, a := range ids {
		sa := &shared[a]
		bytes := sa.n * int64(sa.t.Bytes())
		if bytes == 0 {
			continue
		}
		if gran == 0 || int64(sa.t.Bytes()) < gran {
			gran = int64(sa.t.Bytes())
		}
		for j, b := range ids[:i] {
			sb := &shared[b]
			if other := sb.n * int64(sb.t.Bytes()); other > 0 && offsets[i] < offsets[j]+other && offsets[j] < offsets[i]+bytes {
				aliased = true
			}
		}
	}
	if !aliased {
		return nil
	}
	n := (size + gran - 1) / gran
	p := &emuPool{gran: gran, cells: make([]emuCell, n), owner: make([]int32, n), who: make([]int32, n), by: make([]int32, n)}
	for i := range p.owner {
		p.owner[i], p.who[i], p.by[i] = -1, -1, -1
	}
	for i, a := range ids {
		shared[a].pooled, shared[a].off = true, offsets[i]
	}
	return p
}

// poolAccess checks an access of element index of the pooled allocation id:
// the element's initialization as usual, then for each granule of its
// bytes the race check (aliased bytes are one memory) and, on a read, that
// no other allocation wrote the bytes since this one wrote the element.
func (l *emuLaunch) poolAccess(t *emuThread, id int, index int64, write, atomic bool) {
	sb := &l.shared[id]
	if index < 0 || index >= sb.n {
		return // out of bounds, reported by cpu
	}
	p := l.pool
	if !write && sb.wrote[index] != l.blockNo && l.checkInit {
		l.uninitRead(t, sb, index)
	}
	if write {
		sb.wrote[index] = l.blockNo
	}
	size := int64(sb.t.Bytes())
	first := (sb.off + index*size) / p.gran
	for g := first; g < first+size/p.gran; g++ {
		c := &p.cells[g]
		live := c.written == l.blockNo
		if !write && live && sb.wrote[index] == l.blockNo && p.owner[g] != int32(id) && l.reuse == nil {
			o := &l.shared[p.owner[g]]
			byteAt := g * p.gran
			oIndex := (byteAt - o.off) / int64(o.t.Bytes())
			l.reuse = &EmulatorError{Kind: SharedReuse, Kernel: l.kc.k.Name, Buffer: sb.name, Shared: true, Other: o.name,
				Block: l.blockID, Thread: t.id, OtherThread: l.threads[p.by[g]].id, Index: index,
				Msg: l.prefix(t) + fmt.Sprintf("shared memory reuse: %s reads %s[%d] (bytes [%d, %d) of the shared pool), last written by %s (%s[%d], thread %s) after %s wrote them: the two share bytes but their lifetimes overlap",
					sb.name, sb.name, index, sb.off+index*size, sb.off+(index+1)*size, o.name, o.name, oIndex, emuDim3(l.threads[p.by[g]].id), sb.name)}
		}
		var alias *emuSharedBuf
		if p.who[g] >= 0 && c.epoch == l.epoch {
			alias = &l.shared[p.who[g]]
		}
		l.raceCheck(t, c, sb, index, write, atomic, alias)
		if write {
			c.written = l.blockNo
			p.owner[g], p.by[g] = int32(id), t.n
		}
		p.who[g] = int32(id)
	}
}

// interval describes the current barrier interval of the block.
func (l *emuLaunch) interval() string {
	if l.phase == 0 {
		return "before the block's first barrier"
	}
	return fmt.Sprintf("after the block's barrier number %d", l.phase)
}

// pending returns the race or uninitialized read recorded in the current
// barrier interval, if any.
func (l *emuLaunch) pending() error {
	if l.reuse != nil {
		return l.reuse
	}
	if l.race != nil {
		return l.race
	}
	if l.uninit != nil {
		return l.uninit
	}
	return nil
}

func emuAddRole(ids *[2]int32, me int32) {
	switch {
	case ids[0] < 0:
		ids[0] = me
	case ids[0] == me || ids[1] >= 0:
	default:
		ids[1] = me
	}
}

// emuShuffleAt is what a thread's coroutine yields at a warp shuffle.
var emuShuffleAt = &ir.Barrier{Reason: "warp shuffle"}

// emuShuffle is the cpu.Options.Shuffle hook: the thread leaves its value
// and waits until every thread of its warp has left one (exchange).
func emuShuffle(ctx any, call *ir.Call, i int64, f float64) (int64, float64, error) {
	t, ok := ctx.(*emuThread)
	if !ok || t.yield == nil {
		return 0, 0, errors.New("gpu emulator: warp shuffle evaluated outside a thread of a block")
	}
	t.shfl, t.shI, t.shF = call, i, f
	if !t.yield(emuShuffleAt) {
		return 0, 0, errEmuAbort
	}
	return t.resI, t.resF, nil
}

// anyShuffle reports whether a thread of the block waits at a shuffle.
func (l *emuLaunch) anyShuffle() bool {
	for _, t := range l.threads {
		if t.shfl != nil {
			return true
		}
	}
	return false
}

// exchange gives each thread waiting at a warp shuffle the value it reads:
// that of the thread delta lanes up in its warp (lanes are linear indexes
// mod 32), or its own past the warp's last thread. Every thread of a warp
// where one waits must wait at the same shuffle.
func (l *emuLaunch) exchange() error {
	n := len(l.threads)
	for w := 0; w*ir.WarpSize < n; w++ {
		warp := l.threads[w*ir.WarpSize : min(n, (w+1)*ir.WarpSize)]
		var at *emuThread
		for _, t := range warp {
			if t.shfl != nil {
				at = t
				break
			}
		}
		if at == nil {
			continue
		}
		for _, t := range warp {
			if t.shfl == at.shfl {
				continue
			}
			what := "ended"
			switch {
			case t.shfl != nil:
				what = "waits at another warp shuffle " + ir.ExprString(t.shfl)
			case !t.done:
				what = "waits at barrier " + emuBarrierName(t.at)
			}
			return &EmulatorError{Kind: DivergentShuffle, Kernel: l.kc.k.Name, Block: l.blockID, Thread: t.id,
				Msg: fmt.Sprintf("gpu emulator: kernel %s, block %s: thread %s of warp %d waits at warp shuffle %s, but thread %s of the same warp %s (every thread of a warp must reach a shuffle together)",
					l.kc.k.Name, emuDim3(l.blockID), emuDim3(at.id), w, ir.ExprString(at.shfl), emuDim3(t.id), what)}
		}
		delta, _ := ir.AsInt(at.shfl.Args[1])
		for i, t := range warp {
			src := t
			if j := i + int(delta); j < len(warp) {
				src = warp[j]
			}
			t.resI, t.resF = src.shI, src.shF
		}
	}
	return nil
}
