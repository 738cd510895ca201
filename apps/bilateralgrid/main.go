// Command bilateralgrid runs Halide's apps/bilateral_grid (the bilateral
// grid of Chen, Paris and Durand), ported from the generator of Halide's
// v14.0.0 tag (algo.BilateralGrid), under the generator's own schedules:
// its GPU schedule (algo.BilateralGrid.GPUSchedule) on the emulator and on
// CUDA, and its CPU schedule (algo.BilateralGrid.CPUSchedule) with
// -target=cpu. The size is the generator's estimates and the Makefile's
// run: a float32 image of 1536 x 2560, r_sigma = 0.1, s_sigma = 8.
//
// The port is directive for directive; nothing was left out:
//
//   - Halide's gpu_tile(x, y, xi, yi, 8, 8) keeps x and y as the block
//     loops: here GPUTile(x, y, x, y, xi, yi, 8, 8). The 3-D
//     gpu_tile(x, y, z, xi, yi, zi, 32, 8, 1, RoundUp) is GPUTile3D, and
//     unroll(y, 2, TailStrategy::RoundUp) is UnrollTail(y, 2, RoundUp).
//   - The histogram is computed per 8 x 8 tile of blurz, in shared memory:
//     the block zeroes it, each thread scatters the s_sigma x s_sigma
//     samples of its grid cell into its own cell's bins (the bin is
//     data-dependent), and the block blurs it along z. Its z extent
//     follows from r_sigma (its bounds are symbolic, as in Halide), so the
//     shared allocation is sized at launch.
//
// The check: a plain-Go reference in float32, operation for operation (see
// algo.BilateralGrid), on an image with a ramp, edges, noise and a few
// values outside [0, 1]; the tolerance is 1e-6 relative on the CPU and
// the emulator (algo.BilateralGridCPUTol; they give 0) and 1e-3 on CUDA
// (algo.BilateralGridTol: fused multiply-adds). Both schedules
// also match Halide 14's own output (its CPU build, x86-64 AVX2 with FMA)
// to float32 rounding: 1.8e-7 on a 96 x 72 image (tests/gpu,
// TestBilateralGridMatchesHalide14) and 3e-7 at 1536 x 2560.
//
// By default the GPU schedule runs on the GPU emulator at 200 x 136 (tiles
// of 64 and 256 pixels do not divide it) and is checked; -target=cuda
// (built with -tags cuda) checks it on the GPU at that size and times it
// at 1536 x 2560; -target=cpu runs the CPU schedule at 200 x 136.
//
// Three flags of this app only, for the comparison with Halide 14
// (bench/halide14):
//
//	-save DIR  after the table, run the target's schedule (the CPU one for
//	           -target=cpu) at 1536 x 2560, check it against the reference
//	           at that size, time it (-bench runs; the CPU wall clock for
//	           -target=cpu and the emulator), and write the input and the
//	           output as raw little-endian float32, x fastest:
//	           DIR/bilateral_grid_input.f32 and
//	           DIR/bilateral_grid_output_TARGET.f32
//	-in FILE   the input of the -save run: raw little-endian float32,
//	           1536 x 2560, x fastest (bench/halide14's --save-in, or
//	           pngraw.py of Halide's gray.png); default: the random image
//	           with seed -seed + 1
//	-against FILE
//	           compare the -save run's output with FILE, raw float32 of the
//	           same size (Halide 14's, from bench/halide14's --out on the
//	           same input), element by element within
//	           algo.BilateralGridTol; the command fails when a pixel is
//	           over it
//
//	go run ./apps/bilateralgrid                      # the emulator
//	go run ./apps/bilateralgrid -target=cpu          # the CPU schedule
//	go run -tags cuda ./apps/bilateralgrid -target=cuda -bench=50 -save out
//	go run ./apps/bilateralgrid -h                   # the flags
//
// The table's columns are explained below it (apps/internal/appkit).
package main

import (
	"fmt"
	"io"
	"os"

	"github.com/gohalide/gohalide/apps/algo"
	"github.com/gohalide/gohalide/apps/internal/appkit"
)

// The benchmark size (the generator's estimates, Halide's gray.png) and
// the check size.
const (
	width, height           = 1536, 2560
	smallWidth, smallHeight = 200, 136
	sSigma                  = 8
)

// build makes the algorithm at w x h under the GPU or the CPU schedule.
func build(w, h int, gpu bool) func() algo.Algorithm {
	return appkit.Scheduled(func() *algo.BilateralGrid { return algo.NewBilateralGrid(w, h, sSigma) }, gpu)
}

// gridCells is the number of cells x bins x channels of the grid at w x
// h, r_sigma 0.1: what each blur computes.
func gridCells(w, h int) float64 {
	return float64((w/sSigma+5)*(h/sSigma+5)) * float64(int(1/algo.BilateralGridRSigma)+2) * 2
}

func size(w, h int) string {
	return fmt.Sprintf("%dx%d r_sigma=%g s_sigma=%d", w, h, algo.BilateralGridRSigma, sSigma)
}

// App is the bilateralgrid app: Halide's schedules.
var App = appkit.App{
	Name: "bilateralgrid",
	What: "Halide's bilateral_grid: histogram into a grid of 8x8-pixel cells, 5-tap blurs in z, x, y, trilinear slice; float32",
	Schedules: []appkit.Schedule{{
		Name:      "halide",
		What:      "the generator's schedules (Halide v14.0.0): blurz per 8x8 tile with its histogram in shared memory; blurx, blury 32x8x1 threads, 2 rows x 2 channels each; the slice 32x8",
		Size:      size(width, height),
		SmallSize: size(smallWidth, smallHeight),
		Build:     build(width, height, true),
		Small:     build(smallWidth, smallHeight, true),
		CPU:       build(smallWidth, smallHeight, false),
		// The input read and the output written once (the grids
		// blurz, blurx and blury, about 6 MB each, fit in the H100's
		// 50 MB L2 cache).
		Bytes: 8 * float64(width*height),
		// Per pixel: the bin (clamp, multiply, add) and 2 accumulations;
		// the slice (its bin, 3 fractions, 7 lerps of 2 channels at 3
		// flops each, the division); per grid point and channel, 3 blurs
		// of 9 flops.
		Flops: float64(width*height)*(6+2+3+42+1) + gridCells(width, height)*27,
	}},
}

func main() {
	args, extra, err := splitFlags(os.Args[1:])
	if err != nil {
		fmt.Fprintf(os.Stderr, "bilateralgrid: %v\n", err)
		os.Exit(appkit.ExitUsage)
	}
	code := appkit.Command(App, args, os.Stdout, os.Stderr)
	if extra.help {
		writeExtraUsage(os.Stdout)
	}
	if code == appkit.ExitOK && extra.saveDir != "" && !extra.help {
		if err := save(extra, os.Stdout); err != nil {
			fmt.Fprintf(os.Stderr, "bilateralgrid: -save: %v\n", err)
			code = appkit.ExitFail
		}
	}
	os.Exit(code)
}

func writeExtraUsage(w io.Writer) {
	fmt.Fprint(w, `
flags of bilateralgrid only (see the package doc):
  -save DIR
    	run the target's schedule at 1536x2560, check and time it, and write
    	DIR/bilateral_grid_input.f32 and DIR/bilateral_grid_output_TARGET.f32
    	(raw little-endian float32, x fastest)
  -in FILE
    	the input of the -save run (raw float32, 1536x2560); default: the
    	random image of seed -seed + 1
  -against FILE
    	compare the -save run's output with FILE (raw float32, 1536x2560,
    	e.g. Halide 14's from bench/halide14 --out) within 1e-3 relative
`)
}
