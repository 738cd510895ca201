package cfamily

// The helper functions a translation unit defines before its kernels: Go's
// (and Halide's) semantics for division, modulo, float min and max, abs and
// float-to-int conversion, and atomic updates by compare-and-swap. Each is
// written once, the first time the code calls it, with the dialect's
// qualifiers (Dialect.HelperPrefix).

import (
	"fmt"
	"sort"
	"strings"

	"github.com/gohalide/gohalide/ir"
)

type helper struct {
	rank int // helpers of lower rank come first (dependencies)
	src  string
}

// module is one translation unit being printed: its dialect and the
// helper functions its kernels use.
type module struct {
	d Dialect
	// contract lets float multiplies and adds contract into FMAs (a * b
	// rather than the dialect's rounded multiply).
	contract bool
	helpers  map[string]helper
}

func (m *module) preamble() string {
	names := make([]string, 0, len(m.helpers))
	for n := range m.helpers {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool {
		a, b := m.helpers[names[i]], m.helpers[names[j]]
		if a.rank != b.rank {
			return a.rank < b.rank
		}
		return names[i] < names[j]
	})
	var b strings.Builder
	for i, n := range names {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString(m.helpers[n].src)
	}
	return b.String()
}

// use records that the code calls helper name, generating it (and what it
// calls) the first time.
func (m *module) use(name string) string {
	if _, ok := m.helpers[name]; ok {
		return name
	}
	rank, src := m.helperSource(name)
	m.helpers[name] = helper{rank, src}
	return name
}

// helperTypes maps helper suffixes back to types.
var helperTypes = map[string]ir.Type{
	"i8": ir.Int8, "i16": ir.Int16, "i32": ir.Int32, "i64": ir.Int64,
	"u8": ir.UInt8, "u16": ir.UInt16, "u32": ir.UInt32, "u64": ir.UInt64,
	"f16": ir.Float16, "bf16": ir.BFloat16, "f32": ir.Float32, "f64": ir.Float64, "bool": ir.Bool,
}

