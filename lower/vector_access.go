package lower

// vector_access: in each kernel, a vectorized loop whose body stores one
// value per lane, B[i(l)] = e(l) for lanes l = 0 .. n-1, becomes vector
// memory operations: each operand e reads at consecutive indexes is loaded
// as vectors (ir.LoadVector), the lanes' values are computed one by one,
// and the store is a vector too (ir.StoreVector). CUDA emits float4,
// float2, int4, ... loads and stores. This is what Vectorize asks for in a
// kernel; the cooperative production of a shared Func keeps its vectorized
// loop whole for it (gpu_cooperative), so a block loads its tiles from
// global memory 16 bytes per thread and instruction.
//
// One access (the store, or a load whose index reads no other load) of
// an element type and lane count a GPU vector holds (ir.VectorLanesOK;
// 8 lanes of a float32 make two vectors of 4) is a vector when:
//   - its buffer starts aligned: a static shared array at a pool offset
//     aligned to the vector (vectorAlignments), or a global buffer (a
//     kernel argument, at the start of a device allocation, 256-byte
//     aligned); other buffers (registers, dynamic shared) are left alone;
//   - lane l's index is lane 0's plus l*d (the index is affine in the
//     loop's variable, affineCoef), and d is 1;
//   - lane 0's index is a multiple of the vector's lanes.
//
// What can be proved is proved (d a constant; a residue by modRem over the
// lets in scope: tile*16 + tx*4 is 0 mod 4). What depends on values known
// only at run time (a buffer's min, a gathered row, the stride of a
// buffer's dimension 0, 1 when it is dense) is tested: the loop becomes
// if (tests) { vector body } else { the loop as it was }, the tests being
// d == 1 and i(0) % n == 0. An access with any other d (a constant other
// than 1, another dimension's stride) stays scalar inside the vector body:
// a transposing copy still stores its row as one vector. Of two accesses
// of one buffer a constant distance apart that is not a multiple of the
// lanes (a stencil's in[x] and in[x + 1]) only the first is a vector. A
// loop none of whose accesses can be a vector is left as it was.
//
// The loads of a lane are evaluated before its store in the loop, and all
// lanes' loads before any store in the vector body: the loop must not read
// the buffer it stores to, and the store must not be atomic.
//
// Before: common_loads (its lets are final; it does not know these
// marks), gpu_cooperative (a shared production keeps its vectorized loop
// whole). After: vectorized loops in kernels that fit are vector
// operations; the rest stay loops, which CUDA unrolls.

import (
	"fmt"

	"github.com/gohalide/gohalide/ir"
)

func vectorAccess(st *State) error {
	return mapKernels(st, func(k *ir.Kernel) (*ir.Kernel, ir.Stmt, error) {
		va := &vectorAccesser{align: vectorAlignments(k), global: map[string]bool{}, names: boundNames(k.Body)}
		for _, a := range k.Args {
			if a.IsBuffer {
				va.global[a.Name] = true
			}
		}
		lv := newLetValues()
		return k.WithBody(walkWithLets(k.Body, lv, func(s ir.Stmt) ir.Stmt {
			if l, ok := s.(*ir.For); ok && l.Kind == ir.Vectorized {
				return va.loop(l, lv)
			}
			return s
		})), nil, nil
	})
}

// vectorAccesser knows which buffers of a kernel may be vector accessed.
type vectorAccesser struct {
	align  map[string]int64 // static shared arrays: alignment in bytes of the first element
	global map[string]bool  // the kernel's global buffers
	names  *nameSet         // every name of the kernel, for fresh ones
}

// alignment returns the alignment in bytes of buf's first element (0 when
// it may not be vector accessed).
func (va *vectorAccesser) alignment(buf string) int64 {
	if va.global[buf] {
		return 256
	}
	return va.align[buf]
}

// vecAccess is one memory access of a vectorized loop's body: the store
// (load == nil) or a load.
type vecAccess struct {
	load    *ir.Load
	buf     string
	t       ir.Type
	lanes   []ir.Expr // the index of each lane
	group   int       // lanes per vector; 0: scalar
	vectors []string  // vector loads: the let name of each lane
	index   ir.Expr   // the index, in terms of the loop's variable
	loopVar string
}

