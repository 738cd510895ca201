package cfamily

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/gohalide/gohalide/ir"
)

// TestCUDAShiftHelpersOnHost compiles the shift helpers of the CUDA
// preamble (gh_shl_i8 ... gh_shr_u64) as plain C with the host's C
// compiler, under the undefined-behaviour sanitizer where it has one, and
// compares them with ir.Shift on edge operands (the ends of each type, 0,
// -1, amounts around 0, the width and beyond, negative amounts) and random
// ones. Skipped without cc.
func TestCUDAShiftHelpersOnHost(t *testing.T) {
	types := []ir.Type{ir.Int8, ir.Int16, ir.Int32, ir.Int64, ir.UInt8, ir.UInt16, ir.UInt32, ir.UInt64}
	m := &module{d: hostHelpers{}, helpers: map[string]helper{}}
	var src strings.Builder
	src.WriteString("#include <stdio.h>\n#include <string.h>\n")
	for _, ty := range types {
		for _, op := range []string{"shl", "shr"} {
			_, h := m.helperSource("gh_" + op + "_" + cTypeSuffix(ty))
			src.WriteString(h)
		}
	}
	// main reads "type a n" lines and prints "a<<n a>>n", signed types as
	// long long and unsigned ones as unsigned long long.
	src.WriteString("int main(void) {\n    char t[8];\n    long long a, n;\n    unsigned long long ua, un;\n    while (scanf(\"%7s\", t) == 1) {\n")
	for _, ty := range types {
		sfx, c := cTypeSuffix(ty), cType(ty)
		if ty.IsInt() {
			fmt.Fprintf(&src, "        if (strcmp(t, %q) == 0) {\n            if (scanf(\"%%lld %%lld\", &a, &n) != 2) return 2;\n", sfx)
			fmt.Fprintf(&src, "            printf(\"%%lld %%lld\\n\", (long long)gh_shl_%[1]s((%[2]s)a, (%[2]s)n), (long long)gh_shr_%[1]s((%[2]s)a, (%[2]s)n));\n            continue;\n        }\n", sfx, c)
		} else {
			fmt.Fprintf(&src, "        if (strcmp(t, %q) == 0) {\n            if (scanf(\"%%llu %%llu\", &ua, &un) != 2) return 2;\n", sfx)
			fmt.Fprintf(&src, "            printf(\"%%llu %%llu\\n\", (unsigned long long)gh_shl_%[1]s((%[2]s)ua, (%[2]s)un), (unsigned long long)gh_shr_%[1]s((%[2]s)ua, (%[2]s)un));\n            continue;\n        }\n", sfx, c)
		}
	}
	src.WriteString("        return 3;\n    }\n    return 0;\n}\n")
	bin := buildHostC(t, "shift", src.String())

	rng := rand.New(rand.NewPCG(5, 23))
	edges := []int64{math.MinInt64, math.MinInt32, math.MinInt16, math.MinInt8, -129, -65, -64, -63, -33, -32, -31, -17, -16, -15, -9, -8, -7,
		-2, -1, 0, 1, 2, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 255, 256, math.MaxInt16, math.MaxUint16, math.MaxInt32, math.MaxUint32, math.MaxInt64}
	draw := func() int64 {
		switch rng.IntN(3) {
		case 0:
			return edges[rng.IntN(len(edges))]
		case 1:
			return rng.Int64N(161) - 80
		}
		return int64(rng.Uint64())
	}
	type pair struct {
		t    ir.Type
		a, n int64
	}
	var in bytes.Buffer
	var pairs []pair
	for range 10000 {
		a, n := draw(), draw()
		for _, ty := range types {
			p := pair{ty, ty.Wrap(a), ty.Wrap(n)}
			if ty.IsInt() {
				fmt.Fprintf(&in, "%s %d %d\n", cTypeSuffix(ty), p.a, p.n)
			} else {
				fmt.Fprintf(&in, "%s %d %d\n", cTypeSuffix(ty), uint64(p.a), uint64(p.n))
			}
			pairs = append(pairs, p)
		}
	}
	lines := runHostC(t, bin, &in, len(pairs))
	str := func(ty ir.Type, v int64) string {
		if ty.IsUInt() {
			return strconv.FormatUint(uint64(v), 10)
		}
		return strconv.FormatInt(v, 10)
	}
	for i, p := range pairs {
		want := str(p.t, ir.Shift(p.t, p.a, p.n, true)) + " " + str(p.t, ir.Shift(p.t, p.a, p.n, false))
		if lines[i] != want {
			t.Fatalf("gh_shl/gh_shr_%s(%s, %s) = %s, want %s", cTypeSuffix(p.t), str(p.t, p.a), str(p.t, p.n), lines[i], want)
		}
	}
}

