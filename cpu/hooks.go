package cpu

import (
	"fmt"
	"math"

	"github.com/gohalide/gohalide/half"
	"github.com/gohalide/gohalide/ir"
)

// Options are the hooks of CompileWith, through which a GPU target (the
// emulator in package emulator) runs host statements that launch kernels and
// kernel bodies with barriers and checked memory accesses. Every hook
// receives the ctx given to Program.RunCtx (nil for Run). A hook's non-nil
// error stops the run, and RunCtx returns it unchanged. Hooks called from
// inside a Parallel loop may be called concurrently.
//
// Plain programs pay nothing for the hooks: Loads and Stores of buffers that
// Watch does not select are compiled exactly as by Compile.
type Options struct {
	// Launch is called at each ir.Launch of a host statement, with the
	// evaluated grid and block dimensions (a nil dimension counts as 1),
	// the values of the kernel's scalar arguments (by name, as the Go type
	// of the argument's type: int32 for ir.Int32, float32 for ir.Float32,
	// bool for ir.Bool, ...) and the slices of its buffer arguments (the
	// external buffers given to Run or the host's Allocates in scope).
	// Without it, compiling a Launch fails.
	Launch func(ctx any, k *ir.Kernel, grid, block [3]int, scalars, buffers map[string]any) error
	// Barrier is called when a kernel thread reaches an ir.Barrier; it
	// returns when the thread may go on. Without it, compiling a Barrier
	// fails.
	Barrier func(ctx any, b *ir.Barrier) error
	// Shuffle is called when a kernel thread evaluates a warp shuffle
	// (ir.IntrinsicShuffleDown) with the thread's value (as an int64 for
	// integer and bool types, a float64 for floats) and returns the
	// value of the thread the shuffle reads, once every thread of the
	// warp has given its own. Without it, compiling a shuffle fails.
	Shuffle func(ctx any, call *ir.Call, i int64, f float64) (int64, float64, error)
	// Watch is called at compile time once per buffer (external or
	// allocated) of the statement; it returns ok to have every Load and
	// Store of the buffer reported to Access with the given id.
	Watch func(buf string) (id int, ok bool)
	// Access is called before every access of a watched buffer with the
	// flat index (before the bounds check: the index may be out of bounds,
	// in which case, when Access returns nil, the usual out-of-bounds
	// error follows). write is set for Stores; atomic for atomic Stores
	// and for the Loads of the same buffer inside their Value (the read of
	// the read-modify-write). A Store's Value is evaluated, and its Loads
	// reported, before the Store is.
	Access func(ctx any, id int, index int64, write, atomic bool) error
	// Trace, if set, is called at every ir.TraceStore (a store to a Func
	// that traces its stores) with the Func, the coordinates and the value
	// stored (as a float64). Calls from a Parallel loop or from the
	// threads of a kernel may be concurrent.
	Trace func(fn string, coords []int64, value float64)
	// Release, if set, is called with the slice of an Allocate when its
	// body ends (normally or not): the run will not read that allocation
	// again (an Allocate inside a loop may hand the same slice to its next
	// entry, as a new allocation). A device runtime drops its copy of the
	// buffer there.
	Release func(ctx any, buf any)
	// Poison makes each Allocate fill its buffer with Poison's value
	// instead of zeros, as on a GPU, where memory is not cleared, so that
	// reads before writes show in the results.
	Poison bool
}

// Poison fills a slice ([]float32 ... []bool, as for Run) with a value that
// shows where it is read before being written: NaN for floats (16-bit ones
// too), bytes 0xA5 for integers (-0x5A5A5A5B for int32), true for bools.
func Poison(s any) {
	switch s := s.(type) {
	case []bool:
		fill(s, true)
	case []int8:
		fill(s, int8(-0x5B))
	case []int16:
		fill(s, int16(-0x5A5B))
	case []int32:
		fill(s, int32(-0x5A5A5A5B))
	case []int64:
		fill(s, int64(-0x5A5A5A5A5A5A5A5B))
	case []uint8:
		fill(s, uint8(0xA5))
	case []uint16:
		fill(s, uint16(0xA5A5))
	case []uint32:
		fill(s, uint32(0xA5A5A5A5))
	case []uint64:
		fill(s, uint64(0xA5A5A5A5A5A5A5A5))
	case []float32:
		fill(s, float32(math.NaN()))
	case []float64:
		fill(s, math.NaN())
	case []half.Float16:
		fill(s, half.Float16FromBits(0x7e5a))
	case []half.BFloat16:
		fill(s, half.BFloat16FromBits(0x7fa5))
	}
}

func fill[T any](s []T, v T) {
	for i := range s {
		s[i] = v
	}
}

// hookError carries a hook's error through the panic that stops a run.
type hookError struct{ err error }

// watchID asks Options.Watch about a buffer; -1 means not watched.
func (c *compiler) watchID(name string) int {
	if c.opts.Watch == nil {
		return -1
	}
	if id, ok := c.opts.Watch(name); ok {
		return id
	}
	return -1
}

