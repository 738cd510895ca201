package cpu

import (
	"fmt"
	"math"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/gohalide/gohalide/ir"
)

// frame is the per-run (and, inside a parallel loop, per-goroutine) state.
type frame struct {
	ints   []int64
	floats []float64
	bufs   []any         // buffer slot -> []T
	mus    []*sync.Mutex // buffer slot -> lock for atomic stores (nil if none)
	ctx    any           // the value given to RunCtx, passed to the hooks
	env    *Env          // the stop flag and the allocation limit (never nil)
	// lanesF and lanesI are the lane buffers of batched loops (batch.go),
	// allocated on first use; a goroutine's clone starts without them.
	lanesF [][]float32
	lanesI [][]int64
}

// clone copies f for a goroutine of a parallel loop, clearing the buffer
// slots of the Allocates inside the loop body (local lists them).
func (f *frame) clone(local []int) *frame {
	g := &frame{
		ints:   padded(f.ints),
		floats: padded(f.floats),
		bufs:   padded(f.bufs),
		mus:    padded(f.mus),
		ctx:    f.ctx,
		env:    f.env,
	}
	for _, s := range local {
		g.bufs[s] = nil
		g.mus[s] = nil
	}
	return g
}

// padded returns a copy of s with at least 128 bytes of unused memory on
// either side, so that frames of concurrently running goroutines, which
// write their slots at every iteration, never share a cache line.
func padded[T any](s []T) []T {
	const pad = 16 // elements; every slot type is at least 8 bytes
	buf := make([]T, len(s)+2*pad)
	out := buf[pad : pad+len(s) : pad+len(s)]
	copy(out, s)
	return out
}

type (
	stmtFn  func(*frame)
	intFn   func(*frame) int64
	floatFn func(*frame) float64
)

// binding is a scalar variable in scope.
type binding struct {
	t     ir.Type
	slot  int // in ints or floats, by t.IsFloat()
	param *paramSlot
}

// bufInfo is a buffer in scope.
type bufInfo struct {
	name     string
	t        ir.Type
	typed    bool // t is known (always, for allocations)
	slot     int
	atomic   bool // some Store to it is Atomic
	stored   bool // some Store writes it
	external bool
	watch    int // the id Options.Watch gave it, or -1 when not watched
}

type compiler struct {
	nInts, nFloats, nBufs int
	vars                  map[string]*binding
	bufs                  map[string]*bufInfo
	params                map[string]*paramSlot
	extBufs               map[string]*bufInfo
	allocSlots            []int // buffer slots of Allocates, in order
	loopDepth             int
	nLanesF, nLanesI      int // lane buffers of batched loops (batch.go)
	opts                  Options
	atomicBuf             string                 // while compiling the Value of an atomic Store: its buffer
	locks                 map[string]*sync.Mutex // Func -> the lock of its ir.Atomic sections
}

// compileError is the panic value used to abort compilation.
type compileError struct{ err error }

func (c *compiler) fail(format string, args ...any) {
	panic(compileError{fmt.Errorf("cpu: "+format, args...)})
}

// Compile turns a lowered statement into a runnable program. Free variables
// of the statement are scalar parameters; buffers that are Loaded or Stored
// but not Allocated inside the statement are external buffers. It fails on
// statements that are not lowered (Provide, Realize, calls to Funcs or
// images), GPU loops, kernel launches and barriers (which need a GPU target:
// see CompileWith), unknown intrinsics and operands of mismatched types.
func Compile(s ir.Stmt) (*Program, error) { return CompileWith(s, Options{}) }

