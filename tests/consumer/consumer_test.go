// Package consumer checks gohalide as another module sees it: a module
// that imports halide builds and runs, and `go mod tidy` adds none of the
// CUDA runtime's modules to it unless it imports the runtime (cudart).
package consumer

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// runtimeModules are the modules only the CUDA runtime (cudart) needs.
var runtimeModules = []string{"gorgonia.org/cu", "github.com/google/uuid", "github.com/pkg/errors"}

// consumerMain is a program of an outside module: a tiny pipeline on the
// default target (the emulator).
const consumerMain = `package main

import (
	"fmt"

	"github.com/gohalide/gohalide/halide"
)

func main() {
	x := halide.NewVar("x")
	f := halide.NewFunc("f")
	f.Define(x).Is(x.Mul(2).Add(1))
	out := halide.NewBuffer[int32](4)
	if err := halide.NewPipeline(f).Realize(out); err != nil {
		fmt.Println("error:", err)
		return
	}
	fmt.Println(out.Data())
}
`

// cudaMain imports the runtime as a GPU program does.
const cudaMain = `package main

import (
	_ "github.com/gohalide/gohalide/cudart"
	"github.com/gohalide/gohalide/halide"
)

func main() { _ = halide.CUDA }
`

// repoRoot is the directory of gohalide's go.mod.
func repoRoot(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err != nil {
		t.Fatalf("no go.mod two levels above tests/consumer: %v", err)
	}
	return dir
}

// newModule writes an outside module with main.go = src that requires
// gohalide from root (a replace directive), with gohalide's go.sum so
// that nothing is fetched, and returns its directory.
func newModule(t *testing.T, root, src string) string {
	t.Helper()
	dir := t.TempDir()
	mod := "module example.com/consumer\n\ngo 1.26\n\nrequire github.com/gohalide/gohalide v0.0.0\n\nreplace github.com/gohalide/gohalide => " + root + "\n"
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{"go.mod": []byte(mod), "go.sum": sum, "main.go": []byte(src)} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// goCmd runs the go command in dir with the module cache only (no
// network: GOPROXY=off; gohalide's own build put what it needs there).
func goCmd(t *testing.T, gobin, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command(gobin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod -buildvcs=false", "GOPROXY=off", "GOSUMDB=off", "GOWORK=off")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go %s in %s: %v\n%s", strings.Join(args, " "), dir, err, out)
	}
	return string(out)
}

// goTool returns the go command, or skips the test without one.
func goTool(t *testing.T) string {
	t.Helper()
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH: cannot build an outside module")
	}
	return gobin
}

// TestOutsideModule: a module that imports halide builds and runs its
// pipeline, and after go mod tidy its go.mod names none of the runtime's
// modules.
func TestOutsideModule(t *testing.T) {
	gobin, root := goTool(t), repoRoot(t)
	dir := newModule(t, root, consumerMain)
	goCmd(t, gobin, dir, "mod", "tidy")
	mod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range runtimeModules {
		if strings.Contains(string(mod), m) {
			t.Errorf("go mod tidy added %s to a module that imports only halide:\n%s", m, mod)
		}
	}
	// f(x) = 2x + 1 over x in [0, 4).
	if out := goCmd(t, gobin, dir, "run", "."); strings.TrimSpace(out) != "[1 3 5 7]" {
		t.Errorf("the outside module printed %q, want [1 3 5 7]", out)
	}
}

// TestOutsideModuleWithRuntime: the check above can fail. A module that
// imports cudart does get the runtime's modules from go mod tidy (which
// reads files of every build tag, cuda included).
func TestOutsideModuleWithRuntime(t *testing.T) {
	gobin, root := goTool(t), repoRoot(t)
	dir := newModule(t, root, cudaMain)
	// -e: tidy also reads the tests of cu's packages, which import
	// testify; offline (GOPROXY=off) a module cache without it is an
	// error that says nothing about what this test checks.
	goCmd(t, gobin, dir, "mod", "tidy", "-e")
	mod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(mod), "gorgonia.org/cu") {
		t.Errorf("go mod tidy did not add gorgonia.org/cu to a module that imports cudart:\n%s", mod)
	}
}
