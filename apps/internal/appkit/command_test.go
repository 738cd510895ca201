package appkit

import (
	"bytes"
	"encoding/json"
	"errors"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gohalide/gohalide/apps/algo"
	"github.com/gohalide/gohalide/halide"
)

// The command line every app shares: flags, help, error messages, exit
// statuses, the table's legend, the JSON and the progress lines, on a small
// app of GEMM schedules (each runs in well under a second on the
// emulator).

// gemmAt builds a GEMM of size n x n x n under apply.
func gemmAt(n int, apply func(*algo.GEMM)) func() algo.Algorithm {
	return func() algo.Algorithm {
		g := algo.NewGEMM(n, n, n)
		apply(g)
		return g
	}
}

// failing is an algorithm whose check always fails.
type failing struct{ algo.Algorithm }

func (failing) Check(halide.BufferRef) (float64, error) {
	return 1, errors.New("planted mismatch")
}

func testApp() App {
	return App{
		Name: "testapp",
		What: "a small GEMM",
		Schedules: []Schedule{
			// Checked at its own size.
			{Name: "v2", Size: "M=32 K=32 N=32", Build: gemmAt(32, (*algo.GEMM).GPUScheduleV2), T4Ms: 1.5},
			// Checked at a smaller size than its benchmark size.
			{Name: "v3", Size: "M=1024 K=1024 N=1024", SmallSize: "M=32 K=32 N=32",
				Build: gemmAt(1024, (*algo.GEMM).GPUScheduleV3), Small: gemmAt(32, (*algo.GEMM).GPUScheduleV3)},
		},
	}
}

// regexpColumns splits a table's header into its columns (two spaces or
// more between columns, one inside a name).
var regexpColumns = regexp.MustCompile(`\s{2,}`)

// squeeze replaces each run of spaces with one.
func squeeze(s string) string { return strings.Join(strings.Fields(s), " ") }

