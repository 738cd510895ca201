package cpu

import (
	"fmt"

	"github.com/gohalide/gohalide/ir"
)

// loadVector runs a LoadVector's body, after checking the promise the mark
// makes to a backend that loads its lanes as one vector: the first lane's
// index is a multiple of the lane count. A broken promise is a compiler
// bug (an Internal error): on a GPU the vector load would be misaligned.
func (c *compiler) loadVector(s *ir.LoadVector) stmtFn {
	_, loads, _, ok := s.VectorLanes()
	if !ok {
		c.fail("a vector load of %d lanes does not start with %d lets of loads from one buffer", s.Lanes, s.Lanes)
	}
	idx := c.expr(loads[0].Index)
	if idx.t.IsFloat() {
		c.fail("vector load of %s has a float index", loads[0].Buf)
	}
	index, lanes, buf := idx.i, int64(s.Lanes), loads[0].Buf
	body := c.stmt(s.Body)
	return func(f *frame) {
		if i := index(f); i%lanes != 0 {
			panic(&Error{Kind: Internal, Buffer: buf, Index: i,
				Msg: fmt.Sprintf("vector load of %d lanes of %s at index %d, not a multiple of %d", lanes, buf, i, lanes)})
		}
		body(f)
	}
}

// storeVector runs a StoreVector's stores, after checking the promise the
// mark makes (see loadVector): the first lane's index is a multiple of the
// lane count. The lanes' values are all evaluated before the first store,
// as one vector store would.
func (c *compiler) storeVector(s *ir.StoreVector) stmtFn {
	stores, ok := s.VectorStores()
	if !ok {
		c.fail("a vector store of %d lanes is not as many stores to one buffer at consecutive indexes", s.Lanes)
	}
	idx := c.expr(stores[0].Index)
	if idx.t.IsFloat() {
		c.fail("vector store to %s has a float index", stores[0].Buf)
	}
	index, lanes, buf := idx.i, int64(s.Lanes), stores[0].Buf
	// Each lane's value is bound to a let evaluated first, then the
	// stores read the lets: one vector's worth of values, then the writes.
	names := make([]string, len(stores))
	plain := make([]ir.Stmt, len(stores))
	for i, st := range stores {
		// No name of the IR has a space: these cannot shadow one.
		names[i] = fmt.Sprintf("vector lane %d of %s", i, buf)
		p := *st
		p.Value = &ir.Var{T: st.Value.Type(), Name: names[i]}
		plain[i] = &p
	}
	var body ir.Stmt = &ir.Block{Stmts: plain}
	for i := len(stores) - 1; i >= 0; i-- {
		body = &ir.LetStmt{Name: names[i], Value: stores[i].Value, Body: body}
	}
	run := c.stmt(body)
	return func(f *frame) {
		if i := index(f); i%lanes != 0 {
			panic(&Error{Kind: Internal, Buffer: buf, Index: i,
				Msg: fmt.Sprintf("vector store of %d lanes to %s at index %d, not a multiple of %d", lanes, buf, i, lanes)})
		}
		run(f)
	}
}
