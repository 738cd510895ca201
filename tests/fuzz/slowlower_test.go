package fuzz

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gohalide/gohalide/halide"
)

// lowerDeadline is issue 17's bound: no random program takes more than
// 5 s to lower or is left without an answer.
const lowerDeadline = 5 * time.Second

// TestSlowLowers lowers the slowest programs the program fuzzer has found
// (testdata/slowlower: the top of the "slowest Lowers" list of progfuzz
// runs, saved as reproductions, each header saying the run, the program
// and its Lower time there) with LowerContext under a 5 s deadline. It
// fails if a Lower runs past the deadline (ErrCanceled), does not return
// at all soon after it (a pass that ignores the context), or breaks an
// internal invariant; a typed refusal is an answer.
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
			case <-time.After(lowerDeadline + time.Second):
				// One second past the deadline: the passes check the
				// context often enough to stop well within it.
				t.Errorf("Lower gave no answer %v after its deadline of %v", time.Second, lowerDeadline)
			}
		})
	}
}
