package golden

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// tutorialPrograms are the tutorial's steps, in page order: each is a
// program docs/tutorial/<name>/main.go.
var tutorialPrograms = []string{"realize", "schedule", "gpu", "shared", "cudasource", "race", "cuda", "sliding", "tuple", "rfactor"}

// TestTutorialPrograms checks every step of docs/tutorial.md against its
// program in the repository (docs/tutorial/<name>/main.go): the code on
// the page is the file, and what the page shows it printing is what it
// prints. Every other Go file under docs/tutorial (the package boxblur
// that steps 1 to 7 import) is on the page too, whole, after a marker
// "tutorial file". Every marker on the page names a file that exists. A
// step whose output depends on whether nvcc is installed shows a second
// block, "without nvcc", that replaces the last paragraph of the output
// where it is not.
func TestTutorialPrograms(t *testing.T) {
	root := filepath.Join("..", "..")
	page, err := os.ReadFile(filepath.Join(root, "docs", "tutorial.md"))
	if err != nil {
		t.Fatal(err)
	}
	md := string(page)
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to build the tutorial's programs")
	}
	// Build them all with one go command (faster than one go run each).
	bin := t.TempDir()
	build := exec.Command(goTool, "build", "-o", bin+string(filepath.Separator), "./docs/tutorial/...")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./docs/tutorial/...: %v\n%s", err, out)
	}
	dirs, err := filepath.Glob(filepath.Join(root, "docs", "tutorial", "*", "main.go"))
	if err != nil || len(dirs) != len(tutorialPrograms) {
		t.Errorf("docs/tutorial has %d programs, the test knows %d (%v): add a new step to tutorialPrograms", len(dirs), len(tutorialPrograms), err)
	}
	// Every marker is one of the four kinds and names a file or folder of
	// the repository.
	marker := regexp.MustCompile(`^<!-- tutorial (?:program|file|output|output without nvcc): (\S+) -->$`)
	for _, m := range regexp.MustCompile(`<!-- tutorial .*?-->`).FindAllString(md, -1) {
		path := marker.FindStringSubmatch(m)
		if path == nil {
			t.Errorf("the page has a marker of no known kind: %q", m)
			continue
		}
		if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(path[1]))); err != nil {
			t.Errorf("the page's marker %q names no file: %v", m, err)
		}
	}
	// The files that are not programs: the page shows each of them whole.
	files, err := filepath.Glob(filepath.Join(root, "docs", "tutorial", "*", "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if filepath.Base(f) == "main.go" {
			continue
		}
		rel, err := filepath.Rel(root, f)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.ToSlash(rel)
		code, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if got := block(t, md, "<!-- tutorial file: "+name+" -->"); got != string(code) {
			t.Errorf("the code on the page is not %s:\n%s", name, diffLines(string(code), got))
		}
	}
	for _, name := range tutorialPrograms {
		dir := "docs/tutorial/" + name
		t.Run(name, func(t *testing.T) {
			code, err := os.ReadFile(filepath.Join(root, dir, "main.go"))
			if err != nil {
				t.Fatal(err)
			}
			got := block(t, md, "<!-- tutorial program: "+dir+"/main.go -->")
			if got != string(code) {
				t.Errorf("the code on the page is not %s/main.go:\n%s", dir, diffLines(string(code), got))
			}
			cmd := exec.Command(filepath.Join(bin, name))
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("%s: %v\n%s", dir, err, out)
			}
			want := block(t, md, "<!-- tutorial output: "+dir+" -->")
			alt := "<!-- tutorial output without nvcc: " + dir + " -->"
			if _, ok := halide.NVCCPath(); !ok && strings.Contains(md, alt) {
				i := strings.LastIndex(strings.TrimSuffix(want, "\n"), "\n\n")
				want = want[:i+2] + block(t, md, alt)
			}
			if string(out) != want {
				t.Errorf("the page's output of %s is not what it prints:\n%s", dir, diffLines(string(out), want))
			}
		})
	}
}

// block returns the fenced code block right after marker on the page
// (only blank space between them). The marker must be on the page once.
func block(t *testing.T, md, marker string) string {
	t.Helper()
	if n := strings.Count(md, marker); n != 1 {
		t.Fatalf("the page has %d times %q, not once", n, marker)
	}
	m := regexp.MustCompile(regexp.QuoteMeta(marker) + "\\s*```[a-z]*\\n((?s:.*?))```").FindStringSubmatch(md)
	if m == nil {
		t.Fatalf("no complete code block right after %q", marker)
	}
	return m[1]
}

// diffLines shows the first line where the repository's text (a file,
// what a program prints) and the page's differ.
func diffLines(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := range max(len(w), len(g)) {
		if a, b := lineAt(w, i), lineAt(g, i); a != b {
			return fmt.Sprintf("line %d:\nrepository %s\npage       %s", i+1, a, b)
		}
	}
	return "(same lines)"
}

// lineAt returns lines[i], or "" past the last line.
func lineAt(lines []string, i int) string {
	if i < len(lines) {
		return lines[i]
	}
	return ""
}
