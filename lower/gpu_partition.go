package lower

// gpu_partition: give each kernel a steady state without its tail guards,
// as Halide's PartitionLoops does for loops, here for the blocks of a
// kernel. A guard marked likely (the tail of a GuardWithIf split, a copy of
// an unrolled loop past a tail's end) is true for every thread of most
// blocks: all but the last ones along a dimension. Over the block's threads
// and the loops inside the kernel, the bounds package finds a condition on
// the block indices and the kernel's arguments alone that implies the guard
// (the lower end of the guard's interval). The body becomes
//
//	if (all those conditions) { body without those guards } else { body }
//
// at the top of the kernel, after its shared allocations. The condition is
// the same for every thread of a block, so both branches keep the barriers
// every thread must reach. A guard that holds for every thread of every
// block (the m guards of a tile that divides its extent, given the thread
// indices' ranges) is removed from both. A guard whose condition reads
// memory is left alone.
//
// Before: gpu_shared_reuse (the layout holds in both branches: each runs the
// body's statements in the same order). After: each kernel body is
// partitioned where it has such guards: a new kernel (ir.Kernel.WithBody,
// which recomputes the arguments); a kernel without such guards is left
// as it was (the same *ir.Kernel).

import (
	"github.com/gohalide/gohalide/bounds"
	"github.com/gohalide/gohalide/ir"
)

func gpuPartition(st *State) error {
	return optimizeKernels(st, "gpu_partition", partitionKernel)
}

// partitionKernel returns k with its body partitioned, or k itself when it
// has no guard to drop.
func partitionKernel(k *ir.Kernel) *ir.Kernel {
	// The thread indices range over the block.
	threads := bounds.Scope{}
	for d, b := range k.Block {
		if n, ok := ir.AsInt(ir.Simplify(b)); ok && n >= 1 {
			threads[ir.ThreadID[d]] = bounds.Interval{Min: ir.Int(0), Max: ir.Int(n - 1)}
		}
	}
	// Below the hoisted shared allocations.
	var allocs []*ir.Allocate
	body := k.Body
	for {
		a, ok := body.(*ir.Allocate)
		if !ok || a.Memory != ir.GPUShared {
			break
		}
		allocs = append(allocs, a)
		body = a.Body
	}
	var conds []ir.Expr
	// Each guard is decided once: both walks below meet the same guards in
	// the same order, so the second reads the first's decisions by
	// position (not by node: one guard node may stand in several places,
	// under other loops and lets, and mean something else in each). The
	// proofs of one kernel share a budget: a kernel of thousands of
	// unrolled guards over long expressions stops looking for fast paths
	// rather than lowering for seconds (the guards stay, which is always
	// correct).
	type decision struct{ cond, lo ir.Expr }
	var decided []decision
	budget := &proofBudget{left: maxPartitionProofs}
	// strong is the fast path's condition (nil while it is not known):
	// with it, the fast path also drops a guard that is not marked likely
	// when the condition implies it (a cooperative load's guard on a
	// region clamped to the input, which a full block never needs).
	var strong []ir.Expr
	always := func(s ir.Stmt, partition bool) ir.Stmt {
		sc := &walkScope{lets: newSharedLetValues()}
		next := 0
		return walkScoped(s, sc, func(x ir.Stmt) ir.Stmt {
			g, ok := x.(*ir.IfThenElse)
			if !ok || g.Else != nil {
				return x
			}
			likely, cond := unlikely(g.Cond)
			var lo ir.Expr
			seen := next < len(decided) && decided[next].cond == g.Cond
			if seen {
				lo = decided[next].lo
			}
			next++
			if !seen {
				record := func(lo ir.Expr) {
					if next-1 == len(decided) {
						decided = append(decided, decision{g.Cond, lo})
					}
				}
				c := sc.lets.resolve(cond)
				if hasLoad(c) {
					record(nil)
					return x
				}
				scope := bounds.Scope{}
				for n, iv := range threads {
					scope[n] = iv
				}
				for _, l := range sc.loops {
					mn := sc.lets.resolve(l.Min)
					scope[l.Name] = bounds.Interval{Min: mn, Max: sc.lets.simplify(ir.SubE(ir.AddE(mn, sc.lets.resolve(l.Extent)), ir.Int(1)))}
				}
				if lo = sufficient(sc.lets.simplify(c), scope, budget); lo != nil {
					lo = ir.Simplify(lo)
				}
				record(lo)
			}
			if lo == nil {
				return x
			}
			if ir.IsConstValue(lo, 1) {
				return g.Then // true for every thread of every block
			}
			if !partition || ir.IsConstValue(lo, 0) || hasLoad(lo) || threadOrLoopDependent(lo, sc.loops) {
				return x
			}
			if !likely {
				if strong != nil && impliedBy(lo, strong) {
					return g.Then
				}
				return x
			}
			conds = append(conds, lo)
			return g.Then
		})
	}
	slow := always(body, false)
	fast := always(body, true)
	if slow == body && len(conds) == 0 {
		return k
	}
	if len(conds) > 0 {
		// Again, knowing the condition: the guards it implies go too.
		// The decisions are made, so this walk proves nothing new, and
		// it collects the same conditions.
		strong = strongest(conds)
		conds = nil
		fast = always(body, true)
	}
	var uniform ir.Expr
	for _, c := range strongest(conds) {
		uniform = and(uniform, c)
	}
	if uniform != nil {
		u := ir.Simplify(uniform)
		switch {
		case ir.IsConstValue(u, 1):
			body = fast
		case ir.IsConstValue(u, 0):
			body = slow
		default:
			body = &ir.IfThenElse{Cond: u, Then: fast, Else: slow}
		}
	} else {
		body = slow
	}
	for i := len(allocs) - 1; i >= 0; i-- {
		a := *allocs[i]
		a.Body = body
		body = &a
	}
	body = ir.SimplifyStmt(body)
	if body == nil {
		body = &ir.Block{}
	}
	return k.WithBody(body)
}

