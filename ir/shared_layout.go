package ir

import (
	"fmt"
)

// StaticShared is a static GPUShared allocation found in a kernel body.
type StaticShared struct {
	Name  string
	T     Type
	Elems int64
}

// SharedLayout returns the byte offset of each static shared allocation of
// k (in the order of allocs) in its static pool, and the pool's size. The
// layout is the one lowering recorded (KernelAlloc.Offset and
// Kernel.SharedBytes, from gpu_shared_reuse), checked against the body;
// a kernel with no recorded layout (SharedBytes 0, as when built by hand)
// gets PackShared's layout with no reuse. The CUDA emitter and the
// emulator both read it here.
func SharedLayout(k *Kernel, allocs []StaticShared) ([]int64, int64, error) {
	if k.SharedBytes <= 0 {
		slots := make([]SharedSlot, len(allocs))
		for i, a := range allocs {
			slots[i] = SharedSlot{Bytes: a.Elems * int64(a.T.Bytes()), Align: int64(a.T.Bytes())}
		}
		offsets, total := PackShared(slots, nil)
		return offsets, total, nil
	}
	offsets := make([]int64, len(allocs))
	for i, a := range allocs {
		var rec *KernelAlloc
		for j := range k.Allocs {
			if ka := &k.Allocs[j]; ka.Func == a.Name && ka.Memory == GPUShared && !ka.Dynamic {
				rec = ka
				break
			}
		}
		size := int64(a.T.Bytes())
		switch {
		case rec == nil:
			return nil, 0, fmt.Errorf("static shared allocation %s has no offset in the kernel's shared layout (Kernel.Allocs)", a.Name)
		case rec.T != a.T:
			return nil, 0, fmt.Errorf("shared allocation %s has type %v in the body but %v in Kernel.Allocs", a.Name, a.T, rec.T)
		case rec.Offset < 0 || rec.Offset%size != 0:
			return nil, 0, fmt.Errorf("shared allocation %s is at byte %d of the shared pool, which is not a multiple of its element size %d", a.Name, rec.Offset, size)
		case rec.Offset > k.SharedBytes || a.Elems*size > k.SharedBytes-rec.Offset:
			return nil, 0, fmt.Errorf("shared allocation %s (%d bytes at byte %d) does not fit in the kernel's shared pool of %d bytes", a.Name, a.Elems*size, rec.Offset, k.SharedBytes)
		}
		offsets[i] = rec.Offset
	}
	return offsets, k.SharedBytes, nil
}
