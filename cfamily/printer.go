package cfamily

// The printer: one kernel body's statements and expressions as C-family
// code, shared by the dialects. It keeps the C scopes (every IR name gets a
// readable identifier no visible declaration has), hoists lets into const
// locals, and asks the dialect for what differs (Dialect).

import (
	"fmt"
	"math"
	"math/bits"
	"strconv"
	"strings"

	"github.com/gohalide/gohalide/ir"
)

type cVar struct {
	name string
	t    ir.Type
}

type cBuf struct {
	name    string
	t       ir.Type
	written bool // stores are allowed
}

type cLine struct {
	indent int
	text   string
}

type printer struct {
	m      *module
	kernel string
	// strict is set for a kernel that holds a strict_float: its float
	// multiplies are printed so that they never contract into FMAs
	// (all of them: a let of a product outside the strict_float may be
	// fused with an add inside it).
	strict bool
	lines  []cLine
	indent int
	// scopes holds the C names declared in each open C block.
	scopes []map[string]bool
	// vars and bufs map IR names to their C bindings (innermost last).
	vars map[string][]cVar
	bufs map[string][]cBuf
	// cond > 0 while emitting an expression that C evaluates only
	// conditionally (a Select arm, the right operand of && or ||): a Let
	// there becomes a lambda instead of a hoisted local.
	cond int
	tmp  int
}

func newPrinter(m *module, kernel string) *printer {
	return &printer{
		m: m, kernel: kernel,
		scopes: []map[string]bool{{}},
		vars:   map[string][]cVar{},
		bufs:   map[string][]cBuf{},
	}
}

func (e *printer) fail(format string, args ...any) {
	panic(emitError{emitErr(e.kernel, format, args...)})
}

func (e *printer) line(format string, args ...any) {
	e.lines = append(e.lines, cLine{e.indent, fmt.Sprintf(format, args...)})
}

func (e *printer) comment(text string) {
	for _, l := range strings.Split(text, "\n") {
		e.line("// %s", strings.TrimRight(l, " \t"))
	}
}

func (e *printer) visible(name string) bool {
	for _, s := range e.scopes {
		if s[name] {
			return true
		}
	}
	return false
}

// fresh picks a C identifier for IR name that no visible declaration has.
func (e *printer) fresh(name string) string {
	base := cIdent(e.m.d, name)
	c := base
	for i := 1; e.visible(c); i++ {
		c = fmt.Sprintf("%s_%d", base, i)
	}
	return c
}

// declare picks the C identifier for a new binding of IR name in the
// current C block.
func (e *printer) declare(name string) string {
	c := e.fresh(name)
	e.scopes[len(e.scopes)-1][c] = true
	return c
}

func (e *printer) push() { e.scopes = append(e.scopes, map[string]bool{}); e.indent++ }
func (e *printer) pop()  { e.scopes = e.scopes[:len(e.scopes)-1]; e.indent-- }
func (e *printer) open(format string, args ...any) {
	e.line(format, args...)
	e.push()
}
func (e *printer) close() { e.pop(); e.line("}") }

func (e *printer) bindVar(irName, cName string, t ir.Type) func() {
	e.vars[irName] = append(e.vars[irName], cVar{cName, t})
	return func() { e.vars[irName] = e.vars[irName][:len(e.vars[irName])-1] }
}

func (e *printer) bindBuf(irName string, b cBuf) func() {
	e.bufs[irName] = append(e.bufs[irName], b)
	return func() { e.bufs[irName] = e.bufs[irName][:len(e.bufs[irName])-1] }
}

func (e *printer) lookupBuf(name, what string) cBuf {
	l := e.bufs[name]
	if len(l) == 0 {
		e.fail("%s buffer %s, which is neither an argument nor an allocation of the kernel", what, name)
	}
	return l[len(l)-1]
}

// ---------------------------------------------------------------------------
// Statements.

func (e *printer) stmt(s ir.Stmt) {
	switch s := s.(type) {
	case nil:
	case *ir.Block:
		for _, x := range s.Stmts {
			e.stmt(x)
		}
	case *ir.LetStmt:
		if !ir.StmtUses(s.Body, s.Name) {
			e.stmt(s.Body)
			return
		}
		v := e.top(s.Value)
		c := e.declare(s.Name)
		e.line("const %s %s = %s;", cValueType(s.Value.Type()), c, v)
		restore := e.bindVar(s.Name, c, s.Value.Type())
		e.stmt(s.Body)
		restore()
	case *ir.Comment:
		e.comment(s.Text)
	case *ir.LoadVector:
		e.loadVector(s)
	case *ir.StoreVector:
		e.storeVector(s)
	case *ir.Barrier:
		if s.Reason != "" {
			e.comment(s.Reason)
		}
		bar := e.m.d.Barrier()
		if bar == "" {
			e.fail("a barrier (%s) in %s code, which has none", s.Reason, e.m.d.Name())
		}
		e.line("%s", bar)
	case *ir.Atomic:
		// validate_gpu refuses it in kernels, and only kernels are printed.
		e.fail("a critical section of %s (a Tuple update that needs a mutex) in %s code, which has no mutex", s.Func, e.m.d.Name())
	case *ir.ProducerConsumer:
		if s.Producer {
			e.line("// produce %s", s.Func)
		} else {
			e.line("// consume %s", s.Func)
		}
		e.stmt(s.Body)
	case *ir.For:
		e.loop(s)
	case *ir.IfThenElse:
		e.ifThenElse(s)
	case *ir.Allocate:
		e.allocate(s)
	case *ir.Store:
		e.store(s)
	case *ir.Evaluate:
		if s.X == nil || ir.IsConst(s.X) {
			return
		}
		if buf, c, flat, ok := ir.IsPrefetch(s.X); ok {
			if !flat {
				e.fail("statement is not lowered: found the prefetch of the box of %s", buf)
			}
			e.prefetch(buf, c)
			return
		}
		if fn, _, ok := ir.IsTraceStore(s.X); ok {
			e.comment("a store to " + fn + " is traced on the CPU and the emulator only")
			return
		}
		x, p := e.expr(s.X)
		e.line("(void)%s;", cParen(x, p, cPrecUnary))
	case *ir.AssertStmt:
		c, p := e.expr(s.Cond)
		e.comment("assert: " + s.Message)
		e.open("if (!%s) {", cParen(c, p, cPrecUnary))
		e.line("%s", e.m.d.Trap())
		e.close()
	case *ir.Provide:
		e.fail("statement is not lowered: found Provide to %s", s.Func)
	case *ir.Realize:
		e.fail("statement is not lowered: found Realize of %s", s.Func)
	case *ir.Launch:
		e.fail("found a kernel launch inside a kernel")
	default:
		e.fail("cannot emit statement %T", s)
	}
}

