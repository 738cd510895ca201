// Package errors_test checks that every error a user can cause through the
// public API is a *halide.Error with the right Code, Func and Directive, and
// a message that names what is wrong. There is one small test per error
// code (errors_test.go) and a test that bad arguments to directives give
// errors, never panics (nopanic_test.go).
package errors_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// errCase is one mistake: run makes it and returns the error it leads to.
type errCase struct {
	name      string
	run       func() error
	code      halide.ErrorCode
	fn        string   // want Error.Func
	directive string   // want Error.Directive
	mentions  []string // substrings Error() must contain
	legal     []string // substrings Error.Legal must contain (nil: not checked)
}

func runCases(t *testing.T, cases []errCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := safely(c.run)
			he := check(t, err, c.code, c.fn, c.directive, c.mentions...)
			if he == nil || c.legal == nil {
				return
			}
			if he.Legal == "" {
				t.Errorf("Legal is empty; want it to list what is legal (%q)", c.legal)
			}
			for _, l := range c.legal {
				if !strings.Contains(he.Legal, l) {
					t.Errorf("Legal %q does not mention %q", he.Legal, l)
				}
			}
		})
	}
}

// safely runs f and turns a panic into an error that check reports as one.
func safely(f func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("PANIC: %v", r)
		}
	}()
	return f()
}

// check asserts that err is a *halide.Error with the given code, Func and
// directive whose message mentions every string in mentions, and returns it.
func check(t *testing.T, err error, code halide.ErrorCode, fn, directive string, mentions ...string) *halide.Error {
	t.Helper()
	if err == nil {
		t.Errorf("no error; want %s", code)
		return nil
	}
	var he *halide.Error
	if !errors.As(err, &he) {
		t.Errorf("error %q is a %T, not a *halide.Error", err, err)
		return nil
	}
	if he.Code != code {
		t.Errorf("Code = %s, want %s (error: %v)", he.Code, code, firstLine(he.Error()))
	}
	if he.Func != fn {
		t.Errorf("Func = %q, want %q (error: %v)", he.Func, fn, firstLine(he.Error()))
	}
	if he.Directive != directive {
		t.Errorf("Directive = %q, want %q (error: %v)", he.Directive, directive, firstLine(he.Error()))
	}
	msg := he.Error()
	for _, m := range mentions {
		if !strings.Contains(msg, m) {
			t.Errorf("message %q does not mention %q", firstLine(msg), m)
		}
	}
	return he
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " ..."
	}
	return s
}

// lowerErr lowers the pipeline of out and returns the error.
func lowerErr(out *halide.Func) error {
	_, err := halide.NewPipeline(out).Lower()
	return err
}

var (
	x, y, z = halide.NewVar("x"), halide.NewVar("y"), halide.NewVar("z")
	xo, xi  = halide.NewVar("xo"), halide.NewVar("xi")
	yo, yi  = halide.NewVar("yo"), halide.NewVar("yi")
)

// blur is a two-stage pipeline: g(x, y) = 2 in(x, y) and
// f(x, y) = g(x, y) + g(x+1, y).
type blur struct {
	in   *halide.ImageParam
	g, f *halide.Func
}

func newBlur() blur {
	in := halide.NewImageParam("in", halide.Float32, 2)
	g := halide.NewFunc("g")
	g.Define(x, y).Is(in.At(x, y).Mul(2))
	f := halide.NewFunc("f")
	f.Define(x, y).Is(g.At(x, y).Add(g.At(x.Add(1), y)))
	return blur{in, g, f}
}

// set gives b's input a w x h buffer filled with x + 100 y.
func (b blur) set(w, h int) *halide.Buffer[float32] {
	buf := halide.NewBuffer[float32](w, h)
	buf.Fill(func(c []int) float32 { return float32(c[0] + 100*c[1]) })
	b.in.Set(buf)
	return buf
}

func asHalide(err error, he **halide.Error) bool { return errors.As(err, he) }