// CompileWith is Compile with hooks (see Options): with Options.Launch set the
// statement may contain ir.Launch statements, with Options.Barrier set it may
// contain ir.Barrier statements, and the buffers Options.Watch selects report
// every access to Options.Access.
func CompileWith(s ir.Stmt, opts Options) (p *Program, err error) {
	c := &compiler{
		vars:    map[string]*binding{},
		bufs:    map[string]*bufInfo{},
		params:  map[string]*paramSlot{},
		extBufs: map[string]*bufInfo{},
		opts:    opts,
	}
	if opts.Access == nil {
		c.opts.Watch = nil
	}
	defer func() {
		if r := recover(); r != nil {
			ce, ok := r.(compileError)
			if !ok {
				panic(r)
			}
			p, err = nil, ce.err
		}
	}()
	root := c.stmt(s)
	var written []string
	for _, b := range c.extBufs {
		if !b.typed {
			c.fail("cannot infer the element type of buffer %s", b.name)
		}
		if b.stored {
			written = append(written, b.name)
		}
	}
	sort.Strings(written)
	return &Program{
		root:    root,
		params:  sortedParams(c.params),
		buffers: sortedBuffers(c.extBufs),
		written: written,
		nInts:   c.nInts,
		nFloats: c.nFloats,
		nBufs:   c.nBufs,
	}, nil
}

// bind introduces a new scalar slot for name of type t and returns a function
// restoring the previous scope.
func (c *compiler) bind(name string, t ir.Type) (*binding, func()) {
	b := &binding{t: t}
	if t.IsFloat() {
		b.slot = c.nFloats
		c.nFloats++
	} else {
		b.slot = c.nInts
		c.nInts++
	}
	old, had := c.vars[name]
	c.vars[name] = b
	return b, func() {
		if had {
			c.vars[name] = old
		} else {
			delete(c.vars, name)
		}
	}
}

// bindLet compiles a let, statement or expression: its value, then its
// body, by compile, with name bound to the value; it returns them and the
// slot of the binding.
func bindLet[B any](c *compiler, name string, val ir.Expr, compile func() B) (value, B, int) {
	v := c.expr(val)
	b, restore := c.bind(name, v.t)
	body := compile()
	restore()
	return v, body, b.slot
}

func (c *compiler) newBufSlot() int {
	c.nBufs++
	return c.nBufs - 1
}

// buffer returns the buffer named name in scope, creating an external buffer
// when none is. t is the element type the access implies.
func (c *compiler) buffer(name string, t ir.Type, what string) *bufInfo {
	b, ok := c.bufs[name]
	if !ok {
		b = &bufInfo{name: name, slot: c.newBufSlot(), external: true, watch: c.watchID(name)}
		c.bufs[name] = b
		c.extBufs[name] = b
	}
	if !b.typed {
		if sliceChecker(t) == nil {
			c.fail("buffer %s has unsupported element type %v", name, t)
		}
		b.t, b.typed = t, true
	} else if b.t != t {
		c.fail("%s %s has type %v, but the buffer's element type is %v", what, name, t, b.t)
	}
	return b
}

func nop(*frame) {}