// storeVector emits the stores an ir.StoreVector marks as one vector store
// (lowering proved, or a branch around it tested, that the first index is
// a multiple of the lane count): the lanes' values into one vector, then
// one store. A mark whose stores do not fit is emitted store by store.
func (e *printer) storeVector(s *ir.StoreVector) {
	stores, ok := s.VectorStores()
	if !ok {
		e.stmt(s.Body)
		return
	}
	vt := e.m.d.VectorType(stores[0].Value.Type(), len(stores))
	b := e.lookupBuf(stores[0].Buf, "store to")
	if vt == "" || !b.written || b.t != stores[0].Value.Type() {
		e.stmt(s.Body)
		return
	}
	vals := make([]string, len(stores))
	for i, st := range stores {
		vals[i] = e.top(st.Value)
	}
	v := e.declare(stores[0].Buf + ".vec")
	e.line("const %s %s = {%s};", vt, v, strings.Join(vals, ", "))
	e.line("*(%s *)&%s[%s] = %s;", vt, b.name, e.top(stores[0].Index), v)
}

// loadVector emits the lets an ir.LoadVector marks as one vector load
// (lowering proved the first index a multiple of the lane count and the
// array aligned; the emulator checks the index), then their scope. Lets
// that do not fit the mark are emitted one by one.
func (e *printer) loadVector(s *ir.LoadVector) {
	names, loads, rest, ok := s.VectorLanes()
	vt := ""
	if ok {
		vt = e.m.d.VectorType(loads[0].T, len(loads))
		for i, l := range loads {
			if d, isConst := ir.AsInt(ir.Simplify(ir.SubE(l.Index, loads[0].Index))); !isConst || d != int64(i) {
				vt = ""
			}
		}
	}
	if vt == "" {
		e.stmt(s.Body)
		return
	}
	b := e.lookupBuf(loads[0].Buf, "load from")
	v := e.declare(names[0] + ".vec")
	e.line("const %s %s = *(const %s *)&%s[%s];", vt, v, vt, b.name, e.top(loads[0].Index))
	var restores []func()
	for i, n := range names {
		c := e.declare(n)
		e.line("const %s %s = %s.%c;", cValueType(loads[i].T), c, v, "xyzw"[i])
		restores = append(restores, e.bindVar(n, c, loads[i].T))
	}
	e.stmt(rest)
	for i := len(restores) - 1; i >= 0; i-- {
		restores[i]()
	}
}

// cIsAtom reports whether e prints as a name or a literal.
func cIsAtom(e ir.Expr) bool {
	switch e.(type) {
	case *ir.IntImm, *ir.Var:
		return true
	}
	return false
}

func (e *printer) loop(s *ir.For) {
	switch s.Kind {
	case ir.GPUBlock, ir.GPUThread:
		e.fail("loop %s has kind %v: GPU loops are the kernel's launch dimensions and cannot appear in its body", s.Name, s.Kind)
	}
	if s.Min.Type() != ir.Int32 || s.Extent.Type() != ir.Int32 {
		e.fail("loop %s has bounds of types %v and %v, want int32", s.Name, s.Min.Type(), s.Extent.Type())
	}
	var mn, cond string
	lo, loConst := ir.AsInt(s.Min)
	ext, extConst := ir.AsInt(s.Extent)
	switch {
	case loConst && extConst:
		mn = strconv.FormatInt(lo, 10)
		cond = strconv.FormatInt(lo+ext, 10)
	default:
		mn = e.top(s.Min)
		if !cIsAtom(s.Min) {
			c := e.declare(s.Name + ".min")
			e.line("const int %s = %s;", c, mn)
			mn = c
		}
		x := e.top(s.Extent)
		if !cIsAtom(s.Extent) {
			c := e.declare(s.Name + ".extent")
			e.line("const int %s = %s;", c, x)
			x = c
		}
		if loConst && lo == 0 {
			cond = x
		} else {
			cond = mn + " + " + x
		}
	}
	switch s.Kind {
	case ir.Unrolled, ir.Vectorized:
		if u := e.m.d.Unroll(); u != "" {
			e.line("%s", u)
		}
	}
	c := e.fresh(s.Name)
	e.open("for (int %s = %s; %s < %s; %s++) {", c, mn, c, cond, c)
	e.scopes[len(e.scopes)-1][c] = true
	restore := e.bindVar(s.Name, c, ir.Int32)
	e.stmt(s.Body)
	restore()
	e.close()
}

func (e *printer) ifThenElse(s *ir.IfThenElse) {
	c := e.top(s.Cond)
	e.open("if (%s) {", c)
	e.stmt(s.Then)
	for s.Else != nil {
		el, ok := s.Else.(*ir.IfThenElse)
		if ok && !cHasLet(el.Cond) {
			c := e.top(el.Cond)
			e.pop()
			e.line("} else if (%s) {", c)
			e.push()
			e.stmt(el.Then)
			s = el
			continue
		}
		e.pop()
		e.line("} else {")
		e.push()
		e.stmt(s.Else)
		break
	}
	e.close()
}

func cHasLet(x ir.Expr) bool {
	return ir.ContainsExpr(x, func(x ir.Expr) bool {
		_, ok := x.(*ir.Let)
		return ok
	})
}

