// Command schedfuzz is the differential schedule fuzzer: it draws random
// schedules of the algorithms of tests/fuzz, realizes each at random odd
// sizes on the CPU or (for GPU schedules) on the GPU emulator, compares the
// output with a plain-Go reference and prints a table of outcomes per
// algorithm and target. Every failure other than a rejection at Lower is
// minimized and saved as a .go.txt reproduction under -out.
//
//	go run ./tests/fuzz/cmd/schedfuzz -n 20000 -seed 1 -out /tmp/fuzzrepros -j 2
//	go run ./tests/fuzz/cmd/schedfuzz -replay /tmp/fuzzrepros/wrong-blur-gpu-123.go.txt
//
// The flags, the replay and the reports are fuzz.Command, shared with
// progfuzz.
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/gohalide/gohalide/tests/fuzz"
)

func main() {
	cmd := fuzz.NewCommand(fuzz.CommandDefaults{Noun: "schedule", PerKey: "(class, algorithm, target, error)",
		Timeout: 20 * time.Second, Minimize: 150, MinimizePerKey: 3, Reasons: 0, Every: 1000})
	algos := flag.String("algos", "", "comma-separated algorithms (default all: blur,gemm,conv1d,hist,tensorproduct,depthwise,stencil,bitops,argmax)")
	flag.Parse()
	opt := cmd.Options()
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
	d, took := cmd.Run(opt, func(d *fuzz.Driver) { d.Algos = as })
	if d == nil {
		return
	}
	fmt.Printf("schedfuzz -seed %d -from %d -n %d: %v\n\n", *cmd.Seed, *cmd.From, *cmd.N, took.Round(time.Second))
	cmd.Report(os.Stdout, d, "at Lower, and for size")
	fuzz.WriteFindings(os.Stdout, d)
}