// TestCUDABitwiseExprsOnHost prints bitwise expressions of two variables
// a and b of each integer type (each operator, and nests of them whose
// operands C promotes to int) with the CUDA printer, compiles them as
// host C under the undefined-behaviour sanitizer, and compares them with
// the simplifier's constant folding (ir.EvalBitwise) on edge and random
// operands. Skipped without cc.
func TestCUDABitwiseExprsOnHost(t *testing.T) {
	types := []ir.Type{ir.Int8, ir.Int16, ir.Int32, ir.Int64, ir.UInt8, ir.UInt16, ir.UInt32, ir.UInt64}
	exprs := func(ty ir.Type) []ir.Expr {
		a, b := &ir.Var{T: ty, Name: "a"}, &ir.Var{T: ty, Name: "b"}
		bw := ir.Bitwise
		return []ir.Expr{
			bw(ir.IntrinsicBitAnd, a, b), bw(ir.IntrinsicBitOr, a, b), bw(ir.IntrinsicBitXor, a, b), bw(ir.IntrinsicBitNot, a),
			bw(ir.IntrinsicShiftLeft, a, b), bw(ir.IntrinsicShiftRight, a, b),
			bw(ir.IntrinsicBitOr, bw(ir.IntrinsicBitXor, bw(ir.IntrinsicBitAnd, a, b), bw(ir.IntrinsicBitNot, a)), bw(ir.IntrinsicShiftRight, a, b)),
			bw(ir.IntrinsicBitXor, bw(ir.IntrinsicBitNot, bw(ir.IntrinsicShiftLeft, b, a)), bw(ir.IntrinsicBitAnd, a, ir.IntConst(ty, 3))),
		}
	}
	m := &module{d: hostHelpers{}, helpers: map[string]helper{}}
	var fns strings.Builder
	var dispatch strings.Builder
	n := 0
	for _, ty := range types {
		c := cType(ty)
		for _, e := range exprs(ty) {
			p := newPrinter(m, "test")
			p.vars["a"] = []cVar{{"a", ty}}
			p.vars["b"] = []cVar{{"b", ty}}
			s, _ := p.expr(e)
			fmt.Fprintf(&fns, "static %s f%d(%s a, %s b) {\n    return %s;\n}\n", c, n, c, c, s)
			if ty.IsInt() {
				fmt.Fprintf(&dispatch, "        case %d: printf(\"%%lld\\n\", (long long)f%d((%s)a, (%s)b)); break;\n", n, n, c, c)
			} else {
				fmt.Fprintf(&dispatch, "        case %d: printf(\"%%llu\\n\", (unsigned long long)f%d((%s)a, (%s)b)); break;\n", n, n, c, c)
			}
			n++
		}
	}
	src := "#include <stdio.h>\n" + m.preamble() + fns.String() +
		"int main(void) {\n    int i;\n    long long a, b;\n    while (scanf(\"%d %lld %lld\", &i, &a, &b) == 3) {\n        switch (i) {\n" +
		dispatch.String() + "        default: return 3;\n        }\n    }\n    return 0;\n}\n"
	bin := buildHostC(t, "bitwise", src)

	rng := rand.New(rand.NewPCG(7, 41))
	type run struct {
		e    ir.Expr
		t    ir.Type
		a, b int64
	}
	var in bytes.Buffer
	var runs []run
	k := 0
	for _, ty := range types {
		edges := []int64{ty.Min(), ty.Max(), 0, 1, -1, 2, 3, int64(ty.Bits) - 1, int64(ty.Bits), int64(ty.Bits) + 1, -int64(ty.Bits), -5}
		for _, e := range exprs(ty) {
			for range 300 {
				a, b := edges[rng.IntN(len(edges))], edges[rng.IntN(len(edges))]
				if rng.IntN(2) == 0 {
					a = int64(rng.Uint64())
				}
				if rng.IntN(3) == 0 {
					b = int64(rng.Uint64())
				}
				a, b = ty.Wrap(a), ty.Wrap(b)
				fmt.Fprintf(&in, "%d %d %d\n", k, a, b)
				runs = append(runs, run{e, ty, a, b})
			}
			k++
		}
	}
	lines := runHostC(t, bin, &in, len(runs))
	for i, r := range runs {
		v := ir.Simplify(ir.Substitute(r.e, map[string]ir.Expr{"a": &ir.IntImm{T: r.t, V: r.a}, "b": &ir.IntImm{T: r.t, V: r.b}}))
		c, ok := v.(*ir.IntImm)
		if !ok {
			t.Fatalf("%s does not fold: %s", ir.ExprString(r.e), ir.ExprString(v))
		}
		want := strconv.FormatInt(c.V, 10)
		if r.t.IsUInt() {
			want = strconv.FormatUint(uint64(c.V), 10)
		}
		if lines[i] != want {
			t.Fatalf("%s with a=%d b=%d (%s): C gives %s, Go %s", ir.ExprString(r.e), r.a, r.b, r.t, lines[i], want)
		}
	}
}
