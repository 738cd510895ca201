// Command camerapipe runs Halide's apps/camera_pipe (v14.0.0's
// camera_pipe_generator.cpp, with its Demosaic sub-generator): the FCam raw
// pipeline, a 10-bit Bayer image in and an 8-bit RGB image out, through
// hot-pixel suppression, deinterleaving, demosaicking, a color matrix, a
// tone curve and sharpening (algo.CameraPipe). The size is process.cpp's:
// a 2592 x 1968 uint16 raw image, a 2560 x 1920 x 3 uint8 output, with its
// matrices and parameters (color temperature 3700, gamma 2.0, contrast 50,
// sharpen 1.0, black level 25, white level 1023).
//
// One schedule, "halide", the generator's own: its GPU schedule on the
// emulator and CUDA (CameraPipe.GPUSchedule), its CPU schedule on
// -target=cpu (CameraPipe.CPUSchedule, vectors of 2*16 uint16 as Halide
// picks on an AVX2 host; on an AVX-512 one it picks 2*32, which
// CPUSchedule(32) writes). The output is compared with the plain-Go
// reference exactly, on every target (see algo.CameraPipe).
//
// Where we deviate from the generator (each is said at its line in
// apps/algo/camerapipe_schedules.go):
//
//   - CPU: denoised.prefetch(input, y, y, 2) is not written; we have no
//     prefetch directive: it is a hint that never changes the answer, our
//     CPU path (an interpreter of the lowered statement) has no way to
//     issue one, and a CUDA-only L2 prefetch would not serve this app,
//     whose GPU schedule has none.
//   - CPU: the vector loops of curved, deinterleaved, g_r and g_b round up
//     in Halide (RoundUp) and shift inwards here (ShiftInwards, Halide's
//     default for them): Halide's producers compute only what consumers
//     need and the rounded-up points read storage never written, for
//     values no one uses; ours compute every point a loop reads, so
//     rounding up compounds down the pipeline and reads the input past its
//     edge at 2592 x 1968.
//   - CPU: denoised and deinterleaved fold their storage by 16 and 8 rows,
//     not 4: Halide checks a fold at run time, where every Func of the
//     strip slides and 4 rows suffice; our storage folding proves a fold
//     from the regions before sliding (10 and 5 rows at one iteration).
//
// The GPU schedule is written as Halide's, directive for directive
// (processed.width(), height() and gpu_single_thread included), and so is
// the rest of the CPU schedule (g_b.compute_with(g_r, x, AlignStart in x
// and y) included).
//
// By default the schedule runs on the GPU emulator at 250 x 94 (a partial
// block in both dimensions) and is checked; -target=cpu checks the CPU
// schedule at 256 x 64; -target=cuda (built with -tags cuda) checks at the
// small size and times at 2560 x 1920.
//
//	go run ./apps/camerapipe
//	go run ./apps/camerapipe -target=cpu
//	go run -tags cuda ./apps/camerapipe -target=cuda -bench=50
//
// -save DIR (with -target, -seed and -bench) runs the schedule of the
// target at the benchmark size instead, checks the output against the
// reference, prints the best wall time of -bench runs (Realize: on CUDA
// the transfers are included; see -target=cuda's table for kernel time),
// and writes DIR/input.raw (uint16, 2592 x 1968) and DIR/output.raw
// (uint8, 2560 x 1920 x 3), little-endian, x fastest, then y, then c, to
// cross-check against Halide's output on the same input:
//
//	go run -tags cuda ./apps/camerapipe -save /tmp/cp -target=cuda
package main

import (
	"fmt"
	"io"

	"github.com/gohalide/gohalide/apps/algo"
	"github.com/gohalide/gohalide/apps/internal/appkit"
)

// The raw image of the app (its estimates), and the output size
// process.cpp gives it.
const (
	benchInW, benchInH = 2592, 1968
	benchW, benchH     = (benchInW - 32) / 32 * 32, (benchInH - 24) / 32 * 32 // 2560 x 1920
)

// The check sizes: the GPU schedule's, even (the schedule bounds the output
// to an even size) and not a multiple of the 56 x 12 pixels of a block;
// the CPU schedule's, a multiple of its 32-column vectors and 32-row strips
// (which it bounds the output to).
const (
	smallW, smallH = 250, 94
	cpuW, cpuH     = 256, 64
)

func gpu(w, h int) func() algo.Algorithm {
	return func() algo.Algorithm {
		p := algo.NewCameraPipe(w, h)
		p.GPUSchedule()
		return p
	}
}

// bench is the GPU schedule at the benchmark size.
func bench() algo.Algorithm {
	p := algo.NewCameraPipeForInput(benchInW, benchInH)
	p.GPUSchedule()
	return p
}

func cpu(w, h int) func() algo.Algorithm {
	return func() algo.Algorithm {
		p := algo.NewCameraPipe(w, h)
		p.CPUSchedule(algo.CameraPipeCPUVec)
		return p
	}
}

// App is the camerapipe app.
var App = appkit.App{
	Name: "camerapipe",
	What: "Halide's camera_pipe: 10-bit Bayer raw to 8-bit RGB",
	Schedules: []appkit.Schedule{{
		Name:      "halide",
		What:      "the generator's schedules: GPU (28 x 12 tiles, stages per block in shared memory), CPU (32-row strips, sliding windows)",
		Size:      fmt.Sprintf("%d x %d from %d x %d", benchW, benchH, benchInW, benchInH),
		SmallSize: fmt.Sprintf("%d x %d", smallW, smallH),
		Build:     bench,
		Small:     gpu(smallW, smallH),
		CPU:       cpu(cpuW, cpuH),
		CPUSize:   fmt.Sprintf("%d x %d", cpuW, cpuH),
		// The raw input read once, the output written once.
		Bytes: 2*float64(benchInW*benchInH) + 3*float64(benchW*benchH),
	}},
}

// saveUsage is -save's help, printed after the shared flags' with -h.
const saveUsage = "\nand, for a cross-check with Halide:\n" +
	"  -save DIR [-target=emulator|cuda|cpu] [-seed N] [-bench N]\n" +
	"        run the target's schedule at the benchmark size, check it, print its best wall time,\n" +
	"        and write DIR/input.raw (uint16 2592 x 1968) and DIR/output.raw (uint8 2560 x 1920 x 3),\n" +
	"        little-endian, x fastest, then y, then c"

func main() { appkit.MainWithSave(App, save, saveUsage) }

// save is -save: see the package comment.
func save(args []string, stdout, stderr io.Writer) int {
	fs := appkit.NewSaveFlags("camerapipe -save", "the folder to write input.raw and output.raw to",
		"random seed of the input (the benchmark's is seed+1, as in the table)", "bench", 5, stderr)
	if err := fs.Parse(args); err != nil {
		return appkit.ExitUsage
	}
	if !fs.Usable() {
		fmt.Fprintln(stderr, "camerapipe: usage: camerapipe -save DIR [-target=emulator|cuda|cpu] [-seed N] [-bench N]")
		return appkit.ExitUsage
	}
	return appkit.SaveStatus("camerapipe", saveRun(*fs.Dir, *fs.Target, *fs.Seed+1, *fs.Runs, stdout), stderr)
}
