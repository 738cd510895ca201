package appkit

import (
	"encoding/binary"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/gohalide/gohalide/halide"
)

// MainWithSave is Main for an app with a -save mode of its own
// (camerapipe, locallaplacian): with -save among the arguments, save runs
// instead of the app and its status is the exit status; otherwise the app
// runs, and -h prints saveUsage after the shared flags.
func MainWithSave(app App, save func(args []string, stdout, stderr io.Writer) int, saveUsage string) {
	args := os.Args[1:]
	if HasFlag(args, "save") {
		os.Exit(save(args, os.Stdout, os.Stderr))
	}
	code := Command(app, args, os.Stdout, os.Stderr)
	if HasFlag(args, "h") || HasFlag(args, "help") {
		fmt.Fprintln(os.Stdout, saveUsage)
	}
	os.Exit(code)
}

// HasFlag reports whether args set the flag name (-name, --name,
// -name=v) before a "--".
func HasFlag(args []string, name string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		a = strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-")
		if a == name || strings.HasPrefix(a, name+"=") {
			return true
		}
	}
	return false
}

// SaveFlags are the flags of a -save mode: -save DIR, -target (emulator,
// cuda or cpu), -seed and the number of timed runs; the app defines the
// rest on the FlagSet.
type SaveFlags struct {
	*flag.FlagSet
	Dir, Target *string
	Seed        *int64
	Runs        *int
}

// NewSaveFlags returns the -save mode's flags in a flag set called name
// that reports its errors to stderr; dir and seed are the help of -save
// and -seed, runs names the flag of the timed runs and defaults their
// number.
func NewSaveFlags(name, dir, seed, runs string, defaultRuns int, stderr io.Writer) SaveFlags {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return SaveFlags{
		FlagSet: fs,
		Dir:     fs.String("save", "", dir),
		Target:  fs.String("target", "emulator", "emulator, cuda or cpu"),
		Seed:    fs.Int64("seed", 1, seed),
		Runs:    fs.Int(runs, defaultRuns, "timed runs"),
	}
}

// Usable reports whether the parsed flags make a -save run: a folder, at
// least one run and no argument left.
func (f SaveFlags) Usable() bool { return *f.Dir != "" && f.NArg() == 0 && *f.Runs >= 1 }

// SaveStatus is the exit status of app's -save run that returned err,
// which it reports on stderr.
func SaveStatus(app string, err error, stderr io.Writer) int {
	if err != nil {
		fmt.Fprintf(stderr, "%s: -save: %v\n", app, err)
		return ExitFail
	}
	return ExitOK
}

// TimeRealize realizes p into out warm times, then runs times, and
// returns the wall time of each of the timed runs (uploads and downloads
// included): the timing of a -save run.
func TimeRealize(p *halide.Pipeline, out halide.BufferRef, warm, runs int) ([]time.Duration, error) {
	for i := 0; i < warm; i++ {
		if err := p.Realize(out); err != nil {
			return nil, err
		}
	}
	times := make([]time.Duration, runs)
	for i := range times {
		start := time.Now()
		if err := p.Realize(out); err != nil {
			return nil, err
		}
		times[i] = time.Since(start)
	}
	return times, nil
}

// WriteRaw writes data (a buffer's, dimension 0 fastest) to path as raw
// little-endian values.
func WriteRaw[T uint8 | uint16 | float32](path string, data []T) error {
	b, err := binary.Append(nil, binary.LittleEndian, data)
	if err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o644)
}
