// Package lower turns a pipeline of Funcs with schedules into one lowered
// statement: loops, allocations, loads and stores that the CPU executor
// (package cpu) runs and that the GPU passes turn into kernels.
//
// Lowering is a table of passes (Passes, in passes.go) run in order by
// Lower; the table is the one home of the order, and PassOrder gives each
// constraint on it a reason. Each pass lives in its own file named like
// the pass and opens with a comment saying what it does, what it needs
// ("Before:", the passes PassOrder puts before it) and what it leaves
// ("After:"); tests check both the headers and the list below against the
// table. The CPU passes are tested in passes_test.go; the validation and
// GPU passes through tests/gpu, tests/errors and the halide examples.
//
// With Options.Debug (or the environment variable GOHALIDE_DEBUG) set to 1
// Lower logs each pass name and its time, 2 also prints the statement
// after every pass ("unchanged" when a pass did nothing), and 3 adds the
// sub-steps passes report. With Options.Verify the IR verifier (verify.go)
// checks the invariants after every pass; the tests always turn it on.
//
// The passes, in order (Passes in passes.go):
//
//	inline_functions       substitute Funcs computed inline into their consumers
//	compute_with_levels    a Func computed at a loop of a compute_with fusion is computed at the innermost
//	                       fused loop, and a fused partner that reads it reads a copy computed at its own
//	validate_schedules     check directives that need the whole pipeline; an update's RVar loops keep the
//	                       algorithm's order unless the moved iterations are independent (rvar_order.go)
//	schedule_functions     build the loop nest: splits, fuses, reorders, tails, compute/store levels
//	validate_gpu           check the GPU loop structure (block and thread loops); no atomic update that needs a
//	                       lock in a kernel
//	gpu_memory             decide the memory of each realization inside a kernel (shared, registers, a global
//	                       copy per block)
//	gpu_uniform_loops      start at zero the serial loops between a thread loop and a shared production, so all
//	                       threads run the same iterations
//	bounds_inference       define the region each stage computes (f.s0.x.min/max, at the top of its loop level,
//	                       in terms of its consumers' regions) and check input and output bounds; a shared Func
//	                       computed inside thread loops gets the union over the block's threads; a Func called
//	                       in an index bounds it by its definitions' values
//	gpu_register_ownership prove that each thread reads back only its own points of a Func stored in registers
//	                       at the block level; index the array per thread (local coordinates)
//	sliding_window         a Func stored outside the serial loops it is computed in computes only the part of
//	                       its region earlier iterations did not (the region's min moves up, one dimension per
//	                       loop)
//	compute_with           fuse the outer loops of the stages joined by compute_with (each group's productions
//	                       adjacent, each Func's stages in order), each body guarded by its own range (loops
//	                       lined up by their LoopAlignStrategy)
//	allocation_bounds      size each realization from the region its body touches; Auto memory outside kernels
//	                       becomes Stack or Heap
//	storage_folding        fold the storage of a Func whose window moves along one serial loop to the window (a
//	                       power of two, or FoldStorage's extent); refuse an unsafe FoldStorage
//	prefetch               put each prefetch directive at the top of its loop: the region of its source the
//	                       loop from reads offset iterations later, clamped to or guarded by the source's
//	                       storage
//	storage_flattening     multi-dimensional Funcs and buffers to flat allocations, loads and stores; the
//	                       run-time size check of host allocations known only at run time; an atomic Tuple
//	                       update whose values read one another under one lock
//	hoist_storage          allocate a Func scheduled HoistStorage at its hoist level, sized for every
//	                       realization inside; its min and stride lets stay at the store level
//	unroll_loops           replicate unrolled loops; check vectorized loops have constant extents
//	simplify               simplify the whole statement
//	gpu_registers          constant indices for register arrays (so they stay in registers)
//	gpu_block_size         decide each kernel's block size and the thread dimension of each thread loop
//	gpu_cooperative        deal the production of a shared Func out to the block's threads
//	gpu_barriers           barriers between the block's threads where they share data
//	gpu_thread_reduce      an associative update whose RVar loop is a thread or lanes loop becomes an
//	                       all-reduce (warp shuffles, then the warps through shared memory); lanes loops are
//	                       checked
//	gpu_thread_loops       thread loops to SPMD lets and guards, guards pushed off barriers
//	gpu_kernels            extract kernels: grid, block, shared allocations at the top, arguments
//	gpu_shared_reuse       one static shared pool per kernel; Funcs whose lifetimes do not overlap share bytes
//	gpu_partition          a steady state per kernel: tail guards true for every thread of a block dropped
//	                       there
//	common_loads           in kernels: unique binding names, duplicate lets merged, each value loaded once
//	                       along a straight line until something may change it
//	vector_access          in kernels: vectorized loops that store one value per lane become vector loads and
//	                       stores, aligned by proof or by a run-time test with the loop as the fallback
//	loop_invariants        in kernels: the costly values a serial loop does not change (float-to-int
//	                       conversions, divisions, math functions) computed once before it
//
// Names in the lowered statement follow Halide: the loop of stage s of Func
// f over var x is f.s<s>.x, a split of it f.s0.x.xo / f.s0.x.xi, and the
// region a stage computes is f.s0.x.min .. f.s0.x.max. An input or output
// buffer b has b.min.<d>, b.extent.<d> and b.stride.<d>.
package lower
