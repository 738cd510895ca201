package lower

// gpu_kernels: extract each kernel. The outermost GPU block loop and the
// block loops directly inside it become the grid (the innermost block loop
// is x); their body, with `let v = min + block_id_d` for each block loop,
// becomes the kernel body. GPUShared allocations move to the top of the body
// (one copy per block, a single flat extent); their sizes are checked
// against the device limits (48 KB of static shared memory; 227 KB
// dynamic on sm_90). The kernel's arguments are the variables and buffers
// the body uses from the host. The loop nest is replaced by a Launch.
//
// Before: gpu_thread_loops. After: the host statement has no GPU loops;
// each Launch's kernel body is simplified.

import (
	"fmt"
	"sort"
	"strings"

	"github.com/gohalide/gohalide/ir"
)

// Device limits (sm_90).
const (
	maxStaticShared  = 48 << 10
	maxDynamicShared = 227 << 10
)

func gpuKernels(st *State) error {
	count := map[string]int{}
	s, err := forEachKernel(st.Stmt, func(k *ir.For) (ir.Stmt, error) {
		kern, err := extractKernel(st, k, count)
		if err != nil {
			return nil, err
		}
		st.Kernels = append(st.Kernels, kern)
		st.logf(3, "  gpu_kernels: %s, block %s x %s x %s, %d barriers\n", kern.Name, ir.ExprString(kern.Block[0]), ir.ExprString(kern.Block[1]), ir.ExprString(kern.Block[2]), kern.Barriers)
		// A block loop of no iterations (an empty region, such as a
		// guarded-off tail) launches nothing: CUDA refuses an empty grid.
		var cond ir.Expr
		for _, g := range kern.Grid {
			if c := ir.Simplify(ir.LTE(ir.Int(0), g)); !ir.IsConstValue(c, 1) {
				cond = and(cond, c)
			}
		}
		if cond != nil {
			return &ir.IfThenElse{Cond: cond, Then: &ir.Launch{Kernel: kern}}, nil
		}
		return &ir.Launch{Kernel: kern}, nil
	})
	if err != nil {
		return err
	}
	st.Stmt = s
	return nil
}

func identifier(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	return b.String()
}

func extractKernel(st *State, outer *ir.For, count map[string]int) (*ir.Kernel, error) {
	var blocks []*ir.For
	for l := outer; ; {
		blocks = append(blocks, l)
		inner, ok := l.Body.(*ir.For)
		if !ok || inner.Kind != ir.GPUBlock {
			break
		}
		l = inner
	}
	body := blocks[len(blocks)-1].Body
	kern := &ir.Kernel{}
	// Stage name: "f.s1" of the outermost block loop.
	stage := outer.Name
	if i := strings.Index(stage, ".s"); i >= 0 {
		rest := stage[i+2:]
		if j := strings.Index(rest, "."); j >= 0 {
			stage = stage[:i+2+j]
		}
	}
	name := "kernel_" + identifier(stage)
	count[name]++
	if count[name] > 1 {
		name = fmt.Sprintf("%s_%d", name, count[name])
	}
	kern.Name = name
	for d := 0; d < 3; d++ {
		kern.Grid[d] = ir.Int(1)
	}
	// The innermost block loop is x.
	for i := range blocks {
		l := blocks[len(blocks)-1-i]
		if i >= 3 {
			return nil, ir.Errorf(ir.ErrSchedule, loopFunc(l.Name), "gpu_blocks", "more than 3 block loops")
		}
		kern.Grid[i] = l.Extent
	}
	for i := len(blocks) - 1; i >= 0; i-- {
		d := len(blocks) - 1 - i
		l := blocks[i]
		body = &ir.LetStmt{Name: l.Name, Value: ir.Simplify(ir.AddE(l.Min, v(ir.BlockID[d]))), Body: body}
	}
	block := st.kernels[outer.Name].block
	for d := 0; d < 3; d++ {
		kern.Block[d] = ir.Int(block[d])
	}
	// Hoist the shared allocations to the top. An allocation met more
	// than once (the copies an unrolled loop made of one realization, live
	// one after the other) is hoisted once, with the largest size.
	var shared []*ir.Allocate
	index := map[string]int{}
	var mut func(ir.Stmt) ir.Stmt
	mut = func(x ir.Stmt) ir.Stmt {
		if a, ok := x.(*ir.Allocate); ok && a.Memory == ir.GPUShared {
			size := ir.Expr(ir.Int(1))
			for _, e := range a.Extents {
				size = ir.Simplify(ir.MulE(size, e))
			}
			if i, ok := index[a.Name]; ok {
				shared[i].Extents[0] = ir.Simplify(ir.MaxE(shared[i].Extents[0], size))
			} else {
				index[a.Name] = len(shared)
				shared = append(shared, &ir.Allocate{Name: a.Name, T: a.T, Memory: a.Memory, Extents: []ir.Expr{size}, PerThread: a.PerThread})
			}
			return mut(a.Body)
		}
		return ir.MapStmt(x, mut, nil)
	}
	body = mut(body)
	body = ir.SimplifyStmt(body)
	if body == nil {
		body = &ir.Block{}
	}
	for i := len(shared) - 1; i >= 0; i-- {
		a := shared[i]
		hoisted := *a
		hoisted.Body = body
		body = &hoisted
	}
	kern.Body = body
	// Allocations, for reports, and the shared memory limits.
	var static int64
	ir.WalkStmt(body, func(x ir.Stmt) bool {
		a, ok := x.(*ir.Allocate)
		if !ok {
			return true
		}
		ka := ir.KernelAlloc{Func: a.Name, T: a.T, Memory: a.Memory}
		size := ir.Expr(ir.Int(1))
		for _, e := range a.Extents {
			size = ir.Simplify(ir.MulE(size, e))
		}
		if n, ok := ir.AsInt(size); ok {
			ka.Elems = n
		} else {
			ka.Dynamic, ka.Size = true, size
		}
		if a.Memory == ir.GPUShared {
			// Shared along every dimension of the block its region
			// does not depend on (allocation_bounds recorded which).
			split := [3]bool{}
			for _, l := range a.PerThread {
				split[st.kernels[outer.Name].dims[l]] = true
			}
			for d := 0; d < 3; d++ {
				if block[d] > 1 && !split[d] {
					ka.SharedAcross = append(ka.SharedAcross, "xyz"[d:d+1])
				}
			}
			if !ka.Dynamic {
				static += ka.Bytes()
			}
		}
		kern.Allocs = append(kern.Allocs, ka)
		return true
	}, nil)
	if static > maxStaticShared {
		biggest := ir.KernelAlloc{}
		for _, a := range kern.Allocs {
			if a.Memory == ir.GPUShared && a.Bytes() > biggest.Bytes() {
				biggest = a
			}
		}
		return nil, ir.Errorf(ir.ErrSchedule, biggest.Func, "store_in(GPUShared)", "kernel %s needs %d bytes of static shared memory (%s); the device allows %d", name, static, allocList(kern.Allocs), maxStaticShared).
			WithLegal("smaller tiles, or fewer Funcs in shared memory")
	}
	ir.WalkStmt(body, func(x ir.Stmt) bool {
		if _, ok := x.(*ir.Barrier); ok {
			kern.Barriers++
		}
		return true
	}, nil)
	kern.Args = kernelArgs(body)
	return kern, nil
}

