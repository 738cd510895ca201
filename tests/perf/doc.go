// Package perf holds the CPU path's benchmarks, each run beside the
// plain-Go loop that computes the same thing, so that one benchmark run
// gives the ratio: a 2048x2048 3x3 blur (two passes through an
// intermediate, edges repeated) and a 512x512x512 float32 GEMM. Its tests
// check, at small sizes, that the pipelines compute what the loops do.
package perf
