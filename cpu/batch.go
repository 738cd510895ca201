package cpu

// Batched innermost loops.
//
// Running a loop body through closures costs a few nanoseconds per IR node
// per iteration: a GEMM's inner statement, c[idx] = c[idx] + A[idx'] *
// B[idx''], is about 25 closure calls, 50 ns per multiply-add. An innermost
// loop whose body is one store of float32 or int32 is instead compiled to
// batches: each node of its value is evaluated for batchLanes iterations at
// once by a tight Go loop over a slice, and the store writes the batch:
//   - a load with an index affine in the loop variable reads a run of the
//     buffer (no copy) or a stride; a load at an index the loop does not
//     change is read once per batch, as are loop-invariant subexpressions
//     without loads, and an operation with such an operand is one loop;
//   - a load at a clamped affine index, min(max(v, lo), hi)*m + a with v
//     affine (a repeated edge), reads a run or a stride for the lanes
//     between lo and hi and one element for those beyond, without making
//     the index (clampedF);
//   - a float32 sum of lanes and a product of lanes and a uniform value
//     (a GEMM's c + a*b[j]) is one pass (fusedAdd);
//   - any other index is made in one pass, its clamp (a repeated edge's
//     min(max(x - 1, lo), hi)) and the stride and offset applied after it
//     included, then gathered. The semantics are the closures': float32
// operations rounded to float32 one by one, int32 wrapped, min and max as
// math.Min and math.Max.
//
// A batch checks every index before it writes anything. When an index is
// out of bounds, or the loop's shape is not what the batch assumed (a
// store whose stride is 0 while the loop reads the stored buffer), the
// batch runs through the scalar closures instead, which report the error
// at the same iteration, with the same writes before it, as without
// batches. The stop flag is checked once per batch.
//
// Not batched (the closures run as before): bodies other than one store,
// other element types, selects, comparisons, divisions of integers, casts
// other than int32 to float32, atomic stores, buffers the emulator
// watches, and loops that read the buffer they store to at an index other
// than the store's.

import (
	"math"

	"github.com/gohalide/gohalide/ir"
)

// batchLanes is the number of iterations a batch evaluates at once, and
// batchMin the fewest a loop must run for batches to pay (shorter loops,
// such as an emulated thread's few iterations, run through the closures).
const (
	batchLanes = 256
	batchMin   = 16
)

// batching turns batched loops on; tests turn it off to compare.
var batching = true

// batchFn runs iterations [v0, v0+n) of a batched loop; false means the
// batch wrote nothing and must run through the scalar body.
type batchFn func(f *frame, v0 int64, n int) bool

type (
	lanesF func(f *frame, v0 int64, n int) ([]float32, bool)
	lanesI func(f *frame, v0 int64, n int) ([]int64, bool)
)

// batcher compiles one loop's body to batches.
type batcher struct {
	c       *compiler
	loopVar string
	slot    int    // the loop variable's int slot
	stored  string // the buffer the body stores to
	index   string // the text of the store's index
}

// scratchF returns lane buffer id of the frame with room for n lanes
// (per goroutine: frames of a parallel loop's goroutines, and of the
// emulator's threads, have their own), allocated on first use at the size
// the loop needs.
func (f *frame) scratchF(id, n int) []float32 { return scratch(&f.lanesF, id, n) }

func (f *frame) scratchI(id, n int) []int64 { return scratch(&f.lanesI, id, n) }

// scratch is n lanes of the buffer id of bufs, grown as needed.
func scratch[E float32 | int64](bufs *[][]E, id, n int) []E {
	for len(*bufs) <= id {
		*bufs = append(*bufs, nil)
	}
	if cap((*bufs)[id]) < n {
		(*bufs)[id] = make([]E, lanesFor(n))
	}
	return (*bufs)[id][:n]
}

// lanesFor rounds n up to a power of two, at most batchLanes.
func lanesFor(n int) int {
	c := 16
	for c < n {
		c *= 2
	}
	return min(c, batchLanes)
}

