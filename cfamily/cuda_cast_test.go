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

// TestCUDAFloatToIntHelpersOnHost compiles the float-to-integer helpers of
// the CUDA preamble (gh_toi32_f32, gh_tou64_f64, ...) as plain C with the
// host's C compiler, under the undefined-behaviour sanitizer where it has
// one (an out-of-range conversion in C is undefined: the helpers must never
// make one), and compares them with ir.FloatToInt, the conversion every
// target shares, on edge and random values. Skipped without cc.
func TestCUDAFloatToIntHelpersOnHost(t *testing.T) {
	tos := []ir.Type{ir.Int8, ir.Int16, ir.Int32, ir.Int64, ir.UInt8, ir.UInt16, ir.UInt32, ir.UInt64}
	froms := []ir.Type{ir.Float32, ir.Float64}
	m := &module{d: hostHelpers{}, helpers: map[string]helper{}}
	var src strings.Builder
	src.WriteString("#include <stdio.h>\n#include <math.h>\n")
	var calls strings.Builder
	for _, from := range froms {
		for _, to := range tos {
			name := "gh_to" + cTypeSuffix(to) + "_" + cTypeSuffix(from)
			_, h := m.helperSource(name)
			src.WriteString(h)
			arg := "v"
			if from == ir.Float32 {
				arg = "(float)v"
			}
			if to.IsUInt() {
				fmt.Fprintf(&calls, "        printf(\" %%llu\", (unsigned long long)%s(%s));\n", name, arg)
			} else {
				fmt.Fprintf(&calls, "        printf(\" %%lld\", (long long)%s(%s));\n", name, arg)
			}
		}
	}
	// main reads one double per line (as its bits, so that NaN and -0
	// survive) and prints the conversions of it, float32 first.
	fmt.Fprintf(&src, `
int main(void) {
    unsigned long long bits;
    while (scanf("%%llx", &bits) == 1) {
        double v;
        memcpy(&v, &bits, sizeof v);
%s        printf("\n");
    }
    return 0;
}
`, calls.String())
	text := strings.Replace(src.String(), "#include <math.h>\n", "#include <math.h>\n#include <string.h>\n", 1)
	bin := buildHostC(t, "cast", text, "-fsanitize=float-cast-overflow")
	vals := []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), 0.5, -0.5, 0.999, -0.999, 1.5, -1.5,
		127, 127.9, 128, -128, -128.9, -129, 255.5, 256, 32767.5, 32768, -32768.9, -32769, 65535.9, 65536,
		2147483647, 2147483648, -2147483648, -2147483649, 4294967295, 4294967296,
		9.2e18, 9.3e18, -9.3e18, 1.8e19, 1.9e19, 1e30, -1e30, 3e9, -3e9}
	rng := rand.New(rand.NewPCG(5, 7))
	for range 2000 {
		vals = append(vals, math.Ldexp(rng.Float64()*2-1, rng.IntN(70)))
	}
	var in bytes.Buffer
	for _, v := range vals {
		fmt.Fprintf(&in, "%x\n", math.Float64bits(v))
	}
	lines := runHostC(t, bin, &in, len(vals))
	bad := 0
	for i, v := range vals {
		got := strings.Fields(lines[i])
		k := 0
		for _, from := range froms {
			x := v
			if from == ir.Float32 {
				x = float64(float32(v))
			}
			for _, to := range tos {
				want := ir.FloatToInt(x, to)
				var g int64
				if to.IsUInt() {
					u, _ := strconv.ParseUint(got[k], 10, 64)
					g = int64(u)
				} else {
					g, _ = strconv.ParseInt(got[k], 10, 64)
				}
				if g != want && bad < 10 {
					bad++
					t.Errorf("%v(%s(%v)) = %d on the host, FloatToInt gives %d", to, from, x, g, want)
				}
				k++
			}
		}
	}
}

