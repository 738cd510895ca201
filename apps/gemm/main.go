// Command gemm runs the float32 matrix product C = A·B of a TVM GEMM
// tutorial (a blog post of 2025-04-06: "optimization techniques for GEMM in
// GPU using TVM"), M = 1024, K = 2048, N = 512, all row-major, under the
// tutorial's schedules, naive and v1 to v3, and under ours, tiled_shared.
//
// The tutorial's schedules:
//
//   - naive: one block per element of C, one thread running the whole k
//     loop;
//   - v1: the rows in blocks of 32 threads, the column block y;
//   - v2: 32 x 32 tiles of C, a thread per element;
//   - v3: 16 x 16 tiles, the k loop in steps of 8, the 16 x 8 tile of A
//     and the 8 x 16 tile of B of each step staged in shared memory by the
//     block's 256 threads together.
//
// Ours, tiled_shared (algo.GEMM.GPUScheduleTiledShared with
// algo.DefaultGEMMTiling): 64 x 64 tiles of C over 16 x 16 threads, a 4 x
// 4 tile of accumulators per thread in registers (loops unrolled), steps of
// 8 k, the 64 x 8 tile of A and the 8 x 64 tile of B of each step staged
// in shared memory by the block's threads together (consecutive threads,
// consecutive addresses); thread x along the columns. 128 blocks at this
// size: one wave on an H100's 132 SMs (a 128 x 128 tile, 8 x 8 per
// thread, would give 32). GEMM is
// compute-bound (2·M·N·K flops for 4·(MK+KN+MN) bytes), so the floor is
// the FP32 peak without tensor cores.
//
// Ours too, splitk* (algo.GEMMSplitK under GPUScheduleSplitK, the list in
// algo.GEMMSplitKSchedules): the same tiles, with the k loop cut into S
// slices by rfactor that run on different blocks (block z), each block
// adding its tile of its slice's sums into C with atomic adds, after a
// kernel that zeroes C. At this size the output alone has too few tiles to fill the
// GPU for a 2048-long k loop each; the slices make S times the blocks.
//
// By default every schedule runs on the GPU emulator (every thread of every
// block) at 64 x 64 x 64 and is checked against a plain-Go reference;
// -target=cuda (built with -tags cuda) checks them on the GPU and times
// them at the size above.
//
//	go run ./apps/gemm                 # every schedule on the emulator
//	go run -tags cuda ./apps/gemm -target=cuda -bench=50
//	go run ./apps/gemm -h              # the flags, the same for every app
//
// The table's columns are explained below it (apps/internal/appkit).
package main

import (
	"fmt"

	"github.com/gohalide/gohalide/apps/algo"
	"github.com/gohalide/gohalide/apps/internal/appkit"
)

// The tutorial's times on a T4, in ms: the table of its section 2.3
// ("Naive 84.52, v1 36.98, v2 35.50, v3 8.11"), the same as the ones
// quoted in the text.
var seedT4Ms = map[string]float64{"naive": 84.52, "v1": 36.98, "v2": 35.50, "v3": 8.11}

// The tutorial's size, and the emulator's.
const (
	m, k, n                = 1024, 2048, 512
	smallM, smallK, smallN = 64, 64, 64
)

func schedule(name string, apply func(*algo.GEMM)) appkit.Schedule {
	return sized(name, func(m, k, n int) func() algo.Algorithm {
		return func() algo.Algorithm {
			g := algo.NewGEMM(m, n, k)
			apply(g)
			return g
		}
	})
}

// sized is the schedule whose build(m, k, n) makes the algorithm at the
// tutorial's size and at the emulator's.
func sized(name string, build func(m, k, n int) func() algo.Algorithm) appkit.Schedule {
	return appkit.Schedule{
		Name:      name,
		Size:      fmt.Sprintf("M=%d K=%d N=%d", m, k, n),
		Build:     build(m, k, n),
		Small:     build(smallM, smallK, smallN),
		SmallSize: fmt.Sprintf("M=%d K=%d N=%d", smallM, smallK, smallN),
		// A, B read once and C written once.
		Bytes: 4 * float64(m*k+k*n+m*n),
		Flops: 2 * float64(m) * float64(n) * float64(k),
		T4Ms:  seedT4Ms[name],
	}
}

