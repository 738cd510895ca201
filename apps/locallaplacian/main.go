// Command locallaplacian runs Halide's apps/local_laplacian (Halide 14's
// local_laplacian_generator.cpp; algo.LocalLaplacian) under the
// generator's schedule, "manual" (process.cpp's manually-tuned one), whose
// branch, as in Halide, the target picks:
//
//   - on the emulator and CUDA its GPU branch
//     (algo.LocalLaplacian.GPUSchedule): the LUT at the root on the host,
//     then one kernel per pyramid level and Func (tiles of 16 x 8 down to
//     level 3, 2 x 2 below), the output in 16 x 8 tiles, one launch per
//     channel;
//   - on -target=cpu its CPU branch (algo.LocalLaplacian.CPUSchedule):
//     strips of 64 output rows in parallel, the output pyramid's levels 1
//     to 4 sliding down each strip in storage folded to 4 rows, the
//     processed pyramids stored x, k, y.
//
// The benchmark size is Halide's: the generator's estimates and the image
// its Makefile runs, rgb.png, 1536 x 2560 x 3 uint16, with process.cpp's
// arguments, levels 8, alpha 1/(levels-1), beta 1, and 8 pyramid levels.
// The check runs at 100 x 70 x 3 (the pyramids' margins, about 2^J
// pixels at level 0, dominate there), on random images with gradients and
// saturated columns, against a plain-Go float32 reference: identical on
// the emulator and the CPU; on CUDA within algo.CUDAMaxDiff and
// algo.CUDAMaxDiffFrac (the CUDA target contracts multiply-adds into
// FMAs; see algo.LocalLaplacian).
//
//	go run ./apps/locallaplacian                  # the GPU schedule on the emulator
//	go run ./apps/locallaplacian -target=cpu      # the CPU schedule on the CPU
//	go run -tags cuda ./apps/locallaplacian -target=cuda -bench=50
//
// The table times only -target=cuda (at the benchmark size); -target=cpu
// checks the CPU schedule at the check size. -save DIR runs one schedule
// at the benchmark size (or -size WxH) instead, the GPU one on
// -target=cuda or emulator, the CPU one on -target=cpu, on the
// benchmark's input (seed+1, as the table's benchmark): it checks it
// against the reference, prints the wall time of each of -runs Realizes
// (the CPU's time, or the GPU's with the transfers) and writes the input,
// the output and the reference as raw little-endian uint16 files (x
// fastest, then y, then c) with a params.txt, for a comparison with
// Halide 14's output on the same input. (The generator's comments give
// 3.19 ms on an RTX 2060 for the GPU schedule and 21.4 ms on a 16-core
// i9-9960X for the CPU one.)
//
//	go run -tags cuda ./apps/locallaplacian -save /tmp/ll -target=cuda
//
// The table's columns are explained below it (apps/internal/appkit).
package main

import (
	"errors"
	"fmt"
	"io"
	"math/rand"
	"os"
	"path/filepath"
	"time"

	"github.com/gohalide/gohalide/apps/algo"
	"github.com/gohalide/gohalide/apps/internal/appkit"
	"github.com/gohalide/gohalide/halide"
)

// The benchmark size (Halide's rgb.png) and the check size; J is the
// generator's pyramid_levels.
const (
	benchW, benchH = 1536, 2560
	smallW, smallH = 100, 70
	levelsJ        = 8
)

// flopsPerPixel is the float arithmetic of one pixel, counted from the
// algorithm at each level's size without the pyramids' margins: gray 8,
// gPyramid[0] 4 per k (32), the processed pyramids' downsampling 15 per
// point and k at a third of the pixels (40), the input pyramid's (5),
// outLPyramid with its two lPyramid reads (about 31, 41 over the levels),
// outGPyramid (17), color and the conversion (18).
const flopsPerPixel = 160

func build(w, h int, cpu bool) func() algo.Algorithm {
	return appkit.Scheduled(func() *algo.LocalLaplacian { return algo.NewLocalLaplacian(w, h, levelsJ) }, !cpu)
}

// manual is the generator's schedule (process.cpp's "manually-tuned"
// one): its GPU branch on the emulator and CUDA, its CPU branch on the CPU,
// as Halide picks the branch by the target.
func manual() appkit.Schedule {
	return appkit.Schedule{
		Name:      "manual",
		What:      "the generator's schedule: GPU branch (every level's pyramids at the root in 16x8 tiles, 2x2 below level 3); on -target=cpu its CPU branch (strips of 64 rows in parallel, output pyramid levels 1-4 sliding in 4-row folded storage)",
		Size:      fmt.Sprintf("%dx%dx3 J=%d levels=8", benchW, benchH, levelsJ),
		SmallSize: fmt.Sprintf("%dx%dx3 J=%d levels=8", smallW, smallH, levelsJ),
		Build:     build(benchW, benchH, false),
		Small:     build(smallW, smallH, false),
		CPU:       build(smallW, smallH, true),
		// The uint16 input read once and the output written once.
		Bytes: 2 * 2 * 3 * float64(benchW) * float64(benchH),
		Flops: flopsPerPixel * float64(benchW) * float64(benchH),
	}
}