func (m *module) helperSource(name string) (int, string) {
	parts := strings.Split(strings.TrimPrefix(name, "gh_"), "_")
	t, ok := helperTypes[parts[len(parts)-1]]
	if !ok {
		panic(fmt.Sprintf("unknown helper %s", name))
	}
	c := cType(t)
	switch parts[0] {
	case "div":
		if t.IsInt() {
			return 0, fmt.Sprintf(`// Euclidean division, as in Halide: the remainder a - q*b is in [0, |b|), so
// the quotient rounds down for b > 0 and up for b < 0 (7 / -2 is -3);
// x / 0 is 0 and MIN / -1 wraps to MIN.
%[1]s%[2]s %[3]s(%[2]s a, %[2]s b) {
    if (b == 0) {
        return 0;
    }
    if (b == -1) {
        return (%[2]s)(0ull - (unsigned long long)a);
    }
    %[2]s q = a / b;
    if (a %% b < 0) {
        q += b > 0 ? -1 : 1;
    }
    return q;
}
`, m.d.HelperPrefix(), c, name)
		}
		return 0, fmt.Sprintf(`// Unsigned division; x / 0 is 0.
%[1]s%[2]s %[3]s(%[2]s a, %[2]s b) {
    return b == 0 ? 0 : a / b;
}
`, m.d.HelperPrefix(), c, name)
	case "mod":
		switch {
		case t.IsInt():
			return 0, fmt.Sprintf(`// Euclidean modulo, as in Halide: in [0, |b|) for either sign of b
// (7 %% -3 is 1, -7 %% 2 is 1); x %% 0 is 0.
%[1]s%[2]s %[3]s(%[2]s a, %[2]s b) {
    if (b == 0 || b == -1) {
        return 0;
    }
    %[2]s r = a %% b;
    if (r < 0) {
        r = b > 0 ? r + b : r - b;
    }
    return r;
}
`, m.d.HelperPrefix(), c, name)
		case t.IsFloat():
			mul, sub := m.d.RoundedOp(ir.Mul, ir.Float64), m.d.RoundedOp(ir.Sub, ir.Float64)
			return 0, fmt.Sprintf(`// Float modulo a - b * floor(a / b), computed in double and rounded once at
// the end, as the CPU executor computes it.
%[1]s%[2]s %[3]s(%[2]s a, %[2]s b) {
    const double p = a;
    const double q = b;
    return (%[2]s)%[5]s(p, %[4]s(q, floor(p / q)));
}
`, m.d.HelperPrefix(), c, name, mul, sub)
		}
		return 0, fmt.Sprintf(`// Unsigned modulo; x %% 0 is 0.
%[1]s%[2]s %[3]s(%[2]s a, %[2]s b) {
    return b == 0 ? 0 : a %% b;
}
`, m.d.HelperPrefix(), c, name)
	case "divc":
		mul := m.d.RoundedOp(ir.Mul, ir.Float32)
		q := "x * rc"
		if mul != "" {
			q = mul + "(x, rc)"
		}
		return 0, fmt.Sprintf(`// x / c correctly rounded, without a division: rc is 1/c rounded to float,
// q = x * rc is within about an ulp, and one step with the exact remainder
// x - q*c corrects it. Not exact for every x: the compiler uses it only where
// it has checked every value x can take (a converted narrow integer).
%[1]s%[2]s %[3]s(%[2]s x, %[2]s c, %[2]s rc) {
    const %[2]s q = %[4]s;
    return fmaf(fmaf(-q, c, x), rc, q);
}
`, m.d.HelperPrefix(), c, name, q)
	case "min", "max":
		lt, inf, word, pick := "<", "-Inf", "Min", "signbit(a) ? a : b"
		if parts[0] == "max" {
			lt, inf, word, pick = ">", "+Inf", "Max", "signbit(a) ? b : a"
		}
		zero := "0.0"
		if t.Bits == 32 {
			zero = "0.0f"
		}
		// Selects, not branches: a GPU compiler turns each into one
		// instruction, where early returns became branches around every
		// call (the bilateral grid's slice kernel had 254).
		return 0, fmt.Sprintf(`// Go's math.%[4]s: %[5]s wins over NaN, NaN propagates, and -0 < +0.
%[1]s%[2]s %[3]s(%[2]s a, %[2]s b) {
    const %[2]s m = a == b ? (%[8]s) : (a %[6]s b ? a : b);
    const %[2]s n = isnan(a) || isnan(b) ? a + b : m;
    return isinf(a) && a %[6]s %[7]s ? a : (isinf(b) && b %[6]s %[7]s ? b : n);
}
`, m.d.HelperPrefix(), c, name, word, inf, lt, zero, pick)
	case "shl", "shr":
		return 0, m.shiftHelper(name, t, parts[0] == "shl")
	case "abs":
		return 0, fmt.Sprintf(`// |a| in int64; abs(MIN) wraps to MIN.
%[1]slong long %[2]s(long long a) {
    return a < 0 ? (long long)(0ull - (unsigned long long)a) : a;
}
`, m.d.HelperPrefix(), name)
	case "toi8", "toi16", "toi32", "toi64", "tou8", "tou16", "tou32", "tou64":
		return 0, m.floatToIntHelper(name, helperTypes[strings.TrimPrefix(parts[0], "to")], t)
	case "load", "store":
		return 0, m.halfHelper(name, t, parts[0] == "load")
	case "round":
		load, store := m.use("gh_load_"+cTypeSuffix(t)), m.use("gh_store_"+cTypeSuffix(t))
		return 1, fmt.Sprintf(`// f rounded to the nearest %[4]s (ties to even), as a float: how every
// %[4]s result is rounded back after float32 arithmetic.
%[1]sfloat %[2]s(float f) {
    return %[3]s(%[5]s(f));
}
`, m.d.HelperPrefix(), name, load, t, store)
	case "cas":
		return 1, m.d.CASHelper(name, t)
	case "atomic":
		return 2, m.atomicHelper(name, parts[1], t)
	}
	panic(fmt.Sprintf("unknown helper %s", name))
}

