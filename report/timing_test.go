package report_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/gohalide/gohalide/report"
)

// TestTimingBackToBackJSON checks that a timing without the back-to-back
// measure (the emulator's, the CPU's) writes the JSON it always did, and
// that one with it writes the new fields.
func TestTimingBackToBackJSON(t *testing.T) {
	plain := report.NewTiming("emulator wall clock", []float64{3, 1, 2})
	b, err := json.Marshal(plain)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"clock":"emulator wall clock","runs":3,"median_ms":2,"min_ms":1,"max_ms":3}`; string(b) != want {
		t.Errorf("plain timing:\n got %s\nwant %s", b, want)
	}

	tm := report.NewTiming("cuda events", []float64{0.02, 0.03})
	tm.SetBackToBack("cuda events around 10 runs", 10, []float64{0.012, 0.010, 0.011, 0.013})
	if tm.BackToBackMs != 0.012 || tm.BackToBackMinMs != 0.010 || tm.BackToBackMaxMs != 0.013 || tm.BackToBackRuns != 4 || tm.BackToBackCalls != 10 {
		t.Errorf("back to back: %+v", tm)
	}
	b, err = json.Marshal(tm)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{`"back_to_back_ms":0.012`, `"back_to_back_min_ms":0.01`, `"back_to_back_max_ms":0.013`,
		`"back_to_back_runs":4`, `"back_to_back_calls":10`, `"back_to_back_clock":"cuda events around 10 runs"`} {
		if !strings.Contains(string(b), f) {
			t.Errorf("JSON %s lacks %s", b, f)
		}
	}
	if strings.Contains(string(b), "back_to_back_invalid") {
		t.Errorf("JSON %s has back_to_back_invalid", b)
	}

	tm.SetBackToBackInvalid("cuda events around 10 runs", "the host fell behind")
	b, err = json.Marshal(tm)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), `"back_to_back_ms"`) || !strings.Contains(string(b), `"back_to_back_invalid":"the host fell behind"`) {
		t.Errorf("invalid back to back: JSON %s", b)
	}
}
