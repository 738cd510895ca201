package golden

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestTutorialPrograms checks the tutorial steps whose programs live in
// the repository (docs/tutorial/<name>/main.go): the code on the page is
// the file, and what the page shows it printing is what `go run` prints.
func TestTutorialPrograms(t *testing.T) {
	root := filepath.Join("..", "..")
	page, err := os.ReadFile(filepath.Join(root, "docs", "tutorial.md"))
	if err != nil {
		t.Fatal(err)
	}
	md := string(page)
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to run the tutorial's programs")
	}
	for _, dir := range []string{"docs/tutorial/sliding"} {
		t.Run(dir, func(t *testing.T) {
			code, err := os.ReadFile(filepath.Join(root, dir, "main.go"))
			if err != nil {
				t.Fatal(err)
			}
			if got := block(t, md, "<!-- tutorial program: "+dir+"/main.go -->"); got != string(code) {
				t.Errorf("the code on the page is not %s/main.go:\n%s", dir, diffLines(string(code), got))
			}
			cmd := exec.Command(goTool, "run", "./"+dir)
			cmd.Dir = root
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("go run ./%s: %v\n%s", dir, err, out)
			}
			if got := block(t, md, "<!-- tutorial output: "+dir+" -->"); got != string(out) {
				t.Errorf("the page's output of %s is not what it prints:\n%s", dir, diffLines(string(out), got))
			}
		})
	}
}

// block returns the fenced code block that follows marker on the page.
func block(t *testing.T, md, marker string) string {
	t.Helper()
	_, after, ok := strings.Cut(md, marker)
	if !ok {
		t.Fatalf("the page has no %q", marker)
	}
	_, after, ok = strings.Cut(after, "```")
	if !ok {
		t.Fatalf("no code block after %q", marker)
	}
	_, after, _ = strings.Cut(after, "\n") // the fence's language
	body, _, ok := strings.Cut(after, "```")
	if !ok {
		t.Fatalf("the code block after %q does not end", marker)
	}
	return body
}

// diffLines shows the first line where want and got differ.
func diffLines(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			return "line " + itoa(i+1) + ":\nwant " + a + "\ngot  " + b
		}
	}
	return "(same lines)"
}

func itoa(i int) string {
	s := ""
	for ; i > 0; i /= 10 {
		s = string(rune('0'+i%10)) + s
	}
	if s == "" {
		s = "0"
	}
	return s
}