// loop returns the vector form of a vectorized loop, or l.
func (va *vectorAccesser) loop(l *ir.For, lv letValues) ir.Stmt {
	n, ok := ir.AsInt(l.Extent)
	if !ok || n < 2 || n > 16 {
		return l
	}
	store, ok := inlineLets(l.Body)
	if !ok || store.Atomic {
		return l
	}
	lane := func(e ir.Expr, i int64) ir.Expr {
		return ir.Simplify(ir.Substitute(e, map[string]ir.Expr{l.Name: ir.AddE(l.Min, ir.Int(i))}))
	}
	// The loads evaluated on every path (not in a select's arm: its index
	// may be valid only there), one per distinct index, in the order they
	// are met. A gather's load, whose index reads another load, is one if
	// the inner load is the same for every lane (affineCoef decides).
	var loads []*vecAccess
	byKey := map[string]*vecAccess{}
	readsStored := false
	ir.WalkExpr(store.Value, func(e ir.Expr) bool {
		if ld, isLoad := e.(*ir.Load); isLoad && ld.Buf == store.Buf {
			readsStored = true
		}
		return !readsStored
	})
	if readsStored {
		return l
	}
	unconditionalLoads(store.Value, nil, func(ld *ir.Load) {
		if key := loadKey(ld); byKey[key] == nil {
			a := &vecAccess{load: ld, buf: ld.Buf, t: ld.T}
			byKey[key] = a
			loads = append(loads, a)
		}
	})
	sa := &vecAccess{buf: store.Buf, t: store.Value.Type()}
	all := append([]*vecAccess{sa}, loads...)
	var tests []ir.Expr
	seen := map[string]bool{}
	vectors := 0
	for _, a := range all {
		index := store.Index
		if a.load != nil {
			index = a.load.Index
		}
		a.index, a.loopVar = index, l.Name
		a.lanes = make([]ir.Expr, n)
		for i := range a.lanes {
			a.lanes[i] = lane(index, int64(i))
		}
		t, ok := va.vectorTests(a, n, lv)
		if !ok || misalignedWith(a, all) {
			a.group = 0
			continue
		}
		if a.load != nil {
			a.vectors = make([]string, n)
			for i := range a.vectors {
				a.vectors[i] = va.names.fresh(fmt.Sprintf("%s.lane%d", a.buf, i))
			}
		}
		for _, x := range t {
			if !seen[ir.ExprString(x)] {
				seen[ir.ExprString(x)] = true
				tests = append(tests, x)
			}
		}
		vectors++
	}
	if vectors == 0 {
		return l
	}
	// The vector body: the vector loads' lets, the lanes' values, the
	// stores, innermost first.
	values := make([]ir.Expr, n)
	for i := range values {
		var vec func(ir.Expr) ir.Expr
		vec = func(e ir.Expr) ir.Expr {
			if ld, isLoad := e.(*ir.Load); isLoad {
				if a := byKey[loadKey(ld)]; a != nil && a.group > 0 {
					return &ir.Var{T: a.t, Name: a.vectors[i]}
				}
			}
			return ir.MapExpr(e, vec)
		}
		values[i] = lane(vec(store.Value), int64(i))
	}
	var stores []ir.Stmt
	for i := int64(0); i < n; i++ {
		idx := sa.lanes[i]
		if sa.group > 0 {
			idx = ir.Simplify(ir.AddE(sa.lanes[i-i%int64(sa.group)], ir.Int(i%int64(sa.group))))
		}
		stores = append(stores, &ir.Store{Buf: store.Buf, Index: idx, Value: values[i]})
	}
	var body ir.Stmt
	if sa.group > 0 {
		var vs []ir.Stmt
		g := sa.group
		for i := 0; i < len(stores); i += g {
			vs = append(vs, &ir.StoreVector{Lanes: g, Body: ir.MakeBlock(stores[i : i+g]...)})
		}
		body = ir.MakeBlock(vs...)
	} else {
		body = ir.MakeBlock(stores...)
	}
	for j := len(loads) - 1; j >= 0; j-- {
		a := loads[j]
		if a.group == 0 {
			continue
		}
		for i := int(n) - a.group; i >= 0; i -= a.group {
			first := a.lanes[i]
			for k := a.group - 1; k >= 0; k-- {
				body = &ir.LetStmt{Name: a.vectors[i+k],
					Value: &ir.Load{T: a.t, Buf: a.buf, Index: ir.Simplify(ir.AddE(first, ir.Int(int64(k))))}, Body: body}
			}
			body = &ir.LoadVector{Lanes: a.group, Body: body}
		}
	}
	if len(tests) == 0 {
		return body
	}
	// Inside the branch a stride tested equal to 1 is 1.
	known := map[string]ir.Expr{}
	for _, t := range tests {
		if isStrideTest(t) {
			known[t.(*ir.Binary).A.(*ir.Var).Name] = ir.Int(1)
		}
	}
	if len(known) > 0 {
		var simp func(ir.Stmt) ir.Stmt
		simp = func(s ir.Stmt) ir.Stmt {
			return ir.MapStmt(s, simp, func(e ir.Expr) ir.Expr { return ir.Simplify(ir.Substitute(e, known)) })
		}
		body = simp(body)
	}
	// The tests are one conjunction: the others may assume the strides
	// tested equal to 1 are.
	var cond ir.Expr
	for _, t := range tests {
		if !isStrideTest(t) {
			t = ir.Simplify(ir.Substitute(t, known))
		}
		if cond == nil {
			cond = t
		} else {
			cond = ir.Bin(ir.And, cond, t)
		}
	}
	return &ir.IfThenElse{Cond: cond, Then: body, Else: l}
}