func (c *compiler) stmt(s ir.Stmt) stmtFn {
	switch s := s.(type) {
	case nil:
		return nop
	case *ir.LetStmt:
		v, body, slot := bindLet(c, s.Name, s.Value, func() stmtFn { return c.stmt(s.Body) })
		if v.t.IsFloat() {
			vf := v.f
			return func(f *frame) {
				f.floats[slot] = vf(f)
				body(f)
			}
		}
		vi := v.i
		return func(f *frame) {
			f.ints[slot] = vi(f)
			body(f)
		}
	case *ir.AssertStmt:
		return c.assert(s)
	case *ir.ProducerConsumer:
		return c.stmt(s.Body)
	case *ir.Atomic:
		return c.critical(s)
	case *ir.LoadVector:
		return c.loadVector(s)
	case *ir.StoreVector:
		return c.storeVector(s)
	case *ir.For:
		return c.loop(s)
	case *ir.Block:
		fns := make([]stmtFn, 0, len(s.Stmts))
		for _, x := range s.Stmts {
			if x == nil {
				continue
			}
			fns = append(fns, c.stmt(x))
		}
		switch len(fns) {
		case 0:
			return nop
		case 1:
			return fns[0]
		case 2:
			a, b := fns[0], fns[1]
			return func(f *frame) { a(f); b(f) }
		case 3:
			a, b, d := fns[0], fns[1], fns[2]
			return func(f *frame) { a(f); b(f); d(f) }
		}
		return func(f *frame) {
			for _, fn := range fns {
				fn(f)
			}
		}
	case *ir.IfThenElse:
		cond := c.condExpr(s.Cond, "if condition")
		then := c.stmt(s.Then)
		if s.Else == nil {
			return func(f *frame) {
				if cond(f) != 0 {
					then(f)
				}
			}
		}
		els := c.stmt(s.Else)
		return func(f *frame) {
			if cond(f) != 0 {
				then(f)
			} else {
				els(f)
			}
		}
	case *ir.Evaluate:
		if s.X == nil || ir.IsConst(s.X) {
			return nop
		}
		if _, _, _, ok := ir.IsPrefetch(s.X); ok {
			// A prefetch is a hint with no effect here: its box is
			// neither read nor checked.
			return nop
		}
		v := c.expr(s.X)
		if v.t.IsFloat() {
			vf := v.f
			return func(f *frame) { vf(f) }
		}
		vi := v.i
		return func(f *frame) { vi(f) }
	case *ir.Allocate:
		return c.allocate(s)
	case *ir.Store:
		return c.store(s)
	case *ir.Comment:
		return nop
	case *ir.Launch:
		return c.launch(s)
	case *ir.Barrier:
		return c.barrier(s)
	case *ir.Provide:
		c.fail("statement is not lowered: found Provide to %s", s.Func)
	case *ir.Realize:
		c.fail("statement is not lowered: found Realize of %s", s.Func)
	default:
		c.fail("unsupported statement %T", s)
	}
	return nil
}

func (c *compiler) condExpr(e ir.Expr, what string) intFn {
	v := c.expr(e)
	if v.t.IsFloat() {
		c.fail("%s %s has type %v, want bool", what, ir.ExprString(e), v.t)
	}
	return v.i
}

// intExpr compiles an integer-valued expression (an index, extent or loop
// bound); what describes it for error messages.
func (c *compiler) intExpr(e ir.Expr, what string) value {
	v := c.expr(e)
	if v.t.IsFloat() || v.t.IsBool() {
		c.fail("%s %s has type %v, want an integer", what, ir.ExprString(e), v.t)
	}
	return v
}

func (c *compiler) assert(s *ir.AssertStmt) stmtFn {
	cond := c.condExpr(s.Cond, "assert condition")
	args := make([]value, len(s.Args))
	for i, a := range s.Args {
		args[i] = c.expr(a)
	}
	msg := s.Message
	return func(f *frame) {
		if cond(f) != 0 {
			return
		}
		text := msg
		vals := make([]any, len(args))
		for i, a := range args {
			vals[i] = a.format(f)
			text += " " + vals[i].(string)
		}
		if s.Error != nil {
			user := *s.Error
			if user.Msg != "" {
				user.Msg = fmt.Sprintf(user.Msg, vals...)
			} else {
				user.Msg = text
			}
			panic(&Error{Kind: AssertFailed, Msg: user.Error(), User: &user})
		}
		panic(&Error{Kind: AssertFailed, Msg: "assertion failed: " + text})
	}
}

// format evaluates v and prints it according to its type.
func (v value) format(f *frame) string {
	switch {
	case v.t.IsFloat():
		return fmt.Sprint(v.f(f))
	case v.t.IsBool():
		return fmt.Sprint(v.i(f) != 0)
	case v.t.IsUInt() && v.t.Bits == 64:
		return fmt.Sprint(uint64(v.i(f)))
	}
	return fmt.Sprint(v.i(f))
}

