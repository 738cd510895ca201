package lower

// allocation_bounds: size each realization. The box a Realize covers is the
// union of everything its body reads or writes of the Func (bounds.Touched:
// the loops and lets inside range, the rest stays symbolic), so rounded-up
// and shifted tails and scatters are covered. An extent with a constant
// upper bound (over all values of the enclosing loops) is replaced by that
// constant, so `allocate f[float32 * 16 * 8]` has a fixed size even when
// the last tile is smaller. Auto memory becomes Stack for small constant
// sizes and Heap otherwise.
//
// Before: bounds_inference. After: every Realize has Bounds.

import (
	"github.com/gohalide/gohalide/bounds"
	"github.com/gohalide/gohalide/halide/ir"
)

// maxConstExtent caps the constant sizes taken from upper bounds; a bound
// larger than this is not useful as a fixed size.
const maxConstExtent = 1 << 28

// maxStackBytes is the largest Auto allocation placed on the stack.
const maxStackBytes = 64 << 10

func allocationBounds(st *State) error {
	var err error
	lv := letValues{}
	s := walkWithLets(st.Stmt, lv, func(x ir.Stmt) ir.Stmt {
		r, ok := x.(*ir.Realize)
		if !ok || err != nil {
			return x
		}
		f := st.Funcs[r.Func]
		box := bounds.Touched(r.Body, nil)[r.Func]
		// A Func.bound fixes the region (bounds_inference checks that it
		// covers what is read), so it also fixes the allocation.
		for _, b := range f.Schedule.Bounds {
			if box == nil {
				box = make(bounds.Box, len(f.Args))
			}
			d := argIndex(f, b.Var)
			box[d] = bounds.Interval{Min: b.Min, Max: ir.Simplify(ir.SubE(ir.AddE(b.Min, b.Extent), ir.Int(1)))}
		}
		ranges := make([]ir.Range, len(f.Args))
		allConst := true
		elems := int64(1)
		for d := range f.Args {
			if box == nil {
				ranges[d] = ir.Range{Min: ir.Int(0), Extent: ir.Int(0)}
				continue
			}
			iv := box[d]
			if !iv.IsBounded() {
				err = ir.Errorf(ir.ErrUnbounded, f.Name, "allocation bounds", "%s is written or read in an unbounded way in dimension %d (%s): %s", f.Name, d, f.Args[d], iv).
					WithLegal("clamp scatter coordinates or promise their range with Clamped / UnsafePromiseClamped")
				return x
			}
			mn := ir.Simplify(iv.Min)
			ext := ir.Simplify(ir.AddE(ir.SubE(iv.Max, iv.Min), ir.Int(1)))
			if c, ok := bounds.ConstantUpperBound(lv.resolve(ext), nil); ok && c <= maxConstExtent {
				if c < 0 {
					c = 0
				}
				ext = ir.Int(c)
			}
			if c, ok := ir.AsInt(ext); ok {
				elems *= c
			} else {
				// An empty region (a guarded-off tail iteration) has
				// max < min; it needs no storage, not a negative amount.
				ext = ir.Simplify(ir.MaxE(ext, ir.Int(0)))
				allConst = false
			}
			ranges[d] = ir.Range{Min: mn, Extent: ext}
		}
		mem := r.Memory
		if mem == ir.Auto {
			mem = ir.Heap
			if allConst && elems*int64(f.T.Bytes()) <= maxStackBytes {
				mem = ir.Stack
			}
		}
		return &ir.Realize{Func: r.Func, T: r.T, Memory: mem, Bounds: ranges, Body: r.Body}
	})
	if err != nil {
		return err
	}
	st.Stmt = s
	return nil
}
