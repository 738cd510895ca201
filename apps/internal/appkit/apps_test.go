package appkit

import (
	"bytes"
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The apps built as a user builds them (go build, no tags): each one's
// help, and its answers to an unknown schedule, an unknown target and
// -target=cuda without the cuda tag, with their exit statuses. Nothing is
// run, so this takes the time of the build.
func TestAppsCommandLine(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go command is not on PATH")
	}
	root, err := filepath.Abs(filepath.Join("..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	apps := map[string]struct{ schedules, targets string }{
		"tensorproduct":  {"A, B, C, best, best_p128, best_hotspot", "emulator, cuda, cpu"},
		"depthwise":      {"naive, v1, v2, v3, v4, fast", "emulator, cuda"},
		"conv1d":         {"naive, v1, v2, v3, v4, v5, fast", "emulator, cuda"},
		"gemm":           {"naive, v1, v2, v3, tiled_shared, tiled_shared_32x64, tiled_shared_32x32, tiled_shared_64x32, tiled_shared_64x64_k32, tiled_shared_64x64_k64, tiled_shared_64x32_v4, splitk2_64x32, splitk4_64x32, splitk4_32x32, splitk8_64x64, splitk8_64x64_v4, splitk4_64x32_v4, splitk4_128x64", "emulator, cuda"},
		"conv2d":         {"tvm, ours", "emulator, cuda"},
		"locallaplacian": {"manual", "emulator, cuda, cpu"},
		"bilateralgrid":  {"halide", "emulator, cuda, cpu"},
		"camerapipe":     {"halide", "emulator, cuda, cpu"},
		"rowsum":         {"plain, block, warp", "emulator, cuda"},
	}
	args := []string{"build", "-o", bin + string(filepath.Separator)}
	for app := range apps {
		args = append(args, "./apps/"+app)
	}
	build := exec.Command(goTool, args...)
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for app, want := range apps {
		t.Run(app, func(t *testing.T) {
			t.Parallel()
			for _, c := range []struct {
				args           []string
				code           int
				stdout, stderr string // contained; "" wants nothing
			}{
				{[]string{"-h"}, ExitOK, "schedules: " + want.schedules + "\ntargets:   " + want.targets + "\n", ""},
				{[]string{"-schedule=nope"}, ExitUsage, "",
					app + `: unknown schedule "nope"; the schedules are: ` + want.schedules + " (or all)\n"},
				{[]string{"-target=tpu"}, ExitUsage, "",
					app + `: unknown target "tpu"; the targets are: ` + want.targets + "\n"},
				{[]string{"-target=cuda"}, ExitFail, "",
					app + ": -target=cuda: this program was built without CUDA support; build it with -tags cuda"},
			} {
				cmd := exec.Command(filepath.Join(bin, app), c.args...)
				var stdout, stderr bytes.Buffer
				cmd.Stdout, cmd.Stderr = &stdout, &stderr
				err := cmd.Run()
				code := 0
				var exit *exec.ExitError
				if errors.As(err, &exit) {
					code = exit.ExitCode()
				} else if err != nil {
					t.Fatal(err)
				}
				if code != c.code {
					t.Errorf("%s %s: exit status %d, want %d", app, strings.Join(c.args, " "), code, c.code)
				}
				for _, o := range []struct{ name, got, want string }{{"stdout", stdout.String(), c.stdout}, {"stderr", stderr.String(), c.stderr}} {
					if o.want == "" && o.got != "" || !strings.Contains(o.got, o.want) {
						t.Errorf("%s %s: %s\n%s\nwant it to contain\n%s", app, strings.Join(c.args, " "), o.name, o.got, o.want)
					}
				}
				if c.code != ExitOK && strings.Count(stderr.String(), "\n") != 1 {
					t.Errorf("%s %s: want one line on stderr, got\n%s", app, strings.Join(c.args, " "), stderr.String())
				}
			}
		})
	}
}
