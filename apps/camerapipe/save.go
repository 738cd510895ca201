package main

import (
	"fmt"
	"io"
	"math/rand"
	"os"
	"path/filepath"
	"slices"

	"github.com/gohalide/gohalide/apps/algo"
	"github.com/gohalide/gohalide/apps/internal/appkit"
	"github.com/gohalide/gohalide/halide"
)

// saveRun runs the schedule of target at the benchmark size on the input
// of seed, checks it, times it and writes the input and the output to dir.
func saveRun(dir, target string, seed int64, runs int, stdout io.Writer) error {
	p := algo.NewCameraPipeForInput(benchInW, benchInH)
	t := halide.Emulator
	switch target {
	case "emulator":
		p.GPUSchedule()
	case "cuda":
		t = halide.CUDA
		p.GPUSchedule()
	case "cpu":
		p.CPUSchedule(algo.CameraPipeCPUVec)
	default:
		return fmt.Errorf("unknown target %q; the targets are: emulator, cuda, cpu", target)
	}
	p.Inputs(rand.New(rand.NewSource(seed)))
	pl := halide.NewPipeline(p.Out()).WithTarget(t)
	if err := pl.Compile(); err != nil {
		return err
	}
	out := p.NewOutput()
	times, err := appkit.TimeRealize(pl, out, 1, runs) // the first run warms up
	if err != nil {
		return err
	}
	if _, err := p.Check(out); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "camerapipe: %s at %d x %d: check ok, best Realize of %d: %.3f ms\n", target, benchW, benchH, runs, float64(slices.Min(times).Microseconds())/1e3)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	in := p.RawInput()
	if err := appkit.WriteRaw(filepath.Join(dir, "input.raw"), in.Data()); err != nil {
		return err
	}
	if err := appkit.WriteRaw(filepath.Join(dir, "output.raw"), out.(*halide.Buffer[uint8]).Data()); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "camerapipe: wrote %s (uint16 %d x %d) and %s (uint8 %d x %d x 3), little-endian, x fastest\n",
		filepath.Join(dir, "input.raw"), p.InputWidth(), p.InputHeight(), filepath.Join(dir, "output.raw"), benchW, benchH)
	return nil
}
