// Command progfuzz is the differential random-program fuzzer: it draws
// random programs (pipelines of 1-6 Funcs with updates, reductions,
// boundary conditions and Params) with random schedules from the schedule
// generator of tests/fuzz, realizes each on the CPU or (for GPU schedules)
// on the GPU emulator, and compares the output with the fuzzer's own
// evaluator of the program. It prints a table of outcomes per target, the
// refusals by error code and message, and the slowest Lowers. Every wrong
// result, internal error, panic, timeout and refusal at Realize is
// minimized and saved under -out as a standalone Go program.
//
//	go run ./tests/fuzz/cmd/progfuzz -n 5000 -seed 1 -j 2 -out /tmp/progrepros
//	go run ./tests/fuzz/cmd/progfuzz -replay /tmp/progrepros/wrong-cpu-123.go
//	go run ./tests/fuzz/cmd/progfuzz -show 123 -seed 1
package main

import (
	"flag"
	"fmt"
	"os"
	"sort"
	"time"

	"github.com/gohalide/gohalide/halide"
	"github.com/gohalide/gohalide/tests/fuzz"
)

func main() {
	n := flag.Int("n", 1000, "number of programs")
	from := flag.Int("from", 0, "index of the first program")
	seed := flag.Int64("seed", 1, "seed of the run (program i depends only on seed and i)")
	out := flag.String("out", "", "directory for the minimized reproductions (none if empty)")
	j := flag.Int("j", 1, "parallel workers")
	verify := flag.Bool("verify", true, "run the IR verifier after every lowering pass")
	targetName := flag.String("target", "emulator", "where GPU schedules run: emulator, or cuda (a build with -tags cuda, on a GPU)")
	timeout := flag.Duration("timeout", 10*time.Second, "limit per program")
	budget := flag.Int("minimize", 200, "runs one minimization may spend")
	perKey := flag.Int("perkey", 2, "minimizations per (class, target, error) (x5 for wrong results)")
	replay := flag.String("replay", "", "replay the case of a reproduction and print its outcome")
	show := flag.Int("show", -1, "print program i of -seed as a reproduction, run it, and exit")
	grep := flag.String("grep", "", "print the indices of programs whose outcome message contains this")
	reasons := flag.Int("reasons", 30, "print the most frequent refusals (this many)")
	wins := flag.Bool("windows", false, "lower each case that compiles a second time, up to storage_folding, and count the cases where a Func slid or folded (columns slid, folded)")
	progress := flag.Int("progress", 500, "print progress every this many programs (0: never)")
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
	if *show >= 0 {
		c := fuzz.MakeProgCase(*seed, *show)
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
	d := &fuzz.Driver{Seed: *seed, Make: fuzz.MakeProgCase, Opt: opt, OutDir: *out, Workers: *j,
		MinimizeBudget: *budget, MinimizePerKey: *perKey, Grep: *grep, Progress: os.Stderr, ProgressEvery: *progress}
	start := time.Now()
	d.Run(*from, *n)
	fmt.Printf("progfuzz -seed %d -from %d -n %d (GPU schedules on %s): %v\n\n", *seed, *from, *n, *targetName, time.Since(start).Round(time.Second))
	d.WriteTable(os.Stdout)
	if *grep != "" {
		fmt.Println("programs matching -grep:", d.Grepped)
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
		sort.Slice(rs, func(i, j int) bool { return rs[i].n > rs[j].n || rs[i].n == rs[j].n && rs[i].k < rs[j].k })
		fmt.Println("\nmost frequent refusals (class | target | code | message, numbers and names normalized):")
		for i := 0; i < len(rs) && i < *reasons; i++ {
			fmt.Printf("%6d  %s\n", rs[i].n, rs[i].k)
		}
	}
	fmt.Println("\nslowest Lowers (program, time, outcome, Funcs):")
	for _, s := range d.SlowLower {
		fmt.Printf("  %6d  %8v  %s  %d\n", s.Index, s.Lower.Round(time.Millisecond), s.Class, s.Funcs)
	}
	fmt.Println("\nfindings (minimized failures grouped by class, error and directive kinds):")
	for _, f := range d.Findings() {
		fmt.Printf("%6d  %s\n        %s\n", f.Count, f.Signature, f.File)
	}
}