func (e *printer) allocate(s *ir.Allocate) {
	if s.Memory == ir.GPUShared {
		// Declared at the top of the body by sharedDecls.
		e.stmt(s.Body)
		return
	}
	n := int64(1)
	for _, x := range s.Extents {
		v, ok := ir.AsInt(ir.Simplify(x))
		if !ok {
			e.fail("allocation %s in %v memory has the non-constant extent %s; per-thread allocations need constant sizes", s.Name, s.Memory, ir.ExprString(x))
		}
		n *= v
	}
	if n < 0 {
		e.fail("allocation %s has %d elements", s.Name, n)
	}
	c := e.declare(s.Name)
	if n == 0 {
		// An empty region (a loop of no iterations computes the Func):
		// nothing is stored or loaded, but C has no arrays of 0.
		e.line("%s %s[1]; (void)%s; // empty: 0 elements", cType(s.T), c, c)
	} else {
		e.line("%s %s[%d];", cType(s.T), c, n)
	}
	restore := e.bindBuf(s.Name, cBuf{c, s.T, true})
	e.stmt(s.Body)
	restore()
}

func (e *printer) store(s *ir.Store) {
	if s.Index == nil || s.Value == nil {
		e.fail("store to %s has a nil index or value", s.Buf)
	}
	b := e.lookupBuf(s.Buf, "store to")
	if !b.written {
		e.fail("store to read-only buffer %s", s.Buf)
	}
	if s.Value.Type() != b.t {
		e.fail("store of a %v value to buffer %s of %v", s.Value.Type(), s.Buf, b.t)
	}
	if s.Atomic && atomicUsesSelf(s.Value, s.Buf, s.Index) {
		e.atomicStore(s, b)
		return
	}
	idx := e.top(s.Index)
	var v string
	if b.t.IsHalf() {
		v = e.m.use("gh_store_"+cTypeSuffix(b.t)) + "(" + e.unrounded(s.Value) + ")"
	} else {
		v = e.top(s.Value)
	}
	e.line("%s[%s] = %s;", b.name, idx, v)
}

// prefetch prints an ir.PrefetchFlat: a loop nest over the dimensions
// but the innermost (dimension 0) and, for each row, one prefetch per
// cache line the row's elements touch: from the line of its first
// element to the line of its last, when dimension 0 is dense (stride 1),
// else one per element (a strided row has no lines to share; with a
// stride of a line or more that is one per line anyway). Where the
// stride is known only at run time both are printed, chosen by it.
func (e *printer) prefetch(buf string, c *ir.Call) {
	probe, line := e.m.d.Prefetch("p")
	l := e.bufs[buf]
	if len(l) == 0 || probe == "" || (len(c.Args)-1)%2 != 0 {
		e.comment("prefetch of " + buf + " left out (not a buffer of the kernel, or no prefetch in " + e.m.d.Name() + ")")
		return
	}
	b := l[len(l)-1]
	dims := (len(c.Args) - 1) / 2
	stride := func(d int) ir.Expr { return c.Args[2+2*d] }
	e.comment(fmt.Sprintf("prefetch %s: a %d-dimensional box, one prefetch per %d-byte line", buf, dims, line))
	e.open("{")
	// The extents, named (a constant stays a literal); an empty box
	// prefetches nothing.
	extents := make([]string, dims)
	for d := range dims {
		x := c.Args[1+2*d]
		if n, ok := ir.AsInt(x); ok {
			if n <= 0 {
				e.close()
				return
			}
			extents[d] = strconv.FormatInt(n, 10)
			continue
		}
		if cIsAtom(x) {
			extents[d] = e.top(x)
			continue
		}
		extents[d] = e.declare(buf + ".prefetch.extent." + strconv.Itoa(d))
		e.line("const int %s = %s;", extents[d], e.top(x))
	}
	idx := e.declare(buf + ".prefetch.index")
	e.line("const int %s = %s;", idx, e.top(c.Args[0]))
	// The outer dimensions, outermost first, move the row's first element.
	var closers int
	for d := dims - 1; d >= 1; d-- {
		if extents[d] == "1" {
			continue // the row's first element stays
		}
		i := e.declare(buf + ".prefetch.i" + strconv.Itoa(d))
		e.open("for (int %s = 0; %s < %s; %s++) {", i, i, extents[d], i)
		row := e.declare(buf + ".prefetch.row" + strconv.Itoa(d))
		e.line("const int %s = %s + %s * %s;", row, idx, i, e.operand(stride(d), cPrecMul))
		idx = row
		closers++
	}
	// issue prefetches the line of the address addr (a C expression).
	issue := func(addr string) {
		p := e.declare(buf + ".prefetch.addr")
		e.line("const void *%s = (const void *)%s;", p, addr)
		stmt, _ := e.m.d.Prefetch(p)
		e.line("%s", stmt)
	}
	if dims == 0 {
		e.open("{")
		issue(fmt.Sprintf("(%s + %s)", b.name, idx))
		e.close()
	} else {
		n := extents[0]
		lines := func() {
			first := e.declare(buf + ".prefetch.first")
			last := e.declare(buf + ".prefetch.last")
			e.line("const unsigned long long %s = (unsigned long long)(%s + %s) & ~%dull;", first, b.name, idx, line-1)
			e.line("const unsigned long long %s = (unsigned long long)(%s + %s + %s - 1);", last, b.name, idx, n)
			a := e.declare(buf + ".prefetch.line")
			e.open("for (unsigned long long %s = %s; %s <= %s; %s += %d) {", a, first, a, last, a, line)
			issue(a)
			e.close()
		}
		each := func() {
			i := e.declare(buf + ".prefetch.i0")
			e.open("for (int %s = 0; %s < %s; %s++) {", i, i, n, i)
			issue(fmt.Sprintf("(%s + %s + %s * %s)", b.name, idx, i, e.operand(stride(0), cPrecMul)))
			e.close()
		}
		s0, known := ir.AsInt(stride(0))
		switch {
		case n == "1":
			issue(fmt.Sprintf("(%s + %s)", b.name, idx))
		case known && s0 == 1 && ir.IsConst(c.Args[1]):
			lines()
		case known && s0 == 1:
			e.open("if (%s > 0) {", n)
			lines()
			e.close()
		case known:
			each()
		default:
			cond := e.operand(stride(0), cPrecEq) + " == 1"
			if !ir.IsConst(c.Args[1]) {
				cond += " && " + n + " > 0"
			}
			e.open("if (%s) {", cond)
			lines()
			e.pop()
			e.open("} else {")
			each()
			e.close()
		}
	}
	for range closers {
		e.close()
	}
	e.close()
}

