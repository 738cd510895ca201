package lower_test

import (
	"fmt"
	"maps"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/gohalide/gohalide/apps/algo"
	"github.com/gohalide/gohalide/halide"
	"github.com/gohalide/gohalide/ir"
	"github.com/gohalide/gohalide/lower"
	"github.com/gohalide/gohalide/tests/fuzz"
)

// notIdempotent lists the passes that, run a second time on their own
// output, may change it, each with the reason. Every other pass of the
// table must leave its own output as it is: the same statement, kernels,
// kernel records, Funcs and order (pointers, not text). TestRerun checks
// both ways: a pass not listed returns its input untouched, and a pass
// listed changes something on at least one case (else the list is stale).
var notIdempotent = map[string]string{
	// It copies each Func it keeps into a new map (a Func is never
	// edited in place, so every pass may hold on to the one it read),
	// and appends to the order.
	"inline_functions": "copies each realized Func again and appends it to the order again",
	// It builds the loop nest from the Funcs: every node is new.
	"schedule_functions": "builds the loop nest from the Funcs, not from the statement it is given",
	// Its region lets (f.s0.x.min = ...) and the checks of the input and
	// output bounds are made from the loops and the consumers' accesses;
	// run again, it makes them again, around those it made.
	"bounds_inference": "makes the region lets and the bounds checks again, around those it made",
	// It bounds the extents of the allocation it hoisted again (the
	// allocation is then where it was, but its size is bounded anew: a
	// max with 0 around it, say) and, at the root, makes the host's size
	// check again. It cannot tell an allocation it hoisted from one
	// stored at its hoist level, whose size it must bound.
	"hoist_storage": "bounds the size of the allocation it hoisted again and makes its size check again",
	// It makes the record of each kernel, with its block size and thread
	// dimensions, from its thread loops: a new record each time (with
	// the same facts), since it cannot tell one it made from one a later
	// pass added facts to.
	"gpu_block_size": "makes a new record for each kernel (with the same facts)",
	// It deals each shared production out to the block's threads; its
	// output's share loops are serial loops whose stores depend on the
	// thread, which it refuses as a production threads cannot share.
	"gpu_cooperative": "deals out again the productions it dealt out, or refuses them (their stores depend on the thread)",
	// Its output keeps the reduction's thread loop, which ends with the
	// store of op(f(point), total) on the first thread: an update of the
	// form it lowers, so a second run lowers it again (the same values,
	// one more register and shuffle tree).
	"gpu_thread_reduce": "its output's thread loop still ends with a store of op(f(point), total), which a second run reduces again",
	// Its input has thread loops; its output has none, and what was
	// inside them cannot be told from what was at the block level, so a
	// second run would make all of it run on thread 0.
	"gpu_thread_loops": "its output has no thread loops, so a second run would take every store for one at the block level",
	// It splits each kernel's body into a steady state without tail
	// guards and the guarded rest; run again, it splits each of them
	// again on the same condition.
	"gpu_partition": "splits again each of the two parts of the body it split",
	// A vectorized loop it rewrites keeps the loop as it was as the
	// fallback of a run-time alignment test; that fallback is a
	// vectorized loop it rewrites again.
	"vector_access": "the fallback it keeps of a vectorized loop is a vectorized loop, which it rewrites again",
}

// rerunCases are the pipelines TestRerun lowers: those of TestUnchanged,
// the apps on the CPU, and random schedules of the schedule fuzzer's
// algorithms (those that lower).
func rerunCases() []namedCase {
	cases := append(appCases(),
		namedCase{"cpu_gemm", func() *halide.Func { return algo.NewGEMM(16, 16, 16).Out() }},
		namedCase{"cpu_conv1d", func() *halide.Func { return algo.NewConv1D(100, 7).Out() }},
		namedCase{"cpu_depthwise", func() *halide.Func { return algo.NewDepthwise(1, 4, 16, 16, 3).Out() }},
		namedCase{"cpu_conv2d", func() *halide.Func { return algo.NewConv2D(1, 4, 8, 16, 3, 1).Out() }},
		// Hoisted storage, so that hoist_storage (not idempotent) has
		// work whatever the random schedules below draw.
		namedCase{"cpu_hoist_storage", func() *halide.Func {
			x, y, xo, xi := halide.NewVar("x"), halide.NewVar("y"), halide.NewVar("xo"), halide.NewVar("xi")
			in := halide.NewImageParam("in", halide.Float32, 2)
			g, f := halide.NewFunc("g"), halide.NewFunc("f")
			g.Define(x, y).Is(in.At(x, y).Mul(2))
			f.Define(x, y).Is(g.At(x.Sub(1), y).Add(g.At(x.Add(1), y)))
			f.Split(x, xo, xi, 8, halide.GuardWithIf)
			g.ComputeAt(f, xo).HoistStorageRoot()
			return f
		}},
		namedCase{"gpu_rowsum_block", func() *halide.Func {
			v := algo.NewRowSum(256, 5)
			if err := v.GPUScheduleBlock(64, 4); err != nil {
				panic(err) // 64 * 4 divides 256
			}
			return v.Out()
		}},
	)
	// Random schedules (seed 8; the fixed cases above give every pass of
	// notIdempotent work whatever they draw; 120 cases, half on the GPU,
	// is a few seconds).
	n := 120
	if testing.Short() {
		n = 20
	}
	for i := range n {
		c := fuzz.MakeCase(8, i, fuzz.Algos)
		cases = append(cases, namedCase{fmt.Sprintf("schedfuzz_%d_%s_%s", i, c.Algo, c.Target()), func() *halide.Func {
			inst := fuzz.AlgoByName(c.Algo).Build(c.Sizes)
			inst.Apply(c.Sched)
			return inst.Out
		}})
	}
	return cases
}

