//go:build cuda

package cudart

import (
	"fmt"
	"unsafe"

	"gorgonia.org/cu"

	"github.com/gohalide/gohalide/cudart/nvrtc"
)

// A benchmarked launch is queued behind a spin: a one-thread kernel that
// waits spinNanoseconds on the GPU's global timer. The start event is
// recorded when the spin ends, by which time the host has queued the
// launch and its end event, so the pair of events times the kernel alone.
// Without it, an idle GPU records the start event at once and then waits
// for the driver call that queues the launch: each launch's time would
// include that call (microseconds, more on a loaded host), which inflates
// a pipeline of many short kernels and varies from machine to machine.
// The spin runs outside the events, so it costs wall time only.
const spinNanoseconds = 20000

const spinSource = `extern "C" __global__ void gh_spin(unsigned long long ns) {
    unsigned long long t0, t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    do {
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    } while (t - t0 < ns);
}
`

// spin queues the spin kernel of a benchmarked launch on the default
// stream.
func (d *Device) spin() error { return d.spinFor(spinNanoseconds) }

// spinFor queues the spin kernel on the default stream, waiting ns
// nanoseconds, compiling it on first use.
func (d *Device) spinFor(ns uint64) error {
	if d.spinFn == nil {
		ptx, err := nvrtc.Compile(spinSource, "gh_spin.cu", d.Info.Arch())
		if err != nil {
			return fmt.Errorf("the benchmark's spin kernel: %w", err)
		}
		mod, err := cu.LoadData(ptx)
		if err != nil {
			return fmt.Errorf("the benchmark's spin kernel: %w", err)
		}
		fn, err := mod.Function("gh_spin")
		if err != nil {
			return fmt.Errorf("the benchmark's spin kernel: %w", err)
		}
		d.spinMod, d.spinFn = mod, &fn
	}
	return d.spinFn.Launch(1, 1, 1, 1, 1, 1, 0, cu.Stream{}, []unsafe.Pointer{unsafe.Pointer(&ns)})
}
