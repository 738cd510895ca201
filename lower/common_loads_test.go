package lower

import (
	"strings"
	"testing"

	"github.com/gohalide/gohalide/ir"
)

// TestCommonLoads runs common_loads on hand-made kernel bodies: s is a
// shared array (GPUShared allocation), r a register array, in a read-only
// global input, out a global output. Each case counts the loads of each
// buffer left in the result.
func TestCommonLoads(t *testing.T) {
	tx := ir.NewVar(ir.ThreadID[0])
	ld := func(buf string, i ir.Expr) ir.Expr { return &ir.Load{T: ir.Float32, Buf: buf, Index: i} }
	st := func(buf string, i ir.Expr, v ir.Expr) ir.Stmt { return &ir.Store{Buf: buf, Index: i, Value: v} }
	sum := func(xs ...ir.Expr) ir.Expr {
		acc := xs[0]
		for _, x := range xs[1:] {
			acc = ir.AddE(acc, x)
		}
		return acc
	}
	one := ir.Const(ir.Float32, 1)
	bar := &ir.Barrier{Fence: ir.FenceShared}
	let := func(name string, v ir.Expr, body ...ir.Stmt) ir.Stmt {
		return &ir.LetStmt{Name: name, Value: v, Body: ir.MakeBlock(body...)}
	}
	i := ir.NewVar("i")
	kernel := func(body ...ir.Stmt) ir.Stmt {
		b := ir.MakeBlock(body...)
		b = &ir.Allocate{Name: "r", T: ir.Float32, Memory: ir.Register, Extents: []ir.Expr{ir.Int(4)}, Body: b}
		return &ir.Allocate{Name: "s", T: ir.Float32, Memory: ir.GPUShared, Extents: []ir.Expr{ir.Int(64)}, Body: b}
	}
	for _, c := range []struct {
		name string
		body ir.Stmt
		want map[string]int // loads left per buffer
	}{
		{"repeated shared load", kernel(
			st("out", ir.Int(0), ld("s", tx)),
			st("out", ir.Int(1), ld("s", tx)),
			st("out", ir.Int(2), ir.MulE(ld("s", tx), ld("s", tx)))),
			map[string]int{"s": 1}},
		{"own store between", kernel(
			st("out", ir.Int(0), ld("s", tx)),
			st("s", tx, one),
			st("out", ir.Int(1), ld("s", tx))),
			map[string]int{"s": 2}},
		{"barrier between: shared reloaded, input not", kernel(
			st("out", ir.Int(0), ld("s", tx)),
			st("out", ir.Int(1), ld("in", tx)),
			bar,
			st("out", ir.Int(2), ld("s", tx)),
			st("out", ir.Int(3), ld("in", tx))),
			map[string]int{"s": 2, "in": 1}},
		{"barrier in a loop between", kernel(
			st("out", ir.Int(0), ld("s", tx)),
			&ir.For{Name: "k", Min: ir.Int(0), Extent: ir.Int(2), Kind: ir.Serial, Body: bar},
			st("out", ir.Int(1), ld("s", tx))),
			map[string]int{"s": 2}},
		{"register array: barrier changes nothing, a store does", kernel(
			st("out", ir.Int(0), ld("r", ir.Int(1))),
			bar,
			st("out", ir.Int(1), ld("r", ir.Int(1))),
			st("r", ir.Int(1), ld("r", ir.Int(1))),
			st("out", ir.Int(2), ld("r", ir.Int(1)))),
			map[string]int{"r": 2}},
		{"an output the kernel writes is never shared", kernel(
			st("out", ir.Int(0), ld("out", tx)),
			st("out2", ir.Int(0), ld("out", tx))),
			map[string]int{"out": 2}},
		{"a conditional load is not moved earlier", kernel(
			st("out", ir.Int(0), &ir.Select{Cond: ir.LTE(tx, ir.Int(3)), True: ld("in", tx), False: one}),
			st("out", ir.Int(1), &ir.Select{Cond: ir.LTE(tx, ir.Int(3)), True: ld("in", tx), False: one})),
			map[string]int{"in": 2}},
		{"a conditional load reads a let bound before it", kernel(
			st("out", ir.Int(0), ld("in", tx)),
			st("out", ir.Int(1), &ir.Select{Cond: ir.LTE(tx, ir.Int(3)), True: ld("in", tx), False: one})),
			map[string]int{"in": 1}},
		{"the same text under two bindings of i", kernel(
			let("i", ir.AddE(tx, ir.Int(1)), st("out", ir.Int(0), ld("in", i))),
			let("i", ir.AddE(tx, ir.Int(2)), st("out", ir.Int(1), ld("in", i)))),
			map[string]int{"in": 2}},
		{"unrolled copies with the same let", kernel(
			let("i", ir.AddE(tx, ir.Int(1)), st("out", ir.Int(0), ld("in", i))),
			let("i", ir.AddE(tx, ir.Int(1)), st("out", ir.Int(1), ld("in", i)))),
			map[string]int{"in": 1}},
		{"gather: the index load first, then the load through it", kernel(
			st("out", ir.Int(0), sum(ld("in", &ir.Cast{T: ir.Int32, X: ld("s", tx)}), one)),
			st("out", ir.Int(1), ld("in", &ir.Cast{T: ir.Int32, X: ld("s", tx)}))),
			map[string]int{"in": 1, "s": 1}},
		{"loads in two branches are not shared", kernel(
			&ir.IfThenElse{Cond: ir.LTE(tx, ir.Int(3)),
				Then: st("out", ir.Int(0), ld("in", tx)),
				Else: st("out", ir.Int(1), ld("in", tx))}),
			map[string]int{"in": 2}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := commonLoadsKernel(c.body, nil)
			count := map[string]int{}
			ir.WalkStmt(got, func(ir.Stmt) bool { return true }, func(e ir.Expr) bool {
				if l, ok := e.(*ir.Load); ok {
					count[l.Buf]++
				}
				return true
			})
			for buf, n := range c.want {
				if count[buf] != n {
					t.Errorf("%d loads of %s, want %d:\n%s", count[buf], buf, n, ir.StmtString(got))
				}
			}
			if err := verifyNoShadowing(got); err != nil {
				t.Errorf("%v:\n%s", err, ir.StmtString(got))
			}
		})
	}
}

