package main

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"github.com/gohalide/gohalide/apps/algo"
	"github.com/gohalide/gohalide/apps/internal/appkit"
	"github.com/gohalide/gohalide/halide"
)

// extraFlags are the flags of this app only (-save, -in), and the values
// of the shared flags that the -save run reads (-target, -seed, -bench).
type extraFlags struct {
	saveDir, inFile string
	// against is a raw output to compare ours with (Halide 14's).
	against  string
	target   string
	seed     int64
	bench    int
	benchSet bool
	help     bool
}

// splitFlags takes -save and -in (as -f V, -f=V, --f V or --f=V) out of
// args and reads -target, -seed, -bench and -h, which stay for appkit.
func splitFlags(args []string) ([]string, extraFlags, error) {
	x := extraFlags{target: "emulator", seed: 1, bench: 50}
	var rest []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" || !strings.HasPrefix(a, "-") {
			rest = append(rest, args[i:]...)
			break
		}
		name, val, hasVal := strings.Cut(strings.TrimLeft(a, "-"), "=")
		value := func() (string, error) {
			if hasVal {
				return val, nil
			}
			if i+1 >= len(args) {
				return "", fmt.Errorf("flag -%s needs a value", name)
			}
			i++
			return args[i], nil
		}
		switch name {
		case "save", "in", "against":
			v, err := value()
			if err != nil {
				return nil, x, err
			}
			if v == "" {
				return nil, x, fmt.Errorf("flag -%s needs a non-empty value", name)
			}
			switch name {
			case "save":
				x.saveDir = v
			case "in":
				x.inFile = v
			default:
				x.against = v
			}
			continue
		case "h", "help":
			x.help = true
		case "target", "seed", "bench":
			rest = append(rest, a)
			if !hasVal {
				if i+1 >= len(args) {
					continue // appkit reports it
				}
				i++
				rest = append(rest, args[i])
				val = args[i]
			}
			switch name {
			case "target":
				x.target = val
			case "seed":
				x.seed, _ = strconv.ParseInt(val, 10, 64) // appkit checks it
			case "bench":
				x.bench, _ = strconv.Atoi(val)
				x.benchSet = true
			}
			continue
		}
		rest = append(rest, a)
	}
	if (x.inFile != "" || x.against != "") && x.saveDir == "" {
		return nil, x, errors.New("-in and -against are for the -save run; give -save DIR too")
	}
	return rest, x, nil
}

// save runs the target's schedule at the benchmark size on x's input,
// checks it against the reference, times it and writes the input and the
// output as raw files in x.saveDir; it prints a summary on w.
func save(x extraFlags, w io.Writer) error {
	gpu := x.target != "cpu"
	v := algo.NewBilateralGrid(width, height, sSigma)
	t := halide.Emulator
	switch {
	case !gpu:
		v.CPUSchedule()
	case x.target == "cuda":
		v.GPUSchedule()
		t = halide.CUDA
	default:
		v.GPUSchedule()
	}
	in := algo.BilateralGridImage(rand.New(rand.NewSource(x.seed+1)), width, height)
	what := fmt.Sprintf("random image, seed %d", x.seed+1)
	if x.inFile != "" {
		var err error
		if in, err = readRaw(x.inFile, width, height); err != nil {
			return err
		}
		what = x.inFile
	}
	v.SetInputs(in, algo.BilateralGridRSigma)
	v.ForTarget(t)
	p := halide.NewPipeline(v.Out()).WithTarget(t)
	out := v.NewOutput()
	// The emulator runs once (its time says nothing about a GPU); the
	// CPU, whose runs take seconds here, 3 times unless -bench says.
	runs := x.bench
	if !x.benchSet && !gpu {
		runs = 3
	}
	timing := ""
	if gpu && t == halide.Emulator {
		if err := p.Realize(out); err != nil {
			return err
		}
	} else {
		tm, err := p.Benchmark(out, runs)
		if err != nil {
			return err
		}
		clock := tm.Clock
		if !gpu {
			// Benchmark labels every time off CUDA "emulator wall clock".
			clock = fmt.Sprintf("CPU wall clock, GOMAXPROCS %d", runtime.GOMAXPROCS(0))
		}
		timing = fmt.Sprintf(": median %.4g ms, min %.4g ms over %d runs (%s)", tm.MedianMs, tm.MinMs, tm.Runs, clock)
	}
	// The files first, so that a failed check leaves them to look at.
	if err := os.MkdirAll(x.saveDir, 0o755); err != nil {
		return err
	}
	inPath := filepath.Join(x.saveDir, "bilateral_grid_input.f32")
	outPath := filepath.Join(x.saveDir, "bilateral_grid_output_"+x.target+".f32")
	if err := appkit.WriteRaw(inPath, in.Data()); err != nil {
		return err
	}
	if err := appkit.WriteRaw(outPath, out.(*halide.Buffer[float32]).Data()); err != nil {
		return err
	}
	rel, err := v.Check(out)
	if err != nil {
		return fmt.Errorf("%v (the files %s and %s are written)", err, inPath, outPath)
	}
	sched := "GPU"
	if !gpu {
		sched = "CPU"
	}
	fmt.Fprintf(w, "\n-save: Halide's %s schedule on %s at %s, input %s%s; max relative error against the reference %.2g; wrote %s and %s (raw little-endian float32, %d x %d, x fastest)\n",
		sched, x.target, size(width, height), what, timing, rel, inPath, outPath, width, height)
	if x.against == "" {
		return nil
	}
	theirs, err := readRaw(x.against, width, height)
	if err != nil {
		return err
	}
	return compareRaw(w, out.(*halide.Buffer[float32]), theirs, x.against)
}

// compareRaw compares our output with another's (Halide 14's, from
// bench/halide14's --out) element by element, as Check compares with the
// reference: |ours - theirs| / max(1, |theirs|) within BilateralGridTol.
func compareRaw(w io.Writer, ours, theirs *halide.Buffer[float32], name string) error {
	worst, over := 0.0, 0
	var wx, wy int
	w0, h0 := ours.Dim(0).Extent, ours.Dim(1).Extent
	for y := 0; y < h0; y++ {
		for x := 0; x < w0; x++ {
			a, b := float64(ours.Get(x, y)), float64(theirs.Get(x, y))
			rel := math.Abs(a-b) / math.Max(1, math.Abs(b))
			if math.IsNaN(rel) {
				rel = math.Inf(1)
			}
			if rel > algo.BilateralGridTol {
				over++
			}
			if rel > worst || (x == 0 && y == 0) {
				worst, wx, wy = rel, x, y
			}
		}
	}
	fmt.Fprintf(w, "-against %s: max relative difference %.3g at (%d, %d) (ours %v, theirs %v); %d of %d pixels over %g\n",
		name, worst, wx, wy, ours.Get(wx, wy), theirs.Get(wx, wy), over, w0*h0, algo.BilateralGridTol)
	if over > 0 {
		return fmt.Errorf("%d pixels differ from %s by more than %g", over, name, algo.BilateralGridTol)
	}
	return nil
}

// readRaw reads a w x h float32 image, raw little-endian, x fastest.
func readRaw(path string, w, h int) (*halide.Buffer[float32], error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if len(data) != 4*w*h {
		return nil, fmt.Errorf("%s has %d bytes; a %d x %d float32 image has %d", path, len(data), w, h, 4*w*h)
	}
	b := halide.NewBuffer[float32](w, h)
	d := b.Data()
	for i := range d {
		d[i] = math.Float32frombits(binary.LittleEndian.Uint32(data[4*i:]))
	}
	return b, nil
}