// vectorTests decides whether access a of n lanes can be vectors: it sets
// a.group (and names a load's lanes) and returns the run-time tests that
// must hold, or ok false when it stays scalar.
func (va *vectorAccesser) vectorTests(a *vecAccess, n int64, lv letValues) (tests []ir.Expr, ok bool) {
	elem := int64(a.t.Bytes())
	group := int64(0)
	for _, g := range []int64{4, 2} {
		if n%g == 0 && ir.VectorLanesOK(a.t, int(g)) && va.alignment(a.buf) >= g*elem {
			group = g
			break
		}
	}
	if group == 0 {
		return nil, false
	}
	// Lane l is lane 0 plus l*d.
	d, ok := affineCoef(a.index, a.loopVar)
	if !ok || hasLoad(d) {
		return nil, false
	}
	d = ir.Simplify(d)
	if c, isConst := ir.AsInt(d); isConst && c != 1 {
		return nil, false
	} else if !isConst {
		// A stride known at run time: only the buffer's own dimension
		// 0, which is 1 for a dense buffer, is worth testing (a
		// transposing copy's would fail the test every time).
		if v, isVar := d.(*ir.Var); !isVar || v.Name != BufferVar(a.buf, "stride", 0) {
			return nil, false
		}
		tests = append(tests, ir.Bin(ir.EQ, d, ir.Int(1)))
	}
	if m, r := modRem(a.lanes[0], lv.vals, 0); !multipleOf(m, r, group) {
		tests = append(tests, ir.Bin(ir.EQ, ir.ModE(a.lanes[0], ir.Int(group)), ir.Int(0)))
	}
	a.group = int(group)
	return tests, true
}

// isStrideTest reports whether t is a test that a stride is 1.
func isStrideTest(t ir.Expr) bool {
	eq, ok := t.(*ir.Binary)
	if !ok || eq.Op != ir.EQ || !ir.Equal(eq.B, ir.Int(1)) {
		return false
	}
	_, isVar := eq.A.(*ir.Var)
	return isVar
}