// App is the gemm app: the tutorial's schedules, then ours.
var App = appkit.App{
	Name: "gemm",
	What: "C[M][N] = A[M][K] · B[K][N], float32, row-major",
	Schedules: append([]appkit.Schedule{
		schedule("naive", (*algo.GEMM).GPUScheduleNaive),
		schedule("v1", (*algo.GEMM).GPUScheduleV1),
		schedule("v2", (*algo.GEMM).GPUScheduleV2),
		schedule("v3", (*algo.GEMM).GPUScheduleV3),
		schedule("tiled_shared", func(g *algo.GEMM) { g.GPUScheduleTiledShared(algo.DefaultGEMMTiling) }),
		// The same with smaller block tiles: more blocks (256 and 512 at
		// this size) to fill the SMs, at the price of more shared loads per
		// multiply-add.
		schedule("tiled_shared_32x64", func(g *algo.GEMM) {
			g.GPUScheduleTiledShared(algo.GEMMTiling{BlockJ: 32, BlockI: 64, RegJ: 4, RegI: 4, KStep: 16})
		}),
		schedule("tiled_shared_32x32", func(g *algo.GEMM) {
			g.GPUScheduleTiledShared(algo.GEMMTiling{BlockJ: 32, BlockI: 32, RegJ: 2, RegI: 4, KStep: 16})
		}),
		// 64 columns x 32 rows, 4x4 per thread (128 threads, 256 blocks):
		// the fastest on the H100 once the shared operands are read as
		// float4 (109.6 us against 115.7 for 32x32; docs/benchmarks.md).
		schedule("tiled_shared_64x32", func(g *algo.GEMM) {
			g.GPUScheduleTiledShared(algo.GEMMTiling{BlockJ: 64, BlockI: 32, RegJ: 4, RegI: 4, KStep: 16})
		}),
		// 64x64 tiles, 4x4 per thread (256 threads, 128 blocks), steps of
		// 32 or 64 k values: fewer barriers per multiply-add. Steps of 64
		// were the fastest GEMM of a sweep on the H100 (87.7 us against
		// 91.9 for 32; docs/benchmarks.md); 128 needs 64 KB of static
		// shared memory, over the 48 KB limit.
		schedule("tiled_shared_64x64_k32", func(g *algo.GEMM) {
			g.GPUScheduleTiledShared(algo.GEMMTiling{BlockJ: 64, BlockI: 64, RegJ: 4, RegI: 4, KStep: 32})
		}),
		schedule("tiled_shared_64x64_k64", func(g *algo.GEMM) {
			g.GPUScheduleTiledShared(algo.GEMMTiling{BlockJ: 64, BlockI: 64, RegJ: 4, RegI: 4, KStep: 64})
		}),
		// The same, each thread loading 4 consecutive elements of the
		// A and B tiles at a time: float4 from global memory and into
		// shared memory (GEMMTiling.Vec, vector_access).
		schedule("tiled_shared_64x32_v4", func(g *algo.GEMM) {
			g.GPUScheduleTiledShared(algo.GEMMTiling{BlockJ: 64, BlockI: 32, RegJ: 4, RegI: 4, KStep: 16, Vec: 4})
		}),
	}, splitKSchedules()...),
}

// splitKSchedules are the split-K schedules (algo.GEMMSplitKSchedules):
// the k loop cut into S slices on different blocks, summed into C with
// atomic adds after a kernel that zeroes C. A split factor that does not
// divide both sizes' K is a mistake in the list, refused when the program
// starts.
func splitKSchedules() []appkit.Schedule {
	var out []appkit.Schedule
	for _, s := range algo.GEMMSplitKSchedules {
		sc := sized(s.Name, func(m, k, n int) func() algo.Algorithm {
			if _, err := algo.NewGEMMSplitK(m, n, k, s.S); err != nil {
				panic(fmt.Sprintf("gemm: schedule %s: %v", s.Name, err))
			}
			return func() algo.Algorithm {
				g, _ := s.New(m, n, k)
				return g
			}
		})
		t := s.Tiling
		sc.What = fmt.Sprintf("split-K: %d slices of k on blocks, %dx%d tiles, %dx%d per thread, steps of %d, atomic adds into C",
			s.S, t.BlockJ, t.BlockI, t.RegJ, t.RegI, t.KStep)
		out = append(out, sc)
	}
	return out
}

func main() { appkit.Main(App) }