// verifyNoShadowing checks that no binding of got shadows another in scope.
func verifyNoShadowing(s ir.Stmt) error {
	var bad []string
	var walk func(s ir.Stmt, scope map[string]bool)
	walk = func(s ir.Stmt, scope map[string]bool) {
		name := ""
		switch x := s.(type) {
		case *ir.LetStmt:
			name = x.Name
		case *ir.For:
			name = x.Name
		}
		inner := scope
		if name != "" {
			if scope[name] {
				bad = append(bad, name)
			}
			inner = map[string]bool{name: true}
			for n := range scope {
				inner[n] = true
			}
		}
		ir.MapStmt(s, func(c ir.Stmt) ir.Stmt { walk(c, inner); return c }, nil)
	}
	walk(s, map[string]bool{})
	if len(bad) > 0 {
		return &ir.Error{Code: ir.ErrInternal, Msg: "shadowed: " + strings.Join(bad, ", ")}
	}
	return nil
}

// TestCommonLoadsVectors checks step 4: lets that load consecutive
// elements of an aligned shared array from an index proved a multiple of
// the lane count become one ir.LoadVector.
func TestCommonLoadsVectors(t *testing.T) {
	tx := ir.NewVar(ir.ThreadID[0])
	ld := func(i ir.Expr) ir.Expr { return &ir.Load{T: ir.Float32, Buf: "s", Index: i} }
	// out[k] = s[base] + s[base+1] + ... + s[base+n-1] for k = 0, 1: each
	// load twice, so step 3 makes each a let.
	row := func(base ir.Expr, n int) ir.Stmt {
		var stores []ir.Stmt
		for k := range 2 {
			v := ld(base)
			for j := 1; j < n; j++ {
				v = ir.AddE(v, ld(ir.AddE(base, ir.Int(int64(j)))))
			}
			stores = append(stores, &ir.Store{Buf: "out", Index: ir.Int(int64(k)), Value: v})
		}
		return &ir.Allocate{Name: "s", T: ir.Float32, Memory: ir.GPUShared, Extents: []ir.Expr{ir.Int(256)}, Body: ir.MakeBlock(stores...)}
	}
	for _, c := range []struct {
		name  string
		body  ir.Stmt
		align int64
		want  []int // lanes of each vector
	}{
		{"tx*4, 4 lanes", row(ir.MulE(tx, ir.Int(4)), 4), 16, []int{4}},
		{"tx*4 + 1: not a multiple of 4", row(ir.AddE(ir.MulE(tx, ir.Int(4)), ir.Int(1)), 4), 16, []int{2}},
		{"tx*2, 4 lanes: two float2", row(ir.MulE(tx, ir.Int(2)), 4), 16, []int{2, 2}},
		{"tx: unknown", row(tx, 4), 16, nil},
		{"array at an offset aligned to 8 bytes", row(ir.MulE(tx, ir.Int(4)), 4), 8, []int{2, 2}},
		{"through a let", &ir.LetStmt{Name: "b", Value: ir.MulE(tx, ir.Int(8)), Body: row(ir.NewVar("b"), 4)}, 16, []int{4}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := commonLoadsKernel(c.body, map[string]int64{"s": c.align})
			var lanes []int
			ir.WalkStmt(got, func(s ir.Stmt) bool {
				if v, ok := s.(*ir.LoadVector); ok {
					lanes = append(lanes, v.Lanes)
					if _, _, _, ok := v.VectorLanes(); !ok {
						t.Errorf("malformed vector load")
					}
				}
				return true
			}, nil)
			if len(lanes) != len(c.want) || len(lanes) > 0 && lanes[0] != c.want[0] {
				t.Errorf("vectors of %v lanes, want %v:\n%s", lanes, c.want, ir.StmtString(got))
			}
		})
	}
}