// batchLoop returns the batched form of loop s, whose variable is bound to
// slot, or nil when s does not fit (see the package comment above).
func (c *compiler) batchLoop(s *ir.For, slot int) batchFn {
	st, ok := s.Body.(*ir.Store)
	if !batching || !ok || st.Atomic {
		return nil
	}
	t := st.Value.Type()
	if t != ir.Float32 && t != ir.Int32 {
		return nil
	}
	bt := &batcher{c: c, loopVar: s.Name, slot: slot, stored: st.Buf, index: ir.ExprString(st.Index)}
	if !bt.accessible(st.Buf) {
		return nil
	}
	// The stored buffer may be read only where the same iteration
	// stores, and then only if iterations store to distinct elements.
	readsStored := false
	clean := true
	ir.WalkExpr(st.Value, func(e ir.Expr) bool {
		if l, ok := e.(*ir.Load); ok && l.Buf == st.Buf {
			readsStored = true
			if ir.ExprString(l.Index) != bt.index {
				clean = false
			}
		}
		return clean
	})
	if !clean {
		return nil
	}
	idxAffine := bt.affine(st.Index)
	if readsStored && idxAffine == nil {
		return nil
	}
	b := c.bufs[st.Buf]
	if b == nil || b.t != t {
		return nil
	}
	bufSlot := b.slot
	var idx lanesI
	if idxAffine == nil {
		if idx = bt.ints(st.Index); idx == nil {
			return nil
		}
	}
	if t == ir.Float32 {
		val := bt.floats(st.Value)
		if val == nil {
			return nil
		}
		return storeBatch[float32](bufSlot, idxAffine, idx, readsStored, val)
	}
	val := bt.ints(st.Value)
	if val == nil {
		return nil
	}
	return storeBatch[int32](bufSlot, idxAffine, idx, readsStored, val)
}

// storeBatch is the store of a batched loop into a []E from lanes of V:
// at an affine index (a run or a stride) or at the lanes of idx, every
// index checked before anything is written.
func storeBatch[E float32 | int32, V float32 | int64](bufSlot int, aff *affineIndex, idx lanesI, readsStored bool,
	val func(*frame, int64, int) ([]V, bool)) batchFn {
	return func(f *frame, v0 int64, n int) bool {
		s, _ := f.bufs[bufSlot].([]E)
		if aff != nil {
			base, stride := aff.at(f, v0)
			if readsStored && stride == 0 || !inRange(base, stride, n, len(s)) {
				return false
			}
			v, ok := val(f, v0, n)
			if !ok {
				return false
			}
			if stride == 1 {
				dst := s[base : base+int64(n)]
				if same, ok := any(v[:n]).([]E); ok {
					copy(dst, same) // float32 lanes into a float32 buffer
					return true
				}
				v = v[:len(dst)]
				for k := range dst {
					dst[k] = E(v[k])
				}
				return true
			}
			for k := 0; k < n; k++ {
				s[base+int64(k)*stride] = E(v[k])
			}
			return true
		}
		v, ok := val(f, v0, n)
		if !ok {
			return false
		}
		is, ok := idx(f, v0, n)
		if !ok || !allInRange(is[:n], len(s)) {
			return false
		}
		for k, i := range is[:n] {
			s[i] = E(v[k])
		}
		return true
	}
}

// inRange reports whether base + k*stride is in [0, size) for k in [0, n).
func inRange(base, stride int64, n, size int) bool {
	last := base + int64(n-1)*stride
	return uint64(base) < uint64(size) && uint64(last) < uint64(size)
}

func allInRange(is []int64, size int) bool {
	for _, i := range is {
		if uint64(i) >= uint64(size) {
			return false
		}
	}
	return true
}

// accessible reports whether buf may be read or written by batches: known,
// not watched by the emulator.
func (bt *batcher) accessible(buf string) bool {
	b := bt.c.bufs[buf]
	return b != nil && b.typed && b.watch < 0 && !b.atomic
}

// affineIndex is an int32 index base + v*stride in the loop variable v,
// with base (the index at the batch's first iteration) and stride computed
// once per batch.
type affineIndex struct {
	slot   int
	idx    intFn // the index, read with the loop variable set
	stride intFn
}

// at returns the index at iteration v0 and the stride.
func (a *affineIndex) at(f *frame, v0 int64) (int64, int64) {
	f.ints[a.slot] = v0
	return a.idx(f), a.stride(f)
}

