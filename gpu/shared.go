package gpu

import (
	"fmt"

	"github.com/gohalide/gohalide/ir"
)

// staticShared is a static GPUShared allocation found in a kernel body.
type staticShared struct {
	name  string
	t     ir.Type
	elems int64
}

// sharedLayout returns the byte offset of each static shared allocation of
// k (in the order of allocs) in its static pool, and the pool's size. The
// layout is the one lowering recorded (ir.KernelAlloc.Offset and
// ir.Kernel.SharedBytes, from gpu_shared_reuse), checked against the body;
// a kernel with no recorded layout (SharedBytes 0, as when built by hand)
// gets ir.PackShared's layout with no reuse. The CUDA emitter and the
// emulator both read it here.
func sharedLayout(k *ir.Kernel, allocs []staticShared) ([]int64, int64, error) {
	if k.SharedBytes <= 0 {
		slots := make([]ir.SharedSlot, len(allocs))
		for i, a := range allocs {
			slots[i] = ir.SharedSlot{Bytes: a.elems * int64(a.t.Bytes()), Align: int64(a.t.Bytes())}
		}
		offsets, total := ir.PackShared(slots, nil)
		return offsets, total, nil
	}
	offsets := make([]int64, len(allocs))
	for i, a := range allocs {
		var rec *ir.KernelAlloc
		for j := range k.Allocs {
			if ka := &k.Allocs[j]; ka.Func == a.name && ka.Memory == ir.GPUShared && !ka.Dynamic {
				rec = ka
				break
			}
		}
		size := int64(a.t.Bytes())
		switch {
		case rec == nil:
			return nil, 0, fmt.Errorf("static shared allocation %s has no offset in the kernel's shared layout (Kernel.Allocs)", a.name)
		case rec.T != a.t:
			return nil, 0, fmt.Errorf("shared allocation %s has type %v in the body but %v in Kernel.Allocs", a.name, a.t, rec.T)
		case rec.Offset < 0 || rec.Offset%size != 0:
			return nil, 0, fmt.Errorf("shared allocation %s is at byte %d of the shared pool, which is not a multiple of its element size %d", a.name, rec.Offset, size)
		case rec.Offset > k.SharedBytes || a.elems*size > k.SharedBytes-rec.Offset:
			return nil, 0, fmt.Errorf("shared allocation %s (%d bytes at byte %d) does not fit in the kernel's shared pool of %d bytes", a.name, a.elems*size, rec.Offset, k.SharedBytes)
		}
		offsets[i] = rec.Offset
	}
	return offsets, k.SharedBytes, nil
}