// misalignedWith reports whether a vector access a is at a constant
// distance that is not a multiple of its lanes from an earlier vector
// access of the same buffer: both cannot be aligned, and the earlier one
// wins (a stencil's in[x] is a vector, in[x + 1] stays scalar).
func misalignedWith(a *vecAccess, all []*vecAccess) bool {
	for _, b := range all {
		if b == a {
			return false
		}
		if b.group == 0 || b.buf != a.buf {
			continue
		}
		// Both are vectors only where the stride of the buffer's
		// dimension 0 is 1.
		one := map[string]ir.Expr{BufferVar(a.buf, "stride", 0): ir.Int(1)}
		if c, ok := ir.AsInt(ir.Simplify(ir.Substitute(ir.SubE(a.lanes[0], b.lanes[0]), one))); ok && c%int64(a.group) != 0 {
			return true
		}
	}
	return false
}

// inlineLets returns the store a vectorized loop's body makes, with the
// lets around it substituted, or false when the body is not lets around
// one store.
func inlineLets(s ir.Stmt) (*ir.Store, bool) {
	var lets []*ir.LetStmt
	for {
		switch x := s.(type) {
		case *ir.LetStmt:
			lets = append(lets, x)
			s = x.Body
			continue
		case *ir.Store:
			st := &ir.Store{Buf: x.Buf, Index: x.Index, Value: x.Value, Atomic: x.Atomic}
			for i := len(lets) - 1; i >= 0; i-- {
				m := map[string]ir.Expr{lets[i].Name: lets[i].Value}
				st.Index, st.Value = ir.Substitute(st.Index, m), ir.Substitute(st.Value, m)
			}
			return st, true
		}
		return nil, false
	}
}

// unconditionalLoads calls f with each load of e that is evaluated
// whenever e is, outer loads first, except those whose index uses a name
// bound inside e (in bound).
func unconditionalLoads(e ir.Expr, bound map[string]bool, f func(*ir.Load)) {
	switch x := e.(type) {
	case *ir.Load:
		if !ir.UsesAny(x.Index, func(n string) bool { return bound[n] }) {
			f(x)
		}
	case *ir.Select:
		unconditionalLoads(x.Cond, bound, f)
		return
	case *ir.Binary:
		if x.Op == ir.And || x.Op == ir.Or {
			unconditionalLoads(x.A, bound, f)
			return
		}
	case *ir.Let:
		unconditionalLoads(x.Value, bound, f)
		inner := map[string]bool{x.Name: true}
		for n := range bound {
			inner[n] = true
		}
		unconditionalLoads(x.Body, inner, f)
		return
	}
	ir.VisitExpr(e, func(y ir.Expr) { unconditionalLoads(y, bound, f) })
}

// loadKey is the text of a load: two loads with the same key read the
// same element.
func loadKey(ld *ir.Load) string { return ld.Buf + "[" + ir.ExprString(ld.Index) + "]" }

// affineCoef returns d such that e is e(x=0) + x*d, for e a sum of terms
// each of which is x times a factor that does not use x, or does not use
// x; ok is false for any other use of x (a division, a min, a load).
func affineCoef(e ir.Expr, x string) (d ir.Expr, ok bool) {
	if !ir.Uses(e, x) {
		return ir.Int(0), true
	}
	switch e := e.(type) {
	case *ir.Var:
		return ir.Int(1), e.Name == x && e.T == ir.Int32
	case *ir.Binary:
		switch e.Op {
		case ir.Add, ir.Sub:
			da, okA := affineCoef(e.A, x)
			db, okB := affineCoef(e.B, x)
			if !okA || !okB {
				return nil, false
			}
			if e.Op == ir.Add {
				return ir.AddE(da, db), true
			}
			return ir.SubE(da, db), true
		case ir.Mul:
			if !ir.Uses(e.A, x) {
				if db, ok := affineCoef(e.B, x); ok {
					return ir.MulE(e.A, db), true
				}
				return nil, false
			}
			if !ir.Uses(e.B, x) {
				if da, ok := affineCoef(e.A, x); ok {
					return ir.MulE(da, e.B), true
				}
				return nil, false
			}
		}
	}
	return nil, false
}