func allocList(as []ir.KernelAlloc) string {
	var parts []string
	for _, a := range as {
		if a.Memory == ir.GPUShared {
			parts = append(parts, fmt.Sprintf("%s: %d bytes", a.Func, a.Bytes()))
		}
	}
	return strings.Join(parts, ", ")
}

// kernelArgs returns the free variables and the buffers of a kernel body,
// sorted by name (buffers first).
func kernelArgs(body ir.Stmt) []ir.KernelArg {
	defined := map[string]int{}
	for _, n := range ir.ThreadID {
		defined[n]++
	}
	for _, n := range ir.BlockID {
		defined[n]++
	}
	scalars := map[string]ir.Type{}
	bufs := map[string]*ir.KernelArg{}
	allocated := map[string]int{}
	var expr func(e ir.Expr)
	expr = func(e ir.Expr) {
		ir.WalkExpr(e, func(x ir.Expr) bool {
			switch x := x.(type) {
			case *ir.Var:
				if defined[x.Name] == 0 {
					scalars[x.Name] = x.T
				}
			case *ir.Load:
				if allocated[x.Buf] == 0 && bufs[x.Buf] == nil {
					bufs[x.Buf] = &ir.KernelArg{Name: x.Buf, T: x.T, IsBuffer: true}
				}
			case *ir.Let:
				expr(x.Value)
				defined[x.Name]++
				expr(x.Body)
				defined[x.Name]--
				return false
			}
			return true
		})
	}
	var stmt func(s ir.Stmt)
	stmt = func(s ir.Stmt) {
		switch x := s.(type) {
		case nil:
		case *ir.LetStmt:
			expr(x.Value)
			defined[x.Name]++
			stmt(x.Body)
			defined[x.Name]--
		case *ir.For:
			expr(x.Min)
			expr(x.Extent)
			defined[x.Name]++
			stmt(x.Body)
			defined[x.Name]--
		case *ir.Allocate:
			for _, e := range x.Extents {
				expr(e)
			}
			allocated[x.Name]++
			stmt(x.Body)
			allocated[x.Name]--
		case *ir.Store:
			expr(x.Index)
			expr(x.Value)
			if allocated[x.Buf] == 0 {
				if bufs[x.Buf] == nil {
					bufs[x.Buf] = &ir.KernelArg{Name: x.Buf, T: x.Value.Type(), IsBuffer: true}
				}
				bufs[x.Buf].Written = true
			}
		default:
			ir.WalkStmt(s, func(y ir.Stmt) bool {
				if y == s {
					return true
				}
				stmt(y)
				return false
			}, func(e ir.Expr) bool { expr(e); return false })
		}
	}
	stmt(body)
	var out []ir.KernelArg
	for _, n := range sortedNames(bufs) {
		out = append(out, *bufs[n])
	}
	names := make([]string, 0, len(scalars))
	for n := range scalars {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		out = append(out, ir.KernelArg{Name: n, T: scalars[n]})
	}
	return out
}

func sortedNames(m map[string]*ir.KernelArg) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
