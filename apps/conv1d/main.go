// Command conv1d runs the full 1-D convolution (numpy.convolve: M+N-1
// outputs) of the TVM tutorial "1D convolution GPU Optimization" (a blog
// post of 2025-04-03) under the tutorial's schedules, naive and v1 to v5,
// at its size, M = 16384 and N = 32, and under ours, fast, on a signal of
// 2^24 samples.
//
// The tutorial's schedules:
//
//   - naive: its own algorithm, a reduction over all M+N-1 positions of a
//     with the bounds test inside (algo.NewConv1DSeedNaive); one block, of
//     one thread, per output;
//   - v1: the reduction over the N taps only (algo.Conv1D, the algorithm
//     of the rest), one block per output;
//   - v2: blocks of 8 threads, a thread per output;
//   - v3: blocks of 4 x 4 threads;
//   - v4: 32 threads, the taps in steps of 4 staged in shared memory;
//   - v5: v4 with 8 x 4 threads, steps of 8 taps, unrolled.
//
// The output is the reduction itself (TVM's cache_write has no
// counterpart), so each is two kernels: zero the output, then accumulate
// into it.
//
// Ours, fast (algo.Conv1DAcc.GPUScheduleFast), writes the reduction in a
// Func of its own, Acc, which lives in registers: one kernel, blocks of 128
// threads and 1408 outputs, 11 consecutive outputs per thread (each tap one
// register of b, the slice of a they share read once from shared memory),
// the block's slice of a staged in shared memory with its loads issued back
// to back, and the outputs written through shared memory, coalesced. At 2^24
// samples the op is memory-bound (8 bytes of DRAM traffic per 64 flops;
// an H100 has 22 flops per byte), so the floor is reading a and b and
// writing the output once.
//
// By default every schedule runs on the GPU emulator (every thread of every
// block) at a small size and is checked against a plain-Go reference;
// -target=cuda (built with -tags cuda) checks them on the GPU and times
// them at the sizes above.
//
//	go run ./apps/conv1d                 # every schedule on the emulator
//	go run -tags cuda ./apps/conv1d -target=cuda -bench=50
//	go run ./apps/conv1d -h              # the flags, the same for every app
//
// The table's columns are explained below it (apps/internal/appkit).
package main

import (
	"fmt"

	"github.com/gohalide/gohalide/apps/algo"
	"github.com/gohalide/gohalide/apps/internal/appkit"
)

// The tutorial's times on a T4, in ms: the table of its section 2.3
// (naive 18.286, v1 0.107, v2 0.0251, v3 0.0158, v4 0.0147, v5 0.0124),
// the same as the ones quoted in the text.
var seedT4Ms = map[string]float64{"naive": 18.286, "v1": 0.107, "v2": 0.0251, "v3": 0.0158, "v4": 0.0147, "v5": 0.0124}

// The tutorial's size, and the check size of its schedules on the emulator.
const (
	seedM, seedN   = 16384, 32
	smallM, smallN = 2000, 32
)

// seed is one of the tutorial's schedules, v1 to v5, on algo.Conv1D.
func seed(name string, apply func(*algo.Conv1D)) appkit.Schedule {
	return schedule(name, seedM, seedN, smallM, smallN, algo.NewConv1D, apply)
}

// naive is the tutorial's naive baseline: its algorithm, scheduled as v1
// (the output, pure stage and update, over the blocks). Checked at M = 1000:
// each output sums M+N-1 terms, on one emulated thread.
func naive() appkit.Schedule {
	return schedule("naive", seedM, seedN, 1000, smallN, algo.NewConv1DSeedNaive, (*algo.Conv1D).GPUScheduleV1)
}

// fast is ours at M = 2^24, N = 32.
func fast() appkit.Schedule {
	const m, n = 1 << 24, 32
	return schedule("fast", m, n, smallM, smallN, algo.NewConv1DAcc, func(v *algo.Conv1DAcc) { v.GPUScheduleFast(algo.DefaultConv1DTiling) })
}

// schedule is apply on newConv's algorithm at m x n, checked at smallM x
// smallN.
func schedule[A algo.Algorithm](name string, m, n, smallM, smallN int, newConv func(m, n int) A, apply func(A)) appkit.Schedule {
	build := func(m, n int) func() algo.Algorithm {
		return appkit.Build(func() A { return newConv(m, n) }, apply)
	}
	return appkit.Schedule{
		Name:      name,
		Size:      fmt.Sprintf("M=%d N=%d", m, n),
		Build:     build(m, n),
		Small:     build(smallM, smallN),
		SmallSize: fmt.Sprintf("M=%d N=%d", smallM, smallN),
		// a and b read once, the M+N-1 outputs written once.
		Bytes: 4 * float64(m+n+m+n-1),
		Flops: 2 * float64(m) * float64(n),
		T4Ms:  seedT4Ms[name],
	}
}

// App is the conv1d app: the tutorial's schedules, then ours.
var App = appkit.App{
	Name: "conv1d",
	What: "full 1-D convolution of a[M] and b[N] (M+N-1 outputs)",
	// naive, then algo.Conv1DGPUSchedules (v1 to v5), then fast.
	Schedules: append(append([]appkit.Schedule{naive()}, appkit.Schedules(algo.Conv1DGPUSchedules, nil, seed)...), fast()),
}

func main() { appkit.Main(App) }