// run runs Command on app with args and returns the exit status, stdout
// and stderr.
func run(t *testing.T, app App, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := Command(app, args, &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

// The usage mistakes: exit status 2, one message on stderr that lists
// what is legal, nothing on stdout, nothing run.
func TestAppCommandUsageErrors(t *testing.T) {
	withCPU := testApp()
	withCPU.Schedules[0].CPU = gemmAt(16, func(*algo.GEMM) {})
	for _, c := range []struct {
		name string
		app  App
		args []string
		want string // the whole of stderr
	}{
		{"unknown schedule", testApp(), []string{"-schedule=v9"},
			`testapp: unknown schedule "v9"; the schedules are: v2, v3 (or all)` + "\n"},
		{"unknown schedule in a list", testApp(), []string{"-schedule=v2,nope"},
			`testapp: unknown schedule "nope"; the schedules are: v2, v3 (or all)` + "\n"},
		{"unknown target", testApp(), []string{"-target=tpu"},
			`testapp: unknown target "tpu"; the targets are: emulator, cuda` + "\n"},
		// cpu is a target only of apps with CPU versions of schedules.
		{"cpu without CPU versions", testApp(), []string{"-target=cpu"},
			`testapp: unknown target "cpu"; the targets are: emulator, cuda` + "\n"},
		{"unknown target of an app with cpu", withCPU, []string{"-target=gpu"},
			`testapp: unknown target "gpu"; the targets are: emulator, cuda, cpu` + "\n"},
		{"schedule without a CPU version", withCPU, []string{"-target=cpu", "-schedule=v3"},
			`testapp: schedule "v3" has no CPU version; those with one: v2` + "\n"},
		{"unknown flag", testApp(), []string{"-fast"},
			"flag provided but not defined: -fast\nrun 'testapp -h' for the flags\n"},
		{"bad flag value", testApp(), []string{"-bench=many"},
			"invalid value \"many\" for flag -bench: parse error\nrun 'testapp -h' for the flags\n"},
		{"no timed runs", testApp(), []string{"-bench=0"},
			"testapp: -bench=0: the number of timed runs must be at least 1\n"},
		{"argument", testApp(), []string{"v2"},
			"testapp: unexpected argument \"v2\" (the app takes only flags; run 'testapp -h')\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, stdout, stderr := run(t, c.app, c.args...)
			if code != ExitUsage {
				t.Errorf("exit status %d, want %d", code, ExitUsage)
			}
			if stderr != c.want {
				t.Errorf("stderr:\n%s\nwant:\n%s", stderr, c.want)
			}
			if stdout != "" {
				t.Errorf("stdout not empty:\n%s", stdout)
			}
		})
	}
}

// -h prints the help on stdout and exits 0: what the app computes, its
// schedules and targets, every flag, the exit statuses.
func TestAppCommandHelp(t *testing.T) {
	for _, arg := range []string{"-h", "-help", "--help"} {
		code, stdout, stderr := run(t, testApp(), arg)
		if code != ExitOK || stderr != "" {
			t.Errorf("%s: exit status %d, stderr %q; want 0 and nothing", arg, code, stderr)
		}
		for _, want := range []string{
			"usage: testapp [flags]", "testapp: a small GEMM.", "schedules: v2, v3\n", "targets:   emulator, cuda\n",
			"-target", "-schedule", "-json", "-bench", "-stmt", "-cuda", "-kernels", "-no-ptxas", "-quiet", "-seed",
			"exit status: 0",
		} {
			if !strings.Contains(stdout, want) {
				t.Errorf("%s: the help lacks %q:\n%s", arg, want, stdout)
			}
		}
	}
}

// -target=cuda in a build without CUDA (or without a GPU): one error, exit
// 1, nothing run.
func TestAppCommandCUDAUnavailable(t *testing.T) {
	if cudaReady() == nil {
		t.Skip("CUDA is available here")
	}
	code, stdout, stderr := run(t, testApp(), "-target=cuda")
	if code != ExitFail {
		t.Errorf("exit status %d, want %d", code, ExitFail)
	}
	if n := strings.Count(stderr, "\n"); n != 1 || !strings.HasPrefix(stderr, "testapp: -target=cuda: ") {
		t.Errorf("want one line of error, got %d:\n%s", n, stderr)
	}
	if stdout != "" {
		t.Errorf("stdout not empty:\n%s", stdout)
	}
}

// The table: a row per schedule with its sizes, and a legend line for
// every column.
func TestAppCommandTable(t *testing.T) {
	code, stdout, stderr := run(t, testApp(), "-no-ptxas", "-quiet")
	if code != ExitOK || stderr != "" {
		t.Fatalf("exit status %d, stderr:\n%s", code, stderr)
	}
	lines := strings.Split(stdout, "\n")
	if lines[0] != "testapp: a small GEMM (target emulator)" {
		t.Errorf("title %q", lines[0])
	}
	head := lines[2]
	cols := regexpColumns.Split(strings.TrimSpace(head), -1)
	wantCols := []string{"schedule", "size", "checked at", "kernels", "shared bytes", "registers", "stack/spill B", "barriers", "check", "wall ms"}
	if strings.Join(cols, "|") != strings.Join(wantCols, "|") {
		t.Errorf("columns %q, want %q", cols, wantCols)
	}
	for _, row := range []string{
		"v2  M=32 K=32 N=32  M=32 K=32 N=32  1 0 - - 0 ok",
		"v3  M=1024 K=1024 N=1024  M=32 K=32 N=32  1 1024 - - 2 ok",
	} {
		if !strings.Contains(squeeze(stdout), squeeze(row)) {
			t.Errorf("no row %q in\n%s", row, stdout)
		}
	}
	legend := stdout[strings.Index(stdout, "columns (JSON field in brackets):"):]
	for _, c := range wantCols {
		if !strings.Contains(legend, "\n  "+c+" ") {
			t.Errorf("the legend does not explain column %q:\n%s", c, legend)
		}
	}
	if !strings.Contains(legend, "not counted (-no-ptxas)") {
		t.Errorf("the legend does not say why registers are missing:\n%s", legend)
	}
}

// The timed columns and their legend (a CUDA result, made by hand: the
// table does not care where the timing came from), with the registers and
// local memory the driver measured for the compiled kernels (the numbers
// are made up: k2 has a 16-byte stack frame).
func TestAppCommandTimedTable(t *testing.T) {
	kernels := []halide.KernelReport{
		{Name: "k1", Compiled: &halide.CompiledInfo{Registers: 40, SharedBytes: 0, MaxThreadsPerBlock: 1024}},
		{Name: "k2", Compiled: &halide.CompiledInfo{Registers: 64, LocalBytes: 16, MaxThreadsPerBlock: 1024}},
	}
	regs, from := compiledRegisters(kernels)
	rs := []Result{{Schedule: "v2", Size: "M=32", CheckSize: "M=32", Check: "ok", T4Ms: 1.5,
		Kernels: kernels, Registers: regs, RegistersFrom: from,
		Timing: &halide.Timing{MedianMs: 0.0125, Runs: 50, Clock: "cuda events"}, GBps: 100, TFlops: 1, FloorFrac: 0.5}}
	var sb strings.Builder
	WriteTable(&sb, rs)
	writeLegend(&sb, rs, options{target: "cuda", bench: 50})
	out := sb.String()
	for _, want := range []string{"median us", "GB/s", "TFLOP/s", "of floor", "T4 ms (source)",
		squeeze("v2 M=32 M=32 2 0 40/64 0/- 16/- 0 ok 0 12.5 100 1.00 50% 1.5"),
		"\n  median us", "\n  GB/s", "\n  TFLOP/s", "\n  of floor", "\n  T4 ms (source)", "median of 50 runs", "CUDA driver",
		"local memory per thread the CUDA driver reports"} {
		if !strings.Contains(squeeze(out), squeeze(want)) && !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	// Nothing measured (the emulator's reports): no driver registers.
	if regs, from := compiledRegisters([]halide.KernelReport{{Name: "k"}}); regs != nil || from != "" {
		t.Errorf("compiledRegisters of an unmeasured kernel: %v from %q, want none", regs, from)
	}
}

// -json: one schema, a list of results with the fields bench/compare.py
// reads.
func TestAppCommandJSON(t *testing.T) {
	code, stdout, stderr := run(t, testApp(), "-json", "-no-ptxas", "-quiet", "-schedule=V3")
	if code != ExitOK || stderr != "" {
		t.Fatalf("exit status %d, stderr:\n%s", code, stderr)
	}
	var rs []map[string]any
	if err := json.Unmarshal([]byte(stdout), &rs); err != nil {
		t.Fatalf("%v:\n%s", err, stdout)
	}
	if len(rs) != 1 {
		t.Fatalf("%d results, want 1 (-schedule=V3 matches v3 without case)", len(rs))
	}
	r := rs[0]
	for k, want := range map[string]any{"app": "testapp", "schedule": "v3", "size": "M=1024 K=1024 N=1024",
		"check_size": "M=32 K=32 N=32", "target": "emulator", "check": "ok"} {
		if r[k] != want {
			t.Errorf("%s = %v, want %v", k, r[k], want)
		}
	}
	for _, k := range []string{"kernels", "max_rel_error", "wall_ms"} {
		if _, ok := r[k]; !ok {
			t.Errorf("no %s in %v", k, r)
		}
	}
	for _, k := range []string{"registers", "ptxas"} {
		if _, ok := r[k]; ok {
			t.Errorf("%s counted with -no-ptxas: %v", k, r[k])
		}
	}
}

// A failed check: the row says why, the exit status is 1.
func TestAppCommandCheckFails(t *testing.T) {
	app := testApp()
	good := app.Schedules[0].Build
	app.Schedules[0].Build = func() algo.Algorithm { return failing{good()} }
	code, stdout, _ := run(t, app, "-no-ptxas", "-quiet")
	if code != ExitFail {
		t.Errorf("exit status %d, want %d", code, ExitFail)
	}
	if !strings.Contains(stdout, "planted mismatch") {
		t.Errorf("the table does not show the failure:\n%s", stdout)
	}
}

// Progress lines: each step that runs longer than progressAfter is
// announced on stderr, with its time when it ends; -quiet silences them.
func TestAppCommandProgress(t *testing.T) {
	defer func(d time.Duration) { progressAfter = d }(progressAfter)
	progressAfter = 0
	_, _, stderr := run(t, testApp(), "-no-ptxas", "-schedule=v3")
	for _, want := range []string{
		"testapp v3: compiling (emulator)...\n",
		"testapp v3: running on the emulator at M=32 K=32 N=32...\n",
		"testapp v3: checking against the plain-Go reference...\n",
		"testapp v3: checking against the plain-Go reference: done in ",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("no %q on stderr:\n%s", want, stderr)
		}
	}
	if strings.Contains(stderr, "ptxas") {
		t.Errorf("ptxas ran with -no-ptxas:\n%s", stderr)
	}
	if _, _, stderr := run(t, testApp(), "-no-ptxas", "-quiet", "-schedule=v3"); stderr != "" {
		t.Errorf("-quiet printed:\n%s", stderr)
	}
}

// Without -no-ptxas the registers come from ptxas (when nvcc is here),
// announced as a step.
func TestAppCommandPtxas(t *testing.T) {
	if _, ok := halide.NVCCPath(); !ok {
		t.Skip("nvcc not found: scripts/install-cuda-toolkit.sh installs it")
	}
	defer func(d time.Duration) { progressAfter = d }(progressAfter)
	progressAfter = 0
	code, stdout, stderr := run(t, testApp(), "-json", "-schedule=v3")
	if code != ExitOK {
		t.Fatalf("exit status %d:\n%s", code, stderr)
	}
	var rs []Result
	if err := json.Unmarshal([]byte(stdout), &rs); err != nil {
		t.Fatal(err)
	}
	if len(rs) != 1 || len(rs[0].Registers) != 1 || rs[0].RegistersFrom != "ptxas" {
		t.Fatalf("registers %v from %q, want one kernel's from ptxas", rs[0].Registers, rs[0].RegistersFrom)
	}
	// The stack frame and spills too, for the same kernel, and the same
	// register count.
	for k, n := range rs[0].Registers {
		pi, ok := rs[0].Ptxas[k]
		if !ok || pi.Registers != n || pi.StackFrame != 0 || pi.SpillStores+pi.SpillLoads != 0 {
			t.Errorf("ptxas info of %s: %+v (ok %v), want %d registers, no stack frame, no spills", k, pi, ok, n)
		}
	}
	if !strings.Contains(stderr, "testapp: ptxas (registers per thread, 1 schedule)...") {
		t.Errorf("ptxas not announced:\n%s", stderr)
	}
}

// A GPU result's JSON carries the back-to-back measure inside "timing",
// with the names bench/compare.py reads.
func TestResultJSONBackToBack(t *testing.T) {
	tm := halide.Timing{MedianMs: 0.02, MinMs: 0.019, MaxMs: 0.03, Runs: 50, Clock: "cuda events"}
	tm.SetBackToBack("cuda events around 10 runs", 10, []float64{0.011, 0.012, 0.010})
	b, err := json.Marshal(Result{App: "testapp", Target: "cuda", Check: "ok", Timing: &tm})
	if err != nil {
		t.Fatal(err)
	}
	var r struct {
		Timing map[string]any `json:"timing"`
	}
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]any{"median_ms": 0.02, "back_to_back_ms": 0.011, "back_to_back_runs": 3.0,
		"back_to_back_calls": 10.0, "back_to_back_clock": "cuda events around 10 runs"} {
		if r.Timing[k] != want {
			t.Errorf("timing.%s = %v, want %v (JSON %s)", k, r.Timing[k], want, b)
		}
	}
}
