package fuzz

import (
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"sort"
	"time"

	"github.com/gohalide/gohalide/halide"
)

// Command is what the two fuzzer commands (cmd/schedfuzz, cmd/progfuzz)
// share: their flags, the replay of a reproduction, the printing of one
// case, and the reports after a run. Each command adds what is its own
// (the algorithms, how a case is made, the slowest Lowers).
type Command struct {
	N, From, Workers, Minimize, PerKey, Show, Reasons, Progress *int
	Seed                                                        *int64
	Out, Target, Replay, Grep, CPUProfile                       *string
	Verify, Windows                                             *bool
	Timeout                                                     *time.Duration
}

// CommandDefaults are the flag defaults in which the commands differ.
type CommandDefaults struct {
	// Noun names a case in the flags' help ("program", "schedule").
	Noun string
	// PerKey says what a minimization key holds, for -perkey's help.
	PerKey                                   string
	Timeout                                  time.Duration
	Minimize, MinimizePerKey, Reasons, Every int
}

// NewCommand defines the shared flags on flag.CommandLine.
func NewCommand(d CommandDefaults) *Command {
	n := d.Noun
	return &Command{
		N:          flag.Int("n", 1000, "number of "+n+"s"),
		From:       flag.Int("from", 0, "index of the first "+n),
		Seed:       flag.Int64("seed", 1, "seed of the run ("+n+" i depends only on seed and i)"),
		Out:        flag.String("out", "", "directory for the minimized reproductions (none if empty)"),
		Workers:    flag.Int("j", 1, "parallel workers"),
		Verify:     flag.Bool("verify", true, "run the IR verifier after every lowering pass"),
		Target:     flag.String("target", "emulator", "where GPU schedules run: emulator, or cuda (a build with -tags cuda, on a GPU)"),
		Timeout:    flag.Duration("timeout", d.Timeout, "limit per "+n),
		Minimize:   flag.Int("minimize", d.Minimize, "runs one minimization may spend"),
		PerKey:     flag.Int("perkey", d.MinimizePerKey, "minimizations per "+d.PerKey+" (x5 for wrong results)"),
		Replay:     flag.String("replay", "", "replay the case of a reproduction and print its outcome"),
		CPUProfile: flag.String("cpuprofile", "", "with -replay: write a CPU profile of the replay to this file"),
		Show:       flag.Int("show", -1, "print "+n+" i of -seed as a reproduction, run it, and exit"),
		Grep:       flag.String("grep", "", "print the indices of "+n+"s whose outcome message contains this"),
		Reasons:    flag.Int("reasons", d.Reasons, "print the most frequent refusals (this many)"),
		Windows:    flag.Bool("windows", false, "lower each case that compiles a second time, up to storage_folding, and count the cases where a Func slid or folded (columns slid, folded; nested: a Func slid along two loops or more)"),
		Progress:   flag.Int("progress", d.Every, "print progress every this many "+n+"s (0: never)"),
	}
}

// Options returns the run options of the parsed flags. With -replay it
// runs the reproduction, prints its outcome and exits (1 for a defect).
func (c *Command) Options() Options {
	target, err := halide.ParseTarget(*c.Target)
	if err != nil {
		fail(err)
	}
	opt := Options{Verify: *c.Verify, Timeout: *c.Timeout, Target: target, Windows: *c.Windows}
	if *c.Replay == "" {
		return opt
	}
	text, err := os.ReadFile(*c.Replay)
	if err != nil {
		fail(err)
	}
	cs, err := ParseRepro(string(text))
	if err != nil {
		fail(err)
	}
	if *c.CPUProfile != "" {
		f, err := os.Create(*c.CPUProfile)
		if err != nil {
			fail(err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			fail(err)
		}
	}
	r := Run(cs, opt)
	if *c.CPUProfile != "" {
		pprof.StopCPUProfile()
	}
	fmt.Printf("%s %s\n%s\n", r.Class, r.Code, r.Msg)
	if r.Class.IsDefect() {
		os.Exit(1)
	}
	os.Exit(0)
	return opt
}

// PrintCase runs cs and prints it as a reproduction (-show).
func PrintCase(cs Case, opt Options) {
	fmt.Print(Repro(cs, Run(cs, opt), len(cs.Sched)))
}

// Driver returns a driver of the parsed flags, with -out created.
func (c *Command) Driver(opt Options) *Driver {
	if *c.Out != "" {
		if err := os.MkdirAll(*c.Out, 0o755); err != nil {
			fail(err)
		}
	}
	return &Driver{Seed: *c.Seed, Opt: opt, OutDir: *c.Out, Workers: *c.Workers,
		MinimizeBudget: *c.Minimize, MinimizePerKey: *c.PerKey, Grep: *c.Grep, Progress: os.Stderr, ProgressEvery: *c.Progress}
}

// Run runs the cases -from to -from + -n of a driver of the parsed flags
// that setup configures (its Make or Algos), and returns the driver and
// the run's time. With -show it prints case -show of that driver as a
// reproduction instead, and returns a nil driver.
func (c *Command) Run(opt Options, setup func(d *Driver)) (*Driver, time.Duration) {
	if *c.Show >= 0 {
		d := &Driver{Seed: *c.Seed}
		setup(d)
		PrintCase(d.makeCase(*c.Show), opt)
		return nil, 0
	}
	d := c.Driver(opt)
	setup(d)
	start := time.Now()
	d.Run(*c.From, *c.N)
	return d, time.Since(start)
}

// Report prints the table of outcomes of d's run, the cases -grep
// matched and the most frequent refusals (under the heading refusals).
func (c *Command) Report(w io.Writer, d *Driver, refusals string) {
	d.WriteTable(w)
	if *c.Grep != "" {
		fmt.Fprintln(w, "matching -grep:", d.Grepped)
	}
	if *c.Reasons > 0 {
		type kv struct {
			k string
			n int
		}
		var rs []kv
		for k, n := range d.Reasons {
			rs = append(rs, kv{k, n})
		}
		sort.Slice(rs, func(i, j int) bool { return rs[i].n > rs[j].n || rs[i].n == rs[j].n && rs[i].k < rs[j].k })
		fmt.Fprintf(w, "\nmost frequent refusals (%s):\n", refusals)
		for i := 0; i < len(rs) && i < *c.Reasons; i++ {
			fmt.Fprintf(w, "%6d  %s\n", rs[i].n, rs[i].k)
		}
	}
}

// WriteFindings prints the minimized failures of d's run.
func WriteFindings(w io.Writer, d *Driver) {
	fmt.Fprintln(w, "\nfindings (minimized failures grouped by class, error and directive kinds):")
	for _, f := range d.Findings() {
		fmt.Fprintf(w, "%6d  %s\n        %s\n", f.Count, f.Signature, f.File)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, err)
	os.Exit(2)
}