// affine returns e as an affine index, or nil. e must be an int32
// polynomial (+, -, *) of variables and constants in which the loop
// variable is never multiplied by itself: its value, wrapped to 32 bits,
// is then base + v*stride modulo 2^32.
func (bt *batcher) affine(e ir.Expr) *affineIndex {
	if e.Type() != ir.Int32 || !polynomial(e) {
		return nil
	}
	stride := coefficient(e, bt.loopVar)
	if stride == nil {
		return nil
	}
	stride = ir.Simplify(stride)
	return &affineIndex{slot: bt.slot, idx: bt.c.intExpr(e, "index").i, stride: bt.c.intExpr(stride, "stride").i}
}

// coefficient returns the coefficient of v in the polynomial e, an
// expression free of v, or nil when e is not affine in v (v times v).
// Distributing over + and - is exact modulo 2^32.
func coefficient(e ir.Expr, v string) ir.Expr {
	switch x := e.(type) {
	case *ir.Var:
		if x.Name == v {
			return ir.Int(1)
		}
		return ir.Int(0)
	case *ir.IntImm:
		return ir.Int(0)
	case *ir.Binary:
		ua, ub := ir.Uses(x.A, v), ir.Uses(x.B, v)
		if !ua && !ub {
			return ir.Int(0)
		}
		switch x.Op {
		case ir.Add, ir.Sub:
			ca, cb := coefficient(x.A, v), coefficient(x.B, v)
			if ca == nil || cb == nil {
				return nil
			}
			return ir.Bin(x.Op, ca, cb)
		case ir.Mul:
			if ua && ub {
				return nil
			}
			if ua {
				ca := coefficient(x.A, v)
				if ca == nil {
					return nil
				}
				return ir.MulE(ca, x.B)
			}
			cb := coefficient(x.B, v)
			if cb == nil {
				return nil
			}
			return ir.MulE(x.A, cb)
		}
	}
	return nil
}

func polynomial(e ir.Expr) bool {
	ok := true
	ir.WalkExpr(e, func(x ir.Expr) bool {
		switch x := x.(type) {
		case *ir.IntImm, *ir.Var:
		case *ir.Binary:
			if x.Op != ir.Add && x.Op != ir.Sub && x.Op != ir.Mul {
				ok = false
			}
		default:
			ok = false
		}
		return ok
	})
	return ok
}

// invariant reports whether e reads neither the loop variable nor memory:
// it is evaluated once per batch.
func (bt *batcher) invariant(e ir.Expr) bool {
	return !ir.Uses(e, bt.loopVar) && !hasLoadExpr(e)
}

func hasLoadExpr(e ir.Expr) bool {
	return ir.ContainsExpr(e, func(x ir.Expr) bool {
		switch x.(type) {
		case *ir.Load, *ir.Let:
			return true
		}
		return false
	})
}

// newF and newI allocate a lane buffer id.
func (bt *batcher) newF() int { bt.c.nLanesF++; return bt.c.nLanesF - 1 }
func (bt *batcher) newI() int { bt.c.nLanesI++; return bt.c.nLanesI - 1 }

// floats compiles a float32 expression to lanes, or returns nil.
func (bt *batcher) floats(e ir.Expr) lanesF {
	n := bt.floatNode(e)
	if n == nil {
		return nil
	}
	if n.vec != nil {
		return n.vec
	}
	uni, id := n.uni, bt.newF()
	return func(f *frame, v0 int64, cnt int) ([]float32, bool) {
		k, ok := uni(f)
		if !ok {
			return nil, false
		}
		out := f.scratchF(id, cnt)
		for i := range out {
			out[i] = k
		}
		return out, true
	}
}

// floatNode is a float32 expression over a batch: lanes, or one value for
// every lane (uni: loop-invariant, evaluated once per batch; false when
// it loads out of bounds).
type floatNode struct {
	vec lanesF
	uni func(*frame) (float32, bool)
	// A product of lanes and a uniform value (vec is then that
	// product, made in its own pass) also keeps its operands, so that an
	// Add of it is one pass (fusedAdd): scaled * scale, or scale *
	// scaled when scaleFirst.
	scaled     lanesF
	scale      func(*frame) (float32, bool)
	scaleFirst bool
}