// TestRerun runs every pass a second time on its own output (on a copy of
// the lowering state) and checks two things:
//
//   - a pass not in notIdempotent leaves its own output exactly as it is:
//     the same statement, kernels, kernel records, Funcs and order (the
//     same pointers);
//   - no pass, first run or second, rebuilds a node it did not change: a
//     node of its output at the place of a node of its input, of the same
//     kind, with the same fields and the very same children, must be that
//     node (a mutator returns the node it was given when nothing under it
//     changed, so unchanged subtrees are shared).
//
// With RERUN_DUMP=dir, each pass that changed its own output writes the
// state it left and the state it left again there, to compare.
//
// The second check compares nodes at the same place (the children of two
// nodes of the same kind with as many children, in order); it stops where
// the pass changed the shape, so it proves identity for what the pass left
// in place, which is what a pass that changes one loop leaves of the rest.
func TestRerun(t *testing.T) {
	defer lower.SetRerun(nil)
	type tally struct {
		same, changed, failed int
		example               string
	}
	tallies := map[string]*tally{}
	lowered := 0
	for _, c := range rerunCases() {
		t.Run(c.name, func(t *testing.T) {
			var prev lower.Snapshot
			lower.SetRerun(func(pass string, after, again lower.Snapshot, err error) {
				for _, r := range rebuilt(prev, after, 3) {
					t.Errorf("pass %s rebuilt a node it did not change: %s", pass, r)
				}
				prev = after
				tl := tallies[pass]
				if tl == nil {
					tl = &tally{}
					tallies[pass] = tl
				}
				switch {
				case err != nil:
					tl.failed++
					if tl.example == "" {
						tl.example = c.name + ": " + firstLine(err.Error())
					}
				case same(after, again):
					tl.same++
				default:
					if d := os.Getenv("RERUN_DUMP"); d != "" {
						os.WriteFile(d+"/"+pass+"."+c.name+".after", []byte(stateText(after.Stmt, after.Kernels, after.Records)), 0o644)
						os.WriteFile(d+"/"+pass+"."+c.name+".again", []byte(stateText(again.Stmt, again.Kernels, again.Records)), 0o644)
					}
					tl.changed++
					if tl.example == "" {
						tl.example = c.name + ": " + difference(after, again)
					}
				}
				if _, listed := notIdempotent[pass]; !listed && !(err == nil && same(after, again)) {
					why := "an error: " + firstLine(fmt.Sprint(err))
					if err == nil {
						why = difference(after, again)
					}
					t.Errorf("pass %s is idempotent, but run again on its own output it changed %s", pass, why)

				}
			})
			if _, err := halide.NewPipeline(c.out()).Lower(); err != nil {
				// A random schedule the library refuses: nothing to check
				// past the pass that refused it.
				if !strings.HasPrefix(c.name, "schedfuzz_") {
					t.Fatal(err)
				}
				return
			}
			lowered++
		})
	}
	if lowered < 40 {
		t.Errorf("only %d pipelines lowered: too few to say much", lowered)
	}
	for _, p := range lower.Passes {
		tl := tallies[p.Name]
		if tl == nil {
			t.Errorf("pass %s never ran", p.Name)
			continue
		}
		t.Logf("%-24s again: same %3d  changed %3d  failed %3d  %s", p.Name, tl.same, tl.changed, tl.failed, tl.example)
		if reason, listed := notIdempotent[p.Name]; listed && tl.changed+tl.failed == 0 {
			t.Errorf("pass %s is listed as not idempotent (%s), but it left its own output as it was on every case", p.Name, reason)
		}
	}
	for name := range notIdempotent {
		if !slices.ContainsFunc(lower.Passes, func(p lower.Pass) bool { return p.Name == name }) {
			t.Errorf("notIdempotent lists %s, which is not a pass", name)
		}
	}
}

