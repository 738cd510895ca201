package cfamily

import (
	"bytes"
	"fmt"
	"github.com/gohalide/gohalide/ir"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// buildHostC compiles the C program src with the host's C compiler, under
// the undefined-behaviour sanitizer with the given extra checks where the
// compiler has it (plainly otherwise), and returns the binary's path. The
// tests that check the CUDA preamble's helpers as host C share it; they
// skip without a C compiler.
func buildHostC(t *testing.T, name, src string, sanitize ...string) string {
	t.Helper()
	cc, err := exec.LookPath("cc")
	if err != nil {
		t.Skip("no C compiler")
	}
	dir := t.TempDir()
	cfile, bin := filepath.Join(dir, name+".c"), filepath.Join(dir, name)
	if err := os.WriteFile(cfile, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	build := func(flags ...string) error {
		out, err := exec.Command(cc, append(append(append([]string{"-O2", "-o", bin}, flags...), cfile), "-lm")...).CombinedOutput()
		if err != nil {
			return fmt.Errorf("%v: %s", err, out)
		}
		return nil
	}
	ubsan := append([]string{"-fsanitize=undefined", "-fno-sanitize-recover=all"}, sanitize...)
	if err := build(ubsan...); err != nil {
		t.Logf("no sanitizer (%v): compiling without it", err)
		if err := build(); err != nil {
			t.Fatalf("%v\n%s", err, src)
		}
	}
	return bin
}

// hostHelpers is the CUDA dialect with helpers that plain C compiles: the
// Dialect seam in use. The float-to-int, division and modulo helpers call
// nothing of CUDA's, so the host's C compiler checks exactly the code the
// GPU runs, under its sanitizer.
type hostHelpers struct{ cudaDialect }

func (hostHelpers) Name() string         { return "host C (test)" }
func (hostHelpers) HelperPrefix() string { return "static " }

// ReadOnlyLoad is a plain load: plain C has no __ldg.
func (hostHelpers) ReadOnlyLoad(_ ir.Type, buf, index string) string {
	return buf + "[" + index + "]"
}

// runHostC runs the program bin with input on its standard input and
// returns the lines it prints, failing the test unless it exits cleanly
// with one line per case (want of them).
func runHostC(t *testing.T, bin string, input *bytes.Buffer, want int) []string {
	t.Helper()
	cmd := exec.Command(bin)
	cmd.Stdin = input
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != want {
		t.Fatalf("%d lines for %d cases: %.500s", len(lines), want, out)
	}
	return lines
}