func (c *compiler) loop(s *ir.For) stmtFn {
	if s.Kind == ir.GPUBlock || s.Kind == ir.GPUThread {
		c.fail("loop %s has kind %v: GPU loops need a GPU target or the emulator", s.Name, s.Kind)
	}
	mn := c.intExpr(s.Min, "min of loop "+s.Name).i
	ext := c.intExpr(s.Extent, "extent of loop "+s.Name).i
	b, restore := c.bind(s.Name, ir.Int32)
	nAlloc := len(c.allocSlots)
	c.loopDepth++
	body := c.stmt(s.Body)
	c.loopDepth--
	var batch batchFn
	if s.Kind != ir.Parallel {
		batch = c.batchLoop(s, b.slot)
	}
	restore()
	local := c.allocSlots[nAlloc:len(c.allocSlots):len(c.allocSlots)]
	slot := b.slot
	if batch != nil {
		// Batches of batchLanes iterations (batch.go); a batch that
		// cannot run as one runs through the scalar body.
		return func(f *frame) {
			m := mn(f)
			end := m + ext(f)
			ints := f.ints
			stop := &f.env.stop
			if end-m < batchMin {
				for i := m; i < end; i++ {
					if stop.Load() {
						f.stopped()
					}
					ints[slot] = i
					body(f)
				}
				return
			}
			for lo := m; lo < end; lo += batchLanes {
				if stop.Load() {
					f.stopped()
				}
				n := int(min(batchLanes, end-lo))
				if batch(f, lo, n) {
					continue
				}
				for i := lo; i < lo+int64(n); i++ {
					ints[slot] = i
					body(f)
				}
			}
		}
	}
	// Every iteration checks the Env's stop flag (a plain load on amd64
	// and arm64, next to the body's indirect call), so that a canceled
	// run stops within one iteration of its innermost loop.
	if s.Kind != ir.Parallel {
		return func(f *frame) {
			m := mn(f)
			end := m + ext(f)
			ints := f.ints
			stop := &f.env.stop
			for i := m; i < end; i++ {
				if stop.Load() {
					f.stopped()
				}
				ints[slot] = i
				body(f)
			}
		}
	}
	return func(f *frame) {
		m, e := mn(f), ext(f)
		if e <= 0 {
			return
		}
		p := int64(runtime.GOMAXPROCS(0))
		p = min(p, e)
		if p <= 1 {
			g := f.clone(local)
			for i := m; i < m+e; i++ {
				if g.env.stop.Load() {
					g.stopped()
				}
				g.ints[slot] = i
				body(g)
			}
			return
		}
		chunk := (e + p - 1) / p
		var (
			wg    sync.WaitGroup
			stop  atomic.Bool
			once  sync.Once
			first any
		)
		for lo := m; lo < m+e; lo += chunk {
			hi := min(lo+chunk, m+e)
			g := f.clone(local)
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer func() {
					if r := recover(); r != nil {
						once.Do(func() { first = r })
						stop.Store(true)
					}
				}()
				ints := g.ints
				cancel := &g.env.stop
				for i := lo; i < hi; i++ {
					if stop.Load() {
						return
					}
					if cancel.Load() {
						g.stopped()
					}
					ints[slot] = i
					body(g)
				}
			}()
		}
		wg.Wait()
		if first != nil {
			panic(first)
		}
	}
}

func (c *compiler) allocate(s *ir.Allocate) stmtFn {
	if sliceChecker(s.T) == nil {
		c.fail("allocation %s has unsupported element type %v", s.Name, s.T)
	}
	exts := make([]intFn, len(s.Extents))
	for i, e := range s.Extents {
		exts[i] = c.intExpr(e, "extent of allocation "+s.Name).i
	}
	b := &bufInfo{name: s.Name, t: s.T, typed: true, slot: c.newBufSlot(), watch: c.watchID(s.Name)}
	c.allocSlots = append(c.allocSlots, b.slot)
	old, had := c.bufs[s.Name]
	c.bufs[s.Name] = b
	body := c.stmt(s.Body)
	if had {
		c.bufs[s.Name] = old
	} else {
		delete(c.bufs, s.Name)
	}
	mk := elements[s.T].alloc
	name, slot, bytes := s.Name, b.slot, int64(s.T.Bytes())
	inLoop := c.loopDepth > 0 // keep the buffer for reuse by the next entry
	poison := c.opts.Poison
	atomicStores := b.atomic
	release := c.opts.Release
	return func(f *frame) {
		n := int64(1)
		for _, e := range exts {
			x := e(f)
			if x < 0 {
				panic(&Error{Kind: BadAllocation, Buffer: name, Size: x,
					Msg: fmt.Sprintf("allocation of %s has negative extent %d", name, x)})
			}
			if x != 0 && n > math.MaxInt64/bytes/x {
				panic(&Error{Kind: BadAllocation, Buffer: name, Size: -1,
					Msg: fmt.Sprintf("allocation size of %s overflows", name)})
			}
			n *= x
		}
		if err := f.env.reserve(name, n*bytes); err != nil {
			panic(err)
		}
		defer f.env.release(n * bytes)
		mk(f, slot, n, inLoop)
		if poison {
			Poison(f.bufs[slot])
		}
		if atomicStores {
			f.mus[slot] = new(sync.Mutex)
		}
		if release != nil {
			buf := f.bufs[slot]
			defer release(f.ctx, buf)
		}
		body(f)
		if !inLoop {
			f.bufs[slot] = nil
			f.mus[slot] = nil
		}
	}
}