// floatToIntHelper writes gh_to<to>_<from>: ir.FloatToInt's
// conversion (truncate toward zero, saturate at the ends of to, NaN to 0),
// spelled with comparisons and selects so that it does not depend on what
// the hardware conversion does with NaN and out-of-range values.
func (m *module) floatToIntHelper(name string, to, from ir.Type) string {
	c, ct := cType(from), cType(to)
	lo, hi := fmt.Sprint(to.Min()), fmt.Sprint(to.Max())
	switch {
	case to == ir.Int64:
		lo, hi = "-9223372036854775807ll - 1", "9223372036854775807ll"
	case to == ir.UInt64:
		hi = "18446744073709551615ull"
	case to.Bits == 32:
		lo, hi = lo+"ll", hi+"ll"
	}
	// The ends as floats: 2^(bits-1) and 2^bits are exact; a value at or
	// beyond them saturates. The lower end -2^(bits-1) is exact too.
	top := fmt.Sprintf("%d.0", uint64(1)<<(to.Bits-1))
	if to.IsUInt() {
		top = fmt.Sprintf("%d.0", uint64(1)<<to.Bits)
		if to.Bits == 64 {
			top = "18446744073709551616.0"
		}
	}
	bottom := "-" + fmt.Sprintf("%d.0", uint64(1)<<(to.Bits-1))
	if to.IsUInt() {
		bottom = "0.0"
	}
	if from.Bits == 32 {
		top, bottom = top+"f", bottom+"f"
	}
	conv := "(long long)"
	if to == ir.UInt64 {
		conv = "(unsigned long long)"
	}
	// Selects, not branches (see the min and max helpers); the conversion
	// itself only ever sees a value inside the range (0 in place of the
	// others), so it never depends on the hardware's out-of-range rule.
	return fmt.Sprintf(`// Float to %[4]s as every target converts: truncate toward zero, saturate
// at the ends of the type, NaN to 0 (ir.FloatToInt).
%[1]s%[2]s %[3]s(%[5]s a) {
    const int below = a <= %[6]s, above = a >= %[7]s;
    const %[5]s inside = below || above || isnan(a) ? 0 : a;
    const %[2]s v = (%[2]s)%[10]s(inside);
    return below ? (%[2]s)(%[8]s) : (above ? (%[2]s)(%[9]s) : v);
}
`, m.d.HelperPrefix(), ct, name, to, c, bottom, top, lo, hi, conv)
}

// atomicHelper writes gh_atomic_OP_T(T *p, T x), which replaces *p by
// *p OP x atomically with a compare-and-swap loop.
func (m *module) atomicHelper(name, opName string, t ir.Type) string {
	var op ir.BinOp = 255
	for o := ir.Add; o <= ir.Or; o++ {
		if opWord[o] == opName {
			op = o
		}
	}
	if op == 255 {
		panic(fmt.Sprintf("unknown atomic helper %s", name))
	}
	e := newPrinter(m, "")
	e.vars["old"] = []cVar{{"old", t}}
	e.vars["x"] = []cVar{{"x", t}}
	val, _ := e.expr(ir.Bin(op, &ir.Var{T: t, Name: "old"}, &ir.Var{T: t, Name: "x"}))
	c := cType(t)
	cas := m.use("gh_cas_" + cTypeSuffix(t))
	what := ir.ExprString(ir.Bin(op, &ir.Var{T: t, Name: "*p"}, &ir.Var{T: t, Name: "x"}))
	return fmt.Sprintf(`// *p = %[5]s, atomically.
%[1]svoid %[2]s(%[3]s *p, %[3]s x) {
    %[3]s old = *p;
    while (!%[4]s(p, &old, %[6]s)) {
        // another thread changed *p first: old is its value, try again
    }
}
`, m.d.HelperPrefix(), name, c, cas, what, val)
}