// sufficient returns a condition, free of the variables of scope, that
// implies the boolean c for every value of those variables in their
// ranges, or nil. A comparison with a min or a max is split first (x <
// min(a, b) is x < a && x < b), so that terms on both sides cancel before
// the ranges are used: bx*64 + ty*4 < min(bx*64 + ty*4 + 4, n) needs
// bx*64 + ty*4 < n, which holds for every ty in [0, 15] when bx*64 + 60 < n.
func sufficient(c ir.Expr, scope bounds.Scope, budget *proofBudget) ir.Expr {
	b, ok := c.(*ir.Binary)
	if !ok {
		if ir.IsConstValue(c, 1) {
			return c
		}
		return nil
	}
	both := func(op ir.BinOp, x, y ir.Expr) ir.Expr {
		sx, sy := sufficient(x, scope, budget), sufficient(y, scope, budget)
		switch {
		case op == ir.And && sx != nil && sy != nil:
			return ir.AndE(sx, sy)
		case op == ir.Or && sx != nil && sy != nil:
			return ir.Bin(ir.Or, sx, sy)
		case op == ir.Or && sx != nil:
			return sx
		case op == ir.Or && sy != nil:
			return sy
		}
		return nil
	}
	switch b.Op {
	case ir.And, ir.Or:
		return both(b.Op, b.A, b.B)
	case ir.GT:
		return sufficient(ir.Bin(ir.LT, b.B, b.A), scope, budget)
	case ir.GE:
		return sufficient(ir.Bin(ir.LE, b.B, b.A), scope, budget)
	case ir.LT, ir.LE:
	default:
		return nil
	}
	if b.A.Type() != ir.Int32 {
		return nil
	}
	op := b.Op
	cmp := func(x, y ir.Expr) ir.Expr {
		c := ir.Bin(op, x, y)
		if !budget.spend(exprSize(c, budget.left)) {
			return ir.Int(0) // not proven: no sufficient condition below
		}
		return ir.Simplify(c)
	}
	if m, ok := b.B.(*ir.Binary); ok && (m.Op == ir.Min || m.Op == ir.Max) {
		join := ir.And // x < min(a, b): both
		if m.Op == ir.Max {
			join = ir.Or
		}
		return both(join, cmp(b.A, m.A), cmp(b.A, m.B))
	}
	if m, ok := b.A.(*ir.Binary); ok && (m.Op == ir.Min || m.Op == ir.Max) {
		join := ir.And // max(a, b) < y: both
		if m.Op == ir.Min {
			join = ir.Or
		}
		return both(join, cmp(m.A, b.B), cmp(m.B, b.B))
	}
	// x < y is x - y <= -1; x <= y is x - y <= 0: bound the difference's
	// largest value over the scope.
	diff := ir.Simplify(ir.SubE(b.A, b.B))
	if !budget.spend(exprSize(diff, budget.left)) {
		return nil
	}
	hi := bounds.Of(diff, scope).Max
	if hi == nil {
		return nil
	}
	limit := int64(0)
	if op == ir.LT {
		limit = -1
	}
	return ir.Simplify(ir.LTE(hi, ir.Int(limit+1)))
}