// atomicSelf reports whether x is a load of element index of buf.
func atomicSelf(x ir.Expr, buf string, index ir.Expr) bool {
	l, ok := x.(*ir.Load)
	return ok && l.Buf == buf && ir.Equal(l.Index, index)
}

func atomicUsesSelf(x ir.Expr, buf string, index ir.Expr) bool {
	found := false
	ir.WalkExpr(x, func(x ir.Expr) bool {
		if atomicSelf(x, buf, index) {
			found = true
		}
		return !found
	})
	return found
}

func commutative(op ir.BinOp) bool {
	switch op {
	case ir.Add, ir.Mul, ir.Min, ir.Max, ir.And, ir.Or:
		return true
	}
	return false
}

// atomicStore emits an atomic read-modify-write of buf[index]: a CUDA
// atomic where one computes the value, a helper with a compare-and-swap
// loop for other operators, and an inline compare-and-swap loop for any
// other expression of the old value.
//
// A 16-bit float always takes the loop, on its bits: the new value is
// computed as any store's is (in float, rounded once to t by the store),
// so an atomic update gives the bits a plain one would.
func (e *printer) atomicStore(s *ir.Store, b cBuf) {
	t := b.t
	if bin, ok := s.Value.(*ir.Binary); ok && opWord[bin.Op] != "" && !t.IsHalf() {
		var x ir.Expr
		switch {
		case atomicSelf(bin.A, s.Buf, s.Index) && !atomicUsesSelf(bin.B, s.Buf, s.Index):
			x = bin.B
		case commutative(bin.Op) && atomicSelf(bin.B, s.Buf, s.Index) && !atomicUsesSelf(bin.A, s.Buf, s.Index):
			x = bin.A
		}
		if x != nil {
			idx := e.top(s.Index)
			xs, xp := e.expr(x)
			ptr := fmt.Sprintf("&%s[%s]", b.name, idx)
			if line, ok := e.m.d.Atomic(bin.Op, t, ptr, xs, xp); ok {
				e.line("%s", line)
			} else {
				e.line("%s(%s, %s);", e.m.use(fmt.Sprintf("gh_atomic_%s_%s", opWord[bin.Op], cTypeSuffix(t))), ptr, xs)
			}
			return
		}
	}
	// Any other function of the old value: an inline compare-and-swap loop.
	idx := e.top(s.Index)
	ct := cType(t)
	e.comment(fmt.Sprintf("atomic update of %s[%s]", b.name, idx))
	e.open("{")
	ptr := e.declare(s.Buf + ".ptr")
	old := e.declare(s.Buf + ".old")
	nw := e.declare(s.Buf + ".new")
	e.line("%s *%s = &%s[%s];", ct, ptr, b.name, idx)
	e.line("%s %s = *%s;", ct, old, ptr)
	e.line("%s %s;", ct, nw)
	e.open("do {")
	e.tmp++
	oldName := fmt.Sprintf("#old%d", e.tmp)
	oldValue := old
	if t.IsHalf() {
		// The bits in memory, the float in the expression.
		oldValue = e.declare(s.Buf + ".oldf")
		e.line("const float %s = %s(%s);", oldValue, e.m.use("gh_load_"+cTypeSuffix(t)), old)
	}
	restore := e.bindVar(oldName, oldValue, t)
	var repl func(ir.Expr) ir.Expr
	repl = func(x ir.Expr) ir.Expr {
		if atomicSelf(x, s.Buf, s.Index) {
			return &ir.Var{T: t, Name: oldName}
		}
		return ir.MapExpr(x, repl)
	}
	var v string
	if t.IsHalf() {
		v = e.m.use("gh_store_"+cTypeSuffix(t)) + "(" + e.unrounded(repl(s.Value)) + ")"
	} else {
		v = e.top(repl(s.Value))
	}
	restore()
	e.line("%s = %s;", nw, v)
	e.pop()
	e.line("} while (!%s(%s, &%s, %s));", e.m.use("gh_cas_"+cTypeSuffix(t)), ptr, old, nw)
	e.close()
}

// ---------------------------------------------------------------------------
// Expressions.

// top emits x where any expression may stand (an initializer, an index, a
// condition).
func (e *printer) top(x ir.Expr) string {
	s, _ := e.expr(x)
	return s
}

// operand emits x as an operand needing precedence at least need.
func (e *printer) operand(x ir.Expr, need int) string {
	s, p := e.expr(x)
	return cParen(s, p, need)
}

// conditional emits x as C evaluates only sometimes.
func (e *printer) conditional(x ir.Expr, need int) string {
	e.cond++
	defer func() { e.cond-- }()
	return e.operand(x, need)
}