var opWord = map[ir.BinOp]string{
	ir.Add: "add", ir.Sub: "sub", ir.Mul: "mul", ir.Div: "div", ir.Mod: "mod",
	ir.Min: "min", ir.Max: "max", ir.And: "and", ir.Or: "or",
}

// shiftHelper writes gh_shl_<t> or gh_shr_<t>: ir.Shift, a shift defined
// for every amount. A negative amount shifts the other way; an amount of
// the width or more gives 0 (-1 for a right shift of a negative value).
// Left shifts move unsigned bits, and a negative value shifts right as
// -1 - ((-1 - a) >> n), since C leaves shifting negative values undefined
// or implementation-defined.
func (m *module) shiftHelper(name string, t ir.Type, left bool) string {
	c := cType(t)
	var b strings.Builder
	word := map[bool]string{true: "left", false: "right"}[left]
	fmt.Fprintf(&b, "// a shifted %s by n: a negative n shifts the other way, and by %d or more\n", word, t.Bits)
	if t.IsInt() {
		fmt.Fprintf(&b, "// to the left gives 0, to the right 0 or -1 (the sign of a).\n")
	} else {
		fmt.Fprintf(&b, "// gives 0.\n")
	}
	fmt.Fprintf(&b, "%s%s %s(%s a, %s n) {\n", m.d.HelperPrefix(), c, name, c, c)
	if t.IsInt() {
		fmt.Fprintf(&b, "    if (n < 0) {\n")
		fmt.Fprintf(&b, "        const unsigned long long m = (unsigned long long)(-(n + 1)) + 1;\n")
		fmt.Fprintf(&b, "        return m >= %d ? %s : %s;\n", t.Bits, shiftFill(t, !left), shiftBits(t, !left, "m"))
		fmt.Fprintf(&b, "    }\n")
	}
	fmt.Fprintf(&b, "    return (unsigned long long)n >= %d ? %s : %s;\n", t.Bits, shiftFill(t, left), shiftBits(t, left, "n"))
	fmt.Fprintf(&b, "}\n")
	return b.String()
}

// shiftFill is a (of type t, in C) shifted by t.Bits or more: 0 to the
// left, the sign to the right.
func shiftFill(t ir.Type, left bool) string {
	if left || !t.IsInt() {
		return "0"
	}
	return "(a < 0 ? -1 : 0)"
}

// shiftBits is a (of type t, in C) shifted by amt, in [0, t.Bits), with no
// undefined behaviour.
func shiftBits(t ir.Type, left bool, amt string) string {
	c, u := cType(t), cType(ir.Type{Code: ir.UIntCode, Bits: t.Bits})
	switch {
	case left:
		return fmt.Sprintf("(%s)((%s)a << %s)", c, u, amt)
	case t.IsInt():
		return fmt.Sprintf("(a < 0 ? (%[1]s)(-1 - (%[1]s)((%[2]s)(-1 - a) >> %[3]s)) : (%[1]s)((%[2]s)a >> %[3]s))", c, u, amt)
	}
	return fmt.Sprintf("(%s)(a >> %s)", c, amt)
}

