// Command rowsum sums each row of an 8192 x 8192 float32 array
// (torch.sum(x, dim=1); the bench/ peer times exactly that), under three
// schedules of algo.RowSum:
//
//   - plain: one thread per row, blocks of 128 rows, each thread summing
//     its row serially (the contrast: neighbouring threads read addresses
//     a row apart, so no load is coalesced);
//   - block: one block of 256 threads per row (GPUScheduleBlock). RFactor
//     makes each thread's partial sum a Func of its own, in registers:
//     thread t reads the 4 floats at 4t of every 1024-column chunk (one
//     float4 load; a warp reads 512 consecutive bytes), and the output
//     adds the threads' sums as an all-reduce that lowering makes from the
//     schedule (GPUThreads on the RVar): warp shuffles, one shared slot per
//     warp, a barrier, a last shuffle tree;
//   - warp: one warp per row, 8 rows per block (GPUScheduleWarp). Lane l
//     reads the float4 at 4l of every 128-column chunk; the output adds
//     the lanes' sums with warp shuffles alone (GPULanes on the RVar: no
//     shared memory, no barrier).
//
// Each schedule is one kernel: the reduction Acc (its init and its
// update) is computed inside the output's blocks.
//
// The op reads the array once and writes 8192 floats: 268 MB, about 80 us
// at an H100's 3.35 TB/s, the memory floor the table's "floor" column
// compares with.
//
// By default every schedule runs on the GPU emulator (every thread of every
// block) at a small size and is checked against a plain-Go reference;
// -target=cuda (built with -tags cuda) checks them on the GPU and times
// them at 8192 x 8192.
//
//	go run ./apps/rowsum                 # every schedule on the emulator
//	go run -tags cuda ./apps/rowsum -target=cuda -bench=50
//	go run ./apps/rowsum -h              # the flags, the same for every app
//
// The table's columns are explained below it (apps/internal/appkit).
package main

import (
	"fmt"

	"github.com/gohalide/gohalide/apps/algo"
	"github.com/gohalide/gohalide/apps/internal/appkit"
)

// The benchmark size (torch.sum's peer in bench/workloads.py times the
// same) and the size of the emulator's check: rows not a multiple of the
// warp schedule's 8 rows per block or of the plain one's 128.
const (
	benchW, benchH = 8192, 8192
	smallW, smallH = 2048, 37
)

func schedule(name, what string, apply func(*algo.RowSum) error) appkit.Schedule {
	build := func(w, h int) func() algo.Algorithm {
		return func() algo.Algorithm {
			v := algo.NewRowSum(w, h)
			if err := apply(v); err != nil {
				panic(err) // the sizes above fit every schedule
			}
			return v
		}
	}
	return appkit.Schedule{
		Name:      name,
		What:      what,
		Size:      fmt.Sprintf("%dx%d", benchH, benchW),
		Build:     build(benchW, benchH),
		Small:     build(smallW, smallH),
		SmallSize: fmt.Sprintf("%dx%d", smallH, smallW),
		// The array read once, the row sums written once.
		Bytes: benchW*benchH*4 + benchH*4,
		Flops: benchW * benchH,
	}
}

// App is the rowsum app.
var App = appkit.App{
	Name: "rowsum",
	What: "sum of each row of an H x W float32 array (torch.sum(x, dim=1))",
	Schedules: []appkit.Schedule{
		schedule("plain", "one thread per row, serial sums (uncoalesced)", func(v *algo.RowSum) error {
			v.GPUSchedulePlain()
			return nil
		}),
		schedule("block", "rfactor + GPUThreads: a block of 256 per row, float4 loads, shuffle + shared-memory all-reduce", func(v *algo.RowSum) error {
			return v.GPUScheduleBlock(256, 4)
		}),
		schedule("warp", "rfactor + GPULanes: a warp per row, 8 rows per block, float4 loads, shuffle all-reduce", func(v *algo.RowSum) error {
			return v.GPUScheduleWarp(8, 4)
		}),
	},
}

func main() { appkit.Main(App) }