func (e *printer) expr(x ir.Expr) (string, int) {
	switch x := x.(type) {
	case nil:
		e.fail("nil expression")
	case *ir.IntImm:
		if x.T.IsFloat() {
			e.fail("integer constant %d has type %v", x.V, x.T)
		}
		return cIntLiteral(x.T, x.V)
	case *ir.FloatImm:
		if !x.T.IsFloat() {
			e.fail("float constant %v has type %v", x.V, x.T)
		}
		return cFloatLiteral(e.m.d, x.T, x.V)
	case *ir.Var:
		l := e.vars[x.Name]
		if len(l) == 0 {
			e.fail("variable %s is not bound: it is not an argument, a loop variable, a let or a thread or block index", x.Name)
		}
		b := l[len(l)-1]
		if b.t != x.T {
			return e.cast(b.name, cPrecPostfix, b.t, x.T)
		}
		return b.name, cPrecPostfix
	case *ir.Cast:
		s, p := e.expr(x.X)
		return e.cast(s, p, x.X.Type(), x.T)
	case *ir.Binary:
		return e.binary(x)
	case *ir.Not:
		return "!" + e.operand(x.X, cPrecUnary), cPrecUnary
	case *ir.Select:
		if x.True.Type() != x.False.Type() {
			e.fail("select arms have types %v and %v", x.True.Type(), x.False.Type())
		}
		c := e.operand(x.Cond, cPrecCond+1)
		a := e.conditional(x.True, cPrecCond+1)
		b := e.conditional(x.False, cPrecCond)
		return c + " ? " + a + " : " + b, cPrecCond
	case *ir.Call:
		return e.call(x)
	case *ir.Load:
		b := e.lookupBuf(x.Buf, "load of")
		if b.t != x.T {
			e.fail("load of %v from buffer %s of %v", x.T, x.Buf, b.t)
		}
		ld := b.name + "[" + e.top(x.Index) + "]"
		if !b.written && e.cond > 0 {
			// In a select arm (or the right of && ||), where the compiler
			// may merge the loads of both arms into one (Dialect.ReadOnlyLoad).
			ld = e.m.d.ReadOnlyLoad(x.T, b.name, e.top(x.Index))
		}
		if x.T.IsHalf() {
			// The bits in memory, the float in the expression.
			ld = e.m.use("gh_load_"+cTypeSuffix(x.T)) + "(" + ld + ")"
		}
		return ld, cPrecPostfix
	case *ir.Let:
		if e.cond > 0 {
			return e.letLambda(x), cPrecPostfix
		}
		if !ir.Uses(x.Body, x.Name) {
			return e.expr(x.Body)
		}
		v := e.top(x.Value)
		c := e.declare(x.Name)
		e.line("const %s %s = %s;", cValueType(x.Value.Type()), c, v)
		restore := e.bindVar(x.Name, c, x.Value.Type())
		defer restore()
		return e.expr(x.Body)
	}
	e.fail("cannot emit expression %T", x)
	return "", 0
}

// letLambda emits a Let that C must evaluate conditionally as an
// immediately invoked lambda, whose statements are the hoisted lets.
func (e *printer) letLambda(x *ir.Let) string {
	saved, savedCond, savedIndent := e.lines, e.cond, e.indent
	e.lines, e.cond = nil, 0
	e.push()
	body := e.top(x)
	inner := e.lines
	e.pop()
	e.lines, e.cond, e.indent = saved, savedCond, savedIndent
	stmts := make([]string, len(inner))
	for i, l := range inner {
		stmts[i] = l.text
	}
	return e.m.d.LetExpr(cValueType(x.Type()), stmts, body)
}

// cast converts the C expression s (precedence p) of type from to type to,
// with the CPU executor's rules.
func (e *printer) cast(s string, p int, from, to ir.Type) (string, int) {
	if from == to {
		return s, p
	}
	switch {
	case to.IsHalf():
		// To float32 first (a 16-bit float or a float32 already is
		// one), then rounded to the 16-bit type: ir.RoundFloat.
		if !from.IsFloat() || from.Bits > 32 {
			s, p = "(float)"+cParen(s, p, cPrecUnary), cPrecUnary
		}
		return e.round(to, s), cPrecPostfix
	case from.IsHalf():
		// The value is a float: convert it as a float32.
		return e.cast(s, p, ir.Float32, to)
	}
	ct := cType(to)
	if from.IsFloat() && to.IsIntOrUInt() {
		return e.m.use("gh_to"+cTypeSuffix(to)+"_"+cTypeSuffix(from)) + "(" + s + ")", cPrecPostfix
	}
	return "(" + ct + ")" + cParen(s, p, cPrecUnary), cPrecUnary
}

// unrounded emits the 16-bit float expression x as a float that rounds to
// its value: where x rounds a float32 result (arithmetic, a conversion),
// the result before rounding, for a store that rounds it anyway.
func (e *printer) unrounded(x ir.Expr) string {
	t := x.Type()
	switch x := x.(type) {
	case *ir.Binary:
		if x.A.Type() == t && !x.Op.IsComparison() && x.Op != ir.Min && x.Op != ir.Max {
			s, _ := e.floatBinary(x, ir.Float32)
			return s
		}
	case *ir.Cast:
		from := x.X.Type()
		if from.IsFloat() && from.Bits == 32 {
			return e.top(x.X)
		}
	}
	return e.top(x)
}

// round rounds the float expression s to the 16-bit float type t, as a
// float.
func (e *printer) round(t ir.Type, s string) string {
	return e.m.use("gh_round_"+cTypeSuffix(t)) + "(" + s + ")"
}

func (e *printer) binary(x *ir.Binary) (string, int) {
	t := x.A.Type()
	if x.B.Type() != t {
		e.fail("operands of %v have types %v and %v: %s", x.Op, t, x.B.Type(), ir.ExprString(x))
	}
	op := x.Op
	switch {
	case t.IsHalf() && !op.IsComparison() && op != ir.And && op != ir.Or:
		// Computed in float32 and rounded back (min and max pick an
		// operand, which needs no rounding).
		s, p := e.floatBinary(x, ir.Float32)
		if op == ir.Min || op == ir.Max {
			return s, p
		}
		return e.round(t, s), cPrecPostfix
	case op == ir.And || op == ir.Or:
		if t.IsFloat() {
			e.fail("operands of %v have type %v", op, t)
		}
		prec, sym := cPrecAnd, " && "
		if op == ir.Or {
			prec, sym = cPrecOr, " || "
		}
		// && inside || gets parentheses, for the reader.
		a := e.operand(x.A, cPrecAnd+1)
		b := e.conditional(x.B, cPrecAnd+1)
		return a + sym + b, prec
	case op.IsComparison():
		prec := cPrecRel
		if op == ir.EQ || op == ir.NE {
			prec = cPrecEq
		}
		return e.operand(x.A, prec+1) + " " + op.String() + " " + e.operand(x.B, prec+1), prec
	case t.IsFloat():
		return e.floatBinary(x, t)
	}
	return e.intBinary(x, t) // integers and bools
}

