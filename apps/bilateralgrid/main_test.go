package main

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gohalide/gohalide/apps/internal/appkit"
	"github.com/gohalide/gohalide/halide"
)

// splitFlags takes -save and -in out of the arguments in every form the
// flag package accepts, and reads the shared flags the -save run uses
// without taking them.
func TestSplitFlags(t *testing.T) {
	for _, c := range []struct {
		args, rest []string
		want       extraFlags
		err        bool
	}{
		{[]string{}, nil, extraFlags{target: "emulator", seed: 1, bench: 50}, false},
		{[]string{"-target=cuda", "-save", "out", "-bench=20"}, []string{"-target=cuda", "-bench=20"},
			extraFlags{saveDir: "out", target: "cuda", seed: 1, bench: 20, benchSet: true}, false},
		{[]string{"--save=d", "-in", "x.f32", "-target", "cpu", "-seed", "7", "-json"}, []string{"-target", "cpu", "-seed", "7", "-json"},
			extraFlags{saveDir: "d", inFile: "x.f32", target: "cpu", seed: 7, bench: 50}, false},
		{[]string{"-h"}, []string{"-h"}, extraFlags{target: "emulator", seed: 1, bench: 50, help: true}, false},
		{[]string{"-save"}, nil, extraFlags{}, true},
		{[]string{"-save="}, nil, extraFlags{}, true},
		{[]string{"-in", "x.f32"}, nil, extraFlags{}, true},
		{[]string{"-against=h.f32"}, nil, extraFlags{}, true},
		{[]string{"-save", "d", "-against=h.f32"}, nil, extraFlags{saveDir: "d", against: "h.f32", target: "emulator", seed: 1, bench: 50}, false},
	} {
		rest, got, err := splitFlags(c.args)
		if (err != nil) != c.err {
			t.Errorf("splitFlags(%q): error %v, want one: %v", c.args, err, c.err)
			continue
		}
		if c.err {
			continue
		}
		if !reflect.DeepEqual(rest, c.rest) || got != c.want {
			t.Errorf("splitFlags(%q) = %q, %+v; want %q, %+v", c.args, rest, got, c.rest, c.want)
		}
	}
}

// appkit.WriteRaw and readRaw round-trip an image, and readRaw refuses a file of
// the wrong size.
func TestRawRoundTrip(t *testing.T) {
	b := halide.NewBuffer[float32](3, 2)
	b.Fill(func(c []int) float32 { return float32(c[0]) + 0.25*float32(c[1]) - 1 })
	path := filepath.Join(t.TempDir(), "in.f32")
	if err := appkit.WriteRaw(path, b.Data()); err != nil {
		t.Fatal(err)
	}
	got, err := readRaw(path, 3, 2)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Data(), b.Data()) || got.Get(2, 1) != 1.25 {
		t.Errorf("read %v, wrote %v", got.Data(), b.Data())
	}
	if _, err := readRaw(path, 2, 2); err == nil {
		t.Error("a 3 x 2 file read as 2 x 2")
	}
}

// compareRaw passes equal outputs and ones within the tolerance, and fails
// one pixel off by more, naming it.
func TestCompareRaw(t *testing.T) {
	a := halide.NewBuffer[float32](4, 3)
	a.Fill(func(c []int) float32 { return 0.1 * float32(c[0]+c[1]) })
	b := halide.NewBuffer[float32](4, 3)
	copy(b.Data(), a.Data())
	var sb strings.Builder
	if err := compareRaw(&sb, a, b, "b"); err != nil {
		t.Errorf("equal outputs: %v", err)
	}
	b.Set(b.Get(3, 1)+1e-4, 3, 1)
	if err := compareRaw(&sb, a, b, "b"); err != nil {
		t.Errorf("outputs within 1e-3: %v", err)
	}
	b.Set(b.Get(2, 2)+1e-2, 2, 2)
	sb.Reset()
	if err := compareRaw(&sb, a, b, "b"); err == nil || !strings.Contains(sb.String(), "at (2, 2)") || !strings.Contains(sb.String(), "1 of 12 pixels") {
		t.Errorf("one pixel off by 1e-2: error %v, printed %q", err, sb.String())
	}
}
