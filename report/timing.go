package report

import "sort"

// Timing summarizes repeated runs: the median and the spread, in
// milliseconds, and how they were measured (CUDA events on a GPU, or the
// wall clock of the emulator, which says nothing about GPU speed).
type Timing struct {
	Clock    string  `json:"clock"`
	Runs     int     `json:"runs"`
	MedianMs float64 `json:"median_ms"`
	MinMs    float64 `json:"min_ms"`
	MaxMs    float64 `json:"max_ms"`
}

// NewTiming summarizes the times of runs (in ms).
func NewTiming(clock string, ms []float64) Timing {
	t := Timing{Clock: clock, Runs: len(ms)}
	if len(ms) == 0 {
		return t
	}
	s := append([]float64(nil), ms...)
	sort.Float64s(s)
	t.MedianMs, t.MinMs, t.MaxMs = s[len(s)/2], s[0], s[len(s)-1]
	return t
}
