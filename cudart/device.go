//go:build cuda

package cudart

import (
	"crypto/sha256"
	"fmt"
	"math"
	"reflect"
	"runtime"
	"sync"
	"time"
	"unsafe"

	"gorgonia.org/cu"

	"github.com/gohalide/gohalide/cfamily"
	"github.com/gohalide/gohalide/cpu"
	"github.com/gohalide/gohalide/cudart/nvrtc"
	"github.com/gohalide/gohalide/half"
	"github.com/gohalide/gohalide/ir"
	"github.com/gohalide/gohalide/report"
)

// Info describes a device.
type Info struct {
	Ordinal      int
	Name         string
	Major, Minor int // compute capability
	SMs          int
	// MaxSharedPerBlock is the shared memory a block may use without
	// opting in (48 KB); MaxSharedOptin with the kernel's opt-in (227 KB on
	// sm_90).
	MaxSharedPerBlock, MaxSharedOptin int
	MaxThreadsPerBlock                int
}

// Arch is the NVRTC virtual architecture of the device, e.g. "compute_90".
func (i Info) Arch() string { return fmt.Sprintf("compute_%d%d", i.Major, i.Minor) }

func (i Info) String() string {
	return fmt.Sprintf("%s (sm_%d%d, %d SMs)", i.Name, i.Major, i.Minor, i.SMs)
}

// Device is one GPU with its context, compiled modules and device buffers.
type Device struct {
	Info Info

	work chan func()
	ctx  cu.CUContext

	mu      sync.Mutex
	modules map[[32]byte]*module
	kernels map[*ir.Kernel]*compiled // by IR node: kernels are immutable
	bufs    map[bufKey]*devBuf
	// deviceOnly are the host buffers whose device copy is made without
	// an upload (MarkDeviceOnly), until they are released.
	deviceOnly map[bufKey]bool
	// pool holds the device memory of released buffers, by allocation
	// size, for the next buffer of that size (Release): a pipeline's
	// intermediate buffers are new host slices at every run, and neither
	// cuMemAlloc nor cuMemFree (which waits for the GPU) is paid again.
	pool map[int64][]cu.DevicePtr
	// copyBack says whether buffers written by kernels are copied back to
	// the host after each launch (false while benchmarking).
	copyBack bool
	// events are the (start, end) events of the launches of the run being
	// benchmarked.
	events [][2]cu.Event
	// backToBack is set during the back-to-back rounds of Benchmark (see
	// backToBackRounds): a launch is then queued alone, with no events and no
	// spin, right behind the previous one.
	backToBack bool
	// spinMod and spinFn are the kernel a benchmarked launch waits behind
	// (see spin), compiled on first use.
	spinMod cu.Module
	spinFn  *cu.Function
	closed  bool
}

// compiled is a kernel ready to launch.
type compiled struct {
	fn   cu.Function
	name string
	info cfamily.CUDAKernelInfo
	mod  *module
}

type module struct {
	mod   cu.Module
	funcs map[string]cu.Function
	// dynOptin records the dynamic shared size each function was opted in
	// to, to set the attribute only when it grows.
	dynOptin map[string]int
}

// bufKey identifies a host buffer: its first element and its length.
type bufKey struct {
	ptr uintptr
	n   int
}

type devBuf struct {
	ptr   cu.DevicePtr
	bytes int64
	size  int64 // the allocation's bytes (see buffer)
	host  unsafe.Pointer
	// dirty: the host copy changed since the last upload.
	dirty bool
}

// Open creates a context on the device with the given ordinal.
func Open(ordinal int) (*Device, error) {
	d := &Device{work: make(chan func()), modules: map[[32]byte]*module{}, kernels: map[*ir.Kernel]*compiled{}, bufs: map[bufKey]*devBuf{}, deviceOnly: map[bufKey]bool{}, pool: map[int64][]cu.DevicePtr{}, copyBack: true}
	ready := make(chan error)
	go d.loop(ordinal, ready)
	if err := <-ready; err != nil {
		return nil, err
	}
	return d, nil
}

