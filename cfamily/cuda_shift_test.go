package cfamily

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"os/exec"
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
	cmd := exec.Command(bin)
	cmd.Stdin = &in
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != len(pairs) {
		t.Fatalf("%d results for %d pairs: %s", len(lines), len(pairs), out)
	}
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
