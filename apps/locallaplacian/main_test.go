package main

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gohalide/gohalide/apps/algo"
	"github.com/gohalide/gohalide/apps/internal/appkit"
	"github.com/gohalide/gohalide/halide"
)

// -save on the CPU at a small size: the files it writes are the input,
// an output identical to the reference, and the reference recomputed from
// the input written.
func TestSave(t *testing.T) {
	dir := t.TempDir()
	var stdout, stderr bytes.Buffer
	if code := save([]string{"-save", dir, "-target=cpu", "-size=70x64", "-runs=1"}, &stdout, &stderr); code != appkit.ExitOK {
		t.Fatalf("exit status %d:\n%s\n%s", code, stdout.String(), stderr.String())
	}
	read := func(name string) []uint16 {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if len(b) != 2*70*64*3 {
			t.Fatalf("%s has %d bytes, want %d", name, len(b), 2*70*64*3)
		}
		d := make([]uint16, len(b)/2)
		for i := range d {
			d[i] = binary.LittleEndian.Uint16(b[2*i:])
		}
		return d
	}
	in, out, ref := read("input.raw"), read("output_cpu.raw"), read("reference.raw")
	img := halide.NewBuffer[uint16](70, 64, 3)
	copy(img.Data(), in)
	v := algo.NewLocalLaplacian(70, 64, levelsJ)
	want := algo.LocalLaplacianReference(img, levelsJ, v.LevelsV, v.AlphaV, v.BetaV).Data()
	for i := range want {
		if out[i] != want[i] || ref[i] != want[i] {
			t.Fatalf("value %d: output %d, reference file %d, reference of the input file %d", i, out[i], ref[i], want[i])
		}
	}
	params, err := os.ReadFile(filepath.Join(dir, "params.txt"))
	if err != nil || !strings.Contains(string(params), "width 70\nheight 64\n") || !strings.Contains(string(params), "alpha 0.142857149\n") {
		t.Errorf("params.txt: %q, %v", params, err)
	}
	if !strings.Contains(stdout.String(), "largest difference 0 of 65535") {
		t.Errorf("stdout:\n%s", stdout.String())
	}
}

func TestSaveUsage(t *testing.T) {
	for _, args := range [][]string{
		{"-save", t.TempDir(), "-target=tpu"},
		{"-save", t.TempDir(), "-size=70"},
		{"-save", ""},
		{"-save", t.TempDir(), "-runs=0"},
	} {
		var stdout, stderr bytes.Buffer
		if code := save(args, &stdout, &stderr); code != appkit.ExitUsage {
			t.Errorf("%v: exit status %d, want %d", args, code, appkit.ExitUsage)
		}
	}
}