// same reports whether two snapshots hold the same values (pointers).
func same(a, b lower.Snapshot) bool {
	return a.Stmt == b.Stmt && slices.Equal(a.Kernels, b.Kernels) && maps.Equal(a.Records, b.Records) &&
		maps.Equal(a.Funcs, b.Funcs) && slices.Equal(a.Order, b.Order)
}

// difference says what differs between two snapshots.
func difference(a, b lower.Snapshot) string {
	var d []string
	if a.Stmt != b.Stmt {
		d = append(d, "the statement")
	}
	if !slices.Equal(a.Kernels, b.Kernels) {
		d = append(d, "the kernels")
	}
	if !maps.Equal(a.Records, b.Records) {
		d = append(d, "the kernel records")
	}
	if !maps.Equal(a.Funcs, b.Funcs) {
		d = append(d, "the Funcs")
	}
	if !slices.Equal(a.Order, b.Order) {
		d = append(d, "the order")
	}
	return strings.Join(d, ", ")
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

// rebuilt returns (up to max) the nodes of after, in its statement and in
// the bodies of its kernels, rebuilt at the place of a node of before
// with the same fields and children (see TestRerun).
func rebuilt(before, after lower.Snapshot, max int) []string {
	var out []string
	report := func(s string) {
		if len(out) < max {
			out = append(out, s)
		}
	}
	if before.Stmt != nil && after.Stmt != nil {
		pairs(before.Stmt, after.Stmt, "", report)
	}
	if len(before.Kernels) == len(after.Kernels) {
		for i, k := range after.Kernels {
			if b := before.Kernels[i]; b != k && b.Name == k.Name {
				pairs(b.Body, k.Body, "kernel "+k.Name, report)
			}
		}
	}
	return out
}

// pairs walks two trees side by side, from a of the pass's input and b of
// its output at the same place, down to where they are the same node or
// differ in kind, in their own fields (a name, an operator) or in their
// number of children, and reports each b with children that is a copy of
// a, with the kinds of the nodes above it (path). Nodes whose own fields
// differ are not the same node moved (a let inserted before others shifts
// the chain), so the walk stops there.
func pairs(a, b any, path string, report func(string)) {
	if a == b || a == nil || b == nil || reflect.TypeOf(a) != reflect.TypeOf(b) {
		return
	}
	ca, cb := children(a), children(b)
	va, vb := reflect.ValueOf(a).Elem(), reflect.ValueOf(b).Elem()
	if len(ca) != len(cb) || !shallowEqual(va, vb, false) {
		return
	}
	path += " > " + strings.TrimPrefix(fmt.Sprintf("%T", b), "*ir.")
	if len(ca) > 0 && shallowEqual(va, vb, true) {
		report(fmt.Sprintf("%s (at %s)", nodeText(b), path))
		return
	}
	for i := range ca {
		pairs(ca[i], cb[i], path, report)
	}
}

// children lists the child statements and expressions of a node, in order.
func children(n any) []any {
	var out []any
	switch n := n.(type) {
	case ir.Stmt:
		ir.VisitStmt(n, func(s ir.Stmt) { out = append(out, s) }, func(e ir.Expr) { out = append(out, e) })
	case ir.Expr:
		ir.VisitExpr(n, func(e ir.Expr) { out = append(out, e) })
	}
	return out
}

// shallowEqual reports whether two values are equal one level down: the
// nodes they point to (children, kernels, errors) are compared as
// pointers, slices element by element. Without kids, the children
// (expressions and statements) are left out: the node's own fields.
func shallowEqual(x, y reflect.Value, kids bool) bool {
	if !kids && (x.Type() == exprType || x.Type() == stmtType) {
		return true
	}
	switch x.Kind() {
	case reflect.Slice:
		if x.Len() != y.Len() {
			return false
		}
		for i := range x.Len() {
			if !shallowEqual(x.Index(i), y.Index(i), kids) {
				return false
			}
		}
		return true
	case reflect.Struct:
		for i := range x.NumField() {
			if !shallowEqual(x.Field(i), y.Field(i), kids) {
				return false
			}
		}
		return true
	case reflect.Map, reflect.Func:
		return x.Pointer() == y.Pointer()
	}
	return x.Equal(y)
}

var (
	exprType = reflect.TypeFor[ir.Expr]()
	stmtType = reflect.TypeFor[ir.Stmt]()
)

func nodeText(n any) string {
	var s string
	switch n := n.(type) {
	case ir.Stmt:
		s = ir.StmtString(n)
	case ir.Expr:
		s = ir.ExprString(n)
	}
	s = firstLine(s)
	if len(s) > 100 {
		s = s[:100] + "..."
	}
	return s
}