func (bt *batcher) floatNode(e ir.Expr) *floatNode {
	if e.Type() != ir.Float32 {
		return nil
	}
	if bt.invariant(e) {
		x := bt.c.expr(e).f
		return &floatNode{uni: func(f *frame) (float32, bool) { return float32(x(f)), true }}
	}
	switch e := e.(type) {
	case *ir.Load:
		if !ir.Uses(e.Index, bt.loopVar) && !hasLoadExpr(e.Index) && bt.accessible(e.Buf) && bt.c.bufs[e.Buf].t == ir.Float32 {
			// A load at an index the loop does not change (A[i, k] in
			// a GEMM's j loop): once per batch.
			idx, slot := bt.c.expr(e.Index).i, bt.c.bufs[e.Buf].slot
			return &floatNode{uni: func(f *frame) (float32, bool) {
				s, _ := f.bufs[slot].([]float32)
				i := idx(f)
				if uint64(i) >= uint64(len(s)) {
					return 0, false
				}
				return s[i], true
			}}
		}
		if l := bt.loadF(e); l != nil {
			return &floatNode{vec: l}
		}
	case *ir.Cast:
		if e.X.Type() != ir.Int32 {
			return nil
		}
		x := bt.ints(e.X)
		if x == nil {
			return nil
		}
		id := bt.newF()
		return &floatNode{vec: func(f *frame, v0 int64, n int) ([]float32, bool) {
			a, ok := x(f, v0, n)
			if !ok {
				return nil, false
			}
			out := f.scratchF(id, n)
			for i := range out {
				out[i] = float32(a[i])
			}
			return out, true
		}}
	case *ir.Binary:
		x, y := bt.floatNode(e.A), bt.floatNode(e.B)
		if x == nil || y == nil || floatLanesOp(e.Op) == nil {
			return nil
		}
		return bt.floatBinary(e.Op, x, y)
	}
	return nil
}

// floatBinary combines two nodes, not both uniform (that is invariant,
// or two invariant loads: then one value, computed per batch).
func (bt *batcher) floatBinary(op ir.BinOp, x, y *floatNode) *floatNode {
	scalar := floatScalarOp(op)
	if x.uni != nil && y.uni != nil {
		xu, yu := x.uni, y.uni
		return &floatNode{uni: func(f *frame) (float32, bool) {
			a, ok := xu(f)
			if !ok {
				return 0, false
			}
			b, ok := yu(f)
			if !ok {
				return 0, false
			}
			return scalar(a, b), true
		}}
	}
	id := bt.newF()
	if op == ir.Add && x.vec != nil && y.vec != nil && (x.scaled != nil || y.scaled != nil) {
		return bt.fusedAdd(x, y)
	}
	if x.uni != nil || y.uni != nil {
		vec, uni, swapped := x.vec, y.uni, false
		if x.uni != nil {
			vec, uni, swapped = y.vec, x.uni, true
		}
		var scaled lanesF
		if op == ir.Mul {
			scaled = vec
		}
		return &floatNode{scaled: scaled, scale: uni, scaleFirst: swapped, vec: func(f *frame, v0 int64, n int) ([]float32, bool) {
			k, a, ok := uniformAndLanes(f, v0, n, uni, vec)
			if !ok {
				return nil, false
			}
			out := f.scratchF(id, n)
			floatLanesOpScalar(op, out, a, k, swapped)
			return out, true
		}}
	}
	return &floatNode{vec: zipLanes(x.vec, y.vec, (*frame).scratchF, id, floatLanesOp(op))}
}

// zipLanes is the lanes of lanes(out, a, b), a and b the lanes of x and y
// and out the scratch lanes id: a binary operation of two batched
// operands, not uniform.
func zipLanes[E float32 | int64](x, y func(*frame, int64, int) ([]E, bool), scratch func(f *frame, id, n int) []E, id int,
	lanes func(out, a, b []E)) func(*frame, int64, int) ([]E, bool) {
	return func(f *frame, v0 int64, n int) ([]E, bool) {
		a, ok := x(f, v0, n)
		if !ok {
			return nil, false
		}
		b, ok := y(f, v0, n)
		if !ok {
			return nil, false
		}
		out := scratch(f, id, n)
		lanes(out, a[:n], b[:n])
		return out, true
	}
}