// loop owns the context: it locks itself to an OS thread and runs every
// driver call of the device.
func (d *Device) loop(ordinal int, ready chan<- error) {
	runtime.LockOSThread()
	err := func() error {
		n, err := cu.NumDevices()
		if err != nil {
			return fmt.Errorf("cuda: counting devices: %w", err)
		}
		if ordinal < 0 || ordinal >= n {
			return fmt.Errorf("cuda: no device %d (%d found)", ordinal, n)
		}
		dev, err := cu.GetDevice(ordinal)
		if err != nil {
			return fmt.Errorf("cuda: device %d: %w", ordinal, err)
		}
		d.Info.Ordinal = ordinal
		if d.Info.Name, err = dev.Name(); err != nil {
			return fmt.Errorf("cuda: device %d name: %w", ordinal, err)
		}
		attrs, err := dev.Attributes(cu.ComputeCapabilityMajor, cu.ComputeCapabilityMinor, cu.MultiprocessorCount,
			cu.MaxSharedMemoryPerBlock, cu.MaxThreadsPerBlock)
		if err != nil {
			return fmt.Errorf("cuda: device %d attributes: %w", ordinal, err)
		}
		d.Info.Major, d.Info.Minor, d.Info.SMs = attrs[0], attrs[1], attrs[2]
		d.Info.MaxSharedPerBlock, d.Info.MaxThreadsPerBlock = attrs[3], attrs[4]
		if d.Info.MaxSharedOptin, err = sharedOptin(dev); err != nil {
			return fmt.Errorf("cuda: device %d attributes: %w", ordinal, err)
		}
		if d.ctx, err = dev.MakeContext(cu.SchedAuto); err != nil {
			return fmt.Errorf("cuda: creating a context on device %d: %w", ordinal, err)
		}
		return nil
	}()
	ready <- err
	if err != nil {
		return
	}
	for f := range d.work {
		f()
	}
	d.ctx.Destroy()
}

// do runs f on the context's thread.
func (d *Device) do(f func() error) error {
	d.mu.Lock()
	closed := d.closed
	d.mu.Unlock()
	if closed {
		return fmt.Errorf("cuda: the device is closed")
	}
	done := make(chan error)
	d.work <- func() { done <- f() }
	return <-done
}

var (
	defaultOnce sync.Once
	defaultDev  *Device
	defaultErr  error
)

// Default returns device 0, opened once per process.
func Default() (*Device, error) {
	defaultOnce.Do(func() { defaultDev, defaultErr = Open(0) })
	return defaultDev, defaultErr
}

// Close frees the device buffers and modules and destroys the context.
func (d *Device) Close() error {
	err := d.do(func() error {
		for k, b := range d.bufs {
			cu.MemFree(b.ptr)
			delete(d.bufs, k)
		}
		d.freePool()
		for h, m := range d.modules {
			m.mod.Unload()
			delete(d.modules, h)
		}
		if d.spinFn != nil {
			d.spinMod.Unload()
			d.spinFn = nil
		}
		d.kernels = map[*ir.Kernel]*compiled{}
		return nil
	})
	d.mu.Lock()
	d.closed = true
	d.mu.Unlock()
	close(d.work)
	return err
}

// Load compiles src, the CUDA C of kernels as cfamily.CUDATargetSource
// gives it (what halide's Lowered.CUDA prints), into one module with NVRTC
// (once per source: cached by hash) and binds each kernel to its function
// there, so that launching one compiles nothing. halide's CUDA target
// calls it when a pipeline compiles.
func (d *Device) Load(src string, kernels []*ir.Kernel) error {
	return d.do(func() error {
		m, err := d.module(src, "pipeline.cu")
		if err != nil {
			return fmt.Errorf("cuda: %w", err)
		}
		for _, k := range kernels {
			if _, err := d.bind(k, m); err != nil {
				return fmt.Errorf("cuda: kernel %s: %w", k.Name, err)
			}
		}
		return nil
	})
}