// App is the locallaplacian app: the generator's schedule.
var App = appkit.App{
	Name:      "locallaplacian",
	What:      "Halide's local_laplacian: local Laplacian filter of a uint16 RGB image, 8 pyramid levels",
	Schedules: []appkit.Schedule{manual()},
}

const saveUsage = `
-save DIR: run one schedule at the benchmark size (or -size WxH) (the GPU
schedule on -target=cuda or emulator, the CPU one on -target=cpu) on the
benchmark's input (-seed plus 1), check it, print the time of each of -runs
runs (default 3) and write DIR/input.raw, DIR/output_TARGET.raw,
DIR/reference.raw (raw little-endian uint16, x fastest, then y, then c) and
DIR/params.txt.`

func main() { appkit.MainWithSave(App, save, saveUsage) }

// save is the -save mode (see saveUsage).
func save(args []string, stdout, stderr io.Writer) int {
	fs := appkit.NewSaveFlags("locallaplacian", "the directory to write the files to",
		"random seed (the input's is seed+1, as the benchmark's)", "runs", 3, stderr)
	target := fs.Target
	size := fs.String("size", fmt.Sprintf("%dx%d", benchW, benchH), "the image's width x height")
	if err := fs.Parse(args); err != nil {
		return appkit.ExitUsage
	}
	var w, h int
	if n, err := fmt.Sscanf(*size, "%dx%d", &w, &h); err != nil || n != 2 || w < 1 || h < 1 || fmt.Sprintf("%dx%d", w, h) != *size {
		fmt.Fprintf(stderr, "locallaplacian: -size %q: want WIDTHxHEIGHT, e.g. 1536x2560\n", *size)
		return appkit.ExitUsage
	}
	if !fs.Usable() {
		fmt.Fprintln(stderr, "locallaplacian: -save needs a directory, at least one run and no other argument")
		return appkit.ExitUsage
	}
	var t halide.Target
	cpu := false
	switch *target {
	case "cpu":
		cpu = true
	case "emulator":
	case "cuda":
		t = halide.CUDA
	default:
		fmt.Fprintf(stderr, "locallaplacian: unknown target %q; the targets are: emulator, cuda, cpu\n", *target)
		return appkit.ExitUsage
	}
	return appkit.SaveStatus("locallaplacian", saveRun(*fs.Dir, *target, t, cpu, w, h, *fs.Seed, *fs.Runs, stdout), stderr)
}

func saveRun(dir, target string, t halide.Target, cpu bool, w, h int, seed int64, runs int, stdout io.Writer) error {
	v := build(w, h, cpu)().(*algo.LocalLaplacian)
	v.ForTarget(t)
	p := halide.NewPipeline(v.Out()).WithTarget(t)
	start := time.Now()
	if err := p.Compile(); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "compiled in %.1f ms\n", float64(time.Since(start).Microseconds())/1e3)
	v.Inputs(rand.New(rand.NewSource(seed + 1)))
	out := v.NewOutput()
	times, err := appkit.TimeRealize(p, out, 0, runs)
	if err != nil {
		return err
	}
	for i, d := range times {
		fmt.Fprintf(stdout, "run %d: %.3f ms (wall, Realize: uploads and downloads included)\n", i+1, float64(d.Microseconds())/1e3)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	ref := v.Reference()
	files := []struct {
		name string
		b    *halide.Buffer[uint16]
	}{{"input.raw", v.InputBuffer()}, {"output_" + target + ".raw", out.(*halide.Buffer[uint16])}, {"reference.raw", ref}}
	for _, f := range files {
		if err := appkit.WriteRaw(filepath.Join(dir, f.name), f.b.Data()); err != nil {
			return err
		}
	}
	params := fmt.Sprintf("width %d\nheight %d\nchannels 3\npyramid_levels %d\nlevels %d\nalpha %.9g\nbeta %.9g\nseed %d\ntarget %s\nlayout uint16 little-endian, x fastest, then y, then c\n",
		w, h, levelsJ, v.LevelsV, v.AlphaV, v.BetaV, seed+1, target)
	if err := os.WriteFile(filepath.Join(dir, "params.txt"), []byte(params), 0o644); err != nil {
		return err
	}
	rel, err := v.Check(out)
	fmt.Fprintf(stdout, "wrote %s/{input.raw,output_%s.raw,reference.raw,params.txt}\ncheck against the plain-Go reference: largest difference %.0f of 65535\n", dir, target, rel*65535)
	if err != nil {
		return errors.New("check: " + err.Error())
	}
	return nil
}
