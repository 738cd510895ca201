//go:build cuda

package cudart

import (
	"errors"
	"fmt"
	"time"

	"gorgonia.org/cu"

	"github.com/gohalide/gohalide/report"
)

// Benchmark's second measure is back to back: in each round a long spin is
// queued, then a start event, then backToBackCalls runs of the pipeline
// with no events and no spins of their own, then an end event; the time
// per run is the time between the events over backToBackCalls, and the
// measure is the median over the rounds. The runs follow one another on
// the GPU as PyTorch's calls do in a CUDA graph: the events' own overhead
// and the GPU's launch latency of each kernel, which event timing of one
// launch includes and which matter below about 100 us, are mostly left
// out.
//
// The spin holds the GPU while the host queues the round, so that the GPU
// never waits for the host between runs. The round is valid only if the
// start event has not completed when the host has queued the end event:
// then every launch of the round was queued before the GPU began the
// first. If it has completed, the GPU caught up with the host and the
// round measured the host's gaps too: the spin is doubled and the round
// run again. A run that waits for the GPU itself (a cuMemFree of a
// scratch buffer, a copy) makes every round invalid, however long the
// spin; after backToBackRetries doublings, or at backToBackMaxSpin, the
// measure is given up and marked invalid rather than reported wrong.
const (
	// backToBackCalls is the number of runs queued back to back in a
	// round (PyTorch's graph holds ten calls too).
	backToBackCalls = 10
	// backToBackMinRounds is the fewest rounds when runs is smaller and
	// the rounds are cheap (see backToBackRoundCount).
	backToBackMinRounds = 20
	// backToBackBudgetMs bounds the GPU time of the rounds beyond runs:
	// slow pipelines, for which the measure matters least, get fewer.
	backToBackBudgetMs = 5000.0
	// backToBackMinSpin is the shortest spin before a round.
	backToBackMinSpin = 200 * time.Microsecond
	// backToBackMaxSpin is the longest spin before a round.
	backToBackMaxSpin = 500 * time.Millisecond
	// backToBackRetries is how many times one round's spin is doubled
	// before the measure is given up.
	backToBackRetries = 8
)

// backToBackClock is the back-to-back measure's clock.
var backToBackClock = fmt.Sprintf("cuda events around %d runs queued back to back behind a spin (no per-launch events or spins), per run", backToBackCalls)

// backToBackRoundCount is the number of back-to-back rounds: runs, or
// backToBackMinRounds when runs is smaller and the extra rounds would take
// less than backToBackBudgetMs of GPU time at medianMs per run (else as
// many as fit, and at least runs).
func backToBackRoundCount(runs int, medianMs float64) int {
	if runs >= backToBackMinRounds {
		return runs
	}
	n := backToBackMinRounds
	if medianMs > 0 {
		if fit := int(backToBackBudgetMs / (medianMs * backToBackCalls)); fit < n {
			n = fit
		}
	}
	return max(n, runs)
}

// backToBackRounds measures the back-to-back time of f (see
// backToBackCalls) over rounds rounds and records it in t; hostMs is the
// wall time the host took to queue one run with per-launch events, which
// sizes the first spin. A measure that never became valid is recorded as
// invalid, with the reason. Buffers are not copied back: Benchmark has
// switched copies off.
func (d *Device) backToBackRounds(t *report.Timing, rounds int, hostMs float64, f func() error) error {
	d.do(func() error { d.backToBack = true; return nil })
	defer d.do(func() error { d.backToBack = false; return nil })
	// Twice the host's time to queue a round, at least backToBackMinSpin.
	spin := max(backToBackMinSpin, time.Duration(2*hostMs*backToBackCalls*1e6))
	spin = min(spin, backToBackMaxSpin)
	perCall := make([]float64, 0, rounds)
	for r := 0; r < rounds; r++ {
		for try := 0; ; try++ {
			ms, valid, queued, err := d.backToBackRound(spin, f)
			if err != nil {
				return err
			}
			// The host's time to queue this round sizes the next
			// spin: twice it, so that a slower round still fits.
			next := min(max(spin, 2*queued), backToBackMaxSpin)
			if valid {
				perCall = append(perCall, ms/backToBackCalls)
				spin = next
				break
			}
			if try == backToBackRetries || spin >= backToBackMaxSpin {
				t.SetBackToBackInvalid(backToBackClock, fmt.Sprintf(
					"round %d: %d times the GPU finished the spin (the last %.0f us) before the host had queued the round "+
						"(%.0f us to queue it): a run waits for the GPU (a free or a copy) or the host is too slow",
					r+1, try+1, us(spin), us(queued)))
				return nil
			}
			spin = min(max(2*spin, next), backToBackMaxSpin)
		}
	}
	t.SetBackToBack(backToBackClock, backToBackCalls, perCall)
	return nil
}

// backToBackRound runs one round: a spin of the given length, a start
// event, backToBackCalls runs of f, an end event. It returns the time
// between the events (ms), whether the round is valid (the start event had
// not completed when the end event was queued) and how long the host took
// to queue the runs.
func (d *Device) backToBackRound(spin time.Duration, f func() error) (ms float64, valid bool, queued time.Duration, err error) {
	var ev [2]cu.Event
	made := 0
	defer d.do(func() error {
		for i := 0; i < made; i++ {
			cu.DestroyEvent(&ev[i])
		}
		return nil
	})
	err = d.do(func() error {
		for i := range ev {
			var err error
			if ev[i], err = cu.MakeEvent(cu.DefaultEvent); err != nil {
				return fmt.Errorf("events: %w", err)
			}
			made++
		}
		if err := d.spinFor(uint64(spin.Nanoseconds())); err != nil {
			return err
		}
		if err := ev[0].Record(cu.Stream{}); err != nil {
			return fmt.Errorf("events: %w", err)
		}
		return nil
	})
	if err != nil {
		return 0, false, 0, fmt.Errorf("cuda: back-to-back timing: %w", err)
	}
	start := time.Now()
	for i := 0; i < backToBackCalls; i++ {
		if err := f(); err != nil {
			return 0, false, 0, err
		}
	}
	queued = time.Since(start)
	err = d.do(func() error {
		if err := ev[1].Record(cu.Stream{}); err != nil {
			return fmt.Errorf("events: %w", err)
		}
		// cuEventQuery: CUDA_SUCCESS once the GPU has passed the
		// event, CUDA_ERROR_NOT_READY before.
		switch qerr := ev[0].Query(); {
		case qerr == nil:
			valid = false
		case errors.Is(qerr, cu.NotReady):
			valid = true
		default:
			return fmt.Errorf("events: %w", qerr)
		}
		if err := ev[1].Synchronize(); err != nil {
			return err
		}
		if !valid {
			return nil
		}
		var err error
		ms, err = ev[0].Elapsed(ev[1])
		return err
	})
	if err != nil {
		return 0, false, 0, fmt.Errorf("cuda: back-to-back timing: %w", err)
	}
	return ms, valid, queued, nil
}

// us is d in microseconds.
func us(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e3 }