// compile returns a kernel ready to launch: one that Load bound, or else
// its own CUDA C (cfamily.CUDATargetSource of k alone) compiled with NVRTC
// once per source (cached by hash) and looked up once per kernel.
// The CUDA target lets nvcc fuse multiplies and adds (FMA), as CUDA code
// usually does; results then differ from the CPU's in the last bits.
func (d *Device) compile(k *ir.Kernel) (*compiled, error) {
	if c, ok := d.kernels[k]; ok {
		return c, nil
	}
	src, err := cfamily.CUDATargetSource(k)
	if err != nil {
		return nil, err
	}
	m, err := d.module(src, k.Name+".cu")
	if err != nil {
		return nil, err
	}
	return d.bind(k, m)
}

// module returns the module compiled from src (named name in NVRTC's
// messages) for the device's architecture, compiling it on first use.
func (d *Device) module(src, name string) (*module, error) {
	h := sha256.Sum256([]byte(d.Info.Arch() + "\x00" + src))
	if m, ok := d.modules[h]; ok {
		return m, nil
	}
	ptx, err := nvrtc.Compile(src, name, d.Info.Arch())
	if err != nil {
		return nil, err
	}
	mod, err := cu.LoadData(ptx)
	if err != nil {
		return nil, fmt.Errorf("loading the module: %w", err)
	}
	m := &module{mod: mod, funcs: map[string]cu.Function{}, dynOptin: map[string]int{}}
	d.modules[h] = m
	return m, nil
}

// bind looks k's function up in m and records it as k's compiled code.
func (d *Device) bind(k *ir.Kernel, m *module) (*compiled, error) {
	info, err := cfamily.CUDAInfo(k)
	if err != nil {
		return nil, err
	}
	fn, err := m.function(info.Name)
	if err != nil {
		return nil, fmt.Errorf("looking up %s in its module: %w", info.Name, err)
	}
	c := &compiled{fn: fn, name: info.Name, info: info, mod: m}
	d.kernels[k] = c
	return c, nil
}

func (m *module) function(name string) (cu.Function, error) {
	if f, ok := m.funcs[name]; ok {
		return f, nil
	}
	f, err := m.mod.Function(name)
	if err != nil {
		return f, err
	}
	m.funcs[name] = f
	return f, nil
}

// sliceBytes returns the first element, the length and the size in bytes
// of a slice that holds a buffer (cpu.IsBufferSlice).
func sliceBytes(v any) (unsafe.Pointer, int, int64, error) {
	if !cpu.IsBufferSlice(v) {
		return nil, 0, 0, fmt.Errorf("cuda: %T is not a buffer", v)
	}
	s := reflect.ValueOf(v)
	return s.UnsafePointer(), s.Len(), int64(s.Len()) * int64(s.Type().Elem().Size()), nil
}

// buffer returns the device copy of a host buffer, allocating and
// uploading it when needed. A new device allocation is checked against
// env's limit first (name is the buffer's, for the error).
func (d *Device) buffer(env *cpu.Env, name string, v any) (*devBuf, error) {
	p, n, bytes, err := sliceBytes(v)
	if err != nil {
		return nil, err
	}
	key := bufKey{uintptr(p), n}
	b, ok := d.bufs[key]
	if !ok {
		if ce := env.CheckAllocation(name, bytes); ce != nil {
			return nil, fmt.Errorf("device %w", ce)
		}
		// Whole 4-byte words: an atomic update of an 8- or 16-bit
		// element is a compare-and-swap of the aligned word holding it,
		// which may reach past the last element (compute-sanitizer's
		// memcheck reports that read when the allocation ends there).
		size := max(4, (bytes+3)&^3)
		ptr, err := d.alloc(size)
		if err != nil {
			return nil, fmt.Errorf("allocating %d bytes on the device: %w", size, err)
		}
		b = &devBuf{ptr: ptr, bytes: bytes, size: size, host: p, dirty: !d.deviceOnly[key]}
		d.bufs[key] = b
	}
	if b.dirty && bytes > 0 {
		if err := cu.MemcpyHtoD(b.ptr, b.host, bytes); err != nil {
			return nil, fmt.Errorf("copying %d bytes to the device: %w", bytes, err)
		}
	}
	b.dirty = false
	return b, nil
}

