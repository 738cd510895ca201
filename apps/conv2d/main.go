// Command conv2d runs the 2-D convolution of TVM's "how to optimize
// convolution on GPU" tutorial
// (https://tvm.apache.org/docs/how_to/optimize_operators/opt_conv_cuda.html):
// HWCN layout (the image innermost), batch 256, 256 input and 512 output
// channels, 14 x 14 pixels, 3 x 3 kernel, padding 1, stride 1, under the
// tutorial's schedule and under ours.
//
//   - tvm (algo.Conv2D.GPUScheduleTVM): a block per pixel and 64 x 64 tile
//     of (out channel, image), 2 x 2 virtual threads (VThread) of 8 x 8
//     threads of 4 x 4 points, thread x over the images; the accumulators
//     (BL) in registers, the reduction in steps of 8 input channels, and
//     for each step and tap the tiles of the padded input (AA) and of the
//     weights (WW) staged in shared memory by the block's threads together.
//     BL is computed inside the virtual thread loop (4 x 4 registers), so
//     each virtual thread stages its own 8 x 32 tiles (see conv2d.go).
//   - ours (algo.Conv2D.GPUScheduleOurs): the same blocks, threads and
//     steps with contiguous 8 x 8 points per thread, so a thread's 64
//     accumulators are one Func computed at the thread loop and the shared
//     tiles are the tutorial's 8 x 64, loaded once per step and tap.
//
// By default every schedule runs on the GPU emulator (every thread of every
// block) at batch 64, 16 input and 64 output channels, 6 x 6 pixels, and is
// checked against a plain-Go reference; -target=cuda (built with -tags
// cuda) checks them on the GPU and times them at the size above. The
// tutorial reports 54.1 ms for its schedule on a GPU it does not name
// (TVM's documentation build), so no T4 time is given.
//
//	go run ./apps/conv2d                 # every schedule on the emulator
//	go run -tags cuda ./apps/conv2d -target=cuda -bench=50
//	go run ./apps/conv2d -h              # the flags, the same for every app
//
// The table's columns are explained below it (apps/internal/appkit).
package main

import (
	"fmt"

	"github.com/gohalide/gohalide/apps/algo"
	"github.com/gohalide/gohalide/apps/internal/appkit"
)

// The tutorial's size, and the emulator's: one 64 x 64 block tile per
// pixel, 36 pixels, two steps of 8 input channels.
const (
	batch, inC, outC, size, kernel, pad = 256, 256, 512, 14, 3, 1
	smallBatch, smallInC, smallOutC     = 64, 16, 64
	smallSize                           = 6
)

func schedule(name string, apply func(*algo.Conv2D)) appkit.Schedule {
	build := func(batch, inC, outC, size int) func() algo.Algorithm {
		return appkit.Build(func() *algo.Conv2D { return algo.NewConv2D(batch, inC, outC, size, kernel, pad) }, apply)
	}
	out := size + 2*pad - kernel + 1
	return appkit.Schedule{
		Name:      name,
		Size:      fmt.Sprintf("N=%d C=%d F=%d %dx%d K=%d pad=%d", batch, inC, outC, size, size, kernel, pad),
		Build:     build(batch, inC, outC, size),
		Small:     build(smallBatch, smallInC, smallOutC, smallSize),
		SmallSize: fmt.Sprintf("N=%d C=%d F=%d %dx%d K=%d pad=%d", smallBatch, smallInC, smallOutC, smallSize, smallSize, kernel, pad),
		// The input, the weights and the output, each once.
		Bytes: 4 * float64(batch*inC*size*size+outC*inC*kernel*kernel+batch*outC*out*out),
		Flops: 2 * float64(batch) * float64(outC) * float64(out*out) * float64(inC) * float64(kernel*kernel),
	}
}

// App is the conv2d app: the tutorial's schedule, then ours
// (algo.Conv2DGPUSchedules: "tvm", "ours").
var App = appkit.App{
	Name:      "conv2d",
	What:      "B[y][x][f][n] = sum A[y+ry-1][x+rx-1][c][n] · W[ry][rx][c][f], HWCN, float32",
	Schedules: appkit.Schedules(algo.Conv2DGPUSchedules, nil, schedule),
}

func main() { appkit.Main(App) }
