package appkit

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/gohalide/gohalide/halide"
)

// Exit statuses of an app.
const (
	ExitOK    = 0 // every check passed
	ExitFail  = 1 // a check failed, or the target cannot run here
	ExitUsage = 2 // an unknown flag, schedule or target
)

// options are the flags every app takes.
type options struct {
	target    string
	schedules []string // nil: all
	asJSON    bool
	bench     int
	stmt      bool
	cuda      bool
	kernels   bool
	noPtxas   bool
	quiet     bool
	seed      int64
}

// Main runs app with the process's arguments and exits with its status.
func Main(app App) {
	os.Exit(Command(app, os.Args[1:], os.Stdout, os.Stderr))
}

// Command runs app with the command-line arguments args (without the
// program name): the table (or JSON) goes to stdout, errors and progress
// lines to stderr, -h to stdout. It returns the exit status (ExitOK,
// ExitFail or ExitUsage).
func Command(app App, args []string, stdout, stderr io.Writer) int {
	o, status, ok := parseFlags(app, args, stdout, stderr)
	if !ok {
		return status
	}
	if o.target == "cuda" {
		if err := cudaReady(); err != nil {
			fmt.Fprintf(stderr, "%s: -target=cuda: %v\n", app.Name, err)
			return ExitFail
		}
	}
	prog := &progress{w: stderr}
	if o.quiet {
		prog.w = nil
	}
	code := stdout // -stmt and -cuda
	if o.asJSON {
		code = stderr
	}
	var results []Result
	var ran []*halide.Pipeline // nil where the check failed
	checked := 0
	failed := false
	for _, s := range selected(app, o) {
		r, p := runSchedule(app, s, o, code, prog)
		failed = failed || r.Check != "ok"
		results = append(results, r)
		ran = append(ran, p)
		if p != nil {
			checked++
		}
	}
	if o.target != "cuda" && !o.noPtxas && checked > 0 {
		n := fmt.Sprintf("%d schedules", checked)
		if checked == 1 {
			n = "1 schedule"
		}
		prog.step(fmt.Sprintf("%s: ptxas (registers per thread, %s)", app.Name, n), func() {
			countRegisters(results, ran)
		})
	}
	if o.asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if results == nil {
			results = []Result{}
		}
		if err := enc.Encode(results); err != nil {
			fmt.Fprintf(stderr, "%s: %v\n", app.Name, err)
			return ExitFail
		}
	} else {
		fmt.Fprintf(stdout, "%s: %s (target %s)\n\n", app.Name, app.What, o.target)
		WriteTable(stdout, results)
		if o.kernels {
			writeKernels(stdout, results)
		}
		fmt.Fprintln(stdout)
		writeLegend(stdout, results, o)
	}
	if failed {
		return ExitFail
	}
	return ExitOK
}