// alloc returns size bytes of device memory: a released allocation of that
// size, else a new one (after freeing the pool, if the device is full).
func (d *Device) alloc(size int64) (cu.DevicePtr, error) {
	if l := d.pool[size]; len(l) > 0 {
		d.pool[size] = l[:len(l)-1]
		return l[len(l)-1], nil
	}
	ptr, err := cu.MemAlloc(size)
	if err != nil && len(d.pool) > 0 {
		d.freePool()
		ptr, err = cu.MemAlloc(size)
	}
	return ptr, err
}

// freePool frees the device memory of the released buffers.
func (d *Device) freePool() {
	for size, l := range d.pool {
		for _, p := range l {
			cu.MemFree(p)
		}
		delete(d.pool, size)
	}
}

// MarkDeviceOnly says that nothing the host holds in buf matters to a
// kernel: it is an allocation of the host code that only kernels write (a
// Func computed on the GPU at the root). Its device copy, when a launch
// first needs it, is made without an upload.
func (d *Device) MarkDeviceOnly(buf any) {
	p, n, _, err := sliceBytes(buf)
	if err != nil {
		return
	}
	d.do(func() error {
		if key := (bufKey{uintptr(p), n}); d.bufs[key] == nil {
			d.deviceOnly[key] = true
		}
		return nil
	})
}

// MarkHostDirty says the host copy of buf changed: the next launch that
// uses it uploads it again.
func (d *Device) MarkHostDirty(buf any) {
	p, n, _, err := sliceBytes(buf)
	if err != nil {
		return
	}
	d.do(func() error {
		if b, ok := d.bufs[bufKey{uintptr(p), n}]; ok {
			b.dirty = true
		}
		return nil
	})
}

// Release drops the device copy of a host buffer that the program will not
// use again (the end of an Allocate of the host code, cpu.Options.Release)
// and keeps its memory for the next buffer of the same size. Kernels still
// queued that use it run before any later use of the memory: every launch
// and copy goes to the one default stream, in order.
func (d *Device) Release(buf any) {
	p, n, _, err := sliceBytes(buf)
	if err != nil {
		return
	}
	d.do(func() error {
		key := bufKey{uintptr(p), n}
		delete(d.deviceOnly, key)
		if b, ok := d.bufs[key]; ok {
			delete(d.bufs, key)
			d.pool[b.size] = append(d.pool[b.size], b.ptr)
		}
		return nil
	})
}

// Launch runs kernel k on the device: compiles it (once), uploads the
// buffers it needs, launches grid × block threads with the kernel's dynamic
// shared memory, waits for it, and copies the buffers it wrote back to the
// host. It satisfies the launch hook of cpu.Options. Errors name the
// kernel.
func (d *Device) Launch(k *ir.Kernel, grid, block [3]int, scalars, buffers map[string]any) error {
	return d.LaunchEnv(nil, k, grid, block, scalars, buffers)
}

