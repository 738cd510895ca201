package cfamily

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// divcConstants are divisors for the gh_divc_f32 tests: small integers,
// decimal fractions, the ends of the range it is used for, and significands
// of all ones (the classic hard case for reciprocals).
var divcConstants = []float32{3, 5, 6, 7, 9, 10, 12, 255, 65535, 65535.5, 1e7, 1e9, 0.1, 0.3, 0.7, 1.1, 1e-3, 1e-9,
	-3, -0.7, 1.9999999, math.Float32frombits(0x4e7fffff), math.Float32frombits(0x3f800001), math.Float32frombits(0x30800001)}

// TestReciprocalForDivision checks which divisors the printer divides by
// with gh_divc_f32 and that the reciprocal it passes is 1/c correctly
// rounded to float32.
func TestReciprocalForDivision(t *testing.T) {
	for _, c := range []float64{2, 8, 0.25, -4, 0, math.Inf(1), math.NaN(), 0x1p31, 0x1.8p31, 0x1p-31 * 1.5, 0.1} {
		if _, ok := reciprocalForDivision(c); ok {
			t.Errorf("reciprocalForDivision(%v) applies; want not (a power of two, out of range, or not a float32)", c)
		}
	}
	for _, c := range divcConstants {
		rc, ok := reciprocalForDivision(float64(c))
		if !ok {
			t.Errorf("reciprocalForDivision(%v) does not apply", c)
			continue
		}
		r := float32(rc)
		exact := 1 / float64(c) // within 2^-53 of 1/c: enough to compare neighbours 2^-24 apart
		for _, n := range []float32{math.Nextafter32(r, float32(math.Inf(-1))), math.Nextafter32(r, float32(math.Inf(1)))} {
			if math.Abs(float64(n)-exact) < math.Abs(float64(r)-exact) {
				t.Errorf("1/%v: %v is nearer than %v", c, n, r)
			}
		}
	}
}

// divcProgram returns a C program with gh_divc_f32 that reads lines "c a"
// (float bits in hex) and prints the bits of gh_divc_f32(a, c, 1/c), with
// 1/c from reciprocalForDivision in a table indexed by the line's c.
func divcProgram(t *testing.T, body string) string {
	m := &module{d: hostHelpers{}, helpers: map[string]helper{}}
	_, h := m.helperSource("gh_divc_f32")
	return "#include <stdio.h>\n#include <math.h>\n#include <string.h>\n#include <stdint.h>\n" + h + body
}

// TestDivideByConstantOnHost compiles gh_divc_f32 as plain C with the
// host's C compiler and compares it bit for bit with Go's float32 division
// (correctly rounded, what the CPU executor computes) for each constant of
// divcConstants, on edge values (zeros, infinities, NaN, the ends of the
// fast path's range, subnormals) and random ones of every magnitude.
// Skipped without cc.
func TestDivideByConstantOnHost(t *testing.T) {
	bin := buildHostC(t, "divc", divcProgram(t, `
int main(void) {
    uint32_t cb, rb, ab;
    while (scanf("%x %x %x", &cb, &rb, &ab) == 3) {
        float c, rc, a, q;
        memcpy(&c, &cb, 4);
        memcpy(&rc, &rb, 4);
        memcpy(&a, &ab, 4);
        q = gh_divc_f32(a, c, rc);
        memcpy(&ab, &q, 4);
        printf("%x\n", ab);
    }
    return 0;
}
`))
	rng := rand.New(rand.NewPCG(3, 4))
	edges := []float32{0, float32(math.Copysign(0, -1)), float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()),
		0x1p-90, 0x1p90, math.Nextafter32(0x1p-90, 0), math.Nextafter32(0x1p90, float32(math.Inf(1))),
		math.Float32frombits(1), math.Float32frombits(0x007fffff), math.MaxFloat32, -math.MaxFloat32, 1, -1, 65535}
	type tcase struct{ c, a float32 }
	var cases []tcase
	for _, c := range divcConstants {
		for _, a := range edges {
			cases = append(cases, tcase{c, a})
		}
		for range 4000 {
			cases = append(cases, tcase{c, math.Float32frombits(rng.Uint32())})
		}
	}
	var in bytes.Buffer
	for _, k := range cases {
		rc, _ := reciprocalForDivision(float64(k.c))
		fmt.Fprintf(&in, "%x %x %x\n", math.Float32bits(k.c), math.Float32bits(float32(rc)), math.Float32bits(k.a))
	}
	cmd := exec.Command(bin)
	cmd.Stdin = &in
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != len(cases) {
		t.Fatalf("%d lines for %d cases", len(lines), len(cases))
	}
	bad := 0
	for i, k := range cases {
		var got uint32
		fmt.Sscanf(lines[i], "%x", &got)
		want := k.a / k.c
		g := math.Float32frombits(got)
		if got != math.Float32bits(want) && !(math.IsNaN(float64(g)) && math.IsNaN(float64(want))) && bad < 10 {
			bad++
			t.Errorf("gh_divc_f32(%v, %v) = %v on the host, Go's float32 division gives %v", k.a, k.c, g, want)
		}
	}
}

// TestDivideByConstantExhaustive runs gh_divc_f32 on every float32 a for
// a few constants (4.3 billion divisions each, several seconds with a
// hardware FMA) and counts the quotients that differ from the host's
// division. It runs only when GOHALIDE_EXHAUSTIVE is set.
func TestDivideByConstantExhaustive(t *testing.T) {
	if os.Getenv("GOHALIDE_EXHAUSTIVE") == "" {
		t.Skip("set GOHALIDE_EXHAUSTIVE=1 to run")
	}
	bin := buildHostC(t, "divc_all", divcProgram(t, `
int main(void) {
    uint32_t cb, rb;
    while (scanf("%x %x", &cb, &rb) == 2) {
        float c, rc;
        unsigned long long bad = 0;
        memcpy(&c, &cb, 4);
        memcpy(&rc, &rb, 4);
        for (uint64_t u = 0; u < (1ull << 32); u++) {
            uint32_t b = (uint32_t)u;
            float a, q, want;
            memcpy(&a, &b, 4);
            q = gh_divc_f32(a, c, rc);
            want = a / c;
            if (memcmp(&q, &want, 4) != 0 && !(isnan(q) && isnan(want))) {
                bad++;
            }
        }
        printf("%llu\n", bad);
        fflush(stdout);
    }
    return 0;
}
`), "-mfma")
	cs := []float32{3, 10, 0.1, 65535, 1.9999999, -0.7}
	var in bytes.Buffer
	for _, c := range cs {
		rc, _ := reciprocalForDivision(float64(c))
		fmt.Fprintf(&in, "%x %x\n", math.Float32bits(c), math.Float32bits(float32(rc)))
	}
	cmd := exec.Command(bin)
	cmd.Stdin = &in
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	for i, l := range strings.Fields(string(out)) {
		if l != "0" {
			t.Errorf("a / %v: %s of 2^32 quotients differ", cs[i], l)
		} else {
			t.Logf("a / %v: every float32 a exact", cs[i])
		}
	}
}