// floatBinary emits arithmetic, min, max and mod of floats, computed in
// type t (float32 for the 16-bit floats, whose values are floats).
func (e *printer) floatBinary(x *ir.Binary, t ir.Type) (string, int) {
	op := x.Op
	sfx := cTypeSuffix(t)
	switch op {
	case ir.Add, ir.Sub:
		return e.additive(x, t)
	case ir.Mul:
		fn := e.m.d.RoundedOp(ir.Mul, t)
		if e.m.contract && !e.strict || fn == "" {
			return e.operand(x.A, cPrecMul) + " * " + e.operand(x.B, cPrecMul+1), cPrecMul
		}
		return fn + "(" + e.top(x.A) + ", " + e.top(x.B) + ")", cPrecPostfix
	case ir.Div:
		if call, ok := e.divConst(x, t); ok {
			return call, cPrecPostfix
		}
		b := e.operand(x.B, cPrecMul+1)
		if k, ok := x.B.(*ir.FloatImm); ok && k.V == 0 {
			// The same zero, which the compiler does not warn about.
			b = cZeroBits(e.m.d, k)
		}
		return e.operand(x.A, cPrecMul) + " / " + b, cPrecMul
	case ir.Mod, ir.Min, ir.Max:
		return e.m.use("gh_"+opWord[op]+"_"+sfx) + "(" + e.top(x.A) + ", " + e.top(x.B) + ")", cPrecPostfix
	}
	e.fail("cannot emit operator %v on %v", op, t)
	return "", 0
}

// divConst emits a float32 division by a constant of a converted narrow
// integer as gh_divc_f32, a multiply and two FMAs, where divConstExact
// proves it gives the division's bits for every value the integer can
// take (see divconst.go).
func (e *printer) divConst(x *ir.Binary, t ir.Type) (string, bool) {
	k, ok := x.B.(*ir.FloatImm)
	cast, isCast := x.A.(*ir.Cast)
	if t != ir.Float32 || !ok || !isCast || cast.T != ir.Float32 {
		return "", false
	}
	lo, hi, ok := integerRange(cast.X)
	if !ok {
		return "", false
	}
	c := float32(k.V)
	rc, ok := divConstExact(c, lo, hi)
	if !ok {
		return "", false
	}
	cs, _ := cFloatLiteral(e.m.d, ir.Float32, float64(c))
	rcs, _ := cFloatLiteral(e.m.d, ir.Float32, float64(rc))
	return e.m.use("gh_divc_f32") + "(" + e.top(x.A) + ", " + cs + ", " + rcs + ")", true
}

// intBinary emits arithmetic, division, modulo, min and max of integers
// and bools.
func (e *printer) intBinary(x *ir.Binary, t ir.Type) (string, int) {
	op := x.Op
	ct := cType(t)
	switch op {
	case ir.Add, ir.Sub, ir.Mul:
		if !cNarrow(t) {
			if op == ir.Mul {
				return e.operand(x.A, cPrecMul) + " * " + e.operand(x.B, cPrecMul+1), cPrecMul
			}
			return e.additive(x, t)
		}
		// C computes in int: cast back to wrap as the CPU does.
		var a string
		switch op {
		case ir.Add, ir.Sub:
			s, _ := e.additive(x, t)
			return "(" + ct + ")(" + s + ")", cPrecUnary
		case ir.Mul:
			if t == ir.UInt16 {
				// 65535 * 65535 overflows int: multiply unsigned.
				a = "(unsigned int)" + e.operand(x.A, cPrecUnary)
			} else {
				a = e.operand(x.A, cPrecMul)
			}
		}
		return "(" + ct + ")(" + a + " * " + e.operand(x.B, cPrecMul+1) + ")", cPrecUnary
	case ir.Div, ir.Mod:
		if k, ok := ir.AsInt(x.B); ok && k != 0 && t.IsUInt() {
			sym := " / "
			if op == ir.Mod {
				sym = " % "
			}
			return e.operand(x.A, cPrecMul) + sym + e.operand(x.B, cPrecMul+1), cPrecMul
		}
		// By a positive power of two 2^n, Euclidean division rounds
		// down: an arithmetic shift, and the modulo in [0, 2^n) a
		// mask, for either sign of a (two's complement). Not for
		// a negative divisor (the quotient rounds up). No helper,
		// no branches, which keeps the index arithmetic of the
		// cooperative loads cheap enough for nvcc to recompute
		// rather than keep live (or spill).
		// An 8- or 16-bit operand is promoted to int first, where the
		// shift and the mask give the same quotient and remainder, which
		// fit the type again.
		if k, ok := ir.AsInt(x.B); ok && k > 0 && k&(k-1) == 0 && t.IsInt() && k <= t.Max() {
			var s string
			var prec int
			if op == ir.Div {
				s, prec = e.operand(x.A, cPrecMul+1)+" >> "+strconv.Itoa(bits.TrailingZeros64(uint64(k))), cPrecShift
			} else {
				s, prec = e.operand(x.A, cPrecMul+1)+" & "+strconv.FormatInt(k-1, 10), cPrecBitAnd
			}
			if cNarrow(t) {
				return "(" + ct + ")(" + s + ")", cPrecUnary
			}
			return s, prec
		}
		ht := t
		switch {
		case t.IsBool():
			ht = ir.UInt32
		case cNarrow(t) && t.IsInt():
			ht = ir.Int32
		case cNarrow(t):
			ht = ir.UInt32
		}
		call := e.m.use("gh_"+opWord[op]+"_"+cTypeSuffix(ht)) + "(" + e.top(x.A) + ", " + e.top(x.B) + ")"
		if ht != t {
			return "(" + ct + ")" + call, cPrecUnary
		}
		return call, cPrecPostfix
	case ir.Min, ir.Max:
		return opWord[op] + "(" + e.top(x.A) + ", " + e.top(x.B) + ")", cPrecPostfix
	}
	e.fail("cannot emit operator %v on %v", op, t)
	return "", 0
}

// additive emits Add and Sub of signed integers and floats, writing
// a + -k as a - k (the same value in these types; narrow types are cast
// back by the caller).
func (e *printer) additive(x *ir.Binary, t ir.Type) (string, int) {
	op := x.Op
	b := x.B
	switch k := b.(type) {
	case *ir.IntImm:
		if t.IsInt() && k.V < 0 && k.V != t.Min() {
			b = &ir.IntImm{T: k.T, V: -k.V}
			op = ir.Add + ir.Sub - op
		}
	case *ir.FloatImm:
		if k.V < 0 || k.V == 0 && math.Signbit(k.V) {
			b = &ir.FloatImm{T: k.T, V: -k.V}
			op = ir.Add + ir.Sub - op
		}
	}
	return e.operand(x.A, cPrecAdd) + " " + op.String() + " " + e.operand(b, cPrecAdd+1), cPrecAdd
}