// LaunchEnv is Launch in the environment env (see cpu.Env; nil: the default
// limit): a stopped env fails before the launch (a running kernel is not
// interrupted), and each new device allocation is checked against env's
// limit; the error wraps the *cpu.Error.
func (d *Device) LaunchEnv(env *cpu.Env, k *ir.Kernel, grid, block [3]int, scalars, buffers map[string]any) error {
	if env.Stopped() {
		return fmt.Errorf("cuda: kernel %s: %w", k.Name, env.CanceledError())
	}
	return d.do(func() error {
		if err := d.launch(env, k, grid, block, scalars, buffers); err != nil {
			return fmt.Errorf("cuda: kernel %s: %w", k.Name, err)
		}
		return nil
	})
}

func (d *Device) launch(env *cpu.Env, k *ir.Kernel, grid, block [3]int, scalars, buffers map[string]any) error {
	threads := block[0] * block[1] * block[2]
	if threads <= 0 || threads > d.Info.MaxThreadsPerBlock {
		return fmt.Errorf("block %v has %d threads; the device allows 1 to %d", block, threads, d.Info.MaxThreadsPerBlock)
	}
	for i, g := range grid {
		if g <= 0 {
			return fmt.Errorf("grid dimension %d is %d; it must be positive", i, g)
		}
	}
	c, err := d.compile(k)
	if err != nil {
		return err
	}
	fn, info, m, name := c.fn, c.info, c.mod, c.name
	dyn := 0
	if info.DynamicSharedBytes != nil {
		v, err := evalInt(info.DynamicSharedBytes, scalars)
		if err != nil {
			return fmt.Errorf("dynamic shared memory size: %w", err)
		}
		dyn = int(v)
	}
	if total := int(info.StaticSharedBytes) + dyn; total > d.Info.MaxSharedOptin {
		return fmt.Errorf("needs %d bytes of shared memory per block (%d static, %d dynamic); the device allows %d", total, info.StaticSharedBytes, dyn, d.Info.MaxSharedOptin)
	}
	if int(info.StaticSharedBytes)+dyn > d.Info.MaxSharedPerBlock && dyn > m.dynOptin[name] {
		if err := setMaxDynamicShared(fn, dyn); err != nil {
			return fmt.Errorf("opting in to %d bytes of dynamic shared memory: %w", dyn, err)
		}
		m.dynOptin[name] = dyn
	}
	// Arguments, in the order of the kernel's signature.
	params := make([]unsafe.Pointer, 0, len(k.Args))
	var written []*devBuf
	for _, a := range k.Args {
		if a.IsBuffer {
			v, ok := buffers[a.Name]
			if !ok {
				return fmt.Errorf("missing buffer %s", a.Name)
			}
			b, err := d.buffer(env, a.Name, v)
			if err != nil {
				return fmt.Errorf("buffer %s: %w", a.Name, err)
			}
			ptr := new(cu.DevicePtr)
			*ptr = b.ptr
			params = append(params, unsafe.Pointer(ptr))
			// Global scratch (store_in(Heap) inside the kernel) is freed
			// on the host right after the launch: nothing to copy back.
			if a.Written && a.Scratch == nil {
				written = append(written, b)
			}
			continue
		}
		v, ok := scalars[a.Name]
		if !ok {
			return fmt.Errorf("missing scalar argument %s", a.Name)
		}
		p, err := scalarParam(a.T, v)
		if err != nil {
			return fmt.Errorf("argument %s: %w", a.Name, err)
		}
		params = append(params, p)
	}
	var ev [2]cu.Event
	timed := !d.copyBack && !d.backToBack
	if timed {
		// Benchmarking: time the launch with a pair of events.
		var err error
		if ev[0], err = cu.MakeEvent(cu.DefaultEvent); err != nil {
			return fmt.Errorf("events: %w", err)
		}
		if ev[1], err = cu.MakeEvent(cu.DefaultEvent); err != nil {
			return fmt.Errorf("events: %w", err)
		}
		if err := d.spin(); err != nil {
			return err
		}
		if err := ev[0].Record(cu.Stream{}); err != nil {
			return fmt.Errorf("events: %w", err)
		}
	}
	if err := fn.Launch(grid[0], grid[1], grid[2], block[0], block[1], block[2], dyn, cu.Stream{}, params); err != nil {
		return fmt.Errorf("launch of grid %v, block %v, %d bytes of dynamic shared memory: %w", grid, block, dyn, err)
	}
	if !d.copyBack {
		if timed {
			if err := ev[1].Record(cu.Stream{}); err != nil {
				return fmt.Errorf("events: %w", err)
			}
			d.events = append(d.events, ev)
		}
		// Benchmarking: launches queue up; errors surface when the
		// benchmark waits for its end event.
		return nil
	}
	if err := cu.Synchronize(); err != nil {
		return fmt.Errorf("running: %w", err)
	}
	{
		for _, b := range written {
			if b.bytes == 0 {
				continue
			}
			if err := cu.MemcpyDtoH(b.host, b.ptr, b.bytes); err != nil {
				return fmt.Errorf("copying %d bytes back to the host: %w", b.bytes, err)
			}
		}
	}
	return nil
}

