// Command conv2d runs the 2-D convolution of TVM's "how to optimize
// convolution on GPU" tutorial (HWCN layout, batch 256, 256 input and 512
// output channels, 14x14 pixels, 3x3 kernel, padding 1, stride 1) under
// the tutorial's schedule ("tvm": 64x64 block tiles of (out channel,
// image), 2x2 virtual threads of 8x8 threads of 4x4 points, the input and
// weight tiles of each step of 8 input channels staged in shared memory)
// and under ours ("ours": the same blocks, threads and steps with
// contiguous 8x8 tiles per thread, so the accumulators of a thread are one
// 64-register tile and the shared tiles are the tutorial's 8x64). See
// apps/algo/conv2d.go for the algorithm and what each schedule does and
// why.
//
// By default the kernels run on the GPU emulator at a small size (batch
// 64, 16 input and 64 output channels, 6x6 pixels) and are checked against
// a plain-Go reference; -target=cuda (build with -tags cuda) checks them on
// the GPU at the small size and times them at the tutorial's size.
//
// The tutorial reports 54.1 ms for its schedule on a GPU it does not name
// (TVM's documentation build), so no T4 time is given.
//
//	go run ./apps/conv2d [-target=emulator|cuda] [-schedule=tvm|ours|all] [-bench=N] [-json] [-stmt] [-cuda]
package main

import (
	"github.com/gohalide/gohalide/apps/algo"
	"github.com/gohalide/gohalide/apps/internal/appkit"
)

// The tutorial's size.
const (
	batch, inC, outC, size, kernel, pad = 256, 256, 512, 14, 3, 1
)

// The small size of the check on the emulator: one 64x64 block tile per
// pixel, 36 pixels, two steps of 8 input channels.
const (
	smallBatch, smallInC, smallOutC, smallSize = 64, 16, 64, 6
)

func main() {
	out := size + 2*pad - kernel + 1
	bytes := 4 * float64(batch*inC*size*size+outC*inC*kernel*kernel+batch*outC*out*out)
	flops := 2 * float64(batch) * float64(outC) * float64(out*out) * float64(inC) * float64(kernel*kernel)
	var schedules []appkit.Schedule
	for _, s := range algo.Conv2DGPUSchedules {
		s := s
		schedules = append(schedules, appkit.Schedule{
			Name: s.Name,
			Size: "N=256 C=256 F=512 14x14 K=3 pad=1",
			Build: func() algo.Algorithm {
				c := algo.NewConv2D(batch, inC, outC, size, kernel, pad)
				s.Apply(c)
				return c
			},
			Small: func() algo.Algorithm {
				c := algo.NewConv2D(smallBatch, smallInC, smallOutC, smallSize, kernel, pad)
				s.Apply(c)
				return c
			},
			Bytes: bytes,
			Flops: flops,
		})
	}
	appkit.Main(appkit.App{
		Name:      "conv2d",
		What:      "2-D convolution, HWCN, of TVM's \"how to optimize convolution on GPU\"",
		Schedules: schedules,
	})
}
