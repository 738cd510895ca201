package cfamily

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gohalide/gohalide/half"
)

// TestCUDAHalfHelpersOnHost compiles the 16-bit float helpers of the CUDA
// preamble (gh_load_f16, gh_store_f16, gh_round_f16 and the bf16 ones) as
// plain C with the host's C compiler, under the undefined-behaviour
// sanitizer where it has one, with __uint_as_float and __float_as_uint
// written as memcpy, and compares them bit for bit with package half (the
// conversions of the CPU path, tested against a math/big reference): every
// one of the 65536 bit patterns of each type to float, and a spread of
// float32 values (every value of the types, the ties between neighbours
// and one ulp either side, NaNs with payloads, random bit patterns) to
// each type. Skipped without cc.
func TestCUDAHalfHelpersOnHost(t *testing.T) {
	m := &module{d: hostHelpers{}, helpers: map[string]helper{}}
	for _, n := range []string{"gh_round_f16", "gh_round_bf16"} {
		m.use(n)
	}
	src := `#include <stdio.h>
#include <string.h>

static float __uint_as_float(unsigned int u) {
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static unsigned int __float_as_uint(float f) {
    unsigned int u;
    memcpy(&u, &f, sizeof u);
    return u;
}

` + m.preamble() + `
int main(void) {
    for (unsigned int b = 0; b < 65536u; b++) {
        printf("%08x %08x\n", __float_as_uint(gh_load_f16((unsigned short)b)), __float_as_uint(gh_load_bf16((unsigned short)b)));
    }
    unsigned int bits;
    while (scanf("%x", &bits) == 1) {
        const float f = __uint_as_float(bits);
        printf("%04x %04x %08x %08x\n", gh_store_f16(f), gh_store_bf16(f), __float_as_uint(gh_round_f16(f)), __float_as_uint(gh_round_bf16(f)));
    }
    return 0;
}
`
	bin := buildHostC(t, "half", src)
	var xs []uint32
	for b := 0; b < 1<<16; b++ {
		// The value, and the tie with the next one up in magnitude (the
		// largest finite value's is its tie with infinity's place).
		for _, p := range [][2]float32{
			{half.Float16(b).ToFloat32(), half.Float16(b + 1).ToFloat32()},
			{half.BFloat16(b).ToFloat32(), half.BFloat16(b + 1).ToFloat32()},
		} {
			xs = append(xs, math.Float32bits(p[0]))
			if mid := (float64(p[0]) + float64(p[1])) / 2; !math.IsNaN(mid) && !math.IsInf(mid, 0) {
				m := math.Float32bits(float32(mid)) // exact: the types have fewer bits than float32
				xs = append(xs, m, m+1, m-1)
			}
		}
	}
	r := rand.New(rand.NewPCG(16, 7))
	for range 100000 {
		xs = append(xs, r.Uint32())
	}
	xs = append(xs, 0x7f800001, 0xffbfffff, 0x7fc00000, 0x477ff000, 0x477fefff, 0x7f7f8000, 0x7f7f7fff, 0x00000001, 0x33000000, 0x33000001)
	var in bytes.Buffer
	for _, x := range xs {
		fmt.Fprintf(&in, "%x\n", x)
	}
	lines := runHostC(t, bin, &in, 1<<16+len(xs))
	bad := 0
	report := func(format string, args ...any) {
		if bad++; bad <= 10 {
			t.Errorf(format, args...)
		}
	}
	for b := 0; b < 1<<16; b++ {
		want := fmt.Sprintf("%08x %08x", math.Float32bits(half.Float16(b).ToFloat32()), math.Float32bits(half.BFloat16(b).ToFloat32()))
		if lines[b] != want {
			report("load of %#04x: C gives %s, Go %s", b, lines[b], want)
		}
	}
	for i, x := range xs {
		f := math.Float32frombits(x)
		h, bh := half.Float16FromFloat32(f), half.BFloat16FromFloat32(f)
		want := fmt.Sprintf("%04x %04x %08x %08x", h.Bits(), bh.Bits(), math.Float32bits(h.ToFloat32()), math.Float32bits(bh.ToFloat32()))
		if got := lines[1<<16+i]; got != want {
			report("store of %#08x: C gives %s, Go %s", x, got, want)
		}
	}
}