// scalarParam stores a scalar argument in memory of its C type and returns
// its address.
func scalarParam(t ir.Type, v any) (unsafe.Pointer, error) {
	var iv int64
	var fv float64
	isFloat := false
	// One case per kind of number: reflect reads a value of any of the
	// case's types.
	switch x := v.(type) {
	case int8, int16, int32, int64, int:
		iv = reflect.ValueOf(x).Int()
	case uint8, uint16, uint32, uint64:
		iv = int64(reflect.ValueOf(x).Uint())
	case bool:
		if x {
			iv = 1
		}
	case float32, float64:
		fv, isFloat = reflect.ValueOf(x).Float(), true
	case half.Float16, half.BFloat16:
		fv, isFloat = x.(interface{ ToFloat64() float64 }).ToFloat64(), true
	default:
		return nil, fmt.Errorf("unsupported value %T", v)
	}
	if isFloat && !t.IsFloat() {
		iv = int64(fv)
	}
	if !isFloat && t.IsFloat() {
		fv = float64(iv)
	}
	// gorgonia.org/cu copies 8 bytes from each parameter's address into
	// the argument buffer, and the kernel reads the parameter's size from
	// its start: so every parameter is a uint64 with the value in its low
	// bytes (little endian).
	p := new(uint64)
	switch {
	case t == ir.Float32 || t.IsHalf():
		// A 16-bit float argument is passed as the float it stands
		// for (the kernel declares it float: cfamily computes 16-bit
		// floats in float32).
		*p = uint64(math.Float32bits(float32(fv)))
	case t == ir.Float64:
		*p = math.Float64bits(fv)
	case t.Bytes() == 1:
		*p = uint64(uint8(iv))
	case t.Bytes() == 2:
		*p = uint64(uint16(iv))
	case t.Bytes() == 4:
		*p = uint64(uint32(iv))
	default:
		*p = uint64(iv)
	}
	return unsafe.Pointer(p), nil
}

// evalInt evaluates an integer expression over scalar arguments.
func evalInt(e ir.Expr, scalars map[string]any) (int64, error) {
	m := ir.ScalarConsts(scalars)
	r := ir.Simplify(ir.Substitute(e, m))
	v, ok := ir.AsInt(r)
	if !ok {
		return 0, fmt.Errorf("%s does not evaluate to a constant", ir.ExprString(r))
	}
	return v, nil
}