// maxPartitionProofs bounds the work of gpu_partition's proofs in one
// kernel, in expression nodes bounded over the threads' ranges. The app
// kernels spend up to about 25,000 (gemm with split K); a random program
// with hundreds of unrolled guards over long expressions spent millions
// (seconds of Lower) before the budget.
const maxPartitionProofs = 50000

// proofBudget counts down the comparisons a kernel may still bound.
type proofBudget struct{ left int }

func (b *proofBudget) spend(nodes int) bool {
	if nodes > b.left {
		b.left = 0
		return false
	}
	b.left -= nodes
	return true
}

// strongest drops the conditions another one implies: of a < b - 60 and
// a < b - 63 it keeps the second (their differences a - b + k differ by a
// constant), and repeated conditions once.
func strongest(conds []ir.Expr) []ir.Expr {
	diffs := make([]ir.Expr, len(conds))
	for i, c := range conds {
		diffs[i] = ltDiff(c)
	}
	var out []ir.Expr
	drop := make([]bool, len(conds))
	for j, cj := range conds {
		dj := diffs[j]
		for i, ci := range conds {
			if i == j || drop[i] {
				continue
			}
			if ir.Equal(ci, cj) && i < j {
				drop[j] = true // a repeat
				break
			}
			di := diffs[i]
			if di == nil || dj == nil {
				continue
			}
			// ci is di < 0, cj is dj < 0; ci implies cj when dj <= di.
			if k, ok := ir.AsInt(ir.Simplify(ir.SubE(di, dj))); ok && (k > 0 || k == 0 && i < j) {
				drop[j] = true
				break
			}
		}
		if !drop[j] {
			out = append(out, cj)
		}
	}
	return out
}

// ltDiff returns a - b, simplified, for an int32 condition a < b (the
// condition is then a - b < 0), and nil for any other condition.
func ltDiff(c ir.Expr) ir.Expr {
	if b, ok := c.(*ir.Binary); ok && b.Op == ir.LT && b.A.Type() == ir.Int32 {
		return ir.Simplify(ir.SubE(b.A, b.B))
	}
	return nil
}

// impliedBy reports whether the conditions conds (strongest's result)
// imply c: each conjunct of c is one of them or weaker than one of them in
// strongest's sense (as strongest(conds + c) would drop c). One pass over
// conds.
func impliedBy(c ir.Expr, conds []ir.Expr) bool {
	if b, ok := c.(*ir.Binary); ok && b.Op == ir.And {
		return impliedBy(b.A, conds) && impliedBy(b.B, conds)
	}
	dc := ltDiff(c)
	for _, ci := range conds {
		if ir.Equal(ci, c) {
			return true
		}
		if dc == nil {
			continue
		}
		// ci is di < 0 and c is dc < 0: ci implies c when dc <= di.
		if di := ltDiff(ci); di != nil {
			if k, ok := ir.AsInt(ir.Simplify(ir.SubE(di, dc))); ok && k >= 0 {
				return true
			}
		}
	}
	return false
}

// unlikely strips the likely marker of a guard's condition.
func unlikely(c ir.Expr) (bool, ir.Expr) {
	if call, ok := c.(*ir.Call); ok && call.Kind == ir.CallIntrinsic && call.Name == ir.IntrinsicLikely && len(call.Args) == 1 {
		return true, call.Args[0]
	}
	return false, c
}

// threadOrLoopDependent reports whether e uses a thread index or the
// variable of a loop inside the kernel.
func threadOrLoopDependent(e ir.Expr, loops []*ir.For) bool {
	return ir.UsesAny(e, func(n string) bool {
		for _, t := range ir.ThreadID {
			if n == t {
				return true
			}
		}
		for _, l := range loops {
			if n == l.Name {
				return true
			}
		}
		return false
	})
}
