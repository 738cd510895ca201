package cfamily

// The C of every dialect: type names, integer and float literals, operator
// precedences, and identifiers made from IR names.

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/gohalide/gohalide/ir"
)

// cType is the C spelling of t in memory: buffers, allocations and
// pointers. Standard C types only: NVRTC has no <stdint.h>. A 16-bit
// float is stored as its bits (unsigned short) and computed as a float
// (cValueType).
func cType(t ir.Type) string {
	switch t {
	case ir.Float16, ir.BFloat16:
		return "unsigned short"
	case ir.Bool:
		return "bool"
	case ir.Int8:
		return "signed char"
	case ir.Int16:
		return "short"
	case ir.Int32:
		return "int"
	case ir.Int64:
		return "long long"
	case ir.UInt8:
		return "unsigned char"
	case ir.UInt16:
		return "unsigned short"
	case ir.UInt32:
		return "unsigned int"
	case ir.UInt64:
		return "unsigned long long"
	case ir.Float32:
		return "float"
	case ir.Float64:
		return "double"
	}
	panic(emitError{emitErr("", "type %v has no C equivalent", t)})
}

// cValueType is the C type that holds a value of t in an expression, a
// local or a scalar argument: cType, except for the 16-bit floats, whose
// values are floats (exactly the value of the type: the code rounds every
// result back with gh_round_f16 or gh_round_bf16).
func cValueType(t ir.Type) string {
	if t.IsHalf() {
		return "float"
	}
	return cType(t)
}

// cTypeSuffix names t in helper names (gh_div_i32).
func cTypeSuffix(t ir.Type) string {
	switch t.Code {
	case ir.IntCode:
		return fmt.Sprintf("i%d", t.Bits)
	case ir.UIntCode:
		return fmt.Sprintf("u%d", t.Bits)
	case ir.FloatCode:
		return fmt.Sprintf("f%d", t.Bits)
	case ir.BFloatCode:
		return fmt.Sprintf("bf%d", t.Bits)
	}
	return "bool"
}

// narrow reports whether C promotes values of t to int in arithmetic.
func cNarrow(t ir.Type) bool { return t.IsBool() || t.IsIntOrUInt() && t.Bits < 32 }

// C operator precedences (higher binds tighter).
const (
	cPrecCond    = 3
	cPrecOr      = 4
	cPrecAnd     = 5
	cPrecBitOr   = 6
	cPrecBitXor  = 7
	cPrecBitAnd  = 8
	cPrecEq      = 9
	cPrecRel     = 10
	cPrecShift   = 11
	cPrecAdd     = 12
	cPrecMul     = 13
	cPrecUnary   = 15
	cPrecPostfix = 16
)

func cParen(s string, prec, need int) string {
	if prec < need {
		return "(" + s + ")"
	}
	return s
}

// cIntLiteral spells the integer constant v of type t; narrow types are
// spelled as int literals (C promotes them anyway).
func cIntLiteral(t ir.Type, v int64) (string, int) {
	v = t.Wrap(v)
	switch {
	case t.IsBool():
		if v != 0 {
			return "true", cPrecPostfix
		}
		return "false", cPrecPostfix
	case t == ir.Int64:
		if v == math.MinInt64 {
			return "(-9223372036854775807ll - 1)", cPrecPostfix
		}
		return cLit(strconv.FormatInt(v, 10) + "ll")
	case t == ir.UInt64:
		return strconv.FormatUint(uint64(v), 10) + "ull", cPrecPostfix
	case t == ir.UInt32:
		return strconv.FormatInt(v, 10) + "u", cPrecPostfix
	case t == ir.Int32 && v == math.MinInt32:
		return "(-2147483647 - 1)", cPrecPostfix
	}
	return cLit(strconv.FormatInt(v, 10))
}

// cLit gives a literal its precedence: a leading minus makes it unary.
func cLit(s string) (string, int) {
	if strings.HasPrefix(s, "-") {
		return s, cPrecUnary
	}
	return s, cPrecPostfix
}

// cFloatLiteral spells the float constant v of type t; d spells NaN and the
// infinities through their bits. A 16-bit float constant is the float32
// literal of its value (cValueType).
func cFloatLiteral(d Dialect, t ir.Type, v float64) (string, int) {
	if t.IsHalf() {
		t = ir.Float32
	}
	if bits, ok := specialFloatBits(t, v); ok {
		return d.FloatBits(t, bits), cPrecPostfix
	}
	prec, suffix := 64, ""
	if t.Bits == 32 {
		prec, suffix, v = 32, "f", float64(float32(v))
	}
	s := strconv.FormatFloat(v, 'g', -1, prec)
	if !strings.ContainsAny(s, ".eE") {
		s += ".0"
	}
	return cLit(s + suffix)
}

// specialFloatBits returns the bits of v, a NaN or an infinity, as a float
// of t's width (32 or 64 bits); ok is false for any other v.
func specialFloatBits(t ir.Type, v float64) (bits uint64, ok bool) {
	switch {
	case math.IsNaN(v) && t.Bits == 32:
		return 0x7fc00000, true
	case math.IsNaN(v):
		return 0x7ff8000000000000, true
	case !math.IsInf(v, 0):
		return 0, false
	case t.Bits == 32:
		return uint64(math.Float32bits(float32(v))), true // 0x7f800000, 0xff800000
	}
	return math.Float64bits(v), true // 0x7ff0000000000000, 0xfff0000000000000
}

// cReserved are names a generated identifier must not take in any dialect:
// C++ keywords and the C library functions the generated code calls. A
// dialect adds its own (Dialect.Reserved).
var cReserved = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`
		alignas alignof and and_eq asm auto bitand bitor bool break case catch char
		char8_t char16_t char32_t class compl concept const consteval constexpr
		constinit const_cast continue co_await co_return co_yield decltype default
		delete do double dynamic_cast else enum explicit export extern false float
		for friend goto if inline int long mutable namespace new noexcept not
		not_eq nullptr operator or or_eq private protected public register
		reinterpret_cast requires restrict return short signed sizeof static
		static_assert static_cast struct switch template this thread_local throw
		true try typedef typeid typename union unsigned using virtual void volatile
		wchar_t while xor xor_eq main NULL EOF assert errno
		min max abs llabs fabs fabsf sqrt sqrtf exp expf log logf pow powf floor
		floorf ceil ceilf rint rintf round roundf isnan isinf signbit printf`) {
		m[w] = true
	}
	return m
}()

// cIdent turns an IR name into a C identifier of dialect d: runs of
// characters that may not appear in one become a single '_', and a name
// that C, the generated code or d reserves gets a '_' appended.
func cIdent(d Dialect, name string) string {
	var b strings.Builder
	under := false
	for _, r := range name {
		ok := r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
		if !ok || r == '_' {
			if !under {
				b.WriteByte('_')
			}
			under = true
			continue
		}
		under = false
		b.WriteRune(r)
	}
	s := b.String()
	switch {
	case s == "" || s == "_":
		s = "v"
	case s[0] == '_':
		s = "v" + s
	case s[0] >= '0' && s[0] <= '9' || strings.HasPrefix(s, "gh_"):
		s = "v_" + s
	}
	if cReserved[s] || d.Reserved(s) {
		s += "_"
	}
	return s
}
