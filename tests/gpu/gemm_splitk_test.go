package gpu_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gohalide/gohalide/apps/algo"
	"github.com/gohalide/gohalide/cfamily"
	"github.com/gohalide/gohalide/halide"
	"github.com/gohalide/gohalide/ir"
)

// The split-K GEMM (apps/algo/gemm_splitk.go) under GPUScheduleSplitK on
// the emulator, against the float64 reference (random inputs in [-1, 1],
// algo.Tol = 1e-4 relative to max(1, |want|)), and the shape of its two
// kernels: the zeros, then the update with one block per tile and slice,
// the slice's tile of A and of B in shared memory, each thread's tile of
// partial sums in registers, and one atomic add per output point per
// block, after the k loop.
func TestAppsGEMMSplitK(t *testing.T) {
	t64x32 := algo.GEMMTiling{BlockJ: 64, BlockI: 32, RegJ: 4, RegI: 4, KStep: 16}
	t32x32 := algo.GEMMTiling{BlockJ: 32, BlockI: 32, RegJ: 2, RegI: 4, KStep: 8}
	t128x64 := algo.GEMMTiling{BlockJ: 128, BlockI: 64, RegJ: 8, RegI: 8, KStep: 8}
	for _, c := range []struct {
		M, N, K, S int
		t          algo.GEMMTiling
	}{
		{64, 64, 64, 4, t64x32},   // tiles divide M and N; one step per slice
		{64, 128, 128, 2, t64x32}, // 4 steps per slice
		{72, 80, 48, 3, t64x32},   // no tile divides M or N; an odd number of slices
		{40, 36, 60, 6, t32x32},   // slices of 10, not a multiple of the steps of 8
		{50, 70, 96, 4, t128x64},  // one tile, larger than M and N
		{33, 17, 8, 8, t32x32},    // slices of one k
	} {
		name := fmt.Sprintf("%dx%dx%d_S%d_%dx%d_%dx%d_k%d", c.M, c.N, c.K, c.S, c.t.BlockJ, c.t.BlockI, c.t.RegJ, c.t.RegI, c.t.KStep)
		t.Run(name, func(t *testing.T) {
			g, err := algo.NewGEMMSplitK(c.M, c.N, c.K, c.S)
			if err != nil {
				t.Fatal(err)
			}
			g.GPUScheduleSplitK(c.t)
			reps, l := realizeApp(t, g)
			if len(reps) != 2 {
				t.Fatalf("%d kernels, want 2 (the zeros, then the sums of the slices)", len(reps))
			}
			checkKernel(t, reps[0], want{block: []int64{32, 8, 1}, shared: []alloc{}, registers: []alloc{}, barriers: 0})
			tj, ti := c.t.BlockJ/c.t.RegJ, c.t.BlockI/c.t.RegI
			r := reps[1]
			checkKernel(t, r, want{
				block:     []int64{int64(tj), int64(ti), 1},
				shared:    []alloc{{g.AIn.Name(), int64(c.t.BlockI * c.t.KStep)}, {g.BIn.Name(), int64(c.t.KStep * c.t.BlockJ)}},
				registers: []alloc{{g.Partial.Name(), int64(c.t.RegJ * c.t.RegI)}},
				barriers:  -1,
			})
			// Block x over the column tiles, y over the row tiles, z
			// over the slices.
			grid := []int64{int64((c.N + c.t.BlockJ - 1) / c.t.BlockJ), int64((c.M + c.t.BlockI - 1) / c.t.BlockI), int64(c.S)}
			if fmt.Sprint(r.GridValues) != fmt.Sprint(grid) {
				t.Errorf("grid %v, want %v", r.GridValues, grid)
			}
			if c.K/c.S > c.t.KStep {
				checkStepBarriers(t, l, ".ko", g.AIn.Name(), g.BIn.Name())
			}
			checkSplitKAtomics(t, l.Kernels()[1], g.Output.Name(), c.t.RegJ*c.t.RegI)
		})
	}
}

// checkSplitKAtomics checks that the stores of the update kernel k to out
// are atomic, that none is inside a loop (the k loop in particular: the
// thread's tile loops are unrolled, so each point of a block's tile gets
// one atomic add), and that each path through the kernel (the full tile,
// and the tail one where there is one) has one per point of the thread's
// tile.
func checkSplitKAtomics(t *testing.T, k *ir.Kernel, out string, perThread int) {
	t.Helper()
	var n int
	var walk func(s ir.Stmt, loops []string)
	walk = func(s ir.Stmt, loops []string) {
		ir.WalkStmt(s, func(s ir.Stmt) bool {
			switch s := s.(type) {
			case *ir.For:
				walk(s.Body, append(loops[:len(loops):len(loops)], s.Name))
				return false
			case *ir.Store:
				if s.Buf != out {
					return true
				}
				if !s.Atomic {
					t.Errorf("%s: a store to %s is not atomic", k.Name, out)
				}
				if len(loops) > 0 {
					t.Errorf("%s: an atomic store to %s inside the loops %v", k.Name, out, loops)
				}
				n++
			}
			return true
		}, nil)
	}
	walk(k.Body, nil)
	if n == 0 || n%perThread != 0 || n > 2*perThread {
		t.Errorf("%s: %d stores to %s, want %d per path (the full tile and the tail)", k.Name, n, out, perThread)
	}
}

// The split-K schedules of apps/gemm at its benchmark size (too big for
// the emulator) compile with nvcc for sm_90 with the shared memory the
// compiler inferred, and keep each thread's partial sums in registers:
// no stack frame, no spills.
func TestAppsGEMMSplitKNVCC(t *testing.T) {
	if _, ok := cfamily.NVCCPath(); !ok {
		t.Skip("nvcc not found: install the CUDA 11.8 toolkit with scripts/install-cuda-toolkit.sh to run this check")
	}
	if testing.Short() {
		t.Skip("about 3 s of nvcc per schedule")
	}
	for _, s := range algo.GEMMSplitKSchedules {
		t.Run(s.Name, func(t *testing.T) {
			// apps/gemm's size: M = 1024, N = 512, K = 2048.
			g, err := s.New(1024, 512, 2048)
			if err != nil {
				t.Fatal(err)
			}
			l, err := halide.NewPipeline(g.Out()).Lower()
			if err != nil {
				t.Fatal(err)
			}
			ks := l.Kernels()
			src := checkKernelsNVCC(t, ks)
			if n := strings.Count(src, "atomicAdd("); n == 0 {
				t.Errorf("no atomicAdd in the CUDA source")
			}
		})
	}
}