// uniformAndLanes evaluates the operands of a uniform value and lanes
// (floatBinary's scalar case, fusedAdd's product): k, the value of uni,
// and the lanes of vec; false when either is out of bounds.
func uniformAndLanes(f *frame, v0 int64, n int, uni func(*frame) (float32, bool), vec lanesF) (float32, []float32, bool) {
	k, ok := uni(f)
	if !ok {
		return 0, nil, false
	}
	a, ok := vec(f, v0, n)
	return k, a, ok
}

// fusedAdd is x + y where one of them is lanes times a uniform value k
// (a GEMM's c + a*b[j]): one pass, each product rounded to float32
// before the sum (the explicit conversion forbids a fused multiply-add),
// the operands in the IR's order, as the closures compute it.
func (bt *batcher) fusedAdd(x, y *floatNode) *floatNode {
	id := bt.newF()
	prodFirst := y.scaled == nil // x is the product
	other, p := x.vec, y
	if prodFirst {
		other, p = y.vec, x
	}
	scaled, scale, kFirst := p.scaled, p.scale, p.scaleFirst
	return &floatNode{vec: func(f *frame, v0 int64, n int) ([]float32, bool) {
		k, b, ok := uniformAndLanes(f, v0, n, scale, scaled)
		if !ok {
			return nil, false
		}
		a, ok := other(f, v0, n)
		if !ok {
			return nil, false
		}
		out := f.scratchF(id, n)
		a, b = a[:len(out)], b[:len(out)]
		switch {
		case !prodFirst && !kFirst:
			for i := range out {
				out[i] = a[i] + float32(b[i]*k)
			}
		case !prodFirst:
			for i := range out {
				out[i] = a[i] + float32(k*b[i])
			}
		case !kFirst:
			for i := range out {
				out[i] = float32(b[i]*k) + a[i]
			}
		default:
			for i := range out {
				out[i] = float32(k*b[i]) + a[i]
			}
		}
		return out, true
	}}
}

// floatLanesOpScalar is out = a op k, or k op a when swapped, one loop
// per operator.
func floatLanesOpScalar(op ir.BinOp, out, a []float32, k float32, swapped bool) {
	a = a[:len(out)]
	switch {
	case op == ir.Add:
		for i := range out {
			out[i] = a[i] + k
		}
	case op == ir.Mul:
		for i := range out {
			out[i] = a[i] * k
		}
	case op == ir.Sub && !swapped:
		for i := range out {
			out[i] = a[i] - k
		}
	case op == ir.Sub:
		for i := range out {
			out[i] = k - a[i]
		}
	case op == ir.Div && !swapped:
		for i := range out {
			out[i] = a[i] / k
		}
	case op == ir.Div:
		for i := range out {
			out[i] = k / a[i]
		}
	default: // Min, Max: symmetric
		f := floatScalarOp(op)
		for i := range out {
			out[i] = f(a[i], k)
		}
	}
}

// floatScalarOp is a op b for one pair, rounded to float32 as the
// closures do.
func floatScalarOp(op ir.BinOp) func(a, b float32) float32 {
	switch op {
	case ir.Add:
		return func(a, b float32) float32 { return a + b }
	case ir.Sub:
		return func(a, b float32) float32 { return a - b }
	case ir.Mul:
		return func(a, b float32) float32 { return a * b }
	case ir.Div:
		return func(a, b float32) float32 { return a / b }
	case ir.Min:
		return func(a, b float32) float32 { return float32(math.Min(float64(a), float64(b))) }
	case ir.Max:
		return func(a, b float32) float32 { return float32(math.Max(float64(a), float64(b))) }
	}
	return nil
}

// floatLanesOp returns out = a op b over lanes, rounded to float32 per
// operation as the closures do.
func floatLanesOp(op ir.BinOp) func(out, a, b []float32) {
	switch op {
	case ir.Add:
		return func(out, a, b []float32) {
			a, b = a[:len(out)], b[:len(out)]
			for i := range out {
				out[i] = a[i] + b[i]
			}
		}
	case ir.Sub:
		return func(out, a, b []float32) {
			a, b = a[:len(out)], b[:len(out)]
			for i := range out {
				out[i] = a[i] - b[i]
			}
		}
	case ir.Mul:
		return func(out, a, b []float32) {
			a, b = a[:len(out)], b[:len(out)]
			for i := range out {
				out[i] = a[i] * b[i]
			}
		}
	case ir.Div:
		return func(out, a, b []float32) {
			a, b = a[:len(out)], b[:len(out)]
			for i := range out {
				out[i] = a[i] / b[i]
			}
		}
	case ir.Min:
		return func(out, a, b []float32) {
			a, b = a[:len(out)], b[:len(out)]
			for i := range out {
				out[i] = float32(math.Min(float64(a[i]), float64(b[i])))
			}
		}
	case ir.Max:
		return func(out, a, b []float32) {
			a, b = a[:len(out)], b[:len(out)]
			for i := range out {
				out[i] = float32(math.Max(float64(a[i]), float64(b[i])))
			}
		}
	}
	return nil
}