// cZeroBits spells a float zero through its bits (a 16-bit float's as a
// float).
func cZeroBits(d Dialect, k *ir.FloatImm) string {
	if k.T.Bits <= 32 {
		return d.FloatBits(ir.Float32, uint64(math.Float32bits(float32(k.V))))
	}
	return d.FloatBits(k.T, math.Float64bits(k.V))
}

func (e *printer) call(x *ir.Call) (string, int) {
	switch x.Kind {
	case ir.CallFunc:
		e.fail("expression is not lowered: found call to Func %s", x.Name)
	case ir.CallImage:
		e.fail("expression is not lowered: found call to image %s", x.Name)
	case ir.CallIntrinsic:
	default:
		e.fail("unknown call kind %d of %s", x.Kind, x.Name)
	}
	nargs := map[string]int{
		ir.IntrinsicAbs: 1, ir.IntrinsicSqrt: 1, ir.IntrinsicExp: 1, ir.IntrinsicLog: 1,
		ir.IntrinsicPow: 2, ir.IntrinsicFloor: 1, ir.IntrinsicCeil: 1, ir.IntrinsicRound: 1,
		ir.IntrinsicPromiseClamped: 3, ir.IntrinsicUnsafePromiseClamped: 3, ir.IntrinsicLikely: 1, ir.IntrinsicStrictFloat: 1,
		ir.IntrinsicBitAnd: 2, ir.IntrinsicBitOr: 2, ir.IntrinsicBitXor: 2, ir.IntrinsicBitNot: 1,
		ir.IntrinsicShiftLeft: 2, ir.IntrinsicShiftRight: 2,
		ir.IntrinsicSin: 1, ir.IntrinsicCos: 1, ir.IntrinsicTan: 1, ir.IntrinsicAsin: 1, ir.IntrinsicAcos: 1, ir.IntrinsicAtan: 1,
		ir.IntrinsicSinh: 1, ir.IntrinsicCosh: 1, ir.IntrinsicTanh: 1, ir.IntrinsicAtan2: 2,
		ir.IntrinsicAsinh: 1, ir.IntrinsicAcosh: 1, ir.IntrinsicAtanh: 1, ir.IntrinsicTrunc: 1,
		ir.IntrinsicIsNaN: 1, ir.IntrinsicIsInf: 1, ir.IntrinsicIsFinite: 1,
		ir.IntrinsicPopcount: 1, ir.IntrinsicCountLeadingZeros: 1, ir.IntrinsicCountTrailingZeros: 1,
		ir.IntrinsicReinterpret: 1, ir.IntrinsicShuffleDown: 2,
	}
	n, ok := nargs[x.Name]
	if !ok {
		e.fail("unknown intrinsic %s", x.Name)
	}
	if len(x.Args) != n {
		e.fail("intrinsic %s takes %d arguments, got %d", x.Name, n, len(x.Args))
	}
	a0 := x.Args[0]
	switch x.Name {
	case ir.IntrinsicLikely, ir.IntrinsicUnsafePromiseClamped, ir.IntrinsicStrictFloat:
		s, p := e.expr(a0)
		return e.cast(s, p, a0.Type(), x.T)
	case ir.IntrinsicPromiseClamped:
		s, p := e.expr(ir.MinE(ir.MaxE(a0, x.Args[1]), x.Args[2]))
		return e.cast(s, p, a0.Type(), x.T)
	case ir.IntrinsicBitAnd, ir.IntrinsicBitOr, ir.IntrinsicBitXor, ir.IntrinsicBitNot, ir.IntrinsicShiftLeft, ir.IntrinsicShiftRight:
		return e.bitwise(x)
	case ir.IntrinsicPopcount, ir.IntrinsicCountLeadingZeros, ir.IntrinsicCountTrailingZeros:
		return e.bitCount(x)
	case ir.IntrinsicIsNaN, ir.IntrinsicIsInf, ir.IntrinsicIsFinite:
		if !a0.Type().IsFloat() {
			e.fail("operand of %s has type %v, not a float", x.Name, a0.Type())
		}
		fn := map[string]string{ir.IntrinsicIsNaN: "isnan", ir.IntrinsicIsInf: "isinf", ir.IntrinsicIsFinite: "isfinite"}[x.Name]
		return e.cast("(bool)"+fn+"("+e.top(a0)+")", cPrecUnary, ir.Bool, x.T)
	case ir.IntrinsicShuffleDown:
		delta, ok := ir.AsInt(x.Args[1])
		if !ok || a0.Type() != x.T || x.T.IsHalf() {
			e.fail("%s of %v by %s: the lane offset must be a constant and the value of the call's type, not a 16-bit float", x.Name, a0.Type(), ir.ExprString(x.Args[1]))
		}
		sh := e.m.d.ShuffleDown(cType(x.T), e.top(a0), delta)
		if sh == "" {
			e.fail("%s has no warp shuffles", e.m.d.Name())
		}
		return sh, cPrecPostfix
	case ir.IntrinsicReinterpret:
		from := a0.Type()
		if !ir.CanReinterpret(from, x.T) {
			e.fail("reinterpret of %v as %v: the types must be integer or float types of one width", from, x.T)
		}
		if !from.IsFloat() && !x.T.IsFloat() {
			s, p := e.expr(a0) // same-width integers: a C conversion keeps the bits
			return e.cast(s, p, from, x.T)
		}
		return e.m.d.Reinterpret(from, x.T, e.top(a0)), cPrecPostfix
	case ir.IntrinsicAbs:
		at := a0.Type()
		switch {
		case at.IsFloat():
			fn := "fabsf"
			if at.Bits == 64 {
				fn = "fabs"
			}
			return e.cast(fn+"("+e.top(a0)+")", cPrecPostfix, at, x.T)
		case at.IsInt():
			return e.cast(e.m.use("gh_abs_i64")+"("+e.top(a0)+")", cPrecPostfix, ir.Int64, x.T)
		}
		s, p := e.expr(a0)
		return e.cast(s, p, at, x.T)
	}
	// Float math. The CPU computes in float64 and rounds to the type; for a
	// float32 sqrt, floor, ceil and round the float functions give the same
	// result.
	same := true
	for _, a := range x.Args {
		same = same && a.Type() == x.T
	}
	if same && (x.T == ir.Float32 || x.T.IsHalf()) {
		fn := map[string]string{ir.IntrinsicSqrt: "sqrtf", ir.IntrinsicFloor: "floorf", ir.IntrinsicCeil: "ceilf", ir.IntrinsicRound: "rintf", ir.IntrinsicTrunc: "truncf"}[x.Name]
		if fn != "" {
			if x.T.IsHalf() {
				// In float32, rounded back (a no-op but for sqrt).
				return e.round(x.T, fn+"("+e.top(a0)+")"), cPrecPostfix
			}
			return fn + "(" + e.top(a0) + ")", cPrecPostfix
		}
	}
	fn := map[string]string{
		ir.IntrinsicSqrt: "sqrt", ir.IntrinsicExp: "exp", ir.IntrinsicLog: "log", ir.IntrinsicPow: "pow",
		ir.IntrinsicFloor: "floor", ir.IntrinsicCeil: "ceil", ir.IntrinsicRound: "rint",
		ir.IntrinsicSin: "sin", ir.IntrinsicCos: "cos", ir.IntrinsicTan: "tan",
		ir.IntrinsicAsin: "asin", ir.IntrinsicAcos: "acos", ir.IntrinsicAtan: "atan",
		ir.IntrinsicSinh: "sinh", ir.IntrinsicCosh: "cosh", ir.IntrinsicTanh: "tanh", ir.IntrinsicAtan2: "atan2",
		ir.IntrinsicAsinh: "asinh", ir.IntrinsicAcosh: "acosh", ir.IntrinsicAtanh: "atanh", ir.IntrinsicTrunc: "trunc",
	}[x.Name]
	if fn == "" {
		e.fail("unknown float intrinsic %s", x.Name)
	}
	args := make([]string, len(x.Args))
	for i, a := range x.Args {
		s, p := e.expr(a)
		if a.Type() != ir.Float64 {
			s, _ = e.cast(s, p, a.Type(), ir.Float64)
		}
		args[i] = s
	}
	return e.cast(fn+"("+strings.Join(args, ", ")+")", cPrecPostfix, ir.Float64, x.T)
}

