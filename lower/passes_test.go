package lower_test

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/gohalide/gohalide/halide"
	"github.com/gohalide/gohalide/ir"
	"github.com/gohalide/gohalide/lower"
)

func TestPassOrder(t *testing.T) {
	index := map[string]int{}
	for i, p := range lower.Passes {
		if _, dup := index[p.Name]; dup {
			t.Fatalf("pass %s appears twice", p.Name)
		}
		index[p.Name] = i
	}
	for _, c := range lower.PassOrder {
		a, okA := index[c[0]]
		b, okB := index[c[1]]
		if !okA || !okB {
			t.Fatalf("constraint %v names a pass that is not in the table", c)
		}
		if a >= b {
			t.Errorf("%s must run before %s: %s", c[0], c[1], c[2])
		}
	}
	// gpu_kernels simplifies each kernel body; gpu_shared_reuse lays out
	// the kernels' shared memory, gpu_partition (which simplifies the
	// bodies it partitions) follows, then common_loads, which shares values
	// along the final straight lines, vector_access, which turns
	// vectorized loops into vector loads and stores, and loop_invariants,
	// which moves costly values out of the final loops, come last.
	n := len(lower.Passes)
	var last []string
	for _, p := range lower.Passes[n-6:] {
		last = append(last, p.Name)
	}
	if got, want := strings.Join(last, ", "), "gpu_kernels, gpu_shared_reuse, gpu_partition, common_loads, vector_access, loop_invariants"; got != want {
		t.Errorf("last passes are %s; want %s", got, want)
	}
}

// TestPassHeaders checks each pass file's "Before:" sentence against
// PassOrder: it names exactly the passes the table says must run before
// this one.
func TestPassHeaders(t *testing.T) {
	before := regexp.MustCompile(`(?s)\n// Before:(.*?)After:`)
	for _, p := range lower.Passes {
		src, err := os.ReadFile(p.Name + ".go")
		if err != nil {
			t.Errorf("pass %s has no file of its name: %v", p.Name, err)
			continue
		}
		m := before.FindSubmatch(src)
		if m == nil {
			t.Errorf("%s.go: the opening comment has no \"Before: ... After:\"", p.Name)
			continue
		}
		var named, want []string
		for _, q := range lower.Passes {
			if regexp.MustCompile(`\b` + q.Name + `\b`).Match(m[1]) {
				named = append(named, q.Name)
			}
		}
		for _, c := range lower.PassOrder {
			if c[1] == p.Name {
				want = append(want, c[0])
			}
		}
		slices.Sort(named)
		slices.Sort(want)
		if !slices.Equal(named, want) {
			t.Errorf("%s.go: Before names %v; PassOrder has %v before it", p.Name, named, want)
		}
	}
}

var update = flag.Bool("update", false, "rewrite the pass list of doc.go from the pass table")

