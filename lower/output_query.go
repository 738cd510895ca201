package lower

// The output bounds query (Halide's bounds query of realize(sizes)): a
// small host statement, apart from the pipeline's, that works out the
// region of the output buffer the pipeline writes for a given output
// buffer, Params and input shapes. A schedule may write past the region
// asked for: a RoundUp tail rounds the extent up to the split factor, a
// ShiftInwards tail shifts a region smaller than the factor, align_bounds
// widens it, and a scatter writes where its coordinates say. The checks of
// bounds_inference refuse such a buffer; Realize runs the query first and,
// where the region is larger than the buffer, realizes into a buffer of
// that region and copies the part asked for back (halide/realize_grow.go).
//
// The query stores, for each dimension d of the output, the least min and
// the greatest max needed at OutputQueryBuffer[2d] and [2d+1], starting
// from the buffer's own; a need that holds only in one specialization case
// is guarded by the case's condition. It is built by bufferChecks, beside
// the checks it mirrors, and wrapped in the same region lets.

import (
	"strings"

	"github.com/gohalide/gohalide/bounds"
	"github.com/gohalide/gohalide/ir"
)

// The input query (Options.QueryInputs) is built the same way for an
// input: it stores, for each dimension d of the input, the least min and
// the greatest max the pipeline reads at InputQueryBuffer[2d] and [2d+1],
// starting from what the buffer holds when it runs (the caller fills it
// with an empty region first). A pipeline with several outputs sizes the
// buffer of a Func that several outputs read with it (halide/outputs.go).

// OutputQueryBuffer is the int32 buffer of 2 x dims elements the output
// query writes the needed region to: [2d] the min and [2d+1] the max of
// dimension d.
const OutputQueryBuffer = "output.query"

// InputQueryBuffer is the int32 buffer of 2 x dims elements an input query
// writes the region read to: [2d] the min and [2d+1] the max of dimension
// d.
const InputQueryBuffer = "input.query"

// outputQuery collects the needs of the output region.
// An input query has input set: buf is InputQueryBuffer and out is nil.
type outputQuery struct {
	out   *ir.Function
	input bool
	needs []ir.Stmt
}

func (q *outputQuery) buf() string {
	if q.input {
		return InputQueryBuffer
	}
	return OutputQueryBuffer
}

func (q *outputQuery) load(i int) ir.Expr {
	return &ir.Load{T: ir.Int32, Buf: q.buf(), Index: ir.Int(int64(i))}
}

func (q *outputQuery) store(i int, e ir.Expr) ir.Stmt {
	return &ir.Store{Buf: q.buf(), Index: ir.Int(int64(i)), Value: e}
}

// need records that dimension d must cover iv (an end may be nil: no
// need), where guard holds (nil: always).
func (q *outputQuery) need(d int, iv bounds.Interval, guard ir.Expr) {
	var ss []ir.Stmt
	if iv.Min != nil {
		ss = append(ss, q.store(2*d, ir.MinE(q.load(2*d), iv.Min)))
	}
	if iv.Max != nil {
		ss = append(ss, q.store(2*d+1, ir.MaxE(q.load(2*d+1), iv.Max)))
	}
	if len(ss) == 0 {
		return
	}
	s := ir.MakeBlock(ss...)
	if guard != nil {
		s = &ir.IfThenElse{Cond: guard, Then: s}
	}
	q.needs = append(q.needs, s)
}

// tail records the need of a RoundUp split of the output's dimension d (an
// extent that is a multiple of the factor: the region grows at its max
// end) or a ShiftInwards one (an extent of at least the factor: the region
// grows at its min end, where the shifted loop starts, as in Halide).
func (q *outputQuery) tail(d int, t tailCheck) {
	mn := v(BufferVar(q.out.Name, "min", d))
	ext := v(BufferVar(q.out.Name, "extent", d))
	fac := ir.Int(int64(t.factor))
	if t.tail == ir.RoundUp {
		want := ir.MulE(ir.DivE(ir.AddE(ext, ir.Int(int64(t.factor-1))), fac), fac)
		q.need(d, bounds.Interval{Max: ir.SubE(ir.AddE(mn, want), ir.Int(1))}, t.cond)
		return
	}
	q.need(d, bounds.Interval{Min: ir.SubE(ir.AddE(mn, ext), fac)}, t.cond)
}

// stmt returns the query: the output's own region first, then the needs,
// resolved by resolve and wrapped in lets (the outermost first).
func (q *outputQuery) stmt(resolve func(ir.Stmt) ir.Stmt, lets ...[]let) ir.Stmt {
	var ss []ir.Stmt
	for d := 0; !q.input && d < len(q.out.Args); d++ {
		mn := v(BufferVar(q.out.Name, "min", d))
		ext := v(BufferVar(q.out.Name, "extent", d))
		ss = append(ss, q.store(2*d, mn), q.store(2*d+1, ir.SubE(ir.AddE(mn, ext), ir.Int(1))))
	}
	body := make([]ir.Stmt, 0, len(q.needs))
	for _, n := range q.needs {
		body = append(body, resolve(n))
	}
	s := ir.MakeBlock(body...)
	for i := len(lets) - 1; i >= 0; i-- {
		s = wrapLets(s, lets[i])
	}
	return ir.MakeBlock(append(ss, s)...)
}

// usesBufferVars reports whether s reads a buffer variable (min, extent or
// stride) of one of the buffers names that no let of s defines.
func usesBufferVars(s ir.Stmt, names []string) bool {
	if len(names) == 0 {
		return false
	}
	found := false
	ir.WalkStmt(s, func(ir.Stmt) bool { return !found }, func(e ir.Expr) bool {
		if x, ok := e.(*ir.Var); ok {
			for _, n := range names {
				for _, f := range []string{".min.", ".extent.", ".stride."} {
					if strings.HasPrefix(x.Name, n+f) {
						found = true
					}
				}
			}
		}
		return !found
	})
	return found
}
