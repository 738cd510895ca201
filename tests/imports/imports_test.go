// Package imports checks that the project's imports flow one way: each
// package imports only packages of lower layers (the table below, which
// docs/design.md's package table follows).
package imports

import (
	"go/build"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

const module = "github.com/gohalide/gohalide/"

// layers lists the project's packages from the bottom up. A package may
// import only packages of layers below its own: not its own layer's, not
// one above. A name ending in "/..." stands for the packages under it.
// The CUDA runtime sits above halide: it registers itself with halide
// (halide.RegisterCUDA), so that halide never imports it and a module that
// does not use the GPU does not depend on gorgonia.org/cu.
var layers = []struct {
	pkgs []string
	why  string
}{
	{[]string{"half"}, "the leaf: the 16-bit float values (Float16, BFloat16) and their conversions"},
	{[]string{"ir"}, "types, IR nodes, the kernel record and its shared layout, the simplifier"},
	{[]string{"bounds", "cpu", "report", "cfamily", "cudart/nvrtc"}, "read IR only: bounds, the CPU executor, kernel reports, the C-family emitter, NVRTC"},
	{[]string{"lower", "emulator"}, "lowering (on bounds) and the GPU emulator (on cpu)"},
	{[]string{"halide"}, "the user API: lowers, compiles, runs on the emulator or a registered CUDA device"},
	{[]string{"cudart"}, "the CUDA runtime (tag cuda): registers itself with halide"},
	{[]string{"apps/algo"}, "the apps' algorithms and schedules"},
	{[]string{"apps/internal/...", "tests/fuzz", "docs/tutorial/boxblur"}, "the app driver, the fuzzers' library and the tutorial's blur"},
	{[]string{"apps/...", "tests/...", "docs/..."}, "commands, cross-package tests and tutorial programs"},
}

// layerOf returns the layer of a package path relative to the module
// (the most specific entry wins), or -1.
func layerOf(rel string) int {
	best, bestLen := -1, -1
	for i, l := range layers {
		for _, p := range l.pkgs {
			n := len(p)
			match := rel == p
			if prefix, ok := strings.CutSuffix(p, "/..."); ok {
				match = strings.HasPrefix(rel, prefix+"/")
				n = len(prefix)
			} else {
				n++ // an exact name is more specific than a pattern of the same length
			}
			if match && n > bestLen {
				best, bestLen = i, n
			}
		}
	}
	return best
}

// TestImportDirection checks every package of the module (its non-test
// files), with and without the tag cuda; the apps and the tutorial's
// programs import only halide (and cudart, apps/...) of the module.
func TestImportDirection(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	var dirs []string
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() {
			dirs = append(dirs, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	checked := map[string]bool{}
	for _, tags := range [][]string{nil, {"cuda"}} {
		ctx := build.Default
		ctx.BuildTags = tags
		ctx.CgoEnabled = true
		for _, dir := range dirs {
			pkg, err := ctx.ImportDir(dir, 0)
			if err != nil {
				if _, ok := err.(*build.NoGoError); ok {
					continue
				}
				t.Errorf("%s: %v", dir, err)
				continue
			}
			rel, _ := filepath.Rel(root, dir)
			rel = filepath.ToSlash(rel)
			me := layerOf(rel)
			if me < 0 {
				t.Errorf("package %s is in no layer: add it to the table in tests/imports (and to docs/design.md)", rel)
				continue
			}
			checked[rel] = true
			// A package's own files only: its tests may import packages
			// above it (lower's tests build pipelines with halide).
			for _, imp := range pkg.Imports {
				dep, ok := strings.CutPrefix(imp, module)
				if !ok || dep == rel {
					continue
				}
				if l := layerOf(dep); l < 0 || l >= me {
					t.Errorf("%s (layer %d: %s) imports %s (layer %d), which is not below it (tags %v)", rel, me, layers[me].why, dep, l, tags)
				}
				if userFacing(rel) && !userImportable(dep) {
					t.Errorf("%s imports %s: apps and tutorial programs use halide only (it re-exports the report, timing and NVCC types), and cudart for the GPU", rel, dep)
				}
			}
		}
	}
	// The table names real packages: the core ones are all there.
	for _, want := range []string{"half", "ir", "bounds", "lower", "cpu", "report", "cfamily", "emulator", "halide", "cudart", "cudart/nvrtc", "apps/algo"} {
		if !checked[want] {
			t.Errorf("package %s was not found: the layer table is stale", want)
		}
	}
	names := make([]string, 0, len(checked))
	for n := range checked {
		names = append(names, n)
	}
	sort.Strings(names)
	t.Logf("checked %d packages: %s", len(names), strings.Join(names, " "))
}

// TestLayerOf: the table's patterns place packages as intended.
func TestLayerOf(t *testing.T) {
	for _, c := range []struct {
		rel  string
		want int
	}{
		{"half", 0}, {"ir", 1}, {"bounds", 2}, {"cfamily", 2}, {"lower", 3}, {"emulator", 3}, {"halide", 4}, {"cudart", 5}, {"cudart/nvrtc", 2},
		{"apps/algo", 6}, {"apps/internal/appkit", 7}, {"tests/fuzz", 7}, {"apps/gemm", 8}, {"tests/fuzz/cmd/schedfuzz", 8},
		{"nosuch", -1},
	} {
		if got := layerOf(c.rel); got != c.want {
			t.Errorf("layerOf(%q) = %d, want %d", c.rel, got, c.want)
		}
	}
}

// userFacing reports whether a package is written as a user would write
// one: the apps and the tutorial's programs.
func userFacing(rel string) bool {
	if rel == "docs/tutorial/race" {
		// Step 6 plants a bug on purpose: it edits the lowered statement
		// (drops the barriers) through ir, which is what it teaches.
		return false
	}
	return strings.HasPrefix(rel, "apps/") || strings.HasPrefix(rel, "docs/")
}

// userImportable reports whether a user's program may import the package:
// halide, the CUDA runtime, the apps' own packages and the tutorial's
// (its blur, which the steps share, written with halide only).
func userImportable(dep string) bool {
	return dep == "halide" || dep == "cudart" || strings.HasPrefix(dep, "apps/") || dep == "docs/tutorial/boxblur"
}
