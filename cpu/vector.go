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
