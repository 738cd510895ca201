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
//	go run ./tests/fuzz/cmd/progfuzz -several 1 -n 2000 (pipelines with several outputs only)
package main

import (
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/gohalide/gohalide/tests/fuzz"
)

func main() {
	cmd := fuzz.NewCommand(fuzz.CommandDefaults{Noun: "program", PerKey: "(class, target, error)",
		Timeout: 10 * time.Second, Minimize: 200, MinimizePerKey: 2, Reasons: 30, Every: 500})
	several := flag.Float64("several", fuzz.SeveralShare, "share of programs drawn with several outputs (1: all that suit; -show and -replay of such a run need it too)")
	flag.Parse()
	fuzz.SeveralShare = *several
	d, took := cmd.Run(cmd.Options(), func(d *fuzz.Driver) { d.Make = fuzz.MakeProgCase })
	if d == nil {
		return
	}
	fmt.Printf("progfuzz -seed %d -from %d -n %d (GPU schedules on %s): %v\n\n", *cmd.Seed, *cmd.From, *cmd.N, *cmd.Target, took.Round(time.Second))
	cmd.Report(os.Stdout, d, "class | target | code | message, numbers and names normalized")
	fmt.Println("\nslowest Lowers (program, time, outcome, Funcs):")
	for _, s := range d.SlowLower {
		fmt.Printf("  %6d  %8v  %s  %d\n", s.Index, s.Lower.Round(time.Millisecond), s.Class, s.Funcs)
	}
	fuzz.WriteFindings(os.Stdout, d)
}
