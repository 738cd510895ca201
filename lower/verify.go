package lower

// The IR verifier checks invariants of the statement between passes (the
// tests run it after every pass): operand types agree, conditions are bool,
// loop bounds and indices are int32; once bounds_inference has run every
// variable is defined by a loop or let or is a Param or buffer variable;
// once storage_flattening has run no multi-dimensional construct is left
// and every load and store names an allocation in scope or a pipeline
// buffer.

import (
	"fmt"

	"github.com/gohalide/gohalide/ir"
)

// Verify checks the invariants of st.Stmt for the passes run so far.
func Verify(st *State) error {
	vr := &verifier{st: st, defined: map[string]int{}, bufs: map[string]int{}}
	for _, p := range st.P.Params {
		vr.defined[p.Name]++
	}
	addBuf := func(name string, dims int) {
		vr.bufs[name]++
		for d := 0; d < dims; d++ {
			for _, f := range []string{"min", "extent", "stride"} {
				vr.defined[BufferVar(name, f, d)]++
			}
		}
	}
	for _, in := range st.P.Inputs {
		addBuf(in.Name, in.Dims)
	}
	out := st.Funcs[st.P.Output]
	addBuf(out.Name, len(out.Args))
	if out.IsTuple() {
		for i := range out.Types {
			addBuf(ir.TupleElem(out.Name, i), len(out.Args))
		}
	}
	vr.stmt(st.Stmt)
	if vr.err != nil {
		return vr.err
	}
	return verifyCooperative(st.Stmt, st.shareLoops())
}

type verifier struct {
	st      *State
	defined map[string]int
	bufs    map[string]int
	err     error
}

func (vr *verifier) fail(format string, args ...any) {
	if vr.err == nil {
		vr.err = fmt.Errorf(format, args...)
	}
}

func (vr *verifier) expr(e ir.Expr) {
	if e == nil {
		vr.fail("nil expression")
		return
	}
	switch e := e.(type) {
	case *ir.Var:
		if vr.st.boundsDone && vr.defined[e.Name] == 0 {
			vr.fail("variable %s is not defined", e.Name)
		}
	case *ir.Binary:
		if e.A.Type() != e.B.Type() {
			vr.fail("operands of %s have types %s and %s in %s", e.Op, e.A.Type(), e.B.Type(), ir.ExprString(e))
		}
		if (e.Op == ir.And || e.Op == ir.Or) && !e.A.Type().IsBool() {
			vr.fail("operands of %s are not bool in %s", e.Op, ir.ExprString(e))
		}
	case *ir.Not:
		if !e.X.Type().IsBool() {
			vr.fail("! of a non-bool in %s", ir.ExprString(e))
		}
	case *ir.Select:
		if !e.Cond.Type().IsBool() {
			vr.fail("select condition is not bool in %s", ir.ExprString(e))
		}
		if e.True.Type() != e.False.Type() {
			vr.fail("select arms have types %s and %s", e.True.Type(), e.False.Type())
		}
	case *ir.Call:
		if vr.st.flattened && e.Kind != ir.CallIntrinsic {
			vr.fail("call to %s after storage flattening", e.Name)
		}
		if buf, _, flat, ok := ir.IsPrefetch(e); ok && flat != vr.st.flattened {
			vr.fail("a prefetch of %s in the form of the other side of storage flattening (flat: %v)", buf, flat)
		}
		if m, ok := ir.IsMaxOver(e); ok {
			// max_over binds its variable in its last argument.
			vr.expr(m.Args[1])
			vr.expr(m.Args[2])
			name := m.Args[0].(*ir.Var).Name
			vr.defined[name]++
			vr.expr(m.Args[3])
			vr.defined[name]--
			return
		}
	case *ir.Load:
		if e.Index.Type() != ir.Int32 {
			vr.fail("load index of %s is %s, not int32", e.Buf, e.Index.Type())
		}
		if vr.bufs[e.Buf] == 0 {
			vr.fail("load from %s, which is not allocated here", e.Buf)
		}
	case *ir.Let:
		vr.expr(e.Value)
		vr.defined[e.Name]++
		vr.expr(e.Body)
		vr.defined[e.Name]--
		return
	}
	ir.VisitExpr(e, vr.expr)
}

// scoped verifies body with name counted in m (defined or bufs) there.
func (vr *verifier) scoped(m map[string]int, name string, body ir.Stmt) {
	m[name]++
	vr.stmt(body)
	m[name]--
}

