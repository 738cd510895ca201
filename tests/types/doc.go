// Package types tests the scalar types on every target: Funcs, inputs,
// outputs and Params of each type (Int8 ... UInt64, Float16, BFloat16,
// Float32, Float64, Bool), their arithmetic, comparisons, min/max, select,
// Euclidean division and modulo, updates and reductions, and conversions
// between every pair, realized on the CPU and on the GPU emulator and
// compared with a reference written here from the semantics the docs state
// (docs/design.md, "Types"); the 16-bit float conversions are checked on
// every bit pattern. The CUDA the emitter writes for the same pipelines is
// compiled with nvcc where it is installed (tests/cuda runs it on a GPU).
package types