// ints compiles an int32 expression to lanes (int64 lanes holding int32
// values), or returns nil.
func (bt *batcher) ints(e ir.Expr) lanesI {
	n := bt.intNode(e)
	if n == nil {
		return nil
	}
	return bt.materialize(n)
}

// intNode is an int32 expression over a batch: uni, the same value in
// every lane (loop-invariant, evaluated once per batch), or a source of
// lanes, then optionally clamped, then times mul plus add, all in the one
// pass that materializes it:
//
//	lane k = int32(min(max(src(k), lo), hi) * mul + add)
//
// with src(k) = base + k*stride for an affine subexpression (aff) or the
// lanes of vec, lo, hi, mul and add loop-invariant (nil: absent, 1, 0).
// So (min(max(x - 1, lo), hi) - m) * s + r, the index of a load through a
// repeated edge, costs one pass.
type intNode struct {
	uni      intFn
	aff      *affineIndex
	vec      lanesI
	lo, hi   intFn
	mul, add intFn
}

func (bt *batcher) intNode(e ir.Expr) *intNode {
	if e.Type() != ir.Int32 {
		return nil
	}
	if bt.invariant(e) {
		return &intNode{uni: bt.c.expr(e).i}
	}
	if a := bt.affine(e); a != nil {
		return &intNode{aff: a}
	}
	switch e := e.(type) {
	case *ir.Load:
		if l := bt.loadI(e); l != nil {
			return &intNode{vec: l}
		}
	case *ir.Binary:
		x, y := bt.intNode(e.A), bt.intNode(e.B)
		if x == nil || y == nil {
			return nil
		}
		return bt.intBinary(e.Op, x, y)
	}
	return nil
}

// intBinary combines two nodes, not both uniform (that is invariant).
func (bt *batcher) intBinary(op ir.BinOp, x, y *intNode) *intNode {
	if x.uni != nil && (op == ir.Add || op == ir.Mul || op == ir.Min || op == ir.Max) {
		x, y = y, x // uniform second
	}
	if y.uni != nil && x.uni == nil {
		k, mul, add := y.uni, x.mul, x.add
		n := *x
		transformed := x.mul != nil || x.add != nil
		switch {
		case op == ir.Add:
			n.add = func(f *frame) int64 { return orZero(add, f) + k(f) }
			return &n
		case op == ir.Sub:
			n.add = func(f *frame) int64 { return orZero(add, f) - k(f) }
			return &n
		case op == ir.Mul:
			n.mul = func(f *frame) int64 { return orOne(mul, f) * k(f) }
			n.add = func(f *frame) int64 { return orZero(add, f) * k(f) }
			return &n
		case op == ir.Max && !transformed && x.lo == nil && x.hi == nil:
			n.lo = k
			return &n
		case op == ir.Min && !transformed && x.hi == nil:
			n.hi = k
			return &n
		}
	}
	if x.uni != nil && y.uni == nil && op == ir.Sub {
		// k - (v*m + a) = v*(-m) + (k - a).
		k, mul, add := x.uni, y.mul, y.add
		n := *y
		n.mul = func(f *frame) int64 { return -orOne(mul, f) }
		n.add = func(f *frame) int64 { return k(f) - orZero(add, f) }
		return &n
	}
	switch op {
	case ir.Add, ir.Sub, ir.Mul, ir.Min, ir.Max:
	default:
		return nil
	}
	xa, ya, id := bt.materialize(x), bt.materialize(y), bt.newI()
	return &intNode{vec: zipLanes(xa, ya, (*frame).scratchI, id, func(out, a, b []int64) { intLanesOp(op, out, a, b) })}
}