// TestCUDAMinMaxHelpersOnHost compiles the float min and max helpers of the
// CUDA preamble (gh_min_f32, gh_max_f64, ...) as plain C with the host's C
// compiler and compares their bits with Go's math.Min and math.Max, which
// the CPU executor computes, on every pair of edge values (NaN, the
// infinities, the signed zeros) and random ones. A NaN result must be a
// NaN (its payload is not compared). Skipped without cc.
func TestCUDAMinMaxHelpersOnHost(t *testing.T) {
	m := &module{d: hostHelpers{}, helpers: map[string]helper{}}
	var src strings.Builder
	src.WriteString("#include <stdio.h>\n#include <math.h>\n#include <string.h>\n")
	for _, name := range []string{"gh_min_f32", "gh_max_f32", "gh_min_f64", "gh_max_f64"} {
		_, h := m.helperSource(name)
		src.WriteString(h)
	}
	// main reads two doubles per line (as bits) and prints the bits of
	// min and max in float (of the values rounded to float) and double.
	src.WriteString(`
int main(void) {
    unsigned long long x, y;
    while (scanf("%llx %llx", &x, &y) == 2) {
        double a, b;
        memcpy(&a, &x, sizeof a);
        memcpy(&b, &y, sizeof b);
        float fmin = gh_min_f32((float)a, (float)b), fmax = gh_max_f32((float)a, (float)b);
        double dmin = gh_min_f64(a, b), dmax = gh_max_f64(a, b);
        unsigned int f1, f2;
        unsigned long long d1, d2;
        memcpy(&f1, &fmin, 4);
        memcpy(&f2, &fmax, 4);
        memcpy(&d1, &dmin, 8);
        memcpy(&d2, &dmax, 8);
        printf("%x %x %llx %llx\n", f1, f2, d1, d2);
    }
    return 0;
}
`)
	bin := buildHostC(t, "minmax", src.String())
	edge := []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), 1, -1, 2.5, -2.5, math.MaxFloat64, 1e-310}
	rng := rand.New(rand.NewPCG(9, 11))
	var pairs [][2]float64
	for _, a := range edge {
		for _, b := range edge {
			pairs = append(pairs, [2]float64{a, b})
		}
	}
	for range 500 {
		a := math.Ldexp(rng.Float64()*2-1, rng.IntN(40)-20)
		pairs = append(pairs, [2]float64{a, a * float64(rng.IntN(3)-1)}, [2]float64{a, rng.NormFloat64()})
	}
	var in bytes.Buffer
	for _, p := range pairs {
		fmt.Fprintf(&in, "%x %x\n", math.Float64bits(p[0]), math.Float64bits(p[1]))
	}
	lines := runHostC(t, bin, &in, len(pairs))
	same := func(got uint64, want float64, f32 bool) bool {
		if math.IsNaN(want) {
			if f32 {
				return math.IsNaN(float64(math.Float32frombits(uint32(got))))
			}
			return math.IsNaN(math.Float64frombits(got))
		}
		if f32 {
			return uint32(got) == math.Float32bits(float32(want))
		}
		return got == math.Float64bits(want)
	}
	bad := 0
	for i, p := range pairs {
		var g [4]uint64
		if _, err := fmt.Sscanf(lines[i], "%x %x %x %x", &g[0], &g[1], &g[2], &g[3]); err != nil {
			t.Fatalf("line %q: %v", lines[i], err)
		}
		a32, b32 := float64(float32(p[0])), float64(float32(p[1]))
		wants := []struct {
			name string
			want float64
			f32  bool
		}{
			{"gh_min_f32", math.Min(a32, b32), true},
			{"gh_max_f32", math.Max(a32, b32), true},
			{"gh_min_f64", math.Min(p[0], p[1]), false},
			{"gh_max_f64", math.Max(p[0], p[1]), false},
		}
		for k, w := range wants {
			if !same(g[k], w.want, w.f32) && bad < 10 {
				bad++
				t.Errorf("%s(%v, %v): bits %x on the host, Go gives %v", w.name, p[0], p[1], g[k], w.want)
			}
		}
	}
}
