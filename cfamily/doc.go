// Package cfamily prints GPU kernels (ir.Kernel) as C-family source code
// that a person can read and a C-family compiler builds: CUDA C today
// (CUDASource, CUDATargetSource), C for a CPU backend next.
//
// # Structure
//
// The printer (printer.go) writes a kernel body's statements and
// expressions; what it writes is the same in every C-family language: C
// types and literals (ctypes.go), scoped identifiers made from IR names,
// const locals for lets, loops, ifs, stores, and calls to the helper
// functions (helpers.go) that give the code the CPU executor's semantics
// (Euclidean division and modulo, Go's float min and max, saturating
// float-to-int conversion, and the 16-bit floats' conversions: a Float16
// or BFloat16 is unsigned short in memory and float in expressions,
// rounded back after every operation by the bit algorithms of package
// half). What differs between languages is a Dialect
// (dialect.go): helper qualifiers, the spelling of float bit patterns and
// of rounded multiplies, barriers, traps, unroll pragmas, vector types,
// let-expressions, native atomics and compare-and-swap, prefetches (a
// prefetch of a box prints one prefetch per cache line of each row, see
// printer.prefetch). CUDA (cuda.go) is
// the CUDA dialect, and cuda.go also holds what only CUDA has: the kernel
// signature, the thread and block indices, and the shared memory
// declarations, as the kernel record gives them (ir.Kernel: offsets and
// totals, checked by ir.Kernel.Verify).
//
// # The source that runs
//
// CUDATargetSource is the one function that makes the CUDA target's
// translation unit: halide's Lowered.CUDA prints it and the runtime
// (package cudart) compiles the same text. CUDASource is the bit-exact
// variant that never contracts a multiply and an add into an FMA.
//
// # Checking
//
// CheckWithNVCC (nvcc.go) compiles a translation unit with nvcc, when a
// CUDA toolkit is installed, and returns what ptxas reports per kernel; it
// needs no GPU. The package has no build tag: it is plain Go.
package cfamily
