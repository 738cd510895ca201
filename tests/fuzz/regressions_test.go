package fuzz

import (
	"os"
	"path/filepath"
	"testing"
)

// TestRegressions replays every reproduction under testdata/regressions
// (minimized schedules the fuzzer once found wrong, rejected at Realize or
// crashing) and fails if one is a defect again. A reproduction whose
// schedule is now rejected at Lower with a typed error passes: that is the
// fix for schedules that cannot be made correct.
func TestRegressions(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "regressions", "*.go.txt"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no regressions found (%v)", err)
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
			r := Run(c, Options{Verify: true})
			if r.Class.IsDefect() {
				t.Errorf("%s %s: %s", r.Class, r.Code, r.Msg)
			}
			t.Logf("%s %s", r.Class, r.Code)
		})
	}
}
