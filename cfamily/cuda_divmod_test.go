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

// TestCUDADivModHelpersOnHost compiles the integer Div and Mod helpers of
// the CUDA preamble (gh_div_i32, gh_mod_u64, ...) as plain C with the host's
// C compiler, with the undefined-behaviour sanitizer where it has one, and
// compares them with ir.EuclidDiv and ir.EuclidMod on edge and random
// operands: the helpers' C semantics (truncating / and %, int and long long
// of 32 and 64 bits, as in CUDA) are the host's. Skipped without cc.
func TestCUDADivModHelpersOnHost(t *testing.T) {
	suffixes := []string{"i32", "i64", "u32", "u64"}
	m := &module{d: hostHelpers{}, helpers: map[string]helper{}}
	var src strings.Builder
	src.WriteString("#include <stdio.h>\n#include <stdlib.h>\n")
	for _, sfx := range suffixes {
		for _, op := range []string{"div", "mod"} {
			_, h := m.helperSource("gh_" + op + "_" + sfx)
			src.WriteString(h)
		}
	}
	// main reads "type a b" lines and prints "q r".
	src.WriteString(`
int main(void) {
    char t[8];
    long long a, b;
    unsigned long long ua, ub;
    while (scanf("%7s", t) == 1) {
        if (t[0] == 'u') {
            if (scanf("%llu %llu", &ua, &ub) != 2) return 2;
            if (t[1] == '3') printf("%u %u\n", gh_div_u32((unsigned)ua, (unsigned)ub), gh_mod_u32((unsigned)ua, (unsigned)ub));
            else printf("%llu %llu\n", gh_div_u64(ua, ub), gh_mod_u64(ua, ub));
        } else {
            if (scanf("%lld %lld", &a, &b) != 2) return 2;
            if (t[1] == '3') printf("%d %d\n", gh_div_i32((int)a, (int)b), gh_mod_i32((int)a, (int)b));
            else printf("%lld %lld\n", gh_div_i64(a, b), gh_mod_i64(a, b));
        }
    }
    return 0;
}
`)
	bin := buildHostC(t, "divmod", src.String())

	rng := rand.New(rand.NewPCG(3, 17))
	edges := []int64{math.MinInt64, math.MinInt64 + 1, math.MinInt32, math.MinInt32 + 1, -9, -8, -7, -3, -2, -1, 0, 1, 2, 3, 7, 8, math.MaxInt32, math.MaxInt64}
	draw := func() int64 {
		switch rng.IntN(3) {
		case 0:
			return edges[rng.IntN(len(edges))]
		case 1:
			return rng.Int64N(41) - 20
		}
		return int64(rng.Uint64())
	}
	type pair struct {
		sfx  string
		a, b int64
	}
	var in bytes.Buffer
	var pairs []pair
	for range 20000 {
		a, b := draw(), draw()
		for _, sfx := range suffixes {
			p := pair{sfx, a, b}
			switch sfx {
			case "i32":
				p.a, p.b = int64(int32(a)), int64(int32(b))
				fmt.Fprintf(&in, "i32 %d %d\n", p.a, p.b)
			case "i64":
				fmt.Fprintf(&in, "i64 %d %d\n", p.a, p.b)
			case "u32":
				fmt.Fprintf(&in, "u32 %d %d\n", uint32(a), uint32(b))
			case "u64":
				fmt.Fprintf(&in, "u64 %d %d\n", uint64(a), uint64(b))
			}
			pairs = append(pairs, p)
		}
	}
	lines := runHostC(t, bin, &in, len(pairs))
	for i, p := range pairs {
		var want string
		switch p.sfx {
		case "i32":
			a, b := int32(p.a), int32(p.b)
			want = fmt.Sprint(ir.EuclidDiv(a, b), ir.EuclidMod(a, b))
		case "i64":
			want = fmt.Sprint(ir.EuclidDiv(p.a, p.b), ir.EuclidMod(p.a, p.b))
		case "u32":
			a, b := uint32(p.a), uint32(p.b)
			want = fmt.Sprint(ir.EuclidDiv(a, b), ir.EuclidMod(a, b))
		case "u64":
			a, b := uint64(p.a), uint64(p.b)
			want = strconv.FormatUint(ir.EuclidDiv(a, b), 10) + " " + strconv.FormatUint(ir.EuclidMod(a, b), 10)
		}
		if lines[i] != want {
			t.Fatalf("gh_div/gh_mod_%s(%d, %d) = %s, want %s", p.sfx, p.a, p.b, lines[i], want)
		}
	}
}
