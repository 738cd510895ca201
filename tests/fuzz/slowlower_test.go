package fuzz

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/gohalide/gohalide/halide"
)

// lowerDeadline is issue 17's bound: no random program takes more than
// 5 s to lower or is left without an answer.
const lowerDeadline = 5 * time.Second

// passDeadlines bounds, for the cases of testdata/slowlower whose Lower
// was made fast on purpose, the passes that were slow: the code before the
// fix broke each bound on every run (the file's header says the times
// before and after), which leave room for a loaded 2-core machine. Their
// whole Lower, still slower than the others', gets a deadline of
// slowPassDeadline: the bounds on the passes are the regression tests.
var passDeadlines = map[string]map[string]time.Duration{
	// gpu_registers: 1.0 to 1.8 s at 469d028 (GOHALIDE_DEBUG=1, this
	// 2-core machine lightly loaded), 0.1 s after, 0.26 s with both
	// cores busy, 0.33 s in go test ./...; its Lower took 1.7 s, 4 s
	// with both cores busy, past 5 s in go test ./....
	"prog-slow-lower-unrolled-register-indices.go.txt": {"gpu_registers": 700 * time.Millisecond},
}

// slowPassDeadline is the deadline of the whole Lower of a case in
// passDeadlines.
const slowPassDeadline = 20 * time.Second

// TestSlowLowers lowers the slowest programs the program fuzzer has found
// (testdata/slowlower: the top of the "slowest Lowers" list of progfuzz
// runs, saved as reproductions, each header saying the run, the program
// and its Lower time there) with LowerContext under a 5 s deadline
// (slowPassDeadline for those in passDeadlines). It
// fails if a Lower runs past the deadline (ErrCanceled), does not return
// at all soon after it (a pass that ignores the context), breaks an
// internal invariant, or runs a pass past its bound in passDeadlines; a
// typed refusal is an answer.
func TestSlowLowers(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "slowlower", "*.go.txt"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no slow programs found (%v)", err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			text, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			c, err := ParseRepro(string(text))
			if err != nil {
				t.Fatal(err)
			}
			if c.Prog == nil {
				t.Fatal("not a program case")
			}
			inst := c.Prog.build()
			inst.Apply(c.Sched)
			pl := halide.NewPipeline(inst.Out)
			if c.GPU {
				pl.WithTarget(halide.Emulator)
			}
			var log bytes.Buffer
			lowerDeadline := lowerDeadline
			passLimits := passDeadlines[filepath.Base(file)]
			if passLimits != nil {
				pl.WithOptions(halide.Options{Debug: 1, Log: &log})
				lowerDeadline = slowPassDeadline
			}
			ctx, cancel := context.WithTimeout(context.Background(), lowerDeadline)
			defer cancel()
			type answer struct {
				err error
				d   time.Duration
			}
			done := make(chan answer, 1)
			go func() {
				t0 := time.Now()
				_, err := pl.LowerContext(ctx)
				done <- answer{err, time.Since(t0)}
			}()
			select {
			case a := <-done:
				var he *halide.Error
				switch {
				case errors.As(a.err, &he) && he.Code == halide.ErrCanceled:
					t.Errorf("Lower ran past %v: %v", lowerDeadline, a.err)
				case errors.As(a.err, &he) && he.Code == halide.ErrInternal:
					t.Errorf("internal error after %v: %v", a.d, a.err)
				case a.err != nil && !errors.As(a.err, &he):
					t.Errorf("untyped error after %v: %T %v", a.d, a.err, a.err)
				}
				code := "ok"
				if he != nil {
					code = string(he.Code)
				}
				t.Logf("lowered in %v (%s)", a.d.Round(time.Millisecond), code)
				checkPassTimes(t, log.String(), passLimits)
			case <-time.After(lowerDeadline + time.Second):
				// One second past the deadline: the passes check the
				// context often enough to stop well within it.
				t.Errorf("Lower gave no answer %v after its deadline of %v", time.Second, lowerDeadline)
			}
		})
	}
}

// passTime matches a pass's line in Lower's debug log (level 1).
var passTime = regexp.MustCompile(`(?m)^lower: (\w+) \((.*)\)$`)

// checkPassTimes fails t for each pass in limits that log says ran
// longer.
func checkPassTimes(t *testing.T, log string, limits map[string]time.Duration) {
	t.Helper()
	seen := map[string]bool{}
	for _, m := range passTime.FindAllStringSubmatch(log, -1) {
		limit, ok := limits[m[1]]
		if !ok {
			continue
		}
		seen[m[1]] = true
		d, err := time.ParseDuration(m[2])
		if err != nil {
			t.Errorf("pass %s: %v", m[1], err)
			continue
		}
		t.Logf("%s took %v (bound %v)", m[1], d.Round(time.Millisecond), limit)
		if d > limit {
			t.Errorf("%s took %v, more than %v", m[1], d.Round(time.Millisecond), limit)
		}
	}
	for name := range limits {
		if !seen[name] {
			t.Errorf("no time logged for pass %s", name)
		}
	}
}
