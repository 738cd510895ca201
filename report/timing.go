package report

import "sort"

// Timing summarizes repeated runs: the median and the spread, in
// milliseconds, and how they were measured (CUDA events on a GPU, or the
// wall clock of the emulator, which says nothing about GPU speed).
//
// On a GPU it may also carry a second measure, back to back: the time per
// run of BackToBackCalls runs queued one after the other between one pair
// of events, the median over BackToBackRuns rounds. Below about 100 us a
// run's event-timed median includes the events' own overhead and the GPU's
// launch latency of each kernel; back to back, as PyTorch's time in a CUDA
// graph, leaves most of them out, so the two sides compare like for like.
// The back-to-back fields are empty off the GPU (the emulator and the CPU
// leave them out of their JSON). BackToBackInvalid, when set, says why no
// back-to-back time could be measured (the host did not keep ahead of the
// GPU); the other back-to-back fields are then empty but for the clock.
type Timing struct {
	Clock    string  `json:"clock"`
	Runs     int     `json:"runs"`
	MedianMs float64 `json:"median_ms"`
	MinMs    float64 `json:"min_ms"`
	MaxMs    float64 `json:"max_ms"`

	// BackToBackMs is the median over the rounds of the time per run,
	// BackToBackMinMs and BackToBackMaxMs the fastest and slowest round.
	BackToBackMs    float64 `json:"back_to_back_ms,omitempty"`
	BackToBackMinMs float64 `json:"back_to_back_min_ms,omitempty"`
	BackToBackMaxMs float64 `json:"back_to_back_max_ms,omitempty"`
	// BackToBackRuns is the number of rounds, BackToBackCalls the runs
	// queued back to back in each.
	BackToBackRuns  int `json:"back_to_back_runs,omitempty"`
	BackToBackCalls int `json:"back_to_back_calls,omitempty"`
	// BackToBackClock says how the back-to-back time was measured.
	BackToBackClock   string `json:"back_to_back_clock,omitempty"`
	BackToBackInvalid string `json:"back_to_back_invalid,omitempty"`
}

// NewTiming summarizes the times of runs (in ms).
func NewTiming(clock string, ms []float64) Timing {
	t := Timing{Clock: clock, Runs: len(ms)}
	if len(ms) == 0 {
		return t
	}
	t.MedianMs, t.MinMs, t.MaxMs = medianMinMax(ms)
	return t
}

// SetBackToBack records the back-to-back measure: perCallMs holds, for
// each round, the time of the round divided by calls, the runs queued back
// to back in it (in ms).
func (t *Timing) SetBackToBack(clock string, calls int, perCallMs []float64) {
	t.BackToBackClock, t.BackToBackInvalid = clock, ""
	t.BackToBackRuns, t.BackToBackCalls = len(perCallMs), calls
	t.BackToBackMs, t.BackToBackMinMs, t.BackToBackMaxMs = 0, 0, 0
	if len(perCallMs) == 0 {
		return
	}
	t.BackToBackMs, t.BackToBackMinMs, t.BackToBackMaxMs = medianMinMax(perCallMs)
}

// SetBackToBackInvalid records that the back-to-back measure (clock) gave
// no valid time, and why; it clears any back-to-back time.
func (t *Timing) SetBackToBackInvalid(clock, why string) {
	t.SetBackToBack(clock, 0, nil)
	t.BackToBackInvalid = why
}

// medianMinMax returns the median (the upper one of an even count, as
// sorted[n/2]), the minimum and the maximum of a non-empty ms.
func medianMinMax(ms []float64) (med, lo, hi float64) {
	s := append([]float64(nil), ms...)
	sort.Float64s(s)
	return s[len(s)/2], s[0], s[len(s)-1]
}
