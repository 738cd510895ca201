// Package report describes kernels for people and tools: Report turns the
// ir.Kernels of a lowered pipeline, with the dimensions and scalars of
// their last launches, into KernelReports (grid and block, shared and
// register allocations with their layout, barriers, the stages one thread
// runs), WriteTable prints them as a table and WriteJSON as JSON.
// CompiledInfo is what a compiled kernel uses as the CUDA driver reports
// it, and Timing the summary of repeated runs (Pipeline.Benchmark).
//
// It sits below the executors: the emulator, the CUDA runtime (cudart)
// and halide all read it, and it imports only ir. Package halide
// re-exports its types, so programs need not import it.
package report