// watched wraps the index of an access to b so that it reports the access
// to Options.Access when b is watched.
func (c *compiler) watched(b *bufInfo, idx value, write, atomic bool) value {
	if b.watch < 0 {
		return idx
	}
	access, id, inner := c.opts.Access, b.watch, idx.i
	return intValue(idx.t, func(f *frame) int64 {
		i := inner(f)
		if err := access(f.ctx, id, i, write, atomic); err != nil {
			panic(hookError{err})
		}
		return i
	})
}

func (c *compiler) barrier(s *ir.Barrier) stmtFn {
	if c.opts.Barrier == nil {
		c.fail("gpu_thread_barrier (%s) outside a kernel: barriers need a GPU target (the emulator, emulator.Emulator)", barrierName(s))
	}
	hook := c.opts.Barrier
	return func(f *frame) {
		if err := hook(f.ctx, s); err != nil {
			panic(hookError{err})
		}
	}
}

func barrierName(s *ir.Barrier) string {
	if s.Reason != "" {
		return s.Reason
	}
	return fmt.Sprintf("fence %d", s.Fence)
}

func (c *compiler) launch(s *ir.Launch) stmtFn {
	k := s.Kernel
	if k == nil {
		c.fail("launch of a nil kernel")
	}
	if c.opts.Launch == nil {
		c.fail("kernel %s is launched here: kernels need a GPU target (the GPU emulator, emulator.Emulator, or CUDA); cpu.Compile runs CPU code only", k.Name)
	}
	var dims [6]intFn
	for d := range 3 {
		for j, e := range [2]ir.Expr{k.Grid[d], k.Block[d]} {
			if e == nil {
				dims[3*j+d] = func(*frame) int64 { return 1 }
				continue
			}
			what := fmt.Sprintf("grid dimension %d of kernel %s", d, k.Name)
			if j == 1 {
				what = fmt.Sprintf("block dimension %d of kernel %s", d, k.Name)
			}
			dims[3*j+d] = c.intExpr(e, what).i
		}
	}
	type scalarArg struct {
		name string
		v    value
		conv func(int64, float64) any
	}
	type bufferArg struct {
		name string
		slot int
	}
	var scalars []scalarArg
	var buffers []bufferArg
	for _, a := range k.Args {
		if !validType(a.T) {
			c.fail("argument %s of kernel %s has unsupported type %v", a.Name, k.Name, a.T)
		}
		if a.IsBuffer {
			b := c.buffer(a.Name, a.T, "buffer argument of kernel "+k.Name+":")
			buffers = append(buffers, bufferArg{a.Name, b.slot})
			continue
		}
		scalars = append(scalars, scalarArg{a.Name, c.expr(&ir.Var{T: a.T, Name: a.Name}), goScalar(a.T)})
	}
	hook := c.opts.Launch
	return func(f *frame) {
		var grid, block [3]int
		for d := range 3 {
			grid[d] = int(dims[d](f))
			block[d] = int(dims[3+d](f))
		}
		sc := make(map[string]any, len(scalars))
		for _, a := range scalars {
			var i int64
			var fl float64
			if a.v.t.IsFloat() {
				fl = a.v.f(f)
			} else {
				i = a.v.i(f)
			}
			sc[a.name] = a.conv(i, fl)
		}
		bufs := make(map[string]any, len(buffers))
		for _, b := range buffers {
			bufs[b.name] = f.bufs[b.slot]
		}
		if err := hook(f.ctx, k, grid, block, sc, bufs); err != nil {
			panic(hookError{err})
		}
	}
}

// goScalar returns the conversion of a carried value of type t (an int64 or
// a float64) to the Go type of t.
func goScalar(t ir.Type) func(int64, float64) any {
	if f := elements[t].scalar; f != nil {
		return f
	}
	return elements[ir.Float64].scalar
}

// shuffle compiles a warp shuffle: the hook exchanges the value with the
// other threads of the warp.
func (c *compiler) shuffle(e *ir.Call) value {
	if c.opts.Shuffle == nil {
		c.fail("%s outside a kernel: warp shuffles need a GPU target (the emulator, emulator.Emulator)", e.Name)
	}
	hook := c.opts.Shuffle
	x := c.expr(e.Args[0])
	if x.t != e.T {
		c.fail("operand of %s has type %v, the call %v", e.Name, x.t, e.T)
	}
	if _, ok := ir.AsInt(e.Args[1]); !ok {
		c.fail("the lane offset of %s is not a constant", e.Name)
	}
	if x.t.IsFloat() {
		return floatValue(e.T, func(f *frame) float64 {
			_, r, err := hook(f.ctx, e, 0, x.f(f))
			if err != nil {
				panic(hookError{err})
			}
			return r
		})
	}
	return intValue(e.T, func(f *frame) int64 {
		r, _, err := hook(f.ctx, e, x.i(f), 0)
		if err != nil {
			panic(hookError{err})
		}
		return r
	})
}
