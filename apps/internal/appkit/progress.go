package appkit

import (
	"fmt"
	"io"
	"sync"
	"time"
)

// progressAfter is how long a step runs before it is announced on stderr
// (a variable so that tests can make every step announce itself).
var progressAfter = time.Second

// progress prints a line on w when a step has been running for
// progressAfter, and one when that step ends: quick steps stay silent,
// slow ones (compiling, ptxas, the emulator, the timed runs) say what the
// program is waiting for.
type progress struct {
	w  io.Writer // nil: silent
	mu sync.Mutex
}

// step runs f as the step what ("gemm v3: ptxas").
func (p *progress) step(what string, f func()) {
	if p == nil || p.w == nil {
		f()
		return
	}
	start := time.Now()
	announced, finished := false, false
	if progressAfter <= 0 {
		// Every step is announced, before it starts (no timer to race
		// with a quick step).
		fmt.Fprintf(p.w, "%s...\n", what)
		f()
		fmt.Fprintf(p.w, "%s: done in %.1f s\n", what, time.Since(start).Seconds())
		return
	}
	t := time.AfterFunc(progressAfter, func() {
		p.mu.Lock()
		defer p.mu.Unlock()
		if !finished {
			fmt.Fprintf(p.w, "%s...\n", what)
			announced = true
		}
	})
	defer func() {
		t.Stop()
		p.mu.Lock()
		defer p.mu.Unlock()
		finished = true
		if announced {
			fmt.Fprintf(p.w, "%s: done in %.1f s\n", what, time.Since(start).Seconds())
		}
	}()
	f()
}