func (vr *verifier) stmt(s ir.Stmt) {
	if s == nil || vr.err != nil {
		return
	}
	switch s := s.(type) {
	case *ir.LetStmt:
		vr.expr(s.Value)
		vr.scoped(vr.defined, s.Name, s.Body)
	case *ir.For:
		vr.expr(s.Min)
		vr.expr(s.Extent)
		if s.Min.Type() != ir.Int32 || s.Extent.Type() != ir.Int32 {
			vr.fail("loop %s bounds are not int32", s.Name)
		}
		vr.defined[s.Name]++
		if s.Kind == ir.GPUBlock {
			// Inside a kernel (before extraction), the index variables exist.
			for d := 0; d < 3; d++ {
				vr.defined[ir.ThreadID[d]]++
				vr.defined[ir.BlockID[d]]++
			}
		}
		vr.stmt(s.Body)
		if s.Kind == ir.GPUBlock {
			for d := 0; d < 3; d++ {
				vr.defined[ir.ThreadID[d]]--
				vr.defined[ir.BlockID[d]]--
			}
		}
		vr.defined[s.Name]--
	case *ir.IfThenElse:
		vr.expr(s.Cond)
		if !s.Cond.Type().IsBool() {
			vr.fail("if condition is not bool: %s", ir.ExprString(s.Cond))
		}
		vr.stmt(s.Then)
		vr.stmt(s.Else)
	case *ir.AssertStmt, *ir.ProducerConsumer, *ir.Block, *ir.Evaluate, *ir.Atomic:
		ir.VisitStmt(s, vr.stmt, vr.expr)
	case *ir.Provide:
		if vr.st.flattened {
			vr.fail("Provide to %s after storage flattening", s.Func)
		}
		vr.expr(s.Value)
		for _, a := range s.Args {
			vr.expr(a)
			if a.Type() != ir.Int32 {
				vr.fail("argument of %s is %s, not int32", s.Func, a.Type())
			}
		}
	case *ir.Realize:
		if vr.st.flattened {
			vr.fail("Realize of %s after storage flattening", s.Func)
		}
		ir.VisitStmt(s, vr.stmt, vr.expr)
	case *ir.Allocate:
		for _, e := range s.Extents {
			vr.expr(e)
		}
		vr.scoped(vr.bufs, s.Name, s.Body)
	case *ir.Store:
		vr.expr(s.Index)
		vr.expr(s.Value)
		if vr.bufs[s.Buf] == 0 {
			vr.fail("store to %s, which is not allocated here", s.Buf)
		}
		if s.Index.Type() != ir.Int32 {
			vr.fail("store index of %s is %s, not int32", s.Buf, s.Index.Type())
		}
	case *ir.LoadVector:
		if _, loads, _, ok := s.VectorLanes(); !ok || s.Lanes != 2 && s.Lanes != 4 {
			vr.fail("a vector load of %d lanes does not start with as many lets of loads from one buffer", s.Lanes)
		} else {
			for i, l := range loads {
				if d, ok := ir.AsInt(ir.Simplify(ir.SubE(l.Index, loads[0].Index))); !ok || d != int64(i) {
					vr.fail("lane %d of a vector load of %s reads index %s, not the first lane's plus %d", i, l.Buf, ir.ExprString(l.Index), i)
				}
			}
		}
		vr.stmt(s.Body)
	case *ir.StoreVector:
		if stores, ok := s.VectorStores(); !ok || !ir.VectorLanesOK(stores[0].Value.Type(), s.Lanes) {
			vr.fail("a vector store of %d lanes is not as many stores of a vector type to one buffer at consecutive indexes", s.Lanes)
		}
		vr.stmt(s.Body)
	case *ir.Comment, *ir.Barrier:
	case *ir.Launch:
		// A kernel body sees only its arguments and its index variables.
		k := s.Kernel
		inner := &verifier{st: vr.st, defined: map[string]int{}, bufs: map[string]int{}}
		for _, a := range k.Args {
			if a.IsBuffer {
				inner.bufs[a.Name]++
				if vr.bufs[a.Name] == 0 {
					vr.fail("kernel %s takes buffer %s, which is not allocated at the launch", k.Name, a.Name)
				}
			} else {
				inner.defined[a.Name]++
				if vr.st.boundsDone && vr.defined[a.Name] == 0 {
					vr.fail("kernel %s takes %s, which is not defined at the launch", k.Name, a.Name)
				}
			}
		}
		for d := 0; d < 3; d++ {
			inner.defined[ir.ThreadID[d]]++
			inner.defined[ir.BlockID[d]]++
			vr.expr(k.Grid[d])
		}
		inner.stmt(k.Body)
		if inner.err != nil {
			vr.fail("in kernel %s: %v", k.Name, inner.err)
		}
		// The kernel contract, once its shared memory is laid out.
		if vr.st.sharedLaidOut {
			if err := k.Verify(); err != nil {
				vr.fail("kernel %s: %v", k.Name, err)
			}
		}
	default:
		vr.fail("unknown statement %T", s)
	}
}
