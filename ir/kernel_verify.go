package ir

import "fmt"

// Verify checks the kernel contract: that k's body and its record agree
// and that every reader may take the record at its word. The IR verifier
// (lower), the emulator and the CUDA emitter call it; it is the one list
// of the rules (docs/design.md, "The kernel contract"):
//
//   - the arguments have distinct names, none a thread or block index;
//   - the body's GPUShared allocations come first (after lets, comments and
//     producer/consumer marks at most), never under a loop or an if, with
//     distinct names that are not buffer arguments, and sizes over the
//     kernel's scalar arguments only;
//   - every variable the body reads from outside is a scalar argument of
//     its type, every buffer it accesses a buffer argument of its type
//     (marked Written where it stores), a shared allocation is accessed as
//     its type, and the indices are int32;
//   - the body has no launch and no parallel, block or thread loop;
//   - the record (Allocs) holds each shared allocation of the body, of its
//     type, with its element count (or, when known only at launch, its
//     size) and its place: a static one at an offset aligned to its element
//     size inside the pool of SharedBytes bytes, a dynamic one at its
//     DynOffset in the region of DynamicSharedBytes.
//
// A kernel whose record lists no allocation (one built by hand, in tests)
// has its shared allocations checked against the record Recorded derives.
func (k *Kernel) Verify() error {
	v := &kernelVerifier{k: k, args: map[string]KernelArg{}}
	return v.run()
}

type kernelVerifier struct {
	k    *Kernel
	args map[string]KernelArg
}

func isIndexVar(name string) bool {
	for d := 0; d < 3; d++ {
		if name == ThreadID[d] || name == BlockID[d] {
			return true
		}
	}
	return false
}

func (v *kernelVerifier) fail(format string, args ...any) error {
	return fmt.Errorf(format, args...)
}

func (v *kernelVerifier) run() error {
	k := v.k
	for _, a := range k.Args {
		if _, dup := v.args[a.Name]; dup {
			return v.fail("argument %s is listed twice", a.Name)
		}
		if isIndexVar(a.Name) {
			return v.fail("argument %s has the name of a thread or block index", a.Name)
		}
		v.args[a.Name] = a
	}
	shared, err := v.sharedAllocs()
	if err != nil {
		return err
	}
	if err := v.uses(shared); err != nil {
		return err
	}
	return v.record(shared)
}

// topShared is a shared allocation at the top of a body, with its size
// (the lets in scope substituted).
type topShared struct {
	a    *Allocate
	size Expr
}

// sharedAllocs returns the shared allocations of the body, checking where
// they are and what their sizes depend on.
func (v *kernelVerifier) sharedAllocs() ([]topShared, error) {
	var out []topShared
	names := map[string]bool{}
	var err error
	var top func(s Stmt, lets map[string]Expr)
	top = func(s Stmt, lets map[string]Expr) {
		if err != nil {
			return
		}
		switch x := s.(type) {
		case *Allocate:
			if x.Memory == GPUShared {
				if names[x.Name] {
					err = v.fail("two shared allocations are named %s", x.Name)
					return
				}
				names[x.Name] = true
				if a, ok := v.args[x.Name]; ok && a.IsBuffer {
					err = v.fail("shared allocation %s has the name of a buffer argument", x.Name)
					return
				}
				size := Expr(Int(1))
				for _, e := range x.Extents {
					if e == nil {
						err = v.fail("shared allocation %s has a nil extent", x.Name)
						return
					}
					size = Simplify(MulE(size, Substitute(e, lets)))
				}
				bad := ""
				WalkExpr(size, func(e Expr) bool {
					switch e := e.(type) {
					case *Var:
						if a, ok := v.args[e.Name]; bad == "" && (!ok || a.IsBuffer) {
							bad = e.Name
						}
					case *Load:
						if bad == "" {
							err = v.fail("the size of a shared allocation loads from buffer %s", e.Buf)
						}
					}
					return bad == "" && err == nil
				})
				if err != nil {
					return
				}
				if bad != "" {
					err = v.fail("the size of a shared allocation depends on %s, which is not a scalar argument of the kernel (shared sizes are one per launch)", bad)
					return
				}
				out = append(out, topShared{x, size})
			}
			top(x.Body, lets)
		case *LetStmt:
			inner := make(map[string]Expr, len(lets)+1)
			for n, e := range lets {
				inner[n] = e
			}
			inner[x.Name] = Substitute(x.Value, lets)
			top(x.Body, inner)
		case *ProducerConsumer:
			top(x.Body, lets)
		case *Block:
			for _, y := range x.Stmts {
				top(y, lets)
			}
		default:
			where := "an if"
			if l, ok := s.(*For); ok {
				where = "loop " + l.Name
			}
			WalkStmt(s, func(y Stmt) bool {
				if a, ok := y.(*Allocate); ok && a.Memory == GPUShared && err == nil {
					err = v.fail("shared allocation %s is inside %s (GPUShared allocations come first in a kernel body, never inside a loop or an if)", a.Name, where)
				}
				return err == nil
			}, nil)
		}
	}
	top(v.k.Body, nil)
	return out, err
}