// parseFlags reads args. When ok is false the command ends with code: -h
// printed the help (ExitOK), or a usage mistake was reported (ExitUsage).
func parseFlags(app App, args []string, stdout, stderr io.Writer) (o options, code int, ok bool) {
	fs := flag.NewFlagSet(app.Name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {} // -h is handled below; a bad flag gets one line
	targets := legalTargets(app)
	fs.StringVar(&o.target, "target", "emulator", "where the kernels run: "+strings.Join(targets, ", ")+
		"\n(cuda: an NVIDIA GPU, in a build with -tags cuda; see docs/gpu.md)")
	only := fs.String("schedule", "all", "the schedules to run: all, or names separated by commas")
	fs.BoolVar(&o.asJSON, "json", false, "print JSON (a list of results, one per schedule) instead of the table")
	fs.IntVar(&o.bench, "bench", 50, "timed runs per schedule on -target=cuda, after a warm-up")
	fs.BoolVar(&o.stmt, "stmt", false, "print each schedule's lowered statement (on stderr with -json)")
	fs.BoolVar(&o.cuda, "cuda", false, "print each schedule's CUDA source (on stderr with -json)")
	fs.BoolVar(&o.kernels, "kernels", app.Kernels, "print each schedule's kernels: grid, block, shared and register allocations, barriers")
	fs.BoolVar(&o.noPtxas, "no-ptxas", false, "skip the registers column on the emulator (it runs nvcc/ptxas once per schedule, about a second each)")
	fs.BoolVar(&o.quiet, "quiet", false, "no progress lines on stderr")
	fs.Int64Var(&o.seed, "seed", 1, "random seed of the inputs (the benchmark's are seed+1)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			writeUsage(stdout, app, fs)
			return o, ExitOK, false
		}
		fmt.Fprintf(stderr, "run '%s -h' for the flags\n", app.Name)
		return o, ExitUsage, false
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "%s: unexpected argument %q (the app takes only flags; run '%s -h')\n", app.Name, fs.Arg(0), app.Name)
		return o, ExitUsage, false
	}
	if !contains(targets, o.target) {
		fmt.Fprintf(stderr, "%s: unknown target %q; the targets are: %s\n", app.Name, o.target, strings.Join(targets, ", "))
		return o, ExitUsage, false
	}
	if o.bench < 1 {
		fmt.Fprintf(stderr, "%s: -bench=%d: the number of timed runs must be at least 1\n", app.Name, o.bench)
		return o, ExitUsage, false
	}
	if *only != "all" {
		for _, name := range strings.Split(*only, ",") {
			name = strings.TrimSpace(name)
			s, found := lookup(app, name)
			if !found {
				fmt.Fprintf(stderr, "%s: unknown schedule %q; the schedules are: %s (or all)\n", app.Name, name, strings.Join(scheduleNames(app), ", "))
				return o, ExitUsage, false
			}
			if o.target == "cpu" && s.CPU == nil {
				fmt.Fprintf(stderr, "%s: schedule %q has no CPU version; those with one: %s\n", app.Name, s.Name, strings.Join(cpuNames(app), ", "))
				return o, ExitUsage, false
			}
			if o.target != "cuda" && s.BenchOnly {
				fmt.Fprintf(stderr, "%s: schedule %q runs only with -target=cuda\n", app.Name, s.Name)
				return o, ExitUsage, false
			}
			o.schedules = append(o.schedules, s.Name)
		}
	}
	return o, ExitOK, true
}

// writeUsage prints the help: what the app computes, its schedules and
// targets, the flags and the exit statuses.
func writeUsage(w io.Writer, app App, fs *flag.FlagSet) {
	fmt.Fprintf(w, "usage: %s [flags]\n\n", app.Name)
	fmt.Fprintf(w, "%s: %s.\n", app.Name, app.What)
	fmt.Fprintln(w, "Runs each schedule, checks it against a plain-Go reference and prints a table")
	fmt.Fprintln(w, "(its columns are explained below it); with -target=cuda also times it.")
	fmt.Fprintf(w, "\nschedules: %s\n", strings.Join(scheduleNames(app), ", "))
	fmt.Fprintf(w, "targets:   %s\n\nflags:\n", strings.Join(legalTargets(app), ", "))
	fs.SetOutput(w)
	fs.PrintDefaults()
	fmt.Fprintln(w, "\nexit status: 0 every check passed; 1 a check failed, or the target cannot run here;")
	fmt.Fprintln(w, "2 an unknown flag, schedule or target.")
}

// legalTargets are emulator and cuda, and cpu when some schedule has a CPU
// version.
func legalTargets(app App) []string {
	if len(cpuNames(app)) > 0 {
		return []string{"emulator", "cuda", "cpu"}
	}
	return []string{"emulator", "cuda"}
}

// scheduleNames lists the schedules' names once each, in order.
func scheduleNames(app App) []string {
	var names []string
	for _, s := range app.Schedules {
		if !contains(names, s.Name) {
			names = append(names, s.Name)
		}
	}
	return names
}

func cpuNames(app App) []string {
	var names []string
	for _, s := range app.Schedules {
		if s.CPU != nil && !contains(names, s.Name) {
			names = append(names, s.Name)
		}
	}
	return names
}

// lookup finds a schedule by name, ignoring case.
func lookup(app App, name string) (Schedule, bool) {
	for _, s := range app.Schedules {
		if strings.EqualFold(s.Name, name) {
			return s, true
		}
	}
	return Schedule{}, false
}

// selected lists the schedules to run, in the app's order (several share a
// name when they differ in size: depthwise's fast).
func selected(app App, o options) []Schedule {
	var out []Schedule
	for _, s := range app.Schedules {
		if o.schedules != nil && !contains(o.schedules, s.Name) {
			continue
		}
		if o.target == "cpu" && s.CPU == nil || o.target != "cuda" && s.BenchOnly {
			continue
		}
		out = append(out, s)
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
