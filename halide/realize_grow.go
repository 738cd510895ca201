package halide

// Realize into a buffer smaller than what the schedule writes, as Halide's
// realize(sizes) does: a RoundUp tail of the output rounds its extent up
// to the split factor, a ShiftInwards tail shifts a region smaller than
// the factor back over the region's start, align_bounds on the output
// widens it, and a scatter writes where its coordinates say. Halide runs a
// bounds query, realizes into buffers of the region the pipeline writes
// and crops them to the sizes asked for. Realize does the same here: it
// runs the lowered output query (lower/output_query.go) and, where the
// region it needs is larger than the output buffers, realizes into new
// buffers of that region and copies the part the buffers cover into them.
// Every value in the buffers given is then what a buffer of the whole
// region would hold.

import (
	"errors"
	"fmt"

	"github.com/gohalide/gohalide/cpu"
	"github.com/gohalide/gohalide/ir"
	"github.com/gohalide/gohalide/lower"
)

// maxGrowths bounds how often a realization grows its output: a region
// that depends on the buffer's extent (a tail) settles after one growth.
const maxGrowths = 4

// outputNeed runs the output query with the scalars and buffers of a
// realization and returns the region (min and extent per dimension) of the
// output the pipeline writes, and whether it is larger than the buffer's.
func (c *compiled) outputNeed(env *cpu.Env, out BufferRef, scalars, buffers map[string]any) ([]BufDim, bool, error) {
	return c.outputNeedShape(env, out.Shape(), scalars, buffers)
}

// outputNeedShape is outputNeed for an output buffer of the given shape.
func (c *compiled) outputNeedShape(env *cpu.Env, shape []BufDim, scalars, buffers map[string]any) ([]BufDim, bool, error) {
	need := make([]int32, 2*len(shape))
	args := make(map[string]any, len(buffers)+1)
	for k, b := range buffers {
		args[k] = b
	}
	args[lower.OutputQueryBuffer] = need
	if err := c.query.RunEnv(env, nil, scalars, args); err != nil {
		return nil, false, err
	}
	grown := make([]BufDim, len(shape))
	larger := false
	for d, s := range shape {
		lo, hi := int64(need[2*d]), int64(need[2*d+1])
		lo, hi = min(lo, int64(s.Min)), max(hi, int64(s.Min)+int64(s.Extent)-1)
		if lo < int64(s.Min) || hi > int64(s.Min)+int64(s.Extent)-1 {
			larger = true
		}
		grown[d] = BufDim{Min: int(lo), Extent: int(hi - lo + 1)}
	}
	return grown, larger, nil
}

// runGrown realizes into new buffers of the region shape, like outs, and
// copies what outs cover back into them. depth counts the growths.
func (c *compiled) runGrown(env *cpu.Env, outs []BufferRef, shape []BufDim, depth int) error {
	name := c.l.res.Output
	// The new buffers count against the run's allocation limit, as the
	// pipeline's own allocations do: a scatter's region may be huge.
	bytes := int64(0)
	for _, o := range outs {
		n := int64((o.ElemType().Bits + 7) / 8)
		for _, d := range shape {
			if n > 0 && int64(d.Extent) > (1<<62)/n {
				n = 1 << 62
				break
			}
			n *= int64(d.Extent)
		}
		bytes = min(bytes+n, 1<<62)
	}
	if limit := env.MaxAllocationBytes(); limit > 0 && bytes > limit {
		return ir.Errorf(ir.ErrAllocationTooLarge, name, "Realize", "the schedule writes the output over %s, larger than the buffer given (%s): a buffer of that region needs %d bytes, over the limit of %d", regionString(shape), regionString(outs[0].Shape()), bytes, limit).
			WithLegal("an output buffer that covers what the schedule writes, a schedule that writes only the buffer (GuardWithIf tails, a scatter clamped to the output), or a larger Options.MaxAllocationBytes")
	}
	bigs := make([]BufferRef, len(outs))
	for i, o := range outs {
		b := o.withShape(shape)
		if err := b.shapeErr(); err != nil {
			return ir.Errorf(ir.ErrBufferShape, name, "Realize", "the schedule writes the output over %s, larger than the buffer given, and a buffer of that region cannot be made: %v", regionString(shape), err).
				WithLegal("an output buffer that covers what the schedule writes (a RoundUp or ShiftInwards tail, align_bounds or a scatter can write past the region asked for)")
		}
		bigs[i] = b
	}
	if err := c.runDepth(env, depth+1, bigs...); err != nil {
		var e *ir.Error
		if errors.As(err, &e) && e.Code != ir.ErrCanceled && depth == 0 {
			// Say why the region is not the buffer's.
			ne := *e
			ne.Msg += fmt.Sprintf(" (the schedule writes %s over %s, so Realize computed it there for the buffer's %s, as Halide's realize(sizes): a RoundUp or ShiftInwards tail, align_bounds or a scatter of the output)",
				name, regionString(shape), regionString(outs[0].Shape()))
			return &ne
		}
		return err
	}
	if d, ok := c.launcher.(CUDADevice); ok {
		for _, b := range bigs {
			d.Release(b.rawData())
		}
	}
	for i, o := range outs {
		o.copyFrom(bigs[i])
	}
	return nil
}

func regionString(shape []BufDim) string {
	s := ""
	for d, r := range shape {
		if d > 0 {
			s += " x "
		}
		s += fmt.Sprintf("[%d, %d)", r.Min, r.Min+r.Extent)
	}
	return s
}

// withShape returns a new dense buffer of b's element type with the mins
// and extents of shape.
func (b *Buffer[T]) withShape(shape []BufDim) BufferRef {
	ext := make([]int, len(shape))
	mins := make([]int, len(shape))
	for d, s := range shape {
		ext[d], mins[d] = s.Extent, s.Min
	}
	nb := NewBuffer[T](ext...)
	if nb.Err() == nil {
		nb.SetMin(mins...)
	}
	return nb
}

// copyFrom sets every element of b to src's at the same coordinates; src
// is a buffer of b's element type that covers b.
func (b *Buffer[T]) copyFrom(src BufferRef) {
	s, ok := src.(*Buffer[T])
	if !ok || len(b.shape) == 0 && len(b.data) == 0 {
		return
	}
	for _, d := range b.shape {
		if d.Extent <= 0 {
			return
		}
	}
	coords := make([]int, len(b.shape))
	for d := range coords {
		coords[d] = b.shape[d].Min
	}
	for {
		if to, ok := b.offset(coords); ok {
			if from, ok := s.offset(coords); ok {
				b.data[to] = s.data[from]
			}
		}
		d := 0
		for ; d < len(coords); d++ {
			coords[d]++
			if coords[d] < b.shape[d].Min+b.shape[d].Extent {
				break
			}
			coords[d] = b.shape[d].Min
		}
		if d == len(coords) {
			return
		}
	}
}
