// Command depthwise runs the depthwise 2-D convolution of the TVM tutorial
// "2D Depth Conv GPU Optimization" (a blog post) under the tutorial's
// schedules, naive and v1 to v4, at its size, and under ours, fast, at two
// MobileNet-like sizes.
//
// Each image of a batch of B, C channels of H x W pixels (NCHW), is
// convolved channel by channel with its own K x K kernel, "same" zero
// padding. The tutorial's schedules, at (B, C, H, W, K) = (3, 4, 16, 32, 7):
//
//   - naive: one block per image, one thread running the loops over c, h
//     and w;
//   - v1: a block per (image, channel);
//   - v2: (b, c) fused into block x, the row h block y;
//   - v3: 16 x 16 threads over (w, h), the outer w a serial loop;
//   - v4: the outer h and w fused into block y: a block per 16 x 16 tile.
//
// Ours, fast (algo.DepthwiseStaged.GPUScheduleFast), at (64, 32, 112, 112, 3)
// and (4, 32, 112, 112, 3): a block per 112 x 16 tile (whole rows, so one
// contiguous span) of one channel of one image; 112 x 2 threads along x, 8
// consecutive rows each, their accumulators in registers; the tile's padded
// input with its halo staged in shared memory by 114 x 2 threads, whose
// global loads have no condition (the zero padding is a select in
// registers) so that nvcc issues them back to back; the weights in shared
// memory. The convolution is memory-bound (18 flops per 8 bytes), so the
// floor is the DRAM traffic: input, output and weights once.
//
// By default every schedule runs on the GPU emulator (every thread of every
// block, checking shared-memory races, barriers and bounds) at a small size
// and is checked against a plain-Go reference; -target=cuda (built with
// -tags cuda) checks them on the GPU and times them at the sizes above.
//
//	go run ./apps/depthwise                 # every schedule on the emulator
//	go run -tags cuda ./apps/depthwise -target=cuda -bench=50
//	go run ./apps/depthwise -h              # the flags, the same for every app
//
// The table's columns are explained below it (apps/internal/appkit).
package main

import (
	"fmt"

	"github.com/gohalide/gohalide/apps/algo"
	"github.com/gohalide/gohalide/apps/internal/appkit"
)

// The tutorial's times on a T4, in ms: the table of its section 2.3
// "Performance Results" (Naive 3.2904, v1 0.7687, v2 0.0762, v3 0.0101,
// v4 0.0080), the same as the ones quoted after each schedule's IR.
var seedT4Ms = map[string]float64{"naive": 3.2904, "v1": 0.7687, "v2": 0.0762, "v3": 0.0101, "v4": 0.0080}

// seed is one of the tutorial's schedules at its size, (3, 4, 16, 32, 7):
// small enough for the emulator, so it is checked at that size too.
func seed(name string, apply func(*algo.Depthwise)) appkit.Schedule {
	const b, c, h, w, k = 3, 4, 16, 32, 7
	return appkit.Schedule{
		Name:  name,
		Size:  size(b, c, h, w, k),
		Build: appkit.Build(func() *algo.Depthwise { return algo.NewDepthwise(b, c, h, w, k) }, apply),
		Bytes: bytes(b, c, h, w, k),
		Flops: flops(b, c, h, w, k),
		T4Ms:  seedT4Ms[name],
	}
}

// fast is our schedule at batch b of 32 channels of 112 x 112, kernel 3
// (checked on a 1 x 4 x 20 x 24 batch: two tiles per channel that
// overlap, the last shifted inwards).
func fast(b int) appkit.Schedule {
	const c, h, w, k = 32, 112, 112, 3
	build := func(b, c, h, w, k int) func() algo.Algorithm {
		return appkit.Build(func() *algo.DepthwiseStaged { return algo.NewDepthwiseStaged(b, c, h, w, k) },
			func(d *algo.DepthwiseStaged) { d.GPUScheduleFast(algo.DefaultDepthwiseTiling) })
	}
	return appkit.Schedule{
		Name:      "fast",
		Size:      size(b, c, h, w, k),
		Build:     build(b, c, h, w, k),
		Small:     build(1, 4, 20, 24, k),
		SmallSize: size(1, 4, 20, 24, k),
		Bytes:     bytes(b, c, h, w, k),
		Flops:     flops(b, c, h, w, k),
	}
}

func size(b, c, h, w, k int) string { return fmt.Sprintf("%dx%dx%dx%d K=%d", b, c, h, w, k) }

// bytes is the DRAM traffic of one run: input, output and weights, once.
func bytes(b, c, h, w, k int) float64 { return 4 * float64(2*b*c*h*w+c*k*k) }

// flops: a multiply and an add per tap.
func flops(b, c, h, w, k int) float64 { return 2 * float64(b*c*h*w*k*k) }

// App is the depthwise app: the tutorial's schedules (those of
// algo.DepthwiseGPUSchedules that it timed: naive, v1 to v4), then ours.
var App = appkit.App{
	Name:      "depthwise",
	What:      "depthwise 2-D convolution, NCHW, same zero padding; size BxCxHxW K=kernel",
	Schedules: append(appkit.Schedules(algo.DepthwiseGPUSchedules, isSeed, seed), fast(64), fast(4)),
}

// isSeed says whether a schedule is one the tutorial timed.
func isSeed(name string) bool {
	_, ok := seedT4Ms[name]
	return ok
}

func main() { appkit.Main(App) }
