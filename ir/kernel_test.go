package ir

import (
	"strings"
	"testing"
)

func kvar(name string) Expr { return &Var{T: Int32, Name: name} }

// A kernel of 64 threads that copies in[x] to out[x] through a shared
// array s of 64 floats (static) and a dynamic one d of n int32s.
func testKernel() *Kernel {
	x := AddE(kvar("base"), kvar(ThreadID[0]))
	body := &Allocate{Name: "s", T: Float32, Memory: GPUShared, Extents: []Expr{Int(64)},
		Body: &Allocate{Name: "d", T: Int32, Memory: GPUShared, Extents: []Expr{kvar("n")},
			Body: MakeBlock(
				&Store{Buf: "s", Index: kvar(ThreadID[0]), Value: &Load{T: Float32, Buf: "in", Index: x}},
				&Barrier{Fence: FenceShared},
				&Store{Buf: "out", Index: x, Value: &Load{T: Float32, Buf: "s", Index: kvar(ThreadID[0])}})}}
	k := &Kernel{Name: "k", Grid: [3]Expr{Int(4), Int(1), Int(1)}, Block: [3]Expr{Int(64), Int(1), Int(1)}, Body: body}
	k.Args = KernelArgs(body, nil)
	k.Allocs = []KernelAlloc{AllocOf(body), AllocOf(body.Body.(*Allocate))}
	k.Allocs[0].Offset = 0
	k.SharedBytes = 256
	k.DynamicSharedBytes = LayoutDynamic(k.Allocs)
	return k
}

func TestKernelArgs(t *testing.T) {
	k := testKernel()
	var got []string
	for _, a := range k.Args {
		s := a.Name
		if a.Written {
			s += "(w)"
		}
		got = append(got, s)
	}
	// Buffers first, then scalars, each sorted; s and d are allocated
	// in the body, the indices are not arguments.
	if want := "in out(w) base n"; strings.Join(got, " ") != want {
		t.Errorf("args %v, want %s", got, want)
	}
}

func TestWithBody(t *testing.T) {
	k := testKernel()
	if k.WithBody(k.Body) != k {
		t.Error("WithBody of the same body made a new kernel")
	}
	// A body that no longer reads in: a new kernel without the argument;
	// k is as it was.
	body := &Store{Buf: "out", Index: kvar("base"), Value: &FloatImm{T: Float32, V: 0}}
	nk := k.WithBody(body)
	if nk == k || nk.Body != body || len(nk.Args) != 2 || nk.Args[0].Name != "out" || nk.Args[1].Name != "base" {
		t.Errorf("WithBody: %+v", nk.Args)
	}
	if len(k.Args) != 4 {
		t.Errorf("WithBody edited the kernel it was called on: args %+v", k.Args)
	}
	// Global scratch keeps its size, and the size's variables stay
	// arguments.
	k.Args = append(k.Args, KernelArg{Name: "g", T: Float32, IsBuffer: true, Written: true, Scratch: kvar("m")})
	body2 := &Store{Buf: "g", Index: kvar(ThreadID[0]), Value: &FloatImm{T: Float32, V: 0}}
	nk = k.WithBody(body2)
	var names []string
	for _, a := range nk.Args {
		names = append(names, a.Name)
		if a.Name == "g" && (a.Scratch == nil || !Equal(a.Scratch, kvar("m"))) {
			t.Errorf("scratch g lost its size: %+v", a)
		}
	}
	if strings.Join(names, " ") != "g m" {
		t.Errorf("args %v, want g m", names)
	}
}

func TestLayoutDynamic(t *testing.T) {
	allocs := []KernelAlloc{
		{Func: "a", T: UInt8, Memory: GPUShared, Dynamic: true, Size: kvar("n")},
		{Func: "b", T: Float64, Memory: GPUShared, Dynamic: true, Size: kvar("n")},
		{Func: "r", T: Float32, Memory: Register, Elems: 4},
		{Func: "c", T: Float32, Memory: GPUShared, Dynamic: true, Size: kvar("n")},
	}
	total := LayoutDynamic(allocs)
	// Widest first: b at 0, c after n*8 bytes, a after n*12.
	want := map[string]string{"a": "(n * 12)", "b": "0", "c": "(n * 8)"}
	for _, a := range allocs {
		if w, ok := want[a.Func]; ok {
			if a.DynOffset == nil || ExprString(a.DynOffset) != w {
				t.Errorf("%s at %v, want %s", a.Func, a.DynOffset, w)
			}
		} else if a.DynOffset != nil {
			t.Errorf("%s has a dynamic offset", a.Func)
		}
	}
	if ExprString(total) != "(n * 13)" {
		t.Errorf("total %s, want (n * 13)", ExprString(total))
	}
}

func TestKernelVerify(t *testing.T) {
	if err := testKernel().Verify(); err != nil {
		t.Fatalf("a good kernel: %v", err)
	}
	for _, c := range []struct {
		name string
		edit func(k *Kernel)
		want string
	}{
		{"arg twice", func(k *Kernel) { k.Args = append(k.Args, k.Args[0]) }, "listed twice"},
		{"index arg", func(k *Kernel) { k.Args = append(k.Args, KernelArg{Name: ThreadID[0], T: Int32}) }, "thread or block index"},
		{"free variable", func(k *Kernel) { k.Args = append(k.Args[:2:2], k.Args[3]) }, "variable base, which is not a scalar argument"},
		{"arg type", func(k *Kernel) { k.Args[2].T = Int64 }, "its argument has type int64"},
		{"not written", func(k *Kernel) { k.Args[1].Written = false }, "not marked Written"},
		{"no record", func(k *Kernel) { k.Allocs = k.Allocs[1:] }, "not in the kernel's record"},
		{"elements", func(k *Kernel) { k.Allocs[0].Elems = 32 }, "has 64 elements in the body but 32"},
		{"misaligned", func(k *Kernel) { k.Allocs[0].Offset = 2 }, "not a multiple of its element size"},
		{"outside", func(k *Kernel) { k.SharedBytes = 128 }, "does not fit"},
		{"no dynamic offset", func(k *Kernel) { k.Allocs[1].DynOffset = nil }, "no offset in the kernel's dynamic"},
		{"under a loop", func(k *Kernel) {
			k.Body = &For{Name: "i", Min: Int(0), Extent: Int(2), Body: k.Body}
		}, "inside loop i"},
		{"thread-dependent size", func(k *Kernel) {
			a := *k.Body.(*Allocate)
			a.Extents = []Expr{kvar(ThreadID[0])}
			k.Body = &a
		}, "depends on thread_id_x"},
	} {
		t.Run(c.name, func(t *testing.T) {
			k := testKernel()
			c.edit(k)
			err := k.Verify()
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("got %v, want %q", err, c.want)
			}
		})
	}
}

// A kernel built by hand without a record gets one by the rules lowering
// uses: no reuse in the static pool.
func TestRecorded(t *testing.T) {
	k := testKernel()
	if k.Recorded() != k {
		t.Error("Recorded made a copy of a recorded kernel")
	}
	k.Allocs, k.SharedBytes, k.DynamicSharedBytes = nil, 0, nil
	r := k.Recorded()
	if r == k || len(r.Allocs) != 2 || r.SharedBytes != 256 || r.DynamicSharedBytes == nil || ExprString(r.DynamicSharedBytes) != "(n * 4)" {
		t.Errorf("Recorded: %+v", r)
	}
	if err := k.Verify(); err != nil {
		t.Errorf("Verify of a kernel built by hand: %v", err)
	}
}
