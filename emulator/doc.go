// Package emulator runs GPU kernels on the CPU with GPU semantics and
// checks (races, barriers, bounds, uninitialized shared reads): the
// default target of package halide and the correctness oracle of the
// tests. The kernel reports are package report, the CUDA code generator
// package cfamily and the CUDA runtime package cudart.
//
// # The kernel contract
//
// Lowering turns a pipeline into a host statement (an ordinary lowered
// statement, run by package cpu) that contains *ir.Launch statements. Each
// launches an *ir.Kernel whose Grid is in terms of host variables in scope
// at the launch and whose Block is constant. The kernel's Body is run by
// every thread of every block; its free variables are its scalar arguments
// and the int32 index variables ir.ThreadID[d] and ir.BlockID[d]. The body
// starts with its GPUShared allocations (possibly between lets and comments,
// never under a loop or an if): one copy per block, sized by their extents,
// which are constants or expressions over scalar arguments (dynamic shared
// memory). Other allocations in the body are per thread. An *ir.Barrier is
// __syncthreads(): every thread of the block reaches the same barrier before
// any goes on. Atomic stores are atomic read-modify-writes. A warp shuffle
// (ir.IntrinsicShuffleDown) reads another lane's value at the same
// program point: a warp is 32 threads of consecutive linear index (x
// fastest), and every thread of a warp evaluates the shuffle together.
//
// # The emulator
//
// Emulator.Run compiles the host statement with cpu.CompileWith, whose
// Launch hook calls Emulator.Launch. A kernel is compiled once (cached per
// *ir.Kernel) by the cpu closure compiler, so its expressions have exactly
// the cpu package's semantics. The body is checked as lowering made it,
// then compiled again with the pure subexpressions that a Store repeats
// bound to lets (emucse.go: no load moves, so the accesses, their checks
// and their order are the same), and each launch binds its arguments once
// in a cpu.Runner (one per thread in kernels with barriers) that the
// threads run with their own index variables. The rest of the contract: the shared allocations are taken out of the
// body and given to every thread of a block as the same external buffers, of
// exactly the allocated size, filled with a poison value (cpu.Poison: NaN,
// bytes 0xA5) when the block starts. Per-thread allocations are poisoned
// too (GPU memory is not cleared), so a register accumulator that is never
// initialized shows as NaN in the results. Static shared allocations that
// the kernel's layout (ir.KernelAlloc.Offset, from lowering's
// gpu_shared_reuse) puts on the same bytes of its pool keep their own
// buffers, but the checks run on a shadow of the pool, so that a wrong
// reuse is caught rather than hidden.
//
// Blocks run one after another, x fastest. The threads of a block run one
// at a time in order of their linear index (x fastest): thread 0 runs until
// it reaches a barrier or ends, then thread 1, and so on; when every thread
// waits at the same barrier, the next barrier interval starts. Kernels
// without barriers run their threads in turn on the calling goroutine;
// in kernels with barriers each thread is a coroutine (iter.Pull), kept for
// all the blocks of a launch, that yields at each barrier. Runs are
// deterministic, and a 16-block × 1024-thread kernel with 4 barriers takes
// about 30 ms. The 20-kernel pyramid of tests/gpu (BenchmarkPyramid: about 5.6
// million threads of a [1 3 3 1] pyramid over a 64x64 image) takes about
// 1.6 s on a 2-core machine, 5 s before the Runner and the common
// subexpressions; the CPU path computes it in 0.1 s (batched loops).
//
// # Checks
//
// Every error is an *EmulatorError naming the kernel, the block and the
// threads concerned; Kind says which check failed:
//   - OutOfBounds: a load or store outside a global or a shared buffer;
//   - SharedRace: two threads of a block access one shared element in the
//     same barrier interval, one of them writing, not both atomically;
//   - UninitializedRead: a read of a shared element that no thread of the
//     block has written since the allocation;
//   - DivergentBarrier: threads wait at a barrier that others do not reach
//     (they end, or wait at another barrier);
//   - DivergentShuffle: a thread evaluates a warp shuffle that another
//     thread of its warp does not reach with it (it ends, waits at a
//     barrier or at another shuffle). A thread stops at a shuffle as at a
//     barrier; when every thread of its warp has, each reads the value of
//     the thread delta lanes up (its own past the warp's last thread);
//   - BadLaunch: launch dimensions or shared memory over the device limits
//     (1024 threads per block, 48 KiB static and 227 KiB in all of shared
//     memory per block), missing or mistyped arguments;
//   - BadKernel: a kernel that breaks the contract above (a free variable or
//     buffer that is not an argument, a store to a buffer argument not marked
//     Written, a shared allocation under a loop, ...);
//   - ThreadFailed: another error in a thread, such as a failed assertion;
//   - SharedReuse: an allocation read an element it wrote, but another
//     allocation on the same bytes of the pool wrote them since (their
//     lifetimes overlap). In such a pool the race check also treats the
//     aliased bytes as one memory.
//
// Races, reuse errors and uninitialized reads do not stop the thread that makes them:
// the first of each is reported when the barrier interval ends, after a
// divergent barrier (the likelier cause of both), or when a thread fails,
// before its error (which they may have caused). So a read of an element
// that another thread writes later in the same interval is a race, not an
// uninitialized read. Any other error in a thread stops its block and the
// launch at once; the coroutines of the block end before Launch returns.
package emulator