// uses checks what the body reads and writes from outside against the
// arguments.
func (v *kernelVerifier) uses(shared []topShared) error {
	var err error
	sharedT := map[string]Type{}
	for _, s := range shared {
		sharedT[s.a.Name] = s.a.T
	}
	access := func(buf string, t Type) {
		if st, ok := sharedT[buf]; ok && st != t && err == nil {
			err = v.fail("shared allocation %s has type %v but is accessed as %v", buf, st, t)
		}
	}
	exprs := func(e Expr) bool {
		switch x := e.(type) {
		case *Var:
			if isIndexVar(x.Name) && x.T != Int32 && err == nil {
				err = v.fail("index variable %s is used as %v, want int32", x.Name, x.T)
			}
		case *Load:
			access(x.Buf, x.T)
		}
		return err == nil
	}
	WalkStmt(v.k.Body, func(s Stmt) bool {
		switch x := s.(type) {
		case *For:
			if (x.Kind == Parallel || x.Kind == GPUBlock || x.Kind == GPUThread) && err == nil {
				err = v.fail("loop %s of kind %v inside the kernel body", x.Name, x.Kind)
			}
		case *Launch:
			if err == nil {
				err = v.fail("a launch inside the kernel body")
			}
		case *Store:
			access(x.Buf, x.Value.Type())
		}
		return err == nil
	}, exprs)
	if err != nil {
		return err
	}
	for _, u := range freeArgs(v.k.Body) {
		a, ok := v.args[u.Name]
		switch {
		case !u.IsBuffer && (!ok || a.IsBuffer):
			return v.fail("the body uses variable %s, which is not a scalar argument of the kernel", u.Name)
		case !u.IsBuffer && a.T != u.T:
			return v.fail("the body uses %s as %v, but its argument has type %v", u.Name, u.T, a.T)
		case u.IsBuffer && (!ok || !a.IsBuffer):
			return v.fail("the body accesses buffer %s, which is not a buffer argument of the kernel", u.Name)
		case u.IsBuffer && a.T != u.T:
			return v.fail("the body accesses buffer %s as %v, but its argument has type %v", u.Name, u.T, a.T)
		case u.Written && !a.Written:
			return v.fail("the body stores to buffer %s, whose argument is not marked Written", u.Name)
		}
	}
	return nil
}

// record checks the shared allocations of the body against the record.
func (v *kernelVerifier) record(shared []topShared) error {
	k := v.k.Recorded()
	for _, s := range shared {
		var rec *KernelAlloc
		for i := range k.Allocs {
			if a := &k.Allocs[i]; a.Func == s.a.Name && a.Memory == GPUShared && !a.PerBlock {
				rec = a
				break
			}
		}
		size := int64(s.a.T.Bytes())
		n, static := AsInt(s.size)
		switch {
		case rec == nil:
			return v.fail("shared allocation %s is not in the kernel's record (Kernel.Allocs)", s.a.Name)
		case rec.T != s.a.T:
			return v.fail("shared allocation %s has type %v in the body but %v in Kernel.Allocs", s.a.Name, s.a.T, rec.T)
		case static && (rec.Dynamic || rec.Elems != n):
			return v.fail("shared allocation %s has %d elements in the body but %s in Kernel.Allocs", s.a.Name, n, rec.sizeText())
		case !static && (!rec.Dynamic || rec.Size == nil || !Equal(Simplify(rec.Size), s.size)):
			return v.fail("shared allocation %s has %s elements in the body but %s in Kernel.Allocs", s.a.Name, ExprString(s.size), rec.sizeText())
		case static && (rec.Offset < 0 || rec.Offset%size != 0):
			return v.fail("shared allocation %s is at byte %d of the shared pool, which is not a multiple of its element size %d", s.a.Name, rec.Offset, size)
		case static && (rec.Offset > k.SharedBytes || n*size > k.SharedBytes-rec.Offset):
			return v.fail("shared allocation %s (%d bytes at byte %d) does not fit in the kernel's shared pool of %d bytes", s.a.Name, n*size, rec.Offset, k.SharedBytes)
		case !static && (rec.DynOffset == nil || k.DynamicSharedBytes == nil):
			return v.fail("dynamic shared allocation %s has no offset in the kernel's dynamic shared region", s.a.Name)
		}
	}
	return nil
}

func (a *KernelAlloc) sizeText() string {
	if a.Dynamic {
		if a.Size == nil {
			return "no size"
		}
		return ExprString(a.Size) + " (dynamic)"
	}
	return fmt.Sprint(a.Elems)
}
