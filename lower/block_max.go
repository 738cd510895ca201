package lower

// Sizes that hold for every block of a kernel. A shared allocation, a
// per-thread allocation or a thread loop inside a kernel may have a size
// that depends on the block (the region of f(x/2) or f(x*(255-x)) under a
// block of g). The kernel needs one size for all its blocks: the largest.
// blockMax finds it, most precise first:
//
//  1. the loops inside the block loops (serial loops, thread loops) are
//     bounded symbolically, inside out, so the size depends only on the
//     block indices and the host's values;
//  2. a constant upper bound over the block loops' ranges, where the
//     bounds package can prove one (correlated min/max, division, modulo);
//  3. otherwise, when the size still depends on a block index, the
//     maximum over the blocks, computed on the host before each launch:
//     ir.IntrinsicMaxOver nested over the block loops, which gpu_kernels
//     turns into a let before the launch (and a kernel argument).
//
// The size is therefore never the span of the whole image that bounding
// the block indices by their ranges would give.

import (
	"github.com/gohalide/gohalide/bounds"
	"github.com/gohalide/gohalide/ir"
)

// blockMax returns an upper bound of e, valid for every iteration of the
// loops enclosing it (loops, outermost first, as walkScoped keeps them)
// that lie inside the kernel, in terms of the host's values only. It
// returns nil when e has no upper bound. Outside a kernel it returns e.
func blockMax(e ir.Expr, loops []*ir.For, lv letValues) ir.Expr {
	start := -1
	for i, l := range loops {
		if l.Kind == ir.GPUBlock {
			start = i
			break
		}
	}
	up := lv.resolve(e)
	if start < 0 {
		return up
	}
	var blocks []*ir.For
	isBlock := map[string]bool{}
	for _, l := range loops[start:] {
		if l.Kind == ir.GPUBlock {
			blocks = append(blocks, l)
			isBlock[l.Name] = true
		}
	}
	// 1. Inside out over the loops within the blocks: an inner loop's
	// bounds may use the outer loops' vars, which later steps bound.
	for i := len(loops) - 1; i > start && up != nil; i-- {
		l := loops[i]
		if l.Kind == ir.GPUBlock {
			continue
		}
		mn := lv.resolve(l.Min)
		up = bounds.Of(up, bounds.Scope{l.Name: {Min: mn, Max: ir.Simplify(ir.SubE(ir.AddE(mn, lv.resolve(l.Extent)), ir.Int(1)))}}).Max
	}
	if up == nil {
		return nil
	}
	up = ir.Simplify(up)
	if !ir.UsesAny(up, func(n string) bool { return isBlock[n] }) {
		return up
	}
	// 2. A constant over the blocks' ranges.
	scope := bounds.Scope{}
	for _, l := range blocks {
		mn := lv.resolve(l.Min)
		scope[l.Name] = bounds.Interval{Min: mn, Max: ir.Simplify(ir.SubE(ir.AddE(mn, lv.resolve(l.Extent)), ir.Int(1)))}
	}
	if c, ok := bounds.ConstantUpperBound(up, scope); ok {
		return ir.Int(c)
	}
	// 3. The maximum over the blocks, on the host. Each block index gets a
	// name of its own inside max_over, so that nothing substituted for
	// the loop variable later (the block id, in the kernel) reaches it.
	rename := map[string]ir.Expr{}
	vars := make([]*ir.Var, len(blocks))
	for i, l := range blocks {
		vars[i] = &ir.Var{T: ir.Int32, Name: l.Name + ".over"}
		rename[l.Name] = vars[i]
	}
	out := ir.Substitute(up, rename)
	for i := len(blocks) - 1; i >= 0; i-- {
		l := blocks[i]
		mn := ir.Substitute(lv.resolve(l.Min), rename)
		ext := ir.Substitute(lv.resolve(l.Extent), rename)
		out = ir.MaxOver(vars[i], mn, ext, out)
	}
	return out
}