// bitCount prints popcount or a count of leading or trailing zeros
// (ir.EvalBitCount) of an integer of type t: its bits, zero-extended to an
// unsigned int (or unsigned long long for 64 bits), counted by the
// dialect's BitCount; a narrow type's leading zeros less the extension's,
// and the trailing zeros the ones of ~u & (u - 1) (all the bits for 0).
func (e *printer) bitCount(x *ir.Call) (string, int) {
	t := x.T
	a := x.Args[0]
	if a.Type() != t || !t.IsIntOrUInt() {
		e.fail("operand of %s has type %v, the call %v; both must be the same integer type", x.Name, a.Type(), t)
	}
	wide := t.Bits == 64
	ut := ir.UInt32
	if wide {
		ut = ir.UInt64
	}
	unsigned := ir.Type{Code: ir.UIntCode, Bits: t.Bits}
	s, p := e.expr(a)
	s, p = e.cast(s, p, t, unsigned) // the bits, without sign extension
	u, _ := e.cast(s, p, unsigned, ut)
	var r string
	switch x.Name {
	case ir.IntrinsicPopcount:
		r = e.m.d.BitCount(false, wide, u)
	case ir.IntrinsicCountLeadingZeros:
		r = e.m.d.BitCount(true, wide, u)
		if !wide && t.Bits < 32 {
			r = fmt.Sprintf("(%s - %d)", r, 32-t.Bits)
		}
	default:
		// ~u & (u - 1) has the trailing zeros of u as its ones; a narrow
		// type's mask keeps them within its bits (8 for a uint8 0).
		c := cType(ut)
		mask := ""
		if t.Bits < 32 {
			mask = fmt.Sprintf(" & 0x%xu", uint32(1)<<t.Bits-1)
		}
		r = e.m.d.BitCount(false, wide, fmt.Sprintf("(~(%s)(%s) & ((%s)(%s) - 1u)%s)", c, u, c, u, mask))
	}
	return e.cast(r, cPrecPostfix, ir.Int32, t)
}

// bitwise prints a bitwise intrinsic (ir.EvalBitwise). And, or, xor and
// not are C's operators, whose result C may promote to int and the cast
// brings back to the type; shifts are helpers (gh_shl_<t>, gh_shr_<t>),
// since C leaves shifts by negative or too large amounts undefined.
func (e *printer) bitwise(x *ir.Call) (string, int) {
	t := x.T
	for _, a := range x.Args {
		if a.Type() != t || !t.IsIntOrUInt() {
			e.fail("operand of %s has type %v, the call %v; both must be the same integer type", x.Name, a.Type(), t)
		}
	}
	promoted := t
	if cNarrow(t) {
		promoted = ir.Int32 // C's int
	}
	switch x.Name {
	case ir.IntrinsicBitNot:
		return e.cast("~"+e.operand(x.Args[0], cPrecUnary), cPrecUnary, promoted, t)
	case ir.IntrinsicShiftLeft, ir.IntrinsicShiftRight:
		fn := "gh_shl_"
		if x.Name == ir.IntrinsicShiftRight {
			fn = "gh_shr_"
		}
		return e.m.use(fn+cTypeSuffix(t)) + "(" + e.top(x.Args[0]) + ", " + e.top(x.Args[1]) + ")", cPrecPostfix
	}
	prec, sym := cPrecBitAnd, " & "
	switch x.Name {
	case ir.IntrinsicBitOr:
		prec, sym = cPrecBitOr, " | "
	case ir.IntrinsicBitXor:
		prec, sym = cPrecBitXor, " ^ "
	}
	// Operands bind tighter than the operator, so that nested bitwise
	// operators are parenthesized (and the compiler does not warn).
	s := e.operand(x.Args[0], prec+1) + sym + e.operand(x.Args[1], prec+1)
	return e.cast(s, prec, promoted, t)
}
