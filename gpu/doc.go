// Package gpu runs kernels: the GPU emulator (the default target, on the
// CPU) and, in other files, the CUDA code generator and runtime.
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
// any goes on. Atomic stores are atomic read-modify-writes.
//
// # The emulator
//
// Emulator.Run compiles the host statement with cpu.CompileWith, whose
// Launch hook calls Emulator.Launch. A kernel is compiled once (cached per
// *ir.Kernel) by the cpu closure compiler, so its expressions have exactly
// the cpu package's semantics: the shared allocations are taken out of the
// body and given to every thread of a block as the same external buffers, of
// exactly the allocated size, filled with a poison value (NaN, bytes 0xA5)
// when the block starts.
//
// Blocks run one after another, x fastest. The threads of a block run one
// at a time in order of their linear index (x fastest): thread 0 runs until
// it reaches a barrier or ends, then thread 1, and so on; when every thread
// waits at the same barrier, the next barrier interval starts. Kernels
// without barriers run their threads in turn on one goroutine; kernels with
// barriers give each thread a goroutine, handed control through channels, so
// runs are deterministic.
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
//   - BadLaunch: launch dimensions or shared memory over the device limits
//     (1024 threads per block, 48 KiB static and 227 KiB in all of shared
//     memory per block), missing or mistyped arguments;
//   - BadKernel: a kernel that breaks the contract above (a free variable or
//     buffer that is not an argument, a store to a buffer argument not marked
//     Written, a shared allocation under a loop, ...);
//   - ThreadFailed: another error in a thread, such as a failed assertion.
//
// An error in a thread stops its block and the launch; the goroutines of the
// block end before Launch returns.
package gpu
