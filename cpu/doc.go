// Package cpu runs a fully lowered statement on the CPU.
//
// Compile translates an ir.Stmt once into a tree of Go closures: every
// variable is resolved at compile time to a slot of a per-run frame (int64
// slots for integers and bools, float64 slots for floats), every expression
// becomes a func(*frame) int64 or func(*frame) float64 specialized for its
// type, and every Load and Store is specialized for the element type of its
// buffer. Running the program calls the closures; the IR tree is never walked
// per element.
//
// # What it is for
//
// The CPU executor is the reference the GPU emulator and the tests build
// on, and the path for pipelines without GPU schedules; it aims to be
// within a small factor of a plain Go loop, not to compete with a
// compiler. tests/perf measures it beside hand-written loops (go test
// ./tests/perf -run XXX -bench . -benchtime 10x -count 4, a 2-core AMD
// EPYC machine, 2026-11-23, commit c5ec257): a 2048x2048 3x3 blur takes
// 22-29 ms serial against 27-28 ms for the loop (0.8x to 1.0x) and 11 ms
// with Parallel rows against 13-14 ms for a goroutine-parallel loop
// (0.8x); a 512x512x512 float32 GEMM takes 111-121 ms serial against
// 78-84 ms (1.4x to 1.5x; the loop took 41 ms in some earlier runs, which
// would be 3x) and 56-60 ms in parallel against 39-41 ms (1.4x to 1.5x).
// Before batched loops (commit 79fd828) the blur took 72x to 78x the
// loop and the GEMM 151x to 155x.
//
// # Semantics
//
// Integer values are carried as int64 and wrapped to their type after every
// operation (ir.Type.Wrap); uint64 values are carried by bit pattern and are
// divided, compared and min/maxed as unsigned. Bools are 0 or 1. Integer Div
// and Mod are ir.EuclidDiv and ir.EuclidMod, Halide's Euclidean division (the
// remainder is never negative: 7 / -2 is -3, 7 % -3 is 1, MIN / -1 wraps to
// MIN); division or modulo by zero yields zero. Float32 values are carried as
// float64 rounded to float32 after every operation, and Float16 and
// BFloat16 values as float64 computed in float32 and rounded to the 16-bit
// type after every operation (ir.RoundFloat; their buffers are
// []half.Float16 and []half.BFloat16); float Mod is
// a - b*floor(a/b) computed in float64 and then rounded to the type. Casts
// from float to int are ir.FloatToInt: truncate toward zero, saturate at the
// ends of the type, NaN gives 0. Comparisons yield bools; And, Or and Select
// evaluate lazily. The intrinsic round rounds half to even; promise_clamped
// clamps; unsafe_promise_clamped and likely return their first argument.
//
// # Statements
//
// An innermost loop whose body is one float32 or int32 Store runs in
// batches of 256 iterations, each node of the value evaluated over the
// batch by a tight Go loop, with the semantics above (batch.go says which
// loops and what happens when an index is out of bounds: the batch runs
// through the closures, which report the error after the same writes).
//
// Serial, Unrolled and Vectorized loops run serially. Parallel loops split
// their range into about runtime.GOMAXPROCS contiguous chunks, each run on its
// own goroutine with its own copy of the frame. GPU loops are rejected at
// compile time, and so are kernel launches (ir.Launch) and barriers
// (ir.Barrier) unless CompileWith is given the hooks that run them.
// Comments (ir.Comment) do nothing. An Allocate gives its body a fresh zeroed buffer each time it
// is entered; Atomic stores to one buffer are serialized by a mutex per
// buffer, the Value being evaluated under the lock.
//
// # Errors
//
// Run reports an *Error for out-of-bounds loads and stores (checked against the
// slice length; nothing is written out of bounds), failed assertions, missing
// or mistyped arguments and bad allocation sizes. Panics never escape Run.
// A Program holds no per-run state and may be Run from several goroutines at
// once.
//
// # Cancellation and limits
//
// RunEnv runs in an Env (RunContext makes one from a context): every loop
// iteration checks the Env's stop flag, which a done context sets, and
// the run ends with a Canceled error wrapping the context's error (a
// batched loop checks it once per batch of 256 iterations). The Env's
// limit (by default a quarter of the physical memory,
// DefaultMaxAllocationBytes) bounds the bytes in use at once: every
// Allocate adds its size to an atomic count of the Env's live bytes (all
// runs, goroutines of parallel loops and emulated kernel threads sharing
// the Env) until its body ends, and an Allocate that would take the count
// over the limit fails with an AllocationTooLarge error naming the buffer
// and its size, instead of exhausting memory. Run and RunCtx use an Env
// that never stops and checks each allocation alone against the default
// limit (it is shared by all such runs, so it keeps no count).
//
// # Hooks for GPU targets
//
// CompileWith takes Options: a Launch hook, called at each ir.Launch of a
// host statement with the evaluated launch dimensions and the kernel's
// arguments; a Barrier hook, called when a kernel thread reaches an
// ir.Barrier; and Watch / Access, which report every access of selected
// buffers. RunCtx passes a context value (the GPU emulator's per-thread
// state) to the hooks. The GPU emulator (package emulator) compiles each kernel
// body once with these hooks and runs it per thread through a Runner,
// which binds the arguments once and sets only the index variables
// between runs; buffers that are not
// watched are compiled exactly as without hooks. A hook's error stops the
// run and is returned unchanged. Options.Poison fills allocations with a
// poison value (see Poison) instead of zeros.
package cpu