// allocSlice puts a zeroed []T of n elements in buffer slot slot, reusing the
// slot's current slice when reuse is set and its length is n.
func allocSlice[T any](f *frame, slot int, n int64, reuse bool) {
	if reuse {
		if s, ok := f.bufs[slot].([]T); ok && int64(len(s)) == n {
			clear(s)
			return
		}
	}
	f.bufs[slot] = make([]T, n)
}

// critical runs an ir.Atomic's body holding the lock of its Func, one
// lock per Func in the program: the sections of one Func exclude one
// another however their iterations are spread over goroutines.
func (c *compiler) critical(s *ir.Atomic) stmtFn {
	if c.locks == nil {
		c.locks = map[string]*sync.Mutex{}
	}
	mu := c.locks[s.Func]
	if mu == nil {
		mu = new(sync.Mutex)
		c.locks[s.Func] = mu
	}
	body := c.stmt(s.Body)
	return func(f *frame) {
		mu.Lock()
		defer mu.Unlock()
		body(f)
	}
}

func (c *compiler) store(s *ir.Store) stmtFn {
	if s.Value == nil || s.Index == nil {
		c.fail("store to %s has a nil index or value", s.Buf)
	}
	if s.Atomic {
		c.atomicBuf = s.Buf
	}
	v := c.expr(s.Value)
	c.atomicBuf = ""
	b := c.buffer(s.Buf, v.t, "store to")
	if s.Atomic {
		b.atomic = true
	}
	b.stored = true
	idx := c.watched(b, c.intExpr(s.Index, "index into "+s.Buf), true, s.Atomic)
	var st stmtFn
	name, slot := s.Buf, b.slot
	if ops := elements[b.t]; ops.storeInt != nil {
		st = ops.storeInt(name, slot, idx, v.i)
	} else {
		st = ops.storeFloat(name, slot, idx, v.f)
	}
	if !s.Atomic {
		return st
	}
	return func(f *frame) {
		mu := f.mus[slot]
		mu.Lock()
		defer mu.Unlock()
		st(f)
	}
}

// storeElem returns a function that writes val, carried as an R, to the
// element at idx of the buffer in slot (a []T).
func storeElem[T element, R int64 | float64](name string, slot int, idx value, val func(*frame) R) stmtFn {
	if idx.slot >= 0 {
		is := idx.slot
		return func(f *frame) {
			v := val(f)
			*elemAt[T](f, slot, f.ints[is], "store to", name) = T(v)
		}
	}
	idxf := idx.i
	return func(f *frame) {
		v := val(f)
		*elemAt[T](f, slot, idxf(f), "store to", name) = T(v)
	}
}

// storeConv returns a function that writes val, carried as an R, to the
// element at idx of the buffer in slot (a []T), converted by from: the
// store of the types whose Go element is not a number (bool, the 16-bit
// floats' bits).
func storeConv[T any, R int64 | float64](name string, slot int, idx value, val func(*frame) R, from func(R) T) stmtFn {
	idxf := idx.i
	return func(f *frame) {
		v := val(f)
		*elemAt[T](f, slot, idxf(f), "store to", name) = from(v)
	}
}
