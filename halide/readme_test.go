package halide_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestReadmeSnippet checks that the README's pipeline is Example_readme:
// the code block after the README's "readme example" marker is the
// Example's body (one tab of indentation removed), and the block after
// "readme example output" is its checked output. go test runs the Example,
// so the README's code compiles and prints what it shows.
func TestReadmeSnippet(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile("example_readme_test.go")
	if err != nil {
		t.Fatal(err)
	}
	body, output := exampleText(t, string(src), "Example_readme")
	md := string(readme)
	if got := fencedAfter(t, md, "<!-- readme example: halide/example_readme_test.go Example_readme -->"); got != body {
		t.Errorf("README's snippet is not the body of Example_readme:\n%s", firstDiff(body, got))
	}
	if got := fencedAfter(t, md, "<!-- readme example output -->"); got != output {
		t.Errorf("README's output is not Example_readme's:\n%s", firstDiff(output, got))
	}
}

// exampleText returns the body of the function name in src, its outer
// indentation removed and its "// Output:" comment left off, and the
// output that comment states.
func exampleText(t *testing.T, src, name string) (body, output string) {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Name.Name != name {
			continue
		}
		text := src[fset.Position(fd.Body.Lbrace).Offset+1 : fset.Position(fd.Body.Rbrace).Offset]
		code, out, ok := strings.Cut(text, "\t// Output:\n")
		if !ok {
			t.Fatalf("%s has no // Output: comment", name)
		}
		var b strings.Builder
		for _, line := range strings.Split(strings.TrimPrefix(code, "\n"), "\n") {
			b.WriteString(strings.TrimPrefix(line, "\t"))
			b.WriteString("\n")
		}
		body = strings.TrimSuffix(b.String(), "\n")
		b.Reset()
		for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
			line = strings.TrimPrefix(strings.TrimPrefix(line, "\t//"), " ")
			b.WriteString(line + "\n")
		}
		return body, b.String()
	}
	t.Fatalf("no function %s", name)
	return "", ""
}

// fencedAfter returns the text of the fenced code block after marker.
func fencedAfter(t *testing.T, md, marker string) string {
	t.Helper()
	_, after, ok := strings.Cut(md, marker)
	if !ok {
		t.Fatalf("README has no %q", marker)
	}
	_, after, ok = strings.Cut(after, "```")
	if !ok {
		t.Fatalf("no code block after %q", marker)
	}
	_, after, _ = strings.Cut(after, "\n") // the fence's language
	block, _, ok := strings.Cut(after, "```")
	if !ok {
		t.Fatalf("the code block after %q does not end", marker)
	}
	return block
}

// firstDiff shows the first line where want and got differ.
func firstDiff(want, got string) string {
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
			return "line " + strconv.Itoa(i+1) + ":\nwant " + a + "\ngot  " + b
		}
	}
	return "(same lines)"
}
