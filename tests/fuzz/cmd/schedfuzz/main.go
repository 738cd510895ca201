// Command schedfuzz is the differential schedule fuzzer: it draws random
// schedules of the algorithms of tests/fuzz, realizes each at random odd
// sizes on the CPU or (for GPU schedules) on the GPU emulator, compares the
// output with a plain-Go reference and prints a table of outcomes per
// algorithm and target. Every failure other than a rejection at Lower is
// minimized and saved as a .go.txt reproduction under -out.
//
//	go run ./tests/fuzz/cmd/schedfuzz -n 20000 -seed 1 -out /tmp/fuzzrepros -j 2
//	go run ./tests/fuzz/cmd/schedfuzz -replay /tmp/fuzzrepros/wrong-blur-gpu-123.go.txt
package main

import (
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/gohalide/gohalide/halide"
	"github.com/gohalide/gohalide/tests/fuzz"
)

func main() {
	n := flag.Int("n", 1000, "number of schedules")
	from := flag.Int("from", 0, "index of the first schedule")
	seed := flag.Int64("seed", 1, "seed of the run (schedule i depends only on seed and i)")
	out := flag.String("out", "", "directory for the minimized reproductions (none if empty)")
	j := flag.Int("j", 1, "parallel workers")
	algos := flag.String("algos", "", "comma-separated algorithms (default all: blur,gemm,conv1d,hist,tensorproduct,depthwise,stencil)")
	verify := flag.Bool("verify", true, "run the IR verifier after every lowering pass")
	targetName := flag.String("target", "emulator", "where GPU schedules run: emulator, or cuda (a build with -tags cuda, on a GPU)")
	timeout := flag.Duration("timeout", 20*time.Second, "limit per schedule")
	budget := flag.Int("minimize", 150, "runs one minimization may spend")
	perKey := flag.Int("perkey", 3, "minimizations per (class, algorithm, target, error) (x5 for wrong results)")
	replay := flag.String("replay", "", "replay the case of a .go.txt reproduction and print its outcome")
	show := flag.Int("show", -1, "print the case of schedule i of -seed as a reproduction, run it, and exit")
	grep := flag.String("grep", "", "print the indices of schedules whose outcome message contains this")
	reasons := flag.Int("reasons", 0, "print the most frequent rejection reasons (this many)")
	wins := flag.Bool("windows", false, "lower each case that compiles a second time, up to storage_folding, and count the cases where a Func slid or folded (columns slid, folded)")
	progress := flag.Int("progress", 1000, "print progress every this many schedules (0: never)")
	flag.Parse()
	target, err := halide.ParseTarget(*targetName)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	opt := fuzz.Options{Verify: *verify, Timeout: *timeout, Target: target, Windows: *wins}

	if *replay != "" {
		text, err := os.ReadFile(*replay)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		c, err := fuzz.ParseRepro(string(text))
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		r := fuzz.Run(c, opt)
		fmt.Printf("%s %s\n%s\n", r.Class, r.Code, r.Msg)
		if r.Class.IsDefect() {
			os.Exit(1)
		}
		return
	}
	as := fuzz.Algos
	if *algos != "" {
		as = nil
		for _, name := range strings.Split(*algos, ",") {
			a := fuzz.AlgoByName(strings.TrimSpace(name))
			if a == nil {
				fmt.Fprintf(os.Stderr, "unknown algorithm %q\n", name)
				os.Exit(2)
			}
			as = append(as, a)
		}
	}
	if *show >= 0 {
		c := fuzz.MakeCase(*seed, *show, as)
		r := fuzz.Run(c, opt)
		fmt.Print(fuzz.Repro(c, r, len(c.Sched)))
		return
	}
	if *out != "" {
		if err := os.MkdirAll(*out, 0o755); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
	}
	d := &fuzz.Driver{Seed: *seed, Algos: as, Opt: opt, OutDir: *out, Workers: *j,
		MinimizeBudget: *budget, MinimizePerKey: *perKey, Grep: *grep, Progress: os.Stderr, ProgressEvery: *progress}
	start := time.Now()
	d.Run(*from, *n)
	fmt.Printf("schedfuzz -seed %d -from %d -n %d: %v\n\n", *seed, *from, *n, time.Since(start).Round(time.Second))
	d.WriteTable(os.Stdout)
	if *grep != "" {
		fmt.Println("schedules matching -grep:", d.Grepped)
	}
	if *reasons > 0 {
		type kv struct {
			k string
			n int
		}
		var rs []kv
		for k, n := range d.Reasons {
			rs = append(rs, kv{k, n})
		}
		sort.Slice(rs, func(i, j int) bool { return rs[i].n > rs[j].n })
		fmt.Println("\nmost frequent rejections (at Lower, and for size):")
		for i := 0; i < len(rs) && i < *reasons; i++ {
			fmt.Printf("%6d  %s\n", rs[i].n, rs[i].k)
		}
	}
	fmt.Println("\nfindings (minimized failures grouped by class, error and directive kinds):")
	for _, f := range d.Findings() {
		fmt.Printf("%6d  %s\n        %s\n", f.Count, f.Signature, f.File)
	}
}