func orZero(fn intFn, f *frame) int64 {
	if fn == nil {
		return 0
	}
	return fn(f)
}

func orOne(fn intFn, f *frame) int64 {
	if fn == nil {
		return 1
	}
	return fn(f)
}

// materialize returns n's lanes, in one pass.
func (bt *batcher) materialize(n *intNode) lanesI {
	if n.uni != nil {
		uni, id := n.uni, bt.newI()
		return func(f *frame, v0 int64, cnt int) ([]int64, bool) {
			out := f.scratchI(id, cnt)
			k := uni(f)
			for i := range out {
				out[i] = k
			}
			return out, true
		}
	}
	if n.aff == nil && n.lo == nil && n.hi == nil && n.mul == nil && n.add == nil {
		return n.vec
	}
	aff, vec, lo, hi, mul, add, id := n.aff, n.vec, n.lo, n.hi, n.mul, n.add, bt.newI()
	return func(f *frame, v0 int64, cnt int) ([]int64, bool) {
		out := f.scratchI(id, cnt)
		l, h := int64(math.MinInt64), int64(math.MaxInt64)
		if lo != nil {
			l = lo(f)
		}
		if hi != nil {
			h = hi(f)
		}
		m, c := orOne(mul, f), orZero(add, f)
		if aff != nil {
			base, stride := aff.at(f, v0)
			for k := range out {
				v := int64(int32(base + int64(k)*stride))
				out[k] = int64(int32(min(max(v, l), h)*m + c))
			}
			return out, true
		}
		src, ok := vec(f, v0, cnt)
		if !ok {
			return nil, false
		}
		src = src[:len(out)]
		for k := range out {
			out[k] = int64(int32(min(max(src[k], l), h)*m + c))
		}
		return out, true
	}
}

// intLanesOp is out = a op b over int32 lanes, wrapped.
func intLanesOp(op ir.BinOp, out, a, b []int64) {
	a, b = a[:len(out)], b[:len(out)]
	switch op {
	case ir.Add:
		for i := range out {
			out[i] = int64(int32(a[i] + b[i]))
		}
	case ir.Sub:
		for i := range out {
			out[i] = int64(int32(a[i] - b[i]))
		}
	case ir.Mul:
		for i := range out {
			out[i] = int64(int32(a[i] * b[i]))
		}
	case ir.Min:
		for i := range out {
			out[i] = min(a[i], b[i])
		}
	case ir.Max:
		for i := range out {
			out[i] = max(a[i], b[i])
		}
	}
}

// loadF compiles a load of a float32 buffer: a run of the buffer itself
// for a contiguous affine index, a strided copy for another affine index,
// a gather otherwise. false when an index is out of bounds.
func (bt *batcher) loadF(e *ir.Load) lanesF {
	if e.T != ir.Float32 || !bt.accessible(e.Buf) || bt.c.bufs[e.Buf].t != ir.Float32 {
		return nil
	}
	slot := bt.c.bufs[e.Buf].slot
	id := bt.newF()
	if a := bt.affine(e.Index); a != nil {
		return func(f *frame, v0 int64, n int) ([]float32, bool) {
			s, _ := f.bufs[slot].([]float32)
			base, stride := a.at(f, v0)
			if !inRange(base, stride, n, len(s)) {
				return nil, false
			}
			if stride == 1 {
				return s[base : base+int64(n)], true
			}
			out := f.scratchF(id, n)
			for k := range out {
				out[k] = s[base+int64(k)*stride]
			}
			return out, true
		}
	}
	idx := bt.ints(e.Index)
	if idx == nil {
		return nil
	}
	gather := func(f *frame, v0 int64, n int) ([]float32, bool) {
		is, ok := idx(f, v0, n)
		if !ok {
			return nil, false
		}
		s, _ := f.bufs[slot].([]float32)
		out := f.scratchF(id, n)
		is = is[:len(out)]
		for k, i := range is {
			if uint64(i) >= uint64(len(s)) {
				return nil, false
			}
			out[k] = s[i]
		}
		return out, true
	}
	if nd := bt.intNode(e.Index); nd != nil && nd.aff != nil {
		return clampedF(slot, id, nd, gather)
	}
	return gather
}