// halfHelper writes gh_load_f16 / gh_load_bf16, the float value of a
// 16-bit float's bits (exact), or gh_store_f16 / gh_store_bf16, a float
// rounded to the nearest 16-bit float (ties to even): the algorithms of
// package half, bit for bit, on the float's bits, so that no hardware
// conversion (which differs in NaN payloads) is involved.
func (m *module) halfHelper(name string, t ir.Type, load bool) string {
	pre := m.d.HelperPrefix()
	switch {
	case t == ir.BFloat16 && load:
		return fmt.Sprintf(`// The bfloat16 bits h as the float they stand for: its top 16 bits (a NaN
// made quiet).
%[1]sfloat %[2]s(unsigned short h) {
    const unsigned int b = (unsigned int)h << 16;
    if ((b & 0x7f800000u) == 0x7f800000u && (b & 0x7fffffu) != 0u) {
        return __uint_as_float(b | 0x400000u);
    }
    return __uint_as_float(b);
}
`, pre, name)
	case t == ir.BFloat16:
		return fmt.Sprintf(`// f rounded to the nearest bfloat16, ties to even (half.BFloat16FromFloat32):
// add just under half an ulp, plus one for an odd result, and truncate; a
// carry bumps the exponent (up to infinity). A NaN stays a quiet NaN.
%[1]sunsigned short %[2]s(float f) {
    unsigned int b = __float_as_uint(f);
    if ((b & 0x7f800000u) == 0x7f800000u && (b & 0x7fffffu) != 0u) {
        return (unsigned short)((b >> 16) | 0x40u);
    }
    b += 0x7fffu + ((b >> 16) & 1u);
    return (unsigned short)(b >> 16);
}
`, pre, name)
	case load:
		return fmt.Sprintf(`// The float16 bits h as the float they stand for (exact): subnormals are
// normalized, infinities kept, NaNs made quiet with their payload.
%[1]sfloat %[2]s(unsigned short h) {
    const unsigned int sign = (unsigned int)(h & 0x8000u) << 16;
    const unsigned int exp = ((unsigned int)h >> 10) & 0x1fu;
    unsigned int frac = (unsigned int)h & 0x3ffu;
    if (exp == 0x1fu) {
        return __uint_as_float(sign | (frac != 0u ? 0x7fc00000u : 0x7f800000u) | frac << 13);
    }
    if (exp == 0u) {
        if (frac == 0u) {
            return __uint_as_float(sign);
        }
        unsigned int e = 127u - 14u;
        while ((frac & 0x400u) == 0u) {
            frac <<= 1;
            e--;
        }
        return __uint_as_float(sign | e << 23 | (frac & 0x3ffu) << 13);
    }
    return __uint_as_float(sign | (exp + 112u) << 23 | frac << 13);
}
`, pre, name)
	}
	return fmt.Sprintf(`// f rounded to the nearest float16, ties to even (half.Float16FromFloat32):
// 65520 and more round to infinity, 2^-25 and less to zero; a NaN stays a
// quiet NaN with the high bits of its payload.
%[1]sunsigned short %[2]s(float f) {
    const unsigned int b = __float_as_uint(f);
    const unsigned int sign = (b >> 16) & 0x8000u;
    const int exp = (int)((b >> 23) & 0xffu);
    const unsigned int frac = b & 0x7fffffu;
    if (exp == 0xff) {
        return (unsigned short)(frac != 0u ? sign | 0x7e00u | frac >> 13 : sign | 0x7c00u);
    }
    if (exp >= 127 + 16) {
        return (unsigned short)(sign | 0x7c00u);
    }
    if (exp >= 127 - 14) {
        // A normal float16: a carry out of the fraction bumps the exponent.
        unsigned int h = (unsigned int)(exp - 127 + 15) << 10 | frac >> 13;
        const unsigned int rem = frac & 0x1fffu;
        if (rem > 0x1000u || (rem == 0x1000u && (h & 1u) != 0u)) {
            h++;
        }
        return (unsigned short)(sign | h);
    }
    if (exp < 127 - 25) {
        return (unsigned short)sign;
    }
    // A subnormal, in units of 2^-24 (may round up to the smallest normal).
    const unsigned int m = frac | 0x800000u;
    const unsigned int shift = (unsigned int)(126 - exp);
    unsigned int q = m >> shift;
    const unsigned int rem = m & ((1u << shift) - 1u);
    const unsigned int tie = 1u << (shift - 1u);
    if (rem > tie || (rem == tie && (q & 1u) != 0u)) {
        q++;
    }
    return (unsigned short)(sign | q);
}
`, pre, name)
}
