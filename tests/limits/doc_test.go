// Package limits_test checks the limits of issue 11: cancellation of
// Realize and Benchmark through a context, the allocation limit
// (Options.MaxAllocationBytes), the limit on the size of expressions after
// inlining, and lowering in near-linear time in the number of Funcs.
package limits_test