// Attributes returns what the compiled kernel k uses, as the driver
// reports it for the function in its loaded module (cuFuncGetAttribute
// NUM_REGS, LOCAL_SIZE_BYTES, SHARED_SIZE_BYTES, MAX_THREADS_PER_BLOCK).
// It compiles k first if no launch did.
func (d *Device) Attributes(k *ir.Kernel) (report.CompiledInfo, error) {
	var info report.CompiledInfo
	err := d.do(func() error {
		c, err := d.compile(k)
		if err != nil {
			return err
		}
		var v [4]int
		for i, a := range []cu.FunctionAttribute{cu.NumRegs, cu.LocalSizeBytes, cu.SharedSizeBytes, cu.FnMaxThreadsPerBlock} {
			if v[i], err = c.fn.Attribute(a); err != nil {
				return err
			}
		}
		info = report.CompiledInfo{Registers: v[0], LocalBytes: int64(v[1]), SharedBytes: int64(v[2]), MaxThreadsPerBlock: v[3]}
		return nil
	})
	if err != nil {
		return report.CompiledInfo{}, fmt.Errorf("cuda: kernel %s: attributes: %w", k.Name, err)
	}
	return info, nil
}

// Benchmark runs f once to warm up (compiling and uploading), then runs
// it runs times with the device-resident buffers (no copies back between
// runs) and returns the median and spread of the GPU time of each run: the
// sum of the times of its kernel launches, each measured with a pair of
// CUDA events recorded around it (so the host code between launches does
// not count), each launch queued behind a spin kernel so that the driver's
// launch call does not count either (see spin). Then it measures the time
// per run back to back (see backToBackRounds): runs queued one after the other
// between one pair of events, without per-launch events or spins, the way
// PyTorch's time in a CUDA graph counts. The buffers are copied back after
// the last run.
func (d *Device) Benchmark(runs int, f func() error) (report.Timing, error) {
	if err := f(); err != nil {
		return report.Timing{}, err
	}
	d.setCopyBack(false)
	defer d.setCopyBack(true)
	times := make([]float64, 0, runs)
	// host holds the wall time each run took the host to queue, which
	// sizes the first spin of the back-to-back rounds.
	host := make([]float64, 0, runs)
	for i := 0; i < runs; i++ {
		d.do(func() error { d.events = d.events[:0]; return nil })
		start := time.Now()
		if err := f(); err != nil {
			return report.Timing{}, err
		}
		host = append(host, float64(time.Since(start).Nanoseconds())/1e6)
		var ms float64
		err := d.do(func() error {
			defer func() {
				for k := range d.events {
					cu.DestroyEvent(&d.events[k][0])
					cu.DestroyEvent(&d.events[k][1])
				}
				d.events = d.events[:0]
			}()
			for _, ev := range d.events {
				if err := ev[1].Synchronize(); err != nil {
					return err
				}
				t, err := ev[0].Elapsed(ev[1])
				if err != nil {
					return err
				}
				ms += t
			}
			return nil
		})
		if err != nil {
			return report.Timing{}, fmt.Errorf("cuda: timing: %w", err)
		}
		times = append(times, ms)
	}
	t := report.NewTiming("cuda events around each launch, queued behind a spin", times)
	hostMs := report.NewTiming("", host).MedianMs
	if err := d.backToBackRounds(&t, backToBackRoundCount(runs, t.MedianMs), hostMs, f); err != nil {
		return report.Timing{}, err
	}
	d.setCopyBack(true)
	if err := d.syncAll(); err != nil {
		return report.Timing{}, err
	}
	return t, nil
}

func (d *Device) setCopyBack(on bool) {
	d.do(func() error { d.copyBack = on; return nil })
}

// syncAll copies every device buffer back to the host.
func (d *Device) syncAll() error {
	return d.do(func() error {
		for _, b := range d.bufs {
			if b.bytes == 0 {
				continue
			}
			if err := cu.MemcpyDtoH(b.host, b.ptr, b.bytes); err != nil {
				return fmt.Errorf("cuda: copying back: %w", err)
			}
		}
		return nil
	})
}

// MemInfo returns the device's free and total memory in bytes
// (cuMemGetInfo).
func (d *Device) MemInfo() (free, total int64, err error) {
	err = d.do(func() error {
		var e error
		free, total, e = cu.MemInfo()
		return e
	})
	return free, total, err
}