// clampedF is a float32 load at int32(min(max(v, lo), hi)*mul + add), v
// affine in the loop variable (a repeated edge's index), without making
// the index: the lanes where v < lo read one element, those where v > hi
// another, and those between a run (no copy when it is all the batch and
// contiguous) or a stride. A batch in which that is not exact (v
// decreasing or wrapping, lo > hi, the run's index wrapping) is gathered.
func clampedF(slot, id int, nd *intNode, gather lanesF) lanesF {
	aff, lo, hi, mul, add := nd.aff, nd.lo, nd.hi, nd.mul, nd.add
	return func(f *frame, v0 int64, n int) ([]float32, bool) {
		base, stride := aff.at(f, v0)
		last := base + int64(n-1)*stride
		l, h := int64(math.MinInt32), int64(math.MaxInt32)
		if lo != nil {
			l = lo(f)
		}
		if hi != nil {
			h = hi(f)
		}
		if stride <= 0 || last > math.MaxInt32 || l > h {
			return gather(f, v0, n)
		}
		m, c := int64(int32(orOne(mul, f))), int64(int32(orZero(add, f)))
		// Lanes [0, kLo) are below l, [kHi, n) above h (kLo <= kHi as
		// l <= h), [kLo, kHi) between: v = base + k*stride exactly.
		kLo, kHi := int64(0), int64(n)
		if base < l {
			kLo = min((l-base+stride-1)/stride, int64(n))
		}
		if h < base {
			kHi = 0
		} else if last > h {
			kHi = min((h-base)/stride+1, int64(n))
		}
		s, _ := f.bufs[slot].([]float32)
		size := uint64(len(s))
		var i0, step int64
		if kLo < kHi {
			i0, step = (base+kLo*stride)*m+c, stride*m
			i1 := i0 + (kHi-1-kLo)*step
			if i0 != int64(int32(i0)) || i1 != int64(int32(i1)) || uint64(i0) >= size || uint64(i1) >= size {
				return gather(f, v0, n)
			}
			if kLo == 0 && kHi == int64(n) && step == 1 {
				return s[i0 : i0+int64(n)], true
			}
		}
		out := f.scratchF(id, n)
		if kLo > 0 {
			i := int64(int32(l*m + c))
			if uint64(i) >= size {
				return nil, false
			}
			x := s[i]
			for k := range out[:kLo] {
				out[k] = x
			}
		}
		if kHi < int64(n) {
			i := int64(int32(h*m + c))
			if uint64(i) >= size {
				return nil, false
			}
			x := s[i]
			for k := range out[kHi:] {
				out[kHi+int64(k)] = x
			}
		}
		if step == 1 {
			copy(out[kLo:kHi], s[i0:])
		} else {
			for k := kLo; k < kHi; k++ {
				out[k] = s[i0+(k-kLo)*step]
			}
		}
		return out, true
	}
}

// loadI is loadF for int32 buffers.
func (bt *batcher) loadI(e *ir.Load) lanesI {
	if e.T != ir.Int32 || !bt.accessible(e.Buf) || bt.c.bufs[e.Buf].t != ir.Int32 {
		return nil
	}
	slot := bt.c.bufs[e.Buf].slot
	id := bt.newI()
	var base func(f *frame, v0 int64, n int) ([]int64, bool)
	if a := bt.affine(e.Index); a != nil {
		base = func(f *frame, v0 int64, n int) ([]int64, bool) {
			s, _ := f.bufs[slot].([]int32)
			b, stride := a.at(f, v0)
			if !inRange(b, stride, n, len(s)) {
				return nil, false
			}
			out := f.scratchI(id, n)
			for k := range out {
				out[k] = int64(s[b+int64(k)*stride])
			}
			return out, true
		}
		return base
	}
	idx := bt.ints(e.Index)
	if idx == nil {
		return nil
	}
	return func(f *frame, v0 int64, n int) ([]int64, bool) {
		is, ok := idx(f, v0, n)
		if !ok {
			return nil, false
		}
		s, _ := f.bufs[slot].([]int32)
		if !allInRange(is[:n], len(s)) {
			return nil, false
		}
		out := f.scratchI(id, n)
		for k, i := range is[:n] {
			out[k] = int64(s[i])
		}
		return out, true
	}
}
