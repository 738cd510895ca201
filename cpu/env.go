package cpu

// The environment of a run: a stop flag that a context sets, checked at
// every loop iteration, and the largest allocation a run may make, checked
// at every Allocate. One Env is shared by all the runs of one realization
// (the host statement and, on the emulator, every thread of every kernel).

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// Env is what the runs of one realization share: a stop flag, set when a
// context is done, and the allocation limit. A run that sees the flag stops
// at its next loop iteration with a Canceled error; an Allocate over the
// limit fails with an AllocationTooLarge error instead of exhausting memory.
type Env struct {
	stop     atomic.Bool
	ctx      context.Context
	maxBytes int64 // <= 0: no limit
	// live is the bytes of the Allocates whose bodies are running, in
	// all the runs of the Env (not tracked for the shared background Env).
	live atomic.Int64
}

// FallbackMaxAllocationBytes is the default allocation limit where the
// physical memory cannot be read.
const FallbackMaxAllocationBytes = 4 << 30

var (
	defaultMaxOnce  sync.Once
	defaultMaxBytes int64
)

// DefaultMaxAllocationBytes is the allocation limit of a run by default: a
// quarter of the physical memory (MemTotal in /proc/meminfo on Linux), or
// FallbackMaxAllocationBytes where that cannot be read.
func DefaultMaxAllocationBytes() int64 {
	defaultMaxOnce.Do(func() {
		defaultMaxBytes = FallbackMaxAllocationBytes
		if total, ok := physicalMemory(); ok {
			defaultMaxBytes = total / 4
		}
	})
	return defaultMaxBytes
}

// physicalMemory reads MemTotal from /proc/meminfo.
func physicalMemory() (int64, bool) {
	data, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0, false
	}
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) == 3 && f[0] == "MemTotal:" && f[2] == "kB" {
			kb, err := strconv.ParseInt(f[1], 10, 64)
			if err != nil || kb <= 0 {
				return 0, false
			}
			return kb << 10, true
		}
	}
	return 0, false
}

// background is the Env of Run and RunCtx: never stopped, with the
// default limit.
var background = &Env{ctx: context.Background()}

// NewEnv returns an Env whose runs stop once ctx is done, and which
// refuses an allocation of more than maxBytes bytes (0 means
// DefaultMaxAllocationBytes, a negative value no limit). Call release
// once the runs are over: it stops watching ctx.
func NewEnv(ctx context.Context, maxBytes int64) (env *Env, release func()) {
	if ctx == nil {
		ctx = context.Background()
	}
	if maxBytes == 0 {
		maxBytes = DefaultMaxAllocationBytes()
	}
	env = &Env{ctx: ctx, maxBytes: maxBytes}
	if ctx.Err() != nil {
		env.stop.Store(true)
		return env, func() {}
	}
	if ctx.Done() == nil {
		return env, func() {}
	}
	stop := context.AfterFunc(ctx, func() { env.stop.Store(true) })
	return env, func() { stop() }
}

// Stopped reports whether the runs of e must stop (its context is done).
func (e *Env) Stopped() bool { return e != nil && e.stop.Load() }

// Err returns the context's error once e is stopped, and nil before.
func (e *Env) Err() error {
	if !e.Stopped() {
		return nil
	}
	return e.ctx.Err()
}

// MaxAllocationBytes returns the allocation limit of e in bytes (0 for
// none).
func (e *Env) MaxAllocationBytes() int64 {
	if e == nil || e == background {
		return DefaultMaxAllocationBytes()
	}
	return max(e.maxBytes, 0)
}

// CanceledError returns the error of a run stopped by e's context.
func (e *Env) CanceledError() *Error {
	err := e.Err()
	if err == nil {
		err = context.Canceled
	}
	return &Error{Kind: Canceled, Msg: "run stopped: " + err.Error(), Cause: err}
}

// CheckAllocation returns an AllocationTooLarge error if an allocation of
// bytes bytes for buffer name is over e's limit.
func (e *Env) CheckAllocation(name string, bytes int64) *Error {
	limit := e.MaxAllocationBytes()
	if limit <= 0 || bytes <= limit {
		return nil
	}
	return &Error{Kind: AllocationTooLarge, Buffer: name, Size: bytes,
		Msg: fmt.Sprintf("allocation of %s needs %d bytes (%s), more than the limit of %d bytes (%s)", name, bytes, byteSize(bytes), limit, byteSize(limit))}
}

// reserve counts an allocation of bytes bytes for buffer name as in use
// until release, and returns an AllocationTooLarge error, counting
// nothing, if it is over the limit alone or together with the
// allocations in use.
func (e *Env) reserve(name string, bytes int64) *Error {
	if err := e.CheckAllocation(name, bytes); err != nil {
		return err
	}
	limit := e.MaxAllocationBytes()
	if e == nil || e == background || limit <= 0 {
		return nil
	}
	if total := e.live.Add(bytes); total > limit {
		e.live.Add(-bytes)
		inUse := total - bytes
		return &Error{Kind: AllocationTooLarge, Buffer: name, Size: bytes,
			Msg: fmt.Sprintf("allocation of %s needs %d bytes (%s), and with the %d bytes (%s) of allocations still in use that is more than the limit of %d bytes (%s)",
				name, bytes, byteSize(bytes), inUse, byteSize(inUse), limit, byteSize(limit))}
	}
	return nil
}

// release ends the reservation of bytes bytes.
func (e *Env) release(bytes int64) {
	if e != nil && e != background && e.MaxAllocationBytes() > 0 {
		e.live.Add(-bytes)
	}
}

// byteSize prints n bytes for people: "8.0 GiB".
func byteSize(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}

// stopped panics with the Canceled error of f's Env; the loops call it
// when they see the stop flag.
func (f *frame) stopped() {
	panic(f.env.CanceledError())
}