// TestPassDoc checks that the package comment lists the passes of the
// table, in order, with their summaries; -update rewrites the list.
func TestPassDoc(t *testing.T) {
	const start, end = "// The passes, in order (Passes in passes.go):\n//\n", "//\n"
	src, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(src)
	i := strings.Index(doc, start)
	if i < 0 {
		t.Fatalf("doc.go has no line %q", start)
	}
	i += len(start)
	j := i + strings.Index(doc[i:], end)
	var list strings.Builder
	for _, p := range lower.Passes {
		line := "//\t" + p.Name + strings.Repeat(" ", max(1, 23-len(p.Name)))
		for _, w := range strings.Fields(p.Summary) {
			if len(line)+len(w) > 110 && strings.TrimSpace(line) != "//" {
				list.WriteString(strings.TrimRight(line, " ") + "\n")
				line = "//\t" + strings.Repeat(" ", 23)
			}
			line += w + " "
		}
		list.WriteString(strings.TrimRight(line, " ") + "\n")
	}
	if got := list.String(); doc[i:j] != got {
		if *update {
			if err := os.WriteFile("doc.go", []byte(doc[:i]+got+doc[j:]), 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
		t.Errorf("doc.go's pass list is not the table's (run go test -run TestPassDoc -update):\n%s", got)
	}
}

// blur is h = 2*in (inline), g = h + 1, f = g(x) + g(x+1), with g computed
// at the outer loop of an 8-wide split of f's x; unroll says whether f's
// inner loop is unrolled.
func blur(unroll bool) *halide.Func {
	x, y := halide.NewVar("x"), halide.NewVar("y")
	in := halide.NewImageParam("in", halide.Float32, 2)
	h := halide.NewFunc("h")
	h.Define(x, y).Is(in.At(x, y).Mul(2))
	g := halide.NewFunc("g")
	g.Define(x, y).Is(h.At(x, y).Add(1))
	f := halide.NewFunc("f")
	f.Define(x, y).Is(g.At(x, y).Add(g.At(x.Add(1), y)))
	xo, xi := halide.NewVar("xo"), halide.NewVar("xi")
	f.Split(x, xo, xi, 8)
	if unroll {
		f.Unroll(xi)
	}
	g.ComputeAt(f, xo)
	return f
}

// after returns the statement after the named pass.
func after(t *testing.T, f *halide.Func, pass string) string {
	t.Helper()
	l, err := halide.NewPipeline(f).WithOptions(halide.Options{Verify: true, StopAfter: pass}).Lower()
	if err != nil {
		t.Fatal(err)
	}
	return l.String()
}

func mustContain(t *testing.T, stmt string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(stmt, w) {
			t.Errorf("statement lacks %q:\n%s", w, stmt)
		}
	}
}

func mustLack(t *testing.T, stmt string, bad ...string) {
	t.Helper()
	for _, b := range bad {
		if strings.Contains(stmt, b) {
			t.Errorf("statement has %q:\n%s", b, stmt)
		}
	}
}

func TestInlineFunctions(t *testing.T) {
	s := after(t, blur(false), "schedule_functions")
	mustLack(t, s, "h(", "realize h", "produce h")
	mustContain(t, s, "in(g.s0.x, g.s0.y)")
}

func TestScheduleFunctions(t *testing.T) {
	s := after(t, blur(false), "schedule_functions")
	// g is realized and produced inside f's outer x loop, before the inner one.
	mustContain(t, s,
		"for (f.s0.x.xo, 0, (((f.s0.x.max - f.s0.x.min) / 8) + 1)) {",
		"realize g() in Auto {",
		"for (f.s0.x.xi, 0, 8) {",
		"let f.s0.x = (min(((f.s0.x.xo * 8) + f.s0.x.min), (f.s0.x.max - 7)) + f.s0.x.xi)")
	if strings.Index(s, "produce g") > strings.Index(s, "for (f.s0.x.xi") {
		t.Errorf("g is produced inside the inner loop:\n%s", s)
	}
}

func TestBoundsInference(t *testing.T) {
	s := after(t, blur(false), "bounds_inference")
	// g is needed over the 8 points of one tile and one more to the right.
	mustContain(t, s,
		"let g.s0.x.min = min(((f.s0.x.xo * 8) + f.s0.x.min), (f.s0.x.max - 7))",
		"let g.s0.x.max = (min(((f.s0.x.xo * 8) + f.s0.x.min), (f.s0.x.max - 7)) + 8)",
		"let g.s0.y.min = f.s0.y",
		"assert(")
}

func TestAllocationBounds(t *testing.T) {
	s := after(t, blur(false), "allocation_bounds")
	mustContain(t, s, "realize g([min(((f.s0.x.xo * 8) + f.s0.x.min), (f.s0.x.max - 7)), 9], [f.s0.y, 1]) in Stack {")
}

func TestStorageFlattening(t *testing.T) {
	s := after(t, blur(false), "storage_flattening")
	mustContain(t, s, "allocate g[float32 * 9 * 1] in Stack", "free g", "      g[", "f[(((f.s0.x - f.min.0) * f.stride.0) + ((f.s0.y - f.min.1) * f.stride.1))] = ")
	mustLack(t, s, "realize", "g(")
}

func TestUnrollLoops(t *testing.T) {
	s := after(t, blur(true), "unroll_loops")
	mustLack(t, s, "unrolled")
	if n := strings.Count(s, "f[("); n != 8 {
		t.Errorf("want 8 unrolled stores to f, got %d:\n%s", n, s)
	}
}

func TestSimplify(t *testing.T) {
	before := after(t, blur(false), "unroll_loops")
	s := after(t, blur(false), "simplify")
	// The loop of g over y has extent 1: simplify replaces it by a let and
	// substitutes it.
	mustContain(t, before, "for (g.s0.y, g.s0.y.min, ((g.s0.y.max - g.s0.y.min) + 1))")
	mustLack(t, s, "for (g.s0.y")
}

func TestDebugLog(t *testing.T) {
	var log bytes.Buffer
	if _, err := halide.NewPipeline(blur(false)).WithOptions(halide.Options{Debug: 1, Log: &log}).Lower(); err != nil {
		t.Fatal(err)
	}
	for _, p := range lower.Passes {
		if !strings.Contains(log.String(), "lower: "+p.Name+" (") {
			t.Errorf("debug level 1 does not log pass %s:\n%s", p.Name, log.String())
		}
	}
	if strings.Contains(log.String(), "produce") {
		t.Errorf("debug level 1 printed IR:\n%s", log.String())
	}
	log.Reset()
	if _, err := halide.NewPipeline(blur(false)).WithOptions(halide.Options{Debug: 2, Log: &log}).Lower(); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(log.String(), "produce f {") || !strings.Contains(log.String(), "unchanged") {
		t.Errorf("debug level 2 should print the IR after each pass and 'unchanged' for passes that change nothing:\n%s", log.String())
	}
}

// TestInternalErrorNamesPass feeds Lower a malformed pipeline (the output
// calls a Func that is not in it, which the halide package never builds) and
// checks that the failed invariant comes back as an ErrInternal error naming
// the pass, not as a panic.
func TestInternalErrorNamesPass(t *testing.T) {
	x := ir.NewVar("x")
	call := &ir.Call{T: ir.Float32, Kind: ir.CallFunc, Name: "ghost", Args: []ir.Expr{x}}
	out := &ir.Function{Name: "out", Args: []string{"x"}, T: ir.Float32,
		Pure: &ir.Definition{Args: []ir.Expr{x}, Value: call, Schedule: ir.StageSchedule{Dims: []ir.Dim{{Name: "x"}}}}}
	p := &lower.Pipeline{Funcs: map[string]*ir.Function{"out": out}, Order: []string{"out"}, Output: "out"}
	_, err := lower.Lower(p, lower.Options{})
	var e *ir.Error
	if !errors.As(err, &e) || e.Code != ir.ErrInternal {
		t.Fatalf("got %v, want an ErrInternal error", err)
	}
	if e.Directive != "storage_flattening" || !strings.Contains(e.Msg, "storage_flattening") {
		t.Errorf("error does not name the pass storage_flattening: directive %q, %s", e.Directive, e.Msg)
	}
}

func TestDebugLevel3(t *testing.T) {
	var log bytes.Buffer
	if _, err := halide.NewPipeline(blur(false)).WithOptions(halide.Options{Debug: 3, Log: &log}).Lower(); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"bounds_inference: regions of g defined", "allocation_bounds: g in Stack, extents 9 x 1"} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("debug level 3 does not log %q:\n%s", want, log.String())
		}
	}
}
