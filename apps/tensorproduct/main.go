// Command tensorproduct runs the gather / tensor-product / scatter pipeline
// of Halide issue #8427 under the issue's schedules A, B and C, and ours,
// prints each schedule's kernels with their shared and register
// allocations and barriers, and checks the result against a plain-Go
// reference.
//
// GatherWeight is the Func the issue is about: stored in GPU shared memory
// and computed inside the thread loops (schedule A), Halide sizes it per
// thread times every thread extent, 16384 floats; the union of what the
// block's threads need is 512, produced by the block together, with
// barriers. Schedule B computes it at the block loop (2048 floats), C moves
// the channel loop between the blocks and the threads (512).
//
// By default the kernels run on the GPU emulator (every thread of every
// block, checking shared-memory races, barriers and bounds) at a small
// size: 64 channels, 2 offsets x 300 pairs, 200 points. -target=cuda
// checks them at that size on an NVIDIA GPU (build with -tags cuda; see
// docs/gpu.md) and times them with CUDA events at the issue's size: 64
// channels, 27 offsets x 33333 pairs, 100000 points. -target=cpu runs CPU
// versions of A, B and C at the small size instead (blocks as parallel
// loops, threads as serial loops).
//
//	go run ./apps/tensorproduct                 # every schedule on the emulator
//	go run -tags cuda ./apps/tensorproduct -target=cuda -bench=50
//	go run ./apps/tensorproduct -h              # the flags, the same for every app
//
// The table's columns are explained below it (apps/internal/appkit).
package main

import (
	"fmt"

	"github.com/gohalide/gohalide/apps/algo"
	"github.com/gohalide/gohalide/apps/internal/appkit"
)

// size is one size of the tensor product: C = M channels, N offsets of P
// pairs, points input and output points, and the maps: uniform (the
// peers' distribution) or hot spots (every fifth pair scatters to point 0:
// atomic collisions).
type size struct {
	channels, offsets, pairs, points int
	hotSpot                          bool
}

var (
	// benchSize is the size of Halide issue #8427, with uniform maps as
	// the PyTorch and Triton baselines draw them.
	benchSize = size{64, 27, 33333, 100000, false}
	// hotSpotSize is the same with the hot-spot maps: a second, labelled
	// workload.
	hotSpotSize = size{64, 27, 33333, 100000, true}
	// smallSize is the emulator's (and the check's on every target), with
	// the hot-spot maps: collisions are what the check must see.
	smallSize = size{64, 2, 300, 200, true}
)

// String names the size as bench/workloads.py's tensorproduct workloads
// do ("C=64 M=64 N=27 P=33333 points=100000 hotspot=0").
func (z size) String() string {
	hot := 0
	if z.hotSpot {
		hot = 1
	}
	return fmt.Sprintf("C=%d M=%d N=%d P=%d points=%d hotspot=%d", z.channels, z.channels, z.offsets, z.pairs, z.points, hot)
}

// bytes is the minimal DRAM traffic of one run: the input, the weights,
// imap and omap (int32) and the output, each once.
func (z size) bytes() float64 {
	c, n, p, pts := float64(z.channels), float64(z.offsets), float64(z.pairs), float64(z.points)
	return 4 * (pts*c + c*c*n + 2*n*p + pts*c)
}

// flops: a multiply and an add per input channel, output channel and pair.
func (z size) flops() float64 {
	return 2 * float64(z.channels) * float64(z.channels) * float64(z.offsets) * float64(z.pairs)
}

type tpSchedule func(*algo.TensorProduct, algo.TPFactors)

// build makes the algorithm at size z under schedule apply.
func build(z size, apply tpSchedule) func() algo.Algorithm {
	return func() algo.Algorithm {
		t := algo.NewTensorProduct(z.channels, z.channels, z.offsets, z.pairs, z.points, z.points)
		if !z.hotSpot {
			t.Maps = algo.UniformMaps
		}
		apply(t, algo.IssueFactors)
		return t
	}
}

// schedule is one schedule at the benchmark size z: its GPU version, and
// its CPU version if any.
func schedule(name, what string, z size, gpu, cpu tpSchedule) appkit.Schedule {
	s := appkit.Schedule{
		Name:      name,
		What:      what,
		Size:      z.String(),
		SmallSize: smallSize.String(),
		Build:     build(z, gpu),
		Small:     build(smallSize, gpu),
		Bytes:     z.bytes(),
		Flops:     z.flops(),
	}
	if cpu != nil {
		s.CPU = build(smallSize, cpu)
	}
	return s
}

// App is the tensorproduct app: the issue's schedules, then ours.
var App = appkit.App{
	Name:    "tensorproduct",
	What:    "gather / per-offset tensor product / scatter of Halide issue #8427, float32",
	Kernels: true,
	Schedules: []appkit.Schedule{
		schedule("A", "GatherWeight at Product's c1, inside the thread loops (Halide: 16384 floats)", benchSize,
			(*algo.TensorProduct).GPUScheduleA, (*algo.TensorProduct).ScheduleA),
		schedule("B", "GatherWeight at the block loop m (Halide: 2048 floats)", benchSize,
			(*algo.TensorProduct).GPUScheduleB, (*algo.TensorProduct).ScheduleB),
		schedule("C", "c1 between blocks and threads; GatherWeight at c1 with its own threads (Halide: 512 floats)", benchSize,
			(*algo.TensorProduct).GPUScheduleC, (*algo.TensorProduct).ScheduleC),
		schedule("best", "ours: one launch, 64 pairs x 64 channels per block, input rows and weights staged in shared, 4x4 register tiles", benchSize,
			func(t *algo.TensorProduct, _ algo.TPFactors) { t.GPUScheduleBest() }, nil),
		schedule("best_p128", "best with 128 pairs per block and 4 m x 8 pairs per thread: each offset's weights loaded once per 128 pairs", benchSize,
			func(t *algo.TensorProduct, _ algo.TPFactors) { t.GPUScheduleBestTile(128, 8) }, nil),
		schedule("best_hotspot", "best on the hot-spot maps (every fifth pair scatters to output point 0): the atomics' collisions", hotSpotSize,
			func(t *algo.TensorProduct, _ algo.TPFactors) { t.GPUScheduleBest() }, nil),
	},
}

func main() { appkit.Main(App) }
